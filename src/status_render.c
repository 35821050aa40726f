/* SPDX-License-Identifier: MIT */
/* Status replies from the models: health, --brief, --json, --prometheus. */
#include "status_render.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most recent events shown per bond in JSON. */
#define JSON_EVENTS 32

int status_select(const struct status_view *v, const struct status_request *req,
		  const struct desired_bond **sel, size_t *n, const char **unknown)
{
	*n = 0;
	if (req->n_bonds == 0) {
		for (size_t i = 0; i < v->want->n_bonds && *n < STATUS_MAX_NAMES; i++)
			sel[(*n)++] = &v->want->bonds[i];
		return 0;
	}
	for (size_t i = 0; i < req->n_bonds; i++) {
		if (!desired_find_bond(v->want, req->bonds[i])) {
			*unknown = req->bonds[i];
			return -1;
		}
	}
	/* Config order, each once, whatever order the request names them in. */
	for (size_t i = 0; i < v->want->n_bonds; i++) {
		for (size_t j = 0; j < req->n_bonds; j++) {
			if (strcmp(v->want->bonds[i].name, req->bonds[j]) == 0) {
				sel[(*n)++] = &v->want->bonds[i];
				break;
			}
		}
	}
	return 0;
}

static const struct bond_runtime *bond_rt(const struct status_view *v,
					  const struct desired_bond *b)
{
	size_t i = (size_t)(b - v->want->bonds);
	return v->bonds && i < v->want->n_bonds ? &v->bonds[i] : NULL;
}

static const struct link_runtime *link_rt(const struct status_view *v, const char *name)
{
	for (size_t i = 0; i < v->n_links; i++)
		if (strcmp(v->links[i].name, name) == 0)
			return &v->links[i];
	return NULL;
}

static const struct obs_link *obs_bond(const struct status_view *v, const char *name)
{
	const struct obs_link *l = observed_by_name(v->obs, name);
	return l && strcmp(l->kind, "bond") == 0 ? l : NULL;
}

/* Position (1-based) of name in the bond's kernel order, 0 when absent. */
static size_t position(const struct obs_link *bond, const char *name)
{
	for (size_t i = 0; bond && i < bond->n_order; i++)
		if (strcmp(bond->order[i], name) == 0)
			return i + 1;
	return 0;
}

/* Live speed and counters where the daemon can read them, else what the
 * link's last netlink message said. */
static void link_live(const struct status_view *v, const struct obs_link *s,
		      struct link_live *out)
{
	*out = (struct link_live){.mbps = -1, .duplex = "unknown"};
	if (v->link_live)
		v->link_live(v->live_ctx, s->name, s->ifindex, out);
	if (!out->has_stats)
		out->stats = s->stats;
}

static bool slave_up(const struct obs_link *bond, const struct obs_link *s)
{
	return bond && s && s->master == bond->ifindex && s->slave.valid &&
	       s->slave.mii_status == MII_UP;
}

enum status_health status_bond_health(const struct status_view *v,
				      const struct desired_bond *b, char *why, size_t len)
{
	const struct obs_link *bond = obs_bond(v, b->name);

	snprintf(why, len, "%s", "");
	if (b->absent && bond)
		return snprintf(why, len, "%s is configured absent and still exists", b->name),
		       HEALTH_DEGRADED;
	if (b->absent)
		return HEALTH_OK;
	if (!bond)
		return snprintf(why, len, "%s does not exist", b->name), HEALTH_DOWN;
	if (!(bond->flags & IFF_UP))
		return snprintf(why, len, "%s is down", b->name), HEALTH_DOWN;
	if (!(bond->flags & IFF_LOWER_UP))
		return snprintf(why, len, "%s has no carrier", b->name), HEALTH_DOWN;
	if (v->stale)
		return snprintf(why, len, "%s", v->stale), HEALTH_DEGRADED;
	/* Something bondd must still do for it was refused and backs off (an
	 * address, an option, the MTU): the kernel's words are the reason. */
	const struct bond_runtime *rt = bond_rt(v, b);
	if (rt && rt->refused[0])
		return snprintf(why, len, "%s", rt->refused), HEALTH_DEGRADED;
	if (bond->mtu != b->mtu)
		return snprintf(why, len, "%s has MTU %u, not %u", b->name, bond->mtu, b->mtu),
		       HEALTH_DEGRADED;
	for (size_t i = 0; i < b->n_slaves; i++) {
		const char *name = b->slaves[i].name;
		const struct obs_link *s = observed_by_name(v->obs, name);
		if (!s)
			return snprintf(why, len, "%s does not exist", name), HEALTH_DEGRADED;
		if (s->master != bond->ifindex)
			return snprintf(why, len, "%s is not enslaved", name), HEALTH_DEGRADED;
		if (desired_keeps_order(b) && position(bond, name) != i + 1)
			return snprintf(why, len, "%s is not at position %zu", name, i + 1),
			       HEALTH_DEGRADED;
		if (!slave_up(bond, s))
			return snprintf(why, len, "%s: MII down", name), HEALTH_DEGRADED;
		if (s->mtu != b->mtu)
			return snprintf(why, len, "%s has MTU %u, not %u", name, s->mtu, b->mtu),
			       HEALTH_DEGRADED;
	}
	if (bond->n_order != b->n_slaves)
		return snprintf(why, len, "%s has %zu slaves, %zu configured", b->name,
				bond->n_order, b->n_slaves), HEALTH_DEGRADED;
	/* What health does not compare (options, addresses) bondd may still
	 * be putting back: the daemon says so while it retries. */
	if (rt && rt->unsettled[0])
		return snprintf(why, len, "%s %s", b->name, rt->unsettled), HEALTH_DEGRADED;
	/* The bond is as configured; what the checks found beyond it. */
	const struct finding *f = findings_first_degraded(v->findings, FSRC__COUNT, b->name);
	if (f)
		return snprintf(why, len, "%s: %s", finding_kind_name(f->kind), f->evidence),
		       HEALTH_DEGRADED;
	return HEALTH_OK;
}

enum status_health status_worst(const struct status_view *v,
				const struct desired_bond *const *sel, size_t n)
{
	enum status_health worst = HEALTH_OK;
	char why[128];

	for (size_t i = 0; i < n; i++) {
		enum status_health h = status_bond_health(v, sel[i], why, sizeof(why));
		if (h > worst)
			worst = h;
	}
	return worst;
}

static size_t slaves_up(const struct status_view *v, const struct desired_bond *b)
{
	const struct obs_link *bond = obs_bond(v, b->name);
	size_t up = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		up += slave_up(bond, observed_by_name(v->obs, b->slaves[i].name));
	return up;
}

static const char *mode_of(const struct obs_link *bond, const struct desired_bond *b)
{
	const struct bond_opts *o = bond ? &bond->bond : &b->opts;
	return bond_mode_name((enum bond_mode)o->val[OPT_MODE]);
}

void render_brief(struct strbuf *out, const struct status_view *v,
		  const struct desired_bond *const *sel, size_t n)
{
	char why[128];

	for (size_t i = 0; i < n; i++) {
		const struct desired_bond *b = sel[i];
		const struct obs_link *bond = obs_bond(v, b->name);
		enum status_health h = status_bond_health(v, b, why, sizeof(why));
		sb_printf(out, "%s %s %s mtu %u slaves %zu/%zu up", b->name, status_health_name(h),
			  mode_of(bond, b), bond ? bond->mtu : b->mtu, slaves_up(v, b), b->n_slaves);
		if (h != HEALTH_OK)
			sb_printf(out, " (%s)", why);
		/* Why it is not whole, in bondd's and the kernel's words. */
		const struct bond_runtime *rt = bond_rt(v, b);
		if (rt && rt->notes[0])
			sb_printf(out, " [%s]", rt->notes);
		if (rt && rt->failing[0])
			sb_printf(out, " [failing: %s]", rt->failing);
		sb_puts(out, "\n");
	}
}

/* --- JSON ------------------------------------------------------------- */

static void json_key(struct strbuf *out, const char *key)
{
	sb_json_str(out, key);
	sb_puts(out, ":");
}

static void json_time(struct strbuf *out, int64_t ms)
{
	char t[32];
	if (ms <= 0)
		sb_puts(out, "null");
	else
		sb_json_str(out, event_time_text(ms, t));
}

static void json_opts(struct strbuf *out, const struct bond_opts *o)
{
	char val[512];
	bool first = true;

	sb_puts(out, "{");
	for (int id = 0; id < OPT__COUNT; id++) {
		if (!bond_opts_has(o, (enum bond_opt)id))
			continue;
		sb_puts(out, first ? "" : ",");
		first = false;
		json_key(out, bond_opt_desc((enum bond_opt)id)->key);
		sb_json_str(out, bond_opts_format(o, (enum bond_opt)id, val, sizeof(val)));
	}
	sb_puts(out, "}");
}

static void json_names(struct strbuf *out, const char (*names)[IFNAMSIZ], size_t n)
{
	sb_puts(out, "[");
	for (size_t i = 0; i < n; i++) {
		sb_puts(out, i ? "," : "");
		sb_json_str(out, names[i]);
	}
	sb_puts(out, "]");
}

static const char *mii_name(uint8_t mii)
{
	switch (mii) {
	case MII_UP: return "up";
	case MII_GOING_DOWN: return "going down";
	case MII_DOWN: return "down";
	case MII_GOING_BACK: return "going back";
	}
	return "unknown";
}

static void json_slave(struct strbuf *out, const struct status_view *v,
		       const struct obs_link *bond, const struct desired_bond *b, size_t i)
{
	const char *name = b->slaves[i].name;
	const struct obs_link *s = observed_by_name(v->obs, name);
	const struct link_runtime *rt = link_rt(v, name);
	bool enslaved = bond && s && s->master == bond->ifindex;

	sb_puts(out, "{");
	json_key(out, "name");
	sb_json_str(out, name);
	sb_printf(out, ",\"configured_position\":%zu,\"position\":", i + 1);
	size_t pos = position(bond, name);
	if (pos)
		sb_printf(out, "%zu", pos);
	else
		sb_puts(out, "null");
	sb_printf(out, ",\"present\":%s,\"enslaved\":%s", s ? "true" : "false",
		  enslaved ? "true" : "false");
	if (s) {
		sb_printf(out, ",\"ifindex\":%d,\"mtu\":%u,\"carrier\":%s", s->ifindex, s->mtu,
			  s->flags & IFF_LOWER_UP ? "true" : "false");
	}
	if (enslaved && s->slave.valid) {
		const uint8_t *m = s->slave.perm_hwaddr;
		sb_printf(out, ",\"mii_status\":\"%s\",\"link_failure_count\":%u",
			  mii_name(s->slave.mii_status), s->slave.link_failure_count);
		sb_printf(out, ",\"permanent_address\":\"%02x:%02x:%02x:%02x:%02x:%02x\"", m[0],
			  m[1], m[2], m[3], m[4], m[5]);
		sb_printf(out, ",\"state\":\"%s\",\"queue_id\":%u",
			  s->slave.state == 0 ? "active" : "backup", s->slave.queue_id);
	}
	if (s) {
		struct link_live live;
		link_live(v, s, &live);
		sb_puts(out, ",\"speed_mbps\":");
		if (live.mbps >= 0)
			sb_printf(out, "%d", live.mbps);
		else
			sb_puts(out, "null");
		sb_puts(out, ",\"duplex\":");
		sb_json_str(out, live.duplex);
		sb_printf(out,
			  ",\"rx_bytes\":%llu,\"tx_bytes\":%llu,\"rx_packets\":%llu,"
			  "\"tx_packets\":%llu",
			  (unsigned long long)live.stats.rx_bytes,
			  (unsigned long long)live.stats.tx_bytes,
			  (unsigned long long)live.stats.rx_packets,
			  (unsigned long long)live.stats.tx_packets);
	}
	sb_printf(out, ",\"carrier_flaps\":%lu,\"last_flap\":", rt ? rt->carrier_losses : 0UL);
	json_time(out, rt ? rt->last_flap_ms : 0);
	sb_puts(out, "}");
}

static void json_addrs(struct strbuf *out, const struct desired_bond *b)
{
	char text[INET6_ADDRSTRLEN];

	sb_puts(out, "[");
	for (size_t i = 0; i < b->n_addrs; i++) {
		inet_ntop(b->addrs[i].family, b->addrs[i].addr, text, sizeof(text));
		sb_printf(out, "%s\"%s/%u\"", i ? "," : "", text, b->addrs[i].prefixlen);
	}
	sb_puts(out, "]");
}

static void json_events(struct strbuf *out, const struct status_view *v, const char *bond)
{
	size_t n = v->events ? event_log_count(v->events) : 0, shown = 0, first = n;

	/* The newest JSON_EVENTS of this bond, oldest first. */
	while (first > 0 && shown < JSON_EVENTS)
		if (strcmp(event_log_at(v->events, --first)->bond, bond) == 0)
			shown++;
	sb_puts(out, "[");
	shown = 0;
	for (size_t i = first; i < n; i++) {
		const struct event *e = event_log_at(v->events, i);
		if (strcmp(e->bond, bond) != 0)
			continue;
		sb_puts(out, shown++ ? ",{" : "{");
		json_key(out, "time");
		json_time(out, e->wall_ms);
		sb_puts(out, ",");
		json_key(out, "kind");
		sb_json_str(out, event_kind_name(e->kind));
		sb_puts(out, ",");
		json_key(out, "link");
		sb_json_str(out, e->link);
		sb_puts(out, ",");
		json_key(out, "text");
		sb_json_str(out, e->text);
		sb_puts(out, "}");
	}
	sb_puts(out, "]");
}

static void json_bond(struct strbuf *out, const struct status_view *v,
		      const struct desired_bond *b)
{
	const struct obs_link *bond = obs_bond(v, b->name);
	const struct bond_runtime *rt = bond_rt(v, b);
	char why[128];
	enum status_health h = status_bond_health(v, b, why, sizeof(why));
	char names[BONDD_MAX_SLAVES][IFNAMSIZ];

	sb_puts(out, "{");
	json_key(out, "name");
	sb_json_str(out, b->name);
	sb_printf(out, ",\"health\":\"%s\",\"health_code\":%d,\"problem\":",
		  status_health_name(h), (int)h);
	if (h == HEALTH_OK)
		sb_puts(out, "null");
	else
		sb_json_str(out, why);
	sb_printf(out, ",\"present\":%s", bond ? "true" : "false");
	if (bond)
		sb_printf(out, ",\"ifindex\":%d,\"up\":%s,\"carrier\":%s", bond->ifindex,
			  bond->flags & IFF_UP ? "true" : "false",
			  bond->flags & IFF_LOWER_UP ? "true" : "false");
	sb_printf(out, ",\"slaves_up\":%zu,\"slaves_configured\":%zu", slaves_up(v, b),
		  b->n_slaves);

	sb_printf(out, ",\"configured\":{\"mtu\":%u,\"options\":", b->mtu);
	json_opts(out, &b->opts);
	for (size_t i = 0; i < b->n_slaves; i++)
		snprintf(names[i], IFNAMSIZ, "%s", b->slaves[i].name);
	sb_puts(out, ",\"slaves\":");
	json_names(out, (const char(*)[IFNAMSIZ])names, b->n_slaves);
	sb_puts(out, ",\"addresses\":");
	json_addrs(out, b);
	sb_puts(out, "},\"observed\":");
	if (bond) {
		sb_printf(out, "{\"mtu\":%u,\"options\":", bond->mtu);
		json_opts(out, &bond->bond);
		sb_puts(out, ",\"slaves\":");
		json_names(out, (const char(*)[IFNAMSIZ])bond->order, bond->n_order);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}

	sb_puts(out, ",\"slave_status\":[");
	for (size_t i = 0; i < b->n_slaves; i++) {
		sb_puts(out, i ? "," : "");
		json_slave(out, v, bond, b, i);
	}
	sb_printf(out, "],\"actions\":%lu,\"errors\":%lu,\"last_error\":",
		  rt ? rt->actions : 0UL, rt ? rt->errors : 0UL);
	if (rt && rt->last_error_ms) {
		sb_puts(out, "{\"time\":");
		json_time(out, rt->last_error_ms);
		sb_puts(out, ",\"text\":");
		sb_json_str(out, rt->last_error);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}
	sb_puts(out, ",\"notes\":");
	if (rt && rt->notes[0])
		sb_json_str(out, rt->notes);
	else
		sb_puts(out, "null");
	sb_puts(out, ",\"findings\":");
	findings_json(out, v->findings, FSRC__COUNT, b->name);
	sb_puts(out, ",\"link_check\":");
	linkcheck_json(out, lc_results_find(v->linkcheck, b->name));
	sb_puts(out, ",\"failing\":");
	if (rt && rt->failing[0])
		sb_json_str(out, rt->failing);
	else
		sb_puts(out, "null");
	sb_puts(out, ",\"events\":");
	json_events(out, v, b->name);
	sb_puts(out, "}");
}

void render_json(struct strbuf *out, const struct status_view *v,
		 const struct desired_bond *const *sel, size_t n)
{
	sb_puts(out, "{\"protocol\":1,\"time\":");
	json_time(out, v->now_ms);
	sb_printf(out, ",\"health_code\":%d,\"bonds\":[", (int)status_worst(v, sel, n));
	for (size_t i = 0; i < n; i++) {
		sb_puts(out, i ? "," : "");
		json_bond(out, v, sel[i]);
	}
	sb_puts(out, "]}\n");
}

/* --- Prometheus ------------------------------------------------------- */

static void metric_head(struct strbuf *out, const char *name, const char *type,
			const char *help)
{
	sb_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A label value, escaped as the exposition format wants: an interface name
 * may hold a quote or a backslash. */
static void label_value(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			sb_printf(out, "\\%c", *s);
		else if (*s == '\n')
			sb_puts(out, "\\n");
		else
			sb_add(out, s, 1);
	}
}

/* One sample: METRIC{bond="B"} or METRIC{bond="B",slave="S"}, then VALUE. */
static void sample(struct strbuf *out, const char *metric, const char *bond,
		   const char *slave, unsigned long long value)
{
	sb_printf(out, "%s{bond=\"", metric);
	label_value(out, bond);
	if (slave) {
		sb_puts(out, "\",slave=\"");
		label_value(out, slave);
	}
	sb_printf(out, "\"} %llu\n", value);
}

enum slave_metric {
	SM_IN_PLACE, SM_MII_UP, SM_MTU, SM_LINK_FAILURES, SM_CARRIER_FLAPS,
	SM_RX_BYTES, SM_TX_BYTES, SM_RX_PACKETS, SM_TX_PACKETS, SM__COUNT
};

static const struct {
	const char *name, *type, *help;
} slave_metrics[SM__COUNT] = {
	[SM_IN_PLACE] = {"bondd_slave_in_place", "gauge", "1 when enslaved at its configured position"},
	[SM_MII_UP] = {"bondd_slave_mii_up", "gauge", "1 when the bond's MII status of the slave is up"},
	[SM_MTU] = {"bondd_slave_mtu_bytes", "gauge", "the slave's MTU"},
	[SM_LINK_FAILURES] = {"bondd_slave_link_failures_total", "counter", "the bond's link failure count"},
	[SM_CARRIER_FLAPS] = {"bondd_slave_carrier_flaps_total", "counter", "carrier losses bondd did not cause (the link stayed admin-up)"},
	[SM_RX_BYTES] = {"bondd_slave_rx_bytes_total", "counter", "bytes received"},
	[SM_TX_BYTES] = {"bondd_slave_tx_bytes_total", "counter", "bytes transmitted"},
	[SM_RX_PACKETS] = {"bondd_slave_rx_packets_total", "counter", "packets received"},
	[SM_TX_PACKETS] = {"bondd_slave_tx_packets_total", "counter", "packets transmitted"},
};

/* The value of metric M for a configured slave, or false when it has none
 * (a slave that does not exist has no MTU and no counters).  LIVE is the
 * slave's counters, fetched once for all four counter metrics. */
static bool slave_metric(const struct status_view *v, const struct desired_bond *b, size_t j,
			 enum slave_metric m, const struct link_live *live,
			 unsigned long long *val)
{
	const char *name = b->slaves[j].name;
	const struct obs_link *bond = obs_bond(v, b->name);
	const struct obs_link *s = observed_by_name(v->obs, name);
	const struct link_runtime *rt = link_rt(v, name);

	switch (m) {
	case SM_IN_PLACE:
		*val = s && bond && s->master == bond->ifindex && position(bond, name) == j + 1;
		return true;
	case SM_MII_UP: *val = slave_up(bond, s); return true;
	case SM_MTU: *val = s ? s->mtu : 0; return s != NULL;
	case SM_LINK_FAILURES:
		*val = s && s->slave.valid ? s->slave.link_failure_count : 0;
		return s && s->slave.valid;
	case SM_CARRIER_FLAPS: *val = rt ? rt->carrier_losses : 0; return true;
	case SM_RX_BYTES: *val = live->stats.rx_bytes; return s != NULL;
	case SM_TX_BYTES: *val = live->stats.tx_bytes; return s != NULL;
	case SM_RX_PACKETS: *val = live->stats.rx_packets; return s != NULL;
	case SM_TX_PACKETS: *val = live->stats.tx_packets; return s != NULL;
	case SM__COUNT: break;
	}
	return false;
}

/* Each metric's HELP, TYPE and every sample of it together, as the format
 * requires. */
void render_prometheus(struct strbuf *out, const struct status_view *v,
		       const struct desired_bond *const *sel, size_t n)
{
	char why[128];

	metric_head(out, "bondd_bond_health", "gauge",
		    "0 healthy, 1 degraded, 2 down or missing (bondd-status exit codes)");
	for (size_t i = 0; i < n; i++)
		sample(out, "bondd_bond_health", sel[i]->name, NULL,
		       (unsigned long long)status_bond_health(v, sel[i], why, sizeof(why)));
	metric_head(out, "bondd_bond_up", "gauge", "1 when the bond exists, is up and has carrier");
	for (size_t i = 0; i < n; i++) {
		const struct obs_link *b = obs_bond(v, sel[i]->name);
		sample(out, "bondd_bond_up", sel[i]->name, NULL,
		       b && (b->flags & IFF_UP) && (b->flags & IFF_LOWER_UP));
	}
	metric_head(out, "bondd_bond_mtu_bytes", "gauge", "the bond's MTU in the kernel");
	for (size_t i = 0; i < n; i++) {
		const struct obs_link *b = obs_bond(v, sel[i]->name);
		if (b)
			sample(out, "bondd_bond_mtu_bytes", sel[i]->name, NULL, b->mtu);
	}
	metric_head(out, "bondd_bond_slaves_configured", "gauge", "slaves in the config");
	for (size_t i = 0; i < n; i++)
		sample(out, "bondd_bond_slaves_configured", sel[i]->name, NULL, sel[i]->n_slaves);
	metric_head(out, "bondd_bond_slaves_up", "gauge",
		    "configured slaves enslaved with MII status up");
	for (size_t i = 0; i < n; i++)
		sample(out, "bondd_bond_slaves_up", sel[i]->name, NULL, slaves_up(v, sel[i]));
	metric_head(out, "bondd_bond_actions_total", "counter",
		    "kernel requests bondd made for the bond");
	for (size_t i = 0; i < n; i++) {
		const struct bond_runtime *rt = bond_rt(v, sel[i]);
		sample(out, "bondd_bond_actions_total", sel[i]->name, NULL, rt ? rt->actions : 0UL);
	}
	metric_head(out, "bondd_bond_errors_total", "counter",
		    "kernel requests for the bond that failed");
	for (size_t i = 0; i < n; i++) {
		const struct bond_runtime *rt = bond_rt(v, sel[i]);
		sample(out, "bondd_bond_errors_total", sel[i]->name, NULL, rt ? rt->errors : 0UL);
	}

	metric_head(out, "bondd_bond_findings", "gauge",
		    "what the link check and the host checks found, by kind (bondd-status(1))");
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < FK__COUNT; k++) {
			unsigned long long count = 0;
			enum finding_severity sev = FSEV_INFO;
			for (size_t l = 0; l < FSRC__COUNT; l++)
				for (size_t j = 0; v->findings[l] && j < v->findings[l]->n; j++) {
					const struct finding *f = &v->findings[l]->v[j];
					if (f->kind != (enum finding_kind)k ||
					    strcmp(f->bond, sel[i]->name) != 0)
						continue;
					count++;
					if (f->severity > sev)
						sev = f->severity;
				}
			if (!count)
				continue;
			sb_puts(out, "bondd_bond_findings{bond=\"");
			label_value(out, sel[i]->name);
			sb_printf(out, "\",kind=\"%s\",severity=\"%s\"} %llu\n",
				  finding_kind_name((enum finding_kind)k), finding_severity_name(sev),
				  count);
		}

	linkcheck_prometheus(out, v->linkcheck, sel, n);

	/* One netlink round trip per slave for its counters, not one per
	 * counter metric: fetched here, before the metrics that use them. */
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += sel[i]->n_slaves;
	struct link_live *live = calloc(total ? total : 1, sizeof(*live));
	if (!live)
		return;
	for (size_t i = 0, k = 0; i < n; i++)
		for (size_t j = 0; j < sel[i]->n_slaves; j++, k++) {
			const struct obs_link *s = observed_by_name(v->obs, sel[i]->slaves[j].name);
			if (s)
				link_live(v, s, &live[k]);
		}
	for (size_t m = 0; m < SM__COUNT; m++) {
		metric_head(out, slave_metrics[m].name, slave_metrics[m].type, slave_metrics[m].help);
		for (size_t i = 0, k = 0; i < n; i++)
			for (size_t j = 0; j < sel[i]->n_slaves; j++, k++) {
				unsigned long long val;
				if (slave_metric(v, sel[i], j, (enum slave_metric)m, &live[k], &val))
					sample(out, slave_metrics[m].name, sel[i]->name,
					       sel[i]->slaves[j].name, val);
			}
	}
	free(live);
}
