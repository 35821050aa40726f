/* SPDX-License-Identifier: MIT */
/* What /proc/net/bonding/<bond> says of an 802.3ad bond, applied to
 * bondd's picture of it (lacp_proc.c): the active aggregator, each slave's
 * aggregator and churn states; a slave of another bond, a line missing or
 * churn netlink never reported leave the picture as it was.  The text as
 * the kernel writes it (bond_procfs.c bond_info_show_master and
 * bond_info_show_slave). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "daemon_parts.h"

static const char proc_text[] =
	"Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
	"Active Aggregator Info:\n"
	"\tAggregator ID: 2\n"
	"\tNumber of ports: 1\n"
	"\n"
	"Slave Interface: eth0\n"
	"MII Status: up\n"
	"Aggregator ID: 2\n"
	"Actor Churn State: none\n"
	"Partner Churn State: churned\n"
	"\n"
	"Slave Interface: eth1\n"
	"MII Status: up\n"
	"Aggregator ID: 3\n"
	"Actor Churn State: churned\n"
	"Partner Churn State: none\n"
	"\n"
	"Slave Interface: eth2\n"
	"MII Status: up\n"
	"Aggregator ID: 4\n"
	"\n"
	"Slave Interface: eth3\n"
	"Aggregator ID: 5\n"
	"Actor Churn State: none\n"
	"Partner Churn State: none\n";

struct slave_case {
	const char *name;
	int master;
	bool churn_reported;      /* netlink said churn states for it */
	uint16_t aggregator;      /* afterwards */
	uint8_t actor, partner;   /* afterwards */
};

static const struct slave_case slaves[] = {
	/* in bond0: the text's values */
	{"eth0", 10, true, 2, AD_CHURN_NONE, AD_CHURN_CHURNED},
	{"eth1", 10, true, 3, AD_CHURN_CHURNED, AD_CHURN_NONE},
	/* no churn lines: the aggregator only */
	{"eth2", 10, true, 4, AD_CHURN_MONITOR, AD_CHURN_MONITOR},
	/* a slave of another bond now (the text is older): untouched */
	{"eth3", 20, true, 1, AD_CHURN_MONITOR, AD_CHURN_MONITOR},
};

static void applied(void **state)
{
	(void)state;
	struct observed obs = {0};
	struct obs_link bond = {.ifindex = 10, .info = {.has_ad_info = true, .ad_aggregator = 1}};

	snprintf(bond.name, sizeof(bond.name), "bond0");
	snprintf(bond.kind, sizeof(bond.kind), "bond");
	assert_int_equal(observed_put_link(&obs, &bond), 0);
	for (size_t i = 0; i < sizeof(slaves) / sizeof(slaves[0]); i++) {
		struct obs_link l = {.ifindex = 11 + (int)i, .master = slaves[i].master,
				     .slave = {.valid = true, .ad_aggregator_id = 1,
					       .has_churn = slaves[i].churn_reported}};
		snprintf(l.name, sizeof(l.name), "%s", slaves[i].name);
		assert_int_equal(observed_put_link(&obs, &l), 0);
	}
	struct obs_link *b = (struct obs_link *)observed_by_name(&obs, "bond0");
	lacp_proc_apply(&obs, b, proc_text, strlen(proc_text));
	assert_int_equal(b->info.ad_aggregator, 2);
	for (size_t i = 0; i < sizeof(slaves) / sizeof(slaves[0]); i++) {
		const struct obs_link *l = observed_by_name(&obs, slaves[i].name);
		if (l->slave.ad_aggregator_id != slaves[i].aggregator ||
		    l->slave.ad_churn_actor_state != slaves[i].actor ||
		    l->slave.ad_churn_partner_state != slaves[i].partner)
			fail_msg("%s: aggregator %u churn %u/%u", slaves[i].name,
				 l->slave.ad_aggregator_id, l->slave.ad_churn_actor_state,
				 l->slave.ad_churn_partner_state);
	}

	/* churn netlink never reported (a kernel without it): not from /proc either */
	struct obs_link *e0 = (struct obs_link *)observed_by_name(&obs, "eth0");
	e0->slave.has_churn = false;
	e0->slave.ad_churn_actor_state = AD_CHURN_MONITOR;
	lacp_proc_apply(&obs, b, proc_text, strlen(proc_text));
	assert_int_equal(e0->slave.ad_churn_actor_state, AD_CHURN_MONITOR);

	/* a bond without an active aggregator keeps its id; text cut short
	 * before any slave block changes no slave */
	b->info.has_ad_info = false;
	b->info.ad_aggregator = 7;
	e0->slave.ad_aggregator_id = 9;
	lacp_proc_apply(&obs, b, proc_text, 60);
	assert_int_equal(b->info.ad_aggregator, 7);
	assert_int_equal(e0->slave.ad_aggregator_id, 9);
	observed_free(&obs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(applied),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
