/* SPDX-License-Identifier: MIT */
/* The observed-state container: links and addresses keyed by ifindex. */
#include "observed.h"
#include "grow.h"
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

void observed_free(struct observed *o)
{
	free(o->by_name);
	free(o->by_index);
	free(o->links);
	free(o->addrs);
	free(o->routes);
	memset(o, 0, sizeof(*o));
}

/* FNV-1a of a link name. */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;
	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h;
}

static uint32_t index_hash(int ifindex)
{
	return (uint32_t)ifindex * 2654435761u;
}

static void index_insert(struct observed *o, size_t pos)
{
	size_t mask = o->by_name_cap - 1;
	for (size_t k = name_hash(o->links[pos].name) & mask;; k = (k + 1) & mask) {
		if (!o->by_name[k]) {
			o->by_name[k] = (uint32_t)pos + 1;
			break;
		}
	}
	for (size_t k = index_hash(o->links[pos].ifindex) & mask;; k = (k + 1) & mask) {
		if (!o->by_index[k]) {
			o->by_index[k] = (uint32_t)pos + 1;
			return;
		}
	}
}

/* The table again, twice the links at least: with 256 bonds of 4 slaves a
 * linear search per slave made every pass over the bonds quadratic. */
static void index_rebuild(struct observed *o)
{
	size_t cap = 64;
	while (cap < 2 * o->n_links)
		cap *= 2;
	free(o->by_name);
	free(o->by_index);
	o->by_name = calloc(cap, sizeof(*o->by_name));
	o->by_index = calloc(cap, sizeof(*o->by_index));
	if (!o->by_name || !o->by_index) {
		free(o->by_name);
		free(o->by_index);
		o->by_name = NULL;
		o->by_index = NULL;
	}
	o->by_name_cap = o->by_name ? cap : 0;
	for (size_t i = 0; o->by_name && i < o->n_links; i++)
		index_insert(o, i);
}

const struct obs_link *observed_by_name(const struct observed *o, const char *name)
{
	if (o->by_name) {
		size_t mask = o->by_name_cap - 1;
		for (size_t k = name_hash(name) & mask; o->by_name[k]; k = (k + 1) & mask) {
			size_t pos = o->by_name[k] - 1;
			if (pos < o->n_links && strcmp(o->links[pos].name, name) == 0)
				return &o->links[pos];
		}
	}
	/* Not in the table (or no table): a link whose name was written in
	 * place is still found. */
	for (size_t i = 0; i < o->n_links; i++)
		if (strcmp(o->links[i].name, name) == 0)
			return &o->links[i];
	return NULL;
}

const struct obs_link *observed_by_index(const struct observed *o, int ifindex)
{
	if (o->by_index) {
		size_t mask = o->by_name_cap - 1;
		for (size_t k = index_hash(ifindex) & mask; o->by_index[k]; k = (k + 1) & mask) {
			size_t pos = o->by_index[k] - 1;
			if (pos < o->n_links && o->links[pos].ifindex == ifindex)
				return &o->links[pos];
		}
		/* Whole, unlike by_name: no one writes an ifindex in place
		 * (a new link at every event would otherwise cost a scan). */
		return NULL;
	}
	for (size_t i = 0; i < o->n_links; i++)
		if (o->links[i].ifindex == ifindex)
			return &o->links[i];
	return NULL;
}

int observed_put_link(struct observed *o, const struct obs_link *l)
{
	struct obs_link *cur = (struct obs_link *)observed_by_index(o, l->ifindex);
	if (cur) {
		bool renamed = strcmp(cur->name, l->name) != 0;
		*cur = *l;
		if (renamed)
			index_rebuild(o);
		return 0;
	}
	if (!grow_append(&o->links, &o->cap_links, &o->n_links, sizeof(*l), 16, l))
		return -ENOMEM;
	if (!o->by_name || 2 * o->n_links > o->by_name_cap)
		index_rebuild(o);
	else
		index_insert(o, o->n_links - 1);
	return 0;
}

void observed_merge_link(const struct obs_link *old, struct obs_link *now)
{
	if (old->ifindex != now->ifindex || strcmp(old->kind, "bond") || strcmp(now->kind, "bond"))
		return;
	uint64_t missing = old->bond.have & ~now->bond.have;
	for (int id = 0; id < OPT__COUNT; id++)
		if (missing & OPT_BIT(id))
			now->bond.val[id] = old->bond.val[id];
	if (missing & OPT_BIT(OPT_AD_ACTOR_SYSTEM))
		memcpy(now->bond.ad_actor_system, old->bond.ad_actor_system,
		       sizeof(now->bond.ad_actor_system));
	now->bond.have |= missing;
	/* The order comes from /proc, read after this; until then the old one. */
	if (!now->n_order) {
		memcpy(now->order, old->order, sizeof(now->order));
		now->n_order = old->n_order;
	}
}

void observed_del_link(struct observed *o, int ifindex)
{
	for (size_t i = 0; i < o->n_links; i++) {
		if (o->links[i].ifindex == ifindex) {
			o->links[i] = o->links[--o->n_links];
			index_rebuild(o);
			break;
		}
	}
	for (size_t i = 0; i < o->n_addrs;) {
		if (o->addrs[i].ifindex == ifindex)
			o->addrs[i] = o->addrs[--o->n_addrs];
		else
			i++;
	}
}

static bool same_addr(const struct bond_addr *a, const struct bond_addr *b)
{
	size_t len = a->family == AF_INET ? 4 : 16;
	return a->family == b->family && a->prefixlen == b->prefixlen &&
	       memcmp(a->addr, b->addr, len) == 0;
}

bool observed_has_addr(const struct observed *o, int ifindex, const struct bond_addr *a)
{
	for (size_t i = 0; i < o->n_addrs; i++)
		if (o->addrs[i].ifindex == ifindex && same_addr(&o->addrs[i].addr, a))
			return true;
	return false;
}

int observed_put_addr(struct observed *o, const struct obs_addr *a)
{
	if (observed_has_addr(o, a->ifindex, &a->addr))
		return 0;
	return grow_append(&o->addrs, &o->cap_addrs, &o->n_addrs, sizeof(*a), 16, a) ? 0 : -ENOMEM;
}

void observed_del_addr(struct observed *o, const struct obs_addr *a)
{
	for (size_t i = 0; i < o->n_addrs; i++) {
		if (o->addrs[i].ifindex == a->ifindex && same_addr(&o->addrs[i].addr, &a->addr)) {
			o->addrs[i] = o->addrs[--o->n_addrs];
			return;
		}
	}
}

void observed_resolve_primaries(struct observed *o)
{
	/* Called at every link event: a link with no primary costs a test, not
	 * a snprintf (with 1,300 links that was most of bondd's CPU), and no
	 * store when nothing changed (text_set: the links fill 600 pages). */
	for (size_t i = 0; i < o->n_links; i++) {
		struct obs_link *l = &o->links[i];
		const struct obs_link *p =
			l->primary_ifindex ? observed_by_index(o, l->primary_ifindex) : NULL;
		text_set(l->bond.primary, sizeof(l->bond.primary), p ? p->name : "");
	}
}

const char *ad_churn_name(uint8_t state)
{
	/* include/net/bond_3ad.h bond_3ad_churn_desc, as /proc prints them */
	switch (state) {
	case AD_CHURN_MONITOR:
		return "monitoring";
	case AD_CHURN_CHURNED:
		return "churned";
	case AD_CHURN_NONE:
		return "none";
	default:
		return NULL;
	}
}
