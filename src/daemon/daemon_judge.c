/* SPDX-License-Identifier: MIT */
/*
 * What a wake-up concludes once its passes are done (daemon.c converge):
 * the planner's notes and what drifted said once, the bonds still
 * differing, which bonds bondd left whole, each bond's health judged and
 * logged per change, its uppers against what they were, and STATUS=.
 * Calls only the runtime model (daemon_runtime.c) below it.
 */
#include "daemon_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "unsettled.h"
#include "strbuf.h"

/* Logs the planner's complaints once each, not on every pass. */
void report_notes(struct daemon *d)
{
	for (size_t i = 0; i < d->n_bonds; i++) {
		struct bond_notes now;
		if (!touched(d, i))
			continue; /* not planned: its notes stand */
		bond_notes_of(&now, d->plan.notes, d->plan.n_notes, d->bonds[i].name);
		if (bond_notes_equal(&now, &d->bonds[i].notes))
			continue;
		char text[BOND_NOTES_TEXT];
		if (bond_notes_text(&now, text, sizeof(text))) {
			log_warn("%s: %s", d->bonds[i].name, text);
			record(d, EV_ERROR, d->bonds[i].name, "", "%s", text);
		}
		d->bonds[i].notes = now;
	}
}

/* Drift in a bond that was whole after the last pass is someone else's
 * doing (bondd's own changes are made whole within a pass): a warning
 * naming the links and what drifted.  Otherwise it is bondd's own work in
 * progress (start, reload, a slave that appeared, a retry). */
static void log_drift(struct daemon *d, struct bond_runtime *rt, const char *why)
{
	char what[160];
	struct action_reasons links;

	if (!rt->was_healthy) {
		log_info("%s: converging (%s)", rt->name, why);
		return;
	}
	action_reasons_of(&links, d->plan.v, d->plan.n, rt->name, true);
	action_reasons_text(&links, what, sizeof(what));
	log_warn("%s: changed by something other than bondd (%s); repairing", rt->name, what);
	rt->was_healthy = false;
}

/* What drifted, once per bond and pass, before the plan is sent: the
 * reasons of its actions, as an event and in the log (log_drift). */
void report_drift(struct daemon *d)
{
	for (size_t i = 0; i < d->n_bonds; i++) {
		char why[160];
		struct action_reasons reasons;
		action_reasons_of(&reasons, d->plan.v, d->plan.n, d->bonds[i].name, false);
		if (action_reasons_text(&reasons, why, sizeof(why))) {
			record(d, EV_DRIFT, d->bonds[i].name, "", "%s", why);
			log_drift(d, &d->bonds[i], why);
		}
	}
}

/* Which bonds bondd has left whole, for log_drift: nothing left to do for
 * them, waiting or not (a fresh plan without the holds), nothing it is
 * retrying, and every slave they name present (one that appears later is
 * not drift).  Not their health: carrier is not bondd's to give, and drift
 * during an outage is when an operator looks. */
static void mark_whole(struct daemon *d)
{
	struct action_list all = {0};
	struct plan_constraints none = {.only = d->touched_all ? NULL : d->touched};
	bool planned = plan(&d->want, &d->ob.state, &none, &all) == 0;

	for (size_t i = 0; i < d->n_bonds; i++) {
		const struct desired_bond *b = &d->want.bonds[i];
		struct bond_runtime *rt = &d->bonds[i];
		if (!touched(d, i))
			continue; /* untouched: as the last wake-up that touched it left it */
		bool whole = planned && !rt->unsettled.passes;
		for (size_t k = 0; k < b->n_slaves && whole; k++)
			whole = observed_by_name(&d->ob.state, b->slaves[k].name) != NULL;
		bool pending = false;
		for (size_t j = 0; j < all.n && !pending; j++)
			pending = strcmp(all.v[j].bond, rt->name) == 0;
		rt->was_healthy = whole && !pending;
		/* A refused address or option leaves nothing planned while it
		 * backs off: health must not call that bond healthy. */
		rt->refused = planned && pending;
	}
	action_list_free(&all);
}

/* What every bond's health shares (bond_view.c bond_judge): a picture that
 * may be stale, bondd impaired, and the degraded findings (any source may
 * replace its list between wake-ups).  When it changes, every bond is
 * judged again; else only the bonds a wake-up touched. */
static uint64_t health_shared(const struct status_view *v)
{
	uint64_t h = 1469598103934665603ull;
	const char *texts[] = {v->stale ? v->stale : "", "\n", v->impaired ? v->impaired : "", "\n"};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		for (const unsigned char *c = (const unsigned char *)texts[i]; *c; c++)
			h = (h ^ *c) * 1099511628211ull;
	for (size_t l = 0; l < FSRC__COUNT; l++)
		for (size_t j = 0; v->findings[l] && j < v->findings[l]->n; j++) {
			const struct finding *f = &v->findings[l]->v[j];
			if (f->severity != FSEV_DEGRADED)
				continue;
			h = (h ^ (uint64_t)f->kind) * 1099511628211ull;
			for (const unsigned char *c = (const unsigned char *)f->bond; *c; c++)
				h = (h ^ *c) * 1099511628211ull;
			for (const unsigned char *c = (const unsigned char *)f->evidence; *c; c++)
				h = (h ^ *c) * 1099511628211ull;
		}
	return h;
}

/* The health of the bonds touched (all: every bond) judged again, as the
 * status judges it (bond_view.c), and kept per bond for STATUS=; one line
 * per change (bond, from, to, why) with its MESSAGE_ID for the journal.
 * At info either way: what made it worse (drift, a failed request, a
 * finding) has its own line at its own level already. */
static void judge_health(struct daemon *d, const struct status_view *v, bool all)
{
	struct bond_views bv;
	size_t n = 0;
	const struct desired_bond **sel = calloc(d->n_bonds ? d->n_bonds : 1, sizeof(*sel));

	if (!sel)
		return;
	for (size_t i = 0; i < d->n_bonds && i < d->want.n_bonds; i++)
		if (all || touched(d, i))
			sel[n++] = &d->want.bonds[i];
	if (bond_views_build(&bv, v, sel, n, false) < 0) {
		free(sel);
		return;
	}
	for (size_t i = 0; i < bv.n; i++) {
		const struct bond_view *b = &bv.v[i];
		struct bond_runtime *rt = &d->bonds[b->want - d->want.bonds];
		char line[BOND_VIEW_WHY + 2 * IFNAMSIZ + 64];
		/* (every bond is judged again when a shared finding changes) */
		text_set(rt->health_why, sizeof(rt->health_why), b->why);
		if (!health_change_line(rt->health_logged, (enum status_health)rt->health, b,
					line, sizeof(line)))
			continue;
		log_meta(LOG_INFO,
			 &(struct log_meta){.bond = b->want->name, .message_id = LOG_MSGID_HEALTH},
			 "%s", line);
		rt->health_logged = true;
		rt->health = (int)b->health;
	}
	bond_views_free(&bv);
	free(sel);
}

/* Each bond's uppers against what they were (uppers.h): what the kernel
 * took with a bond that was deleted is said at warning and kept for
 * health until it is back or a reload accepts it.  Not while the picture
 * of the kernel may be stale (a failed re-read): a link missing then may
 * only be unread. */
void track_uppers(struct daemon *d)
{
	struct upper now[UPPERS_MAX];
	char text[UPPERS_MAX * (IFNAMSIZ + 24)];
	uint64_t now_ms = clock_mono_ms();

	if (d->ob.stale_since_ms)
		return;
	/* The links that stack on another, found once for every bond. */
	size_t n_cand = uppers_stacked(&d->ob.state, NULL, 0);
	const struct obs_link **cand = n_cand ? calloc(n_cand, sizeof(*cand)) : NULL;
	if (n_cand && !cand)
		return; /* the next wake-up looks again */
	uppers_stacked(&d->ob.state, cand, n_cand);
	for (size_t i = 0; i < d->n_bonds && i < d->want.n_bonds; i++) {
		const struct desired_bond *b = &d->want.bonds[i];
		struct bond_runtime *rt = &d->bonds[i];
		struct uppers_change ch;
		if (b->absent) {
			/* deleted on purpose: its uppers with it */
			memset(&rt->uppers, 0, sizeof(rt->uppers));
			continue;
		}
		const struct obs_link *l = observed_by_name(&d->ob.state, b->name);
		if (l && strcmp(l->kind, "bond") != 0)
			l = NULL;
		const struct obs_link *was = rt->uppers.bond_ifindex && (!l ||
					     l->ifindex != rt->uppers.bond_ifindex) ?
			observed_by_index(&d->ob.state, rt->uppers.bond_ifindex) : NULL;
		if (was) {
			/* `ip link set bond0 name ...`: its uppers went along */
			log_info("%s: renamed %s (ifindex %d): its uppers stay with it", b->name,
				 was->name, was->ifindex);
			uppers_renamed(&rt->uppers);
		}
		size_t total = uppers_of_among(&d->ob.state, l, cand, n_cand, now, UPPERS_MAX);
		size_t lost_before = rt->uppers.n_lost;
		uppers_step(&rt->uppers, l ? l->ifindex : 0, now,
			    total < UPPERS_MAX ? total : UPPERS_MAX, total, now_ms, &ch);
		/* Health says "uppers lost": judged again when that changes.  A
		 * VLAN made again over the bond is an event about a link no
		 * entry names (its bond is its lower link, not its master), so
		 * plan_touch does not mark the bond for it. */
		if (ch.n_went || ch.n_back || rt->uppers.n_lost != lost_before)
			d->touched[i] = true;
		if (ch.n_went) {
			uppers_text(ch.went, ch.n_went, true, text, sizeof(text));
			log_warn("%s: deleted; the kernel removed with it: %s", b->name, text);
			record(d, EV_GONE, b->name, "", "deleted; the kernel removed with it: %s",
			       text);
		}
		if (ch.n_back) {
			uppers_text(ch.back, ch.n_back, true, text, sizeof(text));
			log_info("%s: back over the bond: %s", b->name, text);
			record(d, EV_UP, b->name, "", "back over the bond: %s", text);
		}
		if (ch.not_kept && !rt->uppers.full_said) {
			log_warn("%s: %zu uppers, more than the %d bondd remembers: the rest are "
				 "not named if the bond is deleted", b->name, total, UPPERS_MAX);
			rt->uppers.full_said = true;
		}
	}
	free(cand);
}

/* STATUS= for systemd, sent when it changes; and which bonds are whole
 * now, for log_drift. */
void notify_status(struct daemon *d)
{
	struct status_view v;
	char line[1024], msg[sizeof(line) + 8];

	mark_whole(d);
	daemon_view_now(d, &v);
	uint64_t shared = health_shared(&v);
	judge_health(d, &v, d->touched_all || shared != d->health_fp);
	d->health_fp = shared;
	struct service_bond *sb = calloc(d->n_bonds ? d->n_bonds : 1, sizeof(*sb));
	if (!sb)
		return;
	for (size_t i = 0; i < d->n_bonds; i++)
		sb[i] = (struct service_bond){d->bonds[i].name, (enum status_health)d->bonds[i].health,
					      d->bonds[i].health_why};
	service_status_of(sb, d->n_bonds, line, sizeof(line));
	free(sb);
	char refused[400];
	reload_refusal_text(&d->reload_refused, d->opts.config_path, refused, sizeof(refused));
	if (refused[0]) {
		size_t used = strlen(line);
		snprintf(line + used, sizeof(line) - used, "; %s", refused);
	}
	trial_status_text(d, line, sizeof(line));
	if (strcmp(line, d->status_line) == 0)
		return;
	snprintf(d->status_line, sizeof(d->status_line), "%s", line);
	snprintf(msg, sizeof(msg), "STATUS=%s", line);
	sd_notify_send(msg);
}

/* After the pass limit: schedules the next attempt with backoff, and tells
 * health (bond_runtime.unsettled) which bonds still differ and why, until
 * a wake-up ends with nothing left to do.  A plan left empty by holds
 * counts as settled: the holds' own expiries bring bondd back. */
void note_unsettled(struct daemon *d, bool unsettled)
{
	bool others = false; /* bonds not planned now, still differing */

	for (size_t i = 0; i < d->n_bonds && !others; i++)
		others = !touched(d, i) && d->bonds[i].unsettled.passes;
	struct unsettled_step was = {.in_a_row = d->unsettled,
				     .retry_at_ms = d->unsettled_retry_ms};
	struct unsettled_step next = unsettled_step_of(unsettled, others, &was, clock_mono_ms());
	uint64_t backoff = next.backoff_ms;
	d->unsettled = next.in_a_row;
	d->unsettled_retry_ms = next.retry_at_ms;
	for (size_t i = 0; i < d->n_bonds; i++) {
		struct bond_runtime *rt = &d->bonds[i];
		struct action_reasons why;
		if (!touched(d, i))
			continue; /* not planned: the retry timer brings it */
		action_reasons_of(&why, d->plan.v, unsettled ? d->plan.n : 0, rt->name, false);
		if (!why.n) {
			rt->unsettled.passes = 0;
			continue;
		}
		if (!rt->unsettled.passes) {
			char text[BOND_UNSETTLED_WHY_TEXT];
			action_reasons_text(&why, text, sizeof(text));
			record(d, EV_ERROR, rt->name, "",
			       "still differs from the config after %d passes (%s); retrying",
			       MAX_PASSES, text);
		}
		rt->unsettled = (struct bond_unsettled){.passes = MAX_PASSES,
							.retry_ms = backoff, .why = why};
	}
}
