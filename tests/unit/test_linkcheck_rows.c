/* SPDX-License-Identifier: MIT */
/*
 * The link check's decisions on a bond's rows (linkcheck_await.c,
 * linkcheck_state.c), time passed in: whom a check waits for, when every
 * answer is in, what a new check keeps of the requests heard, a path that
 * moved, a wish still owed, a request that is news, the hosts known as
 * peers.  Case by case, on a bond of two slaves built here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linkcheck_parts.h"

#define NOW 1000000
#define ALL (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD) | LC_SIZE_BIT(LC_FULL))

static struct lc_slave_obs live[2], shown[2];

static struct lc_bond *bond2(void)
{
	struct lc_bond *b = calloc(1, sizeof(*b));
	assert_non_null(b);
	lc_rows_free(live, 2);
	lc_rows_free(shown, 2);
	memset(live, 0, sizeof(live));
	memset(shown, 0, sizeof(shown));
	snprintf(b->name, sizeof(b->name), "bond0");
	b->n = 2;
	/* (each per-slave array has room for n, as bond_shape makes them) */
	b->slaves = calloc(2, sizeof(*b->slaves));
	b->sel = calloc(2, sizeof(*b->sel));
	b->socks = calloc(2, sizeof(*b->socks));
	b->missing_on = calloc(2, sizeof(*b->missing_on));
	b->unexplained_on = calloc(2, sizeof(*b->unexplained_on));
	b->flooded_on = calloc(2, sizeof(*b->flooded_on));
	assert_true(b->slaves && b->sel && b->socks && b->missing_on && b->unexplained_on &&
		    b->flooded_on);
	for (size_t i = 0; i < 2; i++)
		b->socks[i] = (struct lc_sock){.bond = b, .idx = i, .sock = PACKET_SOCK_CLOSED,
					       .g = {.counter = PACKET_SOCK_CLOSED}};
	snprintf(b->slaves[0], IFNAMSIZ, "e1");
	snprintf(b->slaves[1], IFNAMSIZ, "e2");
	b->live = live;
	b->shown = shown;
	return b;
}

/* What bond2 allocated (its rows are the static live and shown). */
static void bond2_free(struct lc_bond *b)
{
	free(b->slaves);
	free(b->sel);
	free(b->socks);
	free(b->missing_on);
	free(b->unexplained_on);
	free(b->flooded_on);
	free(b);
}

static struct lc_end end_of(char host, int slave)
{
	struct lc_end e = {0};
	memset(e.host, host, LC_HOST_ID_LEN);
	snprintf(e.bond, IFNAMSIZ, "bond0");
	snprintf(e.slave, IFNAMSIZ, "p%d", slave);
	e.pos = (uint8_t)slave;
	return e;
}

/* A peer slave in a row: answered and heard as LC_SIZE_BIT()s. */
static struct lc_peer_obs *add(struct lc_slave_obs *row, char host, int slave, uint8_t answered,
			       uint8_t heard, int64_t heard_ms)
{
	struct lc_end e = end_of(host, slave);
	size_t n = row->n_peers;
	struct lc_peer_obs *pe = lc_row_peer(row, &e);
	assert_non_null(pe);
	assert_int_equal(row->n_peers, n + 1); /* (a new peer, not one found) */
	*pe = (struct lc_peer_obs){.end = e, .answered = answered, .heard = heard,
				   .heard_ms = heard_ms};
	return pe;
}

static void slave_index_and_peers(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	assert_int_equal(lc_slave_index(b, "e2"), 1);
	assert_int_equal(lc_slave_index(b, "e3"), -1);
	add(&shown[0], 'a', 1, ALL, 0, 0);
	add(&shown[1], 'a', 2, ALL, 0, 0);
	add(&shown[1], 'b', 1, 0, 1, 0);
	assert_int_equal(lc_bond_peers(b), 3);
	bond2_free(b);
}

static void known_hosts(void **state)
{
	(void)state;
	struct linkcheck *lc = calloc(1, sizeof(*lc));
	assert_non_null(lc);
	uint8_t a[LC_HOST_ID_LEN], x[LC_HOST_ID_LEN];
	memset(a, 'a', sizeof(a));
	assert_false(lc_known_host(lc, a, NOW));
	lc_known_add(lc, a, NOW);
	assert_true(lc_known_host(lc, a, NOW + LC_KNOWN_MS - 1));
	assert_false(lc_known_host(lc, a, NOW + LC_KNOWN_MS));
	/* a full table: the oldest gives its place; one already there is
	 * renewed in its own */
	for (int i = 0; i < LC_KNOWN_HOSTS; i++) {
		memset(x, 'A' + i % 26, sizeof(x));
		x[0] = (uint8_t)i;
		lc_known_add(lc, x, NOW + 1 + i);
	}
	assert_false(lc_known_host(lc, a, NOW + 100));
	memset(x, 'A', sizeof(x));
	x[0] = 0;
	lc_known_add(lc, x, NOW + 5000);
	memset(a, 'a', sizeof(a));
	lc_known_add(lc, a, NOW + 5001);
	assert_true(lc_known_host(lc, a, NOW + 5002));
	assert_true(lc_known_host(lc, x, NOW + 5002));
	free(lc);
}

static void next_rand(void **state)
{
	(void)state;
	struct linkcheck *lc = calloc(1, sizeof(*lc));
	assert_non_null(lc);
	uint32_t first = lc_next_rand(lc);
	assert_int_not_equal(first, 0);
	assert_int_not_equal(lc_next_rand(lc), first);
	lc->rng = 0; /* the same seed, the same sequence */
	assert_int_equal(lc_next_rand(lc), first);
	free(lc);
}

static void enter_mirrors_running(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	lc_bond_enter(b, LC_PHASE_IDLE, NOW, 0);
	lc_bond_enter(b, LC_PHASE_RUNNING, NOW, NOW + LC_WAIT_MS);
	assert_true(b->result.running);
	lc_bond_enter(b, LC_PHASE_IDLE, NOW + 100, 0);
	assert_false(b->result.running);
	bond2_free(b);
}

/* lc_news: a request from a peer slave shows what the last check of that
 * slave did not. */
static void news(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	struct lc_end a1 = end_of('a', 1), b1 = end_of('b', 1);
	/* no check yet: everything is news */
	assert_true(lc_news(b, 0, &a1));
	b->result.checks = 1;
	shown[0].probed = shown[1].probed = true;
	add(&shown[0], 'a', 1, ALL, 0, 0);
	add(&shown[0], 'b', 1, 0, 1, 0); /* only heard */
	add(&shown[1], 'b', 1, ALL, 0, 0);
	assert_false(lc_news(b, 0, &a1));
	assert_true(lc_news(b, 1, &a1));  /* e2 was not answered by it */
	assert_true(lc_news(b, 0, &b1));  /* heard proves nothing */
	/* behind a LAG one that answered another slave is no news */
	b->lag_seen = true;
	assert_false(lc_news(b, 0, &b1));
	/* a slave the last check did not probe: news */
	shown[0].probed = false;
	assert_true(lc_news(b, 0, &a1));
	bond2_free(b);
}

struct restart_case {
	const char *what;
	bool fresh;            /* the check was started by a change */
	int64_t heard_ago;     /* its request came this long before the start (-1: not heard) */
	bool wished;
	uint8_t answered_before, heard_before; /* in the check before (shown) */
	bool known;            /* its host answered a check of ours lately */
	bool lag_seen;
	bool kept, expected;   /* want: kept in the row, waited for */
};

static const struct restart_case restart_cases[] = {
	{"answered the check before: waited for", true, -1, false, ALL, 0, false, false, false, true},
	{"heard just now: kept", true, 100, false, 0, 0, false, false, true, false},
	{"heard too long ago for a fresh check: dropped", true, LC_HEARD_SLACK_MS + 1, false, 0, 0,
	 false, false, false, false},
	{"... kept by a re-check", false, LC_HEARD_SLACK_MS + 1, false, 0, 0, false, false, true,
	 false},
	{"... or by the wish it raised", true, 60000, true, 0, 0, false, false, true, false},
	{"heard before, its host known: waited for", true, 100, false, 0, 1, true, false, true, true},
	{"heard before, a stranger: not waited for", true, 100, false, 0, 1, false, false, true,
	 false},
	{"heard before behind a LAG: not waited for", true, 100, false, 0, 1, true, true, true,
	 false},
};

static void row_restart_table(void **state)
{
	(void)state;
	struct linkcheck *lc = calloc(1, sizeof(*lc));
	assert_non_null(lc);
	for (size_t i = 0; i < sizeof(restart_cases) / sizeof(restart_cases[0]); i++) {
		const struct restart_case *c = &restart_cases[i];
		struct lc_bond *b = bond2();
		memset(lc->known, 0, sizeof(lc->known));
		b->run.fresh = c->fresh;
		b->lag_seen = c->lag_seen;
		if (c->heard_ago >= 0) {
			struct lc_peer_obs *pe = add(&live[0], 'a', 1, ALL, 1, NOW - c->heard_ago);
			pe->wished = c->wished;
			pe->expected = true;
		}
		if (c->answered_before || c->heard_before)
			add(&shown[0], 'a', 1, c->answered_before, c->heard_before, 0);
		if (c->known) {
			uint8_t h[LC_HOST_ID_LEN];
			memset(h, 'a', sizeof(h));
			lc_known_add(lc, h, NOW - 10);
		}
		live[0].sent = ALL;
		live[0].probed = true;
		lc_row_restart(lc, b, 0, NOW);
		bool kept = false, expected = false;
		for (size_t p = 0; p < live[0].n_peers; p++) {
			kept |= live[0].peers[p].heard != 0;
			expected |= live[0].peers[p].expected;
			assert_int_equal(live[0].peers[p].answered, 0);
			assert_false(live[0].peers[p].wished);
		}
		if (kept != c->kept || expected != c->expected)
			fail_msg("%s: kept %d expected %d", c->what, kept, expected);
		assert_false(live[0].probed);
		assert_int_equal(live[0].sent, 0);
		assert_string_equal(live[0].name, "e1");
		assert_int_equal(live[0].pos, 1);
		bond2_free(b);
	}
	free(lc);
}

struct await_case {
	const char *what;
	bool probed;
	uint8_t answered, heard;
	bool expected;
	bool other_answered;   /* the peer's host answered on e2 */
	size_t known, missing;
	unsigned unexplained;
	bool complete;
};

static const struct await_case await_cases[] = {
	{"not probed: nothing awaited", false, 0, 0, true, false, 0, 0, 0, false},
	{"expected and answered every size", true, ALL, 0, true, false, 1, 0, 0, true},
	{"expected, one size missing: not one-way", true, LC_SIZE_BIT(LC_SMALL), 0, true, false, 1,
	 1, 1, false},
	{"expected, heard and silent: one-way explains it", true, 0, 1, true, false, 1, 1, 0,
	 false},
	{"expected, neither heard nor answering", true, 0, 0, true, false, 1, 1, 1, false},
	{"only heard, its host silent: not awaited", true, 0, 1, false, false, 0, 0, 0, false},
	{"only heard, its host answered elsewhere: awaited", true, 0, 1, false, true, 1, 1, 0,
	 false},
};

static void await_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(await_cases) / sizeof(await_cases[0]); i++) {
		const struct await_case *c = &await_cases[i];
		struct lc_bond *b = bond2();
		live[0].probed = c->probed;
		live[0].sent = ALL;
		add(&live[0], 'a', 1, c->answered, c->heard, NOW)->expected = c->expected;
		if (c->other_answered) {
			live[1].probed = true;
			live[1].sent = ALL;
			add(&live[1], 'a', 2, ALL, 0, 0);
		}
		size_t missing;
		unsigned missing_on[2], unexplained_on[2];
		size_t known = lc_awaited(b, &missing, missing_on, unexplained_on);
		/* (e2's peer is not awaited: not expected, nor heard) */
		size_t known_e1 = known;
		if (known_e1 != c->known || missing != c->missing ||
		    unexplained_on[0] != c->unexplained || missing_on[0] != c->missing)
			fail_msg("%s: known %zu missing %zu unexplained %u", c->what, known_e1,
				 missing, unexplained_on[0]);
		if (lc_answers_complete(b) != (c->complete || (c->other_answered && !c->probed)))
			fail_msg("%s: complete is %d", c->what, lc_answers_complete(b));
		bond2_free(b);
	}
}

/* A probed slave no peer answered, while the other has answers: the
 * check waits its whole time. */
static void silent_slave_is_waited_for(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	live[0].probed = true;
	live[0].sent = live[1].sent = ALL;
	add(&live[0], 'a', 1, ALL, 0, 0)->expected = true;
	assert_true(lc_answers_complete(b));
	/* e2 probed too, and no answer on it yet */
	live[1].probed = true;
	add(&live[1], 'b', 1, 0, 1, 0);
	assert_false(lc_answers_complete(b));
	/* its answers in: complete */
	live[1].peers[0].answered = ALL;
	assert_true(lc_answers_complete(b));
	bond2_free(b);
}

static void moved_path(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	b->ph.started_ms = NOW;
	/* a1's request on e1 came before the check; in it a1 answered e2 */
	struct lc_peer_obs *old = add(&live[0], 'a', 1, 0, 1, NOW - 100);
	add(&live[1], 'a', 1, ALL, 0, 0);
	/* b1's request on e1 came before too, and b1 answered nobody */
	struct lc_peer_obs *kept = add(&live[0], 'b', 1, 0, 1, NOW - 100);
	/* c1's came during the check */
	struct lc_peer_obs *during = add(&live[0], 'c', 1, 0, 1, NOW + 10);
	add(&live[1], 'c', 1, ALL, 0, 0);
	lc_drop_moved(b);
	assert_int_equal(old->heard, 0);
	assert_int_not_equal(kept->heard, 0);
	assert_int_not_equal(during->heard, 0);
	bond2_free(b);
}

static void wish_still_owed(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	assert_false(lc_wish_owed(b));
	b->wish[0].since_ms = NOW;
	assert_false(lc_wish_owed(b)); /* nobody wished in the rows: served */
	b->result.checks = 1;
	shown[0].probed = true;
	struct lc_peer_obs *pe = add(&live[0], 'a', 1, 0, 1, NOW);
	pe->wished = true;
	assert_true(lc_wish_owed(b)); /* a1 has not answered e1 */
	add(&shown[0], 'a', 1, ALL, 0, 0);
	assert_false(lc_wish_owed(b)); /* it answered the last check */
	b->wish_blind[1] = true;
	assert_true(lc_wish_owed(b)); /* one a full row had no place for */
	bond2_free(b);
}

/* The peer slaves the budgets and the spread grow with: those that
 * answered, not those merely heard (anyone can make those up). */
static void peer_counts(void **state)
{
	(void)state;
	struct lc_bond *b = bond2();
	struct lc_end a1 = end_of('a', 1), c1 = end_of('c', 1);
	add(&shown[0], 'a', 1, ALL, 0, 0);
	add(&shown[0], 'b', 1, 0, 1, 0);
	add(&live[0], 'c', 1, LC_SIZE_BIT(LC_SMALL), 0, 0);
	add(&live[0], 'd', 1, LC_SIZE_BIT(LC_SMALL), 0, 0);
	add(&live[0], 'e', 1, 0, 1, 0);
	assert_true(lc_proven_peer(b, 0, &a1));  /* the last check */
	assert_true(lc_proven_peer(b, 0, &c1));  /* the running one */
	assert_false(lc_proven_peer(b, 1, &a1)); /* another slave's */
	struct lc_end b1 = end_of('b', 1);
	assert_false(lc_proven_peer(b, 0, &b1)); /* only heard */
	assert_int_equal(lc_answered_peers(b, 0), 1);
	assert_int_equal(lc_read_peers(b, 0), 2);   /* the most of the two checks */
	assert_int_equal(lc_read_peers(b, 1), 0);
	assert_int_equal(lc_answer_peers(b), 3);    /* heard now: more than shown */
	add(&shown[1], 'a', 2, ALL, 0, 0);
	add(&shown[1], 'b', 2, ALL, 0, 0);
	add(&shown[1], 'c', 2, ALL, 0, 0);
	assert_int_equal(lc_answer_peers(b), 5);    /* the last check saw more */
	bond2_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slave_index_and_peers),
		cmocka_unit_test(known_hosts),
		cmocka_unit_test(next_rand),
		cmocka_unit_test(enter_mirrors_running),
		cmocka_unit_test(news),
		cmocka_unit_test(row_restart_table),
		cmocka_unit_test(await_table),
		cmocka_unit_test(silent_slave_is_waited_for),
		cmocka_unit_test(moved_path),
		cmocka_unit_test(wish_still_owed),
		cmocka_unit_test(peer_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
