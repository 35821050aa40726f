/* SPDX-License-Identifier: MIT */
/*
 * The bonding driver's options, described once.
 *
 * The config parser, the planner, the netlink executor and the observer all
 * read this one table, so an option's name, wire type, range, the modes it
 * applies to and the kernel's rules for changing it live in one place; the
 * rules across options (delays and miimon, the ARP monitor) are beside it,
 * in bond_rules.h.
 */
#ifndef BONDD_BOND_OPTION_TABLE_H
#define BONDD_BOND_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bonding modes, numbered as the kernel numbers them. */
enum bond_mode {
	MODE_BALANCE_RR = 0,
	MODE_ACTIVE_BACKUP = 1,
	MODE_BALANCE_XOR = 2,
	MODE_BROADCAST = 3,
	MODE_8023AD = 4,
	MODE_BALANCE_TLB = 5,
	MODE_BALANCE_ALB = 6,
	MODE__COUNT
};

#define MODE_BIT(m) (1u << (m))
#define MODES_ALL 0x7fu

/*
 * Every option the newest kernel tested (7.2) takes over netlink, in the order the kernel's
 * changelink applies them (bond_changelink walks IFLA_BOND_* in this order),
 * so that a request built by walking this enum behaves like the kernel expects.
 */
enum bond_option_id {
	OPT_MODE,
	OPT_MIIMON,
	OPT_UPDELAY,
	OPT_DOWNDELAY,
	OPT_PEER_NOTIF_DELAY,
	OPT_USE_CARRIER,
	OPT_ARP_INTERVAL,
	OPT_ARP_IP_TARGET,
	OPT_NS_IP6_TARGET,
	OPT_ARP_VALIDATE,
	OPT_ARP_ALL_TARGETS,
	OPT_PRIMARY,
	OPT_PRIMARY_RESELECT,
	OPT_FAIL_OVER_MAC,
	OPT_XMIT_HASH_POLICY,
	OPT_RESEND_IGMP,
	OPT_NUM_PEER_NOTIF,
	OPT_ALL_SLAVES_ACTIVE,
	OPT_MIN_LINKS,
	OPT_LP_INTERVAL,
	OPT_PACKETS_PER_SLAVE,
	OPT_AD_LACP_ACTIVE,
	OPT_AD_LACP_RATE,
	OPT_AD_SELECT,
	OPT_AD_ACTOR_SYS_PRIO,
	OPT_AD_USER_PORT_KEY,
	OPT_AD_ACTOR_SYSTEM,
	OPT_TLB_DYNAMIC_LB,
	OPT_MISSED_MAX,
	/* Added after 6.1; bond_changelink applies them after the above. */
	OPT_COUPLED_CONTROL,
	OPT_BROADCAST_NEIGH,
	OPT_LACP_STRICT,
	OPT__COUNT
};

/*
 * IFLA_BOND_* numbers of options newer than the build host's
 * <linux/if_link.h> (Debian 12: 6.1), from the kernel's
 * include/uapi/linux/if_link.h (enum IFLA_BOND_*, IFLA_BOND_SLAVE_*).
 */
#define BONDD_IFLA_BOND_COUPLED_CONTROL 32        /* 6.9 */
#define BONDD_IFLA_BOND_BROADCAST_NEIGH 33        /* 6.17 */
#define BONDD_IFLA_BOND_LACP_STRICT 34            /* 7.x, and 6.18 stable */
#define BONDD_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO 10  /* 6.18 */
#define BONDD_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE 11
#define BONDD_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE 12

/* A kernel version as the table holds it: KVER(6, 9) for Linux 6.9. */
#define KVER(major, minor) ((uint16_t)((major) << 8 | (minor)))
#define KVER_MAJOR(v) ((unsigned)(v) >> 8)
#define KVER_MINOR(v) ((unsigned)(v) & 0xffu)

/* How a value travels in IFLA_BOND_* and how it is held in the models. */
enum bond_option_type {
	OT_U8,
	OT_U16,
	OT_U32,
	OT_IP4_LIST, /* nested list of be32 */
	OT_IP6_LIST, /* nested list of in6_addr */
	OT_MAC,      /* 6 bytes */
	OT_IFNAME,   /* configured as a name, sent as an ifindex (u32) */
};

/* Kernel rules that decide how the planner may change an option. */
enum bond_option_flags {
	/* Only accepted while the bond is down (and, for mode, has no slaves):
	 * changing it on a live bond means a deliberate re-build. */
	OF_REBUILD = 1u << 0,
	/* Only accepted while the bond has no slaves. */
	OF_NO_SLAVES = 1u << 1,
};

struct bond_option_word {
	const char *name;
	uint32_t value;
};

struct bond_option_spec {
	enum bond_option_id id;
	const char *key;        /* config key, as sysfs and ip-link spell it */
	const char *alias;      /* a second accepted spelling, or NULL */
	uint16_t attr;          /* IFLA_BOND_* */
	enum bond_option_type type;
	uint32_t min, max;      /* numeric range, for OT_U8/U16/U32 */
	const struct bond_option_word *names; /* NULL-terminated, or NULL */
	uint32_t modes;         /* MODE_BIT mask of modes the kernel takes it in */
	uint32_t uses;          /* of those, the modes where it does anything;
				 * 0: all of .modes */
	uint32_t flags;         /* enum bond_option_flags */
	uint32_t def;           /* the kernel's default, for scalars */
};

/* Most targets the kernel holds (BOND_MAX_ARP_TARGETS, BOND_MAX_NS_TARGETS). */
#define BOND_MAX_TARGETS 16

const struct bond_option_spec *bond_option_spec(enum bond_option_id id);
/* Finds an option by config key or alias; NULL if unknown. */
const struct bond_option_spec *bond_option_by_key(const char *key);

/*
 * Parses a scalar value as sysfs takes it: one of the option's names, or a
 * number in range.  Returns 0, or -EINVAL / -ERANGE.
 */
int bond_option_parse_scalar(const struct bond_option_spec *d, const char *text,
			  uint32_t *out);
/* The option's name for a value, or NULL when it has no names table. */
const char *bond_option_value_name(const struct bond_option_spec *d, uint32_t value);

const char *bond_mode_name(enum bond_mode mode);        /* "balance-rr" */

/* The kernel takes option d in mode (elsewhere it refuses it, -EACCES). */
bool bond_option_applies(const struct bond_option_spec *d, enum bond_mode mode);
/* The kernel takes option d in mode and it has an effect there (it keeps,
 * and ignores, xmit_hash_policy in balance-rr). */
bool bond_option_used(const struct bond_option_spec *d, enum bond_mode mode);

/*
 * The kernel range: the first kernel (KVER) that has option id, 0 for 6.1
 * and before.  An older kernel ignores the attribute without an error
 * (drivers/net/bonding/bond_netlink.c bond_changelink reads only the
 * attributes its policy knows); kernel_caps.h warns in --check.
 */
uint16_t bond_option_kmin(enum bond_option_id id);
/* The first kernel that takes `value` of option id (a value added later,
 * as ad_select = actor_port_prio), or bond_option_kmin(id). */
uint16_t bond_option_value_kmin(enum bond_option_id id, uint32_t value);
/* The last kernel that takes `value` of option id, KVER(255, 255) when
 * none dropped it (use_carrier = 0 from 6.18 on). */
uint16_t bond_option_value_kmax(enum bond_option_id id, uint32_t value);

#endif
