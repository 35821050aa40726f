/* SPDX-License-Identifier: MIT */
/*
 * Rewriting a bond's connected route with another RTAX_CC_ALGO.
 *
 * Why delete and add, never NLM_F_REPLACE: a replace does not look at the
 * output device.  It finds the first route with the same table, prefix, tos
 * and priority and puts the new one in its place (net/ipv4/fib_trie.c
 * fib_table_insert, fa_first).  With another NIC in the bond's subnet (an
 * iSCSI or NFS path, a management port) that first route can be the other
 * NIC's: it was overwritten and lost.  A delete does match the device and
 * every field given (net/ipv4/fib_trie.c fib_table_delete: type, scope,
 * preferred source, protocol; fib_nh_match: output device, priority when
 * not 0; fib_metrics_match: each metric given, the algorithm by name), so
 * bondd deletes exactly the bond's route as observed and adds the new one.
 * (Priority 0 cannot be asked for, it means "any"; but a prefix's routes
 * are kept in ascending priority and the first match is deleted, so with
 * everything else equal it is the one at priority 0.)
 *
 * The other design, adding the bond's addresses with IFA_F_NOPREFIXROUTE
 * and installing their routes itself, still needs this delete and add to
 * change the algorithm later, changes how `ip addr` shows every address,
 * and leaves routes behind when an address is removed by hand; so no.
 *
 * Order: several devices' routes with one key are tried in list order
 * (fib_table_lookup takes the first that fits), so the new route goes where
 * the old one was: before the others (no NLM_F_APPEND: before the group's
 * first) when the bond's was first, after them (NLM_F_APPEND) otherwise.
 * Which it is, is asked of the kernel before a plan's rewrites are made
 * (route_cc_order_dump: one dump of the IPv4 routes for all of them, in
 * the kernel's order within a key: fib_trie.c fn_trie_dump_leaf): the
 * observed list holds only the kernel's connected routes, and an admin's
 * route of the same key (`ip route prepend ... via GW`, protocol boot or
 * static) decides as much.  Only when that dump fails is the planner's
 * guess from the observed list taken.  One dump per plan, not per route:
 * a start with hundreds of bonds on a node with a large routing table
 * would otherwise read the table once per bond.
 * Between the delete and the add, a few microseconds, the subnet is reached
 * through the other routes of that key or not at all; the rewrite happens
 * only when the algorithm is to change (start, reload, the bond brought
 * back up).  When the add is refused (an algorithm the kernel does not
 * have), the route as it was is added back.
 *
 * The route is added with everything it had (table, protocol kernel, scope
 * link, preferred source, priority, other metrics), so the kernel still
 * removes it with its address (net/ipv4/fib_frontend.c fib_del_ifaddr
 * matches those fields).  The algorithm goes by name; the kernel loads
 * tcp_NAME if it can (net/ipv4/tcp_cong.c tcp_ca_get_key_by_name, with
 * CAP_NET_ADMIN) and refuses a name it does not know.
 */
#include "route_cc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

static struct nlmsghdr *route_msg(char *buf, uint16_t type, uint16_t flags,
				  const struct obs_route *r)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)r->family;
	rtm->rtm_dst_len = r->dst_len;
	rtm->rtm_tos = r->tos;
	rtm->rtm_table = r->table < 256 ? (unsigned char)r->table : RT_TABLE_UNSPEC;
	rtm->rtm_protocol = r->protocol;
	rtm->rtm_scope = r->scope;
	rtm->rtm_type = r->type;
	mnl_attr_put_u32(nlh, RTA_TABLE, r->table);
	mnl_attr_put(nlh, RTA_DST, 4, r->dst);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)r->oif);
	if (r->priority)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, r->priority);
	if (r->has_prefsrc)
		mnl_attr_put(nlh, RTA_PREFSRC, 4, r->prefsrc);
	struct nlattr *metrics = mnl_attr_nest_start(nlh, RTA_METRICS);
	for (unsigned t = 1; t < ROUTE_METRICS_MAX; t++) {
		if (!(r->metrics_set & (1u << t)) || t == RTAX_CC_ALGO)
			continue;
		if (t == RTAX_LOCK && !r->metrics[t])
			continue;
		/* The kernel keeps a bit in RTAX_FEATURES that it does not
		 * dump (DST_FEATURE_ECN_CA, net/core/rtnetlink.c
		 * rtnetlink_put_metrics): a delete naming the dumped value
		 * could miss.  It is derived from the algorithm anyway. */
		if (type == RTM_DELROUTE && t == RTAX_FEATURES)
			continue;
		mnl_attr_put_u32(nlh, (uint16_t)t, r->metrics[t]);
	}
	if (r->cc_algo[0])
		mnl_attr_put_strz(nlh, RTAX_CC_ALGO, r->cc_algo);
	mnl_attr_nest_end(nlh, metrics);
	return nlh;
}

struct nlmsghdr *route_cc_build_del(char *buf, const struct obs_route *was)
{
	return route_msg(buf, RTM_DELROUTE, 0, was);
}

struct nlmsghdr *route_cc_build_add(char *buf, const struct obs_route *want, bool append)
{
	/* No NLM_F_EXCL: another device's route of the same key is there
	 * (the kernel then refuses only the very same route, fa_match). */
	return route_msg(buf, RTM_NEWROUTE, NLM_F_CREATE | (append ? NLM_F_APPEND : 0), want);
}

/* The fields of a dumped route that say its group and whether it is `was`;
 * false for a message that is no IPv4 route of that group. */
static bool dumped_in_group(const struct nlmsghdr *nlh, const struct obs_route *was, bool *is_was)
{
	const struct rtmsg *rtm;
	const struct nlattr *a;
	uint8_t dst[4] = {0}, prefsrc[4] = {0};
	uint32_t table, priority = 0;
	int oif = 0;
	bool has_prefsrc = false, multipath = false;

	if (nlh->nlmsg_type != RTM_NEWROUTE || nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*rtm)))
		return false;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != was->family || rtm->rtm_dst_len != was->dst_len ||
	    rtm->rtm_tos != was->tos || (rtm->rtm_flags & RTM_F_CLONED))
		return false;
	table = rtm->rtm_table;
	mnl_attr_for_each(a, nlh, sizeof(*rtm)) {
		size_t len = mnl_attr_get_payload_len(a);
		switch (mnl_attr_get_type(a)) {
		case RTA_DST:
			if (len == 4)
				memcpy(dst, mnl_attr_get_payload(a), 4);
			break;
		case RTA_PREFSRC:
			if (len == 4) {
				memcpy(prefsrc, mnl_attr_get_payload(a), 4);
				has_prefsrc = true;
			}
			break;
		case RTA_OIF:
			if (len == 4)
				oif = (int)mnl_attr_get_u32(a);
			break;
		case RTA_TABLE:
			if (len == 4)
				table = mnl_attr_get_u32(a);
			break;
		case RTA_PRIORITY:
			if (len == 4)
				priority = mnl_attr_get_u32(a);
			break;
		case RTA_GATEWAY:
		case RTA_MULTIPATH:
		case RTA_VIA:
			multipath = true;
			break;
		}
	}
	if (table != was->table || priority != was->priority || memcmp(dst, was->dst, 4) != 0)
		return false;
	*is_was = !multipath && oif == was->oif && rtm->rtm_protocol == was->protocol &&
		  rtm->rtm_type == was->type && has_prefsrc == was->has_prefsrc &&
		  (!has_prefsrc || memcmp(prefsrc, was->prefsrc, 4) == 0);
	return true;
}

int route_cc_order_cb(const struct nlmsghdr *nlh, void *data)
{
	struct route_cc_order *o = data;
	bool is_was = false;

	if (o->group_seen || !dumped_in_group(nlh, o->was, &is_was))
		return MNL_CB_OK;
	o->group_seen = true;
	o->was_first = is_was;
	return MNL_CB_OK;
}

struct order_set {
	struct route_cc_order *v;
	size_t n;
};

static int order_set_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct order_set *set = data;
	for (size_t i = 0; i < set->n; i++)
		route_cc_order_cb(nlh, &set->v[i]);
	return MNL_CB_OK;
}

int route_cc_order_dump(struct nlsock *nl, struct route_cc_order *v, size_t n)
{
	char buf[NLSOCK_MSG_SIZE];
	struct order_set set = {v, n};

	if (!n)
		return 0;
	struct nlmsghdr *q = mnl_nlmsg_put_header(buf);
	q->nlmsg_type = RTM_GETROUTE;
	struct rtmsg *qr = mnl_nlmsg_put_extra_header(q, sizeof(*qr));
	qr->rtm_family = AF_INET;
	return nlsock_dump(nl, q, order_set_cb, &set);
}

int route_cc_write(struct nlsock *nl, const struct obs_route *was, const struct obs_route *want,
		   bool append, char *errmsg, size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE];

	int err = nlsock_request(nl, route_cc_build_del(buf, was), errmsg, errlen);
	if (err)
		return err;
	err = nlsock_request(nl, route_cc_build_add(buf, want, append), errmsg, errlen);
	if (!err)
		return 0;
	if (err == -ENOENT && want->cc_algo[0] && !errmsg[0])
		snprintf(errmsg, errlen, "the kernel has no TCP congestion control \"%s\"",
			 want->cc_algo);
	char words[128];
	if (nlsock_request(nl, route_cc_build_add(buf, was, append), words, sizeof(words)) < 0) {
		size_t used = strlen(errmsg);
		snprintf(errmsg + used, errlen - used, "; the route as it was could not be put back "
			 "either (%s)", words[0] ? words : "refused");
	}
	return err;
}
