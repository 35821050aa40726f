/* SPDX-License-Identifier: MIT */
/*
 * Backoff after kernel errors.  A link whose last action failed is held:
 * the planner leaves it alone until the hold expires, then tries again,
 * waiting twice as long after each further failure (100 ms up to 30 s).
 * Time is passed in, so this is tested without a clock.
 */
#ifndef BONDD_HOLDS_H
#define BONDD_HOLDS_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"

#define HOLD_FIRST_MS 100
#define HOLD_MAX_MS 30000
#define HOLDS_MAX 128

struct hold {
	char name[IFNAMSIZ];
	uint64_t until_ms;   /* held while now < until_ms */
	unsigned failures;   /* consecutive failures; kept after expiry */
};

struct holds {
	struct hold v[HOLDS_MAX];
	size_t n;
	char active[HOLDS_MAX][IFNAMSIZ]; /* scratch for holds_for_plan */
};

/* Records a failure of `name` at now_ms; returns the backoff chosen. */
uint64_t holds_fail(struct holds *h, const char *name, uint64_t now_ms);
/* Forgets `name` after a success, so the next failure starts small again. */
void holds_succeed(struct holds *h, const char *name);
void holds_clear(struct holds *h);
/* The names held at now_ms, as the planner takes them. */
struct plan_holds holds_for_plan(struct holds *h, uint64_t now_ms);
/* The earliest future expiry after now_ms, or 0 when none is pending. */
uint64_t holds_next_expiry(const struct holds *h, uint64_t now_ms);

#endif
