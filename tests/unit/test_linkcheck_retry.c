/* SPDX-License-Identifier: MIT */
/*
 * The node's budget for the retries of bonds that heard no peer
 * (linkcheck_retry.h): its decision case by case, its estimate, and days
 * of 1, 4 and 256 peerless bonds driven as lc_process_due drives them
 * (linkcheck_sched.c), counting checks and wake-ups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linkcheck_io.h"
#include "linkcheck_phase.h"
#include "linkcheck_retry.h"

#define NOW 1000000
#define GAP LC_RETRY_NODE_GAP_MS
#define BURST LC_RETRY_NODE_BURST

struct offer {
	size_t idx;
	int64_t ready;
};

struct decide_case {
	const char *what;
	struct lc_retry_node node;
	struct offer offers[5];
	size_t n;
	bool go;
	size_t idx;
	int64_t at;
};

static const struct decide_case decide_cases[] = {
	{"no bond offered: no timer", {BURST, 0}, {{0, 0}}, 0, false, 0, 0},
	{"one bond due, a full bucket: it goes", {BURST, 0}, {{3, NOW}}, 1, true, 3, 0},
	{"one bond past due: it goes", {1, NOW - 2 * GAP}, {{0, NOW - 7000}}, 1, true, 0, 0},
	{"one bond due later: its time", {BURST, 0}, {{2, NOW + 4000}}, 1, false, 2, NOW + 4000},
	{"many due, the bucket empty: the next token's time, no sooner", {0, NOW - 3000},
	 {{0, NOW - 9000}, {1, NOW - 50000}, {2, NOW - 100}, {3, NOW}, {4, NOW - 20000}}, 5, false,
	 1, NOW - 3000 + GAP},
	{"many due, a token: the one due longest ago goes, not the first listed", {1, NOW - 3000},
	 {{0, NOW - 9000}, {1, NOW - 50000}, {2, NOW - 100}, {3, NOW}, {4, NOW - 20000}}, 5, true,
	 1, 0},
	{"due at the same time: the one first listed", {2, NOW - 3000},
	 {{4, NOW - 500}, {1, NOW - 500}, {2, NOW - 400}}, 3, true, 4, 0},
	{"few bonds, a token each: the earliest first", {4, NOW - 3000},
	 {{0, NOW}, {1, NOW}, {2, NOW - 1}, {3, NOW}}, 4, true, 2, 0},
	{"the bond first due is not due yet, the bucket empty: the later of the two", {0, NOW},
	 {{0, NOW + GAP + 500}, {1, NOW + GAP + 900}}, 2, false, 0, NOW + GAP + 500},
	{"a token back by now (the refill): it goes", {0, NOW - GAP}, {{5, NOW - 1}}, 1, true, 5, 0},
};

static void decide_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(decide_cases) / sizeof(decide_cases[0]); i++) {
		const struct decide_case *c = &decide_cases[i];
		struct lc_retry_queue q = {0};
		for (size_t k = 0; k < c->n; k++)
			lc_retry_offer(&q, c->offers[k].idx, c->offers[k].ready);
		struct lc_retry_node before = c->node;
		struct lc_retry_go g = lc_retry_decide(&c->node, &q, NOW);
		if (g.go != c->go || (c->n && g.idx != c->idx) || g.at != c->at)
			fail_msg("%s: go %d bond %zu at %lld, want go %d bond %zu at %lld", c->what,
				 g.go, g.idx, (long long)g.at, c->go, c->idx, (long long)c->at);
		/* a decision stores nothing */
		assert_memory_equal(&before, &c->node, sizeof(before));
	}
}

/* Tokens are taken one per retry and come back one per gap; a node with
 * 4 bonds due at once starts all 4, and with a burst used up the next
 * comes a gap later. */
static void take_and_refill(void **state)
{
	(void)state;
	struct lc_retry_node node;
	lc_retry_node_init(&node);
	assert_int_equal(node.tokens, BURST);
	struct lc_retry_queue q = {0};
	lc_retry_offer(&q, 0, NOW);
	for (unsigned k = 0; k < BURST; k++) {
		struct lc_retry_go g = lc_retry_decide(&node, &q, NOW);
		assert_true(g.go);
		lc_retry_take(&node, NOW);
	}
	struct lc_retry_go g = lc_retry_decide(&node, &q, NOW);
	assert_false(g.go);
	assert_int_equal(g.at, NOW + GAP);
	assert_true(lc_retry_decide(&node, &q, NOW + GAP).go);
	lc_retry_take(&node, NOW + GAP);
	g = lc_retry_decide(&node, &q, NOW + GAP + 1);
	assert_false(g.go);
	assert_int_equal(g.at, NOW + 2 * GAP);
}

struct estimate_case {
	const char *what;
	struct lc_retry_node node;
	int64_t ready;
	size_t ahead;
	int64_t want;
};

static const struct estimate_case estimate_cases[] = {
	{"alone, a full bucket: its own time", {BURST, 0}, NOW + 5000, 0, NOW + 5000},
	{"a few ahead, tokens for them all: its own time", {BURST, 0}, NOW + 5000, 3, NOW + 5000},
	{"past due, a token: now", {2, NOW - 4000}, NOW - 100, 1, NOW},
	{"255 ahead, a full bucket: the burst, then a gap each", {BURST, 0}, NOW + 5000, 255,
	 NOW + (int64_t)(255 - BURST + 1) * GAP},
	{"255 ahead, the bucket empty: a gap each from the next token", {0, NOW - 4000},
	 NOW + 300000, 255, NOW - 4000 + 256 * (int64_t)GAP},
	{"3 ahead, 1 token left: 2 more refills", {1, NOW - 4000}, NOW, 3, NOW - 4000 + 3 * GAP},
	{"its own time after its turn: its own time", {0, NOW - 4000}, NOW + 100000, 2,
	 NOW + 100000},
};

static void estimate_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(estimate_cases) / sizeof(estimate_cases[0]); i++) {
		const struct estimate_case *c = &estimate_cases[i];
		int64_t got = lc_retry_estimate(&c->node, NOW, c->ready, c->ahead);
		if (got != c->want)
			fail_msg("%s: %lld, want %lld", c->what, (long long)(got - NOW),
				 (long long)(c->want - NOW));
	}
}

/* ---- days of many bonds, driven as lc_process_due drives them ---- */

#define MAX_LOG 65536

struct sim_bond {
	struct lc_phase_state ps;
	unsigned tokens;
	int64_t since;
	bool fresh;
	int64_t heard_from; /* its checks hear a peer from then on, 0: never */
	size_t checks, retries;
	int64_t starts[16]; /* its first checks' starts */
	int64_t last_retry, max_between; /* the longest time between two of its retries */
	int64_t est;        /* its next retry as estimated at its last check's end */
	int64_t est_err;    /* the estimates' largest error */
};

struct sim {
	struct sim_bond *b;
	size_t n;
	struct lc_retry_node node;
	int64_t now;
	size_t wakes, checks, retries;
	int64_t wake_at[MAX_LOG], retry_at[MAX_LOG];
};

static struct lc_phase_in sim_in(struct sim_bond *sb, int64_t now, bool go)
{
	/* no peer to wait for: a check ends after the least wait */
	return (struct lc_phase_in){
		.complete = lc_phase_running(&sb->ps),
		.token_ms = {lc_bucket_refill(&sb->tokens, &sb->since, now, LC_BURST, LC_REFILL_MS),
			     now},
		.retry_go = go,
	};
}

/* retry_estimate of linkcheck_sched.c: bond i's retry, at its check's end */
static int64_t sim_estimate(struct sim *s, size_t i)
{
	struct lc_phase_in in = sim_in(&s->b[i], s->now, false);
	int64_t ready = lc_phase_retry_at(&s->b[i].ps, s->now, &in);
	if (!ready)
		return s->b[i].ps.alone_at_ms;
	size_t ahead = 0;
	for (size_t k = 0; k < s->n; k++) {
		if (k == i || !s->b[k].ps.alone_at_ms)
			continue;
		struct lc_phase_in oin = sim_in(&s->b[k], s->now, false);
		int64_t at = lc_phase_retry_at(&s->b[k].ps, s->now, &oin);
		ahead += at && (at < ready || (at == ready && k < i));
	}
	return lc_retry_estimate(&s->node, s->now, ready, ahead);
}

/* run_steps of linkcheck_sched.c */
static struct lc_next sim_steps(struct sim *s, size_t i, bool go)
{
	struct sim_bond *sb = &s->b[i];
	for (unsigned k = 0; k < 16; k++) {
		struct lc_phase_in in = sim_in(sb, s->now, go);
		struct lc_next nx = lc_phase_next(&sb->ps, s->now, &in);
		switch (nx.step) {
		case LC_STEP_WAIT:
			return nx;
		case LC_STEP_FINISH:
			lc_phase_enter(&sb->ps, LC_PHASE_IDLE, s->now, 0);
			lc_phase_checked(&sb->ps, s->now, true,
					 sb->heard_from && s->now >= sb->heard_from, sb->fresh, 0);
			sb->fresh = false;
			sb->est = sb->ps.alone_at_ms ? sim_estimate(s, i) : 0;
			break;
		case LC_STEP_RETRY:
			assert_true(go);
			go = false;
			lc_retry_take(&s->node, s->now);
			lc_bucket_take(&sb->tokens, &sb->since, s->now, LC_BURST);
			lc_phase_enter(&sb->ps, LC_PHASE_DUE, s->now, 0);
			if (sb->est && llabs(s->now - sb->est) > sb->est_err)
				sb->est_err = llabs(s->now - sb->est);
			if (sb->retries++ && s->now - sb->last_retry > sb->max_between)
				sb->max_between = s->now - sb->last_retry;
			sb->last_retry = s->now;
			if (s->retries < MAX_LOG)
				s->retry_at[s->retries] = s->now;
			s->retries++;
			break;
		case LC_STEP_START:
			lc_phase_enter(&sb->ps, LC_PHASE_RUNNING, s->now, s->now + LC_WAIT_MS);
			if (sb->checks < 16)
				sb->starts[sb->checks] = s->now;
			sb->checks++;
			s->checks++;
			break;
		default:
			fail_msg("step %d: nothing asked for it", nx.step);
		}
	}
	fail_msg("bond %zu: more than 16 steps at once", i);
	return (struct lc_next){LC_STEP_WAIT, 0, 0};
}

static int64_t earlier(int64_t a, int64_t b)
{
	return !a || (b && b < a) ? b : a;
}

/* One wake-up at s->now, as lc_process_due: every bond's steps, then the
 * node's retries; returns when the one timer is armed for, 0: off. */
static int64_t sim_pass(struct sim *s)
{
	int64_t next = 0;
	for (size_t i = 0; i < s->n; i++)
		next = earlier(next, sim_steps(s, i, false).at);
	for (unsigned k = 0; k <= BURST; k++) {
		struct lc_retry_queue q = {0};
		for (size_t i = 0; i < s->n; i++) {
			struct lc_phase_in in = sim_in(&s->b[i], s->now, false);
			int64_t at = lc_phase_retry_at(&s->b[i].ps, s->now, &in);
			if (at)
				lc_retry_offer(&q, i, at);
		}
		struct lc_retry_go g = lc_retry_decide(&s->node, &q, s->now);
		if (!g.go) {
			next = earlier(next, g.at);
			break;
		}
		next = earlier(next, sim_steps(s, g.idx, true).at);
	}
	return next;
}

/* The wake-ups before until, each at the time the last armed the timer
 * for; then the clock at until (an event's time: its own wake-up is the
 * next call's first). */
static void sim_run(struct sim *s, int64_t until)
{
	while (s->now < until) {
		int64_t next = sim_pass(s);
		if (s->wakes < MAX_LOG)
			s->wake_at[s->wakes] = s->now;
		s->wakes++;
		if (next)
			assert_true(next > s->now);
		if (!next || next >= until) {
			s->now = until;
			return;
		}
		s->now = next;
	}
}

/* n bonds whose slaves became ready at 1 s, stagger[i] ms later each
 * (ascending; NULL: all at once). */
static struct sim *sim_new(size_t n, const int64_t *stagger)
{
	struct sim *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->b = calloc(n, sizeof(*s->b));
	assert_non_null(s->b);
	s->n = n;
	lc_retry_node_init(&s->node);
	s->now = 1000;
	for (size_t i = 0; i < n; i++) {
		s->b[i].tokens = LC_BURST;
		s->b[i].fresh = true;
		lc_phase_enter(&s->b[i].ps, LC_PHASE_IDLE, s->now, 0);
	}
	for (size_t i = 0; i < n; i++) {
		sim_run(s, 1000 + (stagger ? stagger[i] : 0));
		lc_phase_enter(&s->b[i].ps, LC_PHASE_DUE, s->now, 0);
	}
	return s;
}

static void sim_free(struct sim *s)
{
	free(s->b);
	free(s);
}

#define DAY 86400000

/* Each check's start as one bond alone would have it with no budget at
 * all: 5, 10, 20, 40, 80, 160 s after each check's end, then 5 minutes. */
static void assert_alone_schedule(const struct sim_bond *sb, const char *what)
{
	static const int64_t waits[] = {5000, 10000, 20000, 40000, 80000, 160000, 300000, 300000};
	for (size_t k = 0; k < sizeof(waits) / sizeof(waits[0]); k++) {
		int64_t got = sb->starts[k + 1] - (sb->starts[k] + LC_MIN_WAIT_MS);
		if (got != waits[k])
			fail_msg("%s: retry %zu came %lld ms after the check before ended, want %lld",
				 what, k + 1, (long long)got, (long long)waits[k]);
	}
}

/* One bond, a day: the retries as before the budget (each at its own
 * time), and the node wakes only for them: a check's start and end. */
static void day_one_bond(void **state)
{
	(void)state;
	struct sim *s = sim_new(1, NULL);
	sim_run(s, DAY);
	assert_alone_schedule(&s->b[0], "1 bond");
	/* 7 retries before the waits reach 5 minutes, then one every 5
	 * minutes and a check */
	size_t want = 1 + 7 + (DAY - 1000 - 315000) / (LC_ALONE_MAX_MS + LC_MIN_WAIT_MS);
	assert_in_range(s->checks, want - 1, want + 1);
	assert_int_equal(s->retries, s->checks - 1);
	/* a wake-up to start each check and one to end it */
	assert_in_range(s->wakes, 2 * s->checks, 2 * s->checks + 2);
	printf("1 bond, a day: %zu checks (%zu retries), %zu wake-ups\n", s->checks, s->retries,
	       s->wakes);
	sim_free(s);
}

/* 1 to 4 bonds whose slaves came up together (no random delay: the worst
 * case for the node), or a fraction of a second apart: each bond retries
 * exactly as it would alone. */
static void few_bonds_as_before(void **state)
{
	(void)state;
	static const int64_t apart[] = {0, 300, 700, 1100};
	for (size_t n = 1; n <= 4; n++) {
		for (int staggered = 0; staggered < 2; staggered++) {
			struct sim *s = sim_new(n, staggered ? apart : NULL);
			sim_run(s, DAY);
			char what[64];
			for (size_t i = 0; i < n; i++) {
				snprintf(what, sizeof(what), "%zu bonds%s, bond %zu", n,
					 staggered ? " apart" : "", i);
				assert_alone_schedule(&s->b[i], what);
				assert_int_equal(s->b[i].max_between,
						 LC_ALONE_MAX_MS + LC_MIN_WAIT_MS);
				/* retry_in_ms exact */
				assert_int_equal(s->b[i].est_err, 0);
			}
			sim_free(s);
		}
	}
}

/* 256 bonds of dummy slaves (the scale bench): after the first burst, one
 * retry per gap on the whole node and at most 2 wake-ups in any 10 s (the
 * retry's start and end); each bond's turn about every 256 gaps. */
static void day_256_bonds(void **state)
{
	(void)state;
	struct sim *s = sim_new(256, NULL);
	sim_run(s, DAY);
	assert_true(s->retries <= MAX_LOG && s->wakes <= MAX_LOG);
	/* the first checks (not retries), the burst, then one a gap */
	assert_in_range(s->retries, (DAY - 10000) / GAP - 1, BURST + DAY / GAP);
	assert_int_equal(s->checks, 256 + s->retries);
	for (size_t k = BURST; k + 1 < s->retries; k++)
		if (s->retry_at[k + 1] - s->retry_at[k] < GAP)
			fail_msg("retries %zu and %zu %lld ms apart", k, k + 1,
				 (long long)(s->retry_at[k + 1] - s->retry_at[k]));
	/* wake-ups in any 10 s once the first checks and burst are over */
	size_t most = 0;
	for (size_t i = 0, j = 0; i < s->wakes; i++) {
		if (s->wake_at[i] < 60000)
			continue;
		while (j < s->wakes && s->wake_at[j] < s->wake_at[i] + 10000)
			j++;
		if (j - i > most)
			most = j - i;
	}
	assert_int_equal(most, 2);
	/* every bond had its turns, round robin: about 256 gaps apart; the
	 * estimate of each retry's time at the check before's end */
	int64_t est_err = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->b[i].est_err > est_err)
			est_err = s->b[i].est_err;
		assert_true(s->b[i].retries >= DAY / (256 * GAP) - 1);
		assert_true(s->b[i].max_between <= 256 * (int64_t)GAP + GAP);
	}
	assert_true(est_err <= GAP);
	printf("256 bonds, a day: %zu checks (%zu retries), %zu wake-ups; most wake-ups in 10 s "
	       "after the first minute: %zu; bond 0: %zu retries, at most %lld s apart; "
	       "retry_in_ms off by %lld ms at most\n",
	       s->checks, s->retries, s->wakes, most, s->b[0].retries,
	       (long long)s->b[0].max_between / 1000, (long long)est_err);
	sim_free(s);
}

/* Among 256 peerless bonds, one hears a peer (it leaves the queue: no
 * retry after the check that heard it) and one has a change (its check
 * starts at once, the node's bucket empty). */
static void leave_and_preempt(void **state)
{
	(void)state;
	struct sim *s = sim_new(256, NULL);
	s->b[7].heard_from = 600000;
	sim_run(s, 600000);
	size_t checks7 = s->b[7].checks;
	/* bond 7 is checked in its turn, hears the peer, and then never again */
	sim_run(s, 600000 + 300 * (int64_t)GAP);
	assert_int_equal(s->b[7].checks, checks7 + 1);
	assert_int_equal(s->b[7].ps.alone_at_ms, 0);
	/* a change of bond 9 (a slave ready): checked now, the node's bucket
	 * empty and other bonds waiting for their turn */
	struct lc_retry_queue q = {0};
	lc_retry_offer(&q, 0, s->now);
	int64_t t = s->now + 1;
	assert_false(lc_retry_decide(&s->node, &q, t).go);
	sim_run(s, t);
	s->now = t;
	size_t before = s->b[9].checks;
	lc_phase_enter(&s->b[9].ps, LC_PHASE_DUE, t, 0);
	s->b[9].fresh = true;
	sim_run(s, t + 1);
	assert_int_equal(s->b[9].checks, before + 1);
	assert_int_equal(s->b[9].ps.last_start_ms, t);
	sim_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decide_table),
		cmocka_unit_test(take_and_refill),
		cmocka_unit_test(estimate_table),
		cmocka_unit_test(day_one_bond),
		cmocka_unit_test(few_bonds_as_before),
		cmocka_unit_test(day_256_bonds),
		cmocka_unit_test(leave_and_preempt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
