/* SPDX-License-Identifier: MIT */
/* A reload on trial: the decision (trial.h), a table of cases, time passed in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "trial.h"

/* A trial that began at 1000 with a grace of 3 s and 30 s to run. */
#define START 1000
#define SETTLE (START + 3000)
#define DEADLINE (START + 30000)

/* A bond that was whole before and is whole now: 2 slaves, up, 4 paths
 * proven before and after. */
#define WHOLE(n)                                                                   \
	{.name = n, .existed = true, .was_up = true, .slaves_before = 2,           \
	 .paths_before = 4, .exists = true, .up = true, .slaves = 2,                \
	 .paths_judged = true, .paths = 4}

struct trial_case {
	const char *what;
	bool confirmed;
	int64_t now;
	struct trial_bond bonds[2];
	size_t n;
	enum trial_action action;
	enum trial_reason reason;
	size_t bond;       /* for the reasons about one bond */
	int64_t next;      /* TRIAL_WAIT: when to judge again */
};

static const struct trial_case cases[] = {
	{"whole, before the grace: wait for its end", false, START + 10, {WHOLE("bond0")}, 1,
	 TRIAL_WAIT, TRIAL_NO_REASON, 0, SETTLE},
	{"whole, after the grace: wait for the deadline", false, SETTLE + 1, {WHOLE("bond0")}, 1,
	 TRIAL_WAIT, TRIAL_NO_REASON, 0, DEADLINE},
	{"whole at the deadline: put back", false, DEADLINE, {WHOLE("bond0")}, 1,
	 TRIAL_ROLL_BACK, TRIAL_DEADLINE, 0, 0},
	{"long past the deadline: put back", false, DEADLINE + 100000, {WHOLE("bond0")}, 1,
	 TRIAL_ROLL_BACK, TRIAL_DEADLINE, 0, 0},
	{"confirmed: kept", true, SETTLE + 1, {WHOLE("bond0")}, 1, TRIAL_KEEP, TRIAL_NO_REASON, 0,
	 0},
	{"confirmed after the deadline but before it was judged: kept", true, DEADLINE + 5,
	 {WHOLE("bond0")}, 1, TRIAL_KEEP, TRIAL_NO_REASON, 0, 0},
	{"confirmed while a bond is down: the admin's word wins", true, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 1, TRIAL_KEEP, TRIAL_NO_REASON, 0, 0},
	{"down within the grace: not judged yet", false, SETTLE - 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 1, TRIAL_WAIT, TRIAL_NO_REASON, 0, SETTLE},
	{"down after the grace: put back at once", false, SETTLE,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 1, TRIAL_ROLL_BACK, TRIAL_BOND_DOWN, 0, 0},
	{"no slaves left: put back, said as such", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true}}, 1,
	 TRIAL_ROLL_BACK, TRIAL_NO_SLAVES, 0, 0},
	{"deleted: put back", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2}}, 1,
	 TRIAL_ROLL_BACK, TRIAL_BOND_MISSING, 0, 0},
	{"already down before the trial (a pulled cable): not the trial's doing", false,
	 SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = false, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 1, TRIAL_WAIT, TRIAL_NO_REASON, 0, DEADLINE},
	{"slaveless before the trial and still: not held against it", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .exists = true}}, 1, TRIAL_WAIT, TRIAL_NO_REASON, 0,
	 DEADLINE},
	{"a bond new in the trial that came up: fine", false, SETTLE + 1,
	 {{.name = "bond1", .exists = true, .up = true, .slaves = 1}}, 1, TRIAL_WAIT,
	 TRIAL_NO_REASON, 0, DEADLINE},
	{"a bond new in the trial without slaves: put back", false, SETTLE + 1,
	 {{.name = "bond1", .exists = true, .up = false}}, 1, TRIAL_ROLL_BACK, TRIAL_NO_SLAVES, 0,
	 0},
	{"a bond new in the trial, slaves but no carrier: put back", false, SETTLE + 1,
	 {{.name = "bond1", .exists = true, .slaves = 2}}, 1, TRIAL_ROLL_BACK, TRIAL_BOND_DOWN, 0,
	 0},
	{"a bond new in the trial that was never made: put back", false, SETTLE + 1,
	 {{.name = "bond1"}}, 1, TRIAL_ROLL_BACK, TRIAL_BOND_MISSING, 0, 0},
	{"fewer proven paths than before: put back", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .paths_before = 4,
	   .exists = true, .up = true, .slaves = 2, .paths_judged = true, .paths = 2}},
	 1, TRIAL_ROLL_BACK, TRIAL_PATHS_LOST, 0, 0},
	{"fewer paths, but no check since the trial began: wait", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .paths_before = 4,
	   .exists = true, .up = true, .slaves = 2, .paths_judged = false, .paths = 0}},
	 1, TRIAL_WAIT, TRIAL_NO_REASON, 0, DEADLINE},
	{"more paths than before: fine", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .paths_before = 2,
	   .exists = true, .up = true, .slaves = 3, .paths_judged = true, .paths = 6}},
	 1, TRIAL_WAIT, TRIAL_NO_REASON, 0, DEADLINE},
	{"link check off (no paths before): never a paths verdict", false, SETTLE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .up = true, .slaves = 2, .paths_judged = true}},
	 1, TRIAL_WAIT, TRIAL_NO_REASON, 0, DEADLINE},
	{"the second bond is down: named", false, SETTLE + 1,
	 {WHOLE("bond0"),
	  {.name = "bond1", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 2, TRIAL_ROLL_BACK, TRIAL_BOND_DOWN, 1, 0},
	{"down and past the deadline: the fault is the reason", false, DEADLINE + 1,
	 {{.name = "bond0", .existed = true, .was_up = true, .slaves_before = 2, .exists = true,
	   .slaves = 2}},
	 1, TRIAL_ROLL_BACK, TRIAL_BOND_DOWN, 0, 0},
	{"no bonds at all: the deadline decides", false, SETTLE + 1, {{.name = ""}}, 0, TRIAL_WAIT,
	 TRIAL_NO_REASON, 0, DEADLINE},
};

static void judge_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct trial_case *c = &cases[i];
		struct trial_verdict v =
			trial_judge(c->confirmed, c->now, SETTLE, DEADLINE, c->bonds, c->n);
		if (v.action != c->action || v.reason != c->reason ||
		    (c->action == TRIAL_ROLL_BACK && c->reason != TRIAL_DEADLINE &&
		     v.bond != c->bond) ||
		    (c->action == TRIAL_WAIT && v.next_ms != c->next))
			fail_msg("case \"%s\": action %d reason %d bond %zu next %lld", c->what,
				 (int)v.action, (int)v.reason, v.bond, (long long)v.next_ms);
	}
}

/* A grace longer than the trial: the deadline comes first, and the bonds
 * are judged only then (with the deadline as the reason when whole). */
static void grace_bounded_by_deadline(void **state)
{
	(void)state;
	assert_int_equal(trial_grace_ms(0, false, 30), TRIAL_SETTLE_MS);
	assert_int_equal(trial_grace_ms(2000, false, 30), TRIAL_SETTLE_MS + 2000);
	assert_int_equal(trial_grace_ms(200, true, 60),
			 TRIAL_SETTLE_MS + 200 + TRIAL_LACP_SETTLE_MS);
	assert_int_equal(trial_grace_ms(0, true, 2), 2000);
	assert_int_equal(trial_grace_ms(0, false, 1), 1000);

	struct trial_bond down = {.name = "bond0", .existed = true, .was_up = true,
				  .slaves_before = 2, .exists = true, .slaves = 2};
	int64_t settle = START + trial_grace_ms(0, false, 2), deadline = START + 2000;
	struct trial_verdict v = trial_judge(false, START + 1500, settle, deadline, &down, 1);
	assert_int_equal(v.action, TRIAL_WAIT);
	assert_int_equal(v.next_ms, deadline);
	v = trial_judge(false, deadline, settle, deadline, &down, 1);
	assert_int_equal(v.action, TRIAL_ROLL_BACK);
	assert_int_equal(v.reason, TRIAL_BOND_DOWN);
}

static void reasons_in_words(void **state)
{
	(void)state;
	char text[160];
	struct trial_bond b = {.name = "bond0", .paths_before = 4, .paths = 1};

	trial_reason_text(TRIAL_DEADLINE, NULL, text, sizeof(text));
	assert_string_equal(text, "no confirm before the deadline");
	trial_reason_text(TRIAL_BOND_DOWN, &b, text, sizeof(text));
	assert_string_equal(text, "bond0 is down");
	trial_reason_text(TRIAL_NO_SLAVES, &b, text, sizeof(text));
	assert_string_equal(text, "bond0 has no slaves");
	trial_reason_text(TRIAL_BOND_MISSING, &b, text, sizeof(text));
	assert_string_equal(text, "bond0 is missing");
	trial_reason_text(TRIAL_PATHS_LOST, &b, text, sizeof(text));
	assert_string_equal(text, "the link check proves 1 path of bond0, 4 before the trial");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(judge_table),
		cmocka_unit_test(grace_bounded_by_deadline),
		cmocka_unit_test(reasons_in_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
