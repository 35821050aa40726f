/* SPDX-License-Identifier: MIT */
/*
 * The link check's schedule as a state machine (linkcheck_phase.h), with
 * time passed in: what entering each phase from each other does, and the
 * step lc_phase_next picks (or when it looks again) case by case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "linkcheck_io.h"
#include "linkcheck_phase.h"
#include "linkcheck_retry.h"

#define OFF LC_PHASE_OFF
#define IDLE LC_PHASE_IDLE
#define DUE LC_PHASE_DUE
#define RUN LC_PHASE_RUNNING

struct enter_case {
	const char *what;
	struct lc_phase_state from;
	enum lc_phase to;
	int64_t now, deadline;
	struct lc_phase_state want;
};

static const struct enter_case enter_cases[] = {
	{"a trigger makes an idle bond due", {IDLE, false, 10, 20, 10, 0, 0}, DUE, 500, 0,
	 {DUE, false, 10, 20, 10, 0, 0}},
	{"a second trigger changes nothing", {DUE, false, 10, 20, 10, 0, 0}, DUE, 600, 0,
	 {DUE, false, 10, 20, 10, 0, 0}},
	{"checks off: a trigger is ignored", {OFF, false, 0, 0, 0, 0, 0}, DUE, 600, 0,
	 {OFF, false, 0, 0, 0, 0, 0}},
	{"a trigger while a check runs: the next is due after it", {RUN, false, 10, 1010, 10, 0, 0}, DUE,
	 600, 0, {RUN, true, 10, 1010, 10, 0, 0}},
	{"the end of a check with another asked for: due", {RUN, true, 10, 1010, 10, 0, 0}, IDLE, 900, 0,
	 {DUE, false, 10, 1010, 10, 0, 0}},
	{"the end of a check: idle", {RUN, false, 10, 1010, 10, 0, 0}, IDLE, 900, 0,
	 {IDLE, false, 10, 1010, 10, 0, 0}},
	{"a start: its start, the last start and its deadline", {DUE, false, 10, 1010, 10, 0, 0}, RUN,
	 5000, 6000, {RUN, false, 5000, 6000, 5000, 0, 0}},
	{"a start from idle (a direct start)", {IDLE, false, 0, 0, 0, 0, 0}, RUN, 5000, 6500,
	 {RUN, false, 5000, 6500, 5000, 0, 0}},
	{"a later deadline for a running check: the start kept", {RUN, true, 5000, 6000, 5000, 0, 0}, RUN,
	 5800, 6800, {RUN, true, 5000, 6800, 5000, 0, 0}},
	{"an earlier deadline is no reason to end sooner", {RUN, false, 5000, 6000, 5000, 0, 0}, RUN,
	 5100, 5500, {RUN, false, 5000, 6000, 5000, 0, 0}},
	{"checks turned off while one runs and another is due", {RUN, true, 5000, 6000, 5000, 0, 0}, OFF,
	 5100, 0, {OFF, false, 5000, 6000, 5000, 0, 0}},
	{"a due check given up", {DUE, false, 5000, 6000, 5000, 0, 0}, IDLE, 7000, 0,
	 {IDLE, false, 5000, 6000, 5000, 0, 0}},
	{"checks turned on", {OFF, false, 0, 0, 0, 0, 0}, IDLE, 7000, 0, {IDLE, false, 0, 0, 0, 0, 0}},
	/* the retry of a bond that heard no peer (lc_phase_checked) */
	{"a check that starts takes the retry's place; its wait is kept",
	 {IDLE, false, 10, 1010, 10, 5000, 6500}, RUN, 6500, 7500,
	 {RUN, false, 6500, 7500, 6500, 5000, 0}},
	{"a direct start before the retry's time takes its place too",
	 {IDLE, false, 10, 1010, 10, 20000, 40000}, RUN, 9000, 10000,
	 {RUN, false, 9000, 10000, 9000, 20000, 0}},
	{"a later deadline for a running check sets no retry", {RUN, false, 5000, 6000, 5000, 5000, 0},
	 RUN, 5800, 6800, {RUN, false, 5000, 6800, 5000, 5000, 0}},
	{"a trigger keeps the retry (the due check takes its place when it starts)",
	 {IDLE, false, 10, 1010, 10, 5000, 6500}, DUE, 3000, 0,
	 {DUE, false, 10, 1010, 10, 5000, 6500}},
	{"the end of a check keeps the wait (lc_phase_checked sets the retry)",
	 {RUN, false, 10, 1010, 10, 10000, 0}, IDLE, 900, 0, {IDLE, false, 10, 1010, 10, 10000, 0}},
	{"checks turned off: the retry and its wait forgotten",
	 {IDLE, false, 10, 1010, 10, 40000, 90000}, OFF, 7000, 0,
	 {OFF, false, 10, 1010, 10, 0, 0}},
	{"checks turned off while one runs: the wait forgotten", {RUN, true, 10, 1010, 10, 5000, 0},
	 OFF, 700, 0, {OFF, false, 10, 1010, 10, 0, 0}},
};

static void enter_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(enter_cases) / sizeof(enter_cases[0]); i++) {
		const struct enter_case *c = &enter_cases[i];
		struct lc_phase_state ps = c->from;
		lc_phase_enter(&ps, c->to, c->now, c->deadline);
		if (ps.phase != c->want.phase || ps.again != c->want.again ||
		    ps.started_ms != c->want.started_ms || ps.deadline_ms != c->want.deadline_ms ||
		    ps.last_start_ms != c->want.last_start_ms || ps.alone_ms != c->want.alone_ms ||
		    ps.alone_at_ms != c->want.alone_at_ms)
			fail_msg("%s: got %s again=%d %lld..%lld last %lld alone %u at %lld, want %s "
				 "again=%d %lld..%lld last %lld alone %u at %lld", c->what,
				 lc_phase_name(ps.phase), ps.again, (long long)ps.started_ms,
				 (long long)ps.deadline_ms, (long long)ps.last_start_ms, ps.alone_ms,
				 (long long)ps.alone_at_ms, lc_phase_name(c->want.phase),
				 c->want.again, (long long)c->want.started_ms,
				 (long long)c->want.deadline_ms, (long long)c->want.last_start_ms,
				 c->want.alone_ms, (long long)c->want.alone_at_ms);
	}
}

/* lc_phase_checked: the retry a check's end sets, case by case. */
struct checked_case {
	const char *what;
	enum lc_phase phase;    /* after the check's end (IDLE, or DUE: asked meanwhile) */
	uint32_t alone_ms;      /* the wait before */
	bool sent, heard, fresh;
	uint32_t jitter;
	uint32_t want_alone;    /* the wait after */
	int64_t want_at;        /* the retry's time (returned too), 0: none */
};

#define END 50000

static const struct checked_case checked_cases[] = {
	{"the first check that heard no one: 5 s on", IDLE, 0, true, false, true, 0,
	 LC_ALONE_FIRST_MS, END + LC_ALONE_FIRST_MS},
	{"... with its random delay", IDLE, 0, true, false, true, 321, LC_ALONE_FIRST_MS,
	 END + LC_ALONE_FIRST_MS + 321},
	{"a retry that heard no one: twice the wait", IDLE, 5000, true, false, false, 100, 10000,
	 END + 10100},
	{"and again", IDLE, 80000, true, false, false, 0, 160000, END + 160000},
	{"doubling stops at the most", IDLE, 160000, true, false, false, 0, LC_ALONE_MAX_MS,
	 END + LC_ALONE_MAX_MS},
	{"at the most it stays", IDLE, LC_ALONE_MAX_MS, true, false, false, 0, LC_ALONE_MAX_MS,
	 END + LC_ALONE_MAX_MS},
	{"half the most exactly: the most", IDLE, LC_ALONE_MAX_MS / 2, true, false, false, 0,
	 LC_ALONE_MAX_MS, END + LC_ALONE_MAX_MS},
	{"a change that heard no one: the first wait again", IDLE, 160000, true, false, true, 0,
	 LC_ALONE_FIRST_MS, END + LC_ALONE_FIRST_MS},
	{"a peer answered: no retry, the wait forgotten", IDLE, 40000, true, true, false, 0, 0, 0},
	{"a peer answered the first check: no retry", IDLE, 0, true, true, true, 0, 0, 0},
	{"nothing sent (no slave ready): no retry, the wait kept", IDLE, 20000, false, false, false,
	 0, 20000, 0},
	{"nothing sent at the first check: no retry", IDLE, 0, false, false, true, 0, 0, 0},
	{"another check due: the retry set all the same (that check takes its place)", DUE, 5000,
	 true, false, false, 0, 10000, END + 10000},
	{"checks off: no retry", OFF, 0, true, false, true, 0, 0, 0},
};

static void checked_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(checked_cases) / sizeof(checked_cases[0]); i++) {
		const struct checked_case *c = &checked_cases[i];
		/* (a retry set before is replaced, whatever its time) */
		struct lc_phase_state ps = {c->phase, false, END - 1000, END, END - 1000, c->alone_ms,
					    END - 7};
		int64_t at = lc_phase_checked(&ps, END, c->sent, c->heard, c->fresh, c->jitter);
		if (at != c->want_at || ps.alone_at_ms != c->want_at ||
		    ps.alone_ms != c->want_alone || ps.phase != c->phase)
			fail_msg("%s: got wait %u at %lld (returned %lld), want wait %u at %lld",
				 c->what, ps.alone_ms, (long long)ps.alone_at_ms, (long long)at,
				 c->want_alone, (long long)c->want_at);
	}
}

#define NOW 100000
/* a bucket with a token now */
#define TOK {NOW, NOW}

struct next_case {
	const char *what;
	struct lc_phase_state ps;
	struct lc_phase_in in;
	enum lc_step step;
	int64_t at;
};

static const struct next_case next_cases[] = {
	{"off: nothing, no timer, whatever is owed", {OFF, false, 0, 0, 0, 0, 0},
	 {.recheck_ms = NOW - 5, .wish = {{NOW - 5000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WAIT, 0},
	{"idle and quiet: no timer", {IDLE, false, 0, 0, 0, 0, 0}, {.token_ms = TOK}, LC_STEP_WAIT, 0},
	/* running */
	{"running, answers missing: its deadline", {RUN, false, NOW - 100, NOW + 900, NOW - 100, 0, 0},
	 {.token_ms = TOK}, LC_STEP_WAIT, NOW + 900},
	{"running past its deadline: ends", {RUN, false, NOW - 1000, NOW, NOW - 1000, 0, 0},
	 {.token_ms = TOK}, LC_STEP_FINISH, 0},
	{"running, every answer in: ends", {RUN, false, NOW - LC_MIN_WAIT_MS, NOW + 900, NOW - 50, 0, 0},
	 {.complete = true, .token_ms = TOK}, LC_STEP_FINISH, 0},
	{"every answer in before the least wait: waits for it",
	 {RUN, false, NOW - 20, NOW + 980, NOW - 20, 0, 0}, {.complete = true, .token_ms = TOK},
	 LC_STEP_WAIT, NOW - 20 + LC_MIN_WAIT_MS},
	{"running: no re-check, no wish's check (it serves them)",
	 {RUN, true, NOW - 100, NOW + 900, NOW - 100, 0, 0},
	 {.recheck_ms = NOW - 10, .wish = {{NOW - 5000, 0}, {NOW - 5000, 0}}, .wishes_owed = true,
	  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 900},
	/* the re-check */
	{"a re-check to come: its time", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.recheck_ms = NOW + 2000, .token_ms = TOK}, LC_STEP_WAIT, NOW + 2000},
	{"a re-check due with a token: triggered", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.recheck_ms = NOW, .token_ms = TOK}, LC_STEP_RECHECK, 0},
	{"a re-check due without a token: when the bucket has one",
	 {IDLE, false, 0, 0, NOW - 9000, 0, 0}, {.recheck_ms = NOW - 10, .token_ms = {NOW + 5000, NOW}},
	 LC_STEP_WAIT, NOW + 5000},
	{"a re-check a client waits for takes no token", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.demand_wait = true, .recheck_ms = NOW - 10, .token_ms = {NOW + 5000, NOW}},
	 LC_STEP_RECHECK, 0},
	{"a check due takes the re-check's place", {DUE, false, 0, 0, 0, 0, 0},
	 {.recheck_ms = NOW - 10, .token_ms = TOK}, LC_STEP_START, 0},
	/* starting */
	{"due, no check yet: starts", {DUE, false, 0, 0, 0, 0, 0}, {.token_ms = TOK}, LC_STEP_START, 0},
	{"due within the gap after the last start: at its end", {DUE, false, 0, 0, NOW - 200, 0, 0},
	 {.token_ms = TOK}, LC_STEP_WAIT, NOW - 200 + LC_MIN_GAP_MS},
	{"due just past the gap: starts", {DUE, false, 0, 0, NOW - LC_MIN_GAP_MS, 0, 0},
	 {.token_ms = TOK}, LC_STEP_START, 0},
	{"due, with wishes owed: the check serves them", {DUE, false, 0, 0, 0, 0, 0},
	 {.wish = {{NOW - 5000, 0}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_START, 0},
	/* peers' wishes */
	{"wishes answered meanwhile: forgotten", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.wish = {{NOW - 100, 30}}, .token_ms = TOK}, LC_STEP_SERVED, 0},
	{"a peer's wish past its jitter: a check", {IDLE, false, 0, 0, 0, 0, 0},
	 {.wish = {{NOW - 2000, 100}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WISH_PEER, 0},
	{"a peer's wish within its jitter: at its end", {IDLE, false, 0, 0, 0, 0, 0},
	 {.wish = {{NOW - 50, 100}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WAIT, NOW + 50},
	{"a stranger's wish without a token: when the strangers' bucket has one",
	 {IDLE, false, 0, 0, 0, 0, 0},
	 {.wish = {{0, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = {NOW, NOW + 700}},
	 LC_STEP_WAIT, NOW + 700},
	{"a stranger's wish with a token: a check", {IDLE, false, 0, 0, 0, 0, 0},
	 {.wish = {{0, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WISH_STRANGER, 0},
	{"a wish within a window of the last start: a window after it",
	 {IDLE, false, 0, 0, NOW - 500, 0, 0}, {.wish = {{NOW - 2000, 0}}, .wishes_owed = true,
					  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 500},
	{"a wish with a re-check soon: the re-check serves it", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.recheck_ms = NOW + 300, .wish = {{NOW - 2000, 0}}, .wishes_owed = true,
	  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 300},
	{"a re-check and a wish both due: the re-check first", {IDLE, false, 0, 0, NOW - 9000, 0, 0},
	 {.recheck_ms = NOW, .wish = {{NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_RECHECK, 0},
	{"peers' and strangers' wishes due: the peers' first", {IDLE, false, 0, 0, 0, 0, 0},
	 {.wish = {{NOW - 2000, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WISH_PEER, 0},
	{"the earliest of a re-check and a wish's time", {IDLE, false, 0, 0, 0, 0, 0},
	 {.recheck_ms = NOW + 9000, .wish = {{NOW - 10, 300}}, .wishes_owed = true,
	  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 290},
};

static void next_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(next_cases) / sizeof(next_cases[0]); i++) {
		const struct next_case *c = &next_cases[i];
		struct lc_next nx = lc_phase_next(&c->ps, NOW, &c->in);
		if (nx.step != c->step || nx.at != c->at)
			fail_msg("%s: step %d at %lld, want step %d at %lld", c->what, nx.step,
				 (long long)nx.at, c->step, (long long)c->at);
	}
}

/* The retry of a bond that heard no peer: the bond says when it is due
 * (retry_at, no wake-up of its own) and retries only when the node's
 * budget chose it (retry_go, linkcheck_retry.h). */
struct retry_case {
	const char *what;
	struct lc_phase_state ps;
	struct lc_phase_in in;
	enum lc_step step;
	int64_t at, retry_at;
};

static const struct retry_case retry_cases[] = {
	{"a retry to come: its time for the node, no wake-up", {IDLE, false, 0, 0, NOW - 4000, 5000,
								 NOW + 1500},
	 {.token_ms = TOK}, LC_STEP_WAIT, 0, NOW + 1500},
	{"a retry due, not chosen by the node: waits", {IDLE, false, 0, 0, NOW - 6000, 5000, NOW},
	 {.token_ms = TOK}, LC_STEP_WAIT, 0, NOW},
	{"a retry due and chosen: triggered", {IDLE, false, 0, 0, NOW - 6000, 5000, NOW},
	 {.token_ms = TOK, .retry_go = true}, LC_STEP_RETRY, 0, 0},
	{"a retry past its time and chosen: triggered",
	 {IDLE, false, 0, 0, NOW - 60000, 40000, NOW - 2000}, {.token_ms = TOK, .retry_go = true},
	 LC_STEP_RETRY, 0, 0},
	{"chosen before its time: waits (the node's choice is no trigger)",
	 {IDLE, false, 0, 0, NOW - 4000, 5000, NOW + 1000}, {.token_ms = TOK, .retry_go = true},
	 LC_STEP_WAIT, 0, NOW + 1000},
	{"a retry due without a token: when the peers' bucket has one",
	 {IDLE, false, 0, 0, NOW - 6000, 5000, NOW - 10},
	 {.token_ms = {NOW + 4000, NOW}, .retry_go = true}, LC_STEP_WAIT, 0, NOW + 4000},
	{"a retry waits for the peers' token, not the strangers'",
	 {IDLE, false, 0, 0, NOW - 6000, 5000, NOW - 10},
	 {.token_ms = {NOW, NOW + 9000}, .retry_go = true}, LC_STEP_RETRY, 0, 0},
	{"a client waiting takes no retry without a token", {IDLE, false, 0, 0, NOW - 6000, 5000, NOW},
	 {.demand_wait = true, .token_ms = {NOW + 3000, NOW}, .retry_go = true}, LC_STEP_WAIT, 0,
	 NOW + 3000},
	{"a re-check set takes the retry's place: the re-check's time",
	 {IDLE, false, 0, 0, NOW - 6000, 5000, NOW - 100},
	 {.recheck_ms = NOW + 700, .token_ms = TOK, .retry_go = true}, LC_STEP_WAIT, NOW + 700, 0},
	{"a re-check and a retry both due: the re-check",
	 {IDLE, false, 0, 0, NOW - 6000, 5000, NOW - 100},
	 {.recheck_ms = NOW, .token_ms = TOK, .retry_go = true}, LC_STEP_RECHECK, 0, 0},
	{"a trigger pre-empts: the due check starts, no node token asked",
	 {DUE, false, 0, 0, NOW - 6000, 5000, NOW - 100}, {.token_ms = TOK}, LC_STEP_START, 0, 0},
	{"a check due in the gap: its start, not the retry", {DUE, false, 0, 0, NOW - 100, 5000,
							      NOW - 100},
	 {.token_ms = TOK, .retry_go = true}, LC_STEP_WAIT, NOW - 100 + LC_MIN_GAP_MS, 0},
	{"a check running: no retry", {RUN, true, NOW - 100, NOW + 900, NOW - 100, 5000, NOW - 50},
	 {.token_ms = TOK, .retry_go = true}, LC_STEP_WAIT, NOW + 900, 0},
	{"off: no retry", {OFF, false, 0, 0, NOW - 6000, 5000, NOW - 100},
	 {.token_ms = TOK, .retry_go = true}, LC_STEP_WAIT, 0, 0},
	{"a retry chosen and a peer's wish both due: the retry (its check serves the wish)",
	 {IDLE, false, 0, 0, NOW - 9000, 5000, NOW},
	 {.wish = {{NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK, .retry_go = true},
	 LC_STEP_RETRY, 0, 0},
	{"a retry not chosen and a peer's wish due: the wish's check (it takes the retry's place)",
	 {IDLE, false, 0, 0, NOW - 9000, 5000, NOW},
	 {.wish = {{NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WISH_PEER, 0,
	 0},
	{"a wish's time and a retry's: the wish's for the bond, the retry's for the node",
	 {IDLE, false, 0, 0, 0, 5000, NOW + 2500},
	 {.wish = {{NOW - 10, 300}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WAIT, NOW + 290,
	 NOW + 2500},
};

static void retry_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(retry_cases) / sizeof(retry_cases[0]); i++) {
		const struct retry_case *c = &retry_cases[i];
		struct lc_next nx = lc_phase_next(&c->ps, NOW, &c->in);
		if (nx.step != c->step || nx.at != c->at || nx.retry_at != c->retry_at)
			fail_msg("%s: step %d at %lld retry at %lld, want step %d at %lld retry at %lld",
				 c->what, nx.step, (long long)nx.at, (long long)nx.retry_at, c->step,
				 (long long)c->at, (long long)c->retry_at);
	}
}

/* A day of one bond through the machine, with a driver as small as the
 * daemon's: each step done as lc_process_due does it, time moved to each
 * wake-up. */
static void walk(void **state)
{
	(void)state;
	struct lc_phase_state ps = {0};
	struct lc_phase_in in = {.token_ms = {1, 1}};
	int64_t now = 1000;
	lc_phase_enter(&ps, LC_PHASE_IDLE, now, 0);
	assert_int_equal(lc_phase_next(&ps, now, &in).step, LC_STEP_WAIT);
	/* a slave came up: due, started at once */
	lc_phase_enter(&ps, LC_PHASE_DUE, now, 0);
	assert_int_equal(lc_phase_next(&ps, now, &in).step, LC_STEP_START);
	lc_phase_enter(&ps, LC_PHASE_RUNNING, now, now + LC_WAIT_MS);
	assert_true(lc_phase_running(&ps));
	assert_false(lc_phase_due(&ps));
	/* another slave came up while it ran */
	lc_phase_enter(&ps, LC_PHASE_DUE, now + 10, 0);
	assert_true(lc_phase_due(&ps));
	struct lc_next nx = lc_phase_next(&ps, now + 10, &in);
	assert_int_equal(nx.step, LC_STEP_WAIT);
	assert_int_equal(nx.at, now + LC_MIN_WAIT_MS);
	/* every answer in at 120 ms */
	in.complete = true;
	assert_int_equal(lc_phase_next(&ps, now + 120, &in).step, LC_STEP_FINISH);
	in.complete = false;
	lc_phase_enter(&ps, LC_PHASE_IDLE, now + 120, 0);
	assert_int_equal(ps.phase, LC_PHASE_DUE);
	/* the next waits for the gap after the first's start */
	nx = lc_phase_next(&ps, now + 120, &in);
	assert_int_equal(nx.step, LC_STEP_WAIT);
	assert_int_equal(nx.at, now + LC_MIN_GAP_MS);
	assert_int_equal(lc_phase_next(&ps, nx.at, &in).step, LC_STEP_START);
	/* turned off: nothing more */
	lc_phase_enter(&ps, LC_PHASE_OFF, nx.at, 0);
	assert_int_equal(lc_phase_next(&ps, nx.at, &in).step, LC_STEP_WAIT);
	assert_string_equal(lc_phase_name(ps.phase), "off");
	assert_string_equal(lc_phase_name(LC_PHASE_IDLE), "idle");
	assert_string_equal(lc_phase_name(LC_PHASE_DUE), "due");
	assert_string_equal(lc_phase_name(LC_PHASE_RUNNING), "running");
	assert_string_equal(lc_phase_name((enum lc_phase)9), "?");
}

/* A bond driven as lc_process_due drives it (tokens from the peers'
 * bucket, each check ending at its deadline), whose checks hear a peer
 * from heard_from_ms on (0: never).  Returns how many checks started in
 * [0, until); starts[] gets their times (up to max). */
static size_t drive(int64_t until, int64_t heard_from_ms, int64_t *starts, size_t max,
		    int64_t *now_io, struct lc_phase_state *ps)
{
	unsigned tokens = LC_BURST;
	int64_t since = 0, now = *now_io;
	size_t n = 0;
	bool fresh = true; /* the first check: a slave ready */
	struct lc_retry_node node;
	lc_retry_node_init(&node);
	bool go = false;
	while (now < until) {
		struct lc_phase_in in = {.token_ms = {lc_bucket_refill(&tokens, &since, now, LC_BURST,
								       LC_REFILL_MS), now},
					 .retry_go = go};
		struct lc_next nx = lc_phase_next(ps, now, &in);
		go = false;
		switch (nx.step) {
		case LC_STEP_WAIT: {
			/* the node's budget, with this one bond offered */
			struct lc_retry_queue q = {0};
			if (nx.retry_at)
				lc_retry_offer(&q, 0, nx.retry_at);
			struct lc_retry_go g = lc_retry_decide(&node, &q, now);
			if (g.go) {
				go = true;
				break;
			}
			int64_t at = nx.at && (!g.at || nx.at < g.at) ? nx.at : g.at;
			if (!at) {
				*now_io = now;
				return n;
			}
			now = at;
			break;
		}
		case LC_STEP_RETRY:
			assert_true(tokens > 0);
			lc_retry_take(&node, now);
			lc_bucket_take(&tokens, &since, now, LC_BURST);
			lc_phase_enter(ps, LC_PHASE_DUE, now, 0);
			break;
		case LC_STEP_START:
			if (n < max)
				starts[n] = now;
			n++;
			lc_phase_enter(ps, LC_PHASE_RUNNING, now, now + LC_WAIT_MS);
			break;
		case LC_STEP_FINISH:
			lc_phase_enter(ps, LC_PHASE_IDLE, now, 0);
			lc_phase_checked(ps, now, true, heard_from_ms && now >= heard_from_ms, fresh, 0);
			fresh = false;
			break;
		default:
			fail_msg("step %d: nothing asked for it", nx.step);
		}
	}
	*now_io = now;
	return n;
}

/* A bond on a switch where no bondd answers, for a day: its retries come
 * 5, 10, 20 ... s after each check's end, then every 5 minutes; it sends
 * 4 checks in its first minute, at most one in any minute from its sixth,
 * 300 or so in the day. */
static void alone_for_a_day(void **state)
{
	(void)state;
	struct lc_phase_state ps = {0};
	int64_t now = 1000, starts[400];
	lc_phase_enter(&ps, LC_PHASE_IDLE, now, 0);
	lc_phase_enter(&ps, LC_PHASE_DUE, now, 0);
	size_t n = drive(now + 86400000, 0, starts, 400, &now, &ps);
	static const int64_t waits[] = {5000, 10000, 20000, 40000, 80000, 160000, 300000, 300000};
	for (size_t k = 0; k < sizeof(waits) / sizeof(waits[0]); k++)
		if (starts[k + 1] - (starts[k] + LC_WAIT_MS) != waits[k])
			fail_msg("retry %zu came %lld ms after the check before ended, want %lld", k + 1,
				 (long long)(starts[k + 1] - starts[k] - LC_WAIT_MS),
				 (long long)waits[k]);
	size_t first_minute = 0;
	for (size_t k = 0; k < n && k < 400; k++)
		first_minute += starts[k] < 1000 + 60000;
	assert_int_equal(first_minute, 4);
	/* from the sixth minute at most one a minute; from the 7th retry on
	 * one per 5 minutes and a check */
	for (size_t k = 1; k < n && k < 400; k++) {
		if (starts[k] >= 1000 + 5 * 60000)
			assert_true(starts[k] - starts[k - 1] >= 60000);
		if (k >= 7)
			assert_int_equal(starts[k] - starts[k - 1], LC_ALONE_MAX_MS + LC_WAIT_MS);
	}
	/* 7 before the waits reach 5 minutes, then one per 5 minutes and a
	 * check's second */
	assert_in_range(n, 280, 7 + 86400000 / (LC_ALONE_MAX_MS + LC_WAIT_MS) + 1);
	assert_int_equal(ps.alone_ms, LC_ALONE_MAX_MS);
}

/* Two hosts that started together and missed each other: the retry that
 * hears a peer ends the retries (no timer after it); a change later that
 * hears no one starts them again at the first wait. */
static void heard_ends_retries(void **state)
{
	(void)state;
	struct lc_phase_state ps = {0};
	int64_t now = 1000, starts[16];
	lc_phase_enter(&ps, LC_PHASE_IDLE, now, 0);
	lc_phase_enter(&ps, LC_PHASE_DUE, now, 0);
	/* the peer answers from 12 s on: the first check and the first retry
	 * hear no one, the second one (at 17 s) hears it, and no timer is
	 * left */
	size_t n = drive(now + 3600000, 12000, starts, 16, &now, &ps);
	assert_int_equal(n, 3);
	assert_int_equal(starts[1], 1000 + LC_WAIT_MS + 5000);
	assert_int_equal(starts[2], starts[1] + LC_WAIT_MS + 10000);
	assert_int_equal(ps.alone_ms, 0);
	assert_int_equal(ps.alone_at_ms, 0);
	struct lc_phase_in in = {.token_ms = {now, now}};
	struct lc_next nx = lc_phase_next(&ps, now + 3600000, &in);
	assert_int_equal(nx.step, LC_STEP_WAIT);
	assert_int_equal(nx.at, 0);
	assert_int_equal(nx.retry_at, 0);
	/* a slave's carrier returns an hour on, and no one answers: 5 s */
	now += 3600000;
	lc_phase_enter(&ps, LC_PHASE_RUNNING, now, now + LC_WAIT_MS);
	lc_phase_enter(&ps, LC_PHASE_IDLE, now + LC_WAIT_MS, 0);
	assert_int_equal(lc_phase_checked(&ps, now + LC_WAIT_MS, true, false, true, 0),
			 now + LC_WAIT_MS + LC_ALONE_FIRST_MS);
}

/* Any sequence of entries and inputs: a step never asks for what the
 * phase cannot do (no start while running or idle, no end unless
 * running, nothing while off), a wait's time is never in the past, and
 * a bond never starts within LC_MIN_GAP_MS of its last start. */
static void invariants_hold(void **state)
{
	(void)state;
	uint32_t x = 12345;
	struct lc_phase_state ps = {0};
	int64_t now = 100000;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		now += x % 300;
		lc_phase_enter(&ps, (enum lc_phase)(x >> 8 & 3), now, now + (x >> 10) % 2000);
		if (x >> 24 & 1)
			lc_phase_checked(&ps, now, x >> 25 & 1, x >> 26 & 1, x >> 27 & 1,
					 (x >> 28) * 30);
		struct lc_phase_in in = {
			.complete = x >> 12 & 1,
			.demand_wait = x >> 13 & 1,
			.recheck_ms = x >> 14 & 1 ? now - 500 + (int64_t)((x >> 16) % 1000) : 0,
			.wish = {{x >> 15 & 1 ? now - (int64_t)((x >> 17) % 3000) : 0, 100},
				 {x >> 18 & 1 ? now - (int64_t)((x >> 19) % 3000) : 0, 0}},
			.wishes_owed = x >> 20 & 1,
			.token_ms = {now + (x >> 21 & 1) * 700, now + (x >> 22 & 1) * 900},
			.peers = (x >> 23) % 40,
			.retry_go = x >> 29 & 1,
		};
		struct lc_next nx = lc_phase_next(&ps, now, &in);
		switch (nx.step) {
		case LC_STEP_WAIT:
			if (nx.at)
				assert_true(nx.at > now);
			/* a retry reported only while idle with no re-check */
			if (nx.retry_at)
				assert_true(ps.phase == LC_PHASE_IDLE && !in.recheck_ms &&
					    (nx.retry_at > now || !in.retry_go));
			break;
		case LC_STEP_FINISH:
			assert_int_equal(ps.phase, LC_PHASE_RUNNING);
			lc_phase_enter(&ps, LC_PHASE_IDLE, now, 0);
			break;
		case LC_STEP_START:
			assert_int_equal(ps.phase, LC_PHASE_DUE);
			assert_true(!ps.last_start_ms || now - ps.last_start_ms >= LC_MIN_GAP_MS);
			break;
		case LC_STEP_RETRY:
			/* only a bond idle, with no re-check set, a retry due
			 * and a peers' token */
			assert_int_equal(ps.phase, LC_PHASE_IDLE);
			assert_int_equal(in.recheck_ms, 0);
			assert_true(ps.alone_at_ms && ps.alone_at_ms <= now);
			assert_true(in.token_ms[0] <= now);
			assert_true(in.retry_go);
			break;
		default:
			assert_int_not_equal(ps.phase, LC_PHASE_OFF);
			assert_false(lc_phase_due(&ps));
			assert_int_not_equal(ps.phase, LC_PHASE_RUNNING);
			break;
		}
		assert_true(ps.phase != LC_PHASE_OFF || !ps.again);
		/* the waits stay within their bounds; no retry while off or
		 * running */
		assert_true(ps.alone_ms == 0 || (ps.alone_ms >= LC_ALONE_FIRST_MS &&
						 ps.alone_ms <= LC_ALONE_MAX_MS));
		assert_true(ps.phase != LC_PHASE_OFF || (!ps.alone_ms && !ps.alone_at_ms));
		assert_true(ps.phase != LC_PHASE_RUNNING || !ps.alone_at_ms ||
			    ps.alone_at_ms > ps.started_ms);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enter_table),
		cmocka_unit_test(checked_table),
		cmocka_unit_test(next_table),
		cmocka_unit_test(retry_table),
		cmocka_unit_test(walk),
		cmocka_unit_test(alone_for_a_day),
		cmocka_unit_test(heard_ends_retries),
		cmocka_unit_test(invariants_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
