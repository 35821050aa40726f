/* SPDX-License-Identifier: MIT */
/* The planner's view of the holds: which actions are backing off after a
 * kernel error, by the key each action is held under. */
#include "plan_parts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <net/if_arp.h>

bool plan_key_held(const struct plan_constraints *holds, const char *key)
{
	for (size_t i = 0; holds && i < holds->n; i++)
		if (strcmp(holds->keys[i], key) == 0)
			return true;
	return false;
}

bool plan_is_held(const struct plan_constraints *holds, const char *what, const char *name)
{
	char key[PLAN_KEY_SIZE];

	snprintf(key, sizeof(key), "%s %s", what, name);
	return plan_key_held(holds, key);
}

/* Whether the kernel refused to enslave `name` as in use (plan.h). */
bool refused(const struct ctx *c, const char *name)
{
	char key[PLAN_KEY_SIZE];

	snprintf(key, sizeof(key), "link %s", name);
	for (size_t i = 0; c->holds && i < c->holds->n_refused; i++)
		if (strcmp(c->holds->refused[i], key) == 0)
			return true;
	return false;
}

/* Whether the last try of `what` of `name` failed (its hold has expired). */
bool failing(const struct ctx *c, const char *what, const char *name)
{
	char key[PLAN_KEY_SIZE];

	snprintf(key, sizeof(key), "%s %s", what, name);
	for (size_t i = 0; c->holds && i < c->holds->n_failing; i++)
		if (strcmp(c->holds->failing[i], key) == 0)
			return true;
	return false;
}

/* Whether `what` ("link", "up", "mtu", "slave-opts") of `name` is held. */
bool held(const struct ctx *c, const char *what, const char *name)
{
	return plan_is_held(c->holds, what, name);
}

static const char *opt_key(const char *bond, enum bond_option_id id, char *buf, size_t len)
{
	snprintf(buf, len, "opt %s %s", bond, bond_option_spec(id)->key);
	return buf;
}

const char *addr_key(const char *bond, const struct bond_addr *a, char *buf,
			    size_t len)
{
	char text[INET6_ADDRSTRLEN] = "?";

	inet_ntop(a->family, a->addr, text, sizeof(text));
	snprintf(buf, len, "addr %s %s/%u", bond, text, a->prefixlen);
	return buf;
}

/* The bond's options that are backing off. */
uint64_t held_opts(const struct ctx *c, const char *bond)
{
	char key[PLAN_KEY_SIZE];
	uint64_t mask = 0;

	for (int id = 0; id < OPT__COUNT; id++)
		if (plan_key_held(c->holds, opt_key(bond, (enum bond_option_id)id, key, sizeof(key))))
			mask |= OPT_BIT(id);
	return mask;
}

const char *plan_hold_key(const struct action *a, int failed_opt, char *buf, size_t len)
{
	/* The key's first word for the kinds held by the link they change;
	 * every other kind not named below is held as "link IFNAME". */
	static const char *const word[ACT__COUNT] = {
		[ACT_SET_MTU] = "mtu", [ACT_SET_MAC] = "mac", [ACT_LINK_UP] = "up",
		[ACT_SET_SLAVE_OPTS] = "slave-opts", [ACT_SET_BRIDGE] = "bridge",
	};

	switch (a->kind) {
	case ACT_SET_OPTS:
		if (failed_opt >= 0 && failed_opt < OPT__COUNT)
			return opt_key(a->bond, (enum bond_option_id)failed_opt, buf, len);
		/* Not known which: hold the first, the one tried first. */
		for (int id = 0; id < OPT__COUNT; id++)
			if (bond_settings_has(&a->opts, (enum bond_option_id)id))
				return opt_key(a->bond, (enum bond_option_id)id, buf, len);
		break;
	case ACT_ADD_ADDR:
		return addr_key(a->bond, &a->addr, buf, len);
	case ACT_SET_ROUTE_CC:
		snprintf(buf, len, "route %s", a->bond);
		return buf;
	default:
		break;
	}
	const char *w = (unsigned)a->kind < ACT__COUNT ? word[a->kind] : NULL;
	snprintf(buf, len, "%s %s", w ? w : "link", a->ifname);
	return buf;
}
