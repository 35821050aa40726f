/* SPDX-License-Identifier: MIT */
/*
 * What a new configuration takes over from the running one when it is
 * applied (config_handover.c, pure; daemon.c apply_config acts on it).
 */
#ifndef BONDD_CONFIG_HANDOVER_H
#define BONDD_CONFIG_HANDOVER_H

#include <stdbool.h>

#include "desired.h"

/*
 * Whether the running configuration's bond b is dropped by next: managed
 * now (not to be deleted), and not in next.  bondd leaves it in place as
 * it is, unmanaged: one read of a file caught half-written must not
 * delete a storage network (deleting takes "state = absent", bondd(8)).
 */
bool handover_dropped(const struct desired_bond *b, const struct desired *next);

/*
 * Each bond of next remembers the bridge the running configuration named
 * for it (bridge_was, desired.h): the bridge it names now when next
 * changes it, else the one it remembered.  A bridge the running file
 * named is bondd's own choice, so the bond may be moved from it
 * (uppers.h bridge_state); a bond new in next remembers none.
 */
void handover_bridges(const struct desired *running, struct desired *next);

#endif
