/* SPDX-License-Identifier: MIT */
/* The action list and how actions read in logs. */
#include "action.h"
#include "grow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static const char *const kind_names[ACT__COUNT] = {
	[ACT_CREATE_BOND] = "create",   [ACT_DELETE_BOND] = "delete",
	[ACT_SET_OPTS] = "set-options", [ACT_SET_MTU] = "set-mtu",
	[ACT_LINK_DOWN] = "link-down",  [ACT_LINK_UP] = "link-up",
	[ACT_ENSLAVE] = "enslave",      [ACT_RELEASE] = "release",
	[ACT_SET_SLAVE_OPTS] = "set-slave-options", [ACT_ADD_ADDR] = "add-address",
	[ACT_SET_ROUTE_CC] = "set-route-congestion", [ACT_SET_MAC] = "set-mac",
	[ACT_SET_BRIDGE] = "set-bridge",
};

const char *action_kind_name(enum action_kind k)
{
	return (unsigned)k < ACT__COUNT ? kind_names[k] : "?";
}

void action_list_clear(struct action_list *l)
{
	l->n = 0;
	l->n_notes = 0;
}

void action_list_free(struct action_list *l)
{
	free(l->v);
	free(l->notes);
	memset(l, 0, sizeof(*l));
}

struct action *action_list_push(struct action_list *l, const struct action *a)
{
	return grow_append(&l->v, &l->cap, &l->n, sizeof(*a), 16, a);
}

struct plan_note *action_list_note(struct action_list *l, const char *bond,
				   const char *ifname, const char *fmt, ...)
{
	struct plan_note *n = grow_append(&l->notes, &l->cap_notes, &l->n_notes, sizeof(*n), 8, NULL);
	if (!n)
		return NULL;
	snprintf(n->bond, sizeof(n->bond), "%s", bond);
	snprintf(n->ifname, sizeof(n->ifname), "%s", ifname);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(n->msg, sizeof(n->msg), fmt, ap);
	va_end(ap);
	return n;
}

static void describe_opts(const struct bond_settings *o, char *buf, size_t len)
{
	size_t used = 0;
	char val[256];

	buf[0] = '\0';
	for (int id = 0; id < OPT__COUNT && used < len; id++) {
		if (!bond_settings_has(o, (enum bond_option_id)id))
			continue;
		used += (size_t)snprintf(buf + used, len - used, " %s=%s",
					 bond_option_spec((enum bond_option_id)id)->key,
					 bond_settings_format(o, (enum bond_option_id)id, val, sizeof(val)));
	}
}

const char *action_describe(const struct action *a, char *buf, size_t len)
{
	char extra[512] = "";
	char addr[INET6_ADDRSTRLEN];
	const char *why = a->why ? a->why : "";

	switch (a->kind) {
	case ACT_CREATE_BOND:
		describe_opts(&a->opts, extra, sizeof(extra));
		if (a->has_mac)
			snprintf(buf, len, "create %s mtu %u address %02x:%02x:%02x:%02x:%02x:%02x%s "
				 "(%s)", a->ifname, a->mtu, a->mac[0], a->mac[1], a->mac[2],
				 a->mac[3], a->mac[4], a->mac[5], extra, why);
		else
			snprintf(buf, len, "create %s mtu %u%s (%s)", a->ifname, a->mtu, extra,
				 why);
		break;
	case ACT_SET_MAC:
		snprintf(buf, len, "set %s address %02x:%02x:%02x:%02x:%02x:%02x (%s)", a->ifname,
			 a->mac[0], a->mac[1], a->mac[2], a->mac[3], a->mac[4], a->mac[5], why);
		break;
	case ACT_SET_OPTS:
		describe_opts(&a->opts, extra, sizeof(extra));
		snprintf(buf, len, "set %s%s (%s)", a->ifname, extra, why);
		break;
	case ACT_SET_MTU:
		snprintf(buf, len, "set %s mtu %u (%s)", a->ifname, a->mtu, why);
		break;
	case ACT_ENSLAVE:
		snprintf(buf, len, "enslave %s to %s (%s)", a->ifname, a->bond, why);
		break;
	case ACT_RELEASE:
		snprintf(buf, len, "release %s (%s)", a->ifname, why);
		break;
	case ACT_SET_BRIDGE:
		snprintf(buf, len, "add %s to bridge %s (%s)", a->ifname, a->master, why);
		break;
	case ACT_SET_SLAVE_OPTS:
		snprintf(buf, len, "set slave %s%s%s%s (%s)", a->ifname,
			 a->slave.has_queue_id ? " queue_id" : "", a->slave.has_prio ? " prio" : "",
			 a->slave.has_actor_port_prio ? " actor_port_prio" : "", why);
		break;
	case ACT_ADD_ADDR:
		inet_ntop(a->addr.family, a->addr.addr, addr, sizeof(addr));
		snprintf(buf, len, "add %s/%u to %s (%s)", addr, a->addr.prefixlen, a->ifname, why);
		break;
	case ACT_SET_ROUTE_CC:
		inet_ntop(a->route.family, a->route.dst, addr, sizeof(addr));
		snprintf(buf, len, "set tcp congestion %s on route %s/%u dev %s (%s)",
			 a->route.cc_algo[0] ? a->route.cc_algo : "(kernel default)", addr,
			 a->route.dst_len, a->bond, why);
		break;
	default:
		snprintf(buf, len, "%s %s (%s)", action_kind_name(a->kind), a->ifname, why);
	}
	return buf;
}
