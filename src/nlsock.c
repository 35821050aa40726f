/* SPDX-License-Identifier: MIT */
/* libmnl plumbing: ACKed requests with the kernel's own error text, dumps. */
#include "nlsock.h"

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

int nlsock_open(struct nlsock *nl, const unsigned *groups, int rcvbuf)
{
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->buf = malloc(NLSOCK_BUF_SIZE);
	if (!nl->buf)
		return -ENOMEM;
	nl->sk = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl->sk)
		goto fail;
	/* FORCE (CAP_NET_ADMIN) may go past net.core.rmem_max; without the
	 * capability the plain option gives what the sysctl allows. */
	if (rcvbuf > 0 &&
	    setsockopt(mnl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
		       sizeof(rcvbuf)) &&
	    setsockopt(mnl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)))
		goto fail;
	/* Without extended ACKs the kernel's explanation of a refused bond
	 * option ("option mode: unable to set because the bond device has
	 * slaves") is lost and only -EPERM remains. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	for (const unsigned *g = groups; g && *g; g++) {
		int grp = (int)*g;
		if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
			goto fail;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (uint32_t)time(NULL);
	return 0;
fail:;
	int err = -errno;
	nlsock_close(nl);
	return err ? err : -EIO;
}

void nlsock_close(struct nlsock *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->buf);
	memset(nl, 0, sizeof(*nl));
}

struct ack_ctx {
	char *errmsg;
	size_t errlen;
};

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
		if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0) {
			snprintf(out, len, "%s", mnl_attr_get_str(attr));
			return;
		}
	}
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct ack_ctx *ctx = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error == 0)
		return MNL_CB_STOP;
	if (ctx)
		nlsock_extack_message(nlh, ctx->errmsg, ctx->errlen);
	errno = -err->error;
	return MNL_CB_ERROR;
}

static mnl_cb_t ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = error_cb,
};

/* ctl: NULL for libmnl's own NLMSG_ERROR handling (dumps), ctl_cbs for
 * requests, whose error_cb then receives data as its struct ack_ctx. */
static int run(struct nlsock *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data,
	       mnl_cb_t *ctl)
{
	uint32_t seq = nlh->nlmsg_seq = ++nl->seq;

	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl->sk, nl->buf, NLSOCK_BUF_SIZE);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		int ret = mnl_cb_run2(nl->buf, (size_t)n, seq, nl->portid, cb, data, ctl,
				      ctl ? NLMSG_MIN_TYPE : 0);
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return 0;
	}
}

int nlsock_request(struct nlsock *nl, struct nlmsghdr *nlh, char *errmsg, size_t errlen)
{
	struct ack_ctx ctx = {errmsg, errlen};

	if (errmsg && errlen)
		errmsg[0] = '\0';
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	int err = run(nl, nlh, NULL, &ctx, ctl_cbs);
	if (err && errmsg && errlen)
		nlsock_error_text(-err, errmsg, errmsg, errlen);
	return err;
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
	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_DUMP;
	return run(nl, nlh, cb, data, NULL);
}
