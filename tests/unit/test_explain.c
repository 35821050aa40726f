/* SPDX-License-Identifier: MIT */
/* bondd-status --explain, rendered from the bond views: one screen of 80
 * columns for a bond of four slaves with two findings, in the JSON's
 * words, with the link check as a grid of our slaves against each peer
 * host's, peers named by host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "linkcheck.h"
#include "lldp_eval.h"
#include "status_render.h"

struct world {
	struct desired want;
	struct observed obs;
	struct bond_runtime bonds[1];
	struct findings link, lldp;
	struct lc_slave_obs rows[4];
	struct lc_result lc;
	const struct lc_result *lcv[1];
	struct lc_results lcs;
	struct lldp_port ports[4];
	struct status_view view;
};

static void put(struct world *w, int ifindex, const char *name, const char *kind, int master)
{
	struct obs_link l = {.ifindex = ifindex, .flags = IFF_UP | IFF_LOWER_UP, .mtu = 9000,
			     .master = master};
	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind);
	l.slave.valid = master != 0;
	l.slave.mii_status = MII_UP;
	l.slave.link_failure_count = (uint32_t)ifindex % 10;
	l.stats.rx_errors = ifindex == 13 ? 41 : 0;
	assert_int_equal(observed_put_link(&w->obs, &l), 0);
}

static void peer(struct lc_slave_obs *row, uint8_t host, const char *name, const char *slave,
		 uint8_t pos, uint8_t answered)
{
	struct lc_end e = {.pos = pos};
	memset(e.host, host, LC_HOST_ID_LEN);
	snprintf(e.bond, IFNAMSIZ, "bond0");
	snprintf(e.slave, IFNAMSIZ, "%s", slave);
	snprintf(e.host_name, LC_HOST_NAME_LEN, "%s", name);
	struct lc_peer_obs *p = lc_row_peer(row, &e);
	assert_non_null(p);
	p->answered = answered;
	p->heard = answered;
}

#define ALL (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD) | LC_SIZE_BIT(LC_FULL))
#define SMALL_STD (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD))

/* bond0, balance-rr, e1..e4 in order at MTU 9000; host "nodeb" answers
 * with its e1..e4, ours e1 and e2 crossed, e3's path drops 9000; a
 * switch port below the MTU (LLDP) and the crossing as two findings. */
static struct world *world_new(void)
{
	static const char conf[] = "[bond0]\nslaves = e1 e2 e3 e4\nmtu = 9000\n";
	struct world *w = calloc(1, sizeof(*w));
	struct config_diag diag = {0};

	assert_non_null(w);
	assert_int_equal(config_parse("t.conf", conf, sizeof(conf) - 1, &w->want, &diag), 0);
	config_diag_free(&diag);
	put(w, 10, "bond0", "bond", 0);
	for (int i = 0; i < 4; i++) {
		char n[8];
		snprintf(n, sizeof(n), "e%d", i + 1);
		put(w, 11 + i, n, "veth", 10);
	}
	struct obs_link *b = (struct obs_link *)observed_by_name(&w->obs, "bond0");
	for (int i = 0; i < 4; i++)
		snprintf(b->order[i], IFNAMSIZ, "e%d", i + 1);
	b->n_order = 4;

	struct finding *f = findings_add(&w->lldp, FSRC_LLDP, FSEV_DEGRADED, FK_LLDP_MAX_FRAME,
					 "bond0");
	finding_add_slave(f, "e3");
	snprintf(f->evidence, sizeof(f->evidence),
		 "e3's switch port leaf1 Ethernet1/3 takes frames of at most 1522 bytes, "
		 "below the bond's MTU 9000 (9018 bytes with the Ethernet header)");
	snprintf(f->fix, sizeof(f->fix),
		 "raise the MTU of the switch port leaf1 Ethernet1/3 to 9216, or lower the "
		 "bond's mtu to 1500");
	f = findings_add(&w->link, FSRC_LINK_CHECK, FSEV_DEGRADED, FK_CROSSED, "bond0");
	finding_add_slave(f, "e1");
	finding_add_slave(f, "e2");
	snprintf(f->evidence, sizeof(f->evidence),
		 "e1 (place 1) meets nodeb's e2 (place 2), and e2 (place 2) meets nodeb's e1 "
		 "(place 1)");
	snprintf(f->fix, sizeof(f->fix),
		 "swap the cables of e1 and e2, or of the peer's ports, so that each place "
		 "meets the same place");

	w->lc = (struct lc_result){.enabled = true, .checks = 3, .wall_ms = 1000000 - 4000,
				   .m = {.slaves = w->rows, .n_slaves = 4, .mtu = 9000}};
	snprintf(w->lc.bond, IFNAMSIZ, "bond0");
	snprintf(w->lc.trigger, sizeof(w->lc.trigger), "start");
	for (int i = 0; i < 4; i++) {
		struct lc_slave_obs *r = &w->rows[i];
		snprintf(r->name, IFNAMSIZ, "e%d", i + 1);
		r->pos = (uint8_t)(i + 1);
		r->probed = true;
		r->sent = ALL;
		r->sizes[LC_SMALL] = 128;
		r->sizes[LC_STANDARD] = 1500;
		r->sizes[LC_FULL] = 9000;
	}
	peer(&w->rows[0], 0xbb, "nodeb", "e2", 2, ALL);
	peer(&w->rows[1], 0xbb, "nodeb", "e1", 1, ALL);
	peer(&w->rows[2], 0xbb, "nodeb", "e3", 3, SMALL_STD);
	peer(&w->rows[3], 0xbb, "nodeb", "e4", 4, ALL);
	w->lcv[0] = &w->lc;
	w->lcs = (struct lc_results){.v = w->lcv, .n = 1};

	w->view = (struct status_view){.want = &w->want, .obs = &w->obs, .bonds = w->bonds,
				       .linkcheck = &w->lcs, .now_ms = 1000000,
				       .privileged = true};
	w->view.findings[FSRC_LINK_CHECK] = &w->link;
	w->view.findings[FSRC_LLDP] = &w->lldp;
	for (int i = 0; i < 4; i++) {
		struct lldp_port *p = &w->ports[i];
		char slave[8];
		snprintf(slave, sizeof(slave), "e%d", i + 1);
		lldp_port_init(p, "bond0", slave, 0);
		/* one speaker, heard and confirmed (lldp_eval.h) */
		struct lldp_neighbor nb = {.ttl = 120};
		snprintf(nb.sys_name, sizeof(nb.sys_name), "leaf1");
		snprintf(nb.chassis_id, sizeof(nb.chassis_id), "02:00:00:00:00:01");
		snprintf(nb.port_id, sizeof(nb.port_id), "Ethernet1/%d", i + 1);
		lldp_port_take(p, &nb, 0, 0);
		lldp_port_take(p, &nb, LLDP_CONFIRM_MS, 0);
		lldp_port_take(p, &nb, LLDP_CONFIRM_MS + 1, 0);
	}
	return w;
}

static void world_free(struct world *w)
{
	desired_free(&w->want);
	observed_free(&w->obs);
	findings_free(&w->link);
	findings_free(&w->lldp);
	lc_rows_free(w->rows, 4);
	for (int i = 0; i < 4; i++)
		lldp_port_free(&w->ports[i]);
	free(w);
}

/* The rendered text of w's bonds, LLDP records set on the views. */
static char *render(struct world *w, enum status_health *health)
{
	struct bond_views bv;
	struct strbuf out = {0};

	assert_int_equal(bond_views_build_all(&bv, &w->view, false), 0);
	for (size_t i = 0; i < bv.n; i++)
		for (size_t j = 0; j < bv.v[i].want->n_slaves && j < 4; j++)
			bv.v[i].slaves[j].lldp = &w->ports[j];
	render_explain(&out, &bv);
	if (health)
		*health = bv.worst;
	bond_views_free(&bv);
	assert_false(out.oom);
	return out.s;
}

/* Lines of at most 80 columns; their number. */
static size_t check_lines(const char *text)
{
	size_t n = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		assert_non_null(nl); /* every line ends */
		if (nl - p > 80)
			fail_msg("a line of %zu columns: %.*s", (size_t)(nl - p), (int)(nl - p), p);
		n++;
		p = nl + 1;
	}
	return n;
}

/* The text with each line break, and each run of spaces, made one space:
 * a wrapped sentence becomes whole again, to compare with the JSON's. */
static void unwrap(const char *text, char *out, size_t len)
{
	size_t n = 0;
	for (const char *p = text; *p && n + 1 < len; p++) {
		if (*p == '\n' || *p == ' ') {
			while (p[1] == ' ' || p[1] == '\n')
				p++;
			out[n++] = ' ';
			continue;
		}
		out[n++] = *p;
	}
	out[n] = '\0';
}

static const char *line_with(const char *text, const char *what, char *line, size_t len)
{
	const char *at = strstr(text, what);
	if (!at)
		fail_msg("no \"%s\" in:\n%s", what, text);
	const char *start = at;
	while (start > text && start[-1] != '\n')
		start--;
	const char *end = strchr(at, '\n');
	snprintf(line, len, "%.*s", (int)(end - start), start);
	return line;
}

static void one_screen(void **state)
{
	(void)state;
	struct world *w = world_new();
	enum status_health h;
	char *text = render(w, &h), flat[8192], line[128];

	print_message("%s", text);
	size_t lines = check_lines(text);
	assert_true(lines <= 40);
	assert_int_equal(h, HEALTH_DEGRADED);
	unwrap(text, flat, sizeof(flat));
	/* the health and why, as the JSON's "problem" */
	assert_non_null(strstr(text, "bond0: degraded: "));
	/* (the first degraded finding, sources in order: the link check's) */
	assert_non_null(strstr(flat, "bond0: degraded: crossed: e1 (place 1) meets nodeb's e2 "
				     "(place 2), and e2 (place 2) meets nodeb's e1 (place 1)"));
	/* every finding: its evidence and fix, whole */
	assert_non_null(strstr(text, "findings (2):"));
	assert_non_null(strstr(text, "  crossed (degraded, link_check)\n"));
	assert_non_null(strstr(text, "  switch-max-frame (degraded, lldp)\n"));
	const struct finding *fs[] = {&w->link.v[0], &w->lldp.v[0]};
	for (size_t i = 0; i < 2; i++) {
		char want[600];
		snprintf(want, sizeof(want), "evidence: %s fix: %s", fs[i]->evidence, fs[i]->fix);
		if (!strstr(flat, want))
			fail_msg("finding %zu not whole: %s", i, want);
	}
	/* a slave a line: place, name, MII, MTU, errors, failures, switch port */
	assert_string_equal(line_with(text, "  3   e3 ", line, sizeof(line)),
			    "  3   e3              up        -  9000     41      0     3 "
			    "leaf1 Ethernet1/3");
	assert_non_null(strstr(text, "  1   e1              up        -  9000      0      0     1 "
				     "leaf1 Ethernet1/1\n"));
	/* the grid: nodeb's slaves across, ours down, sizes that passed */
	assert_non_null(strstr(text, "link check #3, 4s ago (start); bytes there and back:\n"));
	assert_string_equal(line_with(text, "  nodeb ", line, sizeof(line)),
			    "  nodeb            e1@1          e2@2          e3@3          e4@4");
	assert_string_equal(line_with(text, "  1 e1 ", line, sizeof(line)),
			    "  1 e1             -             128,1500,9000 -             -");
	assert_string_equal(line_with(text, "  3 e3 ", line, sizeof(line)),
			    "  3 e3             -             -             128,1500      -");
	free(text);
	world_free(w);
}

/* A peer that gave no name is shown by its id; a missing slave, an
 * unknown neighbour, no link check, a healthy bond. */
static void without_names(void **state)
{
	(void)state;
	struct world *w = world_new();
	char *text;

	memset(w->rows[0].peers[0].end.host_name, 0, LC_HOST_NAME_LEN);
	for (int i = 1; i < 4; i++)
		memset(w->rows[i].peers[0].end.host_name, 0, LC_HOST_NAME_LEN);
	text = render(w, NULL);
	assert_non_null(strstr(text, "\n  bbbbbbbb         e1@1"));
	assert_null(strstr(text, "nodeb "));
	free(text);

	/* a peer that gave its name on one row only is named on all */
	snprintf(w->rows[3].peers[0].end.host_name, LC_HOST_NAME_LEN, "nodeb");
	text = render(w, NULL);
	assert_non_null(strstr(text, "\n  nodeb            e1@1"));
	free(text);

	observed_del_link(&w->obs, 14);
	w->ports[1].frames = 0;
	w->lc.enabled = false;
	findings_clear(&w->link);
	findings_clear(&w->lldp);
	text = render(w, NULL);
	check_lines(text);
	assert_non_null(strstr(text, "bond0: degraded: e4 does not exist\n"));
	assert_non_null(strstr(text, "\n  -   e4              does not exist\n"));
	assert_non_null(strstr(text, "\n  2   e2              up        -  9000      0      0     2 -\n"));
	assert_non_null(strstr(text, "findings: none\n"));
	assert_non_null(strstr(text, "link check: off (link_check = no)\n"));
	free(text);
	world_free(w);
}

/* No line passes 80 columns, whatever the evidence: long words cut, the
 * rest folded at spaces. */
static void long_words_fold(void **state)
{
	(void)state;
	struct world *w = world_new();

	memset(w->lldp.v[0].evidence, 'x', 200);
	w->lldp.v[0].evidence[200] = '\0';
	char *text = render(w, NULL);
	check_lines(text);
	free(text);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_screen),
		cmocka_unit_test(without_names),
		cmocka_unit_test(long_words_fold),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
