/* SPDX-License-Identifier: MIT */
/* The service's one-line status for systemd (see service_status.h). */
#include "service_status.h"

#include <stdio.h>
#include <stdlib.h>

#include "strbuf.h"

/* Printable ASCII only, other bytes as \xHH: systemd ignores a STATUS=
 * that is not UTF-8 (a name may hold any byte above 0x7f, net/core/dev.c
 * dev_valid_name), a cut could split a character, and a newline would
 * end the field and start another of the sd_notify datagram. */
static void escape_to(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 1 < len; in++) {
		unsigned char c = (unsigned char)*in;
		if (c >= 0x20 && c < 0x7f)
			out[o++] = (char)c;
		else if (o + 4 < len)
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
		else
			break; /* whole escapes only */
	}
	out[o] = '\0';
}

void service_status_of(const struct service_bond *b, size_t n, char *out, size_t len)
{
	size_t healthy = 0;
	struct strbuf sb = {0};

	if (len == 0)
		return;
	if (n == 0) {
		snprintf(out, len, "no bonds configured: idle");
		return;
	}
	for (size_t i = 0; i < n; i++)
		healthy += b[i].health == HEALTH_OK;
	sb_printf(&sb, "%zu bond%s:", n, n == 1 ? "" : "s");
	bool name_healthy = n <= SERVICE_STATUS_NAMED;
	const char *sep = " ";
	if (!name_healthy && healthy) {
		sb_printf(&sb, " %zu healthy", healthy);
		sep = ", ";
	}
	for (size_t i = 0; i < n; i++) {
		if (b[i].health == HEALTH_OK && !name_healthy)
			continue;
		sb_printf(&sb, "%s%s %s", sep, b[i].name, status_health_name(b[i].health));
		if (b[i].health != HEALTH_OK)
			sb_printf(&sb, " (%.*s)", BOND_VIEW_SHORT_WHY, b[i].why);
		sep = ", ";
	}
	escape_to(sb.oom || !sb.s ? "status unknown: out of memory" : sb.s, out, len);
	sb_free(&sb);
}

void service_status_text(const struct status_view *v, char *out, size_t len)
{
	size_t n = v->want->n_bonds;
	struct bond_views bv;

	if (len == 0)
		return;
	if (n == 0) {
		service_status_of(NULL, 0, out, len);
		return;
	}
	struct service_bond *b = calloc(n, sizeof(*b));
	if (!b || bond_views_build_all(&bv, v, false) < 0) {
		free(b);
		escape_to("status unknown: out of memory", out, len);
		return;
	}
	for (size_t i = 0; i < n; i++)
		b[i] = (struct service_bond){bv.v[i].want->name, bv.v[i].health, bv.v[i].why};
	service_status_of(b, n, out, len);
	bond_views_free(&bv);
	free(b);
}

bool health_change_line(bool logged, enum status_health was, const struct bond_view *b,
			char *out, size_t len)
{
	if (logged && was == b->health)
		return false;
	snprintf(out, len, "%s: health: %s -> %s%s%s", b->want->name,
		 logged ? status_health_name(was) : "unknown", status_health_name(b->health),
		 b->why[0] ? ": " : "", b->why);
	return true;
}
