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

/* (strncmp: a string that fills its array is compared to its end) */
#define SAME_TEXT(a, b, field) (strncmp((a)->field, (b)->field, sizeof((a)->field)) == 0)

bool action_failure_equal(const struct action_failure *a, const struct action_failure *b)
{
	return SAME_TEXT(a, b, key) && SAME_TEXT(a, b, ifname) && a->err == b->err &&
	       a->config_error == b->config_error && a->since_ms == b->since_ms &&
	       SAME_TEXT(a, b, words) && SAME_TEXT(a, b, context);
}

void bond_failing_diff_start(struct bond_failing_diff *d, const struct bond_failing *was)
{
	*d = (struct bond_failing_diff){.was = was};
}

void bond_failing_diff_add(struct bond_failing_diff *d, const struct action_failure *f)
{
	/* bond_failing_add keeps the first BOND_FAILING_MAX in order, and a
	 * failure past was's entries is told by the count (changed) */
	if (!d->differs && d->seen < d->was->n &&
	    !action_failure_equal(&d->was->v[d->seen], f))
		d->differs = true;
	d->seen++;
}

bool bond_failing_diff_changed(const struct bond_failing_diff *d)
{
	size_t kept = d->seen < BOND_FAILING_MAX ? d->seen : BOND_FAILING_MAX;

	return d->differs || kept != d->was->n || d->seen - kept != d->was->more;
}
