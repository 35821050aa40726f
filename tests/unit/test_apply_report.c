/* SPDX-License-Identifier: MIT */
/* What one action's outcome does and says (apply_report.c applied_take):
 * a table of outcomes (done, refused in each meaning, gone, skipped, a
 * link put back up or not) against the backoff, the bond's record and the
 * words of the log and the event; and the context the kernel does not
 * give (apply_context). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <cmocka.h>

#include "apply_report.h"

struct take_case {
	const char *what;
	enum action_kind kind;
	const char *ifname;       /* the bond is bond0 */
	enum applied_kind outcome;
	int err;                  /* FAILED: the negative errno */
	const char *words;        /* FAILED: the executor's */
	const char *context;
	enum applied_restore restore;
	const char *before;       /* a key failing before (once, since 500), or NULL */
	/* after */
	const char *held;         /* the key held, or NULL: none */
	bool refused;
	int64_t since;            /* the held key's first failure */
	unsigned long actions, errors;
	int level;                /* -1: no line */
	const char *line;
	const char *event;        /* NULL: none */
	const char *restore_line; /* NULL: none */
	const char *failing;      /* bond0's failing text after, "" none */
};

static const struct take_case cases[] = {
	{"done: the enslave's key forgotten, said as a repair", ACT_ENSLAVE, "eth1", APPLIED_DONE,
	 0, NULL, "", RESTORE_NONE, "link eth1", NULL, false, 0, 1, 0, LOG_NOTICE,
	 "bond0: apply: enslave eth1 to bond0 (missing)", "enslave eth1 to bond0 (missing)", NULL,
	 ""},
	/* a link-down shares its enslave's key: forgetting it retried a
	 * refused enslave every 100 ms */
	{"done link-down: the enslave's failure stands", ACT_LINK_DOWN, "eth1", APPLIED_DONE, 0,
	 NULL, "", RESTORE_NONE, "link eth1", "link eth1", false, 500, 1, 0, LOG_NOTICE,
	 "bond0: apply: link-down eth1 (missing)", "link-down eth1 (missing)", NULL,
	 "eth1: before"},
	{"done set-opts: each option's key forgotten", ACT_SET_OPTS, "bond0", APPLIED_DONE, 0, NULL,
	 "", RESTORE_NONE, "opt bond0 miimon", NULL, false, 0, 1, 0, LOG_NOTICE,
	 "bond0: apply: set bond0 miimon=100 (missing)", "set bond0 miimon=100 (missing)", NULL,
	 ""},
	{"refused: held, retried after 100 ms, in the kernel's words", ACT_SET_MTU, "eth2",
	 APPLIED_FAILED, -EINVAL, "MTU 9000 refused by the kernel: Invalid argument",
	 " (the device's max MTU is 1500)", RESTORE_NONE, NULL, "mtu eth2", false, 7000, 1, 1,
	 LOG_ERR,
	 "bond0: eth2: MTU 9000 refused by the kernel: Invalid argument (the device's max MTU is "
	 "1500) (retrying in 100 ms)",
	 "set eth2 mtu 9000 (missing) failed, retrying in 100 ms: MTU 9000 refused by the kernel: "
	 "Invalid argument (the device's max MTU is 1500)",
	 NULL,
	 "eth2: MTU 9000 refused by the kernel: Invalid argument (the device's max MTU is 1500)"},
	{"refused again: twice as long, failing since the first", ACT_SET_MTU, "eth2",
	 APPLIED_FAILED, -EBUSY, "MTU 9000 refused by the kernel: Device or resource busy", "",
	 RESTORE_NONE, "mtu eth2", "mtu eth2", false, 500, 1, 1, LOG_ERR,
	 "bond0: eth2: MTU 9000 refused by the kernel: Device or resource busy (retrying in 200 "
	 "ms)",
	 "set eth2 mtu 9000 (missing) failed, retrying in 200 ms: MTU 9000 refused by the kernel: "
	 "Device or resource busy",
	 NULL, "eth2: MTU 9000 refused by the kernel: Device or resource busy"},
	{"a value refused as invalid: a configuration error", ACT_SET_OPTS, "bond0", APPLIED_FAILED,
	 -EINVAL, "option miimon 100 refused by the kernel: Invalid argument", "", RESTORE_NONE,
	 NULL, "opt bond0 miimon", false, 7000, 1, 1, LOG_ERR,
	 "bond0: configuration error: bond0: option miimon 100 refused by the kernel: Invalid "
	 "argument (retrying in 100 ms)",
	 "set bond0 miimon=100 (missing) failed, retrying in 100 ms: option miimon 100 refused by "
	 "the kernel: Invalid argument",
	 NULL,
	 "configuration error: bond0: option miimon 100 refused by the kernel: Invalid argument"},
	{"an enslave refused while in use: not tried again, the link put back up", ACT_ENSLAVE,
	 "eth3", APPLIED_FAILED, -EBUSY,
	 "enslaving it to bond0 refused by the kernel: Device or resource busy", "", RESTORE_DONE,
	 NULL, "link eth3", true, 7000, 1, 1, LOG_ERR,
	 "bond0: eth3: enslaving it to bond0 refused by the kernel: Device or resource busy (not "
	 "tried again until eth3 is re-created or bondd reloads)",
	 "enslave eth3 to bond0 (missing) failed, not tried again until eth3 is re-created or "
	 "bondd reloads: enslaving it to bond0 refused by the kernel: Device or resource busy",
	 "bond0: apply: set eth3 up again (its enslave failed)",
	 "eth3: enslaving it to bond0 refused by the kernel: Device or resource busy"},
	{"an enslave refused with context, the link not put back up", ACT_ENSLAVE, "v9",
	 APPLIED_FAILED, -EINVAL, "enslaving it to bond0 refused by the kernel: Invalid argument",
	 " (enslaving sets v9 to the bond's MTU 9000; it is at 1500)", RESTORE_FAILED, NULL,
	 "link v9", false, 7000, 1, 1, LOG_ERR,
	 "bond0: v9: enslaving it to bond0 refused by the kernel: Invalid argument (enslaving sets "
	 "v9 to the bond's MTU 9000; it is at 1500) (retrying in 100 ms)",
	 "enslave v9 to bond0 (missing) failed, retrying in 100 ms: enslaving it to bond0 refused "
	 "by the kernel: Invalid argument (enslaving sets v9 to the bond's MTU 9000; it is at "
	 "1500)",
	 "bond0: v9: setting it up refused by the kernel: No such device",
	 "v9: enslaving it to bond0 refused by the kernel: Invalid argument (enslaving sets v9 to "
	 "the bond's MTU 9000; it is at 1500)"},
	{"gone: no hold, no error, said at debug", ACT_ENSLAVE, "eth4", APPLIED_FAILED, -ENODEV,
	 "eth4: no such interface", "", RESTORE_NONE, NULL, NULL, false, 0, 1, 0, LOG_DEBUG,
	 "bond0: enslave eth4 to bond0 (missing): eth4: no such interface; planning again", NULL,
	 NULL, ""},
	{"skipped: nothing done, nothing said", ACT_ENSLAVE, "eth5", APPLIED_SKIPPED, 0, NULL, "",
	 RESTORE_NONE, "link eth5", "link eth5", false, 500, 0, 0, -1, NULL, NULL, NULL,
	 "eth5: before"},
};

static void take_table(void **state)
{
	(void)state;
	static struct holds h;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct take_case *c = &cases[i];
		struct action a = {.kind = c->kind, .why = "missing", .mtu = 9000};
		struct applied r = {.kind = c->outcome, .err = c->err, .failed_opt = OPT__COUNT,
				    .mono_ms = 1000, .wall_ms = 7000, .restore = c->restore};
		struct bond_runtime rt = {.name = "bond0"};
		struct applied_said say;
		char text[BOND_NOTES_TEXT];

		snprintf(a.bond, sizeof(a.bond), "bond0");
		snprintf(a.ifname, sizeof(a.ifname), "%s", c->ifname);
		if (c->kind == ACT_SET_OPTS)
			bond_settings_set(&a.opts, OPT_MIIMON, 100);
		if (c->outcome == APPLIED_FAILED) {
			snprintf(r.words, sizeof(r.words), "%s", c->words);
			r.meaning = apply_error_meaning(&a, c->err);
		}
		snprintf(r.restore_bond, sizeof(r.restore_bond), "bond0");
		snprintf(r.restore_words, sizeof(r.restore_words),
			 "setting it up refused by the kernel: No such device");
		holds_clear(&h);
		if (c->before) {
			holds_fail(&h, c->before, 900);
			struct action_failure was = {.since_ms = 500, .words = "before"};
			snprintf(was.ifname, sizeof(was.ifname), "%s", c->ifname);
			holds_set_error(&h, c->before, "bond0", &was);
		}

		applied_take(&a, &r, c->context, &h, &rt, &say);

		print_message("case: %s\n", c->what);
		if (c->held) {
			assert_int_equal(h.n, 1);
			assert_string_equal(h.v[0].name, c->held);
			assert_int_equal(h.v[0].refused, c->refused);
			assert_int_equal(h.v[0].failure.since_ms, c->since);
			assert_string_equal(h.v[0].failure.key, c->held);
		} else {
			assert_int_equal(h.n, 0);
		}
		assert_int_equal(rt.actions, c->actions);
		assert_int_equal(rt.errors, c->errors);
		assert_int_equal(say.line, c->level >= 0);
		if (c->level >= 0) {
			assert_int_equal(say.level, c->level);
			assert_string_equal(say.text, c->line);
			assert_int_equal(say.repair, c->level == LOG_NOTICE);
		}
		assert_int_equal(say.event, c->event != NULL);
		if (c->event) {
			assert_int_equal(say.event_kind, c->errors ? EV_ERROR : EV_REPAIR);
			assert_string_equal(say.event_text, c->event);
		}
		assert_int_equal(say.restore_line, c->restore_line != NULL);
		if (c->restore_line) {
			assert_string_equal(say.restore_text, c->restore_line);
			assert_int_equal(say.restore_level,
					 c->restore == RESTORE_DONE ? LOG_INFO : LOG_ERR);
		}
		if (c->errors) { /* the last error as the failing text shows it */
			assert_int_equal(rt.last_error_ms, 7000);
			assert_string_equal(rt.last_error, c->failing);
		} else {
			assert_int_equal(rt.last_error_ms, 0);
		}
		/* what report_failing makes of the holds */
		struct bond_failing failing = {0};
		for (size_t j = 0; j < h.n; j++)
			if (strcmp(h.v[j].bond, "bond0") == 0)
				bond_failing_add(&failing, &h.v[j].failure);
		bond_failing_text(&failing, text, sizeof(text));
		assert_string_equal(text, c->failing);
		if (c->held && c->outcome == APPLIED_FAILED)
			assert_int_equal(h.v[0].failure.err, -c->err);
	}
}

/* The context: what enslaving asks of the link's MTU, the device's own
 * limit; nothing when neither is known or nothing differs. */
static void context_table(void **state)
{
	(void)state;
	struct desired_bond b = {.name = "bond0", .mtu = 9000};
	struct obs_link low = {.name = "v9", .mtu = 1500, .max_mtu = 1500};
	struct obs_link same = {.name = "e1", .mtu = 9000, .max_mtu = 65535};
	struct action enslave = {.kind = ACT_ENSLAVE, .bond = "bond0", .ifname = "v9"};
	struct action mtu = {.kind = ACT_SET_MTU, .bond = "bond0", .ifname = "v9", .mtu = 9000};
	char ctx[72];

	apply_context(&enslave, &low, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, " (enslaving sets v9 to the bond's MTU 9000; it is at 1500)");
	apply_context(&enslave, &same, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, "");
	apply_context(&enslave, NULL, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, "");
	apply_context(&enslave, &low, NULL, ctx, sizeof(ctx));
	assert_string_equal(ctx, "");
	apply_context(&mtu, &low, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, " (the device's max MTU is 1500)");
	apply_context(&mtu, &same, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, "");
	low.max_mtu = 0; /* not said by the kernel */
	apply_context(&mtu, &low, &b, ctx, sizeof(ctx));
	assert_string_equal(ctx, "");
}

/* A bond's record may be missing (NULL): the backoff and the words alone. */
static void without_record(void **state)
{
	(void)state;
	static struct holds h;
	struct action a = {.kind = ACT_SET_MTU, .bond = "bond0", .ifname = "eth2", .mtu = 9000,
			   .why = "mtu"};
	struct applied r = {.kind = APPLIED_FAILED, .err = -EBUSY, .failed_opt = OPT__COUNT,
			    .mono_ms = 1000, .wall_ms = 7000, .words = "busy"};
	struct applied_said say;

	holds_clear(&h);
	r.meaning = apply_error_meaning(&a, r.err);
	applied_take(&a, &r, "", &h, NULL, &say);
	assert_int_equal(h.n, 1);
	assert_string_equal(say.text, "bond0: eth2: busy (retrying in 100 ms)");
	r.kind = APPLIED_DONE;
	applied_take(&a, &r, "", &h, NULL, &say);
	assert_int_equal(h.n, 0);
	assert_string_equal(say.text, "bond0: apply: set eth2 mtu 9000 (mtu)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(take_table),
		cmocka_unit_test(context_table),
		cmocka_unit_test(without_record),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
