/* SPDX-License-Identifier: MIT */
/* A link's counters from the text of /proc/net/dev (daemon_live.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_parts.h"

/* As net/core/net-procfs.c dev_seq_printf_stats writes it. */
static const char netdev[] =
	"Inter-|   Receive                                                |  Transmit\n"
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
	"    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0\n"
	"    e1: 123456789  4242    3    7    0     0          0         5 987654321   2424    2    9    0     0       0          0\n"
	"   e10:       1       2    3    4    0     0          0         0        5      6    7    8    0     0       0          0\n";

static void finds_the_named_line(void **state)
{
	(void)state;
	struct obs_stats st;

	memset(&st, 0, sizeof(st));
	assert_true(proc_net_dev_stats(netdev, "e1", &st));
	assert_int_equal(st.rx_bytes, 123456789);
	assert_int_equal(st.rx_packets, 4242);
	assert_int_equal(st.rx_errors, 3);
	assert_int_equal(st.rx_dropped, 7);
	assert_int_equal(st.tx_bytes, 987654321);
	assert_int_equal(st.tx_packets, 2424);
	assert_int_equal(st.tx_errors, 2);
	assert_int_equal(st.tx_dropped, 9);
	/* e1 is a prefix of e10: the ':' ends a name. */
	assert_true(proc_net_dev_stats(netdev, "e10", &st));
	assert_int_equal(st.rx_bytes, 1);
	assert_int_equal(st.tx_dropped, 8);
}

static void absent_or_cut_is_false(void **state)
{
	(void)state;
	struct obs_stats st;

	assert_false(proc_net_dev_stats(netdev, "e2", &st));
	assert_false(proc_net_dev_stats(netdev, "e", &st));
	assert_false(proc_net_dev_stats("    e1: 1 2 3\n", "e1", &st));
	assert_false(proc_net_dev_stats("", "e1", &st));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_the_named_line),
		cmocka_unit_test(absent_or_cut_is_false),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
