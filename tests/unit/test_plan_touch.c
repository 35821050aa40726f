/* SPDX-License-Identifier: MIT */
/*
 * Which bonds an event touches (plan_touch.h): a table of link events
 * against one configuration and the bonds each must mark, then routes
 * and a configuration big enough that a scan would show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "plan_touch.h"

static void load(const char *conf, struct desired *d)
{
	struct config_diag diag = {0};
	assert_int_equal(config_parse("bondd.conf", conf, strlen(conf), d, &diag), 0);
	config_diag_free(&diag);
}

static struct obs_link link_of(const char *name, int ifindex, int master)
{
	struct obs_link l = {.ifindex = ifindex, .master = master, .flags = IFF_UP};
	snprintf(l.name, sizeof(l.name), "%s", name);
	return l;
}

struct spec {
	const char *name;   /* NULL: no link (appeared, or went) */
	int ifindex, master;
	int lower;          /* IFLA_LINK: a VLAN's or macvlan's lower link */
};

struct touch_case {
	const char *what;
	struct spec old, now;
	const char *want;   /* the touched bonds, "b0 b1", "" for none */
};

/* b0: e1 (enslaved) e2 (missing); b1: f1; addresses on b1 only; b0 and b1
 * ports of vmbr0, b2 of br2 (bridge =).  In the
 * kernel also a link bondd does not manage (x9) and a bond it does not
 * manage (ob). */
static const char conf[] = "[b0]\nslaves = e1 e2\nbridge = vmbr0\n[b1]\nslaves = f1\n"
			   "address = 10.0.0.1/24\nbridge = vmbr0\n[b2]\nslaves = g1\nbridge = br2\n";

static const struct touch_case cases[] = {
	{"a slave deleted: its bond", {"e1", 11, 10, 0}, {NULL, 0, 0, 0}, "b0"},
	{"a missing slave appears: its bond", {NULL, 0, 0, 0}, {"e2", 12, 0, 0}, "b0"},
	{"the carrier of a link not configured: no bond", {"x9", 30, 0, 0}, {"x9", 30, 0, 0}, ""},
	{"a stranger enslaved to a managed bond: that bond", {"x9", 30, 0, 0}, {"x9", 30, 20, 0}, "b1"},
	{"a stranger leaves a managed bond: that bond", {"x9", 30, 20, 0}, {"x9", 30, 0, 0}, "b1"},
	{"a slave enslaved to a bond not managed: its bond", {"f1", 21, 0, 0}, {"f1", 21, 40, 0}, "b1"},
	{"a slave moved between managed bonds: both", {"e1", 11, 10, 0}, {"e1", 11, 20, 0}, "b0 b1"},
	{"a link renamed into an entry's name: that bond", {"x9", 30, 0, 0}, {"f1", 30, 0, 0}, "b1"},
	{"a slave renamed away: its bond", {"e1", 11, 10, 0}, {"zz", 11, 10, 0}, "b0"},
	{"the bond itself", {"b0", 10, 0, 0}, {"b0", 10, 0, 0}, "b0"},
	{"a port of a bond not managed: no bond", {"p1", 41, 40, 0}, {"p1", 41, 40, 0}, ""},
	{"the bond not managed itself: no bond", {"ob", 40, 0, 0}, {NULL, 0, 0, 0}, ""},
	{"a slave of a managed bond, the bond gone from the picture: by name",
	 {"g1", 51, 99, 0}, {"g1", 51, 0, 0}, "b2"},
	{"the bridge two bonds name appears (bridge =): both", {NULL, 0, 0, 0}, {"vmbr0", 60, 0, 0},
	 "b0 b1"},
	{"a bond's bridge goes: that bond", {"br2", 61, 0, 0}, {NULL, 0, 0, 0}, "b2"},
	{"a link renamed into a bond's bridge: that bond", {"x9", 30, 0, 0}, {"br2", 30, 0, 0}, "b2"},
	{"a VLAN on a slave entry deleted: that bond (the slave is free again)",
	 {"e2.100", 70, 0, 12}, {NULL, 0, 0, 0}, "b0"},
	{"a macvlan made on a slave entry: that bond", {NULL, 0, 0, 0}, {"mv1", 71, 0, 21}, "b1"},
	{"a VLAN on a link not configured: no bond", {"x9.5", 72, 0, 30}, {NULL, 0, 0, 0}, ""},
	{"a VLAN made again over a bond: that bond (its uppers)", {NULL, 0, 0, 0},
	 {"b0.21", 73, 0, 10}, "b0"},
};

static void table(void **state)
{
	(void)state;
	struct desired d = {0};
	struct observed obs = {0};
	struct plan_touch t = {0};

	load(conf, &d);
	struct obs_link in[] = {link_of("b0", 10, 0), link_of("b1", 20, 0), link_of("e1", 11, 10),
				link_of("e2", 12, 0), link_of("f1", 21, 0),
				link_of("x9", 30, 0), link_of("ob", 40, 0), link_of("p1", 41, 40)};
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		assert_int_equal(observed_put_link(&obs, &in[i]), 0);
	assert_int_equal(plan_touch_build(&t, &d), 0);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct touch_case *tc = &cases[c];
		struct obs_link old = link_of(tc->old.name ? tc->old.name : "", tc->old.ifindex,
					      tc->old.master);
		struct obs_link now = link_of(tc->now.name ? tc->now.name : "", tc->now.ifindex,
					      tc->now.master);
		old.lower = tc->old.lower;
		now.lower = tc->now.lower;
		bool touched[3] = {false};
		char got[32] = "";
		print_message("case %zu: %s\n", c, tc->what);
		plan_touch_link(&t, &obs, tc->old.name ? &old : NULL, tc->now.name ? &now : NULL,
				touched);
		for (size_t i = 0; i < 3; i++)
			if (touched[i])
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%sb%zu",
					 got[0] ? " " : "", i);
		assert_string_equal(got, tc->want);
	}
	/* Routes: the bonds with addresses. */
	bool touched[3] = {false};
	plan_touch_routes(&d, touched);
	assert_false(touched[0]);
	assert_true(touched[1]);
	assert_false(touched[2]);
	assert_int_equal(plan_touch_find(&t, "f1"), 1);
	assert_int_equal(plan_touch_find(&t, "b2"), 2);
	assert_int_equal(plan_touch_find(&t, "nope"), PLAN_TOUCH_NONE);
	assert_int_equal(plan_touch_find(&t, ""), PLAN_TOUCH_NONE);
	plan_touch_free(&t);
	observed_free(&obs);
	desired_free(&d);
}

/* 256 bonds of 4 slaves: every name finds its bond. */
static void every_name_of_many(void **state)
{
	(void)state;
	enum { N = 256 };
	size_t len = N * 64, used = 0;
	char *text = malloc(len);
	struct desired d = {0};
	struct plan_touch t = {0};

	assert_non_null(text);
	for (size_t b = 0; b < N; b++)
		used += (size_t)snprintf(text + used, len - used,
					 "[b%zu]\nslaves = d%zu_a d%zu_b d%zu_c d%zu_d\n", b, b, b, b, b);
	load(text, &d);
	assert_int_equal(plan_touch_build(&t, &d), 0);
	assert_int_equal(t.n, N * 5);
	for (size_t b = 0; b < N; b++) {
		char name[16];
		snprintf(name, sizeof(name), "b%zu", b);
		assert_int_equal(plan_touch_find(&t, name), b);
		snprintf(name, sizeof(name), "d%zu_c", b);
		assert_int_equal(plan_touch_find(&t, name), b);
	}
	plan_touch_free(&t);
	desired_free(&d);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(every_name_of_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
