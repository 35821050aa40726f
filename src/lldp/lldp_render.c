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

static void str_or_null(struct strbuf *out, const char *key, const char *s)
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

void lldp_json(struct strbuf *out, const struct lldp_port *p)
{
	if (!p) {
		sb_puts(out, "null");
		return;
	}
	sb_printf(out, "{\"frames\":%llu,\"malformed\":%llu,\"rate_limited\":%llu,\"neighbour\":",
		  (unsigned long long)p->frames, (unsigned long long)p->malformed,
		  (unsigned long long)p->limited);
	if (!p->heard) {
		sb_puts(out, "null}");
		return;
	}
	const struct lldp_neighbor *nb = &p->nb;
	sb_puts(out, "{\"chassis_id\":");
	json_string(out, nb->chassis_id);
	sb_printf(out, ",\"chassis_id_subtype\":%u,\"port_id\":", nb->chassis_subtype);
	json_string(out, nb->port_id);
	sb_printf(out, ",\"port_id_subtype\":%u", nb->port_subtype);
	str_or_null(out, "system_name", nb->sys_name);
	str_or_null(out, "port_description", nb->port_descr);
	if (nb->has_pvid)
		sb_printf(out, ",\"port_vlan_id\":%u", nb->pvid);
	else
		sb_puts(out, ",\"port_vlan_id\":null");
	if (nb->has_max_frame)
		sb_printf(out, ",\"max_frame_size\":%u", nb->max_frame);
	else
		sb_puts(out, ",\"max_frame_size\":null");
	sb_printf(out, ",\"ttl\":%u", nb->ttl);
	time_of(out, "last_heard", p->heard_wall_ms);
	time_of(out, "expires", p->heard_wall_ms + (int64_t)nb->ttl * 1000);
	sb_puts(out, "}}");
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
};

void lldp_prometheus(struct strbuf *out, const struct lldp_port *const *ports, size_t n)
{
	sb_puts(out, "# HELP bondd_slave_lldp_neighbour_info the slave's LLDP neighbour "
		     "(the switch and its port), 1 while its TTL has not passed\n"
		     "# TYPE bondd_slave_lldp_neighbour_info gauge\n");
	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *p = ports[i];
		if (!p || !p->heard)
			continue;
		char num[16];
		labels(out, "bondd_slave_lldp_neighbour_info", p->bond, p->slave);
		label(out, "chassis_id", p->nb.chassis_id);
		label(out, "system_name", p->nb.sys_name);
		label(out, "port_id", p->nb.port_id);
		label(out, "port_description", p->nb.port_descr);
		snprintf(num, sizeof(num), "%u", p->nb.pvid);
		label(out, "port_vlan_id", p->nb.has_pvid ? num : "");
		snprintf(num, sizeof(num), "%u", p->nb.max_frame);
		label(out, "max_frame_size", p->nb.has_max_frame ? num : "");
		sb_puts(out, "} 1\n");
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
						c == 1 ? p->malformed : p->limited));
		}
	}
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
		sb_printf(out, "%s %s: ", b->name, b->slaves[j].name);
		if (!p || !p->heard) {
			sb_printf(out, "no neighbour heard");
		} else {
			const struct lldp_neighbor *nb = &p->nb;
			long long ago = (now_wall_ms - p->heard_wall_ms) / 1000;
			sb_printf(out, "switch %s (chassis %s) port %s",
				  nb->sys_name[0] ? nb->sys_name : "-", nb->chassis_id, nb->port_id);
			if (nb->port_descr[0])
				sb_printf(out, " \"%s\"", nb->port_descr);
			if (nb->has_pvid)
				sb_printf(out, " pvid %u", nb->pvid);
			if (nb->has_max_frame)
				sb_printf(out, " max-frame %u", nb->max_frame);
			sb_printf(out, ", heard %lld s ago, expires in %lld s",
				  ago < 0 ? 0 : ago, (long long)nb->ttl - (ago < 0 ? 0 : ago));
		}
		if (p)
			sb_printf(out, " (frames %llu, malformed %llu, rate-limited %llu)",
				  (unsigned long long)p->frames, (unsigned long long)p->malformed,
				  (unsigned long long)p->limited);
		sb_puts(out, "\n");
	}
}
