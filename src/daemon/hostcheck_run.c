/* SPDX-License-Identifier: MIT */
/*
 * When the host checks run in the daemon: at start, on reload, and after a
 * pass in which a configured link appeared, went, or changed carrier (a
 * new device or a renegotiated link may have a new speed): then only
 * those links' NICs are read again, and the TCP settings.  Never on a
 * timer: an idle bondd does not wake up for them.  A TCP sysctl changed by
 * hand is therefore seen at the next of those moments (or SIGHUP).
 */
#include "hostcheck_run.h"

#include <errno.h>
#include <string.h>
#include <net/if.h>

#include "ethtool_link.h"
#include "hostcheck.h"
#include "log.h"
#include "nic_speed.h"

/* A live NIC's speed, by the ifindex bondd has for its name: never by a
 * name alone, which the ethtool ioctl resolves with dev_load() and, when
 * the link has just gone, a modprobe for "netdev-NAME" that bondd waited
 * for (ethtool_link.h).  Like sysfs's speed_show, nothing while the link
 * is down (net/core/net-sysfs.c: netif_running). */
static bool live_speed(void *ctx, const char *name, struct nic_speed *out)
{
	struct daemon *d = ctx;
	const struct obs_link *l = observed_by_name(&d->ob.state, name);

	out->mbps = -1;
	snprintf(out->duplex, sizeof(out->duplex), "unknown");
	if (!l)
		return false;
	if (!(l->flags & IFF_UP))
		return true;
	int err = ethtool_link_speed(l->ifindex, out);
	/* a kernel without ethtool's netlink family: the ioctl, by a name
	 * bondd has just seen */
	if (err == -EPROTONOSUPPORT)
		return nic_speed_ethtool(name, out);
	return err != -ENODEV;
}

/* The NICs of the links marked host_due read again, in place, and the TCP
 * settings; false when the last read does not match the configuration
 * (then everything is read). */
static bool read_due_nics(struct daemon *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->want.n_bonds; i++)
		n += d->want.bonds[i].n_slaves;
	if (d->host.n_nics != n || d->n_links != n + d->want.n_bonds)
		return false;
	/* d->links holds each bond then its slaves, in config order, as
	 * host.nics holds the slaves (runtime_rebuild, hostcheck_read). */
	struct hostcheck_speed speed = {live_speed, d};
	size_t k = 0, li = 0;
	for (size_t i = 0; i < d->want.n_bonds; i++) {
		li++;
		for (size_t j = 0; j < d->want.bonds[i].n_slaves; j++, k++, li++) {
			struct link_runtime *rt = &d->links[li];
			if (strcmp(rt->name, d->want.bonds[i].slaves[j].name) != 0)
				return false;
			if (!rt->host_due)
				continue;
			rt->host_due = false;
			hostcheck_read_nic("", rt->name, &speed, &d->host.nics[k]);
		}
	}
	hostcheck_read_tcp("", &d->host.tcp);
	return true;
}

void hostcheck_run_if_due(struct daemon *d)
{
	struct findings next = {0};

	if (!d->host_check_due && !d->host_nics_due)
		return;
	bool whole = d->host_check_due || !read_due_nics(d);
	d->host_check_due = d->host_nics_due = false;
	if (whole)
		for (size_t i = 0; i < d->n_links; i++)
			d->links[i].host_due = false;
	struct hostcheck_speed speed = {live_speed, d};
	if ((whole && hostcheck_read("", &d->want, &speed, &d->host) < 0) ||
	    hostcheck_eval(&d->want, &d->host, &next) < 0) {
		log_err("host check: out of memory; keeping its last findings");
		findings_free(&next);
		return;
	}
	/* Each finding is logged once, when it first appears. */
	struct findings *cur = &d->findings[FSRC_HOST_CHECK];
	size_t hint = 0;
	for (size_t i = 0; i < next.n; i++) {
		const struct finding *x = &next.v[i];
		if (findings_has(cur, x, &hint))
			continue;
		if (x->severity == FSEV_DEGRADED)
			log_warn("%s: %s: %s; %s", x->bond, finding_kind_name(x->kind), x->evidence,
				 x->fix);
		else
			log_info("%s: %s: %s; %s", x->bond, finding_kind_name(x->kind), x->evidence,
				 x->fix);
	}
	findings_free(cur);
	*cur = next;
}
