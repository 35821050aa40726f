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

struct nl_sock;

struct executor {
	struct nlsock mnl;          /* bond options and slave data (libmnl) */
	struct nl_sock *route;  /* generic link and address changes (libnl-route) */
	unsigned long requests; /* kernel requests sent, for the status socket */
};

int executor_open(struct executor *ex);
void executor_close(struct executor *ex);

/*
 * Runs action a.  Returns 0, or a negative error with errmsg holding the
 * kernel's message (and, for ACT_SET_OPTS, the option it refused).
 */
int executor_run(struct executor *ex, const struct action *a, char *errmsg, size_t errlen);

#endif
