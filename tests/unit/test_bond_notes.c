/* SPDX-License-Identifier: MIT */
/* A bond's notes and failing actions as data, in words where shown
 * (bond_notes.h): a table of the planner's notes and of failures, and the
 * text each gives, as the log, the events and the status views show it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bond_notes.h"

struct note_in {
	const char *bond, *ifname, *msg;
};

struct notes_case {
	const char *what;
	struct note_in notes[4];
	size_t n;
	size_t len;           /* the text's buffer */
	const char *want;     /* the text; NULL: no note at all */
};

static const struct notes_case notes_cases[] = {
	{"no notes", {{0}}, 0, BOND_NOTES_TEXT, NULL},
	{"one note", {{"bond0", "eth3", "enslaved to br0, not taking it"}}, 1, BOND_NOTES_TEXT,
	 "eth3: enslaved to br0, not taking it"},
	{"joined with \"; \" in the planner's order",
	 {{"bond0", "eth3", "enslaved to br0, not taking it"},
	  {"bond0", "eth4", "max_mtu 1500 is below the configured MTU 9000"}},
	 2, BOND_NOTES_TEXT,
	 "eth3: enslaved to br0, not taking it; eth4: max_mtu 1500 is below the configured MTU "
	 "9000"},
	{"another bond's notes are not its",
	 {{"bond1", "eth5", "exists and is not a bond"}, {"bond0", "bond0", "exists and is not a bond"},
	  {"bond10", "eth6", "enslaved to br0, not taking it"}},
	 3, BOND_NOTES_TEXT, "bond0: exists and is not a bond"},
	{"only another bond's notes", {{"bond1", "eth5", "exists and is not a bond"}}, 1,
	 BOND_NOTES_TEXT, NULL},
	{"cut where the buffer is full",
	 {{"bond0", "eth3", "enslaved to br0, not taking it"}, {"bond0", "eth4", "enslaved to br1"}},
	 2, 48, "eth3: enslaved to br0, not taking it; eth4: ens"},
	{"a note that starts past the end is not begun",
	 {{"bond0", "eth3", "enslaved to br0, not taking it"}, {"bond0", "eth4", "enslaved to br1"}},
	 2, 37, "eth3: enslaved to br0, not taking it"},
};

static void notes_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(notes_cases) / sizeof(notes_cases[0]); i++) {
		const struct notes_case *c = &notes_cases[i];
		struct action_list plan = {0};
		struct bond_notes notes;
		char text[BOND_NOTES_TEXT];
		for (size_t j = 0; j < c->n; j++)
			assert_non_null(action_list_note(&plan, c->notes[j].bond, c->notes[j].ifname,
							 "%s", c->notes[j].msg));
		bond_notes_of(&notes, plan.notes, plan.n_notes, "bond0");
		bool any = bond_notes_text(&notes, text, c->len);
		if (any != (c->want != NULL) || strcmp(text, c->want ? c->want : "") != 0)
			fail_msg("%s: \"%s\" (%s), want \"%s\"", c->what, text, any ? "some" : "none",
				 c->want ? c->want : "");
		action_list_free(&plan);
	}
}

/* More notes than it keeps: the first BOND_NOTES_MAX, and how many more,
 * said last; equal only with the same notes and the same count past them. */
static void notes_bounded(void **state)
{
	(void)state;
	struct action_list plan = {0};
	struct bond_notes a, b;
	static char text[BOND_NOTES_TEXT * 4];

	for (size_t j = 0; j < BOND_NOTES_MAX + 3; j++)
		assert_non_null(action_list_note(&plan, "bond0", "e", "n%zu", j));
	bond_notes_of(&a, plan.notes, plan.n_notes, "bond0");
	assert_int_equal(a.n, BOND_NOTES_MAX);
	assert_int_equal(a.more, 3);
	assert_true(bond_notes_text(&a, text, sizeof(text)));
	char last[64];
	snprintf(last, sizeof(last), "; e: n%d; and 3 more", BOND_NOTES_MAX - 1);
	assert_non_null(strstr(text, last));
	assert_int_equal(strlen(strstr(text, last)), strlen(last));

	bond_notes_of(&b, plan.notes, plan.n_notes - 1, "bond0");
	assert_false(bond_notes_equal(&a, &b)); /* 2 more, not 3 */
	bond_notes_of(&b, plan.notes, plan.n_notes, "bond0");
	assert_true(bond_notes_equal(&a, &b));
	snprintf(b.v[4].msg, sizeof(b.v[4].msg), "other");
	assert_false(bond_notes_equal(&a, &b));
	bond_notes_of(&b, plan.notes, plan.n_notes, "bond0");
	snprintf(b.v[4].ifname, sizeof(b.v[4].ifname), "f");
	assert_false(bond_notes_equal(&a, &b));
	action_list_free(&plan);
}

struct failure_case {
	const char *what;
	struct action_failure f;
	size_t len;
	const char *want;
};

static const struct failure_case failure_cases[] = {
	{"the link and the executor's words",
	 {.ifname = "eth1", .err = 16, .words = "enslaving it to bond0 refused by the kernel: "
						"Device or resource busy"},
	 ACTION_FAILURE_TEXT,
	 "eth1: enslaving it to bond0 refused by the kernel: Device or resource busy"},
	{"a configuration error says so first",
	 {.ifname = "bond0", .err = 22, .config_error = true,
	  .words = "option ad_actor_sys_prio 0 refused by the kernel: Invalid argument"},
	 ACTION_FAILURE_TEXT,
	 "configuration error: bond0: option ad_actor_sys_prio 0 refused by the kernel: Invalid "
	 "argument"},
	{"the context the kernel does not give, last",
	 {.ifname = "eth2", .err = 22, .words = "MTU 9000 refused by the kernel: Invalid argument",
	  .context = " (the device's max MTU is 1500)"},
	 ACTION_FAILURE_TEXT,
	 "eth2: MTU 9000 refused by the kernel: Invalid argument (the device's max MTU is 1500)"},
	{"cut where the buffer is full",
	 {.ifname = "eth2", .words = "MTU 9000 refused by the kernel"}, 16, "eth2: MTU 9000 "},
};

static void failure_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(failure_cases) / sizeof(failure_cases[0]); i++) {
		const struct failure_case *c = &failure_cases[i];
		char text[ACTION_FAILURE_TEXT];
		const char *got = action_failure_text(&c->f, text, c->len);
		if (got != text || strcmp(text, c->want) != 0)
			fail_msg("%s: \"%s\", want \"%s\"", c->what, text, c->want);
	}
}

/* Each failure is cut at ACTION_FAILURE_TEXT, as last_error keeps it,
 * before the failures are joined. */
static void failure_longest(void **state)
{
	(void)state;
	struct action_failure f = {.ifname = "eth123456789012", .config_error = true};
	char text[ACTION_FAILURE_TEXT * 2];
	memset(f.words, 'w', sizeof(f.words) - 1);
	memset(f.context, 'c', sizeof(f.context) - 1);
	action_failure_text(&f, text, sizeof(text));
	assert_int_equal(strlen(text), ACTION_FAILURE_TEXT - 1);

	struct bond_failing list = {0};
	bond_failing_add(&list, &f);
	bond_failing_add(&list, &(struct action_failure){.ifname = "e", .words = "x"});
	assert_true(bond_failing_text(&list, text, sizeof(text)));
	assert_int_equal(strlen(text), ACTION_FAILURE_TEXT - 1 + strlen("; e: x"));
	assert_string_equal(text + ACTION_FAILURE_TEXT - 1, "; e: x");
}

/* The failing actions joined, and the ones past BOND_FAILING_MAX counted. */
static void failing_joined_and_bounded(void **state)
{
	(void)state;
	struct bond_failing list = {0};
	char text[BOND_NOTES_TEXT * 4];

	assert_false(bond_failing_text(&list, text, sizeof(text)));
	assert_string_equal(text, "");
	bond_failing_add(&list, &(struct action_failure){.ifname = "eth0",
							  .words = "Device or resource busy"});
	bond_failing_add(&list, &(struct action_failure){.ifname = "eth1",
							  .words = "Invalid argument"});
	assert_true(bond_failing_text(&list, text, sizeof(text)));
	assert_string_equal(text, "eth0: Device or resource busy; eth1: Invalid argument");
	assert_true(bond_failing_text(&list, text, 20));
	assert_string_equal(text, "eth0: Device or res");

	for (size_t j = list.n; j < BOND_FAILING_MAX + 2; j++)
		bond_failing_add(&list, &(struct action_failure){.ifname = "e", .words = "x"});
	assert_int_equal(list.n, BOND_FAILING_MAX);
	assert_int_equal(list.more, 2);
	bond_failing_text(&list, text, sizeof(text));
	assert_non_null(strstr(text, "; e: x; and 2 more"));
	assert_int_equal(strlen(strstr(text, "; e: x; and 2 more")), strlen("; e: x; and 2 more"));
	/* a full text says no more than fits */
	bond_failing_text(&list, text, 60);
	assert_int_equal(strlen(text), 59);
	assert_null(strstr(text, "more"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_table),
		cmocka_unit_test(notes_bounded),
		cmocka_unit_test(failure_table),
		cmocka_unit_test(failure_longest),
		cmocka_unit_test(failing_joined_and_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
