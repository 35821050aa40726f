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
		"{\"name\":\"bond0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"uppers_affected\":[],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"uppers_affected\":[],\"notes\":[]}]}\n");
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
		"{\"name\":\"bond0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],\"uppers_affected\":[],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":false,\"disrupts_traffic\":false,\"actions\":[],"
		"\"uppers_affected\":[],\"notes\":[{\"interface\":\"e8\",\"message\":\"carries address 198.51.100.8/24, not enslaving it\"}]}]}\n");
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
		"],\"uppers_affected\":[],\"notes\":[]},"
		"{\"name\":\"ab0\",\"changes\":true,\"disrupts_traffic\":false,\"actions\":["
		"{\"action\":\"enslave\",\"interface\":\"e5\",\"reason\":\"missing\",\"disrupts_traffic\":false,\"description\":\"enslave e5 to ab0 (missing)\"}"
		"],\"uppers_affected\":[],\"notes\":[]}]}\n");
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
		"],\"uppers_affected\":[],\"notes\":[]}]}\n");
	plan_report_free(&r);
	action_list_free(&l);
}

static void put_link(struct observed *o, int ifindex, const char *name, const char *kind,
		     int master, int lower, uint16_t vid)
{
	struct obs_link l;

	memset(&l, 0, sizeof(l));
	l.ifindex = ifindex;
	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind);
	l.master = master;
	l.lower = lower;
	l.vlan_id = vid;
	assert_int_equal(observed_put_link(o, &l), 0);
}

/* A re-build that sets the bond down names the uppers that go down with
 * it and what each loses; one that leaves the bond up without slaves, and
 * a deletion, say theirs; a bond whose plan disrupts nothing names none. */
static void uppers_named(void **state)
{
	(void)state;
	struct action_list l = {0};
	struct plan_report r;
	struct observed o = {0};

	put_link(&o, 4, "vmbr0", "bridge", 0, 0, 0);
	put_link(&o, 5, "bond0", "bond", 4, 0, 0);
	put_link(&o, 6, "bond0.21", "vlan", 0, 5, 21);
	put_link(&o, 7, "ab0", "bond", 0, 0, 0);
	put_link(&o, 8, "mv0", "macvlan", 0, 7, 0);
	push(&l, ACT_LINK_DOWN, "bond0", "bond0", "rebuild");
	push(&l, ACT_SET_OPTS, "bond0", "bond0", "rebuild");
	push(&l, ACT_LINK_UP, "bond0", "bond0", "rebuild");
	push(&l, ACT_SET_MTU, "ab0", "ab0", "mtu");
	assert_int_equal(plan_report_build(&two, &l, &r), 0);
	assert_int_equal(plan_report_uppers(&r, &o), 0);
	assert_int_equal(r.bonds[0].effect, PUE_DOWN);
	assert_int_equal(r.bonds[0].n_uppers, 2);
	assert_int_equal(r.bonds[1].effect, PUE_NONE);
	assert_int_equal(r.bonds[1].n_uppers, 0);
	const char *text = render(&r, false);
	assert_non_null(strstr(text,
		"bond0: takes down bridge port of vmbr0: its port is disabled while the bond is "
		"down, and forwards again only after the bridge's forward delay when STP is on\n"
		"bond0: takes down vlan bond0.21: set down with the bond and up again after it: "
		"may lose its IPv6 addresses (keep_addr_on_down 0) and the routes through it\n"
		"4 actions, 2 disrupting traffic; none taken\n"));
	const char *json = render(&r, true);
	assert_non_null(strstr(json, "\"uppers_affected\":["
		"{\"name\":\"vmbr0\",\"kind\":\"bridge\",\"ifindex\":4,\"port\":true,"
		"\"effect\":\"down\",\"loses\":"));
	assert_non_null(strstr(json, "{\"name\":\"bond0.21\",\"kind\":\"vlan\",\"ifindex\":6,"
		"\"vlan_id\":21,\"port\":false,\"effect\":\"down\""));
	plan_report_free(&r);
	action_list_clear(&l);

	/* Every slave released, the bond left up (fail_over_mac); ab0 deleted. */
	push(&l, ACT_RELEASE, "bond0", "e1", "rebuild");
	push(&l, ACT_SET_OPTS, "bond0", "bond0", "rebuild");
	push(&l, ACT_DELETE_BOND, "ab0", "ab0", "state absent");
	assert_int_equal(plan_report_build(&two, &l, &r), 0);
	assert_int_equal(plan_report_uppers(&r, &o), 0);
	assert_int_equal(r.bonds[0].effect, PUE_NO_CARRIER);
	assert_int_equal(r.bonds[1].effect, PUE_DELETED);
	text = render(&r, false);
	assert_non_null(strstr(text, "bond0: takes down vlan bond0.21: has no carrier while the "
				     "bond has no slave\n"));
	assert_non_null(strstr(text, "ab0: takes down macvlan mv0: deleted by the kernel with the "
				     "bond, with its addresses and routes\n"));
	plan_report_free(&r);
	action_list_free(&l);
	observed_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_to_do),
		cmocka_unit_test(uppers_named),
		cmocka_unit_test(note_alone_is_no_change),
		cmocka_unit_test(rebuild_grouped_and_flagged),
		cmocka_unit_test(unconfigured_bond_and_odd_names),
	};
	return cmocka_run_group_tests(tests, 0, NULL);
}
