/* SPDX-License-Identifier: MIT */
/* RTM_NEWLINK / RTM_NEWADDR messages into the observed model. */
#ifndef BONDD_LINK_PARSE_H
#define BONDD_LINK_PARSE_H

#include <libmnl/libmnl.h>
#include <stdbool.h>

#include "observed.h"

/*
 * True when a RTM_NEWLINK/RTM_DELLINK describes the device itself (family
 * AF_UNSPEC).  A bridge sends messages of family AF_BRIDGE about its ports
 * (net/bridge/br_netlink.c br_ifinfo_notify): a DELLINK of that family
 * means the port left the bridge, not that the device is gone.
 */
bool link_msg_is_device(const struct nlmsghdr *nlh);

/* Parses an RTM_NEWLINK or RTM_DELLINK; 0, or -EINVAL for a malformed one. */
int link_parse(const struct nlmsghdr *nlh, struct obs_link *out);
/* Parses an RTM_NEWADDR or RTM_DELADDR of AF_INET/AF_INET6; -EINVAL otherwise. */
int addr_parse(const struct nlmsghdr *nlh, struct obs_addr *out);

/*
 * Reads the slave order of bond `name` from /proc/net/bonding/<name>, which
 * lists slaves in the bond's own order (netlink dumps come in ifindex
 * order).  proc_dir is "/proc/net/bonding" except in tests.  Returns the
 * number of slaves, or -errno.
 */
int bond_order_read(const char *proc_dir, const char *name,
		    char order[][IFNAMSIZ], size_t max);
/* The same, from text already read. */
int bond_order_parse(const char *text, char order[][IFNAMSIZ], size_t max);

#endif
