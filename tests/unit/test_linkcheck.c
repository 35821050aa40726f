/* SPDX-License-Identifier: MIT */
/*
 * The link check without a kernel: the probe frame's encoder and parser,
 * and the evaluation of observation matrices, one table entry per switch
 * setup (one VLAN for all ports, per-port VLANs, one port at MTU 1500, two
 * ports crossed, a port alone, a one-way path, ...).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "diag_line.h"
#include "linkcheck.h"
#include "status_proto.h"

/* --- the wire ----------------------------------------------------------- */

static struct lc_frame sample_answer(void)
{
	struct lc_frame f = {.type = LC_ANSWER, .size = LC_FULL, .probe_id = 0xdeadbeef,
			     .length = 9000};
	memset(f.from.host, 0xab, LC_HOST_ID_LEN);
	snprintf(f.from.bond, IFNAMSIZ, "bond0");
	snprintf(f.from.slave, IFNAMSIZ, "eth2");
	f.from.pos = 2;
	memset(f.to.host, 0x12, LC_HOST_ID_LEN);
	snprintf(f.to.bond, IFNAMSIZ, "storage");
	snprintf(f.to.slave, IFNAMSIZ, "enp3s0f1");
	f.to.pos = 3;
	return f;
}

static void wire_round_trip(void **state)
{
	(void)state;
	static uint8_t buf[9000];
	struct lc_frame f = sample_answer(), g;
	const char *why = NULL;

	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), 9000);
	assert_int_equal(lc_frame_decode(buf, 9000, &g, &why), 0);
	assert_int_equal(g.type, LC_ANSWER);
	assert_int_equal(g.size, LC_FULL);
	assert_int_equal(g.probe_id, 0xdeadbeef);
	assert_int_equal(g.length, 9000);
	assert_true(lc_end_same(&g.from, &f.from));
	assert_true(lc_end_same(&g.to, &f.to));
	assert_int_equal(g.from.pos, 2);
	assert_int_equal(g.to.pos, 3);

	struct lc_frame r = {.type = LC_REQUEST, .size = LC_SMALL, .flags = LC_FLAG_PROBE_BACK,
			     .probe_id = 7, .length = LC_HEADER_LEN, .from = f.from};
	assert_int_equal(lc_frame_encode(&r, buf, sizeof(buf)), LC_HEADER_LEN);
	assert_int_equal(lc_frame_decode(buf, LC_HEADER_LEN, &g, NULL), 0);
	assert_int_equal(g.type, LC_REQUEST);
	assert_int_equal(g.flags, LC_FLAG_PROBE_BACK);
	assert_int_equal(g.to.pos, 0);

	/* an echo: a request that wants no answer; never one that also asks
	 * to be probed back (refused both ways) */
	r.flags = LC_FLAG_ECHO;
	assert_int_equal(lc_frame_encode(&r, buf, sizeof(buf)), LC_HEADER_LEN);
	assert_int_equal(lc_frame_decode(buf, LC_HEADER_LEN, &g, NULL), 0);
	assert_int_equal(g.flags, LC_FLAG_ECHO);
	buf[7] |= LC_FLAG_PROBE_BACK;
	why = "";
	assert_int_equal(lc_frame_decode(buf, LC_HEADER_LEN, &g, &why), -1);
	assert_non_null(strstr(why, "echo"));
	r.flags = LC_FLAG_ECHO | LC_FLAG_PROBE_BACK;
	assert_int_equal(lc_frame_encode(&r, buf, sizeof(buf)), -1);
}

static void wire_encode_refuses(void **state)
{
	(void)state;
	uint8_t buf[256];
	struct lc_frame f = sample_answer();

	f.length = 200;
	assert_int_equal(lc_frame_encode(&f, buf, 100), -1);   /* does not fit */
	f.length = LC_HEADER_LEN - 1;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), -1);
	f = sample_answer();
	f.size = LC_SMALL;
	f.length = LC_HEADER_LEN;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_HEADER_LEN);
	snprintf(f.from.slave, IFNAMSIZ, "a/b");
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), -1);
	f = sample_answer();
	f.size = LC_SMALL;
	f.length = LC_HEADER_LEN;
	f.to.pos = 0;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), -1);
}

/* The sender's host name: carried where a frame has room (160 bytes and
 * more), for display only; absent in a small frame and from an older
 * bondd (zeros); refused when it is not one clean name. */
static void wire_host_name(void **state)
{
	(void)state;
	static uint8_t buf[LC_STANDARD_LEN];
	struct lc_frame f = sample_answer(), g;
	const char *why = NULL;

	f.size = LC_STANDARD;
	f.length = LC_STANDARD_LEN;
	snprintf(f.from.host_name, LC_HOST_NAME_LEN, "storage-07");
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_STANDARD_LEN);
	assert_memory_equal(buf + LC_HEADER_LEN, "storage-07\0", 11);
	assert_int_equal(lc_frame_decode(buf, LC_STANDARD_LEN, &g, &why), 0);
	assert_string_equal(g.from.host_name, "storage-07");
	assert_string_equal(g.to.host_name, "");
	/* the same peer whatever name it gives: the id counts */
	struct lc_end other = g.from;
	snprintf(other.host_name, LC_HOST_NAME_LEN, "liar");
	assert_true(lc_end_same(&other, &g.from));

	/* an older bondd's frame: zeros, no name */
	memset(buf + LC_HEADER_LEN, 0, LC_HOST_NAME_LEN);
	assert_int_equal(lc_frame_decode(buf, LC_STANDARD_LEN, &g, &why), 0);
	assert_string_equal(g.from.host_name, "");

	static const struct {
		size_t off;
		uint8_t val;
	} bad[] = {
		{LC_HEADER_LEN + 3, ' '},  /* not a name's byte */
		{LC_HEADER_LEN + 3, 0x1b}, /* an escape for the terminal */
		{LC_HEADER_LEN + 3, 0xc3}, /* not ASCII */
		{LC_HEADER_LEN + 12, 'x'}, /* a byte after the terminator */
		{LC_HEADER_LEN, 0},        /* empty, with bytes after it */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_STANDARD_LEN);
		buf[bad[i].off] = bad[i].val;
		why = "";
		if (lc_frame_decode(buf, LC_STANDARD_LEN, &g, &why) != -1)
			fail_msg("byte %zu = 0x%02x: accepted", bad[i].off, bad[i].val);
		assert_string_equal(why, "bad host name");
	}
	/* 32 bytes without a terminator */
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_STANDARD_LEN);
	memset(buf + LC_HEADER_LEN, 'a', LC_HOST_NAME_LEN);
	assert_int_equal(lc_frame_decode(buf, LC_STANDARD_LEN, &g, &why), -1);

	/* a small frame has no room: sent without it */
	f.size = LC_SMALL;
	f.length = LC_HEADER_LEN;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_HEADER_LEN);
	assert_int_equal(lc_frame_decode(buf, LC_HEADER_LEN, &g, &why), 0);
	assert_string_equal(g.from.host_name, "");
	/* a name that could not be sent is refused, not sent cut */
	f.size = LC_STANDARD;
	f.length = LC_STANDARD_LEN;
	snprintf(f.from.host_name, LC_HOST_NAME_LEN, "a b");
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), -1);

	/* from the system's host name: the first label, clean, cut */
	char name[LC_HOST_NAME_LEN];
	lc_host_name_from("node3.cluster.example", name);
	assert_string_equal(name, "node3");
	lc_host_name_from("we\x1b[2Jird name", name);
	assert_string_equal(name, "we2Jirdname");
	lc_host_name_from("abcdefghijklmnopqrstuvwxyz0123456789", name);
	assert_int_equal(strlen(name), LC_HOST_NAME_LEN - 1);
	assert_true(lc_host_name_valid(name));
	lc_host_name_from(".", name);
	assert_string_equal(name, "");
	assert_false(lc_host_name_valid(name));

	/* shown by name where known, else by the id's first 8 hex digits */
	char shown[LC_HOST_NAME_LEN];
	assert_string_equal(lc_end_host(&f.from, shown), "abababab"); /* "a b": not a name */
	snprintf(f.from.host_name, LC_HOST_NAME_LEN, "node3");
	assert_string_equal(lc_end_host(&f.from, shown), "node3");
	memset(f.from.host_name, 0, LC_HOST_NAME_LEN);
	assert_string_equal(lc_end_host(&f.from, shown), "abababab");
}

/* Each row: one byte changed in a good answer and the reason it fails. */
static void wire_decode_refuses(void **state)
{
	(void)state;
	static const struct {
		size_t off;
		uint8_t val;
		const char *why;
	} bad[] = {
		{0, 'X', "magic"},
		{4, 2, "version"},
		{5, 3, "type"},
		{5, 0, "type"},
		{6, 3, "size class"},
		{7, 0x80, "reserved"},
		{7, 0x04, "reserved"},
		{29, 1, "reserved"},
		{28, 0, "position 0"},
		{30, 0xff, "length field"},
		{32, 0, "name"},       /* empty bond name */
		{38, 'x', "name"},     /* a byte after the name's terminator */
		{48, '/', "name"},
		{48, ' ', "name"},
		{112, 0, "answer"},    /* answer to position 0 */
		{120, 1, "answer"},    /* padding after the answer fields */
	};
	uint8_t good[LC_HEADER_LEN + 64], buf[sizeof(good)];
	struct lc_frame f = sample_answer(), g;
	const char *why;

	f.length = sizeof(good);
	assert_int_equal(lc_frame_encode(&f, good, sizeof(good)), (int)sizeof(good));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memcpy(buf, good, sizeof(buf));
		buf[bad[i].off] = bad[i].val;
		why = "";
		if (lc_frame_decode(buf, sizeof(buf), &g, &why) != -1)
			fail_msg("byte %zu = 0x%02x: accepted", bad[i].off, bad[i].val);
		if (!strstr(why, bad[i].why))
			fail_msg("byte %zu = 0x%02x: \"%s\", expected \"%s\"", bad[i].off, bad[i].val,
				 why, bad[i].why);
	}
	/* Cut short, or padded on the way: the length field says so. */
	assert_int_equal(lc_frame_decode(good, sizeof(good) - 1, &g, &why), -1);
	assert_int_equal(lc_frame_decode(good, LC_HEADER_LEN - 1, &g, &why), -1);
	/* An unterminated name: 16 bytes of letters. */
	memcpy(buf, good, sizeof(buf));
	memset(buf + 48, 'a', IFNAMSIZ);
	assert_int_equal(lc_frame_decode(buf, sizeof(buf), &g, &why), -1);
	/* A request carrying answer fields. */
	memcpy(buf, good, sizeof(buf));
	buf[5] = LC_REQUEST;
	assert_int_equal(lc_frame_decode(buf, sizeof(buf), &g, &why), -1);
	assert_non_null(strstr(why, "answer fields"));
	/* A length that is not its size class's: small is the header, standard
	 * 1500 bytes, full more than the header (a forged 128-byte "full"
	 * answer must not prove a jumbo path). */
	memcpy(buf, good, sizeof(buf));
	buf[6] = LC_SMALL;
	assert_int_equal(lc_frame_decode(buf, sizeof(buf), &g, &why), -1);
	assert_non_null(strstr(why, "size class"));
	buf[6] = LC_STANDARD;
	assert_int_equal(lc_frame_decode(buf, sizeof(buf), &g, &why), -1);
	f = sample_answer();
	f.size = LC_SMALL;
	f.length = LC_HEADER_LEN;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), LC_HEADER_LEN);
	buf[6] = LC_FULL;
	assert_int_equal(lc_frame_decode(buf, LC_HEADER_LEN, &g, &why), -1);
	assert_non_null(strstr(why, "size class"));
	f.size = LC_FULL;
	assert_int_equal(lc_frame_encode(&f, buf, sizeof(buf)), -1);
	/* The untouched frame still parses. */
	assert_int_equal(lc_frame_decode(good, sizeof(good), &g, &why), 0);
}

/* --- the evaluation -------------------------------------------------------- */

#define ALL (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD) | LC_SIZE_BIT(LC_FULL))
#define NOFULL (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD))

struct peer_spec {
	char host;              /* 'b', 'c': a peer host; 0 ends the list */
	int slave;              /* its slave eN, at place N */
	uint8_t answered, heard;
	bool slow;              /* it answered a check of ours late lately */
};

struct row_spec {
	bool down;              /* not probed */
	uint32_t siblings;      /* bit k: heard the requests of e(k+1) */
	uint32_t on;            /* answers came in on these slaves (0: its own) */
	struct peer_spec peers[9];
	const char *sel;        /* its slaves = entry when not its name */
};

struct eval_case {
	const char *name;
	enum bond_mode mode;
	uint32_t mtu;
	struct row_spec rows[4];
	const char *want[4];    /* "kind:e1,e2", in the order the findings come */
	const char *evidence;   /* a phrase the first finding's evidence holds */
};

/* Per-port VLANs and two peers: port i meets port i of b and c. */
#define WHOLE(i) {.peers = {{'b', i, ALL, ALL}, {'c', i, ALL, ALL}}}
#define LAG_ROW(heard) {.on = 1u << 2, .peers = {{'b', 2, ALL, heard}}}
#define ONE_VLAN(sib) \
	{.siblings = sib, .peers = {{'b', 1, ALL, ALL}, {'b', 2, ALL, ALL}, {'b', 3, ALL, ALL}, \
				    {'b', 4, ALL, ALL}}}

static const struct eval_case cases[] = {
	{"per-port VLANs: nothing to say", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), WHOLE(3), WHOLE(4)}, {NULL}, NULL},
	{"one VLAN for all ports", MODE_BALANCE_RR, 9000,
	 {ONE_VLAN(0xe), ONE_VLAN(0xd), ONE_VLAN(0xb), ONE_VLAN(0x7)},
	 {"shared-domain:e1,e2,e3,e4"}, "e1 received the probes e2 sent"},
	{"one VLAN is right for active-backup", MODE_ACTIVE_BACKUP, 9000,
	 {ONE_VLAN(0xe), ONE_VLAN(0xd), ONE_VLAN(0xb), ONE_VLAN(0x7)}, {NULL}, NULL},
	{"one VLAN, balance-xor", MODE_BALANCE_XOR, 9000,
	 {ONE_VLAN(0xe), ONE_VLAN(0xd), ONE_VLAN(0xb), ONE_VLAN(0x7)},
	 {"shared-domain:e1,e2,e3,e4"}, NULL},
	{"two slaves meet one peer slave, their own probes lost", MODE_BALANCE_RR, 9000,
	 {{.peers = {{'b', 1, ALL, 0}}}, {.peers = {{'b', 1, ALL, 0}}}, WHOLE(3), WHOLE(4)},
	 {"shared-domain:e1,e2"}, "both reach slave e1"},
	{"one switch port at MTU 1500, two peers", MODE_BALANCE_RR, 9000,
	 {{.peers = {{'b', 1, NOFULL, NOFULL}, {'c', 1, NOFULL, NOFULL}}}, WHOLE(2), WHOLE(3),
	  WHOLE(4)},
	 {"jumbo-dropped:e1"}, "the largest that passed was 1500 bytes"},
	{"the peer's port at MTU 1500: full frames still reach the third host", MODE_BALANCE_RR,
	 9000,
	 {{.peers = {{'b', 1, NOFULL, NOFULL}, {'c', 1, ALL, ALL}}}, WHOLE(2), WHOLE(3), WHOLE(4)},
	 {NULL}, NULL},
	{"a bond at MTU 1500 has no standard size", MODE_BALANCE_RR, 1500,
	 {{.peers = {{'b', 1, LC_SIZE_BIT(LC_SMALL), 0}}}, WHOLE(2), WHOLE(3), WHOLE(4)},
	 {"jumbo-dropped:e1"}, "the largest that passed was 128 bytes"},
	{"two ports crossed", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), {.peers = {{'b', 3, ALL, ALL}, {'c', 3, ALL, ALL}}},
	  {.peers = {{'b', 2, ALL, ALL}, {'c', 2, ALL, ALL}}}, WHOLE(4)},
	 {"crossed:e2,e3"}, "e2 (place 2) meets"},
	{"crossed at one peer only", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), {.peers = {{'b', 3, ALL, ALL}, {'c', 2, ALL, ALL}}},
	  {.peers = {{'b', 2, ALL, ALL}, {'c', 3, ALL, ALL}}}, WHOLE(4)},
	 {"crossed:e2,e3"}, NULL},
	{"crossed, the slave given by mac: names it", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), {.peers = {{'b', 3, ALL, ALL}, {'c', 3, ALL, ALL}}, .sel = "mac:02:00:00:00:aa:02"},
	  {.peers = {{'b', 2, ALL, ALL}, {'c', 2, ALL, ALL}}}, WHOLE(4)},
	 {"crossed:e2,e3"}, "e2 (place 2, mac:02:00:00:00:aa:02) meets"},
	{"a port alone in its own VLAN", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), WHOLE(3), {.peers = {{0}}}},
	 {"unreachable:e4"}, "e4 reached no peer and heard none, while e1, e2, e3"},
	{"no bondd on any peer: nothing proven, nothing said", MODE_BALANCE_RR, 9000,
	 {{.peers = {{0}}}, {.peers = {{0}}}, {.peers = {{0}}}, {.peers = {{0}}}}, {NULL}, NULL},
	{"a slave that is down is not judged", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), WHOLE(3), {.down = true}}, {NULL}, NULL},
	{"one way: the peer's requests arrive, ours are not answered", MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), {.peers = {{'b', 3, 0, ALL}, {'c', 3, ALL, ALL}}}, WHOLE(4)},
	 {"one-way:e3"}, "e3 receives the probes of"},
	{"late is not one way: the same, but b answered a check of ours late lately",
	 MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), {.peers = {{'b', 3, 0, ALL, true}, {'c', 3, ALL, ALL}}}, WHOLE(4)},
	 {NULL}, NULL},
	{"answered but not heard is no finding (the peer may not have probed)",
	 MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), {.peers = {{'b', 3, ALL, 0}}}, WHOLE(4)}, {NULL}, NULL},
	{"a request from a host that never answered proves nothing (a forger's)",
	 MODE_BALANCE_RR, 9000,
	 {{.peers = {{'b', 1, ALL, ALL}, {'x', 1, 0, LC_SIZE_BIT(LC_SMALL)}}}, WHOLE(2), WHOLE(3),
	  WHOLE(4)},
	 {NULL}, NULL},
	{"forged requests on two slaves make no shared domain", MODE_BALANCE_RR, 9000,
	 {{.peers = {{'b', 1, ALL, ALL}, {'x', 1, 0, ALL}}},
	  {.peers = {{'b', 2, ALL, ALL}, {'x', 1, 0, ALL}}}, WHOLE(3), WHOLE(4)},
	 {NULL}, NULL},
	{"forged requests at a slave that reaches nobody: unreachable, not one-way",
	 MODE_BALANCE_RR, 9000,
	 {WHOLE(1), WHOLE(2), {.peers = {{'x', 3, 0, ALL}}}, WHOLE(4)},
	 {"unreachable:e3"}, NULL},
	/* A switch static LAG: every request of ours reaches b's e2 (the
	 * hash of our one MAC), b's answers all come in on our e3, b's
	 * broadcasts on our e3 too. */
	{"a switch LAG: switch-lag, not crossed, one-way or shared", MODE_BALANCE_RR, 9000,
	 {LAG_ROW(0), LAG_ROW(0), {.on = 1u << 2, .peers = {{'b', 2, ALL, ALL}, {'b', 1, 0, ALL},
							   {'b', 3, 0, ALL}, {'b', 4, 0, ALL}}},
	  LAG_ROW(0)},
	 {"switch-lag:e1,e2,e3,e4"}, "e1's answers came in on e3, 3 of 4 slaves'"},
	{"a LAG and a port that drops jumbo frames", MODE_BALANCE_RR, 9000,
	 {LAG_ROW(0), {.on = 1u << 2, .peers = {{'b', 2, NOFULL, 0}}}, LAG_ROW(ALL), LAG_ROW(0)},
	 {"switch-lag:e1,e2,e3,e4", "jumbo-dropped:e2"}, NULL},
	{"answers on another slave with siblings heard: one plain domain, not a LAG",
	 MODE_BALANCE_RR, 9000,
	 {{.on = 0x2, .siblings = 0x2, .peers = {{'b', 1, ALL, ALL}}},
	  {.on = 0x2, .siblings = 0x1, .peers = {{'b', 1, ALL, ALL}}}, WHOLE(3), WHOLE(4)},
	 {"shared-domain:e1,e2"}, NULL},
	{"several at once: jumbo on e1, alone e4", MODE_BALANCE_RR, 9000,
	 {{.peers = {{'b', 1, NOFULL, 0}}}, WHOLE(2), WHOLE(3), {.peers = {{0}}}},
	 {"jumbo-dropped:e1", "unreachable:e4"}, NULL},
};

static void fill_end(struct lc_end *e, char host, int slave)
{
	memset(e, 0, sizeof(*e)); /* no host name: the peer is shown by its id */
	memset(e->host, host, LC_HOST_ID_LEN);
	snprintf(e->bond, IFNAMSIZ, "bond0");
	snprintf(e->slave, IFNAMSIZ, "e%d", slave);
	e->pos = (uint8_t)slave;
}

static void build(const struct eval_case *c, struct lc_slave_obs rows[4], struct lc_matrix *m)
{
	memset(rows, 0, 4 * sizeof(rows[0]));
	*m = (struct lc_matrix){.mode = c->mode, .mtu = c->mtu, .slaves = rows, .n_slaves = 4};
	snprintf(m->bond, IFNAMSIZ, "bond0");
	for (int i = 0; i < 4; i++) {
		struct lc_slave_obs *r = &rows[i];
		snprintf(r->name, IFNAMSIZ, "e%d", i + 1);
		if (c->rows[i].sel)
			snprintf(r->sel, sizeof(r->sel), "%s", c->rows[i].sel);
		r->pos = (uint8_t)(i + 1);
		if (c->rows[i].down)
			continue;
		r->probed = true;
		r->sizes[LC_SMALL] = LC_HEADER_LEN;
		r->sizes[LC_FULL] = c->mtu;
		r->sent = LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_FULL);
		if (c->mtu > LC_STANDARD_LEN) {
			r->sizes[LC_STANDARD] = LC_STANDARD_LEN;
			r->sent |= LC_SIZE_BIT(LC_STANDARD);
		}
		r->siblings = c->rows[i].siblings;
		r->answered_on = c->rows[i].on;
		for (const struct peer_spec *p = c->rows[i].peers; p->host; p++) {
			struct lc_end e;
			fill_end(&e, p->host, p->slave);
			struct lc_peer_obs *pe = lc_row_peer(r, &e);
			assert_non_null(pe);
			pe->answered = p->answered & r->sent;
			pe->heard = p->heard & r->sent;
			pe->slow = p->slow;
			if (pe->answered && !c->rows[i].on)
				r->answered_on = 1u << i;
		}
	}
}

static void eval_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct eval_case *c = &cases[i];
		struct lc_slave_obs rows[4];
		struct lc_matrix m;
		struct findings out = {0};

		build(c, rows, &m);
		assert_int_equal(linkcheck_eval(&m, &out), 0);
		size_t n_want = 0;
		while (n_want < 4 && c->want[n_want])
			n_want++;
		for (size_t k = 0; k < out.n || k < n_want; k++) {
			char got[160] = "(none)";
			if (k < out.n) {
				const struct finding *f = &out.v[k];
				size_t used = (size_t)snprintf(got, sizeof(got), "%s:",
							       finding_kind_name(f->kind));
				for (size_t s = 0; s < f->n_slaves; s++)
					used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s",
								 s ? "," : "", f->slaves[s]);
				assert_int_equal(f->source, FSRC_LINK_CHECK);
				assert_int_equal(f->severity, FSEV_DEGRADED);
				assert_string_equal(f->bond, "bond0");
				assert_true(f->evidence[0] && f->fix[0]);
			}
			const char *want = k < n_want ? c->want[k] : "(none)";
			if (strcmp(got, want) != 0)
				fail_msg("%s: finding %zu is %s, expected %s", c->name, k, got, want);
		}
		if (c->evidence && !strstr(out.v[0].evidence, c->evidence))
			fail_msg("%s: evidence \"%s\" lacks \"%s\"", c->name, out.v[0].evidence,
				 c->evidence);
		findings_free(&out);
		lc_rows_free(rows, 4);
	}
}

/* link_topology = lag: the same matrix, an informational finding only. */
static void lag_expected(void **state)
{
	(void)state;
	const struct eval_case *c = NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strncmp(cases[i].name, "a switch LAG:", 13) == 0)
			c = &cases[i];
	assert_non_null(c);
	struct lc_slave_obs rows[4];
	struct lc_matrix m;
	struct findings out = {0};
	build(c, rows, &m);
	m.lag_expected = true;
	assert_int_equal(linkcheck_eval(&m, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.v[0].kind, FK_SWITCH_LAG);
	assert_int_equal(out.v[0].severity, FSEV_INFO);
	assert_non_null(strstr(out.v[0].fix, "link_topology = lag"));
	/* in active-backup one domain for all is right, and so is a LAG */
	findings_clear(&out);
	m.lag_expected = false;
	m.mode = MODE_ACTIVE_BACKUP;
	assert_int_equal(linkcheck_eval(&m, &out), 0);
	for (size_t i = 0; i < out.n; i++)
		assert_int_not_equal(out.v[i].kind, FK_SWITCH_LAG);
	findings_free(&out);
	lc_rows_free(rows, 4);
}

static bool parse_topology(const char *text, bool *value, char *err, size_t errlen)
{
	struct desired d = {0};
	struct config_diag diag = {0};
	int ret = config_parse("t.conf", text, strlen(text), &d, &diag);
	if (ret == 0)
		*value = d.bonds[0].lag_expected;
	const char *first = diag_line(&diag, CONFIG_ERROR, 0);
	snprintf(err, errlen, "%s", first ? first : "");
	desired_free(&d);
	config_diag_free(&diag);
	return ret == 0;
}

static void topology_key(void **state)
{
	(void)state;
	bool v = true;
	char err[256];
	assert_true(parse_topology("[bond0]\nslaves = e1\n", &v, err, sizeof(err)));
	assert_false(v);
	assert_true(parse_topology("[bond0]\nlink_topology = lag\n", &v, err, sizeof(err)));
	assert_true(v);
	assert_true(parse_topology("[bond0]\nlink_topology = per-port\n", &v, err, sizeof(err)));
	assert_false(v);
	assert_false(parse_topology("[bond0]\nlink_topology = LAG\n", &v, err, sizeof(err)));
	assert_string_equal(err, "t.conf:2: link_topology: invalid value \"LAG\" (expected "
				 "per-port or lag)");
	assert_false(parse_topology("[bond0]\nlink_topology = lag\nlink_topology = lag\n", &v, err,
				    sizeof(err)));
	assert_string_equal(err, "t.conf:3: duplicate key \"link_topology\" (first on line 2)");
}

static void row_peer_is_bounded(void **state)
{
	(void)state;
	struct lc_slave_obs row = {0};
	struct lc_end e;

	for (int i = 0; i < LC_MAX_PEERS; i++) {
		fill_end(&e, 'b', i + 1);
		assert_non_null(lc_row_peer(&row, &e));
	}
	fill_end(&e, 'c', 1);
	assert_null(lc_row_peer(&row, &e));
	/* A known peer is found, not added. */
	fill_end(&e, 'b', 5);
	assert_ptr_equal(lc_row_peer(&row, &e), &row.peers[4]);
	assert_int_equal(row.n_peers, LC_MAX_PEERS);
	lc_row_free(&row);
}

/* A row full of peers that only sent requests (anyone on the wire can) still
 * takes an answer to our own check: it takes the place of one of them. */
static void row_answer_takes_a_place(void **state)
{
	(void)state;
	struct lc_slave_obs row = {0};
	struct lc_end e;

	for (int i = 0; i < LC_MAX_PEERS; i++) {
		fill_end(&e, 'x', i + 1);
		struct lc_peer_obs *pe = lc_row_peer(&row, &e);
		assert_non_null(pe);
		pe->heard = LC_SIZE_BIT(LC_SMALL);
		pe->expected = i == 0;
	}
	fill_end(&e, 'b', 1);
	assert_null(lc_row_peer(&row, &e));
	struct lc_peer_obs *pe = lc_row_peer_answered(&row, &e);
	assert_non_null(pe);
	assert_true(lc_end_same(&pe->end, &e));
	assert_int_equal(pe->answered, 0);
	assert_int_equal(pe->heard, 0);
	assert_int_equal(row.n_peers, LC_MAX_PEERS);
	/* a peer we waited for keeps its place while others can give theirs */
	fill_end(&e, 'x', 1);
	assert_non_null(lc_row_peer(&row, &e));
	pe->answered = LC_SIZE_BIT(LC_SMALL);
	/* the same peer again: found, not added */
	fill_end(&e, 'b', 1);
	assert_ptr_equal(lc_row_peer_answered(&row, &e), pe);
	/* a row of peers that all answered keeps them */
	for (size_t i = 0; i < row.n_peers; i++)
		row.peers[i].answered = LC_SIZE_BIT(LC_SMALL);
	fill_end(&e, 'c', 1);
	assert_null(lc_row_peer_answered(&row, &e));
	lc_row_free(&row);
}

/* A row holds room for the peers it has seen, not for LC_MAX_PEERS; the
 * shown row is a copy of its own (finish_check), whatever the live row does
 * after. */
static void row_grows_and_copies(void **state)
{
	(void)state;
	struct lc_slave_obs live = {0}, shown = {0};
	struct lc_end e;

	assert_null(live.peers);
	for (size_t n = 1; n <= 40; n++) {
		fill_end(&e, 'b', (int)n);
		assert_non_null(lc_row_peer(&live, &e));
		assert_int_equal(live.n_peers, n);
		assert_true(live.cap_peers >= n && live.cap_peers <= 2 * n + 4);
	}
	snprintf(live.name, IFNAMSIZ, "e1");
	live.probed = true;
	live.peers[7].answered = LC_SIZE_BIT(LC_FULL);
	assert_int_equal(lc_row_copy(&shown, &live), 0);
	assert_string_equal(shown.name, "e1");
	assert_true(shown.probed);
	assert_int_equal(shown.n_peers, 40);
	assert_ptr_not_equal(shown.peers, live.peers);
	assert_int_equal(shown.peers[7].answered, LC_SIZE_BIT(LC_FULL));
	for (size_t i = 0; i < 40; i++)
		assert_true(lc_end_same(&shown.peers[i].end, &live.peers[i].end));
	/* the live row moves on; the copy stays */
	live.peers[7].answered = 0;
	live.n_peers = 2;
	assert_int_equal(shown.peers[7].answered, LC_SIZE_BIT(LC_FULL));
	/* a smaller copy reuses the room it has */
	struct lc_peer_obs *room = shown.peers;
	assert_int_equal(lc_row_copy(&shown, &live), 0);
	assert_ptr_equal(shown.peers, room);
	assert_int_equal(shown.n_peers, 2);
	/* an empty row copies to an empty one */
	struct lc_slave_obs none = {0}, copy = {0};
	assert_int_equal(lc_row_copy(&copy, &none), 0);
	assert_int_equal(copy.n_peers, 0);
	lc_row_free(&live);
	lc_row_free(&shown);
	lc_row_free(&copy);
	assert_null(live.peers);
	assert_int_equal(live.cap_peers, 0);
}

/* --- rendering -------------------------------------------------------------- */

static void render_matrix(void **state)
{
	(void)state;
	struct lc_slave_obs rows[4];
	struct lc_result r = {.enabled = true, .checks = 1, .frames_sent = 12};
	struct findings f = {0};
	struct strbuf out = {0};

	snprintf(r.bond, IFNAMSIZ, "bond0");
	build(&cases[9], rows, &r.m); /* crossed at one peer */
	assert_int_equal(linkcheck_eval(&r.m, &f), 0);
	r.m.slaves[0].siblings = 0x6;    /* e2, e3 */
	r.m.slaves[0].answered_on = 0x8; /* e4 */
	linkcheck_json(&out, &r);
	assert_false(out.oom);
	assert_non_null(strstr(out.s, "\"siblings_heard\":[\"e2\",\"e3\"],\"answers_on\":[\"e4\"],"));
	assert_non_null(strstr(out.s, "\"slave\":\"e2\",\"position\":2"));
	assert_non_null(strstr(out.s, "\"slave\":\"e3\",\"position\":3,\"answered\":"
				      "[\"small\",\"standard\",\"full\"]"));
	sb_reset(&out);
	const struct finding *found[16];
	assert_true(f.n <= 16);
	for (size_t i = 0; i < f.n; i++)
		found[i] = &f.v[i];
	linkcheck_table(&out, &r, "bond0", found, f.n);
	assert_non_null(strstr(out.s, "crossed: e2 (place 2) meets"));
	assert_non_null(strstr(out.s, "128,1500,9000"));
	sb_reset(&out);
	const struct lc_result *rv[] = {&r, NULL};
	linkcheck_prometheus(&out, rv, 2);
	assert_non_null(strstr(out.s, "bondd_link_check_peer_slaves{master=\"bond0\",device=\"e1\","
				      "size=\"full\"} 2\n"));
	assert_non_null(strstr(out.s, "bondd_link_check_checks_total{master=\"bond0\",device=\"bond0\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_link_check_requests_sent{master=\"bond0\",device=\"bond0\"} 12\n"));
	assert_non_null(strstr(out.s, "bondd_link_check_pending_findings{master=\"bond0\",device=\"bond0\"} 0\n"));
	sb_reset(&out);
	linkcheck_json(&out, NULL);
	assert_string_equal(out.s, "null");
	sb_free(&out);
	findings_free(&f);
	lc_rows_free(rows, 4);
}

/* A check that heard no peer: its retry in --json and in the table, no
 * finding; a re-check due (settling) is said instead. */
static void render_no_peer(void **state)
{
	(void)state;
	struct lc_slave_obs rows[2] = {{.name = "e1", .pos = 1, .probed = true},
				       {.name = "e2", .pos = 2, .probed = true}};
	struct lc_result r = {.enabled = true, .checks = 1, .frames_sent = 6, .retry_ms = 5200,
			      .m = {.slaves = rows, .n_slaves = 2}};
	struct strbuf out = {0};
	snprintf(r.bond, IFNAMSIZ, "bond0");
	snprintf(r.trigger, sizeof(r.trigger), "no peer yet");
	linkcheck_json(&out, &r);
	assert_non_null(strstr(out.s, "\"settling\":false,\"recheck_in_ms\":0,\"retry_in_ms\":5200,"));
	sb_reset(&out);
	linkcheck_table(&out, &r, "bond0", NULL, 0);
	assert_non_null(strstr(out.s, "link check #1 (no peer yet)"));
	assert_non_null(strstr(out.s, "no peer answered: next check 5200 ms after this one"));
	assert_non_null(strstr(out.s, "e1                 1  no peer answered\n"));
	assert_non_null(strstr(out.s, "no findings\n"));
	assert_null(strstr(out.s, "settling"));
	/* a re-check due: that line, not the retry's */
	r.settling = true;
	r.recheck_ms = 1200;
	sb_reset(&out);
	linkcheck_table(&out, &r, "bond0", NULL, 0);
	assert_non_null(strstr(out.s, "next check 1200 ms after this one"));
	assert_null(strstr(out.s, "no peer answered: next check"));
	/* a peer answered: no retry, no line */
	r.settling = false;
	r.retry_ms = 0;
	sb_reset(&out);
	linkcheck_json(&out, &r);
	assert_non_null(strstr(out.s, "\"retry_in_ms\":0,"));
	sb_reset(&out);
	linkcheck_table(&out, &r, "bond0", NULL, 0);
	assert_null(strstr(out.s, "no peer answered: next check"));
	sb_free(&out);
}

/* --- the config key and the status verb ------------------------------------ */

static bool parse_link_check(const char *text, bool *value, char *err, size_t errlen)
{
	struct desired d = {0};
	struct config_diag diag = {0};
	int ret = config_parse("t.conf", text, strlen(text), &d, &diag);
	if (ret == 0)
		*value = d.bonds[0].link_check;
	const char *first = diag_line(&diag, CONFIG_ERROR, 0);
	snprintf(err, errlen, "%s", first ? first : "");
	desired_free(&d);
	config_diag_free(&diag);
	return ret == 0;
}

static void config_key(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool ok, value;
		const char *err;
	} keys[] = {
		/* The default follows the mode (bondd.conf(5)). */
		{"[bond0]\nslaves = e1\n", true, true, NULL},
		{"[bond0]\nmode = balance-rr\n", true, true, NULL},
		{"[bond0]\nmode = active-backup\n", true, false, NULL},
		{"[bond0]\nmode = 802.3ad\n", true, false, NULL},
		{"[bond0]\nmode = balance-xor\n", true, false, NULL},
		{"[bond0]\nlink_check = no\n", true, false, NULL},
		{"[bond0]\nmode = active-backup\nlink_check = yes\n", true, true, NULL},
		{"[bond0]\nlink_check = yes\nmode = 802.3ad\n", true, true, NULL},
		{"[bond0]\nlink_check = maybe\n", false, false,
		 "t.conf:2: link_check: invalid value \"maybe\" (expected yes or no)"},
		{"[bond0]\nlink_check = yes\nlink_check = no\n", false, false,
		 "t.conf:3: duplicate key \"link_check\" (first on line 2)"},
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		bool value = !keys[i].value;
		char err[256];
		bool ok = parse_link_check(keys[i].text, &value, err, sizeof(err));
		if (ok != keys[i].ok)
			fail_msg("%s: %s (%s)", keys[i].text, ok ? "accepted" : "refused", err);
		if (ok && value != keys[i].value)
			fail_msg("%s: link_check %d", keys[i].text, value);
		if (!ok && strcmp(err, keys[i].err) != 0)
			fail_msg("%s: \"%s\", expected \"%s\"", keys[i].text, err, keys[i].err);
	}
}

static void status_verb(void **state)
{
	(void)state;
	struct status_request req;
	char err[256];

	assert_int_equal(status_request_parse("linkcheck bond0 bond1", 21, &req, err, sizeof(err)), 0);
	assert_int_equal(req.verb, SV_LINKCHECK);
	assert_int_equal(req.n_bonds, 2);
	assert_string_equal(req.bonds[1], "bond1");
	assert_int_equal(status_request_parse("linkchecks", 10, &req, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "explain, try, confirm, trial-wait, settle)"));
	assert_int_equal(status_request_parse("explain bond0", 13, &req, err, sizeof(err)), 0);
	assert_int_equal(req.verb, SV_EXPLAIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wire_round_trip),
		cmocka_unit_test(wire_encode_refuses),
		cmocka_unit_test(wire_decode_refuses),
		cmocka_unit_test(wire_host_name),
		cmocka_unit_test(eval_table),
		cmocka_unit_test(lag_expected),
		cmocka_unit_test(topology_key),
		cmocka_unit_test(row_peer_is_bounded),
		cmocka_unit_test(row_answer_takes_a_place),
		cmocka_unit_test(row_grows_and_copies),
		cmocka_unit_test(render_matrix),
		cmocka_unit_test(render_no_peer),
		cmocka_unit_test(config_key),
		cmocka_unit_test(status_verb),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
