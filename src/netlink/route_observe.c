/* SPDX-License-Identifier: MIT */
/* Connected routes from rtnetlink: the parser, and events applied to the
 * observed list (model/routes.c). */
#include "route_observe.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>

#include "observed.h"

static void parse_metrics(const struct nlattr *nest, struct obs_route *r)
{
	const struct nlattr *m;

	mnl_attr_for_each_nested(m, nest) {
		uint16_t type = mnl_attr_get_type(m);
		if (type == RTAX_CC_ALGO) {
			/* The kernel dumps the algorithm by name
			 * (net/core/rtnetlink.c rtnetlink_put_metrics). */
			size_t n = mnl_attr_get_payload_len(m);
			const char *s = mnl_attr_get_payload(m);
			n = strnlen(s, n);
			if (n >= sizeof(r->cc_algo))
				n = sizeof(r->cc_algo) - 1;
			memcpy(r->cc_algo, s, n);
			r->cc_algo[n] = '\0';
		} else if (type < ROUTE_METRICS_MAX && mnl_attr_get_payload_len(m) == 4) {
			r->metrics[type] = mnl_attr_get_u32(m);
			r->metrics_set |= 1u << type;
		} else {
			r->unknown_metric = true;
		}
	}
}

int route_parse(const struct nlmsghdr *nlh, struct obs_route *r)
{
	const struct rtmsg *rtm;
	const struct nlattr *a;
	bool gateway = false;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*rtm)))
		return -EINVAL;
	rtm = mnl_nlmsg_get_payload(nlh);
	memset(r, 0, sizeof(*r));
	r->family = rtm->rtm_family;
	r->dst_len = rtm->rtm_dst_len;
	r->table = rtm->rtm_table;
	r->protocol = rtm->rtm_protocol;
	r->scope = rtm->rtm_scope;
	r->type = rtm->rtm_type;
	r->tos = rtm->rtm_tos;
	/* Only what the kernel makes for an interface address: the rest of a
	 * routing table (possibly a million routes) is not ours to copy. */
	if (rtm->rtm_family != AF_INET || rtm->rtm_protocol != RTPROT_KERNEL ||
	    rtm->rtm_type != RTN_UNICAST || rtm->rtm_src_len != 0 || (rtm->rtm_flags & RTM_F_CLONED))
		return -ENOENT;
	mnl_attr_for_each(a, nlh, sizeof(*rtm)) {
		uint16_t type = mnl_attr_get_type(a);
		size_t len = mnl_attr_get_payload_len(a);
		switch (type) {
		case RTA_DST:
			if (len != 4)
				return -EINVAL;
			memcpy(r->dst, mnl_attr_get_payload(a), 4);
			break;
		case RTA_PREFSRC:
			if (len != 4)
				return -EINVAL;
			memcpy(r->prefsrc, mnl_attr_get_payload(a), 4);
			r->has_prefsrc = true;
			break;
		case RTA_OIF:
			if (len != 4)
				return -EINVAL;
			r->oif = (int)mnl_attr_get_u32(a);
			break;
		case RTA_TABLE:
			if (len != 4)
				return -EINVAL;
			r->table = mnl_attr_get_u32(a);
			break;
		case RTA_PRIORITY:
			if (len != 4)
				return -EINVAL;
			r->priority = mnl_attr_get_u32(a);
			break;
		case RTA_METRICS:
			parse_metrics(a, r);
			break;
		case RTA_GATEWAY:
		case RTA_MULTIPATH:
		case RTA_VIA:
			gateway = true;
			break;
		}
	}
	/* The kernel puts an address's prefix route in the main table
	 * (net/ipv4/fib_frontend.c fib_add_ifaddr, fib_magic with
	 * RT_TABLE_MAIN; a VRF's own table for a device in a VRF, which
	 * tcp_congestion does not serve).  A copy an admin keeps in another
	 * table (policy routing: `ip route add ... table 100`, even with
	 * protocol kernel) is theirs, with its own metrics: not observed,
	 * never rewritten. */
	if (r->table != RT_TABLE_MAIN)
		return -ENOENT;
	return gateway || !r->oif ? -ENOENT : 0;
}

void route_observe_apply(struct observed *o, const struct nlmsghdr *nlh)
{
	struct obs_route r;

	if (route_parse(nlh, &r) < 0)
		return;
	if (nlh->nlmsg_type == RTM_DELROUTE)
		observed_del_route(o, &r);
	else if (nlh->nlmsg_flags & NLM_F_MULTI)
		observed_put_route(o, &r); /* a dump: in the kernel's order */
	else
		observed_put_route_flags(o, &r, nlh->nlmsg_flags);
}
