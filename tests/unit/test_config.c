/* SPDX-License-Identifier: MIT */
/* The config parser: the model it builds, every key, and every refusal. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "config.h"
#include "diag_line.h"
#include "config_hints.h"

#define FILE_NAME "bondd.conf"

/* Kept identical to examples/bondd.conf (example_file_matches checks). */
static const char example[] =
	"# /etc/bondd/bondd.conf: an example for bondd(8); see bondd.conf(5).\n"
	"#\n"
	"# Two hosts, each with two dual-port 10 GbE cards, cabled port to port\n"
	"# through per-port VLANs on the switch.  balance-rr stripes every flow over\n"
	"# all four links, so both ends must list their slaves in the same order:\n"
	"# port 1 of every card first, then port 2 of every card.\n"
	"\n"
	"[bond0]\n"
	"mode = balance-rr\n"
	"# Check each link every 100 ms; without miimon a dead port would keep\n"
	"# getting its share of the packets.\n"
	"miimon = 100\n"
	"# Jumbo frames (also bondd's default): the switch ports and the peer must\n"
	"# carry them too.\n"
	"mtu = 9000\n"
	"# This is the bond's order.  A slave that does not exist yet is waited for\n"
	"# and joins at its place when it appears.\n"
	"slaves = enp1s0f0 enp2s0f0 enp1s0f1 enp2s0f1\n"
	"# May repeat, IPv4 or IPv6; the prefix length is required.\n"
	"address = 192.168.2.10/24\n";

static int parse(const char *text, struct desired *d, struct config_diag *diag)
{
	return config_parse(FILE_NAME, text, strlen(text), d, diag);
}

/* Parses text that must be valid; fails the test with the messages if not. */
static void parse_ok(const char *text, struct desired *d)
{
	struct config_diag diag = {0};
	int rc = parse(text, d, &diag);

	for (size_t i = 0; i < config_diag_count(&diag, CONFIG_ERROR); i++)
		print_error("unexpected: %s\n", diag_line(&diag, CONFIG_ERROR, i));
	assert_int_equal(rc, 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	config_diag_free(&diag);
}

static void print_diag(const struct config_diag *diag)
{
	for (size_t i = 0; i < diag->n_items; i++) {
		char *line = config_diagnostic_format(&diag->items[i]);
		print_error("  got: %s\n", line);
		free(line);
	}
}

/* Text must be refused with exactly these messages, in this order. */
static void expect_errors(const char *text, const char *const *msgs)
{
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t n = 0;

	while (msgs[n])
		n++;
	int rc = parse(text, &d, &diag);
	if (config_diag_count(&diag, CONFIG_ERROR) != n)
		print_diag(&diag);
	assert_int_equal(rc, -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(diag_line(&diag, CONFIG_ERROR, i), msgs[i]);
	assert_null(d.bonds);
	assert_int_equal(d.n_bonds, 0);
	config_diag_free(&diag);
}

static uint8_t ip4_byte(const struct bond_addr *a, int i)
{
	return a->addr[i];
}

/* ---- valid files ------------------------------------------------------- */

static void example_parses(void **state)
{
	(void)state;
	struct desired d = {0};
	static const char *const order[] = {"enp1s0f0", "enp2s0f0", "enp1s0f1", "enp2s0f1"};

	parse_ok(example, &d);
	assert_int_equal(d.n_bonds, 1);
	const struct desired_bond *b = &d.bonds[0];
	assert_string_equal(b->name, "bond0");
	assert_int_equal(b->line, 8);
	assert_int_equal(b->opts.have, OPT_BIT(OPT_MODE) | OPT_BIT(OPT_MIIMON));
	assert_int_equal(b->opts.val[OPT_MODE], MODE_BALANCE_RR);
	assert_int_equal(b->opts.val[OPT_MIIMON], 100);
	assert_int_equal(b->mtu, 9000);
	assert_int_equal(b->n_slaves, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(b->slaves[i].name, order[i]);
		assert_false(b->slaves[i].has_queue_id);
		assert_false(b->slaves[i].has_prio);
	}
	assert_int_equal(b->n_addrs, 1);
	assert_int_equal(b->addrs[0].family, AF_INET);
	assert_int_equal(b->addrs[0].prefixlen, 24);
	assert_int_equal(ip4_byte(&b->addrs[0], 0), 192);
	assert_int_equal(ip4_byte(&b->addrs[0], 1), 168);
	assert_int_equal(ip4_byte(&b->addrs[0], 2), 2);
	assert_int_equal(ip4_byte(&b->addrs[0], 3), 10);
	assert_ptr_equal(desired_find_bond(&d, "bond0"), b);
	assert_string_equal(b->slaves[2].name, "enp1s0f1");
	desired_free(&d);
}

/* Finds examples/bondd.conf from the source tree or the build tree. */
static FILE *open_example(void)
{
	static const char *const tries[] = {
		"examples/bondd.conf", "../examples/bondd.conf", "../../examples/bondd.conf",
		"../../../examples/bondd.conf",
	};
	char path[4096];
	const char *src = __FILE__;
	const char *cut = strstr(src, "tests/unit/test_config.c");

	if (cut) {
		snprintf(path, sizeof(path), "%.*sexamples/bondd.conf", (int)(cut - src), src);
		FILE *f = fopen(path, "r");
		if (f)
			return f;
	}
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		FILE *f = fopen(tries[i], "r");
		if (f)
			return f;
	}
	return NULL;
}

static void example_file_matches(void **state)
{
	(void)state;
	FILE *f = open_example();
	char buf[8192];

	if (!f)
		skip();
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(buf, example);
}

static void defaults(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[bond0]\n", &d);
	assert_int_equal(d.n_bonds, 1);
	const struct desired_bond *b = &d.bonds[0];
	assert_string_equal(b->name, "bond0");
	assert_int_equal(b->line, 1);
	assert_int_equal(b->opts.have, OPT_BIT(OPT_MODE));
	assert_int_equal(b->opts.val[OPT_MODE], MODE_BALANCE_RR);
	assert_int_equal(b->mtu, BONDD_DEFAULT_MTU);
	assert_int_equal(b->mtu, 9000);
	assert_int_equal(b->n_slaves, 0);
	assert_int_equal(b->n_addrs, 0);
	desired_free(&d);
}

static void empty_file_has_no_bonds(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("", &d);
	assert_int_equal(d.n_bonds, 0);
	parse_ok("# nothing here\n\n   \n\t# still nothing\n", &d);
	assert_int_equal(d.n_bonds, 0);
	desired_free(&d);
}

static void comments_and_whitespace(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("   # leading comment\n"
		 "  [ bond1 ]   # a comment after the header\n"
		 "\tmode=active-backup#no spaces\n"
		 "miimon\t=\t200   \r\n"
		 "   \n"
		 "slaves = eth1,eth2 ,  eth3,,eth4   # commas and blanks\n"
		 "primary = eth3\n"
		 "mtu = 1500", /* no final newline */
		 &d);
	assert_int_equal(d.n_bonds, 1);
	const struct desired_bond *b = &d.bonds[0];
	assert_string_equal(b->name, "bond1");
	assert_int_equal(b->line, 2);
	assert_int_equal(b->opts.val[OPT_MODE], MODE_ACTIVE_BACKUP);
	assert_int_equal(b->opts.val[OPT_MIIMON], 200);
	assert_int_equal(b->mtu, 1500);
	assert_int_equal(b->n_slaves, 4);
	assert_string_equal(b->slaves[0].name, "eth1");
	assert_string_equal(b->slaves[3].name, "eth4");
	assert_string_equal(b->opts.primary, "eth3");
	assert_int_equal(b->opts.have,
			 OPT_BIT(OPT_MODE) | OPT_BIT(OPT_MIIMON) | OPT_BIT(OPT_PRIMARY));
	desired_free(&d);
}

static void crlf_file(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[bond0]\r\nmode = 2\r\nslaves = eth1 eth2\r\n", &d);
	assert_int_equal(d.bonds[0].opts.val[OPT_MODE], MODE_BALANCE_XOR);
	assert_string_equal(d.bonds[0].slaves[1].name, "eth2");
	desired_free(&d);
}

static void several_bonds_in_order(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[bond0]\nslaves = eth0\n[bond1]\n[bond2]\nmode = broadcast\nslaves = eth2 eth1\n",
		 &d);
	assert_int_equal(d.n_bonds, 3);
	assert_string_equal(d.bonds[0].name, "bond0");
	assert_string_equal(d.bonds[1].name, "bond1");
	assert_string_equal(d.bonds[2].name, "bond2");
	assert_int_equal(d.bonds[2].line, 4);
	assert_int_equal(d.bonds[1].n_slaves, 0); /* allowed: added later */
	assert_int_equal(d.bonds[2].opts.val[OPT_MODE], MODE_BROADCAST);
	assert_string_equal(d.bonds[2].slaves[0].name, "eth2");
	desired_free(&d);
}

/* keep_order: the mode's default unless set; state = absent. */
/* Slaves by permanent MAC, device path and altname (selector.h): kept in
 * the written order, a placeholder name no link can have until a link
 * answers, and primary / slave.SELECTOR.* find them by what they name. */
static void selectors(void **state)
{
	(void)state;
	struct desired d = {0};
	parse_ok("[bond0]\nmode = active-backup\nmiimon = 100\nmtu = 9000\n"
		 "slaves = path:pci-0000:3b:00.0/port1 mac:02:00:00:00:AA:01 eth7 "
		 "enx02000000aa03 path:platform-uml-vector.2 an-altname-longer-than-15\n"
		 "primary = mac:02:00:00:00:aa:01\n"
		 "slave.mac:02:00:00:00:aa:01.prio = 5\n"
		 "slave.path:pci-0000:3b:00.0/port1.queue_id = 3\n", &d);
	assert_int_equal(d.n_bonds, 1);
	const struct desired_bond *b = &d.bonds[0];
	assert_int_equal(b->n_slaves, 6);
	assert_int_equal(b->slaves_line, 5);
	assert_string_equal(desired_file(&d, b), FILE_NAME);
	assert_int_equal(b->slaves[0].sel.kind, SEL_PATH);
	assert_string_equal(b->slaves[0].sel.path, "pci-0000:3b:00.0");
	assert_int_equal(b->slaves[0].sel.port, 1);
	assert_int_equal(b->slaves[0].has_queue_id, true);
	assert_int_equal(b->slaves[0].queue_id, 3);
	assert_int_equal(b->slaves[1].sel.kind, SEL_MAC);
	assert_string_equal(b->slaves[1].sel.text, "mac:02:00:00:00:AA:01");
	assert_string_equal(b->slaves[1].name, "m:02000000aa01");
	assert_true(b->slaves[1].has_prio);
	assert_int_equal(b->slaves[1].prio, 5);
	assert_string_equal(b->slaves[2].name, "eth7");
	assert_string_equal(b->slaves[3].name, "enx02000000aa03");
	assert_int_equal(b->slaves[4].sel.port, 0);
	assert_int_equal(b->slaves[5].sel.kind, SEL_NAME);
	for (size_t i = 0; i < b->n_slaves; i++)
		assert_int_equal(slave_selector_is_placeholder(b->slaves[i].name),
				 i == 0 || i == 1 || i == 4 || i == 5);
	assert_int_equal(b->primary_slave, 2);
	assert_string_equal(b->opts.primary, "m:02000000aa01");
	desired_free(&d);
}

static void keep_order_and_state(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[rr]\n[ab]\nmode = active-backup\n[lag]\nmode = 802.3ad\nkeep_order = yes\n"
		 "[xor]\nmode = balance-xor\nkeep_order = no\n[gone]\nstate = absent\n"
		 "[here]\nstate = present\n",
		 &d);
	assert_int_equal(d.n_bonds, 6);
	assert_true(desired_keeps_order(&d.bonds[0]));
	assert_false(desired_keeps_order(&d.bonds[1]));
	assert_true(desired_keeps_order(&d.bonds[2]));
	assert_false(desired_keeps_order(&d.bonds[3]));
	assert_false(d.bonds[3].absent);
	assert_true(d.bonds[4].absent);
	assert_false(d.bonds[5].absent);
	desired_free(&d);
}

static void addresses(void **state)
{
	(void)state;
	struct desired d = {0};
	static const uint8_t v6[16] = {0x20, 0x01, 0x0d, 0xb8, [15] = 0x10};

	parse_ok("[bond0]\n"
		 "address = 10.0.0.1/8\n"
		 "address = 2001:db8::10/64\n"
		 "address = 10.0.0.2/32\n"
		 "address = 192.0.2.1/0\n"
		 "address = fe80::1/128\n",
		 &d);
	const struct desired_bond *b = &d.bonds[0];
	assert_int_equal(b->n_addrs, 5);
	assert_int_equal(b->addrs[0].family, AF_INET);
	assert_int_equal(b->addrs[0].prefixlen, 8);
	assert_memory_equal(b->addrs[0].addr, ((uint8_t[]){10, 0, 0, 1}), 4);
	assert_int_equal(b->addrs[1].family, AF_INET6);
	assert_int_equal(b->addrs[1].prefixlen, 64);
	assert_memory_equal(b->addrs[1].addr, v6, 16);
	assert_int_equal(b->addrs[2].prefixlen, 32);
	assert_int_equal(b->addrs[3].prefixlen, 0);
	assert_int_equal(b->addrs[4].family, AF_INET6);
	assert_int_equal(b->addrs[4].prefixlen, 128);
	desired_free(&d);
}

static void per_slave_settings(void **state)
{
	(void)state;
	struct desired d = {0};

	/* Per-slave keys may come before the slaves key; names may hold dots. */
	parse_ok("[bond0]\n"
		 "slave.eth0.100.prio = -5\n"
		 "mode = active-backup\n"
		 "slaves = eth0.100 eth2 eth3\n"
		 "slave.eth2.queue_id = 2\n"
		 "slave.eth2.prio = 10\n"
		 "slave.eth3.queue_id = 0\n"
		 "slave.eth3.prio = 2147483647\n",
		 &d);
	const struct desired_bond *b = &d.bonds[0];
	assert_string_equal(b->slaves[0].name, "eth0.100");
	assert_false(b->slaves[0].has_queue_id);
	assert_true(b->slaves[0].has_prio);
	assert_int_equal(b->slaves[0].prio, -5);
	assert_true(b->slaves[1].has_queue_id);
	assert_int_equal(b->slaves[1].queue_id, 2);
	assert_true(b->slaves[1].has_prio);
	assert_int_equal(b->slaves[1].prio, 10);
	assert_true(b->slaves[2].has_queue_id);
	assert_int_equal(b->slaves[2].queue_id, 0);
	assert_int_equal(b->slaves[2].prio, INT32_MAX);
	desired_free(&d);

	parse_ok("[bond0]\nslaves = eth1 eth2\nslave.eth1.queue_id = 65535\n"
		 "slave.eth2.queue_id = 0\n", &d);
	assert_int_equal(d.bonds[0].slaves[0].queue_id, 65535);
	assert_false(d.bonds[0].slaves[0].has_prio);
	desired_free(&d);

	parse_ok("[bond0]\nmode = balance-tlb\nslaves = eth1\nslave.eth1.prio = -2147483648\n", &d);
	assert_int_equal(d.bonds[0].slaves[0].prio, INT32_MIN);
	desired_free(&d);

	/* 802.3ad: the LACP port priority (6.18, and stable kernels). */
	parse_ok("[bond0]\nmode = 802.3ad\nmiimon = 100\nslaves = eth1 eth2 eth3\n"
		 "slave.eth1.actor_port_prio = 100\nslave.eth2.actor_port_prio = 65535\n"
		 "slave.eth2.queue_id = 3\n", &d);
	b = &d.bonds[0];
	assert_true(b->slaves[0].has_actor_port_prio);
	assert_int_equal(b->slaves[0].actor_port_prio, 100);
	assert_int_equal(b->slaves[1].actor_port_prio, 65535);
	assert_int_equal(b->slaves[1].queue_id, 3);
	assert_false(b->slaves[2].has_actor_port_prio);
	desired_free(&d);
}

/* Modes without an ARP monitor: the kernel reports miimon 100 when it was 0. */
static void forced_miimon(void **state)
{
	(void)state;
	static const char *const modes[] = {"802.3ad", "balance-tlb", "balance-alb", "4", "5", "6"};
	struct desired d = {0};
	char text[128];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(text, sizeof(text), "[bond0]\nmode = %s\nupdelay = 300\n", modes[i]);
		parse_ok(text, &d);
		assert_true(bond_settings_has(&d.bonds[0].opts, OPT_MIIMON));
		assert_int_equal(d.bonds[0].opts.val[OPT_MIIMON], 100);
		assert_int_equal(d.bonds[0].opts.val[OPT_UPDELAY], 300);
		desired_free(&d);
	}
	/* An explicit value stays; ARP modes keep miimon unmanaged. */
	parse_ok("[bond0]\nmode = 802.3ad\nmiimon = 50\n", &d);
	assert_int_equal(d.bonds[0].opts.val[OPT_MIIMON], 50);
	desired_free(&d);
	parse_ok("[bond0]\nmode = active-backup\n", &d);
	assert_false(bond_settings_has(&d.bonds[0].opts, OPT_MIIMON));
	desired_free(&d);
}

static void lists_and_mac(void **state)
{
	(void)state;
	struct desired d = {0};
	struct in_addr a;
	struct in6_addr a6;

	parse_ok("[bond0]\nmode = active-backup\narp_interval = 1000\n"
		 "arp_ip_target = 10.0.0.1, 10.0.0.2 10.0.0.3\n"
		 "ns_ip6_target = 2001:db8::1,fe80::2\n"
		 "arp_validate = all\narp_all_targets = all\narp_missed_max = 3\n",
		 &d);
	const struct bond_settings *o = &d.bonds[0].opts;
	assert_int_equal(o->n_arp_ip_target, 3);
	inet_pton(AF_INET, "10.0.0.3", &a);
	assert_memory_equal(&o->arp_ip_target[2], &a, sizeof(a));
	assert_int_equal(o->n_ns_ip6_target, 2);
	inet_pton(AF_INET6, "fe80::2", &a6);
	assert_memory_equal(&o->ns_ip6_target[1], &a6, sizeof(a6));
	assert_int_equal(o->val[OPT_ARP_VALIDATE], 3);
	assert_int_equal(o->val[OPT_ARP_ALL_TARGETS], 1);
	assert_int_equal(o->val[OPT_MISSED_MAX], 3);
	desired_free(&d);

	/* ns_ip6_target alone is enough for the ARP (NS) monitor. */
	parse_ok("[bond0]\narp_interval = 100\nns_ip6_target = 2001:db8::1\n", &d);
	assert_int_equal(d.bonds[0].opts.n_ns_ip6_target, 1);
	assert_false(bond_settings_has(&d.bonds[0].opts, OPT_ARP_IP_TARGET));
	desired_free(&d);

	/* mac_address: kept as given; with fail_over_mac none in active-backup too
	 * (the option applies to no other mode). */
	parse_ok("[bond0]\nmac_address = 02:AB:cd:00:00:01\n"
		 "[bond1]\nmode = active-backup\nmiimon = 100\nfail_over_mac = none\n"
		 "mac_address = 02:00:00:00:00:02\n", &d);
	assert_true(d.bonds[0].has_mac);
	assert_memory_equal(d.bonds[0].mac, "\x02\xab\xcd\x00\x00\x01", 6);
	assert_true(d.bonds[1].has_mac);
	desired_free(&d);
	parse_ok("[bond0]\nmiimon = 100\n", &d);
	assert_false(d.bonds[0].has_mac);
	desired_free(&d);

	/* bridge = NAME: kept as given; without it, none. */
	parse_ok("[bond0]\nmiimon = 100\nslaves = e1 e2\nbridge = vmbr0\n[bond1]\nmiimon = 100\n", &d);
	assert_string_equal(d.bonds[0].bridge, "vmbr0");
	assert_int_equal(d.bonds[0].bridge_line, 4);
	assert_string_equal(d.bonds[1].bridge, "");
	desired_free(&d);

	parse_ok("[bond0]\nmode = 802.3ad\nad_actor_system = 02:AB:cd:00:00:01\n"
		 "lacp_rate = fast\nxmit_hash_policy = layer3+4\n",
		 &d);
	assert_memory_equal(d.bonds[0].opts.ad_actor_system,
			    ((uint8_t[]){0x02, 0xab, 0xcd, 0, 0, 1}), 6);
	assert_int_equal(d.bonds[0].opts.val[OPT_AD_LACP_RATE], 1);
	assert_int_equal(d.bonds[0].opts.val[OPT_XMIT_HASH_POLICY], 1);
	desired_free(&d);

	/* Sixteen targets is the kernel's maximum, and allowed. */
	char text[1024];
	int o16 = snprintf(text, sizeof(text), "[bond0]\narp_interval = 100\narp_ip_target =");
	for (int i = 1; i <= 16; i++)
		o16 += snprintf(text + o16, sizeof(text) - (size_t)o16, " 10.0.0.%d", i);
	snprintf(text + o16, sizeof(text) - (size_t)o16, "\n");
	parse_ok(text, &d);
	assert_int_equal(d.bonds[0].opts.n_arp_ip_target, 16);
	desired_free(&d);
}

/* The first mode an option applies to. */
static int mode_for(const struct bond_option_spec *opt)
{
	for (int m = 0; m < MODE__COUNT; m++)
		if (bond_option_applies(opt, (enum bond_mode)m))
			return m;
	fail();
	return -1;
}

/* Lines an option needs around it to be valid. */
static const char *context_for(enum bond_option_id id)
{
	switch (id) {
	case OPT_UPDELAY:
	case OPT_DOWNDELAY:
	case OPT_PEER_NOTIF_DELAY:
		return "miimon = 1\n"; /* every delay is a multiple of 1 */
	case OPT_ARP_INTERVAL:
		return "arp_ip_target = 10.0.0.1\n";
	case OPT_ARP_IP_TARGET:
	case OPT_NS_IP6_TARGET:
		return "arp_interval = 100\n";
	case OPT_ARP_VALIDATE:
	case OPT_ARP_ALL_TARGETS:
	case OPT_MISSED_MAX:
		return "arp_interval = 100\narp_ip_target = 10.0.0.1\n";
	case OPT_PRIMARY:
		return "slaves = eth1 eth2\n";
	default:
		return "";
	}
}

/* Parses "key = value" for option d in a valid context; returns the bond. */
static void parse_option_line(const struct bond_option_spec *opt, const char *key,
			      const char *value, struct desired *d)
{
	char text[512];

	if (opt->id == OPT_MODE)
		snprintf(text, sizeof(text), "[bond0]\n%s = %s\n", key, value);
	else
		snprintf(text, sizeof(text), "[bond0]\nmode = %d\n%s%s = %s\n", mode_for(opt),
			 context_for(opt->id), key, value);
	parse_ok(text, d);
	assert_int_equal(d->n_bonds, 1);
	assert_true(bond_settings_has(&d->bonds[0].opts, opt->id));
}

static void check_scalar(const struct bond_option_spec *opt, const char *key, const char *value,
			 uint32_t expect)
{
	struct desired d = {0};

	parse_option_line(opt, key, value, &d);
	assert_int_equal(d.bonds[0].opts.val[opt->id], expect);
	desired_free(&d);
}

static void check_keys(const struct bond_option_spec *opt, const char *key)
{
	char num[16];

	for (const struct bond_option_word *n = opt->names; n && n->name; n++) {
		check_scalar(opt, key, n->name, n->value);
		snprintf(num, sizeof(num), "%u", n->value);
		check_scalar(opt, key, num, n->value);
	}
	/* arp_interval 0 would leave its targets unused: start at 1. */
	uint32_t lo = opt->id == OPT_ARP_INTERVAL ? 1 : opt->min;
	snprintf(num, sizeof(num), "%u", lo);
	check_scalar(opt, key, num, lo);
	snprintf(num, sizeof(num), "%u", opt->max);
	check_scalar(opt, key, num, opt->max);
}

static void check_other(const struct bond_option_spec *opt, const char *key)
{
	struct desired d = {0};
	const struct bond_settings *o;

	switch (opt->type) {
	case OT_IP4_LIST:
		parse_option_line(opt, key, "192.0.2.1 192.0.2.2", &d);
		o = &d.bonds[0].opts;
		assert_int_equal(o->n_arp_ip_target, 2);
		assert_int_equal(ntohl(o->arp_ip_target[1].s_addr), 0xc0000202u);
		break;
	case OT_IP6_LIST:
		parse_option_line(opt, key, "2001:db8::5", &d);
		o = &d.bonds[0].opts;
		assert_int_equal(o->n_ns_ip6_target, 1);
		assert_int_equal(o->ns_ip6_target[0].s6_addr[15], 5);
		break;
	case OT_MAC:
		parse_option_line(opt, key, "00:11:22:33:44:55", &d);
		assert_memory_equal(d.bonds[0].opts.ad_actor_system,
				    ((uint8_t[]){0, 0x11, 0x22, 0x33, 0x44, 0x55}), 6);
		break;
	case OT_IFNAME:
		parse_option_line(opt, key, "eth2", &d);
		assert_string_equal(d.bonds[0].opts.primary, "eth2");
		break;
	default:
		fail();
	}
	desired_free(&d);
}

static void every_option_by_name_and_number(void **state)
{
	(void)state;
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *opt = bond_option_spec((enum bond_option_id)id);
		const char *keys[] = {opt->key, opt->alias};
		for (size_t k = 0; k < 2 && keys[k]; k++) {
			if (opt->type == OT_U8 || opt->type == OT_U16 || opt->type == OT_U32)
				check_keys(opt, keys[k]);
			else
				check_other(opt, keys[k]);
		}
	}
}

static void alias(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[bond0]\nnum_unsol_na = 5\n", &d);
	assert_int_equal(d.bonds[0].opts.have, OPT_BIT(OPT_MODE) | OPT_BIT(OPT_NUM_PEER_NOTIF));
	assert_int_equal(d.bonds[0].opts.val[OPT_NUM_PEER_NOTIF], 5);
	desired_free(&d);

	expect_errors("[bond0]\nnum_grat_arp = 1\nnum_unsol_na = 2\n",
		      (const char *const[]){
			      "bondd.conf:3: duplicate key \"num_unsol_na\" (first on line 2)",
			      NULL});
}

/* ---- refusals -------------------------------------------------------- */

struct bad_case {
	const char *text;
	const char *msgs[4];
};

static const struct bad_case bad_cases[] = {
	/* syntax */
	{"[bond0]\nmiimonn = 100\n", {"bondd.conf:2: unknown key \"miimonn\"; did you mean \"miimon\"?"}},
	{"[bond0]\nMIIMON = 100\n", {"bondd.conf:2: unknown key \"MIIMON\"; did you mean \"miimon\"?"}},
	{"[bond0]\nslave = eth1\n", {"bondd.conf:2: unknown key \"slave\"; did you mean \"slaves\"?"}},
	{"[bond0]\nactive_slave = eth1\n", {"bondd.conf:2: unknown key \"active_slave\""}},
	{"miimon = 100\n[bond0]\n",
	 {"bondd.conf:1: key \"miimon\" outside of any [NAME] section"}},
	{"[bond0]\nmiimon 100\n",
	 {"bondd.conf:2: malformed line (expected \"key = value\" or \"[NAME]\")"}},
	{"[bond0]\nmiimon =   # nothing\n", {"bondd.conf:2: miimon: empty value"}},
	{"[bond0]\n = 5\n", {"bondd.conf:2: missing key before \"=\""}},
	{"[bond0\nmiimon = x\n",
	 {"bondd.conf:1: malformed section header (expected \"[NAME]\")",
	  "bondd.conf:2: miimon: invalid value \"x\" (expected a number 0-2147483647)"}},
	{"[bond0] x\n", {"bondd.conf:1: malformed section header (expected \"[NAME]\")"}},
	{"[]\n", {"bondd.conf:1: invalid bond name \"\": is empty"}},
	{"[bond/0]\n", {"bondd.conf:1: invalid bond name \"bond/0\": contains \"/\""}},
	{"[bond:0]\n", {"bondd.conf:1: invalid bond name \"bond:0\": contains \":\""}},
	{"[bond%d]\n", {"bondd.conf:1: invalid bond name \"bond%d\": contains \"%\""}},
	{"[bond 0]\n",
	 {"bondd.conf:1: invalid bond name \"bond 0\": contains a blank or a control character"}},
	{"[bond\x01]\n",
	 {"bondd.conf:1: invalid bond name \"bond\\x01\": contains a blank or a control "
	  "character"}},
	{"[.]\n", {"bondd.conf:1: invalid bond name \".\": is reserved"}},
	{"[..]\n", {"bondd.conf:1: invalid bond name \"..\": is reserved"}},
	{"[abcdefghijklmnop]\n",
	 {"bondd.conf:1: invalid bond name \"abcdefghijklmnop\": is longer than 15 bytes"}},
	{"[bond0]\n[bond0]\n", {"bondd.conf:2: [bond0] is already defined (line 1)"}},
	/* values */
	{"[bond0]\nmiimon = 99999999999\n",
	 {"bondd.conf:2: miimon: 99999999999 is out of range 0-2147483647"}},
	{"[bond0]\nkeep_order = maybe\n",
	 {"bondd.conf:2: keep_order: invalid value \"maybe\" (expected yes or no)"}},
	{"[bond0]\nkeep_order = yes\nkeep_order = no\n",
	 {"bondd.conf:3: duplicate key \"keep_order\" (first on line 2)"}},
	{"[bond0]\nstate = gone\n",
	 {"bondd.conf:2: state: invalid value \"gone\" (expected present or absent)"}},
	{"[bond0]\nmiimon = 100\npeer_notif_delay = 300100\n",
	 {"bondd.conf:3: peer_notif_delay: 300100 is out of range 0-300000"}},
	{"[bond0]\nmiimon = 100ms\n",
	 {"bondd.conf:2: miimon: invalid value \"100ms\" (expected a number 0-2147483647); "
	  "the value is in milliseconds, without a unit: did you mean 100?"}},
	{"[bond0]\nmiimon = -1\n",
	 {"bondd.conf:2: miimon: invalid value \"-1\" (expected a number 0-2147483647)"}},
	{"[bond0]\nmode = round-robin\n",
	 {"bondd.conf:2: mode: invalid value \"round-robin\" (expected balance-rr, "
	  "active-backup, balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb or 0-6); "
	  "did you mean \"balance-rr\"?"}},
	{"[bond0]\nmode = 7\n", {"bondd.conf:2: mode: 7 is out of range 0-6"}},
	{"[bond0]\nmode = Balance-RR\n",
	 {"bondd.conf:2: mode: invalid value \"Balance-RR\" (expected balance-rr, "
	  "active-backup, balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb or 0-6); "
	  "did you mean \"balance-rr\"?"}},
	/* (yes is taken: booleans_as_systemd) */
	{"[bond0]\nuse_carrier = onn\n",
	 {"bondd.conf:2: use_carrier: invalid value \"onn\" (expected off, on or 0-1); "
	  "did you mean \"on\"?"}},
	{"[bond0]\nmode = 6\nlp_interval = 0\n",
	 {"bondd.conf:3: lp_interval: 0 is out of range 1-2147483647"}},
	{"[bond0]\nmiimon = 100\nmiimon = 200\n",
	 {"bondd.conf:3: duplicate key \"miimon\" (first on line 2)"}},
	{"[bond0]\nmtu = 1500\nmtu = 9000\n",
	 {"bondd.conf:3: duplicate key \"mtu\" (first on line 2)"}},
	{"[bond0]\nslaves = eth1\nslaves = eth2\n",
	 {"bondd.conf:3: duplicate key \"slaves\" (first on line 2)"}},
	{"[bond0]\nmtu = 70000\n", {"bondd.conf:2: mtu: 70000 is out of range 68-65535"}},
	{"[bond0]\nmtu = 67\n", {"bondd.conf:2: mtu: 67 is out of range 68-65535"}},
	{"[bond0]\nmtu = 9k\n",
	 {"bondd.conf:2: mtu: invalid value \"9k\" (expected a number 68-65535)"}},
	/* modes */
	{"[bond0]\npackets_per_slave = 2\nmode = active-backup\n",
	 {"bondd.conf:2: packets_per_slave does not apply to mode active-backup"}},
	{"[bond0]\nlacp_rate = fast\n",
	 {"bondd.conf:2: lacp_rate does not apply to mode balance-rr"}},
	{"[bond0]\nmode = 802.3ad\narp_interval = 100\narp_ip_target = 10.0.0.1\n",
	 {"bondd.conf:3: arp_interval does not apply to mode 802.3ad"}},
	{"[bond0]\nmode = balance-xor\nslaves = eth1\nprimary = eth1\n",
	 {"bondd.conf:4: primary does not apply to mode balance-xor"}},
	{"[bond0]\nmode = bogus\nlacp_rate = fast\n",
	 {"bondd.conf:2: mode: invalid value \"bogus\" (expected balance-rr, active-backup, "
	  "balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb or 0-6)"}},
	/* monitoring */
	{"[bond0]\nupdelay = 200\n", {"bondd.conf:2: updelay needs miimon"}},
	{"[bond0]\ndowndelay = 0\n", {"bondd.conf:2: downdelay needs miimon"}},
	{"[bond0]\nmiimon = 0\npeer_notif_delay = 100\n",
	 {"bondd.conf:3: peer_notif_delay needs miimon"}},
	{"[bond0]\nmiimon = 100\narp_interval = 200\narp_ip_target = 10.0.0.1\n",
	 {"bondd.conf:3: arp_interval and miimon cannot both be enabled"}},
	{"[bond0]\narp_interval = 200\n", {"bondd.conf:2: arp_interval needs arp_ip_target"}},
	{"[bond0]\nmode = 802.3ad\nmiimon = 0\n",
	 {"bondd.conf:3: miimon: 0 is not allowed in mode 802.3ad"}},
	{"[bond0]\nmode = balance-alb\nmiimon = 0\n",
	 {"bondd.conf:3: miimon: 0 is not allowed in mode balance-alb"}},
	/* slaves */
	{"[bond0]\nslaves = eth1 eth2 eth1\n", {"bondd.conf:2: slaves: eth1 is listed twice"}},
	{"# two bonds\n[bond0]\nmode = balance-rr\nslaves = eth1 eth2\n\n[bond1]\n"
	 "slaves = eth3 eth2\n",
	 {"bondd.conf:7: eth2 is already a slave of bond0 (line 4)"}},
	{"[bond0]\nslaves = eth1 bond1\n[bond1]\nslaves = eth2\n",
	 {"bondd.conf:2: bond1 is configured as a bond (line 3) and cannot be a slave"}},
	{"[bond0]\nslaves = bond0\n",
	 {"bondd.conf:2: bond0 is configured as a bond (line 1) and cannot be a slave"}},
	{"[[bond0]]\nslaves = eth1\n",
	 {"bondd.conf:1: invalid bond name \"[bond0]\": contains a bracket"}},
	{"[bond0]]\n", {"bondd.conf:1: invalid bond name \"bond0]\": contains a bracket"}},
	{"[bond0]\nslaves = eth1 eth[2]\n",
	 {"bondd.conf:2: slaves: invalid interface name \"eth[2]\": contains a bracket"}},
	{"[bond0]\nslaves = eth1 eth/2\n",
	 {"bondd.conf:2: slaves: invalid interface name \"eth/2\": contains \"/\""}},
	{"[bond0]\nslaves = eth1 a234567890123456789012345678901234567890123456789012345678901"
	 "234567890123456789012345678901234567890123456789012345678901234567890\n",
	 {"bondd.conf:2: slaves: invalid interface name \"a2345678901234567890123456789012345678"
	  "90123456789012345678901234...\": is longer than 127 bytes"}},
	/* slaves by permanent MAC and device path (selector.h) */
	{"[bond0]\nslaves = mac:02:00:00:00:aa:1\n",
	 {"bondd.conf:2: slaves: invalid permanent MAC \"mac:02:00:00:00:aa:1\": expected "
	  "mac:XX:XX:XX:XX:XX:XX (six hex bytes)"}},
	{"[bond0]\nslaves = mac:03:00:00:00:aa:01\n",
	 {"bondd.conf:2: slaves: invalid permanent MAC \"mac:03:00:00:00:aa:01\": is a "
	  "multicast address, never a NIC's permanent one"}},
	{"[bond0]\nslaves = mac:00:00:00:00:00:00\n",
	 {"bondd.conf:2: slaves: invalid permanent MAC \"mac:00:00:00:00:00:00\": is all "
	  "zeros, which the kernel reports for a link without a permanent address"}},
	{"[bond0]\nslaves = path:\n",
	 {"bondd.conf:2: slaves: invalid device path \"path:\": expected path:ID_PATH, such "
	  "as path:pci-0000:3b:00.0"}},
	{"[bond0]\nslaves = path:0000:3b:00.0\n",
	 {"bondd.conf:2: slaves: invalid device path \"path:0000:3b:00.0\": expected "
	  "BUS-DEVICE as udev's ID_PATH, such as pci-0000:3b:00.0"}},
	{"[bond0]\nslaves = path:pci-0000:3b:00.0/1\n",
	 {"bondd.conf:2: slaves: invalid device path \"path:pci-0000:3b:00.0/1\": expected "
	  "/portN after the device path (N: the NIC's dev_port)"}},
	{"[bond0]\nslaves = path:pci-0000:3b:00.0/port65536\n",
	 {"bondd.conf:2: slaves: invalid device path \"path:pci-0000:3b:00.0/port65536\": the "
	  "port is a number 0-65535 (the NIC's dev_port)"}},
	{"[bond0]\nslaves = path:pci-0000:3b:00.0/port1 eth1 MAC:02:00:00:00:AA:01\n",
	 {"bondd.conf:2: slaves: invalid interface name \"MAC:02:00:00:00:AA:01\": contains "
	  "\":\" (an entry is a name, mac:XX:XX:XX:XX:XX:XX or path:ID_PATH)"}},
	{"[bond0]\nslaves = mac:02:00:00:00:aa:01 eth1 mac:02:00:00:00:AA:01\n",
	 {"bondd.conf:2: slaves: mac:02:00:00:00:AA:01 is listed twice"}},
	{"[bond0]\nslaves = path:pci-0000:3b:00.0 path:pci-0000:3b:00.0/port0\n",
	 {"bondd.conf:2: slaves: path:pci-0000:3b:00.0/port0 is listed twice"}},
	{"[bond0]\nslaves = mac:02:00:00:00:aa:01\n[bond1]\nslaves = mac:02:00:00:00:aa:01\n",
	 {"bondd.conf:4: mac:02:00:00:00:aa:01 is already a slave of bond0 (line 2)"}},
	{"[bond0]\nmode = active-backup\nslaves = mac:02:00:00:00:aa:01\n"
	 "primary = mac:02:00:00:00:aa:02\n",
	 {"bondd.conf:4: primary: mac:02:00:00:00:aa:02 is not listed in slaves"}},
	{"[bond0]\nmode = active-backup\nslaves = eth1\nslave.mac:02:00:00:00:aa:01.prio = 1\n",
	 {"bondd.conf:4: slave.mac:02:00:00:00:aa:01.prio: mac:02:00:00:00:aa:01 is not listed "
	  "in slaves"}},
	{"[bond0]\nslaves = eth1\nslave.path:pci.queue_id = 1\n",
	 {"bondd.conf:3: slave.path:pci.queue_id: invalid device path \"path:pci\": expected "
	  "BUS-DEVICE as udev's ID_PATH, such as pci-0000:3b:00.0"}},
	{"[bond0]\nmode = active-backup\nslaves = eth1\nprimary = eth9\n",
	 {"bondd.conf:4: primary: eth9 is not listed in slaves"}},
	{"[bond0]\nmode = active-backup\nprimary = eth:9\n",
	 {"bondd.conf:3: primary: invalid interface name \"eth:9\": contains \":\""}},
	/* per-slave keys */
	{"[bond0]\nslaves = eth1\nslave.eth9.queue_id = 1\n",
	 {"bondd.conf:3: slave.eth9.queue_id: eth9 is not listed in slaves"}},
	{"[bond0]\nslaves = eth1\nslave.eth1.prio = 1\n",
	 {"bondd.conf:3: slave.eth1.prio does not apply to mode balance-rr"}},
	{"[bond0]\nslaves = eth1\nslave.eth1.queue_id = 65536\n",
	 {"bondd.conf:3: slave.eth1.queue_id: 65536 is out of range 0-65535"}},
	{"[bond0]\nmode = 1\nslaves = eth1\nslave.eth1.prio = 2147483648\n",
	 {"bondd.conf:4: slave.eth1.prio: 2147483648 is out of range -2147483648 to 2147483647"}},
	{"[bond0]\nmode = 1\nslaves = eth1\nslave.eth1.prio = high\n",
	 {"bondd.conf:4: slave.eth1.prio: invalid value \"high\" (expected a number "
	  "-2147483648 to 2147483647)"}},
	{"[bond0]\nslaves = eth1\nslave.eth1.actor_port_prio = 1\n",
	 {"bondd.conf:3: slave.eth1.actor_port_prio does not apply to mode balance-rr"}},
	{"[bond0]\nmode = 802.3ad\nslaves = eth1\nslave.eth1.actor_port_prio = 65536\n",
	 {"bondd.conf:4: slave.eth1.actor_port_prio: 65536 is out of range 0-65535"}},
	{"[bond0]\nmode = 802.3ad\nslaves = eth1\nslave.eth1.actor_port_prio = 1\n"
	 "slave.eth1.actor_port_prio = 2\n",
	 {"bondd.conf:5: duplicate key \"slave.eth1.actor_port_prio\" (first on line 4)"}},
	{"[bond0]\nslaves = eth1\nslave.eth1.speed = 1000\n",
	 {"bondd.conf:3: unknown key \"slave.eth1.speed\""}},
	{"[bond0]\nslaves = eth1\nslave.eth1.queue_id = 1\nslave.eth1.queue_id = 2\n",
	 {"bondd.conf:4: duplicate key \"slave.eth1.queue_id\" (first on line 3)"}},
	{"[bond0]\nslaves = eth1 eth2 eth3\nslave.eth1.queue_id = 2\nslave.eth2.queue_id = 0\n"
	 "slave.eth3.queue_id = 2\n",
	 {"bondd.conf:5: slave.eth3.queue_id: 2 is already the queue_id of eth1 (line 3)"}},
	{"[bond0]\nslave..prio = 1\n",
	 {"bondd.conf:2: slave..prio: invalid interface name \"\": is empty"}},
	/* addresses */
	{"[bond0]\naddress = 10.0.0.1\n",
	 {"bondd.conf:2: address: \"10.0.0.1\" has no prefix length (as in ADDR/24)"}},
	{"[bond0]\naddress = 10.0.0.1/33\n",
	 {"bondd.conf:2: address: prefix length \"33\" is not in 0-32"}},
	{"[bond0]\naddress = 2001:db8::1/129\n",
	 {"bondd.conf:2: address: prefix length \"129\" is not in 0-128"}},
	{"[bond0]\naddress = 10.0.0.1/\n",
	 {"bondd.conf:2: address: prefix length \"\" is not in 0-32"}},
	{"[bond0]\naddress = 10.0.0.256/24\n",
	 {"bondd.conf:2: address: invalid IPv4 address \"10.0.0.256\""}},
	{"[bond0]\naddress = 2001:db8::g/64\n",
	 {"bondd.conf:2: address: invalid IPv6 address \"2001:db8::g\""}},
	{"[bond0]\naddress = 10.0.0.1/24 10.0.0.2/24\n",
	 {"bondd.conf:2: address: one address per line"}},
	{"[bond0]\naddress = 10.0.0.1/24\naddress = 10.0.0.1/16\n",
	 {"bondd.conf:3: address: 10.0.0.1 is given twice (line 2)"}},
	{"[bond0]\naddress = 0.0.0.0/0\naddress = ff02::1/64\naddress = ::1/128\n",
	 {"bondd.conf:2: address: 0.0.0.0 is not a usable interface address",
	  "bondd.conf:3: address: ff02::1 is not a usable interface address",
	  "bondd.conf:4: address: ::1 is not a usable interface address"}},
	/* targets and MAC */
	{"[bond0]\narp_interval = 100\narp_ip_target = 10.0.0.1 10.0.0.300\n",
	 {"bondd.conf:3: arp_ip_target: invalid IPv4 address \"10.0.0.300\""}},
	{"[bond0]\narp_interval = 100\narp_ip_target = 10.0.0.1 10.0.0.1\n",
	 {"bondd.conf:3: arp_ip_target: 10.0.0.1 is listed twice"}},
	{"[bond0]\narp_interval = 100\narp_ip_target = 0.0.0.0,255.255.255.255\n",
	 {"bondd.conf:3: arp_ip_target: 0.0.0.0 cannot be a target",
	  "bondd.conf:3: arp_ip_target: 255.255.255.255 cannot be a target"}},
	{"[bond0]\narp_interval = 100\nns_ip6_target = 10.0.0.1 ::1\n",
	 {"bondd.conf:3: ns_ip6_target: invalid IPv6 address \"10.0.0.1\"",
	  "bondd.conf:3: ns_ip6_target: ::1 cannot be a target"}},
	{"[bond0]\narp_interval = 100\narp_ip_target = ,\n",
	 {"bondd.conf:3: arp_ip_target: the list holds no address, and arp_interval 100 needs "
	  "at least one target"}},
	{"[bond0]\narp_interval = 100\nns_ip6_target = , ,\n",
	 {"bondd.conf:3: ns_ip6_target: the list holds no address, and arp_interval 100 needs "
	  "at least one target"}},
	{"[bond0]\nns_ip6_target = ,\narp_ip_target = ,\narp_interval = 100\n",
	 {"bondd.conf:2: ns_ip6_target: the list holds no address, and arp_interval 100 needs "
	  "at least one target",
	  "bondd.conf:3: arp_ip_target: the list holds no address, and arp_interval 100 needs "
	  "at least one target"}},
	{"[bond0]\narp_interval = 100\narp_ip_target =\n",
	 {"bondd.conf:2: arp_interval needs arp_ip_target",
	  "bondd.conf:3: arp_ip_target: empty value"}},
	{"[bond0]\nmode = 802.3ad\nad_actor_system = 01:00:5e:00:00:01\n",
	 {"bondd.conf:3: ad_actor_system: 01:00:5e:00:00:01 is a multicast address"}},
	{"[bond0]\nmode = 802.3ad\nad_actor_system = 00:00:00:00:00:00\n",
	 {"bondd.conf:3: ad_actor_system: 00:00:00:00:00:00 is not a usable system address"}},
	{"[bond0]\nmode = 802.3ad\nad_actor_system = 0:1:2:3:4:5\n",
	 {"bondd.conf:3: ad_actor_system: invalid MAC address \"0:1:2:3:4:5\" (expected "
	  "aa:bb:cc:dd:ee:ff)"}},
	/* bridge */
	{"[bond0]\nbridge = vmbr0123456789ab\n",
	 {"bondd.conf:2: bridge: invalid interface name \"vmbr0123456789ab\": is longer than 15 "
	  "bytes"}},
	{"[bond0]\nbridge = br/0\n",
	 {"bondd.conf:2: bridge: invalid interface name \"br/0\": contains \"/\""}},
	{"[bond0]\nbridge = vmbr0\nbridge = vmbr1\n",
	 {"bondd.conf:3: duplicate key \"bridge\" (first on line 2)"}},
	{"[bond0]\nbridge = bond0\n",
	 {"bondd.conf:2: bridge: bond0 is this bond; name the bridge it is to be a port of"}},
	{"[bond0]\nslaves = e1 e2\nbridge = e2\n",
	 {"bondd.conf:3: bridge: e2 is a slave of this bond (line 2), not a bridge"}},
	{"[bond0]\nbridge = bond1\n[bond1]\nmiimon = 100\n",
	 {"bondd.conf:2: bridge: bond1 is configured as a bond (line 3), not a bridge"}},
	/* mac_address */
	{"[bond0]\nmac_address = 01:00:5e:00:00:01\n",
	 {"bondd.conf:2: mac_address: 01:00:5e:00:00:01 is a multicast address"}},
	{"[bond0]\nmac_address = 00:00:00:00:00:00\n",
	 {"bondd.conf:2: mac_address: 00:00:00:00:00:00 is not a usable address"}},
	{"[bond0]\nmac_address = 02-00-00-00-00-01\n",
	 {"bondd.conf:2: mac_address: invalid MAC address \"02-00-00-00-00-01\" (expected "
	  "aa:bb:cc:dd:ee:ff)"}},
	{"[bond0]\nmac_address = 02:00:00:00:00:01\nmac_address = 02:00:00:00:00:02\n",
	 {"bondd.conf:3: duplicate key \"mac_address\" (first on line 2)"}},
	{"[bond0]\nmode = active-backup\nmiimon = 100\nmac_address = 02:00:00:00:00:01\n"
	 "fail_over_mac = follow\n",
	 {"bondd.conf:4: mac_address cannot be kept with fail_over_mac = follow (line 5): in "
	  "active-backup the bond then takes the active slave's MAC; remove one of them"}},
	{"[bond0]\nmode = 1\nmiimon = 100\nfail_over_mac = 1\nmac_address = 02:00:00:00:00:01\n",
	 {"bondd.conf:5: mac_address cannot be kept with fail_over_mac = active (line 4): in "
	  "active-backup the bond then takes the active slave's MAC; remove one of them"}},
	/* raw bytes */
	{"[bond0]\nmiimon = 1\x7f\n",
	 {"bondd.conf:2: miimon: invalid value \"1\\x7f\" (expected a number 0-2147483647)"}},
	{"[bond0]\nmode = \xc3\xa9t\xc3\xa9\\\n",
	 {"bondd.conf:2: mode: invalid value \"\\xc3\\xa9t\\xc3\\xa9\\x5c\" (expected "
	  "balance-rr, active-backup, balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb "
	  "or 0-6)"}},
};

static void refusals(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		const char *msgs[5] = {0};
		memcpy(msgs, c->msgs, sizeof(c->msgs));
		print_message("case %zu: %s\n", i, c->msgs[0]);
		expect_errors(c->text, msgs);
	}
}

/* head, then "<pre>N<post>" for N in from..to. */
static char *repeat_lines(const char *head, const char *pre, const char *post, int from, int to)
{
	size_t cap = 64 * 1024;
	char *text = malloc(cap);
	size_t o;

	assert_non_null(text);
	o = (size_t)snprintf(text, cap, "%s", head);
	for (int i = from; i <= to; i++) {
		o += (size_t)snprintf(text + o, cap - o, "%s%d%s", pre, i, post);
		assert_true(o < cap);
	}
	return text;
}

static void limits(void **state)
{
	(void)state;
	struct desired d = {0};

	/* 32 slaves fit, 33 do not. */
	char *text = repeat_lines("[bond0]\nslaves =", " eth", "", 1, 32);
	strcat(text, "\n");
	parse_ok(text, &d);
	assert_int_equal(d.bonds[0].n_slaves, BONDD_MAX_SLAVES);
	assert_string_equal(d.bonds[0].slaves[31].name, "eth32");
	desired_free(&d);
	free(text);
	text = repeat_lines("[bond0]\nslaves =", " eth", "", 1, 40);
	strcat(text, "\n");
	expect_errors(text, (const char *const[]){"bondd.conf:2: slaves: more than 32 slaves", NULL});
	free(text);

	/* 16 addresses fit, the 17th (on line 18) does not. */
	text = repeat_lines("[bond0]\n", "address = 10.0.0.", "/24\n", 1, 16);
	parse_ok(text, &d);
	assert_int_equal(d.bonds[0].n_addrs, BONDD_MAX_ADDRS);
	desired_free(&d);
	free(text);
	text = repeat_lines("[bond0]\n", "address = 10.0.0.", "/24\n", 1, 17);
	expect_errors(text,
		      (const char *const[]){"bondd.conf:18: address: more than 16 addresses", NULL});
	free(text);

	/* 17 ARP targets: one message however many there are. */
	text = repeat_lines("[bond0]\narp_interval = 100\narp_ip_target =", " 10.0.1.", "", 1, 20);
	strcat(text, "\n");
	expect_errors(text,
		      (const char *const[]){"bondd.conf:3: arp_ip_target: more than 16 targets", NULL});
	free(text);
}

static char *append(char *text, const char *more)
{
	size_t n = strlen(text), m = strlen(more);
	char *t = realloc(text, n + m + 1);

	assert_non_null(t);
	memcpy(t + n, more, m + 1);
	return t;
}

/* Caps that bound memory on hostile input. */
static void more_limits(void **state)
{
	(void)state;
	struct desired d = {0};

	/* 32 slaves with both per-slave keys each fit; a 65th key does not. */
	char *text = repeat_lines("[bond0]\nmode = active-backup\nslaves =", " eth", "", 1, 32);
	text = append(text, "\n");
	char *qid = repeat_lines("", "slave.eth", ".queue_id = 0\n", 1, 32);
	char *prio = repeat_lines("", "slave.eth", ".prio = 1\n", 1, 32);
	text = append(append(text, qid), prio);
	free(qid);
	free(prio);
	parse_ok(text, &d);
	assert_true(d.bonds[0].slaves[31].has_prio);
	assert_true(d.bonds[0].slaves[31].has_queue_id);
	desired_free(&d);
	text = append(text, "slave.eth99.prio = 1\n");
	expect_errors(text, (const char *const[]){
				    "bondd.conf:68: too many per-slave settings (at most 64)", NULL});
	free(text);

	/* 1024 bonds fit; the 1025th is refused. */
	text = repeat_lines("", "[b", "]\n", 1, 1024);
	parse_ok(text, &d);
	assert_int_equal(d.n_bonds, 1024);
	assert_string_equal(d.bonds[1023].name, "b1024");
	desired_free(&d);
	text = append(text, "[b1025]\n");
	expect_errors(text,
		      (const char *const[]){"bondd.conf:1025: too many bonds (at most 1024)", NULL});
	free(text);
}

static void every_error_is_reported(void **state)
{
	(void)state;
	expect_errors("[bond0]\n"                 /* 1 */
		      "mode = active-backup\n"    /* 2 */
		      "miimonn = 100\n"           /* 3 */
		      "updelay = 100\n"           /* 4: no miimon */
		      "lacp_rate = fast\n"        /* 5: wrong mode */
		      "mtu = 10\n"                /* 6 */
		      "slaves = eth1 eth2\n"      /* 7 */
		      "[bond1]\n"                 /* 8 */
		      "slaves = eth2\n"           /* 9 */
		      "bogus line\n"              /* 10 */
		      "[bond0]\n",                /* 11 */
		      (const char *const[]){
			      "bondd.conf:3: unknown key \"miimonn\"; did you mean \"miimon\"?",
			      "bondd.conf:4: updelay needs miimon",
			      "bondd.conf:5: lacp_rate does not apply to mode active-backup",
			      "bondd.conf:6: mtu: 10 is out of range 68-65535",
			      "bondd.conf:9: eth2 is already a slave of bond0 (line 7)",
			      "bondd.conf:10: malformed line (expected \"key = value\" or \"[NAME]\")",
			      "bondd.conf:11: [bond0] is already defined (line 1)",
			      NULL});
}

static void error_leaves_out_untouched(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};

	parse_ok("[bond7]\nslaves = eth7\n", &d);
	struct desired_bond *before = d.bonds;
	assert_int_equal(parse("[bond0]\nslaves = eth1\nmtu = 1\n", &d, &diag), -EINVAL);
	assert_ptr_equal(d.bonds, before);
	assert_int_equal(d.n_bonds, 1);
	assert_string_equal(d.bonds[0].name, "bond7");
	assert_string_equal(d.bonds[0].slaves[0].name, "eth7");
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	config_diag_free(&diag);
	assert_null(diag.items);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	desired_free(&d);
}

static void diag_appends(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(parse("[bond0]\nx = 1\n", &d, &diag), -EINVAL);
	assert_int_equal(config_parse("other.conf", "[b]\ny = 1\n", 10, &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 2);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), "bondd.conf:2: unknown key \"x\"");
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 1), "other.conf:2: unknown key \"y\"");
	config_diag_free(&diag);

	/* No diag at all: still refused. */
	assert_int_equal(parse("[bond0]\nx = 1\n", &d, NULL), -EINVAL);
	assert_null(d.bonds);
}

static void nul_byte(void **state)
{
	(void)state;
	static const char text[] = "[bond0]\nmii\0mon = 100\nmtu = 1500\nfoo = 1\n";
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(config_parse(FILE_NAME, text, sizeof(text) - 1, &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 2);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), "bondd.conf:2: NUL byte in line");
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 1), "bondd.conf:4: unknown key \"foo\"");
	config_diag_free(&diag);
	assert_null(d.bonds);
}

/* The text need not end in NUL: the parser must not read past len. */
static void not_nul_terminated(void **state)
{
	(void)state;
	static const char text[] = "[bond0]\nmtu = 1500";
	struct desired d = {0};
	char *copy = malloc(sizeof(text) - 1);

	assert_non_null(copy);
	memcpy(copy, text, sizeof(text) - 1); /* ASan catches a read past the end */
	assert_int_equal(config_parse(FILE_NAME, copy, sizeof(text) - 1, &d, NULL), 0);
	assert_int_equal(d.bonds[0].mtu, 1500);
	desired_free(&d);
	/* Cut inside the value: "mtu = 15". */
	assert_int_equal(config_parse(FILE_NAME, copy, sizeof(text) - 3, &d, NULL), -EINVAL);
	free(copy);
}

static void overlong_line(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t len = 3 * 4096;
	char *text = malloc(len + 64);

	assert_non_null(text);
	/* Exactly 4096 bytes is still a line. */
	int o = snprintf(text, len, "[bond0]\n#");
	memset(text + o, 'x', 4095);
	o += 4095;
	o += snprintf(text + o, 64, "\nmiimon = 1\n");
	assert_int_equal(parse(text, &d, &diag), 0);
	assert_int_equal(d.bonds[0].opts.val[OPT_MIIMON], 1);
	desired_free(&d);

	o = snprintf(text, len, "[bond0]\nslaves = ");
	memset(text + o, 'y', 2 * 4096);
	o += 2 * 4096;
	o += snprintf(text + o, 64, "\nmiimon = x\n");
	assert_int_equal(parse(text, &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 2);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0),
			    "bondd.conf:2: line too long (more than 4096 bytes)");
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 1),
			    "bondd.conf:3: miimon: invalid value \"x\" (expected a number 0-2147483647)");
	config_diag_free(&diag);
	free(text);
}

/* Long garbage is quoted shortened in messages, never in full. */
static void long_values_are_cut(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	char text[512], expect[512];

	snprintf(text, sizeof(text), "[bond0]\nmiimon = %0200d\n", 9);
	memset(text + strlen("[bond0]\nmiimon = "), '9', 200);
	snprintf(expect, sizeof(expect), "bondd.conf:2: miimon: %064d... is out of range 0-2147483647",
		 9);
	memset(expect + strlen("bondd.conf:2: miimon: "), '9', 64);
	assert_int_equal(parse(text, &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), expect);
	config_diag_free(&diag);
}

static void too_many_errors(void **state)
{
	(void)state;
	char *text = repeat_lines("", "junk ", "\n", 1, 5000);
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(parse(text, &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1001);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 999),
			    "bondd.conf:1000: malformed line (expected \"key = value\" or \"[NAME]\")");
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 1000),
			    "bondd.conf:1000: too many errors, giving up");
	config_diag_free(&diag);
	free(text);

	/* The section's warnings still come, after the last error. */
	text = repeat_lines("[bond0]\nslaves = e1\n", "junk ", "\n", 1, 1000);
	assert_int_equal(parse(text, &d, &diag), -EINVAL);
	assert_int_equal(diag.n_items, 1003);
	assert_int_equal(diag.items[999].severity, CONFIG_ERROR);
	assert_string_equal(diag.items[1000].text, "too many errors, giving up");
	assert_int_equal(diag.items[1000].severity, CONFIG_ERROR);
	assert_int_equal(diag.items[1000].line, 1002);
	assert_int_equal(diag.items[1001].severity, CONFIG_WARNING);
	assert_int_equal(diag.items[1002].severity, CONFIG_WARNING);
	assert_int_equal(diag.items[1002].line, 1);
	config_diag_free(&diag);
	free(text);
}

/* Arbitrary bytes and near-valid lines must never crash or leak. */
static void random_input(void **state)
{
	(void)state;
	static const char *const pieces[] = {
		"[bond0]", "[bond1]", "[", "]", "=", " ", "\t", "\n", "\n", "\n", "#", ",", "\0",
		"\r", "\xff", "mode", "miimon", "slaves", "address", "slave.eth1.prio",
		"slave.eth1.queue_id", "primary", "arp_ip_target", "ns_ip6_target",
		"ad_actor_system", "arp_interval", "updelay", "eth1", "eth2", "bond0", "100",
		"0", "-1", "99999999999999999999", "802.3ad", "active-backup", "10.0.0.1",
		"10.0.0.1/24", "::1", "2001:db8::1/64", "02:00:00:00:00:01", "/", ".", "..",
	};
	uint32_t seed = 12345;
	char text[2048];

	for (int round = 0; round < 4000; round++) {
		size_t len = 0;
		while (len < sizeof(text) - 64) {
			seed = seed * 1103515245u + 12345u;
			uint32_t r = seed >> 8;
			if (r % 7 == 0) {
				text[len++] = (char)(r >> 8);
			} else {
				const char *piece = pieces[r % (sizeof(pieces) / sizeof(pieces[0]))];
				size_t n = piece[0] ? strlen(piece) : 1;
				memcpy(text + len, piece, n);
				len += n;
			}
			if ((r >> 20) % 97 == 0)
				break;
		}
		struct desired d = {0};
		struct config_diag diag = {0};
		int rc = config_parse(FILE_NAME, text, len, &d, &diag);
		assert_true(rc == 0 || rc == -EINVAL);
		if (rc == 0) {
			assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
			for (size_t i = 0; i < d.n_bonds; i++) {
				assert_true(d.bonds[i].n_slaves <= BONDD_MAX_SLAVES);
				assert_true(d.bonds[i].n_addrs <= BONDD_MAX_ADDRS);
				assert_true(strlen(d.bonds[i].name) > 0);
			}
		} else {
			assert_true(config_diag_count(&diag, CONFIG_ERROR) > 0);
			assert_null(d.bonds);
		}
		desired_free(&d);
		config_diag_free(&diag);
	}
}

/* ---- config_load ----------------------------------------------------- */

static char *temp_file(const char *content, size_t len)
{
	char *path = strdup("/tmp/test_config.XXXXXX");
	assert_non_null(path);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

static void load_missing_file(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(config_load("/nonexistent/bondd/bondd.conf", &d, &diag), -ENOENT);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0),
			    "/nonexistent/bondd/bondd.conf: cannot read: No such file or directory");
	assert_null(d.bonds);
	config_diag_free(&diag);

	assert_int_equal(config_load("/tmp", &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), "/tmp: not a regular file; not reading it");
	config_diag_free(&diag);
}

/* A FIFO would block the daemon's only thread: refused at once, unread. */
static void load_fifo_refused(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	char path[] = "/tmp/bondd-test-fifo-XXXXXX";
	char expect[128];

	assert_non_null(mkdtemp(path));
	char fifo[sizeof(path) + 8];
	snprintf(fifo, sizeof(fifo), "%s/conf", path);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(config_load(fifo, &d, &diag), -EINVAL);
	snprintf(expect, sizeof(expect), "%s: not a regular file; not reading it", fifo);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), expect);
	config_diag_free(&diag);
	unlink(fifo);
	rmdir(path);
}

/* A file caught mid-write (no final newline) is not used. */
static void load_cut_file_refused(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	char *path = temp_file("[bond0]\nslaves = e1 e2\n[bond1]\nsla", 34);
	char expect[160];

	assert_int_equal(config_load(path, &d, &diag), -EINVAL);
	snprintf(expect, sizeof(expect),
		 "%s: the last line has no newline: the file may have been cut while being "
		 "written; not using it", path);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), expect);
	assert_null(d.bonds);
	config_diag_free(&diag);
	unlink(path);
	free(path);
}

static void load_file(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	char *path = temp_file(example, strlen(example));
	char expect[128];

	assert_int_equal(config_load(path, &d, &diag), 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	assert_int_equal(d.n_bonds, 1);
	assert_int_equal(d.bonds[0].n_slaves, 4);
	desired_free(&d);
	unlink(path);
	free(path);

	path = temp_file("[bond0]\nmtu = 0\n", 16);
	assert_int_equal(config_load(path, &d, &diag), -EINVAL);
	snprintf(expect, sizeof(expect), "%s:2: mtu: 0 is out of range 68-65535", path);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), expect);
	config_diag_free(&diag);
	unlink(path);
	free(path);
}

static void load_too_large(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t len = 1024 * 1024 + 1;
	char *big = malloc(len);
	char expect[128];

	assert_non_null(big);
	memset(big, '\n', len);
	char *path = temp_file(big, len);
	assert_int_equal(config_load(path, &d, &diag), -EFBIG);
	snprintf(expect, sizeof(expect), "%s: too large (more than 1048576 bytes)", path);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), expect);
	config_diag_free(&diag);
	unlink(path);
	free(path);

	/* Exactly the limit is fine. */
	path = temp_file(big, len - 1);
	assert_int_equal(config_load(path, &d, &diag), 0);
	assert_int_equal(d.n_bonds, 0);
	unlink(path);
	free(path);
	free(big);
}

/* One empty list is fine while the other one holds a target. */
static void one_empty_target_list(void **state)
{
	(void)state;
	struct desired d = {0};

	parse_ok("[bond0]\nmode = active-backup\narp_interval = 100\n"
		 "arp_ip_target = 10.0.0.1\nns_ip6_target = ,\n", &d);
	assert_int_equal(d.bonds[0].opts.n_arp_ip_target, 1);
	assert_int_equal(d.bonds[0].opts.n_ns_ip6_target, 0);
	assert_true(bond_settings_has(&d.bonds[0].opts, OPT_NS_IP6_TARGET));
	desired_free(&d);
}

/* The largest file the limits allow: 1024 bonds of 32 slaves.  Parsed in
 * full and right (bench/config-parse measures how fast). */
static char *big_config(size_t *len)
{
	size_t cap = 512 * 1024, o = 0;
	char *text = malloc(cap);

	assert_non_null(text);
	for (int b = 0; b < 1024; b++) {
		o += (size_t)snprintf(text + o, cap - o, "[b%d]\nmtu = 9000\nslaves =", b);
		for (int i = 0; i < 32; i++)
			o += (size_t)snprintf(text + o, cap - o, " s%d.%d", b, i);
		o += (size_t)snprintf(text + o, cap - o, "\n");
		assert_true(o < cap);
	}
	*len = o;
	return text;
}

static void largest_file(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t len;
	char *text = big_config(&len);

	assert_int_equal(config_parse(FILE_NAME, text, len, &d, &diag), 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	assert_int_equal(d.n_bonds, 1024);
	for (size_t b = 0; b < d.n_bonds; b++) {
		char name[32];
		snprintf(name, sizeof(name), "b%zu", b);
		assert_string_equal(d.bonds[b].name, name);
		assert_int_equal(d.bonds[b].line, 3 * b + 1);
		assert_int_equal(d.bonds[b].n_slaves, 32);
		snprintf(name, sizeof(name), "s%zu.31", b);
		assert_string_equal(d.bonds[b].slaves[31].name, name);
	}
	assert_string_equal(d.bonds[1023].name, "b1023");
	assert_string_equal(d.bonds[1023].slaves[0].name, "s1023.0");
	desired_free(&d);
	config_diag_free(&diag); /* the warnings: no miimon, no mtu */

	/* The lookups that the hash tables answer, at that size: a slave
	 * taken twice (first and last bond), a bond that is a slave of a
	 * later section, a bond defined twice. */
	memcpy(strstr(text, "s1023.5 "), "s0.17   ", 8);
	memcpy(strstr(text, "[b1000]"), "[s51.3]", 7);
	char *tail = realloc(text, len + 64);
	assert_non_null(tail);
	text = tail;
	len += (size_t)snprintf(text + len, 64, "[b7]\n");
	expect_errors(text, (const char *const[]){
		"bondd.conf:156: s51.3 is configured as a bond (line 3001) and cannot be a slave",
		"bondd.conf:3072: s0.17 is already a slave of b0 (line 3)",
		"bondd.conf:3073: [b7] is already defined (line 22)",
		NULL});
	free(text);
}

/* ---- hints: near misses and other tools' keys --------------------------- */

/* The one message a one-line [bond0] body gets. */
static void expect_one(const char *text, const char *msg)
{
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(parse(text, &d, &diag), -EINVAL);
	if (config_diag_count(&diag, CONFIG_ERROR) != 1 ||
	    strcmp(diag_line(&diag, CONFIG_ERROR, 0), msg) != 0) {
		print_diag(&diag);
		print_error("expected: %s\n", msg);
	}
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0), msg);
	config_diag_free(&diag);
}

static void hints_near_misses(void **state)
{
	(void)state;
	expect_one("[bond0]\nmiimom = 100\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"miimom\"; did you mean \"miimon\"?");
	expect_one("[bond0]\nxmit_hash_polcy = layer2\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"xmit_hash_polcy\"; did you mean \"xmit_hash_policy\"?");
	expect_one("[bond0]\nadress = 10.0.0.1/24\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"adress\"; did you mean \"address\"?");
	/* Far from everything: no guess. */
	expect_one("[bond0]\nspeed = 1000\nmtu = 1500\n", "bondd.conf:2: unknown key \"speed\"");
	/* Value names. */
	expect_one("[bond0]\nmode = 802.3ad\nxmit_hash_policy = layer34\nmtu = 1500\n",
		   "bondd.conf:3: xmit_hash_policy: invalid value \"layer34\" (expected layer2, "
		   "layer3+4, layer2+3, encap2+3, encap3+4, vlan+srcmac or 0-5); did you mean "
		   "\"layer3+4\"?");
	expect_one("[bond0]\nmode = lacp\nmtu = 1500\n",
		   "bondd.conf:2: mode: invalid value \"lacp\" (expected balance-rr, active-backup, "
		   "balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb or 0-6); did you mean "
		   "\"802.3ad\"?");
	expect_one("[bond0]\nmode = active_backup\nmtu = 1500\n",
		   "bondd.conf:2: mode: invalid value \"active_backup\" (expected balance-rr, "
		   "active-backup, balance-xor, broadcast, 802.3ad, balance-tlb, balance-alb or 0-6); "
		   "did you mean \"active-backup\"?");
	expect_one("[bond0]\nmiimon = 1s\nmtu = 1500\n",
		   "bondd.conf:2: miimon: invalid value \"1s\" (expected a number 0-2147483647); the "
		   "value is in milliseconds, without a unit: did you mean 1000?");
}

static void hints_networkd_keys(void **state)
{
	(void)state;
	/* systemd.netdev(5): a bare number in a *Sec= setting is seconds. */
	expect_one("[bond0]\nMIIMonitorSec = 1s\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"MIIMonitorSec\"; that is systemd-networkd's [Bond] "
		   "setting: write \"miimon = 1000\"");
	expect_one("[bond0]\nMIIMonitorSec = 100ms\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"MIIMonitorSec\"; that is systemd-networkd's [Bond] "
		   "setting: write \"miimon = 100\"");
	expect_one("[bond0]\nUpDelaySec = 2\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"UpDelaySec\"; that is systemd-networkd's [Bond] "
		   "setting: write \"updelay = 2000\"");
	expect_one("[bond0]\nMode = 802.3ad\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"Mode\"; that is systemd-networkd's [Bond] setting: "
		   "write \"mode = 802.3ad\"");
	expect_one("[bond0]\nTransmitHashPolicy = layer3+4\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"TransmitHashPolicy\"; that is systemd-networkd's "
		   "[Bond] setting: write \"xmit_hash_policy = layer3+4\"");
	expect_one("[bond0]\nLACPTransmitRate = fast\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"LACPTransmitRate\"; that is systemd-networkd's "
		   "[Bond] setting: write \"lacp_rate = fast\"");
	expect_one("[bond0]\nAllSlavesActive = yes\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"AllSlavesActive\"; that is systemd-networkd's "
		   "[Bond] setting: write \"all_slaves_active = 1\"");
	expect_one("[bond0]\nMTUBytes = 9K\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"MTUBytes\"; that is a systemd-networkd .network "
		   "setting: write \"mtu = 9216\"");
	expect_one("[bond0]\nBond = bond0\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"Bond\"; that is a systemd-networkd .network "
		   "setting: list the slave in the bond's section: slaves = NIC1 NIC2 (in bond "
		   "order)");
	/* A value that is not a time span: the key and the unit, no line. */
	expect_one("[bond0]\nMIIMonitorSec = soon\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"MIIMonitorSec\"; that is systemd-networkd's [Bond] "
		   "setting: bondd's key is miimon, and miimon is in milliseconds");
}

static void hints_ifcfg_and_nm_keys(void **state)
{
	(void)state;
	expect_one("[bond0]\nBONDING_OPTS = \"mode=4 miimon=100 lacp_rate=1\"\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"BONDING_OPTS\"; that is an ifcfg variable: write "
		   "one line per option: \"mode = 4\", \"miimon = 100\", \"lacp_rate = 1\" "
		   "(bondd-import(8) converts whole ifcfg files)");
	expect_one("[bond0]\nBONDING_OPTS = 'arp_interval=200 arp_ip_target=+10.0.0.1'\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"BONDING_OPTS\"; that is an ifcfg variable: write "
		   "one line per option: \"arp_interval = 200\", \"arp_ip_target = 10.0.0.1\" "
		   "(bondd-import(8) converts whole ifcfg files)");
	expect_one("[bond0]\nMTU = 9000\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"MTU\"; that is an ifcfg variable: write \"mtu = 9000\"");
	expect_one("[bond0]\nIPADDR = 10.0.0.1\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"IPADDR\"; that is an ifcfg variable: write address "
		   "= IPADDR/PREFIX");
	expect_one("[bond0]\ncontroller = bond0\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"controller\"; that is a NetworkManager keyfile key: "
		   "list the port in the bond's section: slaves = NIC1 NIC2 (in bond order)");
	/* Bytes that cannot be quoted back are not. */
	expect_one("[bond0]\nMode = \"x\"\nmtu = 1500\n",
		   "bondd.conf:2: unknown key \"Mode\"; that is systemd-networkd's [Bond] setting: "
		   "bondd's key is mode");
}

static void hint_helpers(void **state)
{
	(void)state;
	assert_int_equal(config_hint_distance("miimon", "miimon"), 0);
	assert_int_equal(config_hint_distance("MIIMON", "miimon"), 0);
	assert_int_equal(config_hint_distance("miimom", "miimon"), 1);
	assert_int_equal(config_hint_distance("mimion", "miimon"), 1); /* a swap */
	assert_int_equal(config_hint_distance("", "abc"), 3);
	char big[100];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(config_hint_distance(big, "a"), 255);

	assert_int_equal(config_hint_timespan_ms("100ms", 1000), 100);
	assert_int_equal(config_hint_timespan_ms("1s 500ms", 1000), 1500);
	assert_int_equal(config_hint_timespan_ms("2min", 1000), 120000);
	assert_int_equal(config_hint_timespan_ms("3", 1000), 3000);
	assert_int_equal(config_hint_timespan_ms("3", -1), -1);
	assert_int_equal(config_hint_timespan_ms("1500us", 1000), -1); /* not whole ms */
	assert_int_equal(config_hint_timespan_ms("2000us", 1000), 2);
	assert_int_equal(config_hint_timespan_ms("1 fortnight", 1000), -1);
	assert_int_equal(config_hint_timespan_ms("", 1000), -1);
	assert_int_equal(config_hint_timespan_ms("99999999999999", 1000), -1);
}

/* ---- warnings --------------------------------------------------------- */

static void expect_warnings(const char *text, const char *const *want)
{
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t n = 0;

	assert_int_equal(parse(text, &d, &diag), 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	while (want[n])
		n++;
	for (size_t i = 0; i < config_diag_count(&diag, CONFIG_WARNING); i++)
		print_message("warning: %s\n", diag_line(&diag, CONFIG_WARNING, i));
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(diag_line(&diag, CONFIG_WARNING, i), want[i]);
	config_diag_free(&diag);
	desired_free(&d);
}

static void warnings(void **state)
{
	(void)state;
	const char *none[] = {NULL};
	const char *rr[] = {"bondd.conf:1: warning: [bond0]: mode balance-rr without link "
			    "monitoring (neither miimon nor arp_interval): a failed link is "
			    "never noticed and keeps getting traffic; write miimon = 100",
			    NULL};
	const char *ab_mtu[] = {"bondd.conf:4: warning: [bond1]: mode active-backup without "
				"link monitoring (neither miimon nor arp_interval): a failed link "
				"is never noticed and keeps getting traffic; write miimon = 100",
				"bondd.conf:4: warning: [bond1]: no mtu: the bond and its slaves "
				"get MTU 9000 (bondd's default), which every switch port and peer "
				"on the path must carry; write mtu = 9000 to keep it, or mtu = 1500",
				NULL};

	expect_warnings("[bond0]\nmtu = 1500\nslaves = e1\n", rr);
	expect_warnings("[bond0]\nmiimon = 0\nmtu = 1500\n", rr);
	expect_warnings("[bond0]\nmiimon = 100\nmtu = 1500\n[bond1]\nmode = active-backup\n", ab_mtu);
	/* Either monitor silences it. */
	expect_warnings("[bond0]\nmode = active-backup\narp_interval = 100\n"
			"arp_ip_target = 10.0.0.1\nmtu = 1500\n", none);
	expect_warnings("[bond0]\nmode = balance-xor\nmiimon = 50\nmtu = 9000\n", none);
	/* Modes without an ARP monitor get miimon 100 from the kernel anyway. */
	expect_warnings("[bond0]\nmode = 802.3ad\nmtu = 1500\n", none);
	expect_warnings("[bond0]\nmode = balance-alb\nmtu = 1500\n", none);
	/* The example file is warning-free. */
	expect_warnings(example, none);

	/* What the kernel takes but ignores or changes
	 * (drivers/net/bonding/bond_options.c): kept, with a warning. */
	const char *rounded[] = {"bondd.conf:3: warning: updelay: 250 is not a multiple of "
				 "miimon (100): the kernel rounds it down to 200; write 200", NULL};
	expect_warnings("[bond0]\nmiimon = 100\nupdelay = 250\nmtu = 1500\n", rounded);
	const char *ad_down[] = {"bondd.conf:2: warning: downdelay: 150 is not a multiple of "
				 "miimon (100): the kernel rounds it down to 100; write 100", NULL};
	expect_warnings("[bond0]\ndowndelay = 150\nmode = 802.3ad\nmtu = 1500\n", ad_down);
	/* systemd-networkd's ARPMissedMax= beside MIIMonitorSec= */
	const char *no_arp[] = {"bondd.conf:4: warning: arp_missed_max has no effect without "
				"arp_interval: the kernel keeps it for when the ARP monitor runs",
				NULL};
	expect_warnings("[bond0]\nmode = active-backup\nmiimon = 100\narp_missed_max = 10\n"
			"mtu = 1500\n", no_arp);
	const char *no_arp3[] = {"bondd.conf:3: warning: arp_validate has no effect without "
				 "arp_interval: the kernel keeps it for when the ARP monitor runs",
				 "bondd.conf:4: warning: arp_all_targets has no effect without "
				 "arp_interval: the kernel keeps it for when the ARP monitor runs",
				 "bondd.conf:5: warning: arp_ip_target has no effect without "
				 "arp_interval: the kernel keeps it for when the ARP monitor runs",
				 NULL};
	expect_warnings("[bond0]\nmiimon = 100\narp_validate = all\narp_all_targets = all\n"
			"arp_ip_target = 10.0.0.1\nmtu = 1500\n", no_arp3);
	const char *hash[] = {"bondd.conf:3: warning: xmit_hash_policy has no effect in mode "
			      "balance-rr: the kernel keeps it but does not use it there", NULL};
	expect_warnings("[bond0]\nmiimon = 100\nxmit_hash_policy = layer3+4\nmtu = 1500\n", hash);
	const char *ad_arp[] = {"bondd.conf:3: warning: arp_ip_target has no effect in mode "
				"802.3ad: the kernel keeps it but does not use it there", NULL};
	expect_warnings("[bond0]\nmode = 802.3ad\narp_ip_target = 10.0.0.1\nmtu = 1500\n", ad_arp);
}

/* A value the running kernel refuses is an error at its line, with the
 * kernel known; unknown (0), the file is taken as before. */
static void kernel_refusals(void **state)
{
	(void)state;
	static const char text[] = "[bond0]\nmode = 802.3ad\nmtu = 1500\n"
				   "ad_select = actor_port_prio\nslaves = e1 e2\n";
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(config_parse_kernel("bondd.conf", text, strlen(text), KVER(6, 1), &d, &diag),
			 -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag_line(&diag, CONFIG_ERROR, 0),
			    "bondd.conf:4: ad_select = actor_port_prio needs Linux 6.18 or later; "
			    "this is 6.1: the kernel refuses it; bondd changes nothing for it");
	assert_null(d.bonds);
	config_diag_free(&diag);

	assert_int_equal(config_parse_kernel("bondd.conf", text, strlen(text), KVER(7, 2), &d, &diag),
			 0);
	assert_int_equal(d.bonds[0].opts.val[OPT_AD_SELECT], 3);
	desired_free(&d);
	config_diag_free(&diag);
	assert_int_equal(parse(text, &d, &diag), 0);
	desired_free(&d);
	config_diag_free(&diag);

	/* use_carrier = off from 6.18 on */
	static const char uc[] = "[bond0]\nmiimon = 100\nmtu = 1500\nuse_carrier = off\n";
	assert_int_equal(config_parse_kernel("bondd.conf", uc, strlen(uc), KVER(6, 18), &d, &diag),
			 -EINVAL);
	assert_non_null(strstr(diag_line(&diag, CONFIG_ERROR, 0),
			       "bondd.conf:4: use_carrier = off is refused by Linux 6.18"));
	config_diag_free(&diag);
	assert_int_equal(config_parse_kernel("bondd.conf", uc, strlen(uc), KVER(6, 1), &d, &diag), 0);
	desired_free(&d);
	config_diag_free(&diag);
}

/* A value the kernel keeps while ignoring it is in the result, so that bondd
 * sets it and compares it with what the kernel reports. */
static void ignored_options_are_kept(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(parse("[bond0]\nmode = active-backup\nmiimon = 100\nupdelay = 250\n"
			       "arp_missed_max = 10\nmtu = 1500\n", &d, &diag), 0);
	assert_int_equal(d.n_bonds, 1);
	assert_true(bond_settings_has(&d.bonds[0].opts, OPT_MISSED_MAX));
	assert_int_equal(d.bonds[0].opts.val[OPT_MISSED_MAX], 10);
	assert_int_equal(d.bonds[0].opts.val[OPT_UPDELAY], 200);
	config_diag_free(&diag);
	desired_free(&d);
}

/* A config with errors still reports its warnings, after them. */
static void warnings_beside_errors(void **state)
{
	(void)state;
	struct desired d = {0};
	struct config_diag diag = {0};

	assert_int_equal(parse("[bond0]\nmiimonn = 1\n", &d, &diag), -EINVAL);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), 2);
	config_diag_free(&diag);
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), 0);
	assert_null(diag.items);
}

/* ---- drop-ins --------------------------------------------------------- */

struct conf_dir {
	char root[64];
	char main[128];
	char dir[160];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	fclose(f);
}

static void conf_dir_new(struct conf_dir *c, const char *main_text)
{
	snprintf(c->root, sizeof(c->root), "/tmp/test_config_d.XXXXXX");
	assert_non_null(mkdtemp(c->root));
	snprintf(c->main, sizeof(c->main), "%s/bondd.conf", c->root);
	snprintf(c->dir, sizeof(c->dir), "%s/bondd.conf.d", c->root);
	put(c->main, main_text);
	assert_int_equal(mkdir(c->dir, 0755), 0);
}

static void conf_dir_put(const struct conf_dir *c, const char *name, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", c->dir, name);
	put(path, text);
}

static void conf_dir_free(struct conf_dir *c)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", c->root);
	assert_int_equal(system(cmd), 0);
}

static void dropin_dir_name(void **state)
{
	(void)state;
	char *dir = config_dropin_dir("/etc/bondd/bondd.conf");
	assert_string_equal(dir, "/etc/bondd/bondd.conf.d");
	free(dir);
}

static void dropins_in_lexical_order(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "20-second.conf", "[bond2]\nmiimon = 100\nmtu = 1500\nslaves = e4\n");
	conf_dir_put(&c, "10-first.conf", "[bond1]\nmiimon = 100\nmtu = 1500\nslaves = e3\n");
	/* Not drop-ins: hidden, another suffix, a package manager's copy. */
	conf_dir_put(&c, ".hidden.conf", "garbage\n");
	conf_dir_put(&c, "README", "garbage\n");
	conf_dir_put(&c, "30-x.conf.dpkg-old", "garbage\n");
	conf_dir_put(&c, ".conf", "garbage\n");

	assert_int_equal(config_load(c.main, &d, &diag), 0);
	print_diag(&diag);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), 0);
	assert_int_equal(d.n_bonds, 3);
	assert_string_equal(d.bonds[0].name, "bond0");
	assert_string_equal(d.bonds[1].name, "bond1");
	assert_string_equal(d.bonds[2].name, "bond2");
	assert_int_equal(d.bonds[2].mtu, 1500);
	desired_free(&d);
	conf_dir_free(&c);
}

/* Per-host addresses: the main file is the same everywhere, a drop-in adds
 * this host's address to its bond. */
static void dropin_adds_addresses(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n"
			 "address = 10.0.0.1/24\n");
	conf_dir_put(&c, "host.conf", "# this host\n[bond0]\naddress = 10.0.1.5/24\n"
				      "address = fd00::5/64\n");
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	print_diag(&diag);
	assert_int_equal(d.n_bonds, 1);
	assert_int_equal(d.bonds[0].n_slaves, 2);
	assert_int_equal(d.bonds[0].n_addrs, 3);
	assert_int_equal(d.bonds[0].addrs[1].prefixlen, 24);
	assert_int_equal(d.bonds[0].addrs[2].family, AF_INET6);
	assert_int_equal(d.bonds[0].line, 1);
	desired_free(&d);
	config_diag_free(&diag);
	conf_dir_free(&c);
}

/* want with {M} replaced by the main file's path, {D} by the drop-in directory. */
static void expand(const char *want, const struct conf_dir *c, char *out, size_t len)
{
	size_t o = 0;

	for (const char *w = want; *w && o + 1 < len; w++) {
		const char *sub = strncmp(w, "{M}", 3) == 0 ? c->main :
				  strncmp(w, "{D}", 3) == 0 ? c->dir : NULL;
		if (sub) {
			o += (size_t)snprintf(out + o, len - o, "%s", sub);
			w += 2;
		} else {
			out[o++] = *w;
		}
	}
	out[o < len ? o : len - 1] = '\0';
}

static void expect_load_errors(const struct conf_dir *c, const char *const *want)
{
	struct desired d = {0};
	struct config_diag diag = {0};
	size_t n = 0;

	assert_int_not_equal(config_load(c->main, &d, &diag), 0);
	assert_null(d.bonds);
	while (want[n])
		n++;
	if (config_diag_count(&diag, CONFIG_ERROR) != n)
		print_diag(&diag);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), n);
	for (size_t i = 0; i < n; i++) {
		char expect[512];
		expand(want[i], c, expect, sizeof(expect));
		assert_string_equal(diag_line(&diag, CONFIG_ERROR, i), expect);
	}
	config_diag_free(&diag);
}

static void dropin_errors_name_both_files(void **state)
{
	(void)state;
	struct conf_dir c;

	/* A bond defined again: each key but address names the first place. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "10-a.conf", "[bond0]\nmode = active-backup\nslaves = e3\n");
	const char *twice[] = {
		"{D}/10-a.conf:2: mode: [bond0] is already defined ({M}:1); a section in "
		"another file may only add address lines to it",
		"{D}/10-a.conf:3: slaves: [bond0] is already defined ({M}:1); a section in "
		"another file may only add address lines to it",
		NULL};
	expect_load_errors(&c, twice);
	conf_dir_free(&c);

	/* A slave of two bonds, a bond as another's slave, an address twice. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\naddress = 10.0.0.1/24\n");
	conf_dir_put(&c, "10-a.conf", "[bond1]\nmiimon = 100\nmtu = 9000\nslaves = e2 bond0\n");
	conf_dir_put(&c, "20-b.conf", "[bond0]\naddress = 10.0.0.1/24\n");
	const char *cross[] = {
		"{D}/10-a.conf:4: e2 is already a slave of bond0 ({M}:4)",
		"{D}/10-a.conf:4: bond0 is configured as a bond ({M}:1) and cannot be a slave",
		"{D}/20-b.conf:2: address: 10.0.0.1 is given twice ({M}:1)",
		NULL};
	expect_load_errors(&c, cross);
	conf_dir_free(&c);

	/* The main file's errors come first, then each drop-in's in order. */
	conf_dir_new(&c, "[bond0]\nmiimonn = 1\n");
	conf_dir_put(&c, "b.conf", "[bond2]\nx = 1\nslaves = e4\n");
	conf_dir_put(&c, "a.conf", "[bond1]\nmtu = 1\nslaves = e3\n");
	const char *order[] = {
		"{M}:2: unknown key \"miimonn\"; did you mean \"miimon\"?",
		"{D}/a.conf:2: mtu: 1 is out of range 68-65535",
		"{D}/b.conf:2: unknown key \"x\"",
		NULL};
	expect_load_errors(&c, order);
	conf_dir_free(&c);

	/* An unreadable drop-in fails the load. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\n");
	char sub[200];
	snprintf(sub, sizeof(sub), "%s/x.conf", c.dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	const char *unreadable[] = {"{D}/x.conf: not a regular file; not reading it", NULL};
	expect_load_errors(&c, unreadable);
	conf_dir_free(&c);
}

/* One diagnostic as data, and as the line people read. */
static void expect_diagnostic(const struct config_diagnostic *e, const char *file, unsigned line,
			      enum config_severity severity, const char *text, const char *shown)
{
	assert_string_equal(e->file, file);
	assert_int_equal(e->line, line);
	assert_int_equal(e->severity, severity);
	assert_string_equal(e->text, text);
	char *formatted = config_diagnostic_format(e);
	assert_string_equal(formatted, shown);
	free(formatted);
}

/* Each diagnostic carries its file, line and severity, from the main file
 * and from a drop-in: errors first, each in order of file then line (the
 * drop-in's line 2 after the main file's line 3), then the warnings. */
static void diagnostics_are_data(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};
	char drop[256], shown[1024];
	const char *no_mtu = "no mtu: the bond and its slaves get MTU 9000 (bondd's default), "
			     "which every switch port and peer on the path must carry; write "
			     "mtu = 9000 to keep it, or mtu = 1500";
	char text[512];

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nbogus = 1\nslaves = e1\n");
	conf_dir_put(&c, "10-x.conf", "[bond1]\nfoo = 1\nmiimon = 100\nslaves = e2\n");
	snprintf(drop, sizeof(drop), "%s/10-x.conf", c.dir);
	assert_int_equal(config_load(c.main, &d, &diag), -EINVAL);
	if (diag.n_items != 4)
		print_diag(&diag);
	assert_int_equal(diag.n_items, 4);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 2);
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), 2);

	snprintf(shown, sizeof(shown), "%s:3: unknown key \"bogus\"", c.main);
	expect_diagnostic(&diag.items[0], c.main, 3, CONFIG_ERROR, "unknown key \"bogus\"", shown);
	snprintf(shown, sizeof(shown), "%s:2: unknown key \"foo\"", drop);
	expect_diagnostic(&diag.items[1], drop, 2, CONFIG_ERROR, "unknown key \"foo\"", shown);
	snprintf(text, sizeof(text), "[bond0]: %s", no_mtu);
	snprintf(shown, sizeof(shown), "%s:1: warning: %s", c.main, text);
	expect_diagnostic(&diag.items[2], c.main, 1, CONFIG_WARNING, text, shown);
	snprintf(text, sizeof(text), "[bond1]: %s", no_mtu);
	snprintf(shown, sizeof(shown), "%s:1: warning: %s", drop, text);
	expect_diagnostic(&diag.items[3], drop, 1, CONFIG_WARNING, text, shown);
	assert_ptr_equal(config_diag_first(&diag, CONFIG_ERROR), &diag.items[0]);
	assert_ptr_equal(config_diag_first(&diag, CONFIG_WARNING), &diag.items[2]);
	config_diag_free(&diag);

	/* The file as a whole: no line in the data, none in the text. */
	struct config_diagnostic whole = {.file = c.main, .line = 0, .severity = CONFIG_ERROR,
					  .text = "cannot read: Permission denied"};
	snprintf(shown, sizeof(shown), "%s: cannot read: Permission denied", c.main);
	expect_diagnostic(&whole, c.main, 0, CONFIG_ERROR, whole.text, shown);
	whole.severity = CONFIG_WARNING;
	whole.text = "it defines no bonds";
	snprintf(shown, sizeof(shown), "%s: warning: it defines no bonds", c.main);
	expect_diagnostic(&whole, c.main, 0, CONFIG_WARNING, whole.text, shown);
	assert_null(config_diag_first(&diag, CONFIG_ERROR));
	conf_dir_free(&c);
}

/* Warnings of drop-ins name their own file; the same bond in one drop-in
 * twice is still "already defined" with a line. */
static void dropin_warnings_and_same_file(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};
	char expect[512];

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\n");
	conf_dir_put(&c, "a.conf", "[bond1]\nmiimon = 100\nslaves = e3\n");
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_WARNING), 1);
	snprintf(expect, sizeof(expect), "%s/a.conf:1: warning: [bond1]: no mtu: the bond and "
		 "its slaves get MTU 9000 (bondd's default), which every switch port and peer "
		 "on the path must carry; write mtu = 9000 to keep it, or mtu = 1500", c.dir);
	assert_string_equal(diag_line(&diag, CONFIG_WARNING, 0), expect);
	desired_free(&d);
	config_diag_free(&diag);
	conf_dir_free(&c);

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\n");
	conf_dir_put(&c, "a.conf", "[bond1]\nmtu = 1500\nmiimon = 1\nslaves = e3\n[bond1]\n");
	const char *same[] = {"{D}/a.conf:5: [bond1] is already defined (line 1)", NULL};
	expect_load_errors(&c, same);
	conf_dir_free(&c);
}

/* A drop-in's section for a bond no earlier file defines and without
 * slaves is a typo, not a new bond: an error with FILE:LINE and the closest
 * name.  With slaves it is a bond of its own. */
static void dropin_unknown_bond(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n"
			 "[storage]\nmiimon = 100\nmtu = 9000\nslaves = e3\n");
	conf_dir_put(&c, "host.conf", "# this host\n[bnod0]\naddress = 10.5.0.1/24\n"
				      "[strage]\naddress = 10.6.0.1/24\n[zz9]\naddress = 10.7.0.1/24\n");
	const char *typo[] = {
		"{D}/host.conf:2: [bnod0]: no earlier file defines a bond bnod0, and this section "
		"has no slaves: a drop-in may add addresses to a bond defined before it, or define "
		"a whole bond with its slaves; did you mean [bond0]?",
		"{D}/host.conf:4: [strage]: no earlier file defines a bond strage, and this section "
		"has no slaves: a drop-in may add addresses to a bond defined before it, or define "
		"a whole bond with its slaves; did you mean [storage]?",
		"{D}/host.conf:6: [zz9]: no earlier file defines a bond zz9, and this section "
		"has no slaves: a drop-in may add addresses to a bond defined before it, or define "
		"a whole bond with its slaves",
		NULL};
	expect_load_errors(&c, typo);
	conf_dir_free(&c);

	/* A bond retired by a drop-in (state = absent) needs no slaves. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "99-retire.conf", "[bond9]\nstate = absent\n");
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	print_diag(&diag);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	assert_int_equal(d.n_bonds, 2);
	assert_true(d.bonds[1].absent);
	assert_string_equal(d.bonds[1].name, "bond9");
	desired_free(&d);
	config_diag_free(&diag);
	conf_dir_free(&c);

	/* A drop-in retiring a misspelt bond: the bond meant would stay; an
	 * error that names it, and no advice about MTU or miimon. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "99-retire.conf", "# gone\n[bnod0]\nstate = absent\n");
	const char *retire[] = {
		"{D}/99-retire.conf:2: [bnod0]: state = absent retires a bond bnod0, which no "
		"earlier file defines; did you mean [bond0]? (a bond of an earlier file is retired "
		"in its own section there, with state = absent)",
		NULL};
	expect_load_errors(&c, retire);
	conf_dir_free(&c);
	/* retiring bond1 beside bond0 is taken, without warnings */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "99-retire.conf", "[bond1]\nstate = absent\n");
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	assert_int_equal(diag.n_items, 0);
	assert_true(d.bonds[1].absent);
	desired_free(&d);
	config_diag_free(&diag);
	conf_dir_free(&c);

	/* A whole bond in a drop-in, and then a later drop-in adding to it. */
	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\nslaves = e1 e2\n");
	conf_dir_put(&c, "10-bond1.conf", "[bond1]\nmiimon = 100\nmtu = 9000\nslaves = e3\n");
	conf_dir_put(&c, "20-host.conf", "[bond1]\naddress = 10.5.0.1/24\n");
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	print_diag(&diag);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 0);
	assert_int_equal(d.n_bonds, 2);
	assert_int_equal(d.bonds[1].n_addrs, 1);
	desired_free(&d);
	config_diag_free(&diag);
	conf_dir_free(&c);
}

/* A main file without a drop-in directory, and a drop-in directory that is
 * not one. */
static void dropin_dir_absent_or_bad(void **state)
{
	(void)state;
	struct conf_dir c;
	struct desired d = {0};
	struct config_diag diag = {0};

	conf_dir_new(&c, "[bond0]\nmiimon = 100\nmtu = 9000\n");
	assert_int_equal(rmdir(c.dir), 0);
	assert_int_equal(config_load(c.main, &d, &diag), 0);
	assert_int_equal(d.n_bonds, 1);
	desired_free(&d);
	put(c.dir, "a file\n");
	const char *notdir[] = {"{D}: cannot read: Not a directory", NULL};
	expect_load_errors(&c, notdir);
	conf_dir_free(&c);
}

/* Where each error is comes as data beside its text (a refused reload's
 * event shows the place to anyone, never the file's words, which may be
 * root's alone): the file and line, line 0 for the file as a whole. */
static void diag_places_are_data(void **state)
{
	(void)state;
	struct desired d;
	struct config_diag diag;
	const char text[] = "[bond0]\nmiimon = 100\narp_ip_target = s3cr3t\nslaves = e1\n";

	memset(&d, 0, sizeof(d));
	memset(&diag, 0, sizeof(diag));
	assert_int_equal(config_parse("a.conf", text, strlen(text), &d, &diag), -EINVAL);
	assert_true(config_diag_count(&diag, CONFIG_ERROR) >= 1);
	assert_string_equal(diag.items[0].file, "a.conf");
	assert_int_equal(diag.items[0].line, 3);
	assert_non_null(strstr(diag_line(&diag, CONFIG_ERROR, 0), "a.conf:3: "));
	config_diag_free(&diag);
	assert_true(config_load("/nonexistent-bondd/bondd.conf", &d, &diag) < 0);
	assert_int_equal(config_diag_count(&diag, CONFIG_ERROR), 1);
	assert_string_equal(diag.items[0].file, "/nonexistent-bondd/bondd.conf");
	assert_int_equal(diag.items[0].line, 0);
	config_diag_free(&diag);
}

/* Every boolean key takes what systemd takes for a boolean: yes/no,
 * true/false, on/off, 1/0 (and y/n, t/f), in any case; anything else is
 * refused naming FILE:LINE. */
static void booleans_as_systemd(void **state)
{
	(void)state;
	static const struct {
		const char *word;
		int value; /* -1: refused */
	} words[] = {
		{"yes", 1}, {"no", 0}, {"true", 1}, {"false", 0}, {"on", 1}, {"off", 0},
		{"1", 1},   {"0", 0},  {"Yes", 1},  {"FALSE", 0}, {"On", 1}, {"y", 1},
		{"n", 0},   {"t", 1},  {"f", 0},    {"maybe", -1}, {"2", -1}, {"yess", -1},
		{"", -1},
	};
	static const char *const keys[] = {"link_check", "lldp", "keep_order", "single_stream",
					   "use_carrier", "all_slaves_active", "lacp_active"};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		bool ad = strcmp(keys[k], "lacp_active") == 0;
		for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
			char text[128];
			int n = snprintf(text, sizeof(text), "[bond0]\nmode = %s\nslaves = e1\n%s = %s\n",
					 ad ? "802.3ad" : "balance-rr", keys[k], words[i].word);
			struct desired d = {0};
			struct config_diag diag = {0};
			int ret = config_parse("b.conf", text, (size_t)n, &d, &diag);
			if ((ret == 0) != (words[i].value >= 0))
				fail_msg("%s = %s: %s", keys[k], words[i].word,
					 ret == 0 ? "accepted" : "refused");
			if (ret == 0) {
				const struct desired_bond *b = &d.bonds[0];
				int got = strcmp(keys[k], "link_check") == 0  ? b->link_check
					  : strcmp(keys[k], "lldp") == 0      ? b->lldp
					  : strcmp(keys[k], "keep_order") == 0 ? b->keep_order
					  : strcmp(keys[k], "single_stream") == 0
						  ? b->single_stream
					  : strcmp(keys[k], "use_carrier") == 0
						  ? (int)b->opts.val[OPT_USE_CARRIER]
					  : strcmp(keys[k], "all_slaves_active") == 0
						  ? (int)b->opts.val[OPT_ALL_SLAVES_ACTIVE]
						  : (int)b->opts.val[OPT_AD_LACP_ACTIVE];
				if (got != words[i].value)
					fail_msg("%s = %s: %d", keys[k], words[i].word, got);
			} else {
				const char *line = diag_line(&diag, CONFIG_ERROR, 0);
				if (!line || strncmp(line, "b.conf:4: ", 10) != 0)
					fail_msg("%s = %s: %s", keys[k], words[i].word,
						 line ? line : "no error");
			}
			desired_free(&d);
			config_diag_free(&diag);
		}
	}
	/* a word key that is not a boolean keeps its own words */
	struct desired d = {0};
	struct config_diag diag = {0};
	static const char st[] = "[bond0]\nstate = yes\n";
	assert_int_not_equal(config_parse("b.conf", st, sizeof(st) - 1, &d, &diag), 0);
	desired_free(&d);
	config_diag_free(&diag);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(diag_places_are_data),
		cmocka_unit_test(example_parses),
		cmocka_unit_test(example_file_matches),
		cmocka_unit_test(defaults),
		cmocka_unit_test(empty_file_has_no_bonds),
		cmocka_unit_test(comments_and_whitespace),
		cmocka_unit_test(crlf_file),
		cmocka_unit_test(several_bonds_in_order),
		cmocka_unit_test(addresses),
		cmocka_unit_test(per_slave_settings),
		cmocka_unit_test(forced_miimon),
		cmocka_unit_test(lists_and_mac),
		cmocka_unit_test(every_option_by_name_and_number),
		cmocka_unit_test(alias),
		cmocka_unit_test(refusals),
		cmocka_unit_test(selectors),
		cmocka_unit_test(limits),
		cmocka_unit_test(more_limits),
		cmocka_unit_test(every_error_is_reported),
		cmocka_unit_test(error_leaves_out_untouched),
		cmocka_unit_test(diag_appends),
		cmocka_unit_test(nul_byte),
		cmocka_unit_test(not_nul_terminated),
		cmocka_unit_test(overlong_line),
		cmocka_unit_test(long_values_are_cut),
		cmocka_unit_test(too_many_errors),
		cmocka_unit_test(random_input),
		cmocka_unit_test(load_missing_file),
		cmocka_unit_test(keep_order_and_state),
		cmocka_unit_test(load_file),
		cmocka_unit_test(load_fifo_refused),
		cmocka_unit_test(load_cut_file_refused),
		cmocka_unit_test(load_too_large),
		cmocka_unit_test(one_empty_target_list),
		cmocka_unit_test(largest_file),
		cmocka_unit_test(hints_near_misses),
		cmocka_unit_test(hints_networkd_keys),
		cmocka_unit_test(hints_ifcfg_and_nm_keys),
		cmocka_unit_test(hint_helpers),
		cmocka_unit_test(warnings),
		cmocka_unit_test(ignored_options_are_kept),
		cmocka_unit_test(kernel_refusals),
		cmocka_unit_test(warnings_beside_errors),
		cmocka_unit_test(dropin_dir_name),
		cmocka_unit_test(dropins_in_lexical_order),
		cmocka_unit_test(dropin_adds_addresses),
		cmocka_unit_test(dropin_errors_name_both_files),
		cmocka_unit_test(dropin_warnings_and_same_file),
		cmocka_unit_test(diagnostics_are_data),
		cmocka_unit_test(dropin_unknown_bond),
		cmocka_unit_test(dropin_dir_absent_or_bad),
		cmocka_unit_test(booleans_as_systemd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
