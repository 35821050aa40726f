/* SPDX-License-Identifier: MIT */
/* One request line answered: status, --proc, watch, reload, check; the
 * reply's body made from one status_view. */
#include "status_server_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_config.h"
#include "lldp_render.h"
#include "log.h"
#include "peer_cred.h"
#include "proc_filter.h"

void client_reply_error(struct client *c, enum status_error code, const char *msg)
{
	sb_printf(&c->out, STATUS_PROTO_TAG " error %d %s\n", (int)code, msg);
}

void client_reply_ok(struct client *c, enum status_health h, const struct strbuf *body)
{
	sb_printf(&c->out, STATUS_PROTO_TAG " ok %d %zu\n", (int)h, body->len);
	if (body->len)
		sb_add(&c->out, body->s, body->len);
}

void client_reply_body(struct client *c, enum status_health h, struct strbuf *body)
{
	if (body->oom)
		client_reply_error(c, SE_INTERNAL, "out of memory");
	else
		client_reply_ok(c, h, body);
	sb_free(body);
}

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

/* The per-slave tables of the link check's last results. */
void reply_body_linkcheck(const struct bond_views *bv, struct strbuf *body)
{
	for (size_t i = 0; i < bv->n; i++) {
		const struct bond_view *b = &bv->v[i];
		linkcheck_table(body, b->linkcheck, b->want->name, b->findings, b->n_findings);
	}
}

/* Each slave's LLDP neighbour, bond by bond. */
static void body_neighbours(const struct bond_views *bv, struct strbuf *body)
{
	for (size_t i = 0; i < bv->n; i++) {
		const struct bond_view *b = &bv->v[i];
		const struct lldp_port *ports[BONDD_MAX_SLAVES];
		for (size_t j = 0; j < b->want->n_slaves; j++)
			ports[j] = b->slaves[j].lldp;
		lldp_text(body, b->want, ports, bv->from->now_ms);
	}
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
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	const char *unknown;
	struct status_view v = {0};
	struct strbuf body = {0};
	char msg[400];
	size_t n = 0;

	c->reload_turn = s->turn;
	if (!s->reload) {
		client_reply_error(c, SE_INTERNAL, "reload is not available");
		return;
	}
	if (!peer_has_net_admin(c->fd) && !peer_is_own_user(c->fd)) {
		client_reply_error(c, SE_FORBIDDEN, "reload needs root with CAP_NET_ADMIN");
		return;
	}
	/* However long the kernel takes, this client is not timed out
	 * meanwhile; client_flush() sets its deadline again afterwards. */
	c->deadline_ms = 0;
	if (s->reload(s->ctx, msg, sizeof(msg)) < 0) {
		client_reply_error(c, SE_REFUSED, msg);
		return;
	}
	s->view(s->ctx, &v);
	v.privileged = c->privileged;
	status_select(&v, &all, sel, &n, &unknown);
	sb_printf(&body, "%s\n", msg);
	struct bond_views bv;
	if (bond_views_build(&bv, &v, sel, n, false) < 0) {
		/* the file is applied: the reply says so (systemctl reload
		 * must not fail), with a health that claims nothing good */
		sb_printf(&body, "health not judged: out of memory\n");
		client_reply_body(c, HEALTH_DEGRADED, &body);
		return;
	}
	client_reply_body(c, bv.worst, &body);
	bond_views_free(&bv);
}

void client_answer(struct status_server *s, struct client *c, const char *line, size_t len)
{
	struct status_request req;
	struct status_view v = {0};
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	char err[160];
	size_t n = 0;
	struct strbuf body = {0};

	if (status_request_parse(line, len, &req, err, sizeof(err)) < 0) {
		client_reply_error(c, SE_BAD_REQUEST, err);
		return;
	}
	if (req.verb == SV_WATCH || req.verb == SV_WATCH_JSON) {
		start_watch(s, c, req.verb == SV_WATCH_JSON);
		return;
	}
	if (req.verb == SV_RELOAD) {
		answer_reload(s, c);
		return;
	}
	if (!client_view_select(s, c, &req, &v, sel, &n))
		return;
	/* Every bond's facts looked up and judged once, for the health in
	 * the header and for the body; the live speed and counters read
	 * only for the formats that show them. */
	struct bond_views bv;
	if (bond_views_build(&bv, &v, sel, n, req.verb == SV_JSON || req.verb == SV_PROMETHEUS) < 0) {
		client_reply_error(c, SE_INTERNAL, "out of memory");
		return;
	}
	enum status_health h = bv.worst;
	switch (req.verb) {
	case SV_VERSION:
		sb_puts(&body, "bondd " BONDD_VERSION " protocol 1\n");
		h = HEALTH_OK;
		break;
	case SV_PROC: body_proc(s, c, sel, n, &body); break;
	case SV_JSON: render_json(&body, &bv); break;
	case SV_BRIEF: render_brief(&body, &bv); break;
	case SV_PROMETHEUS: render_prometheus(&body, &bv); break;
	case SV_HEALTH: break;
	case SV_NEIGHBOURS: body_neighbours(&bv, &body); break;
	case SV_LINKCHECK:
		if (s->check && s->check(s->ctx, sel, n, true) > 0 &&
		    (c->check_line = strndup(line, len))) {
			c->state = CS_CHECK;
			c->request_start_ms = (int64_t)clock_mono_ms();
			bond_views_free(&bv);
			return;
		}
		reply_body_linkcheck(&bv, &body);
		break;
	case SV_WATCH:
	case SV_WATCH_JSON:
	case SV_RELOAD: break; /* answered above */
	}
	bond_views_free(&bv);
	client_reply_body(c, h, &body);
}

/* Answers the complete request lines received, in order, while the client
 * keeps up with the replies.  After the client ended its input, what is
 * left without a newline is its last request. */
void client_answer_lines(struct status_server *s, struct client *c)
{
	while (c->state == CS_REQUEST && !client_backpressured(c) && !client_reloaded_this_turn(s, c) &&
	       client_is_live(s, c)) {
		char *nl = memchr(c->in, '\n', c->in_len);
		if (!nl && !(c->eof && c->in_len))
			break;
		size_t line = nl ? (size_t)(nl - c->in) : c->in_len;
		size_t used = nl ? line + 1 : line;
		client_answer(s, c, c->in, line);
		if (c->state == CS_WATCH)
			return;
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
		/* What is left arrived with the last read, at the latest; a
		 * client waiting for a link check keeps its clock. */
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
