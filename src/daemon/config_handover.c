/* SPDX-License-Identifier: MIT */
/* What a new configuration takes over from the running one
 * (config_handover.h).  Pure. */
#include "config_handover.h"

#include <stdio.h>
#include <string.h>

bool handover_dropped(const struct desired_bond *b, const struct desired *next)
{
	return !b->absent && !desired_find_bond(next, b->name);
}

void handover_bridges(const struct desired *running, struct desired *next)
{
	for (size_t i = 0; i < next->n_bonds; i++) {
		struct desired_bond *nb = &next->bonds[i];
		const struct desired_bond *ob = desired_find_bond(running, nb->name);
		if (ob && ob->bridge[0] && strcmp(ob->bridge, nb->bridge) != 0)
			snprintf(nb->bridge_was, sizeof(nb->bridge_was), "%s", ob->bridge);
		else if (ob)
			snprintf(nb->bridge_was, sizeof(nb->bridge_was), "%s", ob->bridge_was);
	}
}
