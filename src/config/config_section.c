/* SPDX-License-Identifier: MIT */
/* Checks on a whole section when it ends (options may come before the mode
 * they depend on), and on the whole file at its end. */
#include "config_parser.h"
#include "kernel_caps.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- checks on a whole section ------------------------------------------- */

static const char *slave_key_name(const struct slave_key *k, char *buf, size_t len)
{
	snprintf(buf, len, "slave.%s.%s", k->name, slave_attr_names[k->attr]);
	return buf;
}

static bool mode_known(const struct section *s)
{
	return !(s->bad & OPT_BIT(OPT_MODE));
}

static void apply_slave_keys(struct parser *p)
{
	struct section *s = &p->sec;
	struct desired_bond *b = &s->b;
	enum bond_mode mode = (enum bond_mode)b->opts.val[OPT_MODE];
	char key[SEL_TEXT_MAX + 32];

	for (size_t i = 0; i < s->n_sk; i++) {
		const struct slave_key *k = &s->sk[i];
		int at = slave_index(b, k->name);
		slave_key_name(k, key, sizeof(key));
		if (at < 0) {
			errorf(p, k->line, "%s: %s is not listed in slaves", key, k->name);
			continue;
		}
		struct desired_slave *sl = &b->slaves[at];
		if (k->attr == SA_QUEUE_ID) {
			sl->has_queue_id = true;
			sl->queue_id = (uint16_t)k->value;
		} else if (k->attr == SA_ACTOR_PORT_PRIO) {
			/* bond_options.c BOND_OPT_ACTOR_PORT_PRIO: 802.3ad only */
			if (mode_known(s) && mode != MODE_8023AD) {
				errorf(p, k->line, "%s does not apply to mode %s", key,
				       bond_mode_name(mode));
			} else {
				sl->has_actor_port_prio = true;
				sl->actor_port_prio = (uint16_t)k->value;
			}
		} else if (mode_known(s) && !(PRIO_MODES & MODE_BIT(mode))) {
			errorf(p, k->line, "%s does not apply to mode %s", key, bond_mode_name(mode));
		} else {
			sl->has_prio = true;
			sl->prio = (int32_t)k->value;
		}
	}
}

/* The kernel refuses a non-zero queue_id that another slave of the bond
 * already has. */
static void check_queue_ids(struct parser *p)
{
	const struct section *s = &p->sec;
	char key[SEL_TEXT_MAX + 32];

	for (size_t i = 0; i < s->n_sk; i++) {
		const struct slave_key *k = &s->sk[i];
		if (k->attr != SA_QUEUE_ID || k->value == 0)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct slave_key *first = &s->sk[j];
			if (first->attr == SA_QUEUE_ID && first->value == k->value) {
				errorf(p, k->line, "%s: %u is already the queue_id of %s (line %u)",
				       slave_key_name(k, key, sizeof(key)), (unsigned)k->value,
				       first->name, first->line);
				break;
			}
		}
	}
}

/*
 * In active-backup with fail_over_mac active or follow the bond's MAC is
 * the active slave's, and the kernel ignores a MAC set on the bond
 * (drivers/net/bonding/bond_main.c bond_set_mac_address returns success
 * without setting it).  In the other modes fail_over_mac does nothing.
 */
static void check_mac_address(struct parser *p)
{
	const struct section *s = &p->sec;
	const struct bond_settings *o = &s->b.opts;
	char val[32];

	if (!s->b.has_mac || !mode_known(s) || o->val[OPT_MODE] != MODE_ACTIVE_BACKUP ||
	    !bond_settings_has(o, OPT_FAIL_OVER_MAC) || o->val[OPT_FAIL_OVER_MAC] == 0)
		return;
	errorf(p, s->mac_line, "mac_address cannot be kept with %s = %s (line %u): in "
	       "active-backup the bond then takes the active slave's MAC; remove one of them",
	       s->opt_key[OPT_FAIL_OVER_MAC],
	       bond_settings_format(o, OPT_FAIL_OVER_MAC, val, sizeof(val)),
	       s->opt_line[OPT_FAIL_OVER_MAC]);
}

/* bridge = NAME names the manager's bridge: not the bond itself, not one
 * of its slaves (another bond's name: check_bonds_as_slaves). */
static void check_bridge(struct parser *p)
{
	const struct desired_bond *b = &p->sec.b;

	if (!b->bridge[0])
		return;
	if (strcmp(b->bridge, b->name) == 0)
		errorf(p, b->bridge_line, "bridge: %s is this bond; name the bridge it is to be "
		       "a port of", b->bridge);
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, b->bridge) == 0)
			errorf(p, b->bridge_line, "bridge: %s is a slave of this bond (line %u), "
			       "not a bridge", b->bridge, p->sec.slaves_line);
}

/* primary names a slave as slaves = does (by name, mac: or path:); the
 * kernel takes a name, today's name of the slave (identity_resolve). */
static void check_primary(struct parser *p)
{
	struct section *s = &p->sec;
	struct desired_bond *b = &s->b;
	struct shown sh;

	if (!bond_settings_has(&b->opts, OPT_PRIMARY))
		return;
	int at = slave_index(b, s->primary_text);
	if (at < 0) {
		errorf(p, s->opt_line[OPT_PRIMARY], "%s: %s is not listed in slaves",
		       s->opt_key[OPT_PRIMARY], show(&sh, s->primary_text));
		return;
	}
	b->primary_slave = (unsigned)at + 1;
	snprintf(b->opts.primary, sizeof(b->opts.primary), "%s", b->slaves[at].name);
}

/* A rule of bond_rules.c broken: FILE:LINE of the option to blame, with
 * the key as the file spells it. */
static void rule_broken(void *ctx, enum bond_option_id id, bool warning, const char *rest)
{
	struct parser *p = ctx;

	if (warning)
		warnf(p, p->sec.opt_line[id], "%s%s", p->sec.opt_key[id], rest);
	else
		errorf(p, p->sec.opt_line[id], "%s%s", p->sec.opt_key[id], rest);
}

/* What the kernel takes but is probably not what was meant. */
static void warn_section(struct parser *p)
{
	const struct section *s = &p->sec;
	const struct bond_settings *o = &s->b.opts;
	enum bond_mode mode = (enum bond_mode)o->val[OPT_MODE];

	/* Modes that have an ARP monitor get no forced miimon (see
	 * check_forced_miimon); without either monitor a dead link keeps its
	 * share of the traffic.  The kernel's bonding documentation
	 * (Documentation/networking/bonding.rst) calls link monitoring critical. */
	if (mode_known(s) && bond_option_applies(bond_option_spec(OPT_ARP_INTERVAL), mode) &&
	    !(s->bad & (OPT_BIT(OPT_MIIMON) | OPT_BIT(OPT_ARP_INTERVAL))) &&
	    !(bond_settings_has(o, OPT_MIIMON) && o->val[OPT_MIIMON] > 0) &&
	    !(bond_settings_has(o, OPT_ARP_INTERVAL) && o->val[OPT_ARP_INTERVAL] > 0))
		warnf(p, s->b.line, "[%s]: mode %s without link monitoring (neither miimon nor "
		      "arp_interval): a failed link is never noticed and keeps getting traffic; "
		      "write miimon = 100", s->b.name, bond_mode_name(mode));
	if (!s->mtu_line)
		warnf(p, s->b.line, "[%s]: no mtu: the bond and its slaves get MTU %d (bondd's "
		      "default), which every switch port and peer on the path must carry; write "
		      "mtu = %d to keep it, or mtu = 1500", s->b.name, BONDD_DEFAULT_MTU,
		      BONDD_DEFAULT_MTU);
}

/* A drop-in's section for a bond of an earlier file: its addresses join
 * that bond; everything else was checked with the bond's own section. */
static void finish_extension(struct parser *p)
{
	struct desired_bond *b = &p->bonds[p->sec.extends - 1];

	memcpy(b->addrs, p->sec.b.addrs, sizeof(b->addrs));
	b->n_addrs = p->sec.b.n_addrs;
}

/*
 * A drop-in's section for a bond no earlier file defines, without slaves:
 * most likely a typo in the name of the bond it meant to give addresses
 * to ([bnod0] for [bond0]).  Taken as written it would create a bond with
 * no slaves and the host's address, and leave the meant bond without it;
 * so it is an error, with the closest defined name.  A drop-in may still
 * define a whole bond, with its slaves.
 */
/* Two names that differ in their digits alone name two bonds (bond0 and
 * bond1), not a typo of one another. */
static bool digits_apart(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !(isdigit((unsigned char)*a) && isdigit((unsigned char)*b)))
			return false;
	return !*a && !*b;
}

/* The bond an earlier file defines whose name is closest to name, or NULL. */
static const char *closest_bond(const struct parser *p, const char *name, bool typo_only)
{
	const char *best = NULL;
	unsigned best_d = UINT_MAX, d;

	for (size_t i = 0; i < p->n_bonds; i++)
		if (config_hint_close(name, p->bonds[i].name, &d) && d < best_d &&
		    !(typo_only && digits_apart(name, p->bonds[i].name))) {
			best = p->bonds[i].name;
			best_d = d;
		}
	return best;
}

static bool dropin_orphan(struct parser *p)
{
	const struct section *s = &p->sec;

	if (!s->keep || p->file_no == 0 || s->slaves_line)
		return false;
	/* `state = absent` names a bond to delete, which needs no slaves: a
	 * drop-in may retire a bond no file defines (one left from an
	 * earlier configuration).  But a name one typo away from a bond an
	 * earlier file defines ([bnod0] beside [bond0]) deletes nothing
	 * (only a bond of that very name is deleted), and the bond meant
	 * stays: an error that says which.  Names apart only in their digits
	 * ([bond1] beside [bond0]) are two bonds. */
	if (s->b.absent) {
		const char *meant = closest_bond(p, s->b.name, true);
		if (!meant)
			return false;
		errorf(p, s->b.line, "[%s]: state = absent retires a bond %s, which no earlier file "
		       "defines; did you mean [%s]? (a bond of an earlier file is retired in its own "
		       "section there, with state = absent)", s->b.name, s->b.name, meant);
		return true;
	}
	const char *best = closest_bond(p, s->b.name, false);
	char hint[IFNAMSIZ + 32] = "";
	if (best)
		snprintf(hint, sizeof(hint), "; did you mean [%s]?", best);
	errorf(p, s->b.line, "[%s]: no earlier file defines a bond %s, and this section has no "
	       "slaves: a drop-in may add addresses to a bond defined before it, or define a "
	       "whole bond with its slaves%s", s->b.name, s->b.name, hint);
	return true;
}

/* Values the running kernel refuses (kernel_caps_value_refused). */
static void check_kernel_refusals(struct parser *p)
{
	const struct section *s = &p->sec;
	char why[256];

	for (int id = 0; id < OPT__COUNT; id++)
		if (bond_settings_has(&s->b.opts, (enum bond_option_id)id) &&
		    kernel_caps_value_refused((enum bond_option_id)id, s->b.opts.val[id], p->kver,
					      why, sizeof(why)))
			errorf(p, s->opt_line[id], "%s; bondd changes nothing for it", why);
}

void finish_section(struct parser *p)
{
	struct section *s = &p->sec;

	if (!p->in_section)
		return;
	p->in_section = false;
	if (s->extends) {
		finish_extension(p);
		return;
	}
	if (dropin_orphan(p))
		return;
	apply_slave_keys(p);
	check_queue_ids(p);
	if (mode_known(s))
		bond_rules_check(&s->b.opts, &s->bad, rule_broken, p);
	check_primary(p);
	check_mac_address(p);
	check_bridge(p);
	if (s->keep && !s->b.absent)
		check_kernel_refusals(p);
	/* The link check is on by default where bondd's users need it and
	 * its peers run bondd: balance-rr (bondd.conf(5), link_check). */
	if (!s->link_check_line)
		s->b.link_check = s->b.opts.val[OPT_MODE] == MODE_BALANCE_RR;
	if (!s->lldp_line)
		s->b.lldp = true;
	/* A bond to delete gets no advice about its MTU or monitoring. */
	if (s->keep && !s->b.absent)
		warn_section(p);
	if (s->keep && append_bond(p, &s->b, s->slaves_line) < 0)
		p->fatal = -ENOMEM;
}

/* A bond may be named after a slave of any section, earlier or later, in
 * any file: checked once every file is read. */
void check_bonds_as_slaves(struct parser *p)
{
	for (size_t i = 0; i < p->n_bonds; i++) {
		const struct desired_bond *b = &p->bonds[i];
		/* The message belongs to the file of the slaves line. */
		p->file_no = p->file_of[i];
		p->file = p->files[p->file_no];
		const struct desired_bond *as_bond = b->bridge[0] ? find_built(p, b->bridge) : NULL;
		if (as_bond && as_bond != b) {
			char loc[PATH_MAX + 16];
			errorf(p, b->bridge_line, "bridge: %s is configured as a bond (%s), not a bridge",
			       b->bridge, where(p, (size_t)(as_bond - p->bonds), as_bond->line, loc,
						sizeof(loc)));
		}
		for (size_t j = 0; j < b->n_slaves; j++) {
			const struct desired_bond *other = find_built(p, b->slaves[j].name);
			char loc[PATH_MAX + 16];
			if (other)
				errorf(p, p->slaves_line[i],
				       "%s is configured as a bond (%s) and cannot be a slave",
				       other->name, where(p, (size_t)(other - p->bonds), other->line,
							  loc, sizeof(loc)));
		}
	}
}
