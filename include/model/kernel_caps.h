/* SPDX-License-Identifier: MIT */
/*
 * Which IFLA_BOND_* attributes the running kernel reports to this bondd,
 * learned from the bonds it describes.  A kernel older than an option
 * never reports it; a caller without CAP_NET_ADMIN in the initial user
 * namespace (a bondd in a container) is never told ad_actor_sys_prio,
 * ad_user_port_key and ad_actor_system (drivers/net/bonding/bond_netlink.c
 * bond_fill_info: capable(CAP_NET_ADMIN)).  Such an option is set, but
 * bondd cannot see it, so it can neither compare nor repair it.
 */
#ifndef BONDD_KERNEL_CAPS_H
#define BONDD_KERNEL_CAPS_H

#include <stdint.h>

#include "bond_settings.h"
#include "desired.h"
#include "observed.h"

struct kernel_caps {
	uint32_t modes_seen;   /* MODE_BIT of every mode a described bond had */
	uint64_t reported;     /* OPT_BIT of every option some message carried */
	/* A slave was described with IFLA_BOND_SLAVE_ACTOR_PORT_PRIO: the
	 * kernel has it, whatever its version says (Debian's 6.12.113 does,
	 * from stable). */
	bool slave_actor_port_prio;
	bool ad_slave_seen;    /* a slave of an 802.3ad bond was described */
};

/* Learns from the options one message reported for a bond. */
void kernel_caps_learn(struct kernel_caps *c, const struct bond_settings *reported);
/* Learns from what one message reported for a bond's slave. */
void kernel_caps_learn_slave(struct kernel_caps *c, const struct obs_slave_info *s);

/*
 * The options bond b configures that this kernel is known not to report:
 * a bond in a mode the option applies to was described without it.
 * Options not yet learnable (no such bond seen) are not in the mask.
 */
uint64_t kernel_caps_unreported(const struct kernel_caps *c, const struct desired_bond *b);

/* "ad_user_port_key, ad_actor_system" for a mask; returns buf. */
const char *kernel_caps_names(uint64_t mask, char *buf, size_t len);

/* A kernel release ("6.12.113-amd64", uname -r) as KVER(6, 12); 0 when it
 * cannot be read. */
uint16_t kernel_caps_parse_release(const char *release);

/*
 * Whether kernel `kver` (KVER; 0: unknown, never) refuses `value` of
 * scalar option id: a value added later (ad_select = actor_port_prio,
 * 6.18) or dropped (use_carrier = 0 from 6.18 on).  The kernel fails the
 * whole request then, so applying it could only cost an outage (a bond
 * set down for a value that never comes): the config parser makes it an
 * error (config_load_kernel).  Writes why into why.  Values go by the
 * version alone: no report shows which values a kernel takes, and stable
 * kernels took the slaves' actor_port_prio without this value (6.1.176).
 */
bool kernel_caps_value_refused(enum bond_option_id id, uint32_t value, uint16_t kver,
			       char *why, size_t len);

/*
 * What kernel `kver` (KVER) does not take of what bond b configures:
 * calls emit(ctx, text) once per problem.  For an option newer than 6.1,
 * what `caps` (may be NULL) learned decides first: reported, nothing to
 * say; a bond in a mode the option applies to described without it,
 * "coupled_control: this kernel (6.12) does not have it (...)".  Only when
 * no bond here can show it does the table's kernel range (bond_option_kmin)
 * speak: "coupled_control needs Linux 6.9 or later (or a stable kernel that
 * took it); this is 6.1, ...".  Stable kernels gain options: Debian's
 * 6.1.176 reports coupled_control and actor_port_prio.  Values a kernel
 * refuses are not notes but errors (kernel_caps_value_refused).
 * Per-slave settings too (slave.NAME.actor_port_prio, 6.18).
 * Returns how many.
 */
unsigned kernel_caps_version_notes(const struct desired_bond *b, uint16_t kver,
				   const struct kernel_caps *caps,
				   void (*emit)(void *ctx, const char *text), void *ctx);

#endif
