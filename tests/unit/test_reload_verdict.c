/* SPDX-License-Identifier: MIT */
/* A reload's verdict (reload_verdict.h): a table of the facts a reload
 * gathers, in the order it gathers them, and the verdict each must give;
 * and what the reporter writes for each verdict. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "reload_verdict.h"

struct verdict_case {
	const char *what;
	struct reload_facts facts;
	enum reload_verdict want;
};

static const struct verdict_case cases[] = {
	{"nothing gathered yet: no objection", {0}, RELOAD_ACCEPT},
	{"nothing gathered yet while bondd runs bonds", {.running_bonds = 3}, RELOAD_ACCEPT},
	{"a plain reload while a trial runs", {.trial_runs = true, .running_bonds = 1},
	 RELOAD_REFUSED_TRIAL},
	{"a trial running wins over everything after it",
	 {.trial_runs = true, .parse_failed = true, .conflicts = 2, .out_of_memory = true},
	 RELOAD_REFUSED_TRIAL},
	{"an error at a line", {.parse_failed = true, .error_has_line = true, .running_bonds = 1},
	 RELOAD_REFUSED_ERROR_AT},
	{"an error with no line: the file cannot be read", {.parse_failed = true},
	 RELOAD_REFUSED_UNREADABLE},
	{"a failed parse gives no bonds: not called empty",
	 {.parse_failed = true, .error_has_line = true, .running_bonds = 4},
	 RELOAD_REFUSED_ERROR_AT},
	{"parsed, no bonds, bondd manages some", {.parsed = true, .running_bonds = 2},
	 RELOAD_REFUSED_NO_BONDS},
	{"parsed, no bonds, bondd manages none (idle stays idle)", {.parsed = true},
	 RELOAD_ACCEPT},
	{"parsed, bonds, bondd manages none", {.parsed = true, .next_bonds = 1}, RELOAD_ACCEPT},
	{"parsed, fewer bonds: taken (the rest is left in place)",
	 {.parsed = true, .next_bonds = 1, .running_bonds = 5}, RELOAD_ACCEPT},
	{"one link named by two entries",
	 {.parsed = true, .next_bonds = 2, .running_bonds = 2, .conflicts = 1},
	 RELOAD_REFUSED_CONFLICT},
	{"matching ran out of memory: refused as a conflict",
	 {.parsed = true, .next_bonds = 2, .conflicts = -ENOMEM}, RELOAD_REFUSED_CONFLICT},
	{"no bonds is said before a conflict",
	 {.parsed = true, .running_bonds = 2, .conflicts = 1}, RELOAD_REFUSED_NO_BONDS},
	{"out of memory keeping the records",
	 {.parsed = true, .next_bonds = 2, .out_of_memory = true}, RELOAD_REFUSED_NOMEM},
	{"a conflict is said before out of memory",
	 {.parsed = true, .next_bonds = 2, .conflicts = 3, .out_of_memory = true},
	 RELOAD_REFUSED_CONFLICT},
	{"everything fine", {.parsed = true, .next_bonds = 2, .running_bonds = 2},
	 RELOAD_ACCEPT},
};

static void verdict_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum reload_verdict got = reload_verdict_of(&cases[i].facts);
		if (got != cases[i].want)
			fail_msg("%s: verdict %d, want %d", cases[i].what, got, cases[i].want);
	}
}

struct effects_case {
	enum reload_verdict v;
	struct reload_effects want;
};

/* What each verdict writes: these are the bytes bondd has always written
 * (a refused trial-time reload owes no READY=1: RELOADING=1 was not sent;
 * out of memory is not the file's doing: no event, no STATUS= line). */
static const struct effects_case effects[] = {
	{RELOAD_ACCEPT, {.event = true, .ready = true}},
	{RELOAD_REFUSED_TRIAL, {.refused = true, .event = true, .message_id = true}},
	{RELOAD_REFUSED_ERROR_AT,
	 {.refused = true, .event = true, .status_line = true, .ready = true, .message_id = true}},
	{RELOAD_REFUSED_UNREADABLE,
	 {.refused = true, .event = true, .status_line = true, .ready = true, .message_id = true}},
	{RELOAD_REFUSED_NO_BONDS,
	 {.refused = true, .event = true, .status_line = true, .ready = true, .message_id = true}},
	{RELOAD_REFUSED_CONFLICT, {.refused = true, .event = true, .status_line = true, .ready = true}},
	{RELOAD_REFUSED_NOMEM, {.refused = true, .ready = true}},
};

static void effects_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(effects) / sizeof(effects[0]); i++) {
		struct reload_effects got = reload_effects_of(effects[i].v);
		const struct reload_effects *w = &effects[i].want;
		if (got.refused != w->refused || got.event != w->event ||
		    got.status_line != w->status_line || got.ready != w->ready ||
		    got.message_id != w->message_id)
			fail_msg("verdict %d: effects %d%d%d%d%d, want %d%d%d%d%d", effects[i].v,
				 got.refused, got.event, got.status_line, got.ready, got.message_id,
				 w->refused, w->event, w->status_line, w->ready, w->message_id);
	}
}

struct refusal_case {
	struct reload_refusal r;
	const char *want;
};

/* STATUS='s words for the last refusal: where, never what the file says. */
static const struct refusal_case refusals[] = {
	{{.verdict = RELOAD_ACCEPT}, ""},
	{{.verdict = RELOAD_REFUSED_ERROR_AT, .where = "/etc/bondd/bondd.conf.d/10.conf:7"},
	 "last reload refused: error at /etc/bondd/bondd.conf.d/10.conf:7"},
	{{.verdict = RELOAD_REFUSED_UNREADABLE},
	 "last reload refused: /etc/bondd/bondd.conf cannot be read"},
	{{.verdict = RELOAD_REFUSED_NO_BONDS, .managing = 3},
	 "last reload refused: /etc/bondd/bondd.conf defines no bonds, still managing 3"},
	{{.verdict = RELOAD_REFUSED_CONFLICT},
	 "last reload refused: one link named by two slave entries"},
	/* not kept for STATUS=: these leave nothing to say there */
	{{.verdict = RELOAD_REFUSED_TRIAL}, ""},
	{{.verdict = RELOAD_REFUSED_NOMEM}, ""},
};

static void refusal_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		char text[400] = "junk";
		reload_refusal_text(&refusals[i].r, "/etc/bondd/bondd.conf", text, sizeof(text));
		assert_string_equal(text, refusals[i].want);
	}
	/* cut to the buffer, never past it */
	char small[12];
	struct reload_refusal r = {.verdict = RELOAD_REFUSED_CONFLICT};
	reload_refusal_text(&r, "/x", small, sizeof(small));
	assert_string_equal(small, "last reload");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verdict_table),
		cmocka_unit_test(effects_table),
		cmocka_unit_test(refusal_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
