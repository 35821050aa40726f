/* SPDX-License-Identifier: MIT */
/* The kernel's events as the daemon takes them (daemon_events.c): a
 * configured link's carrier counted and recorded, the bonds a wake-up
 * plans marked, what else must look again, and the bonds a retry is for.
 * The observer's callbacks called as it calls them, on a daemon built in
 * memory (daemon_fixture.h); no kernel. */
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"

static struct obs_link link_of(const char *name, int ifindex, unsigned flags)
{
	struct obs_link l = {.ifindex = ifindex, .flags = flags, .mtu = 1500};
	snprintf(l.name, sizeof(l.name), "%s", name);
	return l;
}

/* A wake-up's marks cleared, as converge leaves them. */
static void settle(struct daemon *d)
{
	memset(d->touched, 0, d->n_bonds * sizeof(*d->touched));
	d->touched_all = d->lldp_due = d->identity_due = d->host_nics_due = false;
	for (size_t i = 0; i < d->n_links; i++)
		d->links[i].host_due = false, d->links[i].speed_fresh = true;
}

#define UPL (IFF_UP | IFF_LOWER_UP)

/* Each carrier change of a configured slave, as its change says
 * (carrier_change.h): counted, recorded, its bond planned again. */
static void carrier_counted_and_recorded(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0,eth1 bond1:eth2");
	static const struct {
		const char *what;
		unsigned old_flags, now_flags;
		enum event_kind kind;    /* EV_CONFIG: no event */
		const char *text;
		unsigned long losses;    /* eth0's count after it */
		bool speed;              /* read again */
	} cases[] = {
		{"lost, admin up: a flap", UPL, IFF_UP, EV_DOWN, "carrier lost (1 so far)", 1, true},
		{"back", IFF_UP, UPL, EV_UP, "carrier back", 1, true},
		{"lost with the link set down: said at debug only", UPL, 0, EV_CONFIG, NULL, 1,
		 true},
		{"back as it is set up: nothing said", 0, UPL, EV_CONFIG, NULL, 1, true},
		{"nothing of the carrier: nothing said", UPL, UPL, EV_CONFIG, NULL, 1, false},
		{"lost again: the count goes on", UPL, IFF_UP, EV_DOWN, "carrier lost (2 so far)", 2,
		 true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct obs_link old = link_of("eth0", 5, cases[i].old_flags);
		struct obs_link now = link_of("eth0", 5, cases[i].now_flags);
		size_t events = event_log_count(&d->events);
		settle(d);
		daemon_on_link_change(d, &old, &now);
		struct link_runtime *rt = link_rt(d, "eth0");
		if (cases[i].kind == EV_CONFIG) {
			if (event_log_count(&d->events) != events)
				fail_msg("%s: an event: %s", cases[i].what,
					 fixture_last_event(d)->text);
		} else {
			const struct event *e = fixture_last_event(d);
			if (event_log_count(&d->events) != events + 1 || e->kind != cases[i].kind ||
			    strcmp(e->text, cases[i].text) || strcmp(e->bond, "bond0") ||
			    strcmp(e->link, "eth0"))
				fail_msg("%s: event \"%s\"", cases[i].what, e ? e->text : "(none)");
		}
		if (rt->carrier_losses != cases[i].losses)
			fail_msg("%s: %lu losses", cases[i].what, rt->carrier_losses);
		if (rt->host_due != cases[i].speed || d->host_nics_due != cases[i].speed ||
		    rt->speed_fresh == cases[i].speed)
			fail_msg("%s: speed read again %d", cases[i].what, rt->host_due);
		/* its bond planned again; not the other; no match or LLDP work */
		assert_true(d->touched[0]);
		assert_false(d->touched[1]);
		assert_false(d->lldp_due);
		assert_false(d->identity_due);
	}
	assert_true(link_rt(d, "eth0")->last_flap_ms > 0);
	assert_int_equal(link_rt(d, "eth1")->carrier_losses, 0);
	fixture_done(d);
}

/* A link that came or went: LLDP's groups and the matches looked at again;
 * a configured one gone is recorded (someone else deleted it); a new one
 * forgives an enslave refused while the old device was there. */
static void links_come_and_go(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0,eth1 bond1:eth2");
	struct obs_link eth1 = link_of("eth1", 6, UPL), eth2 = link_of("eth2", 7, UPL);

	settle(d);
	daemon_on_link_change(d, &eth1, NULL);
	const struct event *e = fixture_last_event(d);
	assert_non_null(e);
	assert_int_equal(e->kind, EV_GONE);
	assert_string_equal(e->text, "eth1 disappeared");
	assert_string_equal(e->bond, "bond0");
	assert_true(d->lldp_due);
	assert_true(d->identity_due);
	assert_true(d->touched[0]);

	/* refused while the old eth2 was there: a new eth2 is tried again */
	holds_fail(&d->holds, "link eth2", 1000);
	holds_refuse(&d->holds, "link eth2");
	assert_true(d->holds.v[0].refused);
	settle(d);
	size_t events = event_log_count(&d->events);
	daemon_on_link_change(d, NULL, &eth2);
	assert_int_equal(d->holds.n, 0); /* forgotten */
	assert_int_equal(event_log_count(&d->events), events); /* said in the log only */
	assert_true(d->touched[1]);
	assert_false(d->touched[0]);
	assert_true(link_rt(d, "eth2")->host_due);

	/* renamed: the matches and LLDP, not the speed */
	struct obs_link lan = eth2;
	snprintf(lan.name, sizeof(lan.name), "lan2");
	settle(d);
	daemon_on_link_change(d, &eth2, &lan);
	assert_true(d->lldp_due);
	assert_true(d->identity_due);
	assert_false(d->host_nics_due);

	/* a link no entry names: only what every link changes */
	struct obs_link other = link_of("dummy9", 40, UPL);
	settle(d);
	events = event_log_count(&d->events);
	daemon_on_link_change(d, &other, NULL);
	assert_int_equal(event_log_count(&d->events), events);
	assert_true(d->lldp_due);
	assert_false(d->touched[0] || d->touched[1]);
	assert_false(d->host_nics_due);
	fixture_done(d);
}

/* An address marks its bond; a route every bond with addresses. */
static void addresses_and_routes(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0 bond1:eth1 bond2:eth2");

	d->want.bonds[1].n_addrs = 1;
	d->want.bonds[2].n_addrs = 2;
	fixture_link(d, "bond0", 10, "bond");
	settle(d);
	daemon_on_addr_or_route(d, 10);
	assert_true(d->touched[0]);
	assert_false(d->touched[1] || d->touched[2]);
	settle(d);
	daemon_on_addr_or_route(d, 99); /* no such link: nothing */
	assert_false(d->touched[0] || d->touched[1] || d->touched[2]);
	daemon_on_addr_or_route(d, 0);
	assert_false(d->touched[0]);
	assert_true(d->touched[1] && d->touched[2]);
	fixture_done(d);
}

/* A retry is for the bonds with an action backing off, those still
 * differing after the last wake-up, and those with a slave udev has not
 * handed over; no other. */
static void retry_touches_what_is_due(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0 bond1:eth1 bond2:eth2 bond3:eth3");
	static const struct udev_link waiting[] = {
		{.name = "eth2", .ifindex = 4, .state = UDEV_PENDING},
		{.name = "eth3", .ifindex = 5, .state = UDEV_READY},
	};

	settle(d);
	touch_due(d);
	for (size_t i = 0; i < 4; i++)
		assert_false(d->touched[i]);
	holds_fail(&d->holds, "link eth1", 1000);
	holds_set_error(&d->holds, "link eth1", "bond1", "eth1: Device or resource busy");
	d->bonds[0].unsettled.passes = 6;
	d->udev.v = calloc(2, sizeof(*d->udev.v));
	assert_non_null(d->udev.v);
	memcpy(d->udev.v, waiting, sizeof(waiting));
	d->udev.n = d->udev.cap = 2;
	touch_due(d);
	assert_true(d->touched[0]);
	assert_true(d->touched[1]);
	assert_true(d->touched[2]);
	assert_false(d->touched[3]);
	fixture_done(d);
}

/* Options this kernel does not report: what was said is kept, so that
 * a link's change says it again only when the kernel taught more. */
static void unreported_said_when_learned(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0");
	struct obs_link eth0 = link_of("eth0", 5, UPL);

	d->ob.caps.modes_seen = 1;
	daemon_on_link_change(d, &eth0, &eth0);
	assert_memory_equal(&d->caps_logged, &d->ob.caps, sizeof(d->caps_logged));
	d->ob.caps.reported = 3;
	assert_memory_not_equal(&d->caps_logged, &d->ob.caps, sizeof(d->caps_logged));
	daemon_on_link_change(d, &eth0, &eth0);
	assert_memory_equal(&d->caps_logged, &d->ob.caps, sizeof(d->caps_logged));
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(carrier_counted_and_recorded),
		cmocka_unit_test(links_come_and_go),
		cmocka_unit_test(addresses_and_routes),
		cmocka_unit_test(retry_touches_what_is_due),
		cmocka_unit_test(unreported_said_when_learned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
