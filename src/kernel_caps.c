/* SPDX-License-Identifier: MIT */
/* Learning which bond options the kernel reports, from what it reported. */
#include "kernel_caps.h"

#include <stdio.h>

void kernel_caps_learn(struct kernel_caps *c, const struct bond_opts *reported)
{
	if (!bond_opts_has(reported, OPT_MODE) || reported->val[OPT_MODE] >= MODE__COUNT)
		return;
	c->modes_seen |= MODE_BIT(reported->val[OPT_MODE]);
	c->reported |= reported->have;
}

uint64_t kernel_caps_unreported(const struct kernel_caps *c, const struct desired_bond *b)
{
	uint64_t mask = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		if (!bond_opts_has(&b->opts, (enum bond_opt)id) || (c->reported & OPT_BIT(id)))
			continue;
		if (d->modes & c->modes_seen)
			mask |= OPT_BIT(id);
	}
	return mask;
}

const char *kernel_caps_names(uint64_t mask, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int id = 0; id < OPT__COUNT && used < len; id++)
		if (mask & OPT_BIT(id))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 bond_opt_desc((enum bond_opt)id)->key);
	return buf;
}
