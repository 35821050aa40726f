/* SPDX-License-Identifier: MIT */
/*
 * bondkill: a sandbox test helper, not part of bondd.
 *
 *   bondkill BOND COUNT [TIMEOUT_SECONDS]
 *
 * Deletes BOND over raw rtnetlink COUNT times: each time it exists (it
 * watches the kernel's link events for it to come back), at once.  A
 * manager that repairs the bond fights it COUNT times.  Prints
 * "deleted BOND COUNT times in X ms; last at EPOCH" (EPOCH: wall clock in
 * seconds, as bash's $EPOCHREALTIME) and exits 0, or exits 1 when the bond
 * did not come back within TIMEOUT_SECONDS (default 30) of a deletion.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

static double mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Deletes ifindex; returns 0 or a positive errno (ENODEV: already gone). */
static int del_link(struct mnl_socket *nl, unsigned ifindex, unsigned seq)
{
	char buf[8192];
	memset(buf, 0, sizeof(buf));
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_DELLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = (int)ifindex;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return errno;
	ssize_t n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		return errno;
	if (mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), NULL, NULL) < 0)
		return errno;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: bondkill BOND COUNT [TIMEOUT_SECONDS]\n");
		return 2;
	}
	const char *bond = argv[1];
	int count = atoi(argv[2]);
	double timeout_ms = (argc > 3 ? atof(argv[3]) : 30) * 1e3;
	struct mnl_socket *req = mnl_socket_open(NETLINK_ROUTE);
	struct mnl_socket *ev = mnl_socket_open(NETLINK_ROUTE);
	if (!req || !ev || mnl_socket_bind(req, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_bind(ev, RTMGRP_LINK, MNL_SOCKET_AUTOPID) < 0) {
		perror("bondkill: netlink socket");
		return 1;
	}
	static char evbuf[65536];
	struct pollfd pfd = {.fd = mnl_socket_get_fd(ev), .events = POLLIN};
	double start = mono_ms(), since = start;
	struct timespec last = {0};
	unsigned seq = (unsigned)time(NULL);

	for (int done = 0; done < count;) {
		unsigned idx = if_nametoindex(bond);
		if (!idx) {
			if (mono_ms() - since > timeout_ms) {
				fprintf(stderr, "bondkill: %s did not come back within %.0f s of "
						"deletion %d\n", bond, timeout_ms / 1e3, done);
				return 1;
			}
			/* Any link event (or 20 ms) is a reason to look again; an
			 * overflowed event socket too. */
			if (poll(&pfd, 1, 20) > 0)
				(void)!recv(pfd.fd, evbuf, sizeof(evbuf), MSG_DONTWAIT);
			continue;
		}
		int err = del_link(req, idx, ++seq);
		if (err == ENODEV)
			continue;
		if (err) {
			fprintf(stderr, "bondkill: deleting %s: %s\n", bond, strerror(err));
			return 1;
		}
		clock_gettime(CLOCK_REALTIME, &last);
		since = mono_ms();
		done++;
	}
	printf("deleted %s %d times in %.0f ms; last at %lld.%06ld\n", bond, count,
	       mono_ms() - start, (long long)last.tv_sec, last.tv_nsec / 1000);
	return 0;
}
