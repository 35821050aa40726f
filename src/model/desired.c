/* SPDX-License-Identifier: MIT */
/* Look-ups in the desired state. */
#include "desired.h"

#include <stdlib.h>
#include <string.h>

void desired_free(struct desired *d)
{
	free(d->bonds);
	d->bonds = NULL;
	d->n_bonds = 0;
	for (size_t i = 0; i < d->n_files; i++)
		free(d->files[i]);
	free(d->files);
	d->files = NULL;
	d->n_files = 0;
}

const char *desired_file(const struct desired *d, const struct desired_bond *b)
{
	return b->file_no < d->n_files && d->files[b->file_no] ? d->files[b->file_no]
							      : "bondd.conf";
}

const struct desired_bond *desired_find_bond(const struct desired *d, const char *name)
{
	for (size_t i = 0; i < d->n_bonds; i++)
		if (strcmp(d->bonds[i].name, name) == 0)
			return &d->bonds[i];
	return NULL;
}

bool desired_keeps_order(const struct desired_bond *b)
{
	if (b->has_keep_order)
		return b->keep_order;
	switch ((enum bond_mode)b->opts.val[OPT_MODE]) {
	case MODE_BALANCE_RR:
	case MODE_BALANCE_XOR:
	case MODE_BROADCAST:
		return true;
	default:
		return false;
	}
}
