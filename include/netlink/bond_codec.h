/* SPDX-License-Identifier: MIT */
/*
 * IFLA_BOND_* and IFLA_BOND_SLAVE_* on the wire, with libmnl: libnl 3.7 can
 * neither send nor parse them (its include/netlink/route/link/bonding.h has
 * only rtnl_link_bond_alloc/add/enslave/release; setters came in 3.8, parsing
 * in 3.11), so bondd encodes and decodes them itself, driven by the option
 * table.  The wire layout is the kernel's: include/uapi/linux/if_link.h
 * (IFLA_BOND_*), drivers/net/bonding/bond_netlink.c bond_fill_info and
 * bond_fill_slave_info.
 */
#ifndef BONDD_BOND_CODEC_H
#define BONDD_BOND_CODEC_H

#include <libmnl/libmnl.h>

#include "bond_settings.h"
#include "observed.h"

/*
 * Adds IFLA_INFO_DATA with the options in `which` (values from o) to an
 * open IFLA_LINKINFO nest.  primary is given as an ifindex (0: none);
 * -ENOENT when `which` asks for primary and primary_ifindex is 0.
 */
int bond_codec_put_opts(struct nlmsghdr *nlh, const struct bond_settings *o, uint64_t which,
			int primary_ifindex);

/* Parses IFLA_INFO_DATA of a bond into o; primary is left as an ifindex in
 * *primary_ifindex (the observer resolves it to a name). */
int bond_codec_parse_opts(const struct nlattr *info_data, struct bond_settings *o,
			  int *primary_ifindex);

/* Parses what IFLA_INFO_DATA of a bond says besides its options. */
int bond_codec_parse_info(const struct nlattr *info_data, struct obs_bond_info *info);

/* Parses IFLA_INFO_SLAVE_DATA of a bond slave. */
int bond_codec_parse_slave(const struct nlattr *slave_data, struct obs_slave_info *s);

#endif
