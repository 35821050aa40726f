/* SPDX-License-Identifier: MIT */
/* The status socket: accept, read one line, answer, repeat; time out the
 * idle and the slow; stream events to watchers. */
#include "status_server_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>

#include "build_config.h"
#include "log.h"
#include "peer_cred.h"
#include "proc_filter.h"
#include "status_reply.h"

/* --- the socket file -------------------------------------------------- */

int status_socket_bind(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);

	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;

	struct stat st;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			close(fd);
			return -EEXIST;
		}
		/* Someone answering there is another bondd: do not steal its
		 * socket.  Nobody answering: a stale file from a killed one. */
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(probe);
			close(fd);
			return -EADDRINUSE;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	/* 0666: reading status needs no privilege (what a client may see is
	 * decided per client, see peer_cred.h).  Set through the umask so
	 * the file is never there with other permissions. */
	mode_t old = umask(0111);
	int ret = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	int bind_errno = errno;
	umask(old);
	/* (STATUS_BACKLOG: status_server_parts.h) */
	if (ret < 0 || listen(fd, STATUS_BACKLOG) < 0) {
		int err = ret < 0 ? bind_errno : errno;
		close(fd);
		return -err;
	}
	return fd;
}

/* --- clients ---------------------------------------------------------- */

/* When c's uid has budget again, for the timer. */
static void note_blocked(struct status_server *s, struct client *c, struct uid_budget *b,
			 bool bytes)
{
	int64_t now = (int64_t)clock_mono_ms();
	int64_t at = bytes ? tb_next_ms(&b->bytes, UID_BYTES_BURST, UID_BYTES_PER_S, now)
			   : tb_next_ms(&b->reqs, UID_REQS_BURST, UID_REQS_PER_S, now);
	if (at <= now)
		at = now + 1;
	c->budget_blocked = true;
	if (!s->budget_wake_ms || at < s->budget_wake_ms)
		s->budget_wake_ms = at;
}

/* After reading or writing: answer what can be answered, send what can be
 * sent, close what is done.  Returns -1 when the client was dropped. */
static int client_service(struct status_server *s, struct client *c)
{
	client_answer_lines(s, c);
	if (c->budget_blocked && c->state == CS_REQUEST && client_lines_waiting(c)) {
		struct uid_budget *b = client_budget(s, c);
		if (b)
			note_blocked(s, c, b, false);
	}
	if (client_flush(s, c) < 0 || (c->state == CS_CLOSING && c->out.len == 0)) {
		client_drop(s, c);
		return -1;
	}
	return 0;
}

/* One read per turn, at most what the request buffer holds. */
static void server_on_readable(struct status_server *s, struct client *c)
{
	size_t room = sizeof(c->in) - c->in_len;
	struct uid_budget *b = client_budget(s, c);
	ssize_t n;

	if (b) {
		/* Its uid's byte budget, taken before the read: what it sent
		 * beyond waits in its socket (its writes block at its end). */
		room = tb_take_up_to(&b->bytes, UID_BYTES_BURST, UID_BYTES_PER_S, (uint32_t)room,
				     (int64_t)clock_mono_ms());
		if (!room) {
			note_blocked(s, c, b, true);
			client_service(s, c);
			return;
		}
	}
	do
		n = recv(c->fd, c->in + c->in_len, room, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (b && n >= 0 && (size_t)n < room)
		/* unused budget back: only what was read counts */
		b->bytes.milli += (uint64_t)(room - (size_t)n) * 1000u;
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
		client_drop(s, c);
		return;
	}
	if (n == 0) {
		/* Half-closed (shutdown(SHUT_WR), as one-shot clients do):
		 * the requests it sent are still answered, then we close. */
		c->eof = true;
	} else if (n > 0) {
		c->read_ticket = s->ticket_sent;
		c->last_active_ms = (int64_t)clock_mono_ms();
		if (c->in_len == 0)
			c->request_start_ms = c->last_active_ms;
		c->in_len += (size_t)n;
	}
	client_service(s, c);
}

_Static_assert(MAX_CLIENTS + 1 == STATUS_SERVER_MAX_FDS, "the fds the server takes at most");

const char *status_server_trouble(const struct status_server *s)
{
	return s->trouble[0] ? s->trouble : NULL;
}

/* A connection of unprivileged uid: within its budget (taken), or not
 * (counted, and said once while the uid keeps its budget slot: until it
 * has no client and its budget is whole again). */
static bool take_conn(struct status_server *s, unsigned uid)
{
	struct uid_budget *b = uid_budget_of(s, uid);
	if (b && tb_take(&b->conns, UID_CONNS_BURST, UID_CONNS_PER_S, 1, (int64_t)clock_mono_ms()))
		return true;
	if (!b)
		return false; /* no slot: as over budget */
	b->refused++;
	if (!b->refused_said)
		log_warn("status: uid %u opens connections faster than %d a second (after %d at "
			 "once): the next are closed unanswered until it slows, other users "
			 "served meanwhile (bondd(8), PRIVILEGE SEPARATION); %llu so far",
			 uid, UID_CONNS_PER_S, UID_CONNS_BURST, (unsigned long long)b->refused);
	b->refused_said = true;
	return false;
}

/* Closes the connection held longest. */
static void tarpit_close_oldest(struct status_server *s)
{
	close(s->tarpit_fd[s->tarpit_head]);
	s->tarpit_head = (s->tarpit_head + 1) % TARPIT_MAX;
	s->n_tarpit--;
}

/* Holds fd (over its uid's budget) unanswered until TARPIT_MS from now, in
 * room no client needs (status_server_parts.h TARPIT_MAX). */
static void tarpit_hold(struct status_server *s, int fd)
{
	if (s->n_tarpit == TARPIT_MAX || s->n_clients + s->n_tarpit >= MAX_CLIENTS) {
		if (!s->n_tarpit) {
			close(fd);
			return;
		}
		tarpit_close_oldest(s);
	}
	size_t at = (s->tarpit_head + s->n_tarpit) % TARPIT_MAX;
	s->tarpit_fd[at] = fd;
	s->tarpit_until[at] = (int64_t)clock_mono_ms() + TARPIT_MS;
	s->n_tarpit++;
}

/* Closes the held connections whose time is up; the next one's time. */
static int64_t tarpit_sweep(struct status_server *s, int64_t now)
{
	while (s->n_tarpit && s->tarpit_until[s->tarpit_head] <= now)
		tarpit_close_oldest(s);
	return s->n_tarpit ? s->tarpit_until[s->tarpit_head] : 0;
}

/* The listening socket rests (out of the epoll set's events) for ms, or
 * (ms 0) is listened to again. */
static void accept_rest(struct status_server *s, int ms)
{
	struct epoll_event ev = {.events = ms ? 0 : EPOLLIN, .data.u64 = TAG_LISTEN};
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->listen_fd, &ev);
	s->accept_rest_ms = ms ? (int64_t)clock_mono_ms() + ms : 0;
}

/* accept() found no file (or memory) for a new client: the client waits
 * in the backlog; the listening socket rests ACCEPT_PAUSE_MS, since it
 * stays readable and would wake the loop at once, for ever (a spin at the
 * limit).  Said once per episode, at the normal level, and to bondd for
 * its health. */
static void accept_refused(struct status_server *s, int err)
{
	s->accept_refusals++;
	accept_rest(s, ACCEPT_PAUSE_MS);
	if (s->trouble[0])
		return;
	snprintf(s->trouble, sizeof(s->trouble), "status socket: new clients wait: %s",
		 strerror(err));
	log_warn("status socket: cannot accept a client: %s%s; new clients wait in the "
		 "backlog, tried again every %d ms", strerror(err),
		 err == EMFILE ? " (the status process's open files are at their limit)" : "",
		 ACCEPT_PAUSE_MS);
	if (s->parent_fd >= 0)
		front_trouble(s, s->trouble);
}

static void on_accept(struct status_server *s)
{
	for (int k = 0; k < ACCEPTS_PER_TURN; k++) {
		int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			       errno == ENOMEM)) {
			accept_refused(s, errno);
			return;
		}
		if (fd < 0)
			break; /* EAGAIN: none waiting */
		if (s->trouble[0]) {
			log_info("status socket: accepting clients again (%lu refusals)",
				 s->accept_refusals);
			s->trouble[0] = '\0';
			s->accept_refusals = 0;
			if (s->parent_fd >= 0)
				front_trouble(s, "");
		}
		struct ucred cred = {.uid = (uid_t)-1};
		socklen_t len = sizeof(cred);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) {
			close(fd);
			continue;
		}
		/* Only root can hold the capability as bondd sees it, and only
		 * bondd's own user (not root) is that: anyone else costs no
		 * read of /proc (peer_cred.h). */
		bool privileged = cred.uid == 0 && peer_has_net_admin(fd);
		bool trusted = privileged ||
			       (s->own_uid != 0 && cred.uid == s->own_uid && peer_is_own_user(fd));
		if (!trusted && !take_conn(s, cred.uid)) {
			tarpit_hold(s, fd);
			continue;
		}
		/* a client's room first: the longest held connection goes */
		if (s->n_tarpit && s->n_clients + s->n_tarpit >= MAX_CLIENTS)
			tarpit_close_oldest(s);
		struct client *old = NULL;
		if (!privileged && clients_count(s, false, true, cred.uid) >= MAX_CLIENTS_PER_UID)
			old = client_victim(s, false, true, cred.uid, false);
		else if (s->n_clients == MAX_CLIENTS)
			old = client_victim(s, false, false, 0, true);
		if (old)
			client_drop(s, old);
		struct client *c = calloc(1, sizeof(*c));
		if (!c || s->n_clients == MAX_CLIENTS) {
			free(c);
			close(fd);
			continue;
		}
		c->fd = fd;
		c->uid = cred.uid;
		c->privileged = privileged;
		c->trusted = trusted;
		c->last_active_ms = c->since_ms = (int64_t)clock_mono_ms();
		c->deadline_ms = c->last_active_ms + CLIENT_TIMEOUT_MS;
		c->events = EPOLLIN;
		struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			close(fd);
			free(c);
			continue;
		}
		s->clients[s->n_clients++] = c;
	}
}

/* Drops clients past their deadline and arms the timer for the next one;
 * with no deadline pending the timer is off (no idle wake-ups). */
static void sweep(struct status_server *s)
{
	int64_t now = (int64_t)clock_mono_ms(), next = s->budget_wake_ms;

	if (s->accept_rest_ms && s->accept_rest_ms <= now)
		accept_rest(s, 0);
	int64_t held = tarpit_sweep(s, now);
	if (held && (!next || held < next))
		next = held;
	if (s->accept_rest_ms && (!next || s->accept_rest_ms < next))
		next = s->accept_rest_ms;
	int64_t stall = s->parent_fd >= 0 ? front_snapshot_due(s, now) : 0;

	if (stall && (!next || stall < next))
		next = stall;

	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->deadline_ms && c->deadline_ms <= now) {
			client_drop(s, c); /* moves the last client into slot i */
			continue;
		}
		if (c->deadline_ms && (!next || c->deadline_ms < next))
			next = c->deadline_ms;
		i++;
	}
	if (next == s->timer_ms)
		return;
	if (next)
		/* (a time already past, a budget's or a stall's reached while
		 * this turn ran: at once; a negative value would make
		 * timerfd_settime fail and leave the timer unarmed) */
		clock_timer_in(s->timer_fd, next > now ? next - now : 1);
	else
		clock_timer_off(s->timer_fd);
	s->timer_ms = next;
}

/* The two marks a client may carry until the server serves it again. */
enum client_mark {
	MARK_BUDGET, /* budget_blocked: its uid has budget again (the timer) */
	MARK_SERVE,  /* serve: bondd or a snapshot sent its answer
		      * (status_front.c marks it) */
};

static bool *client_mark(struct client *c, enum client_mark mark)
{
	return mark == MARK_BUDGET ? &c->budget_blocked : &c->serve;
}

/* Serves again, once, each client carrying `mark`, clearing it first: its
 * next requests read and answered, its replies sent. */
static void serve_marked(struct status_server *s, enum client_mark mark)
{
	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		bool *marked = client_mark(c, mark);
		if (!*marked) {
			i++;
			continue;
		}
		*marked = false;
		if (client_service(s, c) < 0)
			continue; /* dropped: slot i holds another client now */
		i++;
	}
}

void status_server_dispatch(struct status_server *s)
{
	struct epoll_event evs[EVENTS_PER_TURN];
	int n = epoll_wait(s->epfd, evs, EVENTS_PER_TURN, 0);

	s->turn++;

	for (int i = 0; i < n; i++) {
		if (evs[i].data.u64 == TAG_LISTEN) {
			on_accept(s);
		} else if (evs[i].data.u64 == TAG_TIMER) {
			clock_timer_take(s->timer_fd);
			s->timer_ms = 0;
			if (s->budget_wake_ms && s->budget_wake_ms <= (int64_t)clock_mono_ms()) {
				s->budget_wake_ms = 0;
				serve_marked(s, MARK_BUDGET);
			}
		} else if (evs[i].data.u64 == TAG_PARENT) {
			front_on_parent(s);
			serve_marked(s, MARK_SERVE);
		} else if (evs[i].data.u64 == TAG_SNAP) {
			front_on_snap(s);
			serve_marked(s, MARK_SERVE);
		} else {
			struct client *c = evs[i].data.ptr;
			/* A client dropped earlier in this batch is not in the
			 * list any more: look before touching it. */
			if (!client_is_live(s, c))
				continue;
			uint32_t e = evs[i].events;
			if ((e & EPOLLERR) || ((e & EPOLLHUP) && c->state == CS_WATCH))
				client_drop(s, c); /* gone: a watcher never reads, so only this tells */
			else if ((e & (EPOLLIN | EPOLLHUP)) && c->state == CS_REQUEST && !c->eof)
				server_on_readable(s, c);
			else
				client_service(s, c);
		}
	}
	status_server_flush(s);
	if (s->parent_fd >= 0)
		front_flush(s);
	sweep(s);
}

void status_server_flush(struct status_server *s)
{
	if (!s->unsent)
		return;
	s->unsent = false;
	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		/* A watcher whose socket is full waits for EPOLLOUT instead. */
		if (c->state == CS_WATCH && c->out.len && !(c->events & EPOLLOUT) &&
		    client_flush(s, c) < 0) {
			client_drop(s, c);
			continue;
		}
		i++;
	}
	sweep(s);
}

size_t status_server_clients(const struct status_server *s)
{
	return s->n_clients;
}

void status_server_set_reload(struct status_server *s, status_reload_fn fn)
{
	s->reload = fn;
}

void status_server_set_trial(struct status_server *s, status_trial_fn fn)
{
	s->trial = fn;
}

void status_server_on_check(struct status_server *s, status_check_fn fn)
{
	s->check = fn;
}

/* In-process: answers a waiting client when its checks are done; false
 * while not.  (In the status process bondd is asked again: status_front.c.) */
static bool check_finished(struct status_server *s, struct client *c)
{
	struct status_request req = c->pending;
	struct status_view v = {0};
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	size_t n = 0;

	/* Not selected: a reload took the bond away meanwhile (answered). */
	if (client_view_select(s, c, &req, &v, sel, &n)) {
		if (s->check(s->ctx, sel, n, false) > 0)
			return false;
		struct strbuf body = {0};
		struct bond_views bv;
		if (bond_views_build(&bv, &v, sel, n, false) < 0) {
			body.oom = true;
			client_reply_body(c, HEALTH_OK, &body);
		} else {
			reply_body_linkcheck(&bv, &body);
			client_reply_body(c, bv.worst, &body);
			bond_views_free(&bv);
		}
	}
	c->state = CS_REQUEST;
	c->request_start_ms = c->in_len ? (int64_t)clock_mono_ms() : 0;
	return true;
}

void status_server_check_done(struct status_server *s)
{
	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->state == CS_CHECK && check_finished(s, c) && client_service(s, c) < 0)
			continue; /* dropped: slot i holds another client now */
		i++;
	}
	sweep(s);
}

int status_server_fd(const struct status_server *s)
{
	return s->epfd;
}

int status_server_open_fd(struct status_server **out, int listen_fd, const char *path)
{
	struct status_server *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->parent_fd = s->snap_fd = -1;
	s->listen_fd = listen_fd;
	s->own_uid = (unsigned)geteuid();
	snprintf(s->path, sizeof(s->path), "%s", path);
	fcntl(listen_fd, F_SETFL, O_NONBLOCK);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_LISTEN};
	struct epoll_event tev = {.events = EPOLLIN, .data.u64 = TAG_TIMER};
	if (s->epfd < 0 || s->timer_fd < 0 ||
	    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->listen_fd, &ev) < 0 ||
	    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->timer_fd, &tev) < 0) {
		int err = -errno;
		if (s->timer_fd >= 0)
			close(s->timer_fd);
		if (s->epfd >= 0)
			close(s->epfd);
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

int status_server_open(struct status_server **out, const char *path,
		       status_view_fn view, void *ctx)
{
	int fd = status_socket_bind(path);

	if (fd < 0)
		return fd;
	int err = status_server_open_fd(out, fd, path);
	if (err < 0) {
		close(fd);
		unlink(path);
		return err;
	}
	(*out)->view = view;
	(*out)->ctx = ctx;
	return 0;
}

void status_server_close(struct status_server *s)
{
	if (!s)
		return;
	while (s->n_clients)
		client_drop(s, s->clients[0]);
	while (s->n_tarpit)
		tarpit_close_oldest(s);
	close(s->listen_fd);
	if (s->parent_fd < 0)
		unlink(s->path); /* the status process leaves the file to bondd */
	else
		close(s->parent_fd);
	if (s->snap_fd >= 0)
		close(s->snap_fd);
	ipc_reader_free(&s->parent_rd);
	ipc_writer_free(&s->parent_wr);
	ipc_reader_free(&s->snap_rd);
	ipc_writer_free(&s->snap_wr);
	close(s->timer_fd);
	close(s->epfd);
	sb_free(&s->scratch);
	free(s);
}

/* --- the status process ------------------------------------------------ */

/* (status_front.c: its side of the split, which this loop dispatches.) */
int status_process_run(int listen_fd, int parent_fd, const char *path)
{
	struct status_server *s;
	int err = status_server_open_fd(&s, listen_fd, path);

	if (err < 0) {
		log_err("status process: %s", strerror(-err));
		return 1;
	}
	s->parent_fd = parent_fd;
	fcntl(parent_fd, F_SETFL, O_NONBLOCK);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_PARENT};
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, parent_fd, &ev) < 0) {
		status_server_close(s);
		return 1;
	}
	while (!s->parent_gone) {
		struct epoll_event e;
		int n = epoll_wait(s->epfd, &e, 1, -1);
		if (n < 0 && errno != EINTR)
			break;
		status_server_dispatch(s);
	}
	status_server_close(s);
	return 0;
}
