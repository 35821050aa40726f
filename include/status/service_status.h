/* SPDX-License-Identifier: MIT */
/*
 * The one line systemd shows as the service's status (sd_notify STATUS=,
 * `systemctl status bondd`): how many bonds and how each one is, for
 * example "2 bonds: bond0 healthy, bond1 degraded (e2 does not exist)".
 * Pure: built from the same bond views (bond_view.h), health judged once
 * per bond, as the status socket's replies.
 */
#ifndef BONDD_SERVICE_STATUS_H
#define BONDD_SERVICE_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "bond_view.h"

#include "status_render.h"

/* Past this many bonds the healthy ones are counted, not named. */
#define SERVICE_STATUS_NAMED 4

/* Writes the line (no "STATUS=", no newline) into out, cut to len - 1. */
void service_status_text(const struct status_view *v, char *out, size_t len);

/* One bond as the line shows it: its health as last judged, and why. */
struct service_bond {
	const char *name;
	enum status_health health;
	const char *why;     /* "" when healthy */
};

/* The same line from each bond's health as last judged (the daemon keeps
 * it per bond and judges again only the bonds a wake-up touched). */
void service_status_of(const struct service_bond *b, size_t n, char *out, size_t len);

/*
 * The log's line for a bond whose health was judged again (bondd(8),
 * LOGGING: "BOND: health: FROM -> TO[: WHY]"), or false when it is the
 * health last logged.  logged false: none logged yet (FROM "unknown").
 */
bool health_change_line(bool logged, enum status_health was, const struct bond_view *b,
			char *out, size_t len);

#endif
