/* SPDX-License-Identifier: MIT */
/* A slave's hardware, as the host check read it, for bondd-status --json. */
#include "hostcheck.h"
#include "json_text.h"

#include <string.h>

static void str_or_null(struct strbuf *out, const char *s)
{
	if (s[0])
		json_string(out, s);
	else
		sb_puts(out, "null");
}

void hostcheck_json_nic(struct strbuf *out, const struct host_nic *n)
{
	if (!n || !n->present) {
		sb_puts(out, "null");
		return;
	}
	sb_puts(out, "{\"pci\":");
	str_or_null(out, n->pci_addr);
	sb_puts(out, ",\"driver\":");
	str_or_null(out, n->driver);
	sb_puts(out, ",\"speed_mbps\":");
	if (n->mbps > 0)
		sb_printf(out, "%d", n->mbps);
	else
		sb_puts(out, "null");
	sb_puts(out, ",\"duplex\":");
	json_string(out, n->duplex);
	sb_puts(out, "}");
}
