/* SPDX-License-Identifier: MIT */
/* The view of what the daemon holds (daemon_view.c daemon_view_now): it
 * points at the daemon's state and reads nothing; bondd's picture of the
 * kernel stale is said in words; a trial shown as it is.  On a daemon
 * built in memory (daemon_fixture.h); no kernel, no link check, no LLDP. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"

static void view_points_at_state(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:eth0,eth1");
	struct status_view v;

	d->config_failed = true;
	d->config_success_ms = 1234;
	d->trial.shown = (struct status_trial){.state = STRIAL_RUNNING, .id = 4, .seconds = 60};
	daemon_view_now(d, &v);
	assert_ptr_equal(v.want, &d->want);
	assert_ptr_equal(v.obs, &d->ob.state);
	assert_ptr_equal(v.bonds, d->bonds);
	assert_ptr_equal(v.links, d->links);
	assert_int_equal(v.n_links, 3);
	assert_ptr_equal(v.events, &d->events);
	assert_ptr_equal(v.host, &d->host);
	for (size_t i = 0; i < FSRC__COUNT; i++)
		assert_ptr_equal(v.findings[i], &d->findings[i]);
	assert_true(v.config_failed);
	assert_int_equal(v.config_success_ms, 1234);
	assert_int_equal(v.trial.id, 4);
	assert_int_equal(v.trial.state, STRIAL_RUNNING);
	assert_true(v.now_ms > 0);
	/* nothing wrong, nothing to read: no link check, LLDP or snapshot */
	assert_null(v.stale);
	assert_null(v.impaired);
	assert_null(v.linkcheck);
	assert_null(v.lldp);
	assert_null(v.bond_live); /* /proc is a status reply's to read (fill_view) */

	/* re-reading the links fails: the view says since when and why */
	d->ob.stale_since_ms = 1767323045000; /* 2026-01-02T03:04:05Z */
	d->ob.stale_err = -EINTR;
	daemon_view_now(d, &v);
	assert_non_null(v.stale);
	assert_string_equal(v.stale, "re-reading links failing since 2026-01-02T03:04:05Z: "
				     "Interrupted system call");
	assert_ptr_equal(v.stale, d->stale);
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(view_points_at_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
