/* SPDX-License-Identifier: MIT */
/* LLDP per slave (lldp_eval.h): the rate limit, TTL expiry, a changed
 * neighbour, and the findings from a bond's slaves side by side. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "diag_line.h"
#include "desired.h"
#include "lldp_eval.h"
#include "lldp_render.h"

static struct lldp_neighbor nbr(const char *chassis, const char *port, uint16_t ttl)
{
	struct lldp_neighbor nb = {.chassis_subtype = 4, .port_subtype = 5, .ttl = ttl};
	snprintf(nb.chassis_id, sizeof(nb.chassis_id), "%s", chassis);
	snprintf(nb.port_id, sizeof(nb.port_id), "%s", port);
	snprintf(nb.sys_name, sizeof(nb.sys_name), "sw-%s", chassis);
	return nb;
}

static void rate_limit(void **state)
{
	(void)state;
	struct lldp_port p;
	lldp_port_init(&p, "bond0", "e1", 1000);
	for (int i = 0; i < LLDP_BURST; i++)
		assert_true(lldp_port_token(&p, 1000));
	assert_false(lldp_port_token(&p, 1000));
	assert_false(lldp_port_token(&p, 1000 + LLDP_REFILL_MS - 1));
	assert_int_equal(p.limited, 2);
	assert_true(lldp_port_token(&p, 1000 + LLDP_REFILL_MS));
	assert_false(lldp_port_token(&p, 1000 + LLDP_REFILL_MS));
	/* a long quiet fills the bucket, not more */
	for (int i = 0; i < LLDP_BURST; i++)
		assert_true(lldp_port_token(&p, 1000000));
	assert_false(lldp_port_token(&p, 1000000));
	assert_int_equal(p.limited, 4);
}

/* The read budget: LLDP_READS_PER_S in the second from the first read,
 * then none until it ends; a clock that went back starts again. */
static void read_budget(void **state)
{
	(void)state;
	static const struct {
		int64_t now;
		unsigned read; /* frames read after asking */
		unsigned left;
	} steps[] = {
		{5000, 10, LLDP_READS_PER_S},
		{5500, LLDP_READS_PER_S - 10, LLDP_READS_PER_S - 10},
		{5999, 0, 0},
		{6000, 1, LLDP_READS_PER_S},
		{6999, 0, LLDP_READS_PER_S - 1},
		{100, 0, LLDP_READS_PER_S},
	};
	struct lldp_port p;
	lldp_port_init(&p, "bond0", "e1", 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		unsigned left = lldp_port_reads_left(&p, steps[i].now);
		if (left != steps[i].left)
			fail_msg("at %lld ms: %u left, not %u", (long long)steps[i].now, left,
				 steps[i].left);
		p.reads += steps[i].read;
	}
	p.reads = LLDP_READS_PER_S;
	assert_int_equal(lldp_port_reads_left(&p, 100), 0);
	assert_int_equal(lldp_port_reads_resume(&p), 1100);
}

static void ttl_and_shutdown(void **state)
{
	(void)state;
	struct lldp_port p;
	struct lldp_neighbor nb = nbr("02:00:00:00:00:01", "swp1", 10);
	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &nb, 5000, 1700000000000);
	assert_int_equal(p.n_sp, 1);
	assert_int_equal(p.frames, 1);
	lldp_port_expire(&p, 14999);
	assert_int_equal(p.n_sp, 1);
	lldp_port_expire(&p, 15000);
	assert_int_equal(p.n_sp, 0);
	/* heard again, then a shutdown LLDPDU (TTL 0) */
	lldp_port_take(&p, &nb, 20000, 1700000015000);
	assert_int_equal(p.n_sp, 1);
	assert_false(p.changed);
	nb.ttl = 0;
	lldp_port_take(&p, &nb, 21000, 1700000016000);
	assert_int_equal(p.n_sp, 0);
	lldp_port_free(&p);
}

static void changed_neighbour(void **state)
{
	(void)state;
	struct lldp_port p;
	struct lldp_neighbor a = nbr("02:00:00:00:00:01", "swp1", 120);
	struct lldp_neighbor b = nbr("02:00:00:00:00:01", "swp7", 30);
	struct findings f = {0};
	const struct lldp_port *ports[1] = {&p};

	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &a, 1000, 1);
	lldp_port_take(&p, &a, 31000, 2);
	assert_false(p.changed);
	/* the old one expired before the new was heard: still a change */
	lldp_port_expire(&p, 500000);
	lldp_port_take(&p, &b, 500000, 3);
	assert_true(p.changed);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 1, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].kind, FK_LLDP_CHANGED);
	assert_int_equal(f.v[0].severity, FSEV_INFO);
	assert_int_equal(f.v[0].source, FSRC_LLDP);
	assert_string_equal(f.v[0].evidence, "e1's neighbour changed from port swp1 on "
					     "sw-02:00:00:00:00:01 to port swp7 on sw-02:00:00:00:00:01");
	assert_string_equal(finding_kind_name(f.v[0].kind), "neighbour-changed");
	assert_string_equal(finding_source_name(f.v[0].source), "lldp");
	/* the same neighbour again does not extend it; one TTL later it clears */
	lldp_port_take(&p, &b, 520000, 4);
	lldp_port_expire(&p, 529999);
	assert_true(p.changed);
	lldp_port_expire(&p, 530000);
	assert_false(p.changed);
	assert_int_equal(p.n_sp, 1);
	findings_clear(&f);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 1, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
	lldp_port_free(&p);
}

static void max_frame(void **state)
{
	(void)state;
	struct lldp_port p[3];
	const struct lldp_port *ports[4] = {&p[0], &p[1], &p[2], NULL};
	struct findings f = {0};
	static const uint16_t sizes[3] = {9216, 1518, 9018};

	for (int i = 0; i < 3; i++) {
		char slave[8], port[8];
		snprintf(slave, sizeof(slave), "e%d", i + 1);
		snprintf(port, sizeof(port), "swp%d", i + 1);
		struct lldp_neighbor nb = nbr("02:00:00:00:00:01", port, 120);
		nb.has_max_frame = true;
		nb.max_frame = sizes[i];
		lldp_port_init(&p[i], "bond0", slave, 0);
		lldp_port_take(&p[i], &nb, 0, 0);
		lldp_port_take(&p[i], &nb, LLDP_CONFIRM_MS, 0);
	}
	assert_int_equal(lldp_eval("bond0", 9000, false, ports, 4, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].kind, FK_LLDP_MAX_FRAME);
	assert_int_equal(f.v[0].severity, FSEV_DEGRADED);
	assert_string_equal(f.v[0].slaves[0], "e2");
	assert_string_equal(f.v[0].evidence, "e2's switch port swp2 on sw-02:00:00:00:00:01 takes "
					     "frames of at most 1518 bytes, the bond's MTU 9000 needs 9018");
	assert_string_equal(finding_kind_name(f.v[0].kind), "switch-max-frame");
	/* at MTU 1500 every port is big enough */
	findings_clear(&f);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 4, &f), 0);
	assert_int_equal(f.n, 0);
	/* an expired neighbour is not judged */
	lldp_port_expire(&p[1], 121000);
	assert_int_equal(lldp_eval("bond0", 9000, false, ports, 4, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
	for (int i = 0; i < 3; i++)
		lldp_port_free(&p[i]);
}

static void same_port_and_one_vlan(void **state)
{
	(void)state;
	struct lldp_port p[4];
	const struct lldp_port *ports[4] = {&p[0], &p[1], &p[2], &p[3]};
	struct findings f = {0};
	/* e1 and e3 on one port; e2, e3 and e4 in VLAN 10 */
	static const char *const port[4] = {"swp1", "swp2", "swp1", "swp4"};
	static const uint16_t pvid[4] = {20, 10, 10, 10};

	for (int i = 0; i < 4; i++) {
		char slave[8];
		snprintf(slave, sizeof(slave), "e%d", i + 1);
		struct lldp_neighbor nb = nbr("02:00:00:00:00:01", port[i], 120);
		nb.has_pvid = true;
		nb.pvid = pvid[i];
		lldp_port_init(&p[i], "bond0", slave, 0);
		lldp_port_take(&p[i], &nb, 0, 0);
		lldp_port_take(&p[i], &nb, LLDP_CONFIRM_MS, 0);
	}
	assert_int_equal(lldp_eval("bond0", 1500, true, ports, 4, &f), 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.v[0].kind, FK_LLDP_SAME_PORT);
	assert_int_equal(f.v[0].severity, FSEV_DEGRADED);
	assert_int_equal(f.v[0].n_slaves, 2);
	assert_string_equal(f.v[0].slaves[0], "e1");
	assert_string_equal(f.v[0].slaves[1], "e3");
	assert_string_equal(f.v[0].evidence, "e1 and e3 hear one switch port: swp1 on "
			    "sw-02:00:00:00:00:01");
	assert_int_equal(f.v[1].kind, FK_LLDP_ONE_VLAN);
	assert_int_equal(f.v[1].severity, FSEV_INFO);
	assert_int_equal(f.v[1].n_slaves, 3);
	assert_string_equal(f.v[1].slaves[0], "e2");
	assert_string_equal(f.v[1].slaves[2], "e4");
	assert_string_equal(f.v[1].evidence,
			    "balance-rr slaves on switch ports of one VLAN (port VLAN ID 10)");
	/* A slave given by selector is named by it too: which entry of
	 * slaves = is cabled where. */
	findings_clear(&f);
	snprintf(p[2].sel, sizeof(p[2].sel), "mac:02:00:00:00:aa:03");
	assert_int_equal(lldp_eval("bond0", 1500, true, ports, 4, &f), 0);
	assert_string_equal(f.v[0].evidence, "e1 and e3 (mac:02:00:00:00:aa:03) hear one switch "
			    "port: swp1 on sw-02:00:00:00:00:01");
	assert_string_equal(f.v[0].slaves[1], "e3");
	p[2].sel[0] = '\0';
	/* not balance-rr: no VLAN finding; e3 hears another chassis besides
	 * (a second speaker): no verdict from e3, so no same port either */
	findings_clear(&f);
	struct lldp_neighbor other = nbr("02:00:00:00:00:02", "swp1", 120);
	lldp_port_take(&p[2], &other, 1, 1);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 4, &f), 0);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.v[0].kind, FK_LLDP_SEVERAL);
	assert_int_equal(f.v[0].severity, FSEV_INFO);
	assert_string_equal(f.v[0].slaves[0], "e3");
	findings_free(&f);
	for (int i = 0; i < 4; i++)
		lldp_port_free(&p[i]);
}

static void outputs_escape(void **state)
{
	(void)state;
	struct lldp_port p;
	struct lldp_neighbor nb = nbr("02:00:00:00:00:01", "swp\"1\\", 120);
	struct strbuf out = {0};

	snprintf(nb.port_descr, sizeof(nb.port_descr), "uplink \"a\"");
	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &nb, 0, 1700000000000);
	lldp_json(&out, &p);
	assert_non_null(strstr(out.s, "\"port_id\":\"swp\\\"1\\\\\""));
	assert_non_null(strstr(out.s, "\"port_description\":\"uplink \\\"a\\\"\""));
	assert_non_null(strstr(out.s, "\"port_vlan_id\":null,\"max_frame_size\":null,\"ttl\":120"));
	assert_non_null(strstr(out.s, "\"expires\":\"2023-11-14T22:15:20.000Z\""));
	sb_free(&out);
	lldp_json(&out, NULL);
	assert_string_equal(out.s, "null");
	sb_free(&out);
	lldp_port_free(&p);
}

/*
 * What frames heard when may conclude (lldp_eval.h's three rules), as a
 * table: each case is a run of steps on a balance-rr bond of three slaves
 * at MTU 9000; a step takes one frame on a slave (slave -1: none), judges
 * every slave as of its time and lists the findings as "kind:slaves".
 */
#define C1 "02:00:00:00:00:01"   /* the real switch */
#define C9 "02:00:00:00:00:99"   /* a forger, or a second speaker */
struct step {
	int64_t t;
	int slave;
	const char *chassis, *port;
	uint16_t ttl, max_frame;
	const char *want;
};
#define END {-1, 0, NULL, NULL, 0, 0, NULL}
static const struct {
	const char *name;
	struct step steps[12];
} verdict_cases[] = {
	{"one forged frame, TTL 65535, 1518 bytes: shown, no verdict",
	 {{0, 0, C9, "x1", 65535, 1518, ""},
	  {120000, -1, NULL, NULL, 0, 0, ""},
	  END}},
	{"a second agreeing frame confirms; the verdict holds 120 s past the last frame",
	 {{0, 0, C9, "x1", 65535, 1518, ""},
	  {999, 0, C9, "x1", 65535, 1518, ""},
	  {1000, 0, C9, "x1", 65535, 1518, "switch-max-frame:e1"},
	  {120999, -1, NULL, NULL, 0, 0, "switch-max-frame:e1"},
	  {121000, -1, NULL, NULL, 0, 0, ""},
	  /* re-announced: the run was broken (silent past its hold) */
	  {200000, 0, C9, "x1", 65535, 1518, ""},
	  {201000, 0, C9, "x1", 65535, 1518, "switch-max-frame:e1"},
	  END}},
	{"a switch at 30 s keeps its verdict; a TTL below the cap ends it first",
	 {{0, 0, C1, "swp1", 120, 1518, ""},
	  {1000, 0, C1, "swp1", 120, 1518, "switch-max-frame:e1"},
	  {31000, 0, C1, "swp1", 120, 1518, "switch-max-frame:e1"},
	  {150999, -1, NULL, NULL, 0, 0, "switch-max-frame:e1"},
	  {151000, -1, NULL, NULL, 0, 0, ""},
	  {200000, 0, C1, "swp1", 10, 1518, ""},
	  {201000, 0, C1, "swp1", 10, 1518, "switch-max-frame:e1"},
	  {210999, -1, NULL, NULL, 0, 0, "switch-max-frame:e1"},
	  {211000, -1, NULL, NULL, 0, 0, ""},
	  END}},
	{"frames that disagree start a new run; one frame clears a verdict",
	 {{0, 0, C1, "swp1", 120, 1518, ""},
	  {1000, 0, C1, "swp1", 120, 1500, ""},
	  {2000, 0, C1, "swp1", 120, 1500, "switch-max-frame:e1"},
	  {3000, 0, C1, "swp1", 120, 9216, ""},
	  END}},
	{"same switch port needs both slaves confirmed",
	 {{0, 0, C9, "x1", 65535, 9216, ""},
	  {0, 1, C9, "x1", 65535, 9216, ""},
	  {1000, 0, C9, "x1", 65535, 9216, ""},
	  {1000, 1, C9, "x1", 65535, 9216, "same-switch-port:e1,e2"},
	  {121000, -1, NULL, NULL, 0, 0, ""},
	  END}},
	{"a second speaker on a slave: no verdict from it, information",
	 {{0, 0, C1, "swp1", 120, 1518, ""},
	  {1000, 0, C1, "swp1", 120, 1518, "switch-max-frame:e1"},
	  {2000, 0, C9, "x1", 65535, 9216, "several-neighbours:e1"},
	  {31000, 0, C1, "swp1", 120, 1518, "several-neighbours:e1"},
	  /* the forger falls silent: its hold passes, the switch is judged */
	  {122000, -1, NULL, NULL, 0, 0, "switch-max-frame:e1"},
	  END}},
	{"a second speaker hides a same-port verdict, not creates one",
	 {{0, 0, C1, "swp1", 120, 9216, ""},
	  {0, 1, C1, "swp1", 120, 9216, ""},
	  {1000, 0, C1, "swp1", 120, 9216, ""},
	  {1000, 1, C1, "swp1", 120, 9216, "same-switch-port:e1,e2"},
	  {1500, 1, C9, "x1", 120, 9216, "several-neighbours:e2"},
	  {1600, 1, C9, "x1", 0, 9216, "same-switch-port:e1,e2"},
	  END}},
	{"a cable moved: two speakers until the old port's hold passes, then changed",
	 {{0, 0, C1, "swp1", 120, 9216, ""},
	  {1000, 0, C1, "swp1", 120, 9216, ""},
	  {5000, 0, C1, "swp7", 120, 9216, "several-neighbours:e1"},
	  {35000, 0, C1, "swp7", 120, 9216, "several-neighbours:e1"},
	  {121000, -1, NULL, NULL, 0, 0, "neighbour-changed:e1"},
	  {154999, -1, NULL, NULL, 0, 0, "neighbour-changed:e1"},
	  {155000, -1, NULL, NULL, 0, 0, ""},
	  END}},
	{"two slaves in one VLAN is information even unconfirmed",
	 {{0, 0, C1, "swp1", 120, 0, ""},
	  {0, 1, C1, "swp2", 120, 0, "switch-one-vlan:e1,e2"},
	  END}},
};

static struct lldp_neighbor step_frame(const struct step *st)
{
	struct lldp_neighbor nb = nbr(st->chassis, st->port, st->ttl);
	snprintf(nb.src_mac, sizeof(nb.src_mac), "%s", strcmp(st->chassis, C1) == 0 ?
		 "02:00:00:00:01:01" : "02:00:00:00:09:09");
	nb.has_pvid = true;
	nb.pvid = 10;
	if (st->max_frame) {
		nb.has_max_frame = true;
		nb.max_frame = st->max_frame;
	}
	return nb;
}

static void verdicts(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(verdict_cases) / sizeof(verdict_cases[0]); c++) {
		static struct lldp_port p[3];
		const struct lldp_port *ports[3] = {&p[0], &p[1], &p[2]};
		for (int i = 0; i < 3; i++) {
			char slave[8];
			snprintf(slave, sizeof(slave), "e%d", i + 1);
			lldp_port_init(&p[i], "bond0", slave, 0);
		}
		for (const struct step *st = verdict_cases[c].steps; st->want; st++) {
			struct findings f = {0};
			char got[512] = "";
			if (st->slave >= 0) {
				struct lldp_neighbor nb = step_frame(st);
				lldp_port_take(&p[st->slave], &nb, st->t, st->t);
			}
			for (int i = 0; i < 3; i++)
				lldp_port_expire(&p[i], st->t);
			assert_int_equal(lldp_eval("bond0", 9000, true, ports, 3, &f), 0);
			for (size_t i = 0; i < f.n; i++) {
				/* one VLAN is every case's background but the last */
				if (f.v[i].kind == FK_LLDP_ONE_VLAN && c + 1 < sizeof(verdict_cases) /
										 sizeof(verdict_cases[0]))
					continue;
				size_t o = strlen(got);
				snprintf(got + o, sizeof(got) - o, "%s%s:", o ? " " : "",
					 finding_kind_name(f.v[i].kind));
				for (size_t k = 0; k < f.v[i].n_slaves; k++) {
					o = strlen(got);
					snprintf(got + o, sizeof(got) - o, "%s%s", k ? "," : "",
						 f.v[i].slaves[k]);
				}
				bool degraded = f.v[i].kind == FK_LLDP_MAX_FRAME ||
						f.v[i].kind == FK_LLDP_SAME_PORT;
				assert_int_equal(f.v[i].severity, degraded ? FSEV_DEGRADED : FSEV_INFO);
			}
			findings_free(&f);
			if (strcmp(got, st->want) != 0)
				fail_msg("%s, at %lld ms: \"%s\", not \"%s\"", verdict_cases[c].name,
					 (long long)st->t, got, st->want);
		}
		for (int i = 0; i < 3; i++)
			lldp_port_free(&p[i]);
	}
}

/* What is shown outlives what is judged: the forged frame's record stays
 * for its TTL, lapsed; several speakers are each shown with their source;
 * the table keeps LLDP_SPEAKERS, dropping the one heard longest ago. */
static void records_shown(void **state)
{
	(void)state;
	static struct lldp_port p;
	struct step forged = {0, 0, C9, "x1", 65535, 1518, ""};
	struct lldp_neighbor nb = step_frame(&forged);

	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &nb, 0, 1700000000000);
	lldp_port_take(&p, &nb, 1000, 1700000001000);
	assert_true(p.sp[0].confirmed);
	lldp_port_expire(&p, 121000);
	assert_int_equal(p.n_sp, 1);
	assert_false(p.sp[0].counts);
	assert_false(p.sp[0].confirmed);
	assert_ptr_equal(lldp_port_neighbour(&p), &p.sp[0]);
	assert_int_equal(lldp_speaker_holds(&p.sp[0]), 121000);
	assert_int_equal(lldp_speaker_expires(&p.sp[0]), 1000 + 65535000LL);
	lldp_port_expire(&p, 1000 + 65535000LL - 1);
	assert_int_equal(p.n_sp, 1);
	lldp_port_expire(&p, 1000 + 65535000LL);
	assert_int_equal(p.n_sp, 0);

	for (int i = 0; i < LLDP_SPEAKERS + 1; i++) {
		char port[8];
		snprintf(port, sizeof(port), "x%d", i);
		struct lldp_neighbor x = nbr(C9, port, 120);
		lldp_port_take(&p, &x, 70000000 + i, 0);
	}
	assert_int_equal(p.n_sp, LLDP_SPEAKERS);
	assert_int_equal(p.n_counting, LLDP_SPEAKERS);
	assert_string_equal(p.sp[0].nb.port_id, "x1");
	assert_string_equal(p.sp[LLDP_SPEAKERS - 1].nb.port_id, "x4");
	assert_null(lldp_port_neighbour(&p));
	lldp_port_free(&p);
}

static void outputs_show_source(void **state)
{
	(void)state;
	static struct lldp_port p;
	struct step a = {0, 0, C1, "swp1", 120, 9216, ""}, b = {0, 0, C9, "x1", 65535, 1518, ""};
	struct lldp_neighbor na = step_frame(&a), nb9 = step_frame(&b);
	struct strbuf out = {0};
	struct desired d = {0};
	struct config_diag diag = {0};
	static const char conf[] = "[bond0]\nslaves = e1\n";

	assert_int_equal(config_parse("t.conf", conf, strlen(conf), &d, &diag), 0);
	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &nb9, 0, 1700000000000);
	lldp_port_expire(&p, 0);
	lldp_json(&out, &p);
	assert_non_null(strstr(out.s, "\"neighbour\":{\"source_mac\":\"02:00:00:00:09:09\","
				      "\"chassis_id\":\"" C9 "\""));
	assert_non_null(strstr(out.s, "\"ttl\":65535,\"frames\":1,\"last_heard\":"
				      "\"2023-11-14T22:13:20.000Z\",\"expires\":\"2023-11-15T16:25:35.000Z\","
				      "\"verdicts\":\"unconfirmed\",\"verdicts_until\":\"2023-11-14T22:15:20.000Z\"}"));
	sb_free(&out);
	const struct lldp_port *ports[1] = {&p};
	lldp_text(&out, &d.bonds[0], ports, 1700000002000);
	assert_string_equal(out.s, "bond0 e1: switch sw-" C9 " (chassis " C9 ") port x1 pvid 10 "
				   "max-frame 1518, heard 2 s ago from 02:00:00:00:09:09, expires in "
				   "65533 s, not judged until confirmed (frames 1, malformed 0, "
				   "rate-limited 0)\n");
	sb_free(&out);
	/* the real switch besides: both shown, "neighbour" null */
	lldp_port_take(&p, &na, 1000, 1700000001000);
	lldp_port_take(&p, &na, 2000, 1700000002000);
	lldp_json(&out, &p);
	assert_non_null(strstr(out.s, "\"neighbour\":null,\"neighbours\":[{\"source_mac\":"
				      "\"02:00:00:00:09:09\""));
	assert_non_null(strstr(out.s, "},{\"source_mac\":\"02:00:00:00:01:01\""));
	assert_non_null(strstr(out.s, "\"verdicts\":\"confirmed\""));
	sb_free(&out);
	lldp_text(&out, &d.bonds[0], ports, 1700000002000);
	assert_string_equal(out.s,
		"bond0 e1: 2 LLDP speakers at once, no verdict from this slave (frames 3, "
		"malformed 0, rate-limited 0)\n"
		"bond0 e1:   switch sw-" C9 " (chassis " C9 ") port x1 pvid 10 max-frame 1518, heard "
		"2 s ago from 02:00:00:00:09:09, expires in 65533 s, not judged until confirmed\n"
		"bond0 e1:   switch sw-" C1 " (chassis " C1 ") port swp1 pvid 10 max-frame 9216, "
		"heard 0 s ago from 02:00:00:00:01:01, expires in 120 s\n");
	sb_free(&out);
	struct findings f = {0};
	assert_int_equal(lldp_eval("bond0", 9000, false, ports, 1, &f), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.v[0].evidence,
		"e1 hears 2 LLDP speakers at once, port x1 on sw-" C9 " from 02:00:00:00:09:09 and "
		"port swp1 on sw-" C1 " from 02:00:00:00:01:01: not one cable's neighbour, no LLDP "
		"verdict from e1");
	findings_free(&f);
	lldp_port_free(&p);
	desired_free(&d);
	config_diag_free(&diag);
}

/* lldp = yes|no (bondd.conf(5)): default yes, every error with FILE:LINE. */
static void config_key(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool ok, value;
		const char *err;
	} keys[] = {
		{"[bond0]\nslaves = e1\n", true, true, NULL},
		{"[bond0]\nmode = 802.3ad\n", true, true, NULL},
		{"[bond0]\nlldp = no\n", true, false, NULL},
		{"[bond0]\nlldp = yes\n", true, true, NULL},
		{"[bond0]\nlldp = off\n", true, false, NULL}, /* a boolean as systemd's */
		{"[bond0]\nlldp = silent\n", false, false,
		 "t.conf:2: lldp: invalid value \"silent\" (expected yes or no)"},
		{"[bond0]\nlldp = no\nlldp = yes\n", false, false,
		 "t.conf:3: duplicate key \"lldp\" (first on line 2)"},
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct desired d = {0};
		struct config_diag diag = {0};
		int ret = config_parse("t.conf", keys[i].text, strlen(keys[i].text), &d, &diag);
		if ((ret == 0) != keys[i].ok)
			fail_msg("%s: %s", keys[i].text, ret == 0 ? "accepted" : "refused");
		if (ret == 0 && d.bonds[0].lldp != keys[i].value)
			fail_msg("%s: lldp %d", keys[i].text, d.bonds[0].lldp);
		if (ret != 0)
			assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), keys[i].err);
		desired_free(&d);
		config_diag_free(&diag);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rate_limit),
		cmocka_unit_test(read_budget),
		cmocka_unit_test(ttl_and_shutdown),
		cmocka_unit_test(changed_neighbour),
		cmocka_unit_test(max_frame),
		cmocka_unit_test(same_port_and_one_vlan),
		cmocka_unit_test(outputs_escape),
		cmocka_unit_test(verdicts),
		cmocka_unit_test(records_shown),
		cmocka_unit_test(outputs_show_source),
		cmocka_unit_test(config_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
