/* SPDX-License-Identifier: MIT */
/*
 * Backoff after kernel errors, per action: what is set on which object
 * (plan_hold_key), never a whole bond.  An action whose last try failed is
 * held: the planner leaves that one alone until the hold expires, then
 * tries again, waiting twice as long after each further failure (100 ms up
 * to 30 s).  Time is passed in, so this is tested without a clock.
 */
#ifndef BONDD_HOLDS_H
#define BONDD_HOLDS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bond_notes.h"
#include "plan.h"

#define HOLD_FIRST_MS 100
#define HOLD_MAX_MS 30000
#define HOLDS_MAX 128

struct hold {
	char name[PLAN_KEY_SIZE]; /* the action's key */
	uint64_t until_ms;   /* held while now < until_ms */
	unsigned failures;   /* consecutive failures; kept after expiry */
	bool refused;        /* not retried until forgiven (holds_refuse) */
	char bond[IFNAMSIZ]; /* the bond the action served */
	struct action_failure failure; /* the last failure, in the kernel's words */
};

struct holds {
	struct hold v[HOLDS_MAX];
	size_t n;
	char active[HOLDS_MAX][PLAN_KEY_SIZE]; /* scratch for holds_constraints */
	char failing[HOLDS_MAX][PLAN_KEY_SIZE]; /* scratch for holds_constraints */
	char refused[HOLDS_MAX][PLAN_KEY_SIZE]; /* scratch for holds_constraints */
};

/* Records a failure of action key `name` at now_ms; returns the backoff. */
uint64_t holds_fail(struct holds *h, const char *name, uint64_t now_ms);
/* Remembers, for status, which bond `name` serves and how it failed last;
 * f->since_ms is kept from the first failure in a row (holds_fail counts
 * them). */
void holds_set_error(struct holds *h, const char *name, const char *bond,
		     const struct action_failure *f);
/* Forgets `name` after a success, so the next failure starts small again. */
void holds_succeed(struct holds *h, const char *name);
void holds_clear(struct holds *h);
/* Marks the failed action `name` as one that will fail the same way while
 * nothing changes: the planner leaves it alone until holds_forgive (the
 * link re-created) or holds_clear (a reload). */
void holds_refuse(struct holds *h, const char *name);
/* Forgets `name` if it was refused; true if it was. */
bool holds_forgive(struct holds *h, const char *name);
/* The keys held at now_ms, as the planner takes them. */
struct plan_constraints holds_constraints(struct holds *h, uint64_t now_ms);
/* The earliest future expiry after now_ms, or 0 when none is pending. */
uint64_t holds_next_expiry(const struct holds *h, uint64_t now_ms);

#endif
