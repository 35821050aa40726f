/* SPDX-License-Identifier: MIT */
/*
 * What a link's change means for the daemon's own work beside the plan
 * (link_change.c, pure): LLDP's groups to follow (a link came, went or was
 * renamed), slave entries to match again (identity.h: a name, altname,
 * permanent address, udev path or port changed), and a NIC's speed to read
 * again (a new device, or its carrier changed: a renegotiated link).  The
 * carrier itself: carrier_change.h.
 */
#ifndef BONDD_LINK_CHANGE_H
#define BONDD_LINK_CHANGE_H

#include <stdbool.h>

#include "observed.h"

struct link_change {
	bool lldp;        /* LLDP's groups follow the slaves' ifindexes */
	bool matches;     /* what slave entries are matched by changed */
	bool speed;       /* the speed may be new: read it again */
};

/* old: NULL when the link appeared; now: NULL when it went (not both). */
struct link_change link_change_of(const struct obs_link *old, const struct obs_link *now);

#endif
