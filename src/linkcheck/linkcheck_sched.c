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
static int64_t refill(unsigned *tokens, int64_t *since, int64_t now)
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
	if (!b->due || (!from_peer && !b->due_probe_back)) {
		b->due_since_ms = mono_ms();
		snprintf(b->due_trigger, sizeof(b->due_trigger), "%s", why);
	}
	b->due = true;
	b->due_demand |= demand;
	b->due_probe_back |= !from_peer;
	b->due_fresh |= fresh;
}

/* A slave became ready: a check now if its bucket has a token, else
 * when it has one (lc_process_due). */
void lc_slave_event(struct lc_bond *b, struct lc_sock *s)
{
	int64_t now = mono_ms();
	if (refill(&s->tokens, &s->tokens_ms, now) > now) {
		s->pending = true;
		return;
	}
	s->tokens--;
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
	b->running = b->result.running = true;
	b->started_ms = b->last_start_ms = now;
	b->deadline_ms = now + wait_for(b);
	b->trigger_since_ms = b->due_since_ms;
	b->probe_id = lc->next_probe++;
	lc_recent_add(&b->recent, b->probe_id, now);
	snprintf(b->result.trigger, sizeof(b->result.trigger), "%s", b->due_trigger);
	bool probe_back = b->due_probe_back;
	b->running_fresh = b->due_fresh;
	b->running_demand = b->due_demand;
	b->due = b->due_demand = b->due_probe_back = b->due_fresh = false;
	/* a broadcast check: it serves every wish owed so far */
	memset(b->wish, 0, sizeof(b->wish));
	memset(b->wish_blind, 0, sizeof(b->wish_blind));
	b->settle.next_ms = 0; /* this is the re-check, or replaces it */

	unsigned frames = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct lc_slave_obs *row = &b->live[i];
		/* Answers are this check's alone; what peers sent counts while
		 * it is recent (it may be what made us check), and in a re-check
		 * a little longer: it confirms or clears what the check before
		 * found, and a peer's requests arrive only when the peer checks
		 * (a one-way path is confirmed by its peer's requests of the
		 * check before and the answers still missing in this one).
		 * A peer slave's request that raised a wish this check serves
		 * is kept however long the wish waited (its jitter, the
		 * wishes' bucket): it is what made us check, and without it a
		 * check owed to a one-way peer's requests would see that peer
		 * neither heard nor answering, and clear the one-way finding
		 * it should confirm. */
		int64_t slack = b->running_fresh ? LC_HEARD_SLACK_MS : LC_HEARD_KEEP_MS;
		size_t keep = 0;
		for (size_t p = 0; p < row->n_peers; p++) {
			struct lc_peer_obs pe = row->peers[p];
			bool kept = pe.heard && (pe.heard_ms >= now - slack || pe.wished);
			pe.answered = 0;
			pe.expected = pe.wished = false;
			if (kept)
				row->peers[keep++] = pe;
		}
		row->n_peers = keep;
		/* Whom to wait for: every peer slave the check before saw,
		 * those that answered it first (in a full row a peer that
		 * only sent requests gives its place up). */
		for (int pass = 0; pass < 2; pass++)
			for (size_t p = 0; p < b->shown[i].n_peers; p++) {
				const struct lc_peer_obs *old = &b->shown[i].peers[p];
				/* (a peer only heard is waited for when its
				 * host answered: a stranger's requests are not
				 * a peer's) */
				if (pass ? old->answered || !old->heard || b->lag_seen ||
						   !lc_known_host(lc, old->end.host, now)
					 : !old->answered)
					continue;
				struct lc_peer_obs *pe = pass ? lc_row_peer(row, &old->end)
							      : lc_row_peer_answered(row, &old->end);
				if (pe)
					pe->expected = true;
			}
		row->siblings = row->answered_on = 0;
		row->probed = row->resent = row->reopen_resent = false;
		row->sent = 0;
		row->error[0] = '\0';
		memset(row->sizes, 0, sizeof(row->sizes));
		snprintf(row->name, sizeof(row->name), "%s", b->slaves[i]);
		snprintf(row->sel, sizeof(row->sel), "%s", b->sel[i]);
		row->pos = (uint8_t)(i + 1);
		row->ifindex = b->socks[i].sock.ifindex;
		frames += lc_send_requests(lc, b, i, probe_back);
	}
	b->result.frames_sent = frames;
	log_debug("%s: link check started (%s): %u requests", b->name, b->result.trigger, frames);
}

/* Counts the peer slaves we wait for (they answered the check before, or
 * their requests arrived and their host answers) and, in *missing, those
 * of them that have not answered every size sent yet (per slave in
 * missing_on, and of those the ones a one-way path does not explain in
 * unexplained_on, unless NULL). */
static size_t awaited(const struct lc_bond *b, size_t *missing, unsigned *missing_on,
		      unsigned *unexplained_on)
{
	size_t known = 0;
	*missing = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct lc_slave_obs *row = &b->live[i];
		size_t before = *missing;
		unsigned unexplained = 0;
		for (size_t p = 0; row->probed && p < row->n_peers; p++) {
			const struct lc_peer_obs *pe = &row->peers[p];
			if (!pe->expected &&
			    (b->lag_seen ||
			     !(pe->heard && lc_host_answered(b->live, b->n, pe->end.host))))
				continue;
			known++;
			*missing += pe->answered != row->sent;
			/* (a peer slave heard and silent is what one-way
			 * names; one that sent nothing, or answered some sizes
			 * only, is lost for another reason) */
			unexplained += pe->answered != row->sent && (pe->answered || !pe->heard);
		}
		if (missing_on)
			missing_on[i] = (unsigned)(*missing - before);
		if (unexplained_on)
			unexplained_on[i] = unexplained;
	}
	return known;
}

/* Every peer slave we wait for has answered every size sent: nothing more
 * to wait for.  A check with no such peer waits its whole time. */
static bool answers_complete(const struct lc_bond *b)
{
	size_t missing, known = awaited(b, &missing, NULL, NULL);
	if (!known || missing)
		return false;
	/* A probed slave that no peer answered yet, while others have
	 * answers, is waited for the whole time: it may be slow rather
	 * than cut off, and a finding about it must rest on a full wait. */
	for (size_t i = 0; i < b->n; i++) {
		const struct lc_slave_obs *row = &b->live[i];
		bool any = false;
		for (size_t p = 0; row->probed && p < row->n_peers && !any; p++)
			any = row->peers[p].answered != 0;
		if (row->probed && !any)
			return false;
	}
	return true;
}

uint32_t lc_next_rand(struct linkcheck *lc)
{
	/* xorshift32: spreads the checks of hosts that saw one change */
	uint32_t x = lc->rng ? lc->rng : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	lc->rng = x;
	return x;
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

/* A peer slave's request kept from before this check (a re-check keeps
 * LC_HEARD_KEEP_MS) on one slave, while in this check that peer slave
 * answered another slave and not this one: the path moved (a switch put
 * right), and the request came the old way.  It is dropped. */
static void drop_moved(struct lc_bond *b)
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++) {
			struct lc_peer_obs *pe = &b->live[i].peers[p];
			if (!pe->heard || pe->answered || pe->heard_ms >= b->started_ms)
				continue;
			bool moved = false;
			for (size_t j = 0; j < b->n && !moved; j++)
				for (size_t q = 0; j != i && q < b->live[j].n_peers && !moved; q++)
					moved = b->live[j].peers[q].answered &&
						lc_end_same(&b->live[j].peers[q].end, &pe->end);
			if (moved)
				pe->heard = 0;
		}
}

/* A request from `end` shows what the last check of slave i did not:
 * that slave was not answered by it (a host new to us, a path that
 * changed).  A peer slave only heard is news too: its requests prove
 * nothing about ours reaching it, and a host that appeared while our check
 * ran may have been heard and never asked (a wish that found us busy).
 * Behind a switch LAG a peer slave answers whichever slave the switch's
 * hash picks: one that answered another slave is no news. */
bool lc_news(const struct lc_bond *b, size_t i, const struct lc_end *end)
{
	if (!b->result.checks || !b->shown[i].probed)
		return true;
	for (size_t j = 0; j < b->n; j++) {
		const struct lc_slave_obs *row = &b->shown[j];
		for (size_t p = 0; (j == i || b->lag_seen) && p < row->n_peers; p++)
			if (row->peers[p].answered && lc_end_same(&row->peers[p].end, end))
				return false;
	}
	return true;
}

/* A wish owed a check is still owed: a peer slave that asked since the
 * last check began has not answered us since (a late answer counts), or
 * one asked that a full row had no place for. */
static bool wish_owed(const struct lc_bond *b)
{
	if (!b->wish[0].since_ms && !b->wish[1].since_ms)
		return false;
	if (b->wish_blind[0] || b->wish_blind[1])
		return true;
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++)
			if (b->live[i].peers[p].wished && lc_news(b, i, &b->live[i].peers[p].end))
				return true;
	return false;
}

static void finish_check(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	drop_moved(b);
	b->running = b->result.running = false;
	b->result.checks++;
	b->result.wall_ms = wall_ms();
	b->result.took_ms = (uint32_t)(now - b->started_ms);
	b->result.trigger_ms = (uint32_t)(now - b->trigger_since_ms);
	memcpy(b->shown, b->live, b->n * sizeof(*b->shown));
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			b->shown[i].peers[p].expected = false;
	b->result.m = (struct lc_matrix){.mode = b->mode, .mtu = b->mtu, .slaves = b->shown,
					 .n_slaves = b->n, .lag_expected = b->lag_expected};
	snprintf(b->result.m.bond, IFNAMSIZ, "%s", b->name);
	size_t missing;
	awaited(b, &missing, b->missing_on, b->unexplained_on);
	bool flooded = false;
	for (size_t i = 0; i < b->n; i++) {
		b->flooded_on[i] = lc_sock_flooded(lc, &b->socks[i], b->started_ms);
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
	lc_settle_checked(&b->settle, now, degraded || missing > 0 || flooded, b->running_fresh,
			  jitter(lc, b));
	/* wishes the check did not serve (the peer slave asked while it
	 * ran and did not answer it) stay owed: lc_process_due */
	bool owed = wish_owed(b);
	b->result.settling = !lc_settle_quiet(&b->settle) || owed;
	b->result.recheck_ms = b->settle.next_ms ? (uint32_t)(b->settle.next_ms - now) : 0;
	/* The client's answer is a check started after it asked (one that
	 * was running already may predate what it wants to see), and the
	 * check confirming that one's findings when it found any that
	 * matter (a new informational one starts no re-check: nothing to
	 * wait for). */
	if (b->demand_wait && (b->running_demand || b->demand_checks) &&
	    (++b->demand_checks >= 2 || pending <= 0 || lc_settle_quiet(&b->settle)))
		b->demand_wait = false;
	/* A client waits for the confirming check: it comes at the first
	 * step, whatever the schedule had reached. */
	if (b->demand_wait && b->settle.next_ms > now + LC_SETTLE_FIRST_MS)
		b->settle.next_ms = now + LC_SETTLE_FIRST_MS;

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
	log_info("%s: link check done in %u ms (%s): %u requests, %zu answered paths, "
		 "%zu finding%s (%d pending), %zu peer slave%s late, %u frames dropped by the "
		 "kernel, %u peers' requests unanswered; next check %s", b->name,
		 b->result.took_ms, b->result.trigger, b->result.frames_sent, reached, n_find,
		 n_find == 1 ? "" : "s", pending, missing, missing == 1 ? "" : "s", kdrops,
		 b->proven_over,
		 b->settle.next_ms || owed ? "soon" : "on a change");
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
	if (lc->done)
		lc->done(lc->ctx, b->name);
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
		}
		if (b->running && now >= b->deadline_ms)
			lc_read_queued(lc, b);
		if (b->running && (now >= b->deadline_ms ||
				   (now >= b->started_ms + LC_MIN_WAIT_MS && answers_complete(b))))
			finish_check(lc, b, now);
		for (size_t j = 0; j < b->n; j++) {
			struct lc_sock *s = &b->socks[j];
			if (!s->pending)
				continue;
			if (s->sock.fd < 0) {
				s->pending = false;
				continue;
			}
			int64_t at = refill(&s->tokens, &s->tokens_ms, now);
			if (at <= now)
				lc_slave_event(b, s);
			else if (!next || at < next)
				next = at;
		}
		/* settling: the re-check, unless a check is due or running
		 * anyway (it takes the re-check's place).  Re-checks take a
		 * token of the bucket peers' wishes to be probed back take
		 * (a check that our own events did not start), so that the
		 * two together stay within it; one a client waits for does
		 * not wait for a token. */
		if (b->settle.next_ms && !b->running && !b->due) {
			int64_t at = b->settle.next_ms;
			if (at <= now && !b->demand_wait)
				at = refill(&b->peer_tokens, &b->peer_tokens_ms, now);
			if (at <= now) {
				if (!b->demand_wait)
					b->peer_tokens--;
				lc_trigger(b, "re-check", false, false, false);
			} else if (!next || at < next) {
				next = at;
			}
		}
		/* peers' wishes owed a check (lc_wish): unless one runs or
		 * is due (it serves them, or its end shows whether the peers
		 * answered), when the window and the wish's bucket allow;
		 * those answered since are served. */
		if (!b->running && !b->due && (b->wish[0].since_ms || b->wish[1].since_ms) &&
		    !wish_owed(b)) {
			memset(b->wish, 0, sizeof(b->wish));
			memset(b->wish_blind, 0, sizeof(b->wish_blind));
			/* the last check's line said "next check soon" for them */
			if (lc_settle_quiet(&b->settle))
				log_info("%s: link check: the peer slaves that asked to be probed "
					 "back have answered; next check on a change", b->name);
		}
		for (int k = 0; k < 2; k++) {
			size_t peers = lc_bond_peers(b);
			unsigned *tokens = k ? &b->stranger_tokens : &b->peer_tokens;
			int64_t *since = k ? &b->stranger_tokens_ms : &b->peer_tokens_ms;
			int64_t at = b->wish[k].since_ms
					     ? lc_wish_at(&b->wish[k], b->running || b->due,
							  b->last_start_ms, b->settle.next_ms, peers,
							  refill(tokens, since, now))
					     : 0;
			if (at && at <= now) {
				(*tokens)--;
				lc_trigger(b, b->wish_why, false, true, false);
			} else if (at && (!next || at < next)) {
				next = at;
			}
		}
		/* settling: a re-check is due, or a check owed to wishes (a
		 * wish served by the answers to a check, with no check of
		 * its own, leaves the bond settled) */
		if (!b->running && b->enabled)
			b->result.settling = !lc_settle_quiet(&b->settle) || b->wish[0].since_ms ||
					     b->wish[1].since_ms;
		if (b->due && !b->running) {
			int64_t at = lc_start_at(b->last_start_ms, now);
			if (at <= now)
				start_check(lc, b, now);
			else if (!next || at < next)
				next = at;
		}
		int64_t end = lc_end_at(b->started_ms, b->deadline_ms, now);
		if (b->running && (!next || end < next))
			next = end;
	}
	struct itimerspec its = {0};
	if (next) {
		int64_t in = next > now ? next - now : 1;
		its.it_value.tv_sec = in / 1000;
		its.it_value.tv_nsec = (in % 1000) * 1000000 + 1;
	}
	timerfd_settime(lc->timer_fd, 0, &its, NULL);
}

