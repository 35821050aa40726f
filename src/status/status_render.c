/* SPDX-License-Identifier: MIT */
/* Status replies from the models: health, --brief, --json, --prometheus. */
#include "status_render.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "json_text.h"

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

/* LACP port state bits (AD_STATE_* in include/net/bond_3ad.h). */
#define AD_STATE_SYNCHRONIZATION 0x08
#define AD_STATE_DEFAULTED 0x40

static bool is_8023ad(const struct obs_link *bond)
{
	return bond && bond_opts_has(&bond->bond, OPT_MODE) &&
	       bond->bond.val[OPT_MODE] == MODE_8023AD;
}

/* Why an enslaved, MII-up slave of an 802.3ad bond carries no traffic, or
 * false: outside the bond's active aggregator (ad_select picks one; the
 * others carry nothing), or a partner that is not in sync with it. */
static bool lacp_problem(const struct obs_link *bond, const struct obs_link *s, char *why,
			 size_t len)
{
	const struct obs_slave_info *si = &s->slave;

	if (!is_8023ad(bond) || !si->valid)
		return false;
	if (bond->info.has_ad_info && si->ad_aggregator_id != bond->info.ad_aggregator) {
		snprintf(why, len, "%s is in aggregator %u, not in the active aggregator %u%s",
			 s->name, si->ad_aggregator_id, bond->info.ad_aggregator,
			 si->has_ad_state && (si->ad_actor_oper_port_state & AD_STATE_DEFAULTED) ?
				 " (no LACP partner: defaulted)" : "");
		return true;
	}
	if (!bond->info.has_ad_info) {
		snprintf(why, len, "%s has no active aggregator", bond->name);
		return true;
	}
	/* 7.x reports the churn detection machines (IEEE 802.1AX 6.4.17):
	 * "churned" is the standard's LACP-mismatch signal, named as such. */
	if (si->has_churn && (si->ad_churn_actor_state == AD_CHURN_CHURNED ||
			      si->ad_churn_partner_state == AD_CHURN_CHURNED)) {
		snprintf(why, len, "%s: LACP churn (%s): no agreement with the partner; "
			 "check the switch's LAG for this port", s->name,
			 si->ad_churn_actor_state == AD_CHURN_CHURNED
				 ? (si->ad_churn_partner_state == AD_CHURN_CHURNED ? "actor and partner"
										     : "actor")
				 : "partner");
		return true;
	}
	if (si->has_ad_state && !(si->ad_partner_oper_port_state & AD_STATE_SYNCHRONIZATION)) {
		snprintf(why, len, "%s: LACP partner not in sync (partner port state 0x%02x)",
			 s->name, si->ad_partner_oper_port_state);
		return true;
	}
	return false;
}

static bool slave_up(const struct obs_link *bond, const struct obs_link *s)
{
	return bond && s && s->master == bond->ifindex && s->slave.valid &&
	       s->slave.mii_status == MII_UP;
}

/* aa:bb:cc:dd:ee:ff in buf (18 bytes). */
static const char *mac_text(const uint8_t mac[6], char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
	return buf;
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
	if (b->has_mac && memcmp(bond->hwaddr, b->mac, sizeof(b->mac)) != 0) {
		char now[18], want[18];
		return snprintf(why, len, "%s has MAC %s, not %s", b->name,
				mac_text(bond->hwaddr, now), mac_text(b->mac, want)),
		       HEALTH_DEGRADED;
	}
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
		if (lacp_problem(bond, s, why, len))
			return HEALTH_DEGRADED;
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

/* The options whose values the kernel shows only to a reader with
 * CAP_NET_ADMIN (bond_fill_info in drivers/net/bonding/bond_netlink.c, and
 * bond_info_show_master in bond_procfs.c). */
static bool opt_hidden(enum bond_opt id)
{
	return id == OPT_AD_ACTOR_SYS_PRIO || id == OPT_AD_USER_PORT_KEY ||
	       id == OPT_AD_ACTOR_SYSTEM;
}

static void json_key(struct strbuf *out, const char *key)
{
	json_string(out, key);
	sb_puts(out, ":");
}

static void json_time(struct strbuf *out, int64_t ms)
{
	char t[32];
	if (ms <= 0)
		sb_puts(out, "null");
	else
		json_string(out, event_time_text(ms, t));
}

static void json_str_or_null(struct strbuf *out, const char *s)
{
	if (s && s[0])
		json_string(out, s);
	else
		sb_puts(out, "null");
}

/* Text that may carry option values, as this client may see it. */
static void json_text(struct strbuf *out, const struct status_view *v, const char *text)
{
	char pub[512];

	if (!text || !text[0]) {
		sb_puts(out, "null");
		return;
	}
	if (!v->privileged) {
		event_public_text(text, pub, sizeof(pub));
		text = pub;
	}
	json_string(out, text);
}

/* A switch: the option's only names are "off" (0) and "on" (1). */
static bool is_off_on(const struct bond_opt_desc *d)
{
	return d->names && d->names[0].name && d->names[1].name && !d->names[2].name &&
	       strcmp(d->names[0].name, "off") == 0 && d->names[0].value == 0 &&
	       strcmp(d->names[1].name, "on") == 0 && d->names[1].value == 1;
}

/* One option's value with its type: a switch (use_carrier, ...) as a
 * boolean, another named value (mode, lacp_rate, ...) as its name, other
 * scalars as numbers, target lists as arrays, the primary as a name or
 * null; null where the client may not see it. */
static void json_opt_value(struct strbuf *out, const struct status_view *v,
			   const struct bond_opts *o, enum bond_opt id)
{
	const struct bond_opt_desc *d = bond_opt_desc(id);
	char addr[INET6_ADDRSTRLEN], val[64];

	if (opt_hidden(id) && !v->privileged) {
		sb_puts(out, "null");
		return;
	}
	switch (d->type) {
	case OT_IP4_LIST:
		sb_puts(out, "[");
		for (unsigned i = 0; i < o->n_arp_ip_target; i++) {
			inet_ntop(AF_INET, &o->arp_ip_target[i], addr, sizeof(addr));
			sb_puts(out, i ? "," : "");
			json_string(out, addr);
		}
		sb_puts(out, "]");
		break;
	case OT_IP6_LIST:
		sb_puts(out, "[");
		for (unsigned i = 0; i < o->n_ns_ip6_target; i++) {
			inet_ntop(AF_INET6, &o->ns_ip6_target[i], addr, sizeof(addr));
			sb_puts(out, i ? "," : "");
			json_string(out, addr);
		}
		sb_puts(out, "]");
		break;
	case OT_MAC:
		json_string(out, bond_opts_format(o, id, val, sizeof(val)));
		break;
	case OT_IFNAME:
		json_str_or_null(out, o->primary);
		break;
	default: {
		const char *name = bond_opt_value_name(d, o->val[id]);
		if (is_off_on(d))
			sb_puts(out, o->val[id] ? "true" : "false");
		else if (name)
			json_string(out, name);
		else
			sb_printf(out, "%u", o->val[id]);
	}
	}
}

static void json_opts(struct strbuf *out, const struct status_view *v,
		      const struct bond_opts *o)
{
	bool first = true;

	sb_puts(out, "{");
	for (int id = 0; id < OPT__COUNT; id++) {
		if (!bond_opts_has(o, (enum bond_opt)id))
			continue;
		sb_puts(out, first ? "" : ",");
		first = false;
		json_key(out, bond_opt_desc((enum bond_opt)id)->key);
		json_opt_value(out, v, o, (enum bond_opt)id);
	}
	sb_puts(out, "}");
}

static void json_names(struct strbuf *out, const char (*names)[IFNAMSIZ], size_t n)
{
	sb_puts(out, "[");
	for (size_t i = 0; i < n; i++) {
		sb_puts(out, i ? "," : "");
		json_string(out, names[i]);
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

/* ,"KEY":VALUE or ,"KEY":null */
static void json_uint_or_null(struct strbuf *out, const char *key, bool have,
			      unsigned long long val)
{
	sb_printf(out, ",\"%s\":", key);
	if (have)
		sb_printf(out, "%llu", val);
	else
		sb_puts(out, "null");
}

static void json_bool_or_null(struct strbuf *out, const char *key, bool have, bool val)
{
	sb_printf(out, ",\"%s\":%s", key, !have ? "null" : val ? "true" : "false");
}

/* Every key always, null where there is no value (a slave that does not
 * exist has no MTU; one that is not enslaved has no MII status). */
static void json_slave(struct strbuf *out, const struct status_view *v,
		       const struct obs_link *bond, const struct desired_bond *b, size_t i)
{
	const char *name = b->slaves[i].name;
	const struct obs_link *s = observed_by_name(v->obs, name);
	const struct link_runtime *rt = link_rt(v, name);
	bool enslaved = bond && s && s->master == bond->ifindex;
	bool info = enslaved && s->slave.valid;
	bool ad = info && is_8023ad(bond) && s->slave.has_ad_state;
	size_t pos = position(bond, name);
	struct link_live live = {.mbps = -1};
	char why[160];

	if (s)
		link_live(v, s, &live);
	sb_puts(out, "{");
	json_key(out, "name");
	json_string(out, name);
	sb_printf(out, ",\"configured_position\":%zu", i + 1);
	json_uint_or_null(out, "position", pos, pos);
	sb_printf(out, ",\"present\":%s,\"enslaved\":%s", s ? "true" : "false",
		  enslaved ? "true" : "false");
	json_uint_or_null(out, "ifindex", s, s ? (unsigned)s->ifindex : 0);
	json_uint_or_null(out, "mtu", s, s ? s->mtu : 0);
	json_bool_or_null(out, "carrier", s, s && (s->flags & IFF_LOWER_UP));
	sb_puts(out, ",\"mii_status\":");
	json_str_or_null(out, info ? mii_name(s->slave.mii_status) : NULL);
	json_uint_or_null(out, "link_failure_count", info, info ? s->slave.link_failure_count : 0);
	sb_puts(out, ",\"permanent_address\":");
	if (info) {
		const uint8_t *m = s->slave.perm_hwaddr;
		sb_printf(out, "\"%02x:%02x:%02x:%02x:%02x:%02x\"", m[0], m[1], m[2], m[3], m[4],
			  m[5]);
	} else {
		sb_puts(out, "null");
	}
	sb_puts(out, ",\"state\":");
	json_str_or_null(out, info ? (s->slave.state == 0 ? "active" : "backup") : NULL);
	json_bool_or_null(out, "active_slave", bond && bond->info.active_slave_ifindex, s &&
			  bond && bond->info.active_slave_ifindex == s->ifindex);
	json_uint_or_null(out, "queue_id", info, info ? s->slave.queue_id : 0);
	json_uint_or_null(out, "ad_aggregator_id", info && is_8023ad(bond),
			  info ? s->slave.ad_aggregator_id : 0);
	json_uint_or_null(out, "ad_actor_port_state", ad, ad ? s->slave.ad_actor_oper_port_state : 0);
	json_uint_or_null(out, "ad_partner_port_state", ad,
			  ad ? s->slave.ad_partner_oper_port_state : 0);
	/* 6.18 and 7.x only; null on older kernels. */
	json_uint_or_null(out, "ad_actor_port_prio", info && is_8023ad(bond) &&
			  s->slave.has_actor_port_prio, info ? s->slave.actor_port_prio : 0);
	sb_puts(out, ",\"ad_churn_actor_state\":");
	json_str_or_null(out, ad && s->slave.has_churn ? ad_churn_name(s->slave.ad_churn_actor_state)
						      : NULL);
	sb_puts(out, ",\"ad_churn_partner_state\":");
	json_str_or_null(out, ad && s->slave.has_churn ? ad_churn_name(s->slave.ad_churn_partner_state)
						      : NULL);
	sb_puts(out, ",\"lacp_problem\":");
	json_str_or_null(out, s && lacp_problem(bond, s, why, sizeof(why)) ? why : NULL);
	json_uint_or_null(out, "speed_mbps", s && live.mbps >= 0, (unsigned)live.mbps);
	sb_puts(out, ",\"duplex\":");
	json_str_or_null(out, s && strcmp(live.duplex, "unknown") != 0 ? live.duplex : NULL);
	json_uint_or_null(out, "rx_bytes", s, live.stats.rx_bytes);
	json_uint_or_null(out, "tx_bytes", s, live.stats.tx_bytes);
	json_uint_or_null(out, "rx_packets", s, live.stats.rx_packets);
	json_uint_or_null(out, "tx_packets", s, live.stats.tx_packets);
	json_uint_or_null(out, "rx_errors", s, live.stats.rx_errors);
	json_uint_or_null(out, "tx_errors", s, live.stats.tx_errors);
	json_uint_or_null(out, "rx_dropped", s, live.stats.rx_dropped);
	json_uint_or_null(out, "tx_dropped", s, live.stats.tx_dropped);
	json_uint_or_null(out, "rx_crc_errors", s && live.stats.has_crc_missed,
			  live.stats.rx_crc_errors);
	json_uint_or_null(out, "rx_missed_errors", s && live.stats.has_crc_missed,
			  live.stats.rx_missed_errors);
	json_uint_or_null(out, "carrier_changes", s && s->has_carrier_changes,
			  s ? s->carrier_changes : 0);
	sb_printf(out, ",\"carrier_flaps\":%lu,\"last_flap\":", rt ? rt->carrier_losses : 0UL);
	json_time(out, rt ? rt->last_flap_ms : 0);
	sb_puts(out, ",\"hardware\":");
	hostcheck_json_nic(out, v->host, name);
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
		json_string(out, event_kind_name(e->kind));
		sb_puts(out, ",");
		json_key(out, "link");
		json_str_or_null(out, e->link);
		sb_puts(out, ",");
		json_key(out, "text");
		json_text(out, v, e->text);
		sb_puts(out, "}");
	}
	sb_puts(out, "]");
}

static void json_bond(struct strbuf *out, const struct status_view *v,
		      const struct desired_bond *b)
{
	const struct obs_link *bond = obs_bond(v, b->name);
	const struct bond_runtime *rt = bond_rt(v, b);
	char why[160];
	enum status_health h = status_bond_health(v, b, why, sizeof(why));
	char names[BONDD_MAX_SLAVES][IFNAMSIZ];
	const struct obs_link *active =
		bond && bond->info.active_slave_ifindex ?
			observed_by_index(v->obs, bond->info.active_slave_ifindex) : NULL;

	sb_puts(out, "{");
	json_key(out, "name");
	json_string(out, b->name);
	sb_printf(out, ",\"health\":\"%s\",\"health_code\":%d,\"problem\":",
		  status_health_name(h), (int)h);
	if (h == HEALTH_OK)
		sb_puts(out, "null");
	else
		json_string(out, why);
	sb_printf(out, ",\"present\":%s", bond ? "true" : "false");
	json_uint_or_null(out, "ifindex", bond, bond ? (unsigned)bond->ifindex : 0);
	json_bool_or_null(out, "up", bond, bond && (bond->flags & IFF_UP));
	json_bool_or_null(out, "carrier", bond, bond && (bond->flags & IFF_LOWER_UP));
	sb_puts(out, ",\"mode\":");
	json_string(out, mode_of(bond, b));
	sb_puts(out, ",\"active_slave\":");
	json_str_or_null(out, active ? active->name : NULL);
	json_uint_or_null(out, "ad_aggregator_id", is_8023ad(bond) && bond->info.has_ad_info,
			  bond ? bond->info.ad_aggregator : 0);
	json_uint_or_null(out, "ad_num_ports", is_8023ad(bond) && bond->info.has_ad_info,
			  bond ? bond->info.ad_num_ports : 0);
	json_uint_or_null(out, "carrier_changes", bond && bond->has_carrier_changes,
			  bond ? bond->carrier_changes : 0);
	sb_printf(out, ",\"slaves_up\":%zu,\"slaves_configured\":%zu", slaves_up(v, b),
		  b->n_slaves);

	char mac[18];
	sb_printf(out, ",\"configured\":{\"mtu\":%u,\"mac_address\":", b->mtu);
	json_str_or_null(out, b->has_mac ? mac_text(b->mac, mac) : NULL);
	sb_puts(out, ",\"options\":");
	json_opts(out, v, &b->opts);
	for (size_t i = 0; i < b->n_slaves; i++)
		snprintf(names[i], IFNAMSIZ, "%s", b->slaves[i].name);
	sb_puts(out, ",\"slaves\":");
	json_names(out, (const char(*)[IFNAMSIZ])names, b->n_slaves);
	sb_puts(out, ",\"addresses\":");
	json_addrs(out, b);
	sb_puts(out, "},\"observed\":");
	if (bond) {
		sb_printf(out, "{\"mtu\":%u,\"mac_address\":\"%s\",\"options\":", bond->mtu,
			  mac_text(bond->hwaddr, mac));
		json_opts(out, v, &bond->bond);
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
		json_text(out, v, rt->last_error);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}
	sb_puts(out, ",\"notes\":");
	json_text(out, v, rt ? rt->notes : NULL);
	sb_puts(out, ",\"findings\":");
	findings_json(out, v->findings, FSRC__COUNT, b->name);
	sb_puts(out, ",\"link_check\":");
	linkcheck_json(out, lc_results_find(v->linkcheck, b->name));
	sb_puts(out, ",\"failing\":");
	json_text(out, v, rt ? rt->failing : NULL);
	sb_puts(out, ",\"events\":");
	json_events(out, v, b->name);
	sb_puts(out, "}");
}

void render_json(struct strbuf *out, const struct status_view *v,
		 const struct desired_bond *const *sel, size_t n)
{
	sb_puts(out, "{\"protocol\":1,\"version\":\"" BONDD_VERSION "\",\"time\":");
	json_time(out, v->now_ms);
	sb_printf(out, ",\"privileged\":%s,\"health_code\":%d,\"bonds\":[",
		  v->privileged ? "true" : "false", (int)status_worst(v, sel, n));
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

/*
 * One sample.  Labels join with node_exporter's without relabelling: its
 * bonding collector labels a bond `master`, its network collectors label
 * every interface `device`.  So a bond's samples carry master and device
 * both set to the bond, a slave's carry master (its bond) and device (the
 * slave).
 */
static void sample(struct strbuf *out, const char *metric, const char *bond,
		   const char *slave, unsigned long long value)
{
	sb_printf(out, "%s{master=\"", metric);
	prom_label(out, bond);
	sb_puts(out, "\",device=\"");
	prom_label(out, slave ? slave : bond);
	sb_printf(out, "\"} %llu\n", value);
}

enum bond_metric {
	BM_HEALTH, BM_UP, BM_MTU, BM_SLAVES_CONFIGURED, BM_SLAVES_UP, BM_ACTIONS, BM_ERRORS,
	BM_CARRIER_CHANGES, BM_AD_AGGREGATOR, BM_MAC_KEPT, BM__COUNT
};

static const struct {
	const char *name, *type, *help;
} bond_metrics[BM__COUNT] = {
	[BM_HEALTH] = {"bondd_bond_health", "gauge", "0 healthy, 1 degraded, 2 down or missing (bondd-status exit codes)"},
	[BM_UP] = {"bondd_bond_up", "gauge", "1 when the bond exists, is up and has carrier"},
	[BM_MTU] = {"bondd_bond_mtu_bytes", "gauge", "the bond's MTU in the kernel"},
	[BM_SLAVES_CONFIGURED] = {"bondd_bond_slaves_configured", "gauge", "slaves in the config"},
	[BM_SLAVES_UP] = {"bondd_bond_slaves_up", "gauge", "configured slaves enslaved with MII status up"},
	[BM_ACTIONS] = {"bondd_bond_actions_total", "counter", "kernel requests bondd made for the bond"},
	[BM_ERRORS] = {"bondd_bond_errors_total", "counter", "kernel requests for the bond that failed"},
	[BM_CARRIER_CHANGES] = {"bondd_bond_carrier_changes_total", "counter", "the kernel's count of the bond's carrier changes"},
	[BM_AD_AGGREGATOR] = {"bondd_bond_ad_aggregator_id", "gauge", "802.3ad: the active aggregator's id"},
	[BM_MAC_KEPT] = {"bondd_bond_mac_address_kept", "gauge", "mac_address: 1 when the bond has the configured MAC"},
};

static bool bond_metric(const struct status_view *v, const struct desired_bond *b,
			enum bond_metric m, unsigned long long *val)
{
	const struct obs_link *bond = obs_bond(v, b->name);
	const struct bond_runtime *rt = bond_rt(v, b);
	char why[160];

	switch (m) {
	case BM_HEALTH: *val = status_bond_health(v, b, why, sizeof(why)); return true;
	case BM_UP: *val = bond && (bond->flags & IFF_UP) && (bond->flags & IFF_LOWER_UP); return true;
	case BM_MTU: *val = bond ? bond->mtu : 0; return bond != NULL;
	case BM_SLAVES_CONFIGURED: *val = b->n_slaves; return true;
	case BM_SLAVES_UP: *val = slaves_up(v, b); return true;
	case BM_ACTIONS: *val = rt ? rt->actions : 0; return true;
	case BM_ERRORS: *val = rt ? rt->errors : 0; return true;
	case BM_CARRIER_CHANGES:
		*val = bond ? bond->carrier_changes : 0;
		return bond && bond->has_carrier_changes;
	case BM_AD_AGGREGATOR:
		*val = bond ? bond->info.ad_aggregator : 0;
		return is_8023ad(bond) && bond->info.has_ad_info;
	case BM_MAC_KEPT:
		*val = bond && memcmp(bond->hwaddr, b->mac, sizeof(b->mac)) == 0;
		return bond && b->has_mac;
	case BM__COUNT: break;
	}
	return false;
}

enum slave_metric {
	SM_IN_PLACE, SM_MII_UP, SM_MTU, SM_ACTIVE, SM_SPEED, SM_FULL_DUPLEX, SM_LINK_FAILURES,
	SM_CARRIER_FLAPS, SM_CARRIER_CHANGES, SM_AD_AGGREGATOR, SM_AD_IN_ACTIVE, SM_AD_ACTOR_STATE,
	SM_AD_PARTNER_STATE, SM_AD_PARTNER_IN_SYNC, SM_AD_ACTOR_CHURNED, SM_AD_PARTNER_CHURNED,
	SM_AD_ACTOR_PORT_PRIO, SM_RX_BYTES, SM_TX_BYTES, SM_RX_PACKETS,
	SM_TX_PACKETS, SM_RX_ERRORS, SM_TX_ERRORS, SM_RX_DROPPED, SM_TX_DROPPED, SM_RX_CRC_ERRORS,
	SM_RX_MISSED_ERRORS, SM__COUNT
};

static const struct {
	const char *name, *type, *help;
} slave_metrics[SM__COUNT] = {
	[SM_IN_PLACE] = {"bondd_slave_in_place", "gauge", "1 when enslaved at its configured position"},
	[SM_MII_UP] = {"bondd_slave_mii_up", "gauge", "1 when the bond's MII status of the slave is up"},
	[SM_MTU] = {"bondd_slave_mtu_bytes", "gauge", "the slave's MTU"},
	[SM_ACTIVE] = {"bondd_slave_active", "gauge", "1 for the bond's active slave (active-backup, balance-tlb, balance-alb)"},
	[SM_SPEED] = {"bondd_slave_speed_bytes", "gauge", "the slave's link speed in bytes per second, as the driver reports it"},
	[SM_FULL_DUPLEX] = {"bondd_slave_full_duplex", "gauge", "1 when the slave's link is full duplex"},
	[SM_LINK_FAILURES] = {"bondd_slave_link_failures_total", "counter", "the bond's link failure count"},
	[SM_CARRIER_FLAPS] = {"bondd_slave_carrier_flaps_total", "counter", "carrier losses bondd did not cause (the link stayed admin-up)"},
	[SM_CARRIER_CHANGES] = {"bondd_slave_carrier_changes_total", "counter", "the kernel's count of the slave's carrier changes"},
	[SM_AD_AGGREGATOR] = {"bondd_slave_ad_aggregator_id", "gauge", "802.3ad: the aggregator the slave is in"},
	[SM_AD_IN_ACTIVE] = {"bondd_slave_ad_in_active_aggregator", "gauge", "802.3ad: 1 when the slave is in the bond's active aggregator"},
	[SM_AD_ACTOR_STATE] = {"bondd_slave_ad_actor_port_state", "gauge", "802.3ad: this end's LACP port state bits"},
	[SM_AD_PARTNER_STATE] = {"bondd_slave_ad_partner_port_state", "gauge", "802.3ad: the partner's LACP port state bits"},
	[SM_AD_PARTNER_IN_SYNC] = {"bondd_slave_ad_partner_in_sync", "gauge", "802.3ad: 1 when the partner's port state has the synchronization bit"},
	[SM_AD_ACTOR_CHURNED] = {"bondd_slave_ad_actor_churned", "gauge", "802.3ad: 1 when this end's churn detection machine is in the churned state (Linux 7.x reports it)"},
	[SM_AD_PARTNER_CHURNED] = {"bondd_slave_ad_partner_churned", "gauge", "802.3ad: 1 when the partner churn detection machine is in the churned state (Linux 7.x reports it)"},
	[SM_AD_ACTOR_PORT_PRIO] = {"bondd_slave_ad_actor_port_priority", "gauge", "802.3ad: the LACP port priority this port announces (Linux 6.18 and later report it)"},
	[SM_RX_BYTES] = {"bondd_slave_rx_bytes_total", "counter", "bytes received"},
	[SM_TX_BYTES] = {"bondd_slave_tx_bytes_total", "counter", "bytes transmitted"},
	[SM_RX_PACKETS] = {"bondd_slave_rx_packets_total", "counter", "packets received"},
	[SM_TX_PACKETS] = {"bondd_slave_tx_packets_total", "counter", "packets transmitted"},
	[SM_RX_ERRORS] = {"bondd_slave_rx_errors_total", "counter", "receive errors (rx_errors)"},
	[SM_TX_ERRORS] = {"bondd_slave_tx_errors_total", "counter", "transmit errors (tx_errors)"},
	[SM_RX_DROPPED] = {"bondd_slave_rx_dropped_total", "counter", "received packets dropped, missed ones included (as /proc/net/dev)"},
	[SM_TX_DROPPED] = {"bondd_slave_tx_dropped_total", "counter", "packets dropped on transmit"},
	[SM_RX_CRC_ERRORS] = {"bondd_slave_rx_crc_errors_total", "counter", "frames received with a bad CRC"},
	[SM_RX_MISSED_ERRORS] = {"bondd_slave_rx_missed_errors_total", "counter", "frames the NIC missed (no room in its receive ring)"},
};

static bool has_active_slave(const struct obs_link *bond)
{
	uint32_t m = bond ? bond->bond.val[OPT_MODE] : 0;
	return bond && (m == MODE_ACTIVE_BACKUP || m == MODE_BALANCE_TLB || m == MODE_BALANCE_ALB);
}

/* The value of metric M for a configured slave, or false when it has none
 * (a slave that does not exist has no MTU and no counters).  LIVE is the
 * slave's speed and counters, read once for all the metrics. */
static bool slave_metric(const struct status_view *v, const struct desired_bond *b, size_t j,
			 enum slave_metric m, const struct link_live *live,
			 unsigned long long *val)
{
	const char *name = b->slaves[j].name;
	const struct obs_link *bond = obs_bond(v, b->name);
	const struct obs_link *s = observed_by_name(v->obs, name);
	const struct link_runtime *rt = link_rt(v, name);
	bool info = s && bond && s->master == bond->ifindex && s->slave.valid;
	bool ad = info && is_8023ad(bond);

	switch (m) {
	case SM_IN_PLACE:
		*val = s && bond && s->master == bond->ifindex && position(bond, name) == j + 1;
		return true;
	case SM_MII_UP: *val = slave_up(bond, s); return true;
	case SM_MTU: *val = s ? s->mtu : 0; return s != NULL;
	case SM_ACTIVE:
		*val = s && bond && bond->info.active_slave_ifindex == s->ifindex;
		return has_active_slave(bond);
	case SM_SPEED: *val = (unsigned long long)live->mbps * 125000; return s && live->mbps >= 0;
	case SM_FULL_DUPLEX:
		*val = strcmp(live->duplex, "full") == 0;
		return s && (strcmp(live->duplex, "full") == 0 || strcmp(live->duplex, "half") == 0);
	case SM_LINK_FAILURES: *val = info ? s->slave.link_failure_count : 0; return info;
	case SM_CARRIER_FLAPS: *val = rt ? rt->carrier_losses : 0; return true;
	case SM_CARRIER_CHANGES: *val = s ? s->carrier_changes : 0; return s && s->has_carrier_changes;
	case SM_AD_AGGREGATOR: *val = ad ? s->slave.ad_aggregator_id : 0; return ad;
	case SM_AD_IN_ACTIVE:
		*val = ad && bond->info.has_ad_info &&
		       s->slave.ad_aggregator_id == bond->info.ad_aggregator;
		return ad;
	case SM_AD_ACTOR_STATE:
		*val = ad ? s->slave.ad_actor_oper_port_state : 0;
		return ad && s->slave.has_ad_state;
	case SM_AD_PARTNER_STATE:
		*val = ad ? s->slave.ad_partner_oper_port_state : 0;
		return ad && s->slave.has_ad_state;
	case SM_AD_PARTNER_IN_SYNC:
		*val = ad && (s->slave.ad_partner_oper_port_state & AD_STATE_SYNCHRONIZATION);
		return ad && s->slave.has_ad_state;
	case SM_AD_ACTOR_CHURNED:
		*val = ad && s->slave.ad_churn_actor_state == AD_CHURN_CHURNED;
		return ad && s->slave.has_churn;
	case SM_AD_PARTNER_CHURNED:
		*val = ad && s->slave.ad_churn_partner_state == AD_CHURN_CHURNED;
		return ad && s->slave.has_churn;
	case SM_AD_ACTOR_PORT_PRIO:
		*val = ad ? s->slave.actor_port_prio : 0;
		return ad && s->slave.has_actor_port_prio;
	case SM_RX_BYTES: *val = live->stats.rx_bytes; return s != NULL;
	case SM_TX_BYTES: *val = live->stats.tx_bytes; return s != NULL;
	case SM_RX_PACKETS: *val = live->stats.rx_packets; return s != NULL;
	case SM_TX_PACKETS: *val = live->stats.tx_packets; return s != NULL;
	case SM_RX_ERRORS: *val = live->stats.rx_errors; return s != NULL;
	case SM_TX_ERRORS: *val = live->stats.tx_errors; return s != NULL;
	case SM_RX_DROPPED: *val = live->stats.rx_dropped; return s != NULL;
	case SM_TX_DROPPED: *val = live->stats.tx_dropped; return s != NULL;
	case SM_RX_CRC_ERRORS: *val = live->stats.rx_crc_errors; return s && live->stats.has_crc_missed;
	case SM_RX_MISSED_ERRORS:
		*val = live->stats.rx_missed_errors;
		return s && live->stats.has_crc_missed;
	case SM__COUNT: break;
	}
	return false;
}

/* Each metric's HELP, TYPE and every sample of it together, as the format
 * requires.  bondd's own metrics first: the build, the last reload. */
void render_prometheus(struct strbuf *out, const struct status_view *v,
		       const struct desired_bond *const *sel, size_t n)
{
	metric_head(out, "bondd_build_info", "gauge", "always 1; the version in its label");
	sb_puts(out, "bondd_build_info{version=\"");
	prom_label(out, BONDD_VERSION);
	sb_puts(out, "\"} 1\n");
	metric_head(out, "bondd_config_last_reload_successful", "gauge",
		    "1 when the last reload (or the start) took the config, 0 when it was refused");
	sb_printf(out, "bondd_config_last_reload_successful %d\n", v->config_failed ? 0 : 1);
	if (v->config_success_ms > 0) {
		metric_head(out, "bondd_config_last_reload_success_timestamp_seconds", "gauge",
			    "when the config was last taken (start or reload), in Unix time");
		sb_printf(out, "bondd_config_last_reload_success_timestamp_seconds %lld.%03lld\n",
			  (long long)(v->config_success_ms / 1000),
			  (long long)(v->config_success_ms % 1000));
	}

	for (size_t m = 0; m < BM__COUNT; m++) {
		bool head = false;
		for (size_t i = 0; i < n; i++) {
			unsigned long long val;
			if (!bond_metric(v, sel[i], (enum bond_metric)m, &val))
				continue;
			if (!head)
				metric_head(out, bond_metrics[m].name, bond_metrics[m].type,
					    bond_metrics[m].help);
			head = true;
			sample(out, bond_metrics[m].name, sel[i]->name, NULL, val);
		}
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
			sb_puts(out, "bondd_bond_findings{master=\"");
			prom_label(out, sel[i]->name);
			sb_puts(out, "\",device=\"");
			prom_label(out, sel[i]->name);
			sb_printf(out, "\",kind=\"%s\",severity=\"%s\"} %llu\n",
				  finding_kind_name((enum finding_kind)k), finding_severity_name(sev),
				  count);
		}

	linkcheck_prometheus(out, v->linkcheck, sel, n);

	/* Each slave's speed and counters read once for all the metrics
	 * that use them. */
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += sel[i]->n_slaves;
	struct link_live *live = calloc(total ? total : 1, sizeof(*live));
	if (!live) {
		out->oom = true;
		return;
	}
	for (size_t i = 0, k = 0; i < n; i++)
		for (size_t j = 0; j < sel[i]->n_slaves; j++, k++) {
			const struct obs_link *s = observed_by_name(v->obs, sel[i]->slaves[j].name);
			live[k] = (struct link_live){.mbps = -1, .duplex = "unknown"};
			if (s)
				link_live(v, s, &live[k]);
		}
	for (size_t m = 0; m < SM__COUNT; m++) {
		bool head = false;
		for (size_t i = 0, k = 0; i < n; i++)
			for (size_t j = 0; j < sel[i]->n_slaves; j++, k++) {
				unsigned long long val;
				if (!slave_metric(v, sel[i], j, (enum slave_metric)m, &live[k], &val))
					continue;
				if (!head)
					metric_head(out, slave_metrics[m].name, slave_metrics[m].type,
						    slave_metrics[m].help);
				head = true;
				sample(out, slave_metrics[m].name, sel[i]->name,
				       sel[i]->slaves[j].name, val);
			}
	}
	free(live);
}
