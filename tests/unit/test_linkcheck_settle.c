/* SPDX-License-Identifier: MIT */
/*
 * The link check's re-check schedule and confirmation (linkcheck_settle.h),
 * with time passed in: quiet while clean, a re-check 1 s after a finding,
 * then 2, 4 ... up to 60 s, quiet again after two clean checks; a finding
 * counts only when the check after it agrees.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "linkcheck.h"
#include "linkcheck_io.h"
#include "linkcheck_settle.h"

static void quiet_while_clean(void **state)
{
	(void)state;
	struct lc_settle s = {0};
	/* the start's check, a reload's, one a client asked for: all clean */
	assert_int_equal(lc_settle_checked(&s, 1000, false, true, 0), 0);
	assert_int_equal(lc_settle_checked(&s, 5000, false, false, 0), 0);
	assert_true(lc_settle_quiet(&s));
}

static void backoff_while_unsettled(void **state)
{
	(void)state;
	struct lc_settle s = {0};
	int64_t now = 10000;
	const uint32_t want[] = {1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int64_t next = lc_settle_checked(&s, now, true, i == 0, 0);
		assert_int_equal(next - now, want[i]);
		assert_false(lc_settle_quiet(&s));
		now = next + 30; /* the re-check ran, and took 30 ms */
	}
}

static void two_clean_checks_end_it(void **state)
{
	(void)state;
	struct lc_settle s = {0};
	int64_t next = lc_settle_checked(&s, 0, true, true, 0);
	next = lc_settle_checked(&s, next, true, false, 0);
	next = lc_settle_checked(&s, next, true, false, 0);
	assert_int_equal(s.step_ms, 4000);
	/* the switch was put right: one clean check asks for a second soon */
	int64_t at = next;
	next = lc_settle_checked(&s, at, false, false, 0);
	assert_int_equal(next - at, LC_SETTLE_FIRST_MS);
	/* the second clean one: quiet, no timer */
	assert_int_equal(lc_settle_checked(&s, next, false, false, 0), 0);
	assert_true(lc_settle_quiet(&s));
	/* clean, then unsettled again, then clean: the count starts over */
	next = lc_settle_checked(&s, 100000, true, false, 0);
	next = lc_settle_checked(&s, next, false, false, 0);
	next = lc_settle_checked(&s, next, true, false, 0);
	assert_int_not_equal(next, 0);
	next = lc_settle_checked(&s, next, false, false, 0);
	assert_int_not_equal(next, 0);
	assert_int_equal(lc_settle_checked(&s, next, false, false, 0), 0);
}

static void a_change_restarts_the_waits(void **state)
{
	(void)state;
	struct lc_settle s = {0};
	int64_t next = 0;
	for (int i = 0; i < 10; i++)
		next = lc_settle_checked(&s, next, true, i == 0, 0);
	assert_int_equal(s.step_ms, LC_SETTLE_MAX_MS);
	/* a slave came back (fresh): confirm its finding within a second */
	assert_int_equal(lc_settle_checked(&s, 5000000, true, true, 0), 5000000 + LC_SETTLE_FIRST_MS);
}

static void jitter_is_added(void **state)
{
	(void)state;
	struct lc_settle s = {0};
	assert_int_equal(lc_settle_checked(&s, 700, true, true, 123), 700 + LC_SETTLE_FIRST_MS + 123);
}

/* Every finding is reached again within LC_SETTLE_MAX_MS plus a check of
 * the switch being right, from any point of the schedule: the schedule
 * played for a bond that stays wrong for `wrong` ms, then is right. */
static void clears_within_a_minute(void **state)
{
	(void)state;
	for (int64_t wrong = 0; wrong < 900000; wrong += 7919) {
		struct lc_settle s = {0};
		int64_t now = 0, checks = 0, fixed_seen = -1;
		int64_t next = lc_settle_checked(&s, now, true, true, 0);
		while (next && checks < 1000) {
			now = next + 200; /* a check takes up to 200 ms here */
			bool bad = now < wrong;
			if (!bad && fixed_seen < 0)
				fixed_seen = now;
			next = lc_settle_checked(&s, now, bad, false, 249);
			checks++;
		}
		assert_int_equal(next, 0);
		assert_true(fixed_seen >= 0);
		assert_true(fixed_seen - wrong <= LC_SETTLE_MAX_MS + 249 + 200);
		/* ... and quiet two seconds later at most */
		assert_true(now - fixed_seen <= LC_SETTLE_FIRST_MS + 249 + 200);
	}
}

/* The rate limits: 4 at once, then one every 15 s; a long pause refills
 * to 4, never more. */
static void bucket(void **state)
{
	(void)state;
	unsigned tokens = 4;
	int64_t since = 0, now = 1000;
	for (int i = 0; i < 4; i++) {
		assert_int_equal(lc_bucket_refill(&tokens, &since, now, 4, 15000), now);
		lc_bucket_take(&tokens, &since, now, 4);
	}
	/* empty: the next token 15 s after the first one taken from full */
	assert_int_equal(lc_bucket_refill(&tokens, &since, now + 10, 4, 15000), 1000 + 15000);
	assert_int_equal(lc_bucket_refill(&tokens, &since, 16000, 4, 15000), 16000);
	assert_int_equal(tokens, 1);
	lc_bucket_take(&tokens, &since, 16000, 4);
	assert_int_equal(lc_bucket_refill(&tokens, &since, 16001, 4, 15000), 31000);
	/* an hour later: full, 4 */
	assert_int_equal(lc_bucket_refill(&tokens, &since, 3600000, 4, 15000), 3600000);
	assert_int_equal(tokens, 4);
	/* a flapping slave's events over 10 s take 4 tokens at most */
	unsigned taken = 0;
	for (int64_t t = 3600000; t < 3610000; t += 50)
		if (lc_bucket_refill(&tokens, &since, t, 4, 15000) <= t) {
			lc_bucket_take(&tokens, &since, t, 4);
			taken++;
		}
	assert_int_equal(taken, 4);
}

/* A full bucket looked at is not written (each look at each bond would be
 * a store), and its refill counts from the first token taken, however
 * long ago it was last looked at. */
static void bucket_full_not_written(void **state)
{
	(void)state;
	unsigned tokens = 4;
	int64_t since = 7;
	for (int64_t t = 1000; t < 100000; t += 1000)
		assert_int_equal(lc_bucket_refill(&tokens, &since, t, 4, 15000), t);
	assert_int_equal(since, 7);
	assert_int_equal(tokens, 4);
	lc_bucket_take(&tokens, &since, 200000, 4);
	assert_int_equal(since, 200000);
	for (int i = 0; i < 3; i++)
		lc_bucket_take(&tokens, &since, 200000, 4);
	assert_int_equal(tokens, 0);
	assert_int_equal(lc_bucket_refill(&tokens, &since, 200001, 4, 15000), 215000);
	assert_int_equal(lc_bucket_refill(&tokens, &since, 214999, 4, 15000), 215000);
	assert_int_equal(tokens, 0);
	/* (an empty bucket's take takes nothing) */
	lc_bucket_take(&tokens, &since, 214999, 4);
	assert_int_equal(tokens, 0);
}

static struct finding *add(struct findings *l, enum finding_kind k, const char *a, const char *b)
{
	struct finding *f = findings_add(l, FSRC_LINK_CHECK, FSEV_DEGRADED, k, "bond0");
	assert_non_null(f);
	finding_add_slave(f, a);
	if (b)
		finding_add_slave(f, b);
	return f;
}

static void confirmed_by_the_next_check(void **state)
{
	(void)state;
	struct findings prev = {0}, cur = {0};

	/* the first check: nothing before it, everything is pending */
	add(&cur, FK_CROSSED, "e2", "e3");
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 1);
	assert_true(cur.v[0].pending);
	assert_int_equal(cur.v[0].severity, FSEV_INFO);

	/* the second agrees on crossed e2 e3, finds a new one-way e1 */
	add(&prev, FK_CROSSED, "e2", "e3");
	findings_clear(&cur);
	add(&cur, FK_CROSSED, "e2", "e3");
	add(&cur, FK_ONE_WAY, "e1", NULL);
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 1);
	assert_false(cur.v[0].pending);
	assert_int_equal(cur.v[0].severity, FSEV_DEGRADED);
	assert_true(cur.v[1].pending);
	assert_int_equal(cur.v[1].severity, FSEV_INFO);

	/* same kind, other slaves: another claim */
	findings_clear(&cur);
	add(&cur, FK_CROSSED, "e1", "e3");
	add(&cur, FK_CROSSED, "e2", NULL);
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 2);

	/* another bond's finding of the same kind and slaves confirms nothing */
	findings_clear(&cur);
	struct finding *f = findings_add(&cur, FSRC_LINK_CHECK, FSEV_DEGRADED, FK_CROSSED, "bond1");
	finding_add_slave(f, "e2");
	finding_add_slave(f, "e3");
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 1);

	/* only items from `from` on are marked */
	findings_clear(&cur);
	add(&cur, FK_UNREACHABLE, "e4", NULL);
	add(&cur, FK_UNREACHABLE, "e3", NULL);
	assert_int_equal(lc_settle_confirm(&cur, 1, &prev), 1);
	assert_false(cur.v[0].pending);
	assert_int_equal(cur.v[0].severity, FSEV_DEGRADED);
	/* the same claim whatever the evidence; not with other slaves */
	struct finding *again = add(&cur, FK_CROSSED, "e2", "e3");
	snprintf(again->evidence, sizeof(again->evidence), "seen again");
	assert_true(lc_settle_same(again, &prev.v[0]));
	assert_false(lc_settle_same(&cur.v[0], &cur.v[1]));
	assert_false(lc_settle_same(&cur.v[0], &prev.v[0]));
	findings_free(&prev);
	findings_free(&cur);
}

static int64_t wish_at(int64_t since, uint32_t jitter, bool busy, int64_t last, int64_t next,
		       size_t peers, int64_t token)
{
	struct lc_wish w = {.since_ms = since, .jitter_ms = jitter};
	return lc_wish_at(&w, busy, last, next, peers, token);
}

/* A peer's wish to be probed back that shows what our last check did not
 * is owed a check of ours, at most one per window: not while one runs or
 * is due, not shortly before a re-check, and not sooner than a window
 * after the last one started. */
static void peer_wishes_coalesce(void **state)
{
	(void)state;
	/* the window grows with the peer slaves known, to a bound */
	assert_int_equal(lc_peer_window(0), LC_PEER_WINDOW_MIN_MS);
	assert_int_equal(lc_peer_window(6), LC_PEER_WINDOW_MIN_MS + 6 * LC_PEER_WINDOW_PER_MS);
	assert_int_equal(lc_peer_window(126), LC_PEER_WINDOW_MS);
	assert_int_equal(lc_peer_window(SIZE_MAX / 2), LC_PEER_WINDOW_MS);
	assert_int_equal(wish_at(50000, 0, false, 49000, 0, 6, 0), 49000 + 1600);
	assert_int_equal(wish_at(50000, 0, false, 48400, 0, 6, 0), 50000);
	/* with 90 peer slaves known, the whole window */
	const int64_t W = LC_PEER_WINDOW_MS;
	assert_int_equal(lc_peer_window(90), W);
	/* never checked, nothing due: the wish starts one at once, after its
	 * jitter */
	assert_int_equal(wish_at(50000, 0, false, 0, 0, 90, 0), 50000);
	assert_int_equal(wish_at(50000, 300, false, 0, 0, 90, 0), 50300);
	/* nothing owed (a peer our last check reached, checking as usual: its
	 * need is met by the echo): none */
	assert_int_equal(wish_at(0, 0, false, 0, 0, 90, 0), 0);
	assert_int_equal(wish_at(0, 0, false, 1000, 0, 90, 0), 0);
	/* running, or due already: that check serves it */
	assert_int_equal(wish_at(50000, 0, true, 0, 0, 90, 0), 0);
	/* a check started within the window: the next one a window after it */
	assert_int_equal(wish_at(50000, 0, false, 50000 - W + 1, 0, 90, 0), 50001);
	assert_int_equal(wish_at(50000, 0, false, 49990, 0, 90, 0), 49990 + W);
	assert_int_equal(wish_at(50000, 200, false, 49990, 0, 90, 0), 49990 + W + 200);
	assert_int_equal(wish_at(50000, 0, false, 50000 - W, 0, 90, 0), 50000);
	/* a re-check due before it, or within the window after, will serve it */
	assert_int_equal(wish_at(50000, 0, false, 1000, 50000 + W - 1, 90, 0), 0);
	assert_int_equal(wish_at(50000, 0, false, 1000, 49000, 90, 0), 0); /* overdue */
	assert_int_equal(wish_at(50000, 0, false, 1000, 50000 + W, 90, 0), 50000);

	/* 300 peers new to us starting one after the other, 100 ms apart:
	 * one check for the first at once, then one a window later that sees
	 * those that came since (their wishes join the one owed), ... */
	int64_t last = 0, since = 0;
	unsigned started = 0;
	for (int64_t t = 1; t < 3 * W; t += 100) {
		if (!since)
			since = t;
		int64_t at = wish_at(since, 0, false, last, 0, 90, 0);
		assert_true(at > 0 && at <= t + W);
		if (at <= t) {
			started++;
			last = t;
			since = 0; /* a check that starts serves every wish owed */
		}
	}
	assert_int_equal(started, 3);
}

/* The case the owed wish exists for (sandbox 188): a host that appears
 * while our budget is empty, or while we are busy, is checked by us later,
 * never forgotten: whatever state the wish finds, it is owed a check that
 * comes within the window or the budget's refill, whichever is longer,
 * plus the jitter (the re-check that serves it instead comes on its own
 * schedule).  The model: one bond, checks of `took` ms, the wishes'
 * bucket of 4 tokens with one back every 15 s, as in linkcheck_io.h. */
static void a_new_host_is_learnt_within_a_bound(void **state)
{
	(void)state;
	const int64_t REFILL = 15000, W = LC_PEER_WINDOW_MS;
	const uint32_t J = LC_PEER_WINDOW_MS / 2 - 1; /* the largest jitter */
	/* an empty budget delays it to the next token, never drops it */
	assert_int_equal(wish_at(50000, 0, false, 40000, 0, 90, 62000), 62000);
	assert_int_equal(wish_at(50000, J, false, 40000, 0, 90, 62000), 62000);
	assert_int_equal(wish_at(50000, J, false, 49000, 0, 90, 52000), 49000 + W + J);
	for (int64_t took = 50; took <= 5000; took += 4950)
		for (unsigned spent = 0; spent <= 4; spent++)
			for (int64_t ago = 0; ago <= 2 * W; ago += 700)
				for (uint32_t jit = 0; jit <= J; jit += J) {
					/* the last check started `ago` ms before the
					 * wish, having spent `spent` tokens (the last
					 * just then) */
					int64_t t0 = 100000, last = t0 - ago;
					unsigned tokens = 4 - spent;
					int64_t tok_since = last;
					int64_t end = last + took;
					int64_t started = 0;
					for (int64_t t = t0; t <= t0 + 60000 && !started; t += 10) {
						int64_t tok = lc_bucket_refill(&tokens, &tok_since, t,
									       4, REFILL);
						int64_t at = wish_at(t0, jit, t < end, last, 0,
								     90, tok);
						/* owed: only a running check holds it */
						assert_true(at != 0 || t < end);
						if (at && at <= t) {
							assert_true(tokens > 0);
							started = t;
						}
					}
					assert_true(started >= t0);
					int64_t bound = W + jit > REFILL ? W + jit : REFILL;
					assert_true(started - t0 <= bound + 10);
				}
}

static void peer_jitter_spreads(void **state)
{
	(void)state;
	assert_int_equal(lc_peer_jitter(0, 0), 0);
	assert_int_equal(lc_peer_jitter(LC_PEER_JITTER_MS - 1, 0), LC_PEER_JITTER_MS - 1);
	assert_int_equal(lc_peer_jitter(LC_PEER_JITTER_MS, 0), 0);
	/* more peers, a wider spread, but within half the window */
	assert_int_equal(lc_peer_jitter(1000, 63), 1000);
	assert_true(lc_peer_jitter(UINT32_MAX, 1000) < LC_PEER_WINDOW_MS / 2);
	assert_true(lc_peer_jitter(UINT32_MAX - 1, SIZE_MAX) < LC_PEER_WINDOW_MS / 2);
	uint32_t max = 0;
	for (uint32_t r = 0; r < 100000; r += 7) {
		uint32_t j = lc_peer_jitter(r, 126);
		if (j > max)
			max = j;
	}
	assert_int_equal(max, LC_PEER_JITTER_MS + LC_PEER_JITTER_PER_MS * 126 - 1);
}

/* Answers to our recent checks count however late; older or unknown probe
 * ids prove nothing (lc_recent_started). */
static void late_answers_to_recent_checks(void **state)
{
	(void)state;
	struct lc_recent r = {0};
	assert_int_equal(lc_recent_started(&r, 1, 0), -1);
	for (uint32_t id = 1; id <= 10; id++)
		lc_recent_add(&r, id * 7, 1000 * (int64_t)id);
	/* the last LC_RECENT_CHECKS (8) checks: ids 21..70 */
	assert_int_equal(lc_recent_started(&r, 70, 10000), 10000);
	assert_int_equal(lc_recent_started(&r, 21, 10000), 3000);
	assert_int_equal(lc_recent_started(&r, 14, 10000), -1); /* pushed out */
	assert_int_equal(lc_recent_started(&r, 7, 10000), -1);
	assert_int_equal(lc_recent_started(&r, 22, 10000), -1); /* never ours */
	/* a check begun more than LC_RECENT_MS ago is not recent any more */
	assert_int_equal(lc_recent_started(&r, 21, 3000 + LC_RECENT_MS), 3000);
	assert_int_equal(lc_recent_started(&r, 21, 3001 + LC_RECENT_MS), -1);
	assert_int_equal(lc_recent_started(&r, 70, 3001 + LC_RECENT_MS), 10000);
	/* a clock before the check's start (not monotonic): not counted */
	assert_int_equal(lc_recent_started(&r, 70, 9999), -1);
}

/* One-way is one port's loss, of peer slaves heard and silent: a
 * confirmed one-way finding is held back (pending again) while another
 * slave also missed answers in that check, or any slave missed answers
 * one-way does not explain (a peer slave silent in both directions, or
 * some sizes only), at most LC_ONE_WAY_HELD checks in a row; otherwise it
 * is confirmed at once. */
static void one_way_held_while_the_loss_is_general(void **state)
{
	(void)state;
	static const char slaves[2][IFNAMSIZ] = {"e1", "e2"};
	static const unsigned none[2] = {0, 0};
	struct findings cur = {0};
	add(&cur, FK_ONE_WAY, "e1", NULL);
	add(&cur, FK_CROSSED, "e1", "e2");
	struct finding *f = &cur.v[0]; /* (after the adds, which may move it) */

	/* e1's missing peer slaves are those it names, e2 whole: confirmed */
	unsigned whole[2] = {3, 0};
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, whole, none, 2, 0), 0);
	assert_false(f->pending);

	/* e2 missed answers too: held, and only the one-way finding */
	unsigned both[2] = {3, 5};
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, both, none, 2, 0), 1);
	assert_true(f->pending);
	assert_int_equal(f->severity, FSEV_INFO);
	assert_false(cur.v[1].pending);

	/* e2 whole, but e1 also lost peer slaves it did not hear: held */
	f->pending = false;
	f->severity = FSEV_DEGRADED;
	unsigned silent[2] = {2, 0};
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, whole, silent, 2, 0), 1);
	assert_true(f->pending);

	/* after LC_ONE_WAY_HELD checks that held it, it is reported */
	f->pending = false;
	f->severity = FSEV_DEGRADED;
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, both, silent, 2,
						LC_ONE_WAY_HELD - 1), 1);
	f->pending = false;
	f->severity = FSEV_DEGRADED;
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, both, silent, 2, LC_ONE_WAY_HELD),
			 0);
	assert_false(f->pending);
	assert_int_equal(f->severity, FSEV_DEGRADED);

	/* a pending one stays as it is, and is not counted */
	f->pending = true;
	assert_int_equal(lc_settle_hold_one_way(&cur, NULL, slaves, both, silent, 2, 0), 0);

	/* one confirmed by the check before stays confirmed (warned of
	 * once: it does not flap back to pending while a peer is late) */
	struct findings was = {0};
	add(&was, FK_ONE_WAY, "e1", NULL);
	f->pending = false;
	f->severity = FSEV_DEGRADED;
	assert_int_equal(lc_settle_hold_one_way(&cur, &was, slaves, both, silent, 2, 0), 0);
	assert_false(f->pending);
	/* ... but not one that was pending then */
	was.v[0].pending = true;
	assert_int_equal(lc_settle_hold_one_way(&cur, &was, slaves, both, silent, 2, 0), 1);
	findings_free(&was);
	findings_free(&cur);
}

/* A one-way finding names its peers; the next check confirms it only when
 * it names one of them again (lc_peer_id): at 64 hosts starting together
 * one check missed peer X on e1, the next peer Y, and neither was one-way. */
static void one_way_confirmed_about_the_same_peer(void **state)
{
	(void)state;
	struct findings prev = {0}, cur = {0};
	struct lc_end x = {.host = {1, 2, 3, 4, 5, 6, 7, 8}, .slave = "e1"};
	struct lc_end y = {.host = {9, 9, 9, 9, 9, 9, 9, 9}, .slave = "e1"};
	struct lc_end x2 = x;
	snprintf(x2.slave, sizeof(x2.slave), "e2");
	assert_int_equal(lc_peer_id(&x), lc_peer_id(&x));
	/* the three differ in this hash (else the test proves nothing) */
	assert_int_not_equal(lc_peer_id(&x), lc_peer_id(&y));
	assert_int_not_equal(lc_peer_id(&x), lc_peer_id(&x2));

	struct finding *f = add(&prev, FK_ONE_WAY, "e1", NULL);
	f->peers[f->n_peers++] = lc_peer_id(&x);
	f = add(&cur, FK_ONE_WAY, "e1", NULL);
	f->peers[f->n_peers++] = lc_peer_id(&y);
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 1);
	assert_true(cur.v[0].pending);
	assert_int_equal(cur.v[0].severity, FSEV_INFO);

	/* y and x again: x confirms it */
	findings_clear(&cur);
	f = add(&cur, FK_ONE_WAY, "e1", NULL);
	f->peers[f->n_peers++] = lc_peer_id(&y);
	f->peers[f->n_peers++] = lc_peer_id(&x);
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 0);
	assert_false(cur.v[0].pending);
	assert_int_equal(cur.v[0].severity, FSEV_DEGRADED);

	/* another slave of the same host is another peer */
	findings_clear(&cur);
	f = add(&cur, FK_ONE_WAY, "e1", NULL);
	f->peers[f->n_peers++] = lc_peer_id(&x2);
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 1);

	/* findings without peers confirm by kind and slaves as before */
	findings_clear(&prev);
	findings_clear(&cur);
	add(&prev, FK_CROSSED, "e2", "e3");
	add(&cur, FK_CROSSED, "e2", "e3");
	assert_int_equal(lc_settle_confirm(&cur, 0, &prev), 0);
	findings_free(&prev);
	findings_free(&cur);
}

/* How long a check waits (lc_wait_ms): LC_WAIT_MS, 10 ms more per peer
 * slave, twice a late answer's lateness, LC_WAIT_MAX_MS at most; the lateness decays
 * by a quarter a check. */
static void wait_grows_with_peers_and_lateness(void **state)
{
	(void)state;
	uint32_t slow = 0;
	assert_int_equal(lc_wait_ms(0, &slow, false), LC_WAIT_MS);
	assert_int_equal(slow, 0);
	assert_int_equal(lc_wait_ms(100, &slow, false), LC_WAIT_MS + 100 * LC_WAIT_PER_PEER_MS);
	assert_int_equal(lc_wait_ms(2000, &slow, false), LC_WAIT_MAX_MS);
	/* an answer 1.5 s late: the next check waits 3 s, then less */
	slow = 1500;
	assert_int_equal(lc_wait_ms(0, &slow, false), 3000);
	assert_int_equal(slow, 1125);
	assert_int_equal(lc_wait_ms(0, &slow, false), 2250);
	assert_int_equal(slow, 844);
	/* the peers' share counts when it is the larger */
	assert_int_equal(lc_wait_ms(200, &slow, false), LC_WAIT_MS + 200 * LC_WAIT_PER_PEER_MS);
	/* very late: capped, and the lateness still decays */
	slow = LC_WAIT_MAX_MS;
	assert_int_equal(lc_wait_ms(0, &slow, false), LC_WAIT_MAX_MS);
	assert_int_equal(slow, LC_WAIT_MAX_MS - LC_WAIT_MAX_MS / 4);
	for (int i = 0; i < 40; i++)
		lc_wait_ms(0, &slow, false);
	assert_int_equal(lc_wait_ms(0, &slow, false), LC_WAIT_MS);
	/* a check that may confirm a one-way finding waits the longest,
	 * however few its peers and however prompt the answers lately; the
	 * lateness still decays */
	slow = 0;
	assert_int_equal(lc_wait_ms(0, &slow, true), LC_WAIT_MAX_MS);
	assert_int_equal(lc_wait_ms(3, &slow, true), LC_WAIT_MAX_MS);
	slow = 2000;
	assert_int_equal(lc_wait_ms(0, &slow, true), LC_WAIT_MAX_MS);
	assert_int_equal(slow, 1500);
	assert_int_equal(lc_wait_ms(0, &slow, false), 3000);
}

/* The peers' answer budget grows with the peer slaves heard, up to a
 * full row (lc_answer_budget). */
static void answer_budget_grows_with_peers(void **state)
{
	(void)state;
	assert_int_equal(lc_answer_budget(0), LC_ANSWER_BURST);
	assert_int_equal(lc_answer_budget(63), LC_ANSWER_BURST + 63 * LC_ANSWER_PER_PEER);
	/* 64 hosts, each re-checking twice a second with three requests and
	 * an echo: within it */
	assert_true(lc_answer_budget(63) >= 63 * 2 * 4);
	assert_int_equal(lc_answer_budget(100000), lc_answer_budget(LC_MAX_PEERS));
}

/* A flood's losses make no finding (lc_settle_hold_flooded,
 * lc_settle_drop_flooded): any kind that names a flooded slave is held,
 * as a table; one confirmed before stays; the raw list keeps only what
 * may confirm the next check. */
static void flooded_slave_findings_held(void **state)
{
	(void)state;
	static const char slaves[3][IFNAMSIZ] = {"e1", "e2", "e3"};
	static const struct {
		enum finding_kind kind;
		const char *a, *b;
		bool flooded[3];
		bool confirmed_before;
		bool held;
	} cases[] = {
		{FK_ONE_WAY, "e1", NULL, {true, false, false}, false, true},
		{FK_UNREACHABLE, "e1", NULL, {true, false, false}, false, true},
		{FK_CROSSED, "e1", "e2", {false, true, false}, false, true},
		{FK_CROSSED, "e1", "e2", {false, false, true}, false, false},
		{FK_JUMBO_DROPPED, "e3", NULL, {false, false, false}, false, false},
		{FK_ONE_WAY, "e1", NULL, {true, true, true}, true, false},
		{FK_SHARED_DOMAIN, "e1", "e3", {false, false, true}, false, true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct findings cur = {0}, raw = {0}, was = {0};
		add(&cur, cases[i].kind, cases[i].a, cases[i].b);
		add(&raw, cases[i].kind, cases[i].a, cases[i].b);
		if (cases[i].confirmed_before)
			add(&was, cases[i].kind, cases[i].a, cases[i].b);
		unsigned held = lc_settle_hold_flooded(&cur, &was, slaves, cases[i].flooded, 3);
		if (held != (cases[i].held ? 1u : 0u) || cur.v[0].pending != cases[i].held)
			fail_msg("case %zu: held %u, pending %d", i, held, cur.v[0].pending);
		if (cases[i].held)
			assert_int_equal(cur.v[0].severity, FSEV_INFO);
		lc_settle_drop_flooded(&raw, &was, slaves, cases[i].flooded, 3);
		if (raw.n != (cases[i].held ? 0u : 1u))
			fail_msg("case %zu: %zu left in the raw list", i, raw.n);
		findings_free(&cur);
		findings_free(&raw);
		findings_free(&was);
	}
	/* a pending one is left as it is and not counted; a pending one
	 * before does not keep it confirmed */
	static const bool e1[3] = {true, false, false};
	struct findings cur = {0}, was = {0};
	add(&cur, FK_ONE_WAY, "e1", NULL)->pending = true;
	assert_int_equal(lc_settle_hold_flooded(&cur, NULL, slaves, e1, 3), 0);
	cur.v[0].pending = false;
	add(&was, FK_ONE_WAY, "e1", NULL)->pending = true;
	assert_int_equal(lc_settle_hold_flooded(&cur, &was, slaves, e1, 3), 1);
	/* a list with two, one about the flooded slave: that one goes */
	add(&cur, FK_JUMBO_DROPPED, "e2", NULL);
	lc_settle_drop_flooded(&cur, NULL, slaves, e1, 3);
	assert_int_equal(cur.n, 1);
	assert_int_equal(cur.v[0].kind, FK_JUMBO_DROPPED);
	findings_free(&cur);
	findings_free(&was);
}

/* A due check starts at once the first time, else LC_MIN_GAP_MS after the
 * last start (lc_start_at); a running one is looked at after
 * LC_MIN_WAIT_MS, then at its deadline (lc_end_at). */
static void start_gap_and_end(void **state)
{
	(void)state;
	int64_t now = 100000;
	assert_int_equal(lc_start_at(0, now), now);
	assert_int_equal(lc_start_at(now - 100, now), now - 100 + LC_MIN_GAP_MS);
	assert_true(lc_start_at(now - 100, now) > now);
	assert_true(lc_start_at(now - LC_MIN_GAP_MS, now) <= now);
	assert_true(lc_start_at(now - 5000, now) <= now);

	int64_t deadline = now + LC_WAIT_MS;
	assert_int_equal(lc_end_at(now, deadline, now), now + LC_MIN_WAIT_MS);
	assert_int_equal(lc_end_at(now, deadline, now + LC_MIN_WAIT_MS - 1),
			 now + LC_MIN_WAIT_MS);
	assert_int_equal(lc_end_at(now, deadline, now + LC_MIN_WAIT_MS), deadline);
	assert_int_equal(lc_end_at(now, deadline, now + 700), deadline);
}

/* Peers that answered late lately, per slave of ours (lc_slow_*): kept a
 * minute after the last late answer, the oldest given up when full. */
static void slow_peers_remembered_a_minute(void **state)
{
	(void)state;
	static struct lc_slow t;
	memset(&t, 0, sizeof(t));
	assert_false(lc_slow_recent(&t, 0, 42, 1000));
	lc_slow_note(&t, 0, 42, 1000);
	assert_true(lc_slow_recent(&t, 0, 42, 1000));
	assert_false(lc_slow_recent(&t, 1, 42, 1000)); /* another slave of ours */
	assert_false(lc_slow_recent(&t, 0, 43, 1000)); /* another peer */
	assert_true(lc_slow_recent(&t, 0, 42, 1000 + LC_SLOW_KEEP_MS));
	assert_false(lc_slow_recent(&t, 0, 42, 1001 + LC_SLOW_KEEP_MS));
	/* a new late answer starts its minute again, in the same place */
	lc_slow_note(&t, 0, 42, 50000);
	assert_true(lc_slow_recent(&t, 0, 42, 50000 + LC_SLOW_KEEP_MS));
	/* full: the oldest goes first */
	for (uint32_t p = 0; p < LC_SLOW_MAX; p++)
		lc_slow_note(&t, 1, 1000 + p, 60000 + p);
	assert_false(lc_slow_recent(&t, 0, 42, 60000 + LC_SLOW_MAX));
	assert_true(lc_slow_recent(&t, 1, 1000, 60000 + LC_SLOW_MAX));
	lc_slow_note(&t, 1, 5000, 70000);
	assert_false(lc_slow_recent(&t, 1, 1000, 70000));
	assert_true(lc_slow_recent(&t, 1, 1001, 70000));
	assert_true(lc_slow_recent(&t, 1, 5000, 70000));
}

/* The replies a slave sends a second: strangers' and proven peers'
 * budgets apart, each counted until spent, both anew the next second. */
static void reply_budgets_apart(void **state)
{
	(void)state;
	struct lc_reply_count c = {0};
	int64_t t = 50000;
	for (unsigned i = 0; i < LC_ANSWER_BURST; i++)
		assert_true(lc_reply_take(&c, false, 2, t));
	assert_false(lc_reply_take(&c, false, 2, t + 10));
	assert_int_equal(c.open, LC_ANSWER_BURST);
	/* a flood of strangers starves no peer */
	unsigned peers_budget = lc_answer_budget(2);
	for (unsigned i = 0; i < peers_budget; i++)
		assert_true(lc_reply_take(&c, true, 2, t + 20));
	assert_false(lc_reply_take(&c, true, 2, t + 30));
	/* ... whose budget grows with the peers that answered */
	assert_true(lc_reply_take(&c, true, 3, t + 30));
	/* the second is over just before 1000 ms, not before */
	assert_false(lc_reply_take(&c, false, 2, t + 999));
	assert_true(lc_reply_take(&c, false, 2, t + 1000));
	assert_int_equal(c.open, 1);
	assert_int_equal(c.proven, 0);
	assert_int_equal(c.second_ms, t + 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quiet_while_clean),
		cmocka_unit_test(backoff_while_unsettled),
		cmocka_unit_test(two_clean_checks_end_it),
		cmocka_unit_test(a_change_restarts_the_waits),
		cmocka_unit_test(jitter_is_added),
		cmocka_unit_test(clears_within_a_minute),
		cmocka_unit_test(confirmed_by_the_next_check),
		cmocka_unit_test(bucket),
		cmocka_unit_test(bucket_full_not_written),
		cmocka_unit_test(peer_wishes_coalesce),
		cmocka_unit_test(a_new_host_is_learnt_within_a_bound),
		cmocka_unit_test(peer_jitter_spreads),
		cmocka_unit_test(late_answers_to_recent_checks),
		cmocka_unit_test(one_way_confirmed_about_the_same_peer),
		cmocka_unit_test(one_way_held_while_the_loss_is_general),
		cmocka_unit_test(flooded_slave_findings_held),
		cmocka_unit_test(wait_grows_with_peers_and_lateness),
		cmocka_unit_test(answer_budget_grows_with_peers),
		cmocka_unit_test(start_gap_and_end),
		cmocka_unit_test(slow_peers_remembered_a_minute),
		cmocka_unit_test(reply_budgets_apart),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
