/* SPDX-License-Identifier: MIT */
#include "small_file.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>

bool small_file_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

bool small_file_line(const char *path, char *buf, size_t len)
{
	if (!small_file_read(path, buf, len))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

bool small_file_line_in(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, file);

	return n >= 0 && (size_t)n < sizeof(path) && small_file_line(path, buf, len);
}
