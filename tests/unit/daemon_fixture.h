/* SPDX-License-Identifier: MIT */
/*
 * A running daemon's state built in memory for the unit tests of
 * src/daemon/'s glue (test_daemon_*): its configuration, the runtime
 * records for it, every bond touched; no kernel (an empty picture of it
 * until a test puts links in), no socket, no link check, no LLDP.
 */
#ifndef BONDD_TEST_DAEMON_FIXTURE_H
#define BONDD_TEST_DAEMON_FIXTURE_H

#include "daemon_parts.h"

/* Bonds and their slaves by name: "bond0:eth0,eth1 bond1:eth2" (a bond
 * with no slaves: "bond0:").  Calls fail() when it cannot be built. */
struct daemon *fixture_daemon(const char *spec);

/* The same from bondd.conf text (config_parse as "bondd.conf"), for
 * entries by mac:, path: or altname. */
struct daemon *fixture_daemon_conf(const char *conf);

/* want made from spec as fixture_daemon makes it (heap: desired_free). */
void fixture_want(struct desired *want, const char *spec);

/* A link in the daemon's picture of the kernel: up, with carrier. */
struct obs_link *fixture_link(struct daemon *d, const char *name, int ifindex,
			      const char *kind);

/* The last event recorded, or NULL. */
const struct event *fixture_last_event(const struct daemon *d);

/* Everything the daemon holds freed, and the daemon. */
void fixture_done(struct daemon *d);

#endif
