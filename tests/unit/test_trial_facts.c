/* SPDX-License-Identifier: MIT */
/* The facts a reload on trial is judged by, from the observed links
 * (trial_facts.h): a table of kernels and the facts each gives. */
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bond_option_table.h"
#include "trial_facts.h"

struct lk {
	const char *name, *kind;
	int ifindex, master;
	unsigned flags;
};

struct facts_case {
	const char *what;
	struct lk links[6];
	size_t n;
	/* before, then now */
	bool existed, was_up;
	unsigned slaves_before;
	bool exists, up;
	unsigned slaves;
};

#define UPC (IFF_UP | IFF_LOWER_UP)

/* bond0 is configured with eth0 and eth1. */
static const struct facts_case cases[] = {
	{"no such link", {{0}}, 0, false, false, 0, false, false, 0},
	{"a link of the bond's name that is no bond", {{"bond0", "veth", 5, 0, UPC}}, 1, false,
	 false, 0, false, false, 0},
	{"a bond, up, two slaves", {{"bond0", "bond", 5, 0, UPC}, {"eth0", "", 2, 5, UPC},
	 {"eth1", "", 3, 5, UPC}}, 3, true, true, 2, true, true, 2},
	{"set up but without carrier: not up", {{"bond0", "bond", 5, 0, IFF_UP}}, 1, true, false,
	 0, true, false, 0},
	{"carrier but admin-down: not up", {{"bond0", "bond", 5, 0, IFF_LOWER_UP}}, 1, true, false,
	 0, true, false, 0},
	/* before, every slave of the bond counts; now, only the configured */
	{"a slave not configured", {{"bond0", "bond", 5, 0, UPC}, {"eth0", "", 2, 5, UPC},
	 {"eth9", "", 9, 5, UPC}}, 3, true, true, 2, true, true, 1},
	{"a configured slave in another bond", {{"bond0", "bond", 5, 0, UPC},
	 {"bond1", "bond", 6, 0, UPC}, {"eth0", "", 2, 6, UPC}, {"eth1", "", 3, 5, UPC}}, 4,
	 true, true, 1, true, true, 1},
};

static void facts_table(void **state)
{
	(void)state;
	struct desired_bond b = {.name = "bond0", .n_slaves = 2};
	snprintf(b.slaves[0].name, sizeof(b.slaves[0].name), "eth0");
	snprintf(b.slaves[1].name, sizeof(b.slaves[1].name), "eth1");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct facts_case *c = &cases[i];
		struct observed o = {0};
		for (size_t j = 0; j < c->n; j++) {
			struct obs_link l = {.ifindex = c->links[j].ifindex,
					     .master = c->links[j].master, .flags = c->links[j].flags};
			snprintf(l.name, sizeof(l.name), "%s", c->links[j].name);
			snprintf(l.kind, sizeof(l.kind), "%s", c->links[j].kind);
			assert_int_equal(observed_put_link(&o, &l), 0);
		}
		struct trial_bond f = {0};
		trial_facts_before(&f, &b, &o);
		trial_facts_now(&f, &b, &o);
		if (strcmp(f.name, "bond0") != 0 || f.existed != c->existed || f.was_up != c->was_up ||
		    f.slaves_before != c->slaves_before || f.exists != c->exists || f.up != c->up ||
		    f.slaves != c->slaves)
			fail_msg("%s: before %d %d %u, now %d %d %u", c->what, f.existed, f.was_up,
				 f.slaves_before, f.exists, f.up, f.slaves);
		/* a bond the running configuration lacks: none of its slaves */
		trial_facts_now(&f, NULL, &o);
		assert_int_equal(f.slaves, 0);
		observed_free(&o);
	}
}

static void paths_kept(void **state)
{
	(void)state;
	const uint16_t before[] = {4, 2, 0};
	const unsigned same[] = {4, 2, 0}, fewer[] = {3, 2, 0}, more[] = {4, 6, 5},
		       moved[] = {0, 6, 0};
	assert_int_equal(trial_paths_kept(before, same, 3), 6);
	assert_int_equal(trial_paths_kept(before, fewer, 3), 5);
	/* new paths of one slave do not make up for another's */
	assert_int_equal(trial_paths_kept(before, more, 3), 6);
	assert_int_equal(trial_paths_kept(before, moved, 3), 2);
	assert_int_equal(trial_paths_kept(before, same, 0), 0);
}

static void grace_inputs(void **state)
{
	(void)state;
	struct desired_bond bonds[3] = {{.name = "bond0"}, {.name = "bond1"}, {.name = "bond2"}};
	struct desired next = {.bonds = bonds, .n_bonds = 3};
	uint32_t updelay = 99;
	bool lacp = true;

	trial_grace_inputs(&next, &updelay, &lacp);
	assert_int_equal(updelay, 0);
	assert_false(lacp);
	bond_settings_set(&bonds[1].opts, OPT_UPDELAY, 200);
	bond_settings_set(&bonds[2].opts, OPT_UPDELAY, 500);
	bond_settings_set(&bonds[2].opts, OPT_MODE, MODE_8023AD);
	trial_grace_inputs(&next, &updelay, &lacp);
	assert_int_equal(updelay, 500);
	assert_true(lacp);
	/* a bond to be deleted is not waited for */
	bonds[2].absent = true;
	trial_grace_inputs(&next, &updelay, &lacp);
	assert_int_equal(updelay, 200);
	assert_false(lacp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(facts_table),
		cmocka_unit_test(paths_kept),
		cmocka_unit_test(grace_inputs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
