/* SPDX-License-Identifier: MIT */
/* The bonding option table: names, wire types, ranges and kernel rules. */
#include "bond_option_table.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_link.h>

static const struct bond_opt_name mode_names[] = {
	{"balance-rr", MODE_BALANCE_RR},   {"active-backup", MODE_ACTIVE_BACKUP},
	{"balance-xor", MODE_BALANCE_XOR}, {"broadcast", MODE_BROADCAST},
	{"802.3ad", MODE_8023AD},          {"balance-tlb", MODE_BALANCE_TLB},
	{"balance-alb", MODE_BALANCE_ALB}, {NULL, 0},
};
static const struct bond_opt_name off_on_names[] = {
	{"off", 0}, {"on", 1}, {NULL, 0},
};
static const struct bond_opt_name arp_validate_names[] = {
	{"none", 0},   {"active", 1},        {"backup", 2},        {"all", 3},
	{"filter", 4}, {"filter_active", 5}, {"filter_backup", 6}, {NULL, 0},
};
static const struct bond_opt_name arp_all_targets_names[] = {
	{"any", 0}, {"all", 1}, {NULL, 0},
};
static const struct bond_opt_name primary_reselect_names[] = {
	{"always", 0}, {"better", 1}, {"failure", 2}, {NULL, 0},
};
static const struct bond_opt_name fail_over_mac_names[] = {
	{"none", 0}, {"active", 1}, {"follow", 2}, {NULL, 0},
};
static const struct bond_opt_name xmit_hash_policy_names[] = {
	{"layer2", 0},   {"layer3+4", 1}, {"layer2+3", 2},     {"encap2+3", 3},
	{"encap3+4", 4}, {"vlan+srcmac", 5}, {NULL, 0},
};
static const struct bond_opt_name lacp_rate_names[] = {
	{"slow", 0}, {"fast", 1}, {NULL, 0},
};
static const struct bond_opt_name ad_select_names[] = {
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

static const struct bond_opt_desc table[OPT__COUNT] = {
	[OPT_MODE] = {OPT_MODE, "mode", NULL, IFLA_BOND_MODE, OT_U8, 0, 6,
		      mode_names, MODES_ALL, OF_REBUILD, MODE_BALANCE_RR},
	[OPT_MIIMON] = {OPT_MIIMON, "miimon", NULL, IFLA_BOND_MIIMON, OT_U32, 0, INT_MAX,
			NULL, MODES_ALL, 0, 0},
	[OPT_UPDELAY] = {OPT_UPDELAY, "updelay", NULL, IFLA_BOND_UPDELAY, OT_U32, 0, INT_MAX,
			 NULL, MODES_ALL, 0, 0},
	[OPT_DOWNDELAY] = {OPT_DOWNDELAY, "downdelay", NULL, IFLA_BOND_DOWNDELAY, OT_U32, 0,
			   INT_MAX, NULL, MODES_ALL, 0, 0},
	/* drivers/net/bonding/bond_options.c bond_peer_notif_delay_tbl:
	 * "allowed values 0 - 300000" (ms), not INT_MAX like the other delays. */
	[OPT_PEER_NOTIF_DELAY] = {OPT_PEER_NOTIF_DELAY, "peer_notif_delay", NULL,
				  IFLA_BOND_PEER_NOTIF_DELAY, OT_U32, 0, 300000, NULL,
				  MODES_ALL, 0, 0},
	[OPT_USE_CARRIER] = {OPT_USE_CARRIER, "use_carrier", NULL, IFLA_BOND_USE_CARRIER, OT_U8,
			     0, 1, off_on_names, MODES_ALL, 0, 1},
	[OPT_ARP_INTERVAL] = {OPT_ARP_INTERVAL, "arp_interval", NULL, IFLA_BOND_ARP_INTERVAL,
			      OT_U32, 0, INT_MAX, NULL, MODES_ARP, 0, 0},
	[OPT_ARP_IP_TARGET] = {OPT_ARP_IP_TARGET, "arp_ip_target", NULL,
			       IFLA_BOND_ARP_IP_TARGET, OT_IP4_LIST, 0, 0, NULL, MODES_ARP, 0, 0},
	[OPT_NS_IP6_TARGET] = {OPT_NS_IP6_TARGET, "ns_ip6_target", NULL,
			       IFLA_BOND_NS_IP6_TARGET, OT_IP6_LIST, 0, 0, NULL, MODES_ARP, 0, 0},
	[OPT_ARP_VALIDATE] = {OPT_ARP_VALIDATE, "arp_validate", NULL, IFLA_BOND_ARP_VALIDATE,
			      OT_U32, 0, 6, arp_validate_names, MODES_ARP, 0, 0},
	[OPT_ARP_ALL_TARGETS] = {OPT_ARP_ALL_TARGETS, "arp_all_targets", NULL,
				 IFLA_BOND_ARP_ALL_TARGETS, OT_U32, 0, 1, arp_all_targets_names,
				 MODES_ARP, 0, 0},
	[OPT_PRIMARY] = {OPT_PRIMARY, "primary", NULL, IFLA_BOND_PRIMARY, OT_IFNAME, 0, 0, NULL,
			 MODES_PRIMARY, 0, 0},
	[OPT_PRIMARY_RESELECT] = {OPT_PRIMARY_RESELECT, "primary_reselect", NULL,
				  IFLA_BOND_PRIMARY_RESELECT, OT_U8, 0, 2,
				  primary_reselect_names, MODES_PRIMARY, 0, 0},
	[OPT_FAIL_OVER_MAC] = {OPT_FAIL_OVER_MAC, "fail_over_mac", NULL,
			       IFLA_BOND_FAIL_OVER_MAC, OT_U8, 0, 2, fail_over_mac_names,
			       MODE_BIT(MODE_ACTIVE_BACKUP), OF_NO_SLAVES, 0},
	[OPT_XMIT_HASH_POLICY] = {OPT_XMIT_HASH_POLICY, "xmit_hash_policy", NULL,
				  IFLA_BOND_XMIT_HASH_POLICY, OT_U8, 0, 5,
				  xmit_hash_policy_names, MODES_HASH, 0, 0},
	[OPT_RESEND_IGMP] = {OPT_RESEND_IGMP, "resend_igmp", NULL, IFLA_BOND_RESEND_IGMP,
			     OT_U32, 0, 255, NULL, MODES_ALL, 0, 1},
	[OPT_NUM_PEER_NOTIF] = {OPT_NUM_PEER_NOTIF, "num_grat_arp", "num_unsol_na",
				IFLA_BOND_NUM_PEER_NOTIF, OT_U8, 0, 255, NULL, MODES_ALL, 0, 1},
	[OPT_ALL_SLAVES_ACTIVE] = {OPT_ALL_SLAVES_ACTIVE, "all_slaves_active", NULL,
				   IFLA_BOND_ALL_SLAVES_ACTIVE, OT_U8, 0, 1, off_on_names,
				   MODES_ALL, 0, 0},
	[OPT_MIN_LINKS] = {OPT_MIN_LINKS, "min_links", NULL, IFLA_BOND_MIN_LINKS, OT_U32, 0,
			   INT_MAX, NULL, MODES_AD, 0, 0},
	[OPT_LP_INTERVAL] = {OPT_LP_INTERVAL, "lp_interval", NULL, IFLA_BOND_LP_INTERVAL,
			     OT_U32, 1, INT_MAX, NULL, MODES_TLB_ALB, 0, 1},
	[OPT_PACKETS_PER_SLAVE] = {OPT_PACKETS_PER_SLAVE, "packets_per_slave", NULL,
				   IFLA_BOND_PACKETS_PER_SLAVE, OT_U32, 0, 65535, NULL,
				   MODE_BIT(MODE_BALANCE_RR), 0, 1},
	[OPT_AD_LACP_ACTIVE] = {OPT_AD_LACP_ACTIVE, "lacp_active", NULL,
				IFLA_BOND_AD_LACP_ACTIVE, OT_U8, 0, 1, off_on_names, MODES_AD,
				OF_REBUILD, 1},
	[OPT_AD_LACP_RATE] = {OPT_AD_LACP_RATE, "lacp_rate", NULL, IFLA_BOND_AD_LACP_RATE,
			      OT_U8, 0, 1, lacp_rate_names, MODES_AD, OF_REBUILD, 0},
	[OPT_AD_SELECT] = {OPT_AD_SELECT, "ad_select", NULL, IFLA_BOND_AD_SELECT, OT_U8, 0, 3,
			   ad_select_names, MODES_AD, OF_REBUILD, 0},
	[OPT_AD_ACTOR_SYS_PRIO] = {OPT_AD_ACTOR_SYS_PRIO, "ad_actor_sys_prio", NULL,
				   IFLA_BOND_AD_ACTOR_SYS_PRIO, OT_U16, 1, 65535, NULL,
				   MODES_AD, 0, 65535},
	[OPT_AD_USER_PORT_KEY] = {OPT_AD_USER_PORT_KEY, "ad_user_port_key", NULL,
				  IFLA_BOND_AD_USER_PORT_KEY, OT_U16, 0, 1023, NULL, MODES_AD,
				  OF_REBUILD, 0},
	[OPT_AD_ACTOR_SYSTEM] = {OPT_AD_ACTOR_SYSTEM, "ad_actor_system", NULL,
				 IFLA_BOND_AD_ACTOR_SYSTEM, OT_MAC, 0, 0, NULL, MODES_AD, 0, 0},
	[OPT_TLB_DYNAMIC_LB] = {OPT_TLB_DYNAMIC_LB, "tlb_dynamic_lb", NULL,
				IFLA_BOND_TLB_DYNAMIC_LB, OT_U8, 0, 1, off_on_names, MODES_TLB_ALB,
				OF_REBUILD, 1},
	[OPT_MISSED_MAX] = {OPT_MISSED_MAX, "arp_missed_max", NULL, IFLA_BOND_MISSED_MAX,
			    OT_U8, 1, 255, NULL, MODES_ARP, 0, 2},
	/* drivers/net/bonding/bond_options.c bond_opts[BOND_OPT_COUPLED_CONTROL]:
	 * 802.3ad only, BOND_OPTFLAG_IFDOWN (a change needs the bond down),
	 * default on (bond_coupled_control_tbl). */
	[OPT_COUPLED_CONTROL] = {
		.id = OPT_COUPLED_CONTROL,
		.key = "coupled_control",
		.attr = BONDD_IFLA_BOND_COUPLED_CONTROL,
		.type = OT_U8,
		.min = 0,
		.max = 1,
		.names = off_on_names,
		.modes = MODES_AD,
		.flags = OF_REBUILD,
		.def = 1,
	},
	/* bond_opts[BOND_OPT_BROADCAST_NEIGH]: 802.3ad only, no flags (the
	 * set function, bond_option_broadcast_neigh_set, handles a bond
	 * that is up), default off. */
	[OPT_BROADCAST_NEIGH] = {
		.id = OPT_BROADCAST_NEIGH,
		.key = "broadcast_neighbor",
		.attr = BONDD_IFLA_BOND_BROADCAST_NEIGH,
		.type = OT_U8,
		.min = 0,
		.max = 1,
		.names = off_on_names,
		.modes = MODES_AD,
		.flags = 0,
		.def = 0,
	},
	/* IFLA_BOND_LACP_STRICT: 802.3ad, off|on, default off, changed on a
	 * live bond (measured on 7.2.7 in the sandbox, scenario 196).  Its
	 * first mainline release is 7.x; 6.18 stable (6.18.40) has it too,
	 * so kernel_caps warns only when the kernel does not report it. */
	[OPT_LACP_STRICT] = {
		.id = OPT_LACP_STRICT,
		.key = "lacp_strict",
		.attr = BONDD_IFLA_BOND_LACP_STRICT,
		.type = OT_U8,
		.min = 0,
		.max = 1,
		.names = off_on_names,
		.modes = MODES_AD,
		.flags = 0,
		.def = 0,
	},
};

/* The kernel range of each option added after 6.1 (bond_opt_kmin). */
static const uint16_t opt_kmin[OPT__COUNT] = {
	[OPT_COUPLED_CONTROL] = KVER(6, 9),
	[OPT_BROADCAST_NEIGH] = KVER(6, 17),
	/* mainline 7.x; 6.18 stable has it too (6.18.40): the lower one,
	 * and kernel_caps does not warn where the kernel reports it. */
	[OPT_LACP_STRICT] = KVER(6, 18),
};

uint16_t bond_opt_kmin(enum bond_opt id)
{
	return (unsigned)id < OPT__COUNT ? opt_kmin[id] : 0;
}

uint16_t bond_opt_value_kmin(enum bond_opt id, uint32_t value)
{
	/* drivers/net/bonding/bond_options.c ad_select_tbl gained
	 * "actor_port_prio" (3) in 6.18. */
	if (id == OPT_AD_SELECT && value == 3)
		return KVER(6, 18);
	return bond_opt_kmin(id);
}

uint16_t bond_opt_value_kmax(enum bond_opt id, uint32_t value)
{
	/* Commit 23a6037ce76c (6.18): bond_use_carrier_tbl holds only "on";
	 * use_carrier = 0 is refused. */
	if (id == OPT_USE_CARRIER && value == 0)
		return KVER(6, 17);
	return KVER(255, 255);
}

const struct bond_opt_desc *bond_opt_desc(enum bond_opt id)
{
	if ((unsigned)id >= OPT__COUNT)
		return NULL;
	return &table[id];
}

const struct bond_opt_desc *bond_opt_by_key(const char *key)
{
	for (size_t i = 0; i < OPT__COUNT; i++) {
		if (strcmp(table[i].key, key) == 0 ||
		    (table[i].alias && strcmp(table[i].alias, key) == 0))
			return &table[i];
	}
	return NULL;
}

int bond_opt_parse_scalar(const struct bond_opt_desc *d, const char *text,
			  uint32_t *out)
{
	if (d->names) {
		for (const struct bond_opt_name *n = d->names; n->name; n++) {
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

const char *bond_opt_value_name(const struct bond_opt_desc *d, uint32_t value)
{
	if (!d->names)
		return NULL;
	for (const struct bond_opt_name *n = d->names; n->name; n++)
		if (n->value == value)
			return n->name;
	return NULL;
}

const char *bond_mode_name(enum bond_mode mode)
{
	return bond_opt_value_name(&table[OPT_MODE], (uint32_t)mode);
}

bool bond_opt_applies(const struct bond_opt_desc *d, enum bond_mode mode)
{
	return (unsigned)mode < MODE__COUNT && (d->modes & MODE_BIT(mode));
}
