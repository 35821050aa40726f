/* SPDX-License-Identifier: MIT */
/* Status replies from the models: which bonds a request selects, health,
 * --brief, and the lookups the renderers share (status_json.c and
 * status_prometheus.c render the rest). */
#include "status_render_parts.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "json_text.h"

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

const struct bond_runtime *view_bond_rt(const struct status_view *v,
					  const struct desired_bond *b)
{
	size_t i = (size_t)(b - v->want->bonds);
	return v->bonds && i < v->want->n_bonds ? &v->bonds[i] : NULL;
}

const struct link_runtime *view_link_rt(const struct status_view *v, const char *name)
{
	for (size_t i = 0; i < v->n_links; i++)
		if (strcmp(v->links[i].name, name) == 0)
			return &v->links[i];
	return NULL;
}

const struct obs_link *view_obs_bond(const struct status_view *v, const char *name)
{
	const struct obs_link *l = observed_by_name(v->obs, name);
	return l && strcmp(l->kind, "bond") == 0 ? l : NULL;
}

/* Position (1-based) of name in the bond's kernel order, 0 when absent. */
size_t view_position(const struct obs_link *bond, const char *name)
{
	for (size_t i = 0; bond && i < bond->n_order; i++)
		if (strcmp(bond->order[i], name) == 0)
			return i + 1;
	return 0;
}

/* Live speed and counters where the daemon can read them, else what the
 * link's last netlink message said. */
void view_link_live(const struct status_view *v, const struct obs_link *s,
		      struct link_live *out)
{
	*out = (struct link_live){.mbps = -1, .duplex = "unknown"};
	if (v->link_live)
		v->link_live(v->live_ctx, s->name, s->ifindex, out);
	if (!out->has_stats)
		out->stats = s->stats;
}

bool view_is_8023ad(const struct obs_link *bond)
{
	return bond && bond_settings_has(&bond->bond, OPT_MODE) &&
	       bond->bond.val[OPT_MODE] == MODE_8023AD;
}

/* Why an enslaved, MII-up slave of an 802.3ad bond carries no traffic, or
 * false: outside the bond's active aggregator (ad_select picks one; the
 * others carry nothing), or a partner that is not in sync with it. */
bool view_lacp_problem(const struct obs_link *bond, const struct obs_link *s, char *why,
			 size_t len)
{
	const struct obs_slave_info *si = &s->slave;

	if (!view_is_8023ad(bond) || !si->valid)
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

bool view_slave_up(const struct obs_link *bond, const struct obs_link *s)
{
	return bond && s && s->master == bond->ifindex && s->slave.valid &&
	       s->slave.mii_status == MII_UP;
}

/* aa:bb:cc:dd:ee:ff in buf (18 bytes). */
const char *view_mac_text(const uint8_t mac[6], char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5]);
	return buf;
}

enum status_health status_bond_health(const struct status_view *v,
				      const struct desired_bond *b, char *why, size_t len)
{
	const struct obs_link *bond = view_obs_bond(v, b->name);

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
	const struct bond_runtime *rt = view_bond_rt(v, b);
	if (rt && rt->refused[0])
		return snprintf(why, len, "%s", rt->refused), HEALTH_DEGRADED;
	if (bond->mtu != b->mtu)
		return snprintf(why, len, "%s has MTU %u, not %u", b->name, bond->mtu, b->mtu),
		       HEALTH_DEGRADED;
	if (b->has_mac && memcmp(bond->hwaddr, b->mac, sizeof(b->mac)) != 0) {
		char now[18], want[18];
		return snprintf(why, len, "%s has MAC %s, not %s", b->name,
				view_mac_text(bond->hwaddr, now), view_mac_text(b->mac, want)),
		       HEALTH_DEGRADED;
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		const char *name = b->slaves[i].name;
		const struct obs_link *s = observed_by_name(v->obs, name);
		if (!s)
			return snprintf(why, len, "%s does not exist", name), HEALTH_DEGRADED;
		if (s->master != bond->ifindex)
			return snprintf(why, len, "%s is not enslaved", name), HEALTH_DEGRADED;
		if (desired_keeps_order(b) && view_position(bond, name) != i + 1)
			return snprintf(why, len, "%s is not at position %zu", name, i + 1),
			       HEALTH_DEGRADED;
		if (!view_slave_up(bond, s))
			return snprintf(why, len, "%s: MII down", name), HEALTH_DEGRADED;
		if (s->mtu != b->mtu)
			return snprintf(why, len, "%s has MTU %u, not %u", name, s->mtu, b->mtu),
			       HEALTH_DEGRADED;
		if (view_lacp_problem(bond, s, why, len))
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

size_t view_slaves_up(const struct status_view *v, const struct desired_bond *b)
{
	const struct obs_link *bond = view_obs_bond(v, b->name);
	size_t up = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		up += view_slave_up(bond, observed_by_name(v->obs, b->slaves[i].name));
	return up;
}

const char *view_mode_of(const struct obs_link *bond, const struct desired_bond *b)
{
	const struct bond_settings *o = bond ? &bond->bond : &b->opts;
	return bond_mode_name((enum bond_mode)o->val[OPT_MODE]);
}

void render_brief(struct strbuf *out, const struct status_view *v,
		  const struct desired_bond *const *sel, size_t n)
{
	char why[128];

	for (size_t i = 0; i < n; i++) {
		const struct desired_bond *b = sel[i];
		const struct obs_link *bond = view_obs_bond(v, b->name);
		enum status_health h = status_bond_health(v, b, why, sizeof(why));
		sb_printf(out, "%s %s %s mtu %u slaves %zu/%zu up", b->name, status_health_name(h),
			  view_mode_of(bond, b), bond ? bond->mtu : b->mtu, view_slaves_up(v, b), b->n_slaves);
		if (h != HEALTH_OK)
			sb_printf(out, " (%s)", why);
		/* Why it is not whole, in bondd's and the kernel's words. */
		const struct bond_runtime *rt = view_bond_rt(v, b);
		if (rt && rt->notes[0])
			sb_printf(out, " [%s]", rt->notes);
		if (rt && rt->failing[0])
			sb_printf(out, " [failing: %s]", rt->failing);
		sb_puts(out, "\n");
	}
}
