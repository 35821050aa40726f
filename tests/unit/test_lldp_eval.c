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

static void ttl_and_shutdown(void **state)
{
	(void)state;
	struct lldp_port p;
	struct lldp_neighbor nb = nbr("02:00:00:00:00:01", "swp1", 10);
	lldp_port_init(&p, "bond0", "e1", 0);
	lldp_port_take(&p, &nb, 5000, 1700000000000);
	assert_true(p.heard);
	assert_int_equal(p.frames, 1);
	lldp_port_expire(&p, 14999);
	assert_true(p.heard);
	lldp_port_expire(&p, 15000);
	assert_false(p.heard);
	/* heard again, then a shutdown LLDPDU (TTL 0) */
	lldp_port_take(&p, &nb, 20000, 1700000015000);
	assert_true(p.heard);
	assert_false(p.changed);
	nb.ttl = 0;
	lldp_port_take(&p, &nb, 21000, 1700000016000);
	assert_false(p.heard);
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
	assert_true(p.heard);
	findings_clear(&f);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 1, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
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
	lldp_port_expire(&p[1], 120000);
	assert_int_equal(lldp_eval("bond0", 9000, false, ports, 4, &f), 0);
	assert_int_equal(f.n, 0);
	findings_free(&f);
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
	}
	assert_int_equal(lldp_eval("bond0", 1500, true, ports, 4, &f), 0);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.v[0].kind, FK_LLDP_SAME_PORT);
	assert_int_equal(f.v[0].severity, FSEV_DEGRADED);
	assert_int_equal(f.v[0].n_slaves, 2);
	assert_string_equal(f.v[0].slaves[0], "e1");
	assert_string_equal(f.v[0].slaves[1], "e3");
	assert_int_equal(f.v[1].kind, FK_LLDP_ONE_VLAN);
	assert_int_equal(f.v[1].severity, FSEV_INFO);
	assert_int_equal(f.v[1].n_slaves, 3);
	assert_string_equal(f.v[1].slaves[0], "e2");
	assert_string_equal(f.v[1].slaves[2], "e4");
	assert_string_equal(f.v[1].evidence,
			    "balance-rr slaves on switch ports of one VLAN (port VLAN ID 10)");
	/* not balance-rr: no VLAN finding; another chassis: another port */
	findings_clear(&f);
	struct lldp_neighbor other = nbr("02:00:00:00:00:02", "swp1", 120);
	lldp_port_take(&p[2], &other, 1, 1);
	assert_int_equal(lldp_eval("bond0", 1500, false, ports, 4, &f), 0);
	for (size_t i = 0; i < f.n; i++)
		assert_true(f.v[i].kind == FK_LLDP_CHANGED);
	assert_int_equal(f.n, 1);
	findings_free(&f);
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
		cmocka_unit_test(ttl_and_shutdown),
		cmocka_unit_test(changed_neighbour),
		cmocka_unit_test(max_frame),
		cmocka_unit_test(same_port_and_one_vlan),
		cmocka_unit_test(outputs_escape),
		cmocka_unit_test(config_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
