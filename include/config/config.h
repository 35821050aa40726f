/* SPDX-License-Identifier: MIT */
/*
 * The config file: /etc/bondd/bondd.conf, one [section] per bond.
 * Parsing builds a complete `struct desired` or nothing: every error is
 * reported as "FILE:LINE: message" and the caller's state is left alone.
 */
#ifndef BONDD_CONFIG_H
#define BONDD_CONFIG_H

#include <stddef.h>

#include "desired.h"

/* Messages collected while parsing, each "FILE:LINE: message". */
/* Where an error is, as data: its file, and its line (0: the file as a
 * whole, as "cannot read").  Anyone may watch events, and a message may
 * quote a file only root may read: where it is can be shown to all. */
struct config_place {
	char *file;
	unsigned line;
};

struct config_diag {
	char **msgs;                  /* "FILE[:LINE]: message", for people */
	struct config_place *places;  /* parallel to msgs: the same place */
	size_t n, cap, cap_places;
	/* "FILE:LINE: warning: message": the configuration is valid and is
	 * used, but is probably not what was meant (no link monitoring, an MTU
	 * taken from the default). */
	char **warnings;
	size_t n_warnings, cap_warnings;
};

void config_diag_free(struct config_diag *diag);

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
 * earlier file.  An unreadable file is one message ("FILE: cannot read:
 * reason") and -errno; a missing PATH.d is no drop-ins.
 */
int config_load(const char *path, struct desired *out, struct config_diag *diag);

/* The drop-in directory of a config file: path with ".d" appended.  The
 * caller frees it; NULL when out of memory. */
char *config_dropin_dir(const char *path);

#endif
