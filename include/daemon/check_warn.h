/* SPDX-License-Identifier: MIT */
/*
 * bondd --check's own warnings (check_warn.c), shaped as the parser's
 * diagnostics are (config_diagnostic_format: FILE:LINE: warning: ...), and
 * the one about files the service cannot read.  main.c writes them to
 * stderr.
 */
#ifndef BONDD_CHECK_WARN_H
#define BONDD_CHECK_WARN_H

#include <stdio.h>

#include "config.h"

/* A diagnostic as the parser's own line, on to. */
void check_print_diagnostic(FILE *to, const struct config_diagnostic *d);

/* A warning about the file at path (line 0: the whole file), on to. */
void check_warning(FILE *to, const char *path, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * The service runs as a dynamic user (DynamicUser=yes in bondd.service),
 * neither a file's owner nor in its group: path and its drop-ins
 * (config_dropin_dir, *.conf) must be readable by others and their
 * directories searchable.  --check runs as root, which reads any file, so
 * it says so on to: one warning per file, the mode and the chmod that
 * mends it.
 */
void check_readable_by_service(const char *path, FILE *to);

#endif
