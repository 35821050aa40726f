/* SPDX-License-Identifier: MIT */
/* Connected routes: parsing what the kernel sends, and the observed list. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>

#include "observed.h"
#include "route_observe.h"

static char buf[4096];

/* An RTM_NEWROUTE as the kernel dumps a connected route (fib_add_ifaddr):
 * table main, protocol kernel, scope link, prefsrc, oif, metrics. */
static struct nlmsghdr *route_msg(uint16_t type, uint8_t family, const char *dst,
				  uint8_t dst_len, int oif, const char *cc, const char *gateway)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = family;
	rtm->rtm_dst_len = dst_len;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_KERNEL;
	rtm->rtm_scope = gateway ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
	rtm->rtm_type = RTN_UNICAST;
	uint8_t a[4];
	mnl_attr_put_u32(nlh, RTA_TABLE, RT_TABLE_MAIN);
	inet_pton(AF_INET, dst, a);
	mnl_attr_put(nlh, RTA_DST, 4, a);
	mnl_attr_put(nlh, RTA_PREFSRC, 4, a);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)oif);
	if (gateway) {
		inet_pton(AF_INET, gateway, a);
		mnl_attr_put(nlh, RTA_GATEWAY, 4, a);
	}
	struct nlattr *m = mnl_attr_nest_start(nlh, RTA_METRICS);
	mnl_attr_put_u32(nlh, RTAX_MTU, 1400);
	if (cc)
		mnl_attr_put_strz(nlh, RTAX_CC_ALGO, cc);
	mnl_attr_nest_end(nlh, m);
	return nlh;
}

static void parses_connected_route(void **state)
{
	(void)state;
	struct obs_route r;

	assert_int_equal(route_parse(route_msg(RTM_NEWROUTE, AF_INET, "10.88.0.0", 24, 5, "bbr",
					       NULL), &r), 0);
	assert_int_equal(r.family, AF_INET);
	assert_int_equal(r.dst_len, 24);
	assert_int_equal(r.oif, 5);
	assert_int_equal(r.table, RT_TABLE_MAIN);
	assert_int_equal(r.scope, RT_SCOPE_LINK);
	assert_true(r.has_prefsrc);
	assert_string_equal(r.cc_algo, "bbr");
	assert_int_equal(r.metrics[RTAX_MTU], 1400);
	assert_true(r.metrics_set & (1u << RTAX_MTU));
	assert_false(r.metrics_set & (1u << RTAX_CC_ALGO));
	assert_false(r.unknown_metric);

	/* not kept: via a gateway, IPv6, not the kernel's own */
	assert_int_equal(route_parse(route_msg(RTM_NEWROUTE, AF_INET, "10.9.0.0", 16, 5, NULL,
					       "10.88.0.254"), &r), -ENOENT);
	assert_int_equal(route_parse(route_msg(RTM_NEWROUTE, AF_INET6, "10.9.0.0", 16, 5, NULL,
					       NULL), &r), -ENOENT);
	struct nlmsghdr *nlh = route_msg(RTM_NEWROUTE, AF_INET, "10.9.0.0", 16, 5, NULL, NULL);
	((struct rtmsg *)mnl_nlmsg_get_payload(nlh))->rtm_protocol = RTPROT_STATIC;
	assert_int_equal(route_parse(nlh, &r), -ENOENT);
	/* malformed: a short message, a destination of the wrong size */
	nlh = route_msg(RTM_NEWROUTE, AF_INET, "10.9.0.0", 16, 5, NULL, NULL);
	nlh->nlmsg_len = sizeof(*nlh) + 2;
	assert_int_equal(route_parse(nlh, &r), -EINVAL);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWROUTE;
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_protocol = RTPROT_KERNEL;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, 3, "abc");
	assert_int_equal(route_parse(nlh, &r), -EINVAL);
}

static void observed_list(void **state)
{
	(void)state;
	struct observed o = {0};
	struct bond_addr a = {.family = AF_INET, .prefixlen = 24};

	inet_pton(AF_INET, "10.88.0.7", a.addr);
	route_observe_apply(&o, route_msg(RTM_NEWROUTE, AF_INET, "10.88.0.0", 24, 5, NULL, NULL));
	route_observe_apply(&o, route_msg(RTM_NEWROUTE, AF_INET, "10.89.0.0", 24, 6, NULL, NULL));
	assert_int_equal(o.n_routes, 2);
	const struct obs_route *r = route_connected(&o, 5, &a);
	assert_non_null(r);
	assert_string_equal(r->cc_algo, "");
	assert_null(route_connected(&o, 6, &a));
	/* a replace updates in place */
	route_observe_apply(&o, route_msg(RTM_NEWROUTE, AF_INET, "10.88.0.0", 24, 5, "bbr", NULL));
	assert_int_equal(o.n_routes, 2);
	assert_string_equal(route_connected(&o, 5, &a)->cc_algo, "bbr");
	/* /32: no prefix route */
	a.prefixlen = 32;
	assert_null(route_connected(&o, 5, &a));
	a.prefixlen = 24;
	/* a link that goes down takes its routes, without an event */
	route_observe_link(&o, 6, true);
	assert_int_equal(o.n_routes, 2);
	route_observe_link(&o, 6, false);
	assert_int_equal(o.n_routes, 1);
	route_observe_apply(&o, route_msg(RTM_DELROUTE, AF_INET, "10.88.0.0", 24, 5, NULL, NULL));
	assert_int_equal(o.n_routes, 0);
	observed_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_connected_route),
		cmocka_unit_test(observed_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
