/* SPDX-License-Identifier: MIT */
/*
 * LLDP in the status outputs (lldp_render.h).  The parser wrote every
 * identifier as printable ASCII (lldp.h); JSON and Prometheus escape
 * their own specials on top.
 */
#include "lldp_render.h"

#include <stdio.h>
#include <string.h>

#include "event_log.h"
#include "json_text.h"

static void lldp_str_or_null(struct strbuf *out, const char *key, const char *s)
{
	sb_printf(out, ",\"%s\":", key);
	if (s[0])
		json_string(out, s);
	else
		sb_puts(out, "null");
}

static void time_of(struct strbuf *out, const char *key, int64_t wall_ms)
{
	char t[32];
	sb_printf(out, ",\"%s\":", key);
	json_string(out, event_time_text(wall_ms, t));
}

/* How far a speaker weighs on the bond's health (lldp_eval.h). */
static const char *weight(const struct lldp_speaker *s)
{
	return s->confirmed ? "confirmed" : s->counts ? "unconfirmed" : "lapsed";
}

static void speaker_json(struct strbuf *out, const struct lldp_speaker *s)
{
	const struct lldp_neighbor *nb = &s->nb;
	sb_puts(out, "{\"source_mac\":");
	json_string(out, nb->src_mac);
	sb_puts(out, ",\"chassis_id\":");
	json_string(out, nb->chassis_id);
	sb_printf(out, ",\"chassis_id_subtype\":%u,\"port_id\":", nb->chassis_subtype);
	json_string(out, nb->port_id);
	sb_printf(out, ",\"port_id_subtype\":%u", nb->port_subtype);
	lldp_str_or_null(out, "system_name", nb->sys_name);
	lldp_str_or_null(out, "port_description", nb->port_descr);
	if (nb->has_pvid)
		sb_printf(out, ",\"port_vlan_id\":%u", nb->pvid);
	else
		sb_puts(out, ",\"port_vlan_id\":null");
	if (nb->has_max_frame)
		sb_printf(out, ",\"max_frame_size\":%u", nb->max_frame);
	else
		sb_puts(out, ",\"max_frame_size\":null");
	sb_printf(out, ",\"ttl\":%u,\"frames\":%llu", nb->ttl, (unsigned long long)s->frames);
	time_of(out, "last_heard", s->heard_wall_ms);
	time_of(out, "expires", s->heard_wall_ms + (int64_t)nb->ttl * 1000);
	sb_printf(out, ",\"verdicts\":\"%s\"", weight(s));
	time_of(out, "verdicts_until", s->heard_wall_ms + (lldp_speaker_holds(s) - s->heard_ms));
	sb_puts(out, "}");
}

void lldp_json(struct strbuf *out, const struct lldp_port *p)
{
	if (!p) {
		sb_puts(out, "null");
		return;
	}
	sb_printf(out, "{\"frames\":%llu,\"malformed\":%llu,\"rate_limited\":%llu,"
		  "\"dropped\":%llu,\"neighbour\":",
		  (unsigned long long)p->frames, (unsigned long long)p->malformed,
		  (unsigned long long)p->limited, (unsigned long long)p->dropped);
	const struct lldp_speaker *one = lldp_port_neighbour(p);
	if (one)
		speaker_json(out, one);
	else
		sb_puts(out, "null");
	sb_puts(out, ",\"neighbours\":[");
	for (size_t i = 0; i < p->n_sp; i++) {
		if (i)
			sb_puts(out, ",");
		speaker_json(out, &p->sp[i]);
	}
	sb_puts(out, "]}");
}

static void labels(struct strbuf *out, const char *metric, const char *bond, const char *slave)
{
	sb_printf(out, "%s{master=\"", metric);
	prom_label(out, bond);
	sb_puts(out, "\",device=\"");
	prom_label(out, slave);
	sb_puts(out, "\"");
}

static void label(struct strbuf *out, const char *name, const char *value)
{
	sb_printf(out, ",%s=\"", name);
	prom_label(out, value);
	sb_puts(out, "\"");
}

static const char *const counter_help[][2] = {
	{"bondd_slave_lldp_frames_total", "LLDP frames taken from the slave's neighbour"},
	{"bondd_slave_lldp_malformed_total",
	 "LLDP frames refused (malformed, too long, or not to 01:80:c2:00:00:0e)"},
	{"bondd_slave_lldp_rate_limited_total", "LLDP frames dropped over the slave's rate limit"},
	{"bondd_slave_lldp_dropped_total",
	 "LLDP frames the kernel dropped while the slave's read budget was spent (a flood)"},
};

void lldp_prometheus(struct strbuf *out, const struct lldp_port *const *ports, size_t n)
{
	sb_puts(out, "# HELP bondd_slave_lldp_neighbour_info the slave's LLDP neighbour "
		     "(the switch and its port), 1 while its TTL has not passed\n"
		     "# TYPE bondd_slave_lldp_neighbour_info gauge\n");
	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *p = ports[i];
		for (size_t k = 0; p && k < p->n_sp; k++) {
			const struct lldp_neighbor *nb = &p->sp[k].nb;
			char num[16];
			labels(out, "bondd_slave_lldp_neighbour_info", p->bond, p->slave);
			label(out, "chassis_id", nb->chassis_id);
			label(out, "system_name", nb->sys_name);
			label(out, "port_id", nb->port_id);
			label(out, "port_description", nb->port_descr);
			snprintf(num, sizeof(num), "%u", nb->pvid);
			label(out, "port_vlan_id", nb->has_pvid ? num : "");
			snprintf(num, sizeof(num), "%u", nb->max_frame);
			label(out, "max_frame_size", nb->has_max_frame ? num : "");
			label(out, "source_mac", nb->src_mac);
			sb_puts(out, "} 1\n");
		}
	}
	for (size_t c = 0; c < sizeof(counter_help) / sizeof(counter_help[0]); c++) {
		sb_printf(out, "# HELP %s %s\n# TYPE %s counter\n", counter_help[c][0],
			  counter_help[c][1], counter_help[c][0]);
		for (size_t i = 0; i < n; i++) {
			const struct lldp_port *p = ports[i];
			if (!p)
				continue;
			labels(out, counter_help[c][0], p->bond, p->slave);
			sb_printf(out, "} %llu\n", (unsigned long long)(c == 0 ? p->frames :
						c == 1 ? p->malformed : c == 2 ? p->limited :
						p->dropped));
		}
	}
}

/* One speaker as --neighbours shows it, from "switch" to its verdicts. */
static void speaker_text(struct strbuf *out, const struct lldp_speaker *s, int64_t now_wall_ms)
{
	const struct lldp_neighbor *nb = &s->nb;
	long long ago = (now_wall_ms - s->heard_wall_ms) / 1000;
	if (ago < 0)
		ago = 0;
	sb_printf(out, "switch %s (chassis %s) port %s", nb->sys_name[0] ? nb->sys_name : "-",
		  nb->chassis_id, nb->port_id);
	if (nb->port_descr[0])
		sb_printf(out, " \"%s\"", nb->port_descr);
	if (nb->has_pvid)
		sb_printf(out, " pvid %u", nb->pvid);
	if (nb->has_max_frame)
		sb_printf(out, " max-frame %u", nb->max_frame);
	sb_printf(out, ", heard %lld s ago from %s, expires in %lld s", ago, nb->src_mac,
		  (long long)nb->ttl - ago);
	if (!s->counts)
		sb_puts(out, ", not judged (silent past its hold)");
	else if (!s->confirmed)
		sb_puts(out, ", not judged until confirmed");
}

void lldp_text(struct strbuf *out, const struct desired_bond *b,
	       const struct lldp_port *const *ports, int64_t now_wall_ms)
{
	if (!b->lldp) {
		sb_printf(out, "%s: LLDP off (lldp = no)\n", b->name);
		return;
	}
	for (size_t j = 0; j < b->n_slaves; j++) {
		const struct lldp_port *p = ports[j];
		const struct lldp_speaker *one = lldp_port_neighbour(p);
		sb_printf(out, "%s %s: ", b->name, b->slaves[j].name);
		if (one)
			speaker_text(out, one, now_wall_ms);
		else if (!p || !p->n_sp)
			sb_puts(out, "no neighbour heard");
		else if (p->n_counting >= 2)
			sb_printf(out, "%zu LLDP speakers at once, no verdict from this slave",
				  p->n_sp);
		else
			sb_printf(out, "%zu LLDP speakers within their TTL", p->n_sp);
		if (p)
			sb_printf(out, " (frames %llu, malformed %llu, rate-limited %llu",
				  (unsigned long long)p->frames, (unsigned long long)p->malformed,
				  (unsigned long long)p->limited);
		if (p && p->dropped)
			sb_printf(out, ", dropped %llu", (unsigned long long)p->dropped);
		if (p && p->nomem)
			sb_printf(out, ", not taken for want of memory %llu",
				  (unsigned long long)p->nomem);
		if (p)
			sb_puts(out, ")");
		sb_puts(out, "\n");
		for (size_t k = 0; !one && p && k < p->n_sp; k++) {
			sb_printf(out, "%s %s:   ", b->name, b->slaves[j].name);
			speaker_text(out, &p->sp[k], now_wall_ms);
			sb_puts(out, "\n");
		}
	}
}
