/* SPDX-License-Identifier: MIT */
/* The daemon's runtime model (daemon_runtime.c): the records per bond and
 * link rebuilt for a new configuration, keeping those of what stays; the
 * look-ups by name; the events and the configuration's fate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"

static void rebuild_keeps_what_stays(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0,eth1 bond1:eth2");
	struct desired w2;

	assert_int_equal(d->n_bonds, 2);
	assert_int_equal(d->n_links, 5);
	assert_true(d->touched_all);
	/* each bond's record, then its slaves', in config order */
	const char *order[] = {"bond0", "eth0", "eth1", "bond1", "eth2"};
	const char *bond_of[] = {"bond0", "bond0", "bond0", "bond1", "bond1"};
	for (size_t i = 0; i < 5; i++) {
		assert_string_equal(d->links[i].name, order[i]);
		assert_string_equal(d->links[i].bond, bond_of[i]);
		assert_ptr_equal(link_rt(d, order[i]), &d->links[i]);
	}
	assert_int_equal(d->link_at[1], 3);
	assert_ptr_equal(bond_rt(d, "bond1"), &d->bonds[1]);
	assert_null(bond_rt(d, "bond9"));
	assert_null(link_rt(d, "eth9"));

	d->bonds[0].actions = 5;
	d->bonds[1].errors = 2;
	link_rt(d, "eth1")->carrier_losses = 3;
	link_rt(d, "eth0")->carrier_losses = 7;
	d->host_check_due = false;

	/* bond1 first now; bond0 keeps eth1, loses eth0, gains eth3 */
	fixture_want(&w2, "bond1:eth2 bond0:eth1,eth3");
	assert_int_equal(runtime_rebuild(d, &w2), 0);
	desired_free(&d->want);
	d->want = w2;
	touch_all(d);
	assert_true(d->host_check_due);
	assert_string_equal(d->bonds[0].name, "bond1");
	assert_int_equal(d->bonds[0].errors, 2);
	assert_int_equal(d->bonds[1].actions, 5);
	assert_int_equal(link_rt(d, "eth1")->carrier_losses, 3);
	assert_int_equal(link_rt(d, "eth3")->carrier_losses, 0);
	assert_null(link_rt(d, "eth0"));
	assert_string_equal(link_rt(d, "eth1")->bond, "bond0");
	fixture_done(d);
}

/* A slave moved to another bond keeps its counters and names its new bond. */
static void slave_moves_between_bonds(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0 bond1:eth1");
	struct desired w2;

	link_rt(d, "eth0")->carrier_losses = 4;
	fixture_want(&w2, "bond0:eth1 bond1:eth0");
	assert_int_equal(runtime_rebuild(d, &w2), 0);
	desired_free(&d->want);
	d->want = w2;
	touch_all(d);
	assert_int_equal(link_rt(d, "eth0")->carrier_losses, 4);
	assert_string_equal(link_rt(d, "eth0")->bond, "bond1");
	fixture_done(d);
}

/* Each event is kept; an EV_CONFIG event's fate is the caller's word. */
static void events_and_fate(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("");

	record_config(d, CONFIG_TAKEN, NULL, "started with %s: %zu bonds", "/etc/b.conf",
		      (size_t)2);
	assert_false(d->config_failed);
	int64_t took = d->config_success_ms;
	assert_true(took > 0);
	/* a path holding " refused" no longer reads as a refusal */
	record_config(d, CONFIG_TAKEN, NULL, "reloaded %s: 2 bonds", "/srv/ refused/b.conf");
	assert_false(d->config_failed);
	record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused: it defines no bonds", "x");
	assert_true(d->config_failed);
	assert_true(d->config_success_ms >= took);
	int64_t last = d->config_success_ms;
	record(d, EV_DRIFT, "bond0", "", "%s", "mac");
	assert_true(d->config_failed); /* other kinds leave the fate alone */
	assert_int_equal(d->config_success_ms, last);
	assert_int_equal(event_log_count(&d->events), 4);
	const struct event *e = event_log_at(&d->events, 2);
	assert_int_equal(e->kind, EV_CONFIG);
	assert_string_equal(e->text, "reload of x refused: it defines no bonds");
	assert_string_equal(e->bond, "");
	e = event_log_at(&d->events, 3);
	assert_int_equal(e->kind, EV_DRIFT);
	assert_string_equal(e->bond, "bond0");
	assert_string_equal(e->text, "mac");
	fixture_done(d);
}

/* STATUS= from what bondd holds (notify_status): each bond's health as
 * judged, and the last refusal of a reload in words until one is taken. */
static void status_line_from_state(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0");

	notify_status(d);
	/* no such bond in the (empty) picture of the kernel */
	assert_non_null(strstr(d->status_line, "bond0"));
	assert_null(strstr(d->status_line, "last reload refused"));
	assert_false(d->bonds[0].was_healthy);
	assert_true(d->bonds[0].health_logged);

	d->reload_refused = (struct reload_refusal){.verdict = RELOAD_REFUSED_NO_BONDS,
						    .managing = 1};
	notify_status(d);
	const char *tail = "; last reload refused: /etc/bondd/bondd.conf defines no bonds, "
			   "still managing 1";
	size_t n = strlen(d->status_line), t = strlen(tail);
	assert_true(n > t);
	assert_string_equal(d->status_line + n - t, tail);
	d->reload_refused = (struct reload_refusal){.verdict = RELOAD_REFUSED_ERROR_AT,
						    .where = "/etc/bondd/bondd.conf:3"};
	notify_status(d);
	assert_non_null(strstr(d->status_line, "; last reload refused: error at "
					       "/etc/bondd/bondd.conf:3"));
	d->reload_refused = (struct reload_refusal){.verdict = RELOAD_ACCEPT};
	notify_status(d);
	assert_null(strstr(d->status_line, "refused"));
	fixture_done(d);
}

/* What backs off for each bond, in the kernel's words (report_failing):
 * its holds' errors, joined, stored only when they change; none, and the
 * text is empty again. */
static void failing_from_holds(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0,eth1 bond1:eth2");

	assert_non_null(d);
	char text[BOND_NOTES_TEXT];
	holds_fail(&d->holds, "link eth0", 1000);
	holds_set_error(&d->holds, "link eth0", "bond0",
			&(struct action_failure){.ifname = "eth0", .words = "Device or resource busy"});
	holds_fail(&d->holds, "mtu eth1", 1000);
	holds_set_error(&d->holds, "mtu eth1", "bond0",
			&(struct action_failure){.ifname = "eth1", .words = "Invalid argument"});
	report_failing(d);
	bond_failing_text(&d->bonds[0].failing, text, sizeof(text));
	assert_string_equal(text, "eth0: Device or resource busy; eth1: Invalid argument");
	assert_string_equal(d->bonds[0].failing.v[1].key, "mtu eth1");
	assert_false(bond_failing_text(&d->bonds[1].failing, text, sizeof(text)));
	assert_string_equal(text, "");

	/* The same again: neither bond's list is stored (a mark past their
	 * entries stays); an errno alone changed is. */
	d->bonds[0].failing.v[BOND_FAILING_MAX - 1].err = 99;
	d->bonds[1].failing.v[BOND_FAILING_MAX - 1].err = 99;
	report_failing(d);
	assert_int_equal(d->bonds[0].failing.v[BOND_FAILING_MAX - 1].err, 99);
	assert_int_equal(d->bonds[1].failing.v[BOND_FAILING_MAX - 1].err, 99);
	assert_int_equal(d->bonds[0].failing.n, 2);
	holds_set_error(&d->holds, "mtu eth1", "bond0",
			&(struct action_failure){.ifname = "eth1", .err = 22,
						 .words = "Invalid argument"});
	report_failing(d);
	assert_int_equal(d->bonds[0].failing.v[1].err, 22);
	assert_int_equal(d->bonds[0].failing.v[BOND_FAILING_MAX - 1].err, 0);
	assert_int_equal(d->bonds[1].failing.v[BOND_FAILING_MAX - 1].err, 99);
	bond_failing_text(&d->bonds[0].failing, text, sizeof(text));
	assert_string_equal(text, "eth0: Device or resource busy; eth1: Invalid argument");
	holds_clear(&d->holds);
	report_failing(d);
	assert_false(bond_failing_text(&d->bonds[0].failing, text, sizeof(text)));
	fixture_done(d);
}

/* Slave entries by mac: take their links' names now (identity_refresh),
 * and the link records follow, keeping their counters; one link named by
 * two entries is a conflict, counted. */
static void identity_names_follow(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon_conf("[bond0]\nslaves = mac:02:00:00:00:aa:01 eth1\n");
	struct config_diag diag = {0};
	struct obs_link l = {.ifindex = 7, .has_perm_addr = true,
			     .perm_addr = {0x02, 0, 0, 0, 0xaa, 0x01}};

	snprintf(l.name, sizeof(l.name), "eth7");
	assert_int_equal(observed_put_link(&d->ob.state, &l), 0);
	d->links[1].carrier_losses = 2; /* the entry's record, under its old name */
	d->touched_all = false;

	assert_int_equal(identity_refresh(&d->want, &d->ob.state, d, true), 0);
	assert_string_equal(d->want.bonds[0].slaves[0].name, "eth7");
	assert_non_null(link_rt(d, "eth7"));
	assert_int_equal(link_rt(d, "eth7")->carrier_losses, 2);
	assert_true(d->touched_all); /* events are matched by the new name */
	uint32_t said = d->identity_said;
	assert_int_equal(identity_refresh(&d->want, &d->ob.state, d, true), 0);
	assert_int_equal(d->identity_said, said);

	/* the same link by mac: and by its name: one link, two entries in conflict */
	struct desired two = {0};
	const char *both = "[bond0]\nslaves = mac:02:00:00:00:aa:01 eth7\n";
	assert_int_equal(config_parse("bondd.conf", both, strlen(both), &two, &diag), 0);
	config_diag_free(&diag);
	assert_int_equal(identity_refresh(&two, &d->ob.state, NULL, false), 2); /* both entries */
	desired_free(&two);
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rebuild_keeps_what_stays),
		cmocka_unit_test(slave_moves_between_bonds),
		cmocka_unit_test(events_and_fate),
		cmocka_unit_test(status_line_from_state),
		cmocka_unit_test(failing_from_holds),
		cmocka_unit_test(identity_names_follow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
