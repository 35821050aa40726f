/* SPDX-License-Identifier: MIT */
/* A link's speed and duplex from ethtool's netlink family (ethtool_link.h). */
#include "ethtool_link.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nlsock.h"

static struct nlsock nl; /* opened at the first call (nl.sk) */
static int family;       /* 0: not asked yet; -1: the kernel has none */

static int family_attr(const struct nlattr *a, void *data)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
		*(int *)data = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr, data);
	return MNL_CB_OK;
}

/* ethtool's family id (net/ethtool/netlink.c ethtool_genl_family). */
static int resolve_family(void)
{
	char buf[256];
	int id = 0;

	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	int err = nlsock_get(&nl, nlh, family_cb, &id);
	if (err == -ENOENT)
		return -1;
	if (err < 0)
		return err;
	return id > 0 ? id : -1;
}

static int modes_attr(const struct nlattr *a, void *data)
{
	struct nic_speed *out = data;

	if (mnl_attr_get_type(a) == ETHTOOL_A_LINKMODES_SPEED &&
	    mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
		uint32_t v = mnl_attr_get_u32(a);
		/* SPEED_UNKNOWN (-1 as u32) and 0 are no speed, as in
		 * nic_speed_read */
		if (v > 0 && v != (uint32_t)SPEED_UNKNOWN && v <= INT32_MAX)
			out->mbps = (int)v;
	} else if (mnl_attr_get_type(a) == ETHTOOL_A_LINKMODES_DUPLEX &&
		   mnl_attr_validate(a, MNL_TYPE_U8) == 0) {
		uint8_t v = mnl_attr_get_u8(a);
		if (v == DUPLEX_FULL)
			snprintf(out->duplex, sizeof(out->duplex), "full");
		else if (v == DUPLEX_HALF)
			snprintf(out->duplex, sizeof(out->duplex), "half");
	}
	return MNL_CB_OK;
}

static int modes_cb(const struct nlmsghdr *nlh, void *data)
{
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), modes_attr, data);
	return MNL_CB_OK;
}

int ethtool_link_speed(int ifindex, struct nic_speed *out)
{
	char buf[256];
	int err;

	out->mbps = -1;
	snprintf(out->duplex, sizeof(out->duplex), "unknown");
	if (ifindex <= 0)
		return -ENODEV;
	if (!nl.sk && (err = nlsock_open_generic(&nl)) < 0)
		return err;
	if (!family) {
		int id = resolve_family();
		if (id < -1)
			return id; /* not known either way: asked again next time */
		family = id;
	}
	if (family < 0)
		return -EPROTONOSUPPORT;
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (uint16_t)family;
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = ETHTOOL_MSG_LINKMODES_GET;
	g->version = ETHTOOL_GENL_VERSION;
	struct nlattr *hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_LINKMODES_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, (uint32_t)ifindex);
	/* the link modes as bit masks, not a list of names: a few bytes */
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_FLAGS, ETHTOOL_FLAG_COMPACT_BITSETS);
	mnl_attr_nest_end(nlh, hdr);
	struct nic_speed got = {.mbps = -1, .duplex = "unknown"};
	err = nlsock_get(&nl, nlh, modes_cb, &got);
	if (err == -EOPNOTSUPP)
		return 0; /* no get_link_ksettings: unknown, as sysfs says */
	if (err < 0)
		return err;
	*out = got;
	return 0;
}
