/* SPDX-License-Identifier: MIT */
/* bondd's side of the privilege split (status_split.h, status_ipc.h). */
#include "status_split.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "clock.h"
#include "log.h"
#include "peer_cred.h"
#include "status_ipc.h"
#include "status_reply.h"
#include "token_bucket.h"

#define TAG_CHILD 1
#define TAG_TIMER 2
/* A status process that ended is started again after this, doubling up
 * to the most while it keeps ending within a minute of its start. */
#define RESTART_FIRST_MS 100
#define RESTART_MAX_MS 30000
#define RESTART_SETTLED_MS 60000

struct status_split {
	int epfd, timer_fd, listen_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	status_view_fn view;
	void *ctx;
	status_reload_fn reload;
	status_trial_fn trial;
	/* Requests of the status process waiting for a trial to end
	 * (trial-wait): forgotten with the status process that made them. */
	struct {
		uint32_t id, trial;
	} waiters[SPLIT_MAX_TRIAL_WAITERS];
	size_t n_waiters;
	/* Reloads, tries, confirms, trial-waits and settles allowed and
	 * waiting for the end of bondd's turn (status_split_answer_asks); at
	 * most a turn's budget of requests, forgotten with the status process. */
	struct split_ask {
		uint32_t id, arg;
		uint16_t type;
		bool privileged;       /* the client holds CAP_NET_ADMIN */
	} asks[SPLIT_REQS_BURST];
	size_t n_asks;
	status_req_check_fn check;
	status_refresh_fn refresh;
	int u_fd;                  /* to the status process; -1: none runs */
	pid_t u_pid;
	int64_t u_started_ms;
	struct ipc_reader rd;
	struct ipc_writer wr;
	struct snap_pacing pacing;
	uint32_t snap_ticket;      /* the request a snapshot answers */
	struct token_bucket budget;
	bool paused;               /* out of budget: the status process is not read */
	unsigned restarts;         /* in a row, each within a minute of its start */
	int64_t restart_at_ms;     /* 0: none due */
	unsigned pings_missed;
	bool ping_out;
	uint64_t dropped;          /* events not queued: the status process does not read */
	bool fork_failed;          /* said once until a fork works again */
	char trouble[96];          /* the status process's IPC_TROUBLE, "" none */
	int64_t timer_ms;
};

/* --- children ----------------------------------------------------------- */

/* In a child just forked: what a process with no privilege needs.  keep
 * becomes descriptor 3 (and keep2 4), every other one above 2 is closed:
 * the netlink and packet sockets, the epoll sets and the signalfd stay
 * with bondd.  Without capset (a system call filter refuses it), the status
 * process (exec_path: the socket's path) becomes bondd --status-process and
 * a snapshot confines itself.  Never returns on failure. */
static void become_unprivileged(pid_t parent, int keep, int keep2, const char *what,
				const char *exec_path)
{
	sigset_t none;

	/* Ends with bondd, whichever way bondd ends. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	/* Ended by bondd, not by the signals meant for it: Ctrl-C in a
	 * terminal or systemd's stop reach the whole group, and bondd closes
	 * the socket (or PR_SET_PDEATHSIG kills) when it ends itself. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	/* Up to the slots 3 and 4, from wherever they are. */
	int a = fcntl(keep, F_DUPFD_CLOEXEC, 10), b = keep2 >= 0 ? fcntl(keep2, F_DUPFD_CLOEXEC, 10) : -1;
	if (a < 0 || dup2(a, 3) < 0 || (keep2 >= 0 && (b < 0 || dup2(b, 4) < 0)))
		_exit(1);
	unsigned first = keep2 >= 0 ? 5 : 4;
	if (close_range(first, ~0u, 0) < 0)
		for (int fd = (int)first; fd < 4096; fd++)
			close(fd);
	int err = ipc_drop_privileges(exec_path != NULL);
	if (err == 1) {
		/* Not root: exec bondd again, which leaves this user no
		 * capability (the ambient set is cleared; execve computes the
		 * rest from the file, which has none: security/commoncap.c,
		 * cap_bprm_creds_from_file).  Descriptors 3 and 4 stay open
		 * across it (dup2 cleared close-on-exec). */
		char *argv[] = {(char *)"bondd", (char *)"--status-process", (char *)exec_path,
				log_debug_enabled() ? (char *)"--debug" : NULL, NULL};
		execv("/proc/self/exe", argv);
		err = -errno;
	} else if (err == -EPERM && !exec_path && getuid() != 0) {
		/* A snapshot cannot exec (it is the picture): it keeps its
		 * capabilities permitted, and confines itself so that nothing
		 * can use them (status_ipc.h, ipc_confine). */
		err = ipc_confine();
	}
	if (err < 0) {
		log_err("%s: cannot drop privileges (%s): not serving clients with them", what,
			strerror(-err));
		_exit(1);
	}
}

static void arm_timer(struct status_split *s);

/* A child with a stream socket pair to it (sv[0] the parent's end, sv[1]
 * the child's): the pid, 0 in the child, or -errno with nothing left open. */
static pid_t fork_with_pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	fflush(NULL); /* nothing of bondd's buffers is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int err = -errno;
		close(sv[0]);
		close(sv[1]);
		return err;
	}
	return pid;
}

static int start_status_process(struct status_split *s)
{
	int sv[2];
	pid_t parent = getpid();
	pid_t pid = fork_with_pair(sv);

	if (pid < 0)
		return (int)pid;
	if (pid == 0) {
		become_unprivileged(parent, s->listen_fd, sv[1], "status process", s->path);
		/* exit(), not _exit(): the libraries' destructors run, as in
		 * bondd (valgrind then finds nothing of theirs left). */
		exit(status_process_run(3, 4, s->path));
	}
	close(sv[1]);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	s->u_fd = sv[0];
	s->u_pid = pid;
	s->u_started_ms = (int64_t)clock_mono_ms();
	s->pacing = (struct snap_pacing){.gen = s->pacing.gen};
	s->paused = false;
	s->ping_out = false;
	s->pings_missed = 0;
	ipc_reader_free(&s->rd);
	ipc_writer_free(&s->wr);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_CHILD};
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->u_fd, &ev) < 0)
		return -errno;
	log_debug("status process %d started", (int)pid);
	return 0;
}

/* The status process is gone or must go: its socket closed, itself ended
 * (reaped by status_split_reap), a new one started after a backoff. */
static void lose_status_process(struct status_split *s, const char *why)
{
	if (s->u_fd < 0)
		return;
	int64_t now = (int64_t)clock_mono_ms();
	log_err("status process %d %s; starting a new one", (int)s->u_pid, why);
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->u_fd, NULL);
	close(s->u_fd);
	s->u_fd = -1;
	if (s->u_pid > 0)
		kill(s->u_pid, SIGKILL); /* reaped by status_split_reap */
	s->restarts = now - s->u_started_ms >= RESTART_SETTLED_MS ? 0 : s->restarts + 1;
	s->restart_at_ms = now + (int64_t)clock_backoff_ms(s->restarts + 1, RESTART_FIRST_MS,
							   RESTART_MAX_MS);
	ipc_reader_free(&s->rd);
	ipc_writer_free(&s->wr);
	s->n_waiters = 0; /* its clients went with it */
	s->n_asks = 0;
	s->trouble[0] = '\0'; /* its trouble too: a new one says its own */
	arm_timer(s);
}

/* A snapshot: a copy-on-write fork of bondd now, without privilege,
 * rendering for the status process over the socket it is handed. */
static int fork_snapshot(struct status_split *s)
{
	int sv[2];
	pid_t parent = getpid();
	pid_t pid = fork_with_pair(sv);

	if (pid < 0)
		return (int)pid;
	if (pid == 0) {
		become_unprivileged(parent, sv[1], -1, "snapshot", NULL);
		exit(status_snapshot_run(3, s->view, s->ctx));
	}
	close(sv[1]);
	uint64_t gen = s->pacing.gen;
	if (ipc_writer_add(&s->wr, IPC_SNAP, 0, s->snap_ticket, &gen, sizeof(gen), sv[0]) < 0)
		return -ENOMEM;
	return 0;
}

/* --- requests from the status process ---------------------------------- */

static void split_reply(struct status_split *s, uint32_t id, const struct strbuf *out)
{
	if (out->oom) {
		struct strbuf err = {0};
		status_reply_error(&err, SE_INTERNAL, "out of memory");
		ipc_writer_add(&s->wr, IPC_REPLY, 0, id, err.s, (uint32_t)err.len, -1);
		sb_free(&err);
		return;
	}
	ipc_writer_add(&s->wr, IPC_REPLY, 0, id, out->s, (uint32_t)out->len, -1);
}

/* A request allowed, kept to be answered at the end of bondd's turn: its
 * work (a reload converges every bond, a trial put back too) never runs
 * inside this server's dispatch.  False when the turn's queue is full
 * (more than a turn's budget of requests: not expected). */
static bool ask_later(struct status_split *s, uint32_t id, uint16_t type, uint32_t arg, int fd)
{
	if (s->n_asks == sizeof(s->asks) / sizeof(s->asks[0]))
		return false;
	s->asks[s->n_asks++] = (struct split_ask){.id = id, .arg = arg, .type = type,
						  .privileged = fd >= 0 && peer_has_net_admin(fd)};
	return true;
}

/* A reload, try, confirm or trial-wait (ipc_ask_judge): the handler
 * there, the client judged here again on its own socket (root holding
 * CAP_NET_ADMIN, or bondd's own user when that is not root: systemd runs
 * ExecReload= as the service's user), whatever the status process thought,
 * and try's seconds checked again.  Allowed, it waits for the end of the
 * turn; refused, it is answered now: nothing changed, so no new snapshot
 * is due (a flood of refused reloads forked one every 200 ms). */
static void on_ask(struct status_split *s, uint32_t id, uint16_t type, uint32_t arg, int fd)
{
	enum status_verb verb = ipc_ask_verb(type);
	bool has = verb == SV_RELOAD ? s->reload != NULL : s->trial != NULL;
	bool may = has && (peer_has_net_admin(fd) || peer_is_own_user(fd));
	const char *why;
	int code = ipc_ask_judge(verb, has, may, arg, &why);
	struct strbuf out = {0};

	if (code == 0 && ask_later(s, id, type, arg, fd))
		return; /* answered by status_split_answer_asks */
	if (code == 0) {
		code = SE_BUSY;
		why = "too many requests this turn";
	}
	status_reply_error(&out, (enum status_error)code, why);
	split_reply(s, id, &out);
	sb_free(&out);
}

/* What a reload or a trial's step ended in (code 0: done, with msg; else
 * the error and why): the reply, with every bond's health as a client
 * with or without CAP_NET_ADMIN may see it. */
static void ask_outcome(struct status_split *s, int code, const char *msg, bool privileged,
			struct strbuf *out)
{
	if (code != 0) {
		status_reply_error(out, (enum status_error)code, msg);
		return;
	}
	struct status_view v = {0};
	s->view(s->ctx, &v);
	v.privileged = privileged;
	status_reply_reloaded(&v, msg, out);
}

/* An ask allowed (on_ask), done and answered now; a trial-wait for a
 * trial that runs is answered when it ends (status_split_trial_ended). */
static void answer_ask(struct status_split *s, const struct split_ask *a)
{
	enum status_verb verb = ipc_ask_verb(a->type);
	struct strbuf out = {0};
	char msg[400];
	int r;

	if (verb == SV_TRIAL_WAIT && s->n_waiters == SPLIT_MAX_TRIAL_WAITERS) {
		r = SE_BUSY;
		snprintf(msg, sizeof(msg), "too many clients wait for a trial");
	} else if (verb == SV_RELOAD) {
		r = s->reload(s->ctx, msg, sizeof(msg)) < 0 ? SE_REFUSED : 0;
	} else {
		r = s->trial(s->ctx, verb, a->arg, msg, sizeof(msg));
	}
	if (r == STATUS_TRIAL_PENDING && verb == SV_TRIAL_WAIT) {
		s->waiters[s->n_waiters].id = a->id;
		s->waiters[s->n_waiters].trial = a->arg;
		s->n_waiters++;
		return;
	}
	ask_outcome(s, r == STATUS_TRIAL_PENDING ? SE_INTERNAL : r, msg, a->privileged, &out);
	if (verb != SV_TRIAL_WAIT)
		s->pacing.gen++;
	split_reply(s, a->id, &out);
	sb_free(&out);
}

/* A settle (bondd-status --settle): anyone may ask, and it costs a frame
 * now and one at the end of the turn, before which the loop has handled
 * what the kernel had queued (status_split_settle_pending). */
static void on_settle(struct status_split *s, uint32_t id)
{
	if (ask_later(s, id, IPC_SETTLE, 0, -1))
		return;
	struct strbuf out = {0};
	status_reply_error(&out, SE_BUSY, "too many requests this turn");
	split_reply(s, id, &out);
	sb_free(&out);
}

bool status_split_settle_pending(const struct status_split *s)
{
	for (size_t i = 0; i < s->n_asks; i++)
		if (s->asks[i].type == IPC_SETTLE)
			return true;
	return false;
}

void status_split_answer_asks(struct status_split *s)
{
	if (!s->n_asks)
		return;
	/* (a reload's work adds no request: only the dispatch does) */
	for (size_t i = 0; i < s->n_asks && s->u_fd >= 0; i++) {
		if (s->asks[i].type == IPC_SETTLE)
			ipc_writer_add(&s->wr, IPC_SETTLED, 0, s->asks[i].id, NULL, 0, -1);
		else
			answer_ask(s, &s->asks[i]);
	}
	s->n_asks = 0;
	status_split_flush(s);
}

void status_split_trial_ended(struct status_split *s, uint32_t trial, int code, const char *msg)
{
	struct strbuf out = {0};

	s->pacing.gen++;
	ask_outcome(s, code, msg, false, &out);
	for (size_t i = 0; i < s->n_waiters;) {
		if (s->waiters[i].trial != trial) {
			i++;
			continue;
		}
		split_reply(s, s->waiters[i].id, &out);
		s->waiters[i] = s->waiters[--s->n_waiters];
	}
	sb_free(&out);
}

/* The /proc text as the kernel shows it to a reader with CAP_NET_ADMIN,
 * which only bondd is: for a client that holds it (judged again here). */
static void on_proc(struct status_split *s, uint32_t id, int fd, const struct ipc_names *n)
{
	struct status_request req;
	struct status_view v = {0};
	struct strbuf out = {0};

	if (ipc_names_to_request(n, SV_PROC, &req) < 0) {
		status_reply_error(&out, SE_BAD_REQUEST, "malformed bond names");
	} else {
		s->view(s->ctx, &v);
		v.privileged = peer_has_net_admin(fd);
		status_reply_render(&v, &req, &out);
	}
	split_reply(s, id, &out);
	sb_free(&out);
}

static void on_check(struct status_split *s, uint32_t id, uint16_t flags, const struct ipc_names *n)
{
	struct status_request req;
	uint32_t busy = 0;

	if (s->check && ipc_names_to_request(n, SV_LINKCHECK, &req) == 0) {
		int b = s->check(s->ctx, &req, flags & IPC_CHECK_START);
		busy = b > 0 ? (uint32_t)b : 0;
	}
	/* Only a check that runs changes the state: one asked of bonds
	 * without link_check (or unknown ones) starts nothing. */
	if ((flags & IPC_CHECK_START) && busy)
		s->pacing.gen++;
	ipc_writer_add(&s->wr, IPC_CHECK_ANS, 0, id, &busy, sizeof(busy), -1);
}

static void step_snapshot(struct status_split *s)
{
	int64_t now = (int64_t)clock_mono_ms(), at = 0;

	switch (snap_pacing_step(&s->pacing, now, &at)) {
	case SNAP_NOTHING:
	case SNAP_WAIT:
		break;
	case SNAP_SAME:
		ipc_writer_add(&s->wr, IPC_SNAP_SAME, 0, s->snap_ticket, NULL, 0, -1);
		s->pacing.wanted = false;
		s->pacing.last_answer_ms = now;
		break;
	case SNAP_FORK: {
		int err = fork_snapshot(s);
		s->pacing.last_fork_ms = s->pacing.last_answer_ms = now;
		if (err < 0) {
			if (!s->fork_failed)
				log_err("status: cannot fork a snapshot (%s): replies wait; "
					"trying again every %d ms", strerror(-err), SNAP_FORK_GAP_MS);
			s->fork_failed = true;
			break;
		}
		if (s->fork_failed)
			log_info("status: snapshots work again");
		s->fork_failed = false;
		s->pacing.wanted = s->pacing.force = false;
		s->pacing.have = true;
		s->pacing.snap_gen = s->pacing.gen;
		break;
	}
	}
	arm_timer(s);
}

/* One frame; -1 when it is malformed (the status process is then
 * ended: it is not ours any more, or it is broken). */
static int split_on_frame(struct status_split *s, const struct ipc_hdr *h, const void *p)
{
	int fd = -1;

	if (!p || ipc_frame_check(h, false) < 0)
		return -1;
	if (h->type == IPC_RELOAD || h->type == IPC_PROC || h->type == IPC_TRY ||
	    h->type == IPC_CONFIRM || h->type == IPC_TRIAL_WAIT) {
		if ((fd = ipc_reader_take_fd(&s->rd)) < 0)
			return -1;
		/* It must be a stream socket whose peer we can name. */
		struct ucred cred;
		socklen_t len = sizeof(cred);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
			close(fd);
			return -1;
		}
	}
	switch (h->type) {
	case IPC_SNAP_REQ:
		if (s->refresh && s->refresh(s->ctx))
			s->pacing.gen++;
		s->pacing.wanted = true;
		s->pacing.force |= h->flags & 1;
		s->snap_ticket = h->id;
		step_snapshot(s);
		break;
	case IPC_CHECK: {
		struct ipc_names n;
		memcpy(&n, p, sizeof(n));
		on_check(s, h->id, h->flags, &n);
		break;
	}
	case IPC_RELOAD:
	case IPC_TRY:
	case IPC_CONFIRM:
	case IPC_TRIAL_WAIT: {
		uint32_t arg = 0;
		if (h->len == sizeof(arg))
			memcpy(&arg, p, sizeof(arg));
		on_ask(s, h->id, h->type, arg, fd);
		break;
	}
	case IPC_PROC: {
		struct ipc_names n;
		memcpy(&n, p, sizeof(n));
		on_proc(s, h->id, fd, &n);
		break;
	}
	case IPC_SETTLE:
		on_settle(s, h->id);
		break;
	case IPC_PONG:
		s->ping_out = false;
		s->pings_missed = 0;
		break;
	case IPC_TROUBLE: {
		struct ipc_trouble t;
		memcpy(&t, p, sizeof(t));
		t.text[sizeof(t.text) - 1] = '\0';
		snprintf(s->trouble, sizeof(s->trouble), "%s", t.text);
		s->pacing.gen++; /* health changed: the next snapshot shows it */
		break;
	}
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

static void set_events(struct status_split *s)
{
	if (s->u_fd < 0)
		return;
	struct epoll_event ev = {.events = (s->paused ? 0 : EPOLLIN) | (s->wr.out.len ? EPOLLOUT : 0),
				 .data.u64 = TAG_CHILD};
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->u_fd, &ev);
}

static void on_child_readable(struct status_split *s)
{
	struct ipc_hdr h;
	const void *p;
	int64_t now = (int64_t)clock_mono_ms();

	s->paused = false;
	int r = ipc_reader_fill(&s->rd, s->u_fd);
	if (r < 0) {
		lose_status_process(s, "closed its socket");
		return;
	}
	while (ipc_reader_peek(&s->rd, &h, &p)) {
		/* The budget: what the status process may ask of bondd a
		 * second, whatever its clients send it. */
		if (!tb_take(&s->budget, SPLIT_REQS_BURST, SPLIT_REQS_PER_S, 1, now)) {
			s->paused = true;
			break;
		}
		if (split_on_frame(s, &h, p) < 0) {
			lose_status_process(s, "sent a malformed request");
			return;
		}
		ipc_reader_next(&s->rd);
	}
}

/* --- the timer ---------------------------------------------------------- */

static void arm_timer(struct status_split *s)
{
	int64_t now = (int64_t)clock_mono_ms(), next = 0, at = 0;

	switch (snap_pacing_step(&s->pacing, now, &at)) {
	case SNAP_WAIT:
		next = at;
		break;
	case SNAP_SAME:
	case SNAP_FORK:
		next = now; /* due (a fork that failed, say): at once, from the timer */
		break;
	case SNAP_NOTHING:
		break;
	}
	if (s->restart_at_ms && (!next || s->restart_at_ms < next))
		next = s->restart_at_ms;
	if (s->paused) {
		int64_t b = tb_next_ms(&s->budget, SPLIT_REQS_BURST, SPLIT_REQS_PER_S, now);
		if (!next || b < next)
			next = b;
	}
	if (next == s->timer_ms)
		return;
	if (next)
		clock_timer_in(s->timer_fd, next > now ? next - now : 0);
	else
		clock_timer_off(s->timer_fd);
	s->timer_ms = next;
}

static void on_timer(struct status_split *s)
{
	int64_t now = (int64_t)clock_mono_ms();

	clock_timer_take(s->timer_fd);
	s->timer_ms = 0;
	if (s->restart_at_ms && s->restart_at_ms <= now && s->u_fd < 0) {
		s->restart_at_ms = 0;
		int err = start_status_process(s);
		if (err < 0) {
			log_err("status process: cannot start: %s", strerror(-err));
			s->restarts++;
			s->restart_at_ms = now + (int64_t)clock_backoff_ms(s->restarts + 1,
									   RESTART_FIRST_MS,
									   RESTART_MAX_MS);
		}
	}
	if (s->paused && s->u_fd >= 0)
		on_child_readable(s);
	step_snapshot(s);
}

/* --- the daemon's calls -------------------------------------------------- */

void status_split_dispatch(struct status_split *s)
{
	struct epoll_event evs[4];
	int n = epoll_wait(s->epfd, evs, 4, 0);

	for (int i = 0; i < n; i++) {
		if (evs[i].data.u64 == TAG_TIMER)
			on_timer(s);
		else if (s->u_fd >= 0 && (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
			on_child_readable(s);
	}
	status_split_flush(s);
}

void status_split_flush(struct status_split *s)
{
	if (s->u_fd < 0)
		return;
	if (ipc_writer_flush(&s->wr, s->u_fd) < 0) {
		lose_status_process(s, "stopped reading");
		return;
	}
	set_events(s);
	arm_timer(s);
}

void status_split_changed(struct status_split *s)
{
	s->pacing.gen++;
}

void status_split_broadcast(struct status_split *s, const struct event *e)
{
	if (s->u_fd < 0)
		return;
	if (s->wr.out.len > SPLIT_MAX_QUEUED) {
		if (!s->dropped++)
			log_warn("status process is not reading: events for --watch are dropped");
		return;
	}
	if (s->dropped) {
		log_info("status process reads again; %llu events were dropped",
			 (unsigned long long)s->dropped);
		s->dropped = 0;
	}
	ipc_writer_add(&s->wr, IPC_EVENT, 0, 0, e, sizeof(*e), -1);
}

void status_split_check_done(struct status_split *s)
{
	s->pacing.gen++;
	if (s->u_fd >= 0)
		ipc_writer_add(&s->wr, IPC_CHECK_DONE, 0, 0, NULL, 0, -1);
}

void status_split_reap(struct status_split *s)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid != s->u_pid)
			continue; /* a snapshot, replaced or ended */
		if (WIFSIGNALED(st))
			lose_status_process(s, WTERMSIG(st) == SIGKILL ? "was killed" : "crashed");
		else
			lose_status_process(s, "exited");
		s->u_pid = 0;
	}
}

void status_split_watchdog(struct status_split *s)
{
	if (s->u_fd < 0)
		return;
	if (s->ping_out && ++s->pings_missed >= 2) {
		lose_status_process(s, "did not answer for two watchdog intervals");
		return;
	}
	s->ping_out = true;
	ipc_writer_add(&s->wr, IPC_PING, 0, 0, NULL, 0, -1);
	status_split_flush(s);
}

pid_t status_split_pid(const struct status_split *s)
{
	return s->u_fd >= 0 ? s->u_pid : 0;
}

const char *status_split_trouble(const struct status_split *s)
{
	return s && s->trouble[0] ? s->trouble : NULL;
}

int status_split_fd(const struct status_split *s)
{
	return s->epfd;
}

void status_split_set_reload(struct status_split *s, status_reload_fn fn)
{
	s->reload = fn;
}

void status_split_set_trial(struct status_split *s, status_trial_fn fn)
{
	s->trial = fn;
}

void status_split_set_check(struct status_split *s, status_req_check_fn fn)
{
	s->check = fn;
}

void status_split_set_refresh(struct status_split *s, status_refresh_fn fn)
{
	s->refresh = fn;
}

int status_split_open(struct status_split **out, const char *path, status_view_fn view, void *ctx)
{
	struct status_split *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->view = view;
	s->ctx = ctx;
	s->u_fd = -1;
	snprintf(s->path, sizeof(s->path), "%s", path);
	tb_init(&s->budget, SPLIT_REQS_BURST, (int64_t)clock_mono_ms());
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->listen_fd = -1;
	if (s->epfd < 0 || s->timer_fd < 0) {
		err = -errno;
		goto fail;
	}
	struct epoll_event tev = {.events = EPOLLIN, .data.u64 = TAG_TIMER};
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->timer_fd, &tev) < 0) {
		err = -errno;
		goto fail;
	}
	s->listen_fd = status_socket_bind(path);
	if (s->listen_fd < 0) {
		err = s->listen_fd;
		s->listen_fd = -1;
		goto fail;
	}
	if ((err = start_status_process(s)) < 0) {
		unlink(s->path);
		goto fail;
	}
	*out = s;
	return 0;
fail:
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->timer_fd >= 0)
		close(s->timer_fd);
	if (s->epfd >= 0)
		close(s->epfd);
	free(s);
	return err;
}

void status_split_close(struct status_split *s)
{
	if (!s)
		return;
	if (s->u_fd >= 0) {
		/* Its socket closed, the status process ends by itself (and
		 * closes the snapshots' sockets, which ends them); one that
		 * does not within a second is killed. */
		close(s->u_fd);
		for (int i = 0; i < 100 && waitpid(s->u_pid, NULL, WNOHANG) == 0; i++)
			usleep(10000);
		if (kill(s->u_pid, 0) == 0) {
			kill(s->u_pid, SIGKILL);
			waitpid(s->u_pid, NULL, 0);
		}
	}
	ipc_reader_free(&s->rd);
	ipc_writer_free(&s->wr);
	close(s->listen_fd);
	unlink(s->path);
	close(s->timer_fd);
	close(s->epfd);
	free(s);
}
