/* SPDX-License-Identifier: MIT */
/*
 * What a configured link's change says of its carrier (carrier_change.c,
 * pure): the losses to count, whether it is a flap (not the admin's doing),
 * and what the log and the events say.  The daemon counts and says it.
 */
#ifndef BONDD_CARRIER_CHANGE_H
#define BONDD_CARRIER_CHANGE_H

#include <stdbool.h>

#include "observed.h"

enum carrier_said {
	CARRIER_SAY_NOTHING,
	CARRIER_SAY_ADMIN_DOWN,   /* lost with the link set down: debug only */
	CARRIER_SAY_LOST,         /* lost (and back when back), counted */
	CARRIER_SAY_BACK,
};

struct carrier_change {
	enum carrier_said say;
	unsigned long lost;       /* carrier losses to count */
	bool back;                /* lost, and up again now */
	bool flap;                /* not the admin's doing: the last flap is now */
};

/* The change from old to now of one link (both given: a link that came or
 * went is not a carrier change). */
struct carrier_change carrier_change_of(const struct obs_link *old, const struct obs_link *now);

#endif
