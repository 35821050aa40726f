/* SPDX-License-Identifier: MIT */
/* One request line answered: parsed here (in the status process, the only
 * part of bondd that reads a client's bytes), then handed on: watch is
 * served here, a reload and the /proc text of a privileged client go to
 * bondd, a link check asks bondd first, and every other reply is rendered
 * by a snapshot (status_ipc.h).  In-process (the unit tests: no parent)
 * the same requests are answered through the server's callbacks. */
#include "status_server_parts.h"

#include <errno.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_config.h"
#include "log.h"
#include "peer_cred.h"
#include "status_reply.h"

bool client_view_select(struct status_server *s, struct client *c, const struct status_request *req,
			struct status_view *v, const struct desired_bond **sel, size_t *n)
{
	const char *unknown = NULL;
	char err[160];

	s->view(s->ctx, v);
	v->privileged = c->privileged;
	if (req->verb == SV_VERSION || status_select(v, req, sel, n, &unknown) >= 0)
		return true;
	snprintf(err, sizeof(err), "unknown bond \"%s\": not in bondd's configuration", unknown);
	client_reply_error(c, SE_UNKNOWN_BOND, err);
	return false;
}

/* A client asks to watch: it stops sending (its read side is shut, so
 * whatever it writes fails at its end instead of costing us), and the
 * oldest watcher makes room when its uid or everyone has too many. */
static void start_watch(struct status_server *s, struct client *c, bool json)
{
	struct client *old = NULL;

	if (!c->privileged && clients_count(s, true, true, c->uid) >= MAX_WATCHERS_PER_UID)
		old = client_victim(s, true, true, c->uid, false);
	else if (clients_count(s, true, false, 0) >= MAX_WATCHERS)
		old = client_victim(s, true, false, 0, c->privileged);
	if (old) {
		log_debug("status: closing the oldest watcher of uid %u to make room", old->uid);
		client_drop(s, old);
	}
	if (clients_count(s, true, false, 0) >= MAX_WATCHERS) {
		/* Every watcher is privileged and this client is not. */
		client_reply_error(c, SE_BUSY, "too many watchers");
		c->state = CS_CLOSING;
		return;
	}
	sb_puts(&c->out, STATUS_PROTO_TAG " ok 0 stream\n");
	c->state = CS_WATCH;
	c->json = json;
	c->in_len = 0;
	c->since_ms = (int64_t)clock_mono_ms();
	shutdown(c->fd, SHUT_RD);
	log_debug("status: a client of uid %u is watching events", c->uid);
}

static bool is_trial_verb(enum status_verb v)
{
	return v == SV_TRY || v == SV_CONFIRM || v == SV_TRIAL_WAIT;
}

/* Root holding CAP_NET_ADMIN, or bondd's own user when that is not root:
 * systemd runs ExecReload= as the service's user.  Judged now, on the
 * process as it is when it asks, not as it was when it connected. */
static bool may_reload(const struct client *c)
{
	return peer_has_net_admin(c->fd) || peer_is_own_user(c->fd);
}

/* Who may reload may try, confirm and wait for a trial; no one else. */
static void reply_forbidden(struct client *c, enum status_verb v)
{
	const char *why;
	int code = ipc_ask_judge(v, true, false, 0, &why);

	client_reply_error(c, (enum status_error)code, why);
}

/* In-process (tests): reload, try, confirm and trial-wait, synchronous as
 * `systemctl reload` must be, through the reload and trial callbacks; a
 * trial-wait for a trial that runs is answered busy here (only the status
 * process keeps a client waiting for one).  In the status process bondd
 * judges them again, on the client's socket. */
static void answer_ask_here(struct status_server *s, struct client *c,
			    const struct status_request *req)
{
	bool reload = req->verb == SV_RELOAD;
	bool has = reload ? s->reload != NULL : s->trial != NULL;
	const char *why;
	char msg[400];

	c->reload_turn = s->turn;
	int r = ipc_ask_judge(req->verb, has, has && may_reload(c), req->arg, &why);
	if (r != 0) {
		client_reply_error(c, (enum status_error)r, why);
		return;
	}
	c->deadline_ms = 0;
	if (reload)
		r = s->reload(s->ctx, msg, sizeof(msg)) < 0 ? SE_REFUSED : 0;
	else
		r = s->trial(s->ctx, req->verb, req->arg, msg, sizeof(msg));
	if (r == STATUS_TRIAL_PENDING) {
		client_reply_error(c, SE_BUSY, "the trial runs; waiting needs the status process");
		return;
	}
	if (r != 0) {
		client_reply_error(c, (enum status_error)r, msg);
		return;
	}
	struct status_view v = {0};
	s->view(s->ctx, &v);
	v.privileged = c->privileged;
	status_reply_reloaded(&v, msg, &c->out);
}

/* In-process: the link check started (or joined); 1 when c now waits. */
static bool check_here(struct status_server *s, struct client *c, const struct status_request *req)
{
	struct status_view v = {0};
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	size_t n = 0;

	if (!s->check || !client_view_select(s, c, req, &v, sel, &n))
		return !s->check ? false : true; /* unknown bond: answered */
	if (s->check(s->ctx, sel, n, true) <= 0)
		return false;
	c->pending = *req;
	c->state = CS_CHECK;
	c->request_start_ms = (int64_t)clock_mono_ms();
	return true;
}

void client_answer(struct status_server *s, struct client *c, const char *line, size_t len)
{
	struct status_request req;
	char err[256];

	if (status_request_parse(line, len, &req, err, sizeof(err)) < 0) {
		client_reply_error(c, SE_BAD_REQUEST, err);
		return;
	}
	if (req.verb == SV_WATCH || req.verb == SV_WATCH_JSON) {
		start_watch(s, c, req.verb == SV_WATCH_JSON);
		return;
	}
	if (req.verb == SV_LINKCHECK) {
		struct uid_budget *b = client_budget(s, c);
		if (b && !tb_take(&b->checks, UID_CHECKS_BURST, UID_CHECKS_PER_S, 1,
				  (int64_t)clock_mono_ms())) {
			client_reply_error(c, SE_BUSY, "too many link checks asked by this user; "
						       "try again in a second");
			return;
		}
	}
	if (req.verb == SV_VERSION) {
		/* Needs nothing of bondd's state: answered here at once. */
		struct strbuf body = {0};
		sb_puts(&body, "bondd " BONDD_VERSION " protocol 1\n");
		client_reply_body(c, HEALTH_OK, &body);
		return;
	}
	if (s->parent_fd >= 0) {
		/* A client that may not reload is refused here: bondd judges
		 * again the ones that may, and its budget is not spent on
		 * the others' (a flood of them queued root's requests). */
		if ((req.verb == SV_RELOAD || is_trial_verb(req.verb)) && !may_reload(c))
			reply_forbidden(c, req.verb);
		else if (req.verb == SV_RELOAD || is_trial_verb(req.verb))
			front_ask_reload(s, c, &req);
		else if (req.verb == SV_LINKCHECK)
			front_ask_check(s, c, &req, true);
		else if (req.verb == SV_SETTLE)
			front_ask_settle(s, c);
		else if (req.verb == SV_PROC && c->privileged)
			front_ask_proc(s, c, &req);
		else
			front_ask_render(s, c, &req);
		return;
	}
	if (req.verb == SV_RELOAD || is_trial_verb(req.verb)) {
		answer_ask_here(s, c, &req);
		return;
	}
	if (req.verb == SV_LINKCHECK && check_here(s, c, &req))
		return;
	if (req.verb == SV_SETTLE) {
		/* In-process (tests) there is no loop to wait for. */
		client_reply_error(c, SE_INTERNAL, "settle needs the status process");
		return;
	}
	struct status_view v = {0};
	s->view(s->ctx, &v);
	v.privileged = c->privileged;
	status_reply_render(&v, &req, &c->out);
}

/* Answers the complete request lines received, in order, while the client
 * keeps up with the replies and its uid has budget.  After the client
 * ended its input, what is left without a newline is its last request. */
void client_answer_lines(struct status_server *s, struct client *c)
{
	while (c->state == CS_REQUEST && !client_backpressured(c) && !client_reloaded_this_turn(s, c) &&
	       client_is_live(s, c)) {
		char *nl = memchr(c->in, '\n', c->in_len);
		if (!nl && !(c->eof && c->in_len))
			break;
		struct uid_budget *b = client_budget(s, c);
		if (b && !tb_take(&b->reqs, UID_REQS_BURST, UID_REQS_PER_S, 1,
				  (int64_t)clock_mono_ms())) {
			c->budget_blocked = true;
			break;
		}
		size_t line = nl ? (size_t)(nl - c->in) : c->in_len;
		size_t used = nl ? line + 1 : line;
		client_answer(s, c, c->in, line);
		if (c->state == CS_WATCH)
			return;
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
		/* What is left arrived with the last read, at the latest; a
		 * client waiting for a link check or an answer keeps its clock. */
		if (c->state == CS_REQUEST)
			c->request_start_ms = c->in_len ? c->last_active_ms : 0;
	}
	if (c->state == CS_REQUEST && c->in_len == sizeof(c->in) && !client_lines_waiting(c)) {
		char msg[96];
		snprintf(msg, sizeof(msg), "request longer than %d bytes", STATUS_MAX_REQUEST);
		client_reply_error(c, SE_TOO_LONG, msg);
		/* Read no more of it: the client's writes now fail at its end,
		 * and it still reads the error before the close. */
		shutdown(c->fd, SHUT_RD);
		c->state = CS_CLOSING;
		c->in_len = 0;
	}
	if (c->state == CS_REQUEST && c->eof && c->in_len == 0)
		c->state = CS_CLOSING; /* every request answered */
}
