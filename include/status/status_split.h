/* SPDX-License-Identifier: MIT */
/*
 * bondd's side of the privilege split (status_ipc.h): it binds the status
 * socket, starts the status process (and starts it again if it dies or
 * stops answering), forks a snapshot when the status process asks for one
 * and bondd's state has changed since the last, and answers the few typed
 * requests only bondd can: a reload, a link check, the /proc text a
 * CAP_NET_ADMIN client may see.  It never reads a client's socket: a
 * client's descriptor reaches it only for SO_PEERCRED and /proc/PID, to
 * judge again what the status process said of the client.
 *
 * The daemon adds status_split_fd() to its loop and calls
 * status_split_dispatch() when it is readable, as it did for the server.
 * The work any client can cause here is bounded: at most
 * SPLIT_REQS_PER_S requests from the status process a second (a burst of
 * SPLIT_REQS_BURST), and a snapshot at most every SNAP_FORK_GAP_MS.
 */
#ifndef BONDD_STATUS_SPLIT_H
#define BONDD_STATUS_SPLIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "event_log.h"
#include "status_server.h"
#include "status_pacing.h"

#define SPLIT_REQS_BURST 200
#define SPLIT_REQS_PER_S 100
/* Events queued for a status process that does not read: past this they
 * are dropped (and counted) rather than held without end. */
#define SPLIT_MAX_QUEUED (4u << 20)

struct status_split;

/* The link check for the bonds req names (none: all), started when start;
 * returns how many of them still have one under way. */
typedef int (*status_req_check_fn)(void *ctx, const struct status_request *req, bool start);

/* Binds path (as status_server_open) and starts the status process.
 * 0 or -errno (-EADDRINUSE: another bondd answers there). */
int status_split_open(struct status_split **out, const char *path, status_view_fn view,
		      void *ctx);
int status_split_fd(const struct status_split *s);

/* Why the status process cannot take new clients now (its open-file
 * limit), as it last said, or NULL: part of bondd's impaired health. */
const char *status_split_trouble(const struct status_split *s);
void status_split_set_reload(struct status_split *s, status_reload_fn fn);
/* The reloads, tries, confirms and trial-waits status_split_dispatch took
 * and allowed, done and answered now: called by the loop at the end of its
 * turn, so that the reload's work never runs inside the dispatch. */
void status_split_answer_asks(struct status_split *s);
/* A settle (bondd-status --settle) waits among them: before
 * status_split_answer_asks, the loop reads and handles every kernel event
 * queued now, as in a turn of its own (the barrier's promise). */
bool status_split_settle_pending(const struct status_split *s);
void status_split_set_trial(struct status_split *s, status_trial_fn fn);
/* Clients waiting for a trial (trial-wait) at most; more are answered busy. */
#define SPLIT_MAX_TRIAL_WAITERS 32
/* Trial `trial` ended: each client waiting for it gets its answer, an ok
 * reply with msg and the bonds' health (code 0: confirmed) or an error
 * with code and msg (SE_ROLLED_BACK). */
void status_split_trial_ended(struct status_split *s, uint32_t trial, int code, const char *msg);
void status_split_set_check(struct status_split *s, status_req_check_fn fn);
/* Called when a snapshot is asked for, before deciding whether the last one
 * holds: bondd's own looks that a status request takes (the error
 * counters).  True when they changed something (a new snapshot is made). */
typedef bool (*status_refresh_fn)(void *ctx);
void status_split_set_refresh(struct status_split *s, status_refresh_fn fn);
/* Handles what is ready; never blocks on the status process. */
void status_split_dispatch(struct status_split *s);
/* bondd's state changed: the next snapshot asked for is a new one. */
void status_split_changed(struct status_split *s);
/* An event for the watchers; sent by status_split_flush. */
void status_split_broadcast(struct status_split *s, const struct event *e);
void status_split_flush(struct status_split *s);
/* A link check ended. */
void status_split_check_done(struct status_split *s);
/* SIGCHLD: reaps the children; a status process that ended is started again. */
void status_split_reap(struct status_split *s);
/* On each watchdog tick: a status process that missed two pings in a row
 * is ended and started again. */
void status_split_watchdog(struct status_split *s);
/* The status process's pid (tests, logs); 0 when none runs. */
pid_t status_split_pid(const struct status_split *s);
/* Ends the children, closes, removes the socket file. */
void status_split_close(struct status_split *s);

#endif
