/* SPDX-License-Identifier: MIT */
/* What a kernel error on one action means (apply_error.h), without a kernel. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apply_error.h"

static struct apply_error meaning(enum action_kind kind, int err)
{
	struct action a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	snprintf(a.bond, sizeof(a.bond), "bond0");
	snprintf(a.ifname, sizeof(a.ifname), "%s", kind == ACT_ENSLAVE ? "e1" : "bond0");
	return apply_error_meaning(&a, err);
}

/* A link gone between observing and sending: plan again, no backoff, and
 * nothing to restore, whatever the action. */
static void gone_plans_again(void **state)
{
	(void)state;
	for (int k = 0; k < ACT__COUNT; k++) {
		struct apply_error e = meaning((enum action_kind)k, -ENODEV);
		assert_int_equal(e.kind, APPLY_ERR_GONE);
		assert_true(e.stops_bond);
		assert_false(e.restore_up);
	}
}

/* EBUSY on an enslave: another rx_handler holds the link; not retried,
 * and the link bondd set down for it goes up again. */
static void busy_enslave_is_in_use(void **state)
{
	(void)state;
	struct apply_error e = meaning(ACT_ENSLAVE, -EBUSY);
	assert_int_equal(e.kind, APPLY_ERR_IN_USE);
	assert_true(e.restore_up);
	assert_true(e.stops_bond);
	/* EBUSY elsewhere (an option the bond refuses while up) is retried. */
	assert_int_equal(meaning(ACT_SET_OPTS, -EBUSY).kind, APPLY_ERR_RETRY);
	assert_int_equal(meaning(ACT_SET_MTU, -EBUSY).kind, APPLY_ERR_RETRY);
}

/* A refused value is the config's fault only where bondd sends config
 * values: a bond's options, or a bond created with them. */
static void refused_value_is_a_config_error(void **state)
{
	(void)state;
	assert_int_equal(meaning(ACT_SET_OPTS, -EINVAL).kind, APPLY_ERR_CONFIG);
	assert_int_equal(meaning(ACT_SET_OPTS, -ERANGE).kind, APPLY_ERR_CONFIG);
	assert_int_equal(meaning(ACT_CREATE_BOND, -EINVAL).kind, APPLY_ERR_CONFIG);
	assert_int_equal(meaning(ACT_ENSLAVE, -EINVAL).kind, APPLY_ERR_RETRY);
	assert_int_equal(meaning(ACT_SET_MTU, -ERANGE).kind, APPLY_ERR_RETRY);
	assert_int_equal(meaning(ACT_SET_OPTS, -EPERM).kind, APPLY_ERR_RETRY);
}

/* Only an enslave's failure restores a link; addresses, slave options,
 * the MAC and the bridge leave the rest of the bond's plan going. */
static void what_stops_and_what_restores(void **state)
{
	(void)state;
	for (int k = 0; k < ACT__COUNT; k++) {
		struct apply_error e = meaning((enum action_kind)k, -EOPNOTSUPP);
		assert_int_equal(e.restore_up, k == ACT_ENSLAVE);
		assert_int_equal(e.stops_bond, k != ACT_ADD_ADDR && k != ACT_SET_SLAVE_OPTS &&
						k != ACT_SET_MAC && k != ACT_SET_BRIDGE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gone_plans_again),
		cmocka_unit_test(busy_enslave_is_in_use),
		cmocka_unit_test(refused_value_is_a_config_error),
		cmocka_unit_test(what_stops_and_what_restores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
