/* SPDX-License-Identifier: MIT */
/* Slave entries matched to links (identity.h). */
#include "identity.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool identity_selects(const struct slave_selector *s, const struct obs_link *l)
{
	switch (s->kind) {
	case SEL_NAME:
		/* Names and altnames share one namespace (net/core/dev.c
		 * netdev_name_in_use): at most one link answers. */
		if (strcmp(l->name, s->text) == 0)
			return true;
		for (size_t i = 0; i < l->n_altnames; i++)
			if (strcmp(l->altnames[i], s->text) == 0)
				return true;
		return false;
	case SEL_MAC:
		return strcmp(l->kind, "bond") != 0 && l->has_perm_addr &&
		       memcmp(l->perm_addr, s->mac, sizeof(s->mac)) == 0;
	case SEL_PATH:
		/* dev_port unknown (sysfs unread) counts as port 0: one port. */
		return strcmp(l->kind, "bond") != 0 && l->id_path[0] &&
		       strcmp(l->id_path, s->path) == 0 &&
		       (unsigned)(l->dev_port < 0 ? 0 : l->dev_port) == s->port;
	}
	return false;
}

size_t identity_count(const struct desired *want)
{
	size_t n = 0;

	for (size_t i = 0; i < want->n_bonds; i++)
		n += want->bonds[i].n_slaves;
	return n;
}

/* An entry that found a link, by ifindex then config order. */
struct taken {
	int ifindex;
	size_t k, bond, slave;
};

static int by_link(const void *a, const void *b)
{
	const struct taken *x = a, *y = b;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * What a link answers to, as one sortable key: its name and each altname
 * (SEL_NAME), its permanent MAC (SEL_MAC), its device path and port
 * (SEL_PATH), with identity_selects' rules.  With 256 bonds of 4 slaves a
 * scan of every link per entry (1,024 x 1,300) was most of a pass's time;
 * sorted keys make a match n log n.
 */
struct key {
	enum sel_kind kind;
	const char *text;       /* SEL_NAME: the name; SEL_PATH: the path */
	const uint8_t *mac;     /* SEL_MAC */
	unsigned port;          /* SEL_PATH */
	size_t link;            /* index in links: ties keep the links' order */
};

static int key_cmp(const struct key *x, const struct key *y)
{
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	int c = 0;
	if (x->kind == SEL_MAC)
		c = memcmp(x->mac, y->mac, 6);
	else
		c = strcmp(x->text, y->text);
	if (!c && x->kind == SEL_PATH && x->port != y->port)
		c = x->port < y->port ? -1 : 1;
	return c;
}

static int by_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c = key_cmp(x, y);

	if (c)
		return c;
	return x->link < y->link ? -1 : x->link > y->link;
}

/* The keys of links[0..n) into out (the caller sized it: key_count). */
static size_t key_count(const struct obs_link *links, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += 1 + links[i].n_altnames + 2;
	return k;
}

static size_t keys_of(const struct obs_link *links, size_t n, struct key *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct obs_link *l = &links[i];
		out[k++] = (struct key){.kind = SEL_NAME, .text = l->name, .link = i};
		for (size_t a = 0; a < l->n_altnames && a < OBS_MAX_ALTNAMES; a++)
			out[k++] = (struct key){.kind = SEL_NAME, .text = l->altnames[a], .link = i};
		if (strcmp(l->kind, "bond") == 0)
			continue;
		if (l->has_perm_addr)
			out[k++] = (struct key){.kind = SEL_MAC, .mac = l->perm_addr, .link = i};
		if (l->id_path[0])
			out[k++] = (struct key){.kind = SEL_PATH, .text = l->id_path,
						.port = (unsigned)(l->dev_port < 0 ? 0 : l->dev_port),
						.link = i};
	}
	return k;
}

/* The first key equal to the selector's, or n. */
static size_t first_key(const struct key *keys, size_t n, const struct slave_selector *sel)
{
	struct key want = {.kind = sel->kind, .text = sel->kind == SEL_PATH ? sel->path : sel->text,
			   .mac = sel->mac, .port = sel->port};
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_cmp(&keys[mid], &want) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && key_cmp(&keys[lo], &want) == 0 ? lo : n;
}

int identity_match(const struct desired *want, const struct obs_link *links, size_t n_links,
		   struct identity_match *out)
{
	size_t k = 0, n_taken = 0;
	struct taken *taken = calloc(identity_count(want) + 1, sizeof(*taken));
	struct key *keys = calloc(key_count(links, n_links) + 1, sizeof(*keys));

	if (!taken || !keys) {
		free(taken);
		free(keys);
		return -ENOMEM;
	}
	size_t n_keys = keys_of(links, n_links, keys);
	qsort(keys, n_keys, sizeof(*keys), by_key);
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++, k++) {
			const struct slave_selector *sel = &b->slaves[j].sel;
			struct identity_match *m = &out[k];
			memset(m, 0, sizeof(*m));
			m->state = ID_MISSING;
			size_t x = first_key(keys, n_keys, sel);
			if (x == n_keys)
				continue;
			const struct obs_link *l = &links[keys[x].link];
			m->state = ID_FOUND;
			m->ifindex = l->ifindex;
			snprintf(m->name, sizeof(m->name), "%s", l->name);
			/* Names are one namespace: no second link answers.
			 * Two links of one device path and port (or one MAC)
			 * are ambiguous: the second in the links' order. */
			if (sel->kind != SEL_NAME && x + 1 < n_keys &&
			    key_cmp(&keys[x + 1], &keys[x]) == 0) {
				m->state = ID_AMBIGUOUS;
				m->ifindex = 0;
				snprintf(m->other, sizeof(m->other), "%s", links[keys[x + 1].link].name);
			}
			if (m->state == ID_FOUND)
				taken[n_taken++] = (struct taken){m->ifindex, k, i, j};
		}
	}
	free(keys);
	/* One link taken by two entries: both are in conflict, each naming
	 * the other (the first in config order for every later one).
	 * Sorted by link, so a big config costs n log n, not n^2. */
	qsort(taken, n_taken, sizeof(*taken), by_link);
	for (size_t a = 0; a < n_taken;) {
		size_t end = a + 1;
		while (end < n_taken && taken[end].ifindex == taken[a].ifindex)
			end++;
		for (size_t c = a + 1; c < end; c++) {
			struct identity_match *first = &out[taken[a].k], *later = &out[taken[c].k];
			if (first->state != ID_CONFLICT) {
				first->state = ID_CONFLICT;
				first->other_bond = taken[c].bond;
				first->other_slave = taken[c].slave;
			}
			later->state = ID_CONFLICT;
			later->other_bond = taken[a].bond;
			later->other_slave = taken[a].slave;
		}
		a = end;
	}
	free(taken);
	return 0;
}

struct identity_match *identity_match_new(const struct desired *want,
					  const struct obs_link *links, size_t n_links)
{
	size_t n = identity_count(want);
	struct identity_match *m = calloc(n ? n : 1, sizeof(*m));

	if (m && identity_match(want, links, n_links, m) < 0) {
		free(m);
		m = NULL;
	}
	return m;
}

size_t identity_apply(struct desired *want, const struct identity_match *m)
{
	size_t k = 0, changed = 0;

	for (size_t i = 0; i < want->n_bonds; i++) {
		struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++, k++) {
			struct desired_slave *ds = &b->slaves[j];
			char name[IFNAMSIZ];
			/* A conflict that arises while bondd runs (a NIC renamed
			 * into another entry's name) moves nothing: the entry
			 * that had the link keeps it, the other waits. */
			bool held = m[k].state == ID_CONFLICT && ds->ifindex &&
				    ds->ifindex == m[k].ifindex;
			int ifindex = 0;
			if (m[k].state == ID_FOUND || held) {
				snprintf(name, sizeof(name), "%s", m[k].name);
				ifindex = m[k].ifindex;
			} else {
				slave_selector_placeholder(&ds->sel, name);
				if (m[k].state != ID_MISSING && !slave_selector_is_placeholder(name))
					snprintf(name, sizeof(name), ":%.*s", IFNAMSIZ - 2,
						 ds->sel.text);
			}
			/* (written only when it changes: after a copy-on-write
			 * fork, a store of the same value is a page fault) */
			if (ds->ifindex != ifindex)
				ds->ifindex = ifindex;
			if (strcmp(name, ds->name) != 0) {
				memcpy(ds->name, name, sizeof(name));
				changed++;
			}
		}
		if (b->primary_slave && b->primary_slave <= b->n_slaves &&
		    strcmp(b->opts.primary, b->slaves[b->primary_slave - 1].name) != 0)
			snprintf(b->opts.primary, sizeof(b->opts.primary), "%s",
				 b->slaves[b->primary_slave - 1].name);
	}
	return changed;
}

void identity_conflict_text(const struct desired *want, const struct identity_match *m,
			    size_t bond, size_t slave, char *buf, size_t len)
{
	size_t fb = bond, fs = slave, sb = m->other_bond, ss = m->other_slave;

	if (identity_conflict_later(m, bond, slave)) { /* the earlier entry first */
		fb = m->other_bond, fs = m->other_slave;
		sb = bond, ss = slave;
	}
	const struct desired_bond *a = &want->bonds[fb], *o = &want->bonds[sb];
	snprintf(buf, len, "%s:%u: [%s] %s and %s:%u: [%s] %s both name %s: one link can be "
		 "one slave only", desired_file(want, a), a->slaves_line,
		 a->name, a->slaves[fs].sel.text, desired_file(want, o), o->slaves_line,
		 o->name, o->slaves[ss].sel.text, m->name);
}

bool identity_conflict_later(const struct identity_match *m, size_t bond, size_t slave)
{
	return m->other_bond < bond || (m->other_bond == bond && m->other_slave < slave);
}
