/* SPDX-License-Identifier: MIT */
/* The FILE:LINE of a configuration error (see diag_where.h). */
#include "diag_where.h"

#include <stdio.h>
#include <string.h>

bool diag_where(const char *msg, char *out, size_t len)
{
	/* The leftmost ":DIGITS: " ends the place: the message comes after
	 * the real one, so the leftmost is never inside the message (a file
	 * name holding such a pattern only shortens what is shown). */
	for (const char *p = strchr(msg, ':'); p; p = strchr(p + 1, ':')) {
		size_t digits = strspn(p + 1, "0123456789");
		if (digits && p[1 + digits] == ':' && p[2 + digits] == ' ') {
			if (len)
				snprintf(out, len, "%.*s", (int)(p + 1 + digits - msg), msg);
			return true;
		}
	}
	if (len)
		out[0] = '\0';
	return false;
}
