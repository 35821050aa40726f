/* SPDX-License-Identifier: MIT */
/* A NIC's speed and duplex from sysfs: one rule for every reader (status
 * and the host check). */
#ifndef BONDD_NIC_SPEED_H
#define BONDD_NIC_SPEED_H

#include <stdbool.h>

struct nic_speed {
	int mbps;        /* -1: unknown (link down, or the driver does not say) */
	char duplex[8];  /* "full", "half" or "unknown" */
};

/* Reads DIR/speed and DIR/duplex, DIR being a /sys/class/net/NAME folder
 * (net/core/net-sysfs.c speed_show and duplex_show). */
void nic_speed_read(const char *dir, struct nic_speed *out);

/*
 * The same through the ethtool ioctl (ETHTOOL_GSET, net/ethtool/ioctl.c
 * dev_ethtool), for bondd at a real-time priority: sysfs's speed_show and
 * duplex_show take the RTNL lock with rtnl_trylock() and restart the read
 * while someone else holds it (net/core/net-sysfs.c), so a real-time reader
 * spins, without sleeping, for as long as a plain process (the kernel's
 * linkwatch worker after a carrier change, say) holds it on a busy CPU:
 * bondd was killed by RLIMIT_RTTIME that way after a slave came back.
 * dev_ethtool sleeps on the lock instead.  false when ifname is not there.
 */
bool nic_speed_ethtool(const char *ifname, struct nic_speed *out);

#endif
