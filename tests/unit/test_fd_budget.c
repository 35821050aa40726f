/* SPDX-License-Identifier: MIT */
/* Open files: what a configuration needs and the packet sockets' ceiling
 * (fd_budget.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "config.h"
#include "fd_budget.h"
#include "strbuf.h"

/* n bonds of 4 slaves, balance-rr and 802.3ad in turn, the link check on
 * or off. */
static size_t need_of(int n, bool link_check)
{
	struct strbuf conf = {0};
	struct desired want = {0};
	struct config_diag diag = {0};

	for (int i = 0; i < n; i++)
		sb_printf(&conf, "[bond%d]\nmode = %s\nlink_check = %s\nslaves = a%d b%d c%d d%d\n", i,
			  i % 2 ? "802.3ad" : "balance-rr", link_check ? "yes" : "no", i, i, i, i);
	assert_int_equal(config_parse("t.conf", conf.s ? conf.s : "", conf.len, &want, &diag), 0);
	config_diag_free(&diag);
	size_t need = fd_budget_need(&want, 257);
	desired_free(&want);
	sb_free(&conf);
	return need;
}

/* Whatever the size, the limit it names serves it: its ceiling holds the
 * packet sockets and bondd's own; one below it does not, once the packet
 * sockets are what decides. */
static void need_is_served(void **state)
{
	static const struct {
		int bonds;
		bool link_check;
	} cases[] = {{0, true}, {1, true}, {16, true}, {64, true}, {130, true},
		     {256, true}, {1024, true}, {256, false}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t need = need_of(cases[i].bonds, cases[i].link_check);
		/* a socket per slave of the 802.3ad bonds (every other one),
		 * where a slave may be inactive; the balance-rr bonds' share
		 * one socket */
		size_t packets = (cases[i].link_check ? 4u * (size_t)(cases[i].bonds / 2) : 0) + 2;
		assert_true(fd_budget_packet_ceiling(need, 257) >= packets + FD_BUDGET_BASE);
		assert_true(fd_budget_packet_ceiling(need - 1, 257) < packets + FD_BUDGET_BASE);
	}
	/* LLDP and a link check of bonds that need no socket per slave cost
	 * nothing per bond: 256 bonds without the link check need what none do. */
	assert_int_equal(need_of(256, false), need_of(0, false));
	/* 1024 bonds, half of them 802.3ad, with the link check on do not
	 * fit a service's default soft limit: bondd raises it. */
	assert_true(need_of(1024, true) > 1024);
	(void)state;
}

/* A quarter of the limit is kept, at most a full status socket and
 * bondd's own. */
static void packet_ceiling(void **state)
{
	static const struct {
		size_t soft, want;
	} cases[] = {{0, 0}, {64, 48}, {128, 96}, {1024, 768}, {4096, 4096 - 257 - FD_BUDGET_BASE},
		     {524288, 524288 - 257 - FD_BUDGET_BASE}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(fd_budget_packet_ceiling(cases[i].soft, 257), cases[i].want);
	(void)state;
}

/* The soft limit raised to the hard one, and both said as they are now. */
static void limit_raised(void **state)
{
	(void)state;
	struct rlimit rl;
	size_t soft = 0, hard = 0;

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max > 64) {
		/* lowered first, so there is something to raise */
		struct rlimit low = {.rlim_cur = 64, .rlim_max = rl.rlim_max};
		assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	}
	assert_int_equal(fd_limit_raise(&soft, &hard), 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_true(rl.rlim_cur == rl.rlim_max);
	assert_int_equal(hard, rl.rlim_max == RLIM_INFINITY ? (size_t)-1 : (size_t)rl.rlim_max);
	assert_int_equal(soft, hard);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(need_is_served),
		cmocka_unit_test(packet_ceiling),
		cmocka_unit_test(limit_raised),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
