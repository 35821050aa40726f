/* SPDX-License-Identifier: MIT */
#include "proc_filter.h"

#include <stdbool.h>
#include <string.h>

static bool starts(const char *line, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(line, prefix, p) == 0;
}

static bool ends(const char *line, size_t n, const char *suffix)
{
	size_t s = strlen(suffix);
	return n >= s && memcmp(line + n - s, suffix, s) == 0;
}

void proc_filter_unprivileged(const char *text, size_t len, struct strbuf *out)
{
	/* What a hidden block's continuation lines start with, while in one. */
	const char *block = NULL;

	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		const char *line = text + pos;
		size_t n = end - pos - (nl ? 1 : 0);
		pos = end;

		if (block) {
			if (starts(line, n, block))
				continue;
			block = NULL;
		}
		/* The bond's 802.3ad section (bond_info_show_master). */
		if (starts(line, n, "System priority: ") || starts(line, n, "System MAC address: "))
			continue;
		if (starts(line, n, "bond ") && ends(line, n, " has no active aggregator"))
			continue;
		if (n == strlen("Active Aggregator Info:") &&
		    starts(line, n, "Active Aggregator Info:")) {
			block = "\t";
			continue;
		}
		/* Each slave's (bond_info_show_slave). */
		if ((n == strlen("details actor lacp pdu:") &&
		     starts(line, n, "details actor lacp pdu:")) ||
		    (n == strlen("details partner lacp pdu:") &&
		     starts(line, n, "details partner lacp pdu:"))) {
			block = "    ";
			continue;
		}
		sb_add(out, line, end - (size_t)(line - text));
	}
}
