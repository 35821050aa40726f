/* SPDX-License-Identifier: MIT */
/* The link check's re-check schedule, confirmation and timing (linkcheck_settle.h). */
#include "linkcheck_settle.h"

#include <string.h>

#include "linkcheck_io.h"

int64_t lc_settle_checked(struct lc_settle *s, int64_t now_ms, bool unsettled, bool fresh,
			  uint32_t jitter_ms)
{
	if (unsettled) {
		s->clean = 0;
		if (fresh || !s->step_ms)
			s->step_ms = LC_SETTLE_FIRST_MS;
		else
			s->step_ms = s->step_ms >= LC_SETTLE_MAX_MS / 2 ? LC_SETTLE_MAX_MS
								       : s->step_ms * 2;
	} else if (s->step_ms) {
		/* Clean after something was found: once more, soon, so that
		 * two checks agree before the bond goes quiet. */
		if (++s->clean >= LC_SETTLE_CLEAN) {
			*s = (struct lc_settle){0};
			return 0;
		}
		s->step_ms = LC_SETTLE_FIRST_MS;
	} else {
		/* Quiet and clean: stays quiet. */
		s->next_ms = 0;
		return 0;
	}
	s->next_ms = now_ms + s->step_ms + jitter_ms;
	return s->next_ms;
}

int64_t lc_bucket_refill(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst,
			 int64_t refill_ms)
{
	while (*tokens < burst && now_ms - *since >= refill_ms) {
		(*tokens)++;
		*since += refill_ms;
	}
	return *tokens ? now_ms : *since + refill_ms;
}

void lc_bucket_take(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst)
{
	if (*tokens >= burst)
		*since = now_ms; /* the refill counts from the first token taken */
	if (*tokens)
		(*tokens)--;
}

static bool same_slaves(const struct finding *a, const struct finding *b)
{
	if (a->n_slaves != b->n_slaves)
		return false;
	for (size_t i = 0; i < a->n_slaves; i++)
		if (strcmp(a->slaves[i], b->slaves[i]) != 0)
			return false;
	return true;
}

bool lc_settle_same(const struct finding *a, const struct finding *b)
{
	return a->kind == b->kind && strcmp(a->bond, b->bond) == 0 && same_slaves(a, b);
}

/* True when a and b name no peers, or name one peer in common. */
static bool same_peer(const struct finding *a, const struct finding *b)
{
	if (!a->n_peers || !b->n_peers)
		return true;
	for (size_t i = 0; i < a->n_peers; i++)
		for (size_t j = 0; j < b->n_peers; j++)
			if (a->peers[i] == b->peers[j])
				return true;
	return false;
}

unsigned lc_settle_confirm(struct findings *cur, size_t from, const struct findings *prev)
{
	unsigned pending = 0;

	for (size_t i = from; i < cur->n; i++) {
		struct finding *f = &cur->v[i];
		bool seen = false;
		for (size_t j = 0; prev && j < prev->n && !seen; j++)
			seen = prev->v[j].kind == f->kind && strcmp(prev->v[j].bond, f->bond) == 0 &&
			       same_slaves(&prev->v[j], f) &&
			       same_peer(&prev->v[j], f);
		f->pending = !seen;
		if (f->pending) {
			f->severity = FSEV_INFO;
			pending++;
		}
	}
	return pending;
}

unsigned lc_settle_hold_one_way(struct findings *cur, const struct findings *was,
				const char (*slaves)[IFNAMSIZ], const unsigned *missing,
				const unsigned *unexplained, size_t n, unsigned held_before)
{
	unsigned held = 0;
	if (held_before >= LC_ONE_WAY_HELD)
		return 0;
	for (size_t i = 0; i < cur->n; i++) {
		struct finding *f = &cur->v[i];
		if (f->kind != FK_ONE_WAY || f->pending || !f->n_slaves)
			continue;
		bool confirmed = false;
		for (size_t j = 0; was && j < was->n && !confirmed; j++)
			confirmed = !was->v[j].pending && lc_settle_same(&was->v[j], f);
		if (confirmed)
			continue;
		bool general = false;
		for (size_t k = 0; k < n && !general; k++)
			general = unexplained[k] ||
				  (missing[k] && strcmp(slaves[k], f->slaves[0]) != 0);
		if (!general)
			continue;
		f->pending = true;
		f->severity = FSEV_INFO;
		held++;
	}
	return held;
}

/* f names a slave flooded in the check, and was not confirmed before. */
static bool flood_held(const struct finding *f, const struct findings *was,
		       const char (*slaves)[IFNAMSIZ], const bool *flooded, size_t n)
{
	bool hit = false;
	for (size_t k = 0; k < n && !hit; k++)
		for (size_t j = 0; flooded[k] && j < f->n_slaves && !hit; j++)
			hit = strcmp(slaves[k], f->slaves[j]) == 0;
	for (size_t j = 0; hit && was && j < was->n; j++)
		if (!was->v[j].pending && lc_settle_same(&was->v[j], f))
			return false;
	return hit;
}

unsigned lc_settle_hold_flooded(struct findings *cur, const struct findings *was,
				const char (*slaves)[IFNAMSIZ], const bool *flooded, size_t n)
{
	unsigned held = 0;
	for (size_t i = 0; i < cur->n; i++) {
		struct finding *f = &cur->v[i];
		if (f->pending || !flood_held(f, was, slaves, flooded, n))
			continue;
		f->pending = true;
		f->severity = FSEV_INFO;
		held++;
	}
	return held;
}

void lc_settle_drop_flooded(struct findings *raw, const struct findings *was,
			    const char (*slaves)[IFNAMSIZ], const bool *flooded, size_t n)
{
	size_t keep = 0;
	for (size_t i = 0; i < raw->n; i++)
		if (!flood_held(&raw->v[i], was, slaves, flooded, n))
			raw->v[keep++] = raw->v[i];
	raw->n = keep;
}

uint32_t lc_peer_window(size_t peers)
{
	if (peers >= LC_PEER_WINDOW_MS / LC_PEER_WINDOW_PER_MS)
		return LC_PEER_WINDOW_MS;
	uint32_t w = LC_PEER_WINDOW_MIN_MS + LC_PEER_WINDOW_PER_MS * (uint32_t)peers;
	return w > LC_PEER_WINDOW_MS ? LC_PEER_WINDOW_MS : w;
}

int64_t lc_wish_at(const struct lc_wish *w, bool busy, int64_t last_start_ms, int64_t next_ms,
		   size_t peers, int64_t token_ms)
{
	int64_t win = lc_peer_window(peers);
	if (!w->since_ms || busy)
		return 0;
	int64_t at = w->since_ms + w->jitter_ms;
	if (last_start_ms && last_start_ms + win + w->jitter_ms > at)
		at = last_start_ms + win + w->jitter_ms;
	if (token_ms > at)
		at = token_ms;
	if (next_ms && next_ms - at < win)
		return 0;
	return at;
}

uint32_t lc_peer_jitter(uint32_t rnd, size_t peers)
{
	uint64_t span = peers >= LC_PEER_WINDOW_MS ? LC_PEER_WINDOW_MS
						    : LC_PEER_JITTER_MS + (uint64_t)LC_PEER_JITTER_PER_MS * peers;
	if (span > lc_peer_window(peers) / 2)
		span = lc_peer_window(peers) / 2;
	return (uint32_t)(rnd % span);
}

void lc_recent_add(struct lc_recent *r, uint32_t id, int64_t started_ms)
{
	r->id[r->next] = id;
	r->started_ms[r->next] = started_ms;
	r->next = (r->next + 1) % LC_RECENT_CHECKS;
	if (r->n < LC_RECENT_CHECKS)
		r->n++;
}

int64_t lc_recent_started(const struct lc_recent *r, uint32_t id, int64_t now_ms)
{
	for (unsigned i = 0; i < r->n; i++)
		if (r->id[i] == id && now_ms - r->started_ms[i] <= LC_RECENT_MS &&
		    now_ms >= r->started_ms[i])
			return r->started_ms[i];
	return -1;
}

uint32_t lc_wait_ms(size_t peers, uint32_t *slow_ms, bool confirming_one_way)
{
	uint64_t ms = LC_WAIT_MS + (uint64_t)LC_WAIT_PER_PEER_MS * peers;
	if (confirming_one_way)
		ms = LC_WAIT_MAX_MS;
	if (ms < 2ull * *slow_ms)
		ms = 2ull * *slow_ms;
	if (ms > LC_WAIT_MAX_MS)
		ms = LC_WAIT_MAX_MS;
	*slow_ms -= *slow_ms / 4;
	return (uint32_t)ms;
}

int64_t lc_start_at(int64_t last_start_ms, int64_t now_ms)
{
	return last_start_ms ? last_start_ms + LC_MIN_GAP_MS : now_ms;
}

int64_t lc_end_at(int64_t started_ms, int64_t deadline_ms, int64_t now_ms)
{
	return started_ms + LC_MIN_WAIT_MS > now_ms ? started_ms + LC_MIN_WAIT_MS : deadline_ms;
}

void lc_slow_note(struct lc_slow *t, uint8_t slave, uint32_t peer, int64_t now_ms)
{
	size_t use = 0;
	for (size_t i = 0; i < LC_SLOW_MAX; i++) {
		if (t->v[i].ms && t->v[i].peer == peer && t->v[i].slave == slave) {
			use = i;
			break;
		}
		if (t->v[i].ms < t->v[use].ms) /* a free place (0) or the oldest */
			use = i;
	}
	t->v[use].peer = peer;
	t->v[use].slave = slave;
	t->v[use].ms = now_ms ? now_ms : 1;
}

bool lc_slow_recent(const struct lc_slow *t, uint8_t slave, uint32_t peer, int64_t now_ms)
{
	for (size_t i = 0; i < LC_SLOW_MAX; i++)
		if (t->v[i].ms && t->v[i].peer == peer && t->v[i].slave == slave)
			return now_ms - t->v[i].ms <= LC_SLOW_KEEP_MS;
	return false;
}

unsigned lc_answer_budget(size_t peers)
{
	if (peers > LC_MAX_PEERS)
		peers = LC_MAX_PEERS;
	return LC_ANSWER_BURST + LC_ANSWER_PER_PEER * (unsigned)peers;
}

bool lc_reply_take(struct lc_reply_count *c, bool proven, size_t peers, int64_t now_ms)
{
	if (now_ms - c->second_ms >= 1000) {
		c->second_ms = now_ms;
		c->open = c->proven = 0;
	}
	unsigned *used = proven ? &c->proven : &c->open;
	if (*used >= (proven ? lc_answer_budget(peers) : LC_ANSWER_BURST))
		return false;
	(*used)++;
	return true;
}
