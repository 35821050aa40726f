/* SPDX-License-Identifier: MIT */
/* The status socket's pure parts: request parsing, the privilege filter on
 * real /proc text, health, and the three rendered formats. */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "service_status.h"
#include "json_text.h"
#include "peer_cred.h"
#include "proc_filter.h"
#include "status_proto.h"
#include "status_render.h"

/* --- requests --------------------------------------------------------- */

static int parse(const char *line, struct status_request *req, char *err)
{
	return status_request_parse(line, strlen(line), req, err, 256);
}

static void request_verbs_and_names(void **state)
{
	struct status_request r;
	char err[256];

	assert_int_equal(parse("proc", &r, err), 0);
	assert_int_equal(r.verb, SV_PROC);
	assert_int_equal(r.n_bonds, 0);
	assert_int_equal(parse("json bond0  bond1\r", &r, err), 0);
	assert_int_equal(r.verb, SV_JSON);
	assert_int_equal(r.n_bonds, 2);
	assert_string_equal(r.bonds[1], "bond1");
	assert_int_equal(parse("  brief", &r, err), 0);
	assert_int_equal(r.verb, SV_BRIEF);
	assert_int_equal(parse("prometheus b", &r, err), 0);
	assert_int_equal(parse("health b", &r, err), 0);
	assert_int_equal(r.verb, SV_HEALTH);
	assert_int_equal(parse("watch", &r, err), 0);
	assert_int_equal(r.verb, SV_WATCH);
	assert_int_equal(parse("version", &r, err), 0);
	assert_int_equal(r.verb, SV_VERSION);
	assert_int_equal(parse("reload", &r, err), 0);
	assert_int_equal(r.verb, SV_RELOAD);
	/* a reload on trial */
	assert_int_equal(parse("try 30", &r, err), 0);
	assert_int_equal(r.verb, SV_TRY);
	assert_int_equal(r.arg, 30);
	assert_int_equal(parse("try 1", &r, err), 0);
	assert_int_equal(parse("try 3600", &r, err), 0);
	assert_int_equal(r.arg, 3600);
	assert_int_equal(parse("confirm", &r, err), 0);
	assert_int_equal(r.verb, SV_CONFIRM);
	assert_int_equal(parse("trial-wait 7", &r, err), 0);
	assert_int_equal(r.verb, SV_TRIAL_WAIT);
	assert_int_equal(r.arg, 7);
	assert_int_equal(parse("trial-wait 4294967295", &r, err), 0);
	assert_int_equal(r.arg, 4294967295u);
	assert_int_equal(parse("settle", &r, err), 0);
	assert_int_equal(r.verb, SV_SETTLE);
	(void)state;
}

static void request_errors(void **state)
{
	struct status_request r;
	char err[256];
	static const char *const bad[] = {
		"", "   ", "PROC", "hello", "proc ..", "proc a/b", "proc a:b",
		"proc 0123456789abcdef", "watch bond0", "version x", "reload bond0",
		/* a reload on trial: seconds 1..3600, one number, digits only */
		"try", "try 0", "try 3601", "try -5", "try +5", "try 05", "try 5s", "try 5 5",
		"try bond0", "try 99999999999", "confirm bond0", "confirm 1", "trial-wait",
		"trial-wait 0", "trial-wait 4294967296", "trial-wait x", "trial-wait 1 2",
		"settle bond0", "settle 1",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad[i], &r, err), -1);
		assert_true(err[0] != '\0');
	}
	assert_int_equal(status_request_parse("proc\0x", 6, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "0x00"));
	assert_int_equal(parse("proc \x7f", &r, err), -1);

	char many[STATUS_MAX_REQUEST];
	size_t len = (size_t)snprintf(many, sizeof(many), "proc");
	for (int i = 0; i <= STATUS_MAX_NAMES; i++)
		len += (size_t)snprintf(many + len, sizeof(many) - len, " b%d", i);
	assert_int_equal(parse(many, &r, err), -1);
	assert_non_null(strstr(err, "more than"));
	(void)state;
}

/* --- the privilege filter, on text the 6.1 kernel printed -------------- */

static char *slurp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", getenv("DATA_DIR") ? getenv("DATA_DIR") : ".", name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 65536);
	assert_non_null(buf);
	*len = fread(buf, 1, 65535, f);
	fclose(f);
	return buf;
}

static void filter_matches_kernel(const char *root, const char *nobody)
{
	size_t rlen, nlen;
	char *r = slurp(root, &rlen), *n = slurp(nobody, &nlen);
	struct strbuf out = {0};

	proc_filter_unprivileged(r, rlen, &out);
	assert_false(out.oom);
	assert_int_equal(out.len, nlen);
	assert_memory_equal(out.s, n, nlen);
	sb_free(&out);
	free(r);
	free(n);
}

static void filter_hides_what_the_kernel_hides(void **state)
{
	/* Captured as root and as uid 65534 without capabilities. */
	filter_matches_kernel("8023ad-root.txt", "8023ad-nobody.txt");
	filter_matches_kernel("8023ad-noagg-root.txt", "8023ad-noagg-nobody.txt");
	(void)state;
}

/* The same on the newer kernels users run: text captured on 6.1, trixie's
 * 6.12 and sid's 7.2 (tests/unit/data/capture-kernel.sh), each with an LACP
 * partner, without an aggregator and without a partner. */
static void filter_matches_each_kernel(void **state)
{
	static const char *const kernels[] = {"6.1.176", "6.12.113", "7.2.7"};
	static const char *const cases[] = {"8023ad", "8023ad-noagg", "8023ad-nopartner"};
	char root[128], nobody[128];

	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			snprintf(root, sizeof(root), "kernel-%s/%s-root.txt", kernels[k], cases[c]);
			snprintf(nobody, sizeof(nobody), "kernel-%s/%s-nobody.txt", kernels[k],
				 cases[c]);
			filter_matches_kernel(root, nobody);
		}
	(void)state;
}

static void filter_keeps_other_text(void **state)
{
	static const char text[] = "Bonding Mode: load balancing (round-robin)\n"
				   "MII Status: up\n\nSlave Interface: e1\n"
				   "Permanent HW addr: 00:11:22:33:44:55\n    indented stays\n";
	struct strbuf out = {0};
	proc_filter_unprivileged(text, sizeof(text) - 1, &out);
	assert_string_equal(out.s, text);
	sb_free(&out);
	(void)state;
}

/* Aggregator ids as /proc prints them: the captured files of 6.1 and
 * 7.2.7, the "no active aggregator" file, and a port moved to an
 * aggregator of its own. */
static void proc_aggregators(void **state)
{
	(void)state;
	static const char *const files[] = {"kernel-6.1.176/8023ad-root.txt",
					    "kernel-7.2.7/8023ad-root.txt"};
	for (size_t f = 0; f < 2; f++) {
		size_t len;
		char *t = slurp(files[f], &len);
		uint16_t id = 9;
		assert_true(proc_active_aggregator(t, len, &id));
		assert_int_equal(id, 1);
		id = 9;
		assert_true(proc_slave_aggregator(t, len, "v0", &id));
		assert_int_equal(id, 1);
		assert_true(proc_slave_aggregator(t, len, "v1", &id));
		assert_false(proc_slave_aggregator(t, len, "v", &id));
		free(t);
	}
	size_t len;
	char *t = slurp("kernel-7.2.7/8023ad-noagg-root.txt", &len);
	uint16_t id = 9;
	assert_false(proc_active_aggregator(t, len, &id));
	assert_int_equal(id, 9);
	free(t);

	static const char text[] = "802.3ad info\nActive Aggregator Info:\n\tAggregator ID: 3\n"
				   "\tNumber of ports: 2\n\n"
				   "Slave Interface: e1\nAggregator ID: 3\n\n"
				   "Slave Interface: e3\nMII Status: up\nAggregator ID: 4\n\n"
				   "Slave Interface: e4\nMII Status: up\n\n"
				   "Slave Interface: e5\nAggregator ID: 70000\n\n"
				   "Slave Interface: e6\nAggregator ID: 7x\n\n"
				   "Slave Interface: e7\nAggregator ID: 65535"; /* no final newline */
	assert_true(proc_active_aggregator(text, sizeof(text) - 1, &id));
	assert_int_equal(id, 3);
	assert_true(proc_slave_aggregator(text, sizeof(text) - 1, "e3", &id));
	assert_int_equal(id, 4);
	id = 9;
	/* e4 has no line of its own: e5's must not be taken for it */
	assert_false(proc_slave_aggregator(text, sizeof(text) - 1, "e4", &id));
	assert_false(proc_slave_aggregator(text, sizeof(text) - 1, "e5", &id));
	assert_false(proc_slave_aggregator(text, sizeof(text) - 1, "e6", &id));
	assert_int_equal(id, 9);
	assert_true(proc_slave_aggregator(text, sizeof(text) - 1, "e7", &id));
	assert_int_equal(id, 65535);
	/* a slave's line before any active aggregator section is not the bond's */
	static const char noact[] = "Slave Interface: e1\nAggregator ID: 3\n";
	assert_false(proc_active_aggregator(noact, sizeof(noact) - 1, &id));
}

/* Churn states as /proc prints them: the captured 7.2.7 file (both
 * slaves monitoring), then the same text with each state changed as the
 * kernel's churn machine changes it without a netlink message, per slave. */
/* proc_lacp_scan, one pass, finds for every slave block what the
 * per-slave readers find, on the kernels' files and on texts with missing,
 * bad and out-of-range lines. */
struct scan_seen {
	const char *text;
	size_t len, n;
};

static void scan_check(void *ctx, const struct proc_lacp_slave *s)
{
	struct scan_seen *seen = ctx;
	char name[IFNAMSIZ + 8];
	uint16_t id = 0;
	uint8_t a = 0, p = 0;

	assert_true(s->name_len < sizeof(name));
	snprintf(name, sizeof(name), "%.*s", (int)s->name_len, s->name);
	assert_int_equal(s->has_aggregator, proc_slave_aggregator(seen->text, seen->len, name, &id));
	if (s->has_aggregator)
		assert_int_equal(s->aggregator, id);
	assert_int_equal(s->has_churn, proc_churn_states(seen->text, seen->len, name, &a, &p));
	if (s->has_churn) {
		assert_int_equal(s->actor_churn, a);
		assert_int_equal(s->partner_churn, p);
	}
	seen->n++;
}

static void proc_lacp_scan_matches(void **state)
{
	static const char *const files[] = {
		"kernel-6.1.176/8023ad-root.txt", "kernel-6.12.113/8023ad-root.txt",
		"kernel-7.2.7/8023ad-root.txt", "kernel-7.2.7/8023ad-nopartner-root.txt",
		"kernel-6.1.176/8023ad-nobody.txt", "kernel-7.2.7/8023ad-noagg-root.txt"};
	static const size_t slaves[] = {2, 2, 2, 1, 2, 0};
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
		struct scan_seen seen = {0};
		char *t = slurp(files[f], &seen.len);
		seen.text = t;
		proc_lacp_scan(t, seen.len, scan_check, &seen);
		assert_int_equal(seen.n, slaves[f]);
		free(t);
	}
	static const char text[] = "Slave Interface: e1\nActor Churn State: none\n"
				   "Partner Churn State: churned\nAggregator ID: 3\n\n"
				   "Slave Interface: e3\nActor Churn State: monitoring\n\n"
				   "Slave Interface: e4\nActor Churn State: bogus\n"
				   "Partner Churn State: none\nAggregator ID: 70000\n\n"
				   "Slave Interface: e5\nMII Status: up\nAggregator ID: 7x\n\n"
				   "Slave Interface: e6\nAggregator ID: 65535\nActor Churn State: none\n"
				   "Partner Churn State: none"; /* no final newline */
	struct scan_seen seen = {.text = text, .len = sizeof(text) - 1};
	proc_lacp_scan(text, seen.len, scan_check, &seen);
	assert_int_equal(seen.n, 5);
	(void)state;
}

static void proc_churn_states_per_slave(void **state)
{
	size_t len;
	char *t = slurp("kernel-7.2.7/8023ad-root.txt", &len);
	uint8_t a = 9, p = 9;

	assert_true(proc_churn_states(t, len, "v0", &a, &p));
	assert_int_equal(a, AD_CHURN_MONITOR);
	assert_int_equal(p, AD_CHURN_MONITOR);
	assert_true(proc_churn_states(t, len, "v1", &a, &p));
	assert_int_equal(a, AD_CHURN_MONITOR);
	assert_false(proc_churn_states(t, len, "v", &a, &p));  /* a prefix is not a name */
	assert_false(proc_churn_states(t, len, "v10", &a, &p));
	free(t);

	static const char text[] = "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n\n"
				   "Slave Interface: e1\nActor Churn State: none\n"
				   "Partner Churn State: churned\n\n"
				   "Slave Interface: e2\nActor Churn State: churned\n"
				   "Partner Churn State: none\n\n"
				   "Slave Interface: e3\nActor Churn State: monitoring\n\n"
				   "Slave Interface: e4\nActor Churn State: bogus\n"
				   "Partner Churn State: none\n\n"
				   "Slave Interface: e5\nMII Status: up\n\n"
				   "Slave Interface: e6\nActor Churn State: none\n"
				   "Partner Churn State: none"; /* no final newline */
	assert_true(proc_churn_states(text, sizeof(text) - 1, "e1", &a, &p));
	assert_int_equal(a, AD_CHURN_NONE);
	assert_int_equal(p, AD_CHURN_CHURNED);
	assert_true(proc_churn_states(text, sizeof(text) - 1, "e2", &a, &p));
	assert_int_equal(a, AD_CHURN_CHURNED);
	assert_int_equal(p, AD_CHURN_NONE);
	a = p = 9;
	/* e3 has no partner line of its own: e4's must not be taken for it */
	assert_false(proc_churn_states(text, sizeof(text) - 1, "e3", &a, &p));
	assert_false(proc_churn_states(text, sizeof(text) - 1, "e4", &a, &p));
	assert_false(proc_churn_states(text, sizeof(text) - 1, "e5", &a, &p));
	assert_int_equal(a, 9); /* nothing set on false */
	assert_int_equal(p, 9);
	assert_true(proc_churn_states(text, sizeof(text) - 1, "e6", &a, &p));
	assert_int_equal(a, AD_CHURN_NONE);
	assert_int_equal(p, AD_CHURN_NONE);
	(void)state;
}

static void peer_status_text(void **state)
{
	static const char root[] = "\nName:\tx\nUid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\n";
	static const char root_nocap[] = "\nUid:\t0\t0\t0\t0\nCapEff:\t000001ffffffefff\n";
	static const char user[] = "\nName:\tx\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n";
	static const char admin[] = "\nUid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000001000\n";
	/* A set-uid root program run by uid 1000: real uid 1000, the rest 0. */
	static const char setuid[] = "\nUid:\t1000\t0\t0\t0\nCapEff:\t000001ffffffffff\n";
	assert_true(status_text_has_net_admin(root, 0));
	assert_false(status_text_has_net_admin(root_nocap, 0));
	/* Connected as 1000; the pid is root's now (exec of set-uid, or reuse). */
	assert_false(status_text_has_net_admin(root, 1000));
	assert_false(status_text_has_net_admin(user, 1000));
	/* Non-root with the capability: hidden, it may have come after connect(). */
	assert_false(status_text_has_net_admin(admin, 1000));
	assert_false(status_text_has_net_admin(setuid, 0));
	assert_false(status_text_has_net_admin(setuid, 1000));
	assert_false(status_text_has_net_admin("\nName:\tx\n", 0));
	assert_false(status_text_has_net_admin("\nUid:\t0\t0\nCapEff:\t000001ffffffffff\n", 0));

	/* bondd's own user (61234 here) may reload, when that user is not root. */
	static const char own[] = "\nUid:\t61234\t61234\t61234\t61234\nCapEff:\t0000000000001000\n";
	static const char own_setuid[] = "\nUid:\t61234\t0\t0\t0\nCapEff:\t000001ffffffffff\n";
	assert_true(status_text_is_user(own, 61234, 61234));
	assert_false(status_text_is_user(own, 1000, 61234));
	assert_false(status_text_is_user(own_setuid, 61234, 61234));
	assert_false(status_text_is_user(user, 1000, 61234));
	/* Root is not "the same user" of a root bondd: without CAP_NET_ADMIN,
	 * or having connected as root and become someone else, it may not. */
	assert_false(status_text_is_user(root_nocap, 0, 0));
	assert_false(status_text_is_user(root, 0, 0));
	assert_false(status_text_is_user(user, 0, 0));
	assert_false(status_text_is_user("\nName:\tx\n", 61234, 61234));
	(void)state;
}

/* --- health and rendering ---------------------------------------------- */

struct world {
	struct desired want;
	struct observed obs;
	struct bond_runtime bonds[4];
	struct link_runtime links[16];
	struct event_log events;
	struct status_view view;
};

static void add_link(struct world *w, int ifindex, const char *name, const char *kind,
		     unsigned flags, uint32_t mtu, int master)
{
	struct obs_link l = {.ifindex = ifindex, .flags = flags, .mtu = mtu, .master = master};
	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind);
	if (master) {
		l.slave.valid = true;
		l.slave.mii_status = MII_UP;
		l.slave.link_failure_count = 2;
	}
	l.stats.tx_packets = 1000u + (unsigned)ifindex;
	assert_int_equal(observed_put_link(&w->obs, &l), 0);
}

static struct obs_link *link_mut(struct world *w, const char *name)
{
	return (struct obs_link *)observed_by_name(&w->obs, name);
}

/* bond0: e1 e2 e3 at 9000, all whole; bond1: missing from the kernel. */
static struct world *world_new(void)
{
	static const char conf[] = "[bond0]\nmode = balance-rr\nmiimon = 100\n"
				   "slaves = e1 e2 e3\naddress = 10.0.0.1/24\n"
				   "[bond1]\nmode = active-backup\nslaves = f1\n";
	struct world *w = calloc(1, sizeof(*w));
	struct config_diag diag = {0};
	assert_non_null(w);
	assert_int_equal(config_parse("t.conf", conf, sizeof(conf) - 1, &w->want, &diag), 0);
	config_diag_free(&diag);
	const unsigned up = IFF_UP | IFF_LOWER_UP;
	add_link(w, 10, "bond0", "bond", up, 9000, 0);
	struct obs_link *b = link_mut(w, "bond0");
	bond_settings_set(&b->bond, OPT_MODE, MODE_BALANCE_RR);
	bond_settings_set(&b->bond, OPT_MIIMON, 100);
	const char *names[] = {"e1", "e2", "e3"};
	for (int i = 0; i < 3; i++) {
		add_link(w, 11 + i, names[i], "veth", up, 9000, 10);
		snprintf(link_mut(w, "bond0")->order[i], IFNAMSIZ, "%s", names[i]);
	}
	link_mut(w, "bond0")->n_order = 3;
	snprintf(w->bonds[0].name, IFNAMSIZ, "bond0");
	snprintf(w->bonds[1].name, IFNAMSIZ, "bond1");
	snprintf(w->links[0].name, IFNAMSIZ, "e2");
	snprintf(w->links[0].bond, IFNAMSIZ, "bond0");
	w->links[0].carrier_losses = 3;
	w->links[0].last_flap_ms = 1700000000123;
	struct event e = {.wall_ms = 1700000000000, .kind = EV_REPAIR};
	snprintf(e.bond, sizeof(e.bond), "bond0");
	snprintf(e.link, sizeof(e.link), "e2");
	snprintf(e.text, sizeof(e.text), "enslave e2 to bond0 \"quoted\" (missing)");
	event_log_add(&w->events, &e);
	w->view = (struct status_view){.want = &w->want, .obs = &w->obs, .bonds = w->bonds,
				       .links = w->links, .n_links = 1, .events = &w->events,
				       .now_ms = 1700000001000};
	return w;
}

static void world_free(struct world *w)
{
	desired_free(&w->want);
	observed_free(&w->obs);
	free(w);
}

/* The renderers as the tests call them: one selection of one view,
 * assembled as a reply assembles it (live facts for JSON and Prometheus). */
static void render_with(struct strbuf *out, const struct status_view *v,
			const struct desired_bond *const *sel, size_t n, bool live,
			void (*render)(struct strbuf *, const struct bond_views *))
{
	struct bond_views bv;

	assert_int_equal(bond_views_build(&bv, v, sel, n, live), 0);
	render(out, &bv);
	bond_views_free(&bv);
}

static void json_of(struct strbuf *out, const struct status_view *v,
		    const struct desired_bond *const *sel, size_t n)
{
	render_with(out, v, sel, n, true, render_json);
}

static void prometheus_of(struct strbuf *out, const struct status_view *v,
			  const struct desired_bond *const *sel, size_t n)
{
	render_with(out, v, sel, n, true, render_prometheus);
}

static void brief_of(struct strbuf *out, const struct status_view *v,
		     const struct desired_bond *const *sel, size_t n)
{
	render_with(out, v, sel, n, false, render_brief);
}

static enum status_health worst_of(const struct status_view *v,
				   const struct desired_bond *const *sel, size_t n)
{
	struct bond_views bv;

	assert_int_equal(bond_views_build(&bv, v, sel, n, false), 0);
	enum status_health h = bv.worst;
	bond_views_free(&bv);
	return h;
}

/* One bond's health and its reason, as --brief shows it (127 bytes). */
static enum status_health health(struct world *w, const char *bond, char *why)
{
	const struct desired_bond *sel[] = {desired_find_bond(&w->want, bond)};
	struct bond_views bv;

	assert_int_equal(bond_views_build(&bv, &w->view, sel, 1, false), 0);
	enum status_health h = bv.v[0].health;
	snprintf(why, 128, "%.*s", BOND_VIEW_SHORT_WHY, bv.v[0].why);
	bond_views_free(&bv);
	return h;
}

static void health_rules(void **state)
{
	struct world *w = world_new();
	char why[128];

	assert_int_equal(health(w, "bond0", why), HEALTH_OK);
	assert_int_equal(health(w, "bond1", why), HEALTH_DOWN);
	assert_string_equal(why, "bond1 does not exist");

	link_mut(w, "e2")->slave.mii_status = MII_DOWN;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e2: MII down");
	link_mut(w, "e2")->slave.mii_status = MII_UP;

	link_mut(w, "e3")->mtu = 1500;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	link_mut(w, "e3")->mtu = 9000;

	/* Out of order: e3 before e2. */
	snprintf(link_mut(w, "bond0")->order[1], IFNAMSIZ, "e3");
	snprintf(link_mut(w, "bond0")->order[2], IFNAMSIZ, "e2");
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e2 is not at position 2");
	snprintf(link_mut(w, "bond0")->order[1], IFNAMSIZ, "e2");
	snprintf(link_mut(w, "bond0")->order[2], IFNAMSIZ, "e3");

	link_mut(w, "e1")->master = 0;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e1 is not enslaved");
	link_mut(w, "e1")->master = 10;

	/* mac_address: the bond's MAC is compared only when configured. */
	static const uint8_t pinned[6] = {0x02, 0, 0, 0, 0, 0x0b};
	struct desired_bond *b0 = &w->want.bonds[0];
	b0->has_mac = true;
	memcpy(b0->mac, pinned, 6);
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "bond0 has MAC 00:00:00:00:00:00, not 02:00:00:00:00:0b");
	memcpy(link_mut(w, "bond0")->hwaddr, pinned, 6);
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);
	b0->has_mac = false;

	/* A picture that may be stale is not a healthy one, in every format
	 * (they all read the health bond_views_build judged). */
	w->view.stale = "re-reading links failing since 2026-01-02T03:04:05Z: Interrupted system call";
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, w->view.stale);
	struct strbuf out = {0};
	const struct desired_bond *sel[] = {desired_find_bond(&w->want, "bond0")};
	brief_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "degraded"));
	assert_non_null(strstr(out.s, "re-reading links failing since"));
	sb_free(&out);
	w->view.stale = NULL;
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);

	link_mut(w, "bond0")->flags &= ~(unsigned)IFF_LOWER_UP;
	assert_int_equal(health(w, "bond0", why), HEALTH_DOWN);
	link_mut(w, "bond0")->flags &= ~(unsigned)IFF_UP;
	assert_int_equal(health(w, "bond0", why), HEALTH_DOWN);
	assert_string_equal(why, "bond0 is down");
	world_free(w);
	(void)state;
}

/* systemd's STATUS= line: every bond and its health, the reason of each
 * that is not healthy; past SERVICE_STATUS_NAMED bonds, healthy ones are
 * only counted. */
static void service_status_line(void **state)
{
	struct world *w = world_new();
	char line[256];

	service_status_text(&w->view, line, sizeof(line));
	assert_string_equal(line, "2 bonds: bond0 healthy, bond1 down (bond1 does not exist)");
	link_mut(w, "e1")->master = 0;
	service_status_text(&w->view, line, sizeof(line));
	assert_string_equal(line, "2 bonds: bond0 degraded (e1 is not enslaved), "
				  "bond1 down (bond1 does not exist)");
	service_status_text(&w->view, line, 20);
	assert_string_equal(line, "2 bonds: bond0 degr");

	/* Six bonds, five of them healthy: counted, the sixth named. */
	struct desired many = {0};
	struct config_diag diag = {0};
	static const char conf[] = "[a]\nslaves = sa\n[b]\nslaves = sb\n[c]\nslaves = sc\n"
				   "[d]\nslaves = sd\n[e]\nslaves = se\n[bond1]\nslaves = f1\n";
	assert_int_equal(config_parse("m.conf", conf, sizeof(conf) - 1, &many, &diag), 0);
	config_diag_free(&diag);
	const unsigned up = IFF_UP | IFF_LOWER_UP;
	const char *names[] = {"a", "b", "c", "d", "e"};
	struct observed obs = {0};
	for (int i = 0; i < 5; i++) {
		struct obs_link b = {.ifindex = 100 + i, .flags = up, .mtu = 9000, .n_order = 1};
		struct obs_link sl = {.ifindex = 200 + i, .flags = up, .mtu = 9000,
				      .master = 100 + i};
		snprintf(b.name, sizeof(b.name), "%s", names[i]);
		snprintf(b.kind, sizeof(b.kind), "bond");
		snprintf(b.order[0], IFNAMSIZ, "s%s", names[i]);
		snprintf(sl.name, sizeof(sl.name), "s%s", names[i]);
		snprintf(sl.kind, sizeof(sl.kind), "veth");
		sl.slave.valid = true;
		sl.slave.mii_status = MII_UP;
		assert_int_equal(observed_put_link(&obs, &b), 0);
		assert_int_equal(observed_put_link(&obs, &sl), 0);
	}
	struct status_view v = w->view;
	v.want = &many;
	v.obs = &obs;
	service_status_text(&v, line, sizeof(line));
	assert_string_equal(line, "6 bonds: 5 healthy, bond1 down (bond1 does not exist)");
	desired_free(&many);
	observed_free(&obs);

	struct desired none = {0};
	v.want = &none;
	service_status_text(&v, line, sizeof(line));
	assert_string_equal(line, "no bonds configured: idle");

	/* Names may hold any byte above 0x7f (net/core/dev.c dev_valid_name);
	 * systemd ignores a STATUS= that is not UTF-8, and a cut may split a
	 * character: the line is printable ASCII, other bytes as \xHH. */
	struct desired odd = {0};
	static const char oconf[] = "[b\xff]\nslaves = s\xc3\xa9\n";
	assert_int_equal(config_parse("o.conf", oconf, sizeof(oconf) - 1, &odd, &diag), 0);
	config_diag_free(&diag);
	v.want = &odd;
	service_status_text(&v, line, sizeof(line));
	assert_string_equal(line, "1 bond: b\\xff down (b\\xff does not exist)");
	service_status_text(&v, line, 13);
	assert_string_equal(line, "1 bond: b");
	service_status_text(&v, line, 14);
	assert_string_equal(line, "1 bond: b\\xff");
	desired_free(&odd);
	world_free(w);
	(void)state;
}

static void select_in_config_order(void **state)
{
	struct world *w = world_new();
	struct status_request r;
	const struct desired_bond *sel[STATUS_MAX_NAMES];
	const char *unknown = NULL;
	char err[256];
	size_t n;

	assert_int_equal(parse("proc bond1 bond0", &r, err), 0);
	assert_int_equal(status_select(&w->view, &r, sel, &n, &unknown), 0);
	assert_int_equal(n, 2);
	assert_string_equal(sel[0]->name, "bond0");
	assert_int_equal(worst_of(&w->view, sel, n), HEALTH_DOWN);
	assert_int_equal(parse("proc bond0 nope", &r, err), 0);
	assert_int_equal(status_select(&w->view, &r, sel, &n, &unknown), -1);
	assert_string_equal(unknown, "nope");
	world_free(w);
	(void)state;
}

/* A request that names no bond covers every bond, beyond the 64 names a
 * request may carry: a bond down at the 200th place is in --brief and
 * --prometheus and judges the reply (issue 34: the first 64 only). */
static void select_all_beyond_names(void **state)
{
	enum { N = 300 };
	struct strbuf conf = {0}, out = {0};
	struct desired want = {0};
	struct config_diag diag = {0};
	struct observed obs = {0};
	struct status_request r;
	static const struct desired_bond *sel[STATUS_MAX_BONDS];
	const char *unknown = NULL;
	char err[160];
	size_t n;

	for (int i = 0; i < N; i++)
		sb_printf(&conf, "[b%d]\nslaves = s%d\n", i, i);
	assert_int_equal(config_parse("t.conf", conf.s, conf.len, &want, &diag), 0);
	config_diag_free(&diag);
	const unsigned up = IFF_UP | IFF_LOWER_UP;
	for (int i = 0; i < N; i++) {
		if (i == 199)
			continue; /* b199 does not exist: down */
		struct obs_link b = {.ifindex = 10 + 2 * i, .flags = up, .mtu = 9000};
		snprintf(b.name, sizeof(b.name), "b%d", i);
		snprintf(b.kind, sizeof(b.kind), "bond");
		bond_settings_set(&b.bond, OPT_MODE, MODE_BALANCE_RR);
		b.n_order = 1;
		snprintf(b.order[0], IFNAMSIZ, "s%d", i);
		assert_int_equal(observed_put_link(&obs, &b), 0);
		struct obs_link s = {.ifindex = 11 + 2 * i, .flags = up, .mtu = 9000,
				     .master = 10 + 2 * i};
		snprintf(s.name, sizeof(s.name), "s%d", i);
		snprintf(s.kind, sizeof(s.kind), "dummy");
		s.slave.valid = true;
		s.slave.mii_status = MII_UP;
		assert_int_equal(observed_put_link(&obs, &s), 0);
	}
	struct status_view v = {.want = &want, .obs = &obs, .now_ms = 1700000001000};
	assert_int_equal(parse("brief", &r, err), 0);
	assert_int_equal(status_select(&v, &r, sel, &n, &unknown), 0);
	assert_int_equal(n, N);
	assert_string_equal(sel[N - 1]->name, "b299");
	assert_int_equal(worst_of(&v, sel, n), HEALTH_DOWN);
	brief_of(&out, &v, sel, n);
	assert_non_null(strstr(out.s, "b199 down"));
	assert_non_null(strstr(out.s, "b299 healthy"));
	sb_reset(&out);
	prometheus_of(&out, &v, sel, n);
	assert_non_null(strstr(out.s, "bondd_bond_health{master=\"b199\",device=\"b199\"} 2"));
	assert_non_null(strstr(out.s, "bondd_bond_health{master=\"b299\",device=\"b299\"} 0"));
	sb_free(&out);
	sb_free(&conf);
	observed_free(&obs);
	desired_free(&want);
	(void)state;
}

static void brief_lines(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0], &w->want.bonds[1]};
	struct strbuf out = {0};

	brief_of(&out, &w->view, sel, 2);
	assert_string_equal(out.s, "bond0 healthy balance-rr mtu 9000 slaves 3/3 up\n"
				   "bond1 down active-backup mtu 9000 slaves 0/1 up "
				   "(bond1 does not exist)\n");
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* mac_address: configured and observed in JSON, kept or not in Prometheus;
 * no metric for a bond without it. */
static void mac_address_outputs(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	static const uint8_t pinned[6] = {0x02, 0xab, 0, 0, 0, 0x0b};
	struct strbuf out = {0};

	prometheus_of(&out, &w->view, sel, 1);
	assert_null(strstr(out.s, "bondd_bond_mac_address_kept"));
	sb_free(&out);
	w->want.bonds[0].has_mac = true;
	memcpy(w->want.bonds[0].mac, pinned, 6);
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"configured\":{\"mtu\":9000,\"mac_address\":"
				      "\"02:ab:00:00:00:0b\","));
	sb_free(&out);
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_bond_mac_address_kept{master=\"bond0\",device=\"bond0\"} 0\n"));
	sb_free(&out);
	memcpy(link_mut(w, "bond0")->hwaddr, pinned, 6);
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"observed\":{\"mtu\":9000,\"mac_address\":"
				      "\"02:ab:00:00:00:0b\","));
	sb_free(&out);
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_bond_mac_address_kept{master=\"bond0\",device=\"bond0\"} 1\n"));
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* Slaves by selector: today's name beside the entry, the NIC's permanent
 * address and device path; an entry no link answers to is shown as
 * written, in --json and --prometheus alike. */
static void json_selectors(void **state)
{
	(void)state;
	struct world *w = world_new();
	static const char conf[] = "[bond0]\nmode = balance-rr\nmiimon = 100\n"
				   "slaves = mac:02:00:00:00:aa:01 mac:02:00:00:00:aa:07 e3\n"
				   "[bond1]\nmode = active-backup\nslaves = f1\n";
	struct config_diag diag = {0};
	desired_free(&w->want);
	assert_int_equal(config_parse("t.conf", conf, sizeof(conf) - 1, &w->want, &diag), 0);
	config_diag_free(&diag);
	/* e1 is the first entry's link (as identity_apply would say). */
	struct obs_link *e1 = link_mut(w, "e1");
	e1->has_perm_addr = true;
	memcpy(e1->perm_addr, "\x02\x00\x00\x00\xaa\x01", 6);
	snprintf(e1->id_path, sizeof(e1->id_path), "pci-0000:3b:00.0");
	e1->dev_port = 1;
	snprintf(w->want.bonds[0].slaves[0].name, IFNAMSIZ, "e1");
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct strbuf out = {0};

	json_of(&out, &w->view, sel, 1);
	assert_false(out.oom);
	static const char *const want[] = {
		"\"slaves\":[\"mac:02:00:00:00:aa:01\",\"mac:02:00:00:00:aa:07\",\"e3\"]",
		"{\"name\":\"e1\",\"selector\":\"mac:02:00:00:00:aa:01\",\"configured_position\":1,"
		"\"position\":1,\"present\":true",
		"\"permanent_address\":\"02:00:00:00:aa:01\",\"device_path\":\"pci-0000:3b:00.0\","
		"\"dev_port\":1,",
		"{\"name\":\"mac:02:00:00:00:aa:07\",\"selector\":\"mac:02:00:00:00:aa:07\","
		"\"configured_position\":2,\"position\":null,\"present\":false",
		"{\"name\":\"e3\",\"selector\":\"e3\",",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(out.s, want[i]))
			fail_msg("JSON lacks %s in %s", want[i], out.s);
	assert_null(strstr(out.s, "m:02000000aa07"));
	sb_free(&out);
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"mac:02:00:00:00:aa:07\""));
	assert_null(strstr(out.s, "m:02000000aa07"));
	sb_free(&out);
	world_free(w);
}

/* A reload on trial in the status: --json's trial object, --brief's and
 * --explain's line, while it runs and after it ended. */
static void trial_shown(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct strbuf out = {0};

	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, ",\"trial\":null,\"bonds\":["));
	sb_free(&out);
	render_with(&out, &w->view, sel, 1, false, render_brief);
	assert_null(strstr(out.s, "trial"));
	sb_free(&out);

	/* now_ms 1700000001000; 17.5 s left: 18 shown (rounded up). */
	w->view.trial = (struct status_trial){.state = STRIAL_RUNNING, .id = 3, .seconds = 30,
					      .started_ms = 1700000000000 - 11500,
					      .deadline_ms = 1700000001000 + 17500};
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, ",\"trial\":{\"id\":3,\"state\":\"running\",\"seconds\":30,"
				      "\"started\":\"2023-11-14T22:13:08.500Z\",\"deadline\":"
				      "\"2023-11-14T22:13:38.500Z\",\"seconds_left\":18,\"ended\":null,"
				      "\"reason\":null},\"bonds\":["));
	sb_free(&out);
	render_with(&out, &w->view, sel, 1, false, render_brief);
	assert_non_null(strstr(out.s, "\ntrial 3 running: 18 s left; put back unless confirmed "
				      "(bondd-status --confirm)\n"));
	assert_int_equal(out.s[0], 'b'); /* the bonds' lines first */
	sb_free(&out);
	render_with(&out, &w->view, sel, 1, true, render_explain);
	assert_true(strncmp(out.s, "trial 3 running: 18 s left", 26) == 0);
	sb_free(&out);

	w->view.trial.state = STRIAL_ROLLED_BACK;
	w->view.trial.ended_ms = 1700000000500;
	snprintf(w->view.trial.reason, sizeof(w->view.trial.reason), "bond0 is down");
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"state\":\"rolled-back\","));
	assert_non_null(strstr(out.s, "\"seconds_left\":null,\"ended\":\"2023-11-14T22:13:20.500Z\","
				      "\"reason\":\"bond0 is down\"}"));
	sb_free(&out);
	/* --brief shows a trial while it runs only; --explain its outcome. */
	render_with(&out, &w->view, sel, 1, false, render_brief);
	assert_null(strstr(out.s, "trial"));
	sb_free(&out);
	render_with(&out, &w->view, sel, 1, true, render_explain);
	assert_true(strncmp(out.s, "trial 3 rolled back: bond0 is down\n\n", 36) == 0);
	sb_free(&out);
	world_free(w);
	(void)state;
}

static void json_fields(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0], &w->want.bonds[1]};
	struct strbuf out = {0};

	json_of(&out, &w->view, sel, 2);
	assert_false(out.oom);
	static const char *const want[] = {
		"\"protocol\":1", "\"health_code\":2", "\"name\":\"bond0\"",
		"\"health\":\"healthy\"", "\"configured\":{\"mtu\":9000,\"mac_address\":null,\"options\":{\"mode\":\"balance-rr\",\"miimon\":100}",
		"\"slaves\":[\"e1\",\"e2\",\"e3\"]", "\"addresses\":[\"10.0.0.1/24\"]",
		"\"observed\":{\"mtu\":9000,\"mac_address\":\"00:00:00:00:00:00\",", "\"configured_position\":2,\"position\":2",
		"\"mii_status\":\"up\",\"link_failure_count\":2", "\"speed_mbps\":null",
		"\"tx_packets\":1012", "\"carrier_flaps\":3,\"last_flap\":\"2023-11-14T22:13:20.123Z\"",
		"\"text\":\"enslave e2 to bond0 \\\"quoted\\\" (missing)\"",
		"\"name\":\"bond1\"", "\"present\":false", "\"observed\":null",
		"\"problem\":\"bond1 does not exist\"", "\"privileged\":false",
		/* A slave that does not exist: every key, null. */
		"{\"name\":\"f1\",\"selector\":\"f1\",\"configured_position\":1,\"position\":null,\"present\":false,"
		"\"enslaved\":false,\"ifindex\":null,\"mtu\":null,\"carrier\":null,"
		"\"mii_status\":null,\"link_failure_count\":null,\"permanent_address\":null,"
		"\"device_path\":null,\"dev_port\":null,\"state\":null,\"active_slave\":null,\"queue_id\":null,\"ad_aggregator_id\":null,"
		"\"ad_actor_port_state\":null,\"ad_partner_port_state\":null,\"ad_actor_port_prio\":null,"
		"\"ad_churn_actor_state\":null,\"ad_churn_partner_state\":null,\"lacp_problem\":null,"
		"\"speed_mbps\":null,\"duplex\":null,\"rx_bytes\":null,\"tx_bytes\":null,"
		"\"rx_packets\":null,\"tx_packets\":null,\"rx_errors\":null,\"tx_errors\":null,"
		"\"rx_dropped\":null,\"tx_dropped\":null,\"rx_crc_errors\":null,"
		"\"rx_missed_errors\":null,\"carrier_changes\":null,"
		"\"carrier_flaps\":0,\"last_flap\":null,\"hardware\":null,\"lldp\":null}",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(out.s, want[i]))
			fail_msg("JSON lacks %s in %s", want[i], out.s);
	/* Balanced brackets outside strings: a cheap structural check. */
	int depth = 0;
	bool in_str = false;
	for (const char *p = out.s; *p; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"')
			in_str = true;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			assert_true(--depth >= 0);
	}
	assert_int_equal(depth, 0);
	assert_false(in_str);
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* A daemon's link_live callback that counts its calls (each is a netlink
 * round trip in bondd) and reports counters of its own. */
static void counting_live(void *ctx, const char *ifname, int ifindex, struct link_live *out)
{
	(*(int *)ctx)++;
	(void)ifname;
	out->has_stats = true;
	out->stats.tx_packets = 5000u + (unsigned)ifindex;
	out->stats.rx_crc_errors = 40u + (unsigned)ifindex;
	out->stats.tx_dropped = 60u + (unsigned)ifindex;
	out->stats.has_crc_missed = ifindex != 12; /* e2: the files could not be read */
}

/* The log's health lines: one per change, none when the health is the
 * one last logged, the first after a start from "unknown". */
static void health_change_lines(void **state)
{
	static const struct {
		bool logged;
		enum status_health was, now;
		const char *why, *line; /* line NULL: nothing to log */
	} cases[] = {
		{false, HEALTH_OK, HEALTH_OK, "", "bond0: health: unknown -> healthy"},
		{false, HEALTH_OK, HEALTH_DOWN, "bond0 does not exist",
		 "bond0: health: unknown -> down: bond0 does not exist"},
		{true, HEALTH_OK, HEALTH_OK, "", NULL},
		{true, HEALTH_DEGRADED, HEALTH_DEGRADED, "e2: MII down", NULL},
		{true, HEALTH_OK, HEALTH_DEGRADED, "e2: MII down",
		 "bond0: health: healthy -> degraded: e2: MII down"},
		{true, HEALTH_DEGRADED, HEALTH_DOWN, "no carrier",
		 "bond0: health: degraded -> down: no carrier"},
		{true, HEALTH_DOWN, HEALTH_OK, "", "bond0: health: down -> healthy"},
	};
	struct desired_bond want = {.name = "bond0"};
	char line[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bond_view b = {.want = &want, .health = cases[i].now};
		snprintf(b.why, sizeof(b.why), "%s", cases[i].why);
		bool said = health_change_line(cases[i].logged, cases[i].was, &b, line, sizeof(line));
		assert_int_equal(said, cases[i].line != NULL);
		if (cases[i].line)
			assert_string_equal(line, cases[i].line);
	}
}

static void prometheus_lines(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0], &w->want.bonds[1]};
	struct strbuf out = {0};
	int live_calls = 0;

	w->view.link_live = counting_live;
	w->view.live_ctx = &live_calls;
	prometheus_of(&out, &w->view, sel, 2);
	/* e1 e2 e3 exist, f1 does not: one fetch each, not one per counter. */
	assert_int_equal(live_calls, 3);
	static const char *const want[] = {
		"# TYPE bondd_bond_health gauge\n",
		"bondd_bond_health{master=\"bond0\",device=\"bond0\"} 0\n",
		"bondd_bond_health{master=\"bond1\",device=\"bond1\"} 2\n",
		"bondd_bond_up{master=\"bond1\",device=\"bond1\"} 0\n",
		"bondd_bond_slaves_up{master=\"bond0\",device=\"bond0\"} 3\n",
		"bondd_bond_slaves_configured{master=\"bond1\",device=\"bond1\"} 1\n",
		/* bond0's mode from the kernel, bond1 (missing) the configured one. */
		"bondd_bond_mode_info{master=\"bond0\",device=\"bond0\",mode=\"balance-rr\"} 1\n",
		"bondd_bond_mode_info{master=\"bond1\",device=\"bond1\",mode=\"active-backup\"} 1\n",
		"bondd_slave_in_place{master=\"bond0\",device=\"e2\"} 1\n",
		"bondd_slave_carrier_flaps_total{master=\"bond0\",device=\"e2\"} 3\n",
		"bondd_slave_tx_packets_total{master=\"bond0\",device=\"e3\"} 5013\n",
		"bondd_slave_rx_crc_errors_total{master=\"bond0\",device=\"e3\"} 53\n",
		"bondd_slave_tx_dropped_total{master=\"bond0\",device=\"e2\"} 72\n",
		"bondd_slave_rx_errors_total{master=\"bond0\",device=\"e1\"} 0\n",
		"bondd_slave_in_place{master=\"bond1\",device=\"f1\"} 0\n",
		"bondd_build_info{version=\"", "bondd_config_last_reload_successful 1\n",
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!strstr(out.s, want[i]))
			fail_msg("metrics lack %s", want[i]);
	/* A counter that could not be read has no sample, not a zero. */
	assert_null(strstr(out.s, "bondd_slave_rx_crc_errors_total{master=\"bond0\",device=\"e2\"}"));
	assert_null(strstr(out.s, "bondd_slave_rx_missed_errors_total{master=\"bond0\",device=\"e2\"}"));
	/* Every sample line: name{labels} value, under its own metric's TYPE
	 * line; each metric's lines in one group (the format's rule). */
	char current[64] = "", seen[4096] = " ";
	for (char *line = out.s; line && *line;) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		if (strncmp(line, "# TYPE ", 7) == 0) {
			size_t len = strcspn(line + 7, " ");
			assert_true(len < sizeof(current));
			snprintf(current, sizeof(current), "%.*s", (int)len, line + 7);
			char key[70];
			snprintf(key, sizeof(key), " %s ", current);
			if (strstr(seen, key))
				fail_msg("metric %s in two groups", current);
			strncat(seen, key + 1, sizeof(seen) - strlen(seen) - 1);
		} else if (line[0] != '#') {
			size_t len = strcspn(line, "{ ");
			assert_true(strncmp(line, "bondd_", 6) == 0);
			if (len != strlen(current) || strncmp(line, current, len) != 0)
				fail_msg("sample %.*s under TYPE %s", (int)(nl - line), line, current);
		}
		line = nl + 1;
	}
	sb_free(&out);

	/* Label values escaped: a Linux interface name may hold " and \. */
	snprintf(w->want.bonds[1].name, IFNAMSIZ, "b\"1\\");
	prometheus_of(&out, &w->view, sel, 2);
	assert_non_null(strstr(out.s, "bondd_bond_up{master=\"b\\\"1\\\\\",device=\"b\\\"1\\\\\"} 0\n"));
	sb_free(&out);
	/* Not UTF-8: the byte written as \\xff (the text format allows no
	 * other escape), so the whole text stays valid UTF-8. */
	snprintf(w->want.bonds[1].name, IFNAMSIZ, "b\xff");
	prometheus_of(&out, &w->view, sel, 2);
	assert_non_null(strstr(out.s, "bondd_bond_up{master=\"b\\\\xff\",device=\"b\\\\xff\"} 0\n"));
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* What the kernel shows only to CAP_NET_ADMIN is null in JSON for an
 * unprivileged client, value by value, and masked in texts; a privileged
 * client sees it all. */
static void json_privilege_rule(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct strbuf out = {0};
	struct obs_link *b = link_mut(w, "bond0");

	bond_settings_set(&b->bond, OPT_AD_ACTOR_SYS_PRIO, 700);
	bond_settings_set(&b->bond, OPT_AD_USER_PORT_KEY, 9);
	b->bond.have |= OPT_BIT(OPT_AD_ACTOR_SYSTEM);
	b->bond.ad_actor_system[5] = 0x42;
	b->bond.have |= OPT_BIT(OPT_ARP_IP_TARGET) | OPT_BIT(OPT_NS_IP6_TARGET);
	inet_pton(AF_INET, "10.0.0.9", &b->bond.arp_ip_target[0]);
	inet_pton(AF_INET, "10.0.0.10", &b->bond.arp_ip_target[1]);
	b->bond.n_arp_ip_target = 2;
	inet_pton(AF_INET6, "fe80::1", &b->bond.ns_ip6_target[0]);
	b->bond.n_ns_ip6_target = 1;
	snprintf(w->bonds[0].last_error, sizeof(w->bonds[0].last_error),
		 "bond0: set: ad_actor_sys_prio=700 refused");
	w->bonds[0].last_error_ms = 1700000000000;
	struct event e = {.wall_ms = 1700000000500, .kind = EV_REPAIR};
	snprintf(e.bond, sizeof(e.bond), "bond0");
	snprintf(e.text, sizeof(e.text),
		 "set bond0 ad_actor_system=00:00:00:00:00:42 ad_user_port_key = 9 (options)");
	event_log_add(&w->events, &e);

	json_of(&out, &w->view, sel, 1);
	static const char *const hidden[] = {
		"\"ad_actor_sys_prio\":null", "\"ad_user_port_key\":null", "\"ad_actor_system\":null",
		"ad_actor_sys_prio=* refused", "ad_actor_system=* ad_user_port_key = * (options)",
	};
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++)
		if (!strstr(out.s, hidden[i]))
			fail_msg("unprivileged JSON lacks %s in %s", hidden[i], out.s);
	assert_null(strstr(out.s, "700"));
	assert_null(strstr(out.s, ":42"));
	sb_free(&out);

	w->view.privileged = true;
	json_of(&out, &w->view, sel, 1);
	static const char *const shown[] = {
		"\"ad_actor_sys_prio\":700", "\"ad_user_port_key\":9",
		"\"ad_actor_system\":\"00:00:00:00:00:42\"", "ad_actor_sys_prio=700 refused",
		"ad_actor_system=00:00:00:00:00:42 ad_user_port_key = 9", "\"privileged\":true",
		"\"arp_ip_target\":[\"10.0.0.9\",\"10.0.0.10\"]", "\"ns_ip6_target\":[\"fe80::1\"]",
	};
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (!strstr(out.s, shown[i]))
			fail_msg("privileged JSON lacks %s", shown[i]);
	sb_free(&out);

	/* The watch line follows the same rule. */
	char line[512];
	event_format_line(&e, line, sizeof(line), false);
	assert_non_null(strstr(line, "ad_actor_system=* ad_user_port_key = * (options)"));
	event_json_line(&out, &e, false);
	assert_non_null(strstr(out.s, "\"text\":\"set bond0 ad_actor_system=* "));
	assert_null(strstr(out.s, ":42"));
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* 802.3ad: a slave outside the active aggregator, or whose partner is not
 * in sync, makes the bond degraded with the reason; JSON and Prometheus
 * carry the aggregator ids and port states. */
static void lacp_health(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct obs_link *b = link_mut(w, "bond0");
	struct strbuf out = {0};
	char why[128];

	bond_settings_set(&b->bond, OPT_MODE, MODE_8023AD);
	b->info.has_ad_info = true;
	b->info.ad_aggregator = 1;
	b->info.ad_num_ports = 3;
	const char *names[] = {"e1", "e2", "e3"};
	for (int i = 0; i < 3; i++) {
		struct obs_link *s = link_mut(w, names[i]);
		s->slave.ad_aggregator_id = 1;
		s->slave.has_ad_state = true;
		s->slave.ad_actor_oper_port_state = 0x3d;
		s->slave.ad_partner_oper_port_state = 0x3d;
	}
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);

	link_mut(w, "e3")->slave.ad_aggregator_id = 2;
	link_mut(w, "e3")->slave.ad_actor_oper_port_state = 0x45; /* defaulted */
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e3 is in aggregator 2, not in the active aggregator 1 "
				  "(no LACP partner: defaulted)");
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"ad_aggregator_id\":1,\"ad_num_ports\":3"));
	assert_non_null(strstr(out.s, "\"ad_aggregator_id\":2,\"ad_actor_port_state\":69,"
				      "\"ad_partner_port_state\":61,\"ad_actor_port_prio\":null,"
				      "\"ad_churn_actor_state\":null,\"ad_churn_partner_state\":null,"
				      "\"lacp_problem\":\"e3 is in"));
	sb_free(&out);
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_bond_ad_aggregator_id{master=\"bond0\",device=\"bond0\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_slave_ad_in_active_aggregator{master=\"bond0\",device=\"e3\"} 0\n"));
	assert_non_null(strstr(out.s, "bondd_slave_ad_in_active_aggregator{master=\"bond0\",device=\"e1\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_slave_ad_actor_port_state{master=\"bond0\",device=\"e3\"} 69\n"));
	sb_free(&out);

	link_mut(w, "e3")->slave.ad_aggregator_id = 1;
	link_mut(w, "e2")->slave.ad_partner_oper_port_state = 0x35; /* no sync bit */
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e2: LACP partner not in sync (partner port state 0x35)");
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_slave_ad_partner_in_sync{master=\"bond0\",device=\"e2\"} 0\n"));
	sb_free(&out);

	/* 7.x: the churn machines (IFLA_BOND_SLAVE_AD_CHURN_*_STATE).  All
	 * monitoring: healthy again once e2 is in sync; churned: degraded,
	 * named, in JSON and Prometheus; and the 6.18 port priority. */
	link_mut(w, "e2")->slave.ad_partner_oper_port_state = 0x3d;
	for (int i = 0; i < 3; i++) {
		struct obs_link *s = link_mut(w, names[i]);
		s->slave.has_churn = true;
		s->slave.ad_churn_actor_state = AD_CHURN_MONITOR;
		s->slave.ad_churn_partner_state = AD_CHURN_NONE;
		s->slave.has_actor_port_prio = true;
		s->slave.actor_port_prio = (uint16_t)(100 + i);
	}
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);
	link_mut(w, "e1")->slave.ad_churn_partner_state = AD_CHURN_CHURNED;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "e1: LACP churn (partner): no agreement with the partner; "
				  "check the switch's LAG for this port");
	link_mut(w, "e1")->slave.ad_churn_actor_state = AD_CHURN_CHURNED;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_non_null(strstr(why, "LACP churn (actor and partner)"));
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"ad_actor_port_prio\":100,\"ad_churn_actor_state\":\"churned\","
				      "\"ad_churn_partner_state\":\"churned\""));
	assert_non_null(strstr(out.s, "\"ad_actor_port_prio\":101,\"ad_churn_actor_state\":"
				      "\"monitoring\",\"ad_churn_partner_state\":\"none\""));
	sb_free(&out);
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_slave_ad_actor_churned{master=\"bond0\",device=\"e1\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_slave_ad_partner_churned{master=\"bond0\",device=\"e2\"} 0\n"));
	assert_non_null(strstr(out.s, "bondd_slave_ad_actor_port_priority{master=\"bond0\",device=\"e3\"} 102\n"));
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* Names that are not UTF-8 (legal in Linux) still give valid JSON. */
static void json_non_utf8_names(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[1]};
	struct strbuf out = {0};

	snprintf(w->want.bonds[1].name, IFNAMSIZ, "b\xc3\x28\xe2\x82\xac\x01");
	json_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "\"name\":\"b\\udcc3(\xe2\x82\xac\\u0001\""));
	for (const unsigned char *p = (const unsigned char *)out.s; *p;) {
		size_t n = utf8_seq_len(p);
		assert_true(n > 0);
		p += n;
	}
	sb_free(&out);
	world_free(w);
	(void)state;
}

/* RFC 3629: overlong forms, surrogates and values past U+10FFFF are not
 * UTF-8; each of their bytes is escaped on its own. */
static void utf8_validation(void **state)
{
	static const struct {
		const char *in, *json;
	} cases[] = {
		{"a\xc0\xaf", "\"a\\udcc0\\udcaf\""},             /* overlong '/' */
		{"\xed\xa0\x80", "\"\\udced\\udca0\\udc80\""},     /* a surrogate */
		{"\xf4\x90\x80\x80", "\"\\udcf4\\udc90\\udc80\\udc80\""}, /* past U+10FFFF */
		{"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},     /* U+1F600, kept */
		{"\xe2\x82", "\"\\udce2\\udc82\""},                 /* cut short */
		{"q\"b\\", "\"q\\\"b\\\\\""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf out = {0};
		json_string(&out, cases[i].in);
		assert_string_equal(out.s, cases[i].json);
		sb_free(&out);
	}
	/* Masking: only a value after "=", ":" or " = ", and whole words. */
	char pub[128];
	event_public_text("ad_actor_sys_prio differs; my_ad_actor_system=1 x", pub, sizeof(pub));
	assert_string_equal(pub, "ad_actor_sys_prio differs; my_ad_actor_system=1 x");
	event_public_text("ad_user_port_key: \"77\", ad_actor_system=aa:bb", pub, sizeof(pub));
	assert_string_equal(pub, "ad_user_port_key: \"*\", ad_actor_system=*");
	event_public_text("ad_actor_sys_prio=123", pub, 8);
	assert_int_equal(strlen(pub), 7);
	(void)state;
}

static void event_ring_and_lines(void **state)
{
	struct event_log *log = calloc(1, sizeof(*log));
	char line[64];
	assert_non_null(log);
	for (int i = 0; i < EVENT_LOG_SIZE + 5; i++) {
		struct event e = {.wall_ms = i, .kind = EV_UP};
		event_log_add(log, &e);
	}
	assert_int_equal(event_log_count(log), EVENT_LOG_SIZE);
	assert_int_equal(event_log_at(log, 0)->wall_ms, 5);
	assert_int_equal(event_log_at(log, EVENT_LOG_SIZE - 1)->wall_ms, EVENT_LOG_SIZE + 4);
	struct event e = {.wall_ms = 1700000000000, .kind = EV_DOWN};
	snprintf(e.bond, sizeof(e.bond), "bond0");
	snprintf(e.text, sizeof(e.text), "carrier lost (1 so far) and a long tail of text");
	size_t n = event_format_line(&e, line, sizeof(line), true);
	assert_int_equal(n, strlen(line));
	assert_true(line[n - 1] == '\n');
	assert_memory_equal(line, "2023-11-14T22:13:20.000Z down bond0 - carrier", 45);
	free(log);
	(void)state;
}

/* A degraded finding makes a bond that is as configured degraded; an
 * informational one changes nothing; both are counted in Prometheus. */
static void findings_in_health_and_metrics(void **state)
{
	struct world *w = world_new();
	struct findings host = {0};
	struct strbuf out = {0};
	char why[128];
	(void)state;

	w->view.findings[FSRC_HOST_CHECK] = &host;
	struct finding *x = findings_add(&host, FSRC_HOST_CHECK, FSEV_INFO, FK_TCP_SETTING, "bond0");
	assert_non_null(x);
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);
	x = findings_add(&host, FSRC_HOST_CHECK, FSEV_DEGRADED, FK_SHARED_CARD, "bond0");
	snprintf(x->evidence, sizeof(x->evidence), "e1 and e2 are functions of 0000:03:00");
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "shared-card: e1 and e2 are functions of 0000:03:00");
	const struct desired_bond *sel[] = {desired_find_bond(&w->want, "bond0")};
	prometheus_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "bondd_bond_findings{master=\"bond0\",device=\"bond0\",kind=\"shared-card\","
				      "severity=\"degraded\"} 1\n"));
	assert_non_null(strstr(out.s, "bondd_bond_findings{master=\"bond0\",device=\"bond0\",kind=\"tcp-setting\","
				      "severity=\"info\"} 1\n"));
	sb_free(&out);
	findings_free(&host);
	world_free(w);
}

/* A bond the daemon is still retrying after its pass limit is degraded,
 * with the daemon's words, unless something worse is already wrong. */
static void health_while_retrying(void **state)
{
	struct world *w = world_new();
	char why[128];

	w->bonds[0].unsettled = (struct bond_unsettled){
		.passes = 6, .retry_ms = 400, .why = {.why = {"option", "mac"}, .n = 2}};
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "bond0 still differs from the config after 6 passes (option, "
				 "mac); retrying every 400 ms");
	link_mut(w, "bond0")->flags &= ~(unsigned)IFF_UP;
	assert_int_equal(health(w, "bond0", why), HEALTH_DOWN);
	assert_string_equal(why, "bond0 is down");
	link_mut(w, "bond0")->flags |= IFF_UP;
	w->bonds[0].unsettled.passes = 0;
	assert_int_equal(health(w, "bond0", why), HEALTH_OK);
	world_free(w);
	(void)state;
}

/* A refused option's value in the health reason, the notes or the failing
 * actions is masked for an unprivileged client in --json's problem and in
 * --brief, as the events mask it; a privileged client sees it. */
static void reason_privilege_rule(void **state)
{
	struct world *w = world_new();
	const struct desired_bond *sel[] = {&w->want.bonds[0]};
	struct strbuf out = {0};

	(void)state;
	w->bonds[0].refused = true;
	snprintf(w->bonds[0].failing, sizeof(w->bonds[0].failing),
		 "bond0: set ad_actor_system=00:00:00:00:00:42 refused by the kernel");
	snprintf(w->bonds[0].notes, sizeof(w->bonds[0].notes), "ad_user_port_key = 9 differs");
	json_of(&out, &w->view, sel, 1);
	if (!strstr(out.s, "\"problem\":\"bond0: set ad_actor_system=* refused"))
		fail_msg("unprivileged JSON: %s", out.s);
	assert_null(strstr(out.s, ":42"));
	sb_free(&out);
	brief_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "(bond0: set ad_actor_system=* refused"));
	assert_non_null(strstr(out.s, "[ad_user_port_key = * differs]"));
	assert_non_null(strstr(out.s, "[failing: bond0: set ad_actor_system=* refused"));
	assert_null(strstr(out.s, ":42"));
	assert_null(strstr(out.s, "= 9"));
	sb_free(&out);
	w->view.privileged = true;
	brief_of(&out, &w->view, sel, 1);
	assert_non_null(strstr(out.s, "ad_actor_system=00:00:00:00:00:42 refused"));
	assert_non_null(strstr(out.s, "[ad_user_port_key = 9 differs]"));
	sb_free(&out);
	world_free(w);
}

/* A bond with something still to do that the kernel refused (its address
 * backing off) is degraded with the kernel's words, even when everything
 * health compares is right; a bond that is down says so first. */
static void health_while_refused(void **state)
{
	struct world *w = world_new();
	char why[128];

	w->bonds[0].refused = true;
	snprintf(w->bonds[0].failing, sizeof(w->bonds[0].failing),
		 "bond0: address fd00::1/64 refused by the kernel: Permission denied");
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_string_equal(why, "bond0: address fd00::1/64 refused by the kernel: "
				 "Permission denied");
	/* The refusal is the reason for an MTU that differs, too. */
	link_mut(w, "bond0")->mtu = 1500;
	assert_int_equal(health(w, "bond0", why), HEALTH_DEGRADED);
	assert_non_null(strstr(why, "refused by the kernel"));
	link_mut(w, "bond0")->flags &= ~(unsigned)IFF_UP;
	assert_int_equal(health(w, "bond0", why), HEALTH_DOWN);
	assert_string_equal(why, "bond0 is down");
	world_free(w);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(request_verbs_and_names),
		cmocka_unit_test(request_errors),
		cmocka_unit_test(filter_hides_what_the_kernel_hides),
		cmocka_unit_test(filter_matches_each_kernel),
		cmocka_unit_test(filter_keeps_other_text),
		cmocka_unit_test(peer_status_text),
		cmocka_unit_test(proc_churn_states_per_slave),
		cmocka_unit_test(proc_aggregators),
		cmocka_unit_test(proc_lacp_scan_matches),
		cmocka_unit_test(health_rules),
		cmocka_unit_test(select_in_config_order),
		cmocka_unit_test(select_all_beyond_names),
		cmocka_unit_test(brief_lines),
		cmocka_unit_test(json_fields),
		cmocka_unit_test(trial_shown),
		cmocka_unit_test(json_selectors),
		cmocka_unit_test(mac_address_outputs),
		cmocka_unit_test(prometheus_lines),
		cmocka_unit_test(health_change_lines),
		cmocka_unit_test(event_ring_and_lines),
		cmocka_unit_test(findings_in_health_and_metrics),
		cmocka_unit_test(health_while_retrying),
		cmocka_unit_test(health_while_refused),
		cmocka_unit_test(reason_privilege_rule),
		cmocka_unit_test(service_status_line),
		cmocka_unit_test(json_privilege_rule),
		cmocka_unit_test(lacp_health),
		cmocka_unit_test(json_non_utf8_names),
		cmocka_unit_test(utf8_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
