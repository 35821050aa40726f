/* SPDX-License-Identifier: MIT */
/* Exponential backoff per action (its plan_hold_key) after kernel errors. */
#include "holds.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"

_Static_assert(PLAN_KEY_SIZE <= ACTION_FAILURE_KEY, "a hold's key fits its failure's");

static struct hold *holds_find(struct holds *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->v[i].name, name) == 0)
			return &h->v[i];
	return NULL;
}

uint64_t holds_fail(struct holds *h, const char *name, uint64_t now_ms)
{
	struct hold *e = holds_find(h, name);

	if (!e) {
		if (h->n == HOLDS_MAX) {
			/* Full: reuse the slot that expires first. */
			e = &h->v[0];
			for (size_t i = 1; i < h->n; i++)
				if (h->v[i].until_ms < e->until_ms)
					e = &h->v[i];
		} else {
			e = &h->v[h->n++];
		}
		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", name);
	}
	e->failures++;
	uint64_t backoff = clock_backoff_ms(e->failures, HOLD_FIRST_MS, HOLD_MAX_MS);
	e->until_ms = now_ms + backoff;
	return backoff;
}

void holds_set_error(struct holds *h, const char *name, const char *bond,
		     const struct action_failure *f)
{
	struct hold *e = holds_find(h, name);
	if (e) {
		/* Not the first in a row: failing since the first. */
		int64_t since = e->failures > 1 && e->failure.since_ms ? e->failure.since_ms :
									  f->since_ms;
		snprintf(e->bond, sizeof(e->bond), "%s", bond);
		e->failure = *f;
		snprintf(e->failure.key, sizeof(e->failure.key), "%s", name);
		e->failure.since_ms = since;
	}
}

void holds_succeed(struct holds *h, const char *name)
{
	struct hold *e = holds_find(h, name);
	if (e)
		*e = h->v[--h->n];
}

void holds_clear(struct holds *h)
{
	h->n = 0;
}

void holds_refuse(struct holds *h, const char *name)
{
	struct hold *e = holds_find(h, name);
	if (e)
		e->refused = true;
}

bool holds_forgive(struct holds *h, const char *name)
{
	struct hold *e = holds_find(h, name);
	if (!e || !e->refused)
		return false;
	*e = h->v[--h->n];
	return true;
}

struct plan_constraints holds_constraints(struct holds *h, uint64_t now_ms)
{
	size_t n = 0, n_failing = 0, n_refused = 0;
	for (size_t i = 0; i < h->n; i++) {
		if (h->v[i].refused)
			memcpy(h->refused[n_refused++], h->v[i].name, PLAN_KEY_SIZE);
		else if (now_ms < h->v[i].until_ms)
			memcpy(h->active[n++], h->v[i].name, PLAN_KEY_SIZE);
		else if (h->v[i].failures)
			memcpy(h->failing[n_failing++], h->v[i].name, PLAN_KEY_SIZE);
	}
	return (struct plan_constraints){.keys = (const char(*)[PLAN_KEY_SIZE])h->active,
				   .n = n,
				   .failing = (const char(*)[PLAN_KEY_SIZE])h->failing,
				   .n_failing = n_failing,
				   .refused = (const char(*)[PLAN_KEY_SIZE])h->refused,
				   .n_refused = n_refused};
}

uint64_t holds_next_expiry(const struct holds *h, uint64_t now_ms)
{
	uint64_t next = 0;
	for (size_t i = 0; i < h->n; i++)
		if (h->v[i].until_ms > now_ms && (!next || h->v[i].until_ms < next))
			next = h->v[i].until_ms;
	return next;
}
