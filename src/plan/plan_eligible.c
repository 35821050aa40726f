/* SPDX-License-Identifier: MIT */
/* Which links can be slaves of a bond: not another master's, not a kind
 * the bonding driver refuses, not carrying something bondd must not cut. */
#include "plan_parts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <net/if_arp.h>

/* Whether link l is, once the actions planned so far are done, a slave of
 * a master other than this bond. */
bool in_other_master(const struct ctx *c, const struct sim_bond *s,
			    const struct obs_link *l)
{
	if (!l->master || (s->link && l->master == s->link->ifindex))
		return false;
	return !released_by_plan(c, l->name);
}

/*
 * Why link l can never be a slave, or NULL.  Checked before anything is
 * done to it: enslaving needs the link admin-down first, and a name typed
 * by mistake (lo, a bridge, the management VLAN) must not be taken down.
 * The kernel would enslave some of these (a VLAN, a macvlan), but none is
 * a NIC, and a bond over them is not what anyone configures on purpose.
 */
static const char *ineligible(const struct obs_link *l)
{
	static const struct {
		const char *kind, *why;
	} kinds[] = {
		{"bond", "is a bond"},
		{"bridge", "is a bridge"},
		{"team", "is a team device"},
		{"openvswitch", "is an Open vSwitch device"},
		{"vrf", "is a VRF device"},
		{"vlan", "is a VLAN (an upper device)"},
		{"macvlan", "is a macvlan (an upper device)"},
		{"macvtap", "is a macvtap (an upper device)"},
		{"ipvlan", "is an ipvlan (an upper device)"},
		{"ipvtap", "is an ipvtap (an upper device)"},
		{"macsec", "is a MACsec device (an upper device)"},
		{"hsr", "is an HSR device (an upper device)"},
	};

	if ((l->flags & IFF_LOOPBACK) || l->type == ARPHRD_LOOPBACK)
		return "is the loopback device";
	/* drivers/net/bonding/bond_main.c bond_enslave takes non-Ethernet
	 * links only as the first slave, and turns the bond into that type. */
	if (l->type != ARPHRD_ETHER)
		return "is not an Ethernet device";
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(l->kind, kinds[i].kind) == 0)
			return kinds[i].why;
	return NULL;
}

/*
 * Why link l, though a NIC, carries something that enslaving would cut off,
 * or false.  Enslaving sets it down first and then hands its frames to the
 * bond (drivers/net/bonding/bond_main.c bond_enslave registers the bond's
 * rx_handler): a VLAN, macvlan or tunnel on it goes dead, and so does an
 * address of its own (the management NIC named by mistake).  A macvlan's
 * own rx_handler even makes the enslave fail ("Device is in use"), after
 * the link was set down.  An IPv6 link-local address is the kernel's own
 * and says nothing.  `why` gets the reason.
 */
static bool carries_something(const struct observed *o, const struct obs_link *l, char *why,
			      size_t size)
{
	for (size_t i = 0; i < o->n_links; i++) {
		const struct obs_link *u = &o->links[i];
		/* A veth's IFLA_LINK is its peer, not a device on top of it. */
		if (u->lower == l->ifindex && u->ifindex != l->ifindex &&
		    strcmp(u->kind, "veth") != 0) {
			snprintf(why, size, "carries %s", u->name);
			return true;
		}
	}
	for (size_t i = 0; i < o->n_addrs; i++) {
		const struct bond_addr *a = &o->addrs[i].addr;
		char text[INET6_ADDRSTRLEN];

		if (o->addrs[i].ifindex != l->ifindex)
			continue;
		if (a->family == AF_INET6 && a->addr[0] == 0xfe && (a->addr[1] & 0xc0) == 0x80)
			continue;
		if (!inet_ntop(a->family, a->addr, text, sizeof(text)))
			snprintf(text, sizeof(text), "?");
		snprintf(why, size, "carries address %s/%u", text, a->prefixlen);
		return true;
	}
	return false;
}

/* Whether configured slave `ds` can be enslaved to this bond; notes why not. */
bool slave_usable(struct ctx *c, const struct sim_bond *s,
			 const struct desired_slave *ds)
{
	const struct obs_link *l = observed_by_name(c->have, ds->name);
	char msg[sizeof(((struct plan_note *)0)->msg)];
	const char *why;

	if (!l || held(c, "link", ds->name))
		return false; /* absent: nothing to say */
	/* One already in this bond (put there by hand, or by an older bondd)
	 * works as configured: releasing it would be the harm. */
	bool in_this_bond = s->link && l->master == s->link->ifindex;
	if (!in_this_bond && (why = ineligible(l))) {
		snprintf(msg, sizeof(msg), "%s, not enslaving it", why);
		note(c, s, ds->name, msg);
		return false;
	}
	if (!in_this_bond && refused(c, ds->name)) {
		note(c, s, ds->name,
		     "in use by another device (a macvlan or ipvlan, maybe in another "
		     "namespace): not tried again until re-created or reload");
		return false;
	}
	char carried[96];
	if (!in_this_bond && carries_something(c->have, l, carried, sizeof(carried))) {
		snprintf(msg, sizeof(msg), "%s, not enslaving it", carried);
		note(c, s, ds->name, msg);
		return false;
	}
	if (in_other_master(c, s, l)) {
		/* Slaves move between the bonds bondd manages; a link in any
		 * other master (a bridge, an unmanaged bond) is not ours. */
		const struct obs_link *m = observed_by_index(c->have, l->master);
		if (!m) {
			snprintf(msg, sizeof(msg), "enslaved to ifindex %d, not taking it",
				 l->master);
			note(c, s, ds->name, msg);
			return false;
		}
		if (!is_bond(m) || !desired_find_bond(c->want, m->name)) {
			snprintf(msg, sizeof(msg), "enslaved to %s, not taking it", m->name);
			note(c, s, ds->name, msg);
			return false;
		}
	}
	/* Enslaving sets the slave to the bond's MTU and fails if it cannot;
	 * so does setting the bond's MTU with the slave in it. */
	if (l->max_mtu && l->max_mtu < s->want->mtu) {
		snprintf(msg, sizeof(msg), "max_mtu %u is below the configured MTU %u",
			 l->max_mtu, s->want->mtu);
		note(c, s, ds->name, msg);
		return false;
	}
	return true;
}
