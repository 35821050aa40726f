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
 * Actions the daemon is backing off from after a kernel error, each named
 * by its key (plan_hold_key): what it sets on which object.  The planner
 * leaves exactly those alone and plans everything else, so a refused
 * address or option never holds up the bond's membership or MTU:
 *   "link NAME"        the link's existence or membership: a held bond is
 *                      not planned at all, a held slave as if absent
 *   "up NAME"          setting NAME admin-up
 *   "mtu NAME"         NAME's MTU
 *   "opt BOND KEY"     one bond option
 *   "slave-opts NAME"  queue_id and prio of slave NAME
 *   "addr BOND A/P"    one address of the bond
 */
#define PLAN_KEY_SIZE 80 /* "addr " IFNAMSIZ " " INET6_ADDRSTRLEN "/128" fits */

struct plan_constraints {
	const char (*keys)[PLAN_KEY_SIZE];
	size_t n;
	/* Planning because of an event or a retry, not a start or reload:
	 * no rebuild (a change the kernel takes only on an empty or down
	 * bond).  A rebuild disrupts traffic, so it is done only when the
	 * admin asks for it, never because of what an event seemed to show. */
	bool no_rebuild;
	/* Keys whose last try failed and whose hold has expired: due for a
	 * retry.  A slave whose enslave keeps failing joins after the
	 * others, so that its retries never release healthy slaves for an
	 * order it may never take (keep_order). */
	const char (*failing)[PLAN_KEY_SIZE];
	size_t n_failing;
	/* "link NAME" keys of enslaves the kernel refused as the link being
	 * in use by another device (a macvlan or ipvlan, perhaps in another
	 * namespace where bondd cannot see it): each try sets the link down,
	 * so it is not tried again until the link is re-created or a reload. */
	const char (*refused)[PLAN_KEY_SIZE];
	size_t n_refused;
	/* NULL: every bond is planned.  Else only want->bonds[i] with
	 * only[i] true (the bonds an event touched, plan_touch.h): a wake-up
	 * about one slave costs one bond's plan, not 256.  A bond left out
	 * gets no action, not even for what another bond's plan takes from
	 * it; the event that change makes touches it in turn. */
	const bool *only;
};

/* The key of action a for backing off; failed_opt is the option the kernel
 * refused for ACT_SET_OPTS (ignored otherwise, OPT__COUNT when unknown). */
const char *plan_hold_key(const struct action *a, int failed_opt, char *buf, size_t len);
/* Whether holds has the key "WHAT NAME" ("link e1", "route bond0"). */
bool plan_is_held(const struct plan_constraints *holds, const char *what, const char *name);

/*
 * Whether the rest of a bond's plan must wait for a new plan after action
 * `failed` failed: later steps assumed it succeeded.  False for addresses,
 * slave options and the bond's MAC address, on which nothing later depends
 * (a bond without its MAC still carries traffic: the slaves join it).
 */
bool plan_failure_stops_bond(const struct action *failed);

/* Whether action a interrupts traffic on a bond: a slave released, the bond
 * set down or deleted, an option that needed all that (a rebuild). */
bool plan_action_disrupts(const struct action *a);

/*
 * Appends to out, for each bond of want in config order, the actions that
 * bring the observed kernel state to it, assuming each action succeeds.
 * Never emits an action whose value the kernel already has.
 * Returns 0, or -ENOMEM.
 */
int plan(const struct desired *want, const struct observed *have,
	 const struct plan_constraints *holds, struct action_list *out);

#endif
