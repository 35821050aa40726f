/* SPDX-License-Identifier: MIT */
/* The reasons of one bond's actions, each once (action_reasons.h): a table
 * of plans and the text each gives, by reason and by link. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "action_reasons.h"

struct step {
	const char *bond, *ifname, *why;
};

struct reasons_case {
	const char *what;
	struct step plan[8];
	size_t n;
	bool by_link;
	size_t len;           /* the text's buffer */
	const char *want;     /* the text; NULL: no reason at all */
};

static const struct reasons_case cases[] = {
	{"no actions", {{0}}, 0, false, 96, NULL},
	{"one reason", {{"bond0", "eth0", "mac"}}, 1, false, 96, "mac"},
	{"each reason once, in plan order",
	 {{"bond0", "eth0", "order"}, {"bond0", "eth1", "mac"}, {"bond0", "eth2", "order"},
	  {"bond0", "bond0", "mtu"}},
	 4, false, 96, "order, mac, mtu"},
	{"another bond's actions are not its",
	 {{"bond1", "eth5", "missing"}, {"bond0", "eth0", "mac"}, {"bond1", "eth6", "order"}},
	 3, false, 96, "mac"},
	{"only another bond's actions", {{"bond1", "eth5", "missing"}}, 1, false, 96, NULL},
	{"an action without a reason is skipped", {{"bond0", "eth0", NULL}}, 1, false, 96, NULL},
	{"by link: an action without a reason is drift", {{"bond0", "eth0", NULL}}, 1, true, 160,
	 "eth0: drift"},
	{"by link: each link and reason once",
	 {{"bond0", "eth0", "missing"}, {"bond0", "eth0", "missing"}, {"bond0", "eth1", "missing"},
	  {"bond0", "eth0", "order"}},
	 4, true, 160, "eth0: missing, eth1: missing, eth0: order"},
	/* the text used to be searched for what it already held: "eth1: mac"
	 * was found inside "veth1: mac" and left out */
	{"by link: a name inside another is its own",
	 {{"bond0", "veth1", "mac"}, {"bond0", "eth1", "mac"}}, 2, true, 160,
	 "veth1: mac, eth1: mac"},
	{"cut where the buffer is full",
	 {{"bond0", "a", "route congestion control"}, {"bond0", "b", "every slave released"}},
	 2, false, 32, "route congestion control, every"},
};

static void reasons_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct reasons_case *c = &cases[i];
		struct action plan[8];
		struct action_reasons r;
		char text[160];
		memset(plan, 0, sizeof(plan));
		for (size_t j = 0; j < c->n; j++) {
			snprintf(plan[j].bond, sizeof(plan[j].bond), "%s", c->plan[j].bond);
			snprintf(plan[j].ifname, sizeof(plan[j].ifname), "%s", c->plan[j].ifname);
			plan[j].why = c->plan[j].why;
		}
		action_reasons_of(&r, plan, c->n, "bond0", c->by_link);
		bool any = action_reasons_text(&r, text, c->len);
		if (any != (c->want != NULL) || strcmp(text, c->want ? c->want : "") != 0)
			fail_msg("%s: \"%s\" (%s), want \"%s\"", c->what, text, any ? "some" : "none",
				 c->want ? c->want : "");
	}
}

/* More distinct reasons than it keeps: the first ACTION_REASONS_MAX. */
static void bounded(void **state)
{
	(void)state;
	static struct action plan[ACTION_REASONS_MAX + 8];
	for (size_t j = 0; j < ACTION_REASONS_MAX + 8; j++) {
		snprintf(plan[j].bond, sizeof(plan[j].bond), "bond0");
		snprintf(plan[j].ifname, sizeof(plan[j].ifname), "eth%zu", j);
		plan[j].why = "missing";
	}
	struct action_reasons r;
	action_reasons_of(&r, plan, ACTION_REASONS_MAX + 8, "bond0", true);
	assert_int_equal(r.n, ACTION_REASONS_MAX);
	assert_string_equal(r.ifname[ACTION_REASONS_MAX - 1], "eth31");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reasons_table),
		cmocka_unit_test(bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
