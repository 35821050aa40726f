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
#include "bondd_args.h"
#include "desired.h"
#include "executor.h"
#include "counters_eval.h"
#include "findings.h"
#include "lldp_io.h"
#include "breather.h"
#include "holds.h"
#include "linkcheck_io.h"
#include "hostcheck.h"
#include "observer.h"
#include "plan_touch.h"
#include "event_log.h"
#include "runtime.h"
#include "status_split.h"
#include "reload_verdict.h"
#include "trial.h"
#include "udev_wait.h"

/* One status reply's reading of live link facts (daemon_live.c): its time
 * budget, and the text of /proc/net/dev, read once for all the links the
 * reply shows. */
struct live_facts {
	uint64_t budget_end_us;   /* monotonic; past it, no more reads */
	char *netdev;             /* /proc/net/dev, NUL-terminated when ok */
	size_t netdev_len, netdev_cap;
	bool netdev_loaded, netdev_ok;
};

/* The link check's paths per slave of one tried bond when its trial began. */
struct trial_paths {
	char slave[BONDD_MAX_SLAVES][IFNAMSIZ];
	uint16_t before[BONDD_MAX_SLAVES];
	size_t n;
};

/* A reload on trial (daemon_trial.c; the decision: trial.h). */
struct daemon_trial {
	bool running;
	bool confirmed;               /* a confirm arrived (judged at once) */
	uint32_t id;                  /* the running or last trial, from 1 */
	uint32_t seconds;
	int64_t start_ms, settle_ms, deadline_ms; /* monotonic */
	int64_t start_wall_ms;
	struct desired prev;          /* the configuration before it: put back */
	struct trial_bond *bonds;     /* the tried configuration's bonds' facts */
	struct trial_paths *paths;    /* ... and their slaves' proven paths */
	size_t n_bonds;
	struct status_trial shown;    /* for the status replies */
};

struct daemon {
	struct daemon_opts opts;
	struct desired want;
	struct observer ob;
	struct executor ex;
	struct holds holds;
	bool reload_pending;     /* SIGHUP read, reload not done yet */
	bool rebuild_ok;         /* converging for a start or reload */
	struct action_list plan;
	struct bond_runtime *bonds;   /* parallel to want.bonds */
	size_t n_bonds;
	/* The bonds this wake-up plans and judges again (plan_touch.h),
	 * parallel to want.bonds, and whether every one is (start, reload,
	 * a re-read of every link, a slave entry's name changed). */
	struct plan_touch touch;
	bool *touched;
	bool touched_all;
	bool lldp_due;                /* a link came, went or was renamed */
	bool identity_due;            /* ... or changed an altname, MAC or path */
	uint64_t health_fp;           /* what every bond's health shares, last judged */
	struct link_runtime *links;   /* every configured slave and bond */
	size_t n_links;
	size_t *link_at;              /* parallel to want.bonds: its first record in links */
	struct event_log events;
	/* One list per check (link check, host checks); each check replaces
	 * its own list when it has looked again. */
	struct findings findings[FSRC__COUNT];
	struct host_obs host;          /* what the host check last read */
	/* The slaves' error counters at the last look (counters_eval.h),
	 * every configured slave in config order; taken when a status client
	 * asks, at most every COUNTERS_LOOK_MS. */
	struct slave_counts *counts;
	size_t n_counts;
	int64_t counts_ms;             /* monotonic ms of that look, 0: none */
	bool host_check_due;           /* hostcheck_run.c: read it again */
	bool host_nics_due;            /* ... the NICs of links marked host_due */
	bool config_failed;           /* the last reload was refused */
	int64_t config_success_ms;    /* when a config was last taken */
	struct status_split *server;   /* NULL when the socket is off */
	struct linkcheck *lc;          /* the link check; NULL when it could not start */
	struct lldp_rx *lldp;          /* LLDP receive (lldp_io.h); NULL when it could not start */
	int epfd, sigfd, retry_fd, watchdog_fd;
	/* Wake-ups in a row that ended at the pass limit with the bonds still
	 * differing, and when the retry timer brings the next one (0: none). */
	unsigned unsettled;
	uint64_t unsettled_retry_ms;
	bool stop;
	char status_line[1024];        /* the last STATUS= sent */
	/* Why the last reload was refused, for STATUS= until one is taken
	 * (reload_refusal_text; verdict RELOAD_ACCEPT: none). */
	struct reload_refusal reload_refused;
	struct udev_wait udev;        /* new links wait for udev (udev_wait.h) */
	char stale[128];              /* health text while re-reads fail */
	char impaired[320];           /* health text while a limit is reached */
	size_t fd_soft;               /* RLIMIT_NOFILE as raised at start */
	struct kernel_caps caps_logged; /* what was last said about them */
	struct breather breather;     /* pauses in long work (breather.h) */
	struct live_facts live;       /* of the status reply being made */
	uint32_t identity_said;       /* daemon_identity.c: the problems last logged */
	struct daemon_trial trial;    /* a reload on trial */
};

/* Runs until SIGTERM/SIGINT; returns an exit status. */
int daemon_main(const struct daemon_opts *opts);

#endif
