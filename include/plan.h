/* SPDX-License-Identifier: MIT */
/*
 * The planner: a pure function from (desired, observed) to the actions that
 * make the kernel match the config.  No I/O, no clock: everything it needs is
 * in its arguments, so it is tested with tables of cases and no kernel.
 */
#ifndef BONDD_PLAN_H
#define BONDD_PLAN_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "desired.h"
#include "observed.h"

/*
 * Links the daemon is backing off from after a kernel error: a held bond is
 * not planned at all, a held slave is planned as if its device were absent.
 */
struct plan_holds {
	const char (*names)[IFNAMSIZ];
	size_t n;
};

/*
 * Appends to out, for each bond of want in config order, the actions that
 * bring the observed kernel state to it, assuming each action succeeds.
 * Never emits an action whose value the kernel already has.
 * Returns 0, or -ENOMEM.
 */
int plan(const struct desired *want, const struct observed *have,
	 const struct plan_holds *holds, struct action_list *out);

/*
 * Appends ACT_DELETE_BOND for each bond of `before` that `after` no longer
 * has and that still exists: used on reload only, so a bond is deleted only
 * when the admin removed it from a config bondd was running with.
 */
int plan_removed(const struct desired *before, const struct desired *after,
		 const struct observed *have, struct action_list *out);

#endif
