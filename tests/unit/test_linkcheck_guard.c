/* SPDX-License-Identifier: MIT */
/*
 * The link check's flood guard (linkcheck_guard.h): the read budget, the
 * addresses kept, the filter (run by a small classic-BPF interpreter of
 * the instructions it uses, on made-up frames), and the guard's states
 * over time, as tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/if_packet.h>

#include "linkcheck_guard.h"
#include "linkcheck_io.h"
#include "linkcheck_settle.h"

/* The read budget: room for what the peers that answered legitimately
 * send, bounded at a full row. */
static void read_budget_grows_with_peers(void **state)
{
	(void)state;
	static const struct {
		size_t peers;
		unsigned want;
	} cases[] = {
		{0, LC_READ_BASE},
		{1, LC_READ_BASE + LC_READ_PER_PEER},
		{63, LC_READ_BASE + 63 * LC_READ_PER_PEER},
		{LC_MAX_PEERS, LC_READ_BASE + LC_MAX_PEERS * LC_READ_PER_PEER},
		{100000, LC_READ_BASE + LC_MAX_PEERS * LC_READ_PER_PEER},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (lc_read_budget(cases[i].peers) != cases[i].want)
			fail_msg("%zu peers: %u, not %u", cases[i].peers,
				 lc_read_budget(cases[i].peers), cases[i].want);
	/* above what the peers may send and be answered: their requests and
	 * echoes within the answer budget, and three answers per check of
	 * ours, two checks a second */
	for (size_t peers = 0; peers <= LC_MAX_PEERS; peers++)
		assert_true(lc_read_budget(peers) >= lc_answer_budget(peers) + peers * 3 * 2);
	/* 64 hosts starting together: the first second, no peer proven yet */
	assert_true(lc_read_budget(0) >= 63 * 4 + 63 * 3);
	/* filtered: the peers' own needs, below the open budget, bounded */
	static const struct {
		size_t peers;
		unsigned want;
	} filtered[] = {
		{0, LC_READ_FILTERED_BASE},
		{3, LC_READ_FILTERED_BASE + 3 * LC_READ_PER_PEER},
		{100000, LC_READ_FILTERED_BASE + LC_MAX_PEERS * LC_READ_PER_PEER},
	};
	for (size_t i = 0; i < sizeof(filtered) / sizeof(filtered[0]); i++)
		assert_int_equal(lc_read_budget_filtered(filtered[i].peers), filtered[i].want);
	for (size_t peers = 0; peers <= LC_MAX_PEERS; peers++) {
		assert_true(lc_read_budget_filtered(peers) < lc_read_budget(peers));
		assert_true(lc_read_budget_filtered(peers) >= peers * 3 * 2 + peers * 8);
	}
}

/* The addresses: refreshed in place, the oldest answer gives its place up
 * when the list is full, none forgotten by age. */
static void macs_keep_the_latest(void **state)
{
	(void)state;
	struct lc_macs m = {0};
	uint8_t a[6] = {2, 0, 0, 0, 0, 0};
	for (int i = 0; i < LC_GUARD_MACS; i++) {
		a[5] = (uint8_t)i;
		assert_true(lc_macs_note(&m, a, 1000 + i));
	}
	assert_int_equal(m.n, LC_GUARD_MACS);
	a[5] = 0; /* the oldest answers again: refreshed, not added */
	assert_false(lc_macs_note(&m, a, 5000));
	a[5] = 200; /* a new one replaces the oldest, now 1 */
	assert_true(lc_macs_note(&m, a, 5001));
	assert_int_equal(m.n, LC_GUARD_MACS);
	bool has1 = false, has0 = false, has200 = false;
	for (unsigned i = 0; i < m.n; i++) {
		has0 |= m.mac[i][5] == 0;
		has1 |= m.mac[i][5] == 1;
		has200 |= m.mac[i][5] == 200;
	}
	assert_true(has0 && has200 && !has1);
}

/* A classic BPF interpreter for what lc_filter_build writes: absolute
 * loads of the link-layer header (SKF_LL_OFF) and of the packet type
 * (SKF_AD_PKTTYPE, the frame's pkttype), JEQ, RET.  A load past the frame
 * drops it, as the kernel's does. */
static uint32_t run_filter(const struct sock_filter *p, size_t n, const uint8_t *frame,
			   size_t len, uint32_t pkttype)
{
	uint32_t A = 0;
	for (size_t pc = 0; pc < n; pc++) {
		const struct sock_filter *in = &p[pc];
		switch (in->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (in->k == (uint32_t)SKF_AD_OFF + SKF_AD_PKTTYPE) {
				A = pkttype;
				break;
			}
			/* fall through */
		case BPF_LD | BPF_H | BPF_ABS: {
			assert_true(in->k >= (uint32_t)SKF_LL_OFF);
			size_t off = in->k - (uint32_t)SKF_LL_OFF;
			size_t sz = in->code == (BPF_LD | BPF_W | BPF_ABS) ? 4 : 2;
			if (off + sz > len)
				return 0;
			A = 0;
			for (size_t i = 0; i < sz; i++)
				A = A << 8 | frame[off + i];
			break;
		}
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += A == in->k ? in->jt : in->jf;
			break;
		case BPF_RET | BPF_K:
			return in->k;
		default:
			fail_msg("instruction %zu: unknown code %#x", pc, in->code);
		}
	}
	fail_msg("the filter ran off its end");
	return 0;
}

static void filter_admits_the_listed_sources(void **state)
{
	(void)state;
	static const uint8_t macs[3][6] = {
		{0x02, 0x00, 0x00, 0x00, 0x00, 0x01},
		{0x52, 0x54, 0x00, 0x12, 0x34, 0x56},
		{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff},
	};
	static const struct {
		uint8_t src[6];
		uint32_t pkttype; /* as eth_type_trans set it on our slave */
		bool admitted;
	} cases[] = {
		/* a request (broadcast) from a listed address */
		{{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}, PACKET_BROADCAST, true},
		{{0x52, 0x54, 0x00, 0x12, 0x34, 0x56}, PACKET_BROADCAST, true},
		{{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff}, PACKET_BROADCAST, true},
		/* an answer or an echo to our address */
		{{0x52, 0x54, 0x00, 0x12, 0x34, 0x56}, PACKET_HOST, true},
		/* a listed peer's answer or echo to another station (a
		 * flood's made-up sender), flooded to us by the switch */
		{{0x52, 0x54, 0x00, 0x12, 0x34, 0x56}, PACKET_OTHERHOST, false},
		{{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}, PACKET_OTHERHOST, false},
		{{0x02, 0x00, 0x00, 0x00, 0x00, 0x02}, PACKET_BROADCAST, false}, /* last byte differs */
		{{0x02, 0x00, 0x00, 0x01, 0x00, 0x01}, PACKET_BROADCAST, false}, /* the word differs */
		{{0x52, 0x54, 0x00, 0x12, 0x00, 0x01}, PACKET_BROADCAST, false}, /* halves of two */
		{{0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, PACKET_BROADCAST, false},
		{{0x02, 0x00, 0x00, 0x00, 0x00, 0x02}, PACKET_HOST, false},
		{{0x02, 0x00, 0x00, 0x00, 0x00, 0x02}, PACKET_OTHERHOST, false},
	};
	struct sock_filter prog[LC_FILTER_LEN(3)];
	size_t n = lc_filter_build(macs, 3, prog, LC_FILTER_LEN(3));
	assert_int_equal(n, LC_FILTER_LEN(3));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t frame[64] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
		memcpy(frame + 6, cases[i].src, 6);
		frame[12] = 0x88;
		frame[13] = 0xb5;
		uint32_t r = run_filter(prog, n, frame, sizeof(frame), cases[i].pkttype);
		if ((r != 0) != cases[i].admitted)
			fail_msg("case %zu: returned %u", i, r);
	}
	/* a frame too short for a source address is dropped */
	uint8_t runt[8] = {0};
	assert_int_equal(run_filter(prog, n, runt, sizeof(runt), PACKET_BROADCAST), 0);
	/* no address: every frame dropped */
	n = lc_filter_build(macs, 0, prog, LC_FILTER_LEN(0));
	assert_int_equal(n, LC_FILTER_LEN(0));
	uint8_t frame[64] = {0};
	memcpy(frame + 6, macs[0], 6);
	assert_int_equal(run_filter(prog, n, frame, sizeof(frame), PACKET_BROADCAST), 0);
	/* too little room: nothing written */
	assert_int_equal(lc_filter_build(macs, 3, prog, LC_FILTER_LEN(3) - 1), 0);
	/* the most the kernel takes (BPF_MAXINSNS) holds a full list and
	 * every slave of a bond */
	assert_true(LC_FILTER_LEN(LC_GUARD_MACS + 32) <= BPF_MAXINSNS);
}

/* Reads n frames at now into g as linkcheck_io.c does; returns the act
 * when the budget is spent on the way. */
static enum lc_guard_act read_n(struct lc_guard *g, int64_t now, unsigned budget, unsigned n)
{
	unsigned left = lc_guard_left(g, now, budget);
	g->reads += n < left ? n : left;
	return lc_guard_left(g, now, budget) ? LC_GUARD_NONE : lc_guard_spent(g, now);
}

/* The guard over time, as a table of steps: a flood spends the budget, the
 * filter goes on with a fresh window, a filtered flood (a peer's address)
 * pauses the socket until its window ends and opens it again, and the
 * filter comes off after LC_GUARD_CALM looks that counted under half the
 * budget. */
static void guard_states_over_a_flood(void **state)
{
	(void)state;
	enum { READ, TICK };
	static const struct {
		int what;
		int64_t at;
		unsigned n; /* READ: frames there; TICK: frames counted */
		enum lc_guard_act act;
		enum lc_guard_state then;
		int64_t next; /* lc_guard_next after it */
	} steps[] = {
		/* the budget: 100 a second */
		{READ, 0, 60, LC_GUARD_NONE, LC_GUARD_OPEN, 0},
		{READ, 500, 30, LC_GUARD_NONE, LC_GUARD_OPEN, 0},
		{TICK, 600, 0, LC_GUARD_NONE, LC_GUARD_OPEN, 0},
		/* a new second: 100 more */
		{READ, 1000, 90, LC_GUARD_NONE, LC_GUARD_OPEN, 0},
		/* the flood: spent at 1200, the filter goes on */
		{READ, 1200, 5000, LC_GUARD_ATTACH, LC_GUARD_FILTERED, 2200},
		/* the peers' frames have a budget of their own */
		{READ, 1300, 40, LC_GUARD_NONE, LC_GUARD_FILTERED, 2200},
		/* the flood goes on: counted, the filter stays */
		{TICK, 2200, 9000, LC_GUARD_NONE, LC_GUARD_FILTERED, 3200},
		/* a flood from a peer's address: paused until its window ends */
		{READ, 2250, 500, LC_GUARD_PAUSE, LC_GUARD_PAUSED, 3200},
		{READ, 2300, 500, LC_GUARD_NONE, LC_GUARD_PAUSED, 3200},
		/* its window ends at 3250, the look comes first */
		{TICK, 3200, 80, LC_GUARD_NONE, LC_GUARD_PAUSED, 3250},
		{TICK, 3250, 0, LC_GUARD_RESUME, LC_GUARD_FILTERED, 4200},
		/* calm: one look under half the budget is not enough ... */
		{TICK, 4200, 50, LC_GUARD_NONE, LC_GUARD_FILTERED, 5200},
		/* ... a loud one starts over ... */
		{TICK, 5200, 51, LC_GUARD_NONE, LC_GUARD_FILTERED, 6200},
		{TICK, 6200, 10, LC_GUARD_NONE, LC_GUARD_FILTERED, 7200},
		/* ... a tick before the look changes nothing ... */
		{TICK, 6900, 0, LC_GUARD_NONE, LC_GUARD_FILTERED, 7200},
		/* ... two in a row: the filter comes off */
		{TICK, 7200, 0, LC_GUARD_DETACH, LC_GUARD_OPEN, 0},
		{READ, 7300, 99, LC_GUARD_NONE, LC_GUARD_OPEN, 0},
		/* it goes on again when the budget is spent again */
		{READ, 7400, 1, LC_GUARD_ATTACH, LC_GUARD_FILTERED, 8400},
	};
	struct lc_guard g = {0};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		enum lc_guard_act act = steps[i].what == READ
						? read_n(&g, steps[i].at, 100, steps[i].n)
						: lc_guard_tick(&g, steps[i].at, steps[i].n, 100);
		if (act != steps[i].act || g.state != steps[i].then ||
		    lc_guard_next(&g) != steps[i].next)
			fail_msg("step %zu: act %d state %d next %lld", i, act, g.state,
				 (long long)lc_guard_next(&g));
	}
	assert_int_equal(g.engaged, 2);
	assert_int_equal(g.paused, 1);
}

/* What the guard costs at most: over any second, twice the budget (the
 * flood's window and the peers' fresh one), whatever the flood does. */
static void guard_reads_bounded(void **state)
{
	(void)state;
	const unsigned budget = 100;
	for (unsigned rate = 1; rate <= 4096; rate *= 4) {
		struct lc_guard g = {0};
		static unsigned reads_at[20000];
		memset(reads_at, 0, sizeof(reads_at));
		for (int64_t t = 1; t < 20000; t++) {
			int64_t due = lc_guard_next(&g);
			if (due && t >= due)
				lc_guard_tick(&g, t, rate, budget); /* every frame counted */
			/* `rate` frames a ms arrive and all would be read */
			unsigned left = lc_guard_left(&g, t, budget);
			unsigned n = rate < left ? rate : left;
			g.reads += n;
			reads_at[t] = n;
			if (!lc_guard_left(&g, t, budget))
				lc_guard_spent(&g, t);
		}
		for (int64_t t = 0; t + 1000 <= 20000; t += 100) {
			unsigned sum = 0;
			for (int64_t u = t; u < t + 1000; u++)
				sum += reads_at[u];
			if (sum > 2 * budget)
				fail_msg("rate %u a ms: %u reads in the second from %lld", rate, sum,
					 (long long)t);
		}
	}
}

/* A check saw the slave flooded when the guard was not open at any time
 * since its start. */
static void flooded_since(void **state)
{
	(void)state;
	struct lc_guard g = {0};
	assert_false(lc_guard_flooded(&g, 0));
	assert_false(lc_guard_flooded(&g, 5000));
	g.state = LC_GUARD_FILTERED;
	assert_true(lc_guard_flooded(&g, 5000));
	g.state = LC_GUARD_PAUSED;
	assert_true(lc_guard_flooded(&g, 5000));
	g.state = LC_GUARD_OPEN;
	g.open_ms = 4000; /* the filter came off before the check began */
	assert_false(lc_guard_flooded(&g, 5000));
	assert_true(lc_guard_flooded(&g, 3000)); /* ... or during it */
}

/* The shared socket: frames attributed by their link to a slave's window,
 * as a table of steps.  Budgets: slave 0 and 1 have 10 a second each,
 * the other links 5; the socket's, their sum, 25.  A slave over its own
 * budget has its frames dropped (read, not handled) and puts the socket's
 * filter on, which starts every slave's window anew; once filtered, one
 * slave over its budget drops only its own frames and does not pause the
 * socket: its sibling's frames are still handled, until the socket's
 * whole budget is spent. */
static void shared_frames_take_their_slaves_budget(void **state)
{
	(void)state;
	enum { FOREIGN = -1 };
	static const struct {
		int64_t at;
		int slave;      /* 0, 1, or FOREIGN: a link no user is */
		unsigned n;     /* frames read */
		unsigned taken; /* of them handled */
		enum lc_guard_act act;     /* the first act on the way */
		enum lc_guard_state then;  /* the socket's state after */
	} steps[] = {
		{0, 0, 10, 10, LC_GUARD_NONE, LC_GUARD_OPEN},
		/* slave 1 has its own budget, untouched by slave 0's */
		{10, 1, 10, 10, LC_GUARD_NONE, LC_GUARD_OPEN},
		/* slave 0 over its budget: that frame dropped, the filter goes
		 * on; the frames after it (what the filter admits) have a
		 * fresh window ... */
		{20, 0, 3, 2, LC_GUARD_ATTACH, LC_GUARD_FILTERED},
		/* ... on every slave: slave 1's too, bounded by its budget */
		{30, 1, 12, 10, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* a new second: each slave's window is fresh */
		{1030, 1, 4, 4, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* a flood from a peer's address on slave 0: its own frames
		 * dropped past its budget, the socket not paused */
		{1040, 0, 50, 10, LC_GUARD_NONE, LC_GUARD_FILTERED},
		{1050, 1, 6, 6, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* other links' frames: their own window */
		{1060, FOREIGN, 7, 5, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* slave 0's window began at 1040: still spent at 2030 ... */
		{2030, 0, 5, 0, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* ... a second later the flood spends a fresh one ... */
		{2040, 0, 12, 10, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* ... and other links' frames put no filter on a filtered
		 * socket, nor take from a slave */
		{2060, FOREIGN, 9, 5, LC_GUARD_NONE, LC_GUARD_FILTERED},
		{2070, 1, 10, 10, LC_GUARD_NONE, LC_GUARD_FILTERED},
	};
	struct lc_guard sock = {0}, w[2] = {{0}}, foreign = {0};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		unsigned taken = 0;
		enum lc_guard_act first = LC_GUARD_NONE;
		for (unsigned k = 0; k < steps[i].n; k++) {
			enum lc_guard_act act;
			struct lc_guard *win = steps[i].slave == FOREIGN ? &foreign : &w[steps[i].slave];
			unsigned budget = steps[i].slave == FOREIGN ? 5 : 10;
			taken += lc_shared_take(&sock, win, steps[i].at, budget, &act);
			if (first == LC_GUARD_NONE)
				first = act;
		}
		if (taken != steps[i].taken || first != steps[i].act || sock.state != steps[i].then)
			fail_msg("step %zu: %u handled, act %d, state %d", i, taken, first, sock.state);
	}
	assert_int_equal(sock.engaged, 1);
	/* the slave windows say who was flooded when */
	assert_int_equal(w[0].spent_ms, 2040);
	assert_int_equal(w[1].spent_ms, 30);
	assert_int_equal(foreign.spent_ms, 2060);
}

/*
 * The shared socket's slave windows when its guard renews the socket's
 * (the filter on, a pause over), with the budgets of sandbox 181's bond:
 * two slaves of the shared socket, one answering peer slave each.  The
 * flood of strangers on slave 0 spends its open budget (528); a peer's
 * echoes to the flood's fake hosts, which the switch floods to every port
 * of slave 1's VLAN, took 200 of slave 1's.  Once the filter is on, the
 * peer's next check (3 requests a slave) is read on both, within the
 * filtered budget (80) of a fresh window: the frames read before, against
 * the open budget, take nothing from it.  (With the windows kept, both
 * were past 80 until their second ended: the requests went unanswered.)
 * The same when a filtered socket, paused by a flood from a peer's
 * address, is opened again; and the filtered budget still bounds each
 * slave.  Each step reads frames as read_shared does: the socket's budget
 * first, then the slave's.
 */
static void shared_windows_anew_with_the_guard(void **state)
{
	(void)state;
	enum { READ, TICK };
	static const struct {
		int what;
		int64_t at;
		int slave;
		unsigned n;     /* READ: frames that arrive */
		unsigned taken; /* of them handled */
		enum lc_guard_act act;    /* the first act on the way */
		enum lc_guard_state then; /* the socket's state after */
	} steps[] = {
		/* open: the peer's echoes to strangers on slave 1, the flood
		 * on slave 0 up to its budget */
		{READ, 0, 1, 200, 200, LC_GUARD_NONE, LC_GUARD_OPEN},
		{READ, 100, 0, 528, 528, LC_GUARD_NONE, LC_GUARD_OPEN},
		/* slave 0's budget spent: the filter goes on */
		{READ, 300, 0, 1, 0, LC_GUARD_ATTACH, LC_GUARD_FILTERED},
		/* the peer's requests, within the second: read on both */
		{READ, 310, 0, 3, 3, LC_GUARD_NONE, LC_GUARD_FILTERED},
		{READ, 320, 1, 3, 3, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* a slave is still bounded by the filtered budget */
		{READ, 330, 1, 100, 77, LC_GUARD_NONE, LC_GUARD_FILTERED},
		{READ, 1320, 1, 3, 3, LC_GUARD_NONE, LC_GUARD_FILTERED},
		/* a flood from the peer's address on slave 0 spends the
		 * socket's whole filtered budget: paused ... */
		{READ, 1400, 0, 5000, 80, LC_GUARD_PAUSE, LC_GUARD_PAUSED},
		{READ, 1500, 1, 3, 0, LC_GUARD_NONE, LC_GUARD_PAUSED},
		/* ... until the socket's window ends (it began at 1320) */
		{TICK, 2320, 0, 0, 0, LC_GUARD_RESUME, LC_GUARD_FILTERED},
		/* slave 0's window of 1400 runs on, but starts anew */
		{READ, 2330, 0, 3, 3, LC_GUARD_NONE, LC_GUARD_FILTERED},
		{READ, 2340, 0, 100, 77, LC_GUARD_NONE, LC_GUARD_FILTERED},
	};
	const size_t peers[2] = {1, 1};
	struct lc_guard sock = {0}, w[2] = {{0}};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		unsigned taken = 0;
		enum lc_guard_act first = LC_GUARD_NONE;
		if (steps[i].what == TICK)
			first = lc_guard_tick(&sock, steps[i].at, steps[i].n,
					      lc_shared_budget(peers, 2, false));
		for (unsigned k = 0; steps[i].what == READ && k < steps[i].n; k++) {
			enum lc_guard_act act;
			bool filtered = sock.state != LC_GUARD_OPEN;
			if (sock.state == LC_GUARD_PAUSED)
				break;
			if (!lc_guard_left(&sock, steps[i].at, lc_shared_budget(peers, 2, filtered))) {
				act = lc_guard_spent(&sock, steps[i].at);
				if (first == LC_GUARD_NONE)
					first = act;
				break;
			}
			size_t p = peers[steps[i].slave];
			taken += lc_shared_take(&sock, &w[steps[i].slave], steps[i].at,
						filtered ? lc_read_budget_filtered(p) : lc_read_budget(p),
						&act);
			if (first == LC_GUARD_NONE)
				first = act;
		}
		if (taken != steps[i].taken || first != steps[i].act || sock.state != steps[i].then)
			fail_msg("step %zu: %u handled, act %d, state %d", i, taken, first, sock.state);
	}
	assert_int_equal(sock.engaged, 1);
	assert_int_equal(sock.paused, 1);
}

/* What read_shared does: before each frame, the socket's window of the
 * budget of all its users; a filtered socket pauses only when the whole
 * of it is spent.  Over any second the socket reads at most twice its
 * budget, whatever floods which slave. */
static void shared_socket_reads_bounded(void **state)
{
	(void)state;
	const size_t peers[3] = {0, 2, 5};
	const unsigned open = lc_shared_budget(peers, 3, false);
	const unsigned filtered = lc_shared_budget(peers, 3, true);
	for (unsigned rate = 1; rate <= 4096; rate *= 8) {
		struct lc_guard sock = {0}, w[3] = {{0}};
		static unsigned reads_at[6000];
		memset(reads_at, 0, sizeof(reads_at));
		for (int64_t t = 1; t < 6000; t++) {
			int64_t due = lc_guard_next(&sock);
			if (due && t >= due)
				lc_guard_tick(&sock, t, rate, open);
			/* the flood on slave 1 only, every frame it can read */
			for (unsigned k = 0; k < rate; k++) {
				bool f = sock.state != LC_GUARD_OPEN;
				unsigned budget = f ? filtered : open;
				if (!lc_guard_left(&sock, t, budget)) {
					lc_guard_spent(&sock, t);
					break;
				}
				enum lc_guard_act act;
				lc_shared_take(&sock, &w[1], t,
					       f ? lc_read_budget_filtered(peers[1])
						 : lc_read_budget(peers[1]), &act);
				reads_at[t]++;
			}
		}
		for (int64_t t = 0; t + 1000 <= 6000; t += 100) {
			unsigned sum = 0;
			for (int64_t u = t; u < t + 1000; u++)
				sum += reads_at[u];
			if (sum > 2 * open)
				fail_msg("rate %u a ms: %u reads in the second from %lld", rate, sum,
					 (long long)t);
		}
	}
}

static void shared_budget_and_flooded(void **state)
{
	(void)state;
	static const struct {
		size_t peers[3];
		size_t users;
		bool filtered;
		unsigned want;
	} cases[] = {
		{{0}, 0, false, LC_READ_BASE},
		{{0}, 0, true, LC_READ_FILTERED_BASE + LC_READ_SKIP},
		{{0, 0}, 2, false, 3 * LC_READ_BASE},
		{{1, 3, 0}, 3, false, 4 * LC_READ_BASE + 4 * LC_READ_PER_PEER},
		{{1, 3, 0}, 3, true, 4 * LC_READ_FILTERED_BASE + 4 * LC_READ_PER_PEER + LC_READ_SKIP},
		{{100000}, 1, false, 2 * LC_READ_BASE + LC_MAX_PEERS * LC_READ_PER_PEER},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (lc_shared_budget(cases[i].peers, cases[i].users, cases[i].filtered) !=
		    cases[i].want)
			fail_msg("case %zu: %u", i,
				 lc_shared_budget(cases[i].peers, cases[i].users, cases[i].filtered));
	/* a slave of the shared socket is flooded when the socket's guard was
	 * not open, or its own window ran out, since the check began */
	static const struct {
		enum lc_guard_state state;
		int64_t open_ms, spent_ms, since;
		bool flooded;
	} fl[] = {
		{LC_GUARD_OPEN, 0, 0, 5000, false},
		{LC_GUARD_FILTERED, 0, 0, 5000, true},
		{LC_GUARD_PAUSED, 0, 0, 5000, true},
		{LC_GUARD_OPEN, 4000, 0, 5000, false},
		{LC_GUARD_OPEN, 6000, 0, 5000, true},
		{LC_GUARD_OPEN, 0, 4999, 5000, false},
		{LC_GUARD_OPEN, 0, 5000, 5000, true},
		{LC_GUARD_OPEN, 4000, 7000, 5000, true},
	};
	for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
		struct lc_guard sock = {.state = fl[i].state, .open_ms = fl[i].open_ms};
		struct lc_guard w = {.spent_ms = fl[i].spent_ms};
		if (lc_shared_flooded(&sock, &w, fl[i].since) != fl[i].flooded)
			fail_msg("case %zu", i);
	}
}

/* The shared socket's filter: the bonds' own addresses first, then the
 * union of the users' peers, each once, the latest answers first. */
static void macs_union_of_the_users(void **state)
{
	(void)state;
	struct lc_macs a = {0}, b = {0};
	uint8_t m[6] = {2, 0, 0, 0, 0, 0};
	for (int i = 1; i <= 4; i++) { /* a: 1..4 answered at 100..400 */
		m[5] = (uint8_t)i;
		lc_macs_note(&a, m, 100 * i);
	}
	for (int i = 3; i <= 6; i++) { /* b: 3..6 answered at 1000..1300 */
		m[5] = (uint8_t)i;
		lc_macs_note(&b, m, 1000 + 100 * (i - 3));
	}
	const struct lc_macs *lists[3] = {&a, NULL, &b};
	uint8_t out[8][6] = {{2, 0, 0, 0, 0, 0x99}, {2, 0, 0, 0, 0, 4}};
	static const struct {
		size_t have, cap;
		size_t n;
		uint8_t last[8]; /* out[k][5] */
	} cases[] = {
		/* everything: 6 peers, one of them (4) given already */
		{2, 8, 7, {0x99, 4, 6, 5, 3, 2, 1}},
		/* room for 3 more: the latest (b's) first */
		{2, 5, 5, {0x99, 4, 6, 5, 3}},
		/* no room */
		{2, 2, 2, {0x99, 4}},
		/* nothing given */
		{0, 8, 6, {6, 5, 4, 3, 2, 1}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t o[8][6];
		memcpy(o, out, sizeof(o));
		size_t n = lc_macs_union(lists, 3, o, cases[i].have, cases[i].cap);
		if (n != cases[i].n)
			fail_msg("case %zu: %zu addresses", i, n);
		for (size_t k = 0; k < n; k++)
			if (o[k][5] != cases[i].last[k] || o[k][0] != 2)
				fail_msg("case %zu: address %zu ends %#x", i, k, o[k][5]);
	}
	/* no lists */
	assert_int_equal(lc_macs_union(lists, 0, out, 2, 8), 2);
	/* the most the kernel takes (BPF_MAXINSNS) holds a full filter */
	assert_true(LC_FILTER_LEN(LC_FILTER_MACS_MAX) <= BPF_MAXINSNS);
}

/* The tally of frames past a slave's budget on the shared socket: an
 * address that brings LC_BAN_AT of them in a second is named, once; of a
 * flood spread over more addresses than the tally holds, at most as many
 * as it holds. */
static void tally_names_the_flooding_address(void **state)
{
	(void)state;
	static const struct {
		int64_t at;
		uint8_t last;   /* the address 02:00:00:00:00:last */
		unsigned n;     /* frames */
		unsigned named; /* times lc_tally_note said so */
	} steps[] = {
		{0, 1, LC_BAN_AT - 1, 0},
		/* others in between take nothing from it */
		{10, 2, 5, 0},
		{20, 1, 1, 1},
		/* named once */
		{30, 1, 500, 0},
		/* a new second: counted afresh */
		{1000, 1, LC_BAN_AT - 1, 0},
	};
	struct lc_tally t = {0};
	uint8_t mac[6] = {2, 0, 0, 0, 0, 0};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		unsigned named = 0;
		mac[5] = steps[i].last;
		for (unsigned k = 0; k < steps[i].n; k++)
			named += lc_tally_note(&t, mac, steps[i].at);
		if (named != steps[i].named)
			fail_msg("step %zu: named %u times", i, named);
	}
	t = (struct lc_tally){0};
	unsigned named = 0;
	for (unsigned k = 0; k < 100 * LC_BAN_AT; k++) {
		mac[5] = (uint8_t)(100 + k % (2 * LC_TALLY));
		named += lc_tally_note(&t, mac, 5000);
	}
	assert_true(named <= LC_TALLY);
	/* and one of them flooding among the rest is found */
	t = (struct lc_tally){0};
	named = 0;
	for (unsigned k = 0; k < 4 * LC_BAN_AT; k++) {
		mac[5] = (uint8_t)(k % 2 ? 7 : 100 + k % (2 * LC_TALLY));
		named += lc_tally_note(&t, mac, 9000);
	}
	assert_int_equal(named, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_budget_grows_with_peers),
		cmocka_unit_test(macs_keep_the_latest),
		cmocka_unit_test(filter_admits_the_listed_sources),
		cmocka_unit_test(guard_states_over_a_flood),
		cmocka_unit_test(guard_reads_bounded),
		cmocka_unit_test(flooded_since),
		cmocka_unit_test(shared_frames_take_their_slaves_budget),
		cmocka_unit_test(shared_windows_anew_with_the_guard),
		cmocka_unit_test(shared_socket_reads_bounded),
		cmocka_unit_test(shared_budget_and_flooded),
		cmocka_unit_test(macs_union_of_the_users),
		cmocka_unit_test(tally_names_the_flooding_address),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
