/* SPDX-License-Identifier: MIT */
/*
 * The bonding driver's rules across the options of one bond, beside the
 * option table (bond_option_table.h): which options a mode takes, the miimon the
 * kernel forces, delays counted in miimon periods, the ARP monitor and its
 * companions.  Pure: the config parser reports what they find with its
 * FILE:LINE, and the planner may judge a combined option set with them.
 */
#ifndef BONDD_BOND_RULES_H
#define BONDD_BOND_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "bond_settings.h"

/* What the kernel puts in miimon, when it is 0, on entering a mode without
 * an ARP monitor (drivers/net/bonding/bond_options.c bond_option_mode_set,
 * BOND_DEFAULT_MIIMON). */
#define BOND_FORCED_MIIMON 100

/* One broken rule: option `id` is to blame; `rest` follows the option's key
 * in the message (" needs miimon", ": 0 is not allowed in mode 802.3ad").
 * `warning`: the kernel takes it, but ignores it or changes it (an option
 * the mode does not use, an ARP option without arp_interval, a delay it
 * rounds); otherwise the kernel would refuse it. */
typedef void (*bond_rule_report)(void *ctx, enum bond_option_id id, bool warning,
				 const char *rest);

/*
 * Checks the options set in o (and those in *bad: given with a value that
 * was refused) for a bond of o's mode.  Options the mode does not take are
 * reported, dropped from o and added to *bad; miimon is set to
 * BOND_FORCED_MIIMON where the kernel would force it and o leaves it out;
 * a delay the kernel rounds down to a multiple of miimon is rounded in o.
 * Rules about an option in *bad are not judged again.
 */
void bond_rules_check(struct bond_settings *o, uint64_t *bad, bond_rule_report report, void *ctx);

#endif
