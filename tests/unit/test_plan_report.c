/* SPDX-License-Identifier: MIT */
/* The plan as data and its printers (plan_report.h): grouping by bond in
 * config order, the traffic flag, --detailed-exitcode's verdict, and the
 * exact text and JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "plan_report.h"

static struct desired_bond two_bonds[2] = {{.name = "bond0"}, {.name = "ab0"}};
static const struct desired two = {.bonds = two_bonds, .n_bonds = 2};

static void push(struct action_list *l, enum action_kind k, const char *bond,
		 const char *ifname, const char *why)
{
	struct action a = {.kind = k, .why = why};
	snprintf(a.bond, sizeof(a.bond), "%s", bond);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	assert_non_null(action_list_push(l, &a));
}

static char *render(const struct plan_report *r, bool json)
{
	static struct strbuf b;
	sb_reset(&b);
	if (json)
		plan_report_json(r, &b);
	else
		plan_report_text(r, &b);
	assert_false(b.oom);
	return b.s;
}

static void nothing_to_do(void **state)
{
	(void)state;
	struct action_list l = {0};
	struct plan_report r;

	assert_int_equal(plan_report_build(&two, &l, &r), 0);
	assert_false(plan_report_changes(&r));
	assert_int_equal(r.n_bonds, 2);
	assert_string_equal(render(&r, true),
		"{\"plan\":1,\"changes\":false,\"actions\":0,\"disrupting\":0,\"bonds\":["
		"{\"name\":\"bond0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"notes\":[]}]}\n");
	assert_string_equal(render(&r, false),
		"nothing to do: the kernel matches the configuration\n");
	plan_report_free(&r);
}

/* A note alone changes nothing: --detailed-exitcode says 0. */
static void note_alone_is_no_change(void **state)
{
	(void)state;
	struct action_list l = {0};
	struct plan_report r;

	assert_non_null(action_list_note(&l, "ab0", "e8", "carries address %s, not enslaving it",
					 "198.51.100.8/24"));
	assert_int_equal(plan_report_build(&two, &l, &r), 0);
	assert_false(plan_report_changes(&r));
	assert_string_equal(render(&r, true),
		"{\"plan\":1,\"changes\":false,\"actions\":0,\"disrupting\":0,\"bonds\":["
		"{\"name\":\"bond0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],"
		"\"notes\":[{\"interface\":\"e8\",\"message\":\"carries address 198.51.100.8/24, not enslaving it\"}]}]}\n");
	plan_report_free(&r);
	action_list_free(&l);
}

/* A re-build: the bond set down, its option changed, up again; each
 * action carries its reason and traffic flag, grouped under its bond in
 * config order although the plan named ab0 first.  The text keeps the
 * plan's order. */
static void rebuild_grouped_and_flagged(void **state)
{
	(void)state;
	struct action_list l = {0};
	struct plan_report r;

	push(&l, ACT_ENSLAVE, "ab0", "e5", "missing");
	push(&l, ACT_LINK_DOWN, "bond0", "bond0", "rebuild");
	push(&l, ACT_SET_OPTS, "bond0", "bond0", "rebuild");
	push(&l, ACT_LINK_UP, "bond0", "bond0", "down");
	push(&l, ACT_SET_MTU, "bond0", "e2", "mtu");
	assert_int_equal(plan_report_build(&two, &l, &r), 0);
	assert_true(plan_report_changes(&r));
	assert_int_equal(r.n_actions, 5);
	assert_int_equal(r.n_disrupting, 2);
	assert_int_equal(r.bonds[0].n_actions, 4);
	assert_int_equal(r.bonds[0].n_disrupting, 2);
	assert_int_equal(r.bonds[1].n_actions, 1);
	assert_string_equal(render(&r, true),
		"{\"plan\":1,\"changes\":true,\"actions\":5,\"disrupting\":2,\"bonds\":["
		"{\"name\":\"bond0\",\"changes\":true,\"disrupts_traffic\":true,\"actions\":["
		"{\"action\":\"link-down\",\"interface\":\"bond0\",\"reason\":\"rebuild\",\"disrupts_traffic\":true,\"description\":\"link-down bond0 (rebuild)\"},"
		"{\"action\":\"set-options\",\"interface\":\"bond0\",\"reason\":\"rebuild\",\"disrupts_traffic\":true,\"description\":\"set bond0 (rebuild)\"},"
		"{\"action\":\"link-up\",\"interface\":\"bond0\",\"reason\":\"down\",\"disrupts_traffic\":false,\"description\":\"link-up bond0 (down)\"},"
		"{\"action\":\"set-mtu\",\"interface\":\"e2\",\"reason\":\"mtu\",\"disrupts_traffic\":false,\"description\":\"set e2 mtu 0 (mtu)\"}"
		"],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":true,\"disrupts_traffic\":false,\"actions\":["
		"{\"action\":\"enslave\",\"interface\":\"e5\",\"reason\":\"missing\",\"disrupts_traffic\":false,\"description\":\"enslave e5 to ab0 (missing)\"}"
		"],\"notes\":[]}]}\n");
	assert_string_equal(render(&r, false),
		"ab0: enslave e5 to ab0 (missing)\n"
		"bond0: link-down bond0 (rebuild)  [disrupts traffic]\n"
		"bond0: set bond0 (rebuild)  [disrupts traffic]\n"
		"bond0: link-up bond0 (down)\n"
		"bond0: set e2 mtu 0 (mtu)\n"
		"5 actions, 2 disrupting traffic; none taken\n");
	plan_report_free(&r);
	action_list_free(&l);
}

/* A bond the plan names that the config does not (a bond whose section
 * was removed but that bondd still manages) comes after the configured
 * ones; a name that is not UTF-8 stays valid JSON (surrogateescape). */
static void unconfigured_bond_and_odd_names(void **state)
{
	(void)state;
	struct action_list l = {0};
	struct plan_report r;
	const struct desired none = {0};

	push(&l, ACT_DELETE_BOND, "old\xff", "old\xff", "absent");
	assert_int_equal(plan_report_build(&none, &l, &r), 0);
	assert_int_equal(r.n_bonds, 1);
	assert_true(plan_report_changes(&r));
	assert_string_equal(render(&r, true),
		"{\"plan\":1,\"changes\":true,\"actions\":1,\"disrupting\":1,\"bonds\":["
		"{\"name\":\"old\\udcff\",\"changes\":true,\"disrupts_traffic\":true,\"actions\":["
		"{\"action\":\"delete\",\"interface\":\"old\\udcff\",\"reason\":\"absent\",\"disrupts_traffic\":true,\"description\":\"delete old\\udcff (absent)\"}"
		"],\"notes\":[]}]}\n");
	plan_report_free(&r);
	action_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_to_do),
		cmocka_unit_test(note_alone_is_no_change),
		cmocka_unit_test(rebuild_grouped_and_flagged),
		cmocka_unit_test(unconfigured_bond_and_odd_names),
	};
	return cmocka_run_group_tests(tests, 0, NULL);
}
