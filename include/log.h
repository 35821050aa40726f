/* SPDX-License-Identifier: MIT */
/*
 * Logging to stderr.  Under systemd (JOURNAL_STREAM set) every line starts
 * with a syslog priority prefix, "<3>", so journald keeps the level.
 */
#ifndef BONDD_LOG_H
#define BONDD_LOG_H

#include <stdbool.h>

void log_init(bool debug);
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
