/* SPDX-License-Identifier: MIT */
/* The status server's clients, the bottom of its files (status_server.c,
 * status_answer.c and status_front.c call these; these call none of them):
 * a client's replies queued, its output sent, its budget, the room it
 * takes among the others, and the watchers' event lines. */
#include "status_server_parts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "log.h"
#include "status_reply.h"

void client_reply_error(struct client *c, enum status_error code, const char *msg)
{
	status_reply_error(&c->out, code, msg);
}

void client_reply_ok(struct client *c, enum status_health h, const struct strbuf *body)
{
	status_reply_ok(&c->out, h, body);
}

void client_reply_body(struct client *c, enum status_health h, struct strbuf *body)
{
	status_reply_ok(&c->out, h, body);
	sb_free(body);
}

bool client_backpressured(const struct client *c)
{
	return c->state == CS_CHECK || c->state == CS_WAIT ||
	       (c->state == CS_REQUEST && (c->out.len > BACKPRESSURE || c->budget_blocked));
}

struct uid_budget *uid_budget_of(struct status_server *s, unsigned uid)
{
	struct uid_budget *free_slot = NULL;
	int64_t now = (int64_t)clock_mono_ms();

	for (size_t i = 0; i < MAX_CLIENTS; i++) {
		struct uid_budget *b = &s->budgets[i];
		if (b->used && b->uid == uid)
			return b;
		/* A slot whose uid has no client left, and its connection
		 * budget whole again, is free: a uid whose connections are
		 * all refused keeps its slot, or each refusal would give it
		 * a fresh budget. */
		if (!free_slot &&
		    (!b->used || (!clients_count(s, false, true, b->uid) &&
				  tb_level(&b->conns, UID_CONNS_BURST, UID_CONNS_PER_S, now) ==
					  UID_CONNS_BURST)))
			free_slot = b;
	}
	if (!free_slot)
		return NULL; /* every slot a uid with clients, or refused lately */
	*free_slot = (struct uid_budget){.uid = uid, .used = true};
	tb_init(&free_slot->bytes, UID_BYTES_BURST, now);
	tb_init(&free_slot->reqs, UID_REQS_BURST, now);
	tb_init(&free_slot->checks, UID_CHECKS_BURST, now);
	tb_init(&free_slot->conns, UID_CONNS_BURST, now);
	return free_slot;
}

struct uid_budget *client_budget(struct status_server *s, const struct client *c)
{
	return c->privileged ? NULL : uid_budget_of(s, c->uid);
}

/* A reload is answered at once, but what the client sent after it waits
 * for the next turn of the event loop: a pipeline of reloads must not
 * hold the loop (watchdog pings, repairs, other clients) for all of them. */
bool client_reloaded_this_turn(const struct status_server *s, const struct client *c)
{
	return c->reload_turn == s->turn;
}

/* Whole request lines already read, waiting to be answered. */
bool client_lines_waiting(const struct client *c)
{
	return c->state == CS_REQUEST && memchr(c->in, '\n', c->in_len);
}

/* Input while reading requests, unless the client is too far behind or has
 * ended its input (then the socket is always readable: EOF); output while
 * some is pending.  Hang-ups and errors are always reported. */
static void set_events(struct status_server *s, struct client *c)
{
	bool reading = c->state == CS_REQUEST && !c->eof && !client_backpressured(c);
	/* Lines left for the next turn (after a reload): a writable socket
	 * wakes us at once, where the socket may have nothing more to read. */
	bool later = client_lines_waiting(c) && !client_backpressured(c);
	uint32_t want = (reading ? EPOLLIN : 0) | (c->out.len || later ? EPOLLOUT : 0);
	if (want == c->events)
		return;
	struct epoll_event ev = {.events = want, .data.ptr = c};
	epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
	c->events = want;
}

void client_drop(struct status_server *s, struct client *c)
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
	free(c);
}

bool client_is_live(const struct status_server *s, const struct client *c)
{
	for (size_t i = 0; i < s->n_clients; i++)
		if (s->clients[i] == c)
			return true;
	return false;
}

/* The client that makes room: among those that match (watchers only, or
 * one uid only), the longest idle unprivileged one; a privileged one only
 * when no unprivileged one matches and privileged ones may go. */
struct client *client_victim(const struct status_server *s, bool watchers, bool by_uid,
			     unsigned uid, bool may_take_privileged)
{
	struct client *best = NULL;

	for (size_t i = 0; i < s->n_clients; i++) {
		struct client *c = s->clients[i];
		/* Who may reload (root, or what systemd runs ExecReload= as)
		 * ranks with the privileged: a flood of connections cannot
		 * push `systemctl reload` out between its connect() and its
		 * request. */
		if ((watchers && c->state != CS_WATCH) || (by_uid && c->uid != uid) ||
		    (c->trusted && !may_take_privileged))
			continue;
		/* Unprivileged first, then the longest idle.  A watcher is
		 * ranked by when it began watching: it is idle by nature. */
		int64_t age = c->state == CS_WATCH ? c->since_ms : c->last_active_ms;
		int64_t best_age = !best ? 0 : best->state == CS_WATCH ? best->since_ms :
									  best->last_active_ms;
		if (!best || (best->trusted && !c->trusted) ||
		    (best->trusted == c->trusted && age < best_age))
			best = c;
	}
	return best;
}

size_t clients_count(const struct status_server *s, bool watchers, bool by_uid, unsigned uid)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_clients; i++)
		n += (!watchers || s->clients[i]->state == CS_WATCH) &&
		     (!by_uid || s->clients[i]->uid == uid);
	return n;
}

/* Sends what is pending; returns -1 when the client is gone. */
int client_flush(struct status_server *s, struct client *c)
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
		c->last_active_ms = (int64_t)clock_mono_ms();
	}
	if (c->out.oom || c->out.len > MAX_PENDING)
		return -1;
	/* Two clocks, the earlier wins.  A request, once begun, must be whole
	 * in time (a byte now and then does not extend it); one waiting for
	 * its link check has CHECK_TIMEOUT_MS and no idle clock.  A pending reply
	 * must be taken, some of it every so often, and a client between
	 * requests gets the idle timeout.  An idle watcher has neither. */
	bool begun = c->state == CS_CHECK || (c->state == CS_REQUEST && c->in_len && !c->eof);
	/* One whose request is with bondd or a snapshot has no clock: they
	 * answer, or the status process ends with them. */
	bool idle_clock = c->out.len > 0 ||
			  (c->state != CS_WATCH && c->state != CS_CHECK && c->state != CS_WAIT);
	int64_t by_activity = c->last_active_ms + CLIENT_TIMEOUT_MS;
	c->deadline_ms = begun ? c->request_start_ms + (c->state == CS_CHECK ? CHECK_TIMEOUT_MS
									   : CLIENT_TIMEOUT_MS)
			       : 0;
	if (idle_clock && (!c->deadline_ms || by_activity < c->deadline_ms))
		c->deadline_ms = by_activity;
	set_events(s, c);
	return 0;
}

/* Queues an event line for every watcher; nothing is sent here, so that
 * an event recorded in the middle of a repair costs a copy per watcher and
 * no system call.  status_server_flush sends. */
void status_server_broadcast(struct status_server *s, const struct event *e)
{
	char text[512], pub[512];
	size_t text_len = 0, pub_len = 0, json_len = 0, pub_json_len = 0;
	struct strbuf json = {0}, pub_json = {0};

	for (size_t i = 0; i < s->n_clients;) {
		struct client *c = s->clients[i];
		if (c->state != CS_WATCH) {
			i++;
			continue;
		}
		/* Each form at most once per event, and only if someone wants it. */
		const char *line;
		size_t len;
		if (c->json) {
			struct strbuf *b = c->privileged ? &json : &pub_json;
			size_t *l = c->privileged ? &json_len : &pub_json_len;
			if (!*l) {
				event_json_line(b, e, c->privileged);
				*l = b->len;
			}
			line = b->s;
			len = *l;
		} else if (c->privileged) {
			if (!text_len)
				text_len = event_format_line(e, text, sizeof(text), true);
			line = text;
			len = text_len;
		} else {
			if (!pub_len)
				pub_len = event_format_line(e, pub, sizeof(pub), false);
			line = pub;
			len = pub_len;
		}
		sb_add(&c->out, line, len);
		if (c->out.oom || c->out.len > MAX_WATCH_BACKLOG) {
			log_debug("status: a watcher of uid %u fell %zu bytes behind; closing it",
				  c->uid, c->out.len);
			client_drop(s, c);
			continue;
		}
		s->unsent = true;
		i++;
	}
	sb_free(&json);
	sb_free(&pub_json);
}
