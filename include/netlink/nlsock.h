/* SPDX-License-Identifier: MIT */
/* A netlink socket over libmnl (rtnetlink, or generic netlink):
 * requests with ACK, dumps, events. */
#ifndef BONDD_NLSOCK_H
#define BONDD_NLSOCK_H

#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct breather;

struct nlsock {
	struct mnl_socket *sk;
	unsigned portid;
	uint32_t seq;
	char *buf;          /* one receive buffer, NLSOCK_BUF_SIZE bytes */
	unsigned groups[8]; /* what it was opened with, to open it again */
	int rcvbuf;
	int protocol;       /* NETLINK_ROUTE, or NETLINK_GENERIC */
	/* A receive failed half-way through an answer: what is still queued
	 * belongs to an old request.  The next request opens a fresh socket
	 * rather than read that. */
	bool out_of_step;
	unsigned long reopened;   /* fresh sockets opened for that reason */
	unsigned long foreign;    /* messages skipped: not the kernel's answer to us */
	unsigned long truncated;  /* datagrams cut by the receive buffer (MSG_TRUNC) */
	/* When set, checked after every datagram of an answer: the kernel
	 * fills a dump inside our recvmsg (net/netlink/af_netlink.c
	 * netlink_recvmsg -> netlink_dump), so a dump of a big table is CPU
	 * time with no sleep, which a real-time bondd must break up
	 * (breather.h). */
	struct breather *breather;
};

#define NLSOCK_BUF_SIZE (64 * 1024)
/* Room for one request: a bond with every option and 16 IPv6 targets
 * takes well under 1 KiB.  Every attribute write is checked against it
 * (mnl_attr_put_check), so a bigger request fails with -EMSGSIZE instead
 * of writing past the buffer.  (MNL_SOCKET_BUFFER_SIZE is not a constant.) */
#define NLSOCK_MSG_SIZE 8192

/* Opens a NETLINK_ROUTE socket, subscribed to `groups` (RTNLGRP_* numbers,
 * zero-terminated list of at most 3, or NULL) and with extended ACKs on.
 * rcvbuf > 0 sets SO_RCVBUF (the sandbox uses a tiny one to force ENOBUFS). */
int nlsock_open(struct nlsock *nl, const unsigned *groups, int rcvbuf);
/* The same for generic netlink (NETLINK_GENERIC), with no groups: a
 * family's requests by its id (ethtool_link.c). */
int nlsock_open_generic(struct nlsock *nl);
void nlsock_close(struct nlsock *nl);

/*
 * Sends one request (NLM_F_REQUEST|NLM_F_ACK are added, seq assigned) and
 * waits for its ACK.  Returns 0 or -errno; on error, errmsg gets the
 * kernel's words: strerror, then its extended ACK message when it sent one
 * ("Invalid argument: option peer_notif_delay: ...").
 */
int nlsock_request(struct nlsock *nl, struct nlmsghdr *nlh, char *errmsg, size_t errlen);

/* Copies string attribute a into out (len bytes, cut to fit) when it is a
 * NUL-terminated string (MNL_TYPE_NUL_STRING: libmnl's STRING check does
 * not look for the terminator); false, out untouched, when not. */
bool nlsock_attr_str(const struct nlattr *a, char *out, size_t len);
/* Attribute a's value into *out when it is a u32; false, *out untouched,
 * when its length is not 4. */
bool nlsock_attr_u32(const struct nlattr *a, uint32_t *out);
/* NLMSGERR_ATTR_MSG of the NLMSG_ERROR message nlh into out ("" if none). */
void nlsock_extack_message(const struct nlmsghdr *nlh, char *out, size_t len);
/* "strerror(err): extack", or strerror(err) alone when extack is empty. */
void nlsock_error_text(int err, const char *extack, char *out, size_t len);


/* A request whose answer is data (a GETLINK for one link): cb sees every
 * message of the answer, then the ACK ends it.  0 or -errno. */
int nlsock_get(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/*
 * Dumps (NLM_F_DUMP) and calls cb for every message of the answer, and only
 * for those: messages with another sequence number or port are skipped,
 * every datagram is checked for truncation, and the answer is read to its
 * NLMSG_DONE even after an error, so the socket stays in step.  Returns 0,
 * -EINTR when the kernel flagged the dump NLM_F_DUMP_INTR (links changed
 * while it was taken: what cb saw may be inconsistent; dump again),
 * -EMSGSIZE when a datagram was truncated, or another -errno.
 */
int nlsock_dump(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

/*
 * True when a whole message starts at nlh within `left` bytes.  Unlike
 * libmnl 1.0's mnl_nlmsg_ok, which compares (int)nlmsg_len, a length of
 * 2 GiB or more is refused instead of read as negative (found by
 * tests/fuzz/fuzz_link.c).  Step on with mnl_nlmsg_next.
 */
bool nlsock_msg_ok(const struct nlmsghdr *nlh, int left);

/*
 * One datagram from the socket, without blocking when dontwait: its length,
 * or -errno; -EMSGSIZE when the datagram did not fit (MSG_TRUNC) and was
 * cut.  *from_kernel says whether the kernel sent it (port 0).
 */
ssize_t nlsock_recv(struct nlsock *nl, bool dontwait, bool *from_kernel);

#endif
