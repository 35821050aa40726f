/* SPDX-License-Identifier: MIT */
/* What the planner's steps ask of the plan so far (plan_parts.h): whether a
 * link is a bond, whether an earlier step releases it, a note beside the
 * actions.  Its own file so that plan.c (the steps) and plan_eligible.c
 * (who may be a slave) both call down into it and never each other's way
 * back (scripts/check-calls). */
#include "plan_parts.h"

#include <errno.h>
#include <string.h>

bool is_bond(const struct obs_link *l)
{
	return l && strcmp(l->kind, "bond") == 0;
}

/*
 * Whether this plan (for this bond or an earlier one) releases `name`.
 * Such a link has no master any more and is admin-down: the kernel closes
 * a slave it releases.
 */
bool released_by_plan(const struct ctx *c, const char *name)
{
	for (size_t i = c->first; i < c->out->n; i++)
		if (c->out->v[i].kind == ACT_RELEASE && strcmp(c->out->v[i].ifname, name) == 0)
			return true;
	return false;
}

void note(struct ctx *c, const struct sim_bond *s, const char *ifname,
		 const char *msg)
{
	if (!c->err && !action_list_note(c->out, s->want->name, ifname, "%s", msg))
		c->err = -ENOMEM;
}
