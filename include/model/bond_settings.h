/* SPDX-License-Identifier: MIT */
/*
 * A set of bond option values: what the config asks for, or what the
 * kernel reports.  Plain data, copied freely.
 */
#ifndef BONDD_BOND_SETTINGS_H
#define BONDD_BOND_SETTINGS_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "bond_option_table.h"

#define OPT_BIT(id) (UINT64_C(1) << (id))

struct bond_settings {
	uint64_t have;             /* OPT_BIT() of every option that holds a value */
	uint32_t val[OPT__COUNT];  /* scalar values, for OT_U8/OT_U16/OT_U32 */
	struct in_addr arp_ip_target[BOND_MAX_TARGETS];
	unsigned n_arp_ip_target;
	struct in6_addr ns_ip6_target[BOND_MAX_TARGETS];
	unsigned n_ns_ip6_target;
	uint8_t ad_actor_system[6];
	/* primary: a name in the config; the observer resolves the kernel's
	 * ifindex to a name ("" when the kernel has none). */
	char primary[IFNAMSIZ];
};

static inline bool bond_settings_has(const struct bond_settings *o, enum bond_option_id id)
{
	return (o->have & OPT_BIT(id)) != 0;
}

/* True when option id holds the same value in a and b (both must have it). */
bool bond_settings_equal(const struct bond_settings *a, const struct bond_settings *b,
		     enum bond_option_id id);

/* Sets a scalar option and marks it present. */
void bond_settings_set(struct bond_settings *o, enum bond_option_id id, uint32_t value);

/*
 * Writes the value of option id as sysfs would show it ("balance-rr 0" style
 * is not used: a name when the option has names, else a number; lists are
 * space-separated).  Returns buf.
 */
const char *bond_settings_format(const struct bond_settings *o, enum bond_option_id id,
			     char *buf, size_t len);

#endif
