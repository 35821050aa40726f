/* SPDX-License-Identifier: MIT */
/*
 * The planner.  For each configured bond it compares the desired state with
 * the observed one and lists the kernel requests that close the gap, in an
 * order the bonding driver accepts.  It keeps a small simulation of the bond
 * (struct sim) so that later steps plan against the state earlier steps
 * will have made: a bond about to be created has no slaves, a slave just
 * released is admin-down, a bond whose MTU was just set has slaves at that
 * MTU.
 */
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* What the bond will look like once the actions planned so far are done. */
struct sim {
	const struct desired_bond *want;
	const struct obs_link *link;  /* NULL when the bond is being created */
	bool up;
	bool mtu_set;                 /* this plan changes the bond's MTU */
	uint32_t mtu;
	char order[BONDD_MAX_SLAVES][IFNAMSIZ]; /* current slaves, in bond order */
	size_t n_order;
	char released[BONDD_MAX_SLAVES * 2][IFNAMSIZ]; /* left admin-down by us */
	size_t n_released;
};

struct ctx {
	const struct desired *want;
	const struct observed *have;
	const struct plan_holds *holds;
	struct action_list *out;
	int err;
};

static bool held(const struct plan_holds *h, const char *name)
{
	for (size_t i = 0; h && i < h->n; i++)
		if (strcmp(h->names[i], name) == 0)
			return true;
	return false;
}

static void emit(struct ctx *c, const struct sim *s, enum action_kind kind, const char *ifname,
		 const char *why, const struct action *extra)
{
	struct action a;

	if (c->err)
		return;
	if (extra)
		a = *extra;
	else
		memset(&a, 0, sizeof(a));
	a.kind = kind;
	snprintf(a.bond, sizeof(a.bond), "%s", s->want->name);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	a.why = why;
	if (!action_list_push(c->out, &a))
		c->err = -ENOMEM;
}

static void note(struct ctx *c, const struct sim *s, const char *ifname, const char *msg)
{
	if (!c->err && !action_list_note(c->out, s->want->name, ifname, "%s", msg))
		c->err = -ENOMEM;
}

static bool was_released(const struct sim *s, const char *name)
{
	for (size_t i = 0; i < s->n_released; i++)
		if (strcmp(s->released[i], name) == 0)
			return true;
	return false;
}

static void sim_release(struct ctx *c, struct sim *s, const char *name, const char *why)
{
	emit(c, s, ACT_RELEASE, name, why, NULL);
	if (s->n_released < sizeof(s->released) / sizeof(s->released[0]))
		snprintf(s->released[s->n_released++], IFNAMSIZ, "%s", name);
}

static bool is_bond(const struct obs_link *l)
{
	return l && strcmp(l->kind, "bond") == 0;
}

/* Options the config sets that the kernel reports otherwise, limited to
 * those with (or without) the given flags. */
static uint64_t differing(const struct desired_bond *b, const struct bond_opts *now,
			  uint32_t flags_any, bool want_flag)
{
	uint64_t diff = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		if (!bond_opts_has(&b->opts, (enum bond_opt)id))
			continue;
		if (((d->flags & flags_any) != 0) != want_flag)
			continue;
		if (!bond_opts_equal(&b->opts, now, (enum bond_opt)id))
			diff |= OPT_BIT(id);
	}
	return diff;
}

static struct action opts_action(const struct desired_bond *b, uint64_t which)
{
	struct action a;

	memset(&a, 0, sizeof(a));
	a.opts = b->opts;
	a.opts.have = which;
	return a;
}

/* Step 1: the bond exists, is created, or cannot be managed. */
static bool plan_existence(struct ctx *c, struct sim *s)
{
	const struct desired_bond *b = s->want;

	if (s->link && !is_bond(s->link)) {
		note(c, s, b->name, "exists and is not a bond; leaving it alone");
		return false;
	}
	if (s->link) {
		s->up = (s->link->flags & IFF_UP) != 0;
		s->mtu = s->link->mtu;
		memcpy(s->order, s->link->order, sizeof(s->order));
		s->n_order = s->link->n_order;
		return true;
	}
	/* primary names a device that must already be a slave: sent later. */
	struct action a = opts_action(b, b->opts.have & ~OPT_BIT(OPT_PRIMARY));
	a.mtu = b->mtu;
	emit(c, s, ACT_CREATE_BOND, b->name, "missing", &a);
	s->up = false;
	s->mtu = b->mtu;
	s->n_order = 0;
	return true;
}

/* Step 2: options.  Down-only options (mode, lacp_rate, ...) and, with
 * slaves present, no-slave options (fail_over_mac) are refused by the
 * kernel on a live bond, so changing them is a re-build: every slave
 * released, the bond down, the options set, the slaves enslaved again. */
static void plan_options(struct ctx *c, struct sim *s)
{
	const struct desired_bond *b = s->want;

	if (!s->link)
		return; /* created with every option */
	uint64_t rebuild = differing(b, &s->link->bond, OF_REBUILD, true);
	uint64_t no_slaves = differing(b, &s->link->bond, OF_NO_SLAVES, true);
	if (s->n_order > 0)
		rebuild |= no_slaves;
	if (rebuild) {
		for (size_t i = s->n_order; i-- > 0;)
			sim_release(c, s, s->order[i], "rebuild");
		s->n_order = 0;
		if (s->up)
			emit(c, s, ACT_LINK_DOWN, b->name, "rebuild", NULL);
		s->up = false;
		struct action a = opts_action(b, rebuild);
		emit(c, s, ACT_SET_OPTS, b->name, "rebuild", &a);
	}
	uint64_t live = differing(b, &s->link->bond, OF_REBUILD | OF_NO_SLAVES, false);
	if (!rebuild)
		live |= no_slaves; /* no slaves: fail_over_mac may be set as is */
	live &= ~OPT_BIT(OPT_PRIMARY);
	if (live) {
		struct action a = opts_action(b, live);
		emit(c, s, ACT_SET_OPTS, b->name, "option", &a);
	}
}

/* Step 3: the bond's MTU, before any enslave, so that enslaving sets each
 * new slave to it and the kernel carries it to the slaves already in. */
static void plan_bond_mtu(struct ctx *c, struct sim *s)
{
	if (s->mtu == s->want->mtu)
		return;
	struct action a = {0};
	a.mtu = s->want->mtu;
	emit(c, s, ACT_SET_MTU, s->want->name, "mtu", &a);
	s->mtu = s->want->mtu;
	s->mtu_set = true;
}

/* Whether a configured slave can be enslaved now; notes why not. */
static bool slave_usable(struct ctx *c, struct sim *s, const char *name)
{
	const struct obs_link *l = observed_by_name(c->have, name);
	char msg[128];

	if (!l || held(c->holds, name))
		return false;
	if (is_bond(l)) {
		note(c, s, name, "is a bond; a bond cannot be a slave here");
		return false;
	}
	if (l->max_mtu && l->max_mtu < s->want->mtu) {
		snprintf(msg, sizeof(msg), "max_mtu %u is below the configured MTU %u", l->max_mtu,
			 s->want->mtu);
		note(c, s, name, msg);
		return false;
	}
	if (l->master && (!s->link || l->master != s->link->ifindex)) {
		const struct obs_link *m = observed_by_index(c->have, l->master);
		if (!m || !desired_find_bond(c->want, m->name)) {
			snprintf(msg, sizeof(msg), "is enslaved to %s, not taking it",
				 m ? m->name : "another master");
			note(c, s, name, msg);
			return false;
		}
	}
	return true;
}

static bool configured_in(const struct desired_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return true;
	return false;
}

static void plan_slave_opts(struct ctx *c, struct sim *s, const struct desired_slave *ds,
			    bool fresh)
{
	const struct obs_link *l = observed_by_name(c->have, ds->name);
	struct action a = {0};

	/* A freshly enslaved slave starts at the kernel's defaults. */
	uint16_t queue_id = fresh || !l->slave.valid ? 0 : l->slave.queue_id;
	int32_t prio = fresh || !l->slave.valid ? 0 : l->slave.prio;
	if (ds->has_queue_id && ds->queue_id != queue_id) {
		a.slave.has_queue_id = true;
		a.slave.queue_id = ds->queue_id;
	}
	if (ds->has_prio && ds->prio != prio) {
		a.slave.has_prio = true;
		a.slave.prio = ds->prio;
	}
	if (a.slave.has_queue_id || a.slave.has_prio)
		emit(c, s, ACT_SET_SLAVE_OPTS, ds->name, "option", &a);
}

/* Step 4: slaves.  The bond's order is its enslavement order and there is
 * no reorder call, so everything after the first difference between the
 * actual and the wanted order is released and enslaved again. */
static void plan_slaves(struct ctx *c, struct sim *s)
{
	const struct desired_bond *b = s->want;
	const struct desired_slave *present[BONDD_MAX_SLAVES];
	size_t n_present = 0, k = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		if (slave_usable(c, s, b->slaves[i].name))
			present[n_present++] = &b->slaves[i];

	/* Links that name this bond as master but are missing from /proc
	 * (read a moment apart) count as its last slaves. */
	for (size_t i = 0; s->link && i < c->have->n_links && s->n_order < BONDD_MAX_SLAVES; i++) {
		const struct obs_link *l = &c->have->links[i];
		bool listed = false;
		if (l->master != s->link->ifindex || was_released(s, l->name))
			continue;
		for (size_t j = 0; j < s->n_order; j++)
			listed |= strcmp(s->order[j], l->name) == 0;
		if (!listed)
			snprintf(s->order[s->n_order++], IFNAMSIZ, "%s", l->name);
	}

	while (k < s->n_order && k < n_present && strcmp(s->order[k], present[k]->name) == 0)
		k++;
	for (size_t i = s->n_order; i-- > k;)
		sim_release(c, s, s->order[i],
			    configured_in(b, s->order[i]) ? "order" : "not configured");
	bool reordered = s->n_order > k;
	s->n_order = k;

	/* Slaves kept in place: MTU and slave options.  Their admin state is
	 * left alone: an admin may take a port down for maintenance, and a
	 * device being deleted announces itself down first (bringing it up
	 * then blocks on the deletion for ~100 ms). */
	for (size_t i = 0; i < k; i++) {
		const struct obs_link *l = observed_by_name(c->have, present[i]->name);
		if (!s->mtu_set && l->mtu != b->mtu) {
			struct action a = {0};
			a.mtu = b->mtu;
			emit(c, s, ACT_SET_MTU, l->name, "mtu", &a);
		}
		plan_slave_opts(c, s, present[i], false);
	}

	/* The rest, in order. */
	for (size_t i = k; i < n_present; i++) {
		const char *name = present[i]->name;
		const struct obs_link *l = observed_by_name(c->have, name);
		bool released = was_released(s, name);
		if (!released && l->master && (!s->link || l->master != s->link->ifindex)) {
			/* In another managed bond: take it from there. */
			sim_release(c, s, name, "moved");
			released = true;
		}
		if (!released && (l->flags & IFF_UP))
			emit(c, s, ACT_LINK_DOWN, name, "enslave", NULL);
		emit(c, s, ACT_ENSLAVE, name, released && reordered ? "order" : "missing", NULL);
		snprintf(s->order[s->n_order++], IFNAMSIZ, "%s", name);
		plan_slave_opts(c, s, present[i], true);
	}
}

/* Step 5: primary, once its device is a slave. */
static void plan_primary(struct ctx *c, struct sim *s)
{
	const struct desired_bond *b = s->want;

	if (!bond_opts_has(&b->opts, OPT_PRIMARY))
		return;
	if (s->link && bond_opts_equal(&b->opts, &s->link->bond, OPT_PRIMARY))
		return;
	for (size_t i = 0; i < s->n_order; i++) {
		if (strcmp(s->order[i], b->opts.primary) == 0) {
			struct action a = opts_action(b, OPT_BIT(OPT_PRIMARY));
			emit(c, s, ACT_SET_OPTS, b->name, "option", &a);
			return;
		}
	}
}

/* Steps 6 and 7: admin state, then addresses. */
static void plan_up_and_addresses(struct ctx *c, struct sim *s)
{
	const struct desired_bond *b = s->want;

	if (!s->up) {
		emit(c, s, ACT_LINK_UP, b->name, s->link ? "down" : "create", NULL);
		s->up = true;
	}
	for (size_t i = 0; i < b->n_addrs; i++) {
		if (s->link && observed_has_addr(c->have, s->link->ifindex, &b->addrs[i]))
			continue;
		struct action a = {0};
		a.addr = b->addrs[i];
		emit(c, s, ACT_ADD_ADDR, b->name, "address", &a);
	}
}

static void plan_bond(struct ctx *c, const struct desired_bond *b)
{
	struct sim s;

	if (held(c->holds, b->name))
		return;
	memset(&s, 0, sizeof(s));
	s.want = b;
	s.link = observed_by_name(c->have, b->name);
	if (!plan_existence(c, &s))
		return;
	plan_options(c, &s);
	plan_bond_mtu(c, &s);
	plan_slaves(c, &s);
	plan_primary(c, &s);
	plan_up_and_addresses(c, &s);
}

int plan(const struct desired *want, const struct observed *have,
	 const struct plan_holds *holds, struct action_list *out)
{
	struct ctx c = {want, have, holds, out, 0};

	for (size_t i = 0; i < want->n_bonds && !c.err; i++)
		plan_bond(&c, &want->bonds[i]);
	return c.err;
}

int plan_removed(const struct desired *before, const struct desired *after,
		 const struct observed *have, struct action_list *out)
{
	for (size_t i = 0; i < before->n_bonds; i++) {
		const char *name = before->bonds[i].name;
		if (desired_find_bond(after, name) || !is_bond(observed_by_name(have, name)))
			continue;
		struct action a;
		memset(&a, 0, sizeof(a));
		a.kind = ACT_DELETE_BOND;
		snprintf(a.bond, sizeof(a.bond), "%s", name);
		snprintf(a.ifname, sizeof(a.ifname), "%s", name);
		a.why = "removed from the config";
		if (!action_list_push(out, &a))
			return -ENOMEM;
	}
	return 0;
}
