/* SPDX-License-Identifier: MIT */
/*
 * tcp_congestion as routes: the kernel gives a new TCP connection the
 * algorithm of its route's RTAX_CC_ALGO metric before the machine-wide
 * default (net/ipv4/tcp_output.c tcp_ca_dst_init for a connection made,
 * net/ipv4/tcp_minisocks.c tcp_ca_openreq_child for one accepted), so
 * the bond's connected routes carry it and nothing else changes.  Not
 * locked: an application that picks its own algorithm (TCP_CONGESTION)
 * keeps it.
 *
 * bondd owns that one metric on those routes: without the key it removes
 * an algorithm found there, so removing the key and reloading or
 * restarting restores the kernel's default.  Every other metric of the
 * route is kept as found.
 */
#include "plan_route.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int plan_route_cc(const struct desired *want, const struct observed *have,
		  const struct plan_constraints *holds, struct action_list *out)
{
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		if (holds && holds->only && !holds->only[i])
			continue;
		const struct obs_link *bond = observed_by_name(have, b->name);
		/* The bond's own existence, or its routes, backing off. */
		if (!bond || strcmp(bond->kind, "bond") != 0 || plan_is_held(holds, "link", b->name) ||
		    plan_is_held(holds, "route", b->name))
			continue;
		for (size_t j = 0; j < b->n_addrs; j++) {
			const struct obs_route *r = route_connected(have, bond->ifindex, &b->addrs[j]);
			/* A route carrying a metric this build cannot write back
			 * is left alone rather than stripped of it. */
			if (!r || r->unknown_metric || strcmp(r->cc_algo, b->tcp_congestion) == 0)
				continue;
			/* Two addresses of one subnet share one route. */
			bool seen = false;
			for (size_t k = 0; k < j; k++)
				seen |= route_connected(have, bond->ifindex, &b->addrs[k]) == r;
			if (seen)
				continue;
			struct action a = {.kind = ACT_SET_ROUTE_CC, .route = *r,
					   .why = b->tcp_congestion[0] ? "route congestion control"
								       : "tcp_congestion removed"};
			a.route_was = *r;
			a.route_append = !route_first_of_group(have, r);
			snprintf(a.bond, sizeof(a.bond), "%s", b->name);
			snprintf(a.ifname, sizeof(a.ifname), "%s", b->name);
			snprintf(a.route.cc_algo, sizeof(a.route.cc_algo), "%s", b->tcp_congestion);
			if (!b->tcp_congestion[0])
				a.route.metrics[RTAX_LOCK] &= ~(1u << RTAX_CC_ALGO);
			if (!action_list_push(out, &a))
				return -ENOMEM;
		}
	}
	return 0;
}
