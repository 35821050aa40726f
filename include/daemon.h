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
#include "findings.h"
#include "holds.h"
#include "hostcheck.h"
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
	/* One list per check (link check, host checks); each check replaces
	 * its own list when it has looked again. */
	struct findings findings[FSRC__COUNT];
	struct host_obs host;          /* what the host check last read */
	bool host_check_due;           /* hostcheck_run.c: read it again */
	struct status_server *server;  /* NULL when the socket is off */
	int epfd, sigfd, retry_fd, watchdog_fd;
	bool stop;
};

/* Runs until SIGTERM/SIGINT; returns an exit status. */
int daemon_main(const struct daemon_opts *opts);

#endif
