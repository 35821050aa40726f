/* SPDX-License-Identifier: MIT */
/*
 * Rewriting a connected route with another RTAX_CC_ALGO.  The route is
 * replaced with everything it had (table, protocol kernel, scope link,
 * preferred source, priority, other metrics), so the kernel still
 * recognises it as the address's own route and removes it with the
 * address (net/ipv4/fib_frontend.c fib_del_ifaddr matches those fields).
 * The algorithm goes by name; the kernel loads tcp_NAME if it can
 * (net/ipv4/tcp_cong.c tcp_ca_get_key_by_name, with CAP_NET_ADMIN) and
 * refuses a name it does not know.
 */
#include "route_cc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>

int route_cc_write(struct nlsock *nl, const struct obs_route *r, char *errmsg, size_t errlen)
{
	char buf[NLSOCK_MSG_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RTM_NEWROUTE;
	nlh->nlmsg_flags = NLM_F_CREATE | NLM_F_REPLACE;
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
		mnl_attr_put_u32(nlh, (uint16_t)t, r->metrics[t]);
	}
	if (r->cc_algo[0])
		mnl_attr_put_strz(nlh, RTAX_CC_ALGO, r->cc_algo);
	mnl_attr_nest_end(nlh, metrics);
	int err = nlsock_request(nl, nlh, errmsg, errlen);
	if (err == -ENOENT && r->cc_algo[0] && !errmsg[0])
		snprintf(errmsg, errlen, "the kernel has no TCP congestion control \"%s\"",
			 r->cc_algo);
	return err;
}
