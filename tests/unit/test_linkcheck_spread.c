/* SPDX-License-Identifier: MIT */
/*
 * Our answers to a peer's check, spread (linkcheck_spread.h): the window
 * grows with the peers and stays below a check's shortest wait; the
 * replies waiting leave earliest first, each once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linkcheck_io.h"
#include "linkcheck_spread.h"

static void window_grows_with_peers(void **state)
{
	(void)state;
	/* alone: nothing converges, nothing waits */
	assert_int_equal(lc_answer_window_ms(0), 0);
	for (uint32_t r = 0; r < 100; r++)
		assert_int_equal(lc_answer_delay_ms(r, 0), 0);
	/* 4 hosts x 2 slaves: 6 peer slaves, 24 ms */
	assert_int_equal(lc_answer_window_ms(6), 24);
	/* 64 hosts: 126 peer slaves, capped */
	assert_int_equal(lc_answer_window_ms(126), LC_SPREAD_MAX_MS);
	assert_int_equal(lc_answer_window_ms((size_t)-1), LC_SPREAD_MAX_MS);
	/* the asker counts them: every delay within its shortest wait */
	assert_true(LC_SPREAD_MAX_MS + LC_SPREAD_SLOT_MS < LC_WAIT_MS);
}

static void delays_cover_the_window_in_slots(void **state)
{
	(void)state;
	unsigned seen[LC_SPREAD_MAX_MS / LC_SPREAD_SLOT_MS + 1] = {0};
	uint32_t x = 12345;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		uint32_t d = lc_answer_delay_ms(x, 126);
		assert_true(d <= LC_SPREAD_MAX_MS);
		assert_int_equal(d % LC_SPREAD_SLOT_MS, 0);
		seen[d / LC_SPREAD_SLOT_MS]++;
	}
	/* every slot used, none holding more than three times its share:
	 * the answers of 63 peers do not land in one slot */
	size_t slots = sizeof(seen) / sizeof(seen[0]);
	for (size_t k = 0; k < slots; k++) {
		assert_true(seen[k] > 0);
		assert_true(seen[k] < 3 * 20000 / slots);
	}
	/* a small window: 24 ms, slots 0, 10 and 20 */
	for (uint32_t r = 0; r < 30; r++)
		assert_true(lc_answer_delay_ms(r, 6) <= 20);
}

static struct lc_reply at(int64_t due, int ifindex)
{
	return (struct lc_reply){.due_ms = due, .ifindex = ifindex};
}

static void replies_leave_earliest_first(void **state)
{
	(void)state;
	struct lc_replies q = {0};
	assert_int_equal(lc_replies_next(&q), 0);
	/* 1000 replies in a scrambled order of due times */
	for (int i = 0; i < 1000; i++)
		assert_true(lc_replies_add(&q, &(struct lc_reply){
						   .due_ms = 1000 + (i * 7919) % 1000, .ifindex = i}));
	assert_int_equal(lc_replies_next(&q), 1000);
	struct lc_reply out[64];
	/* nothing due before the first */
	assert_int_equal(lc_replies_take_due(&q, 999, out, 64), 0);
	/* due by 1099: 100 of them, in order, up to max per call */
	size_t got = 0;
	int64_t last = 0;
	size_t n;
	while ((n = lc_replies_take_due(&q, 1099, out, 64))) {
		assert_true(n <= 64);
		for (size_t k = 0; k < n; k++) {
			assert_true(out[k].due_ms >= last && out[k].due_ms <= 1099);
			/* the entry came through whole */
			assert_int_equal((out[k].ifindex * 7919) % 1000, out[k].due_ms - 1000);
			last = out[k].due_ms;
		}
		got += n;
	}
	assert_int_equal(got, 100);
	assert_int_equal(q.n, 900);
	assert_int_equal(lc_replies_next(&q), 1100);
	/* the rest, each once */
	got = 0;
	while ((n = lc_replies_take_due(&q, 5000, out, 64)))
		got += n;
	assert_int_equal(got, 900);
	assert_int_equal(lc_replies_next(&q), 0);
	lc_replies_free(&q);
}

/* Replies due at one time leave in the order they were added: an echo
 * queued before the answer it leaves with goes first. */
static void equal_times_keep_their_order(void **state)
{
	(void)state;
	struct lc_replies q = {0};
	for (int i = 0; i < 300; i++)
		assert_true(lc_replies_add(&q, &(struct lc_reply){.due_ms = 10 + i % 3, .ifindex = i}));
	struct lc_reply out[300];
	assert_int_equal(lc_replies_take_due(&q, 100, out, 300), 300);
	for (int k = 1; k < 300; k++)
		assert_true(out[k - 1].due_ms < out[k].due_ms ||
			    (out[k - 1].due_ms == out[k].due_ms && out[k - 1].ifindex < out[k].ifindex));
	lc_replies_free(&q);
}

static void a_full_queue_refuses(void **state)
{
	(void)state;
	struct lc_replies q = {0};
	struct lc_reply r = at(5, 1);
	for (int i = 0; i < LC_REPLIES_MAX; i++)
		assert_true(lc_replies_add(&q, &r));
	/* one more is the caller's to send at once */
	assert_false(lc_replies_add(&q, &r));
	struct lc_reply out[1];
	assert_int_equal(lc_replies_take_due(&q, 5, out, 1), 1);
	assert_true(lc_replies_add(&q, &r));
	lc_replies_free(&q);
	assert_int_equal(q.n, 0);
	assert_null(q.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(window_grows_with_peers),
		cmocka_unit_test(delays_cover_the_window_in_slots),
		cmocka_unit_test(replies_leave_earliest_first),
		cmocka_unit_test(equal_times_keep_their_order),
		cmocka_unit_test(a_full_queue_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
