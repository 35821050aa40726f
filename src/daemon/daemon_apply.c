/* SPDX-License-Identifier: MIT */
/* One plan sent to the kernel, action by action, into a report of what
 * each did (apply_report.h); what each kernel error means is decided by
 * apply_error_meaning (plan/apply_error.h), and the one reporter below
 * turns the report into the log, the events and the failing state. */
#include "daemon_parts.h"
#include "apply_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

/*
 * bondd set `slave` admin-down to enslave it (earlier in this plan) and the
 * enslave failed: put it back up, so a link that never became a slave is
 * left as it was found.  What came of it goes into r.
 */
static void restore_admin_up(struct daemon *d, const struct action *failed, size_t at,
			     struct applied *r)
{
	for (size_t i = at; i-- > 0;) {
		const struct action *a = &d->plan.v[i];
		if (a->kind != ACT_LINK_DOWN || strcmp(a->ifname, failed->ifname) != 0)
			continue;
		struct action up = *a;
		up.kind = ACT_LINK_UP;
		up.why = "restore";
		snprintf(r->restore_bond, sizeof(r->restore_bond), "%s", a->bond);
		r->restore = executor_run(&d->ex, &up, r->restore_words,
					  sizeof(r->restore_words)) == 0 ? RESTORE_DONE : RESTORE_FAILED;
		return;
	}
}

/* The next hold of `bond` from *j on, or NULL; *j is past it. */
static const struct hold *next_hold_of(const struct holds *h, const char *bond, size_t *j)
{
	while (*j < h->n) {
		const struct hold *e = &h->v[(*j)++];
		if (strcmp(e->bond, bond) == 0)
			return e;
	}
	return NULL;
}

/* What is backing off for each bond, with the kernel's words: status. */
void report_failing(struct daemon *d)
{
	for (size_t i = 0; i < d->n_bonds; i++) {
		struct bond_runtime *rt = &d->bonds[i];
		struct bond_failing_diff diff;
		const struct hold *e;
		size_t j = 0;
		/* Stored only when it changes, and compared without making
		 * the new list first: this runs for every bond after every
		 * plan, and after a status snapshot's copy-on-write fork each
		 * bond's store is a page fault. */
		bond_failing_diff_start(&diff, &rt->failing);
		while ((e = next_hold_of(&d->holds, rt->name, &j)))
			bond_failing_diff_add(&diff, &e->failure);
		if (!bond_failing_diff_changed(&diff))
			continue;
		memset(&rt->failing, 0, sizeof(rt->failing));
		j = 0;
		while ((e = next_hold_of(&d->holds, rt->name, &j)))
			bond_failing_add(&rt->failing, &e->failure);
	}
}

struct apply_report execute_plan(struct daemon *d)
{
	struct apply_report rep = {.n = d->plan.n};
	/* The failed actions that stopped their bond's plan. */
	size_t *stops = calloc(d->plan.n ? d->plan.n : 1, sizeof(*stops));
	size_t n_stops = 0;

	rep.v = calloc(d->plan.n ? d->plan.n : 1, sizeof(*rep.v));
	if (!stops || !rep.v) {
		free(stops);
		free(rep.v);
		rep.v = NULL;
		return rep; /* nothing sent: the reporter says so */
	}

	/* Where each route rewrite goes, from the kernel's own list. */
	executor_order_routes(&d->ex, &d->plan);

	for (size_t i = 0; i < d->plan.n; i++) {
		const struct action *a = &d->plan.v[i];
		struct applied *r = &rep.v[i];
		bool skip = false;
		/* After a failure the rest of that bond's plan assumed it
		 * succeeded: drop it and plan again from what is real. */
		for (size_t j = 0; j < n_stops && !skip; j++)
			if (strcmp(d->plan.v[stops[j]].bond, a->bond) == 0) {
				skip = true;
				r->stopped_by = stops[j];
			}
		if (skip) {
			r->kind = APPLIED_SKIPPED;
			continue;
		}
		uint64_t t0 = clock_mono_us();
		int ret = executor_run(&d->ex, a, r->words, sizeof(r->words));
		r->took_us = clock_mono_us() - t0;
		r->mono_ms = clock_mono_ms();
		r->wall_ms = clock_wall_ms();
		breather_check(&d->breather);
		if (ret == 0) {
			r->kind = APPLIED_DONE;
			continue;
		}
		r->kind = APPLIED_FAILED;
		r->err = ret;
		r->failed_opt = d->ex.failed_opt;
		r->meaning = apply_error_meaning(a, ret);
		bool gone = r->meaning.kind == APPLY_ERR_GONE;
		if (!gone && r->meaning.restore_up)
			restore_admin_up(d, a, i, r);
		if (gone || r->meaning.stops_bond)
			stops[n_stops++] = i;
	}
	free(stops);
	return rep;
}

void report_applied(struct daemon *d, const struct apply_report *rep)
{
	if (!rep->v) {
		log_err("out of memory: plan of %zu actions not applied; planning again", rep->n);
		return;
	}
	for (size_t i = 0; i < rep->n && i < d->plan.n; i++) {
		const struct action *a = &d->plan.v[i];
		const struct applied *r = &rep->v[i];
		char ctx[72] = "";
		struct applied_said say;
		if (r->kind == APPLIED_SKIPPED)
			continue;
		log_debug("%s took %llu us", action_kind_name(a->kind),
			  (unsigned long long)r->took_us);
		if (r->kind == APPLIED_FAILED)
			apply_context(a, observed_by_name(&d->ob.state, a->ifname),
				      desired_find_bond(&d->want, a->bond), ctx, sizeof(ctx));
		applied_take(a, r, ctx, &d->holds, bond_rt(d, a->bond), &say);
		if (say.line)
			log_meta(say.level,
				 say.repair ? &(struct log_meta){a->bond, a->ifname, LOG_MSGID_REPAIR} :
					      NULL,
				 "%s", say.text);
		if (say.event)
			record(d, say.event_kind, a->bond, a->ifname, "%s", say.event_text);
		if (say.restore_line)
			log_meta(say.restore_level, NULL, "%s", say.restore_text);
	}
	report_failing(d);
}
