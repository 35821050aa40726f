/* SPDX-License-Identifier: MIT */
/*
 * The kernel prints some lines of /proc/net/bonding/<bond> only to readers
 * with CAP_NET_ADMIN: for 802.3ad, the system priority and MAC, the active
 * aggregator's details, and each slave's LACP PDU details.  bondd reads the
 * file as root; for a client without the capability it drops exactly those
 * lines, so the socket shows nobody more than the kernel would.
 */
#ifndef BONDD_PROC_FILTER_H
#define BONDD_PROC_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/* Appends text[0..len) to out without the privileged lines. */
void proc_filter_unprivileged(const char *text, size_t len, struct strbuf *out);

/*
 * The churn detection states of slave in text[0..len), a
 * /proc/net/bonding/<bond> (drivers/net/bonding/bond_procfs.c
 * bond_info_show_slave: "Actor Churn State: monitoring" and "Partner Churn
 * State: ..." in the block that starts "Slave Interface: <slave>"), as enum
 * ad_churn in *actor and *partner.  False, and nothing set, when the block
 * or either line is missing or names a state this file does not know.
 *
 * The kernel's churn machine (bond_3ad.c ad_churn_machine) leaves
 * "monitoring" when its timer ends and announces nothing, so a netlink
 * message's churn states can be long out of date: this file is read at
 * the moment of a status reply.
 */
bool proc_churn_states(const char *text, size_t len, const char *slave, uint8_t *actor,
		       uint8_t *partner);

/*
 * The aggregators in text[0..len), a /proc/net/bonding/<bond> of an
 * 802.3ad bond (bond_procfs.c bond_info_show_master: "Active Aggregator
 * Info:" and its "\tAggregator ID: N"; bond_info_show_slave: "Aggregator
 * ID: N" in the block that starts "Slave Interface: <slave>").  False, and
 * nothing set, when the line is missing or is not a number up to 65535.
 *
 * A port that bond_3ad.c ad_port_selection_logic moves to another
 * aggregator while it stays inactive (a cable moved to another switch:
 * down, then up in an aggregator of its own) changes no flag the kernel
 * announces, so the last RTM_NEWLINK can still name the old aggregator:
 * read at the moment of a status reply, as the churn states are.
 */
bool proc_active_aggregator(const char *text, size_t len, uint16_t *id);
bool proc_slave_aggregator(const char *text, size_t len, const char *slave, uint16_t *id);

/*
 * One pass over a /proc/net/bonding/<bond> of an 802.3ad bond: what
 * proc_slave_aggregator and proc_churn_states find for one slave, for
 * every slave block at once (a status reply of a bond of 32 slaves read
 * the text 96 times otherwise).  fn is called once per "Slave Interface:"
 * block, in the file's order, with what the block holds.
 */
struct proc_lacp_slave {
	const char *name;            /* not NUL-terminated: name_len bytes */
	size_t name_len;
	bool has_aggregator;
	uint16_t aggregator;
	bool has_churn;              /* both churn lines, each a known state */
	uint8_t actor_churn, partner_churn;
};
void proc_lacp_scan(const char *text, size_t len,
		    void (*fn)(void *ctx, const struct proc_lacp_slave *s), void *ctx);

#endif
