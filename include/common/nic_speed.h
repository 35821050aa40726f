/* SPDX-License-Identifier: MIT */
/* A NIC's speed and duplex from sysfs: one rule for every reader (status
 * and the host check). */
#ifndef BONDD_NIC_SPEED_H
#define BONDD_NIC_SPEED_H

struct nic_speed {
	int mbps;        /* -1: unknown (link down, or the driver does not say) */
	char duplex[8];  /* "full", "half" or "unknown" */
};

/* Reads DIR/speed and DIR/duplex, DIR being a /sys/class/net/NAME folder
 * (net/core/net-sysfs.c speed_show and duplex_show). */
void nic_speed_read(const char *dir, struct nic_speed *out);

#endif
