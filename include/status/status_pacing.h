/* SPDX-License-Identifier: MIT */
/*
 * When bondd answers the status process's request for a snapshot, and how:
 * the one decision of the split that depends on time.  Pure: time and state
 * are passed in (holds.h style); unit-tested case by case.
 *
 * A snapshot is a fork() of the real-time bondd: a few milliseconds of its
 * time (about 5 ms in the sandbox's UML guest, 13 at worst), and
 * copy-on-write pages after.  So a new one is made only when bondd's state
 * changed since the last, and at most every SNAP_FORK_GAP_MS; a request
 * while nothing changed is answered "the last one holds", at most every
 * SNAP_ANSWER_GAP_MS.  What a flood of clients costs bondd is then at most
 * 1000 / SNAP_FORK_GAP_MS forks and 1000 / SNAP_ANSWER_GAP_MS answers a
 * second, whatever the number of clients; a client waits at most
 * SNAP_FORK_GAP_MS for a fresh picture.
 */
#ifndef BONDD_STATUS_PACING_H
#define BONDD_STATUS_PACING_H

#include <stdbool.h>
#include <stdint.h>

#define SNAP_FORK_GAP_MS 200
#define SNAP_ANSWER_GAP_MS 20

struct snap_pacing {
	bool wanted;            /* a request not answered yet */
	bool force;             /* the status process has no snapshot */
	bool have;              /* a snapshot was made since the status process started */
	uint64_t gen, snap_gen; /* bondd's state now, and when the snapshot was made */
	int64_t last_fork_ms;   /* monotonic; 0: never */
	int64_t last_answer_ms;
};

enum snap_step {
	SNAP_NOTHING,   /* no request */
	SNAP_WAIT,      /* not yet: again at *at_ms */
	SNAP_SAME,      /* answer: the last snapshot holds */
	SNAP_FORK,      /* make a new one */
};

enum snap_step snap_pacing_step(const struct snap_pacing *p, int64_t now_ms, int64_t *at_ms);

#endif
