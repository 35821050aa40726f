/* SPDX-License-Identifier: MIT */
/*
 * Slave entries given by altname, mac: or path: (identity.h) take the
 * names their links have now, before each plan: a slave renamed while
 * enslaved is the same slave under a new name, not a missing one and a
 * stranger.
 */
#include "daemon_parts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"

/* FNV-1a over what was said, so the same problems are logged once. */
static uint32_t mix(uint32_t h, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		h = (h ^ *c) * 16777619u;
	return (h ^ 0xff) * 16777619u;
}

int identity_refresh(struct desired *want, const struct observed *obs, struct daemon *d,
		     bool say)
{
	struct identity_match *m = identity_match_new(want, obs->links, obs->n_links);
	uint32_t said = 2166136261u;
	int conflicts = 0;
	char text[1024];

	if (!m)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++, k++) {
			const struct desired_slave *ds = &b->slaves[j];
			if (m[k].state == ID_CONFLICT) {
				conflicts++;
				/* Said once per pair, at its later entry. */
				if (!identity_conflict_later(&m[k], i, j))
					continue;
				identity_conflict_text(want, &m[k], i, j, text, sizeof(text));
				said = mix(said, text);
				if (say && (!d || d->identity_said != said))
					log_err("%s", text);
			} else if (m[k].state == ID_AMBIGUOUS) {
				snprintf(text, sizeof(text), "%s:%u: [%s] %s matches %s and %s (and "
					 "maybe more): add /portN for the kernel's dev_port; "
					 "neither is enslaved", desired_file(want, b),
					 b->slaves_line, b->name, ds->sel.text, m[k].name,
					 m[k].other);
				said = mix(said, text);
				if (say && (!d || d->identity_said != said))
					log_warn("%s", text);
			} else if (say && d && m[k].state == ID_FOUND &&
				   strcmp(m[k].name, ds->name) != 0 && !slave_selector_is_placeholder(
					   ds->name)) {
				log_info("%s: slave %s is now %s (was %s)", b->name, ds->sel.text,
					 m[k].name, ds->name);
			}
		}
	}
	if (d)
		d->identity_said = said;
	if (identity_apply(want, m) && d) {
		identity_rename_runtime(d);
		touch_all(d); /* events are matched by today's names */
	}
	free(m);
	return conflicts;
}

/* The link records follow want (runtime_rebuild's layout: each bond,
 * then its slaves), so a renamed slave keeps its counters. */
void identity_rename_runtime(struct daemon *d)
{
	size_t k = 0;

	for (size_t i = 0; i < d->want.n_bonds && k < d->n_links; i++) {
		const struct desired_bond *b = &d->want.bonds[i];
		k++; /* the bond's own */
		for (size_t j = 0; j < b->n_slaves && k < d->n_links; j++, k++)
			snprintf(d->links[k].name, IFNAMSIZ, "%s", b->slaves[j].name);
	}
}
