/* SPDX-License-Identifier: MIT */
/* Which bonds an event touches (plan_touch.h). */
#include "plan_touch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int touch_by_name(const void *a, const void *b)
{
	const struct plan_touch_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->bond < y->bond ? -1 : x->bond > y->bond;
}

int plan_touch_build(struct plan_touch *t, const struct desired *want)
{
	size_t n = 0;

	plan_touch_free(t);
	for (size_t i = 0; i < want->n_bonds; i++)
		n += 3 + want->bonds[i].n_slaves;
	t->v = calloc(n ? n : 1, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		t->v[t->n++] = (struct plan_touch_name){b->name, i};
		for (size_t j = 0; j < b->n_slaves; j++)
			t->v[t->n++] = (struct plan_touch_name){b->slaves[j].name, i};
		/* bridge = NAME, and the one a reload moves it from: the
		 * bridge appearing (a manager makes it after the bond) is
		 * what lets the bond join it */
		if (b->bridge[0])
			t->v[t->n++] = (struct plan_touch_name){b->bridge, i};
		if (b->bridge_was[0])
			t->v[t->n++] = (struct plan_touch_name){b->bridge_was, i};
	}
	qsort(t->v, t->n, sizeof(*t->v), touch_by_name);
	return 0;
}

void plan_touch_free(struct plan_touch *t)
{
	free(t->v);
	*t = (struct plan_touch){0};
}

/* The first entry whose name is not below `name` (t->n when none). */
static size_t first_at(const struct plan_touch *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(t->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t plan_touch_find(const struct plan_touch *t, const char *name)
{
	if (!name || !name[0])
		return PLAN_TOUCH_NONE;
	size_t lo = first_at(t, name);
	return lo < t->n && strcmp(t->v[lo].name, name) == 0 ? t->v[lo].bond : PLAN_TOUCH_NONE;
}

static void mark(bool *touched, size_t bond)
{
	if (bond != PLAN_TOUCH_NONE)
		touched[bond] = true;
}

/* Every bond that names `name`: a bridge may be several bonds' (the
 * sorted names keep them together). */
static void mark_name(const struct plan_touch *t, const char *name, bool *touched)
{
	if (!name || !name[0])
		return;
	for (size_t k = first_at(t, name); k < t->n && strcmp(t->v[k].name, name) == 0; k++)
		touched[t->v[k].bond] = true;
}

/* The bond a master's ifindex stands for, if it is a configured one. */
static size_t master_bond(const struct plan_touch *t, const struct observed *obs, int master)
{
	const struct obs_link *m = master ? observed_by_index(obs, master) : NULL;

	return m ? plan_touch_find(t, m->name) : PLAN_TOUCH_NONE;
}

/* The bonds that name the link at ifindex lower (a VLAN's or macvlan's
 * lower link): a slave entry that carries it is not enslaved (plan.c, the
 * do-no-harm checks), so its coming and going concerns that bond. */
static void mark_lower(const struct plan_touch *t, const struct observed *obs, int lower,
		       bool *touched)
{
	const struct obs_link *l = lower ? observed_by_index(obs, lower) : NULL;

	if (l)
		mark_name(t, l->name, touched);
}

void plan_touch_link(const struct plan_touch *t, const struct observed *obs,
		     const struct obs_link *old, const struct obs_link *now, bool *touched)
{
	if (old) {
		mark_name(t, old->name, touched);
		mark(touched, master_bond(t, obs, old->master));
		mark_lower(t, obs, old->lower, touched);
	}
	if (now) {
		/* (a rename: the new name may be another entry's) */
		if (!old || strcmp(old->name, now->name) != 0)
			mark_name(t, now->name, touched);
		if (!old || old->master != now->master)
			mark(touched, master_bond(t, obs, now->master));
		if (!old || old->lower != now->lower)
			mark_lower(t, obs, now->lower, touched);
	}
}

void plan_touch_routes(const struct desired *want, bool *touched)
{
	for (size_t i = 0; i < want->n_bonds; i++)
		if (want->bonds[i].n_addrs)
			touched[i] = true;
}
