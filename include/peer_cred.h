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
 * From SO_PEERCRED's pid and uid, and that process's /proc files: its
 * effective capabilities must include CAP_NET_ADMIN, its real uid must still
 * be the one the socket recorded (a pid reused by another user's process
 * fails), and its uid map must be ours (a container's root, with a map of
 * its own, holds the capability only in its namespace).  Anything
 * unreadable means unprivileged: the check fails closed.
 */
bool peer_has_net_admin(int fd);

/* The same test on the text of /proc/PID/status (for unit tests). */
bool status_text_has_net_admin(const char *status, unsigned uid);

#endif
