/* SPDX-License-Identifier: MIT */
/*
 * The planner's part for tcp_congestion: the connected routes of a bond's
 * configured IPv4 addresses carry the configured TCP congestion control
 * (RTAX_CC_ALGO), or none when the key is not set.  Pure, like plan().
 *
 * Coverage: the bond's own subnets (the prefix routes the kernel makes for
 * bondd's addresses), not routes via gateways, not /32 addresses (no
 * prefix route), not IPv6 (replacing the kernel's IPv6 prefix route would
 * drop the addrconf flags that let it leave with its address).
 */
#ifndef BONDD_PLAN_ROUTE_H
#define BONDD_PLAN_ROUTE_H

#include "action.h"
#include "desired.h"
#include "observed.h"
#include "plan.h"


/* Appends ACT_SET_ROUTE_CC for every connected route of want's bonds whose
 * algorithm differs from the bond's tcp_congestion.  0 or -ENOMEM. */
int plan_route_cc(const struct desired *want, const struct observed *have,
		  const struct plan_constraints *holds, struct action_list *out);

#endif
