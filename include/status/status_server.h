/* SPDX-License-Identifier: MIT */
/*
 * The status socket (protocol: status_proto.h, bondd(8)).  It owns an epoll
 * set of its own (the listening socket, every client, and one timer for
 * timeouts, armed only while clients are connected); the daemon adds that
 * one fd to its loop and calls status_server_dispatch when it is readable.
 * Every socket is non-blocking, every reply is built from state bondd
 * already holds, and one call does a bounded amount of client work, so no
 * client can hold up the netlink work.
 */
#ifndef BONDD_STATUS_SERVER_H
#define BONDD_STATUS_SERVER_H

#include "event_log.h"
#include "status_render.h"

struct status_server;

/* Fills a view of the daemon's current state for one reply. */
typedef void (*status_view_fn)(void *ctx, struct status_view *out);
/* The linkcheck verb: with start, starts (or joins) a link check of each
 * bond; returns how many of them still have one under way. */
typedef int (*status_check_fn)(void *ctx, const struct desired_bond *const *sel, size_t n,
			       bool start);

/*
 * Binds a stream socket at path, mode 0666 from birth (umask around bind: no
 * window in which it has other permissions).  A stale socket left by a
 * killed bondd is replaced; a live one (another bondd answers) is an error.
 * Returns 0 or -errno.
 */
/* Open files the server takes at most: its listening socket and its
 * clients (status_server_parts.h MAX_CLIENTS, checked there). */
#define STATUS_SERVER_MAX_FDS 257

int status_server_open(struct status_server **out, const char *path,
		       status_view_fn view, void *ctx);
int status_server_fd(const struct status_server *s);
/* Handles whatever is ready; never blocks. */
void status_server_dispatch(struct status_server *s);
/* Without this the linkcheck verb answers with the last results at once. */
void status_server_on_check(struct status_server *s, status_check_fn fn);
/* A link check ended: answers the clients whose checks are all done
 * (in-process; the status process hears of it from bondd, status_front.c). */
void status_server_check_done(struct status_server *s);
/* Applies the configuration file again, before returning: 0 with what was
 * done in msg, or -1 with why it was refused (the running config stays). */
typedef int (*status_reload_fn)(void *ctx, char *msg, size_t len);
/* Enables the reload request (root, or bondd's own user, only). */
void status_server_set_reload(struct status_server *s, status_reload_fn fn);
/*
 * A reload on trial: verb SV_TRY (arg: the seconds), SV_CONFIRM, or
 * SV_TRIAL_WAIT (arg: the trial's number).  Returns 0 with what was done
 * in msg (an ok reply), STATUS_TRIAL_PENDING for SV_TRIAL_WAIT while that
 * trial runs (the answer comes when it ends: status_split_trial_ended),
 * or an enum status_error with why in msg.  The same clients as reload.
 */
#define STATUS_TRIAL_PENDING 1
typedef int (*status_trial_fn)(void *ctx, enum status_verb verb, uint32_t arg, char *msg,
			       size_t len);
/* In-process (tests): a trial-wait whose trial runs is answered busy
 * (only the status process keeps clients waiting for one). */
void status_server_set_trial(struct status_server *s, status_trial_fn fn);
/* Queues an event line for every --watch client (no system call: an event
 * recorded in the middle of a repair must not wait for clients). */
void status_server_broadcast(struct status_server *s, const struct event *e);
/* Sends what broadcast queued; the daemon calls it after its kernel work. */
void status_server_flush(struct status_server *s);
/* Clients connected now (tests). */
size_t status_server_clients(const struct status_server *s);
/* Closes every client and removes the socket file (the status process
 * leaves the file to bondd). */
void status_server_close(struct status_server *s);

/* The socket file bound and listening (status_server_open's rules); the
 * descriptor or -errno. */
int status_socket_bind(const char *path);
/* A server around a socket already listening (the status process's). */
int status_server_open_fd(struct status_server **out, int listen_fd, const char *path);
/* The status process's loop (status_ipc.h): serves listen_fd's clients,
 * asking bondd over parent_fd, until bondd goes.  Returns an exit status. */
int status_process_run(int listen_fd, int parent_fd, const char *path);
/* A snapshot's loop: renders each request read from fd with view, until
 * fd closes.  Returns an exit status. */
int status_snapshot_run(int fd, status_view_fn view, void *ctx);

/* Why new clients wait now (accept() refused for want of a file, retried
 * every ACCEPT_PAUSE_MS), or NULL. */
const char *status_server_trouble(const struct status_server *s);

#endif
