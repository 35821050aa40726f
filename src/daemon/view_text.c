/* SPDX-License-Identifier: MIT */
/* bondd's own troubles in words (view_text.h).  Pure. */
#include "view_text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void stale_text_of(int64_t since_ms, int err, char *out, size_t len)
{
	char when[32] = "?";
	time_t t = (time_t)(since_ms / 1000);
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(out, len, "re-reading links failing since %s: %s", when, strerror(-err));
}

bool impaired_text_of(const char *lc, const char *lldp, const char *status, size_t fd_soft,
		      char *out, size_t len)
{
	if (!lc && !lldp && !status)
		return false;
	snprintf(out, len, "impaired: %s%s%s%s%s (open-file limit %zu)", lc ? lc : "",
		 lc && lldp ? "; " : "", lldp ? lldp : "", (lc || lldp) && status ? "; " : "",
		 status ? status : "", fd_soft);
	return true;
}
