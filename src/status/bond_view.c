/* SPDX-License-Identifier: MIT */
/* One reply's bonds looked up and judged once (bond_view.h). */
#include "bond_view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_log.h"
#include "hostcheck.h"
#include "linkcheck.h"
#include "lldp_io.h"
#include "status_render.h"

const char *view_public_text(const struct status_view *v, const char *text, char *buf,
			     size_t len)
{
	if (v->privileged)
		return text;
	event_public_text(text, buf, len);
	return buf;
}

const char *view_mac_text(const uint8_t mac[6], char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
	return buf;
}

static bool is_8023ad(const struct obs_link *bond)
{
	return bond && bond_settings_has(&bond->bond, OPT_MODE) &&
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

/* Position (1-based) of name in the bond's kernel order, 0 when absent. */
static size_t position(const struct obs_link *bond, const char *name)
{
	for (size_t i = 0; bond && i < bond->n_order; i++)
		if (strcmp(bond->order[i], name) == 0)
			return i + 1;
	return 0;
}

/* The daemon keeps the links in config order, each bond then its slaves,
 * as a reply asks for them: the search starts where the last one ended
 * (*hint), so a reply of every bond costs one pass, not one per slave. */
static const struct link_runtime *link_rt(const struct status_view *v, const char *name,
					  size_t *hint)
{
	for (size_t k = 0; k < v->n_links; k++) {
		size_t i = (*hint + k) % v->n_links;
		if (strcmp(v->links[i].name, name) == 0) {
			*hint = i + 1;
			return &v->links[i];
		}
	}
	return NULL;
}

/* Live speed and counters where the daemon can read them (only when the
 * reply shows them: the reads cost), else what the link's last netlink
 * message said. */
static void slave_live(const struct status_view *v, const struct obs_link *s, bool live,
		       struct link_live *out)
{
	*out = (struct link_live){.mbps = -1, .duplex = "unknown"};
	if (!s)
		return;
	if (live && v->link_live)
		v->link_live(v->live_ctx, s->name, s->ifindex, out);
	if (!out->has_stats)
		out->stats = s->stats;
}

static void slave_fill(struct slave_view *sv, const struct status_view *v,
		       const struct desired_bond *b, const struct obs_link *bond, size_t i, bool live,
		       size_t *hint)
{
	const char *name = b->slaves[i].name;
	const struct obs_link *s = observed_by_name(v->obs, name);

	/* An entry by mac: or path: that no link answers to is shown as
	 * written, not by the placeholder bondd waits under (identity.h). */
	sv->name = !s && slave_selector_is_placeholder(name) && b->slaves[i].sel.text[0] ?
		   b->slaves[i].sel.text : name;
	sv->obs = s;
	sv->rt = link_rt(v, name, hint);
	sv->lldp = lldp_rx_find(v->lldp, b->name, name);
	sv->hw = host_obs_nic(v->host, name);
	slave_live(v, s, live, &sv->live);
	sv->position = position(bond, name);
	sv->enslaved = bond && s && s->master == bond->ifindex;
	sv->info = sv->enslaved && s->slave.valid;
	sv->up = sv->info && s->slave.mii_status == MII_UP;
	sv->active = bond && s && bond->info.active_slave_ifindex == s->ifindex;
	sv->lacp_problem[0] = '\0';
	if (s)
		lacp_problem(bond, s, sv->lacp_problem, sizeof(sv->lacp_problem));
}

/* Writes a reason (cut to len) and returns h: one line per rule below. */
__attribute__((format(printf, 4, 5)))
static enum status_health reason(char *why, size_t len, enum status_health h,
				 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return h;
}

/* The first reason, in this order, that b is not healthy: the bond itself
 * (missing, down, no carrier), a picture that may be stale, bondd impaired
 * (a limit reached), something the
 * kernel refused, the bond's MTU and MAC, each slave in config order, the
 * slave count, a repair still under way, and last the checks' findings. */
static enum status_health bond_judge(const struct status_view *v, const struct bond_view *bv,
				char *why, size_t len)
{
	const enum status_health DEGRADED = HEALTH_DEGRADED, DOWN = HEALTH_DOWN;
	const struct desired_bond *b = bv->want;
	const struct obs_link *bond = bv->obs;
	const struct bond_runtime *rt = bv->rt;

	if (b->absent && bond)
		return reason(why, len, DEGRADED, "%s is configured absent and still exists",
			      b->name);
	if (b->absent)
		return HEALTH_OK;
	if (!bond)
		return reason(why, len, DOWN, "%s does not exist", b->name);
	if (!(bond->flags & IFF_UP))
		return reason(why, len, DOWN, "%s is down", b->name);
	if (!(bond->flags & IFF_LOWER_UP))
		return reason(why, len, DOWN, "%s has no carrier", b->name);
	if (v->stale)
		return reason(why, len, DEGRADED, "%s", v->stale);
	if (v->impaired)
		return reason(why, len, DEGRADED, "%s", v->impaired);
	/* Something bondd must still do for it was refused and backs off (an
	 * address, an option, the MTU): the kernel's words are the reason. */
	char failing[BOND_NOTES_TEXT];
	if (rt && rt->refused && bond_failing_text(&rt->failing, failing, sizeof(failing)))
		return reason(why, len, DEGRADED, "%.*s", BOND_REFUSED_SHOWN, failing);
	if (bond->mtu != b->mtu)
		return reason(why, len, DEGRADED, "%s has MTU %u, not %u", b->name, bond->mtu,
			      b->mtu);
	if (b->has_mac && memcmp(bond->hwaddr, b->mac, sizeof(b->mac)) != 0) {
		char now[18], want[18];
		return reason(why, len, DEGRADED, "%s has MAC %s, not %s", b->name,
			      view_mac_text(bond->hwaddr, now), view_mac_text(b->mac, want));
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct slave_view *s = &bv->slaves[i];
		if (!s->obs)
			return reason(why, len, DEGRADED, "%s does not exist", s->name);
		if (!s->enslaved)
			return reason(why, len, DEGRADED, "%s is not enslaved", s->name);
		if (desired_keeps_order(b) && s->position != i + 1)
			return reason(why, len, DEGRADED, "%s is not at position %zu", s->name,
				      i + 1);
		if (!s->up)
			return reason(why, len, DEGRADED, "%s: MII down", s->name);
		if (s->obs->mtu != b->mtu)
			return reason(why, len, DEGRADED, "%s has MTU %u, not %u", s->name,
				      s->obs->mtu, b->mtu);
		if (s->lacp_problem[0])
			return reason(why, len, DEGRADED, "%s", s->lacp_problem);
	}
	if (bond->n_order != b->n_slaves)
		return reason(why, len, DEGRADED, "%s has %zu slaves, %zu configured", b->name,
			      bond->n_order, b->n_slaves);
	/* What the kernel took with the bond when it was deleted (uppers.h),
	 * until it is back or a reload accepts its absence. */
	if (rt && rt->uppers.n_lost) {
		char list[BOND_VIEW_WHY];
		return reason(why, len, DEGRADED, "uppers lost: %s",
			      uppers_text(rt->uppers.lost, rt->uppers.n_lost, false, list,
					  sizeof(list)));
	}
	/* bridge = NAME that bondd cannot meet without taking what is not
	 * its own; a bridge that does not exist yet is only a note. */
	const char *detail = NULL;
	enum bridge_state bs = bridge_state(b, v->obs, &detail);
	if (bs == BRIDGE_ELSEWHERE)
		return reason(why, len, DEGRADED, "%s is a port of %s, not of bridge %s", b->name,
			      detail, b->bridge);
	if (bs == BRIDGE_NOT_BRIDGE)
		return reason(why, len, DEGRADED, "bridge %s is a link of kind %s, not a bridge",
			      b->bridge, detail);
	/* What health does not compare (options, addresses) bondd may still
	 * be putting back: the daemon says so while it retries. */
	if (rt && rt->unsettled.passes) {
		char text[BOND_UNSETTLED_WHY_TEXT];
		action_reasons_text(&rt->unsettled.why, text, sizeof(text));
		return reason(why, len, DEGRADED,
			      "%s still differs from the config after %u passes (%s); retrying "
			      "every %llu ms", b->name, rt->unsettled.passes, text,
			      rt->unsettled.retry_ms);
	}
	/* The bond is as configured; what the checks found beyond it. */
	for (size_t i = 0; i < bv->n_findings; i++) {
		const struct finding *f = bv->findings[i];
		if (f->severity == FSEV_DEGRADED)
			return reason(why, len, DEGRADED, "%s: %s", finding_kind_name(f->kind),
				      f->evidence);
	}
	return HEALTH_OK;
}

/* The link check's result for a bond: results come in config order, as
 * a reply asks for them, so the search starts where the last one ended. */
static const struct lc_result *lc_result_near(const struct lc_results *rs, const char *bond,
					      size_t *hint)
{
	for (size_t k = 0; rs && k < rs->n; k++) {
		size_t i = (*hint + k) % rs->n;
		if (strcmp(rs->v[i]->bond, bond) == 0) {
			*hint = i + 1;
			return rs->v[i];
		}
	}
	return NULL;
}

static void bond_fill(struct bond_view *bv, const struct status_view *v,
		      const struct desired_bond *b, bool live, size_t *hint, size_t *lc_hint)
{
	const struct obs_link *bond = observed_by_name(v->obs, b->name);

	/* Only for the bonds this reply covers, and only 802.3ad's: the
	 * rest is all in netlink. */
	if (v->bond_live && bond && is_8023ad(bond))
		v->bond_live(v->live_ctx, b->name);
	size_t i = (size_t)(b - v->want->bonds);

	if (bond && strcmp(bond->kind, "bond") != 0)
		bond = NULL; /* a link of another kind by that name is not the bond */
	bv->want = b;
	bv->obs = bond;
	bv->rt = v->bonds && i < v->want->n_bonds ? &v->bonds[i] : NULL;
	bv->active = bond && bond->info.active_slave_ifindex ?
			     observed_by_index(v->obs, bond->info.active_slave_ifindex) : NULL;
	bv->linkcheck = lc_result_near(v->linkcheck, b->name, lc_hint);
	bv->mode = bond_mode_name((enum bond_mode)(bond ? &bond->bond : &b->opts)->val[OPT_MODE]);
	bv->is_8023ad = is_8023ad(bond);
	bv->slaves_up = 0;
	for (size_t j = 0; j < b->n_slaves; j++) {
		slave_fill(&bv->slaves[j], v, b, bond, j, live, hint);
		bv->slaves_up += bv->slaves[j].up;
	}
	bv->why[0] = '\0';
	bv->health = bond_judge(v, bv, bv->why, sizeof(bv->why));
	/* The reason may quote a refused option's value (rt->refused, the
	 * kernel's words): a client without CAP_NET_ADMIN, and STATUS=,
	 * which anyone reads, see it as the events show it (values the
	 * kernel hides from such a reader masked). */
	char pub[BOND_VIEW_WHY];
	const char *seen = view_public_text(v, bv->why, pub, sizeof(pub));
	if (seen != bv->why)
		memcpy(bv->why, pub, sizeof(bv->why));
}

/* A selected bond's name and place, sorted by name: each finding finds
 * its bonds by a search, not by a scan of every bond (with 256 bonds,
 * each with findings, a reply compared every finding with every bond). */
struct sel_name {
	const char *name;
	size_t i;
};

static int by_sel_name(const void *a, const void *b)
{
	const struct sel_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* The first entry of names[0..n) for bond, or n. */
static size_t sel_first(const struct sel_name *names, size_t n, const char *bond)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(names[mid].name, bond) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(names[lo].name, bond) == 0 ? lo : n;
}

/* Each selected bond's findings, every source's in source order, into
 * out->finding_store: count[i] of them for sel[i], from first[i]. */
static int group_findings(struct bond_views *out, const struct status_view *v,
			  const struct desired_bond *const *sel, size_t n, size_t *count,
			  size_t *first)
{
	struct sel_name *names = calloc(n ? n : 1, sizeof(*names));
	size_t total = 0;

	if (!names)
		return -1;
	for (size_t i = 0; i < n; i++)
		names[i] = (struct sel_name){sel[i]->name, i};
	qsort(names, n, sizeof(*names), by_sel_name);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			out->finding_store = calloc(total ? total : 1, sizeof(*out->finding_store));
			if (!out->finding_store) {
				free(names);
				return -1;
			}
			for (size_t i = 0, at = 0; i < n; i++) {
				first[i] = at;
				at += count[i];
				count[i] = 0;
			}
		}
		for (size_t l = 0; l < FSRC__COUNT; l++) {
			const struct findings *list = v->findings[l];
			for (size_t j = 0; list && j < list->n; j++) {
				const struct finding *f = &list->v[j];
				for (size_t x = sel_first(names, n, f->bond);
				     x < n && strcmp(names[x].name, f->bond) == 0; x++) {
					size_t i = names[x].i;
					if (pass == 1)
						out->finding_store[first[i] + count[i]] = f;
					count[i]++;
					total += pass == 0;
				}
			}
		}
	}
	free(names);
	return 0;
}

int bond_views_build(struct bond_views *out, const struct status_view *v,
		     const struct desired_bond *const *sel, size_t n, bool live)
{
	size_t n_slaves = 0;

	*out = (struct bond_views){.from = v, .n = n, .worst = HEALTH_OK};
	for (size_t i = 0; i < n; i++)
		n_slaves += sel[i]->n_slaves;
	size_t *count = calloc(n ? 2 * n : 1, sizeof(*count));
	out->v = calloc(n ? n : 1, sizeof(*out->v));
	out->slave_store = calloc(n_slaves ? n_slaves : 1, sizeof(*out->slave_store));
	if (!count || !out->v || !out->slave_store ||
	    group_findings(out, v, sel, n, count, count + n) < 0) {
		free(count);
		bond_views_free(out);
		return -1;
	}
	size_t hint = 0, lc_hint = 0;
	for (size_t i = 0, s = 0; i < n; i++) {
		struct bond_view *bv = &out->v[i];
		bv->slaves = &out->slave_store[s];
		s += sel[i]->n_slaves;
		bv->n_findings = count[i];
		bv->findings = &out->finding_store[count[n + i]];
		bond_fill(bv, v, sel[i], live, &hint, &lc_hint);
		if (bv->health > out->worst)
			out->worst = bv->health;
	}
	free(count);
	/* bondd itself impaired (its picture stale, or a resource refused
	 * at a limit) is judged as each bond's is, with no bond asked
	 * about or none configured too: never a healthy exit status. */
	if ((v->stale || v->impaired) && out->worst < HEALTH_DEGRADED)
		out->worst = HEALTH_DEGRADED;
	return 0;
}

int bond_views_build_all(struct bond_views *out, const struct status_view *v, bool live)
{
	size_t n = v->want->n_bonds;
	const struct desired_bond **sel = calloc(n ? n : 1, sizeof(*sel));

	if (!sel) {
		*out = (struct bond_views){0};
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		sel[i] = &v->want->bonds[i];
	int r = bond_views_build(out, v, sel, n, live);
	free(sel);
	return r;
}

void bond_views_free(struct bond_views *bv)
{
	free(bv->v);
	free(bv->slave_store);
	free(bv->finding_store);
	*bv = (struct bond_views){0};
}
