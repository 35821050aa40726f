/* SPDX-License-Identifier: MIT */
/* Live link facts for a status reply (daemon_live.c link_live): within
 * the reply's time budget a stale speed is read again and the counters
 * are read from /proc/net/dev and sysfs; past it, the speed read before is
 * given and nothing is read.  On a daemon built in memory; the files read
 * are this machine's own for the loopback, which every network namespace
 * has (net/core/loopback.c), and for a name no link has.  Nothing is
 * written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_fixture.h"

#define NONE "bondd-none0"

static void read_within_the_budget(void **state)
{
	(void)state;
	struct daemon *d = fixture_daemon("bond0:lo," NONE);
	struct link_live out = {.mbps = -1};
	struct link_runtime *lo = link_rt(d, "lo"), *none = link_rt(d, NONE);

	live_reply_start(&d->live);
	assert_false(d->live.netdev_loaded);
	link_live(d, "lo", 1, &out);
	/* the loopback's counters, and its own CRC and missed files */
	assert_true(d->live.netdev_loaded && d->live.netdev_ok);
	assert_true(out.has_stats);
	assert_true(out.stats.has_crc_missed);
	/* its speed read once (sysfs refuses it for the loopback: unknown) */
	assert_true(lo->speed_fresh);
	assert_int_equal(lo->mbps, -1);
	assert_string_equal(out.duplex, "unknown");

	/* a link that is not there: no counters; unknown speed, read once */
	out = (struct link_live){.mbps = -1};
	link_live(d, NONE, 0, &out);
	assert_false(out.has_stats);
	assert_true(none->speed_fresh);

	/* past the budget: the speed read before, nothing read again */
	lo->speed_fresh = false;
	lo->mbps = 10000;
	snprintf(lo->duplex, sizeof(lo->duplex), "full");
	d->live.budget_end_us = 0;
	d->live.netdev_loaded = false;
	out = (struct link_live){.mbps = -1};
	link_live(d, "lo", 1, &out);
	assert_int_equal(out.mbps, 10000);
	assert_string_equal(out.duplex, "full");
	assert_false(out.has_stats);
	assert_false(lo->speed_fresh);
	assert_false(d->live.netdev_loaded);

	/* a link bondd keeps no record of: counters only */
	live_reply_start(&d->live);
	out = (struct link_live){.mbps = -1};
	link_live(d, "eth-unknown", 0, &out);
	assert_int_equal(out.mbps, -1);
	assert_string_equal(out.duplex, "");
	fixture_done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_within_the_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
