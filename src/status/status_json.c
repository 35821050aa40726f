/* SPDX-License-Identifier: MIT */
/* --json: every configured bond with what bondd wants, sees and did. */
#include "status_render.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "json_text.h"
#include "lldp_render.h"

/* The most recent events shown per bond in JSON. */
#define JSON_EVENTS 32

/* --- JSON ------------------------------------------------------------- */

/* The options whose values the kernel shows only to a reader with
 * CAP_NET_ADMIN (bond_fill_info in drivers/net/bonding/bond_netlink.c, and
 * bond_info_show_master in bond_procfs.c). */
static bool opt_hidden(enum bond_option_id id)
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
static void json_public_text(struct strbuf *out, const struct status_view *v, const char *text)
{
	char pub[512];

	if (!text || !text[0]) {
		sb_puts(out, "null");
		return;
	}
	json_string(out, view_public_text(v, text, pub, sizeof(pub)));
}

/* A switch: the option's only names are "off" (0) and "on" (1). */
static bool is_off_on(const struct bond_option_spec *d)
{
	return d->names && d->names[0].name && d->names[1].name && !d->names[2].name &&
	       strcmp(d->names[0].name, "off") == 0 && d->names[0].value == 0 &&
	       strcmp(d->names[1].name, "on") == 0 && d->names[1].value == 1;
}

/* A JSON list of the n addresses of family at addrs, each size bytes. */
static void addrs_json(struct strbuf *out, int family, const void *addrs, size_t size, size_t n)
{
	char addr[INET6_ADDRSTRLEN];

	sb_puts(out, "[");
	for (size_t i = 0; i < n; i++) {
		inet_ntop(family, (const unsigned char *)addrs + i * size, addr, sizeof(addr));
		sb_puts(out, i ? "," : "");
		json_string(out, addr);
	}
	sb_puts(out, "]");
}

/* One option's value with its type: a switch (use_carrier, ...) as a
 * boolean, another named value (mode, lacp_rate, ...) as its name, other
 * scalars as numbers, target lists as arrays, the primary as a name or
 * null; null where the client may not see it. */
static void json_opt_value(struct strbuf *out, const struct status_view *v,
			   const struct bond_settings *o, enum bond_option_id id)
{
	const struct bond_option_spec *d = bond_option_spec(id);
	char val[64];

	if (opt_hidden(id) && !v->privileged) {
		sb_puts(out, "null");
		return;
	}
	switch (d->type) {
	case OT_IP4_LIST:
		addrs_json(out, AF_INET, o->arp_ip_target, sizeof(o->arp_ip_target[0]),
			   o->n_arp_ip_target);
		break;
	case OT_IP6_LIST:
		addrs_json(out, AF_INET6, o->ns_ip6_target, sizeof(o->ns_ip6_target[0]),
			   o->n_ns_ip6_target);
		break;
	case OT_MAC:
		json_string(out, bond_settings_format(o, id, val, sizeof(val)));
		break;
	case OT_IFNAME:
		json_str_or_null(out, o->primary);
		break;
	default: {
		const char *name = bond_option_value_name(d, o->val[id]);
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
		      const struct bond_settings *o)
{
	bool first = true;

	sb_puts(out, "{");
	for (int id = 0; id < OPT__COUNT; id++) {
		if (!bond_settings_has(o, (enum bond_option_id)id))
			continue;
		sb_puts(out, first ? "" : ",");
		first = false;
		json_key(out, bond_option_spec((enum bond_option_id)id)->key);
		json_opt_value(out, v, o, (enum bond_option_id)id);
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
static void json_slave(struct strbuf *out, const struct bond_view *bv, size_t i)
{
	const struct slave_view *sv = &bv->slaves[i];
	const struct obs_link *bond = bv->obs, *s = sv->obs;
	const struct link_runtime *rt = sv->rt;
	const struct link_live *live = &sv->live;
	bool info = sv->info;
	bool ad = info && bv->is_8023ad && s->slave.has_ad_state;

	const struct desired_slave *ds = &bv->want->slaves[i];

	/* name: today's name of the link the entry selects; while none does,
	 * the entry as written (a mac: or path: entry has no name then). */
	sb_puts(out, "{");
	json_key(out, "name");
	json_string(out, s ? s->name : ds->sel.text[0] ? ds->sel.text : sv->name);
	sb_puts(out, ",\"selector\":");
	json_string(out, ds->sel.text[0] ? ds->sel.text : sv->name);
	sb_printf(out, ",\"configured_position\":%zu", i + 1);
	json_uint_or_null(out, "position", sv->position, sv->position);
	sb_printf(out, ",\"present\":%s,\"enslaved\":%s", s ? "true" : "false",
		  sv->enslaved ? "true" : "false");
	json_uint_or_null(out, "ifindex", s, s ? (unsigned)s->ifindex : 0);
	json_uint_or_null(out, "mtu", s, s ? s->mtu : 0);
	json_bool_or_null(out, "carrier", s, s && (s->flags & IFF_LOWER_UP));
	sb_puts(out, ",\"mii_status\":");
	json_str_or_null(out, info ? mii_name(s->slave.mii_status) : NULL);
	json_uint_or_null(out, "link_failure_count", info, info ? s->slave.link_failure_count : 0);
	/* The NIC's own (IFLA_PERM_ADDRESS); for a link without one (veth),
	 * the address the bond recorded when it enslaved it. */
	sb_puts(out, ",\"permanent_address\":");
	if (s && (s->has_perm_addr || info)) {
		const uint8_t *m = s->has_perm_addr ? s->perm_addr : s->slave.perm_hwaddr;
		sb_printf(out, "\"%02x:%02x:%02x:%02x:%02x:%02x\"", m[0], m[1], m[2], m[3], m[4],
			  m[5]);
	} else {
		sb_puts(out, "null");
	}
	sb_puts(out, ",\"device_path\":");
	json_str_or_null(out, s && s->id_path[0] ? s->id_path : NULL);
	json_uint_or_null(out, "dev_port", s && s->id_path[0] && s->dev_port >= 0,
			  s && s->dev_port >= 0 ? (unsigned)s->dev_port : 0);
	sb_puts(out, ",\"state\":");
	json_str_or_null(out, info ? (s->slave.state == 0 ? "active" : "backup") : NULL);
	json_bool_or_null(out, "active_slave", bond && bond->info.active_slave_ifindex, sv->active);
	json_uint_or_null(out, "queue_id", info, info ? s->slave.queue_id : 0);
	json_uint_or_null(out, "ad_aggregator_id", info && bv->is_8023ad,
			  info ? s->slave.ad_aggregator_id : 0);
	json_uint_or_null(out, "ad_actor_port_state", ad, ad ? s->slave.ad_actor_oper_port_state : 0);
	json_uint_or_null(out, "ad_partner_port_state", ad,
			  ad ? s->slave.ad_partner_oper_port_state : 0);
	/* 6.18 and 7.x only; null on older kernels. */
	json_uint_or_null(out, "ad_actor_port_prio", info && bv->is_8023ad &&
			  s->slave.has_actor_port_prio, info ? s->slave.actor_port_prio : 0);
	sb_puts(out, ",\"ad_churn_actor_state\":");
	json_str_or_null(out, ad && s->slave.has_churn ? ad_churn_name(s->slave.ad_churn_actor_state)
						      : NULL);
	sb_puts(out, ",\"ad_churn_partner_state\":");
	json_str_or_null(out, ad && s->slave.has_churn ? ad_churn_name(s->slave.ad_churn_partner_state)
						      : NULL);
	sb_puts(out, ",\"lacp_problem\":");
	json_str_or_null(out, sv->lacp_problem);
	json_uint_or_null(out, "speed_mbps", s && live->mbps >= 0, (unsigned)live->mbps);
	sb_puts(out, ",\"duplex\":");
	json_str_or_null(out, s && strcmp(live->duplex, "unknown") != 0 ? live->duplex : NULL);
	json_uint_or_null(out, "rx_bytes", s, live->stats.rx_bytes);
	json_uint_or_null(out, "tx_bytes", s, live->stats.tx_bytes);
	json_uint_or_null(out, "rx_packets", s, live->stats.rx_packets);
	json_uint_or_null(out, "tx_packets", s, live->stats.tx_packets);
	json_uint_or_null(out, "rx_errors", s, live->stats.rx_errors);
	json_uint_or_null(out, "tx_errors", s, live->stats.tx_errors);
	json_uint_or_null(out, "rx_dropped", s, live->stats.rx_dropped);
	json_uint_or_null(out, "tx_dropped", s, live->stats.tx_dropped);
	json_uint_or_null(out, "rx_crc_errors", s && live->stats.has_crc_missed,
			  live->stats.rx_crc_errors);
	json_uint_or_null(out, "rx_missed_errors", s && live->stats.has_crc_missed,
			  live->stats.rx_missed_errors);
	json_uint_or_null(out, "carrier_changes", s && s->has_carrier_changes,
			  s ? s->carrier_changes : 0);
	sb_printf(out, ",\"carrier_flaps\":%lu,\"last_flap\":", rt ? rt->carrier_losses : 0UL);
	json_time(out, rt ? rt->last_flap_ms : 0);
	sb_puts(out, ",\"hardware\":");
	hostcheck_json_nic(out, sv->hw);
	sb_puts(out, ",\"lldp\":");
	lldp_json(out, bv->want->lldp ? sv->lldp : NULL);
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

static void json_upper(struct strbuf *out, const struct upper *u, bool with_ifindex)
{
	sb_puts(out, "{\"name\":");
	json_string(out, u->name);
	sb_printf(out, ",\"kind\":\"%s\"", upper_kind_name(u->kind));
	if (with_ifindex)
		sb_printf(out, ",\"ifindex\":%d", u->ifindex);
	if (u->kind == UPPER_VLAN)
		sb_printf(out, ",\"vlan_id\":%u", (unsigned)u->vlan_id);
	sb_puts(out, "}");
}

/*
 * "uppers": what the manager stacks on the bond now (uppers.h: its master,
 * then the VLANs and macvlans over it); "uppers_lost": what the kernel took
 * with it when it was deleted and is not back; "bridge": bridge = NAME and
 * where the bond stands with it (null without the key).
 */
/* The links that stack on another, found once per reply (a reply covers
 * up to 1,024 bonds); ok false when out of memory: each bond then looks
 * through every link. */
struct stacked {
	const struct obs_link **v;
	size_t n;
	bool ok;
};

static void json_uppers(struct strbuf *out, const struct status_view *v,
			const struct bond_view *bv, const struct stacked *st)
{
	const struct bond_runtime *rt = bv->rt;
	struct upper u[UPPERS_MAX];
	size_t n = st->ok ? uppers_of_among(v->obs, bv->obs, st->v, st->n, u, UPPERS_MAX) :
			   uppers_of(v->obs, bv->obs, u, UPPERS_MAX);

	sb_puts(out, ",\"uppers\":[");
	for (size_t i = 0; i < n && i < UPPERS_MAX; i++) {
		sb_puts(out, i ? "," : "");
		json_upper(out, &u[i], true);
	}
	sb_puts(out, "],\"uppers_lost\":[");
	for (size_t i = 0; rt && i < rt->uppers.n_lost; i++) {
		sb_puts(out, i ? "," : "");
		json_upper(out, &rt->uppers.lost[i], false);
	}
	sb_puts(out, "],\"bridge\":");
	const char *detail = NULL;
	enum bridge_state bs = bridge_state(bv->want, v->obs, &detail);
	if (bs == BRIDGE_UNSET) {
		sb_puts(out, "null");
		return;
	}
	sb_puts(out, "{\"name\":");
	json_string(out, bv->want->bridge);
	sb_printf(out, ",\"state\":\"%s\",\"note\":", bridge_state_name(bs));
	char note[128] = "";
	switch (bs) {
	case BRIDGE_ABSENT:
		snprintf(note, sizeof(note), "bridge %s does not exist: %s joins it when it does",
			 bv->want->bridge, bv->want->name);
		break;
	case BRIDGE_ELSEWHERE:
		snprintf(note, sizeof(note), "%s is a port of %s: left there", bv->want->name,
			 detail);
		break;
	case BRIDGE_NOT_BRIDGE:
		snprintf(note, sizeof(note), "%s is a link of kind %s, not a bridge",
			 bv->want->bridge, detail);
		break;
	default:
		break;
	}
	json_str_or_null(out, note[0] ? note : NULL);
	sb_puts(out, "}");
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
		json_public_text(out, v, e->text);
		sb_puts(out, "}");
	}
	sb_puts(out, "]");
}

static void json_bond(struct strbuf *out, const struct status_view *v,
		      const struct bond_view *bv, const struct stacked *st)
{
	const struct desired_bond *b = bv->want;
	const struct obs_link *bond = bv->obs;
	const struct bond_runtime *rt = bv->rt;
	enum status_health h = bv->health;

	sb_puts(out, "{");
	json_key(out, "name");
	json_string(out, b->name);
	sb_printf(out, ",\"health\":\"%s\",\"health_code\":%d,\"problem\":",
		  status_health_name(h), (int)h);
	if (h == HEALTH_OK)
		sb_puts(out, "null");
	else
		json_string(out, bv->why);
	sb_printf(out, ",\"present\":%s", bond ? "true" : "false");
	json_uint_or_null(out, "ifindex", bond, bond ? (unsigned)bond->ifindex : 0);
	json_bool_or_null(out, "up", bond, bond && (bond->flags & IFF_UP));
	json_bool_or_null(out, "carrier", bond, bond && (bond->flags & IFF_LOWER_UP));
	sb_puts(out, ",\"mode\":");
	json_string(out, bv->mode);
	sb_puts(out, ",\"active_slave\":");
	json_str_or_null(out, bv->active ? bv->active->name : NULL);
	json_uint_or_null(out, "ad_aggregator_id", bv->is_8023ad && bond->info.has_ad_info,
			  bond ? bond->info.ad_aggregator : 0);
	json_uint_or_null(out, "ad_num_ports", bv->is_8023ad && bond->info.has_ad_info,
			  bond ? bond->info.ad_num_ports : 0);
	json_uint_or_null(out, "carrier_changes", bond && bond->has_carrier_changes,
			  bond ? bond->carrier_changes : 0);
	sb_printf(out, ",\"slaves_up\":%zu,\"slaves_configured\":%zu", bv->slaves_up,
		  b->n_slaves);

	char mac[18];
	sb_printf(out, ",\"configured\":{\"mtu\":%u,\"mac_address\":", b->mtu);
	json_str_or_null(out, b->has_mac ? view_mac_text(b->mac, mac) : NULL);
	sb_puts(out, ",\"options\":");
	json_opts(out, v, &b->opts);
	/* The entries as written (mac:, path: or a name): what the file says. */
	sb_puts(out, ",\"slaves\":[");
	for (size_t i = 0; i < b->n_slaves; i++) {
		sb_puts(out, i ? "," : "");
		json_string(out, b->slaves[i].sel.text[0] ? b->slaves[i].sel.text : b->slaves[i].name);
	}
	sb_puts(out, "]");
	sb_puts(out, ",\"addresses\":");
	json_addrs(out, b);
	sb_puts(out, "},\"observed\":");
	if (bond) {
		sb_printf(out, "{\"mtu\":%u,\"mac_address\":\"%s\",\"options\":", bond->mtu,
			  view_mac_text(bond->hwaddr, mac));
		json_opts(out, v, &bond->bond);
		sb_puts(out, ",\"slaves\":");
		json_names(out, (const char(*)[IFNAMSIZ])bond->order, bond->n_order);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}
	json_uppers(out, v, bv, st);

	sb_puts(out, ",\"slave_status\":[");
	for (size_t i = 0; i < b->n_slaves; i++) {
		sb_puts(out, i ? "," : "");
		json_slave(out, bv, i);
	}
	sb_printf(out, "],\"actions\":%lu,\"errors\":%lu,\"last_error\":",
		  rt ? rt->actions : 0UL, rt ? rt->errors : 0UL);
	if (rt && rt->last_error_ms) {
		sb_puts(out, "{\"time\":");
		json_time(out, rt->last_error_ms);
		sb_puts(out, ",\"text\":");
		json_public_text(out, v, rt->last_error);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}
	char text[BOND_NOTES_TEXT];
	sb_puts(out, ",\"notes\":");
	json_public_text(out, v, rt && bond_notes_text(&rt->notes, text, sizeof(text)) ? text : NULL);
	sb_puts(out, ",\"findings\":");
	findings_json(out, bv->findings, bv->n_findings);
	sb_puts(out, ",\"link_check\":");
	linkcheck_json(out, bv->linkcheck);
	sb_puts(out, ",\"failing\":");
	json_public_text(out, v,
			 rt && bond_failing_text(&rt->failing, text, sizeof(text)) ? text : NULL);
	sb_puts(out, ",\"events\":");
	json_events(out, v, b->name);
	sb_puts(out, "}");
}

/* The last reload on trial (bondd-status(1), "trial"), null when none. */
static void json_trial(struct strbuf *out, const struct status_view *v)
{
	const struct status_trial *t = &v->trial;
	const char *state = status_trial_state_name(t->state);

	if (!state) {
		sb_puts(out, "null");
		return;
	}
	sb_printf(out, "{\"id\":%u,\"state\":\"%s\",\"seconds\":%u,\"started\":", t->id, state,
		  t->seconds);
	json_time(out, t->started_ms);
	sb_puts(out, ",\"deadline\":");
	json_time(out, t->deadline_ms);
	if (t->state == STRIAL_RUNNING)
		sb_printf(out, ",\"seconds_left\":%lld", status_trial_left_s(v));
	else
		sb_puts(out, ",\"seconds_left\":null");
	sb_puts(out, ",\"ended\":");
	json_time(out, t->ended_ms);
	sb_puts(out, ",\"reason\":");
	json_str_or_null(out, t->state == STRIAL_ROLLED_BACK ? t->reason : NULL);
	sb_puts(out, "}");
}

void render_json(struct strbuf *out, const struct bond_views *bv)
{
	const struct status_view *v = bv->from;
	struct stacked st = {0};
	size_t n_st = uppers_stacked(v->obs, NULL, 0);

	st.v = n_st ? calloc(n_st, sizeof(*st.v)) : NULL;
	st.ok = !n_st || st.v;
	if (st.v)
		st.n = uppers_stacked(v->obs, st.v, n_st);

	sb_puts(out, "{\"protocol\":1,\"version\":\"" BONDD_VERSION "\",\"time\":");
	json_time(out, v->now_ms);
	sb_printf(out, ",\"privileged\":%s,\"health_code\":%d,\"impaired\":",
		  v->privileged ? "true" : "false", (int)bv->worst);
	/* bondd's own state, apart from any bond: its picture of the kernel
	 * stale, or what it needs refused at a limit, with the cause (every
	 * bond is degraded with it too). */
	if (v->stale || v->impaired) {
		sb_printf(out, "{\"picture_stale\":%s,\"limit_reached\":%s,\"reason\":",
			  v->stale ? "true" : "false", v->impaired ? "true" : "false");
		char why[512];
		snprintf(why, sizeof(why), "%s%s%s", v->stale ? v->stale : "",
			 v->stale && v->impaired ? "; " : "", v->impaired ? v->impaired : "");
		json_string(out, why);
		sb_puts(out, "}");
	} else {
		sb_puts(out, "null");
	}
	sb_puts(out, ",\"trial\":");
	json_trial(out, v);
	sb_puts(out, ",\"bonds\":[");
	for (size_t i = 0; i < bv->n; i++) {
		sb_puts(out, i ? "," : "");
		json_bond(out, v, &bv->v[i], &st);
	}
	sb_puts(out, "]}\n");
	free(st.v);
}
