/* SPDX-License-Identifier: MIT */
/* The one reporter of a plan sent (daemon_apply.c report_applied): a
 * report made by hand, as execute_plan would return it, into the events,
 * the bonds' records, the backoff and what each bond shows as failing.
 * No kernel, no socket. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"
#include "daemon_parts.h"

static struct daemon *two_bonds(void)
{
	struct daemon *d = fixture_daemon("bond0: bond1:");
	d->want.bonds[0].mtu = d->want.bonds[1].mtu = 9000;
	return d;
}

static void act(struct daemon *d, enum action_kind kind, const char *bond, const char *ifname)
{
	struct action a = {.kind = kind, .why = "missing", .mtu = 9000};
	snprintf(a.bond, sizeof(a.bond), "%s", bond);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	assert_non_null(action_list_push(&d->plan, &a));
}

static const char *failing_text(const struct daemon *d, size_t i)
{
	static char text[BOND_NOTES_TEXT];
	bond_failing_text(&d->bonds[i].failing, text, sizeof(text));
	return text;
}

/* bond0: e1 enslaved, e2's enslave refused (in use; the rest of bond0's
 * plan skipped), bond1: its MTU refused.  Events in plan order, each bond's
 * counters and failing actions, the holds. */
static void report_into_state(void **state)
{
	(void)state;
	struct daemon *d = two_bonds();
	struct applied v[4] = {
		{.kind = APPLIED_DONE, .mono_ms = 1000, .wall_ms = 7000},
		{.kind = APPLIED_FAILED, .err = -EBUSY, .failed_opt = OPT__COUNT, .mono_ms = 1001,
		 .wall_ms = 7001,
		 .words = "enslaving it to bond0 refused by the kernel: Device or resource busy"},
		{.kind = APPLIED_SKIPPED, .stopped_by = 1},
		{.kind = APPLIED_FAILED, .err = -EINVAL, .failed_opt = OPT__COUNT, .mono_ms = 1002,
		 .wall_ms = 7002, .words = "MTU 9000 refused by the kernel: Invalid argument"},
	};
	struct apply_report rep = {.v = v, .n = 4};

	act(d, ACT_ENSLAVE, "bond0", "e1");
	act(d, ACT_ENSLAVE, "bond0", "e2");
	act(d, ACT_ENSLAVE, "bond0", "e3");
	act(d, ACT_SET_MTU, "bond1", "bond1");
	v[1].meaning = apply_error_meaning(&d->plan.v[1], v[1].err);
	v[3].meaning = apply_error_meaning(&d->plan.v[3], v[3].err);
	report_applied(d, &rep);

	assert_int_equal(event_log_count(&d->events), 3);
	const struct event *e = event_log_at(&d->events, 0);
	assert_int_equal(e->kind, EV_REPAIR);
	assert_string_equal(e->bond, "bond0");
	assert_string_equal(e->link, "e1");
	assert_string_equal(e->text, "enslave e1 to bond0 (missing)");
	e = event_log_at(&d->events, 1);
	assert_int_equal(e->kind, EV_ERROR);
	assert_string_equal(e->link, "e2");
	assert_string_equal(e->text, "enslave e2 to bond0 (missing) failed, not tried again until "
				     "e2 is re-created or bondd reloads: enslaving it to bond0 "
				     "refused by the kernel: Device or resource busy");
	e = event_log_at(&d->events, 2);
	assert_string_equal(e->bond, "bond1");
	assert_string_equal(e->text, "set bond1 mtu 9000 (missing) failed, retrying in 100 ms: "
				     "MTU 9000 refused by the kernel: Invalid argument");

	assert_int_equal(d->bonds[0].actions, 2); /* the skipped one was not sent */
	assert_int_equal(d->bonds[0].errors, 1);
	assert_int_equal(d->bonds[0].last_error_ms, 7001);
	assert_int_equal(d->bonds[1].actions, 1);
	assert_int_equal(d->bonds[1].errors, 1);
	assert_string_equal(failing_text(d, 0), "e2: enslaving it to bond0 refused by the kernel: "
						"Device or resource busy");
	assert_int_equal(d->bonds[0].failing.v[0].err, EBUSY);
	assert_string_equal(failing_text(d, 1),
			    "bond1: MTU 9000 refused by the kernel: Invalid argument");
	struct plan_constraints held = holds_constraints(&d->holds, 1050);
	assert_int_equal(held.n_refused, 1);
	assert_string_equal(held.refused[0], "link e2");
	assert_int_equal(held.n, 1); /* held until 100 ms after it failed */
	assert_string_equal(held.keys[0], "mtu bond1");
	fixture_done(d);
}

/* No memory for the report: nothing was sent, nothing is recorded. */
static void nothing_sent(void **state)
{
	(void)state;
	struct daemon *d = two_bonds();
	struct apply_report rep = {.v = NULL, .n = 1};

	act(d, ACT_ENSLAVE, "bond0", "e1");
	report_applied(d, &rep);
	assert_int_equal(event_log_count(&d->events), 0);
	assert_int_equal(d->bonds[0].actions, 0);
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_into_state),
		cmocka_unit_test(nothing_sent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
