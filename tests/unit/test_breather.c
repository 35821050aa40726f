/* SPDX-License-Identifier: MIT */
/* The pause in long work of a real-time bondd (breather.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "breather.h"

static void pauses_after_work_without_sleep(void **state)
{
	(void)state;
	struct breather b = {0};

	assert_false(breather_due(&b, 5, 1000)); /* first look: the count starts */
	assert_false(breather_due(&b, 5, 1000 + BREATHER_WORK_US - 1));
	assert_true(breather_due(&b, 5, 1000 + BREATHER_WORK_US));
	assert_true(breather_due(&b, 5, 1000 + 3 * BREATHER_WORK_US)); /* until it sleeps */
	/* it slept (a voluntary switch): the count starts again */
	assert_false(breather_due(&b, 6, 1000 + 3 * BREATHER_WORK_US));
	assert_false(breather_due(&b, 6, 1000 + 4 * BREATHER_WORK_US - 1));
	assert_true(breather_due(&b, 6, 1000 + 4 * BREATHER_WORK_US));
}

/* Sleeping in epoll_wait between short turns: never due, however much CPU
 * the turns add up to. */
static void short_turns_never_pause(void **state)
{
	(void)state;
	struct breather b = {0};
	uint64_t cpu = 0;

	for (long sw = 1; sw < 1000; sw++) {
		cpu += BREATHER_WORK_US / 10;
		assert_false(breather_due(&b, sw, cpu));
	}
}

/* The real calls, on this thread: a spin of more than the work limit
 * makes it sleep (a voluntary context switch), then it starts over. */
static void check_sleeps_when_due(void **state)
{
	(void)state;
	struct breather b = {0};
	volatile uint64_t x = 0;

	breather_check(&b);
	long before = b.nvcsw;
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			x += (uint64_t)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) <
		 (BREATHER_WORK_US + 20000) * 1000L);
	/* a preemption is not a voluntary switch: still the same count,
	 * unless this thread slept meanwhile, which the test cannot rule out */
	breather_check(&b); /* due: sleeps */
	breather_check(&b); /* sees the sleep */
	assert_true(b.nvcsw > before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pauses_after_work_without_sleep),
		cmocka_unit_test(short_turns_never_pause),
		cmocka_unit_test(check_sleeps_when_due),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
