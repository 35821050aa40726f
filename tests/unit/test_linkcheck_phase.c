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
	{"a trigger makes an idle bond due", {IDLE, false, 10, 20, 10}, DUE, 500, 0,
	 {DUE, false, 10, 20, 10}},
	{"a second trigger changes nothing", {DUE, false, 10, 20, 10}, DUE, 600, 0,
	 {DUE, false, 10, 20, 10}},
	{"checks off: a trigger is ignored", {OFF, false, 0, 0, 0}, DUE, 600, 0,
	 {OFF, false, 0, 0, 0}},
	{"a trigger while a check runs: the next is due after it", {RUN, false, 10, 1010, 10}, DUE,
	 600, 0, {RUN, true, 10, 1010, 10}},
	{"the end of a check with another asked for: due", {RUN, true, 10, 1010, 10}, IDLE, 900, 0,
	 {DUE, false, 10, 1010, 10}},
	{"the end of a check: idle", {RUN, false, 10, 1010, 10}, IDLE, 900, 0,
	 {IDLE, false, 10, 1010, 10}},
	{"a start: its start, the last start and its deadline", {DUE, false, 10, 1010, 10}, RUN,
	 5000, 6000, {RUN, false, 5000, 6000, 5000}},
	{"a start from idle (a direct start)", {IDLE, false, 0, 0, 0}, RUN, 5000, 6500,
	 {RUN, false, 5000, 6500, 5000}},
	{"a later deadline for a running check: the start kept", {RUN, true, 5000, 6000, 5000}, RUN,
	 5800, 6800, {RUN, true, 5000, 6800, 5000}},
	{"an earlier deadline is no reason to end sooner", {RUN, false, 5000, 6000, 5000}, RUN,
	 5100, 5500, {RUN, false, 5000, 6000, 5000}},
	{"checks turned off while one runs and another is due", {RUN, true, 5000, 6000, 5000}, OFF,
	 5100, 0, {OFF, false, 5000, 6000, 5000}},
	{"a due check given up", {DUE, false, 5000, 6000, 5000}, IDLE, 7000, 0,
	 {IDLE, false, 5000, 6000, 5000}},
	{"checks turned on", {OFF, false, 0, 0, 0}, IDLE, 7000, 0, {IDLE, false, 0, 0, 0}},
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
		    ps.last_start_ms != c->want.last_start_ms)
			fail_msg("%s: got %s again=%d %lld..%lld last %lld, want %s again=%d "
				 "%lld..%lld last %lld", c->what, lc_phase_name(ps.phase), ps.again,
				 (long long)ps.started_ms, (long long)ps.deadline_ms,
				 (long long)ps.last_start_ms, lc_phase_name(c->want.phase),
				 c->want.again, (long long)c->want.started_ms,
				 (long long)c->want.deadline_ms, (long long)c->want.last_start_ms);
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
	{"off: nothing, no timer, whatever is owed", {OFF, false, 0, 0, 0},
	 {.recheck_ms = NOW - 5, .wish = {{NOW - 5000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WAIT, 0},
	{"idle and quiet: no timer", {IDLE, false, 0, 0, 0}, {.token_ms = TOK}, LC_STEP_WAIT, 0},
	/* running */
	{"running, answers missing: its deadline", {RUN, false, NOW - 100, NOW + 900, NOW - 100},
	 {.token_ms = TOK}, LC_STEP_WAIT, NOW + 900},
	{"running past its deadline: ends", {RUN, false, NOW - 1000, NOW, NOW - 1000},
	 {.token_ms = TOK}, LC_STEP_FINISH, 0},
	{"running, every answer in: ends", {RUN, false, NOW - LC_MIN_WAIT_MS, NOW + 900, NOW - 50},
	 {.complete = true, .token_ms = TOK}, LC_STEP_FINISH, 0},
	{"every answer in before the least wait: waits for it",
	 {RUN, false, NOW - 20, NOW + 980, NOW - 20}, {.complete = true, .token_ms = TOK},
	 LC_STEP_WAIT, NOW - 20 + LC_MIN_WAIT_MS},
	{"running: no re-check, no wish's check (it serves them)",
	 {RUN, true, NOW - 100, NOW + 900, NOW - 100},
	 {.recheck_ms = NOW - 10, .wish = {{NOW - 5000, 0}, {NOW - 5000, 0}}, .wishes_owed = true,
	  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 900},
	/* the re-check */
	{"a re-check to come: its time", {IDLE, false, 0, 0, NOW - 9000},
	 {.recheck_ms = NOW + 2000, .token_ms = TOK}, LC_STEP_WAIT, NOW + 2000},
	{"a re-check due with a token: triggered", {IDLE, false, 0, 0, NOW - 9000},
	 {.recheck_ms = NOW, .token_ms = TOK}, LC_STEP_RECHECK, 0},
	{"a re-check due without a token: when the bucket has one",
	 {IDLE, false, 0, 0, NOW - 9000}, {.recheck_ms = NOW - 10, .token_ms = {NOW + 5000, NOW}},
	 LC_STEP_WAIT, NOW + 5000},
	{"a re-check a client waits for takes no token", {IDLE, false, 0, 0, NOW - 9000},
	 {.demand_wait = true, .recheck_ms = NOW - 10, .token_ms = {NOW + 5000, NOW}},
	 LC_STEP_RECHECK, 0},
	{"a check due takes the re-check's place", {DUE, false, 0, 0, 0},
	 {.recheck_ms = NOW - 10, .token_ms = TOK}, LC_STEP_START, 0},
	/* starting */
	{"due, no check yet: starts", {DUE, false, 0, 0, 0}, {.token_ms = TOK}, LC_STEP_START, 0},
	{"due within the gap after the last start: at its end", {DUE, false, 0, 0, NOW - 200},
	 {.token_ms = TOK}, LC_STEP_WAIT, NOW - 200 + LC_MIN_GAP_MS},
	{"due just past the gap: starts", {DUE, false, 0, 0, NOW - LC_MIN_GAP_MS},
	 {.token_ms = TOK}, LC_STEP_START, 0},
	{"due, with wishes owed: the check serves them", {DUE, false, 0, 0, 0},
	 {.wish = {{NOW - 5000, 0}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_START, 0},
	/* peers' wishes */
	{"wishes answered meanwhile: forgotten", {IDLE, false, 0, 0, NOW - 9000},
	 {.wish = {{NOW - 100, 30}}, .token_ms = TOK}, LC_STEP_SERVED, 0},
	{"a peer's wish past its jitter: a check", {IDLE, false, 0, 0, 0},
	 {.wish = {{NOW - 2000, 100}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WISH_PEER, 0},
	{"a peer's wish within its jitter: at its end", {IDLE, false, 0, 0, 0},
	 {.wish = {{NOW - 50, 100}}, .wishes_owed = true, .token_ms = TOK}, LC_STEP_WAIT, NOW + 50},
	{"a stranger's wish without a token: when the strangers' bucket has one",
	 {IDLE, false, 0, 0, 0},
	 {.wish = {{0, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = {NOW, NOW + 700}},
	 LC_STEP_WAIT, NOW + 700},
	{"a stranger's wish with a token: a check", {IDLE, false, 0, 0, 0},
	 {.wish = {{0, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WISH_STRANGER, 0},
	{"a wish within a window of the last start: a window after it",
	 {IDLE, false, 0, 0, NOW - 500}, {.wish = {{NOW - 2000, 0}}, .wishes_owed = true,
					  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 500},
	{"a wish with a re-check soon: the re-check serves it", {IDLE, false, 0, 0, NOW - 9000},
	 {.recheck_ms = NOW + 300, .wish = {{NOW - 2000, 0}}, .wishes_owed = true,
	  .token_ms = TOK},
	 LC_STEP_WAIT, NOW + 300},
	{"a re-check and a wish both due: the re-check first", {IDLE, false, 0, 0, NOW - 9000},
	 {.recheck_ms = NOW, .wish = {{NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_RECHECK, 0},
	{"peers' and strangers' wishes due: the peers' first", {IDLE, false, 0, 0, 0},
	 {.wish = {{NOW - 2000, 0}, {NOW - 2000, 0}}, .wishes_owed = true, .token_ms = TOK},
	 LC_STEP_WISH_PEER, 0},
	{"the earliest of a re-check and a wish's time", {IDLE, false, 0, 0, 0},
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
		struct lc_phase_in in = {
			.complete = x >> 12 & 1,
			.demand_wait = x >> 13 & 1,
			.recheck_ms = x >> 14 & 1 ? now - 500 + (int64_t)((x >> 16) % 1000) : 0,
			.wish = {{x >> 15 & 1 ? now - (int64_t)((x >> 17) % 3000) : 0, 100},
				 {x >> 18 & 1 ? now - (int64_t)((x >> 19) % 3000) : 0, 0}},
			.wishes_owed = x >> 20 & 1,
			.token_ms = {now + (x >> 21 & 1) * 700, now + (x >> 22 & 1) * 900},
			.peers = (x >> 23) % 40,
		};
		struct lc_next nx = lc_phase_next(&ps, now, &in);
		switch (nx.step) {
		case LC_STEP_WAIT:
			if (nx.at)
				assert_true(nx.at > now);
			break;
		case LC_STEP_FINISH:
			assert_int_equal(ps.phase, LC_PHASE_RUNNING);
			lc_phase_enter(&ps, LC_PHASE_IDLE, now, 0);
			break;
		case LC_STEP_START:
			assert_int_equal(ps.phase, LC_PHASE_DUE);
			assert_true(!ps.last_start_ms || now - ps.last_start_ms >= LC_MIN_GAP_MS);
			break;
		default:
			assert_int_not_equal(ps.phase, LC_PHASE_OFF);
			assert_false(lc_phase_due(&ps));
			assert_int_not_equal(ps.phase, LC_PHASE_RUNNING);
			break;
		}
		assert_true(ps.phase != LC_PHASE_OFF || !ps.again);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enter_table),
		cmocka_unit_test(next_table),
		cmocka_unit_test(walk),
		cmocka_unit_test(invariants_hold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
