/* SPDX-License-Identifier: MIT */
/*
 * nl-capture: records netlink messages exactly as the kernel sends them,
 * for the parsers' unit tests and fuzz corpus (tests/unit/data/nl).
 *
 *   nl-capture DIR link FAMILY   every RTM_NEWLINK of a dump of FAMILY
 *                                (0 AF_UNSPEC, 7 AF_BRIDGE) -> DIR/link-F-NAME.bin
 *   nl-capture DIR addr          every RTM_NEWADDR (IPv4, IPv6) -> DIR/addr-F-IFINDEX-N.bin
 *
 * Each file holds one message, header included, byte for byte.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

static const char *dir;
static unsigned n_saved;

static void save(const char *name, const struct nlmsghdr *nlh)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(nlh, 1, nlh->nlmsg_len, f) != nlh->nlmsg_len || fclose(f)) {
		perror(path);
		exit(1);
	}
	n_saved++;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a;
	char name[64];
	(void)data;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		if (mnl_attr_get_type(a) == IFLA_IFNAME) {
			snprintf(name, sizeof(name), "link-%u-%s", ifi->ifi_family,
				 mnl_attr_get_str(a));
			save(name, nlh);
		}
	}
	return MNL_CB_OK;
}

static int addr_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifaddrmsg *ifa = mnl_nlmsg_get_payload(nlh);
	unsigned *n = data;
	char name[64];
	snprintf(name, sizeof(name), "addr-%u-%u-%u", ifa->ifa_family, ifa->ifa_index, (*n)++);
	save(name, nlh);
	return MNL_CB_OK;
}

static int dump(struct mnl_socket *nl, uint16_t type, unsigned char family, mnl_cb_t cb,
		void *data)
{
	static char buf[1 << 16];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	uint32_t seq = (uint32_t)time(NULL) + n_saved;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	if (type == RTM_GETLINK) {
		struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
		ifi->ifi_family = family;
	} else {
		struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
		ifa->ifa_family = family;
	}
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -1;
		int ret = mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), cb, data);
		if (ret <= MNL_CB_STOP)
			return ret;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: nl-capture DIR link FAMILY | DIR addr\n");
		return 2;
	}
	dir = argv[1];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	int ret;
	if (!strcmp(argv[2], "link") && argc == 4) {
		ret = dump(nl, RTM_GETLINK, (unsigned char)atoi(argv[3]), link_cb, NULL);
	} else if (!strcmp(argv[2], "addr")) {
		unsigned n = 0;
		ret = dump(nl, RTM_GETADDR, AF_INET, addr_cb, &n);
		if (ret >= 0)
			ret = dump(nl, RTM_GETADDR, AF_INET6, addr_cb, &n);
	} else {
		fprintf(stderr, "nl-capture: unknown request\n");
		return 2;
	}
	mnl_socket_close(nl);
	if (ret < 0) {
		perror("dump");
		return 1;
	}
	fprintf(stderr, "nl-capture: %u messages\n", n_saved);
	return 0;
}
