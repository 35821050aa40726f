/* SPDX-License-Identifier: MIT */
/*
 * Reading a file whole: a configuration (at most so many bytes, "too large"
 * known without a stat) or a /proc text of any length (grown as it comes:
 * /proc/net/bonding's 802.3ad text is about 640 bytes a slave).
 */
#ifndef BONDD_WHOLE_FILE_H
#define BONDD_WHOLE_FILE_H

#include <stddef.h>

/* Reads FD until its end or until BUF's CAP bytes are full, again after
 * EINTR; *LEN the bytes read.  A caller that takes at most MAX bytes asks
 * for MAX + 1: *LEN > MAX says "too large".  0, or -errno of the read. */
int whole_fd_read(int fd, char *buf, size_t cap, size_t *len);

/* Reads PATH to its end into a new buffer (*TEXT, NUL-terminated; *LEN
 * bytes before the NUL), which starts at 16 KiB and doubles while it stays
 * within MAX bytes.  0, -errno of the open or a read, or -ENOMEM when the
 * memory or MAX runs out; *TEXT is NULL on an error. */
int whole_file_read(const char *path, size_t max, char **text, size_t *len);

#endif
