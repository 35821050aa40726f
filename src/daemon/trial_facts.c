/* SPDX-License-Identifier: MIT */
/* The facts a reload on trial is judged by (trial_facts.h).  Pure. */
#include "trial_facts.h"

#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "bond_option_table.h"

/* Slaves in the kernel whose master is ifindex (a scan of every link:
 * once per trial, at its start). */
static unsigned enslaved_any(const struct observed *o, int ifindex)
{
	unsigned n = 0;

	for (size_t i = 0; ifindex > 0 && i < o->n_links; i++)
		n += o->links[i].master == ifindex;
	return n;
}

/* The configured slaves of b enslaved in it now (by name: each a lookup). */
static unsigned enslaved_configured(const struct observed *o, const struct desired_bond *b,
				    int ifindex)
{
	unsigned n = 0;

	for (size_t k = 0; ifindex > 0 && k < b->n_slaves; k++) {
		const struct obs_link *l = observed_by_name(o, b->slaves[k].name);
		n += l && l->master == ifindex;
	}
	return n;
}

static const struct obs_link *bond_link(const struct observed *o, const char *name)
{
	const struct obs_link *l = observed_by_name(o, name);
	return l && strcmp(l->kind, "bond") == 0 ? l : NULL;
}

static bool link_up(const struct obs_link *l)
{
	return l && (l->flags & IFF_UP) && (l->flags & IFF_LOWER_UP);
}

void trial_facts_before(struct trial_bond *f, const struct desired_bond *b,
			const struct observed *o)
{
	const struct obs_link *l = bond_link(o, b->name);

	snprintf(f->name, sizeof(f->name), "%s", b->name);
	f->existed = l != NULL;
	f->was_up = link_up(l);
	f->slaves_before = l ? enslaved_any(o, l->ifindex) : 0;
}

void trial_facts_now(struct trial_bond *f, const struct desired_bond *b,
		     const struct observed *o)
{
	const struct obs_link *l = bond_link(o, f->name);

	f->exists = l != NULL;
	f->up = link_up(l);
	f->slaves = l && b ? enslaved_configured(o, b, l->ifindex) : 0;
}

unsigned trial_paths_kept(const uint16_t *before, const unsigned *now, size_t n)
{
	unsigned kept = 0;

	for (size_t k = 0; k < n; k++)
		kept += now[k] < before[k] ? now[k] : before[k];
	return kept;
}

void trial_grace_inputs(const struct desired *next, uint32_t *updelay, bool *lacp)
{
	*updelay = 0;
	*lacp = false;
	for (size_t i = 0; i < next->n_bonds; i++) {
		const struct desired_bond *b = &next->bonds[i];
		if (b->absent)
			continue; /* deleting it is what was asked */
		if (bond_settings_has(&b->opts, OPT_UPDELAY) && b->opts.val[OPT_UPDELAY] > *updelay)
			*updelay = b->opts.val[OPT_UPDELAY];
		*lacp |= b->opts.val[OPT_MODE] == MODE_8023AD;
	}
}
