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

/* Whether the failures given one by one make the list stored before
 * (bond_failing_diff), without making it: a table of the list before and
 * the failures now, each a letter (A, B, C; "." one more filler), with A
 * altered in one field. */
enum tweak {
	SAME, KEY, IFNAME, ERR, CONFIG_ERROR, SINCE, WORDS, CONTEXT, PAST_NUL,
	FILLED,  /* words fill their array, no end inside */
	FILLED2, /* the same, its last byte other */
};

struct diff_case {
	const char *what;
	const char *was, *now;
	enum tweak tweak;     /* done to every A of now */
	bool changed;         /* the list they make is not the one before */
	enum tweak tweak_was; /* done to every A before (SAME unless said) */
};

#define MAX_DOTS "............" /* BOND_FAILING_MAX fillers */
_Static_assert(sizeof(MAX_DOTS) - 1 == BOND_FAILING_MAX, "MAX_DOTS fills a list");

static const struct diff_case diff_cases[] = {
	{"none before, none now", "", "", SAME, false, SAME},
	{"none before, one now", "", "A", SAME, true, SAME},
	{"one before, none now", "A", "", SAME, true, SAME},
	{"the same one", "A", "A", SAME, false, SAME},
	{"the same two", "AB", "AB", SAME, false, SAME},
	{"the same two in the other order", "AB", "BA", SAME, true, SAME},
	{"one more after the same", "AB", "ABC", SAME, true, SAME},
	{"one fewer at the end", "ABC", "AB", SAME, true, SAME},
	{"another in place of the last", "AB", "AC", SAME, true, SAME},
	{"its key", "AB", "AB", KEY, true, SAME},
	{"its link", "AB", "AB", IFNAME, true, SAME},
	{"its errno (not in its text)", "AB", "AB", ERR, true, SAME},
	{"a configuration error now", "AB", "AB", CONFIG_ERROR, true, SAME},
	{"its first failure's time (not in its text)", "BA", "BA", SINCE, true, SAME},
	{"the kernel's words", "A", "A", WORDS, true, SAME},
	{"the context", "A", "A", CONTEXT, true, SAME},
	{"a byte past a string's end is no change", "AB", "AB", PAST_NUL, false, SAME},
	{"words that fill their array, the same", "A", "A", FILLED, false, FILLED},
	{"words that fill their array, the last byte other", "A", "A", FILLED2, true, FILLED},
	{"a full list, the same", MAX_DOTS, MAX_DOTS, SAME, false, SAME},
	{"a full list, one more counted", MAX_DOTS, MAX_DOTS "A", SAME, true, SAME},
	{"a full list, one fewer", MAX_DOTS, "...........", SAME, true, SAME},
	{"a full list, the last other", MAX_DOTS, "..........." "A", SAME, true, SAME},
	{"the ones past the kept only counted", MAX_DOTS "AB", MAX_DOTS "CA", SAME, false, SAME},
	{"past the kept, one more counted", MAX_DOTS "AB", MAX_DOTS "ABC", SAME, true, SAME},
	{"past the kept, one fewer counted", MAX_DOTS "AB", MAX_DOTS "B", SAME, true, SAME},
	{"the last kept other, the rest the same", "..........." "AB", "..........." "CB", SAME,
	 true, SAME},
};

static struct action_failure diff_failure(char letter, enum tweak tweak)
{
	struct action_failure f = {.err = 16, .since_ms = 1000};
	const char *link = letter == 'A' ? "eth1" : letter == 'B' ? "eth2" : letter == 'C' ? "eth3"
										       : "e";

	snprintf(f.key, sizeof(f.key), "link %s", link);
	snprintf(f.ifname, sizeof(f.ifname), "%s", link);
	snprintf(f.words, sizeof(f.words), "enslaving it to bond0 refused by the kernel: %s",
		 letter == '.' ? "x" : "Device or resource busy");
	if (letter != 'A')
		return f;
	switch (tweak) {
	case SAME:
		break;
	case KEY:
		snprintf(f.key, sizeof(f.key), "mtu eth1");
		break;
	case IFNAME:
		snprintf(f.ifname, sizeof(f.ifname), "eth9");
		break;
	case ERR:
		f.err = 22;
		break;
	case CONFIG_ERROR:
		f.config_error = true;
		break;
	case SINCE:
		f.since_ms = 2000;
		break;
	case WORDS:
		snprintf(f.words, sizeof(f.words), "enslaving it to bond0 refused by the kernel: "
						   "Device or resource busx");
		break;
	case CONTEXT:
		snprintf(f.context, sizeof(f.context), " (it is enslaved to bond1)");
		break;
	case PAST_NUL:
		f.words[sizeof(f.words) - 1] = 'z';
		f.key[sizeof(f.key) - 1] = 'z';
		f.context[5] = 'z';
		break;
	case FILLED:
	case FILLED2:
		memset(f.words, 'w', sizeof(f.words));
		if (tweak == FILLED2)
			f.words[sizeof(f.words) - 1] = 'v';
		break;
	}
	return f;
}

static void diff_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(diff_cases) / sizeof(diff_cases[0]); i++) {
		const struct diff_case *c = &diff_cases[i];
		/* (static: a list is some 5 KB) */
		static struct bond_failing was, next;
		struct bond_failing_diff d;
		memset(&was, 0, sizeof(was));
		memset(&next, 0, sizeof(next));
		for (const char *p = c->was; *p; p++) {
			struct action_failure f = diff_failure(*p, c->tweak_was);
			bond_failing_add(&was, &f);
		}
		bond_failing_diff_start(&d, &was);
		for (const char *p = c->now; *p; p++) {
			struct action_failure f = diff_failure(*p, c->tweak);
			bond_failing_diff_add(&d, &f);
			bond_failing_add(&next, &f);
		}
		if (bond_failing_diff_changed(&d) != c->changed)
			fail_msg("%s: %s, want %s", c->what,
				 c->changed ? "the same" : "changed", c->changed ? "changed" : "the same");
		/* The same: what is stored shows as what would be made. */
		if (!c->changed) {
			static char a[BOND_NOTES_TEXT * 8], b[BOND_NOTES_TEXT * 8];
			bond_failing_text(&was, a, sizeof(a));
			bond_failing_text(&next, b, sizeof(b));
			assert_string_equal(a, b);
			assert_int_equal(was.n, next.n);
			assert_int_equal(was.more, next.more);
		}
	}
}

/* Equal failures: each field, the strings to their ends only. */
static void failure_equal(void **state)
{
	(void)state;
	struct action_failure a = diff_failure('A', SAME), b = a;

	assert_true(action_failure_equal(&a, &b));
	b.words[sizeof(b.words) - 1] = 'z'; /* past its end */
	assert_true(action_failure_equal(&a, &b));
	b = a;
	b.config_error = true;
	assert_false(action_failure_equal(&a, &b));
	b = diff_failure('B', SAME);
	assert_false(action_failure_equal(&a, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notes_table),
		cmocka_unit_test(notes_bounded),
		cmocka_unit_test(failure_table),
		cmocka_unit_test(failure_longest),
		cmocka_unit_test(failing_joined_and_bounded),
		cmocka_unit_test(diff_table),
		cmocka_unit_test(failure_equal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
