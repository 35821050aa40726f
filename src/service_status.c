/* SPDX-License-Identifier: MIT */
/* The service's one-line status for systemd (see service_status.h). */
#include "service_status.h"

#include <stdio.h>

#include "strbuf.h"

void service_status_text(const struct status_view *v, char *out, size_t len)
{
	const struct desired *want = v->want;
	size_t n = want->n_bonds, healthy = 0;
	char why[128];
	struct strbuf sb = {0};

	if (len == 0)
		return;
	if (n == 0) {
		snprintf(out, len, "no bonds configured: idle");
		return;
	}
	for (size_t i = 0; i < n; i++)
		healthy += status_bond_health(v, &want->bonds[i], why, sizeof(why)) == HEALTH_OK;
	sb_printf(&sb, "%zu bond%s:", n, n == 1 ? "" : "s");
	bool name_healthy = n <= SERVICE_STATUS_NAMED;
	const char *sep = " ";
	if (!name_healthy && healthy) {
		sb_printf(&sb, " %zu healthy", healthy);
		sep = ", ";
	}
	for (size_t i = 0; i < n; i++) {
		enum status_health h = status_bond_health(v, &want->bonds[i], why, sizeof(why));
		if (h == HEALTH_OK && !name_healthy)
			continue;
		sb_printf(&sb, "%s%s %s", sep, want->bonds[i].name, status_health_name(h));
		if (h != HEALTH_OK)
			sb_printf(&sb, " (%s)", why);
		sep = ", ";
	}
	snprintf(out, len, "%s", sb.oom || !sb.s ? "status unknown: out of memory" : sb.s);
	sb_free(&sb);
}
