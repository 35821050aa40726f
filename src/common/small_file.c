/* SPDX-License-Identifier: MIT */
#include "small_file.h"

#include <fcntl.h>
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
