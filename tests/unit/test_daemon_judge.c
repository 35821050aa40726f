/* SPDX-License-Identifier: MIT */
/* What a wake-up concludes (daemon_judge.c): the planner's notes said
 * once, what drifted recorded, the bonds still differing after the pass
 * limit and their retry.  Plans as plain data; no kernel, no socket. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_parts.h"
#include "unsettled.h"

static struct daemon *two_bonds(void)
{
	struct daemon *d = calloc(1, sizeof(*d));
	assert_non_null(d);
	d->want.bonds = calloc(2, sizeof(struct desired_bond));
	assert_non_null(d->want.bonds);
	d->want.n_bonds = 2;
	snprintf(d->want.bonds[0].name, IFNAMSIZ, "bond0");
	snprintf(d->want.bonds[1].name, IFNAMSIZ, "bond1");
	assert_int_equal(runtime_rebuild(d, &d->want), 0);
	touch_all(d);
	return d;
}

static void done(struct daemon *d)
{
	action_list_free(&d->plan);
	plan_touch_free(&d->touch);
	desired_free(&d->want);
	runtime_free(d);
	free(d);
}

static void act(struct daemon *d, const char *bond, const char *ifname, const char *why)
{
	struct action a = {.kind = ACT_ENSLAVE, .why = why};
	snprintf(a.bond, sizeof(a.bond), "%s", bond);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	assert_non_null(action_list_push(&d->plan, &a));
}

static const struct event *last_event(struct daemon *d)
{
	size_t n = event_log_count(&d->events);
	return n ? event_log_at(&d->events, n - 1) : NULL;
}

/* A bond's notes in words, as the log and the status show them. */
static const char *notes_text(const struct daemon *d, size_t i)
{
	static char text[BOND_NOTES_TEXT];
	bond_notes_text(&d->bonds[i].notes, text, sizeof(text));
	return text;
}

/* Notes: kept per bond, an event when they change, not on every pass;
 * a bond not planned keeps its notes. */
static void notes_said_once(void **state)
{
	(void)state;
	struct daemon *d = two_bonds();

	action_list_note(&d->plan, "bond0", "eth3", "has a foreign master (br0)");
	action_list_note(&d->plan, "bond0", "eth4", "cannot take MTU 9000");
	report_notes(d);
	assert_string_equal(notes_text(d, 0),
			    "eth3: has a foreign master (br0); eth4: cannot take MTU 9000");
	assert_string_equal(notes_text(d, 1), "");
	assert_int_equal(event_log_count(&d->events), 1);
	assert_int_equal(last_event(d)->kind, EV_ERROR);
	report_notes(d); /* the same notes: nothing new said */
	assert_int_equal(event_log_count(&d->events), 1);

	action_list_clear(&d->plan);
	d->touched_all = false;
	d->touched[1] = true; /* bond0 not planned: its notes stand */
	report_notes(d);
	assert_string_equal(notes_text(d, 0),
			    "eth3: has a foreign master (br0); eth4: cannot take MTU 9000");
	d->touched[0] = true; /* planned, no notes: cleared, quietly */
	report_notes(d);
	assert_string_equal(notes_text(d, 0), "");
	assert_int_equal(event_log_count(&d->events), 1);
	done(d);
}

/* What drifted: one event per bond with its reasons each once; a bond
 * that was whole is marked as no longer so (the warning's case). */
static void drift_recorded(void **state)
{
	(void)state;
	struct daemon *d = two_bonds();

	act(d, "bond0", "eth0", "missing");
	act(d, "bond1", "eth2", "order");
	act(d, "bond0", "eth1", "missing");
	act(d, "bond0", "bond0", "mtu");
	d->bonds[0].was_healthy = true;
	report_drift(d);
	assert_int_equal(event_log_count(&d->events), 2);
	const struct event *e = event_log_at(&d->events, 0);
	assert_int_equal(e->kind, EV_DRIFT);
	assert_string_equal(e->bond, "bond0");
	assert_string_equal(e->text, "missing, mtu");
	assert_string_equal(event_log_at(&d->events, 1)->text, "order");
	assert_false(d->bonds[0].was_healthy);
	done(d);
}

/* The pass limit reached: each planned bond with actions left says why
 * and is retried; the event once while it lasts; settled, it clears. */
static void unsettled_then_settled(void **state)
{
	(void)state;
	struct daemon *d = two_bonds();

	act(d, "bond0", "eth0", "mac");
	act(d, "bond0", "eth1", "mac");
	act(d, "bond0", "bond0", "option");
	note_unsettled(d, true);
	assert_int_equal(d->unsettled, 1);
	assert_true(d->unsettled_retry_ms > 0);
	assert_int_equal(d->bonds[0].unsettled.passes, MAX_PASSES);
	assert_int_equal(d->bonds[0].unsettled.retry_ms, UNSETTLED_FIRST_MS);
	assert_int_equal(d->bonds[0].unsettled.why.n, 2);
	assert_int_equal(d->bonds[1].unsettled.passes, 0);
	assert_int_equal(event_log_count(&d->events), 1);
	assert_string_equal(last_event(d)->text, "still differs from the config after 6 passes "
						 "(mac, option); retrying");
	note_unsettled(d, true);
	assert_int_equal(d->unsettled, 2);
	assert_int_equal(d->bonds[0].unsettled.retry_ms, 2 * UNSETTLED_FIRST_MS);
	assert_int_equal(event_log_count(&d->events), 1); /* said once */

	action_list_clear(&d->plan);
	note_unsettled(d, false);
	assert_int_equal(d->unsettled, 0);
	assert_int_equal(d->unsettled_retry_ms, 0);
	assert_int_equal(d->bonds[0].unsettled.passes, 0);
	done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_said_once),
		cmocka_unit_test(drift_recorded),
		cmocka_unit_test(unsettled_then_settled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
