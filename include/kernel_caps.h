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

#include "bond_opts.h"
#include "desired.h"

struct kernel_caps {
	uint32_t modes_seen;   /* MODE_BIT of every mode a described bond had */
	uint64_t reported;     /* OPT_BIT of every option some message carried */
};

/* Learns from the options one message reported for a bond. */
void kernel_caps_learn(struct kernel_caps *c, const struct bond_opts *reported);

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
 * What kernel `kver` (KVER) does not take of what bond b configures, by
 * the option table's kernel ranges (bond_opt_kmin, bond_opt_value_kmin,
 * bond_opt_value_kmax): calls emit(ctx, text) once per problem, with a
 * text such as "coupled_control needs Linux 6.9 or later; this is 6.1".
 * An option that `caps` (may be NULL) saw this kernel report is taken
 * as there whatever the version says (stable kernels gain options).
 * Returns how many.
 */
unsigned kernel_caps_version_notes(const struct desired_bond *b, uint16_t kver,
				   const struct kernel_caps *caps,
				   void (*emit)(void *ctx, const char *text), void *ctx);

#endif
