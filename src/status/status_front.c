/* SPDX-License-Identifier: MIT */
/*
 * The status process's side of the split (status_ipc.h): requests handed to
 * bondd and to the current snapshot, their answers handed back to the
 * clients, the snapshot replaced when bondd sends a newer one (the
 * process's own loop is status_server.c's).  A request for a rendered
 * reply waits for a snapshot request made after it arrived: bondd answers
 * that only after it has handled every kernel event queued before (its
 * loop serves the kernel first), so a reply never shows less than the
 * kernel had done when the request came, as when bondd answered clients
 * itself.
 */
#include "status_server_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "log.h"
#include "status_reply.h"

static struct client *client_by_wait(struct status_server *s, uint32_t id)
{
	for (size_t i = 0; i < s->n_clients; i++)
		if (s->clients[i]->state == CS_WAIT && s->clients[i]->wait_id == id)
			return s->clients[i];
	return NULL;
}

static void set_out(struct status_server *s, int fd, uint64_t tag, bool pending)
{
	struct epoll_event ev = {.events = EPOLLIN | (pending ? EPOLLOUT : 0), .data.u64 = tag};
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, fd, &ev);
}

void front_flush(struct status_server *s)
{
	if (s->parent_fd >= 0) {
		int r = ipc_writer_flush(&s->parent_wr, s->parent_fd);
		if (r < 0)
			s->parent_gone = true;
		set_out(s, s->parent_fd, TAG_PARENT, r > 0);
	}
	if (s->snap_fd >= 0) {
		int r = ipc_writer_flush(&s->snap_wr, s->snap_fd);
		set_out(s, s->snap_fd, TAG_SNAP, r > 0);
	}
}

static uint32_t wait_on(struct status_server *s, struct client *c, enum client_wait w)
{
	c->state = CS_WAIT;
	c->wait = w;
	c->wait_id = ++s->next_id;
	c->render_sent = false;
	return c->wait_id;
}

static void send_parent(struct status_server *s, uint16_t type, uint16_t flags, uint32_t id,
			const void *payload, uint32_t len, int fd)
{
	if (ipc_writer_add(&s->parent_wr, type, flags, id, payload, len, fd) < 0)
		s->parent_gone = true; /* out of memory or descriptors: start over */
}

void front_trouble(struct status_server *s, const char *text)
{
	struct ipc_trouble t = {{0}};

	snprintf(t.text, sizeof(t.text), "%s", text);
	send_parent(s, IPC_TROUBLE, 0, 0, &t, sizeof(t), -1);
}

/* Asks bondd for a snapshot at least as new as now, unless one is asked
 * already: the clients queued after it wait for the next. */
static void ask_snapshot(struct status_server *s, bool force)
{
	if (s->snap_inflight)
		return;
	s->snap_inflight = true;
	s->ticket_sent++;
	send_parent(s, IPC_SNAP_REQ, force ? 1 : 0, (uint32_t)s->ticket_sent, NULL, 0, -1);
}

/* Unprivileged clients' renders with the snapshot at once, at most: it
 * answers in order, so a privileged client's request waits behind these
 * only (with one per unprivileged client, 128 clients of two flooding
 * users kept root's brief waiting 690 ms in the sandbox's guest). */
#define RENDERS_AHEAD 4

static bool render_out(const struct client *c)
{
	return c->state == CS_WAIT && c->wait == W_RENDER && c->render_sent;
}

/* Hands the current snapshot every render request that the last answered
 * snapshot request covers (an unprivileged one while fewer than
 * RENDERS_AHEAD are out); asks again for those it does not cover. */
static void send_renders(struct status_server *s)
{
	bool more = false;
	size_t ahead = 0;

	for (size_t i = 0; i < s->n_clients; i++)
		ahead += render_out(s->clients[i]) && !s->clients[i]->privileged;
	for (size_t i = 0; i < s->n_clients; i++) {
		struct client *c = s->clients[i];
		if (c->state != CS_WAIT || c->wait != W_RENDER || c->render_sent)
			continue;
		if (c->need_ticket > s->ticket_done || s->snap_fd < 0) {
			more = true;
			continue;
		}
		if (!c->privileged && ahead >= RENDERS_AHEAD)
			continue; /* sent when an answer comes back */
		ahead += !c->privileged;
		struct ipc_render r = {.id = c->wait_id, .verb = (uint8_t)c->pending.verb,
				       .privileged = c->privileged};
		ipc_names_from_request(&r.req, &c->pending);
		sb_add(&s->snap_wr.out, &r, sizeof(r));
		c->render_sent = true;
		c->render_sent_ms = (int64_t)clock_mono_ms();
	}
	if (more)
		ask_snapshot(s, s->snap_fd < 0);
}

void front_ask_render(struct status_server *s, struct client *c, const struct status_request *req)
{
	wait_on(s, c, W_RENDER);
	c->pending = *req;
	/* The first snapshot asked for after its bytes were read: requests
	 * read together (pipelined) share one. */
	c->need_ticket = c->read_ticket + 1;
	if (c->need_ticket <= s->ticket_done && s->snap_fd >= 0)
		send_renders(s);
	else
		ask_snapshot(s, s->snap_fd < 0);
}

/* reload, try, confirm, trial-wait: to bondd with the client's socket,
 * which bondd judges again.  A trial-wait is answered when its trial ends:
 * the client waits in CS_WAIT, with no clock, as a reload does. */
void front_ask_reload(struct status_server *s, struct client *c, const struct status_request *req)
{
	uint16_t type = ipc_ask_type(req->verb);
	uint32_t arg = req->arg;
	bool no_arg = type == IPC_RELOAD || type == IPC_CONFIRM;

	c->reload_turn = s->turn;
	int fd = dup(c->fd);
	if (fd < 0) {
		client_reply_error(c, SE_INTERNAL, req->verb == SV_RELOAD ? "reload: out of descriptors"
									 : "out of descriptors");
		return;
	}
	send_parent(s, type, 0, wait_on(s, c, W_REPLY), &arg, no_arg ? 0 : sizeof(arg), fd);
}

void front_ask_proc(struct status_server *s, struct client *c, const struct status_request *req)
{
	struct ipc_names n;
	int fd = dup(c->fd);

	if (fd < 0) {
		front_ask_render(s, c, req); /* the text this process may read */
		return;
	}
	ipc_names_from_request(&n, req);
	send_parent(s, IPC_PROC, 0, wait_on(s, c, W_REPLY), &n, sizeof(n), fd);
}

void front_ask_check(struct status_server *s, struct client *c, const struct status_request *req,
		     bool start)
{
	struct ipc_names n;

	ipc_names_from_request(&n, req);
	c->pending = *req;
	send_parent(s, IPC_CHECK, start ? IPC_CHECK_START : 0, wait_on(s, c, W_CHECK), &n,
		    sizeof(n), -1);
}

void front_ask_settle(struct status_server *s, struct client *c)
{
	send_parent(s, IPC_SETTLE, 0, wait_on(s, c, W_SETTLE), NULL, 0, -1);
}

/* bondd handled what the kernel had queued when c asked to settle: c's
 * answer is the bonds' health in a snapshot asked for from now on, so
 * that a request c sends next (pipelined or not) sees that handling too. */
static void on_settled(struct status_server *s, struct client *c)
{
	struct status_request req = {.verb = SV_HEALTH};

	c->read_ticket = s->ticket_sent;
	front_ask_render(s, c, &req);
}

/* A client's answer arrived: queued, and the client reads requests again;
 * the dispatch serves it (status_server.c, serve_marked). */
static void front_deliver(struct client *c, const char *reply, size_t len)
{
	sb_add(&c->out, reply, len);
	c->state = CS_REQUEST;
	c->request_start_ms = c->in_len ? (int64_t)clock_mono_ms() : 0;
	c->serve = true;
}

/* A link check ended: each client waiting for one asks bondd again (its
 * count, then its table from a snapshot), and is served by the dispatch. */
static void checks_done(struct status_server *s)
{
	for (size_t i = 0; i < s->n_clients; i++) {
		struct client *c = s->clients[i];
		if (c->state != CS_CHECK)
			continue;
		struct status_request req = c->pending;
		front_ask_check(s, c, &req, false);
		c->serve = true;
	}
}

/* bondd counted the checks under way for c's request. */
static void on_check_count(struct status_server *s, struct client *c, uint32_t busy)
{
	if (busy) {
		c->state = CS_CHECK;
		if (!c->request_start_ms)
			c->request_start_ms = (int64_t)clock_mono_ms();
		client_flush(s, c);
		return;
	}
	struct status_request req = c->pending;
	req.verb = SV_LINKCHECK;
	c->read_ticket = s->ticket_sent; /* a picture taken after the check ended */
	front_ask_render(s, c, &req);
}

/* A new snapshot: the renders the old one had not answered go to it. */
static void take_snapshot(struct status_server *s, int fd)
{
	if (s->snap_fd >= 0) {
		epoll_ctl(s->epfd, EPOLL_CTL_DEL, s->snap_fd, NULL);
		close(s->snap_fd);
	}
	ipc_reader_free(&s->snap_rd);
	ipc_writer_free(&s->snap_wr);
	s->snap_fd = fd;
	for (size_t i = 0; i < s->n_clients; i++)
		s->clients[i]->render_sent = false;
	if (fd < 0)
		return;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = TAG_SNAP};
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		s->snap_fd = -1;
	}
}

static int on_parent_frame(struct status_server *s, const struct ipc_hdr *h, const void *p)
{
	struct client *c;

	if (!p || ipc_frame_check(h, true) < 0)
		return -1;
	switch (h->type) {
	case IPC_SNAP: {
		int fd = ipc_reader_take_fd(&s->parent_rd);
		if (fd < 0)
			return -1;
		take_snapshot(s, fd);
	}
		/* fall through */
	case IPC_SNAP_SAME:
		s->snap_inflight = false;
		if (h->id > s->ticket_done)
			s->ticket_done = h->id;
		send_renders(s);
		break;
	case IPC_EVENT: {
		struct event e;
		memcpy(&e, p, sizeof(e));
		e.bond[IFNAMSIZ - 1] = e.link[IFNAMSIZ - 1] = e.text[sizeof(e.text) - 1] = '\0';
		status_server_broadcast(s, &e);
		break;
	}
	case IPC_CHECK_ANS:
		if ((c = client_by_wait(s, h->id)) && c->wait == W_CHECK) {
			uint32_t busy;
			memcpy(&busy, p, sizeof(busy));
			on_check_count(s, c, busy);
		}
		break;
	case IPC_CHECK_DONE:
		checks_done(s);
		break;
	case IPC_REPLY:
		if ((c = client_by_wait(s, h->id)) && c->wait == W_REPLY)
			front_deliver(c, p, h->len);
		break;
	case IPC_SETTLED:
		if ((c = client_by_wait(s, h->id)) && c->wait == W_SETTLE)
			on_settled(s, c);
		break;
	case IPC_PING:
		send_parent(s, IPC_PONG, 0, h->id, NULL, 0, -1);
		break;
	}
	return 0;
}

void front_on_parent(struct status_server *s)
{
	struct ipc_hdr h;
	const void *p;

	for (int k = 0; k < 64; k++) {
		int r = ipc_reader_fill(&s->parent_rd, s->parent_fd);
		if (r < 0) {
			s->parent_gone = true;
			return;
		}
		while (ipc_reader_peek(&s->parent_rd, &h, &p)) {
			if (on_parent_frame(s, &h, p) < 0) {
				log_err("status: a malformed frame from bondd; ending");
				s->parent_gone = true;
				return;
			}
			ipc_reader_next(&s->parent_rd);
		}
		if (r == 0)
			break;
	}
	front_flush(s);
}

/* The snapshot went away (it is replaced, or died): what it had not
 * answered waits for the next, which is asked for at once. */
static void snapshot_lost(struct status_server *s)
{
	take_snapshot(s, -1);
	send_renders(s);
}

int64_t front_snapshot_due(struct status_server *s, int64_t now)
{
	int64_t due = 0;

	for (size_t i = 0; s->snap_fd >= 0 && i < s->n_clients; i++) {
		const struct client *c = s->clients[i];
		if (c->state != CS_WAIT || c->wait != W_RENDER || !c->render_sent)
			continue;
		int64_t at = c->render_sent_ms + SNAP_STALL_MS;
		if (at <= now) {
			/* Stopped, or stuck: its clients' replies are asked of a
			 * new one (the old one ends when it next writes). */
			log_warn("status: a snapshot left a reply unanswered for %d s; asking for "
				 "a new one", SNAP_STALL_MS / 1000);
			snapshot_lost(s);
			front_flush(s);
			return 0;
		}
		if (!due || at < due)
			due = at;
	}
	return due;
}

void front_on_snap(struct status_server *s)
{
	struct ipc_hdr h;
	const void *p;
	int r = ipc_reader_fill(&s->snap_rd, s->snap_fd);

	if (r < 0) {
		snapshot_lost(s);
		return;
	}
	while (ipc_reader_peek(&s->snap_rd, &h, &p)) {
		struct client *c;
		if (!p || h.type != IPC_REPLY || h.len > IPC_MAX_PAYLOAD) {
			log_err("status: a malformed reply from a snapshot; dropping it");
			snapshot_lost(s);
			return;
		}
		if ((c = client_by_wait(s, h.id)) && c->wait == W_RENDER && c->render_sent)
			front_deliver(c, p, h.len);
		ipc_reader_next(&s->snap_rd);
	}
	send_renders(s); /* those that waited for room */
	front_flush(s);
}

/* --- a snapshot -------------------------------------------------------- */

static bool read_whole(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

static bool write_whole(int fd, const void *buf, size_t len)
{
	size_t sent = 0;
	while (sent < len) {
		ssize_t n = send(fd, (const char *)buf + sent, len - sent, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		sent += (size_t)n;
	}
	return true;
}

int status_snapshot_run(int fd, status_view_fn view, void *ctx)
{
	struct ipc_render r;
	struct strbuf out = {0};

	while (read_whole(fd, &r, sizeof(r))) {
		struct status_request req;
		struct status_view v = {0};
		if (ipc_render_check(&r) < 0 ||
		    ipc_names_to_request(&r.req, (enum status_verb)r.verb, &req) < 0)
			break; /* not from our status process: end */
		view(ctx, &v);
		v.privileged = r.privileged;
		sb_reset(&out);
		status_reply_render(&v, &req, &out);
		if (out.oom) {
			sb_reset(&out);
			out.oom = false;
			status_reply_error(&out, SE_INTERNAL, "out of memory");
		}
		struct ipc_hdr h = {.type = IPC_REPLY, .id = r.id, .len = (uint32_t)out.len};
		if (!write_whole(fd, &h, sizeof(h)) || !write_whole(fd, out.s, out.len))
			break;
	}
	sb_free(&out);
	return 0;
}
