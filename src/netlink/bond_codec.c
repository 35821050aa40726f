/* SPDX-License-Identifier: MIT */
/* Bond options and slave data to and from netlink attributes. */
#include "bond_codec.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <linux/if_link.h>

#include "nlsock.h"

/* Every write is checked against the request buffer (NLSOCK_MSG_SIZE):
 * a request that does not fit fails with -EMSGSIZE, never overflows. */
#define ROOM NLSOCK_MSG_SIZE

static bool put_list(struct nlmsghdr *nlh, uint16_t attr, const void *items, unsigned n,
		     size_t size)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, ROOM, attr);
	if (!nest)
		return false;
	/* The kernel reads every entry and ignores the entry's type. */
	for (unsigned i = 0; i < n; i++)
		if (!mnl_attr_put_check(nlh, ROOM, (uint16_t)i, size,
					(const char *)items + i * size))
			return false;
	mnl_attr_nest_end(nlh, nest);
	return true;
}

int bond_codec_put_opts(struct nlmsghdr *nlh, const struct bond_opts *o, uint64_t which,
			int primary_ifindex)
{
	struct nlattr *data = mnl_attr_nest_start_check(nlh, ROOM, IFLA_INFO_DATA);
	bool ok = data != NULL;

	for (int id = 0; ok && id < OPT__COUNT; id++) {
		if (!(which & OPT_BIT(id)))
			continue;
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		switch (d->type) {
		case OT_U8:
			ok = mnl_attr_put_u8_check(nlh, ROOM, d->attr, (uint8_t)o->val[id]);
			break;
		case OT_U16:
			ok = mnl_attr_put_u16_check(nlh, ROOM, d->attr, (uint16_t)o->val[id]);
			break;
		case OT_U32:
			ok = mnl_attr_put_u32_check(nlh, ROOM, d->attr, o->val[id]);
			break;
		case OT_IP4_LIST:
			ok = put_list(nlh, d->attr, o->arp_ip_target, o->n_arp_ip_target,
				      sizeof(o->arp_ip_target[0]));
			break;
		case OT_IP6_LIST:
			ok = put_list(nlh, d->attr, o->ns_ip6_target, o->n_ns_ip6_target,
				      sizeof(o->ns_ip6_target[0]));
			break;
		case OT_MAC:
			ok = mnl_attr_put_check(nlh, ROOM, d->attr, 6, o->ad_actor_system);
			break;
		case OT_IFNAME:
			if (primary_ifindex <= 0)
				return -ENOENT;
			ok = mnl_attr_put_u32_check(nlh, ROOM, d->attr, (uint32_t)primary_ifindex);
			break;
		}
	}
	if (!ok)
		return -EMSGSIZE;
	mnl_attr_nest_end(nlh, data);
	return 0;
}

static const struct bond_opt_desc *desc_for_attr(uint16_t attr)
{
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		if (d->attr == attr)
			return d;
	}
	return NULL;
}

static void parse_list(const struct nlattr *nest, void *items, unsigned *n, size_t size)
{
	const struct nlattr *a;

	*n = 0;
	mnl_attr_for_each_nested(a, nest) {
		if (*n >= BOND_MAX_TARGETS || mnl_attr_get_payload_len(a) != size)
			continue;
		memcpy((char *)items + *n * size, mnl_attr_get_payload(a), size);
		(*n)++;
	}
}

static int parse_scalar(const struct nlattr *a, const struct bond_opt_desc *d, uint32_t *v)
{
	size_t need = d->type == OT_U8 ? 1 : d->type == OT_U16 ? 2 : 4;
	size_t len = mnl_attr_get_payload_len(a);

	/* Accept anything at least as long as needed: the kernel sends some
	 * values wider than they are (ad_partner_oper_port_state is put with
	 * nla_put_u16 in drivers/net/bonding/bond_netlink.c
	 * bond_fill_slave_info although it is a u8). */
	if (len < need)
		return -EINVAL;
	if (need == 1)
		*v = mnl_attr_get_u8(a);
	else if (need == 2)
		*v = mnl_attr_get_u16(a);
	else
		*v = mnl_attr_get_u32(a);
	return 0;
}

int bond_codec_parse_opts(const struct nlattr *info_data, struct bond_opts *o,
			  int *primary_ifindex)
{
	const struct nlattr *a;

	memset(o, 0, sizeof(*o));
	*primary_ifindex = 0;
	mnl_attr_for_each_nested(a, info_data) {
		const struct bond_opt_desc *d = desc_for_attr(mnl_attr_get_type(a));
		if (!d)
			continue; /* active_slave, ad_info, newer attributes */
		switch (d->type) {
		case OT_IP4_LIST:
			parse_list(a, o->arp_ip_target, &o->n_arp_ip_target,
				   sizeof(o->arp_ip_target[0]));
			break;
		case OT_IP6_LIST:
			parse_list(a, o->ns_ip6_target, &o->n_ns_ip6_target,
				   sizeof(o->ns_ip6_target[0]));
			break;
		case OT_MAC:
			if (mnl_attr_get_payload_len(a) < 6)
				continue;
			memcpy(o->ad_actor_system, mnl_attr_get_payload(a), 6);
			break;
		case OT_IFNAME:
			if (mnl_attr_get_payload_len(a) < 4)
				continue;
			*primary_ifindex = (int)mnl_attr_get_u32(a);
			break;
		default:
			if (parse_scalar(a, d, &o->val[d->id]) < 0)
				continue;
		}
		o->have |= OPT_BIT(d->id);
	}
	/* A bond with no primary sends no IFLA_BOND_PRIMARY: that is the
	 * value "none", which the planner compares as an empty name. */
	o->have |= OPT_BIT(OPT_PRIMARY);
	/* Empty target lists are sent as empty nests or not at all. */
	o->have |= OPT_BIT(OPT_ARP_IP_TARGET) | OPT_BIT(OPT_NS_IP6_TARGET);
	return 0;
}

int bond_codec_parse_info(const struct nlattr *info_data, struct obs_bond_info *info)
{
	const struct nlattr *a, *b;

	memset(info, 0, sizeof(*info));
	mnl_attr_for_each_nested(a, info_data) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_BOND_ACTIVE_SLAVE:
			if (mnl_attr_get_payload_len(a) >= 4)
				info->active_slave_ifindex = (int)mnl_attr_get_u32(a);
			break;
		case IFLA_BOND_AD_INFO:
			info->has_ad_info = true;
			mnl_attr_for_each_nested(b, a) {
				size_t len = mnl_attr_get_payload_len(b);
				switch (mnl_attr_get_type(b)) {
				case IFLA_BOND_AD_INFO_AGGREGATOR:
					if (len >= 2)
						info->ad_aggregator = mnl_attr_get_u16(b);
					break;
				case IFLA_BOND_AD_INFO_NUM_PORTS:
					if (len >= 2)
						info->ad_num_ports = mnl_attr_get_u16(b);
					break;
				case IFLA_BOND_AD_INFO_PARTNER_MAC:
					if (len >= 6)
						memcpy(info->ad_partner_mac, mnl_attr_get_payload(b), 6);
					break;
				}
			}
			break;
		}
	}
	return 0;
}

int bond_codec_parse_slave(const struct nlattr *slave_data, struct obs_slave_info *s)
{
	const struct nlattr *a;

	memset(s, 0, sizeof(*s));
	mnl_attr_for_each_nested(a, slave_data) {
		size_t len = mnl_attr_get_payload_len(a);
		switch (mnl_attr_get_type(a)) {
		case IFLA_BOND_SLAVE_STATE:
			if (len >= 1)
				s->state = mnl_attr_get_u8(a);
			break;
		case IFLA_BOND_SLAVE_MII_STATUS:
			if (len >= 1)
				s->mii_status = mnl_attr_get_u8(a);
			break;
		case IFLA_BOND_SLAVE_LINK_FAILURE_COUNT:
			if (len >= 4)
				s->link_failure_count = mnl_attr_get_u32(a);
			break;
		case IFLA_BOND_SLAVE_PERM_HWADDR:
			if (len >= 6)
				memcpy(s->perm_hwaddr, mnl_attr_get_payload(a), 6);
			break;
		case IFLA_BOND_SLAVE_QUEUE_ID:
			if (len >= 2)
				s->queue_id = mnl_attr_get_u16(a);
			break;
		case IFLA_BOND_SLAVE_AD_AGGREGATOR_ID:
			if (len >= 2)
				s->ad_aggregator_id = mnl_attr_get_u16(a);
			break;
		case IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE:
			if (len >= 1) {
				s->ad_actor_oper_port_state = mnl_attr_get_u8(a);
				s->has_ad_state = true;
			}
			break;
		case IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE:
			if (len >= 2)
				s->ad_partner_oper_port_state = (uint8_t)mnl_attr_get_u16(a);
			break;
		case IFLA_BOND_SLAVE_PRIO:
			if (len >= 4) {
				s->prio = (int32_t)mnl_attr_get_u32(a);
				s->has_prio = true;
			}
			break;
		case BONDD_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO:
			if (len >= 2) {
				s->actor_port_prio = mnl_attr_get_u16(a);
				s->has_actor_port_prio = true;
			}
			break;
		/* drivers/net/bonding/bond_netlink.c bond_fill_slave_info sends
		 * both churn states together, as u8, with the port states. */
		case BONDD_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE:
			if (len >= 1) {
				s->ad_churn_actor_state = mnl_attr_get_u8(a);
				s->has_churn = true;
			}
			break;
		case BONDD_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE:
			if (len >= 1)
				s->ad_churn_partner_state = mnl_attr_get_u8(a);
			break;
		default:
			break;
		}
	}
	s->valid = true;
	return 0;
}
