/* SPDX-License-Identifier: MIT */
/* A NIC's speed and duplex from sysfs (nic_speed.h). */
#include "nic_speed.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "small_file.h"

static bool read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!small_file_read(path, buf, len))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

void nic_speed_read(const char *dir, struct nic_speed *out)
{
	char buf[32], *end;

	out->mbps = -1;
	snprintf(out->duplex, sizeof(out->duplex), "unknown");
	/* speed_show fails with EINVAL while the link is down, and prints
	 * SPEED_UNKNOWN (-1) when the driver does not know: neither is a
	 * speed, nor is 0. */
	if (read_line(dir, "speed", buf, sizeof(buf))) {
		long v = strtol(buf, &end, 10);
		if (end != buf && v > 0 && v <= INT_MAX)
			out->mbps = (int)v;
	}
	/* duplex_show prints "half", "full" or "unknown". */
	if (read_line(dir, "duplex", buf, sizeof(buf)) &&
	    (strcmp(buf, "full") == 0 || strcmp(buf, "half") == 0))
		memcpy(out->duplex, buf, 5);
}
