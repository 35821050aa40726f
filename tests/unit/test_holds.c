/* SPDX-License-Identifier: MIT */
/* Backoff after kernel errors: doubling, capping, expiry and reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "holds.h"

static void backoff_doubles_and_caps(void **state)
{
	(void)state;
	static struct holds h;
	uint64_t expect = HOLD_FIRST_MS;

	holds_clear(&h);
	for (int i = 0; i < 12; i++) {
		assert_int_equal(holds_fail(&h, "eth1", 1000), expect);
		expect = expect * 2 > HOLD_MAX_MS ? HOLD_MAX_MS : expect * 2;
	}
	assert_int_equal(holds_fail(&h, "eth1", 1000), HOLD_MAX_MS);
	assert_int_equal(h.n, 1);
}

static void held_until_expiry(void **state)
{
	(void)state;
	static struct holds h;

	holds_clear(&h);
	holds_fail(&h, "eth1", 1000);          /* held until 1100 */
	holds_fail(&h, "bond0", 1000);
	holds_fail(&h, "bond0", 1000);         /* held until 1200 */
	struct plan_constraints p = holds_constraints(&h, 1050);
	assert_int_equal(p.n, 2);
	assert_int_equal(holds_next_expiry(&h, 1050), 1100);
	assert_int_equal(p.n_failing, 0);
	p = holds_constraints(&h, 1100);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.keys[0], "bond0");
	/* Expired, its last try failed: due for a retry, and said so. */
	assert_int_equal(p.n_failing, 1);
	assert_string_equal(p.failing[0], "eth1");
	assert_int_equal(holds_next_expiry(&h, 1100), 1200);
	p = holds_constraints(&h, 5000);
	assert_int_equal(p.n, 0);
	assert_int_equal(p.n_failing, 2);
	holds_succeed(&h, "eth1");
	assert_int_equal(holds_constraints(&h, 5000).n_failing, 1);
	/* Refused: listed as such whatever the time, until forgiven. */
	holds_fail(&h, "eth7", 5000);
	holds_refuse(&h, "eth7");
	p = holds_constraints(&h, 1000000);
	assert_int_equal(p.n_failing, 1);
	assert_int_equal(p.n_refused, 1);
	assert_string_equal(p.refused[0], "eth7");
	assert_false(holds_forgive(&h, "eth9"));
	assert_false(holds_forgive(&h, "bond0")); /* failing, not refused */
	assert_true(holds_forgive(&h, "eth7"));
	assert_int_equal(holds_constraints(&h, 1000000).n_refused, 0);
	assert_int_equal(holds_next_expiry(&h, 5000), 0);
	/* Expired but remembered: the next failure waits longer. */
	assert_int_equal(holds_fail(&h, "bond0", 5000), 4 * HOLD_FIRST_MS);
}

static void success_resets(void **state)
{
	(void)state;
	static struct holds h;

	holds_clear(&h);
	holds_fail(&h, "eth1", 0);
	holds_fail(&h, "eth1", 0);
	holds_succeed(&h, "eth1");
	assert_int_equal(h.n, 0);
	assert_int_equal(holds_fail(&h, "eth1", 0), HOLD_FIRST_MS);
	holds_succeed(&h, "not-held"); /* harmless */
	assert_int_equal(h.n, 1);
}

/* A failure is kept with its key and bond; failing since the first in a
 * row, which a success ends. */
static void failure_since_first(void **state)
{
	(void)state;
	static struct holds h;

	holds_clear(&h);
	holds_fail(&h, "mtu eth1", 0);
	holds_set_error(&h, "mtu eth1", "bond0",
			&(struct action_failure){.ifname = "eth1", .err = 22, .since_ms = 7000,
						 .words = "MTU 9000 refused"});
	assert_string_equal(h.v[0].bond, "bond0");
	assert_string_equal(h.v[0].failure.key, "mtu eth1");
	assert_int_equal(h.v[0].failure.since_ms, 7000);
	holds_fail(&h, "mtu eth1", 100);
	holds_set_error(&h, "mtu eth1", "bond0",
			&(struct action_failure){.ifname = "eth1", .err = 34, .since_ms = 7100,
						 .words = "MTU 9000 refused again"});
	assert_int_equal(h.v[0].failure.since_ms, 7000);     /* the first in a row */
	assert_int_equal(h.v[0].failure.err, 34);            /* the last one's words */
	assert_string_equal(h.v[0].failure.words, "MTU 9000 refused again");
	holds_succeed(&h, "mtu eth1");
	holds_fail(&h, "mtu eth1", 200);
	holds_set_error(&h, "mtu eth1", "bond0",
			&(struct action_failure){.ifname = "eth1", .err = 22, .since_ms = 7200});
	assert_int_equal(h.v[0].failure.since_ms, 7200);     /* a new row */
	holds_set_error(&h, "not-held", "bond0", &(struct action_failure){.since_ms = 1});
	assert_int_equal(h.n, 1);                            /* only what failed */
}

static void full_table_reuses_earliest(void **state)
{
	(void)state;
	static struct holds h;
	char name[IFNAMSIZ];

	holds_clear(&h);
	for (int i = 0; i < HOLDS_MAX; i++) {
		snprintf(name, sizeof(name), "if%d", i);
		holds_fail(&h, name, (uint64_t)i);
	}
	holds_fail(&h, "newcomer", 10000);
	assert_int_equal(h.n, HOLDS_MAX);
	struct plan_constraints p = holds_constraints(&h, 10001);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.keys[0], "newcomer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(backoff_doubles_and_caps),
		cmocka_unit_test(held_until_expiry),
		cmocka_unit_test(success_resets),
		cmocka_unit_test(failure_since_first),
		cmocka_unit_test(full_table_reuses_earliest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
