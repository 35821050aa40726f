/* SPDX-License-Identifier: MIT */
/*
 * Observed routes: the connected (prefix) routes the kernel makes for an
 * interface's IPv4 addresses, with their metrics, so the planner can tell
 * whether the TCP congestion control of a bond's own subnets is as
 * configured.  Kept from one RTM_GETROUTE dump plus RTNLGRP_IPV4_ROUTE
 * events (netlink/route_observe.c).  Only such routes are kept (protocol kernel, unicast, no gateway,
 * one output interface): a full routing table is never copied.
 */
#ifndef BONDD_ROUTES_H
#define BONDD_ROUTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/rtnetlink.h>

/* Room for every RTAX_* of a 6.1 kernel (RTAX_MAX is 17 there) and for
 * newer ones: a metric past it is kept out of the bitmask, not lost from
 * the route (bondd then does not rewrite that route: see route_cc.c). */
#define ROUTE_METRICS_MAX 32

struct obs_route {
	int family;               /* AF_INET */
	uint8_t dst[16];          /* network byte order */
	uint8_t dst_len;
	int oif;
	uint32_t table;           /* RTA_TABLE, else rtm_table */
	uint8_t protocol, scope, type, tos;
	uint32_t priority;        /* RTA_PRIORITY, 0 when absent */
	bool has_prefsrc;
	uint8_t prefsrc[16];
	/* RTA_METRICS: u32 metrics by RTAX_* number, set when their bit is */
	uint32_t metrics[ROUTE_METRICS_MAX];
	uint32_t metrics_set;     /* bit n: metrics[n] was in the message */
	bool unknown_metric;      /* a metric this build cannot carry back */
	char cc_algo[16];         /* RTAX_CC_ALGO, "" when none */
};

struct observed;
struct bond_addr;

/* The same route: the kernel's key (table, destination, tos, priority)
 * and the output interface. */
bool route_same(const struct obs_route *a, const struct obs_route *b);
/* One group: the kernel's key alone, which routes of several devices can
 * share (an address of one subnet on two NICs). */
bool route_same_group(const struct obs_route *a, const struct obs_route *b);
/* r (by route_same) is the first of its group as far as o knows, or the
 * group is empty: the kernel would insert a route not appended there. */
bool route_first_of_group(const struct observed *o, const struct obs_route *r);

/* The connected route the kernel made for address a on ifindex, in the main
 * table (net/ipv4/fib_frontend.c fib_add_ifaddr), or NULL: a copy of it in
 * another table is an admin's, never bondd's to rewrite. */
const struct obs_route *route_connected(const struct observed *o, int ifindex,
					const struct bond_addr *a);

/* Forgets the routes of a link that went down or away: IPv4 flushes them
 * without telling listeners. */
void route_observe_link(struct observed *o, int ifindex, bool up);

/* Puts r where the kernel put it, from the notification's nlmsg_flags
 * (routes.c); observed_put_route is for a dump, in order. */
int observed_put_route_flags(struct observed *o, const struct obs_route *r, uint16_t flags);
int observed_put_route(struct observed *o, const struct obs_route *r);
void observed_del_route(struct observed *o, const struct obs_route *r);

#endif
