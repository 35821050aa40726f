/* SPDX-License-Identifier: MIT */
/*
 * The systemd notification protocol: one datagram to $NOTIFY_SOCKET.
 * Written here because it is ten lines and libsystemd is a large dependency
 * for a daemon that also runs without systemd.
 */
#ifndef BONDD_SD_NOTIFY_H
#define BONDD_SD_NOTIFY_H

#include <stdint.h>

/* Sends state ("READY=1", ...); a no-op without NOTIFY_SOCKET.  0 or -errno. */
int sd_notify_send(const char *state);
/* The watchdog interval in microseconds from WATCHDOG_USEC (and
 * WATCHDOG_PID when set), or 0 when no watchdog is asked for. */
uint64_t sd_watchdog_usec(void);

#endif
