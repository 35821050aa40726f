/* SPDX-License-Identifier: MIT */
/* The executor's part for tcp_congestion: one route of a bond rewritten. */
#ifndef BONDD_ROUTE_CC_H
#define BONDD_ROUTE_CC_H

#include <stdbool.h>
#include <stddef.h>

#include "nlsock.h"
#include "route_observe.h"

/*
 * Rewrites the bond's route `was` as `want` (the same route with its
 * metrics and want->cc_algo, "" for none): deletes exactly `was`, then adds
 * `want` at the same place among the routes of other devices that share its
 * key: before them (`append` false) or after them (`append` true);
 * route_cc_order_dump tells which from the kernel's list.  Never NLM_F_REPLACE:
 * see route_cc.c.  When the add is refused, `was` is put back.  0, or
 * -errno with the kernel's words in errmsg.
 */
int route_cc_write(struct nlsock *nl, const struct obs_route *was, const struct obs_route *want,
		   bool append, char *errmsg, size_t errlen);

/* Where `was` is among the routes of its key in a dump of the kernel's
 * routes (route_cc.c): route_cc_order_cb is the dump's callback.  The
 * first route of the group decides: was_first when it is `was` itself. */
struct route_cc_order {
	const struct obs_route *was;
	bool group_seen, was_first;
};
int route_cc_order_cb(const struct nlmsghdr *nlh, void *data);
/* One dump of the kernel's IPv4 routes that fills every order of v[n]
 * (nothing is asked for n == 0).  0 or -errno (then leave the guesses). */
int route_cc_order_dump(struct nlsock *nl, struct route_cc_order *v, size_t n);

/* The two requests, built into buf (NLSOCK_MSG_SIZE bytes): exposed for
 * the unit tests, which check what each may match in the kernel. */
struct nlmsghdr *route_cc_build_del(char *buf, const struct obs_route *was);
struct nlmsghdr *route_cc_build_add(char *buf, const struct obs_route *want, bool append);

#endif
