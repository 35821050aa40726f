/* SPDX-License-Identifier: MIT */
/*
 * The wire side without a kernel: messages the 6.1 kernel really sent
 * (recorded in the sandbox guest, tests/unit/data/nl/capture.sh) parse into
 * the values the bonds were made with, so a wrong attribute id or width
 * fails here; bond options encoded by bond_codec are parsed back; and
 * /proc/net/bonding text gives the slave order, whatever its size.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "bond_codec.h"
#include "kernel_caps.h"
#include "link_parse.h"
#include "nlsock.h"
#include "udev_wait.h"

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
	struct bond_settings in = {0}, out;
	int primary = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		if (d->type == OT_U8 || d->type == OT_U16 || d->type == OT_U32)
			bond_settings_set(&in, (enum bond_option_id)id, d->max > 300 ? 300 : d->max);
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
		assert_true(bond_settings_equal(&in, &out, (enum bond_option_id)id));
	}
	(void)primary;
}

static void codec_refuses_primary_without_ifindex(void **state)
{
	(void)state;
	struct bond_settings in = {0};
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
	struct rtnl_link_stats64 st = {.rx_packets = 10, .rx_errors = 7, .tx_errors = 6,
				       .rx_dropped = 5, .tx_dropped = 4, .rx_crc_errors = 3,
				       .rx_missed_errors = 2};
	mnl_attr_put(nlh, IFLA_STATS64, sizeof(st), &st);
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
	/* Errors and drops; rx_dropped counts the missed ones, as /proc/net/dev. */
	assert_int_equal(l.stats.rx_packets, 10);
	assert_int_equal(l.stats.rx_errors, 7);
	assert_int_equal(l.stats.tx_errors, 6);
	assert_int_equal(l.stats.rx_dropped, 5 + 2);
	assert_int_equal(l.stats.tx_dropped, 4);
	assert_int_equal(l.stats.rx_crc_errors, 3);
	assert_int_equal(l.stats.rx_missed_errors, 2);
	assert_true(l.stats.has_crc_missed);
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

/* What names a link whatever its name: altnames in IFLA_PROP_LIST, the
 * permanent address (zeros: none, as veth sends), the parent device as
 * udev's ID_PATH; dev_port is sysfs's, unknown (-1) here. */
static void identity_attributes_parse(void **state)
{
	(void)state;
	struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 4, 0, "vec1");
	struct nlattr *list = mnl_attr_nest_start(nlh, IFLA_PROP_LIST);
	mnl_attr_put_strz(nlh, IFLA_ALT_IFNAME, "enx02000000aa01");
	mnl_attr_put_strz(nlh, IFLA_ALT_IFNAME, "a-name-of-more-than-fifteen-bytes");
	mnl_attr_nest_end(nlh, list);
	mnl_attr_put(nlh, IFLA_PERM_ADDRESS, 6, "\x02\x00\x00\x00\xaa\x01");
	mnl_attr_put_strz(nlh, IFLA_PARENT_DEV_NAME, "uml-vector.1");
	mnl_attr_put_strz(nlh, IFLA_PARENT_DEV_BUS_NAME, "platform");
	struct obs_link l;
	assert_int_equal(link_parse(nlh, &l), 0);
	assert_int_equal(l.n_altnames, 2);
	assert_string_equal(l.altnames[0], "enx02000000aa01");
	assert_string_equal(l.altnames[1], "a-name-of-more-than-fifteen-bytes");
	assert_true(l.has_perm_addr);
	assert_memory_equal(l.perm_addr, "\x02\x00\x00\x00\xaa\x01", 6);
	assert_string_equal(l.id_path, "platform-uml-vector.1");
	assert_int_equal(l.dev_port, -1);

	nlh = new_link_msg(RTM_NEWLINK, 5, 0, "v0");
	mnl_attr_put(nlh, IFLA_PERM_ADDRESS, 6, "\0\0\0\0\0\0");
	mnl_attr_put_strz(nlh, IFLA_PARENT_DEV_NAME, "orphan"); /* no bus: no path */
	assert_int_equal(link_parse(nlh, &l), 0);
	assert_false(l.has_perm_addr);
	assert_int_equal(l.n_altnames, 0);
	assert_string_equal(l.id_path, "");
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

/* A kind without its NUL, last in the message (found by fuzz_link): it is
 * not a kind, and nothing is read past the message, which sits in a heap
 * block of its exact size so that ASan sees any over-read. */
static void unterminated_kind_is_ignored(void **state)
{
	(void)state;
	for (int slave = 0; slave < 2; slave++) {
		struct nlmsghdr *nlh = new_link_msg(RTM_NEWLINK, 9, 0, "eth2");
		struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put(nlh, slave ? IFLA_INFO_SLAVE_KIND : IFLA_INFO_KIND, 4, "bond");
		mnl_attr_nest_end(nlh, info);
		void *exact = malloc(nlh->nlmsg_len);
		assert_non_null(exact);
		memcpy(exact, nlh, nlh->nlmsg_len);

		struct obs_link l;
		assert_int_equal(link_parse(exact, &l), 0);
		assert_string_equal(l.name, "eth2");
		assert_string_equal(l.kind, "");
		assert_false(l.slave.valid);
		free(exact);
	}
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


/* ---- messages recorded from the kernel --------------------------------- */

static char kbuf[8192];

/* One recorded message (tests/unit/data/nl/NAME.bin). */
static const struct nlmsghdr *kernel_msg(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/nl/%s.bin", getenv("DATA_DIR") ? getenv("DATA_DIR") : ".",
		 name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t n = fread(kbuf, 1, sizeof(kbuf), f);
	fclose(f);
	const struct nlmsghdr *nlh = (const void *)kbuf;
	assert_true(n >= sizeof(*nlh));
	assert_int_equal(nlh->nlmsg_len, n);
	return nlh;
}

static void kernel_link(const char *name, struct obs_link *l)
{
	const struct nlmsghdr *nlh = kernel_msg(name);
	assert_int_equal(nlh->nlmsg_type, RTM_NEWLINK);
	assert_true(link_msg_is_device(nlh));
	assert_int_equal(link_parse(nlh, l), 0);
}

static void has(const struct obs_link *l, enum bond_option_id id, uint32_t v)
{
	if (!bond_settings_has(&l->bond, id))
		fail_msg("%s: %s not reported", l->name, bond_option_spec(id)->key);
	if (l->bond.val[id] != v)
		fail_msg("%s: %s is %u, not %u", l->name, bond_option_spec(id)->key, l->bond.val[id], v);
}

/* ip link add bond0 mtu 9000 type bond mode 802.3ad miimon 100 lacp_rate fast
 * ad_user_port_key 7 ad_actor_sys_prio 100 ad_actor_system 02:00:00:00:00:07
 * xmit_hash_policy layer3+4 min_links 1, as root. */
static void kernel_8023ad_bond(void **state)
{
	(void)state;
	struct obs_link l;

	kernel_link("link-0-bond0", &l);
	assert_string_equal(l.name, "bond0");
	assert_string_equal(l.kind, "bond");
	assert_int_equal(l.mtu, 9000);
	assert_true(l.flags & IFF_UP);
	has(&l, OPT_MODE, MODE_8023AD);
	has(&l, OPT_MIIMON, 100);
	has(&l, OPT_AD_LACP_RATE, 1);
	has(&l, OPT_AD_USER_PORT_KEY, 7);
	has(&l, OPT_AD_ACTOR_SYS_PRIO, 100);
	has(&l, OPT_XMIT_HASH_POLICY, 1);
	has(&l, OPT_MIN_LINKS, 1);
	has(&l, OPT_AD_SELECT, 0);
	has(&l, OPT_AD_LACP_ACTIVE, 1);
	has(&l, OPT_USE_CARRIER, 1);
	has(&l, OPT_MISSED_MAX, 2);
	has(&l, OPT_TLB_DYNAMIC_LB, 1);
	has(&l, OPT_RESEND_IGMP, 1);
	has(&l, OPT_LP_INTERVAL, 1);
	assert_true(bond_settings_has(&l.bond, OPT_AD_ACTOR_SYSTEM));
	assert_memory_equal(l.bond.ad_actor_system, "\x02\x00\x00\x00\x00\x07", 6);
	assert_int_equal(l.primary_ifindex, 0);

	/* Its slave e1: master, and the slave data of an 802.3ad port. */
	int bond0 = l.ifindex;
	kernel_link("link-0-e1", &l);
	assert_string_equal(l.kind, "veth");
	assert_int_equal(l.master, bond0);
	assert_int_equal(l.mtu, 9000);
	assert_true(l.slave.valid);
	assert_int_equal(l.slave.mii_status, MII_UP);
	assert_true(l.slave.ad_aggregator_id > 0);
	assert_true(l.slave.has_prio);
	assert_int_equal(l.bond.have, 0);
}

/* Messages of the newer kernels (tests/unit/data/capture-kernel.sh): an
 * 802.3ad bond0 over v0 and v1 with a partner, coupled_control set off,
 * broadcast_neighbor on and v1's actor_port_prio 200, each where the
 * kernel took it. */
static void kernel_newer_bonds(void **state)
{
	(void)state;
	struct obs_link l;

	kernel_link("../kernel-7.2.7/nl/link-0-bond0", &l);
	has(&l, OPT_MODE, MODE_8023AD);
	has(&l, OPT_COUPLED_CONTROL, 0);
	has(&l, OPT_BROADCAST_NEIGH, 1);
	has(&l, OPT_LACP_STRICT, 0);
	kernel_link("../kernel-7.2.7/nl/link-0-v1", &l);
	assert_true(l.slave.valid);
	assert_true(l.slave.has_actor_port_prio);
	assert_int_equal(l.slave.actor_port_prio, 200);
	assert_true(l.slave.has_churn);
	assert_string_equal(ad_churn_name(l.slave.ad_churn_actor_state), "monitoring");
	assert_string_equal(ad_churn_name(l.slave.ad_churn_partner_state), "monitoring");
	kernel_link("../kernel-7.2.7/nl/link-0-v0", &l);
	assert_int_equal(l.slave.actor_port_prio, 255); /* the kernel's default */

	kernel_link("../kernel-6.12.113/nl/link-0-bond0", &l);
	has(&l, OPT_COUPLED_CONTROL, 0);
	assert_false(bond_settings_has(&l.bond, OPT_BROADCAST_NEIGH));
	assert_false(bond_settings_has(&l.bond, OPT_LACP_STRICT));
	/* Debian's 6.12.113 has the slave attributes from stable (the churn
	 * states as a fix, actor_port_prio with them), not broadcast_neighbor. */
	kernel_link("../kernel-6.12.113/nl/link-0-v1", &l);
	assert_true(l.slave.valid && l.slave.has_ad_state);
	assert_true(l.slave.has_actor_port_prio);
	assert_int_equal(l.slave.actor_port_prio, 200);
	assert_true(l.slave.has_churn);

	/* So has Debian 12's 6.1.176: coupled_control (mainline 6.9) too. */
	kernel_link("../kernel-6.1.176/nl/link-0-bond0", &l);
	has(&l, OPT_COUPLED_CONTROL, 0);
	assert_false(bond_settings_has(&l.bond, OPT_BROADCAST_NEIGH));
	kernel_link("../kernel-6.1.176/nl/link-0-v1", &l);
	assert_true(l.slave.valid && l.slave.has_ad_state);
	assert_true(l.slave.has_actor_port_prio);
	assert_int_equal(l.slave.actor_port_prio, 200);
	assert_true(l.slave.has_churn);
	assert_null(ad_churn_name(7));
}

/* The same bond as a process in its own user namespace sees it. */
static void kernel_8023ad_bond_unprivileged(void **state)
{
	(void)state;
	struct obs_link root, user;
	const uint64_t hidden = OPT_BIT(OPT_AD_USER_PORT_KEY) | OPT_BIT(OPT_AD_ACTOR_SYS_PRIO) |
				OPT_BIT(OPT_AD_ACTOR_SYSTEM);

	kernel_link("link-0-bond0", &root);
	kernel_link("unpriv-link-0-bond0", &user);
	assert_int_equal(user.ifindex, root.ifindex);
	assert_int_equal(user.bond.have & hidden, 0);
	assert_int_equal(user.bond.have | hidden, root.bond.have);
	has(&user, OPT_AD_LACP_RATE, 1);

	/* Absent is unknown: what was known stays. */
	observed_merge_link(&root, &user);
	assert_int_equal(user.bond.have, root.bond.have);
	for (int id = 0; id < OPT__COUNT; id++)
		if (bond_settings_has(&root.bond, (enum bond_option_id)id))
			assert_true(bond_settings_equal(&root.bond, &user.bond, (enum bond_option_id)id));

	/* Learned: this kernel does not tell this caller the three options. */
	struct kernel_caps caps = {0};
	struct desired_bond want = {.name = "bond0"};
	bond_settings_set(&want.opts, OPT_MODE, MODE_8023AD);
	bond_settings_set(&want.opts, OPT_AD_USER_PORT_KEY, 7);
	bond_settings_set(&want.opts, OPT_MIIMON, 100);
	kernel_link("unpriv-link-0-bond0", &user);
	kernel_caps_learn(&caps, &user.bond);
	char names[128];
	assert_string_equal(kernel_caps_names(kernel_caps_unreported(&caps, &want), names,
					      sizeof(names)), "ad_user_port_key");
	kernel_caps_learn(&caps, &root.bond);
	assert_int_equal(kernel_caps_unreported(&caps, &want), 0);
}

/* ip link add bond1 type bond mode active-backup miimon 200 updelay 400
 * downdelay 200 primary_reselect better fail_over_mac active num_grat_arp 3;
 * slaves e3 e4, primary e4 (queue_id 2 on e4). */
static void kernel_active_backup_bond(void **state)
{
	(void)state;
	struct obs_link l, e4;

	kernel_link("link-0-bond1", &l);
	kernel_link("link-0-e4", &e4);
	has(&l, OPT_MODE, MODE_ACTIVE_BACKUP);
	has(&l, OPT_MIIMON, 200);
	has(&l, OPT_UPDELAY, 400);
	has(&l, OPT_DOWNDELAY, 200);
	has(&l, OPT_PRIMARY_RESELECT, 1);
	has(&l, OPT_FAIL_OVER_MAC, 1);
	has(&l, OPT_NUM_PEER_NOTIF, 3);
	assert_int_equal(l.primary_ifindex, e4.ifindex);
	assert_int_equal(e4.master, l.ifindex);
	assert_int_equal(e4.slave.queue_id, 2);
}

/* ip link add bond2 type bond mode balance-xor arp_interval 100
 * arp_ip_target 192.0.2.1,192.0.2.2 arp_all_targets all arp_missed_max 5 */
static void kernel_arp_bond(void **state)
{
	(void)state;
	struct obs_link l;

	kernel_link("link-0-bond2", &l);
	has(&l, OPT_MODE, MODE_BALANCE_XOR);
	has(&l, OPT_ARP_INTERVAL, 100);
	has(&l, OPT_ARP_ALL_TARGETS, 1);
	has(&l, OPT_MISSED_MAX, 5);
	has(&l, OPT_MIIMON, 0);
	assert_int_equal(l.bond.n_arp_ip_target, 2);
	assert_memory_equal(&l.bond.arp_ip_target[0], "\xc0\x00\x02\x01", 4);
	assert_memory_equal(&l.bond.arp_ip_target[1], "\xc0\x00\x02\x02", 4);
}

/* bond3 (balance-rr, packets_per_slave 3, resend_igmp 2) in bridge br0: the
 * bridge's AF_BRIDGE message about its port is not the device. */
static void kernel_bridge_port(void **state)
{
	(void)state;
	struct obs_link l, br;

	kernel_link("link-0-bond3", &l);
	kernel_link("link-0-br0", &br);
	has(&l, OPT_PACKETS_PER_SLAVE, 3);
	has(&l, OPT_RESEND_IGMP, 2);
	assert_string_equal(br.kind, "bridge");
	assert_int_equal(l.master, br.ifindex);

	const struct nlmsghdr *nlh = kernel_msg("link-7-bond3");
	assert_int_equal(((const struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_family,
			 AF_BRIDGE);
	assert_false(link_msg_is_device(nlh));
}

static void kernel_addresses(void **state)
{
	(void)state;
	struct obs_link bond0, lo;
	struct obs_addr a;

	kernel_link("link-0-bond0", &bond0);
	kernel_link("link-0-lo", &lo);
	assert_int_equal(lo.flags & IFF_LOOPBACK, IFF_LOOPBACK);
	assert_int_equal(addr_parse(kernel_msg("addr-2-10-0"), &a), 0);
	assert_int_equal(a.ifindex, bond0.ifindex);
	assert_int_equal(a.addr.family, AF_INET);
	assert_int_equal(a.addr.prefixlen, 24);
	assert_memory_equal(a.addr.addr, "\x0a\x4d\x00\x01", 4);
	/* 2001:db8::1/64, and bond0's link-local address. */
	bool global = false, local = false;
	for (int i = 1; i <= 2; i++) {
		char name[32];
		snprintf(name, sizeof(name), "addr-10-10-%d", i);
		assert_int_equal(addr_parse(kernel_msg(name), &a), 0);
		assert_int_equal(a.ifindex, bond0.ifindex);
		assert_int_equal(a.addr.family, AF_INET6);
		assert_int_equal(a.addr.prefixlen, 64);
		global |= !memcmp(a.addr.addr, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		local |= !memcmp(a.addr.addr, "\xfe\x80", 2);
	}
	assert_true(global && local);
}

/* root's 802.3ad text is about 640 bytes a slave: 32 slaves need more than
 * any fixed buffer bondd once had. */
static void order_read_whole(void **state)
{
	(void)state;
	char dir[] = "/tmp/bondd-order-XXXXXX", path[64], order[BONDD_MAX_SLAVES][IFNAMSIZ];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bond0", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n\n");
	for (int i = 1; i <= 32; i++) {
		fprintf(f, "Slave Interface: d%d\nMII Status: up\n", i);
		for (int k = 0; k < 12; k++)
			fprintf(f, "    details actor lacp pdu: system priority 65535 padding %02d\n", k);
		fprintf(f, "\n");
	}
	assert_true(ftell(f) > 24 * 1024);
	fclose(f);
	assert_int_equal(bond_order_read(dir, "bond0", order, BONDD_MAX_SLAVES), 32);
	assert_string_equal(order[31], "d32");
	unlink(path);
	rmdir(dir);
}

/* libmnl 1.0's mnl_nlmsg_ok reads a length of 2 GiB or more as negative
 * and lets the walk jump out of the buffer (found by fuzz_link). */
static void message_walk_bounds(void **state)
{
	(void)state;
	struct nlmsghdr h[4] = {{.nlmsg_len = sizeof(struct nlmsghdr)}};

	assert_true(nlsock_msg_ok(&h[0], sizeof(h)));
	h[0].nlmsg_len = 0x80000000u;
	assert_false(nlsock_msg_ok(&h[0], sizeof(h)));
	h[0].nlmsg_len = sizeof(h) + 1;
	assert_false(nlsock_msg_ok(&h[0], sizeof(h)));
	h[0].nlmsg_len = 4;
	assert_false(nlsock_msg_ok(&h[0], sizeof(h)));
	h[0].nlmsg_len = sizeof(struct nlmsghdr);
	assert_false(nlsock_msg_ok(&h[0], 8));
	assert_false(nlsock_msg_ok(&h[0], -4));
}

/* The wait itself, against a udev directory of the test's own. */
static void udev_wait_rules(void **state)
{
	(void)state;
	char dir[] = "/tmp/bondd-udev-XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	struct desired_bond b = {.name = "bond0", .n_slaves = 1};
	snprintf(b.slaves[0].name, IFNAMSIZ, "e1");
	struct desired want = {.bonds = &b, .n_bonds = 1};
	struct observed obs = {0};
	struct obs_link e1 = {.ifindex = 5, .name = "e1"};
	assert_int_equal(observed_put_link(&obs, &e1), 0);
	struct udev_wait u;
	struct plan_constraints none = {0}, h;

	/* No udev: nothing waits. */
	udev_wait_init(&u, dir);
	h = udev_wait_holds(&u, &want, &obs, &none, 1000);
	assert_int_equal(h.n, 0);
	assert_int_equal(udev_wait_next_ms(&u, 1000), 0);
	udev_wait_free(&u);

	/* udev runs: held until its record says initialized. */
	snprintf(path, sizeof(path), "%s/control", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/data", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	udev_wait_init(&u, dir);
	h = udev_wait_holds(&u, &want, &obs, &none, 1000);
	assert_int_equal(h.n, 1);
	assert_string_equal(h.keys[0], "link e1");
	assert_int_equal(udev_wait_next_ms(&u, 1000), 1000 + UDEV_POLL_MS);
	snprintf(path, sizeof(path), "%s/data/n5", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("E:ID_NET_DRIVER=veth\n", f); /* not yet initialized */
	fclose(f);
	assert_int_equal(udev_wait_holds(&u, &want, &obs, &none, 1300).n, 1);
	f = fopen(path, "w");
	fputs("I:1700000000\nE:ID_NET_DRIVER=veth\n", f);
	fclose(f);
	assert_int_equal(udev_wait_holds(&u, &want, &obs, &none, 1320).n, 0);
	assert_int_equal(udev_wait_next_ms(&u, 1320), 0);

	/* A new device under the name waits again, but not forever. */
	obs.links[0].ifindex = 6;
	assert_int_equal(udev_wait_holds(&u, &want, &obs, &none, 2000).n, 1);
	assert_int_equal(udev_wait_holds(&u, &want, &obs, &none, 2000 + UDEV_WAIT_MS - 1).n, 1);
	assert_int_equal(udev_wait_holds(&u, &want, &obs, &none, 2000 + UDEV_WAIT_MS).n, 0);
	udev_wait_free(&u);
	observed_free(&obs);
	unlink(path);
	snprintf(path, sizeof(path), "%s/data", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/control", dir);
	unlink(path);
	rmdir(dir);
}

static void udev_records(void **state)
{
	(void)state;
	/* As systemd's sd-device writes it (device_update_db). */
	assert_true(udev_record_initialized("I:1700000000123456\nE:ID_NET_DRIVER=veth\n"));
	assert_true(udev_record_initialized("E:ID_NET_NAME=x\nI:5\n"));
	assert_false(udev_record_initialized("E:INTERFACE=eth0\nE:X=I:1\n"));
	assert_false(udev_record_initialized(""));
	assert_false(udev_record_initialized("XI:1\n"));
}

/* The bond's state attributes: active slave and the 802.3ad aggregator,
 * each kept only when long enough. */
static void bond_info_parses(void **state)
{
	(void)state;
	char msg[512] __attribute__((aligned(4))) = {0};
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(msg);
	struct nlattr *data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, 4); /* an option: not info */
	mnl_attr_put_u32(nlh, IFLA_BOND_ACTIVE_SLAVE, 7);
	struct nlattr *ad = mnl_attr_nest_start(nlh, IFLA_BOND_AD_INFO);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_AGGREGATOR, 3);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_NUM_PORTS, 2);
	mnl_attr_put(nlh, IFLA_BOND_AD_INFO_PARTNER_MAC, 6, "\x02\x01\x02\x03\x04\x05");
	mnl_attr_nest_end(nlh, ad);
	mnl_attr_nest_end(nlh, data);

	struct obs_bond_info info;
	assert_int_equal(bond_codec_parse_info(data, &info), 0);
	assert_int_equal(info.active_slave_ifindex, 7);
	assert_true(info.has_ad_info);
	assert_int_equal(info.ad_aggregator, 3);
	assert_int_equal(info.ad_num_ports, 2);
	assert_memory_equal(info.ad_partner_mac, "\x02\x01\x02\x03\x04\x05", 6);

	/* Too short: passed over, the rest still read. */
	memset(msg, 0, sizeof(msg));
	nlh = mnl_nlmsg_put_header(msg);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u16(nlh, IFLA_BOND_ACTIVE_SLAVE, 7);
	ad = mnl_attr_nest_start(nlh, IFLA_BOND_AD_INFO);
	mnl_attr_put_u8(nlh, IFLA_BOND_AD_INFO_AGGREGATOR, 3);
	mnl_attr_put_u16(nlh, IFLA_BOND_AD_INFO_NUM_PORTS, 2);
	mnl_attr_put(nlh, IFLA_BOND_AD_INFO_PARTNER_MAC, 4, "\x02\x01\x02\x03");
	mnl_attr_nest_end(nlh, ad);
	mnl_attr_nest_end(nlh, data);
	assert_int_equal(bond_codec_parse_info(data, &info), 0);
	assert_int_equal(info.active_slave_ifindex, 0);
	assert_true(info.has_ad_info);
	assert_int_equal(info.ad_aggregator, 0);
	assert_int_equal(info.ad_num_ports, 2);
	assert_memory_equal(info.ad_partner_mac, "\0\0\0\0\0\0", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(codec_round_trip_every_option),
		cmocka_unit_test(codec_refuses_primary_without_ifindex),
		cmocka_unit_test(slave_link_parses),
		cmocka_unit_test(identity_attributes_parse),
		cmocka_unit_test(bond_info_parses),
		cmocka_unit_test(truncated_messages_are_refused),
		cmocka_unit_test(unterminated_kind_is_ignored),
		cmocka_unit_test(addresses_parse),
		cmocka_unit_test(order_from_proc_text),
		cmocka_unit_test(kernel_8023ad_bond),
		cmocka_unit_test(kernel_newer_bonds),
		cmocka_unit_test(kernel_8023ad_bond_unprivileged),
		cmocka_unit_test(kernel_active_backup_bond),
		cmocka_unit_test(kernel_arp_bond),
		cmocka_unit_test(kernel_bridge_port),
		cmocka_unit_test(kernel_addresses),
		cmocka_unit_test(order_read_whole),
		cmocka_unit_test(message_walk_bounds),
		cmocka_unit_test(udev_records),
		cmocka_unit_test(udev_wait_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
