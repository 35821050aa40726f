/* SPDX-License-Identifier: MIT */
/* One reply's bond views: what bond_views_build joins for each bond and
 * slave, the health it judges once, the live facts it reads only when
 * asked, and the reason every format then shows from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "hostcheck.h"
#include "linkcheck.h"
#include "service_status.h"
#include "status_render.h"

struct world {
	struct desired want;
	struct observed obs;
	struct bond_runtime bonds[2];
	struct link_runtime links[2];
	struct findings host, link;
	struct host_nic nics[1];
	struct host_obs hw;
	struct lc_result lc;
	const struct lc_result *lcv[1];
	struct lc_results lcs;
	struct status_view view;
	int live_calls;
};

static void put(struct world *w, int ifindex, const char *name, const char *kind, int master)
{
	struct obs_link l = {.ifindex = ifindex, .flags = IFF_UP | IFF_LOWER_UP, .mtu = 9000,
			     .master = master};
	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind);
	l.slave.valid = master != 0;
	l.slave.mii_status = MII_UP;
	l.stats.rx_bytes = 100u * (unsigned)ifindex;
	assert_int_equal(observed_put_link(&w->obs, &l), 0);
}

static struct obs_link *link_mut(struct world *w, const char *name)
{
	return (struct obs_link *)observed_by_name(&w->obs, name);
}

static void counting_live(void *ctx, const char *ifname, int ifindex, struct link_live *out)
{
	struct world *w = ctx;
	w->live_calls++;
	out->mbps = 10000;
	snprintf(out->duplex, sizeof(out->duplex), "full");
	out->has_stats = true;
	out->stats.rx_bytes = 7u * (unsigned)ifindex;
	(void)ifname;
}

/* bond0 (active-backup): e1 e2 enslaved, e1 active; e3 configured and
 * missing.  bond1: missing.  Findings about both bonds in two sources. */
static struct world *world_new(void)
{
	static const char conf[] = "[bond0]\nmode = active-backup\nslaves = e1 e2 e3\n"
				   "[bond1]\nslaves = f1\n";
	struct world *w = calloc(1, sizeof(*w));
	struct config_diag diag = {0};

	assert_non_null(w);
	assert_int_equal(config_parse("t.conf", conf, sizeof(conf) - 1, &w->want, &diag), 0);
	config_diag_free(&diag);
	put(w, 10, "bond0", "bond", 0);
	put(w, 11, "e1", "veth", 10);
	put(w, 12, "e2", "veth", 10);
	/* A link that is not a bond does not stand for bond1. */
	put(w, 20, "bond1", "veth", 0);
	struct obs_link *b = link_mut(w, "bond0");
	bond_settings_set(&b->bond, OPT_MODE, MODE_ACTIVE_BACKUP);
	snprintf(b->order[0], IFNAMSIZ, "e1");
	snprintf(b->order[1], IFNAMSIZ, "e2");
	b->n_order = 2;
	b->info.active_slave_ifindex = 11;
	snprintf(w->links[0].name, IFNAMSIZ, "e2");
	w->links[0].carrier_losses = 4;
	snprintf(w->links[1].name, IFNAMSIZ, "f1");
	w->bonds[0].actions = 3;
	snprintf(w->nics[0].name, IFNAMSIZ, "e2");
	w->nics[0].present = true;
	w->hw = (struct host_obs){.nics = w->nics, .n_nics = 1};
	snprintf(w->lc.bond, IFNAMSIZ, "bond0");
	w->lcv[0] = &w->lc;
	w->lcs = (struct lc_results){.v = w->lcv, .n = 1};
	findings_add(&w->link, FSRC_LINK_CHECK, FSEV_INFO, FK_CROSSED, "bond0");
	findings_add(&w->link, FSRC_LINK_CHECK, FSEV_DEGRADED, FK_UNREACHABLE, "bond1");
	findings_add(&w->host, FSRC_HOST_CHECK, FSEV_DEGRADED, FK_SHARED_CARD, "bond0");
	findings_add(&w->host, FSRC_HOST_CHECK, FSEV_INFO, FK_TCP_SETTING, "bond0");
	w->view = (struct status_view){.want = &w->want, .obs = &w->obs, .bonds = w->bonds,
				       .links = w->links, .n_links = 2, .host = &w->hw,
				       .linkcheck = &w->lcs, .link_live = counting_live,
				       .live_ctx = w};
	w->view.findings[FSRC_LINK_CHECK] = &w->link;
	w->view.findings[FSRC_HOST_CHECK] = &w->host;
	return w;
}

static void world_free(struct world *w)
{
	desired_free(&w->want);
	observed_free(&w->obs);
	findings_free(&w->link);
	findings_free(&w->host);
	free(w);
}

/* Each bond and slave with its own records, and nobody else's. */
static void joins_each_bond_once(void **state)
{
	struct world *w = world_new();
	struct bond_views bv;
	(void)state;

	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.n, 2);
	assert_ptr_equal(bv.from, &w->view);
	const struct bond_view *b0 = &bv.v[0], *b1 = &bv.v[1];
	assert_ptr_equal(b0->want, &w->want.bonds[0]);
	assert_ptr_equal(b0->obs, observed_by_name(&w->obs, "bond0"));
	assert_ptr_equal(b0->rt, &w->bonds[0]);
	assert_ptr_equal(b0->active, observed_by_name(&w->obs, "e1"));
	assert_ptr_equal(b0->linkcheck, &w->lc);
	assert_string_equal(b0->mode, "active-backup");
	assert_false(b0->is_8023ad);
	assert_int_equal(b0->slaves_up, 2);

	const struct slave_view *e1 = &b0->slaves[0], *e2 = &b0->slaves[1], *e3 = &b0->slaves[2];
	assert_string_equal(e1->name, "e1");
	assert_true(e1->enslaved && e1->info && e1->up && e1->active);
	assert_int_equal(e1->position, 1);
	assert_null(e1->rt);
	assert_null(e1->hw);
	assert_ptr_equal(e2->rt, &w->links[0]);
	assert_ptr_equal(e2->hw, &w->nics[0]);
	assert_int_equal(e2->position, 2);
	assert_false(e2->active);
	assert_null(e3->obs);
	assert_false(e3->enslaved || e3->up);
	assert_int_equal(e3->position, 0);
	/* Not asked for live facts: unknown speed, the netlink counters. */
	assert_int_equal(w->live_calls, 0);
	assert_int_equal(e2->live.mbps, -1);
	assert_string_equal(e2->live.duplex, "unknown");
	assert_int_equal(e2->live.stats.rx_bytes, 1200);

	/* This bond's findings only, the link check's before the host's. */
	assert_int_equal(b0->n_findings, 3);
	assert_int_equal(b0->findings[0]->kind, FK_CROSSED);
	assert_int_equal(b0->findings[1]->kind, FK_SHARED_CARD);
	assert_int_equal(b0->findings[2]->kind, FK_TCP_SETTING);
	assert_int_equal(b1->n_findings, 1);
	assert_int_equal(b1->findings[0]->kind, FK_UNREACHABLE);

	/* bond1's name belongs to a veth: bond1 does not exist. */
	assert_null(b1->obs);
	assert_null(b1->linkcheck);
	assert_string_equal(b1->mode, "balance-rr");
	assert_int_equal(b1->health, HEALTH_DOWN);
	assert_string_equal(b1->why, "bond1 does not exist");
	/* bond0 is degraded by e3 first, not by the finding after it. */
	assert_int_equal(b0->health, HEALTH_DEGRADED);
	assert_string_equal(b0->why, "e3 does not exist");
	assert_int_equal(bv.worst, HEALTH_DOWN);
	bond_views_free(&bv);

	/* A request's own order, a bond named twice: each view has its
	 * bond's findings, in source order. */
	const struct desired_bond *sel[] = {&w->want.bonds[1], &w->want.bonds[0],
					    &w->want.bonds[0]};
	assert_int_equal(bond_views_build(&bv, &w->view, sel, 3, false), 0);
	assert_int_equal(bv.v[0].n_findings, 1);
	assert_int_equal(bv.v[0].findings[0]->kind, FK_UNREACHABLE);
	for (size_t i = 1; i < 3; i++) {
		assert_int_equal(bv.v[i].n_findings, 3);
		assert_int_equal(bv.v[i].findings[0]->kind, FK_CROSSED);
		assert_int_equal(bv.v[i].findings[2]->kind, FK_TCP_SETTING);
		assert_ptr_equal(bv.v[i].linkcheck, &w->lc);
	}
	bond_views_free(&bv);
	world_free(w);
}

/* The sysfs and /proc reads of link_live happen once per existing slave
 * of a reply that shows them, and never for one that does not. */
static void live_facts_only_when_asked(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct bond_views bv;
	(void)state;

	assert_int_equal(bond_views_build(&bv, &w->view, sel, 1, true), 0);
	assert_int_equal(w->live_calls, 2); /* e1, e2; e3 does not exist */
	assert_int_equal(bv.v[0].slaves[1].live.mbps, 10000);
	assert_int_equal(bv.v[0].slaves[1].live.stats.rx_bytes, 84);
	assert_int_equal(bv.v[0].slaves[2].live.mbps, -1);
	bond_views_free(&bv);

	struct strbuf out = {0};
	assert_int_equal(bond_views_build(&bv, &w->view, sel, 1, false), 0);
	render_brief(&out, &bv);
	bond_views_free(&bv);
	assert_int_equal(w->live_calls, 2);
	sb_free(&out);
	char line[256];
	service_status_text(&w->view, line, sizeof(line));
	assert_int_equal(w->live_calls, 2);
	world_free(w);
}

/* A reason longer than a line: the view keeps 159 bytes, which --json
 * shows; --brief and STATUS= show the first 127, as before the views. */
static void long_reason_widths(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct bond_views bv;
	struct strbuf out = {0};
	char refused[200], expect[200];
	(void)state;

	struct action_failure f = {.ifname = "e1", .err = 22};
	memset(f.words, 'r', 176); /* "e1: rrr...": 180 bytes */
	bond_failing_add(&w->bonds[0].failing, &f);
	action_failure_text(&f, refused, sizeof(refused));
	assert_int_equal(strlen(refused), 180);
	w->bonds[0].refused = true;
	assert_int_equal(bond_views_build(&bv, &w->view, sel, 1, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_DEGRADED);
	assert_int_equal(strlen(bv.v[0].why), BOND_VIEW_WHY - 1);

	render_json(&out, &bv);
	snprintf(expect, sizeof(expect), "\"problem\":\"%.*s\"", BOND_VIEW_WHY - 1, refused);
	assert_non_null(strstr(out.s, expect));
	sb_reset(&out);
	render_brief(&out, &bv);
	/* (then the failing actions, whose text it is: " [failing: ...]") */
	snprintf(expect, sizeof(expect), " (%.*s)", BOND_VIEW_SHORT_WHY, refused);
	assert_non_null(strstr(out.s, expect));
	sb_free(&out);
	bond_views_free(&bv);

	char line[512];
	service_status_text(&w->view, line, sizeof(line));
	snprintf(expect, sizeof(expect), "bond0 degraded (%.*s)", BOND_VIEW_SHORT_WHY, refused);
	assert_non_null(strstr(line, expect));
	world_free(w);
}

/* Every format states the health the view judged: one verdict per bond. */
static void one_verdict_in_every_format(void **state)
{
	struct world *w = world_new();
	struct bond_views bv;
	struct strbuf out = {0};
	(void)state;

	/* e3 appears: bond0 is as configured but for the degraded finding. */
	put(w, 13, "e3", "veth", 10);
	snprintf(link_mut(w, "bond0")->order[2], IFNAMSIZ, "e3");
	link_mut(w, "bond0")->n_order = 3;
	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_DEGRADED);
	assert_string_equal(bv.v[0].why, "shared-card: ");
	render_brief(&out, &bv);
	assert_non_null(strstr(out.s, "bond0 degraded active-backup mtu 9000 slaves 3/3 up "
				      "(shared-card: )\n"));
	sb_reset(&out);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"health\":\"degraded\",\"health_code\":1,"
				      "\"problem\":\"shared-card: \""));
	assert_non_null(strstr(out.s, "\"health_code\":2,\"impaired\":null,\"trial\":null,\"bonds\""));
	sb_reset(&out);
	render_prometheus(&out, &bv);
	assert_non_null(strstr(out.s, "bondd_bond_health{master=\"bond0\",device=\"bond0\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_bond_findings{master=\"bond0\",device=\"bond0\","
				      "kind=\"shared-card\",severity=\"degraded\"} 1\n"));
	assert_null(strstr(out.s, "bondd_bond_findings{master=\"bond0\",device=\"bond0\","
				  "kind=\"unreachable\""));
	sb_free(&out);
	bond_views_free(&bv);
	world_free(w);
}

/* bondd itself impaired (a limit reached, its picture stale) is judged
 * with no bond asked about too: never a healthy exit status, and --json
 * says it at its top level with the cause; null when all is well. */
static void bondd_impaired_at_top_level(void **state)
{
	struct world *w = world_new();
	struct bond_views bv;
	struct strbuf out = {0};
	(void)state;

	assert_int_equal(bond_views_build(&bv, &w->view, NULL, 0, false), 0);
	assert_int_equal(bv.worst, HEALTH_OK);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"health_code\":0,\"impaired\":null,\"trial\":null,\"bonds\":[]"));
	bond_views_free(&bv);
	sb_free(&out);

	w->view.impaired = "impaired: link check: no packet socket for 3 slaves: Too many open "
			   "files (open-file limit 128)";
	assert_int_equal(bond_views_build(&bv, &w->view, NULL, 0, false), 0);
	assert_int_equal(bv.worst, HEALTH_DEGRADED);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"health_code\":1,\"impaired\":{\"picture_stale\":false,"
				      "\"limit_reached\":true,\"reason\":\"impaired: link check: no "
				      "packet socket for 3 slaves: Too many open files (open-file limit "
				      "128)\"}"));
	bond_views_free(&bv);
	sb_free(&out);

	/* A bond down stays the worst; stale and impaired both named. */
	w->view.stale = "re-reading links failing since 2026-01-02T03:04:05Z: No buffer space";
	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.worst, HEALTH_DOWN);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"impaired\":{\"picture_stale\":true,\"limit_reached\":true,"
				      "\"reason\":\"re-reading links failing since"));
	assert_non_null(strstr(out.s, "No buffer space; impaired: link check"));
	bond_views_free(&bv);
	sb_free(&out);
	world_free(w);
}

/* A bond's uppers: listed in --json; lost ones make it degraded with
 * their names; bridge = NAME's state, its note, and a bond in another
 * master's bridge degraded. */
static void uppers_health_and_json(void **state)
{
	static const char conf[] = "[bond0]\nmode = active-backup\nslaves = e1\nbridge = vmbr0\n";
	struct world *w = calloc(1, sizeof(*w));
	struct config_diag diag = {0};
	struct bond_views bv;
	struct strbuf out = {0};
	(void)state;

	assert_non_null(w);
	assert_int_equal(config_parse("t.conf", conf, sizeof(conf) - 1, &w->want, &diag), 0);
	config_diag_free(&diag);
	put(w, 4, "vmbr0", "bridge", 0);
	put(w, 10, "bond0", "bond", 4);
	link_mut(w, "bond0")->slave.valid = false; /* a bridge port, not a bond slave */
	put(w, 11, "e1", "veth", 10);
	put(w, 12, "bond0.21", "vlan", 0);
	link_mut(w, "bond0.21")->lower = 10;
	link_mut(w, "bond0.21")->vlan_id = 21;
	struct obs_link *b = link_mut(w, "bond0");
	bond_settings_set(&b->bond, OPT_MODE, MODE_ACTIVE_BACKUP);
	snprintf(b->order[0], IFNAMSIZ, "e1");
	b->n_order = 1;
	snprintf(w->bonds[0].name, IFNAMSIZ, "bond0");
	w->view = (struct status_view){.want = &w->want, .obs = &w->obs, .bonds = w->bonds};

	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_OK);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, ",\"uppers\":[{\"name\":\"vmbr0\",\"kind\":\"bridge\","
				      "\"ifindex\":4},{\"name\":\"bond0.21\",\"kind\":\"vlan\","
				      "\"ifindex\":12,\"vlan_id\":21}],\"uppers_lost\":[],"
				      "\"bridge\":{\"name\":\"vmbr0\",\"state\":\"port\","
				      "\"note\":null},"));
	bond_views_free(&bv);

	/* The kernel took a VLAN and the bridge port with the bond. */
	struct upper lost[2] = {{.name = "bond0.22", .kind = UPPER_VLAN, .vlan_id = 22},
				{.name = "vmbr9", .kind = UPPER_BRIDGE, .port = true}};
	memcpy(w->bonds[0].uppers.lost, lost, sizeof(lost));
	w->bonds[0].uppers.n_lost = 2;
	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_DEGRADED);
	assert_string_equal(bv.v[0].why, "uppers lost: bond0.22, vmbr9 (port)");
	sb_reset(&out);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"uppers_lost\":[{\"name\":\"bond0.22\",\"kind\":\"vlan\","
				      "\"vlan_id\":22},{\"name\":\"vmbr9\",\"kind\":\"bridge\"}]"));
	bond_views_free(&bv);
	w->bonds[0].uppers.n_lost = 0;

	/* Another master's port: left there, degraded. */
	put(w, 5, "vmbr1", "bridge", 0);
	link_mut(w, "bond0")->master = 5;
	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_DEGRADED);
	assert_string_equal(bv.v[0].why, "bond0 is a port of vmbr1, not of bridge vmbr0");
	bond_views_free(&bv);

	/* No bridge of that name: a note, healthy. */
	link_mut(w, "bond0")->master = 0;
	observed_del_link(&w->obs, 4);
	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	assert_int_equal(bv.v[0].health, HEALTH_OK);
	sb_reset(&out);
	render_json(&out, &bv);
	assert_non_null(strstr(out.s, "\"bridge\":{\"name\":\"vmbr0\",\"state\":\"absent\","
				      "\"note\":\"bridge vmbr0 does not exist: bond0 joins it when it "
				      "does\"}"));
	bond_views_free(&bv);
	sb_free(&out);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(joins_each_bond_once),
		cmocka_unit_test(live_facts_only_when_asked),
		cmocka_unit_test(long_reason_widths),
		cmocka_unit_test(one_verdict_in_every_format),
		cmocka_unit_test(bondd_impaired_at_top_level),
		cmocka_unit_test(uppers_health_and_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
