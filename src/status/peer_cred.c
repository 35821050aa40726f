/* SPDX-License-Identifier: MIT */
#include "peer_cred.h"
#include "small_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#define CAP_NET_ADMIN_BIT 12

bool status_text_has_net_admin(const char *status, unsigned uid)
{
	const char *uid_line = strstr(status, "\nUid:");
	const char *cap_line = strstr(status, "\nCapEff:");
	unsigned ids[4];
	uint64_t caps;

	/* Root when it connected (SO_PEERCRED's uid is the effective uid at
	 * connect()), and root still in every uid: a client that connected
	 * unprivileged and then exec()ed a set-uid or file-capability program
	 * keeps its connection open in another process, and the kernel would
	 * not show that process the lines.  A non-root process holding
	 * CAP_NET_ADMIN is refused too: bondd cannot tell whether it held the
	 * capability when it connected, so it errs on the side that hides. */
	if (uid != 0 || !uid_line || !cap_line)
		return false;
	if (sscanf(uid_line, "\nUid: %u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
		return false;
	for (size_t i = 0; i < 4; i++)
		if (ids[i] != 0)
			return false;
	if (sscanf(cap_line, "\nCapEff: %" SCNx64, &caps) != 1)
		return false;
	return (caps >> CAP_NET_ADMIN_BIT) & 1;
}

/* The kernel asks for the capability in the initial user namespace.  A
 * process in another namespace (a container) has its own uid map; ours is
 * the initial one's.  Stat-ing /proc/PID/ns/user would say it directly,
 * but needs more privilege than a bondd holding only CAP_NET_ADMIN has,
 * while uid_map is readable by anyone. */
static bool same_uid_map(pid_t pid)
{
	char path[64], ours[512], theirs[512];

	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
	return small_file_read("/proc/self/uid_map", ours, sizeof(ours)) &&
	       small_file_read(path, theirs, sizeof(theirs)) && strcmp(ours, theirs) == 0;
}

bool peer_has_net_admin(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char path[64], text[4096];

	/* Only root can qualify (status_text_has_net_admin): anyone else costs
	 * one system call, not a read of /proc per connection. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0 ||
	    cred.uid != 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)cred.pid);
	text[0] = '\n'; /* so that every field, the first too, follows a newline */
	if (!small_file_read(path, text + 1, sizeof(text) - 1))
		return false;
	return status_text_has_net_admin(text, cred.uid) && same_uid_map(cred.pid);
}

bool status_text_is_user(const char *status, unsigned peer_uid, unsigned own_uid)
{
	const char *uid_line = strstr(status, "\nUid:");
	unsigned ids[4];

	/* A root bondd answers to root by peer_has_net_admin's rules alone:
	 * "the same user" would let in root without the capability, and a
	 * process that connected as root and then dropped to nobody. */
	if (own_uid == 0 || peer_uid != own_uid || !uid_line)
		return false;
	if (sscanf(uid_line, "\nUid: %u %u %u %u", &ids[0], &ids[1], &ids[2], &ids[3]) != 4)
		return false;
	for (size_t i = 0; i < 4; i++)
		if (ids[i] != own_uid)
			return false;
	return true;
}

bool peer_is_own_user(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char path[64], text[4096];

	/* SO_PEERCRED's uid is seen from bondd's user namespace: a peer
	 * from another one shows as its mapped uid, or the overflow uid;
	 * the uid map tells them apart as it does for root. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)cred.pid);
	text[0] = '\n';
	if (!small_file_read(path, text + 1, sizeof(text) - 1))
		return false;
	return status_text_is_user(text, cred.uid, (unsigned)geteuid()) && same_uid_map(cred.pid);
}
