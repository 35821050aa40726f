/* SPDX-License-Identifier: MIT */
/*
 * The kernel's events as the daemon takes them (the observer's callbacks,
 * observer.h): a configured link's carrier counted and said, the bonds a
 * wake-up plans marked, what else must look again (LLDP's groups, the slave
 * entries' matches, a NIC's speed); and the bonds a retry is for.  What a
 * change means is decided by carrier_change.c and link_change.c (pure);
 * here it is counted, logged and recorded.  Of this folder's files it calls
 * the runtime model's (daemon_runtime.c) only.
 */
#include "daemon_parts.h"

#include <stdio.h>
#include <string.h>

#include "carrier_change.h"
#include "kernel_caps.h"
#include "link_change.h"

/* Configured options this kernel does not report to bondd (kernel_caps.h):
 * set, but never compared or repaired. */
void report_unreported(struct daemon *d)
{
	char names[256];

	d->caps_logged = d->ob.caps;
	for (size_t i = 0; i < d->want.n_bonds; i++) {
		uint64_t m = kernel_caps_unreported(&d->ob.caps, &d->want.bonds[i]);
		if (m)
			log_warn("%s: this kernel does not report %s to bondd: set at creation, "
				 "never compared or repaired", d->want.bonds[i].name,
				 kernel_caps_names(m, names, sizeof(names)));
	}
}

/* Carrier changes of configured links are counted; they need no action
 * (the bond's own monitor handles them), which is the point of counting. */
void daemon_on_link_change(void *ctx, const struct obs_link *old, const struct obs_link *now)
{
	struct daemon *d = ctx;
	const struct obs_link *l = now ? now : old;
	struct link_runtime *rt = link_rt(d, l->name);

	/* Learned something about what this kernel reports (bits only get
	 * set, so this happens a bounded number of times). */
	if (memcmp(&d->caps_logged, &d->ob.caps, sizeof(d->caps_logged)))
		report_unreported(d);

	/* The bonds this wake-up plans: those the link concerns. */
	plan_touch_link(&d->touch, &d->ob.state, old, now, d->touched);
	struct link_change lc = link_change_of(old, now);
	if (lc.lldp)
		d->lldp_due = true; /* a slave's ifindex, for LLDP's group */
	if (lc.matches)
		d->identity_due = true; /* what slave entries are matched by (identity.h) */

	if (!rt)
		return;
	/* A new device or a renegotiated link may have a new speed. */
	if (lc.speed) {
		rt->speed_fresh = false;
		/* this NIC only: with 1,024 slaves a whole host check
		 * after every repair cost seconds in the guest */
		rt->host_due = true;
		d->host_nics_due = true;
	}
	if (!old) {
		log_debug("%s appeared (ifindex %d)", l->name, l->ifindex);
		char key[PLAN_KEY_SIZE];
		snprintf(key, sizeof(key), "link %s", l->name);
		if (holds_forgive(&d->holds, key))
			log_info("%s: a new device: enslaving it is tried again", l->name);
	} else if (!now) {
		/* bondd deletes only bonds it no longer manages, whose
		 * records are gone by then: this was someone else. */
		log_warn("%s disappeared", l->name);
		record(d, EV_GONE, rt->bond, l->name, "%s disappeared", l->name);
	} else {
		struct carrier_change c = carrier_change_of(old, now);
		if (c.flap)
			rt->last_flap_ms = clock_wall_ms();
		switch (c.say) {
		case CARRIER_SAY_NOTHING:
			break;
		case CARRIER_SAY_ADMIN_DOWN:
			log_debug("%s: carrier lost with the link set down: not a flap", l->name);
			break;
		case CARRIER_SAY_LOST:
			rt->carrier_losses += c.lost;
			log_info("%s: carrier lost (%lu so far)%s", l->name, rt->carrier_losses,
				 c.back ? ", and back" : "");
			record(d, EV_DOWN, rt->bond, l->name, "carrier lost (%lu so far)%s",
			       rt->carrier_losses, c.back ? ", and back" : "");
			break;
		case CARRIER_SAY_BACK:
			log_info("%s: carrier back", l->name);
			record(d, EV_UP, rt->bond, l->name, "carrier back");
			break;
		}
	}
}

/* An address (of ifindex) or a route (ifindex 0) changed: the bond it
 * concerns, or every bond with addresses for a route. */
void daemon_on_addr_or_route(void *ctx, int ifindex)
{
	struct daemon *d = ctx;

	if (!ifindex) {
		plan_touch_routes(&d->want, d->touched);
		return;
	}
	const struct obs_link *l = observed_by_index(&d->ob.state, ifindex);
	size_t b = l ? plan_touch_find(&d->touch, l->name) : PLAN_TOUCH_NONE;
	if (b != PLAN_TOUCH_NONE)
		d->touched[b] = true;
}

/* The bonds a retry is for: those with an action backing off, still
 * differing after the last wake-up, or with a slave waiting for udev. */
void touch_due(struct daemon *d)
{
	for (size_t i = 0; i < d->holds.n; i++) {
		size_t b = plan_touch_find(&d->touch, d->holds.v[i].bond);
		if (b != PLAN_TOUCH_NONE)
			d->touched[b] = true;
	}
	for (size_t i = 0; i < d->n_bonds; i++)
		if (d->bonds[i].unsettled.passes)
			d->touched[i] = true;
	for (size_t i = 0; i < d->udev.n; i++) {
		size_t b = d->udev.v[i].state == UDEV_PENDING
				   ? plan_touch_find(&d->touch, d->udev.v[i].name) : PLAN_TOUCH_NONE;
		if (b != PLAN_TOUCH_NONE)
			d->touched[b] = true;
	}
}

