/* SPDX-License-Identifier: MIT */
/* Learning which bond options the kernel reports, from what it reported. */
#include "kernel_caps.h"

#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>

void kernel_caps_learn(struct kernel_caps *c, const struct bond_settings *reported)
{
	if (!bond_settings_has(reported, OPT_MODE) || reported->val[OPT_MODE] >= MODE__COUNT)
		return;
	c->modes_seen |= MODE_BIT(reported->val[OPT_MODE]);
	c->reported |= reported->have;
}

void kernel_caps_learn_slave(struct kernel_caps *c, const struct obs_slave_info *s)
{
	/* bond_fill_slave_info sends the 802.3ad attributes of a slave of an
	 * 802.3ad bond only: the port state for one in an aggregator. */
	if (s->has_ad_state)
		c->ad_slave_seen = true;
	if (s->has_actor_port_prio)
		c->slave_actor_port_prio = true;
}

uint64_t kernel_caps_unreported(const struct kernel_caps *c, const struct desired_bond *b)
{
	uint64_t mask = 0;

	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		if (!bond_settings_has(&b->opts, (enum bond_option_id)id) || (c->reported & OPT_BIT(id)))
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
						 bond_option_spec((enum bond_option_id)id)->key);
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

/* The kernel range of an option, as a note: where this kernel's own bonds
 * show it has the option or not, that decides (stable kernels gain
 * options: Debian's 6.1.176 reports coupled_control and actor_port_prio);
 * only where none can show it does the version speak, hedged. */
static bool option_note(char *text, size_t len, const char *key, uint16_t kmin, uint16_t kver,
			bool learnable, bool reported)
{
	if (reported)
		return false;
	if (learnable) {
		snprintf(text, len, "%s: this kernel (%u.%u) does not have it (mainline Linux %u.%u "
			 "and later, and stable kernels that took it, do): the kernel ignores it",
			 key, KVER_MAJOR(kver), KVER_MINOR(kver), KVER_MAJOR(kmin), KVER_MINOR(kmin));
		return true;
	}
	if (kmin <= kver)
		return false;
	snprintf(text, len, "%s needs Linux %u.%u or later (or a stable kernel that took it); this "
		 "is %u.%u, and no bond here shows whether it has it: if not, the kernel ignores it",
		 key, KVER_MAJOR(kmin), KVER_MINOR(kmin), KVER_MAJOR(kver), KVER_MINOR(kver));
	return true;
}

bool kernel_caps_value_refused(enum bond_option_id id, uint32_t value, uint16_t kver,
			       char *why, size_t len)
{
	const struct bond_option_spec *d = bond_option_spec(id);
	uint16_t kopt = bond_option_kmin(id);
	uint16_t kval = bond_option_value_kmin(id, value);
	uint16_t kmax = bond_option_value_kmax(id, value);
	char val[64];
	struct bond_settings one = {0};

	if (!kver || !d || !(d->type == OT_U8 || d->type == OT_U16 || d->type == OT_U32))
		return false;
	bond_settings_set(&one, id, value);
	bond_settings_format(&one, id, val, sizeof(val));
	if (kval > kopt && kval > kver) {
		/* A value the kernel's table does not hold yet: bond_opt_parse
		 * finds no match and the request fails, -EINVAL
		 * (drivers/net/bonding/bond_options.c; measured on 6.1.176:
		 * ad_select = actor_port_prio refused, though its slaves
		 * report actor_port_prio from stable). */
		snprintf(why, len, "%s = %s needs Linux %u.%u or later; this is %u.%u: the kernel "
			 "refuses it", d->key, val, KVER_MAJOR(kval), KVER_MINOR(kval),
			 KVER_MAJOR(kver), KVER_MINOR(kver));
		return true;
	}
	if (kmax < kver) {
		snprintf(why, len, "%s = %s is refused by Linux %u.%u and later; this is %u.%u%s",
			 d->key, val, KVER_MAJOR(kmax), KVER_MINOR(kmax) + 1, KVER_MAJOR(kver),
			 KVER_MINOR(kver), id == OPT_USE_CARRIER ? " (kernel commit 23a6037ce76c: "
			 "the bond's own carrier check only; remove the line)" : "");
		return true;
	}
	return false;
}

unsigned kernel_caps_version_notes(const struct desired_bond *b, uint16_t kver,
				   const struct kernel_caps *caps,
				   void (*emit)(void *ctx, const char *text), void *ctx)
{
	char text[320], key[IFNAMSIZ + 32];
	unsigned n = 0;

	if (!kver)
		return 0;
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		if (!bond_settings_has(&b->opts, (enum bond_option_id)id))
			continue;
		uint16_t kopt = bond_option_kmin((enum bond_option_id)id);
		bool learnable = caps && (d->modes & caps->modes_seen);
		bool reported = caps && (caps->reported & OPT_BIT(id));

		/* A value this kernel refuses is the config's error
		 * (kernel_caps_value_refused), not a note. */
		if (!kopt || !option_note(text, sizeof(text), d->key, kopt, kver, learnable, reported))
			continue;
		emit(ctx, text);
		n++;
	}
	/* Per slave: actor_port_prio (IFLA_BOND_SLAVE_ACTOR_PORT_PRIO), 6.18. */
	for (size_t i = 0; i < b->n_slaves; i++) {
		if (!b->slaves[i].has_actor_port_prio)
			continue;
		snprintf(key, sizeof(key), "slave.%s.actor_port_prio", b->slaves[i].name);
		if (!option_note(text, sizeof(text), key, KVER(6, 18), kver,
				 caps && caps->ad_slave_seen, caps && caps->slave_actor_port_prio))
			continue;
		emit(ctx, text);
		n++;
	}
	return n;
}
