/* SPDX-License-Identifier: MIT */
/*
 * A reload on trial (bondd(8), RELOAD ON TRIAL): bondd-status --reload
 * --try SECONDS applies the file as a reload does and keeps the running
 * configuration; a confirm keeps the tried one; otherwise the one before
 * comes back, the same hitless way as any reload, at the deadline or at
 * once when the trial left a bond missing, down, without slaves or with
 * fewer proven paths (the decision: plan/trial.c, pure).  Here: the facts
 * gathered, the decision acted on, and what it is said as (log, events,
 * status, the clients waiting).
 *
 * The file on disk is never edited: after a rollback it still holds the
 * tried configuration, which a later reload (or a restart) applies again.
 * A trial lives in bondd's memory only: a restart during one ends it, and
 * bondd starts from the file.
 */
#include "daemon_parts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "linkcheck.h"
#include "trial_facts.h"

_Static_assert(TRIAL_MIN_S == STATUS_TRY_MIN_S && TRIAL_MAX_S == STATUS_TRY_MAX_S,
	       "the protocol's bounds for try are the trial's");

/* The paths a link check result proves from one local slave: the peer
 * slaves that answered at every size the slave sent (a path that lost its
 * jumbo frames is a path lost).  0 for a slave the check did not probe. */
static unsigned proven_paths(const struct lc_result *r, const char *slave)
{
	unsigned n = 0;

	if (!r || !r->enabled || !r->checks)
		return 0;
	for (size_t i = 0; i < r->m.n_slaves; i++) {
		const struct lc_slave_obs *row = &r->m.slaves[i];
		if (strcmp(row->name, slave) != 0)
			continue;
		for (size_t k = 0; row->sent && k < row->n_peers; k++)
			n += (row->peers[k].answered & row->sent) == row->sent;
	}
	return n;
}

static const struct lc_result *lc_result_of(struct daemon *d, const char *bond)
{
	const struct lc_results *rs = linkcheck_results(d->lc);
	return rs ? lc_results_find(rs, bond) : NULL;
}

int trial_begin(struct daemon *d, const struct desired *next, uint32_t seconds)
{
	struct daemon_trial *t = &d->trial;
	size_t n = 0;
	uint32_t updelay;
	bool lacp;

	for (size_t i = 0; i < next->n_bonds; i++)
		n += !next->bonds[i].absent;
	struct trial_bond *bonds = calloc(n ? n : 1, sizeof(*bonds));
	struct trial_paths *paths = calloc(n ? n : 1, sizeof(*paths));
	if (!bonds || !paths) {
		free(bonds);
		free(paths);
		return -ENOMEM;
	}
	n = 0;
	for (size_t i = 0; i < next->n_bonds; i++) {
		const struct desired_bond *b = &next->bonds[i];
		if (b->absent)
			continue; /* deleting it is what was asked */
		struct trial_bond *f = &bonds[n++];
		trial_facts_before(f, b, &d->ob.state);
		/* per slave the tried configuration keeps (by today's
		 * name: identity_refresh named them before the trial) */
		const struct lc_result *r = lc_result_of(d, b->name);
		struct trial_paths *tp = &paths[n - 1];
		for (size_t k = 0; k < b->n_slaves && k < BONDD_MAX_SLAVES; k++) {
			snprintf(tp->slave[k], IFNAMSIZ, "%s", b->slaves[k].name);
			tp->before[k] = proven_paths(r, b->slaves[k].name);
			f->paths_before += tp->before[k];
		}
		tp->n = b->n_slaves;
	}
	trial_grace_inputs(next, &updelay, &lacp);
	int64_t now = (int64_t)clock_mono_ms();
	free(t->bonds);
	free(t->paths);
	t->bonds = bonds;
	t->paths = paths;
	t->n_bonds = n;
	/* Kept to be put back; d->want still points at the same memory
	 * until apply_config replaces it (or trial_cancel forgets this). */
	t->prev = d->want;
	t->running = true;
	t->confirmed = false;
	t->id++;
	t->seconds = seconds;
	t->start_ms = now;
	t->settle_ms = now + trial_grace_ms(updelay, lacp, seconds);
	t->deadline_ms = now + (int64_t)seconds * 1000;
	t->start_wall_ms = clock_wall_ms();
	t->shown = (struct status_trial){.state = STRIAL_RUNNING, .id = t->id, .seconds = seconds,
					 .started_ms = t->start_wall_ms,
					 .deadline_ms = t->start_wall_ms + (int64_t)seconds * 1000};
	return 0;
}

void trial_cancel(struct daemon *d)
{
	struct daemon_trial *t = &d->trial;

	if (!t->running)
		return;
	t->prev = (struct desired){0}; /* still d->want's: not freed */
	t->running = false;
	t->id--;
	t->shown = (struct status_trial){0};
}

/* The deadline as people read it: the event log's wall-clock text. */
static const char *deadline_text(const struct daemon_trial *t, char out[32])
{
	return event_time_text(t->shown.deadline_ms, out);
}

void trial_started(struct daemon *d, char *msg, size_t len)
{
	struct daemon_trial *t = &d->trial;
	char when[32];

	deadline_text(t, when);
	log_info("trial %u: applied %s (%zu bond%s); the configuration before it comes back at "
		 "%s (in %u s) unless confirmed (bondd-status --confirm), at once if a bond is "
		 "left down, without slaves or with fewer proven paths after %lld ms",
		 t->id, d->opts.config_path, d->want.n_bonds, d->want.n_bonds == 1 ? "" : "s",
		 when, t->seconds, (long long)(t->settle_ms - t->start_ms));
	record_config(d, CONFIG_TAKEN, NULL, "trial %u: applied %s, put back at %s unless confirmed",
		      t->id, d->opts.config_path, when);
	snprintf(msg, len, "trial %u: applied %s: %zu bond%s; put back at %s (in %u s) unless "
		 "confirmed with bondd-status --confirm", t->id, d->opts.config_path,
		 d->want.n_bonds, d->want.n_bonds == 1 ? "" : "s", when, t->seconds);
	if (d->server)
		status_split_changed(d->server);
}

bool trial_conflict(struct daemon *d, const char *verb, char *msg, size_t len)
{
	struct daemon_trial *t = &d->trial;

	if (!t->running)
		return false;
	int64_t left = t->deadline_ms - (int64_t)clock_mono_ms();
	snprintf(msg, len, "trial %u runs (%lld s left): confirm it (bondd-status --confirm) or "
		 "let it be put back before a %s", t->id,
		 (long long)(left > 0 ? (left + 999) / 1000 : 0), verb);
	return true;
}

/* The trial ends: the shown state, the record, the clients waiting. */
static void trial_end(struct daemon *d, bool kept, const char *why)
{
	struct daemon_trial *t = &d->trial;

	t->running = false;
	free(t->bonds);
	t->bonds = NULL;
	free(t->paths);
	t->paths = NULL;
	t->n_bonds = 0;
	t->shown.state = kept ? STRIAL_CONFIRMED : STRIAL_ROLLED_BACK;
	t->shown.ended_ms = clock_wall_ms();
	snprintf(t->shown.reason, sizeof(t->shown.reason), "%s", kept ? "" : why);
	if (!d->server)
		return;
	char msg[400];
	if (kept)
		snprintf(msg, sizeof(msg), "trial %u confirmed: the tried configuration stays",
			 t->id);
	else
		snprintf(msg, sizeof(msg), "trial %u rolled back: %s; the configuration before it "
			 "runs again", t->id, why);
	status_split_trial_ended(d->server, t->id, kept ? 0 : SE_ROLLED_BACK, msg);
}

/* The configuration before the trial is to come back: the runtime records
 * made for it and the trial ended; the caller applies out (daemon.c), the
 * same path as a reload's, so every bond already right is left alone.
 * False when nothing changed (out of memory). */
static bool roll_back(struct daemon *d, const char *why, struct trial_putback *out)
{
	struct daemon_trial *t = &d->trial;

	if (runtime_rebuild(d, &t->prev) < 0) {
		/* Nothing changed: tried again at the next look (the retry
		 * timer comes at once while the trial runs past its time). */
		log_err("trial %u: out of memory putting back the configuration before it; "
			"trying again", t->id);
		return false;
	}
	out->prev = t->prev;
	out->id = t->id;
	t->prev = (struct desired){0};
	/* Said before the work, so that the log reads in order. */
	log_meta(LOG_WARNING, &(struct log_meta){.message_id = LOG_MSGID_TRIAL_ROLLED_BACK},
		 "trial %u rolled back: %s; putting back the configuration that ran before it "
		 "(%s still holds the tried one: a reload or a restart applies it again)", t->id,
		 why, d->opts.config_path);
	record_config(d, CONFIG_TAKEN, NULL, "trial %u rolled back: %s", t->id, why);
	trial_end(d, false, why);
	snprintf(out->from, sizeof(out->from), "the configuration before trial %u", t->id);
	return true;
}

/* The facts of the tried configuration's bonds now (after the grace). */
static void gather(struct daemon *d)
{
	struct daemon_trial *t = &d->trial;

	for (size_t i = 0; i < t->n_bonds; i++) {
		struct trial_bond *f = &t->bonds[i];
		trial_facts_now(f, desired_find_bond(&d->want, f->name), &d->ob.state);
		const struct lc_result *r = lc_result_of(d, f->name);
		/* A check that began after the trial did (its end less its
		 * length): one of the tried configuration. */
		f->paths_judged = r && r->enabled && r->checks && r->wall_ms &&
				  r->wall_ms - (int64_t)r->took_ms >= t->start_wall_ms;
		unsigned now[BONDD_MAX_SLAVES];
		size_t n = f->paths_judged ? t->paths[i].n : 0;
		if (n > BONDD_MAX_SLAVES)
			n = BONDD_MAX_SLAVES;
		for (size_t k = 0; k < n; k++)
			now[k] = proven_paths(r, t->paths[i].slave[k]);
		f->paths = trial_paths_kept(t->paths[i].before, now, n);
	}
}

bool trial_step(struct daemon *d, struct trial_putback *out)
{
	struct daemon_trial *t = &d->trial;

	if (!t->running)
		return false;
	int64_t now = (int64_t)clock_mono_ms();
	/* Before the grace ends no bond is judged: no facts needed. */
	if (now >= t->settle_ms)
		gather(d);
	struct trial_verdict v = trial_judge(t->confirmed, now, t->settle_ms, t->deadline_ms,
					     t->bonds, now >= t->settle_ms ? t->n_bonds : 0);
	if (v.action == TRIAL_WAIT)
		return false;
	if (v.action == TRIAL_KEEP) {
		desired_free(&t->prev);
		trial_end(d, true, NULL);
		return false;
	}
	char why[160];
	trial_reason_text(v.reason, v.reason == TRIAL_DEADLINE ? NULL : &t->bonds[v.bond], why,
			  sizeof(why));
	return roll_back(d, why, out);
}

uint64_t trial_next_ms(const struct daemon *d)
{
	const struct daemon_trial *t = &d->trial;
	int64_t now = (int64_t)clock_mono_ms();

	if (!t->running)
		return 0;
	int64_t at = now < t->settle_ms ? t->settle_ms : t->deadline_ms;
	/* Past both (a rollback that ran out of memory): soon again. */
	return (uint64_t)(at > now ? at : now + 100);
}

int trial_answer(struct daemon *d, enum status_verb verb, uint32_t arg, char *msg, size_t len)
{
	struct daemon_trial *t = &d->trial;

	if (verb == SV_CONFIRM) {
		if (!t->running) {
			snprintf(msg, len, "no trial runs: nothing to confirm%s",
				 t->shown.state == STRIAL_ROLLED_BACK ? " (the last one was put back)"
				 : "");
			return SE_CONFLICT;
		}
		uint32_t id = t->id;
		log_info("trial %u confirmed: the tried configuration from %s stays", id,
			 d->opts.config_path);
		record_config(d, CONFIG_TAKEN, NULL, "trial %u confirmed", id);
		/* judged at once by the caller (a confirmed trial is kept) */
		t->confirmed = true;
		snprintf(msg, len, "trial %u confirmed: the tried configuration stays", id);
		return 0;
	}
	/* SV_TRIAL_WAIT */
	if (arg == t->id && t->running)
		return STATUS_TRIAL_PENDING;
	if (arg == 0 || arg > t->id) {
		if (t->id)
			snprintf(msg, len, "no trial %u (the last is %u)", arg, t->id);
		else
			snprintf(msg, len, "no trial %u: none since bondd started", arg);
		return SE_CONFLICT;
	}
	if (arg < t->id) {
		snprintf(msg, len, "trial %u ended before trial %u began; its outcome is in bondd's "
			 "log", arg, t->id);
		return SE_CONFLICT;
	}
	if (t->shown.state == STRIAL_CONFIRMED) {
		snprintf(msg, len, "trial %u confirmed: the tried configuration stays", arg);
		return 0;
	}
	snprintf(msg, len, "trial %u rolled back: %s; the configuration before it runs again", arg,
		 t->shown.reason);
	return SE_ROLLED_BACK;
}

void trial_status_text(const struct daemon *d, char *line, size_t len)
{
	const struct daemon_trial *t = &d->trial;
	char when[32];
	size_t used = strlen(line);

	if (t->running && used < len)
		snprintf(line + used, len - used, "; trial %u runs: put back at %s unless confirmed",
			 t->id, event_time_text(t->shown.deadline_ms, when));
}

void trial_on_stop(struct daemon *d)
{
	if (d->trial.running)
		log_warn("stopping during trial %u: the trial ends unconfirmed; bonds are left as "
			 "the tried configuration made them, and the next start applies %s, which "
			 "holds the tried configuration", d->trial.id, d->opts.config_path);
}

void trial_free(struct daemon *d)
{
	if (d->trial.running)
		desired_free(&d->trial.prev);
	d->trial.prev = (struct desired){0};
	free(d->trial.bonds);
	d->trial.bonds = NULL;
	free(d->trial.paths);
	d->trial.paths = NULL;
}
