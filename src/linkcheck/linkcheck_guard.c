/* SPDX-License-Identifier: MIT */
/* The link check's guard against a flood of probe frames (linkcheck_guard.h). */
#include "linkcheck_guard.h"

#include <stdlib.h>
#include <string.h>
#include <linux/if_packet.h>

#include "linkcheck_io.h"

unsigned lc_read_budget(size_t peers)
{
	if (peers > LC_MAX_PEERS)
		peers = LC_MAX_PEERS;
	return LC_READ_BASE + LC_READ_PER_PEER * (unsigned)peers;
}

unsigned lc_read_budget_filtered(size_t peers)
{
	if (peers > LC_MAX_PEERS)
		peers = LC_MAX_PEERS;
	return LC_READ_FILTERED_BASE + LC_READ_PER_PEER * (unsigned)peers;
}

bool lc_macs_note(struct lc_macs *m, const uint8_t mac[6], int64_t now_ms)
{
	unsigned use = 0;
	for (unsigned i = 0; i < m->n; i++) {
		if (memcmp(m->mac[i], mac, 6) == 0) {
			m->ms[i] = now_ms;
			return false;
		}
		if (m->ms[i] < m->ms[use])
			use = i;
	}
	if (m->n < LC_GUARD_MACS)
		use = m->n++;
	memcpy(m->mac[use], mac, 6);
	m->ms[use] = now_ms;
	return true;
}

size_t lc_filter_build(const uint8_t (*macs)[6], size_t n, struct sock_filter *out, size_t cap)
{
	if (cap < LC_FILTER_LEN(n))
		return 0;
	size_t k = 0;
	/* the frame's packet type, as eth_type_trans (net/ethernet/eth.c)
	 * set it on the receiving slave against its own address
	 * (net/core/filter.c convert_skb_access, SKF_AD_PKTTYPE): to
	 * another station, dropped */
	out[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						(uint32_t)SKF_AD_OFF + SKF_AD_PKTTYPE);
	out[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OTHERHOST, 0, 1);
	out[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *a = macs[i];
		uint32_t hi = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
		uint32_t lo = (uint32_t)a[4] << 8 | a[5];
		/* bytes 6..9 and 10..11 of the Ethernet header: the source
		 * (net/core/filter.c bpf_internal_load_pointer_neg_helper
		 * reads SKF_LL_OFF from skb_mac_header); a mismatch jumps to
		 * the next address's first instruction */
		out[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							(uint32_t)SKF_LL_OFF + 6);
		out[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, hi, 0, 3);
		out[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_H | BPF_ABS,
							(uint32_t)SKF_LL_OFF + 10);
		out[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, lo, 0, 1);
		/* the whole frame */
		out[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0xffffffffu);
	}
	out[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, 0);
	return k;
}

static void new_window(struct lc_guard *g, int64_t now_ms)
{
	g->window_ms = now_ms;
	g->reads = 0;
}

unsigned lc_guard_left(struct lc_guard *g, int64_t now_ms, unsigned budget)
{
	if (g->state == LC_GUARD_PAUSED)
		return 0;
	if (now_ms < g->window_ms || now_ms - g->window_ms >= 1000)
		new_window(g, now_ms);
	return g->reads >= budget ? 0 : budget - g->reads;
}

enum lc_guard_act lc_guard_spent(struct lc_guard *g, int64_t now_ms)
{
	switch (g->state) {
	case LC_GUARD_OPEN:
		g->state = LC_GUARD_FILTERED;
		g->look_ms = now_ms;
		g->calm = 0;
		g->engaged++;
		g->renewed++;
		new_window(g, now_ms);
		return LC_GUARD_ATTACH;
	case LC_GUARD_FILTERED:
		g->state = LC_GUARD_PAUSED;
		g->paused++;
		return LC_GUARD_PAUSE;
	case LC_GUARD_PAUSED:
		break;
	}
	return LC_GUARD_NONE;
}

int64_t lc_guard_next(const struct lc_guard *g)
{
	switch (g->state) {
	case LC_GUARD_OPEN:
		return 0;
	case LC_GUARD_FILTERED:
		return g->look_ms + LC_GUARD_LOOK_MS;
	case LC_GUARD_PAUSED: {
		int64_t look = g->look_ms + LC_GUARD_LOOK_MS, resume = g->window_ms + 1000;
		return look < resume ? look : resume;
	}
	}
	return 0;
}

enum lc_guard_act lc_guard_tick(struct lc_guard *g, int64_t now_ms, unsigned counted,
				unsigned budget)
{
	if (g->state == LC_GUARD_OPEN)
		return LC_GUARD_NONE;
	if (now_ms >= g->look_ms + LC_GUARD_LOOK_MS) {
		/* frames a second over the look's span, against half the
		 * budget (once on, the filter stays until the flood is well
		 * below what put it on) */
		int64_t span = now_ms - g->look_ms;
		uint64_t per_s = (uint64_t)counted * 1000 / (uint64_t)(span > 0 ? span : 1);
		g->calm = per_s <= budget / 2 ? g->calm + 1 : 0;
		g->look_ms = now_ms;
	}
	if (g->state == LC_GUARD_PAUSED) {
		if (now_ms < g->window_ms + 1000)
			return LC_GUARD_NONE;
		g->state = LC_GUARD_FILTERED;
		g->renewed++;
		new_window(g, now_ms);
		return LC_GUARD_RESUME;
	}
	if (g->calm >= LC_GUARD_CALM) {
		g->state = LC_GUARD_OPEN;
		g->open_ms = now_ms;
		g->calm = 0;
		/* (the window goes on: what the filtered socket read in it
		 * counts, and the budget stays one a second but for the
		 * fresh one the filter brings) */
		return LC_GUARD_DETACH;
	}
	return LC_GUARD_NONE;
}

bool lc_guard_flooded(const struct lc_guard *g, int64_t since_ms)
{
	return g->state != LC_GUARD_OPEN || (g->open_ms && g->open_ms >= since_ms);
}

bool lc_shared_take(struct lc_guard *sock, struct lc_guard *w, int64_t now_ms, unsigned budget,
		    enum lc_guard_act *act)
{
	*act = LC_GUARD_NONE;
	sock->reads++;
	/* (the socket's window renewed by its guard: the slave's too) */
	if (w->renewed != sock->renewed) {
		new_window(w, now_ms);
		w->renewed = sock->renewed;
	}
	if (lc_guard_left(w, now_ms, budget)) {
		w->reads++;
		return true;
	}
	w->spent_ms = now_ms;
	if (sock->state == LC_GUARD_OPEN)
		*act = lc_guard_spent(sock, now_ms);
	return false;
}

unsigned lc_shared_budget(const size_t *peers, size_t users, bool filtered)
{
	unsigned sum = filtered ? LC_READ_FILTERED_BASE + LC_READ_SKIP : LC_READ_BASE;
	for (size_t k = 0; k < users; k++)
		sum += filtered ? lc_read_budget_filtered(peers[k]) : lc_read_budget(peers[k]);
	return sum;
}

bool lc_shared_flooded(const struct lc_guard *sock, const struct lc_guard *w, int64_t since_ms)
{
	return lc_guard_flooded(sock, since_ms) || (w->spent_ms && w->spent_ms >= since_ms);
}

struct stamped {
	uint8_t mac[6];
	int64_t ms;
};

static int by_mac_then_latest(const void *a, const void *b)
{
	const struct stamped *x = a, *y = b;
	int c = memcmp(x->mac, y->mac, 6);
	if (c)
		return c;
	return x->ms > y->ms ? -1 : x->ms < y->ms;
}

static int latest_first(const void *a, const void *b)
{
	const struct stamped *x = a, *y = b;
	if (x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return memcmp(x->mac, y->mac, 6);
}

static bool listed(const uint8_t (*out)[6], size_t n, const uint8_t mac[6])
{
	for (size_t i = 0; i < n; i++)
		if (memcmp(out[i], mac, 6) == 0)
			return true;
	return false;
}

size_t lc_macs_union(const struct lc_macs *const *lists, size_t n_lists, uint8_t (*out)[6],
		     size_t have, size_t cap)
{
	size_t total = 0;
	for (size_t l = 0; l < n_lists; l++)
		total += lists[l] ? lists[l]->n : 0;
	if (!total || have >= cap)
		return have < cap ? have : cap;
	struct stamped *all = malloc(total * sizeof(*all));
	if (!all)
		return have;
	size_t n = 0;
	for (size_t l = 0; l < n_lists; l++)
		for (unsigned i = 0; lists[l] && i < lists[l]->n; i++) {
			memcpy(all[n].mac, lists[l]->mac[i], 6);
			all[n++].ms = lists[l]->ms[i];
		}
	/* each address once, with its latest answer */
	qsort(all, n, sizeof(*all), by_mac_then_latest);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || memcmp(all[u - 1].mac, all[i].mac, 6) != 0)
			all[u++] = all[i];
	qsort(all, u, sizeof(*all), latest_first);
	size_t given = have;
	for (size_t i = 0; i < u && have < cap; i++)
		if (!listed((const uint8_t(*)[6])out, given, all[i].mac))
			memcpy(out[have++], all[i].mac, 6);
	free(all);
	return have;
}

bool lc_tally_note(struct lc_tally *t, const uint8_t mac[6], int64_t now_ms)
{
	if (now_ms < t->window_ms || now_ms - t->window_ms >= 1000)
		*t = (struct lc_tally){.window_ms = now_ms};
	size_t least = 0;
	for (size_t i = 0; i < LC_TALLY; i++) {
		if (t->n[i] && memcmp(t->mac[i], mac, 6) == 0)
			return ++t->n[i] == LC_BAN_AT;
		if (t->n[i] < t->n[least])
			least = i;
	}
	/* (a new address takes the place of the least seen and starts at
	 * one: of a flood spread over more addresses than the tally holds,
	 * some are named, the others cost the socket its second's end) */
	memcpy(t->mac[least], mac, 6);
	t->n[least] = 1;
	return LC_BAN_AT == 1;
}
