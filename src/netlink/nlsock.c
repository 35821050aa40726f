/* SPDX-License-Identifier: MIT */
/*
 * libmnl plumbing: ACKed requests with the kernel's own error text, dumps.
 * Every answer is read the way iproute2's lib/libnetlink.c
 * (rtnl_dump_filter_l) reads it: only messages with our sequence number
 * and from the kernel count, every datagram is checked for MSG_TRUNC, and
 * a dump is read to NLMSG_DONE even when it was interrupted or failed.
 */
#include "nlsock.h"

#include "breather.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NLM_F_DUMP_INTR
#define NLM_F_DUMP_INTR 0x10
#endif

static int open_socket(struct nlsock *nl)
{
	int one = 1;

	nl->sk = mnl_socket_open2(nl->protocol, SOCK_CLOEXEC);
	if (!nl->sk)
		return -errno;
	/* FORCE (CAP_NET_ADMIN) may go past net.core.rmem_max; without the
	 * capability the plain option gives what the sysctl allows. */
	if (nl->rcvbuf > 0 &&
	    setsockopt(mnl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUFFORCE, &nl->rcvbuf,
		       sizeof(nl->rcvbuf)) &&
	    setsockopt(mnl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUF, &nl->rcvbuf,
		       sizeof(nl->rcvbuf)))
		return -errno;
	/* Without extended ACKs the kernel's explanation of a refused bond
	 * option ("option mode: unable to set because the bond device has
	 * slaves") is lost and only -EPERM remains. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		return -errno;
	for (const unsigned *g = nl->groups; *g; g++) {
		int grp = (int)*g;
		if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
			return -errno;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->out_of_step = false;
	return 0;
}

static int open_as(struct nlsock *nl, int protocol, const unsigned *groups, int rcvbuf)
{
	size_t n = 0;

	memset(nl, 0, sizeof(*nl));
	nl->protocol = protocol;
	for (const unsigned *g = groups; g && *g; g++) {
		if (n + 1 >= sizeof(nl->groups) / sizeof(nl->groups[0]))
			return -E2BIG;
		nl->groups[n++] = *g;
	}
	nl->rcvbuf = rcvbuf;
	nl->buf = malloc(NLSOCK_BUF_SIZE);
	if (!nl->buf)
		return -ENOMEM;
	int err = open_socket(nl);
	if (err) {
		nlsock_close(nl);
		return err ? err : -EIO;
	}
	nl->seq = (uint32_t)time(NULL);
	return 0;
}

int nlsock_open(struct nlsock *nl, const unsigned *groups, int rcvbuf)
{
	return open_as(nl, NETLINK_ROUTE, groups, rcvbuf);
}

int nlsock_open_generic(struct nlsock *nl)
{
	return open_as(nl, NETLINK_GENERIC, NULL, 0);
}

void nlsock_close(struct nlsock *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->buf);
	memset(nl, 0, sizeof(*nl));
}

/* A socket that fell out of step is replaced: what is queued on it
 * answers requests nobody waits for any more.  (Subscribed sockets are
 * never replaced here: their stream is the observer's to resync.) */
static int in_step(struct nlsock *nl)
{
	if (!nl->out_of_step)
		return 0;
	mnl_socket_close(nl->sk);
	nl->sk = NULL;
	nl->reopened++;
	return open_socket(nl);
}

ssize_t nlsock_recv(struct nlsock *nl, bool dontwait, bool *from_kernel)
{
	struct sockaddr_nl addr;
	struct iovec iov = {nl->buf, NLSOCK_BUF_SIZE};
	struct msghdr msg = {
		.msg_name = &addr, .msg_namelen = sizeof(addr), .msg_iov = &iov, .msg_iovlen = 1,
	};
	ssize_t n;

	do
		n = recvmsg(mnl_socket_get_fd(nl->sk), &msg, dontwait ? MSG_DONTWAIT : 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	*from_kernel = msg.msg_namelen >= sizeof(addr) && addr.nl_pid == 0;
	if (msg.msg_flags & MSG_TRUNC) {
		nl->truncated++;
		return -EMSGSIZE;
	}
	return n;
}

bool nlsock_msg_ok(const struct nlmsghdr *nlh, int left)
{
	return left >= (int)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (unsigned)left;
}

bool nlsock_attr_str(const struct nlattr *a, char *out, size_t len)
{
	if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) != 0)
		return false;
	snprintf(out, len, "%s", mnl_attr_get_str(a));
	return true;
}

bool nlsock_attr_u32(const struct nlattr *a, uint32_t *out)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) != 0)
		return false;
	*out = mnl_attr_get_u32(a);
	return true;
}

void nlsock_extack_message(const struct nlmsghdr *nlh, char *out, size_t len)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;
	size_t off = sizeof(*err);

	if (out && len)
		out[0] = '\0';
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || !out || !len)
		return;
	/* Without NLM_F_CAPPED the kernel echoes the whole request first. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += err->msg.nlmsg_len - sizeof(err->msg);
	if (off > mnl_nlmsg_get_payload_len(nlh))
		return;
	/* libmnl's iterator macro names its cursor `attr`. */
	const struct nlattr *tlvs = (const void *)((const char *)err + off);
	size_t tlv_len = mnl_nlmsg_get_payload_len(nlh) - off;
	mnl_attr_for_each_payload(tlvs, tlv_len) {
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG && nlsock_attr_str(attr, out, len))
			return;
	}
}

struct answer {
	mnl_cb_t cb;
	void *data;
	char *errmsg;
	size_t errlen;
	int err;          /* the first error of the answer (kept while reading on) */
	bool intr;        /* NLM_F_DUMP_INTR seen */
	bool done;        /* the answer is complete */
};

/* NLMSG_ERROR ends a request's answer (0: the ACK); in a dump it ends it too. */
static void on_error(struct answer *ans, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

	ans->done = true;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e))) {
		ans->err = ans->err ? ans->err : -EBADMSG;
		return;
	}
	if (e->error == 0 || ans->err)
		return;
	nlsock_extack_message(nlh, ans->errmsg, ans->errlen);
	ans->err = e->error < 0 ? e->error : -EPROTO;
}

/* One datagram of the answer to request seq. */
static void take(struct nlsock *nl, struct answer *ans, uint32_t seq, size_t len)
{
	const struct nlmsghdr *nlh = (const void *)nl->buf;
	int left = (int)len;

	for (; nlsock_msg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_seq != seq || nlh->nlmsg_pid != nl->portid) {
			nl->foreign++;
			continue;
		}
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			ans->intr = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_NOOP:
			continue;
		case NLMSG_OVERRUN:
			ans->err = ans->err ? ans->err : -ENOBUFS;
			continue;
		case NLMSG_ERROR:
			on_error(ans, nlh);
			continue;
		case NLMSG_DONE:
			/* A dump that failed half-way says so in NLMSG_DONE's
			 * payload (net/netlink/af_netlink.c netlink_dump_done). */
			ans->done = true;
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int) && !ans->err) {
				int e;
				memcpy(&e, mnl_nlmsg_get_payload(nlh), sizeof(e));
				if (e < 0)
					ans->err = e;
			}
			continue;
		}
		if (ans->err || !ans->cb)
			continue;
		int ret = ans->cb(nlh, ans->data);
		if (ret == MNL_CB_ERROR)
			ans->err = errno ? -errno : -EIO;
	}
	if (left > 0 && !ans->err)
		ans->err = -EBADMSG; /* a message cut off inside the datagram */
}

static int run(struct nlsock *nl, struct nlmsghdr *nlh, struct answer *ans)
{
	int err = in_step(nl);
	if (err)
		return err;
	uint32_t seq = nlh->nlmsg_seq = ++nl->seq;

	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while (!ans->done) {
		bool kernel;
		ssize_t n = nlsock_recv(nl, false, &kernel);
		if (n == -EMSGSIZE) {
			/* Part of the answer is lost; the rest is still to
			 * come, so read on to its end. */
			ans->err = ans->err ? ans->err : -EMSGSIZE;
			continue;
		}
		if (n < 0) {
			/* The rest of the answer may still arrive later. */
			nl->out_of_step = true;
			return n;
		}
		if (!kernel)
			continue; /* another process sent to our port */
		take(nl, ans, seq, (size_t)n);
		if (nl->breather)
			breather_check(nl->breather);
	}
	if (!ans->err && ans->intr)
		return -EINTR;
	return ans->err;
}

int nlsock_request(struct nlsock *nl, struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	struct answer ans = {.errmsg = errmsg, .errlen = errlen};

	if (errmsg && errlen)
		errmsg[0] = '\0';
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	int err = run(nl, nlh, &ans);
	if (err && errmsg && errlen)
		nlsock_error_text(-err, errmsg, errmsg, errlen);
	return err;
}

int nlsock_get(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct answer ans = {.cb = cb, .data = data};

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	return run(nl, nlh, &ans);
}

void nlsock_error_text(int err, const char *extack, char *out, size_t len)
{
	char kmsg[256];

	snprintf(kmsg, sizeof(kmsg), "%s", extack ? extack : "");
	if (kmsg[0])
		snprintf(out, len, "%s: %s", strerror(err), kmsg);
	else
		snprintf(out, len, "%s", strerror(err));
}

int nlsock_dump(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	struct answer ans = {.cb = cb, .data = data};

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_DUMP;
	return run(nl, nlh, &ans);
}
