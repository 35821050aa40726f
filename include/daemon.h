/* SPDX-License-Identifier: MIT */
/*
 * The daemon: one epoll loop over the netlink event socket, a signalfd, a
 * retry timer and the watchdog timer.  Each wake-up drains the events,
 * plans, executes, and goes back to sleep; nothing wakes it when nothing
 * happens.
 */
#ifndef BONDD_DAEMON_H
#define BONDD_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "action.h"
#include "desired.h"
#include "executor.h"
#include "holds.h"
#include "observer.h"
#include "event_log.h"
#include "runtime.h"
#include "status_server.h"

struct daemon_opts {
	const char *config_path;
	const char *socket_path;
	int event_rcvbuf;         /* 0: the kernel's default */
};

struct daemon {
	struct daemon_opts opts;
	struct desired want;
	struct observer ob;
	struct executor ex;
	struct holds holds;
	struct action_list plan;
	struct bond_runtime *bonds;   /* parallel to want.bonds */
	size_t n_bonds;
	struct link_runtime *links;   /* every configured slave and bond */
	size_t n_links;
	struct event_log events;
	bool config_failed;           /* the last reload was refused */
	int64_t config_success_ms;    /* when a config was last taken */
	struct status_server *server;  /* NULL when the socket is off */
	int epfd, sigfd, retry_fd, watchdog_fd;
	bool stop;
};

/* Runs until SIGTERM/SIGINT; returns an exit status. */
int daemon_main(const struct daemon_opts *opts);

#endif
