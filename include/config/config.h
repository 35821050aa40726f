/* SPDX-License-Identifier: MIT */
/*
 * The config file: /etc/bondd/bondd.conf, one [section] per bond.
 * Parsing builds a complete `struct desired` or nothing: every error is
 * reported with its file and line and the caller's state is left alone.
 */
#ifndef BONDD_CONFIG_H
#define BONDD_CONFIG_H

#include <stddef.h>

#include "desired.h"

/* How bad a diagnostic is: an error refuses the whole configuration; a
 * warning leaves it valid and used, but probably not what was meant (no
 * link monitoring, an MTU taken from the default). */
enum config_severity {
	CONFIG_ERROR,
	CONFIG_WARNING,
};

/*
 * One thing the parser found, as data; config_diagnostic_format makes the
 * line people read.  file and line say where it is, and anyone may watch
 * events: text may quote a file only root may read, so where it is can be
 * shown to all, what it says only to root and the log.
 */
struct config_diagnostic {
	char *file;
	unsigned line;                  /* 0: the file as a whole ("cannot read") */
	enum config_severity severity;
	char *text;                     /* the message, without file, line or severity */
};

/* What parsing found: the errors in order of file and line (a line's own
 * in the order found), then the warnings in the same order. */
struct config_diag {
	struct config_diagnostic *items;
	size_t n_items, cap_items;
};

void config_diag_free(struct config_diag *diag);

/* How many diagnostics of that severity diag holds. */
size_t config_diag_count(const struct config_diag *diag, enum config_severity severity);

/* The first diagnostic of that severity, or NULL. */
const struct config_diagnostic *config_diag_first(const struct config_diag *diag,
						  enum config_severity severity);

/*
 * The line people read, the only place it is made: "FILE:LINE: text",
 * "FILE:LINE: warning: text", or without ":LINE" for the file as a whole.
 * The caller frees it; NULL when out of memory.
 */
char *config_diagnostic_format(const struct config_diagnostic *d);

/*
 * Parses text (len bytes, need not be NUL-terminated) named `name` in
 * messages.  On success fills *out (the caller frees it with desired_free)
 * and returns 0.  On any error returns -EINVAL with every error found in
 * diag, and leaves *out untouched.  -ENOMEM when out of memory.
 */
int config_parse(const char *name, const char *text, size_t len,
		 struct desired *out, struct config_diag *diag);

/*
 * Reads and parses the file at path, then every drop-in PATH.d/NAME.conf in
 * lexical order of NAME (bondd.conf(5)), as one configuration: a drop-in may
 * define bonds of its own and add address lines to a bond defined in an
 * earlier file.  An unreadable file is one error at line 0 ("FILE: cannot
 * read: reason") and -errno; a missing PATH.d is no drop-ins.
 */
int config_load(const char *path, struct desired *out, struct config_diag *diag);

/*
 * config_parse and config_load for the running kernel, `kver` (KVER(6, 1);
 * 0 when unknown, which is config_parse and config_load): a value that
 * kernel refuses (kernel_caps_value_refused: ad_select = actor_port_prio
 * before 6.18) is an error at its FILE:LINE, so that --check, a reload and
 * the start refuse the file before anything is touched, instead of taking
 * a bond down for a request the kernel then fails.
 */
int config_parse_kernel(const char *name, const char *text, size_t len, uint16_t kver,
			struct desired *out, struct config_diag *diag);
int config_load_kernel(const char *path, uint16_t kver, struct desired *out,
		       struct config_diag *diag);

/* The drop-in directory of a config file: path with ".d" appended.  The
 * caller frees it; NULL when out of memory. */
char *config_dropin_dir(const char *path);

#endif
