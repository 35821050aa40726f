/* SPDX-License-Identifier: MIT */
/*
 * nl-mkbond: a sandbox test helper, not part of bondd.
 *
 *   nl-mkbond BOND SLAVE...
 *
 * Creates a balance-rr bond over raw rtnetlink, enslaves the slaves in the
 * order given and sets the bond up.  The harness scenarios use it to prove
 * that the sandbox kernel's bonding driver does what bondd will rely on,
 * independently of bondd's own netlink code.
 *
 * Every request asks for an ACK; a failure prints the errno and the kernel's
 * extended ACK message (when it sends one) and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <net/if.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#ifndef BOND_MODE_ROUNDROBIN
#define BOND_MODE_ROUNDROBIN 0 /* from <linux/if_bonding.h> */
#endif

static struct mnl_socket *nl;
static unsigned int portid, seq;

/* One request at a time: a few hundred bytes out, an ACK (with the echoed
 * request and the extack message on error) back. */
static char req[1024];
static char rx[16384];

/* What the kernel answered to the last request. */
struct answer {
	int error;             /* 0 or a positive errno */
	char extack[256];      /* the kernel's message, or "" */
};

static int extack_attr(const struct nlattr *attr, void *data)
{
	struct answer *ans = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		snprintf(ans->extack, sizeof(ans->extack), "%s", mnl_attr_get_str(attr));
	return MNL_CB_OK;
}

static int on_error(const struct nlmsghdr *nlh, void *data)
{
	struct answer *ans = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t offset;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		ans->error = EBADMSG;
		return MNL_CB_ERROR;
	}
	ans->error = -err->error;
	if (ans->error == 0)
		return MNL_CB_STOP; /* the ACK */

	/* The extack TLVs follow the echoed request (or only its header when
	 * the kernel capped it). */
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		offset = sizeof(*err);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			offset += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
		if (mnl_nlmsg_size(offset) <= nlh->nlmsg_len)
			mnl_attr_parse(nlh, offset, extack_attr, ans);
	}
	return MNL_CB_ERROR;
}

/* Sends one request and waits for its ACK.  Returns 0 or prints the failure
 * (prefixed with WHAT) and returns -1. */
static int transact(struct nlmsghdr *nlh, const char *what)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = { [NLMSG_ERROR] = on_error };
	struct answer ans = { 0 };
	ssize_t n;
	int ret;

	nlh->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		fprintf(stderr, "nl-mkbond: %s: send: %s\n", what, strerror(errno));
		return -1;
	}
	do {
		n = mnl_socket_recvfrom(nl, rx, sizeof(rx));
		if (n < 0) {
			fprintf(stderr, "nl-mkbond: %s: receive: %s\n", what, strerror(errno));
			return -1;
		}
		ret = mnl_cb_run2(rx, (size_t)n, seq, portid, NULL, &ans, ctl, NLMSG_MIN_TYPE);
	} while (ret == MNL_CB_OK);

	if (ret == MNL_CB_STOP && ans.error == 0)
		return 0;
	if (ans.error == 0)
		ans.error = errno ? errno : EPROTO;
	fprintf(stderr, "nl-mkbond: %s: %s%s%s\n", what, strerror(ans.error),
		ans.extack[0] ? " - kernel says: " : "", ans.extack);
	return -1;
}

/* Starts an RTM_NEWLINK request for the link NAME. */
static struct nlmsghdr *newlink(const char *name, unsigned int flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = (unsigned short)flags;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static int create_bond(const char *bond)
{
	struct nlmsghdr *nlh = newlink(bond, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *linkinfo, *data;

	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_BOND_MODE, BOND_MODE_ROUNDROBIN);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return transact(nlh, "create bond");
}

static int set_up(const char *name, int up)
{
	struct nlmsghdr *nlh = newlink(name, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	return transact(nlh, up ? "set up" : "set down");
}

static int set_master(const char *slave, unsigned int master)
{
	struct nlmsghdr *nlh = newlink(slave, 0);

	mnl_attr_put_u32(nlh, IFLA_MASTER, master);
	return transact(nlh, "enslave");
}

int main(int argc, char **argv)
{
	unsigned int bond_index;
	int one = 1, i;

	if (argc < 3) {
		fprintf(stderr, "usage: nl-mkbond BOND SLAVE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (strlen(argv[i]) == 0 || strlen(argv[i]) >= IFNAMSIZ) {
			fprintf(stderr, "nl-mkbond: bad interface name '%s'\n", argv[i]);
			return 2;
		}
	}

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nl-mkbond: netlink socket");
		return 1;
	}
	/* Ask for the kernel's explanation on errors; old kernels lack it. */
	(void)mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	portid = mnl_socket_get_portid(nl);
	seq = (unsigned int)time(NULL);

	if (create_bond(argv[1]) < 0)
		return 1;
	bond_index = if_nametoindex(argv[1]);
	if (bond_index == 0) {
		fprintf(stderr, "nl-mkbond: %s vanished after creation\n", argv[1]);
		return 1;
	}
	for (i = 2; i < argc; i++) {
		/* Two requests on purpose: the driver wants the slave down before
		 * it is enslaved, and on 6.1 a single request carrying both the
		 * flag change and IFLA_MASTER leaves the new slave down. */
		if (set_up(argv[i], 0) < 0 || set_master(argv[i], bond_index) < 0) {
			fprintf(stderr, "nl-mkbond: while adding %s to %s\n", argv[i], argv[1]);
			return 1;
		}
	}
	if (set_up(argv[1], 1) < 0) {
		fprintf(stderr, "nl-mkbond: while setting %s up\n", argv[1]);
		return 1;
	}
	mnl_socket_close(nl);
	return 0;
}
