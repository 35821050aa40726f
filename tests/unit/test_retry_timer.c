/* SPDX-License-Identifier: MIT */
/* When the retry timer brings the next wake-up (retry_timer.h): a table
 * of what is due and the time now. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "retry_timer.h"

static const struct {
	const char *what;
	struct retry_inputs in;
	uint64_t now, next;
} cases[] = {
	{"nothing due: no wake-up", {0}, 1000, 0},
	{"a hold alone", {.holds_ms = 1500}, 1000, 1500},
	{"the unsettled retry alone", {.unsettled_ms = 1200}, 1000, 1200},
	{"udev alone", {.udev_ms = 3000}, 1000, 3000},
	{"a trial alone", {.trial_ms = 4000}, 1000, 4000},
	{"the earliest of four", {.holds_ms = 1500, .unsettled_ms = 1200, .udev_ms = 1100,
				  .trial_ms = 4000}, 1000, 1100},
	{"a hold before the unsettled retry", {.holds_ms = 1100, .unsettled_ms = 1200}, 1000,
	 1100},
	{"a time already past is kept: the caller fires at once", {.holds_ms = 900}, 1000, 900},
	{"a failed re-read at its retry", {.stale = true, .stale_retry_ms = 1300}, 1000, 1300},
	{"a failed re-read whose retry passed: at once", {.stale = true, .stale_retry_ms = 800},
	 1000, 1001},
	{"... even with nothing else due and no time", {.stale = true}, 1000, 1001},
	{"a failed re-read after a sooner hold", {.holds_ms = 1100, .stale = true,
						  .stale_retry_ms = 1300}, 1000, 1100},
	{"the re-read's time ignored unless it failed", {.trial_ms = 5000, .stale_retry_ms = 1300},
	 1000, 5000},
};

static void next_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t next = retry_next_ms(&cases[i].in, cases[i].now);
		if (next != cases[i].next)
			fail_msg("%s: %llu, want %llu", cases[i].what, (unsigned long long)next,
				 (unsigned long long)cases[i].next);
	}
	assert_int_equal(earlier(0, 0), 0);
	assert_int_equal(earlier(0, 7), 7);
	assert_int_equal(earlier(7, 0), 7);
	assert_int_equal(earlier(9, 7), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(next_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
