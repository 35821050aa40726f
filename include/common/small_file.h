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

/* The first line of a small file, as a sysfs attribute holds one value
 * ("1000\n", "full\n"): small_file_read, cut at the first newline. */
bool small_file_line(const char *path, char *buf, size_t len);

/* The same for the file FILE in the folder DIR ("DIR/FILE"); false too
 * when that path does not fit PATH_MAX. */
bool small_file_line_in(const char *dir, const char *file, char *buf, size_t len);

#endif
