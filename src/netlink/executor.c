/* SPDX-License-Identifier: MIT */
/*
 * Actions to kernel requests.  Bond creation, bond options and slave data
 * go out as raw rtnetlink through libmnl, because libnl 3.7 cannot encode
 * IFLA_BOND_*; MTU, admin state, enslave/release, delete and addresses go
 * through libnl-route, which does those well.
 */
#include "executor.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/bonding.h>

#include "bond_codec.h"
#include "route_cc.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/*
 * libnl turns the kernel's NLMSG_ERROR into its own codes ("Input data out
 * of range" for ERANGE and EINVAL alike) and drops the extended ACK.  Its
 * NL_CB_MSG_IN callback is handed every message received, whole, before
 * libnl acts on it: keep the errno and the kernel's message of an error,
 * and let libnl go on and report the failure as it always does.
 */
static int route_msg_in(struct nl_msg *msg, void *arg)
{
	struct executor *ex = arg;
	const struct nlmsghdr *nlh = nlmsg_hdr(msg);

	if (nlh->nlmsg_type != NLMSG_ERROR ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
		return NL_OK;
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	if (e->error == 0) /* an ACK */
		return NL_OK;
	ex->route_errno = -e->error;
	nlsock_extack_message(nlh, ex->route_extack, sizeof(ex->route_extack));
	return NL_OK;
}

int executor_open(struct executor *ex)
{
	memset(ex, 0, sizeof(*ex));
	int err = nlsock_open(&ex->mnl, NULL, 0);
	if (err)
		return err;
	ex->route = nl_socket_alloc();
	if (!ex->route) {
		nlsock_close(&ex->mnl);
		return -ENOMEM;
	}
	if (nl_connect(ex->route, NETLINK_ROUTE) < 0 ||
	    nl_socket_modify_cb(ex->route, NL_CB_MSG_IN, NL_CB_CUSTOM, route_msg_in, ex) < 0) {
		nl_socket_free(ex->route);
		nlsock_close(&ex->mnl);
		return -EIO;
	}
	int one = 1;
	/* Best effort: without it the kernel's messages are lost, not the
	 * errors themselves. */
	setsockopt(nl_socket_get_fd(ex->route), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	ex->failed_opt = OPT__COUNT;
	return 0;
}

void executor_close(struct executor *ex)
{
	if (ex->route)
		nl_socket_free(ex->route);
	nlsock_close(&ex->mnl);
	memset(ex, 0, sizeof(*ex));
}

static struct nlmsghdr *link_msg(char buf[NLSOCK_MSG_SIZE], int ifindex, uint16_t flags);

/* The kernel's answer to a GETLINK by name: its ifindex. */
static int getlink_cb(const struct nlmsghdr *nlh, void *data)
{
	if (nlh->nlmsg_type == RTM_NEWLINK && nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(struct ifinfomsg)))
		*(int *)data = ((const struct ifinfomsg *)NLMSG_DATA(nlh))->ifi_index;
	return MNL_CB_OK;
}

/*
 * A link's ifindex: the one the observer has from netlink (its events are
 * read before every plan), else, for a link made since (a bond created by
 * the previous action of the same plan), the kernel's answer to a GETLINK
 * by name on our own netlink socket.  Never if_nametoindex(): it opens a
 * socket of its own for each lookup (glibc sysdeps/unix/sysv/linux/
 * if_index.c), which fails once bondd's files are at their limit, and
 * every repair then failed as "no such interface".
 */
static int ifindex_of(struct executor *ex, const char *name, char *errmsg, size_t errlen)
{
	const struct obs_link *l = ex->links ? observed_by_name(ex->links, name) : NULL;
	if (l && l->ifindex > 0)
		return l->ifindex;

	char buf[NLSOCK_MSG_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, 0, 0);
	nlh->nlmsg_type = RTM_GETLINK;
	if (!mnl_attr_put_strz_check(nlh, sizeof(buf), IFLA_IFNAME, name))
		return -EMSGSIZE;
	int idx = 0;
	int err = nlsock_get(&ex->mnl, nlh, getlink_cb, &idx);
	if (err == -ENODEV || (!err && idx <= 0)) {
		snprintf(errmsg, errlen, "%s: no such interface", name);
		return -ENODEV;
	}
	if (err) {
		snprintf(errmsg, errlen, "%s: looking up its ifindex: %s", name, strerror(-err));
		return err;
	}
	return idx;
}

/* Before each libnl request: forget the last one's error. */
static void route_begin(struct executor *ex)
{
	ex->route_errno = 0;
	ex->route_extack[0] = '\0';
	ex->requests++;
}

/* errmsg = "WHAT refused by the kernel: strerror: extack". */
static int __attribute__((format(printf, 5, 6)))
refused(int err, const char *kernel_words, char *errmsg, size_t errlen, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(errmsg, errlen, "%s refused by the kernel: %s", what, kernel_words);
	return err;
}

/* The result of a libnl request, with the kernel's own errno and words
 * when the kernel answered, libnl's text when libnl itself failed. */
static int __attribute__((format(printf, 5, 6)))
libnl_result(struct executor *ex, int err, char *errmsg, size_t errlen, const char *fmt, ...)
{
	char what[160], words[300];
	va_list ap;

	if (err >= 0)
		return 0;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (ex->route_errno > 0) {
		nlsock_error_text(ex->route_errno, ex->route_extack, words, sizeof(words));
		return refused(-ex->route_errno, words, errmsg, errlen, "%s", what);
	}
	snprintf(errmsg, errlen, "%s failed: %s", what, nl_geterror(err));
	return err == -NLE_NOMEM ? -ENOMEM : -EIO;
}

/* The whole buffer is cleared: libmnl 1.0.4 leaves the alignment padding
 * after an attribute (3 bytes after a u8, 2 after a u16) and a nest's
 * header as they were, and every byte sent must be ours. */
static struct nlmsghdr *link_msg(char buf[NLSOCK_MSG_SIZE], int ifindex, uint16_t flags)
{
	memset(buf, 0, NLSOCK_MSG_SIZE);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = flags;
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

static int create_bond(struct executor *ex, const struct action *a, char *errmsg,
		       size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE];
	struct nlmsghdr *nlh = link_msg(buf, 0, NLM_F_CREATE | NLM_F_EXCL);

	/* Every write checked against the buffer (bond_codec's too). */
	struct nlattr *info;
	if (!mnl_attr_put_strz_check(nlh, sizeof(buf), IFLA_IFNAME, a->ifname) ||
	    !mnl_attr_put_u32_check(nlh, sizeof(buf), IFLA_MTU, a->mtu) ||
	    (a->has_mac && !mnl_attr_put_check(nlh, sizeof(buf), IFLA_ADDRESS, sizeof(a->mac), a->mac)) ||
	    !(info = mnl_attr_nest_start_check(nlh, sizeof(buf), IFLA_LINKINFO)) ||
	    !mnl_attr_put_strz_check(nlh, sizeof(buf), IFLA_INFO_KIND, "bond"))
		return -EMSGSIZE;
	/* primary needs an enslaved device: the planner sends it later. */
	int err = bond_codec_put_opts(nlh, &a->opts, a->opts.have & ~OPT_BIT(OPT_PRIMARY), 0);
	mnl_attr_nest_end(nlh, info);
	if (err)
		return err;
	ex->requests++;
	char words[300];
	err = nlsock_request(&ex->mnl, nlh, words, sizeof(words));
	return err ? refused(err, words, errmsg, errlen, "creating the bond") : 0;
}

/* mac_address on a live bond: its ndo_set_mac_address also sets every slave
 * (drivers/net/bonding/bond_main.c bond_set_mac_address) and undoes the
 * change if one refuses. */
static int set_mac(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE], words[300];
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;

	struct nlmsghdr *nlh = link_msg(buf, idx, 0);
	if (!mnl_attr_put_check(nlh, sizeof(buf), IFLA_ADDRESS, sizeof(a->mac), a->mac))
		return -EMSGSIZE;
	ex->requests++;
	int err = nlsock_request(&ex->mnl, nlh, words, sizeof(words));
	return err ? refused(err, words, errmsg, errlen,
			     "address %02x:%02x:%02x:%02x:%02x:%02x", a->mac[0], a->mac[1],
			     a->mac[2], a->mac[3], a->mac[4], a->mac[5]) : 0;
}

/* One request per option: a changelink stops at its first error with the
 * earlier options applied, and one option per request names the culprit. */
static int set_opts(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE], kmsg[300];
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;

	for (int id = 0; id < OPT__COUNT; id++) {
		if (!bond_settings_has(&a->opts, (enum bond_option_id)id))
			continue;
		int primary = 0;
		if (id == OPT_PRIMARY && (primary = ifindex_of(ex, a->opts.primary, errmsg, errlen)) < 0)
			return primary;
		struct nlmsghdr *nlh = link_msg(buf, idx, 0);
		struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
		int err = bond_codec_put_opts(nlh, &a->opts, OPT_BIT(id), primary);
		if (err)
			return err;
		mnl_attr_nest_end(nlh, info);
		ex->requests++;
		err = nlsock_request(&ex->mnl, nlh, kmsg, sizeof(kmsg));
		if (err) {
			char val[128];
			ex->failed_opt = id;
			return refused(err, kmsg, errmsg, errlen, "option %s %s",
				       bond_option_spec((enum bond_option_id)id)->key,
				       bond_settings_format(&a->opts, (enum bond_option_id)id, val, sizeof(val)));
		}
	}
	return 0;
}

static int set_slave_opts(struct executor *ex, const struct action *a, char *errmsg,
			  size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE];
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;

	struct nlmsghdr *nlh = link_msg(buf, idx, 0);
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_SLAVE_KIND, "bond");
	struct nlattr *data = mnl_attr_nest_start(nlh, IFLA_INFO_SLAVE_DATA);
	if (a->slave.has_queue_id)
		mnl_attr_put_u16(nlh, IFLA_BOND_SLAVE_QUEUE_ID, a->slave.queue_id);
	if (a->slave.has_prio)
		mnl_attr_put_u32(nlh, IFLA_BOND_SLAVE_PRIO, (uint32_t)a->slave.prio);
	if (a->slave.has_actor_port_prio)
		mnl_attr_put_u16(nlh, BONDD_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO, a->slave.actor_port_prio);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	ex->requests++;
	char words[300];
	int err = nlsock_request(&ex->mnl, nlh, words, sizeof(words));
	return err ? refused(err, words, errmsg, errlen, "slave options%s%s%s",
			     a->slave.has_queue_id ? " queue_id" : "",
			     a->slave.has_prio ? " prio" : "",
			     a->slave.has_actor_port_prio ? " actor_port_prio" : "") : 0;
}

/* MTU and admin state through rtnl_link_change(). */
static int change_link(struct executor *ex, const struct action *a, char *errmsg,
		       size_t errlen)
{
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;
	struct rtnl_link *orig = rtnl_link_alloc(), *chg = rtnl_link_alloc();
	int err = -NLE_NOMEM;
	if (!orig || !chg)
		goto out;
	rtnl_link_set_ifindex(orig, idx);
	if (a->kind == ACT_SET_MTU)
		rtnl_link_set_mtu(chg, a->mtu);
	else if (a->kind == ACT_LINK_UP)
		rtnl_link_set_flags(chg, IFF_UP);
	else
		rtnl_link_unset_flags(chg, IFF_UP);
	route_begin(ex);
	err = rtnl_link_change(ex->route, orig, chg, 0);
out:
	rtnl_link_put(orig);
	rtnl_link_put(chg);
	if (a->kind == ACT_SET_MTU)
		return libnl_result(ex, err, errmsg, errlen, "MTU %u", a->mtu);
	return libnl_result(ex, err, errmsg, errlen, "setting it %s",
			    a->kind == ACT_LINK_UP ? "up" : "down");
}

static int enslave(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int slave = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (slave < 0)
		return slave;
	int master = ifindex_of(ex, a->bond, errmsg, errlen);
	if (master < 0)
		return master;
	route_begin(ex);
	return libnl_result(ex, rtnl_link_bond_enslave_ifindex(ex->route, master, slave), errmsg,
			    errlen, "enslaving it to %s", a->bond);
}

/* bridge = NAME: IFLA_MASTER on the bond (net/core/rtnetlink.c
 * do_set_master, which calls the bridge's ndo_add_slave, br_add_slave). */
static int set_bridge(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int bond = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (bond < 0)
		return bond;
	int bridge = ifindex_of(ex, a->master, errmsg, errlen);
	if (bridge < 0)
		return bridge;
	route_begin(ex);
	return libnl_result(ex, rtnl_link_enslave_ifindex(ex->route, bridge, bond), errmsg,
			    errlen, "adding it to bridge %s", a->master);
}

static int release(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int slave = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (slave < 0)
		return slave;
	route_begin(ex);
	return libnl_result(ex, rtnl_link_bond_release_ifindex(ex->route, slave), errmsg, errlen,
			    "releasing it");
}

static int delete_bond(struct executor *ex, const struct action *a, char *errmsg,
		       size_t errlen)
{
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;
	struct rtnl_link *link = rtnl_link_alloc();
	if (!link)
		return -ENOMEM;
	rtnl_link_set_ifindex(link, idx);
	route_begin(ex);
	int err = rtnl_link_delete(ex->route, link);
	rtnl_link_put(link);
	return libnl_result(ex, err, errmsg, errlen, "deleting the bond");
}

static int add_addr(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int idx = ifindex_of(ex, a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;
	size_t len = a->addr.family == AF_INET ? 4 : 16;
	struct rtnl_addr *addr = rtnl_addr_alloc();
	struct nl_addr *local = nl_addr_build(a->addr.family, a->addr.addr, len);
	int err = -NLE_NOMEM;
	if (!addr || !local)
		goto out;
	nl_addr_set_prefixlen(local, a->addr.prefixlen);
	rtnl_addr_set_ifindex(addr, idx);
	rtnl_addr_set_family(addr, a->addr.family);
	rtnl_addr_set_prefixlen(addr, a->addr.prefixlen);
	err = rtnl_addr_set_local(addr, local);
	if (err < 0)
		goto out;
	route_begin(ex);
	/* Exclusive, and "exists" is an error like any other (held, retried
	 * with backoff, shown): the kernel finds an IPv6 address whatever its
	 * prefix length (net/ipv6/addrconf.c inet6_rtm_newaddr,
	 * ipv6_get_ifaddr), so the same address with another prefix is
	 * refused with EEXIST (or modified in place, prefix unchanged, were
	 * NLM_F_REPLACE set).  Taken as success, bondd would add it again on
	 * every pass, for ever, and say nothing.  An address someone added a
	 * moment ago fails once; the next plan sees it and asks nothing. */
	err = rtnl_addr_add(ex->route, addr, NLM_F_EXCL);
out:
	nl_addr_put(local);
	rtnl_addr_put(addr);
	char text[INET6_ADDRSTRLEN] = "?";
	inet_ntop(a->addr.family, a->addr.addr, text, sizeof(text));
	int rc = libnl_result(ex, err, errmsg, errlen, "address %s/%u", text, a->addr.prefixlen);
	if (rc < 0 && ex->route_errno == EEXIST && a->addr.family == AF_INET6) {
		/* The likely cause, which the kernel does not name
		 * (net/ipv6/addrconf.c ipv6_add_addr_hash). */
		size_t used = strlen(errmsg);
		snprintf(errmsg + used, errlen - used, " (an IPv6 address is on a link once, with "
			 "one prefix length: is it there with another?)");
	}
	return rc;
}

static int set_route_cc(struct executor *ex, const struct action *a, char *errmsg,
			size_t errlen)
{
	char words[200];
	int err = route_cc_write(&ex->mnl, &a->route_was, &a->route, a->route_append, words,
				 sizeof(words));
	return err ? refused(err, words, errmsg, errlen, "%s on its connected route",
			     a->route.cc_algo[0] ? "the TCP congestion control" :
						   "removing the TCP congestion control") : 0;
}

/* What carries out each kind of action. */
static int (*const run_kind[ACT__COUNT])(struct executor *, const struct action *, char *,
					 size_t) = {
	/* the bond itself */
	[ACT_CREATE_BOND] = create_bond, [ACT_DELETE_BOND] = delete_bond,
	[ACT_SET_OPTS] = set_opts, [ACT_SET_MAC] = set_mac,
	/* any link bondd manages */
	[ACT_SET_MTU] = change_link, [ACT_LINK_UP] = change_link, [ACT_LINK_DOWN] = change_link,
	/* its slaves */
	[ACT_ENSLAVE] = enslave, [ACT_RELEASE] = release, [ACT_SET_SLAVE_OPTS] = set_slave_opts,
	/* the manager's bridge it joins (bridge = NAME) */
	[ACT_SET_BRIDGE] = set_bridge,
	/* its addresses and routes */
	[ACT_ADD_ADDR] = add_addr, [ACT_SET_ROUTE_CC] = set_route_cc,
};

int executor_run(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	errmsg[0] = '\0';
	ex->failed_opt = OPT__COUNT;
	if ((unsigned)a->kind < ACT__COUNT && run_kind[a->kind])
		return run_kind[a->kind](ex, a, errmsg, errlen);
	snprintf(errmsg, errlen, "unknown action");
	return -EINVAL;
}

void executor_order_routes(struct executor *ex, struct action_list *plan)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->n; i++)
		n += plan->v[i].kind == ACT_SET_ROUTE_CC;
	if (!n)
		return;
	struct route_cc_order *v = calloc(n, sizeof(*v));
	if (!v)
		return; /* the planner's guesses stay */
	n = 0;
	for (size_t i = 0; i < plan->n; i++)
		if (plan->v[i].kind == ACT_SET_ROUTE_CC)
			v[n++].was = &plan->v[i].route_was;
	if (route_cc_order_dump(&ex->mnl, v, n) == 0) {
		n = 0;
		for (size_t i = 0; i < plan->n; i++) {
			if (plan->v[i].kind != ACT_SET_ROUTE_CC)
				continue;
			if (v[n].group_seen)
				plan->v[i].route_append = !v[n].was_first;
			n++;
		}
	}
	free(v);
}
