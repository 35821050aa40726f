/* SPDX-License-Identifier: MIT */
/*
 * Spreading our answers to a peer's check over a short window: pure, time
 * and randomness passed in, unit-tested without a socket.
 *
 * A check's requests are broadcast, so every peer slave answers it at
 * once, and all of those answers converge on the one switch port of the
 * slave that asked: incast.  A switch port's output buffer (or, in the
 * sandbox, the guest's input backlog, net/core/dev.c enqueue_to_backlog)
 * holds only so many frames, and at 64 hosts starting together the
 * frames it dropped were enough for two checks in a row to miss one
 * peer slave: a false one-way finding.  So each answer (and each echo of
 * a peer's wish to be probed back) waits a random delay drawn from a
 * window that grows with the peer slaves the bond sees, well below the
 * shortest wait of a check (LC_WAIT_MS), so that the asker still counts
 * it in time.
 */
#ifndef BONDD_LINKCHECK_SPREAD_H
#define BONDD_LINKCHECK_SPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linkcheck_wire.h"

/* The window: LC_SPREAD_PER_PEER_MS per peer slave seen, at most
 * LC_SPREAD_MAX_MS (half of LC_WAIT_MS), in slots of LC_SPREAD_SLOT_MS so
 * that the answers due in one slot leave in one wake-up. */
#define LC_SPREAD_PER_PEER_MS 4
#define LC_SPREAD_MAX_MS 500
#define LC_SPREAD_SLOT_MS 10

/* The window for a bond that sees `peers` peer slaves. */
uint32_t lc_answer_window_ms(size_t peers);
/* The delay of one answer, in ms: 0 with no peer seen (nothing converges),
 * else a multiple of LC_SPREAD_SLOT_MS in [0, the window]. */
uint32_t lc_answer_delay_ms(uint32_t rnd, size_t peers);

/* An answer or echo waiting for its time.  The slave is named by ifindex
 * and bond, checked again when it is sent: the bond may have gone, or its
 * slave been replaced, meanwhile. */
struct lc_reply {
	int64_t due_ms;
	uint64_t seq;          /* set by lc_replies_add: equal times leave in order */
	int ifindex;
	uint8_t mac[6];
	struct lc_frame frame; /* the answer or echo as it will be sent */
};

/* At most this many wait (a peer's answer budget, lc_answer_budget, at 64
 * hosts is about 760 a second per slave); one more is sent at once. */
#define LC_REPLIES_MAX 4096

struct lc_replies {
	struct lc_reply *v;
	size_t n, cap;
	uint64_t next_seq;
};

/* Queues r; false when full or out of memory (the caller sends it now). */
bool lc_replies_add(struct lc_replies *q, const struct lc_reply *r);
/* Moves the replies due at now_ms (due_ms <= now_ms) into out, up to max,
 * earliest first, and those due at one time in the order they were added
 * (an echo before the answer it leaves with); returns how many. */
size_t lc_replies_take_due(struct lc_replies *q, int64_t now_ms, struct lc_reply *out,
			   size_t max);
/* When the next reply is due; 0 when none waits. */
int64_t lc_replies_next(const struct lc_replies *q);
void lc_replies_free(struct lc_replies *q);

#endif
