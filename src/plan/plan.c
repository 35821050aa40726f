/* SPDX-License-Identifier: MIT */
/*
 * The planner.  For each configured bond it compares the desired state with
 * the observed one and lists the kernel requests that close the gap, in an
 * order the bonding driver accepts (drivers/net/bonding/bond_options.c:
 * BOND_OPTFLAG_IFDOWN and BOND_OPTFLAG_NOSLAVES in bond_opts[], checked by
 * bond_opt_check_deps; bond_main.c bond_enslave).  It carries a small simulation of the bond (struct sim_bond)
 * from step to step, so that each step plans against the state the earlier
 * ones will have made: a bond about to be created has no slaves, a slave
 * just released is admin-down, a bond whose MTU was just set has its slaves
 * at that MTU.
 *
 * Per bond, in this order:
 *   existence  create it, delete it (state = absent), or refuse a link of
 *              another kind by that name
 *   rebuild    options the kernel takes only on an empty or down bond; at
 *              start and reload only (plan_constraints.no_rebuild)
 *   options    every other option that differs, in one action
 *   releases   slaves not configured or not usable, and with keep_order
 *              those out of place (never the active slave), last first
 *   bond MTU   after the releases, before any enslave
 *   bond MAC   mac_address, after the releases (the last one out gives the
 *              bond a random MAC), before any enslave (the first one in
 *              would give it its own)
 *   kept       MTU and queue_id/prio of the slaves left in place
 *   enslaves   the missing ones, in configured order
 *   primary    once its device is a slave
 *   link-up    once the slaves are in
 *   bridge     bridge = NAME: the bond made a port of that bridge when both
 *              exist and the bond is no other master's port (uppers.h)
 *   addresses  once the bond is up
 *
 * Actions backing off after a kernel error (plan_constraints) are left out one by
 * one, never the whole bond.  Links that can never be slaves are refused
 * before anything is done to them.
 */
#include "plan_parts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <net/if_arp.h>

#include "uppers.h"

/* ---- small helpers ---------------------------------------------------- */

static bool name_in(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

static bool configured_in(const struct desired_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return true;
	return false;
}

static bool is_present(const struct sim_bond *s, const char *name)
{
	for (size_t i = 0; i < s->n_present; i++)
		if (strcmp(s->present[i]->name, name) == 0)
			return true;
	return false;
}

static struct action new_action(const struct sim_bond *s, enum action_kind kind,
				const char *ifname, const char *why)
{
	struct action a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	snprintf(a.bond, sizeof(a.bond), "%s", s->want->name);
	snprintf(a.ifname, sizeof(a.ifname), "%s", ifname);
	a.why = why;
	return a;
}

static void push(struct ctx *c, const struct action *a)
{
	if (!c->err && !action_list_push(c->out, a))
		c->err = -ENOMEM;
}

static void emit(struct ctx *c, const struct sim_bond *s, enum action_kind kind,
		 const char *ifname, const char *why)
{
	struct action a = new_action(s, kind, ifname, why);
	push(c, &a);
}

/*
 * Releases `name` from the bond it is in.  A port of an 802.3ad bond is set
 * admin-down first: released while up, its link stays up with the partner
 * while it leaves the aggregator, and some switches then err-disable the
 * port (seen with Cisco switches, OpenShift machine-config-operator#5229);
 * down first, the switch sees a link loss, which LACP expects.  The
 * kernel's release closes the port anyway (drivers/net/bonding/bond_main.c
 * __bond_release_one, dev_close), so this costs one request and changes no
 * end state.  The bond's mode is the one it has now (observed), or the one
 * it is to have: a bond moving to 802.3ad has a switch set for LACP.
 */
static void emit_release(struct ctx *c, const struct sim_bond *s, const char *name,
			 const char *why)
{
	const struct obs_link *l = observed_by_name(c->have, name);
	const struct obs_link *m = l && l->master ? observed_by_index(c->have, l->master) : NULL;
	bool lacp = false;

	if (m && is_bond(m)) {
		lacp = bond_settings_has(&m->bond, OPT_MODE) && m->bond.val[OPT_MODE] == MODE_8023AD;
		if (strcmp(m->name, s->want->name) == 0)
			lacp |= s->want->opts.val[OPT_MODE] == MODE_8023AD;
	}
	if (lacp && (l->flags & IFF_UP))
		emit(c, s, ACT_LINK_DOWN, name, why);
	emit(c, s, ACT_RELEASE, name, why);
}

static void emit_opts(struct ctx *c, const struct sim_bond *s, uint64_t which,
		      const char *why)
{
	struct action a = new_action(s, ACT_SET_OPTS, s->want->name, why);
	a.opts = s->want->opts;
	a.opts.have = which;
	push(c, &a);
}

static void emit_mtu(struct ctx *c, const struct sim_bond *s, const char *ifname)
{
	struct action a = new_action(s, ACT_SET_MTU, ifname, "mtu");
	a.mtu = s->want->mtu;
	push(c, &a);
}

/* Configured options (primary aside) whose kernel value differs or is not
 * reported.  Primary is handled after the slaves: the kernel needs the
 * device to be a slave before it can be the primary. */
static uint64_t options_differing(const struct desired_bond *b, const struct bond_settings *now)
{
	uint64_t diff = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		if (id == OPT_PRIMARY || !bond_settings_has(&b->opts, (enum bond_option_id)id))
			continue;
		/* What the kernel does not report is unknown, not different
		 * (kernel_caps.h): re-setting it would be a blind write, and
		 * for a down-only option an outage. */
		if (!bond_settings_has(now, (enum bond_option_id)id))
			continue;
		if (!bond_settings_equal(&b->opts, now, (enum bond_option_id)id))
			diff |= OPT_BIT(id);
	}
	return diff;
}

static uint64_t options_flagged(uint32_t flag)
{
	uint64_t mask = 0;

	for (int id = 0; id < OPT__COUNT; id++)
		if (bond_option_spec((enum bond_option_id)id)->flags & flag)
			mask |= OPT_BIT(id);
	return mask;
}

/* ---- the steps ---------------------------------------------------------- */

/*
 * The bond's slaves as the kernel has them: its order from /proc, limited
 * to links that exist and name it as master (a /proc read can lag behind a
 * deletion), then any link naming it as master that /proc missed.  Links an
 * earlier bond of this plan takes away are no longer its slaves.
 */
static void collect_slaves(const struct ctx *c, struct sim_bond *s)
{
	const struct obs_link *bond = s->link;

	for (size_t i = 0; i < bond->n_order && s->n_slaves < BONDD_MAX_SLAVES; i++) {
		const struct obs_link *l = observed_by_name(c->have, bond->order[i]);
		if (!l || l->master != bond->ifindex || released_by_plan(c, l->name) ||
		    name_in(s->slaves, s->n_slaves, l->name))
			continue;
		s->slaves[s->n_slaves++] = l->name;
	}
	for (size_t i = 0; i < c->have->n_links && s->n_slaves < BONDD_MAX_SLAVES; i++) {
		const struct obs_link *l = &c->have->links[i];
		if (l->master != bond->ifindex || released_by_plan(c, l->name) ||
		    name_in(s->slaves, s->n_slaves, l->name))
			continue;
		s->slaves[s->n_slaves++] = l->name;
	}
	memcpy(s->before, s->slaves, sizeof(s->before));
	s->n_before = s->n_slaves;
}

/* The bond exists (true), is created (true), or cannot be managed (false). */
static bool plan_existence(struct ctx *c, struct sim_bond *s)
{
	const struct desired_bond *b = s->want;

	if (s->link && !is_bond(s->link)) {
		note(c, s, b->name, "exists and is not a bond");
		return false;
	}
	if (s->link) {
		s->up = (s->link->flags & IFF_UP) != 0;
		s->mtu = s->link->mtu;
		memcpy(s->mac, s->link->hwaddr, sizeof(s->mac));
		s->opts_to_set = options_differing(b, &s->link->bond) & ~held_opts(c, b->name);
		collect_slaves(c, s);
		return true;
	}
	/* Created with every option but primary (its device must be a slave
	 * first) and with its MTU: the new bond is down and has no slaves,
	 * which is what mode and the other down-only options need. */
	struct action a = new_action(s, ACT_CREATE_BOND, b->name, "missing");
	a.opts = b->opts;
	a.opts.have &= ~OPT_BIT(OPT_PRIMARY);
	a.mtu = b->mtu;
	/* A MAC given at creation is the admin's (net/core/rtnetlink.c
	 * rtnl_create_link: NET_ADDR_SET), so the first slave does not
	 * replace it (bond_main.c bond_enslave). */
	a.has_mac = b->has_mac;
	memcpy(a.mac, b->mac, sizeof(a.mac));
	push(c, &a);
	s->created = true;
	s->up = false;
	s->mtu = b->mtu;
	memcpy(s->mac, b->mac, sizeof(s->mac));
	return true;
}

/*
 * Mode and the other OF_REBUILD options are only taken by a down bond, and
 * mode only by one without slaves; OF_NO_SLAVES options (fail_over_mac) only
 * by a bond without slaves.  Changing one on a live bond is a rebuild: every
 * slave released (held ones too: the kernel refuses otherwise), the bond
 * down when an OF_REBUILD option asks for it, the options set; the later
 * steps then enslave the slaves again and bring the bond up.
 *
 * A rebuild for OF_NO_SLAVES options alone leaves the bond up: the kernel
 * does not ask for it, and taking a bond down also drops its routes and,
 * by default, its IPv6 addresses.
 *
 * Returns false when a rebuild of a bond with slaves is needed and not
 * allowed now (an event, not a start or reload): the bond is left alone.
 */
/* Differing options in mask that the bond's mode does not use (the kernel
 * keeps ad_select in balance-rr but reads it in 802.3ad only:
 * bond_option_used). */
static uint64_t options_unused(const struct sim_bond *s, uint64_t mask)
{
	enum bond_mode mode = (enum bond_mode)s->want->opts.val[OPT_MODE];
	uint64_t unused = 0;

	for (int id = 0; id < OPT__COUNT; id++)
		if ((mask & OPT_BIT(id)) && id != OPT_MODE &&
		    !bond_option_used(bond_option_spec((enum bond_option_id)id), mode))
			unused |= OPT_BIT(id);
	return unused;
}

static bool plan_rebuild(struct ctx *c, struct sim_bond *s)
{
	uint64_t down_only = s->opts_to_set & options_flagged(OF_REBUILD);
	uint64_t no_slaves = s->opts_to_set & options_flagged(OF_NO_SLAVES);

	if (!down_only && !(no_slaves && s->n_slaves > 0))
		return true;
	/*
	 * Only options the mode does not use ask for it (ad_select in
	 * balance-rr, fail_over_mac in balance-xor): the kernel would take
	 * them on a down bond, but a rebuild would cost an outage for a
	 * value with no effect.  They wait for the next rebuild or creation,
	 * said in a note (--check warned that they do nothing here).
	 */
	uint64_t unused = options_unused(s, down_only | (s->n_slaves > 0 ? no_slaves : 0));
	if (unused && !((down_only | (s->n_slaves > 0 ? no_slaves : 0)) & ~unused)) {
		char msg[sizeof(((struct plan_note *)0)->msg)];
		size_t used = 0;
		msg[0] = '\0';
		for (int id = 0; id < OPT__COUNT && used < sizeof(msg); id++)
			if (unused & OPT_BIT(id))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s",
							 used ? ", " : "",
							 bond_option_spec((enum bond_option_id)id)->key);
		if (used < sizeof(msg))
			snprintf(msg + used, sizeof(msg) - used,
				 " differ but do nothing in mode %s: no rebuild for them",
				 bond_mode_name((enum bond_mode)s->want->opts.val[OPT_MODE]));
		note(c, s, s->want->name, msg);
		s->opts_to_set &= ~unused;
		return true;
	}
	/* A bond without slaves carries no traffic: finishing a rebuild that
	 * a failure interrupted (its slaves already out) disrupts nothing. */
	if (c->holds && c->holds->no_rebuild && s->n_slaves > 0) {
		char msg[sizeof(((struct plan_note *)0)->msg)];
		size_t used = 0;
		uint64_t which = down_only | no_slaves;
		msg[0] = '\0';
		for (int id = 0; id < OPT__COUNT && used < sizeof(msg); id++)
			if (which & OPT_BIT(id))
				used += (size_t)snprintf(msg + used, sizeof(msg) - used, "%s%s",
							 used ? ", " : "",
							 bond_option_spec((enum bond_option_id)id)->key);
		if (used < sizeof(msg))
			snprintf(msg + used, sizeof(msg) - used,
				 " differ: a rebuild, done at start or reload only");
		note(c, s, s->want->name, msg);
		/* A bond in another mode (a foreign one of the same name, or
		 * one changed by hand) is not taken over without the admin. */
		return false;
	}
	/* Last first, so the ones before keep their places until released. */
	for (size_t i = s->n_slaves; i-- > 0;)
		emit_release(c, s, s->slaves[i], "rebuild");
	s->n_slaves = 0;
	s->rebuilt = true;
	if (down_only && s->up) {
		emit(c, s, ACT_LINK_DOWN, s->want->name, "rebuild");
		s->up = false;
		s->taken_down = true;
	}
	emit_opts(c, s, down_only | no_slaves, "rebuild");
	s->opts_to_set &= ~(down_only | no_slaves);
	return true;
}

/* Every other differing option, in one action: never an unchanged one.
 * An OF_NO_SLAVES option reaches here only when the bond has no slaves. */
static void plan_options(struct ctx *c, struct sim_bond *s)
{
	if (s->opts_to_set)
		emit_opts(c, s, s->opts_to_set, "option");
	s->opts_to_set = 0;
}

static void find_present(struct ctx *c, struct sim_bond *s)
{
	const struct desired_bond *b = s->want;

	for (size_t i = 0; i < b->n_slaves; i++)
		if (slave_usable(c, s, &b->slaves[i]))
			s->present[s->n_present++] = &b->slaves[i];
}

/*
 * keep_order no: the slaves in the bond stay where they are, whatever the
 * order; only those not configured or not usable are released, and the
 * missing ones join at the end.  Nothing healthy is released.
 */
static void plan_joins(struct ctx *c, struct sim_bond *s, const char *const *actual,
		       size_t n_actual)
{
	const struct desired_slave *stay[BONDD_MAX_SLAVES], *join[BONDD_MAX_SLAVES];
	size_t n_stay = 0, n_join = 0;

	for (size_t i = n_actual; i-- > 0;)
		if (!is_present(s, actual[i]))
			emit_release(c, s, actual[i],
				     configured_in(s->want, actual[i]) ? "unusable" : "not configured");
	for (size_t i = 0; i < s->n_present; i++) {
		if (name_in(actual, n_actual, s->present[i]->name))
			stay[n_stay++] = s->present[i];
		else
			join[n_join++] = s->present[i];
	}
	memcpy(s->present, stay, n_stay * sizeof(stay[0]));
	memcpy(s->present + n_stay, join, n_join * sizeof(join[0]));
	s->kept = n_stay;
	s->unordered = true;
	s->n_slaves = 0;
	for (size_t i = 0; i < n_actual; i++)
		if (is_present(s, actual[i]))
			s->slaves[s->n_slaves++] = actual[i];
}

/*
 * In the modes with one active slave (active-backup, tlb, alb), releasing
 * it is a failover: the order is not worth that.  True when restoring the
 * order would release the active slave; the order is then left as it is
 * (noted) until the active slave changes.
 */
static bool active_slave_in_the_way(struct ctx *c, const struct sim_bond *s,
				    const char *const *staying, size_t n_staying)
{
	size_t k = 0;

	if (!bond_option_applies(bond_option_spec(OPT_PRIMARY),
			      (enum bond_mode)s->want->opts.val[OPT_MODE]))
		return false;
	while (k < n_staying && k < s->n_present && strcmp(staying[k], s->present[k]->name) == 0)
		k++;
	for (size_t i = k; i < n_staying; i++) {
		const struct obs_link *l = observed_by_name(c->have, staying[i]);
		if (l && l->slave.valid && l->slave.state == 0) {
			char msg[sizeof(((struct plan_note *)0)->msg)];
			snprintf(msg, sizeof(msg),
				 "is the active slave: slave order not restored, "
				 "that would be a failover");
			note(c, s, staying[i], msg);
			return true;
		}
	}
	return false;
}

/*
 * A slave not in the bond whose enslave failed last time is wanted after
 * the others for now: releasing the healthy slaves behind its place, on
 * every retry, for an order it may never take, bounced them for nothing.
 * Once it is in, the order is restored as keep_order says.
 */
static void retrying_last(struct ctx *c, struct sim_bond *s, const char *const *actual,
			  size_t n_actual)
{
	const struct desired_slave *first[BONDD_MAX_SLAVES], *last[BONDD_MAX_SLAVES];
	size_t n_first = 0, n_last = 0;

	for (size_t i = 0; i < s->n_present; i++) {
		const struct desired_slave *ds = s->present[i];
		if (!name_in(actual, n_actual, ds->name) && failing(c, "link", ds->name)) {
			last[n_last++] = ds;
			if (i + 1 < s->n_present)
				note(c, s, ds->name,
				     "joins after the others while its enslave fails: "
				     "no healthy slave released for its place");
		} else {
			first[n_first++] = ds;
		}
	}
	memcpy(s->present, first, n_first * sizeof(first[0]));
	memcpy(s->present + n_first, last, n_last * sizeof(last[0]));
}

/*
 * The bond's order is its enslavement order and there is no reorder call:
 * the slaves after the longest common prefix of the actual and the wanted
 * order are released, last first, and enslaved again after the missing
 * ones.  Done before the bond's MTU: a slave that cannot take the MTU must
 * be out first, and fewer slaves means fewer MTU changes.
 */
static void plan_releases(struct ctx *c, struct sim_bond *s)
{
	const char *actual[BONDD_MAX_SLAVES], *staying[BONDD_MAX_SLAVES];
	size_t n_actual = 0, n_staying = 0, k = 0;

	/* Held slaves are planned as absent: not in place, and not released
	 * for the order either (a release is an action on them too).  Slaves
	 * that go anyway (not configured, unusable) are left out of the order:
	 * releasing one unlinks it from the bond's list of lower devices and
	 * leaves the others in their order (drivers/net/bonding/bond_main.c
	 * __bond_release_one), so a stranger in the middle costs one release,
	 * not the tail. */
	for (size_t i = 0; i < s->n_slaves; i++) {
		if (held(c, "link", s->slaves[i]))
			continue;
		actual[n_actual++] = s->slaves[i];
		if (is_present(s, s->slaves[i]))
			staying[n_staying++] = s->slaves[i];
	}
	if (!desired_keeps_order(s->want) || active_slave_in_the_way(c, s, staying, n_staying)) {
		plan_joins(c, s, actual, n_actual);
		return;
	}
	retrying_last(c, s, actual, n_actual);
	while (k < n_staying && k < s->n_present && strcmp(staying[k], s->present[k]->name) == 0)
		k++;
	for (size_t i = n_actual; i-- > 0;) {
		const char *name = actual[i];
		if (name_in(staying, k, name))
			continue;
		const char *why = is_present(s, name)		  ? "order" :
				  configured_in(s->want, name) ? "unusable" :
								 "not configured";
		emit_release(c, s, name, why);
	}
	s->kept = k;
	s->n_slaves = 0;
	for (size_t i = 0; i < k; i++)
		s->slaves[s->n_slaves++] = s->present[i]->name;
}

/* Before any enslave: the kernel sets each slave it enslaves to the bond's
 * MTU, and setting the bond's MTU sets every slave already in. */
static void plan_bond_mtu(struct ctx *c, struct sim_bond *s)
{
	if (s->mtu == s->want->mtu || held(c, "mtu", s->want->name))
		return;
	emit_mtu(c, s, s->want->name);
	s->mtu = s->want->mtu;
	s->mtu_changed = true;
}

/*
 * mac_address.  The kernel gives a bond a random MAC when its last slave
 * leaves (drivers/net/bonding/bond_main.c __bond_release_one,
 * eth_hw_addr_random) and the first slave's when one joins a bond whose MAC
 * is random (bond_enslave); a MAC set by hand is kept (NET_ADDR_SET).  So
 * it is set once the releases are planned and before any enslave: a bond
 * that loses every slave in this plan (a rebuild, the order restored from
 * the first slave) gets it again.  In active-backup with fail_over_mac
 * active or follow, bond_set_mac_address ignores the request and reports
 * success: setting it would repeat forever, so it is a note (the config
 * refuses the pair; this is a bond whose fail_over_mac bondd does not
 * manage).
 */
static void plan_bond_mac(struct ctx *c, struct sim_bond *s)
{
	const struct desired_bond *b = s->want;
	bool emptied = s->n_before > 0;

	for (size_t i = 0; i < s->n_before && emptied; i++)
		emptied = released_by_plan(c, s->before[i]);

	if (!b->has_mac || s->created || held(c, "mac", b->name))
		return;
	if (!emptied && memcmp(s->mac, b->mac, sizeof(s->mac)) == 0)
		return;
	const struct bond_settings *now = &s->link->bond;
	enum bond_mode mode = (enum bond_mode)b->opts.val[OPT_MODE];
	bool fom = bond_settings_has(&b->opts, OPT_FAIL_OVER_MAC) ?
			   b->opts.val[OPT_FAIL_OVER_MAC] != 0 :
			   bond_settings_has(now, OPT_FAIL_OVER_MAC) && now->val[OPT_FAIL_OVER_MAC] != 0;
	if (mode == MODE_ACTIVE_BACKUP && fom) {
		note(c, s, b->name,
		     "fail_over_mac is not none: the kernel ignores mac_address in "
		     "active-backup, not setting it");
		return;
	}
	struct action a = new_action(s, ACT_SET_MAC, b->name, emptied ? "every slave released" : "mac");
	a.has_mac = true;
	memcpy(a.mac, b->mac, sizeof(a.mac));
	push(c, &a);
	memcpy(s->mac, b->mac, sizeof(s->mac));
}

/* queue_id and prio: a slave fresh from enslaving has the kernel's
 * defaults (0 and 0); a kept one has what it reports, if it reports it. */
static void plan_slave_opts(struct ctx *c, const struct sim_bond *s,
			    const struct desired_slave *ds, bool fresh)
{
	const struct obs_slave_info *now = &observed_by_name(c->have, ds->name)->slave;
	bool know_queue_id = fresh || now->valid;
	bool know_prio = fresh || (now->valid && now->has_prio);
	uint16_t queue_id = fresh ? 0 : now->queue_id;
	int32_t prio = fresh ? 0 : now->prio;
	struct action a = new_action(s, ACT_SET_SLAVE_OPTS, ds->name, "option");

	if (held(c, "slave-opts", ds->name))
		return;
	if (ds->has_queue_id && (!know_queue_id || queue_id != ds->queue_id)) {
		a.slave.has_queue_id = true;
		a.slave.queue_id = ds->queue_id;
	}
	if (ds->has_prio && (!know_prio || prio != ds->prio)) {
		a.slave.has_prio = true;
		a.slave.prio = ds->prio;
	}
	/* actor_port_prio: a fresh slave has the kernel's 255
	 * (bond_3ad.c bond_3ad_bind_slave); a kept one only what the kernel
	 * reports.  A kernel before 6.18 reports none and ignores the
	 * attribute: it is sent once with the enslave, never in a loop
	 * (--check warns, kernel_caps_version_notes). */
	if (ds->has_actor_port_prio &&
	    ((fresh && ds->actor_port_prio != 255) ||
	     (!fresh && now->valid && now->has_actor_port_prio &&
	      now->actor_port_prio != ds->actor_port_prio))) {
		a.slave.has_actor_port_prio = true;
		a.slave.actor_port_prio = ds->actor_port_prio;
	}
	if (a.slave.has_queue_id || a.slave.has_prio || a.slave.has_actor_port_prio) {
		snprintf(a.slave.name, sizeof(a.slave.name), "%s", ds->name);
		push(c, &a);
	}
}

/*
 * Slaves left in place.  A slave's MTU changed directly is not corrected by
 * the kernel, so it is set here, unless the bond's MTU was just set (that
 * sets every slave).  Their admin state is left alone: an admin may take a
 * port down for maintenance, and a device being deleted announces itself
 * down first.
 */
static void plan_kept_slaves(struct ctx *c, const struct sim_bond *s)
{
	for (size_t i = 0; i < s->kept; i++) {
		const struct desired_slave *ds = s->present[i];
		const struct obs_link *l = observed_by_name(c->have, ds->name);
		/* With the bond's own MTU backing off, the slaves follow it. */
		if (!s->mtu_changed && l->mtu != s->want->mtu && !held(c, "mtu", ds->name) &&
		    !held(c, "mtu", s->want->name))
			emit_mtu(c, s, ds->name);
		plan_slave_opts(c, s, ds, false);
	}
}

/* Whether a slave staying in place is configured after `name`. */
static bool joins_out_of_place(const struct sim_bond *s, const char *name)
{
	const struct desired_bond *b = s->want;
	size_t at = 0;

	while (at < b->n_slaves && strcmp(b->slaves[at].name, name) != 0)
		at++;
	for (size_t i = 0; i < s->kept; i++)
		for (size_t j = at + 1; j < b->n_slaves; j++)
			if (strcmp(s->present[i]->name, b->slaves[j].name) == 0)
				return true;
	return false;
}

/* "missing" for a slave the bond did not have, else what released it;
 * with keep_order no, says so when the slave joins out of its place. */
static const char *enslave_reason(const struct sim_bond *s, const char *name)
{
	if (!name_in(s->before, s->n_before, name)) {
		if (s->unordered && joins_out_of_place(s, name))
			return "missing; joins at the end (keep_order no)";
		return "missing";
	}
	return s->rebuilt ? "rebuild" : "order";
}

/*
 * The remaining present slaves, in configured order.  A slave must be
 * admin-down to be enslaved, as a request of its own (a request with both
 * "down" and the master leaves it down); a released slave already is.  A
 * slave of another managed bond is released from it first.
 */
static void plan_enslaves(struct ctx *c, struct sim_bond *s)
{
	for (size_t i = s->kept; i < s->n_present; i++) {
		const char *name = s->present[i]->name;
		const struct obs_link *l = observed_by_name(c->have, name);
		const char *why = enslave_reason(s, name);
		if (in_other_master(c, s, l))
			emit_release(c, s, name, "moved");
		if ((l->flags & IFF_UP) && !released_by_plan(c, name))
			emit(c, s, ACT_LINK_DOWN, name, why);
		emit(c, s, ACT_ENSLAVE, name, why);
		s->slaves[s->n_slaves++] = name;
		plan_slave_opts(c, s, s->present[i], true);
	}
}

/* Primary names a slave: set once its device is (or is about to be) one. */
static void plan_primary(struct ctx *c, const struct sim_bond *s)
{
	const struct desired_bond *b = s->want;

	if (!bond_settings_has(&b->opts, OPT_PRIMARY) || b->opts.primary[0] == '\0')
		return;
	if (s->link && bond_settings_equal(&b->opts, &s->link->bond, OPT_PRIMARY))
		return;
	if (held_opts(c, b->name) & OPT_BIT(OPT_PRIMARY))
		return;
	if (name_in(s->slaves, s->n_slaves, b->opts.primary))
		emit_opts(c, s, OPT_BIT(OPT_PRIMARY), "option");
}

static void plan_link_up(struct ctx *c, struct sim_bond *s)
{
	if (s->up || held(c, "up", s->want->name))
		return;
	emit(c, s, ACT_LINK_UP, s->want->name,
	     s->created ? "create" : s->taken_down ? "rebuild" : "down");
	s->up = true;
}

/*
 * bridge = NAME: the bond joins the manager's bridge (IFLA_MASTER on the
 * bond, as `ip link set BOND master NAME`; net/core/rtnetlink.c
 * do_set_master moves it from a master it has in the same request).  The
 * bridge is never created or changed; the bond is never taken from a
 * master that is not the configured bridge or one an earlier configuration
 * named (bridge_state): that one is the manager's choice, and health says
 * so.  A bond created in this plan joins once it is.
 */
static void plan_bridge(struct ctx *c, const struct sim_bond *s)
{
	const struct desired_bond *b = s->want;
	const char *detail = NULL;
	enum bridge_state st = bridge_state(b, c->have, &detail);

	if (st == BRIDGE_UNSET || held(c, "bridge", b->name))
		return;
	if (s->created && st == BRIDGE_NO_BOND) {
		const struct obs_link *br = observed_by_name(c->have, b->bridge);
		st = br && strcmp(br->kind, "bridge") == 0 ? BRIDGE_TO_JOIN : BRIDGE_ABSENT;
	}
	if (st == BRIDGE_NOT_BRIDGE || st == BRIDGE_ELSEWHERE) {
		char msg[sizeof(((struct plan_note *)0)->msg)];
		if (st == BRIDGE_NOT_BRIDGE)
			snprintf(msg, sizeof(msg), "bridge %s is a link of kind %s, not a bridge: "
				 "the bond is not made its port", b->bridge, detail);
		else
			snprintf(msg, sizeof(msg), "is a port of %s, not of bridge %s: left there "
				 "(bondd takes no port from another master)", detail, b->bridge);
		note(c, s, b->name, msg);
		return;
	}
	if (st != BRIDGE_TO_JOIN)
		return;
	struct action a = new_action(s, ACT_SET_BRIDGE, b->name,
				     s->created ? "create" : "bridge");
	snprintf(a.master, sizeof(a.master), "%s", b->bridge);
	push(c, &a);
}

/* Configured addresses the bond lacks; others are never removed. */
static void plan_addresses(struct ctx *c, const struct sim_bond *s)
{
	const struct desired_bond *b = s->want;

	char key[PLAN_KEY_SIZE];

	for (size_t i = 0; i < b->n_addrs; i++) {
		if (s->link && observed_has_addr(c->have, s->link->ifindex, &b->addrs[i]))
			continue;
		if (plan_key_held(c->holds, addr_key(b->name, &b->addrs[i], key, sizeof(key))))
			continue;
		struct action a = new_action(s, ACT_ADD_ADDR, b->name, "address");
		a.addr = b->addrs[i];
		push(c, &a);
	}
}

static void plan_bond(struct ctx *c, const struct desired_bond *b)
{
	struct sim_bond s;

	if (held(c, "link", b->name))
		return;
	memset(&s, 0, sizeof(s));
	s.want = b;
	s.link = observed_by_name(c->have, b->name);
	if (b->absent) {
		/* Deleted only when asked for by name; a link of another kind
		 * by that name is not ours to delete. */
		if (is_bond(s.link)) {
			/* Deleting a bond releases each of its ports
			 * (drivers/net/bonding/bond_main.c bond_uninit,
			 * __bond_release_one): in 802.3ad each goes down
			 * first, as in emit_release. */
			if (bond_settings_has(&s.link->bond, OPT_MODE) &&
			    s.link->bond.val[OPT_MODE] == MODE_8023AD)
				for (size_t i = s.link->n_order; i-- > 0;) {
					const struct obs_link *p =
						observed_by_name(c->have, s.link->order[i]);
					if (p && (p->flags & IFF_UP))
						emit(c, &s, ACT_LINK_DOWN, p->name, "state absent");
				}
			emit(c, &s, ACT_DELETE_BOND, b->name, "state absent");
		}
		else if (s.link)
			note(c, &s, b->name, "exists and is not a bond");
		return;
	}
	if (!plan_existence(c, &s))
		return;
	if (!plan_rebuild(c, &s))
		return;
	plan_options(c, &s);
	find_present(c, &s);
	plan_releases(c, &s);
	plan_bond_mtu(c, &s);
	plan_bond_mac(c, &s);
	plan_kept_slaves(c, &s);
	plan_enslaves(c, &s);
	plan_primary(c, &s);
	plan_link_up(c, &s);
	plan_bridge(c, &s);
	plan_addresses(c, &s);
}

bool plan_action_disrupts(const struct action *a)
{
	switch (a->kind) {
	case ACT_RELEASE:
	case ACT_DELETE_BOND:
		return true;
	case ACT_LINK_DOWN:
		return strcmp(a->ifname, a->bond) == 0;
	case ACT_SET_OPTS:
		return a->why && strcmp(a->why, "rebuild") == 0;
	default:
		return false;
	}
}

bool plan_failure_stops_bond(const struct action *failed)
{
	return failed->kind != ACT_ADD_ADDR && failed->kind != ACT_SET_SLAVE_OPTS &&
	       failed->kind != ACT_SET_MAC && failed->kind != ACT_SET_BRIDGE;
}

int plan(const struct desired *want, const struct observed *have,
	 const struct plan_constraints *holds, struct action_list *out)
{
	struct ctx c = {want, have, holds, out, out->n, 0};

	for (size_t i = 0; i < want->n_bonds && !c.err; i++)
		if (!holds || !holds->only || holds->only[i])
			plan_bond(&c, &want->bonds[i]);
	if (!c.err)
		c.err = plan_route_cc(want, have, holds, out);
	return c.err;
}
