/* SPDX-License-Identifier: MIT */
/*
 * One reply of the status protocol (status_proto.h) rendered whole, header
 * and body, from one status_view: what a snapshot process does for each
 * request the status process hands it (status_ipc.h).  Pure but for the
 * view's link_live callback and, for SV_PROC, reading /proc/net/bonding.
 */
#ifndef BONDD_STATUS_REPLY_H
#define BONDD_STATUS_REPLY_H

#include "status_render.h"

/* "bondd/1 error CODE MSG\n". */
void status_reply_error(struct strbuf *out, enum status_error code, const char *msg);
/* "bondd/1 ok H LEN\n" and body (an internal error when body ran out of memory). */
void status_reply_ok(struct strbuf *out, enum status_health h, const struct strbuf *body);
/* The reply to req (any verb but the watch and reload ones), as a client
 * with v->privileged may see it. */
void status_reply_render(const struct status_view *v, const struct status_request *req,
			 struct strbuf *out);
/* The reply to a reload that was applied: msg, and every bond's health. */
void status_reply_reloaded(const struct status_view *v, const char *msg, struct strbuf *out);
/* The per-slave tables of the link check's last results. */
void reply_body_linkcheck(const struct bond_views *bv, struct strbuf *body);

#endif
