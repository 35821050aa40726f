/* SPDX-License-Identifier: MIT */
/* The bonding driver's cross-option rules (see bond_rules.h). */
#include "bond_rules.h"

#include <stdio.h>

/* Options the mode does not take: the kernel refuses them
 * (drivers/net/bonding/bond_options.c bond_opt_check_deps: -EACCES for a
 * mode in the option's .unsuppmodes).  Dropped, so that later rules do not
 * pile up on the same mistake.  Options the kernel takes in the mode but
 * never reads there (no .unsuppmodes: xmit_hash_policy in balance-rr) are
 * kept, as the kernel keeps them, with a warning. */
static void check_modes(struct bond_settings *o, uint64_t *bad, bond_rule_report report,
			void *ctx)
{
	enum bond_mode mode = (enum bond_mode)o->val[OPT_MODE];
	char rest[128];

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		if (id == OPT_MODE || !((o->have | *bad) & OPT_BIT(id)))
			continue;
		if (bond_option_applies(d, mode)) {
			if (bond_option_used(d, mode) || !(o->have & OPT_BIT(id)))
				continue;
			snprintf(rest, sizeof(rest), " has no effect in mode %s: the kernel keeps "
				 "it but does not use it there", bond_mode_name(mode));
			report(ctx, (enum bond_option_id)id, true, rest);
			continue;
		}
		snprintf(rest, sizeof(rest), " does not apply to mode %s", bond_mode_name(mode));
		report(ctx, (enum bond_option_id)id, false, rest);
		o->have &= ~OPT_BIT(id);
		*bad |= OPT_BIT(id);
	}
}

/* In modes without an ARP monitor the kernel turns miimon 0 into 100: expect
 * what it will report, and refuse an explicit 0 it would overrule. */
static void check_forced_miimon(struct bond_settings *o, uint64_t bad, bond_rule_report report,
				void *ctx)
{
	enum bond_mode mode = (enum bond_mode)o->val[OPT_MODE];
	char rest[64];

	if (bond_option_applies(bond_option_spec(OPT_ARP_INTERVAL), mode) || (bad & OPT_BIT(OPT_MIIMON)))
		return;
	if (!bond_settings_has(o, OPT_MIIMON)) {
		bond_settings_set(o, OPT_MIIMON, BOND_FORCED_MIIMON);
	} else if (o->val[OPT_MIIMON] == 0) {
		snprintf(rest, sizeof(rest), ": 0 is not allowed in mode %s", bond_mode_name(mode));
		report(ctx, OPT_MIIMON, false, rest);
	}
}

/* The kernel stores the delays as multiples of miimon: it refuses them while
 * miimon is 0 (even a delay of 0: -EPERM) and rounds them down otherwise,
 * with a warning in its log (drivers/net/bonding/bond_options.c
 * _bond_option_delay_set).  The rounded value is what it then reports, so
 * it is what bondd expects. */
static void check_delays(struct bond_settings *o, uint64_t bad, bond_rule_report report,
			 void *ctx)
{
	static const enum bond_option_id delays[] = {OPT_UPDELAY, OPT_DOWNDELAY, OPT_PEER_NOTIF_DELAY};
	uint32_t miimon = bond_settings_has(o, OPT_MIIMON) ? o->val[OPT_MIIMON] : 0;
	char rest[128];

	if (bad & OPT_BIT(OPT_MIIMON))
		return;
	for (size_t i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		enum bond_option_id id = delays[i];
		if (!bond_settings_has(o, id))
			continue;
		if (miimon == 0) {
			report(ctx, id, false, " needs miimon");
		} else if (o->val[id] % miimon) {
			uint32_t down = o->val[id] / miimon * miimon;
			snprintf(rest, sizeof(rest), ": %u is not a multiple of miimon (%u): the "
				 "kernel rounds it down to %u; write %u", o->val[id], miimon, down, down);
			report(ctx, id, true, rest);
			o->val[id] = down;
		}
	}
}

/* A list of separators only ("arp_ip_target = ,") holds no target: with
 * the monitor on, the kernel would find every slave down
 * (drivers/net/bonding/bond_main.c bond_loadbalance_arp_mon sends to no
 * target, so no slave ever sees an answer). */
static void check_empty_targets(const struct bond_settings *o, uint32_t arp,
				bond_rule_report report, void *ctx)
{
	static const enum bond_option_id lists[] = {OPT_ARP_IP_TARGET, OPT_NS_IP6_TARGET};
	char rest[96];

	snprintf(rest, sizeof(rest),
		 ": the list holds no address, and arp_interval %u needs at least one target", arp);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (bond_settings_has(o, lists[i]))
			report(ctx, lists[i], false, rest);
}

/* The ARP monitor: exclusive with miimon (drivers/net/bonding/bond_netlink.c
 * bond_changelink refuses both non-zero in one request, -EINVAL), useless
 * without targets, and its companions are kept but ignored while it is off
 * (bond_options.c bond_option_missed_max_set, bond_option_arp_validate_set,
 * bond_option_arp_all_targets_set and the target lists only store the
 * value; no dependency on arp_interval): taken with a warning. */
static void check_arp(const struct bond_settings *o, uint64_t bad, bond_rule_report report,
		      void *ctx)
{
	static const enum bond_option_id companions[] = {OPT_ARP_IP_TARGET, OPT_NS_IP6_TARGET,
						   OPT_ARP_VALIDATE, OPT_ARP_ALL_TARGETS,
						   OPT_MISSED_MAX};
	uint32_t arp = bond_settings_has(o, OPT_ARP_INTERVAL) ? o->val[OPT_ARP_INTERVAL] : 0;

	if (bad & OPT_BIT(OPT_ARP_INTERVAL))
		return;
	if (arp > 0) {
		if (bond_settings_has(o, OPT_MIIMON) && o->val[OPT_MIIMON] > 0)
			report(ctx, OPT_ARP_INTERVAL, false, " and miimon cannot both be enabled");
		if (bad & (OPT_BIT(OPT_ARP_IP_TARGET) | OPT_BIT(OPT_NS_IP6_TARGET)))
			return;
		if (!bond_settings_has(o, OPT_ARP_IP_TARGET) && !bond_settings_has(o, OPT_NS_IP6_TARGET))
			report(ctx, OPT_ARP_INTERVAL, false, " needs arp_ip_target");
		else if (o->n_arp_ip_target + o->n_ns_ip6_target == 0)
			check_empty_targets(o, arp, report, ctx);
		return;
	}
	/* In a mode without the ARP monitor check_modes said it already. */
	if (!bond_option_used(bond_option_spec(OPT_ARP_INTERVAL), (enum bond_mode)o->val[OPT_MODE]))
		return;
	for (size_t i = 0; i < sizeof(companions) / sizeof(companions[0]); i++)
		if (bond_settings_has(o, companions[i]))
			report(ctx, companions[i], true, " has no effect without arp_interval: the "
			       "kernel keeps it for when the ARP monitor runs");
}

void bond_rules_check(struct bond_settings *o, uint64_t *bad, bond_rule_report report, void *ctx)
{
	check_modes(o, bad, report, ctx);
	check_forced_miimon(o, *bad, report, ctx);
	check_delays(o, *bad, report, ctx);
	check_arp(o, *bad, report, ctx);
}
