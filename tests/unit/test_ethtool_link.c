/* SPDX-License-Identifier: MIT */
/* ethtool_link_speed against this machine's kernel: by ifindex, never by a
 * name; a link that is not there is -ENODEV at once. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <net/if.h>
#include <cmocka.h>

#include "ethtool_link.h"

/* The kernel has no ethtool netlink family (before 5.6, or built without
 * it): nothing here can be asked of it. */
static bool family_missing(int err)
{
	return err == -EPROTONOSUPPORT;
}

static void loopback_has_no_speed(void **state)
{
	(void)state;
	struct nic_speed s = {.mbps = 123};
	int lo = (int)if_nametoindex("lo");
	assert_true(lo > 0);
	int err = ethtool_link_speed(lo, &s);
	if (family_missing(err))
		skip();
	/* loopback has no get_link_ksettings: an answer, of no speed */
	assert_int_equal(err, 0);
	assert_int_equal(s.mbps, -1);
	assert_string_equal(s.duplex, "unknown");
}

static void missing_link_is_enodev(void **state)
{
	(void)state;
	struct nic_speed s = {.mbps = 123};
	int err = ethtool_link_speed(0x7ffffff0, &s);
	if (family_missing(err))
		skip();
	assert_int_equal(err, -ENODEV);
	assert_int_equal(s.mbps, -1);
	assert_string_equal(s.duplex, "unknown");
	/* and again on the same socket: no answer left behind */
	assert_int_equal(ethtool_link_speed(0x7ffffff1, &s), -ENODEV);
	assert_int_equal(ethtool_link_speed(0, &s), -ENODEV);
	assert_int_equal(ethtool_link_speed(-3, &s), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loopback_has_no_speed),
		cmocka_unit_test(missing_link_is_enodev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
