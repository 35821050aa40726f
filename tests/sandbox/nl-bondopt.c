/* SPDX-License-Identifier: MIT */
/*
 * nl-bondopt: reads and sets bonding options over rtnetlink by attribute
 * number, independently of bondd's option table, for the options the host's
 * iproute2 (6.1) cannot name.  A test helper, not bondd.
 *
 *   nl-bondopt get DEV            every IFLA_BOND_* (a bond) or
 *                                 IFLA_BOND_SLAVE_* (a slave) attribute of
 *                                 DEV's RTM_GETLINK reply, one per line:
 *                                 "NAME VALUE" (scalars as numbers; others
 *                                 as "attr-N LEN bytes")
 *   nl-bondopt set DEV NAME VALUE sets one option (names below), then reads
 *                                 it back: exit 0 only when the kernel
 *                                 reports VALUE (a kernel too old for an
 *                                 attribute ignores it silently: drivers/net/
 *                                 bonding/bond_netlink.c parses IFLA_INFO_DATA
 *                                 with nla_parse_nested_deprecated), 3 when
 *                                 it does not report the option at all, 1 on
 *                                 an error.
 *
 * Numbers from include/uapi/linux/if_link.h (enum IFLA_BOND_*,
 * IFLA_BOND_SLAVE_*), written here on purpose rather than taken from the
 * build host's header, which is older than the kernels tested.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

struct attr_name {
	const char *name;
	int slave;   /* an IFLA_BOND_SLAVE_* attribute */
	int type;    /* its number */
	int width;   /* bytes of a scalar, 0 for other payloads */
};

static const struct attr_name names[] = {
	{"mode", 0, 1, 1},           {"miimon", 0, 3, 4},
	{"use_carrier", 0, 6, 1},    {"ad_select", 0, 22, 1},
	{"ad_actor_sys_prio", 0, 24, 2}, {"ad_user_port_key", 0, 25, 2},
	{"lacp_active", 0, 29, 1},   {"missed_max", 0, 30, 1},
	{"coupled_control", 0, 32, 1},  /* 6.9 */
	{"broadcast_neighbor", 0, 33, 1}, /* 6.17 */
	{"lacp_strict", 0, 34, 1},
	{"state", 1, 1, 1},          {"mii_status", 1, 2, 1},
	{"queue_id", 1, 5, 2},       {"ad_aggregator_id", 1, 6, 2},
	{"ad_actor_oper_port_state", 1, 7, 1}, {"ad_partner_oper_port_state", 1, 8, 2},
	{"prio", 1, 9, 4},
	{"actor_port_prio", 1, 10, 2},      /* 6.18 */
	{"ad_churn_actor_state", 1, 11, 1}, /* 7.x */
	{"ad_churn_partner_state", 1, 12, 1},
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

static const struct attr_name *by_number(int slave, int type)
{
	for (size_t i = 0; i < N_NAMES; i++)
		if (names[i].slave == slave && names[i].type == type)
			return &names[i];
	return NULL;
}

static const struct attr_name *by_name(const char *name)
{
	for (size_t i = 0; i < N_NAMES; i++)
		if (!strcmp(names[i].name, name))
			return &names[i];
	return NULL;
}

static char buf[1 << 16];

/* talk: sends nlh, runs cb on the answer; 0, or -errno. */
static int talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	uint32_t seq = (uint32_t)time(NULL);
	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		int ret = mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), cb, data);
		if (ret < 0)
			return -errno;
		/* An ACK ends a set; the one reply ends a (non-dump) get. */
		if (ret <= MNL_CB_STOP || cb)
			return 0;
	}
}

struct seen {
	const struct attr_name *want; /* get: NULL prints all; set: the one to find */
	long long value;
	int found;
};

static void walk_data(const struct nlattr *data, int slave, struct seen *s)
{
	const struct nlattr *a;
	mnl_attr_for_each_nested(a, data) {
		int type = mnl_attr_get_type(a);
		const struct attr_name *n = by_number(slave, type);
		uint16_t len = mnl_attr_get_payload_len(a);
		long long v = -1;
		if (n && n->width && len >= n->width) {
			if (n->width == 1)
				v = *(const uint8_t *)mnl_attr_get_payload(a);
			else if (n->width == 2)
				v = mnl_attr_get_u16(a);
			else
				v = (int32_t)mnl_attr_get_u32(a);
		}
		if (s->want) {
			if (n == s->want) {
				s->found = 1;
				s->value = v;
			}
		} else if (n && n->width) {
			printf("%s %lld\n", n->name, v);
		} else {
			printf("%sattr-%d %u bytes\n", slave ? "slave-" : "", type, len);
		}
	}
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *b;
	mnl_attr_for_each(a, nlh, sizeof(struct ifinfomsg)) {
		if (mnl_attr_get_type(a) != IFLA_LINKINFO)
			continue;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) == IFLA_INFO_DATA)
				walk_data(b, 0, data);
			else if (mnl_attr_get_type(b) == IFLA_INFO_SLAVE_DATA)
				walk_data(b, 1, data);
		}
	}
	return MNL_CB_OK;
}

static int get(struct mnl_socket *nl, unsigned ifindex, struct seen *s)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = (int)ifindex;
	return talk(nl, nlh, link_cb, s);
}

static int set(struct mnl_socket *nl, unsigned ifindex, const struct attr_name *n, long long v)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = (int)ifindex;
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, n->slave ? IFLA_INFO_SLAVE_KIND : IFLA_INFO_KIND, "bond");
	struct nlattr *data = mnl_attr_nest_start(nlh, n->slave ? IFLA_INFO_SLAVE_DATA : IFLA_INFO_DATA);
	if (n->width == 1)
		mnl_attr_put_u8(nlh, (uint16_t)n->type, (uint8_t)v);
	else if (n->width == 2)
		mnl_attr_put_u16(nlh, (uint16_t)n->type, (uint16_t)v);
	else
		mnl_attr_put_u32(nlh, (uint16_t)n->type, (uint32_t)v);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return talk(nl, nlh, NULL, NULL);
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[1], "get") && strcmp(argv[1], "set")) ||
	    (!strcmp(argv[1], "set") && argc != 5)) {
		fprintf(stderr, "usage: nl-bondopt get DEV | set DEV NAME VALUE\n");
		return 2;
	}
	unsigned ifindex = if_nametoindex(argv[2]);
	if (!ifindex) {
		fprintf(stderr, "nl-bondopt: %s: no such device\n", argv[2]);
		return 1;
	}
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	int ret = 0, rc = 0;
	struct seen s = {0};
	if (!strcmp(argv[1], "get")) {
		ret = get(nl, ifindex, &s);
	} else {
		const struct attr_name *n = by_name(argv[3]);
		if (!n || !n->width) {
			fprintf(stderr, "nl-bondopt: unknown option %s\n", argv[3]);
			return 2;
		}
		long long v = strtoll(argv[4], NULL, 0);
		ret = set(nl, ifindex, n, v);
		if (ret == 0) {
			s.want = n;
			ret = get(nl, ifindex, &s);
		}
		if (ret == 0 && !s.found) {
			fprintf(stderr, "nl-bondopt: this kernel does not report %s\n", n->name);
			rc = 3;
		} else if (ret == 0 && s.value != v) {
			fprintf(stderr, "nl-bondopt: %s is %lld after setting %lld\n", n->name, s.value, v);
			rc = 1;
		}
	}
	mnl_socket_close(nl);
	if (ret < 0) {
		fprintf(stderr, "nl-bondopt: %s: %s\n", argv[1], strerror(-ret));
		return 1;
	}
	return rc;
}
