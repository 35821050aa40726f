/* SPDX-License-Identifier: MIT */
/* The bonding option table: names, wire types, ranges and kernel rules. */
#include "bond_option_table.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_link.h>

static const struct bond_option_word mode_names[] = {
	{"balance-rr", MODE_BALANCE_RR},   {"active-backup", MODE_ACTIVE_BACKUP},
	{"balance-xor", MODE_BALANCE_XOR}, {"broadcast", MODE_BROADCAST},
	{"802.3ad", MODE_8023AD},          {"balance-tlb", MODE_BALANCE_TLB},
	{"balance-alb", MODE_BALANCE_ALB}, {NULL, 0},
};
static const struct bond_option_word off_on_names[] = {
	{"off", 0}, {"on", 1}, {NULL, 0},
};
static const struct bond_option_word arp_validate_names[] = {
	{"none", 0},   {"active", 1},        {"backup", 2},        {"all", 3},
	{"filter", 4}, {"filter_active", 5}, {"filter_backup", 6}, {NULL, 0},
};
static const struct bond_option_word arp_all_targets_names[] = {
	{"any", 0}, {"all", 1}, {NULL, 0},
};
static const struct bond_option_word primary_reselect_names[] = {
	{"always", 0}, {"better", 1}, {"failure", 2}, {NULL, 0},
};
static const struct bond_option_word fail_over_mac_names[] = {
	{"none", 0}, {"active", 1}, {"follow", 2}, {NULL, 0},
};
static const struct bond_option_word xmit_hash_policy_names[] = {
	{"layer2", 0},   {"layer3+4", 1}, {"layer2+3", 2},     {"encap2+3", 3},
	{"encap3+4", 4}, {"vlan+srcmac", 5}, {NULL, 0},
};
static const struct bond_option_word lacp_rate_names[] = {
	{"slow", 0}, {"fast", 1}, {NULL, 0},
};
static const struct bond_option_word ad_select_names[] = {
	{"stable", 0}, {"bandwidth", 1}, {"count", 2},
	/* 6.18: drivers/net/bonding/bond_options.c ad_select_tbl */
	{.name = "actor_port_prio", .value = 3},
	{NULL, 0},
};

/* Modes in which the kernel runs the ARP monitor (not 802.3ad, tlb, alb). */
#define MODES_ARP (MODES_ALL & ~(MODE_BIT(MODE_8023AD) | MODE_BIT(MODE_BALANCE_TLB) | \
				 MODE_BIT(MODE_BALANCE_ALB)))
#define MODES_PRIMARY (MODE_BIT(MODE_ACTIVE_BACKUP) | MODE_BIT(MODE_BALANCE_TLB) | \
		       MODE_BIT(MODE_BALANCE_ALB))
#define MODES_HASH (MODE_BIT(MODE_BALANCE_XOR) | MODE_BIT(MODE_8023AD) | \
		    MODE_BIT(MODE_BALANCE_TLB) | MODE_BIT(MODE_BALANCE_ALB))
#define MODES_AD MODE_BIT(MODE_8023AD)
#define MODES_TLB_ALB (MODE_BIT(MODE_BALANCE_TLB) | MODE_BIT(MODE_BALANCE_ALB))

/*
 * .modes is where the kernel takes an option: every mode but those in its
 * .unsuppmodes (drivers/net/bonding/bond_options.c bond_opts[], checked by
 * bond_opt_check_deps, which fails -EACCES).  .uses is where it has an
 * effect, when narrower: the kernel keeps xmit_hash_policy in balance-rr,
 * and reports it, but only the hashing modes read it.  So bondd refuses an
 * option outside .modes, and takes one outside .uses with a warning.
 */

static const struct bond_option_spec table[OPT__COUNT] = {
	[OPT_MODE] = {.id = OPT_MODE, .key = "mode", .attr = IFLA_BOND_MODE, .type = OT_U8,
		.max = 6, .names = mode_names, .modes = MODES_ALL, .flags = OF_REBUILD,
		.def = MODE_BALANCE_RR},
	[OPT_MIIMON] = {.id = OPT_MIIMON, .key = "miimon", .attr = IFLA_BOND_MIIMON,
		.type = OT_U32, .max = INT_MAX, .modes = MODES_ALL},
	[OPT_UPDELAY] = {.id = OPT_UPDELAY, .key = "updelay", .attr = IFLA_BOND_UPDELAY,
		.type = OT_U32, .max = INT_MAX, .modes = MODES_ALL},
	[OPT_DOWNDELAY] = {.id = OPT_DOWNDELAY, .key = "downdelay", .attr = IFLA_BOND_DOWNDELAY,
		.type = OT_U32, .max = INT_MAX, .modes = MODES_ALL},
	/* drivers/net/bonding/bond_options.c bond_peer_notif_delay_tbl:
	 * "allowed values 0 - 300000" (ms), not INT_MAX like the other delays. */
	[OPT_PEER_NOTIF_DELAY] = {.id = OPT_PEER_NOTIF_DELAY, .key = "peer_notif_delay",
		.attr = IFLA_BOND_PEER_NOTIF_DELAY, .type = OT_U32, .max = 300000,
		.modes = MODES_ALL},
	[OPT_USE_CARRIER] = {.id = OPT_USE_CARRIER, .key = "use_carrier",
		.attr = IFLA_BOND_USE_CARRIER, .type = OT_U8, .max = 1, .names = off_on_names,
		.modes = MODES_ALL, .def = 1},
	[OPT_ARP_INTERVAL] = {.id = OPT_ARP_INTERVAL, .key = "arp_interval",
		.attr = IFLA_BOND_ARP_INTERVAL, .type = OT_U32, .max = INT_MAX,
		.modes = MODES_ARP},
	[OPT_ARP_IP_TARGET] = {.id = OPT_ARP_IP_TARGET, .key = "arp_ip_target",
		.attr = IFLA_BOND_ARP_IP_TARGET, .type = OT_IP4_LIST, .modes = MODES_ALL, .uses = MODES_ARP},
	[OPT_NS_IP6_TARGET] = {.id = OPT_NS_IP6_TARGET, .key = "ns_ip6_target",
		.attr = IFLA_BOND_NS_IP6_TARGET, .type = OT_IP6_LIST, .modes = MODES_ALL, .uses = MODES_ARP},
	[OPT_ARP_VALIDATE] = {.id = OPT_ARP_VALIDATE, .key = "arp_validate",
		.attr = IFLA_BOND_ARP_VALIDATE, .type = OT_U32, .max = 6,
		.names = arp_validate_names, .modes = MODES_ARP},
	[OPT_ARP_ALL_TARGETS] = {.id = OPT_ARP_ALL_TARGETS, .key = "arp_all_targets",
		.attr = IFLA_BOND_ARP_ALL_TARGETS, .type = OT_U32, .max = 1,
		.names = arp_all_targets_names, .modes = MODES_ALL, .uses = MODES_ARP},
	[OPT_PRIMARY] = {.id = OPT_PRIMARY, .key = "primary", .attr = IFLA_BOND_PRIMARY,
		.type = OT_IFNAME, .modes = MODES_PRIMARY},
	[OPT_PRIMARY_RESELECT] = {.id = OPT_PRIMARY_RESELECT, .key = "primary_reselect",
		.attr = IFLA_BOND_PRIMARY_RESELECT, .type = OT_U8, .max = 2,
		.names = primary_reselect_names, .modes = MODES_ALL, .uses = MODES_PRIMARY},
	[OPT_FAIL_OVER_MAC] = {.id = OPT_FAIL_OVER_MAC, .key = "fail_over_mac",
		.attr = IFLA_BOND_FAIL_OVER_MAC, .type = OT_U8, .max = 2,
		.names = fail_over_mac_names, .modes = MODES_ALL, .uses = MODE_BIT(MODE_ACTIVE_BACKUP),
		.flags = OF_NO_SLAVES},
	[OPT_XMIT_HASH_POLICY] = {.id = OPT_XMIT_HASH_POLICY, .key = "xmit_hash_policy",
		.attr = IFLA_BOND_XMIT_HASH_POLICY, .type = OT_U8, .max = 5,
		.names = xmit_hash_policy_names, .modes = MODES_ALL, .uses = MODES_HASH},
	[OPT_RESEND_IGMP] = {.id = OPT_RESEND_IGMP, .key = "resend_igmp",
		.attr = IFLA_BOND_RESEND_IGMP, .type = OT_U32, .max = 255, .modes = MODES_ALL,
		.def = 1},
	[OPT_NUM_PEER_NOTIF] = {.id = OPT_NUM_PEER_NOTIF, .key = "num_grat_arp",
		.alias = "num_unsol_na", .attr = IFLA_BOND_NUM_PEER_NOTIF, .type = OT_U8,
		.max = 255, .modes = MODES_ALL, .def = 1},
	[OPT_ALL_SLAVES_ACTIVE] = {.id = OPT_ALL_SLAVES_ACTIVE, .key = "all_slaves_active",
		.attr = IFLA_BOND_ALL_SLAVES_ACTIVE, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_ALL},
	[OPT_MIN_LINKS] = {.id = OPT_MIN_LINKS, .key = "min_links", .attr = IFLA_BOND_MIN_LINKS,
		.type = OT_U32, .max = INT_MAX, .modes = MODES_ALL, .uses = MODES_AD},
	[OPT_LP_INTERVAL] = {.id = OPT_LP_INTERVAL, .key = "lp_interval",
		.attr = IFLA_BOND_LP_INTERVAL, .type = OT_U32, .min = 1, .max = INT_MAX,
		.modes = MODES_ALL, .uses = MODES_TLB_ALB, .def = 1},
	[OPT_PACKETS_PER_SLAVE] = {.id = OPT_PACKETS_PER_SLAVE, .key = "packets_per_slave",
		.attr = IFLA_BOND_PACKETS_PER_SLAVE, .type = OT_U32, .max = 65535,
		.modes = MODE_BIT(MODE_BALANCE_RR), .def = 1},
	[OPT_AD_LACP_ACTIVE] = {.id = OPT_AD_LACP_ACTIVE, .key = "lacp_active",
		.attr = IFLA_BOND_AD_LACP_ACTIVE, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_AD, .flags = OF_REBUILD, .def = 1},
	[OPT_AD_LACP_RATE] = {.id = OPT_AD_LACP_RATE, .key = "lacp_rate",
		.attr = IFLA_BOND_AD_LACP_RATE, .type = OT_U8, .max = 1,
		.names = lacp_rate_names, .modes = MODES_AD, .flags = OF_REBUILD},
	[OPT_AD_SELECT] = {.id = OPT_AD_SELECT, .key = "ad_select", .attr = IFLA_BOND_AD_SELECT,
		.type = OT_U8, .max = 3, .names = ad_select_names, .modes = MODES_ALL, .uses = MODES_AD,
		.flags = OF_REBUILD},
	[OPT_AD_ACTOR_SYS_PRIO] = {.id = OPT_AD_ACTOR_SYS_PRIO, .key = "ad_actor_sys_prio",
		.attr = IFLA_BOND_AD_ACTOR_SYS_PRIO, .type = OT_U16, .min = 1, .max = 65535,
		.modes = MODES_AD, .def = 65535},
	[OPT_AD_USER_PORT_KEY] = {.id = OPT_AD_USER_PORT_KEY, .key = "ad_user_port_key",
		.attr = IFLA_BOND_AD_USER_PORT_KEY, .type = OT_U16, .max = 1023,
		.modes = MODES_AD, .flags = OF_REBUILD},
	[OPT_AD_ACTOR_SYSTEM] = {.id = OPT_AD_ACTOR_SYSTEM, .key = "ad_actor_system",
		.attr = IFLA_BOND_AD_ACTOR_SYSTEM, .type = OT_MAC, .modes = MODES_AD},
	[OPT_TLB_DYNAMIC_LB] = {.id = OPT_TLB_DYNAMIC_LB, .key = "tlb_dynamic_lb",
		.attr = IFLA_BOND_TLB_DYNAMIC_LB, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_TLB_ALB, .flags = OF_REBUILD, .def = 1},
	[OPT_MISSED_MAX] = {.id = OPT_MISSED_MAX, .key = "arp_missed_max",
		.attr = IFLA_BOND_MISSED_MAX, .type = OT_U8, .min = 1, .max = 255,
		.modes = MODES_ARP, .def = 2},
	/* drivers/net/bonding/bond_options.c bond_opts[BOND_OPT_COUPLED_CONTROL]:
	 * 802.3ad only, BOND_OPTFLAG_IFDOWN (a change needs the bond down),
	 * default on (bond_coupled_control_tbl). */
	[OPT_COUPLED_CONTROL] = {.id = OPT_COUPLED_CONTROL, .key = "coupled_control",
		.attr = BONDD_IFLA_BOND_COUPLED_CONTROL, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_AD, .flags = OF_REBUILD, .def = 1},
	/* bond_opts[BOND_OPT_BROADCAST_NEIGH]: 802.3ad only, no flags (the
	 * set function, bond_option_broadcast_neigh_set, handles a bond
	 * that is up), default off. */
	[OPT_BROADCAST_NEIGH] = {.id = OPT_BROADCAST_NEIGH, .key = "broadcast_neighbor",
		.attr = BONDD_IFLA_BOND_BROADCAST_NEIGH, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_AD},
	/* IFLA_BOND_LACP_STRICT: 802.3ad, off|on, default off, changed on a
	 * live bond (measured on 7.2.7 in the sandbox, scenario 196).  Its
	 * first mainline release is 7.x; 6.18 stable (6.18.40) has it too,
	 * so kernel_caps warns only when the kernel does not report it. */
	[OPT_LACP_STRICT] = {.id = OPT_LACP_STRICT, .key = "lacp_strict",
		.attr = BONDD_IFLA_BOND_LACP_STRICT, .type = OT_U8, .max = 1,
		.names = off_on_names, .modes = MODES_AD},
};

/* The kernel range of each option added after 6.1 (bond_option_kmin). */
static const uint16_t opt_kmin[OPT__COUNT] = {
	[OPT_COUPLED_CONTROL] = KVER(6, 9),
	[OPT_BROADCAST_NEIGH] = KVER(6, 17),
	/* mainline 7.x; 6.18 stable has it too (6.18.40): the lower one,
	 * and kernel_caps does not warn where the kernel reports it. */
	[OPT_LACP_STRICT] = KVER(6, 18),
};

uint16_t bond_option_kmin(enum bond_option_id id)
{
	return (unsigned)id < OPT__COUNT ? opt_kmin[id] : 0;
}

uint16_t bond_option_value_kmin(enum bond_option_id id, uint32_t value)
{
	/* drivers/net/bonding/bond_options.c ad_select_tbl gained
	 * "actor_port_prio" (3) in 6.18. */
	if (id == OPT_AD_SELECT && value == 3)
		return KVER(6, 18);
	return bond_option_kmin(id);
}

uint16_t bond_option_value_kmax(enum bond_option_id id, uint32_t value)
{
	/* Commit 23a6037ce76c (6.18): bond_use_carrier_tbl holds only "on";
	 * use_carrier = 0 is refused. */
	if (id == OPT_USE_CARRIER && value == 0)
		return KVER(6, 17);
	return KVER(255, 255);
}

const struct bond_option_spec *bond_option_spec(enum bond_option_id id)
{
	if ((unsigned)id >= OPT__COUNT)
		return NULL;
	return &table[id];
}

const struct bond_option_spec *bond_option_by_key(const char *key)
{
	for (size_t i = 0; i < OPT__COUNT; i++) {
		if (strcmp(table[i].key, key) == 0 ||
		    (table[i].alias && strcmp(table[i].alias, key) == 0))
			return &table[i];
	}
	return NULL;
}

int bond_option_parse_scalar(const struct bond_option_spec *d, const char *text,
			  uint32_t *out)
{
	if (d->names) {
		for (const struct bond_option_word *n = d->names; n->name; n++) {
			if (strcmp(n->name, text) == 0) {
				*out = n->value;
				return 0;
			}
		}
	}
	if (*text < '0' || *text > '9')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < d->min || v > d->max)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

const char *bond_option_value_name(const struct bond_option_spec *d, uint32_t value)
{
	if (!d->names)
		return NULL;
	for (const struct bond_option_word *n = d->names; n->name; n++)
		if (n->value == value)
			return n->name;
	return NULL;
}

const char *bond_mode_name(enum bond_mode mode)
{
	return bond_option_value_name(&table[OPT_MODE], (uint32_t)mode);
}

bool bond_option_applies(const struct bond_option_spec *d, enum bond_mode mode)
{
	return (unsigned)mode < MODE__COUNT && (d->modes & MODE_BIT(mode));
}

bool bond_option_used(const struct bond_option_spec *d, enum bond_mode mode)
{
	return bond_option_applies(d, mode) && ((d->uses ? d->uses : d->modes) & MODE_BIT(mode));
}
