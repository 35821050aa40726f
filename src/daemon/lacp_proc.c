/* SPDX-License-Identifier: MIT */
/* What /proc/net/bonding/<bond> says of an 802.3ad bond, applied to
 * bondd's picture of it (daemon_parts.h lacp_proc_apply).  Pure: the text
 * is read by the caller (daemon_view.c lacp_live). */
#include "daemon_parts.h"
#include "proc_filter.h"

#include <string.h>

/* One slave block, into the observed slave of that name when it is that
 * bond's. */
struct lacp_ctx {
	struct observed *obs;
	int bond_ifindex;
};

static void lacp_slave(void *ctx, const struct proc_lacp_slave *ps)
{
	struct lacp_ctx *c = ctx;
	char name[IFNAMSIZ];

	if (ps->name_len >= sizeof(name))
		return;
	memcpy(name, ps->name, ps->name_len);
	name[ps->name_len] = '\0';
	struct obs_link *s = (struct obs_link *)observed_by_name(c->obs, name);
	if (!s || s->master != c->bond_ifindex || !s->slave.valid)
		return;
	if (ps->has_aggregator)
		s->slave.ad_aggregator_id = ps->aggregator;
	if (s->slave.has_churn && ps->has_churn) {
		s->slave.ad_churn_actor_state = ps->actor_churn;
		s->slave.ad_churn_partner_state = ps->partner_churn;
	}
}

void lacp_proc_apply(struct observed *obs, struct obs_link *bond, const char *text, size_t len)
{
	uint16_t id;

	if (bond->info.has_ad_info && proc_active_aggregator(text, len, &id))
		bond->info.ad_aggregator = id;
	struct lacp_ctx c = {obs, bond->ifindex};
	proc_lacp_scan(text, len, lacp_slave, &c);
}
