/* SPDX-License-Identifier: MIT */
/*
 * Actions to kernel requests.  Bond creation, bond options and slave data
 * go out as raw rtnetlink through libmnl, because libnl 3.7 cannot encode
 * IFLA_BOND_*; MTU, admin state, enslave/release, delete and addresses go
 * through libnl-route, which does those well.
 */
#include "executor.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/bonding.h>

#include "bond_codec.h"
#include "route_cc.h"

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
	if (nl_connect(ex->route, NETLINK_ROUTE) < 0) {
		nl_socket_free(ex->route);
		nlsock_close(&ex->mnl);
		return -EIO;
	}
	return 0;
}

void executor_close(struct executor *ex)
{
	if (ex->route)
		nl_socket_free(ex->route);
	nlsock_close(&ex->mnl);
	memset(ex, 0, sizeof(*ex));
}

/* Names are resolved at the moment of the request: a bond created by the
 * previous action of the same plan is not in the observed state yet. */
static int ifindex_of(const char *name, char *errmsg, size_t errlen)
{
	unsigned idx = if_nametoindex(name);
	if (!idx) {
		snprintf(errmsg, errlen, "%s: no such interface", name);
		return -ENODEV;
	}
	return (int)idx;
}

static int libnl_result(int err, char *errmsg, size_t errlen)
{
	if (err >= 0)
		return 0;
	snprintf(errmsg, errlen, "%s", nl_geterror(err));
	return err == -NLE_NOMEM ? -ENOMEM : -EIO;
}

static struct nlmsghdr *link_msg(char *buf, int ifindex, uint16_t flags)
{
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

	mnl_attr_put_strz(nlh, IFLA_IFNAME, a->ifname);
	mnl_attr_put_u32(nlh, IFLA_MTU, a->mtu);
	struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
	/* primary needs an enslaved device: the planner sends it later. */
	int err = bond_codec_put_opts(nlh, &a->opts, a->opts.have & ~OPT_BIT(OPT_PRIMARY), 0);
	mnl_attr_nest_end(nlh, info);
	if (err)
		return err;
	ex->requests++;
	return nlsock_request(&ex->mnl, nlh, errmsg, errlen);
}

/* One request per option: a changelink stops at its first error with the
 * earlier options applied, and one option per request names the culprit. */
static int set_opts(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE], kmsg[200];
	int idx = ifindex_of(a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;

	for (int id = 0; id < OPT__COUNT; id++) {
		if (!bond_opts_has(&a->opts, (enum bond_opt)id))
			continue;
		int primary = 0;
		if (id == OPT_PRIMARY && (primary = ifindex_of(a->opts.primary, errmsg, errlen)) < 0)
			return primary;
		struct nlmsghdr *nlh = link_msg(buf, idx, 0);
		struct nlattr *info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bond");
		bond_codec_put_opts(nlh, &a->opts, OPT_BIT(id), primary);
		mnl_attr_nest_end(nlh, info);
		ex->requests++;
		int err = nlsock_request(&ex->mnl, nlh, kmsg, sizeof(kmsg));
		if (err) {
			snprintf(errmsg, errlen, "%s: %s", bond_opt_desc((enum bond_opt)id)->key, kmsg);
			return err;
		}
	}
	return 0;
}

static int set_slave_opts(struct executor *ex, const struct action *a, char *errmsg,
			  size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE];
	int idx = ifindex_of(a->ifname, errmsg, errlen);
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
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	ex->requests++;
	return nlsock_request(&ex->mnl, nlh, errmsg, errlen);
}

/* MTU and admin state through rtnl_link_change(). */
static int change_link(struct executor *ex, const struct action *a, char *errmsg,
		       size_t errlen)
{
	int idx = ifindex_of(a->ifname, errmsg, errlen);
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
	ex->requests++;
	err = rtnl_link_change(ex->route, orig, chg, 0);
out:
	rtnl_link_put(orig);
	rtnl_link_put(chg);
	return libnl_result(err, errmsg, errlen);
}

static int enslave(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int slave = ifindex_of(a->ifname, errmsg, errlen);
	if (slave < 0)
		return slave;
	int master = ifindex_of(a->bond, errmsg, errlen);
	if (master < 0)
		return master;
	ex->requests++;
	return libnl_result(rtnl_link_bond_enslave_ifindex(ex->route, master, slave), errmsg,
			    errlen);
}

static int release(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int slave = ifindex_of(a->ifname, errmsg, errlen);
	if (slave < 0)
		return slave;
	ex->requests++;
	return libnl_result(rtnl_link_bond_release_ifindex(ex->route, slave), errmsg, errlen);
}

static int delete_bond(struct executor *ex, const struct action *a, char *errmsg,
		       size_t errlen)
{
	int idx = ifindex_of(a->ifname, errmsg, errlen);
	if (idx < 0)
		return idx;
	struct rtnl_link *link = rtnl_link_alloc();
	if (!link)
		return -ENOMEM;
	rtnl_link_set_ifindex(link, idx);
	ex->requests++;
	int err = rtnl_link_delete(ex->route, link);
	rtnl_link_put(link);
	return libnl_result(err, errmsg, errlen);
}

static int add_addr(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	int idx = ifindex_of(a->ifname, errmsg, errlen);
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
	ex->requests++;
	err = rtnl_addr_add(ex->route, addr, 0);
	/* Someone added it between the observation and now: that is the goal. */
	if (err == -NLE_EXIST)
		err = 0;
out:
	nl_addr_put(local);
	rtnl_addr_put(addr);
	return libnl_result(err, errmsg, errlen);
}

int executor_run(struct executor *ex, const struct action *a, char *errmsg, size_t errlen)
{
	errmsg[0] = '\0';
	switch (a->kind) {
	case ACT_CREATE_BOND:
		return create_bond(ex, a, errmsg, errlen);
	case ACT_DELETE_BOND:
		return delete_bond(ex, a, errmsg, errlen);
	case ACT_SET_OPTS:
		return set_opts(ex, a, errmsg, errlen);
	case ACT_SET_MTU:
	case ACT_LINK_UP:
	case ACT_LINK_DOWN:
		return change_link(ex, a, errmsg, errlen);
	case ACT_ENSLAVE:
		return enslave(ex, a, errmsg, errlen);
	case ACT_RELEASE:
		return release(ex, a, errmsg, errlen);
	case ACT_SET_SLAVE_OPTS:
		return set_slave_opts(ex, a, errmsg, errlen);
	case ACT_ADD_ADDR:
		return add_addr(ex, a, errmsg, errlen);
	case ACT_SET_ROUTE_CC:
		return route_cc_write(&ex->mnl, &a->route, errmsg, errlen);
	case ACT__COUNT:
		break;
	}
	snprintf(errmsg, errlen, "unknown action");
	return -EINVAL;
}
