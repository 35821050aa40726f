/* SPDX-License-Identifier: MIT */
/*
 * Reading a small kernel file (/proc, /sys) whole, in one read(): such files
 * are generated at open and fit a page, so one read is the whole of it.
 */
#ifndef BONDD_SMALL_FILE_H
#define BONDD_SMALL_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Reads PATH into BUF (LEN bytes, at least 2) and NUL-terminates it; false
 * when it cannot be opened or is empty. */
bool small_file_read(const char *path, char *buf, size_t len);

#endif
