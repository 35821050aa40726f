/* SPDX-License-Identifier: MIT */
/*
 * Whom a bond's check waits for and what it keeps of the one before
 * (linkcheck_parts.h): decisions on the bond's rows, with time passed in;
 * no I/O, no clock.
 */
#include "linkcheck_parts.h"

#include <stdio.h>
#include <string.h>

void lc_row_restart(const struct linkcheck *lc, struct lc_bond *b, size_t i, int64_t now)
{
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
	int64_t slack = b->run.fresh ? LC_HEARD_SLACK_MS : LC_HEARD_KEEP_MS;
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
}

/* Counts the peer slaves we wait for (they answered the check before, or
 * their requests arrived and their host answers) and, in *missing, those
 * of them that have not answered every size sent yet (per slave in
 * missing_on, and of those the ones a one-way path does not explain in
 * unexplained_on, unless NULL). */
size_t lc_awaited(const struct lc_bond *b, size_t *missing, unsigned *missing_on,
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
bool lc_answers_complete(const struct lc_bond *b)
{
	size_t missing, known = lc_awaited(b, &missing, NULL, NULL);
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

/* A peer slave's request kept from before this check (a re-check keeps
 * LC_HEARD_KEEP_MS) on one slave, while in this check that peer slave
 * answered another slave and not this one: the path moved (a switch put
 * right), and the request came the old way.  It is dropped. */
void lc_drop_moved(struct lc_bond *b)
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++) {
			struct lc_peer_obs *pe = &b->live[i].peers[p];
			if (!pe->heard || pe->answered || pe->heard_ms >= b->ph.started_ms)
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

/* A wish owed a check is still owed: a peer slave that asked since the
 * last check began has not answered us since (a late answer counts), or
 * one asked that a full row had no place for. */
bool lc_wish_owed(const struct lc_bond *b)
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

/* `end` answered slave i's requests in the running check or the last one. */
bool lc_proven_peer(const struct lc_bond *b, size_t i, const struct lc_end *end)
{
	const struct lc_slave_obs *rows[2] = {&b->live[i], &b->shown[i]};
	for (size_t r = 0; r < 2; r++)
		for (size_t p = 0; p < rows[r]->n_peers; p++)
			if (rows[r]->peers[p].answered && lc_end_same(&rows[r]->peers[p].end, end))
				return true;
	return false;
}

/* Peer slaves that answered slave i in the last complete check: what the
 * peers' budget grows with.  Not every peer slave its rows hold: anyone
 * can fill a row with requests from made-up hosts, and would raise the
 * budget that way. */
size_t lc_answered_peers(const struct lc_bond *b, size_t i)
{
	size_t n = 0;
	for (size_t p = 0; p < b->shown[i].n_peers; p++)
		n += b->shown[i].peers[p].answered != 0;
	return n;
}

/* The peer slaves whose answers converge with ours: those the last
 * check saw, or more when more are heard now (hosts starting together
 * have seen no check yet, and their first answers are the largest
 * burst). */
size_t lc_answer_peers(const struct lc_bond *b)
{
	size_t live = 0;
	for (size_t i = 0; i < b->n; i++)
		live += b->live[i].n_peers;
	size_t shown = lc_bond_peers(b);
	return live > shown ? live : shown;
}

/* The peer slaves that answered slave i in the running check or the last
 * one: what its read budget grows with (not those merely heard). */
size_t lc_read_peers(const struct lc_bond *b, size_t i)
{
	const struct lc_slave_obs *rows[2] = {&b->live[i], &b->shown[i]};
	size_t most = 0;
	for (size_t r = 0; r < 2; r++) {
		size_t n = 0;
		for (size_t p = 0; p < rows[r]->n_peers; p++)
			n += rows[r]->peers[p].answered != 0;
		most = n > most ? n : most;
	}
	return most;
}
