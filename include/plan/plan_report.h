/* SPDX-License-Identifier: MIT */
/*
 * `bondd --check --plan`'s report: the plan as plain data, grouped by bond
 * in config order, then printed as text or as JSON (bondd(8), "THE PLAN AS
 * DATA"; data/bondd-plan.schema.json).  Building it decides nothing; the
 * printers only write what it holds.
 */
#ifndef BONDD_PLAN_REPORT_H
#define BONDD_PLAN_REPORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "desired.h"
#include "observed.h"
#include "strbuf.h"
#include "uppers.h"

/* The version of the plan's JSON; a change that can break a reader
 * (a member removed or its meaning changed) takes a new number. */
#define PLAN_REPORT_VERSION 1

struct plan_report_action {
	const struct action *a;  /* points into the plan's action_list */
	bool disrupts;           /* plan_action_disrupts */
};

/* What the plan does to the bond that its uppers feel (plan_report_uppers). */
enum plan_upper_effect {
	PUE_NONE,
	PUE_DOWN,        /* the bond set down and up again (a rebuild) */
	PUE_NO_CARRIER,  /* every slave released, the bond left up (a rebuild
			  * for options the kernel takes only without slaves) */
	PUE_DELETED,     /* the bond deleted (state = absent) */
};

struct plan_report_bond {
	char name[IFNAMSIZ];
	/* Its uppers now, when the plan disrupts them (effect not PUE_NONE). */
	enum plan_upper_effect effect;
	struct upper *uppers;
	size_t n_uppers;
	const struct plan_report_action **actions; /* in the order they would be taken */
	size_t n_actions, n_disrupting;
	const struct plan_note **notes;
	size_t n_notes;
};

struct plan_report {
	struct plan_report_bond *bonds; /* config order; a bond the plan names
					 * but the config does not, after them */
	size_t n_bonds;
	struct plan_report_action *actions; /* every action, in the plan's order */
	const struct action_list *plan;
	size_t n_actions, n_disrupting, n_notes;
};

/* Groups plan (which must outlive the report) by the bonds of want.
 * Returns 0 or -ENOMEM (the report is then empty). */
int plan_report_build(const struct desired *want, const struct action_list *plan,
		      struct plan_report *r);
void plan_report_free(struct plan_report *r);
/* Names, for each bond the plan sets down, empties or deletes, the uppers
 * in have (uppers.h) that feel it.  0 or -ENOMEM. */
int plan_report_uppers(struct plan_report *r, const struct observed *have);
/* "down", "no-carrier", "deleted"; NULL for PUE_NONE. */
const char *plan_upper_effect_name(enum plan_upper_effect e);
/* What an upper loses in a plan with that effect, one phrase. */
const char *plan_upper_loss(enum plan_upper_effect e, const struct upper *u);
/* Whether running the plan would change anything in the kernel (what
 * --detailed-exitcode tells): any action.  Notes change nothing. */
bool plan_report_changes(const struct plan_report *r);

/* The text `bondd --check --plan` prints: one line per action and note,
 * then a summary line. */
void plan_report_text(const struct plan_report *r, struct strbuf *out);
/* The JSON document of `bondd --check --plan --json`, one line and a
 * newline. */
void plan_report_json(const struct plan_report *r, struct strbuf *out);

#endif
