/* SPDX-License-Identifier: MIT */
/* A link's speed and duplex from ethtool's netlink family, by ifindex. */
#ifndef BONDD_ETHTOOL_LINK_H
#define BONDD_ETHTOOL_LINK_H

#include "nic_speed.h"

/*
 * Asks the kernel for IFINDEX's speed and duplex (ETHTOOL_MSG_LINKMODES_GET,
 * net/ethtool/linkmodes.c), as `ethtool IFNAME` shows them.  By ifindex,
 * never by name: the ethtool ioctl looks a name up with dev_load()
 * (net/core/dev_ioctl.c), which, for a name that is gone, runs modprobe
 * for "netdev-NAME" and sleeps until it exits (kernel/kmod.c
 * __request_module): a slave deleted while bondd read its speed held the
 * next repair for 100 to 400 ms on a loaded guest.
 *
 * 0: OUT holds the answer (-1 and "unknown" where the driver does not say,
 * or has no get_link_ksettings); -ENODEV: no such link now;
 * -EPROTONOSUPPORT: this kernel has no ethtool netlink family (before 5.6,
 * or built without CONFIG_ETHTOOL_NETLINK); another -errno otherwise.
 * OUT says "unknown" whenever the result is not 0.  One generic netlink socket
 * (nlsock.h) for the process, opened at the first call.
 */
int ethtool_link_speed(int ifindex, struct nic_speed *out);

#endif
