/* SPDX-License-Identifier: MIT */
/*
 * The wire side without a kernel: bond options encoded by bond_codec are
 * parsed back, RTM_NEWLINK/RTM_NEWADDR messages built the way the kernel
 * builds them parse into the observed model, and /proc/net/bonding text
 * gives the slave order.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "bond_codec.h"
#include "link_parse.h"

static char buf[8192];

static struct nlmsghdr *new_link_msg(uint16_t type, int ifindex, unsigned flags,
				     const char *name)
{
	memset(buf, 0, sizeof(buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = ifindex;
	ifi->ifi_flags = flags;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static void codec_round_trip_every_option(void **state)
{
	(void)state;
	struct bond_opts in = {0}, out;
	int primary = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		if (d->type == OT_U8 || d->type == OT_U16 || d->type == OT_U32)
			bond_opts_set(&in, (enum bond_opt)id, d->max > 300 ? 300 : d->max);
	}
	in.have |= OPT_BIT(OPT_ARP_IP_TARGET) | OPT_BIT(OPT_NS_IP6_TARGET) |
		   OPT_BIT(OPT_AD_ACTOR_SYSTEM) | OPT_BIT(OPT_PRIMARY);
	in.n_arp_ip_target = 2;
	inet_pton(AF_INET, "192.0.2.1", &in.arp_ip_target[0]);
	inet_pton(AF_INET, "192.0.2.2", &in.arp_ip_target[1]);
	in.n_ns_ip6_target = 1;
	inet_pton(AF_INET6, "2001:db8::1", &in.ns_ip6_target[0]);
	memcpy(in.ad_actor_system, "\x02\x11\x22\x33\x44\x55", 6);

	struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 7, 0, "bond0");
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	assert_int_equal(bond_codec_put_opts(nlh, &in, in.have, 42), 0);
	mnl_attr_nest_end(nlh, info);

	struct obs_link l;
	assert_int_equal(link_parse(nlh, &l), 0);
	assert_string_equal(l.kind, "bond");
	assert_int_equal(l.primary_ifindex, 42);
	out = l.bond;
	for (int id = 0; id < OPT__COUNT; id++) {
		if (id == OPT_PRIMARY)
			continue; /* the observer resolves the ifindex to a name */
		assert_true(bond_opts_equal(&in, &out, (enum bond_opt)id));
	}
	(void)primary;
}

static void codec_refuses_primary_without_ifindex(void **state)
{
	(void)state;
	struct bond_opts in = {0};
	in.have = OPT_BIT(OPT_PRIMARY);
	struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 7, 0, "bond0");
	assert_int_equal(bond_codec_put_opts(nlh, &in, in.have, 0), -ENOENT);
}

static void slave_link_parses(void **state)
{
	(void)state;
	struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 9, IFF_UP | IFF_LOWER_UP, "eth2");
	mnl_attr_put_u32(nlh, IFLA_MTU, 9000);
	mnl_attr_put_u32(nlh, IFLA_MAX_MTU, 65535);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 7);
	mnl_attr_put(nlh, IFLA_ADDRESS, 6, "\x02\x00\x00\x00\x00\x09");
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	struct nlattr *sd = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_STATE, 1);
	mnl_attr_put_u8(nlh, IFLA_BOND_SLAVE_MII_STATUS, MII_DOWN);
	mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, 3);
	mnl_attr_put(nlh, IFLA_BOND_SLAVE_PERM_HWADDR, 6, "\x02\xaa\xbb\xcc\xdd\xee");
	mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_QUEUE_ID, 2);
	/* The kernel sends this one as u16 although it fits in u8. */
	mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE, 0x3d);
	mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_PRIO, (uint32_t)-5);
	mnl_attr_nest_end(nlh, sd);
	mnl_attr_nest_end(nlh, info);

	struct obs_link l;
	assert_int_equal(link_parse(nlh, &l), 0);
	assert_int_equal(l.ifindex, 9);
	assert_string_equal(l.name, "eth2");
	assert_string_equal(l.kind, "veth");
	assert_int_equal(l.mtu, 9000);
	assert_int_equal(l.max_mtu, 65535);
	assert_int_equal(l.master, 7);
	assert_true(l.flags & IFF_LOWER_UP);
	assert_memory_equal(l.hwaddr, "\x02\x00\x00\x00\x00\x09", 6);
	assert_true(l.slave.valid);
	assert_int_equal(l.slave.state, 1);
	assert_int_equal(l.slave.mii_status, MII_DOWN);
	assert_int_equal(l.slave.link_failure_count, 3);
	assert_memory_equal(l.slave.perm_hwaddr, "\x02\xaa\xbb\xcc\xdd\xee", 6);
	assert_int_equal(l.slave.queue_id, 2);
	assert_true(l.slave.has_prio);
	assert_int_equal(l.slave.prio, -5);
	assert_true(l.bond.have == 0); /* not a bond */
}

static void truncated_messages_are_refused(void **state)
{
	(void)state;
	struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 9, 0, "eth2");
	nlh->nlmsg_len = sizeof(*nlh) + 2; /* shorter than ifinfomsg */
	struct obs_link l;
	assert_int_equal(link_parse(nlh, &l), -EINVAL);

	/* No name: not a link bondd can do anything with. */
	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	mnl_nlmsg_put_extra_header(nlh, sizeof(struct ifinfomsg));
	assert_int_equal(link_parse(nlh, &l), -EINVAL);
}

static void addresses_parse(void **state)
{
	(void)state;
	struct obs_addr a;

	memset(buf, 0, sizeof(buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWADDR;
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = 24;
	ifa->ifa_index = 7;
	mnl_attr_put(nlh, IFA_ADDRESS, 4, "\x0a\x00\x00\x09"); /* the peer */
	mnl_attr_put(nlh, IFA_LOCAL, 4, "\xc0\xa8\x02\x0a");
	assert_int_equal(addr_parse(nlh, &a), 0);
	assert_int_equal(a.ifindex, 7);
	assert_int_equal(a.addr.family, AF_INET);
	assert_int_equal(a.addr.prefixlen, 24);
	assert_memory_equal(a.addr.addr, "\xc0\xa8\x02\x0a", 4);

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWADDR;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET6;
	ifa->ifa_prefixlen = 64;
	ifa->ifa_index = 7;
	struct in6_addr v6;
	inet_pton(AF_INET6, "2001:db8::10", &v6);
	mnl_attr_put(nlh, IFA_ADDRESS, 16, &v6);
	assert_int_equal(addr_parse(nlh, &a), 0);
	assert_int_equal(a.addr.family, AF_INET6);
	assert_memory_equal(a.addr.addr, &v6, 16);

	ifa->ifa_family = AF_PACKET;
	assert_int_equal(addr_parse(nlh, &a), -EINVAL);
}

static void order_from_proc_text(void **state)
{
	(void)state;
	static const char text[] =
		"Ethernet Channel Bonding Driver: v6.1.176\n\n"
		"Bonding Mode: load balancing (round-robin)\n"
		"MII Status: up\n\n"
		"Slave Interface: eth3\nMII Status: up\n\n"
		"Slave Interface: eth1\nMII Status: down\n\n"
		"Slave Interface: eth2\nMII Status: up\n";
	char order[4][IFNAMSIZ];

	assert_int_equal(bond_order_parse(text, order, 4), 3);
	assert_string_equal(order[0], "eth3");
	assert_string_equal(order[1], "eth1");
	assert_string_equal(order[2], "eth2");
	/* Capped at max, never overflowing. */
	assert_int_equal(bond_order_parse(text, order, 2), 2);
	assert_int_equal(bond_order_parse("no slaves here\n", order, 4), 0);
	/* A name longer than an ifname is skipped, not truncated. */
	assert_int_equal(bond_order_parse("Slave Interface: aaaaaaaaaaaaaaaaaaaa\n", order, 4), 0);
	assert_int_equal(bond_order_read("/nonexistent", "bond0", order, 4), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(codec_round_trip_every_option),
		cmocka_unit_test(codec_refuses_primary_without_ifindex),
		cmocka_unit_test(slave_link_parses),
		cmocka_unit_test(truncated_messages_are_refused),
		cmocka_unit_test(addresses_parse),
		cmocka_unit_test(order_from_proc_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
