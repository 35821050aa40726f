/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target for what the kernel sends bondd: a datagram of netlink
 * messages (RTM_NEWLINK/DELLINK with bond options and slave data,
 * RTM_NEWADDR), parsed as the observer parses them and merged into what
 * was known, plus the /proc slave-order text and udev records.  Seeded
 * with messages recorded from the 6.1 kernel (tests/unit/data/nl).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>

#include "kernel_caps.h"
#include "link_parse.h"
#include "nlsock.h"
#include "udev_wait.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_link(const struct obs_link *l)
{
	if (strnlen(l->name, IFNAMSIZ) == IFNAMSIZ || strnlen(l->kind, sizeof(l->kind)) ==
	    sizeof(l->kind))
		__builtin_trap();
	if (l->bond.n_arp_ip_target > BOND_MAX_TARGETS ||
	    l->bond.n_ns_ip6_target > BOND_MAX_TARGETS || l->n_order > BONDD_MAX_SLAVES)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Netlink messages are 4-byte aligned in the receive buffer. */
	uint32_t *buf = malloc(size + 4);
	struct obs_link prev, cur;
	struct obs_addr a;
	struct kernel_caps caps = {0};
	bool have_prev = false;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	const struct nlmsghdr *nlh = (const void *)buf;
	int left = (int)size;
	for (; nlsock_msg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		switch (nlh->nlmsg_type) {
		case RTM_NEWLINK:
		case RTM_DELLINK:
			(void)link_msg_is_device(nlh);
			if (link_parse(nlh, &cur) < 0)
				break;
			check_link(&cur);
			kernel_caps_learn(&caps, &cur.bond);
			if (have_prev) {
				cur.ifindex = prev.ifindex;
				observed_merge_link(&prev, &cur);
				check_link(&cur);
			}
			prev = cur;
			have_prev = true;
			break;
		case RTM_NEWADDR:
		case RTM_DELADDR:
			if (addr_parse(nlh, &a) == 0 && a.addr.family != AF_INET &&
			    a.addr.family != AF_INET6)
				__builtin_trap();
			break;
		}
	}

	/* The same bytes as text: /proc/net/bonding and udev records. */
	char *text = (char *)buf;
	memcpy(text, data, size);
	text[size] = '\0';
	char order[BONDD_MAX_SLAVES][IFNAMSIZ];
	int n = bond_order_parse(text, order, BONDD_MAX_SLAVES);
	if (n < 0 || n > BONDD_MAX_SLAVES)
		__builtin_trap();
	for (int i = 0; i < n; i++)
		if (strnlen(order[i], IFNAMSIZ) == IFNAMSIZ)
			__builtin_trap();
	(void)udev_record_initialized(text);
	free(buf);
	return 0;
}
