/* SPDX-License-Identifier: MIT */
/*
 * The node's budget for the retries of bonds that heard no peer
 * (linkcheck_phase.h lc_phase_checked): pure, time passed in.
 *
 * Each bond keeps its own backoff (5 s doubling to 160 s, then every 5
 * minutes), but the node starts at most LC_RETRY_NODE_BURST retries at
 * once and then one per LC_RETRY_NODE_GAP_MS, whatever its bonds: a token
 * bucket across every bond.  With the backoffs of 1 to 4 bonds that
 * started together the bucket never runs dry (their retries come 4 at a
 * time 10, 20, 40 ... s apart: the burst covers the first rounds, the
 * refill the later), so they retry exactly as without it.  A node of many
 * peerless bonds (the scale bench's 256 bonds of dummy slaves) retries
 * once per gap after its first burst: one check, a wake-up to start it and
 * one to end it, each bond about every 256 gaps (43 minutes).  Before the
 * budget, those 256 bonds retried on one schedule: 139 wake-ups and 240 ms
 * of CPU in a 10 s idle window, and repairs collided with retry rounds
 * (bench/RESULTS.md).
 *
 * Which bond goes first: the one that has waited longest past its own due
 * time (the earliest due; a tie: the bond first in the list), so no bond
 * waits for ever and a bond early in its backoff (a change just made it)
 * comes before those at 5 minutes.  Only retries take the node's tokens: a
 * check that a change, a request or a peer starts never waits for them,
 * and it takes the retry's place (linkcheck_phase.h).
 *
 * The daemon offers every bond whose retry is due by its own rules
 * (lc_phase_retry_at), asks lc_retry_decide, starts the one it names and
 * takes a token (lc_retry_take), and arms its one timer for the time it
 * returns otherwise: one wake-up for the node's retries, not one per bond.
 */
#ifndef BONDD_LINKCHECK_RETRY_H
#define BONDD_LINKCHECK_RETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LC_RETRY_NODE_GAP_MS 10000
#define LC_RETRY_NODE_BURST 10

/* The node's bucket: full (LC_RETRY_NODE_BURST) when made with
 * lc_retry_node_init; its refill starts when a token is taken. */
struct lc_retry_node {
	unsigned tokens;
	int64_t since_ms;
};

void lc_retry_node_init(struct lc_retry_node *n);

/* The bonds whose retry is wanted, as they are offered: the one to go
 * first, and how many. */
struct lc_retry_queue {
	size_t n;         /* bonds offered */
	size_t first;     /* the one that goes first (its index as offered) */
	int64_t first_ms; /* ... and when its retry is due by its own rules */
};

/* Offers bond idx, whose retry is due at ready_ms by its own backoff and
 * bucket (lc_phase_retry_at). */
void lc_retry_offer(struct lc_retry_queue *q, size_t idx, int64_t ready_ms);

struct lc_retry_go {
	bool go;       /* start q's first bond's retry now (then lc_retry_take) */
	size_t idx;    /* ... that bond */
	int64_t at;    /* else when to look again, 0: no retry wanted */
};

/* What to do at now with the bonds offered: the first bond's retry when it
 * is due and the node has a token, else when both will be. */
struct lc_retry_go lc_retry_decide(const struct lc_retry_node *node,
				   const struct lc_retry_queue *q, int64_t now);

/* A retry started at now: a token taken (lc_retry_decide said there was). */
void lc_retry_take(struct lc_retry_node *node, int64_t now);

/*
 * When a bond's retry will start, for the status (retry_in_ms): due at
 * ready_ms by its own rules, with `ahead` bonds before it in the queue
 * (due earlier), at now.  Assumes each of those takes the node's next
 * token and that the queue does not change: a bond ahead that hears a
 * peer or is checked for a change makes it earlier by up to a gap, a bond
 * whose change makes it due earlier later by up to a gap.
 */
int64_t lc_retry_estimate(const struct lc_retry_node *node, int64_t now, int64_t ready_ms,
			  size_t ahead);

#endif
