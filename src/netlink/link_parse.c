/* SPDX-License-Identifier: MIT */
/* Parsing the kernel's link and address messages, and the bond's slave order. */
#include "link_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "bond_codec.h"
#include "nlsock.h"
#include "whole_file.h"

static void parse_linkinfo(const struct nlattr *linkinfo, struct obs_link *l)
{
	const struct nlattr *a, *data = NULL, *slave_data = NULL;
	char slave_kind[16] = "";

	mnl_attr_for_each_nested(a, linkinfo) {
		switch (mnl_attr_get_type(a)) {
		/* Strings with their NUL (nlsock_attr_str), as the kernel
		 * sends them: rtnl_link_info_fill, nla_put_string. */
		case IFLA_INFO_KIND:
			nlsock_attr_str(a, l->kind, sizeof(l->kind));
			break;
		case IFLA_INFO_SLAVE_KIND:
			nlsock_attr_str(a, slave_kind, sizeof(slave_kind));
			break;
		case IFLA_INFO_DATA:
			data = a;
			break;
		case IFLA_INFO_SLAVE_DATA:
			slave_data = a;
			break;
		}
	}
	if (data && strcmp(l->kind, "bond") == 0) {
		bond_codec_parse_opts(data, &l->bond, &l->primary_ifindex);
		bond_codec_parse_info(data, &l->info);
	}
	/* A VLAN's id (net/8021q/vlan_netlink.c vlan_fill_info). */
	if (data && strcmp(l->kind, "vlan") == 0) {
		mnl_attr_for_each_nested(a, data) {
			if (mnl_attr_get_type(a) == IFLA_VLAN_ID &&
			    mnl_attr_get_payload_len(a) >= sizeof(uint16_t))
				l->vlan_id = mnl_attr_get_u16(a);
		}
	}
	if (slave_data && strcmp(slave_kind, "bond") == 0)
		bond_codec_parse_slave(slave_data, &l->slave);
}

static void parse_stats(const struct nlattr *a, struct obs_stats *s)
{
	struct rtnl_link_stats64 st;

	if (mnl_attr_get_payload_len(a) < sizeof(st))
		return;
	memcpy(&st, mnl_attr_get_payload(a), sizeof(st));
	s->rx_packets = st.rx_packets;
	s->tx_packets = st.tx_packets;
	s->rx_bytes = st.rx_bytes;
	s->tx_bytes = st.tx_bytes;
	s->rx_errors = st.rx_errors;
	s->tx_errors = st.tx_errors;
	s->rx_dropped = st.rx_dropped + st.rx_missed_errors;
	s->tx_dropped = st.tx_dropped;
	s->rx_crc_errors = st.rx_crc_errors;
	s->rx_missed_errors = st.rx_missed_errors;
	s->has_crc_missed = true;
}

/* IFLA_PROP_LIST: one IFLA_ALT_IFNAME per altname (net/core/rtnetlink.c
 * rtnl_fill_prop_list). */
static void parse_prop_list(const struct nlattr *list, struct obs_link *l)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, list) {
		if (mnl_attr_get_type(a) != IFLA_ALT_IFNAME || l->n_altnames == OBS_MAX_ALTNAMES)
			continue;
		nlsock_attr_str(a, l->altnames[l->n_altnames], sizeof(l->altnames[0]));
		if (l->altnames[l->n_altnames][0])
			l->n_altnames++;
	}
}

bool link_msg_is_device(const struct nlmsghdr *nlh)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	return nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(*ifi)) && ifi->ifi_family == AF_UNSPEC;
}

int link_parse(const struct nlmsghdr *nlh, struct obs_link *l)
{
	const struct ifinfomsg *ifi;
	const struct nlattr *a;
	uint32_t u32;
	bool lower_elsewhere = false;
	char parent_bus[32] = "", parent_dev[SEL_PATH_MAX] = "";
	static const uint8_t zero[6];

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifi)))
		return -EINVAL;
	ifi = mnl_nlmsg_get_payload(nlh);
	memset(l, 0, sizeof(*l));
	l->ifindex = ifi->ifi_index;
	l->flags = ifi->ifi_flags;
	l->type = ifi->ifi_type;
	l->dev_port = -1;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_IFNAME:
			nlsock_attr_str(a, l->name, sizeof(l->name));
			break;
		case IFLA_MTU:
			nlsock_attr_u32(a, &l->mtu);
			break;
		case IFLA_MIN_MTU:
			nlsock_attr_u32(a, &l->min_mtu);
			break;
		case IFLA_MAX_MTU:
			nlsock_attr_u32(a, &l->max_mtu);
			break;
		case IFLA_MASTER:
			if (nlsock_attr_u32(a, &u32))
				l->master = (int)u32;
			break;
		case IFLA_LINK:
			if (nlsock_attr_u32(a, &u32))
				l->lower = (int)u32;
			break;
		case IFLA_LINK_NETNSID:
			lower_elsewhere = true;
			break;
		case IFLA_ADDRESS:
			if (mnl_attr_get_payload_len(a) == 6)
				memcpy(l->hwaddr, mnl_attr_get_payload(a), 6);
			break;
		case IFLA_CARRIER_CHANGES:
			if (nlsock_attr_u32(a, &l->carrier_changes))
				l->has_carrier_changes = true;
			break;
		case IFLA_CARRIER_DOWN_COUNT:
			if (nlsock_attr_u32(a, &l->carrier_down_count))
				l->has_carrier_down_count = true;
			break;
		case IFLA_STATS64:
			parse_stats(a, &l->stats);
			break;
		case IFLA_LINKINFO:
			parse_linkinfo(a, l);
			break;
		case IFLA_PROP_LIST:
			parse_prop_list(a, l);
			break;
		/* rtnl_fill_ifinfo sends dev->perm_addr for every device,
		 * zeros where the driver set none (veth, dummy). */
		case IFLA_PERM_ADDRESS:
			if (mnl_attr_get_payload_len(a) == 6 &&
			    memcmp(mnl_attr_get_payload(a), zero, 6) != 0) {
				memcpy(l->perm_addr, mnl_attr_get_payload(a), 6);
				l->has_perm_addr = true;
			}
			break;
		case IFLA_PARENT_DEV_NAME:
			nlsock_attr_str(a, parent_dev, sizeof(parent_dev));
			break;
		case IFLA_PARENT_DEV_BUS_NAME:
			nlsock_attr_str(a, parent_bus, sizeof(parent_bus));
			break;
		}
	}
	if (!slave_selector_id_path(parent_bus, parent_dev, l->id_path, sizeof(l->id_path)))
		l->id_path[0] = '\0';
	/* net/core/rtnetlink.c rtnl_fill_link_netnsid: the lower's ifindex
	 * is then one of another namespace's, not ours. */
	if (lower_elsewhere)
		l->lower = 0;
	return l->name[0] ? 0 : -EINVAL;
}

int addr_parse(const struct nlmsghdr *nlh, struct obs_addr *out)
{
	const struct ifaddrmsg *ifa;
	const struct nlattr *a, *local = NULL, *address = NULL;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*ifa)))
		return -EINVAL;
	ifa = mnl_nlmsg_get_payload(nlh);
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->ifindex = (int)ifa->ifa_index;
	out->addr.family = ifa->ifa_family;
	out->addr.prefixlen = ifa->ifa_prefixlen;
	mnl_attr_for_each(a, nlh, sizeof(*ifa)) {
		if (mnl_attr_get_type(a) == IFA_LOCAL)
			local = a;
		else if (mnl_attr_get_type(a) == IFA_ADDRESS)
			address = a;
	}
	/* IPv4 puts the interface's own address in IFA_LOCAL (IFA_ADDRESS is
	 * the peer on point-to-point links); IPv6 only sends IFA_ADDRESS. */
	a = local ? local : address;
	size_t len = ifa->ifa_family == AF_INET ? 4 : 16;
	if (!a || mnl_attr_get_payload_len(a) != len)
		return -EINVAL;
	memcpy(out->addr.addr, mnl_attr_get_payload(a), len);
	return 0;
}

int bond_order_parse(const char *text, char order[][IFNAMSIZ], size_t max)
{
	static const char tag[] = "Slave Interface: ";
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, tag)) != NULL;) {
		/* Only at the start of a line. */
		if (p != text && p[-1] != '\n') {
			p++;
			continue;
		}
		p += sizeof(tag) - 1;
		size_t len = strcspn(p, "\n");
		if (n < max && len > 0 && len < IFNAMSIZ) {
			memcpy(order[n], p, len);
			order[n][len] = '\0';
			n++;
		}
		p += len;
	}
	return (int)n;
}

int bond_order_read(const char *proc_dir, const char *name,
		    char order[][IFNAMSIZ], size_t max)
{
	char path[256];
	char *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", proc_dir, name);
	/* Read to the end, however long: root's 802.3ad text is about 640
	 * bytes a slave, so a fixed buffer cuts the order of a big bond. */
	int err = whole_file_read(path, 64u << 20, &buf, &len);
	if (!err) {
		err = bond_order_parse(buf, order, max);
		free(buf);
	}
	return err;
}
