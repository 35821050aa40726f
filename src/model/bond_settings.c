/* SPDX-License-Identifier: MIT */
/* Comparing, setting and printing bond option values. */
#include "bond_settings.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

void bond_settings_set(struct bond_settings *o, enum bond_option_id id, uint32_t value)
{
	o->val[id] = value;
	o->have |= OPT_BIT(id);
}

bool bond_settings_equal(const struct bond_settings *a, const struct bond_settings *b,
		     enum bond_option_id id)
{
	if (!bond_settings_has(a, id) || !bond_settings_has(b, id))
		return false;
	switch (bond_option_spec(id)->type) {
	case OT_IP4_LIST:
		return a->n_arp_ip_target == b->n_arp_ip_target &&
		       memcmp(a->arp_ip_target, b->arp_ip_target,
			      a->n_arp_ip_target * sizeof(a->arp_ip_target[0])) == 0;
	case OT_IP6_LIST:
		return a->n_ns_ip6_target == b->n_ns_ip6_target &&
		       memcmp(a->ns_ip6_target, b->ns_ip6_target,
			      a->n_ns_ip6_target * sizeof(a->ns_ip6_target[0])) == 0;
	case OT_MAC:
		return memcmp(a->ad_actor_system, b->ad_actor_system, 6) == 0;
	case OT_IFNAME:
		return strcmp(a->primary, b->primary) == 0;
	default:
		return a->val[id] == b->val[id];
	}
}

const char *bond_settings_format(const struct bond_settings *o, enum bond_option_id id,
			     char *buf, size_t len)
{
	const struct bond_option_spec *d = bond_option_spec(id);
	size_t used = 0;
	char addr[INET6_ADDRSTRLEN];

	if (len == 0)
		return buf;
	buf[0] = '\0';
	switch (d->type) {
	case OT_IP4_LIST:
		for (unsigned i = 0; i < o->n_arp_ip_target && used < len; i++) {
			inet_ntop(AF_INET, &o->arp_ip_target[i], addr, sizeof(addr));
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", addr);
		}
		break;
	case OT_IP6_LIST:
		for (unsigned i = 0; i < o->n_ns_ip6_target && used < len; i++) {
			inet_ntop(AF_INET6, &o->ns_ip6_target[i], addr, sizeof(addr));
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", addr);
		}
		break;
	case OT_MAC: {
		const uint8_t *m = o->ad_actor_system;
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
			 m[4], m[5]);
		break;
	}
	case OT_IFNAME:
		snprintf(buf, len, "%s", o->primary);
		break;
	default: {
		const char *name = bond_option_value_name(d, o->val[id]);
		if (name)
			snprintf(buf, len, "%s", name);
		else
			snprintf(buf, len, "%u", o->val[id]);
	}
	}
	return buf;
}
