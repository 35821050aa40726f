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

#include "daemon_fixture.h"
#include "unsettled.h"

static struct daemon *two_bonds(void)
{
	return fixture_daemon("bond0: bond1:");
}

static void act(struct daemon *d, const char *bond, const char *ifname, const char *why)
{
	struct action a = {.kind = ACT_ENSLAVE, .why = why};
	snprintf(a.bond, sizeof(a.bond), "%s", bond);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	assert_non_null(action_list_push(&d->plan, &a));
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
	assert_string_equal(d->bonds[0].notes,
			    "eth3: has a foreign master (br0); eth4: cannot take MTU 9000");
	assert_string_equal(d->bonds[1].notes, "");
	assert_int_equal(event_log_count(&d->events), 1);
	assert_int_equal(fixture_last_event(d)->kind, EV_ERROR);
	report_notes(d); /* the same notes: nothing new said */
	assert_int_equal(event_log_count(&d->events), 1);

	action_list_clear(&d->plan);
	d->touched_all = false;
	d->touched[1] = true; /* bond0 not planned: its notes stand */
	report_notes(d);
	assert_string_equal(d->bonds[0].notes,
			    "eth3: has a foreign master (br0); eth4: cannot take MTU 9000");
	d->touched[0] = true; /* planned, no notes: cleared, quietly */
	report_notes(d);
	assert_string_equal(d->bonds[0].notes, "");
	assert_int_equal(event_log_count(&d->events), 1);
	fixture_done(d);
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
	fixture_done(d);
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
	assert_string_equal(fixture_last_event(d)->text, "still differs from the config after 6 passes "
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
	fixture_done(d);
}

static void vlan_over(struct daemon *d, const char *name, int ifindex, int lower, uint16_t id)
{
	struct obs_link *l = fixture_link(d, name, ifindex, "vlan");
	l->lower = lower;
	l->vlan_id = id;
}

/* The uppers the kernel took with a deleted bond: said and recorded once,
 * its bond judged again; back over the bond made again, the same; nothing
 * while the picture of the kernel is stale; a bond deleted on purpose
 * forgets them. */
static void uppers_tracked(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0 bond1:eth1");

	fixture_link(d, "bond0", 10, "bond");
	vlan_over(d, "bond0.100", 20, 10, 100);
	track_uppers(d);
	assert_int_equal(event_log_count(&d->events), 0);
	assert_int_equal(d->bonds[0].uppers.n_lost, 0);

	/* deleted, and its VLAN with it */
	observed_del_link(&d->ob.state, 20);
	observed_del_link(&d->ob.state, 10);
	d->touched_all = false;
	memset(d->touched, 0, 2 * sizeof(*d->touched));
	d->ob.stale_since_ms = 1; /* a failed re-read: a link missing may be unread */
	track_uppers(d);
	assert_int_equal(event_log_count(&d->events), 0);
	d->ob.stale_since_ms = 0;
	track_uppers(d);
	const struct event *e = fixture_last_event(d);
	assert_non_null(e);
	assert_int_equal(e->kind, EV_GONE);
	assert_string_equal(e->bond, "bond0");
	assert_non_null(strstr(e->text, "deleted; the kernel removed with it: "));
	assert_non_null(strstr(e->text, "bond0.100"));
	assert_int_equal(d->bonds[0].uppers.n_lost, 1);
	assert_true(d->touched[0]);
	assert_false(d->touched[1]);
	track_uppers(d); /* said once */
	assert_int_equal(event_log_count(&d->events), 1);

	/* bondd made the bond again; the manager the VLAN */
	fixture_link(d, "bond0", 11, "bond");
	track_uppers(d);
	assert_int_equal(event_log_count(&d->events), 1); /* still lost */
	vlan_over(d, "bond0.100", 21, 11, 100);
	memset(d->touched, 0, 2 * sizeof(*d->touched));
	track_uppers(d);
	e = fixture_last_event(d);
	assert_int_equal(e->kind, EV_UP);
	assert_non_null(strstr(e->text, "back over the bond: "));
	assert_int_equal(d->bonds[0].uppers.n_lost, 0);
	assert_true(d->touched[0]);

	/* state = absent: deleted on purpose, its uppers with it */
	d->want.bonds[0].absent = true;
	track_uppers(d);
	assert_int_equal(d->bonds[0].uppers.bond_ifindex, 0);
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_said_once),
		cmocka_unit_test(drift_recorded),
		cmocka_unit_test(unsettled_then_settled),
		cmocka_unit_test(uppers_tracked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
