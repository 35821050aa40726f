/* SPDX-License-Identifier: MIT */
/*
 * Logging to stderr.  Under systemd (JOURNAL_STREAM set) every line starts
 * with a syslog priority prefix, "<3>", so journald keeps the level, or
 * goes to the journal's own socket with fields (below).
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
#include <stddef.h>

/*
 * Under systemd, every line also goes to the journal itself as a datagram
 * of the journal's native protocol (systemd.journal-fields(7)): MESSAGE,
 * PRIORITY, SYSLOG_IDENTIFIER and, where a line is about a link, INTERFACE=
 * (the bond, and the slave it concerns: both fields, so that
 * `journalctl INTERFACE=bond0` shows its slaves' lines too) and MESSAGE_ID
 * for the kinds of line a catalog describes (data/bondd.catalog).  When
 * the journal's socket cannot be reached, the line goes to stderr as
 * before.
 */
#define LOG_MSGID_HEALTH "f1fe2cd0ee174ccda8d22fa29df21a6d"  /* a bond's health changed */
#define LOG_MSGID_REPAIR "4bd8e144ceae461f8bebb85ce972aaea"  /* a change bondd made ("apply:") */
#define LOG_MSGID_RELOAD_REFUSED "8ea9918ecc04411080f0c742ea1bdffb" /* a reload refused */
#define LOG_MSGID_TRIAL_ROLLED_BACK "226296efdd7140faa8f37ba242854cec" /* a reload on trial put back */

/* What a line is about, for the journal's fields; any member may be NULL. */
struct log_meta {
	const char *bond;
	const char *ifname;     /* a slave (or the bond again: sent once) */
	const char *message_id;
};

void log_init(bool debug);
bool log_debug_enabled(void);
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A line at syslog priority prio (LOG_ERR ... LOG_DEBUG) with its fields. */
void log_meta(int prio, const struct log_meta *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The native protocol's datagram for one line (exposed for the unit test):
 * "KEY=value\n" per field, MESSAGE already escaped; returns its length, or
 * 0 when it does not fit in len. */
size_t log_journal_datagram(int prio, const struct log_meta *m, const char *msg, char *buf,
			    size_t len);

#endif
