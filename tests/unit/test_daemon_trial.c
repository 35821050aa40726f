/* SPDX-License-Identifier: MIT */
/* A reload on trial as bondd keeps it (daemon_trial.c): what the verbs
 * answer before, during and after a trial, what STATUS= adds, and a
 * confirm judged at once.  No kernel: an empty picture of it, no link
 * check, no status socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"
#include "status_proto.h"

static struct desired one_bond(const char *name)
{
	struct desired w;
	char spec[32];

	snprintf(spec, sizeof(spec), "%s:eth0", name);
	fixture_want(&w, spec);
	return w;
}

static void trial_lifecycle(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0");
	char msg[400], line[256];

	/* before any trial */
	assert_false(trial_conflict(d, "reload", msg, sizeof(msg)));
	assert_int_equal(trial_answer(d, SV_CONFIRM, 0, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "no trial runs: nothing to confirm");
	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 1, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "no trial 1: none since bondd started");
	assert_int_equal(trial_next_ms(d), 0);
	snprintf(line, sizeof(line), "bond0 ok");
	trial_status_text(d, line, sizeof(line));
	assert_string_equal(line, "bond0 ok");

	/* a trial of 30 s begins; the tried configuration replaces want */
	struct desired next = one_bond("bond1");
	assert_int_equal(trial_begin(d, &next, 30), 0);
	d->want = next; /* (apply_config's swap; trial_begin kept the old one) */
	assert_true(d->trial.running);
	assert_int_equal(d->trial.id, 1);
	assert_int_equal(d->trial.n_bonds, 1);
	assert_string_equal(d->trial.bonds[0].name, "bond1");
	assert_false(d->trial.bonds[0].existed); /* no such bond in the kernel */
	assert_true(d->trial.settle_ms > d->trial.start_ms);
	assert_int_equal(d->trial.deadline_ms - d->trial.start_ms, 30000);
	assert_true(trial_next_ms(d) > 0);
	assert_true(trial_conflict(d, "reload", msg, sizeof(msg)));
	assert_non_null(strstr(msg, "trial 1 runs ("));
	assert_non_null(strstr(msg, "let it be put back before a reload"));
	trial_status_text(d, line, sizeof(line));
	assert_non_null(strstr(line, "bond0 ok; trial 1 runs: put back at "));
	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 1, msg, sizeof(msg)),
			 STATUS_TRIAL_PENDING);
	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 2, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "no trial 2 (the last is 1)");

	/* within the grace nothing is judged */
	struct trial_putback back;
	assert_false(trial_step(d, &back));
	assert_true(d->trial.running);

	/* confirmed: judged at once, kept */
	assert_int_equal(trial_answer(d, SV_CONFIRM, 0, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "trial 1 confirmed: the tried configuration stays");
	assert_false(trial_step(d, &back));
	assert_false(d->trial.running);
	assert_int_equal(d->trial.shown.state, STRIAL_CONFIRMED);
	assert_false(d->config_failed);
	const struct event *e = event_log_at(&d->events, event_log_count(&d->events) - 1);
	assert_string_equal(e->text, "trial 1 confirmed");
	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 1, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "trial 1 confirmed: the tried configuration stays");
	assert_int_equal(trial_answer(d, SV_CONFIRM, 0, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "no trial runs: nothing to confirm");
	assert_false(trial_conflict(d, "reload", msg, sizeof(msg)));
	assert_int_equal(trial_next_ms(d), 0);

	/* a second trial cancelled before anything was applied */
	struct desired third = one_bond("bond2");
	assert_int_equal(trial_begin(d, &third, 10), 0);
	assert_int_equal(d->trial.id, 2);
	trial_cancel(d);
	assert_false(d->trial.running);
	assert_int_equal(d->trial.id, 1);
	desired_free(&third);

	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trial_lifecycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
