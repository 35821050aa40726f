/* SPDX-License-Identifier: MIT */
/*
 * bondd-status --explain: each bond on one screen of 80 columns, for a
 * person asking why it is not healthy.  Its health and the reason; every
 * finding with its evidence and what to do (the JSON's words, wrapped);
 * one line per slave (place, name, MII, speed, MTU, errors, drops, link
 * failures, the switch port LLDP names); and the link check as a grid, our
 * slaves against each peer host's slaves, each cell the sizes that went
 * there and back.  Pure: from the bond views (bond_view.h).
 */
#include "status_render.h"

#include <stdio.h>
#include <string.h>

#include "lldp_eval.h"

#define WIDTH 80
/* Peer slaves per grid block: our slave's column and four cells fit 80. */
#define GRID_COLS 4
#define CELL 14

/* text after lead, folded at spaces so no line passes WIDTH; the lines
 * after the first start with indent spaces.  A word longer than a line is
 * cut where the line ends. */
static void wrap(struct strbuf *out, const char *lead, size_t indent, const char *text)
{
	size_t col = strlen(lead);
	const char *p = text;

	sb_puts(out, lead);
	while (*p == ' ')
		p++;
	while (*p) {
		size_t room = WIDTH > col ? WIDTH - col : 1;
		size_t n = strlen(p);
		if (n <= room) {
			sb_puts(out, p);
			break;
		}
		size_t cut = room;
		while (cut > 0 && p[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = room;
		sb_add(out, p, cut);
		sb_printf(out, "\n%*s", (int)indent, "");
		col = indent;
		p += cut;
		while (*p == ' ')
			p++;
	}
	sb_puts(out, "\n");
}

static void head(struct strbuf *out, const struct bond_views *bv, const struct bond_view *b)
{
	char line[WIDTH * 2];
	const struct obs_link *bond = b->obs;

	snprintf(line, sizeof(line), "%s: %s", b->want->name, status_health_name(b->health));
	if (b->health != HEALTH_OK) {
		size_t n = strlen(line);
		snprintf(line + n, sizeof(line) - n, ": ");
		wrap(out, line, 4, b->why);
	} else {
		sb_printf(out, "%s\n", line);
	}
	sb_printf(out, "  %s, MTU %u, %zu/%zu slaves up", b->mode,
		  bond ? bond->mtu : b->want->mtu, b->slaves_up, b->want->n_slaves);
	if (b->active)
		sb_printf(out, ", active %s", b->active->name);
	sb_puts(out, "\n");
	/* bondd's own complaints, as --brief shows them to this client */
	char text[BOND_NOTES_TEXT], pub[BOND_NOTES_TEXT];
	if (b->rt && bond_notes_text(&b->rt->notes, text, sizeof(text)))
		wrap(out, "  bondd: ", 4, view_public_text(bv->from, text, pub, sizeof(pub)));
	if (b->rt && bond_failing_text(&b->rt->failing, text, sizeof(text)))
		wrap(out, "  failing: ", 4, view_public_text(bv->from, text, pub, sizeof(pub)));
}

static void findings_part(struct strbuf *out, const struct bond_view *b)
{
	if (!b->n_findings) {
		sb_puts(out, "findings: none\n");
		return;
	}
	sb_printf(out, "findings (%zu):\n", b->n_findings);
	for (size_t i = 0; i < b->n_findings; i++) {
		const struct finding *f = b->findings[i];
		sb_printf(out, "  %s (%s, %s%s)\n", finding_kind_name(f->kind),
			  finding_severity_name(f->severity), finding_source_name(f->source),
			  f->pending ? "; pending: seen once, not yet confirmed" : "");
		wrap(out, "    evidence: ", 14, f->evidence);
		wrap(out, "    fix:      ", 14, f->fix);
	}
}

/* The switch port's names (system name, port id) as LLDP gave them. */
static void switch_text(const struct bond_view *b, const struct slave_view *sv, char *buf,
			size_t len)
{
	const struct lldp_port *p = sv->lldp;

	if (!b->want->lldp)
		snprintf(buf, len, "(lldp = no)");
	else if (!p || !p->frames)
		snprintf(buf, len, "-");
	else if (p->n_sp > 1 && p->sole < 0)
		snprintf(buf, len, "%zu speakers", p->n_sp);
	else {
		/* The sole speaker, or the one heard last (lldp_eval.h). */
		const struct lldp_speaker *sp = p->sole >= 0 ? &p->sp[p->sole]
					       : p->n_sp ? &p->sp[p->n_sp - 1] : NULL;
		if (!sp)
			snprintf(buf, len, "%s (expired)", p->last_name[0] ? p->last_name : p->last_port);
		else
			snprintf(buf, len, "%s %s%s", sp->nb.sys_name[0] ? sp->nb.sys_name : sp->nb.chassis_id,
				 sp->nb.port_id, sp->counts ? "" : " (lapsed)");
	}
}

static void slaves_part(struct strbuf *out, const struct bond_view *b)
{
	sb_puts(out, "slaves:\n  POS NAME            MII   Mb/s   MTU ERRORS  DROPS FAILS SWITCH PORT\n");
	for (size_t i = 0; i < b->want->n_slaves; i++) {
		const struct slave_view *sv = &b->slaves[i];
		const struct obs_link *s = sv->obs;
		char pos[24] = "-", speed[12] = "-", sw[2 * LLDP_TEXT_SIZE + 16], fails[12] = "-";

		if (!s) {
			sb_printf(out, "  %-3s %-15s does not exist\n", "-", sv->name);
			continue;
		}
		if (sv->position)
			snprintf(pos, sizeof(pos), "%zu", sv->position);
		if (sv->live.mbps >= 0)
			snprintf(speed, sizeof(speed), "%d", sv->live.mbps);
		if (sv->info)
			snprintf(fails, sizeof(fails), "%u", s->slave.link_failure_count);
		const struct obs_stats *st = &sv->live.stats;
		unsigned long long errs = st->rx_errors + st->tx_errors;
		unsigned long long drops = st->rx_dropped + st->tx_dropped;
		switch_text(b, sv, sw, sizeof(sw));
		/* 61 columns before the switch port: it gets the rest */
		sb_printf(out, "  %-3s %-15s %-4s %6s %5u %6llu %6llu %5s %.18s\n", pos, sv->name,
			  !sv->enslaved ? "free" : !sv->info ? "?" : sv->up ? "up" : "down", speed,
			  s->mtu, errs, drops, fails, sw);
	}
}

/* The sizes in bits, in bytes as our row sent them ("-" for none). */
static void cell_text(const struct lc_slave_obs *s, const struct lc_peer_obs *pe, char *buf,
		      size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	if (!pe) {
		snprintf(buf, len, "-");
		return;
	}
	for (int c = 0; c < LC__SIZES; c++)
		if ((pe->answered & LC_SIZE_BIT(c)) && s->sizes[c] && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "", s->sizes[c]);
	if (n)
		return;
	/* none answered: say whether its own requests reached us */
	snprintf(buf, len, pe->heard ? "heard only" : "-");
}

/* One peer slave of a host, a grid column. */
struct column {
	const struct lc_end *end;
};

static bool same_host(const struct lc_end *a, const struct lc_end *b)
{
	return memcmp(a->host, b->host, LC_HOST_ID_LEN) == 0;
}

static const struct lc_peer_obs *peer_in_row(const struct lc_slave_obs *s, const struct lc_end *e)
{
	for (size_t p = 0; p < s->n_peers; p++)
		if (lc_end_same(&s->peers[p].end, e))
			return &s->peers[p];
	return NULL;
}

/* The peer slaves of the host of first, in their places, each once (at
 * most max); host names are learned from whichever row knows one. */
static size_t host_columns(const struct lc_matrix *m, const struct lc_end *first,
			   struct column *cols, size_t max, char name[LC_HOST_NAME_LEN])
{
	size_t n = 0;
	lc_end_host(first, name);
	for (size_t i = 0; i < m->n_slaves; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		for (size_t p = 0; p < s->n_peers; p++) {
			const struct lc_end *e = &s->peers[p].end;
			if (!same_host(e, first))
				continue;
			if (e->host_name[0] && !first->host_name[0])
				lc_end_host(e, name);
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = lc_end_same(cols[k].end, e);
			if (seen || n == max)
				continue;
			/* insertion by bond name, then place */
			size_t at = n;
			while (at > 0 && (strcmp(cols[at - 1].end->bond, e->bond) > 0 ||
					  (strcmp(cols[at - 1].end->bond, e->bond) == 0 &&
					   cols[at - 1].end->pos > e->pos))) {
				cols[at] = cols[at - 1];
				at--;
			}
			cols[at].end = e;
			n++;
		}
	}
	return n;
}

/* Ends a line of cells without the last cell's padding. */
static void end_line(struct strbuf *out)
{
	while (out->len && out->s[out->len - 1] == ' ')
		out->s[--out->len] = '\0';
	sb_puts(out, "\n");
}

static void grid_block(struct strbuf *out, const struct lc_matrix *m, const char *host,
		       const struct column *cols, size_t n)
{
	char cell[32];

	sb_printf(out, "  %-16.16s", host);
	for (size_t k = 0; k < n; k++) {
		snprintf(cell, sizeof(cell), "%s@%u", cols[k].end->slave, cols[k].end->pos);
		sb_printf(out, " %-*.*s", CELL - 1, CELL - 1, cell);
	}
	end_line(out);
	for (size_t i = 0; i < m->n_slaves; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		snprintf(cell, sizeof(cell), "%u %s", s->pos, s->name);
		sb_printf(out, "  %-16.16s", cell);
		if (!s->probed) {
			sb_printf(out, " %.60s\n", s->error[0] ? s->error : "not probed (down or not enslaved)");
			continue;
		}
		for (size_t k = 0; k < n; k++) {
			cell_text(s, peer_in_row(s, cols[k].end), cell, sizeof(cell));
			sb_printf(out, " %-*.*s", CELL - 1, CELL - 1, cell);
		}
		end_line(out);
	}
}

static void linkcheck_part(struct strbuf *out, const struct bond_views *bv,
			   const struct bond_view *b)
{
	const struct lc_result *r = b->linkcheck;

	if (!r || !r->enabled) {
		sb_puts(out, "link check: off (link_check = no)\n");
		return;
	}
	if (r->error[0])
		wrap(out, "link check cannot run: ", 4, r->error);
	if (!r->checks) {
		sb_puts(out, "link check: none yet\n");
		return;
	}
	long long ago = r->wall_ms && bv->from->now_ms >= r->wall_ms ?
				(bv->from->now_ms - r->wall_ms) / 1000 : 0;
	sb_printf(out, "link check #%lu, %llds ago (%.40s); bytes there and back:\n", r->checks,
		  ago, r->trigger);
	const struct lc_matrix *m = &r->m;
	size_t hosts = 0;
	/* each peer host once, in the order the rows first name them */
	for (size_t i = 0; i < m->n_slaves; i++) {
		for (size_t p = 0; p < m->slaves[i].n_peers; p++) {
			const struct lc_end *e = &m->slaves[i].peers[p].end;
			bool before = false;
			for (size_t j = 0; j <= i && !before; j++)
				for (size_t q = 0; q < m->slaves[j].n_peers && !before; q++) {
					if (j == i && q == p)
						break;
					before = same_host(&m->slaves[j].peers[q].end, e);
				}
			if (before)
				continue;
			struct column cols[LC_MAX_PEERS];
			char name[LC_HOST_NAME_LEN];
			size_t n = host_columns(m, e, cols, LC_MAX_PEERS, name);
			for (size_t k = 0; k < n; k += GRID_COLS)
				grid_block(out, m, name, cols + k, n - k < GRID_COLS ? n - k : GRID_COLS);
			hosts++;
		}
	}
	if (!hosts)
		sb_puts(out, "  no peer answered (no bondd on the other end, or no path)\n");
	if (r->settling)
		sb_printf(out, "  settling: %u finding%s pending; next check %u ms after this one\n",
			  r->pending, r->pending == 1 ? "" : "s", r->recheck_ms);
}

void render_explain(struct strbuf *out, const struct bond_views *bv)
{
	/* A reload on trial first: it may undo everything below. */
	size_t before = out->len;
	render_trial_line(out, bv->from, true);
	if (out->len != before && bv->n)
		sb_puts(out, "\n");
	for (size_t i = 0; i < bv->n; i++) {
		const struct bond_view *b = &bv->v[i];
		if (i)
			sb_puts(out, "\n");
		head(out, bv, b);
		if (b->want->absent) {
			sb_puts(out, "  configured absent (state = absent)\n");
			continue;
		}
		findings_part(out, b);
		slaves_part(out, b);
		linkcheck_part(out, bv, b);
	}
}
