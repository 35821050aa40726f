/* SPDX-License-Identifier: MIT */
/* Bond options and slave data to and from netlink attributes. */
#include "bond_codec.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

int bond_codec_put_opts(struct nlmsghdr *nlh, const struct bond_settings *o, uint64_t which,
			int primary_ifindex)
{
	struct nlattr *data = mnl_attr_nest_start_check(nlh, ROOM, IFLA_INFO_DATA);
	bool ok = data != NULL;

	for (int id = 0; ok && id < OPT__COUNT; id++) {
		if (!(which & OPT_BIT(id)))
			continue;
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
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

static const struct bond_option_spec *desc_for_attr(uint16_t attr)
{
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
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

static int codec_parse_scalar(const struct nlattr *a, const struct bond_option_spec *d, uint32_t *v)
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

int bond_codec_parse_opts(const struct nlattr *info_data, struct bond_settings *o,
			  int *primary_ifindex)
{
	const struct nlattr *a;

	memset(o, 0, sizeof(*o));
	*primary_ifindex = 0;
	mnl_attr_for_each_nested(a, info_data) {
		const struct bond_option_spec *d = desc_for_attr(mnl_attr_get_type(a));
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
			if (codec_parse_scalar(a, d, &o->val[d->id]) < 0)
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

/*
 * An attribute kept as a field of a struct: its payload (at least `len`
 * bytes: 1, 2 or 4 for a u8, u16 or u32, 6 for a MAC address) stored in
 * the field at `off` of `width` bytes (1, 2 or 4; 6 for the MAC), and the
 * bool at has_off, when has_off is not 0, set to say it came.
 */
struct attr_field {
	uint16_t type;
	uint8_t len, width;
	uint16_t off, has_off;
};

#define FIELD(T, attr, alen, field) \
	{(attr), (alen), sizeof(((T *)0)->field), offsetof(T, field), 0}
#define FIELD_HAS(T, attr, alen, field, has) \
	{(attr), (alen), sizeof(((T *)0)->field), offsetof(T, field), offsetof(T, has)}

/* Stores a into the field of base that fields[0..n) names for its type, if
 * any and long enough; others are passed over. */
static void put_attr(void *base, const struct attr_field *fields, size_t n,
		     const struct nlattr *a)
{
	const struct attr_field *f = NULL;
	for (size_t i = 0; i < n && !f; i++)
		if (fields[i].type == mnl_attr_get_type(a))
			f = &fields[i];
	if (!f || mnl_attr_get_payload_len(a) < f->len)
		return;
	unsigned char *to = (unsigned char *)base + f->off;
	uint32_t v = f->len == 1 ? mnl_attr_get_u8(a) :
		     f->len == 2 ? mnl_attr_get_u16(a) :
		     f->len == 4 ? mnl_attr_get_u32(a) : 0;
	if (f->len == 6) {
		memcpy(to, mnl_attr_get_payload(a), 6);
	} else if (f->width == 1) {
		uint8_t x = (uint8_t)v;
		memcpy(to, &x, 1);
	} else if (f->width == 2) {
		uint16_t x = (uint16_t)v;
		memcpy(to, &x, 2);
	} else {
		memcpy(to, &v, 4); /* a u32, or an int32 the kernel sends as one */
	}
	if (f->has_off)
		*((bool *)((unsigned char *)base + f->has_off)) = true;
}

static const struct attr_field info_fields[] = {
	FIELD(struct obs_bond_info, IFLA_BOND_ACTIVE_SLAVE, 4, active_slave_ifindex),
};

static const struct attr_field ad_info_fields[] = {
	FIELD(struct obs_bond_info, IFLA_BOND_AD_INFO_AGGREGATOR, 2, ad_aggregator),
	FIELD(struct obs_bond_info, IFLA_BOND_AD_INFO_NUM_PORTS, 2, ad_num_ports),
	FIELD(struct obs_bond_info, IFLA_BOND_AD_INFO_PARTNER_MAC, 6, ad_partner_mac),
};

int bond_codec_parse_info(const struct nlattr *info_data, struct obs_bond_info *info)
{
	const struct nlattr *a, *b;

	memset(info, 0, sizeof(*info));
	mnl_attr_for_each_nested(a, info_data) {
		if (mnl_attr_get_type(a) != IFLA_BOND_AD_INFO) {
			put_attr(info, info_fields, 1, a);
			continue;
		}
		info->has_ad_info = true;
		mnl_attr_for_each_nested(b, a)
			put_attr(info, ad_info_fields,
				 sizeof(ad_info_fields) / sizeof(ad_info_fields[0]), b);
	}
	return 0;
}

/* drivers/net/bonding/bond_netlink.c bond_fill_slave_info: the partner's
 * port state comes as a u16 (kept as u8); the churn states come together,
 * as u8, with the port states. */
#define SLAVE(attr, alen, field) FIELD(struct obs_slave_info, attr, alen, field)
#define SLAVE_HAS(attr, alen, field, has) FIELD_HAS(struct obs_slave_info, attr, alen, field, has)
static const struct attr_field slave_fields[] = {
	SLAVE(IFLA_BOND_SLAVE_STATE, 1, state),
	SLAVE(IFLA_BOND_SLAVE_MII_STATUS, 1, mii_status),
	SLAVE(IFLA_BOND_SLAVE_LINK_FAILURE_COUNT, 4, link_failure_count),
	SLAVE(IFLA_BOND_SLAVE_PERM_HWADDR, 6, perm_hwaddr),
	SLAVE(IFLA_BOND_SLAVE_QUEUE_ID, 2, queue_id),
	SLAVE(IFLA_BOND_SLAVE_AD_AGGREGATOR_ID, 2, ad_aggregator_id),
	SLAVE_HAS(IFLA_BOND_SLAVE_AD_ACTOR_OPER_PORT_STATE, 1, ad_actor_oper_port_state,
		  has_ad_state),
	SLAVE(IFLA_BOND_SLAVE_AD_PARTNER_OPER_PORT_STATE, 2, ad_partner_oper_port_state),
	SLAVE_HAS(IFLA_BOND_SLAVE_PRIO, 4, prio, has_prio),
	SLAVE_HAS(BONDD_IFLA_BOND_SLAVE_ACTOR_PORT_PRIO, 2, actor_port_prio, has_actor_port_prio),
	SLAVE_HAS(BONDD_IFLA_BOND_SLAVE_AD_CHURN_ACTOR_STATE, 1, ad_churn_actor_state, has_churn),
	SLAVE(BONDD_IFLA_BOND_SLAVE_AD_CHURN_PARTNER_STATE, 1, ad_churn_partner_state),
};

int bond_codec_parse_slave(const struct nlattr *slave_data, struct obs_slave_info *s)
{
	const struct nlattr *a;

	memset(s, 0, sizeof(*s));
	mnl_attr_for_each_nested(a, slave_data)
		put_attr(s, slave_fields, sizeof(slave_fields) / sizeof(slave_fields[0]), a);
	s->valid = true;
	return 0;
}
