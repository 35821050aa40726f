/* SPDX-License-Identifier: MIT */
/*
 * Desired state: the bonds as the config file describes them.
 * Built by the config parser, read by the planner; never touched by netlink.
 * One thing follows the kernel: a slave entry's name is the name its link
 * has today (identity_apply, plan/identity.h, from the observed links).
 */
#ifndef BONDD_DESIRED_H
#define BONDD_DESIRED_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bond_settings.h"
#include "slave_selector.h"

#define BONDD_MAX_SLAVES 32
#define BONDD_MAX_ADDRS 16
#define BONDD_DEFAULT_MTU 9000

/* An interface address, as `ip addr add ADDR/PREFIX dev BOND` would add it. */
struct bond_addr {
	int family;           /* AF_INET or AF_INET6 */
	uint8_t prefixlen;
	uint8_t addr[16];     /* network byte order; 4 bytes used for AF_INET */
};

struct desired_slave {
	/* Today's name of the link that sel matches (identity.h), or while
	 * none does, slave_selector_placeholder's (for a plain name, the
	 * name itself, as before selectors). */
	char name[IFNAMSIZ];
	struct slave_selector sel; /* as written in slaves = */
	int ifindex;          /* the link sel matches now; 0: none */
	bool has_queue_id;
	uint16_t queue_id;    /* IFLA_BOND_SLAVE_QUEUE_ID */
	bool has_prio;
	int32_t prio;         /* IFLA_BOND_SLAVE_PRIO */
	/* 802.3ad: the LACP port priority this port announces (6.18,
	 * IFLA_BOND_SLAVE_ACTOR_PORT_PRIO); the kernel's default is 255. */
	bool has_actor_port_prio;
	uint16_t actor_port_prio;
};

struct desired_bond {
	char name[IFNAMSIZ];
	unsigned line;        /* line of its [section] header, for messages */
	unsigned slaves_line; /* line of its slaves = key; 0: none */
	unsigned file_no;     /* its section's file: desired.files[file_no] */
	/* primary = SELECTOR: 1 + the index of that slave, whose name
	 * identity_resolve copies into opts.primary; 0: no primary. */
	unsigned primary_slave;
	/* Options the config sets.  OPT_MODE is always present (default
	 * balance-rr); options the config leaves out are not managed. */
	struct bond_settings opts;
	uint32_t mtu;         /* always set; default BONDD_DEFAULT_MTU */
	/* mac_address: the bond's own MAC (IFLA_ADDRESS), kept whatever its
	 * slaves do; unset: the kernel's (random, then the first slave's). */
	bool has_mac;
	uint8_t mac[6];
	struct desired_slave slaves[BONDD_MAX_SLAVES]; /* in bond order */
	size_t n_slaves;
	struct bond_addr addrs[BONDD_MAX_ADDRS];
	size_t n_addrs;
	/* link_check: probe each slave's path (linkcheck.h); the default
	 * depends on the mode (bondd.conf(5)). */
	bool link_check;
	/* lldp: receive the switch's LLDP on each slave (lldp_io.h); default
	 * yes (bondd.conf(5)). */
	bool lldp;
	/* link_topology = lag: the switch aggregates the slaves' ports on
	 * purpose (a static LAG); the link check's switch-lag finding is
	 * then informational.  Default per-port (bondd.conf(5)). */
	bool lag_expected;
	/* keep_order: restore the configured slave order by releasing the
	 * slaves after a returning one.  Unset: the mode's default
	 * (desired_keeps_order). */
	bool has_keep_order;
	bool keep_order;
	/* state = absent: the admin asks for the bond to be deleted.  The only
	 * way bondd deletes a bond: one missing from the file is left alone. */
	bool absent;
	/* tcp_congestion: the TCP congestion control for the connected routes
	 * of addrs ("" when not set: bondd leaves those routes alone). */
	char tcp_congestion[16];
	/* single_stream = yes: the bond is meant to carry one stream at N
	 * links (the host check then says when its mode cannot). */
	bool single_stream;
	/* bridge = NAME: bondd makes the bond a port of that bridge whenever
	 * both exist, never creating or changing the bridge ("" when not
	 * set: bondd never touches the bond's master).  bridge_was: the
	 * bridge the running configuration named before a reload changed
	 * it, which bondd may take the bond out of (uppers.h bridge_state). */
	char bridge[IFNAMSIZ];
	unsigned bridge_line;
	char bridge_was[IFNAMSIZ];
};

struct desired {
	struct desired_bond *bonds; /* config order; owned */
	size_t n_bonds;
	char **files;               /* the files read, by file_no; owned */
	size_t n_files;
};

void desired_free(struct desired *d);
/* Whether bondd restores b's slave order: keep_order, or by default yes
 * where order steers traffic (balance-rr, balance-xor, broadcast) and no
 * where releasing a healthy slave costs more than the order gives
 * (active-backup, 802.3ad, balance-tlb, balance-alb). */
bool desired_keeps_order(const struct desired_bond *b);
const struct desired_bond *desired_find_bond(const struct desired *d, const char *name);
/* The file b was read from, for FILE:LINE ("bondd.conf" when unknown). */
const char *desired_file(const struct desired *d, const struct desired_bond *b);

#endif
