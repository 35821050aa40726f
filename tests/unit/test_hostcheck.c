/* SPDX-License-Identifier: MIT */
/*
 * The host checks over fixture trees of real sysfs/procfs layouts
 * (data/hostcheck/: a dual-port card, two single-port cards, mixed speeds):
 * the reader, then every finding of the pure evaluation, then the JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "diag_line.h"
#include "hostcheck.h"

static char root[4096];

static const char *tree(const char *name)
{
	const char *data = getenv("DATA_DIR");
	snprintf(root, sizeof(root), "%s/hostcheck/%s", data ? data : "data", name);
	return root;
}

static void load(const char *text, struct desired *want)
{
	struct config_diag diag = {0};
	int err = config_parse("test.conf", text, strlen(text), want, &diag);
	for (size_t i = 0; i < config_diag_count(&diag, CONFIG_ERROR); i++)
		fprintf(stderr, "%s\n", diag_line(&diag, CONFIG_ERROR, i));
	config_diag_free(&diag);
	assert_int_equal(err, 0);
}

/* Reads the tree for want and evaluates it. */
static void check(const char *case_name, const char *conf, struct desired *want,
		  struct host_obs *h, struct findings *f)
{
	load(conf, want);
	assert_int_equal(hostcheck_read(tree(case_name), want, NULL, h), 0);
	assert_int_equal(hostcheck_eval(want, h, f), 0);
}

static const struct finding *find(const struct findings *f, enum finding_kind k, size_t nth)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].kind == k && nth-- == 0)
			return &f->v[i];
	return NULL;
}

static size_t count(const struct findings *f, enum finding_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++)
		n += f->v[i].kind == k;
	return n;
}

static void done(struct desired *want, struct host_obs *h, struct findings *f)
{
	desired_free(want);
	host_obs_free(h);
	findings_free(f);
}

static void reads_pci_driver_speed(void **state)
{
	(void)state;
	struct host_nic n;

	assert_true(hostcheck_read_nic(tree("dual-port"), "eth1", NULL, &n));
	assert_true(n.pci);
	assert_string_equal(n.pci_addr, "0000:03:00.1");
	assert_int_equal(n.bus, 3);
	assert_int_equal(n.slot, 0);
	assert_int_equal(n.function, 1);
	assert_string_equal(n.driver, "ixgbe");
	assert_int_equal(n.mbps, 10000);
	assert_string_equal(n.duplex, "full");

	/* virtio: the device is virtio0; the card is the PCI function above it */
	assert_true(hostcheck_read_nic(tree("mixed-speeds"), "eth4", NULL, &n));
	assert_string_equal(n.pci_addr, "0000:00:04.0");
	assert_string_equal(n.driver, "virtio_net");
	assert_int_equal(n.mbps, -1);
	assert_string_equal(n.duplex, "unknown");

	/* a veth has no device: no PCI address, no driver */
	assert_true(hostcheck_read_nic(tree("two-cards"), "veth0", NULL, &n));
	assert_false(n.pci);
	assert_string_equal(n.pci_addr, "");
	assert_string_equal(n.driver, "");
	assert_int_equal(n.mbps, 10000);

	assert_false(hostcheck_read_nic(tree("two-cards"), "nosuch", NULL, &n));
	assert_false(n.present);
	assert_int_equal(n.mbps, -1);
}

static void reads_tcp(void **state)
{
	(void)state;
	struct host_tcp t;

	hostcheck_read_tcp(tree("two-cards"), &t);
	assert_int_equal(t.reordering, 127);
	assert_int_equal(t.max_reordering, 300);
	assert_int_equal(t.recovery, 1);
	assert_int_equal(t.sack, 1);
	assert_string_equal(t.congestion, "bbr");
	assert_string_equal(t.available, "reno cubic bbr");
	assert_true(hostcheck_cc_listed(t.available, "bbr"));
	assert_true(hostcheck_cc_listed(t.available, "reno"));
	assert_false(hostcheck_cc_listed(t.available, "bb"));
	assert_false(hostcheck_cc_listed(t.available, "ubic"));

	hostcheck_read_tcp(tree("nosuch"), &t);
	assert_int_equal(t.reordering, -1);
	assert_int_equal(t.sack, -1);
	assert_string_equal(t.congestion, "");
}

static void dual_port_card_is_named(void **state)
{
	(void)state;
	struct desired want = {0};
	struct host_obs h = {0};
	struct findings f = {0};

	check("dual-port", "[bond0]\nslaves = eth0 eth1\n", &want, &h, &f);
	const struct finding *x = find(&f, FK_SHARED_CARD, 0);
	assert_non_null(x);
	assert_int_equal(count(&f, FK_SHARED_CARD), 1);
	assert_int_equal(x->severity, FSEV_INFO);
	assert_int_equal(x->source, FSRC_HOST_CHECK);
	assert_string_equal(x->bond, "bond0");
	assert_int_equal(x->n_slaves, 2);
	assert_string_equal(x->slaves[0], "eth0");
	assert_string_equal(x->slaves[1], "eth1");
	assert_non_null(strstr(x->evidence, "0000:03:00,"));
	assert_non_null(strstr(x->evidence, "ixgbe"));
	assert_non_null(strstr(x->evidence, "eth1 (0000:03:00.1)"));
	/* same speeds: no mismatch; default TCP: cubic is worth a word */
	assert_int_equal(count(&f, FK_SPEED_MISMATCH), 0);
	assert_int_equal(count(&f, FK_DUPLEX_MISMATCH), 0);
	x = find(&f, FK_TCP_SETTING, 0);
	assert_non_null(x);
	assert_int_equal(count(&f, FK_TCP_SETTING), 1);
	assert_int_equal(x->severity, FSEV_INFO);
	assert_non_null(strstr(x->evidence, "cubic"));
	assert_non_null(strstr(x->fix, "tcp_congestion = bbr"));
	done(&want, &h, &f);

	/* active-backup uses one slave at a time: the card does not matter */
	check("dual-port", "[bond0]\nmode = active-backup\nslaves = eth0 eth1\n", &want, &h, &f);
	assert_int_equal(f.n, 0);
	done(&want, &h, &f);

	/* 802.3ad uses both ports at once: the card matters there too */
	check("dual-port", "[bond0]\nmode = 802.3ad\nslaves = eth0 eth1\n", &want, &h, &f);
	assert_int_equal(count(&f, FK_SHARED_CARD), 1);
	assert_int_equal(count(&f, FK_TCP_SETTING), 0);
	done(&want, &h, &f);

	/* the per-bond setting answers the congestion finding */
	check("dual-port", "[bond0]\nslaves = eth0 eth1\ntcp_congestion = bbr\n", &want, &h, &f);
	assert_int_equal(count(&f, FK_TCP_SETTING), 1);
	x = find(&f, FK_TCP_SETTING, 0);
	/* ... but this kernel has no bbr: that is degraded */
	assert_int_equal(x->severity, FSEV_DEGRADED);
	assert_non_null(strstr(x->evidence, "reno cubic"));
	assert_non_null(strstr(x->fix, "tcp_bbr"));
	done(&want, &h, &f);
}

/* bbr's advice follows the number of slaves (hostcheck_eval.c
 * BBR_SUGGESTED_MAX_SLAVES, BBR_LOWER_FROM_SLAVES): suggested for two,
 * nothing for three, and set on four or more, said to have measured lower. */
static void bbr_advice_by_slaves(void **state)
{
	(void)state;
	static const struct {
		const char *tree, *conf;
		size_t notes;
		const char *words;
	} cases[] = {
		{"dual-port", "[bond0]\nslaves = eth0 eth1\n", 1, "1.78 with bbr"},
		{"dual-port", "[bond0]\nslaves = eth0 eth1 ethx\n", 1, "1.78 with bbr"},
		{"dual-port", "[bond0]\nslaves = eth0 eth1 ethx ethy\n", 0, NULL},
		{"two-cards", "[bond0]\nslaves = eth0 eth1\ntcp_congestion = bbr\n", 0, NULL},
		{"two-cards", "[bond0]\nslaves = eth0 eth1 ethx\ntcp_congestion = bbr\n", 0, NULL},
		{"two-cards", "[bond0]\nslaves = eth0 eth1 ethx ethy\ntcp_congestion = bbr\n", 1,
		 "0.85 of their sum with bbr"},
		{"two-cards", "[bond0]\nslaves = eth0 eth1 ethx ethy ethz\ntcp_congestion = bbr\n", 1,
		 "on 5 slaves"},
		{"two-cards", "[bond0]\nmode = 802.3ad\nslaves = eth0 eth1 ethx ethy\ntcp_congestion = bbr\n",
		 0, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct desired want = {0};
		struct host_obs h = {0};
		struct findings f = {0};
		check(cases[i].tree, cases[i].conf, &want, &h, &f);
		if (count(&f, FK_TCP_SETTING) != cases[i].notes)
			fail_msg("case %zu: %zu tcp-setting notes, not %zu", i,
				 count(&f, FK_TCP_SETTING), cases[i].notes);
		if (cases[i].words) {
			const struct finding *x = find(&f, FK_TCP_SETTING, 0);
			assert_int_equal(x->severity, FSEV_INFO);
			if (!strstr(x->evidence, cases[i].words))
				fail_msg("case %zu: %s", i, x->evidence);
		}
		done(&want, &h, &f);
	}
}

static void two_cards_are_fine(void **state)
{
	(void)state;
	struct desired want = {0};
	struct host_obs h = {0};
	struct findings f = {0};

	/* one port per card, one speed, bbr machine-wide: nothing to say */
	check("two-cards", "[bond0]\nslaves = eth0 eth1\nsingle_stream = yes\n", &want, &h, &f);
	assert_int_equal(f.n, 0);
	done(&want, &h, &f);

	check("two-cards", "[bond0]\nslaves = eth0 eth1\ntcp_congestion = bbr\n", &want, &h, &f);
	assert_int_equal(f.n, 0);
	done(&want, &h, &f);

	/* single_stream on a mode that cannot stripe: information */
	check("two-cards", "[bond0]\nmode = balance-xor\nslaves = eth0 eth1\nsingle_stream = yes\n",
	      &want, &h, &f);
	const struct finding *x = find(&f, FK_MODE_NO_STRIPE, 0);
	assert_non_null(x);
	assert_int_equal(f.n, 1);
	assert_int_equal(x->severity, FSEV_INFO);
	assert_non_null(strstr(x->evidence, "balance-xor"));
	assert_non_null(strstr(x->fix, "balance-rr"));
	done(&want, &h, &f);

	/* ... and without single_stream, no word about it */
	check("two-cards", "[bond0]\nmode = balance-xor\nslaves = eth0 eth1\n", &want, &h, &f);
	assert_int_equal(f.n, 0);
	done(&want, &h, &f);
}

static void mixed_speeds_and_duplex(void **state)
{
	(void)state;
	struct desired want = {0};
	struct host_obs h = {0};
	struct findings f = {0};

	check("mixed-speeds", "[bond0]\nslaves = eth0 eth1 eth2 eth3\n", &want, &h, &f);
	const struct finding *x = find(&f, FK_SPEED_MISMATCH, 0);
	assert_non_null(x);
	assert_int_equal(x->severity, FSEV_DEGRADED);
	/* the slower ones are named; eth3 (down, speed unknown) is not judged */
	assert_int_equal(x->n_slaves, 2);
	assert_string_equal(x->slaves[0], "eth1");
	assert_string_equal(x->slaves[1], "eth2");
	assert_non_null(strstr(x->evidence, "eth0 10000, eth1 1000, eth2 1000"));
	assert_non_null(strstr(x->evidence, "3 x 1000 Mb/s"));
	x = find(&f, FK_DUPLEX_MISMATCH, 0);
	assert_non_null(x);
	assert_int_equal(x->severity, FSEV_DEGRADED);
	assert_int_equal(x->n_slaves, 1);
	assert_string_equal(x->slaves[0], "eth2");
	/* separate cards */
	assert_int_equal(count(&f, FK_SHARED_CARD), 0);
	/* sack, RACK and D-SACK off: three TCP notes, all info; cubic is no
	 * note on four slaves (bbr measured lower there) */
	assert_int_equal(count(&f, FK_TCP_SETTING), 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(find(&f, FK_TCP_SETTING, i)->severity, FSEV_INFO);
	assert_non_null(strstr(find(&f, FK_TCP_SETTING, 0)->evidence, "tcp_sack = 0"));
	assert_non_null(strstr(find(&f, FK_TCP_SETTING, 1)->evidence, "tcp_recovery = 0"));
	assert_non_null(strstr(find(&f, FK_TCP_SETTING, 2)->evidence, "tcp_dsack = 0"));
	done(&want, &h, &f);

	/* two slaves of one speed, the third down: no mismatch */
	check("mixed-speeds", "[bond0]\nslaves = eth1 eth3\n[bond1]\nslaves = eth0\n", &want, &h,
	      &f);
	assert_int_equal(count(&f, FK_SPEED_MISMATCH), 0);
	assert_int_equal(count(&f, FK_DUPLEX_MISMATCH), 0);
	/* a one-slave bond does not reorder: no TCP notes for bond1 */
	for (size_t i = 0; i < f.n; i++)
		assert_string_equal(f.v[i].bond, "bond0");
	done(&want, &h, &f);

	/* active-backup: speeds do not matter, nor does TCP */
	check("mixed-speeds", "[bond0]\nmode = active-backup\nslaves = eth0 eth1 eth2\n", &want,
	      &h, &f);
	assert_int_equal(f.n, 0);
	done(&want, &h, &f);
}

/* Every NIC is found from every place the last search ended, in lists of
 * every length up to 7 (odd and even: the outward search meets itself
 * differently), and a name not there is not found. */
static void nic_lookup_from_every_hint(void **state)
{
	(void)state;
	struct host_nic nics[7];
	for (size_t n = 1; n <= 7; n++) {
		struct host_obs h = {.nics = nics, .n_nics = n};
		for (size_t i = 0; i < n; i++)
			snprintf(nics[i].name, sizeof(nics[i].name), "e%zu", i);
		for (size_t from = 0; from < n + 2; from++)
			for (size_t want = 0; want < n; want++) {
				h.hint = from;
				const struct host_nic *c = host_obs_nic(&h, nics[want].name);
				assert_ptr_equal(c, &nics[want]);
				assert_int_equal(h.hint, want);
				h.hint = from;
				assert_null(host_obs_nic(&h, "e9"));
			}
	}
	struct host_obs empty = {0};
	assert_null(host_obs_nic(&empty, "e0"));
}

static void json_hardware(void **state)
{
	(void)state;
	struct desired want = {0};
	struct host_obs h = {0};
	struct strbuf out = {0};

	load("[bond0]\nslaves = eth2 eth4 gone\n", &want);
	assert_int_equal(hostcheck_read(tree("mixed-speeds"), &want, NULL, &h), 0);
	hostcheck_json_nic(&out, host_obs_nic(&h, "eth2"));
	sb_puts(&out, " ");
	hostcheck_json_nic(&out, host_obs_nic(&h, "eth4"));
	sb_puts(&out, " ");
	hostcheck_json_nic(&out, host_obs_nic(&h, "gone"));
	sb_puts(&out, " ");
	hostcheck_json_nic(&out, host_obs_nic(NULL, "eth2"));
	assert_string_equal(out.s,
			    "{\"pci\":\"0000:06:00.0\",\"driver\":\"e1000e\",\"speed_mbps\":1000,"
			    "\"duplex\":\"half\"} "
			    "{\"pci\":\"0000:00:04.0\",\"driver\":\"virtio_net\",\"speed_mbps\":null,"
			    "\"duplex\":\"unknown\"} null null");
	sb_free(&out);
	desired_free(&want);
	host_obs_free(&h);
}

static void config_keys(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"[bond0]\ntcp_congestion = BBR\n",
		"[bond0]\ntcp_congestion = a_name_far_too_long\n",
		"[bond0]\ntcp_congestion = bbr\ntcp_congestion = cubic\n",
		"[bond0]\nsingle_stream = maybe\n",
		"[bond0]\nsingle_stream = yes\nsingle_stream = no\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct desired want = {0};
		struct config_diag diag = {0};
		assert_int_equal(config_parse("t.conf", bad[i], strlen(bad[i]), &want, &diag),
				 -22);
		assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
		assert_non_null(strstr(diag_line(&diag, CONFIG_ERROR, 0), "t.conf:"));
		config_diag_free(&diag);
	}
	struct desired want = {0};
	load("[bond0]\ntcp_congestion = bbr\nsingle_stream = yes\n[bond1]\nsingle_stream = no\n",
	     &want);
	assert_string_equal(want.bonds[0].tcp_congestion, "bbr");
	assert_true(want.bonds[0].single_stream);
	assert_string_equal(want.bonds[1].tcp_congestion, "");
	assert_false(want.bonds[1].single_stream);
	desired_free(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_pci_driver_speed),
		cmocka_unit_test(reads_tcp),
		cmocka_unit_test(dual_port_card_is_named),
		cmocka_unit_test(two_cards_are_fine),
		cmocka_unit_test(bbr_advice_by_slaves),
		cmocka_unit_test(mixed_speeds_and_duplex),
		cmocka_unit_test(nic_lookup_from_every_hint),
		cmocka_unit_test(json_hardware),
		cmocka_unit_test(config_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
