/* SPDX-License-Identifier: MIT */
/* Reading a file whole (whole_file.h). */
#include "whole_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int whole_fd_read(int fd, char *buf, size_t cap, size_t *len)
{
	size_t n = 0;

	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return 0;
}

/* The first size, and the room left below which it doubles before a read. */
#define WHOLE_FIRST 16384
#define WHOLE_ROOM 4096

int whole_file_read(const char *path, size_t max, char **text, size_t *len)
{
	size_t used = 0, cap = WHOLE_FIRST;
	ssize_t n = 0;
	char *buf;

	*text = NULL;
	*len = 0;
	if (max < cap || !(buf = malloc(cap)))
		return -ENOMEM;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = -errno;
		free(buf);
		return err;
	}
	for (;;) {
		if (cap - used < WHOLE_ROOM) {
			char *more = cap <= max / 2 ? realloc(buf, cap * 2) : NULL;
			if (!more) {
				n = -1;
				errno = ENOMEM;
				break;
			}
			buf = more;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	int err = n < 0 ? -errno : 0;
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}
