/* SPDX-License-Identifier: MIT */
/*
 * The link check's results as the status socket shows them: the "link_check"
 * object of --json, the bondd_link_check_* gauges of --prometheus and the
 * per-slave table of bondd-status --link-check.  Pure, like status_render.c.
 */
#include "json_text.h"
#include "linkcheck.h"
#include "linkcheck_phase.h"
#include "prom_text.h"

#include <stdio.h>
#include <string.h>

static void sizes_json(struct strbuf *out, uint8_t bits)
{
	bool first = true;
	sb_puts(out, "[");
	for (int c = 0; c < LC__SIZES; c++)
		if (bits & LC_SIZE_BIT(c)) {
			sb_puts(out, first ? "" : ",");
			json_string(out, lc_size_name((enum lc_size)c));
			first = false;
		}
	sb_puts(out, "]");
}

static void host_json(struct strbuf *out, const uint8_t host[LC_HOST_ID_LEN])
{
	char hex[2 * LC_HOST_ID_LEN + 1];
	for (size_t i = 0; i < LC_HOST_ID_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", host[i]);
	json_string(out, hex);
}

/* A JSON list of the names of r's slaves (the first 32) whose bits are set. */
static void slave_names_json(struct strbuf *out, const struct lc_result *r, uint32_t bits)
{
	bool first = true;

	sb_puts(out, "[");
	for (size_t k = 0; k < r->m.n_slaves && k < 32; k++)
		if (bits & (1u << k)) {
			sb_puts(out, first ? "" : ",");
			json_string(out, r->m.slaves[k].name);
			first = false;
		}
	sb_puts(out, "]");
}

void linkcheck_json(struct strbuf *out, const struct lc_result *r)
{
	if (!r) {
		sb_puts(out, "null");
		return;
	}
	sb_printf(out, "{\"enabled\":%s,\"running\":%s,\"checks\":%lu,\"last_check_ms\":%lld,"
		       "\"took_ms\":%u,\"since_trigger_ms\":%u,\"trigger\":",
		  r->enabled ? "true" : "false", r->running ? "true" : "false", r->checks,
		  (long long)r->wall_ms, r->took_ms, r->trigger_ms);
	json_string(out, r->trigger);
	sb_printf(out, ",\"requests_sent\":%u,\"requests_total\":%lu,\"answers_sent\":%lu,\"bad_frames\":%lu,"
		       "\"late_answers\":%lu,\"error\":",
		  r->frames_sent, r->requests_total, r->answers_sent, r->bad_frames,
		  r->late_answers);
	json_string(out, r->error);
	sb_printf(out, ",\"dropped\":%lu,\"echoes_sent\":%lu,\"wait_ms\":%u", r->dropped,
		  r->echoes_sent, r->wait_ms);
	sb_printf(out, ",\"pending\":%u,\"missing\":%u,\"settling\":%s,\"recheck_in_ms\":%u",
		  r->pending, r->missing, r->settling ? "true" : "false",
		  r->settling ? r->recheck_ms : 0);
	/* no peer answered the last check: when it is tried again */
	sb_printf(out, ",\"retry_in_ms\":%u", r->retry_ms);
	sb_puts(out, ",\"slaves\":[");
	for (size_t i = 0; r->checks && i < r->m.n_slaves; i++) {
		const struct lc_slave_obs *s = &r->m.slaves[i];
		sb_puts(out, i ? ",{\"slave\":" : "{\"slave\":");
		json_string(out, s->name);
		sb_printf(out, ",\"position\":%u,\"ifindex\":%d,\"probed\":%s,\"sizes\":{\"small\":%u,"
			       "\"standard\":%u,\"full\":%u},\"error\":",
			  s->pos, s->ifindex, s->probed ? "true" : "false", s->sizes[LC_SMALL],
			  s->sizes[LC_STANDARD], s->sizes[LC_FULL]);
		json_string(out, s->error);
		sb_puts(out, ",\"siblings_heard\":");
		slave_names_json(out, r, s->siblings);
		sb_puts(out, ",\"answers_on\":");
		slave_names_json(out, r, s->answered_on);
		sb_puts(out, ",\"peers\":[");
		for (size_t p = 0; p < s->n_peers; p++) {
			const struct lc_peer_obs *pe = &s->peers[p];
			sb_puts(out, p ? ",{\"host\":" : "{\"host\":");
			host_json(out, pe->end.host);
			sb_puts(out, ",\"bond\":");
			json_string(out, pe->end.bond);
			sb_puts(out, ",\"slave\":");
			json_string(out, pe->end.slave);
			sb_printf(out, ",\"position\":%u,\"answered\":", pe->end.pos);
			sizes_json(out, pe->answered);
			sb_puts(out, ",\"heard\":");
			sizes_json(out, pe->heard);
			/* the name the peer gave (display only), null when none;
			 * last, after the members scripts already match */
			sb_puts(out, ",\"host_name\":");
			if (lc_host_name_valid(pe->end.host_name))
				json_string(out, pe->end.host_name);
			else
				sb_puts(out, "null");
			sb_puts(out, "}");
		}
		sb_puts(out, "]}");
	}
	sb_puts(out, "]}");
}

static size_t peers_at(const struct lc_slave_obs *s, enum lc_size c)
{
	size_t n = 0;
	for (size_t p = 0; p < s->n_peers; p++)
		n += !!(s->peers[p].answered & LC_SIZE_BIT(c));
	return n;
}

/* A per-bond link check number: the checks done (of bonds with the link
 * check on), or, once one ran, the last one's pending findings or requests. */
enum lc_metric { LM_CHECKS, LM_PENDING, LM_SENT };

static void lc_bond_metric(struct strbuf *out, const struct lc_result *const *results, size_t n,
			   const char *name, const char *type, const char *help, enum lc_metric m)
{
	prom_head(out, name, type, help);
	for (size_t i = 0; i < n; i++) {
		const struct lc_result *r = results[i];
		if (!r || (m == LM_CHECKS ? !r->enabled : !r->checks))
			continue;
		prom_sample(out, name, r->bond, r->bond, NULL, NULL,
			    m == LM_CHECKS ? r->checks : m == LM_PENDING ? r->pending : r->frames_sent);
	}
}

void linkcheck_prometheus(struct strbuf *out, const struct lc_result *const *results, size_t n)
{
	prom_head(out, "bondd_link_check_peer_slaves", "gauge",
		  "peer slaves that answered the last link check's probes from this slave, "
		  "by probe size");
	for (size_t i = 0; i < n; i++) {
		const struct lc_result *r = results[i];
		for (size_t j = 0; r && r->checks && j < r->m.n_slaves; j++)
			for (int c = 0; c < LC__SIZES; c++) {
				const struct lc_slave_obs *s = &r->m.slaves[j];
				if (!(s->sent & LC_SIZE_BIT(c)))
					continue;
				prom_sample(out, "bondd_link_check_peer_slaves", r->bond, s->name,
					    "size", lc_size_name((enum lc_size)c),
					    peers_at(s, (enum lc_size)c));
			}
	}
	lc_bond_metric(out, results, n, "bondd_link_check_checks_total", "counter",
		    "link checks completed", LM_CHECKS);
	lc_bond_metric(out, results, n, "bondd_link_check_pending_findings", "gauge",
		    "findings of the last link check not yet confirmed by the next one "
		    "(they do not count in health)", LM_PENDING);
	lc_bond_metric(out, results, n, "bondd_link_check_requests_sent", "gauge",
		    "requests the last link check sent", LM_SENT);
}

static void sizes_text(struct strbuf *out, const struct lc_slave_obs *s, uint8_t bits)
{
	bool first = true;
	for (int c = 0; c < LC__SIZES; c++)
		if (bits & LC_SIZE_BIT(c) && s->sizes[c]) {
			sb_printf(out, "%s%u", first ? "" : ",", s->sizes[c]);
			first = false;
		}
	if (first)
		sb_puts(out, "-");
}

void linkcheck_table(struct strbuf *out, const struct lc_result *r, const char *bond,
		     const struct finding *const *found, size_t n_found)
{
	if (!r || !r->enabled) {
		sb_printf(out, "%s: link check off (link_check = no)\n", bond);
		return;
	}
	if (r->error[0])
		sb_printf(out, "%s: link check cannot run: %s\n", bond, r->error);
	if (!r->checks) {
		sb_printf(out, "%s: no link check yet\n", bond);
		return;
	}
	sb_printf(out, "%s: link check #%lu (%s), %u ms, %u requests\n", bond, r->checks,
		  r->trigger, r->took_ms, r->frames_sent);
	if (r->settling)
		sb_printf(out, "settling: %u finding%s pending, %u peer slave%s late; "
			       "next check %u ms after this one\n", r->pending,
			  r->pending == 1 ? "" : "s", r->missing, r->missing == 1 ? "" : "s",
			  r->recheck_ms);
	else if (r->retry_ms)
		sb_printf(out, "no peer answered: next check %u ms after this one, then less often "
			       "(every %d minutes at most) until one does\n", r->retry_ms,
			  LC_ALONE_MAX_MS / 60000);
	sb_puts(out, "SLAVE            POS  PEER                                 ANSWERED        HEARD\n");
	for (size_t i = 0; i < r->m.n_slaves; i++) {
		const struct lc_slave_obs *s = &r->m.slaves[i];
		if (!s->probed) {
			sb_printf(out, "%-16s %3u  %s\n", s->name, s->pos,
				  s->error[0] ? s->error : "not probed (down or not enslaved)");
			continue;
		}
		size_t shown = 0;
		for (size_t k = 0; k < r->m.n_slaves && k < 32; k++)
			if (s->siblings & (1u << k)) {
				sb_printf(out, "%-16s %3u  this host's %s (one broadcast domain)\n",
					  shown ? "" : s->name, s->pos, r->m.slaves[k].name);
				shown++;
			}
		for (size_t p = 0; p < s->n_peers; p++) {
			const struct lc_peer_obs *pe = &s->peers[p];
			char host[LC_HOST_NAME_LEN], peer[80];
			lc_end_host(&pe->end, host);
			snprintf(peer, sizeof(peer), "%s %s %s@%u", host, pe->end.bond, pe->end.slave,
				 pe->end.pos);
			sb_printf(out, "%-16s %3u  %-36s ", shown ? "" : s->name, s->pos, peer);
			size_t mark = out->len;
			sizes_text(out, s, pe->answered);
			size_t w = out->len - mark;
			sb_printf(out, "%*s", w < 16 ? (int)(16 - w) : 1, "");
			sizes_text(out, s, pe->heard);
			sb_puts(out, "\n");
			shown++;
		}
		if (!shown)
			sb_printf(out, "%-16s %3u  no peer answered\n", s->name, s->pos);
	}
	size_t nf = 0;
	for (size_t j = 0; j < n_found; j++) {
		const struct finding *f = found[j];
		if (f->source != FSRC_LINK_CHECK)
			continue;
		sb_printf(out, "%s%s%s: %s\n  fix: %s\n", nf++ ? "" : "findings:\n",
			  finding_kind_name(f->kind),
			  f->pending ? " (pending: seen once, not yet confirmed)" : "",
			  f->evidence, f->fix);
	}
	if (!nf)
		sb_puts(out, "no findings\n");
}
