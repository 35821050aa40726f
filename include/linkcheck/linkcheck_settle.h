/* SPDX-License-Identifier: MIT */
/*
 * When the link check looks again, and which of its findings count: pure,
 * time passed in (like holds.h), unit-tested without a socket.
 *
 * A finding is a claim to be confirmed: it enters the bond's health only
 * when the next check finds it again (same kind, same slaves); until then
 * it is shown as pending and counts for nothing.  A check that found
 * anything, or that waited in vain for a peer it expected, leaves the bond
 * unsettled: bondd looks again LC_SETTLE_FIRST_MS later, then after twice
 * as long each time, up to LC_SETTLE_MAX_MS, and goes quiet (no timer)
 * once LC_SETTLE_CLEAN checks in a row found the bond clean.  So a switch
 * put right is seen within LC_SETTLE_MAX_MS plus a check, with no event
 * and no request; a bond that stays wrong costs one check a minute.
 */
#ifndef BONDD_LINKCHECK_SETTLE_H
#define BONDD_LINKCHECK_SETTLE_H

#include <stdbool.h>
#include <stdint.h>

#include "findings.h"

#define LC_SETTLE_FIRST_MS 1000
#define LC_SETTLE_MAX_MS 60000
#define LC_SETTLE_CLEAN 2

struct lc_settle {
	uint32_t step_ms;  /* the last wait; 0: quiet */
	unsigned clean;    /* clean checks in a row since it was unsettled */
	int64_t next_ms;   /* when to check again (monotonic); 0: no check due */
};

/*
 * A check ended at now_ms.  unsettled: it found something (pending or
 * confirmed) or a peer it waited for did not answer.  fresh: it was
 * started by a change (a slave ready, a reload, a request), which starts
 * the waits from LC_SETTLE_FIRST_MS again.  jitter_ms (below
 * LC_SETTLE_FIRST_MS / 2 is sensible) is added to the wait, so that the
 * hosts of one switch that saw one change do not all look again at the
 * same moment.  Returns the time of the next check, 0 for none.
 */
int64_t lc_settle_checked(struct lc_settle *s, int64_t now_ms, bool unsettled, bool fresh,
			  uint32_t jitter_ms);

/* The bond settled: no check is due. */
static inline bool lc_settle_quiet(const struct lc_settle *s)
{
	return s->next_ms == 0;
}

/*
 * Marks the findings of `bond` in cur (items from index `from` on, the
 * ones this check added) against prev, the findings of the check before
 * (unmarked, as the evaluation made them): a finding whose kind and slaves
 * prev holds too is confirmed, any other is pending (severity info,
 * pending = true).  Returns how many are pending.
 */
unsigned lc_settle_confirm(struct findings *cur, size_t from, const struct findings *prev);

/*
 * A token bucket of `burst` tokens, one back every `refill_ms` (the link
 * check's rate limits, linkcheck_io.h): brings *tokens up to date at
 * now_ms and returns when the next token is there (now_ms when one is).
 * The caller takes it by decrementing *tokens.
 */
int64_t lc_bucket_refill(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst,
			 int64_t refill_ms);

/* The same claim: kind, bond and slaves (evidence may differ). */
bool lc_settle_same(const struct finding *a, const struct finding *b);

#endif
