/* SPDX-License-Identifier: MIT */
/* What a link's change says of its carrier (carrier_change.h).  Pure. */
#include "carrier_change.h"

#include <net/if.h>

/* Past this a difference of IFLA_CARRIER_DOWN_COUNT is not believed (a
 * counter that went back, a different device under the same name). */
#define CARRIER_LOSSES_MAX 1000000

struct carrier_change carrier_change_of(const struct obs_link *old, const struct obs_link *now)
{
	struct carrier_change c = {.say = CARRIER_SAY_NOTHING};
	/* A carrier lost while the link stays admin-up is the cable, the NIC
	 * or the peer.  One lost with the admin state going down is an
	 * admin's doing: bondd's own release and its link-down before an
	 * enslave, a device being deleted.  Those are repairs (counted with
	 * the bond's actions), not flaps. */
	bool admin = !(old->flags & IFF_UP) || !(now->flags & IFF_UP);
	bool was_up = old->flags & IFF_LOWER_UP, is_up = now->flags & IFF_LOWER_UP;
	unsigned long lost = was_up && !is_up;

	/* The kernel may announce a loss and the return in one message
	 * (net/core/link_watch.c: the events of one linkwatch run coalesce;
	 * seen on 6.12 and 7.2 for a veth whose peer went down and up at
	 * once): its own count of losses, IFLA_CARRIER_DOWN_COUNT, says how
	 * many there were. */
	if (!admin && old->has_carrier_down_count && now->has_carrier_down_count) {
		uint32_t n = now->carrier_down_count - old->carrier_down_count;
		if (n > lost && n < CARRIER_LOSSES_MAX)
			lost = n;
	}
	if (!lost && was_up == is_up)
		return c;
	c.flap = !admin;
	if (!is_up && admin) {
		c.say = CARRIER_SAY_ADMIN_DOWN;
	} else if (lost) {
		c.say = CARRIER_SAY_LOST;
		c.lost = lost;
		c.back = is_up;
	} else if (!admin) {
		c.say = CARRIER_SAY_BACK;
	}
	return c;
}
