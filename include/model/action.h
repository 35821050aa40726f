/* SPDX-License-Identifier: MIT */
/*
 * Actions: the planner's output and the executor's input.  Each is one
 * kernel request (or, for ACT_SET_OPTS, one request per option), described
 * as plain data so the planner can be tested by comparing lists.
 */
#ifndef BONDD_ACTION_H
#define BONDD_ACTION_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bond_settings.h"
#include "desired.h"
#include "routes.h"

enum action_kind {
	ACT_CREATE_BOND,   /* RTM_NEWLINK kind bond: name, opts.have options, mtu */
	ACT_DELETE_BOND,   /* RTM_DELLINK of a bond bondd manages */
	ACT_SET_OPTS,      /* change opts.have options of bond `ifname` */
	ACT_SET_MTU,       /* set `ifname`'s MTU to mtu */
	ACT_LINK_DOWN,     /* clear IFF_UP on `ifname` */
	ACT_LINK_UP,       /* set IFF_UP on `ifname` */
	ACT_ENSLAVE,       /* set `ifname`'s master to `bond` */
	ACT_RELEASE,       /* clear `ifname`'s master */
	ACT_SET_SLAVE_OPTS,/* queue_id / prio of slave `ifname` */
	ACT_ADD_ADDR,      /* add addr to bond `ifname` */
	ACT_SET_ROUTE_CC,  /* rewrite `route` (its cc_algo as wanted; plan_route.h) */
	ACT_SET_MAC,       /* set bond `ifname`'s MAC address to mac */
	ACT_SET_BRIDGE,    /* make bond `ifname` a port of bridge `master` */
	ACT__COUNT
};

struct action {
	enum action_kind kind;
	char bond[IFNAMSIZ];    /* the configured bond this action serves */
	char ifname[IFNAMSIZ];  /* the link it changes: the bond or a slave */
	struct bond_settings opts;  /* ACT_CREATE_BOND, ACT_SET_OPTS */
	uint32_t mtu;           /* ACT_CREATE_BOND, ACT_SET_MTU */
	bool has_mac;           /* ACT_CREATE_BOND: mac given; always for ACT_SET_MAC */
	uint8_t mac[6];         /* ACT_CREATE_BOND, ACT_SET_MAC */
	struct bond_addr addr;  /* ACT_ADD_ADDR */
	struct desired_slave slave; /* ACT_SET_SLAVE_OPTS: has_* say what to set */
	struct obs_route route;     /* ACT_SET_ROUTE_CC: the route as it must be */
	struct obs_route route_was; /* ACT_SET_ROUTE_CC: the route as observed */
	bool route_append;          /* ACT_SET_ROUTE_CC: another device's route of the
				     * same key comes first (route_cc.h) */
	char master[IFNAMSIZ];  /* ACT_SET_BRIDGE: the bridge (bridge = NAME) */
	const char *why;        /* static text: the drift that asked for it */
};

/* Something the planner found and could not act on (a slave held by a
 * foreign master, a device that cannot take the MTU, ...). */
struct plan_note {
	char bond[IFNAMSIZ];
	char ifname[IFNAMSIZ];
	char msg[128];
};

struct action_list {
	struct action *v;
	size_t n, cap;
	struct plan_note *notes;
	size_t n_notes, cap_notes;
};

void action_list_free(struct action_list *l);
void action_list_clear(struct action_list *l);
/* Appends a; returns the stored copy, or NULL when out of memory. */
struct action *action_list_push(struct action_list *l, const struct action *a);
struct plan_note *action_list_note(struct action_list *l, const char *bond,
				   const char *ifname, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

const char *action_kind_name(enum action_kind k); /* "enslave", "set-mtu", ... */
/* One line for logs and the status socket: "enslave eth2 to bond0 (missing)". */
const char *action_describe(const struct action *a, char *buf, size_t len);

#endif
