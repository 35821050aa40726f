/* SPDX-License-Identifier: MIT */
/* Learning which bond options the kernel reports, from what it reported. */
#include "kernel_caps.h"

#include <stdio.h>
#include <stdlib.h>

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

uint16_t kernel_caps_parse_release(const char *release)
{
	char *end;
	unsigned long major, minor;

	if (!release || *release < '0' || *release > '9')
		return 0;
	major = strtoul(release, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return 0;
	minor = strtoul(end + 1, &end, 10);
	if (major == 0 || major > 255 || minor > 255)
		return 0;
	return KVER(major, minor);
}

unsigned kernel_caps_version_notes(const struct desired_bond *b, uint16_t kver,
				   const struct kernel_caps *caps,
				   void (*emit)(void *ctx, const char *text), void *ctx)
{
	char text[256], val[64];
	unsigned n = 0;

	if (!kver)
		return 0;
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_opt_desc *d = bond_opt_desc((enum bond_opt)id);
		if (!bond_opts_has(&b->opts, (enum bond_opt)id))
			continue;
		bool scalar = d->type == OT_U8 || d->type == OT_U16 || d->type == OT_U32;
		uint32_t v = scalar ? b->opts.val[id] : 0;
		uint16_t kmin = scalar ? bond_opt_value_kmin((enum bond_opt)id, v)
				       : bond_opt_kmin((enum bond_opt)id);
		uint16_t kmax = scalar ? bond_opt_value_kmax((enum bond_opt)id, v) : KVER(255, 255);
		bool reported = caps && (caps->reported & OPT_BIT(id));

		bond_opts_format(&b->opts, (enum bond_opt)id, val, sizeof(val));
		if (kmin > kver && !(reported && kmin == bond_opt_kmin((enum bond_opt)id))) {
			if (kmin == bond_opt_kmin((enum bond_opt)id))
				snprintf(text, sizeof(text),
					 "%s needs Linux %u.%u or later; this is %u.%u: the kernel "
					 "ignores it", d->key, KVER_MAJOR(kmin), KVER_MINOR(kmin),
					 KVER_MAJOR(kver), KVER_MINOR(kver));
			else
				snprintf(text, sizeof(text),
					 "%s = %s needs Linux %u.%u or later; this is %u.%u: the "
					 "kernel refuses it", d->key, val, KVER_MAJOR(kmin),
					 KVER_MINOR(kmin), KVER_MAJOR(kver), KVER_MINOR(kver));
		} else if (kmax < kver) {
			snprintf(text, sizeof(text),
				 "%s = %s is refused by Linux %u.%u and later; this is %u.%u%s",
				 d->key, val, KVER_MAJOR(kmax), KVER_MINOR(kmax) + 1,
				 KVER_MAJOR(kver), KVER_MINOR(kver),
				 id == OPT_USE_CARRIER ? " (kernel commit 23a6037ce76c: the "
				 "bond's own carrier check only; remove the line)" : "");
		} else {
			continue;
		}
		emit(ctx, text);
		n++;
	}
	return n;
}
