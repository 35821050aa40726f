/* SPDX-License-Identifier: MIT */
/* When bondd tries again after a wake-up left bonds differing
 * (unsettled.h): a table of wake-ups in a row, time passed in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "unsettled.h"

struct step_case {
	const char *what;
	bool now_unsettled, others;
	struct unsettled_step was;
	uint64_t now_ms;
	struct unsettled_step want;
};

static const struct step_case cases[] = {
	{"settled, nothing before", false, false, {0, 0, 0}, 5000, {0, 0, UNSETTLED_FIRST_MS}},
	{"settled after three in a row: starts over", false, false, {3, 5400, 400}, 5000,
	 {0, 0, UNSETTLED_FIRST_MS}},
	{"the first unsettled wake-up: 100 ms", true, false, {0, 0, 0}, 5000,
	 {1, 5100, 100}},
	{"the second in a row: twice as late", true, false, {1, 5100, 100}, 5200, {2, 5400, 200}},
	{"the third", true, true, {2, 5400, 200}, 5500, {3, 5900, 400}},
	{"capped at a second", true, false, {4, 6000, 800}, 7000, {5, 8000, 1000}},
	{"still capped, however many", true, false, {40, 0, 1000}, 9000, {41, 10000, 1000}},
	/* bonds this wake-up did not plan still differ: their retry stands */
	{"only others differ: as it was", false, true, {2, 5400, 200}, 5300,
	 {2, 5400, UNSETTLED_FIRST_MS}},
};

static void step_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct step_case *c = &cases[i];
		struct unsettled_step got = unsettled_step_of(c->now_unsettled, c->others, &c->was,
							      c->now_ms);
		if (got.in_a_row != c->want.in_a_row || got.retry_at_ms != c->want.retry_at_ms ||
		    got.backoff_ms != c->want.backoff_ms)
			fail_msg("%s: %u in a row, retry at %llu, every %llu; want %u, %llu, %llu",
				 c->what, got.in_a_row, (unsigned long long)got.retry_at_ms,
				 (unsigned long long)got.backoff_ms, c->want.in_a_row,
				 (unsigned long long)c->want.retry_at_ms,
				 (unsigned long long)c->want.backoff_ms);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
