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
#include "route_cc.h"
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
	/* an admin's copy in another table, even protocol kernel: not ours
	 * (RTA_TABLE decides, as the kernel sends both) */
	nlh = route_msg(RTM_NEWROUTE, AF_INET, "10.88.0.0", 24, 5, "cubic", NULL);
	((struct rtmsg *)mnl_nlmsg_get_payload(nlh))->rtm_table = 100;
	struct nlattr *ta;
	mnl_attr_for_each(ta, nlh, sizeof(struct rtmsg))
		if (mnl_attr_get_type(ta) == RTA_TABLE)
			*(uint32_t *)mnl_attr_get_payload(ta) = 100;
	assert_int_equal(route_parse(nlh, &r), -ENOENT);
	/* a table above 255 travels in RTA_TABLE only */
	nlh = route_msg(RTM_NEWROUTE, AF_INET, "10.88.0.0", 24, 5, NULL, NULL);
	((struct rtmsg *)mnl_nlmsg_get_payload(nlh))->rtm_table = RT_TABLE_UNSPEC;
	mnl_attr_for_each(ta, nlh, sizeof(struct rtmsg))
		if (mnl_attr_get_type(ta) == RTA_TABLE)
			*(uint32_t *)mnl_attr_get_payload(ta) = 1000;
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
	/* A copy in table 100 found first (as a dump would list it, before
	 * main) is never the bond's connected route. */
	struct obs_route copy = *route_connected(&o, 5, &a);
	copy.table = 100;
	snprintf(copy.cc_algo, sizeof(copy.cc_algo), "cubic");
	struct observed o2 = {0};
	assert_int_equal(observed_put_route(&o2, &copy), 0);
	assert_null(route_connected(&o2, 5, &a));
	assert_int_equal(observed_put_route(&o2, route_connected(&o, 5, &a)), 0);
	assert_int_equal(route_connected(&o2, 5, &a)->table, RT_TABLE_MAIN);
	assert_string_equal(route_connected(&o2, 5, &a)->cc_algo, "bbr");
	observed_free(&o2);
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

static struct nlmsghdr *with_flags(struct nlmsghdr *nlh, uint16_t flags)
{
	nlh->nlmsg_flags = flags;
	return nlh;
}

/* Routes of one prefix on several devices stay in the kernel's order,
 * which the notifications' flags tell (net/ipv4/fib_trie.c
 * fib_table_insert). */
static void group_order(void **state)
{
	(void)state;
	struct observed o = {0};

	/* e3 (oif 3) first, the bond (oif 9) appended: fib_magic appends */
	route_observe_apply(&o, with_flags(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 3,
						     NULL, NULL), NLM_F_CREATE | NLM_F_EXCL));
	route_observe_apply(&o, with_flags(route_msg(RTM_NEWROUTE, AF_INET, "10.2.0.0", 24, 4,
						     NULL, NULL), NLM_F_CREATE | NLM_F_EXCL));
	route_observe_apply(&o, with_flags(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9,
						     NULL, NULL), NLM_F_CREATE | NLM_F_APPEND));
	assert_int_equal(o.n_routes, 3);
	struct obs_route bond = o.routes[1]; /* after e3's, before the other prefix */
	assert_int_equal(o.routes[2].oif, 4);
	assert_int_equal(bond.oif, 9);
	assert_false(route_first_of_group(&o, &bond));
	assert_true(route_first_of_group(&o, &o.routes[0]));
	assert_true(route_same_group(&o.routes[0], &bond));
	assert_false(route_same(&o.routes[0], &bond));
	/* deleted and added back without NLM_F_APPEND: before the group */
	route_observe_apply(&o, route_msg(RTM_DELROUTE, AF_INET, "10.1.0.0", 24, 9, NULL, NULL));
	assert_int_equal(o.n_routes, 2);
	assert_int_equal(o.routes[0].oif, 3); /* order kept on removal */
	assert_int_equal(o.routes[1].oif, 4);
	route_observe_apply(&o, with_flags(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9,
						     "bbr", NULL), NLM_F_CREATE));
	assert_int_equal(o.routes[0].oif, 9);
	assert_int_equal(o.routes[1].oif, 3);
	assert_true(route_first_of_group(&o, &bond));
	/* a replace (someone's `ip route replace`) took the first one's place */
	route_observe_apply(&o, with_flags(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 5,
						     NULL, NULL), NLM_F_REPLACE));
	assert_int_equal(o.n_routes, 3);
	assert_int_equal(o.routes[0].oif, 5);
	assert_int_equal(o.routes[1].oif, 3);
	/* a link going down takes its routes and keeps the others' order */
	route_observe_link(&o, 5, false);
	assert_int_equal(o.n_routes, 2);
	assert_int_equal(o.routes[0].oif, 3);
	assert_int_equal(o.routes[1].oif, 4);
	observed_free(&o);
}

struct seen {
	uint16_t flags, type;
	int oif;
	uint8_t protocol, scope, rtype;
	bool prefsrc, cc;
	char cc_algo[16];
};

static int seen_metric(const struct nlattr *a, void *data)
{
	struct seen *s = data;
	if (mnl_attr_get_type(a) == RTAX_CC_ALGO) {
		s->cc = true;
		snprintf(s->cc_algo, sizeof(s->cc_algo), "%s", mnl_attr_get_str(a));
	}
	return MNL_CB_OK;
}

static int seen_attr(const struct nlattr *a, void *data)
{
	struct seen *s = data;
	switch (mnl_attr_get_type(a)) {
	case RTA_OIF:
		s->oif = (int)mnl_attr_get_u32(a);
		break;
	case RTA_PREFSRC:
		s->prefsrc = true;
		break;
	case RTA_METRICS:
		mnl_attr_parse_nested(a, seen_metric, s);
		break;
	}
	return MNL_CB_OK;
}

static struct seen look(const struct nlmsghdr *nlh)
{
	struct seen s = {.flags = nlh->nlmsg_flags, .type = nlh->nlmsg_type};
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	s.protocol = rtm->rtm_protocol;
	s.scope = rtm->rtm_scope;
	s.rtype = rtm->rtm_type;
	mnl_attr_parse(nlh, sizeof(*rtm), seen_attr, &s);
	return s;
}

/* The delete names everything the kernel can match on (output device,
 * preferred source, protocol, scope, type, the algorithm it had), so it
 * can only take the bond's route; the add never replaces. */
static void rewrite_requests(void **state)
{
	(void)state;
	char req[NLSOCK_MSG_SIZE];
	struct obs_route was, want;

	assert_int_equal(route_parse(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, "cubic",
					       NULL), &was), 0);
	want = was;
	snprintf(want.cc_algo, sizeof(want.cc_algo), "bbr");

	struct seen d = look(route_cc_build_del(req, &was));
	assert_int_equal(d.type, RTM_DELROUTE);
	assert_int_equal(d.oif, 9);
	assert_true(d.prefsrc);
	assert_int_equal(d.protocol, RTPROT_KERNEL);
	assert_int_equal(d.scope, RT_SCOPE_LINK);
	assert_int_equal(d.rtype, RTN_UNICAST);
	assert_true(d.cc);
	assert_string_equal(d.cc_algo, "cubic");

	struct seen add = look(route_cc_build_add(req, &want, false));
	assert_int_equal(add.type, RTM_NEWROUTE);
	assert_false(add.flags & NLM_F_REPLACE);
	assert_false(add.flags & NLM_F_EXCL);
	assert_false(add.flags & NLM_F_APPEND);
	assert_true(add.flags & NLM_F_CREATE);
	assert_int_equal(add.oif, 9);
	assert_string_equal(add.cc_algo, "bbr");
	add = look(route_cc_build_add(req, &want, true));
	assert_true(add.flags & NLM_F_APPEND);
	assert_false(add.flags & NLM_F_REPLACE);
	/* the key removed: no algorithm in the new route */
	want.cc_algo[0] = '\0';
	add = look(route_cc_build_add(req, &want, true));
	assert_false(add.cc);
}

/* Where the bond's route is in its group, from a dump of every route: an
 * admin's route of the same key (a gateway, protocol boot) counts as much
 * as another NIC's connected route; other prefixes, tables and priorities
 * do not. */
static void order_from_dump(void **state)
{
	(void)state;
	struct obs_route bond;
	assert_int_equal(route_parse(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, NULL,
					       NULL), &bond), 0);
	struct route_cc_order o = {.was = &bond};

	/* another prefix, a /25 inside it, another table, another metric */
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.2.0.0", 24, 3, NULL, NULL), &o);
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 25, 3, NULL, NULL), &o);
	struct nlmsghdr *t = route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 3, NULL, NULL);
	((struct rtmsg *)mnl_nlmsg_get_payload(t))->rtm_table = 100;
	mnl_attr_put_u32(t, RTA_TABLE, 100); /* the last RTA_TABLE counts */
	route_cc_order_cb(t, &o);
	t = route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 3, NULL, NULL);
	mnl_attr_put_u32(t, RTA_PRIORITY, 100);
	route_cc_order_cb(t, &o);
	assert_false(o.group_seen);
	/* the bond's own first: first */
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, "bbr", NULL), &o);
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 3, NULL, NULL), &o);
	assert_true(o.group_seen);
	assert_true(o.was_first);

	/* an admin's route via a gateway on another NIC before it: not first */
	struct route_cc_order g = {.was = &bond};
	t = route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 5, NULL, "10.2.0.254");
	((struct rtmsg *)mnl_nlmsg_get_payload(t))->rtm_protocol = RTPROT_BOOT;
	route_cc_order_cb(t, &g);
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, NULL, NULL), &g);
	assert_true(g.group_seen);
	assert_false(g.was_first);

	/* a route on the bond itself that is not the connected one (protocol
	 * static) before it: not first either */
	struct route_cc_order h = {.was = &bond};
	t = route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, NULL, NULL);
	((struct rtmsg *)mnl_nlmsg_get_payload(t))->rtm_protocol = RTPROT_STATIC;
	route_cc_order_cb(t, &h);
	route_cc_order_cb(route_msg(RTM_NEWROUTE, AF_INET, "10.1.0.0", 24, 9, NULL, NULL), &h);
	assert_false(h.was_first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_connected_route),
		cmocka_unit_test(observed_list),
		cmocka_unit_test(group_order),
		cmocka_unit_test(order_from_dump),
		cmocka_unit_test(rewrite_requests),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
