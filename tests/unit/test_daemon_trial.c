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

/* A trial that left its new bond missing is put back once the grace is
 * over: the configuration before it handed to the caller with the runtime
 * records made for it; what the verbs and STATUS= say afterwards. */
static void trial_rolled_back(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0");
	char msg[400], line[64] = "";
	struct trial_putback back;

	struct desired next = one_bond("bond1");
	assert_int_equal(trial_begin(d, &next, 30), 0);
	assert_int_equal(runtime_rebuild(d, &next), 0);
	d->want = next;
	trial_started(d, msg, sizeof(msg));
	assert_non_null(strstr(msg, "trial 1: applied /etc/bondd/bondd.conf: 1 bond; put back "
				    "at "));
	assert_non_null(strstr(msg, " (in 30 s) unless confirmed with bondd-status --confirm"));
	const struct event *e = fixture_last_event(d);
	assert_int_equal(e->kind, EV_CONFIG);
	assert_non_null(strstr(e->text, "trial 1: applied /etc/bondd/bondd.conf, put back at "));
	assert_false(d->config_failed);
	trial_on_stop(d); /* (said in the log only) */
	assert_true(d->trial.running);

	/* the grace over: bond1 is not in the kernel */
	d->trial.settle_ms = d->trial.start_ms - 1;
	assert_true(trial_step(d, &back));
	assert_false(d->trial.running);
	assert_int_equal(back.id, 1);
	assert_string_equal(back.from, "the configuration before trial 1");
	assert_int_equal(back.prev.n_bonds, 1);
	assert_string_equal(back.prev.bonds[0].name, "bond0");
	assert_non_null(bond_rt(d, "bond0")); /* records for what comes back */
	assert_null(bond_rt(d, "bond1"));
	assert_int_equal(d->trial.shown.state, STRIAL_ROLLED_BACK);
	assert_string_equal(d->trial.shown.reason, "bond1 is missing");
	assert_string_equal(fixture_last_event(d)->text, "trial 1 rolled back: bond1 is missing");
	assert_int_equal(trial_next_ms(d), 0);
	trial_status_text(d, line, sizeof(line));
	assert_string_equal(line, "");

	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 1, msg, sizeof(msg)), SE_ROLLED_BACK);
	assert_string_equal(msg, "trial 1 rolled back: bond1 is missing; the configuration before "
			    "it runs again");
	assert_int_equal(trial_answer(d, SV_CONFIRM, 0, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "no trial runs: nothing to confirm (the last one was put back)");
	/* (apply_config's swap: the one before runs again) */
	desired_free(&d->want);
	d->want = back.prev;

	/* a second trial runs past its deadline unjudged: the first one's
	 * question is about the past */
	next = one_bond("bond0");
	assert_int_equal(trial_begin(d, &next, 10), 0);
	assert_int_equal(trial_answer(d, SV_TRIAL_WAIT, 1, msg, sizeof(msg)), SE_CONFLICT);
	assert_string_equal(msg, "trial 1 ended before trial 2 began; its outcome is in bondd's "
			    "log");
	d->trial.settle_ms = d->trial.deadline_ms = d->trial.start_ms - 1;
	uint64_t at = trial_next_ms(d);
	assert_true(at > (uint64_t)d->trial.start_ms); /* soon again, not in the past */
	trial_cancel(d);
	desired_free(&next);
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trial_lifecycle),
		cmocka_unit_test(trial_rolled_back),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
