/* SPDX-License-Identifier: MIT */
#include "peer_cred.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#define CAP_NET_ADMIN_BIT 12

bool status_text_has_net_admin(const char *status, unsigned uid)
{
	const char *uid_line = strstr(status, "\nUid:");
	const char *cap_line = strstr(status, "\nCapEff:");
	unsigned real;
	uint64_t caps;

	if (!uid_line || !cap_line)
		return false;
	if (sscanf(uid_line, "\nUid: %u", &real) != 1 || real != uid)
		return false;
	if (sscanf(cap_line, "\nCapEff: %" SCNx64, &caps) != 1)
		return false;
	return (caps >> CAP_NET_ADMIN_BIT) & 1;
}

static bool same_user_ns(pid_t pid)
{
	char path[64];
	struct stat ours, theirs;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	return stat("/proc/self/ns/user", &ours) == 0 && stat(path, &theirs) == 0 &&
	       ours.st_dev == theirs.st_dev && ours.st_ino == theirs.st_ino;
}

bool peer_has_net_admin(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char path[64], text[4096];

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)cred.pid);
	int sfd = open(path, O_RDONLY | O_CLOEXEC);
	if (sfd < 0)
		return false;
	ssize_t n = read(sfd, text + 1, sizeof(text) - 2);
	close(sfd);
	if (n <= 0)
		return false;
	text[0] = '\n'; /* so that every field, the first too, follows a newline */
	text[n + 1] = '\0';
	return status_text_has_net_admin(text, cred.uid) && same_user_ns(cred.pid);
}
