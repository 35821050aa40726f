/* SPDX-License-Identifier: MIT */
/*
 * Slave entries matched to links (identity.h): a table of configs and
 * links as plain data, the assignment expected; then renames, primary,
 * and the conflict's FILE:LINE text.
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
#include "identity.h"

struct link_spec {
	const char *name;
	const char *kind;
	const char *perm;      /* "02:00:..." or NULL: none */
	const char *hwaddr;    /* the current address, or NULL */
	const char *path;      /* id_path or NULL */
	int dev_port;
	const char *alt[2];
};

struct expect {
	enum identity_state state;
	const char *name;      /* desired_slave.name after identity_apply */
};

struct id_case {
	const char *what;
	const char *conf;
	struct link_spec links[6];
	struct expect want[6];
};

static const struct id_case cases[] = {
	{"mac: takes the permanent address, never the current one",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:02 mac:02:00:00:00:aa:01\n",
	 {{"eth0", "", "02:00:00:00:aa:01", "02:00:00:00:aa:02", NULL, -1, {0}},
	  {"eth1", "", "02:00:00:00:aa:02", "02:00:00:00:aa:02", NULL, -1, {0}}},
	 {{ID_FOUND, "eth1"}, {ID_FOUND, "eth0"}}},
	{"mac: in upper case is the same address",
	 "[bond0]\nslaves = mac:02:00:00:00:AA:0B\n",
	 {{"x", "", "02:00:00:00:aa:0b", NULL, NULL, -1, {0}}},
	 {{ID_FOUND, "x"}}},
	{"path: with a port picks that dev_port; without one, port 0",
	 "[bond0]\nslaves = path:pci-0000:3b:00.0/port1 path:pci-0000:3b:00.0\n",
	 {{"p0", "", NULL, NULL, "pci-0000:3b:00.0", 0, {0}},
	  {"p1", "", NULL, NULL, "pci-0000:3b:00.0", 1, {0}},
	  {"q0", "", NULL, NULL, "pci-0000:3b:00.1", 0, {0}}},
	 {{ID_FOUND, "p1"}, {ID_FOUND, "p0"}}},
	{"path: of a platform device (UML's vector NIC)",
	 "[bond0]\nslaves = path:platform-uml-vector.2 path:platform-uml-vector.1\n",
	 {{"vec1", "", "02:00:00:00:aa:01", NULL, "platform-uml-vector.1", 0, {0}},
	  {"vec2", "", "02:00:00:00:aa:02", NULL, "platform-uml-vector.2", 0, {0}}},
	 {{ID_FOUND, "vec2"}, {ID_FOUND, "vec1"}}},
	{"a name matches a name or an altname, short or long",
	 "[bond0]\nslaves = enx02000000aa03 eth9 a-long-altname-of-the-nic ethA\n",
	 {{"ens3", "", NULL, NULL, NULL, -1, {"enx02000000aa03", NULL}},
	  {"eth9", "", NULL, NULL, NULL, -1, {0}},
	  {"ens4", "", NULL, NULL, NULL, -1, {"x", "a-long-altname-of-the-nic"}}},
	 {{ID_FOUND, "ens3"}, {ID_FOUND, "eth9"}, {ID_FOUND, "ens4"}, {ID_MISSING, "ethA"}}},
	{"no link: missing, under a name no link can have",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:09 path:pci-0000:01:00.0 eth1\n",
	 {{"eth0", "", "02:00:00:00:aa:01", NULL, "pci-0000:01:00.1", 0, {0}}},
	 {{ID_MISSING, "m:02000000aa09"}, {ID_MISSING, NULL}, {ID_MISSING, "eth1"}}},
	{"veth (no permanent address, no parent) answers to its name only",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01 v1\n",
	 {{"v1", "veth", NULL, "02:00:00:00:aa:01", NULL, -1, {0}}},
	 {{ID_MISSING, "m:02000000aa01"}, {ID_FOUND, "v1"}}},
	{"a bond answers to no mac: or path:",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01\n",
	 {{"bond9", "bond", "02:00:00:00:aa:01", NULL, "platform-x.1", 0, {0}}},
	 {{ID_MISSING, "m:02000000aa01"}}},
	{"one link, two entries of one bond: both refused",
	 "[bond0]\nslaves = eth1 eth2 mac:02:00:00:00:aa:01\n",
	 {{"eth1", "", "02:00:00:00:aa:01", NULL, NULL, -1, {0}},
	  {"eth2", "", "02:00:00:00:aa:02", NULL, NULL, -1, {0}}},
	 {{ID_CONFLICT, ":eth1"}, {ID_FOUND, "eth2"}, {ID_CONFLICT, "m:02000000aa01"}}},
	{"one link, entries of two bonds: both refused",
	 "[bond0]\nslaves = path:pci-0000:3b:00.0\n[bond1]\nslaves = mac:02:00:00:00:aa:01 eth5\n",
	 {{"eth1", "", "02:00:00:00:aa:01", NULL, "pci-0000:3b:00.0", 0, {0}},
	  {"eth5", "", NULL, NULL, NULL, -1, {0}}},
	 {{ID_CONFLICT, NULL}, {ID_CONFLICT, "m:02000000aa01"}, {ID_FOUND, "eth5"}}},
	{"two ports behind one path, no /portN, dev_port unread: neither taken",
	 "[bond0]\nslaves = path:pci-0000:3b:00.0\n",
	 {{"p0", "", NULL, NULL, "pci-0000:3b:00.0", -1, {0}},
	  {"p1", "", NULL, NULL, "pci-0000:3b:00.0", -1, {0}}},
	 {{ID_AMBIGUOUS, NULL}}},
	{"the configured order whatever the names",
	 "[bond0]\nslaves = mac:02:00:00:00:aa:01 mac:02:00:00:00:aa:02 mac:02:00:00:00:aa:03 "
	 "mac:02:00:00:00:aa:04\n",
	 {{"a", "", "02:00:00:00:aa:04", NULL, NULL, -1, {0}},
	  {"b", "", "02:00:00:00:aa:03", NULL, NULL, -1, {0}},
	  {"c", "", "02:00:00:00:aa:02", NULL, NULL, -1, {0}},
	  {"d", "", "02:00:00:00:aa:01", NULL, NULL, -1, {0}}},
	 {{ID_FOUND, "d"}, {ID_FOUND, "c"}, {ID_FOUND, "b"}, {ID_FOUND, "a"}}},
};

static void mac_of(const char *s, uint8_t out[6])
{
	unsigned v[6];
	assert_int_equal(sscanf(s, "%x:%x:%x:%x:%x:%x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
			 6);
	for (int i = 0; i < 6; i++)
		out[i] = (uint8_t)v[i];
}

static size_t make_links(const struct link_spec *spec, struct obs_link *out)
{
	size_t n = 0;

	for (; n < 6 && spec[n].name; n++) {
		struct obs_link *l = &out[n];
		memset(l, 0, sizeof(*l));
		l->ifindex = 10 + (int)n;
		snprintf(l->name, sizeof(l->name), "%s", spec[n].name);
		snprintf(l->kind, sizeof(l->kind), "%s", spec[n].kind);
		if (spec[n].perm) {
			mac_of(spec[n].perm, l->perm_addr);
			l->has_perm_addr = true;
		}
		if (spec[n].hwaddr)
			mac_of(spec[n].hwaddr, l->hwaddr);
		if (spec[n].path)
			snprintf(l->id_path, sizeof(l->id_path), "%s", spec[n].path);
		l->dev_port = spec[n].dev_port;
		for (size_t a = 0; a < 2 && spec[n].alt[a]; a++)
			snprintf(l->altnames[l->n_altnames++], sizeof(l->altnames[0]), "%s",
				 spec[n].alt[a]);
	}
	return n;
}

static void load(const char *conf, struct desired *d)
{
	struct config_diag diag = {0};
	assert_int_equal(config_parse("bondd.conf", conf, strlen(conf), d, &diag), 0);
	config_diag_free(&diag);
}

static void table(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		const struct id_case *tc = &cases[c];
		struct desired d = {0};
		struct obs_link links[6];
		struct identity_match m[6];
		char before[6][IFNAMSIZ];

		print_message("case %zu: %s\n", c, tc->what);
		load(tc->conf, &d);
		size_t n_links = make_links(tc->links, links);
		size_t n = identity_count(&d);
		assert_true(n <= 6);
		assert_int_equal(identity_match(&d, links, n_links, m), 0);
		size_t k = 0;
		for (size_t i = 0; i < d.n_bonds; i++)
			for (size_t j = 0; j < d.bonds[i].n_slaves; j++, k++)
				snprintf(before[k], IFNAMSIZ, "%s", d.bonds[i].slaves[j].name);
		identity_apply(&d, m);
		k = 0;
		for (size_t i = 0; i < d.n_bonds; i++) {
			for (size_t j = 0; j < d.bonds[i].n_slaves; j++, k++) {
				const struct desired_slave *ds = &d.bonds[i].slaves[j];
				assert_int_equal(m[k].state, tc->want[k].state);
				if (tc->want[k].name)
					assert_string_equal(ds->name, tc->want[k].name);
				else if (m[k].state == ID_MISSING)
					assert_string_equal(ds->name, before[k]);
				/* Anything but a link found is a name no link has. */
				if (m[k].state != ID_FOUND && !(m[k].state == ID_MISSING &&
								ds->sel.kind == SEL_NAME))
					assert_true(slave_selector_is_placeholder(ds->name));
				assert_int_equal(ds->ifindex != 0, m[k].state == ID_FOUND);
			}
		}
		assert_int_equal(k, n);
		desired_free(&d);
	}
}

/* Down, rename, up: the same link under a new name is the same slave; the
 * primary follows; nothing else changes. */
static void rename_keeps_entry(void **state)
{
	(void)state;
	struct desired d = {0};
	struct obs_link links[6];
	struct identity_match m[3];
	static const struct link_spec before[] = {
		{"eth0", "", "02:00:00:00:aa:01", NULL, NULL, -1, {0}},
		{"eth1", "", "02:00:00:00:aa:02", NULL, NULL, -1, {0}},
		{0}};

	load("[bond0]\nmode = active-backup\nmiimon = 100\nslaves = mac:02:00:00:00:aa:02 "
	     "mac:02:00:00:00:aa:01\nprimary = mac:02:00:00:00:aa:01\n", &d);
	size_t n = make_links(before, links);
	assert_int_equal(identity_match(&d, links, n, m), 0);
	/* identity_match_new gives the same matches in an array of its own */
	struct identity_match *fresh = identity_match_new(&d, links, n);
	assert_non_null(fresh);
	for (size_t k = 0; k < identity_count(&d); k++) {
		assert_int_equal(fresh[k].state, m[k].state);
		assert_int_equal(fresh[k].ifindex, m[k].ifindex);
		assert_string_equal(fresh[k].name, m[k].name);
	}
	free(fresh);
	assert_int_equal(identity_apply(&d, m), 2);
	assert_string_equal(d.bonds[0].opts.primary, "eth0");
	/* Again, nothing new: nothing changes. */
	assert_int_equal(identity_match(&d, links, n, m), 0);
	assert_int_equal(identity_apply(&d, m), 0);
	snprintf(links[0].name, sizeof(links[0].name), "ens3f0np0");
	assert_int_equal(identity_match(&d, links, n, m), 0);
	assert_int_equal(identity_apply(&d, m), 1);
	assert_string_equal(d.bonds[0].slaves[0].name, "eth1");
	assert_string_equal(d.bonds[0].slaves[1].name, "ens3f0np0");
	assert_int_equal(d.bonds[0].slaves[1].ifindex, 10);
	assert_string_equal(d.bonds[0].opts.primary, "ens3f0np0");
	/* Renamed into a name another entry gives while running: a
	 * conflict, but the entry that had the link keeps it. */
	identity_apply(&d, m);
	struct desired d2 = {0};
	load("[bond0]\nslaves = mac:02:00:00:00:aa:02 mac:02:00:00:00:aa:01 eth7\n", &d2);
	struct identity_match m3[3];
	assert_int_equal(identity_match(&d2, links, n, m3), 0);
	identity_apply(&d2, m3);
	assert_string_equal(d2.bonds[0].slaves[1].name, "ens3f0np0");
	snprintf(links[0].name, sizeof(links[0].name), "eth7");
	assert_int_equal(identity_match(&d2, links, n, m3), 0);
	assert_int_equal(m3[1].state, ID_CONFLICT);
	assert_int_equal(m3[2].state, ID_CONFLICT);
	identity_apply(&d2, m3);
	assert_string_equal(d2.bonds[0].slaves[1].name, "eth7");
	assert_int_equal(d2.bonds[0].slaves[1].ifindex, 10);
	assert_string_equal(d2.bonds[0].slaves[2].name, ":eth7");
	assert_int_equal(d2.bonds[0].slaves[2].ifindex, 0);
	desired_free(&d2);
	snprintf(links[0].name, sizeof(links[0].name), "ens3f0np0");

	/* Gone: back to its placeholder, and the primary with it. */
	assert_int_equal(identity_match(&d, links + 1, 1, m), 0);
	assert_int_equal(identity_apply(&d, m), 1);
	assert_string_equal(d.bonds[0].slaves[1].name, "m:02000000aa01");
	assert_string_equal(d.bonds[0].opts.primary, "m:02000000aa01");
	desired_free(&d);
}

/* The conflict names FILE:LINE of both entries, in a drop-in too. */
static void conflict_text(void **state)
{
	(void)state;
	struct desired d = {0};
	struct obs_link links[6];
	struct identity_match m[3];
	char text[512];
	static const struct link_spec l[] = {
		{"eth1", "", "02:00:00:00:aa:01", NULL, NULL, -1, {0}}, {0}};

	load("[bond0]\nmtu = 9000\nslaves = eth1\n\n[bond1]\nslaves = eth2 mac:02:00:00:00:aa:01\n",
	     &d);
	assert_int_equal(identity_match(&d, links, make_links(l, links), m), 0);
	assert_int_equal(m[0].state, ID_CONFLICT);
	assert_int_equal(m[2].state, ID_CONFLICT);
	assert_false(identity_conflict_later(&m[0], 0, 0));
	assert_true(identity_conflict_later(&m[2], 1, 1));
	identity_conflict_text(&d, &m[2], 1, 1, text, sizeof(text));
	assert_string_equal(text, "bondd.conf:3: [bond0] eth1 and bondd.conf:6: [bond1] "
			    "mac:02:00:00:00:aa:01 both name eth1: one link can be one slave only");
	identity_conflict_text(&d, &m[0], 0, 0, text, sizeof(text));
	assert_string_equal(text, "bondd.conf:3: [bond0] eth1 and bondd.conf:6: [bond1] "
			    "mac:02:00:00:00:aa:01 both name eth1: one link can be one slave only");
	desired_free(&d);

	/* Three entries, one link: every later one names the first, the
	 * first names the second; said once per later entry. */
	load("[bond0]\nslaves = eth1 mac:02:00:00:00:aa:01\n[bond1]\nslaves = eth9 "
	     "enx02000000aa01\n", &d);
	links[0].n_altnames = 1;
	snprintf(links[0].altnames[0], sizeof(links[0].altnames[0]), "enx02000000aa01");
	struct identity_match m4[4];
	assert_int_equal(identity_match(&d, links, 1, m4), 0);
	assert_int_equal(m4[0].state, ID_CONFLICT);
	assert_int_equal(m4[1].state, ID_CONFLICT);
	assert_int_equal(m4[2].state, ID_MISSING);
	assert_int_equal(m4[3].state, ID_CONFLICT);
	assert_int_equal(m4[0].other_bond * 10 + m4[0].other_slave, 1);
	assert_int_equal(m4[1].other_bond * 10 + m4[1].other_slave, 0);
	assert_int_equal(m4[3].other_bond * 10 + m4[3].other_slave, 0);
	assert_false(identity_conflict_later(&m4[0], 0, 0));
	assert_true(identity_conflict_later(&m4[3], 1, 1));
	identity_conflict_text(&d, &m4[3], 1, 1, text, sizeof(text));
	assert_string_equal(text, "bondd.conf:2: [bond0] eth1 and bondd.conf:4: [bond1] "
			    "enx02000000aa01 both name eth1: one link can be one slave only");
	desired_free(&d);
}

/* The sorted keys (identity.c) give what the rule gives link by link
 * (identity_selects, first in the links' order; a second answer to a
 * mac: or path: entry makes it ambiguous): many entries of every kind,
 * over links that share MACs, paths and altnames. */
static void same_as_linear_rule(void **state)
{
	(void)state;
	enum { N_LINKS = 60 };
	struct obs_link *links = calloc(N_LINKS, sizeof(*links));
	char conf[8192];
	size_t used = 0;
	struct desired d = {0};

	assert_non_null(links);
	for (size_t i = 0; i < N_LINKS; i++) {
		struct obs_link *l = &links[i];
		l->ifindex = (int)i + 2;
		l->dev_port = (int)(i % 3) - 1; /* -1 (unread) counts as port 0 */
		snprintf(l->name, sizeof(l->name), "n%zu", i);
		snprintf(l->kind, sizeof(l->kind), "%s", i % 11 == 0 ? "bond" : "");
		if (i % 4) {
			l->has_perm_addr = true;
			uint8_t mac[6] = {2, 0, 0, 0, 0, (uint8_t)(i % 23)};
			memcpy(l->perm_addr, mac, 6);
		}
		if (i % 5)
			snprintf(l->id_path, sizeof(l->id_path), "pci-0000:%02zx:00.0", i % 7);
		if (i % 6 == 0) {
			l->n_altnames = 1;
			snprintf(l->altnames[0], sizeof(l->altnames[0]), "alt%zu", i % 13);
		}
	}
	for (size_t b = 0; b < 8; b++) {
		used += (size_t)snprintf(conf + used, sizeof(conf) - used, "[b%zu]\nslaves =", b);
		for (size_t j = 0; j < 6; j++) {
			size_t x = b * 6 + j;
			switch (x % 4) {
			case 0: used += (size_t)snprintf(conf + used, sizeof(conf) - used,
							 " n%zu", x * 2 % 70); break;
			case 1: used += (size_t)snprintf(conf + used, sizeof(conf) - used,
							 " mac:02:00:00:00:00:%02zx", x % 25); break;
			case 2: used += (size_t)snprintf(conf + used, sizeof(conf) - used,
							 " path:pci-0000:%02zx:00.0/port%zu", x / 4 % 7,
							 x / 28 % 2);
				break;
			default: used += (size_t)snprintf(conf + used, sizeof(conf) - used,
							  " alt%zu", x / 4);
			}
		}
		used += (size_t)snprintf(conf + used, sizeof(conf) - used, "\n");
	}
	struct config_diag diag = {0};
	assert_int_equal(config_parse("bondd.conf", conf, strlen(conf), &d, &diag), 0);
	config_diag_free(&diag);
	size_t n = identity_count(&d), k = 0;
	assert_true(n > 20);
	struct identity_match *m = calloc(n, sizeof(*m));
	assert_non_null(m);
	assert_int_equal(identity_match(&d, links, N_LINKS, m), 0);
	size_t found = 0, ambiguous = 0;
	for (size_t i = 0; i < d.n_bonds; i++) {
		for (size_t j = 0; j < d.bonds[i].n_slaves; j++, k++) {
			const struct slave_selector *sel = &d.bonds[i].slaves[j].sel;
			const struct obs_link *first = NULL, *second = NULL;
			for (size_t x = 0; x < N_LINKS && !second; x++) {
				if (!identity_selects(sel, &links[x]))
					continue;
				if (first)
					second = &links[x];
				else
					first = &links[x];
				if (sel->kind == SEL_NAME)
					break;
			}
			if (m[k].state == ID_CONFLICT) {
				assert_non_null(first); /* a link was found, and taken twice */
				assert_null(second);
				assert_int_equal(m[k].ifindex, first->ifindex);
				continue;
			}
			if (!first) {
				assert_int_equal(m[k].state, ID_MISSING);
			} else if (second) {
				assert_int_equal(m[k].state, ID_AMBIGUOUS);
				assert_string_equal(m[k].name, first->name);
				assert_string_equal(m[k].other, second->name);
				ambiguous++;
			} else {
				assert_int_equal(m[k].state, ID_FOUND);
				assert_int_equal(m[k].ifindex, first->ifindex);
				found++;
			}
		}
	}
	assert_true(found > 0 && ambiguous > 0); /* the mix covers both */
	free(m);
	free(links);
	desired_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(rename_keeps_entry),
		cmocka_unit_test(conflict_text),
		cmocka_unit_test(same_as_linear_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
