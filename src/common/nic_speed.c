/* SPDX-License-Identifier: MIT */
/* A NIC's speed and duplex from sysfs (nic_speed.h). */
#include "nic_speed.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "small_file.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

void nic_speed_read(const char *dir, struct nic_speed *out)
{
	char buf[32], *end;

	out->mbps = -1;
	snprintf(out->duplex, sizeof(out->duplex), "unknown");
	/* speed_show fails with EINVAL while the link is down, and prints
	 * SPEED_UNKNOWN (-1) when the driver does not know: neither is a
	 * speed, nor is 0. */
	if (small_file_line_in(dir, "speed", buf, sizeof(buf))) {
		long v = strtol(buf, &end, 10);
		if (end != buf && v > 0 && v <= INT_MAX)
			out->mbps = (int)v;
	}
	/* duplex_show prints "half", "full" or "unknown". */
	if (small_file_line_in(dir, "duplex", buf, sizeof(buf)) &&
	    (strcmp(buf, "full") == 0 || strcmp(buf, "half") == 0))
		memcpy(out->duplex, buf, 5);
}

bool nic_speed_ethtool(const char *ifname, struct nic_speed *out)
{
	struct ethtool_cmd cmd = {.cmd = ETHTOOL_GSET};
	struct ifreq ifr;
	bool ok = false;

	out->mbps = -1;
	snprintf(out->duplex, sizeof(out->duplex), "unknown");
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return false;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	/* speed_show answers only for a running device: the same here. */
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		goto out;
	ok = true;
	if (!(ifr.ifr_flags & IFF_UP))
		goto out;
	ifr.ifr_data = (void *)&cmd;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		goto out; /* no get_link_ksettings: unknown, as sysfs says */
	uint32_t mbps = ethtool_cmd_speed(&cmd);
	if (mbps > 0 && mbps != (uint32_t)SPEED_UNKNOWN && mbps <= INT_MAX)
		out->mbps = (int)mbps;
	if (cmd.duplex == DUPLEX_FULL)
		snprintf(out->duplex, sizeof(out->duplex), "full");
	else if (cmd.duplex == DUPLEX_HALF)
		snprintf(out->duplex, sizeof(out->duplex), "half");
out:
	close(fd);
	return ok;
}
