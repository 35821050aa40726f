/* SPDX-License-Identifier: MIT */
/* The status socket: accept, read one line, answer, repeat; time out the
 * idle and the slow; stream events to watchers. */
#include "status_server.h"

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

/* Clients at once.  When full, the longest-idle client that is not
 * watching makes room, so a crowd of idle connections cannot lock out
 * the next admin. */
#define MAX_CLIENTS 256
/* A client must send a whole request, and take each reply, within this. */
#define CLIENT_TIMEOUT_MS 10000
/* A reply bigger than this means something is wrong: the client is dropped. */
#define MAX_PENDING (8u << 20)
/* A watcher this far behind is dropped rather than buffered without end. */
#define MAX_WATCH_BACKLOG (256u << 10)
/* Replies a client has not taken beyond this: its further requests wait in
 * its socket until it reads (pipelining cannot make us render without end). */
#define BACKPRESSURE (64u << 10)
/* What a refused, oversized request may still send before we close. */
#define MAX_DRAIN (4u << 20)

enum client_state {
	CS_REQUEST,   /* reading request lines */
	CS_WATCH,     /* streaming events; input is ignored */
	CS_DRAIN,     /* error sent, write side shut: discard input until EOF */
	CS_CHECK,     /* waiting for the link check it asked for; input waits */
};

struct client {
	int fd;
	enum client_state state;
	bool privileged;
	bool trusted;               /* privileged, or bondd's own user: may reload */
	char in[STATUS_MAX_REQUEST];
	size_t in_len;
	size_t drained;
	struct strbuf out;
	uint32_t events;            /* what epoll watches for on fd */
	int64_t deadline_ms;        /* 0: none (an idle watcher) */
	int64_t last_active_ms;
	int64_t request_start_ms;   /* first byte of the request being read, or
				     * when draining began; 0: none */
	char *check_line;           /* CS_CHECK: the request, answered when done */
	uint64_t reload_turn;       /* the dispatch in which it last reloaded */
};

struct status_server {
	int epfd, listen_fd, timer_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	status_view_fn view;
	status_reload_fn reload;
	status_check_fn check;
	void *ctx;
	struct client *clients[MAX_CLIENTS];
	size_t n_clients;
	struct strbuf scratch;      /* reply bodies, reused */
	uint64_t turn;              /* dispatches so far, from 1 */
};

/* epoll data: the listening socket and the timer are tagged, clients are
 * pointers (never equal to these small numbers). */
#define TAG_LISTEN 1
#define TAG_TIMER 2

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- the socket file -------------------------------------------------- */

static int bind_socket(struct status_server *s, const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	snprintf(s->path, sizeof(s->path), "%s", path);

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
	if (ret < 0 || listen(fd, 64) < 0) {
		int err = ret < 0 ? bind_errno : errno;
		close(fd);
		return -err;
	}
	return fd;
}

/* --- clients ---------------------------------------------------------- */

static bool backpressured(const struct client *c)
{
	return c->state == CS_CHECK || (c->state == CS_REQUEST && c->out.len > BACKPRESSURE);
}

/* A reload is answered at once, but what the client sent after it waits
 * for the next turn of the event loop: a pipeline of reloads must not
 * hold the loop (watchdog pings, repairs, other clients) for all of them. */
static bool reloaded_this_turn(const struct status_server *s, const struct client *c)
{
	return c->reload_turn == s->turn;
}

/* Whole request lines already read, waiting to be answered. */
static bool lines_waiting(const struct client *c)
{
	return c->state == CS_REQUEST && memchr(c->in, '\n', c->in_len);
}

/* Input unless the client is too far behind; output while some is pending,
 * or to come back next turn for lines already read (the socket may have
 * nothing more to read, and a writable one wakes us at once). */
static void set_events(struct status_server *s, struct client *c)
{
	uint32_t want = (backpressured(c) ? 0 : EPOLLIN) |
			(c->out.len || (lines_waiting(c) && !backpressured(c)) ? EPOLLOUT : 0);
	if (want == c->events)
		return;
	struct epoll_event ev = {.events = want, .data.ptr = c};
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
	c->events = want;
}

static void drop(struct status_server *s, struct client *c)
{
	for (size_t i = 0; i < s->n_clients; i++) {
		if (s->clients[i] != c)
			continue;
		s->clients[i] = s->clients[--s->n_clients];
		break;
	}
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	sb_free(&c->out);
	free(c->check_line);
	free(c);
}

/* Sends what is pending; returns -1 when the client is gone. */
static int flush(struct status_server *s, struct client *c)
{
	while (c->out.len > 0) {
		ssize_t n = send(c->fd, c->out.s, c->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return -1;
		}
		sb_consume(&c->out, (size_t)n);
		c->last_active_ms = mono_ms();
	}
	if (c->out.oom || c->out.len > MAX_PENDING)
		return -1;
	/* Two clocks, the earlier wins.  A request, once begun, must be whole
	 * in time (a byte now and then does not extend it), and so must a
	 * drain.  A pending reply must be taken, some of it every so often,
	 * and a client between requests gets the idle timeout.  An idle
	 * watcher has neither. */
	bool begun = c->state == CS_DRAIN || c->state == CS_CHECK ||
		     (c->state == CS_REQUEST && c->in_len);
	bool idle_clock = c->out.len > 0 || (c->state == CS_REQUEST && !c->in_len);
	int64_t by_activity = c->last_active_ms + CLIENT_TIMEOUT_MS;
	c->deadline_ms = begun ? c->request_start_ms + CLIENT_TIMEOUT_MS : 0;
	if (idle_clock && (!c->deadline_ms || by_activity < c->deadline_ms))
		c->deadline_ms = by_activity;
	set_events(s, c);
	return 0;
}

static void reply_error(struct client *c, enum status_error code, const char *msg)
{
	sb_printf(&c->out, STATUS_PROTO_TAG " error %d %s\n", (int)code, msg);
}

static void reply_ok(struct client *c, enum status_health h, const struct strbuf *body)
{
	sb_printf(&c->out, STATUS_PROTO_TAG " ok %d %zu\n", (int)h, body->len);
	if (body->len)
		sb_add(&c->out, body->s, body->len);
}

/* The kernel's text for each bond, as the kernel would show it to this
 * client, one blank line between bonds.  Bonds missing from the kernel
 * have no text (the header's status says so). */
static void body_proc(struct status_server *s, const struct client *c,
		      const struct desired_bond *const *sel, size_t n, struct strbuf *body)
{
	char path[64 + IFNAMSIZ], buf[16384];
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/net/bonding/%s", sel[i]->name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		sb_reset(&s->scratch);
		ssize_t r;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			sb_add(&s->scratch, buf, (size_t)r);
		close(fd);
		if (!first)
			sb_puts(body, "\n");
		first = false;
		if (c->privileged)
			sb_add(body, s->scratch.s, s->scratch.len);
		else
			proc_filter_unprivileged(s->scratch.s, s->scratch.len, body);
	}
}

/* The per-slave tables of the link check's last results. */
static void body_linkcheck(const struct status_view *v, const struct desired_bond *const *sel,
			   size_t n, struct strbuf *body)
{
	for (size_t i = 0; i < n; i++)
		linkcheck_table(body, lc_results_find(v->linkcheck, sel[i]->name), sel[i]->name,
				v->findings, FSRC__COUNT);
}

/* Synchronous: the client learns the outcome, as `systemctl reload` must.
 * Root holding CAP_NET_ADMIN (what may see everything may change it), or
 * bondd's own user when that is not root: systemd runs ExecReload= as the
 * service's user.  Judged now, on the process as it is when it asks, not
 * as it was when it connected: one that connected as root and then
 * dropped its privileges may still read, but not reload. */
static void answer_reload(struct status_server *s, struct client *c)
{
	struct status_request all = {.verb = SV_HEALTH};
	const struct desired_bond *sel[STATUS_MAX_NAMES];
	const char *unknown;
	struct status_view v = {0};
	struct strbuf body = {0};
	char msg[400];
	size_t n = 0;

	c->reload_turn = s->turn;
	if (!s->reload) {
		reply_error(c, SE_INTERNAL, "reload is not available");
		return;
	}
	if (!peer_has_net_admin(c->fd) && !peer_is_own_user(c->fd)) {
		reply_error(c, SE_FORBIDDEN, "reload needs root with CAP_NET_ADMIN");
		return;
	}
	/* The reload's events reach watchers through status_server_broadcast,
	 * whose sweep must not time this client out under us, however long
	 * the kernel takes; flush() sets its deadline again afterwards. */
	c->deadline_ms = 0;
	if (s->reload(s->ctx, msg, sizeof(msg)) < 0) {
		reply_error(c, SE_REFUSED, msg);
		return;
	}
	s->view(s->ctx, &v);
	status_select(&v, &all, sel, &n, &unknown);
	sb_printf(&body, "%s\n", msg);
	reply_ok(c, status_worst(&v, sel, n), &body);
	sb_free(&body);
}

static void answer(struct status_server *s, struct client *c, const char *line, size_t len)
{
	struct status_request req;
	struct status_view v = {0};
	const struct desired_bond *sel[STATUS_MAX_NAMES];
	const char *unknown = NULL;
	char err[160];
	size_t n = 0;
	struct strbuf body = {0};

	if (status_request_parse(line, len, &req, err, sizeof(err)) < 0) {
		reply_error(c, SE_BAD_REQUEST, err);
		return;
	}
	if (req.verb == SV_RELOAD) {
		answer_reload(s, c);
		return;
	}
	s->view(s->ctx, &v);
	if (req.verb != SV_VERSION && req.verb != SV_WATCH &&
	    status_select(&v, &req, sel, &n, &unknown) < 0) {
		snprintf(err, sizeof(err), "unknown bond \"%s\": not in bondd's configuration",
			 unknown);
		reply_error(c, SE_UNKNOWN_BOND, err);
		return;
	}
	enum status_health h = status_worst(&v, sel, n);
	switch (req.verb) {
	case SV_VERSION:
		sb_puts(&body, "bondd " BONDD_VERSION " protocol 1\n");
		h = HEALTH_OK;
		break;
	case SV_PROC: body_proc(s, c, sel, n, &body); break;
	case SV_JSON: render_json(&body, &v, sel, n); break;
	case SV_BRIEF: render_brief(&body, &v, sel, n); break;
	case SV_PROMETHEUS: render_prometheus(&body, &v, sel, n); break;
	case SV_HEALTH: break;
	case SV_RELOAD: break; /* answered above */
	case SV_LINKCHECK:
		if (s->check && s->check(s->ctx, sel, n, true) > 0 &&
		    (c->check_line = strndup(line, len))) {
			c->state = CS_CHECK;
			c->request_start_ms = mono_ms();
			return;
		}
		body_linkcheck(&v, sel, n, &body);
		break;
	case SV_WATCH:
		sb_puts(&c->out, STATUS_PROTO_TAG " ok 0 stream\n");
		c->state = CS_WATCH;
		log_debug("status: a client is watching events");
		return;
	}
	if (body.oom)
		reply_error(c, SE_INTERNAL, "out of memory");
	else
		reply_ok(c, h, &body);
	sb_free(&body);
}

/* Answers the complete request lines received, in order, while the client
 * keeps up with the replies. */
static void answer_lines(struct status_server *s, struct client *c)
{
	char *nl;

	while (c->state == CS_REQUEST && !backpressured(c) && !reloaded_this_turn(s, c) &&
	       (nl = memchr(c->in, '\n', c->in_len))) {
		size_t line = (size_t)(nl - c->in);
		answer(s, c, c->in, line);
		memmove(c->in, nl + 1, c->in_len - line - 1);
		c->in_len -= line + 1;
		/* What is left arrived with the last read, at the latest. */
		if (c->state == CS_REQUEST) /* a client waiting for a link check keeps its clock */
			c->request_start_ms = c->in_len ? c->last_active_ms : 0;
	}
	if (c->state == CS_REQUEST && c->in_len == sizeof(c->in) && !lines_waiting(c)) {
		char msg[96];
		snprintf(msg, sizeof(msg), "request longer than %d bytes", STATUS_MAX_REQUEST);
		reply_error(c, SE_TOO_LONG, msg);
		c->state = CS_DRAIN;
		c->in_len = 0;
		c->request_start_ms = mono_ms();
	}
}

/* After reading or writing: answer what can be answered, send what can be
 * sent.  Returns -1 when the client was dropped. */
static int service(struct status_server *s, struct client *c)
{
	answer_lines(s, c);
	if (flush(s, c) < 0) {
		drop(s, c);
		return -1;
	}
	if (c->state == CS_DRAIN && c->out.len == 0)
		shutdown(c->fd, SHUT_WR); /* the error is out: tell the client we are done */
	return 0;
}

static void on_readable(struct status_server *s, struct client *c)
{
	while (!backpressured(c) && !reloaded_this_turn(s, c)) {
		char sink[4096];
		bool request = c->state == CS_REQUEST;
		char *dst = request ? c->in + c->in_len : sink;
		size_t room = request ? sizeof(c->in) - c->in_len : sizeof(sink);
		ssize_t n = recv(c->fd, dst, room, MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
			drop(s, c);
			return;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		c->last_active_ms = mono_ms();
		if (c->state == CS_DRAIN) {
			c->drained += (size_t)n;
			if (c->drained > MAX_DRAIN) {
				drop(s, c);
				return;
			}
			continue;
		}
		if (c->state == CS_WATCH)
			continue;
		if (c->in_len == 0)
			c->request_start_ms = c->last_active_ms;
		c->in_len += (size_t)n;
		answer_lines(s, c);
	}
	service(s, c);
}

/* With every slot taken, drops the longest-idle client that is not
 * watching (never, for a newcomer who may not reload, one who may: a
 * flood of connections cannot push out `systemctl reload` between its
 * connect() and its request); failing that, for a newcomer who may reload (root, or what
 * systemd runs ExecReload= as), the longest-idle watcher who may not: one
 * user's crowd of watches cannot lock the administrator out.  False when
 * nobody may go. */
static bool make_room(struct status_server *s, bool trusted)
{
	struct client *oldest = NULL;

	for (size_t i = 0; i < s->n_clients; i++) {
		struct client *c = s->clients[i];
		if (c->state != CS_WATCH && (trusted || !c->trusted) &&
		    (!oldest || c->last_active_ms < oldest->last_active_ms))
			oldest = c;
	}
	for (size_t i = 0; i < s->n_clients && !oldest && trusted; i++) {
		struct client *c = s->clients[i];
		if (!c->trusted && (!oldest || c->last_active_ms < oldest->last_active_ms))
			oldest = c;
	}
	if (!oldest)
		return false;
	if (oldest->state == CS_WATCH)
		log_info("status: too many clients: a watch ended to make room for one who may reload");
	drop(s, oldest);
	return true;
}

static void on_accept(struct status_server *s)
{
	for (;;) {
		int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return; /* EAGAIN, or out of fds: the backlog keeps them */
		bool privileged = peer_has_net_admin(fd);
		bool trusted = privileged || peer_is_own_user(fd);
		if (s->n_clients == MAX_CLIENTS && !make_room(s, trusted)) {
			static const char busy[] = STATUS_PROTO_TAG " error 503 too many clients\n";
			(void)!send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
			close(fd);
			continue;
		}
		struct client *c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->privileged = privileged;
		c->trusted = trusted;
		c->last_active_ms = mono_ms();
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
	int64_t now = mono_ms(), next = 0;

	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->deadline_ms && c->deadline_ms <= now) {
			drop(s, c); /* moves the last client into slot i */
			continue;
		}
		if (c->deadline_ms && (!next || c->deadline_ms < next))
			next = c->deadline_ms;
		i++;
	}
	struct itimerspec its = {0};
	if (next) {
		int64_t in = next - now;
		its.it_value.tv_sec = in / 1000;
		its.it_value.tv_nsec = (in % 1000) * 1000000 + 1;
	}
	timerfd_settime(s->timer_fd, 0, &its, NULL);
}

void status_server_dispatch(struct status_server *s)
{
	struct epoll_event evs[32];
	int n = epoll_wait(s->epfd, evs, 32, 0);

	s->turn++;
	for (int i = 0; i < n; i++) {
		if (evs[i].data.u64 == TAG_LISTEN) {
			on_accept(s);
		} else if (evs[i].data.u64 == TAG_TIMER) {
			uint64_t ticks;
			(void)!read(s->timer_fd, &ticks, sizeof(ticks));
		} else {
			struct client *c = evs[i].data.ptr;
			/* A client dropped earlier in this batch is not in the
			 * list any more: look before touching it. */
			bool live = false;
			for (size_t j = 0; j < s->n_clients && !live; j++)
				live = s->clients[j] == c;
			if (!live)
				continue;
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				on_readable(s, c);
			else
				service(s, c);
		}
	}
	sweep(s);
}

void status_server_broadcast(struct status_server *s, const struct event *e)
{
	char line[512];
	size_t len = event_format_line(e, line, sizeof(line));

	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->state == CS_WATCH) {
			sb_add(&c->out, line, len);
			if (c->out.len > MAX_WATCH_BACKLOG || flush(s, c) < 0) {
				drop(s, c);
				continue;
			}
		}
		i++;
	}
	sweep(s);
}

void status_server_set_reload(struct status_server *s, status_reload_fn fn)
{
	s->reload = fn;
}

void status_server_on_check(struct status_server *s, status_check_fn fn)
{
	s->check = fn;
}

/* Answers a waiting client when its checks are done; false while not. */
static bool check_finished(struct status_server *s, struct client *c)
{
	struct status_request req;
	struct status_view v = {0};
	const struct desired_bond *sel[STATUS_MAX_NAMES];
	const char *unknown = NULL;
	char err[160];
	size_t n = 0;

	if (status_request_parse(c->check_line, strlen(c->check_line), &req, err, sizeof(err)) < 0)
		return false; /* cannot happen: it parsed before */
	s->view(s->ctx, &v);
	if (status_select(&v, &req, sel, &n, &unknown) < 0) {
		/* A reload took the bond away meanwhile. */
		snprintf(err, sizeof(err), "unknown bond \"%s\": not in bondd's configuration",
			 unknown);
		reply_error(c, SE_UNKNOWN_BOND, err);
	} else if (s->check(s->ctx, sel, n, false) > 0) {
		return false;
	} else {
		struct strbuf body = {0};
		body_linkcheck(&v, sel, n, &body);
		if (body.oom)
			reply_error(c, SE_INTERNAL, "out of memory");
		else
			reply_ok(c, status_worst(&v, sel, n), &body);
		sb_free(&body);
	}
	free(c->check_line);
	c->check_line = NULL;
	c->state = CS_REQUEST;
	c->request_start_ms = c->in_len ? mono_ms() : 0;
	return true;
}

void status_server_check_done(struct status_server *s)
{
	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->state == CS_CHECK && check_finished(s, c) && service(s, c) < 0)
			continue; /* dropped: slot i holds another client now */
		i++;
	}
	sweep(s);
}

int status_server_fd(const struct status_server *s)
{
	return s->epfd;
}

int status_server_open(struct status_server **out, const char *path,
		       status_view_fn view, void *ctx)
{
	struct status_server *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	s->view = view;
	s->ctx = ctx;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->listen_fd = -1;
	if (s->epfd < 0 || s->timer_fd < 0) {
		err = -errno;
		goto fail;
	}
	s->listen_fd = bind_socket(s, path);
	if (s->listen_fd < 0) {
		err = s->listen_fd;
		s->listen_fd = -1;
		goto fail;
	}
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_LISTEN};
	struct epoll_event tev = {.events = EPOLLIN, .data.u64 = TAG_TIMER};
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->listen_fd, &ev) < 0 ||
	    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->timer_fd, &tev) < 0) {
		err = -errno;
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

void status_server_close(struct status_server *s)
{
	if (!s)
		return;
	while (s->n_clients)
		drop(s, s->clients[0]);
	close(s->listen_fd);
	unlink(s->path);
	close(s->timer_fd);
	close(s->epfd);
	sb_free(&s->scratch);
	free(s);
}
