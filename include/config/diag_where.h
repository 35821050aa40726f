/* SPDX-License-Identifier: MIT */
/*
 * Where a configuration error is, without what it says: "FILE:LINE" out of
 * "FILE:LINE: message".  The message may quote the file, which may be
 * readable by root alone; where it is is for anyone who may watch events.
 */
#ifndef BONDD_DIAG_WHERE_H
#define BONDD_DIAG_WHERE_H

#include <stdbool.h>
#include <stddef.h>

/* Copies the "FILE:LINE" of msg into out (cut to len - 1); false, and out
 * empty, when msg has no ":LINE: " at all. */
bool diag_where(const char *msg, char *out, size_t len);

#endif
