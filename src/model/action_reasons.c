/* SPDX-License-Identifier: MIT */
/* The reasons of one bond's actions, each once (action_reasons.h). */
#include "action_reasons.h"

#include <stdio.h>
#include <string.h>

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

void action_reasons_of(struct action_reasons *out, const struct action *v, size_t n,
		       const char *bond, bool by_link)
{
	out->n = 0;
	for (size_t i = 0; i < n && out->n < ACTION_REASONS_MAX; i++) {
		const struct action *a = &v[i];
		const char *why = a->why ? a->why : by_link ? "drift" : NULL;
		const char *ifname = by_link ? a->ifname : NULL;
		bool seen = false;
		if (!why || strcmp(a->bond, bond) != 0)
			continue;
		for (size_t j = 0; j < out->n && !seen; j++)
			seen = same(out->why[j], why) && same(out->ifname[j], ifname);
		if (seen)
			continue;
		out->why[out->n] = why;
		out->ifname[out->n] = ifname;
		out->n++;
	}
}

bool action_reasons_text(const struct action_reasons *r, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < r->n && used < len; i++) {
		if (r->ifname[i])
			used += (size_t)snprintf(out + used, len - used, "%s%s: %s",
						 used ? ", " : "", r->ifname[i], r->why[i]);
		else
			used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "",
						 r->why[i]);
	}
	return r->n > 0;
}
