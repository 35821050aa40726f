/* SPDX-License-Identifier: MIT */
/*
 * When bondd tries again after a wake-up that ended at its pass limit with
 * bonds still differing (unsettled.c, pure; daemon.c note_unsettled).
 */
#ifndef BONDD_UNSETTLED_H
#define BONDD_UNSETTLED_H

#include <stdbool.h>
#include <stdint.h>

/* A plan normally converges in one pass plus one that finds nothing to do;
 * the bound only stops a kernel that keeps undoing our changes. */
#define MAX_PASSES 6
/* After a wake-up that ends at the bound with the bonds still differing,
 * the next one comes from the retry timer, 100 ms later and twice as late
 * after each further such wake-up in a row, up to 1 s: a bond that differs
 * is an outage, and one second of six passes is cheap. */
#define UNSETTLED_FIRST_MS 100
#define UNSETTLED_MAX_MS 1000

struct unsettled_step {
	unsigned in_a_row;        /* wake-ups in a row that ended unsettled */
	uint64_t retry_at_ms;     /* monotonic; 0: no retry */
	uint64_t backoff_ms;      /* the interval health names while retrying */
};

/*
 * After a wake-up: now_unsettled when it ended at the bound, others when
 * bonds it did not plan still differ from an earlier one.  Settled: the
 * count starts over and no retry is due.  Unsettled: one more in a row,
 * the retry after a doubling backoff.  Only others: as it was (their
 * retry stands).  Pure.
 */
struct unsettled_step unsettled_step_of(bool now_unsettled, bool others,
					const struct unsettled_step *was, uint64_t now_ms);

#endif
