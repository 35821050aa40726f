/* SPDX-License-Identifier: MIT */
/*
 * The link check following the bonds (linkcheck_io.h): a bond's slaves and
 * their sockets as the daemon's pass found them, and the daemon's calls
 * (sync, reload, demand, results, dispatch, close): the top of the link
 * check's files (linkcheck_parts.h).
 */
#include "linkcheck_parts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "strbuf.h"

/* A bond's per-slave arrays (struct lc_bond): room for its n slaves. */
struct slots {
	struct lc_slave_obs *live, *shown;
	unsigned *missing_on, *unexplained_on;
	bool *flooded_on;
	char (*slaves)[IFNAMSIZ];
	char (*sel)[SEL_TEXT_MAX];
	struct lc_sock *socks;
};

static void slots_free(struct slots *t)
{
	free(t->live);
	free(t->shown);
	free(t->missing_on);
	free(t->unexplained_on);
	free(t->flooded_on);
	free(t->slaves);
	free(t->sel);
	free(t->socks);
}

/* Zeroed arrays for n slaves (room for one at n = 0: calloc(0) may give
 * NULL); false, none kept, when one cannot be had. */
static bool slots_alloc(struct slots *t, size_t n)
{
	size_t k = n ? n : 1;
	*t = (struct slots){
		.live = calloc(k, sizeof(*t->live)),
		.shown = calloc(k, sizeof(*t->shown)),
		.missing_on = calloc(k, sizeof(*t->missing_on)),
		.unexplained_on = calloc(k, sizeof(*t->unexplained_on)),
		.flooded_on = calloc(k, sizeof(*t->flooded_on)),
		.slaves = calloc(k, sizeof(*t->slaves)),
		.sel = calloc(k, sizeof(*t->sel)),
		.socks = calloc(k, sizeof(*t->socks)),
	};
	if (t->live && t->shown && t->missing_on && t->unexplained_on && t->flooded_on &&
	    t->slaves && t->sel && t->socks)
		return true;
	slots_free(t);
	return false;
}

/* b's per-slave arrays, its sockets closed (the caller replaces or frees
 * them: see bond_shape for who else held a socket's address). */
static void bond_slots_drop(struct linkcheck *lc, struct lc_bond *b)
{
	for (size_t i = 0; b->socks && i < b->n; i++)
		lc_sock_forget(lc, &b->socks[i]);
	lc_rows_free(b->live, b->n);
	lc_rows_free(b->shown, b->n);
	struct slots t = {.live = b->live, .shown = b->shown, .missing_on = b->missing_on,
			  .unexplained_on = b->unexplained_on, .flooded_on = b->flooded_on,
			  .slaves = b->slaves, .sel = b->sel, .socks = b->socks};
	slots_free(&t);
}

static void bond_free(struct linkcheck *lc, struct lc_bond *b)
{
	bond_slots_drop(lc, b);
	findings_free(&b->raw_last);
	findings_free(&b->raw_before);
	findings_free(&b->found);
	findings_free(&b->was);
	free(b);
}

/* A check runs that someone may wait for, or a client waits, or a check
 * a client asked for is due. */
static bool busy(const struct lc_bond *b)
{
	return lc_phase_running(&b->ph) || b->demand_wait ||
	       (lc_phase_due(&b->ph) && b->ask.demand);
}

/* The bond of that name; `at` is where it most likely is (the bonds are
 * kept in config order, so a sync looks there first: a search from the
 * start for each of 256 bonds was 32,000 comparisons a wake-up). */
static size_t bond_find(const struct linkcheck *lc, const char *name, size_t at)
{
	if (at < lc->n_bonds && strcmp(lc->bonds[at]->name, name) == 0)
		return at;
	for (size_t i = 0; i < lc->n_bonds; i++)
		if (strcmp(lc->bonds[i]->name, name) == 0)
			return i;
	return lc->n_bonds;
}


/* --- following the bonds ------------------------------------------------------ */

/* A new bond, or one whose slaves or mode changed: rows start empty, and
 * every per-slave array is made for its n slaves (struct slots).
 *
 * Replacing the sockets' array: every old socket is closed first
 * (bond_slots_drop), and nothing keeps an old lc_sock's address past
 * that: an own socket's epoll registration (data.ptr, packet_sock_open)
 * is taken out before its close (lc_sock_forget); the shared socket's
 * is &lc->shared, and its table of users (lc->by_ifindex) is rebuilt by
 * lc_shared_sync at the end of this sync before anything reads it; a guard's struct guarded lives for one
 * call; replies due name their slave by ifindex, found again when sent
 * (reply_sock); the back pointer (.bond) is the lc_bond, not moved, and
 * .idx is set again below. */
static int bond_shape(struct linkcheck *lc, struct lc_bond *b, const struct desired_bond *d)
{
	bool same = b->live && b->n == d->n_slaves && b->mtu == d->mtu &&
		    b->mode == (enum bond_mode)d->opts.val[OPT_MODE];
	/* A slave renamed while enslaved (an entry by mac:, path: or altname
	 * follows it: identity.h) is the same port on the same socket. */
	for (size_t i = 0; same && i < d->n_slaves; i++)
		same = strcmp(b->slaves[i], d->slaves[i].name) == 0 ||
		       (d->slaves[i].ifindex && b->socks[i].sock.fd >= 0 &&
			b->socks[i].sock.ifindex == d->slaves[i].ifindex);
	if (!same) {
		struct slots t;
		if (!slots_alloc(&t, d->n_slaves))
			return -ENOMEM;
		bond_slots_drop(lc, b);
		b->live = t.live;
		b->shown = t.shown;
		b->missing_on = t.missing_on;
		b->unexplained_on = t.unexplained_on;
		b->flooded_on = t.flooded_on;
		b->slaves = t.slaves;
		b->sel = t.sel;
		b->socks = t.socks;
		b->n = d->n_slaves;
		b->mtu = d->mtu;
		b->mode = (enum bond_mode)d->opts.val[OPT_MODE];
		/* (a check that ran is dropped: DUE if another was asked for meanwhile) */
		if (lc_phase_running(&b->ph))
			lc_bond_enter(b, LC_PHASE_IDLE, mono_ms(), 0);
		b->result.checks = 0;
		b->result.m = (struct lc_matrix){0};
		/* what the old shape's checks found proves nothing about the new */
		b->settle = (struct lc_settle){0};
		memset(b->wish, 0, sizeof(b->wish));
		memset(b->wish_blind, 0, sizeof(b->wish_blind));
		b->demand_checks = 0;
		findings_clear(&b->raw_last);
		findings_clear(&b->raw_before);
		findings_clear(&b->found);
		findings_clear(&b->was);
		for (size_t i = 0; i < b->n; i++)
			b->socks[i] = (struct lc_sock){.bond = b, .idx = i, .sock = PACKET_SOCK_CLOSED,
						       .g = {.counter = PACKET_SOCK_CLOSED},
						       .tokens = LC_BURST, .tokens_ms = mono_ms()};
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct slave_selector *sel = &d->slaves[i].sel;
		text_set(b->sel[i], sizeof(b->sel[i]),
			 sel->text[0] && strcmp(sel->text, d->slaves[i].name) != 0 ? sel->text : "");
		text_set(b->slaves[i], IFNAMSIZ, d->slaves[i].name);
	}
	return 0;
}

static void sync_bond(struct linkcheck *lc, struct lc_bond *b, const struct desired_bond *d,
		      const struct observed *obs)
{
	const struct obs_link *bond = observed_by_name(obs, d->name);

	for (size_t i = 0; i < b->n; i++) {
		struct lc_sock *s = &b->socks[i];
		const struct obs_link *l = observed_by_name(obs, b->slaves[i]);
		bool ready = b->enabled && bond && l && l->master == bond->ifindex &&
			     (l->flags & IFF_UP) && (l->flags & IFF_LOWER_UP);
		if (!ready) {
			lc_sock_close(s);
			continue;
		}
		uint32_t mtu = l->mtu < d->mtu ? l->mtu : d->mtu;
		if (s->mtu != mtu)
			s->mtu = mtu;
		if (memcmp(s->hwaddr, l->hwaddr, sizeof(s->hwaddr)) != 0)
			memcpy(s->hwaddr, l->hwaddr, sizeof(s->hwaddr));
		bool own = linkcheck_sockets_needed(d) > 0;
		if (s->sock.fd >= 0 && s->sock.ifindex == l->ifindex && s->own == own)
			continue;
		lc_sock_close(s);
		if (lc->perm_logged)
			continue;
		int err = lc_sock_open(lc, s, l->ifindex, own);
		if (err == -EPERM || err == -EACCES) {
			snprintf(b->result.error, sizeof(b->result.error),
				 "no packet socket: %s (bondd needs CAP_NET_RAW)", strerror(-err));
			if (!lc->perm_logged)
				log_warn("link check: cannot open a packet socket: %s; bondd needs "
					 "CAP_NET_RAW for it (bondd(8)); checks are off", strerror(-err));
			lc->perm_logged = true;
			continue;
		}
		if (err < 0) {
			/* Counted and said once for all (linkcheck_sync): at the
			 * open-file limit every pass comes here for every slave. */
			log_debug("%s: link check: packet socket on %s: %s", b->name, l->name,
				  strerror(-err));
			lc->sock_short++;
			lc->sock_err = err;
			continue;
		}
		lc_slave_event(b, s);
	}
}

/* Slaves this sync left without a socket: kept for the status, and said
 * at the normal level when their number or the cause changed. */
static void say_trouble(struct linkcheck *lc)
{
	lc->trouble[0] = '\0';
	if (lc->sock_short)
		snprintf(lc->trouble, sizeof(lc->trouble),
			 "link check: no packet socket for %zu slave%s: %s", lc->sock_short,
			 lc->sock_short == 1 ? "" : "s", strerror(-lc->sock_err));
	if (lc->sock_short == lc->said_short && lc->sock_err == lc->said_err)
		return;
	if (lc->sock_short)
		log_warn("%s%s; those slaves are not checked", lc->trouble,
			 lc->sock_err == -EMFILE || lc->sock_err == -ENFILE
				 ? " (bondd's open files are at their limit: LimitNOFILE=, bondd(8))" : "");
	else if (lc->said_short)
		log_info("link check: every slave ready to probe has its packet socket again");
	lc->said_short = lc->sock_short;
	lc->said_err = lc->sock_err;
}

const char *linkcheck_trouble(const struct linkcheck *lc)
{
	return lc && lc->trouble[0] ? lc->trouble : NULL;
}

size_t linkcheck_sockets_needed(const struct desired_bond *b)
{
	/* All slaves active: the shared socket hears them (lc_sock_open). */
	switch (b->opts.val[OPT_MODE]) {
	case MODE_BALANCE_RR:
	case MODE_BALANCE_XOR:
	case MODE_BROADCAST:
		return 0;
	default:
		return b->link_check && !b->absent ? b->n_slaves : 0;
	}
}

/* A bond new to the link check, added to lc's (off until bond_enable). */
static struct lc_bond *bond_new(struct linkcheck *lc, const char *name)
{
	struct lc_bond **v = realloc(lc->bonds, (lc->n_bonds + 1) * sizeof(*v));
	if (v)
		lc->bonds = v;
	struct lc_bond *b = v ? calloc(1, sizeof(*b)) : NULL;
	if (!b)
		return NULL;
	snprintf(b->name, IFNAMSIZ, "%s", name);
	snprintf(b->result.bond, IFNAMSIZ, "%s", name);
	b->peer_tokens = b->stranger_tokens = LC_BURST;
	b->peer_tokens_ms = b->stranger_tokens_ms = mono_ms();
	lc->bonds[lc->n_bonds++] = b;
	return b;
}

/* link_check and link_topology as the config says: a bond turned off
 * forgets its schedule, and its count of checks if it had been on. */
static void bond_enable(struct lc_bond *b, const struct desired_bond *d)
{
	bool was = b->enabled;
	/* (stored when they change: linkcheck_sync) */
	if (b->enabled != d->link_check || b->result.enabled != d->link_check)
		b->enabled = b->result.enabled = d->link_check;
	if (b->lag_expected != d->lag_expected || b->result.m.lag_expected != d->lag_expected)
		b->lag_expected = b->result.m.lag_expected = d->lag_expected;
	if (b->enabled && b->ph.phase == LC_PHASE_OFF)
		lc_bond_enter(b, LC_PHASE_IDLE, mono_ms(), 0);
	if (b->enabled)
		return;
	lc_bond_enter(b, LC_PHASE_OFF, mono_ms(), 0);
	b->demand_wait = false;
	b->settle = (struct lc_settle){0};
	memset(b->wish, 0, sizeof(b->wish));
	memset(b->wish_blind, 0, sizeof(b->wish_blind));
	b->result.settling = false;
	b->result.retry_ms = 0;
	b->one_way_held = 0;
	if (was)
		b->result.checks = 0;
}

/* The results the daemon reads (linkcheck_results), one per bond. */
static void list_results(struct linkcheck *lc)
{
	const struct lc_result **rv = realloc(lc->rv, (lc->n_bonds ? lc->n_bonds : 1) * sizeof(*rv));
	if (!rv) {
		lc->results = (struct lc_results){0};
		return;
	}
	lc->rv = rv;
	for (size_t i = 0; i < lc->n_bonds; i++)
		rv[i] = &lc->bonds[i]->result;
	lc->results = (struct lc_results){.v = rv, .n = lc->n_bonds};
}

void linkcheck_sync(struct linkcheck *lc, const struct desired *want, const struct observed *obs)
{
	if (!lc)
		return;
	lc->sock_short = 0;
	lc->sock_err = 0;
	/* A check someone waits for that this sync ends without evaluating
	 * it (link checking turned off, the bond gone or reshaped) is over
	 * for them too: done() tells them, or they would wait forever. */
	bool cancelled = false;
	/* (Every write here is made only when the value changes: bondd's
	 * status snapshots are copy-on-write forks, and after one each page
	 * bondd writes is a page fault; a sync that stored the same values
	 * in every bond's records made the first repair after a status
	 * request fault on thousands of pages at 256 bonds.  So which bonds
	 * the config still has is this sync's own list, not a flag in each.) */
	bool *seen = calloc(lc->n_bonds + want->n_bonds + 1, sizeof(*seen));
	if (!seen) {
		log_err("link check: out of memory: the bonds are followed again at the next "
			"change");
		return;
	}
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		bool waited = busy(b);
		if (b->waited != waited)
			b->waited = waited;
	}
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *d = &want->bonds[i];
		size_t at = bond_find(lc, d->name, i);
		if (at == lc->n_bonds && !bond_new(lc, d->name)) {
			log_err("%s: link check: out of memory", d->name);
			continue;
		}
		struct lc_bond *b = lc->bonds[at];
		if (bond_shape(lc, b, d) < 0) {
			log_err("%s: link check: out of memory", d->name);
			continue;
		}
		seen[at] = true;
		bond_enable(b, d);
		sync_bond(lc, b, d, obs);
		/* A check someone waits for that a new shape of the bond
		 * ended: the next one is theirs. */
		if (b->waited && !lc_phase_running(&b->ph) &&
		    !(lc_phase_due(&b->ph) && b->ask.demand) &&
		    (!b->demand_wait || lc_settle_quiet(&b->settle)))
			lc_trigger(b, "asked", true, false, true);
		if (lc->reloaded)
			lc_trigger(b, "reload", false, false, true);
	}
	lc->reloaded = false;
	say_trouble(lc);
	size_t keep = 0;
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		cancelled |= b->waited && (!seen[i] || !busy(b));
		if (!seen[i])
			bond_free(lc, b);
		else if (keep++ != i)
			lc->bonds[keep - 1] = b;
	}
	free(seen);
	lc->n_bonds = keep;
	lc_shared_sync(lc);
	list_results(lc);
	lc_rebuild_findings(lc);
	lc_process_due(lc);
	if (cancelled && lc->done)
		lc->done(lc->ctx, NULL);
}

void linkcheck_reloaded(struct linkcheck *lc)
{
	if (lc) {
		lc->reloaded = true;
		lc->perm_logged = false;
		for (size_t i = 0; i < lc->n_bonds; i++)
			lc->bonds[i]->result.error[0] = '\0';
	}
}

bool linkcheck_demand(struct linkcheck *lc, const char *bond)
{
	size_t at = lc ? bond_find(lc, bond, 0) : 0;
	struct lc_bond *b = lc && at < lc->n_bonds ? lc->bonds[at] : NULL;
	if (!b || !b->enabled)
		return false;
	if (!b->demand_wait) {
		b->demand_wait = true;
		b->demand_checks = 0;
	}
	/* A running check started before the request: the next one is the
	 * client's. */
	lc_trigger(b, "asked", true, false, true);
	lc_process_due(lc);
	return true;
}

bool linkcheck_busy(const struct linkcheck *lc, const char *bond)
{
	for (size_t i = 0; lc && i < lc->n_bonds; i++)
		if (strcmp(lc->bonds[i]->name, bond) == 0)
			return busy(lc->bonds[i]);
	return false;
}

const struct lc_results *linkcheck_results(const struct linkcheck *lc)
{
	return lc ? &lc->results : NULL;
}

void linkcheck_dispatch(struct linkcheck *lc)
{
	lc_io_dispatch(lc);
	lc_process_due(lc);
}

void linkcheck_close(struct linkcheck *lc)
{
	if (!lc)
		return;
	for (size_t i = 0; i < lc->n_bonds; i++)
		bond_free(lc, lc->bonds[i]);
	free(lc->bonds);
	lc_io_close(lc);
}
