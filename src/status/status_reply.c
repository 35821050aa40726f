/* SPDX-License-Identifier: MIT */
/* One reply rendered whole from a status_view: the part of answering that
 * needs bondd's state, run by a snapshot process (status_ipc.h), by bondd
 * itself for the /proc text only it may read, and in-process by the tests. */
#include "status_reply.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "build_config.h"
#include "lldp_render.h"
#include "proc_filter.h"

void status_reply_error(struct strbuf *out, enum status_error code, const char *msg)
{
	sb_printf(out, STATUS_PROTO_TAG " error %d %s\n", (int)code, msg);
}

void status_reply_ok(struct strbuf *out, enum status_health h, const struct strbuf *body)
{
	if (body->oom) {
		status_reply_error(out, SE_INTERNAL, "out of memory");
		return;
	}
	sb_printf(out, STATUS_PROTO_TAG " ok %d %zu\n", (int)h, body->len);
	if (body->len)
		sb_add(out, body->s, body->len);
}

/* The kernel's text for each bond, as the kernel would show it to this
 * client, one blank line between bonds.  Bonds missing from the kernel
 * have no text (the header's status says so).  Read as this process may
 * read it: a reader without CAP_NET_ADMIN gets the kernel's own shorter
 * text (bond_info_show_master, bond_info_show_slave in
 * drivers/net/bonding/bond_procfs.c ask capable()), and the filter makes
 * sure of it whoever reads. */
static void body_proc(bool privileged, const struct desired_bond *const *sel, size_t n,
		      struct strbuf *body)
{
	char path[64 + IFNAMSIZ], buf[16384];
	struct strbuf text = {0};
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/net/bonding/%s", sel[i]->name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		sb_reset(&text);
		ssize_t r;
		while ((r = read(fd, buf, sizeof(buf))) > 0)
			sb_add(&text, buf, (size_t)r);
		close(fd);
		if (!first)
			sb_puts(body, "\n");
		first = false;
		if (privileged)
			sb_add(body, text.s, text.len);
		else
			proc_filter_unprivileged(text.s, text.len, body);
	}
	sb_free(&text);
}

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

void status_reply_render(const struct status_view *v, const struct status_request *req,
			 struct strbuf *out)
{
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	const char *unknown = NULL;
	struct strbuf body = {0};
	size_t n = 0;
	char err[160];

	if (req->verb != SV_VERSION && status_select(v, req, sel, &n, &unknown) < 0) {
		snprintf(err, sizeof(err), "unknown bond \"%s\": not in bondd's configuration",
			 unknown);
		status_reply_error(out, SE_UNKNOWN_BOND, err);
		return;
	}
	/* Every bond's facts looked up and judged once, for the health in
	 * the header and for the body; the live speed and counters read
	 * only for the formats that show them. */
	struct bond_views bv;
	if (bond_views_build(&bv, v, sel, n, req->verb == SV_JSON || req->verb == SV_PROMETHEUS ||
						      req->verb == SV_EXPLAIN) < 0) {
		status_reply_error(out, SE_INTERNAL, "out of memory");
		return;
	}
	enum status_health h = bv.worst;
	switch (req->verb) {
	case SV_VERSION:
		sb_puts(&body, "bondd " BONDD_VERSION " protocol 1\n");
		h = HEALTH_OK;
		break;
	case SV_PROC: body_proc(v->privileged, sel, n, &body); break;
	case SV_JSON: render_json(&body, &bv); break;
	case SV_BRIEF: render_brief(&body, &bv); break;
	case SV_PROMETHEUS: render_prometheus(&body, &bv); break;
	case SV_HEALTH: break;
	case SV_NEIGHBOURS: body_neighbours(&bv, &body); break;
	case SV_LINKCHECK: reply_body_linkcheck(&bv, &body); break;
	case SV_EXPLAIN: render_explain(&body, &bv); break;
	case SV_WATCH:
	case SV_WATCH_JSON:
	case SV_RELOAD:
	case SV_TRY:
	case SV_CONFIRM:
	case SV_TRIAL_WAIT:
	case SV_SETTLE: break; /* never rendered: the status process answers them */
	}
	bond_views_free(&bv);
	status_reply_ok(out, h, &body);
	sb_free(&body);
}

void status_reply_reloaded(const struct status_view *v, const char *msg, struct strbuf *out)
{
	struct status_request all = {.verb = SV_HEALTH};
	const struct desired_bond *sel[STATUS_MAX_BONDS];
	const char *unknown;
	struct strbuf body = {0};
	size_t n = 0;

	status_select(v, &all, sel, &n, &unknown);
	sb_printf(&body, "%s\n", msg);
	struct bond_views bv;
	if (bond_views_build(&bv, v, sel, n, false) < 0) {
		/* the file is applied: the reply says so (systemctl reload
		 * must not fail), with a health that claims nothing good */
		sb_printf(&body, "health not judged: out of memory\n");
		status_reply_ok(out, HEALTH_DEGRADED, &body);
		sb_free(&body);
		return;
	}
	status_reply_ok(out, bv.worst, &body);
	bond_views_free(&bv);
	sb_free(&body);
}
