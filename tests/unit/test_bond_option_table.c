/* SPDX-License-Identifier: MIT */
/* The option table: lookups, value parsing, modes, and table consistency. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bond_option_table.h"
#include "bond_settings.h"
#include "bond_rules.h"
#include "desired.h"
#include "kernel_caps.h"

static void table_ids_match_positions(void **state)
{
	(void)state;
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		assert_non_null(d);
		assert_int_equal(d->id, id);
		assert_non_null(d->key);
		assert_true(d->attr > 0);
		assert_true(d->modes != 0);
		assert_ptr_equal(bond_option_by_key(d->key), d);
	}
	assert_null(bond_option_spec(OPT__COUNT));
}

static void table_attrs_are_distinct(void **state)
{
	(void)state;
	for (int i = 0; i < OPT__COUNT; i++)
		for (int j = i + 1; j < OPT__COUNT; j++)
			assert_int_not_equal(bond_option_spec((enum bond_option_id)i)->attr,
					     bond_option_spec((enum bond_option_id)j)->attr);
}

static void lookup_by_alias(void **state)
{
	(void)state;
	assert_ptr_equal(bond_option_by_key("num_unsol_na"), bond_option_spec(OPT_NUM_PEER_NOTIF));
	assert_ptr_equal(bond_option_by_key("num_grat_arp"), bond_option_spec(OPT_NUM_PEER_NOTIF));
	assert_ptr_equal(bond_option_by_key("arp_missed_max"), bond_option_spec(OPT_MISSED_MAX));
	assert_null(bond_option_by_key("miimonn"));
	assert_null(bond_option_by_key(""));
}

static void parse_names_and_numbers(void **state)
{
	(void)state;
	const struct bond_option_spec *mode = bond_option_spec(OPT_MODE);
	uint32_t v = 99;

	assert_int_equal(bond_option_parse_scalar(mode, "balance-rr", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(bond_option_parse_scalar(mode, "802.3ad", &v), 0);
	assert_int_equal(v, 4);
	assert_int_equal(bond_option_parse_scalar(mode, "6", &v), 0);
	assert_int_equal(v, 6);
	assert_int_equal(bond_option_parse_scalar(mode, "7", &v), -ERANGE);
	assert_int_equal(bond_option_parse_scalar(mode, "balance", &v), -EINVAL);
	assert_int_equal(bond_option_parse_scalar(mode, "-1", &v), -EINVAL);
	assert_int_equal(bond_option_parse_scalar(mode, "", &v), -EINVAL);

	const struct bond_option_spec *xmit = bond_option_spec(OPT_XMIT_HASH_POLICY);
	assert_int_equal(bond_option_parse_scalar(xmit, "layer3+4", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(bond_option_parse_scalar(xmit, "vlan+srcmac", &v), 0);
	assert_int_equal(v, 5);

	const struct bond_option_spec *miimon = bond_option_spec(OPT_MIIMON);
	assert_int_equal(bond_option_parse_scalar(miimon, "2147483647", &v), 0);
	assert_int_equal(v, 2147483647u);
	assert_int_equal(bond_option_parse_scalar(miimon, "2147483648", &v), -ERANGE);
	assert_int_equal(bond_option_parse_scalar(miimon, "99999999999999999999999", &v), -ERANGE);
	assert_int_equal(bond_option_parse_scalar(miimon, "100ms", &v), -EINVAL);

	const struct bond_option_spec *prio = bond_option_spec(OPT_AD_ACTOR_SYS_PRIO);
	assert_int_equal(bond_option_parse_scalar(prio, "0", &v), -ERANGE);
	assert_int_equal(bond_option_parse_scalar(prio, "65535", &v), 0);
}

static void names_round_trip(void **state)
{
	(void)state;
	for (int m = 0; m < MODE__COUNT; m++) {
		const char *name = bond_mode_name((enum bond_mode)m);
		uint32_t v;
		assert_non_null(name);
		assert_int_equal(bond_option_parse_scalar(bond_option_spec(OPT_MODE), name, &v), 0);
		assert_int_equal(v, (uint32_t)m);
	}
}

static void modes_follow_the_kernel(void **state)
{
	(void)state;
	const struct bond_option_spec *pps = bond_option_spec(OPT_PACKETS_PER_SLAVE);
	assert_true(bond_option_applies(pps, MODE_BALANCE_RR));
	assert_false(bond_option_applies(pps, MODE_ACTIVE_BACKUP));

	const struct bond_option_spec *arp = bond_option_spec(OPT_ARP_INTERVAL);
	assert_true(bond_option_applies(arp, MODE_BALANCE_RR));
	assert_true(bond_option_applies(arp, MODE_ACTIVE_BACKUP));
	assert_false(bond_option_applies(arp, MODE_8023AD));
	assert_false(bond_option_applies(arp, MODE_BALANCE_TLB));
	assert_false(bond_option_applies(arp, MODE_BALANCE_ALB));

	const struct bond_option_spec *primary = bond_option_spec(OPT_PRIMARY);
	assert_true(bond_option_applies(primary, MODE_ACTIVE_BACKUP));
	assert_false(bond_option_applies(primary, MODE_BALANCE_RR));

	const struct bond_option_spec *rate = bond_option_spec(OPT_AD_LACP_RATE);
	assert_true(bond_option_applies(rate, MODE_8023AD));
	assert_false(bond_option_applies(rate, MODE_BALANCE_XOR));
	assert_true(rate->flags & OF_REBUILD);
	assert_true(bond_option_spec(OPT_MODE)->flags & OF_REBUILD);
	assert_true(bond_option_spec(OPT_FAIL_OVER_MAC)->flags & OF_NO_SLAVES);
	assert_false(bond_option_spec(OPT_MIIMON)->flags & OF_REBUILD);
	assert_false(bond_option_applies(rate, MODE__COUNT));
}

static void opts_equal_and_format(void **state)
{
	(void)state;
	struct bond_settings a = {0}, b = {0};
	char buf[128];

	assert_false(bond_settings_equal(&a, &b, OPT_MIIMON)); /* neither has it */
	bond_settings_set(&a, OPT_MIIMON, 100);
	assert_false(bond_settings_equal(&a, &b, OPT_MIIMON));
	bond_settings_set(&b, OPT_MIIMON, 100);
	assert_true(bond_settings_equal(&a, &b, OPT_MIIMON));
	bond_settings_set(&b, OPT_MIIMON, 200);
	assert_false(bond_settings_equal(&a, &b, OPT_MIIMON));

	bond_settings_set(&a, OPT_MODE, MODE_8023AD);
	assert_string_equal(bond_settings_format(&a, OPT_MODE, buf, sizeof(buf)), "802.3ad");
	assert_string_equal(bond_settings_format(&a, OPT_MIIMON, buf, sizeof(buf)), "100");

	a.have |= OPT_BIT(OPT_ARP_IP_TARGET);
	b.have |= OPT_BIT(OPT_ARP_IP_TARGET);
	a.n_arp_ip_target = 2;
	a.arp_ip_target[0].s_addr = htonl(0x0a000001);
	a.arp_ip_target[1].s_addr = htonl(0x0a000002);
	assert_false(bond_settings_equal(&a, &b, OPT_ARP_IP_TARGET));
	b = a;
	assert_true(bond_settings_equal(&a, &b, OPT_ARP_IP_TARGET));
	assert_string_equal(bond_settings_format(&a, OPT_ARP_IP_TARGET, buf, sizeof(buf)),
			    "10.0.0.1 10.0.0.2");

	a.have |= OPT_BIT(OPT_PRIMARY);
	b.have |= OPT_BIT(OPT_PRIMARY);
	strcpy(a.primary, "eth1");
	strcpy(b.primary, "eth2");
	assert_false(bond_settings_equal(&a, &b, OPT_PRIMARY));
}

/* The cross-option rules, without a parser: what is blamed, and what is
 * dropped or forced. */
struct blamed {
	enum bond_option_id id[8];
	bool warning[8];
	char rest[8][160];
	size_t n;
};

static void blame(void *ctx, enum bond_option_id id, bool warning, const char *rest)
{
	struct blamed *b = ctx;
	assert_true(b->n < 8);
	b->id[b->n] = id;
	b->warning[b->n] = warning;
	snprintf(b->rest[b->n++], sizeof(b->rest[0]), "%s", rest);
}

static void cross_option_rules(void **state)
{
	(void)state;
	struct bond_settings o;
	struct blamed b = {0};
	uint64_t bad = 0;

	memset(&o, 0, sizeof(o));
	bond_settings_set(&o, OPT_MODE, MODE_8023AD);
	bond_settings_set(&o, OPT_PACKETS_PER_SLAVE, 2); /* balance-rr only */
	bond_settings_set(&o, OPT_UPDELAY, 150);          /* miimon forced to 100 */
	bond_rules_check(&o, &bad, blame, &b);
	assert_int_equal(b.n, 2);
	assert_int_equal(b.id[0], OPT_PACKETS_PER_SLAVE);
	assert_string_equal(b.rest[0], " does not apply to mode 802.3ad");
	assert_false(b.warning[0]);
	assert_int_equal(b.id[1], OPT_UPDELAY);
	/* _bond_option_delay_set rounds down and keeps it: so does bondd */
	assert_string_equal(b.rest[1], ": 150 is not a multiple of miimon (100): the kernel "
			    "rounds it down to 100; write 100");
	assert_true(b.warning[1]);
	assert_int_equal(o.val[OPT_UPDELAY], 100);
	assert_false(bond_settings_has(&o, OPT_PACKETS_PER_SLAVE));
	assert_true(bad & OPT_BIT(OPT_PACKETS_PER_SLAVE));
	assert_int_equal(o.val[OPT_MIIMON], BOND_FORCED_MIIMON);

	memset(&o, 0, sizeof(o));
	memset(&b, 0, sizeof(b));
	bad = 0;
	bond_settings_set(&o, OPT_MODE, MODE_ACTIVE_BACKUP);
	bond_settings_set(&o, OPT_MIIMON, 100);
	bond_settings_set(&o, OPT_ARP_INTERVAL, 100);
	bond_rules_check(&o, &bad, blame, &b);
	assert_int_equal(b.n, 2);
	assert_string_equal(b.rest[0], " and miimon cannot both be enabled");
	assert_string_equal(b.rest[1], " needs arp_ip_target");
	assert_false(b.warning[0] || b.warning[1]);
}

/*
 * Each option against each mode, as drivers/net/bonding/bond_options.c
 * judges it: refused where the mode is in the option's .unsuppmodes
 * (bond_opt_check_deps, -EACCES), kept with a warning where the kernel
 * takes but never reads it, taken silently where it works.
 */
static void kernel_mode_rules(void **state)
{
	(void)state;
	enum verdict { TAKEN, IGNORED, REFUSED };
	static const struct {
		enum bond_option_id id;
		uint32_t value;
		enum bond_mode mode;
		enum verdict want;
	} rows[] = {
		/* no .unsuppmodes: kept everywhere */
		{OPT_XMIT_HASH_POLICY, 1, MODE_BALANCE_RR, IGNORED},
		{OPT_XMIT_HASH_POLICY, 1, MODE_ACTIVE_BACKUP, IGNORED},
		{OPT_XMIT_HASH_POLICY, 1, MODE_BALANCE_XOR, TAKEN},
		{OPT_XMIT_HASH_POLICY, 1, MODE_8023AD, TAKEN},
		{OPT_XMIT_HASH_POLICY, 1, MODE_BALANCE_TLB, TAKEN},
		{OPT_AD_SELECT, 2, MODE_BALANCE_RR, IGNORED},
		{OPT_AD_SELECT, 2, MODE_8023AD, TAKEN},
		{OPT_MIN_LINKS, 2, MODE_BALANCE_XOR, IGNORED},
		{OPT_MIN_LINKS, 2, MODE_8023AD, TAKEN},
		{OPT_LP_INTERVAL, 5, MODE_BALANCE_RR, IGNORED},
		{OPT_LP_INTERVAL, 5, MODE_BALANCE_ALB, TAKEN},
		{OPT_PRIMARY_RESELECT, 1, MODE_BALANCE_RR, IGNORED},
		{OPT_PRIMARY_RESELECT, 1, MODE_ACTIVE_BACKUP, TAKEN},
		{OPT_FAIL_OVER_MAC, 1, MODE_BALANCE_XOR, IGNORED},
		{OPT_FAIL_OVER_MAC, 1, MODE_ACTIVE_BACKUP, TAKEN},
		{OPT_RESEND_IGMP, 3, MODE_BROADCAST, TAKEN},
		{OPT_NUM_PEER_NOTIF, 3, MODE_8023AD, TAKEN},
		/* .unsuppmodes = all but one or three modes */
		{OPT_PACKETS_PER_SLAVE, 2, MODE_ACTIVE_BACKUP, REFUSED},
		{OPT_PACKETS_PER_SLAVE, 2, MODE_BALANCE_RR, TAKEN},
		{OPT_AD_ACTOR_SYS_PRIO, 100, MODE_BALANCE_RR, REFUSED},
		{OPT_AD_USER_PORT_KEY, 5, MODE_BALANCE_XOR, REFUSED},
		{OPT_AD_LACP_RATE, 1, MODE_BALANCE_RR, REFUSED},
		{OPT_AD_LACP_ACTIVE, 0, MODE_ACTIVE_BACKUP, REFUSED},
		{OPT_COUPLED_CONTROL, 0, MODE_BALANCE_RR, REFUSED},
		{OPT_TLB_DYNAMIC_LB, 0, MODE_BALANCE_RR, REFUSED},
		{OPT_TLB_DYNAMIC_LB, 0, MODE_BALANCE_ALB, TAKEN},
		/* .unsuppmodes = 802.3ad, tlb, alb */
		{OPT_ARP_VALIDATE, 3, MODE_8023AD, REFUSED},
		{OPT_MISSED_MAX, 5, MODE_BALANCE_TLB, REFUSED},
		/* without arp_interval: kept, ignored (no dependency checked) */
		{OPT_MISSED_MAX, 10, MODE_ACTIVE_BACKUP, IGNORED},
		{OPT_ARP_VALIDATE, 3, MODE_BALANCE_RR, IGNORED},
		{OPT_ARP_ALL_TARGETS, 1, MODE_ACTIVE_BACKUP, IGNORED},
		{OPT_ARP_ALL_TARGETS, 1, MODE_8023AD, IGNORED},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct bond_settings o;
		struct blamed b = {0};
		uint64_t bad = 0;

		memset(&o, 0, sizeof(o));
		bond_settings_set(&o, OPT_MODE, rows[i].mode);
		bond_settings_set(&o, OPT_MIIMON, 100);
		bond_settings_set(&o, rows[i].id, rows[i].value);
		bond_rules_check(&o, &bad, blame, &b);
		print_message("row %zu: %s in %s: %zu reports\n", i,
			      bond_option_spec(rows[i].id)->key, bond_mode_name(rows[i].mode), b.n);
		switch (rows[i].want) {
		case TAKEN:
			assert_int_equal(b.n, 0);
			assert_true(bond_settings_has(&o, rows[i].id));
			break;
		case IGNORED:
			assert_int_equal(b.n, 1);
			assert_int_equal(b.id[0], rows[i].id);
			assert_true(b.warning[0]);
			assert_true(bond_settings_has(&o, rows[i].id));
			assert_int_equal(o.val[rows[i].id], rows[i].value);
			break;
		case REFUSED:
			assert_int_equal(b.n, 1);
			assert_int_equal(b.id[0], rows[i].id);
			assert_false(b.warning[0]);
			assert_false(bond_settings_has(&o, rows[i].id));
			break;
		}
	}
}

/* --- the options added after 6.1 ----------------------------------------- */

static void newer_options_rows(void **state)
{
	(void)state;
	const struct {
		const char *key;
		enum bond_option_id id;
		uint16_t attr;
		uint32_t flags, def;
		uint16_t kmin;
	} rows[] = {
		/* drivers/net/bonding/bond_options.c: IFDOWN, default on */
		{"coupled_control", OPT_COUPLED_CONTROL, 32, OF_REBUILD, 1, KVER(6, 9)},
		{"broadcast_neighbor", OPT_BROADCAST_NEIGH, 33, 0, 0, KVER(6, 17)},
		{"lacp_strict", OPT_LACP_STRICT, 34, 0, 0, KVER(6, 18)},
	};
	uint32_t v;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct bond_option_spec *d = bond_option_by_key(rows[i].key);
		assert_non_null(d);
		assert_int_equal(d->id, rows[i].id);
		assert_int_equal(d->attr, rows[i].attr);
		assert_int_equal(d->type, OT_U8);
		assert_int_equal(d->flags, rows[i].flags);
		assert_int_equal(d->def, rows[i].def);
		assert_int_equal(bond_option_kmin(d->id), rows[i].kmin);
		/* 802.3ad only */
		assert_int_equal(d->modes, MODE_BIT(MODE_8023AD));
		assert_false(bond_option_applies(d, MODE_BALANCE_RR));
		assert_int_equal(bond_option_parse_scalar(d, "on", &v), 0);
		assert_int_equal(v, 1);
		assert_int_equal(bond_option_parse_scalar(d, "off", &v), 0);
		assert_int_equal(v, 0);
		assert_int_equal(bond_option_parse_scalar(d, "2", &v), -ERANGE);
	}
	/* The 6.1 options have no lower bound. */
	assert_int_equal(bond_option_kmin(OPT_MIIMON), 0);
	assert_int_equal(bond_option_kmin(OPT_MISSED_MAX), 0);

	/* ad_select = actor_port_prio (3), 6.18 */
	const struct bond_option_spec *ad = bond_option_spec(OPT_AD_SELECT);
	assert_int_equal(bond_option_parse_scalar(ad, "actor_port_prio", &v), 0);
	assert_int_equal(v, 3);
	assert_string_equal(bond_option_value_name(ad, 3), "actor_port_prio");
	assert_int_equal(bond_option_parse_scalar(ad, "4", &v), -ERANGE);
	assert_int_equal(bond_option_value_kmin(OPT_AD_SELECT, 3), KVER(6, 18));
	assert_int_equal(bond_option_value_kmin(OPT_AD_SELECT, 2), 0);
	/* use_carrier = 0 ends with 6.17 (commit 23a6037ce76c) */
	assert_int_equal(bond_option_value_kmax(OPT_USE_CARRIER, 0), KVER(6, 17));
	assert_int_equal(bond_option_value_kmax(OPT_USE_CARRIER, 1), KVER(255, 255));
}

static void parse_release(void **state)
{
	(void)state;
	assert_int_equal(kernel_caps_parse_release("6.1.0-28-amd64"), KVER(6, 1));
	assert_int_equal(kernel_caps_parse_release("6.12.113"), KVER(6, 12));
	assert_int_equal(kernel_caps_parse_release("7.2.7"), KVER(7, 2));
	assert_int_equal(kernel_caps_parse_release("6.18.44-fc-v782"), KVER(6, 18));
	assert_int_equal(kernel_caps_parse_release(""), 0);
	assert_int_equal(kernel_caps_parse_release("6"), 0);
	assert_int_equal(kernel_caps_parse_release("x.1"), 0);
	assert_int_equal(kernel_caps_parse_release("6.x"), 0);
	assert_int_equal(kernel_caps_parse_release(NULL), 0);
}

struct notes {
	unsigned n;
	char text[4][320];
};

static void collect(void *ctx, const char *text)
{
	struct notes *c = ctx;
	if (c->n < 4)
		snprintf(c->text[c->n], sizeof(c->text[0]), "%s", text);
	c->n++;
}

static unsigned notes_for(struct desired_bond *b, uint16_t kver, const struct kernel_caps *caps,
			  struct notes *out)
{
	memset(out, 0, sizeof(*out));
	return kernel_caps_version_notes(b, kver, caps, collect, out);
}

static void version_notes(void **state)
{
	(void)state;
	struct desired_bond b;
	struct notes n;

	memset(&b, 0, sizeof(b));
	bond_settings_set(&b.opts, OPT_MODE, MODE_8023AD);
	bond_settings_set(&b.opts, OPT_COUPLED_CONTROL, 0);
	bond_settings_set(&b.opts, OPT_BROADCAST_NEIGH, 1);
	/* No bond here to learn from: the version speaks, hedged. */
	assert_int_equal(notes_for(&b, KVER(6, 1), NULL, &n), 2);
	assert_string_equal(n.text[0], "coupled_control needs Linux 6.9 or later (or a stable kernel "
				       "that took it); this is 6.1, and no bond here shows whether it "
				       "has it: if not, the kernel ignores it");
	assert_non_null(strstr(n.text[1], "broadcast_neighbor needs Linux 6.17 or later"));
	assert_int_equal(notes_for(&b, KVER(6, 12), NULL, &n), 1);
	assert_non_null(strstr(n.text[0], "broadcast_neighbor needs Linux 6.17 or later (or a "
					  "stable kernel that took it); this is 6.12"));
	assert_int_equal(notes_for(&b, KVER(6, 17), NULL, &n), 0);
	assert_int_equal(notes_for(&b, KVER(7, 2), NULL, &n), 0);
	/* An unreadable version warns about nothing. */
	assert_int_equal(notes_for(&b, 0, NULL, &n), 0);

	/* Learned from this kernel's bonds: what it reports decides, whatever
	 * its version (Debian's 6.1.176 reports coupled_control). */
	struct kernel_caps caps = {.modes_seen = MODE_BIT(MODE_8023AD),
				   .reported = OPT_BIT(OPT_COUPLED_CONTROL)};
	assert_int_equal(notes_for(&b, KVER(6, 1), &caps, &n), 1);
	assert_string_equal(n.text[0], "broadcast_neighbor: this kernel (6.1) does not have it "
				       "(mainline Linux 6.17 and later, and stable kernels that took "
				       "it, do): the kernel ignores it");
	caps.reported |= OPT_BIT(OPT_BROADCAST_NEIGH);
	assert_int_equal(notes_for(&b, KVER(6, 1), &caps, &n), 0);
	/* A kernel newer than the range that does not report it: said too. */
	caps.reported = 0;
	assert_int_equal(notes_for(&b, KVER(7, 2), &caps, &n), 2);
	/* Bonds of another mode show nothing about 802.3ad options. */
	struct kernel_caps rr = {.modes_seen = MODE_BIT(MODE_BALANCE_RR)};
	assert_int_equal(notes_for(&b, KVER(7, 2), &rr, &n), 0);

	/* A value added later: ad_select = actor_port_prio, by version; a
	 * refusal, not a note (kernel_caps_value_refused). */
	memset(&b, 0, sizeof(b));
	bond_settings_set(&b.opts, OPT_MODE, MODE_8023AD);
	bond_settings_set(&b.opts, OPT_AD_SELECT, 3);
	assert_int_equal(notes_for(&b, KVER(6, 12), &caps, &n), 0);
	char why[256];
	assert_true(kernel_caps_value_refused(OPT_AD_SELECT, 3, KVER(6, 12), why, sizeof(why)));
	assert_string_equal(why, "ad_select = actor_port_prio needs Linux 6.18 or later; "
				 "this is 6.12: the kernel refuses it");
	assert_true(kernel_caps_value_refused(OPT_AD_SELECT, 3, KVER(6, 1), why, sizeof(why)));
	assert_false(kernel_caps_value_refused(OPT_AD_SELECT, 3, KVER(6, 18), why, sizeof(why)));
	assert_false(kernel_caps_value_refused(OPT_AD_SELECT, 3, KVER(7, 2), why, sizeof(why)));
	assert_false(kernel_caps_value_refused(OPT_AD_SELECT, 2, KVER(6, 1), why, sizeof(why)));
	/* an unknown kernel refuses nothing */
	assert_false(kernel_caps_value_refused(OPT_AD_SELECT, 3, 0, why, sizeof(why)));

	/* A value dropped later: use_carrier = 0 from 6.18 on. */
	assert_false(kernel_caps_value_refused(OPT_USE_CARRIER, 0, KVER(6, 17), why, sizeof(why)));
	assert_true(kernel_caps_value_refused(OPT_USE_CARRIER, 0, KVER(7, 2), why, sizeof(why)));
	assert_non_null(strstr(why, "use_carrier = off is refused by Linux 6.18 and later; "
				    "this is 7.2"));
	assert_non_null(strstr(why, "23a6037ce76c"));
	assert_false(kernel_caps_value_refused(OPT_USE_CARRIER, 1, KVER(7, 2), why, sizeof(why)));
	/* options newer than 6.1 are ignored by an older kernel, not refused */
	assert_false(kernel_caps_value_refused(OPT_COUPLED_CONTROL, 0, KVER(6, 1), why,
					       sizeof(why)));

	/* Per slave: actor_port_prio, 6.18, or a kernel whose slaves show it. */
	memset(&b, 0, sizeof(b));
	bond_settings_set(&b.opts, OPT_MODE, MODE_8023AD);
	b.n_slaves = 2;
	snprintf(b.slaves[0].name, IFNAMSIZ, "e1");
	snprintf(b.slaves[1].name, IFNAMSIZ, "e2");
	b.slaves[1].has_actor_port_prio = true;
	b.slaves[1].actor_port_prio = 100;
	assert_int_equal(notes_for(&b, KVER(6, 12), NULL, &n), 1);
	assert_non_null(strstr(n.text[0], "slave.e2.actor_port_prio needs Linux 6.18 or later"));
	assert_int_equal(notes_for(&b, KVER(6, 18), NULL, &n), 0);
	struct kernel_caps stable = {.ad_slave_seen = true, .slave_actor_port_prio = true};
	assert_int_equal(notes_for(&b, KVER(6, 1), &stable, &n), 0);
	struct kernel_caps lacks = {.ad_slave_seen = true};
	assert_int_equal(notes_for(&b, KVER(6, 1), &lacks, &n), 1);
	assert_string_equal(n.text[0], "slave.e2.actor_port_prio: this kernel (6.1) does not have "
				       "it (mainline Linux 6.18 and later, and stable kernels that "
				       "took it, do): the kernel ignores it");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_ids_match_positions),
		cmocka_unit_test(cross_option_rules),
		cmocka_unit_test(kernel_mode_rules),
		cmocka_unit_test(table_attrs_are_distinct),
		cmocka_unit_test(lookup_by_alias),
		cmocka_unit_test(parse_names_and_numbers),
		cmocka_unit_test(names_round_trip),
		cmocka_unit_test(modes_follow_the_kernel),
		cmocka_unit_test(opts_equal_and_format),
		cmocka_unit_test(newer_options_rows),
		cmocka_unit_test(parse_release),
		cmocka_unit_test(version_notes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
