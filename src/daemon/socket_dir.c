/* SPDX-License-Identifier: MIT */
/* The status socket's directory made (daemon_parts.h socket_dir_make). */
#include "daemon_parts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int socket_dir_make(const char *path, char *where, size_t len)
{
	char dir[108];
	struct stat st;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return 0; /* too long for a socket: status_server_open says so */
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *c = dir + 1;; c++) {
		if (*c != '/' && *c != '\0')
			continue;
		char end = *c;
		*c = '\0';
		snprintf(where, len, "%s", dir);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (!end)
			break;
		*c = end;
	}
	if (stat(dir, &st) < 0)
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

