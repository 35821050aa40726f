/* SPDX-License-Identifier: MIT */
/* A rtnetlink socket over libmnl: requests with ACK, dumps, events. */
#ifndef BONDD_NLSOCK_H
#define BONDD_NLSOCK_H

#include <libmnl/libmnl.h>
#include <stddef.h>
#include <stdint.h>

struct nlsock {
	struct mnl_socket *sk;
	unsigned portid;
	uint32_t seq;
	char *buf;          /* one receive buffer, NLSOCK_BUF_SIZE bytes */
};

#define NLSOCK_BUF_SIZE (64 * 1024)
/* Room for one request: a bond with every option and 16 IPv6 targets
 * takes well under 1 KiB.  (MNL_SOCKET_BUFFER_SIZE is not a constant.) */
#define NLSOCK_MSG_SIZE 8192

/* Opens a NETLINK_ROUTE socket, subscribed to `groups` (RTNLGRP_* numbers,
 * zero-terminated list, or NULL) and with extended ACKs on.  rcvbuf > 0
 * sets SO_RCVBUF (the sandbox uses a tiny one to force ENOBUFS). */
int nlsock_open(struct nlsock *nl, const unsigned *groups, int rcvbuf);
void nlsock_close(struct nlsock *nl);

/*
 * Sends one request (NLM_F_REQUEST|NLM_F_ACK are added, seq assigned) and
 * waits for its ACK.  Returns 0 or -errno; on error, errmsg gets the
 * kernel's words: strerror, then its extended ACK message when it sent one
 * ("Invalid argument: option peer_notif_delay: ...").
 */
int nlsock_request(struct nlsock *nl, struct nlmsghdr *nlh, char *errmsg, size_t errlen);

/* NLMSGERR_ATTR_MSG of the NLMSG_ERROR message nlh into out ("" if none). */
void nlsock_extack_message(const struct nlmsghdr *nlh, char *out, size_t len);
/* "strerror(err): extack", or strerror(err) alone when extack is empty. */
void nlsock_error_text(int err, const char *extack, char *out, size_t len);

/* Dumps (NLM_F_DUMP) and calls cb for every message; 0 or -errno. */
int nlsock_dump(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);

#endif
