/* SPDX-License-Identifier: MIT */
/*
 * The executor turns one action into kernel requests and reports the
 * kernel's answer.  It decides nothing: the planner already did.
 */
#ifndef BONDD_EXECUTOR_H
#define BONDD_EXECUTOR_H

#include <stddef.h>

#include "action.h"
#include "nlsock.h"
#include "observed.h"

struct nl_sock;

struct executor {
	struct nlsock mnl;          /* bond options and slave data (libmnl) */
	struct nl_sock *route;  /* generic link and address changes (libnl-route) */
	unsigned long requests; /* kernel requests sent, for the status socket */
	/* The last libnl request's NLMSG_ERROR, seen by our error callback:
	 * libnl's own error codes lose the errno and the extended ACK. */
	int route_errno;
	char route_extack[200];
	/* ACT_SET_OPTS: the option the kernel refused, OPT__COUNT if none. */
	int failed_opt;
	/* The links as the observer last saw them (names to ifindexes), or
	 * NULL; set by the daemon. */
	const struct observed *links;
};

int executor_open(struct executor *ex);
void executor_close(struct executor *ex);

/*
 * Runs action a.  Returns 0, or -errno with errmsg holding what was asked
 * and the kernel's own words: its errno text and extended ACK message, e.g.
 * "MTU 9000 refused by the kernel: Numerical result out of range".
 */
int executor_run(struct executor *ex, const struct action *a, char *errmsg, size_t errlen);

/* Sets route_append of every ACT_SET_ROUTE_CC in plan from the kernel's
 * routes as they are now (route_cc.c: one dump, before the plan runs);
 * on any failure the planner's guesses stay. */
void executor_order_routes(struct executor *ex, struct action_list *plan);

#endif
