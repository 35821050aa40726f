/* SPDX-License-Identifier: MIT */
/* Writing the Prometheus text exposition format (prom_text.h). */
#include "prom_text.h"

#include "json_text.h"

void prom_head(struct strbuf *out, const char *name, const char *type, const char *help)
{
	sb_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

void prom_sample(struct strbuf *out, const char *name, const char *master, const char *device,
		 const char *label, const char *label_value, unsigned long long value)
{
	sb_printf(out, "%s{master=\"", name);
	prom_label(out, master);
	sb_puts(out, "\",device=\"");
	prom_label(out, device);
	if (label)
		sb_printf(out, "\",%s=\"%s", label, label_value);
	sb_printf(out, "\"} %llu\n", value);
}
