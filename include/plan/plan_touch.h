/* SPDX-License-Identifier: MIT */
/*
 * Which bonds an event touches: the bonds a wake-up plans
 * (plan_constraints.only), so that its cost follows the bonds concerned,
 * not the bonds configured.  With 256 bonds, a slave re-created used to
 * cost a plan of every bond on each of its events, twice (the plan and
 * the look at which bonds are whole), and a link event about a link
 * bondd does not manage cost as much.  Pure: names and links in, marks
 * out; tested with a table of events.
 *
 * A bond is touched by an event about a link that:
 *   - is that bond, or a link one of its slave entries names today (by
 *     name: entries by mac:, path: or altname carry today's name, and a
 *     change of those names touches every bond, identity.h);
 *   - has that bond as its master, before or after (a stranger enslaved
 *     to it, or a slave taken away from it);
 *   - is the bridge that bond's `bridge =` names, or named before a
 *     reload (it appears after the bond: the bond joins it then);
 *   - sits on a link that bond names (a VLAN or macvlan whose lower link
 *     is a slave entry, or the bond itself): a slave that carries an
 *     upper is not enslaved, and the bond's uppers are tracked;
 * by an address of that bond; and by any route change, if it has
 * addresses (tcp_congestion's routes, plan_route.h).
 */
#ifndef BONDD_PLAN_TOUCH_H
#define BONDD_PLAN_TOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "observed.h"

#define PLAN_TOUCH_NONE SIZE_MAX

struct plan_touch_name {
	const char *name;  /* points into the desired state it was built from */
	size_t bond;       /* want->bonds index */
};

/* The configured names (bonds, slave entries, bridges), sorted: built again
 * whenever want or its slave entries' names change. */
struct plan_touch {
	struct plan_touch_name *v;
	size_t n;
};

/* 0, or -ENOMEM (t then finds nothing: the caller plans every bond). */
int plan_touch_build(struct plan_touch *t, const struct desired *want);
void plan_touch_free(struct plan_touch *t);

/* The bond that configures `name` (itself, as a slave entry or as its
 * bridge), or PLAN_TOUCH_NONE.  A bridge several bonds name answers the
 * first of them (plan_touch_link marks them all); any other name
 * configured twice is a config error refused at load. */
size_t plan_touch_find(const struct plan_touch *t, const char *name);

/*
 * A link changed (old NULL: it appeared; now NULL: it went): marks in
 * touched[] (want->n_bonds entries) the bonds it concerns.  Masters are
 * looked up in obs by ifindex (a master already gone was touched by its
 * own event).
 */
void plan_touch_link(const struct plan_touch *t, const struct observed *obs,
		     const struct obs_link *old, const struct obs_link *now, bool *touched);

/* A route changed: every bond with addresses. */
void plan_touch_routes(const struct desired *want, bool *touched);

#endif
