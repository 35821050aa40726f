/* SPDX-License-Identifier: MIT */
/* The executor's part for tcp_congestion: one route rewritten in place. */
#ifndef BONDD_ROUTE_CC_H
#define BONDD_ROUTE_CC_H

#include <stddef.h>

#include "nlsock.h"
#include "route_observe.h"

/*
 * Replaces route r (NLM_F_REPLACE, every key and attribute as observed) with
 * its metrics and r->cc_algo ("" for none).  0, or -errno with the kernel's
 * words in errmsg.
 */
int route_cc_write(struct nlsock *nl, const struct obs_route *r, char *errmsg, size_t errlen);

#endif
