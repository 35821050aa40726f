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
