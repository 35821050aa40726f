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

struct daemon_opts {
	const char *config_path;
	const char *socket_path;
	int event_rcvbuf;         /* 0: the kernel's default */
};

/* What bondd saw happen to one configured link, for logs and status. */
struct link_runtime {
	char name[IFNAMSIZ];
	unsigned long carrier_losses; /* carrier up -> down transitions */
	time_t last_carrier_change;
};

/* What bondd did and failed to do for one configured bond. */
struct bond_runtime {
	char name[IFNAMSIZ];
	unsigned long actions;        /* requests made on its behalf */
	unsigned long errors;
	char last_error[320];
	time_t last_error_time;
	char last_action[256];
	time_t last_action_time;
	char notes[512];              /* the planner's current complaints */
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
	int epfd, sigfd, retry_fd, watchdog_fd;
	bool stop;
};

/* Runs until SIGTERM/SIGINT; returns an exit status. */
int daemon_main(const struct daemon_opts *opts);

#endif
