/* SPDX-License-Identifier: MIT */
/*
 * Whether the process at the other end of a UNIX socket holds CAP_NET_ADMIN
 * in the initial user namespace: the test the kernel applies (capable())
 * before it prints the privileged lines of /proc/net/bonding.
 */
#ifndef BONDD_PEER_CRED_H
#define BONDD_PEER_CRED_H

#include <stdbool.h>

/*
 * From SO_PEERCRED's pid and uid, and that process's /proc files: it
 * connected as root (uid 0 in bondd's user namespace), is root still in
 * every uid, its effective capabilities include CAP_NET_ADMIN, and its uid
 * map is ours (a container's root, with a map of its own, holds the
 * capability only in its namespace).  Stricter than the kernel for a
 * non-root process holding CAP_NET_ADMIN, which gets the unprivileged text:
 * the capability may have come after connect(), by exec(), to a process
 * other than the one that reads.  Anything unreadable means unprivileged:
 * the check fails closed.
 */
bool peer_has_net_admin(int fd);

/*
 * Whether the peer is bondd's own user, when that is not root: it connected
 * as bondd's effective uid, every uid of its process is that uid now (not
 * a set-uid program it exec()ed since), and its uid map is ours.  A root
 * bondd answers false: root is judged by peer_has_net_admin alone.
 */
bool peer_is_own_user(int fd);

/* The same test on the text of /proc/PID/status (for unit tests). */
bool status_text_is_user(const char *status, unsigned peer_uid, unsigned own_uid);

/* The same test on the text of /proc/PID/status (for unit tests). */
bool status_text_has_net_admin(const char *status, unsigned uid);

#endif
