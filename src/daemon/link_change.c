/* SPDX-License-Identifier: MIT */
/* What a link's change means beside the plan (link_change.h).  Pure. */
#include "link_change.h"

#include <string.h>
#include <net/if.h>

struct link_change link_change_of(const struct obs_link *old, const struct obs_link *now)
{
	struct link_change c = {0};

	if (!old || !now)
		return (struct link_change){.lldp = true, .matches = true, .speed = true};
	c.lldp = strcmp(old->name, now->name) != 0;
	c.matches = c.lldp || old->n_altnames != now->n_altnames ||
		    memcmp(old->altnames, now->altnames, sizeof(old->altnames)) != 0 ||
		    old->has_perm_addr != now->has_perm_addr ||
		    memcmp(old->perm_addr, now->perm_addr, sizeof(old->perm_addr)) != 0 ||
		    strcmp(old->id_path, now->id_path) != 0 || old->dev_port != now->dev_port;
	c.speed = (old->flags & IFF_LOWER_UP) != (now->flags & IFF_LOWER_UP);
	return c;
}
