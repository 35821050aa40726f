/* SPDX-License-Identifier: MIT */
/* The service's one-line status for systemd (see service_status.h). */
#include "service_status.h"

#include <stdio.h>

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

void service_status_text(const struct status_view *v, char *out, size_t len)
{
	size_t n = v->want->n_bonds, healthy = 0;
	struct bond_views bv;
	struct strbuf sb = {0};

	if (len == 0)
		return;
	if (n == 0) {
		snprintf(out, len, "no bonds configured: idle");
		return;
	}
	if (bond_views_build_all(&bv, v, false) < 0) {
		escape_to("status unknown: out of memory", out, len);
		return;
	}
	for (size_t i = 0; i < n; i++)
		healthy += bv.v[i].health == HEALTH_OK;
	sb_printf(&sb, "%zu bond%s:", n, n == 1 ? "" : "s");
	bool name_healthy = n <= SERVICE_STATUS_NAMED;
	const char *sep = " ";
	if (!name_healthy && healthy) {
		sb_printf(&sb, " %zu healthy", healthy);
		sep = ", ";
	}
	for (size_t i = 0; i < n; i++) {
		const struct bond_view *b = &bv.v[i];
		if (b->health == HEALTH_OK && !name_healthy)
			continue;
		sb_printf(&sb, "%s%s %s", sep, b->want->name, status_health_name(b->health));
		if (b->health != HEALTH_OK)
			sb_printf(&sb, " (%.*s)", BOND_VIEW_SHORT_WHY, b->why);
		sep = ", ";
	}
	bond_views_free(&bv);
	escape_to(sb.oom || !sb.s ? "status unknown: out of memory" : sb.s, out, len);
	sb_free(&sb);
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
