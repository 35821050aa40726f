/* SPDX-License-Identifier: MIT */
/*
 * When the link check runs (linkcheck_io.h): events and requests trigger a
 * check, the rate limits' buckets and the re-check schedule
 * (linkcheck_settle.h) say when it starts, its answers or its deadline say
 * when it ends, and its end evaluates the matrix (linkcheck_eval.c).
 */
#include "linkcheck_parts.h"

#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>

#include "log.h"

/* The rate limits' token buckets (linkcheck_settle.h). */
static int64_t bucket_at(unsigned *tokens, int64_t *since, int64_t now)
{
	return lc_bucket_refill(tokens, since, now, LC_BURST, LC_REFILL_MS);
}

/* Remembers that `b` should be checked; lc_process_due starts it when the
 * rate limit allows.  A check started by our own events asks the peers to
 * probe back, so that their requests (the other direction) arrive within
 * it; one started by a peer's request does not, or two hosts would keep
 * each other checking. */
void lc_trigger(struct lc_bond *b, const char *why, bool demand, bool from_peer, bool fresh)
{
	if (!b->enabled)
		return;
	/* Events coalesce into one check; it is named after (and timed
	 * from) the first of our own, else the first peer's request. */
	int64_t now = mono_ms();
	if (!lc_phase_due(&b->ph) || (!from_peer && !b->ask.probe_back)) {
		b->ask.since_ms = now;
		snprintf(b->ask.trigger, sizeof(b->ask.trigger), "%s", why);
	}
	lc_bond_enter(b, LC_PHASE_DUE, now, 0);
	b->ask.demand |= demand;
	b->ask.probe_back |= !from_peer;
	b->ask.fresh |= fresh;
}

/* A slave became ready: a check now if its bucket has a token, else
 * when it has one (lc_process_due). */
void lc_slave_event(struct lc_bond *b, struct lc_sock *s)
{
	int64_t now = mono_ms();
	if (bucket_at(&s->tokens, &s->tokens_ms, now) > now) {
		s->pending = true;
		return;
	}
	lc_bucket_take(&s->tokens, &s->tokens_ms, now, LC_BURST);
	s->pending = false;
	char why[64];
	snprintf(why, sizeof(why), "%s ready", b->slaves[s->idx]);
	lc_trigger(b, why, false, false, true);
}

/* The findings list the daemon reads: every enabled bond's last check's,
 * pending or confirmed. */
void lc_rebuild_findings(struct linkcheck *lc)
{
	findings_clear(lc->findings);
	for (size_t i = 0; i < lc->n_bonds; i++) {
		const struct lc_bond *b = lc->bonds[i];
		for (size_t j = 0; b->enabled && b->result.checks && j < b->found.n; j++) {
			struct finding *f = findings_add(lc->findings, FSRC_LINK_CHECK,
							 FSEV_DEGRADED, FK_CROSSED, b->name);
			if (!f) {
				log_err("%s: link check: out of memory for its findings", b->name);
				return;
			}
			*f = b->found.v[j];
		}
	}
}

/* f was a confirmed finding of the check before too (warned of then). */
static bool confirmed_before(const struct lc_bond *b, const struct finding *f)
{
	for (size_t j = 0; j < b->was.n; j++)
		if (!b->was.v[j].pending && lc_settle_same(&b->was.v[j], f))
			return true;
	return false;
}

/* The last check's matrix evaluated, its findings marked pending or
 * confirmed against the check before's; returns how many are pending, or
 * -1 when out of memory.  at_end: at the check's end (else again, for
 * late answers), which counts the one-way findings held back. */
static int evaluate(struct lc_bond *b, bool at_end)
{
	findings_clear(&b->raw_last);
	findings_clear(&b->found);
	/* late is not one-way (lc_slow_recent) */
	int64_t now = mono_ms();
	for (size_t i = 0; i < b->result.m.n_slaves; i++) {
		struct lc_slave_obs *row = &b->result.m.slaves[i];
		for (size_t p = 0; p < row->n_peers; p++)
			row->peers[p].slow = lc_slow_recent(&b->slow, (uint8_t)i,
							    lc_peer_id(&row->peers[p].end), now);
	}
	if (linkcheck_eval(&b->result.m, &b->raw_last) < 0)
		return -1;
	for (size_t j = 0; j < b->raw_last.n; j++) {
		struct finding *f = findings_add(&b->found, FSRC_LINK_CHECK, FSEV_DEGRADED,
						 FK_CROSSED, b->name);
		if (!f)
			return -1;
		*f = b->raw_last.v[j];
	}
	b->lag_seen = false;
	for (size_t j = 0; j < b->raw_last.n; j++)
		b->lag_seen |= b->raw_last.v[j].kind == FK_SWITCH_LAG;
	unsigned pending = lc_settle_confirm(&b->found, 0, &b->raw_before);
	unsigned held = lc_settle_hold_one_way(&b->found, &b->was, b->slaves, b->missing_on,
					       b->unexplained_on, b->n, b->one_way_held_before);
	if (at_end)
		b->one_way_held = held ? b->one_way_held_before + 1 : 0;
	/* a flood's losses make no finding (linkcheck_guard.h) */
	held += lc_settle_hold_flooded(&b->found, &b->was, b->slaves, b->flooded_on, b->n);
	lc_settle_drop_flooded(&b->raw_last, &b->was, b->slaves, b->flooded_on, b->n);
	return (int)(pending + held);
}


/* How long a check waits at most (lc_wait_ms), recorded in its result:
 * longest when it may confirm a one-way finding of the check before. */
static uint32_t wait_for(struct lc_bond *b)
{
	size_t peers = lc_bond_peers(b);
	bool one_way = false;
	for (size_t j = 0; j < b->found.n; j++)
		one_way |= b->found.v[j].pending && b->found.v[j].kind == FK_ONE_WAY;
	b->result.wait_ms = lc_wait_ms(peers, &b->slow_ms, one_way);
	return b->result.wait_ms;
}

static void start_check(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	lc_bond_enter(b, LC_PHASE_RUNNING, now, now + wait_for(b));
	/* what asked for it is the running check's; the next starts anew */
	b->run = b->ask;
	b->ask = (struct lc_asked){0};
	b->probe_id = lc->next_probe++;
	lc_recent_add(&b->recent, b->probe_id, now);
	snprintf(b->result.trigger, sizeof(b->result.trigger), "%s", b->run.trigger);
	bool probe_back = b->run.probe_back;
	/* a broadcast check: it serves every wish owed so far */
	memset(b->wish, 0, sizeof(b->wish));
	memset(b->wish_blind, 0, sizeof(b->wish_blind));
	b->settle.next_ms = 0; /* this is the re-check, or replaces it */

	unsigned frames = 0;
	for (size_t i = 0; i < b->n; i++) {
		lc_row_restart(lc, b, i, now);
		frames += lc_send_requests(lc, b, i, probe_back);
	}
	b->result.frames_sent = frames;
	log_debug("%s: link check started (%s): %u requests", b->name, b->result.trigger, frames);
}

/* The re-check's random delay, as long as a peer's wish's (lc_peer_jitter:
 * 0.5 s and 20 ms more per peer slave the check saw): the hosts of a
 * domain that started together re-check on the same backoff, and at 64
 * hosts a fixed quarter second left their re-checks colliding, each
 * check's 378 answers due at once on one CPU and many late. */
static uint32_t jitter(struct linkcheck *lc, const struct lc_bond *b)
{
	return lc_peer_jitter(lc_next_rand(lc), lc_bond_peers(b));
}

/* The end of b's check said: its line (the frames the kernel dropped for
 * its sockets read here), and each finding, a warning once confirmed. */
static void say_done(struct linkcheck *lc, struct lc_bond *b, int pending, size_t missing,
		     bool owed, bool alone_again)
{
	/* frames our sockets lost, their queues full: a missing answer may be
	 * one of them (said in the log; 0 in every bench run but a start of
	 * 64 hosts on one CPU, and there not where findings were false) */
	unsigned kdrops = 0;
	for (size_t i = 0; i < b->n; i++)
		kdrops += lc_sock_drops(lc, &b->socks[i]);
	size_t n_find = 0, reached = 0;
	for (size_t i = 0; i < lc->findings->n; i++)
		n_find += strcmp(lc->findings->v[i].bond, b->name) == 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			reached += b->shown[i].peers[p].answered != 0;
	/* no peer answered: the retry's time (lc_phase_checked), unless a
	 * re-check or a check owed to wishes comes first anyway */
	char next[96] = "on a change";
	if (b->settle.next_ms || owed)
		snprintf(next, sizeof(next), "soon");
	else if (b->result.retry_ms)
		snprintf(next, sizeof(next), "in %u s (no peer answered; then less often, up to "
			 "every %d minutes, until one does)", (b->result.retry_ms + 500) / 1000,
			 LC_ALONE_MAX_MS / 60000);
	char line[512];
	snprintf(line, sizeof(line), "%s: link check done in %u ms (%s): %u requests, %zu answered "
		 "paths, %zu finding%s (%d pending), %zu peer slave%s late, %u frames dropped by "
		 "the kernel, %u peers' requests unanswered; next check %s", b->name,
		 b->result.took_ms, b->result.trigger, b->result.frames_sent, reached, n_find,
		 n_find == 1 ? "" : "s", pending, missing, missing == 1 ? "" : "s", kdrops,
		 b->proven_over, next);
	/* A check that again heard no one, with no change to start it (a
	 * retry), changes nothing: in the debug log only, or a bond on a
	 * switch without bondd would log a line every 5 minutes for ever.
	 * The first such check is said. */
	if (alone_again)
		log_debug("%s", line);
	else
		log_info("%s", line);
	b->proven_over = 0;
	/* A finding is a warning once confirmed; pending, it is a claim that
	 * the next check may not repeat (a peer late, a port still learning):
	 * logged at info. */
	for (size_t i = 0; i < b->found.n; i++) {
		const struct finding *f = &b->found.v[i];
		if (f->pending)
			log_info("%s: link check: pending %s: %s", b->name,
				 finding_kind_name(f->kind), f->evidence);
		else if (f->severity == FSEV_INFO || confirmed_before(b, f))
			/* informational, or a warning already given */
			log_info("%s: link check: %s: %s", b->name, finding_kind_name(f->kind),
				 f->evidence);
		else
			log_warn("%s: link check: %s: %s; fix: %s", b->name,
				 finding_kind_name(f->kind), f->evidence, f->fix);
	}
}

/* Some slave of b got an answer in its last complete check (from any peer
 * slave, at any size, late ones included). */
static bool heard_any(const struct lc_bond *b)
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			if (b->shown[i].peers[p].answered)
				return true;
	return false;
}

static struct lc_phase_in phase_in(struct lc_bond *b, int64_t now);

/* When b's retry will start, for the status (lc_retry_estimate): its own
 * time, and after it the node's budget's turn behind the bonds whose
 * retries are due before its own. */
static int64_t retry_estimate(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	struct lc_phase_in in = phase_in(b, now);
	int64_t ready = lc_phase_retry_at(&b->ph, now, &in);
	if (!ready) /* a re-check takes its place: its own time */
		return b->ph.alone_at_ms;
	size_t ahead = 0;
	bool before_b = true; /* (a tie goes to the bond first in the list) */
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *o = lc->bonds[i];
		if (o == b) {
			before_b = false;
			continue;
		}
		if (!o->ph.alone_at_ms)
			continue;
		struct lc_phase_in oin = phase_in(o, now);
		int64_t at = lc_phase_retry_at(&o->ph, now, &oin);
		ahead += at && (at < ready || (at == ready && before_b));
	}
	return lc_retry_estimate(&lc->retry_node, now, ready, ahead);
}

static void finish_check(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	lc_drop_moved(b);
	int64_t started_ms = b->ph.started_ms;
	/* (DUE when a trigger came while it ran) */
	lc_bond_enter(b, LC_PHASE_IDLE, now, 0);
	b->result.checks++;
	b->result.wall_ms = wall_ms();
	b->result.took_ms = (uint32_t)(now - started_ms);
	b->result.trigger_ms = (uint32_t)(now - b->run.since_ms);
	bool short_of_memory = false;
	for (size_t i = 0; i < b->n; i++) {
		short_of_memory |= lc_row_copy(&b->shown[i], &b->live[i]) < 0;
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			b->shown[i].peers[p].expected = false;
	}
	if (short_of_memory)
		log_warn("%s: link check: out of memory: the last check is shown with fewer "
			 "peers than it heard", b->name);
	b->result.m = (struct lc_matrix){.mode = b->mode, .mtu = b->mtu, .slaves = b->shown,
					 .n_slaves = b->n, .lag_expected = b->lag_expected};
	snprintf(b->result.m.bond, IFNAMSIZ, "%s", b->name);
	size_t missing;
	lc_awaited(b, &missing, b->missing_on, b->unexplained_on);
	bool flooded = false;
	for (size_t i = 0; i < b->n; i++) {
		b->flooded_on[i] = lc_sock_flooded(lc, &b->socks[i], started_ms);
		flooded |= b->flooded_on[i];
		if (b->flooded_on[i])
			log_info("%s: link check: %s was flooded with probe frames during the check "
				 "(read within its budget, strangers filtered): no finding about it is "
				 "confirmed until a check without a flood", b->name, b->slaves[i]);
	}
	b->one_way_held_before = b->one_way_held;
	struct findings t = b->raw_before;
	b->raw_before = b->raw_last;
	b->raw_last = t;
	t = b->was;
	b->was = b->found;
	b->found = t;
	int pending = evaluate(b, true);
	if (pending < 0)
		log_err("%s: link check: out of memory for its findings", b->name);
	b->reeval = false;
	lc_rebuild_findings(lc);
	b->result.pending = pending > 0 ? (unsigned)pending : 0;
	b->result.missing = (unsigned)missing;
	/* (an informational finding, such as an intended LAG, is no reason
	 * to look again) */
	bool degraded = false;
	for (size_t j = 0; j < b->raw_last.n; j++)
		degraded |= b->raw_last.v[j].severity == FSEV_DEGRADED;
	lc_settle_checked(&b->settle, now, degraded || missing > 0 || flooded, b->run.fresh,
			  jitter(lc, b));
	/* wishes the check did not serve (the peer slave asked while it
	 * ran and did not answer it) stay owed: lc_process_due */
	bool owed = lc_wish_owed(b);
	b->result.settling = !lc_settle_quiet(&b->settle) || owed;
	b->result.recheck_ms = b->settle.next_ms ? (uint32_t)(b->settle.next_ms - now) : 0;
	/* No peer answered on any slave: a retry on a backoff until one does
	 * (lc_phase_checked).  Hearing no one is no finding (linkcheck_eval):
	 * nothing above changes for it. */
	bool heard = heard_any(b);
	bool sent = b->result.frames_sent > 0;
	bool alone_again = sent && !heard && !b->run.fresh && b->ph.alone_ms;
	lc_phase_checked(&b->ph, now, sent, heard, b->run.fresh, jitter(lc, b));
	b->result.retry_ms = b->ph.alone_at_ms ? (uint32_t)(retry_estimate(lc, b, now) - now) : 0;
	/* The client's answer is a check started after it asked (one that
	 * was running already may predate what it wants to see), and the
	 * check confirming that one's findings when it found any that
	 * matter (a new informational one starts no re-check: nothing to
	 * wait for). */
	if (b->demand_wait && (b->run.demand || b->demand_checks) &&
	    (++b->demand_checks >= 2 || pending <= 0 || lc_settle_quiet(&b->settle)))
		b->demand_wait = false;
	/* A client waits for the confirming check: it comes at the first
	 * step, whatever the schedule had reached. */
	if (b->demand_wait && b->settle.next_ms > now + LC_SETTLE_FIRST_MS)
		b->settle.next_ms = now + LC_SETTLE_FIRST_MS;

	say_done(lc, b, pending, missing, owed, alone_again);
	if (lc->done)
		lc->done(lc->ctx, b->name);
}


/* The events of b's slaves that waited for a token (lc_slave_event), now
 * that their buckets have one; returns when the next one has, 0: none
 * waits.  (Before the phase's steps: an event while a check runs makes
 * the next one due, as it would after the check's end.) */
static int64_t slave_events_due(struct lc_bond *b, int64_t now)
{
	int64_t next = 0;
	for (size_t j = 0; j < b->n; j++) {
		struct lc_sock *s = &b->socks[j];
		if (!s->pending)
			continue;
		if (s->sock.fd < 0) {
			s->pending = false;
			continue;
		}
		int64_t at = bucket_at(&s->tokens, &s->tokens_ms, now);
		if (at <= now)
			lc_slave_event(b, s);
		else if (!next || at < next)
			next = at;
	}
	return next;
}

/* What the schedule's next step depends on besides the phase
 * (lc_phase_next), as b holds it at now. */
static struct lc_phase_in phase_in(struct lc_bond *b, int64_t now)
{
	return (struct lc_phase_in){
		.complete = lc_phase_running(&b->ph) && lc_answers_complete(b),
		.demand_wait = b->demand_wait,
		.recheck_ms = b->settle.next_ms,
		.wish = {b->wish[0], b->wish[1]},
		.wishes_owed = lc_wish_owed(b),
		.token_ms = {bucket_at(&b->peer_tokens, &b->peer_tokens_ms, now),
			     bucket_at(&b->stranger_tokens, &b->stranger_tokens_ms, now)},
		.peers = lc_bond_peers(b),
	};
}

/* Settling, as the status shows it while no check runs: a re-check is
 * due, or a check owed to wishes (a wish served by the answers to a
 * check, with no check of its own, leaves the bond settled). */
static void note_settling(struct lc_bond *b)
{
	if (!lc_phase_running(&b->ph) && b->enabled) {
		bool settling = !lc_settle_quiet(&b->settle) || b->wish[0].since_ms ||
				b->wish[1].since_ms;
		if (b->result.settling != settling) /* (stored when it changes: linkcheck_sync) */
			b->result.settling = settling;
	}
}

/* Each step of the schedule changes the state it came from (a check
 * ended, triggered or started, wishes forgotten): a bond takes a few per
 * pass.  A bound all the same. */
#define LC_STEPS_MAX 16

/* Does b's schedule's steps due by now (lc_phase_next), its retry too
 * when the node's budget chose it (retry_go); returns the wait it ends
 * with: when the next step is due (.at, 0: none) and when its retry is
 * (.retry_at, for the node's budget). */
static struct lc_next run_steps(struct linkcheck *lc, struct lc_bond *b, int64_t now,
				bool retry_go)
{
	for (unsigned n = 0; n < LC_STEPS_MAX; n++) {
		struct lc_phase_in in = phase_in(b, now);
		in.retry_go = retry_go;
		struct lc_next nx = lc_phase_next(&b->ph, now, &in);
		switch (nx.step) {
		case LC_STEP_WAIT:
			note_settling(b);
			return nx;
		case LC_STEP_FINISH:
			finish_check(lc, b, now);
			break;
		case LC_STEP_RECHECK:
			/* Re-checks take a token of the bucket peers' wishes
			 * to be probed back take (a check that our own events
			 * did not start), so that the two together stay within
			 * it; one a client waits for does not wait for one. */
			if (!b->demand_wait)
				lc_bucket_take(&b->peer_tokens, &b->peer_tokens_ms, now, LC_BURST);
			lc_trigger(b, "re-check", false, false, false);
			break;
		case LC_STEP_RETRY:
			/* no peer answered the last check (lc_phase_checked), and
			 * the node's budget chose it: a token of the node's
			 * bucket (linkcheck_retry.h) and of the same bucket as
			 * the re-checks, asking the peers to probe back as they
			 * do */
			lc_retry_take(&lc->retry_node, now);
			retry_go = false;
			lc_bucket_take(&b->peer_tokens, &b->peer_tokens_ms, now, LC_BURST);
			lc_trigger(b, "no peer yet", false, false, false);
			break;
		case LC_STEP_SERVED:
			memset(b->wish, 0, sizeof(b->wish));
			memset(b->wish_blind, 0, sizeof(b->wish_blind));
			/* the last check's line said "next check soon" for them */
			if (lc_settle_quiet(&b->settle))
				log_info("%s: link check: the peer slaves that asked to be probed "
					 "back have answered; next check on a change", b->name);
			break;
		case LC_STEP_WISH_PEER:
		case LC_STEP_WISH_STRANGER:
			/* peers' wishes owed a check (lc_wish), each from its
			 * own bucket */
			if (nx.step == LC_STEP_WISH_PEER)
				lc_bucket_take(&b->peer_tokens, &b->peer_tokens_ms, now, LC_BURST);
			else
				lc_bucket_take(&b->stranger_tokens, &b->stranger_tokens_ms, now,
					       LC_BURST);
			lc_trigger(b, b->wish_why, false, true, false);
			break;
		case LC_STEP_START:
			note_settling(b);
			start_check(lc, b, now);
			break;
		}
	}
	log_err("%s: link check: its schedule took more than %d steps at once; looked at again "
		"in a second", b->name, LC_STEPS_MAX);
	return (struct lc_next){LC_STEP_WAIT, now + 1000, 0};
}

/* The bonds whose retries are due by their own rules, for the node's
 * budget: looked at, nothing stored. */
static struct lc_retry_queue retry_queue(struct linkcheck *lc, int64_t now)
{
	struct lc_retry_queue q = {0};
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		if (!b->ph.alone_at_ms)
			continue;
		struct lc_phase_in in = phase_in(b, now);
		int64_t at = lc_phase_retry_at(&b->ph, now, &in);
		if (at)
			lc_retry_offer(&q, i, at);
	}
	return q;
}

/* Ends checks past their deadline, starts the due ones the rate limit
 * allows, and arms the timer for the next of these; with nothing running
 * or due the timer is off. */
void lc_process_due(struct linkcheck *lc)
{
	int64_t now = mono_ms();
	int64_t next = lc_send_due_replies(lc, now);
	int64_t guard = lc_guard_due(lc, now);
	if (guard && (!next || guard < next))
		next = guard;

	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		if (b->reeval) {
			b->reeval = false;
			int pending = evaluate(b, false);
			b->result.pending = pending > 0 ? (unsigned)pending : 0;
			lc_rebuild_findings(lc);
			/* a late answer heard a peer: no retry (lc_phase_checked) */
			if (b->ph.alone_at_ms && heard_any(b)) {
				lc_phase_checked(&b->ph, now, true, true, false, 0);
				b->result.retry_ms = 0;
			}
		}
		/* (at its deadline a check counts what its sockets hold) */
		if (lc_phase_running(&b->ph) && now >= b->ph.deadline_ms)
			lc_read_queued(lc, b);
		int64_t at = slave_events_due(b, now);
		if (at && (!next || at < next))
			next = at;
		at = run_steps(lc, b, now, false).at;
		if (at && (!next || at < next))
			next = at;
	}
	/* The retries of bonds that heard no peer: the node's budget says
	 * which goes and when (linkcheck_retry.h), one time for the node's
	 * timer whatever the bonds.  (A burst is LC_RETRY_NODE_BURST at most:
	 * each retry started takes a token.) */
	for (unsigned k = 0; k <= LC_RETRY_NODE_BURST; k++) {
		struct lc_retry_queue q = retry_queue(lc, now);
		struct lc_retry_go g = lc_retry_decide(&lc->retry_node, &q, now);
		if (!g.go) {
			if (g.at && (!next || g.at < next))
				next = g.at;
			break;
		}
		int64_t at = run_steps(lc, lc->bonds[g.idx], now, true).at;
		if (at && (!next || at < next))
			next = at;
	}
	struct itimerspec its = {0};
	if (next) {
		int64_t in = next > now ? next - now : 1;
		its.it_value.tv_sec = in / 1000;
		its.it_value.tv_nsec = (in % 1000) * 1000000 + 1;
	}
	timerfd_settime(lc->timer_fd, 0, &its, NULL);
}
