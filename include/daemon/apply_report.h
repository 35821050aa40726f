/* SPDX-License-Identifier: MIT */
/*
 * What sending one plan did, action by action: plain data that
 * execute_plan (daemon_apply.c) returns instead of saying it as it goes,
 * and what each outcome does to the backoff and the bond's record and
 * says (apply_report.c, pure).  The one reporter (daemon_apply.c
 * report_applied) turns a report into the log, the events and the failing
 * state.
 */
#ifndef BONDD_APPLY_REPORT_H
#define BONDD_APPLY_REPORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "apply_error.h"
#include "desired.h"
#include "event_log.h"
#include "holds.h"
#include "observed.h"
#include "runtime.h"

enum applied_kind {
	/* Not sent: an earlier action of its bond failed (stopped_by), and
	 * the rest of its plan assumed that one succeeded. */
	APPLIED_SKIPPED,
	APPLIED_DONE,             /* the kernel took it */
	APPLIED_FAILED,           /* refused: err, words, meaning */
};

/* After a failed enslave of a link bondd had set down for it. */
enum applied_restore {
	RESTORE_NONE,             /* nothing to put back */
	RESTORE_DONE,             /* the link set up again */
	RESTORE_FAILED,           /* that failed too: restore_words */
};

/* One action of the plan, sent or not. */
struct applied {
	enum applied_kind kind;
	size_t stopped_by;        /* SKIPPED: the failed action of its bond */
	uint64_t took_us;         /* sent: how long the request took */
	uint64_t mono_ms;         /* sent: when it ended (monotonic: the backoff) */
	int64_t wall_ms;          /* sent: when it ended (wall clock: status) */
	/* FAILED: */
	int err;                  /* the negative errno */
	struct apply_error meaning; /* what it means (apply_error_meaning) */
	int failed_opt;           /* the bond option refused, OPT__COUNT: none */
	char words[224];          /* the executor's: what was refused, and why */
	enum applied_restore restore;
	char restore_bond[IFNAMSIZ]; /* the bond of the link-down put back */
	char restore_words[224];  /* RESTORE_FAILED: the executor's */
};

/* Parallel to the plan's actions; v NULL: no memory, nothing was sent. */
struct apply_report {
	struct applied *v;
	size_t n;
};

void apply_report_free(struct apply_report *r);

/* What the kernel does not say of a failed action: what enslaving asked
 * of the link (l, as observed; b, the bond it joins, NULL when unknown),
 * or the device's own limit; "" when nothing.  Pure. */
void apply_context(const struct action *a, const struct obs_link *l,
		   const struct desired_bond *b, char *buf, size_t len);

/* What the reporter says of one action: a line (at level; repair: with the
 * repair's MESSAGE_ID), an event, and the line of a link put back up. */
struct applied_said {
	bool line;                /* any line */
	int level;                /* syslog's LOG_NOTICE, LOG_ERR, LOG_DEBUG */
	bool repair;
	char text[1024];
	bool event;
	enum event_kind event_kind;
	char event_text[1024];    /* the event keeps what fits (event_log.h) */
	bool restore_line;
	int restore_level;
	char restore_text[512];
};

/*
 * What one action's outcome r does: to the backoff (h: a success forgets
 * the action's key, a failure holds it and keeps how it failed, refused
 * when it will fail the same way), to its bond's record (rt, may be NULL:
 * requests made, errors, the last one), and what is said of it (say).
 * context: apply_context's, for a failure.  A skipped action does nothing
 * and says nothing.  Time comes in r.  Pure.
 */
void applied_take(const struct action *a, const struct applied *r, const char *context,
		  struct holds *h, struct bond_runtime *rt, struct applied_said *say);

#endif
