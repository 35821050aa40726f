/* SPDX-License-Identifier: MIT */
/* What a link's change says of its carrier (carrier_change.h): a table of
 * flags and kernel loss counts before and after. */
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "carrier_change.h"

#define UP IFF_UP
#define LOWER IFF_LOWER_UP

struct carrier_case {
	const char *what;
	unsigned old_flags, now_flags;
	bool counts;                 /* both report IFLA_CARRIER_DOWN_COUNT */
	uint32_t old_count, now_count;
	enum carrier_said say;
	unsigned long lost;
	bool back, flap;
};

static const struct carrier_case cases[] = {
	{"nothing changed", UP | LOWER, UP | LOWER, false, 0, 0, CARRIER_SAY_NOTHING, 0, false,
	 false},
	{"still down", UP, UP, false, 0, 0, CARRIER_SAY_NOTHING, 0, false, false},
	{"carrier lost, admin up: a flap", UP | LOWER, UP, false, 0, 0, CARRIER_SAY_LOST, 1, false,
	 true},
	{"carrier back, admin up: a flap", UP, UP | LOWER, false, 0, 0, CARRIER_SAY_BACK, 0, false,
	 true},
	{"lost with the link set down: the admin's", UP | LOWER, 0, false, 0, 0,
	 CARRIER_SAY_ADMIN_DOWN, 0, false, false},
	{"lost while it was already admin-down", LOWER, 0, false, 0, 0, CARRIER_SAY_ADMIN_DOWN, 0,
	 false, false},
	{"back as it is set up: the admin's, nothing said", 0, UP | LOWER, false, 0, 0,
	 CARRIER_SAY_NOTHING, 0, false, false},
	{"lost and back in one message: the kernel's count says so", UP | LOWER, UP | LOWER, true,
	 7, 8, CARRIER_SAY_LOST, 1, true, true},
	{"three losses in one message", UP | LOWER, UP | LOWER, true, 7, 10, CARRIER_SAY_LOST, 3,
	 true, true},
	{"the count says more than the flags", UP | LOWER, UP, true, 0, 2, CARRIER_SAY_LOST, 2,
	 false, true},
	{"the count not believed past a million", UP | LOWER, UP | LOWER, true, 0, 1000000,
	 CARRIER_SAY_NOTHING, 0, false, false},
	{"a count that went back is not believed", UP | LOWER, UP, true, 10, 3, CARRIER_SAY_LOST, 1,
	 false, true},
	{"the count ignored while the admin sets it down", UP | LOWER, LOWER, true, 1, 5,
	 CARRIER_SAY_NOTHING, 0, false, false},
	{"only one side reports the count", UP | LOWER, UP | LOWER, false, 1, 5,
	 CARRIER_SAY_NOTHING, 0, false, false},
};

static void carrier_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct carrier_case *k = &cases[i];
		struct obs_link old = {.flags = k->old_flags, .has_carrier_down_count = k->counts,
				       .carrier_down_count = k->old_count};
		struct obs_link now = {.flags = k->now_flags, .has_carrier_down_count = k->counts,
				       .carrier_down_count = k->now_count};
		if (i == sizeof(cases) / sizeof(cases[0]) - 1)
			now.has_carrier_down_count = true; /* old lacks it */
		struct carrier_change c = carrier_change_of(&old, &now);
		if (c.say != k->say || c.lost != k->lost || c.back != k->back || c.flap != k->flap)
			fail_msg("%s: say %d lost %lu back %d flap %d, want %d %lu %d %d", k->what,
				 c.say, c.lost, c.back, c.flap, k->say, k->lost, k->back, k->flap);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(carrier_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
