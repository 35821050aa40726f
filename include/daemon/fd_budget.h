/* SPDX-License-Identifier: MIT */
/*
 * Open files: what a configuration needs, and the limit raised to serve
 * it.  A service gets 1024 open files by default (systemd's soft
 * RLIMIT_NOFILE, for select()'s sake; the hard limit is far above); bondd
 * uses no select(), so it takes the hard limit at start.  What a
 * configuration needs is counted so that --check and the start say so
 * when the limit cannot serve it, instead of repairs and replies failing
 * one by one later.
 */
#ifndef BONDD_FD_BUDGET_H
#define BONDD_FD_BUDGET_H

#include <stddef.h>

#include "desired.h"

/* bondd's own: netlink sockets (observer, executor, a fresh one after a
 * lost reply), the epoll sets, timers and signalfd, a /proc or /sys file
 * being read, the LLDP and link check sockets shared by every slave. */
#define FD_BUDGET_BASE 48

/*
 * The open-file limit that serves `want`: one whose packet ceiling
 * (fd_budget_packet_ceiling) holds FD_BUDGET_BASE and one packet socket
 * per slave the link check must bind to (linkcheck_sockets_needed), and
 * the two shared ones.  Pure.
 */
size_t fd_budget_need(const struct desired *want, size_t status_clients);

/*
 * The open files packet sockets may take, of a limit of `soft`: the rest
 * is kept for the status socket's clients and bondd's own (netlink,
 * /proc), so that repairs and replies go on when slaves outnumber the
 * limit: a quarter of it, at most status_clients + FD_BUDGET_BASE.  Pure.
 */
size_t fd_budget_packet_ceiling(size_t soft, size_t status_clients);

/* Raises the soft RLIMIT_NOFILE to the hard one; *soft and *hard get the
 * limits as they are afterwards.  0 or -errno. */
int fd_limit_raise(size_t *soft, size_t *hard);

#endif
