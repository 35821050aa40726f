/* SPDX-License-Identifier: MIT */
/* A bond's uppers and what went with it (uppers.h).  Pure. */
#include "uppers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *upper_kind_name(enum upper_kind k)
{
	switch (k) {
	case UPPER_BRIDGE: return "bridge";
	case UPPER_VLAN: return "vlan";
	case UPPER_MACVLAN: return "macvlan";
	case UPPER_OTHER: break;
	}
	return "other";
}

/* The kinds that stack on a lower device through IFLA_LINK: a VLAN
 * (net/8021q/vlan_netlink.c vlan_fill_info), a macvlan or macvtap
 * (drivers/net/macvlan.c), an ipvlan or ipvtap (drivers/net/ipvlan). */
static bool stacked_kind(const char *kind, enum upper_kind *k)
{
	if (strcmp(kind, "vlan") == 0)
		*k = UPPER_VLAN;
	else if (strcmp(kind, "macvlan") == 0 || strcmp(kind, "macvtap") == 0)
		*k = UPPER_MACVLAN;
	else if (strcmp(kind, "ipvlan") == 0 || strcmp(kind, "ipvtap") == 0)
		*k = UPPER_OTHER;
	else
		return false;
	return true;
}

static void fill(struct upper *u, const struct obs_link *l, enum upper_kind k, bool port)
{
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", l->name);
	snprintf(u->link_kind, sizeof(u->link_kind), "%s", l->kind);
	u->kind = k;
	u->port = port;
	u->ifindex = l->ifindex;
	u->vlan_id = k == UPPER_VLAN ? l->vlan_id : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct upper *)a)->name, ((const struct upper *)b)->name);
}

/* Its master first, then the links over it, by name: among every link of
 * o (all), or among cand[0..n_cand). */
static size_t collect(const struct observed *o, const struct obs_link *bond, bool all,
		      const struct obs_link *const *cand, size_t n_cand, struct upper *out,
		      size_t max)
{
	size_t n = 0, first = 0;
	enum upper_kind k;

	if (!bond)
		return 0;
	const struct obs_link *m = bond->master ? observed_by_index(o, bond->master) : NULL;
	if (m) {
		if (n < max)
			fill(&out[n], m, strcmp(m->kind, "bridge") == 0 ? UPPER_BRIDGE : UPPER_OTHER,
			     true);
		n++;
		first = n < max ? n : max;
	}
	size_t n_links = all ? o->n_links : n_cand;
	for (size_t i = 0; i < n_links; i++) {
		const struct obs_link *l = all ? &o->links[i] : cand[i];
		if (l->lower != bond->ifindex || l->ifindex == bond->ifindex ||
		    !stacked_kind(l->kind, &k))
			continue;
		if (n < max)
			fill(&out[n], l, k, false);
		n++;
	}
	/* By name, whatever order the links were learnt in: the log and
	 * --json say the same thing the same way every time. */
	size_t written = n < max ? n : max;
	if (written > first)
		qsort(out + first, written - first, sizeof(*out), by_name);
	return n;
}

size_t uppers_of(const struct observed *o, const struct obs_link *bond, struct upper *out,
		 size_t max)
{
	return collect(o, bond, true, NULL, 0, out, max);
}

size_t uppers_of_among(const struct observed *o, const struct obs_link *bond,
		       const struct obs_link *const *cand, size_t n_cand, struct upper *out,
		       size_t max)
{
	return collect(o, bond, false, cand, n_cand, out, max);
}

size_t uppers_stacked(const struct observed *o, const struct obs_link **out, size_t max)
{
	size_t n = 0;
	enum upper_kind k;

	for (size_t i = 0; i < o->n_links; i++) {
		const struct obs_link *l = &o->links[i];
		if (!l->lower || !stacked_kind(l->kind, &k))
			continue;
		if (n < max)
			out[n] = l;
		n++;
	}
	return n;
}

/* The same upper: the same name in the same relation (a port of a master
 * by that name, or a link by that name over the bond). */
static bool same(const struct upper *a, const struct upper *b)
{
	return a->port == b->port && strcmp(a->name, b->name) == 0;
}

static const struct upper *uppers_find(const struct upper *v, size_t n, const struct upper *u)
{
	for (size_t i = 0; i < n; i++)
		if (same(&v[i], u))
			return &v[i];
	return NULL;
}

static bool in_lost(const struct uppers_memory *m, const struct upper *u)
{
	return uppers_find(m->lost, m->n_lost, u) != NULL;
}

void uppers_step(struct uppers_memory *m, int bond_ifindex, const struct upper *now,
		 size_t n_now, size_t total, uint64_t now_ms, struct uppers_change *out)
{
	memset(out, 0, sizeof(*out));
	if (n_now > UPPERS_MAX)
		n_now = UPPERS_MAX;
	out->not_kept = total > n_now ? total - n_now : 0;

	/* The bond went: what it had, and what left it just before, went
	 * with it (UPPERS_GRACE_MS). */
	if (m->bond_ifindex && m->bond_ifindex != bond_ifindex) {
		out->deleted = true;
		for (size_t i = 0; i < m->n_seen; i++) {
			const struct upper_seen *s = &m->seen[i];
			if (s->gone_ms && now_ms - s->gone_ms > UPPERS_GRACE_MS)
				continue;
			if (uppers_find(out->went, out->n_went, &s->u))
				continue;
			out->went[out->n_went++] = s->u;
			if (!in_lost(m, &s->u) && m->n_lost < UPPERS_MAX)
				m->lost[m->n_lost++] = s->u;
		}
		m->n_seen = 0;
	}
	/* (Each store below is made only when the value changes: this runs
	 * for every bond at every wake-up, and after a copy-on-write fork,
	 * bondd's status snapshot, a store of the same value costs a page
	 * fault.) */
	if (m->bond_ifindex != bond_ifindex)
		m->bond_ifindex = bond_ifindex;

	if (bond_ifindex) {
		/* Those that left a bond that stays are the manager's doing:
		 * kept a moment (the bond may be going too), then forgotten. */
		size_t k = 0;
		for (size_t i = 0; i < m->n_seen; i++) {
			struct upper_seen s = m->seen[i];
			if (!s.gone_ms && !uppers_find(now, n_now, &s.u))
				s.gone_ms = now_ms ? now_ms : 1;
			if (s.gone_ms && (uppers_find(now, n_now, &s.u) ||
					  now_ms - s.gone_ms > UPPERS_GRACE_MS))
				continue; /* back (taken below) or forgotten */
			if (k != i || memcmp(&m->seen[i], &s, sizeof(s)) != 0)
				m->seen[k] = s;
			k++;
		}
		if (m->n_seen != k)
			m->n_seen = k;
		for (size_t i = 0; i < n_now; i++) {
			size_t j = 0;
			while (j < m->n_seen && !(m->seen[j].gone_ms == 0 && same(&m->seen[j].u, &now[i])))
				j++;
			if (j < m->n_seen) {
				/* its ifindex, its VLAN id now */
				if (memcmp(&m->seen[j].u, &now[i], sizeof(now[i])) != 0)
					m->seen[j].u = now[i];
				continue;
			}
			if (m->n_seen == UPPERS_MAX) {
				out->not_kept++;
				continue;
			}
			m->seen[m->n_seen++] = (struct upper_seen){.u = now[i]};
		}
		/* Lost ones over the bond again. */
		k = 0;
		for (size_t i = 0; i < m->n_lost; i++) {
			if (uppers_find(now, n_now, &m->lost[i]))
				out->back[out->n_back++] = m->lost[i];
			else if (k++ != i)
				m->lost[k - 1] = m->lost[i];
		}
		if (m->n_lost != k)
			m->n_lost = k;
	}
}

void uppers_renamed(struct uppers_memory *m)
{
	m->bond_ifindex = 0;
	m->n_seen = 0;
}

void uppers_forget_lost(struct uppers_memory *m)
{
	m->n_lost = 0;
}

const char *uppers_text(const struct upper *v, size_t n, bool detailed, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		const struct upper *u = &v[i];
		const char *sep = i ? ", " : "";
		int w;
		if (!detailed)
			w = snprintf(buf + used, len - used, "%s%s%s", sep, u->name,
				     u->port ? " (port)" : "");
		else if (u->port)
			w = snprintf(buf + used, len - used, "%s%sport of %s", sep,
				     u->kind == UPPER_BRIDGE ? "bridge " : "", u->name);
		else
			w = snprintf(buf + used, len - used, "%s%s %s", sep,
				     u->link_kind[0] ? u->link_kind : upper_kind_name(u->kind),
				     u->name);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

const char *bridge_state_name(enum bridge_state s)
{
	switch (s) {
	case BRIDGE_UNSET: return NULL;
	case BRIDGE_PORT: return "port";
	case BRIDGE_NO_BOND: return "no-bond";
	case BRIDGE_ABSENT: return "absent";
	case BRIDGE_NOT_BRIDGE: return "not-a-bridge";
	case BRIDGE_ELSEWHERE: return "elsewhere";
	case BRIDGE_TO_JOIN: return "joining";
	}
	return NULL;
}

enum bridge_state bridge_state(const struct desired_bond *b, const struct observed *o,
			       const char **detail)
{
	const char *unused;

	if (!detail)
		detail = &unused;
	*detail = NULL;
	if (!b->bridge[0] || b->absent)
		return BRIDGE_UNSET;
	const struct obs_link *bond = observed_by_name(o, b->name);
	if (!bond || strcmp(bond->kind, "bond") != 0)
		return BRIDGE_NO_BOND;
	const struct obs_link *br = observed_by_name(o, b->bridge);
	if (!br)
		return BRIDGE_ABSENT;
	if (strcmp(br->kind, "bridge") != 0) {
		*detail = br->kind[0] ? br->kind : "none";
		return BRIDGE_NOT_BRIDGE;
	}
	if (bond->master == br->ifindex)
		return BRIDGE_PORT;
	if (bond->master) {
		const struct obs_link *m = observed_by_index(o, bond->master);
		/* The bridge an earlier configuration named is bondd's own
		 * doing: a reload moves the bond from it. */
		if (!m || !b->bridge_was[0] || strcmp(m->name, b->bridge_was) != 0) {
			*detail = m ? m->name : "?";
			return BRIDGE_ELSEWHERE;
		}
	}
	return BRIDGE_TO_JOIN;
}

bool bridge_state_degraded(enum bridge_state s)
{
	return s == BRIDGE_ELSEWHERE || s == BRIDGE_NOT_BRIDGE;
}
