/* SPDX-License-Identifier: MIT */
/*
 * Observed state: the links the kernel reports in this network namespace,
 * kept up to date from one RTM_GETLINK dump plus RTNLGRP_LINK events.
 * Plain data: the planner reads it, only the observer writes it.
 */
#ifndef BONDD_OBSERVED_H
#define BONDD_OBSERVED_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bond_settings.h"
#include "desired.h"
#include "routes.h"
#include "slave_selector.h"

/* Altnames kept per link; more are left out. */
#define OBS_MAX_ALTNAMES 4

/* <net/if.h> stops at IFF_DYNAMIC; the carrier flag is from <linux/if.h>,
 * which clashes with <net/if.h> on some libcs. */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

/* IFLA_BOND_SLAVE_MII_STATUS values. */
enum slave_mii { MII_UP = 0, MII_GOING_DOWN = 1, MII_DOWN = 2, MII_GOING_BACK = 3 };

/* What a bond slave's own RTM_NEWLINK says in IFLA_INFO_SLAVE_DATA. */
struct obs_slave_info {
	bool valid;               /* the link is a bond slave and this was parsed */
	uint8_t state;            /* 0 active, 1 backup */
	uint8_t mii_status;       /* enum slave_mii */
	uint32_t link_failure_count;
	uint8_t perm_hwaddr[6];
	uint16_t queue_id;
	bool has_prio;
	int32_t prio;
	uint16_t ad_aggregator_id;
	/* 802.3ad, while the slave is in an aggregator: the LACP port state
	 * bits (AD_STATE_* in include/net/bond_3ad.h) of this end and of the
	 * partner (bond_fill_slave_info sends the partner's as a u16). */
	bool has_ad_state;
	uint8_t ad_actor_oper_port_state;
	uint8_t ad_partner_oper_port_state;
	/* 802.3ad, 6.18 and later: the port's LACP priority. */
	bool has_actor_port_prio;
	uint16_t actor_port_prio;
	/* 802.3ad, 7.x (IFLA_BOND_SLAVE_AD_CHURN_*_STATE, while in an
	 * aggregator): the churn detection machines of IEEE 802.1AX, for this
	 * end and the partner; enum ad_churn. */
	bool has_churn;
	uint8_t ad_churn_actor_state;
	uint8_t ad_churn_partner_state;
};

/* churn_state_t in include/net/bond_3ad.h: AD_CHURN_MONITOR, AD_CHURN,
 * AD_NO_CHURN.  AD_CHURN: the machine saw no agreement for 60 s (IEEE
 * 802.1AX churn detection): the LACP mismatch signal. */
enum ad_churn {
	AD_CHURN_MONITOR = 0,
	AD_CHURN_CHURNED = 1,
	AD_CHURN_NONE = 2,
};

/* "monitoring", "churned", "none" (as /proc's "Actor Churn State"), or NULL. */
const char *ad_churn_name(uint8_t state);

/* What a bond reports besides its options (IFLA_BOND_ACTIVE_SLAVE and the
 * IFLA_BOND_AD_INFO nest; bond_fill_info in drivers/net/bonding/bond_netlink.c). */
struct obs_bond_info {
	int active_slave_ifindex;     /* 0: none */
	bool has_ad_info;             /* 802.3ad with an active aggregator */
	uint16_t ad_aggregator;       /* the active aggregator's id */
	uint16_t ad_num_ports;
	uint8_t ad_partner_mac[6];
};

struct obs_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	/* Errors and drops (struct rtnl_link_stats64).  rx_dropped is as
	 * /proc/net/dev counts it: the kernel adds rx_missed_errors
	 * (net/core/net-procfs.c dev_seq_printf_stats); so does
	 * link_parse.c for IFLA_STATS64, so both sources agree. */
	uint64_t rx_errors, tx_errors, rx_dropped, tx_dropped;
	uint64_t rx_crc_errors, rx_missed_errors;
	bool has_crc_missed; /* rx_crc_errors and rx_missed_errors were read */
};

struct obs_link {
	int ifindex;
	char name[IFNAMSIZ];
	char kind[16];            /* IFLA_INFO_KIND, "" when none */
	unsigned flags;           /* IFF_UP, IFF_LOWER_UP, ... */
	uint16_t type;            /* ifi_type: ARPHRD_ETHER, ARPHRD_LOOPBACK, ... */
	uint32_t mtu, min_mtu, max_mtu; /* max_mtu 0 when not reported */
	int master;               /* ifindex of the master, 0 when none */
	int lower;                /* IFLA_LINK: the device this one sits on (a VLAN's
	                           * or macvlan's NIC); 0 when none or in another
	                           * namespace (IFLA_LINK_NETNSID) */
	uint16_t vlan_id;         /* kind == "vlan": IFLA_VLAN_ID; 0 otherwise */
	uint8_t hwaddr[6];
	struct obs_stats stats;
	bool has_carrier_changes;
	uint32_t carrier_changes; /* IFLA_CARRIER_CHANGES: the kernel's count */
	bool has_carrier_down_count;
	uint32_t carrier_down_count; /* IFLA_CARRIER_DOWN_COUNT: its losses (4.16) */
	/* kind == "bond": its options as the kernel reports them; the
	 * primary arrives as an ifindex and is resolved to bond.primary */
	struct bond_settings bond;
	int primary_ifindex;
	struct obs_bond_info info;
	/* kind == "bond": slaves in the bond's own order, read from
	 * /proc/net/bonding/<name> (netlink does not carry the order) */
	char order[BONDD_MAX_SLAVES][IFNAMSIZ];
	size_t n_order;
	/* enslaved to a bond */
	struct obs_slave_info slave;
	/* What names the link whatever its name (slave_selector.h): its
	 * altnames (IFLA_PROP_LIST > IFLA_ALT_IFNAME; libnl cannot look a
	 * link up by one), its permanent address (IFLA_PERM_ADDRESS, 5.6;
	 * all zeros, so has_perm_addr false, for a link without one), its
	 * parent device as udev's ID_PATH (IFLA_PARENT_DEV_BUS_NAME and
	 * _NAME, 5.14; "" when none) and the kernel's dev_port (from sysfs;
	 * -1 unknown, 0 for a device of one port). */
	char altnames[OBS_MAX_ALTNAMES][SEL_TEXT_MAX];
	size_t n_altnames;
	bool has_perm_addr;
	uint8_t perm_addr[6];
	char id_path[SEL_PATH_MAX];
	int dev_port;
};

struct obs_addr {
	int ifindex;
	struct bond_addr addr;
};

struct observed {
	struct obs_link *links;
	size_t n_links, cap_links;
	struct obs_addr *addrs;
	size_t n_addrs, cap_addrs;
	struct obs_route *routes;     /* connected routes only: route_observe.h */
	size_t n_routes, cap_routes;
	/* links by name (observed_by_name): an open-addressing table of
	 * position + 1, kept by observed_put_link and observed_del_link; a
	 * hint only, every hit is compared (NULL: none, a linear search) */
	uint32_t *by_name;
	size_t by_name_cap;
	/* links by ifindex (observed_by_index), the same way and size: every
	 * link event looks its link and masters up */
	uint32_t *by_index;
};

void observed_free(struct observed *o);
const struct obs_link *observed_by_name(const struct observed *o, const char *name);
const struct obs_link *observed_by_index(const struct observed *o, int ifindex);
/* Replaces the link with the same ifindex, or adds it.  0 or -ENOMEM. */
int observed_put_link(struct observed *o, const struct obs_link *l);
/*
 * Carries into `now` (a link's newest message) what `old` (what was known
 * of the same link) knew and the message left out: a bond option absent
 * from a message is unknown, not changed.  The kernel leaves options out
 * for callers without CAP_NET_ADMIN in the initial user namespace and in
 * events caused by them (drivers/net/bonding/bond_netlink.c bond_fill_info).
 */
void observed_merge_link(const struct obs_link *old, struct obs_link *now);
/* Forgets a link and its addresses. */
void observed_del_link(struct observed *o, int ifindex);
int observed_put_addr(struct observed *o, const struct obs_addr *a);
void observed_del_addr(struct observed *o, const struct obs_addr *a);
bool observed_has_addr(const struct observed *o, int ifindex, const struct bond_addr *a);
/* Fills every bond's bond.primary from its primary_ifindex. */
void observed_resolve_primaries(struct observed *o);

#endif
