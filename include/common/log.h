/* SPDX-License-Identifier: MIT */
/*
 * Logging to stderr.  Under systemd (JOURNAL_STREAM set) every line starts
 * with a syslog priority prefix, "<3>", so journald keeps the level.
 *
 * What the levels mean (bondd(8), LOGGING):
 *   err      something bondd tried failed (a kernel request, a reload)
 *   warning  drift someone or something else caused (a managed bond
 *            deleted, a slave released by hand), or a state bondd cannot fix
 *   notice   a change bondd made to the kernel (every "apply:" line)
 *   info     what bondd is doing (start, reload, carrier changes)
 *   debug    with --debug only
 */
#ifndef BONDD_LOG_H
#define BONDD_LOG_H

#include <stdbool.h>

void log_init(bool debug);
bool log_debug_enabled(void);
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
