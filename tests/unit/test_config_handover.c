/* SPDX-License-Identifier: MIT */
/* What a new configuration takes over from the running one
 * (config_handover.h): which running bonds it drops, and the bridge each
 * bond remembers.  A table of bonds before and after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config_handover.h"

struct bond_case {
	const char *what;
	/* the running configuration's bond ("" name: none) */
	const char *name;
	bool absent;
	const char *bridge, *bridge_was;
	/* next's bond of that name (NULL: next lacks it) */
	const char *next_bridge;
	/* afterwards */
	bool dropped;
	const char *next_bridge_was;
};

static const struct bond_case cases[] = {
	{"kept, same bridge: nothing remembered", "bond0", false, "br0", "", "br0", false, ""},
	{"kept, bridge changed: the old one remembered", "bond1", false, "br0", "", "br1", false,
	 "br0"},
	{"kept, bridge dropped: the old one remembered", "bond2", false, "br0", "", "", false,
	 "br0"},
	{"kept, no bridge before: what it remembered stays", "bond3", false, "", "brX", "br1",
	 false, "brX"},
	{"kept, same bridge, an older one remembered: kept", "bond4", false, "br0", "brOld", "br0",
	 false, "brOld"},
	{"dropped: left in place, unmanaged", "bond5", false, "br0", "", NULL, true, NULL},
	{"absent before and not in next: nothing to drop", "bond6", true, "", "", NULL, false,
	 NULL},
	{"new in next: remembers none", "", false, "", "", "br7", false, ""},
};

#define N (sizeof(cases) / sizeof(cases[0]))

static void handover_table(void **state)
{
	(void)state;
	struct desired_bond run_b[N], next_b[N];
	struct desired running = {.bonds = run_b}, next = {.bonds = next_b};

	memset(run_b, 0, sizeof(run_b));
	memset(next_b, 0, sizeof(next_b));
	for (size_t i = 0; i < N; i++) {
		const struct bond_case *c = &cases[i];
		char name[IFNAMSIZ];
		snprintf(name, sizeof(name), "%s", c->name[0] ? c->name : "bond7");
		if (c->name[0]) {
			struct desired_bond *b = &run_b[running.n_bonds++];
			snprintf(b->name, sizeof(b->name), "%s", name);
			b->absent = c->absent;
			snprintf(b->bridge, sizeof(b->bridge), "%s", c->bridge);
			snprintf(b->bridge_was, sizeof(b->bridge_was), "%s", c->bridge_was);
		}
		if (c->next_bridge) {
			struct desired_bond *b = &next_b[next.n_bonds++];
			snprintf(b->name, sizeof(b->name), "%s", name);
			snprintf(b->bridge, sizeof(b->bridge), "%s", c->next_bridge);
		}
	}
	handover_bridges(&running, &next);
	for (size_t i = 0, r = 0; i < N; i++) {
		const struct bond_case *c = &cases[i];
		if (c->name[0]) {
			bool dropped = handover_dropped(&run_b[r++], &next);
			if (dropped != c->dropped)
				fail_msg("%s: dropped %d", c->what, dropped);
		}
		if (!c->next_bridge)
			continue;
		const struct desired_bond *nb = desired_find_bond(&next, c->name[0] ? c->name :
								  "bond7");
		if (strcmp(nb->bridge_was, c->next_bridge_was) != 0)
			fail_msg("%s: remembers \"%s\", want \"%s\"", c->what, nb->bridge_was,
				 c->next_bridge_was);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handover_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
