/* SPDX-License-Identifier: MIT */
/*
 * A bond's uppers (model/uppers.h): which links are its uppers, what the
 * kernel took with a deleted bond, when they count as back, and where the
 * bond stands with its configured bridge.  Tables of cases; no kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "uppers.h"

/* ---- uppers_step: sequences of steps ------------------------------------ */

/* One step: the bond's ifindex (0: absent), its uppers now as words
 * ("v:NAME" a VLAN over it, "m:NAME" a macvlan, "p:NAME" the bridge it is
 * a port of), the time; then what the step must say: the uppers that went
 * (detailed text), those back, the lost ones kept (short text). */
struct step {
	int bond;
	const char *now;
	uint64_t ms;
	const char *went, *back, *lost;
	bool forget; /* a reload before this step */
};

#define MAX_STEPS 6

struct seq_case {
	const char *name;
	struct step steps[MAX_STEPS]; /* ends at the first with ms == 0 */
};

static size_t parse_uppers(const char *words, struct upper *out)
{
	char buf[512];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", words ? words : "");
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		struct upper *u = &out[n++];
		memset(u, 0, sizeof(*u));
		snprintf(u->name, sizeof(u->name), "%s", w + 2);
		u->ifindex = 100 + (int)n;
		switch (w[0]) {
		case 'v':
			u->kind = UPPER_VLAN;
			u->vlan_id = 21;
			snprintf(u->link_kind, sizeof(u->link_kind), "vlan");
			break;
		case 'm':
			u->kind = UPPER_MACVLAN;
			snprintf(u->link_kind, sizeof(u->link_kind), "macvlan");
			break;
		default:
			u->kind = UPPER_BRIDGE;
			u->port = true;
			snprintf(u->link_kind, sizeof(u->link_kind), "bridge");
		}
	}
	return n;
}

static const struct seq_case seq_cases[] = {
	{"first_look_remembers_nothing_lost",
	 {{10, "p:vmbr0 v:bond0.21", 1000, "", "", "", false}}},
	{"absent_at_start_is_no_loss",
	 {{0, "", 1000, "", "", "", false}, {11, "", 2000, "", "", "", false}}},
	{"deleted_by_hand_names_what_went",
	 {{10, "p:vmbr0 v:bond0.21", 1000, "", "", "", false},
	  {0, "", 1100, "bridge port of vmbr0, vlan bond0.21", "", "vmbr0 (port), bond0.21", false}}},
	{"re_created_in_one_step",
	 {{10, "p:vmbr0 v:bond0.21 m:mv0", 1000, "", "", "", false},
	  {12, "", 1100, "bridge port of vmbr0, vlan bond0.21, macvlan mv0", "", "vmbr0 (port), bond0.21, mv0", false}}},
	{"bridge_restored_in_the_same_step",
	 {{10, "p:vmbr0 v:bond0.21", 1000, "", "", "", false},
	  {12, "p:vmbr0", 1100, "bridge port of vmbr0, vlan bond0.21", "bridge port of vmbr0", "bond0.21", false}}},
	{"vlan_added_again_clears",
	 {{10, "p:vmbr0 v:bond0.21", 1000, "", "", "", false},
	  {12, "p:vmbr0", 1100, "bridge port of vmbr0, vlan bond0.21", "bridge port of vmbr0", "bond0.21", false},
	  {12, "p:vmbr0", 5000, "", "", "bond0.21", false},
	  {12, "p:vmbr0 v:bond0.21", 9000, "", "vlan bond0.21", "", false}}},
	{"vlan_deleted_on_purpose_is_no_loss",
	 {{10, "v:bond0.21 v:bond0.22", 1000, "", "", "", false},
	  {10, "v:bond0.22", 2000, "", "", "", false},
	  {10, "v:bond0.22", 9000, "", "", "", false},
	  {0, "", 9100, "vlan bond0.22", "", "bond0.22", false}}},
	{"bridge_left_on_purpose_is_no_loss",
	 {{10, "p:vmbr0", 1000, "", "", "", false},
	  {10, "", 1500, "", "", "", false},
	  {10, "", 9000, "", "", "", false},
	  {0, "", 9500, "", "", "", false}}},
	/* The kernel deletes the VLAN before the bond: read in two wake-ups. */
	{"vlan_deletion_read_a_wake_up_before_the_bond",
	 {{10, "p:vmbr0 v:bond0.21", 1000, "", "", "", false},
	  {10, "p:vmbr0", 1050, "", "", "", false},
	  {0, "", 1080, "bridge port of vmbr0, vlan bond0.21", "", "vmbr0 (port), bond0.21", false}}},
	{"a_vlan_deleted_long_before_is_not_counted",
	 {{10, "v:bond0.21", 1000, "", "", "", false},
	  {10, "", 1050, "", "", "", false},
	  {0, "", 1050 + UPPERS_GRACE_MS + 1, "", "", "", false}}},
	{"deleted_twice_keeps_one_entry_each",
	 {{10, "v:bond0.21", 1000, "", "", "", false},
	  {12, "", 1100, "vlan bond0.21", "", "bond0.21", false},
	  {12, "v:bond0.21", 1200, "", "vlan bond0.21", "", false},
	  {14, "", 1300, "vlan bond0.21", "", "bond0.21", false},
	  {0, "", 1400, "", "", "bond0.21", false}}},
	{"reload_accepts_the_absence",
	 {{10, "v:bond0.21", 1000, "", "", "", false},
	  {12, "", 1100, "vlan bond0.21", "", "bond0.21", false},
	  {12, "", 1200, "", "", "", true},
	  {12, "v:bond0.21", 1300, "", "", "", false}}},
	/* A VLAN by the lost name that is a port-kind entry does not clear it. */
	{"same_name_other_relation_is_not_back",
	 {{10, "v:x0", 1000, "", "", "", false},
	  {12, "p:x0", 1100, "vlan x0", "", "x0", false}}},
};

static void text_is(const char *what, const struct upper *v, size_t n, bool detailed,
		    const char *want, const char *name, size_t step)
{
	char buf[1024];

	uppers_text(v, n, detailed, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("%s step %zu: %s \"%s\", expected \"%s\"", name, step, what, buf, want);
}

static void sequences(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(seq_cases) / sizeof(seq_cases[0]); c++) {
		const struct seq_case *tc = &seq_cases[c];
		struct uppers_memory m;
		memset(&m, 0, sizeof(m));
		for (size_t i = 0; i < MAX_STEPS && tc->steps[i].ms; i++) {
			const struct step *s = &tc->steps[i];
			struct upper now[UPPERS_MAX];
			struct uppers_change ch;
			size_t n = parse_uppers(s->now, now);
			if (s->forget)
				uppers_forget_lost(&m);
			uppers_step(&m, s->bond, now, n, n, s->ms, &ch);
			text_is("went", ch.went, ch.n_went, true, s->went, tc->name, i);
			text_is("back", ch.back, ch.n_back, true, s->back, tc->name, i);
			text_is("lost", m.lost, m.n_lost, false, s->lost, tc->name, i);
			int prev = i ? tc->steps[i - 1].bond : 0;
			assert_int_equal(ch.deleted, prev && prev != s->bond);
		}
	}
}

/* The bond renamed by hand: its old ifindex lives on under another name,
 * its uppers with it; bondd's new bond0 has none, and nothing was lost. */
static void renamed_is_no_loss(void **state)
{
	struct uppers_memory m;
	struct upper now[2];
	struct uppers_change ch;
	(void)state;

	memset(&m, 0, sizeof(m));
	size_t n = parse_uppers("p:vmbr0 v:bond0.21", now);
	uppers_step(&m, 10, now, n, n, 1000, &ch);
	uppers_renamed(&m);
	uppers_step(&m, 12, NULL, 0, 0, 1100, &ch);
	assert_false(ch.deleted);
	assert_int_equal(ch.n_went, 0);
	assert_int_equal(m.n_lost, 0);
	assert_int_equal(m.bond_ifindex, 12);
}

/* More uppers than remembered: counted, never more than UPPERS_MAX kept,
 * and a deleted bond names at most that many. */
static void bounded(void **state)
{
	struct uppers_memory m;
	struct upper now[UPPERS_MAX];
	struct uppers_change ch;
	(void)state;

	memset(&m, 0, sizeof(m));
	for (size_t i = 0; i < UPPERS_MAX; i++) {
		memset(&now[i], 0, sizeof(now[i]));
		snprintf(now[i].name, sizeof(now[i].name), "bond0.%zu", i);
		now[i].kind = UPPER_VLAN;
	}
	uppers_step(&m, 10, now, UPPERS_MAX, UPPERS_MAX + 8, 1000, &ch);
	assert_int_equal(ch.not_kept, 8);
	assert_int_equal(m.n_seen, UPPERS_MAX);
	/* A hundred deletions, each of another set of names. */
	for (int round = 0; round < 100; round++) {
		for (size_t i = 0; i < UPPERS_MAX; i++)
			snprintf(now[i].name, sizeof(now[i].name), "v%d.%zu", round, i);
		uppers_step(&m, 20 + round, now, UPPERS_MAX, UPPERS_MAX, 2000 + (uint64_t)round,
			    &ch);
		assert_true(m.n_lost <= UPPERS_MAX);
		assert_true(m.n_seen <= UPPERS_MAX);
		assert_true(ch.n_went <= UPPERS_MAX);
	}
	assert_int_equal(m.n_lost, UPPERS_MAX);
}

/* ---- uppers_of: which links are a bond's uppers --------------------------- */

static void put(struct observed *o, int ifindex, const char *name, const char *kind, int master,
		int lower, uint16_t vid)
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

static void which_links(void **state)
{
	struct observed o = {0};
	struct upper u[8];
	char text[512];
	(void)state;

	put(&o, 2, "e1", "", 5, 0, 0);
	put(&o, 3, "e2", "", 5, 0, 0);
	put(&o, 4, "vmbr0", "bridge", 0, 0, 0);
	put(&o, 5, "bond0", "bond", 4, 0, 0);
	put(&o, 6, "bond0.21", "vlan", 0, 5, 21);
	put(&o, 7, "mv0", "macvlan", 0, 5, 0);
	put(&o, 8, "ipv0", "ipvlan", 0, 5, 0);
	put(&o, 9, "e3.5", "vlan", 0, 10, 5);     /* over another link */
	put(&o, 10, "e3", "", 0, 0, 0);
	put(&o, 11, "veth0", "veth", 0, 5, 0);    /* IFLA_LINK, not a stacked kind */
	put(&o, 12, "vmbr0.9", "vlan", 0, 4, 9);  /* over the bridge, not the bond */

	const struct obs_link *bond = observed_by_name(&o, "bond0");
	size_t n = uppers_of(&o, bond, u, 8);
	assert_int_equal(n, 4);
	assert_string_equal(uppers_text(u, n, true, text, sizeof(text)),
			    "bridge port of vmbr0, vlan bond0.21, ipvlan ipv0, macvlan mv0");
	assert_string_equal(uppers_text(u, n, false, text, sizeof(text)),
			    "vmbr0 (port), bond0.21, ipv0, mv0");
	assert_int_equal(u[0].kind, UPPER_BRIDGE);
	assert_int_equal(u[0].ifindex, 4);
	assert_int_equal(u[1].kind, UPPER_VLAN);
	assert_int_equal(u[1].vlan_id, 21);
	assert_int_equal(u[2].kind, UPPER_OTHER);
	assert_int_equal(u[3].kind, UPPER_MACVLAN);
	/* The daemon's way: the stacked links found once, the same answer. */
	const struct obs_link *cand[8];
	size_t n_cand = uppers_stacked(&o, cand, 8);
	assert_int_equal(n_cand, 5); /* bond0.21 mv0 ipv0 e3.5 vmbr0.9 */
	struct upper u2[8];
	assert_int_equal(uppers_of_among(&o, bond, cand, n_cand, u2, 8), 4);
	assert_memory_equal(u, u2, 4 * sizeof(u[0]));
	assert_int_equal(uppers_stacked(&o, cand, 2), 5);
	/* Counted past max, written up to it. */
	assert_int_equal(uppers_of(&o, bond, u, 2), 4);
	assert_int_equal(uppers_of(&o, NULL, u, 8), 0);
	/* A master that is not a bridge is "other", still a port. */
	put(&o, 4, "vrf0", "vrf", 0, 0, 0);
	n = uppers_of(&o, bond, u, 8);
	assert_int_equal(u[0].kind, UPPER_OTHER);
	assert_true(u[0].port);
	assert_string_equal(uppers_text(u, 1, true, text, sizeof(text)), "port of vrf0");
	observed_free(&o);
}

/* ---- bridge_state --------------------------------------------------------- */

struct bridge_case {
	const char *name;
	const char *bridge, *bridge_was;  /* the config */
	bool bond;                        /* bond0 exists */
	const char *master;               /* bond0's master's name, "" none */
	const char *br_kind;              /* the link named bridge: its kind; NULL: none */
	enum bridge_state want;
	const char *detail;
};

static const struct bridge_case bridge_cases[] = {
	{"unset", "", "", true, "vmbr0", "bridge", BRIDGE_UNSET, NULL},
	{"port", "vmbr0", "", true, "vmbr0", "bridge", BRIDGE_PORT, NULL},
	{"no_bond", "vmbr0", "", false, "", "bridge", BRIDGE_NO_BOND, NULL},
	{"absent", "vmbr0", "", true, "", NULL, BRIDGE_ABSENT, NULL},
	{"not_a_bridge", "vmbr0", "", true, "", "vrf", BRIDGE_NOT_BRIDGE, "vrf"},
	{"to_join", "vmbr0", "", true, "", "bridge", BRIDGE_TO_JOIN, NULL},
	{"elsewhere", "vmbr0", "", true, "br9", "bridge", BRIDGE_ELSEWHERE, "br9"},
	{"elsewhere_not_the_old_one", "vmbr0", "br8", true, "br9", "bridge", BRIDGE_ELSEWHERE, "br9"},
	{"from_the_old_one", "vmbr0", "br9", true, "br9", "bridge", BRIDGE_TO_JOIN, NULL},
};

static void bridge_states(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(bridge_cases) / sizeof(bridge_cases[0]); c++) {
		const struct bridge_case *tc = &bridge_cases[c];
		struct observed o = {0};
		struct desired_bond b;
		const char *detail = NULL;
		memset(&b, 0, sizeof(b));
		snprintf(b.name, sizeof(b.name), "bond0");
		snprintf(b.bridge, sizeof(b.bridge), "%s", tc->bridge);
		snprintf(b.bridge_was, sizeof(b.bridge_was), "%s", tc->bridge_was);
		if (tc->br_kind)
			put(&o, 4, tc->bridge[0] ? tc->bridge : "vmbr0", tc->br_kind, 0, 0, 0);
		if (tc->master[0] && (!tc->br_kind || strcmp(tc->master, tc->bridge) != 0))
			put(&o, 7, tc->master, "bridge", 0, 0, 0);
		int master = !tc->master[0] ? 0 : tc->br_kind && strcmp(tc->master, tc->bridge) == 0 ?
			     4 : 7;
		if (tc->bond)
			put(&o, 5, "bond0", "bond", master, 0, 0);
		enum bridge_state got = bridge_state(&b, &o, &detail);
		if (got != tc->want)
			fail_msg("%s: state %d, expected %d", tc->name, got, tc->want);
		if (tc->detail)
			assert_string_equal(detail, tc->detail);
		assert_int_equal(bridge_state_degraded(got),
				 got == BRIDGE_ELSEWHERE || got == BRIDGE_NOT_BRIDGE);
		observed_free(&o);
	}
	assert_null(bridge_state_name(BRIDGE_UNSET));
	assert_string_equal(bridge_state_name(BRIDGE_ABSENT), "absent");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sequences),
		cmocka_unit_test(bounded),
		cmocka_unit_test(renamed_is_no_loss),
		cmocka_unit_test(which_links),
		cmocka_unit_test(bridge_states),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
