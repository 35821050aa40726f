/* SPDX-License-Identifier: MIT */
/*
 * The planner's state while it plans one bond, and the functions its files
 * share (plan.c has the steps and their order).  Private to src/plan/.
 */
#ifndef BONDD_PLAN_PARTS_H
#define BONDD_PLAN_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"
#include "plan_route.h"

struct ctx {
	const struct desired *want;
	const struct observed *have;
	const struct plan_constraints *holds;
	struct action_list *out;
	size_t first; /* out->n when plan() was called: earlier actions are not ours */
	int err;
};

/* What the bond will be once the actions planned so far are done. */
struct sim_bond {
	const struct desired_bond *want;
	const struct obs_link *link;  /* NULL when this plan creates the bond */
	bool created;
	bool rebuilt;                 /* every slave released for an option */
	bool taken_down;              /* this plan set it admin-down */
	bool up;
	bool mtu_changed;             /* this plan set the bond's MTU */
	uint32_t mtu;
	uint8_t mac[6];               /* its MAC: as observed, or as this plan sets it */
	uint64_t opts_to_set;         /* differing options not planned yet */
	/* The slaves it has now, in bond order, held ones included. */
	const char *slaves[BONDD_MAX_SLAVES];
	size_t n_slaves;
	/* The slaves it had before this plan. */
	const char *before[BONDD_MAX_SLAVES];
	size_t n_before;
	/* Configured slaves that can be enslaved, in configured order. */
	const struct desired_slave *present[BONDD_MAX_SLAVES];
	size_t n_present;
	size_t kept; /* present[0..kept) stay in place */
	bool unordered; /* returning slaves join at the end (keep_order no) */
};

bool is_bond(const struct obs_link *l);

bool released_by_plan(const struct ctx *c, const char *name);

void note(struct ctx *c, const struct sim_bond *s, const char *ifname,
		 const char *msg);

bool plan_key_held(const struct plan_constraints *holds, const char *key);

bool refused(const struct ctx *c, const char *name);

bool failing(const struct ctx *c, const char *what, const char *name);

bool held(const struct ctx *c, const char *what, const char *name);

const char *addr_key(const char *bond, const struct bond_addr *a, char *buf,
			    size_t len);

uint64_t held_opts(const struct ctx *c, const char *bond);

bool in_other_master(const struct ctx *c, const struct sim_bond *s,
			    const struct obs_link *l);

bool slave_usable(struct ctx *c, const struct sim_bond *s,
			 const struct desired_slave *ds);

#endif
