/* SPDX-License-Identifier: MIT */
/*
 * The link check's state of a bond, read and changed by the files above it
 * (linkcheck_parts.h): its slaves and peers, the hosts known as peers, its
 * phase (lc_bond_enter) and the random numbers of the jitters.  The lowest
 * of the link check's stateful files: it calls none of them.
 */
#include "linkcheck_parts.h"

#include <string.h>

void lc_bond_enter(struct lc_bond *b, enum lc_phase to, int64_t now, int64_t deadline_ms)
{
	lc_phase_enter(&b->ph, to, now, deadline_ms);
	b->result.running = lc_phase_running(&b->ph);
}

int lc_slave_index(const struct lc_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->slaves[i], name) == 0)
			return (int)i;
	return -1;
}

size_t lc_bond_peers(const struct lc_bond *b)
{
	size_t peers = 0;
	for (size_t i = 0; i < b->n; i++)
		peers += b->shown[i].n_peers;
	return peers;
}

/* A host whose bondd answered one of our checks in the last LC_KNOWN_MS. */
bool lc_known_host(const struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now)
{
	for (size_t i = 0; i < LC_KNOWN_HOSTS; i++)
		if (lc->known[i].ms && now - lc->known[i].ms < LC_KNOWN_MS &&
		    memcmp(lc->known[i].host, host, LC_HOST_ID_LEN) == 0)
			return true;
	return false;
}

/* Remembers that `host` answered; the oldest entry gives its place. */
void lc_known_add(struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now)
{
	size_t at = 0;
	for (size_t i = 0; i < LC_KNOWN_HOSTS; i++) {
		if (memcmp(lc->known[i].host, host, LC_HOST_ID_LEN) == 0 && lc->known[i].ms) {
			at = i;
			break;
		}
		if (lc->known[i].ms < lc->known[at].ms)
			at = i;
	}
	memcpy(lc->known[at].host, host, LC_HOST_ID_LEN);
	lc->known[at].ms = now;
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
