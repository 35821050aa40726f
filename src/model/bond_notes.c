/* SPDX-License-Identifier: MIT */
/* A bond's notes and failing actions as data, in words where shown
 * (bond_notes.h).  Pure. */
#include "bond_notes.h"

#include <stdio.h>
#include <string.h>

void bond_notes_of(struct bond_notes *out, const struct plan_note *v, size_t n,
		   const char *bond)
{
	out->n = 0;
	out->more = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].bond, bond) != 0)
			continue;
		if (out->n == BOND_NOTES_MAX) {
			out->more++;
			continue;
		}
		struct bond_note *t = &out->v[out->n++];
		snprintf(t->ifname, sizeof(t->ifname), "%s", v[i].ifname);
		snprintf(t->msg, sizeof(t->msg), "%s", v[i].msg);
	}
}

bool bond_notes_equal(const struct bond_notes *a, const struct bond_notes *b)
{
	if (a->n != b->n || a->more != b->more)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].ifname, b->v[i].ifname) != 0 ||
		    strcmp(a->v[i].msg, b->v[i].msg) != 0)
			return false;
	return true;
}

/* "; and N more" after the entries, where there is room. */
static void and_more(size_t more, char *out, size_t len, size_t used)
{
	if (more && used < len)
		snprintf(out + used, len - used, "; and %zu more", more);
}

bool bond_notes_text(const struct bond_notes *notes, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < notes->n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s: %s", used ? "; " : "",
					 notes->v[i].ifname, notes->v[i].msg);
	and_more(notes->more, out, len, used);
	return notes->n > 0;
}

const char *action_failure_text(const struct action_failure *f, char *out, size_t len)
{
	size_t used = 0;

	if (len > ACTION_FAILURE_TEXT)
		len = ACTION_FAILURE_TEXT;
	if (len)
		out[0] = '\0';
	/* Cut where it is full: the kernel's words and the context may be
	 * longer together than a failure keeps (as last_error always was). */
	const char *parts[] = {f->config_error ? "configuration error: " : "", f->ifname, ": ",
			       f->words, f->context};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s", parts[i]);
	return out;
}

void bond_failing_add(struct bond_failing *list, const struct action_failure *f)
{
	if (list->n == BOND_FAILING_MAX)
		list->more++;
	else
		list->v[list->n++] = *f;
}

bool bond_failing_text(const struct bond_failing *list, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < list->n && used < len; i++) {
		char one[ACTION_FAILURE_TEXT];
		used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "; " : "",
					 action_failure_text(&list->v[i], one, sizeof(one)));
	}
	and_more(list->more, out, len, used);
	return list->n > 0;
}
