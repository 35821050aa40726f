/* SPDX-License-Identifier: MIT */
/* Live link facts for one status reply: speed, duplex and counters read
 * from sysfs and /proc/net/dev within the reply's time budget. */
#include "daemon_parts.h"
#include "nic_speed.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Speed, duplex and counters from sysfs: current, unlike the counters in
 * the last netlink message about the link. */
static bool read_sys(const char *ifname, const char *file, char *buf, size_t len)
{
	char path[96];
	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", ifname, file);
	if (!small_file_read(path, buf, len))
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* Time one reply may spend reading counters and speeds; past it, the
 * remaining links show the counters of their last netlink message.  Replies
 * are rendered by a snapshot (status_ipc.h), at normal priority and outside
 * bondd's loop, so waiting here delays no repair: the bound is only on a
 * client's wait.  (It was 20 ms while bondd rendered replies itself; a new
 * snapshot's first reply, its pages still being copied, took longer in the
 * sandbox's guest, and showed no speed.) */
#define LIVE_BUDGET_US 1000000

void live_reply_start(struct live_facts *lf)
{
	lf->budget_end_us = clock_mono_us() + LIVE_BUDGET_US;
	lf->netdev_loaded = false;
}

void live_facts_free(struct live_facts *lf)
{
	free(lf->netdev);
	*lf = (struct live_facts){0};
}

/* Every link's counters in one read: /proc/net/dev (dev_seq_show in
 * net/core/net-procfs.c) takes them under RCU, without the RTNL lock a
 * netlink request would queue behind, and on no socket the observer uses. */
static void load_netdev(struct live_facts *lf)
{
	lf->netdev_loaded = true;
	lf->netdev_ok = false;
	lf->netdev_len = 0;
	int fd = open("/proc/net/dev", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		if (lf->netdev_cap - lf->netdev_len < 4096) {
			size_t cap = lf->netdev_cap ? 2 * lf->netdev_cap : 16384;
			char *t = cap <= (8u << 20) ? realloc(lf->netdev, cap) : NULL;
			if (!t)
				break;
			lf->netdev = t;
			lf->netdev_cap = cap;
		}
		ssize_t n = read(fd, lf->netdev + lf->netdev_len, lf->netdev_cap - lf->netdev_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			lf->netdev_ok = n == 0;
			break;
		}
		lf->netdev_len += (size_t)n;
	}
	close(fd);
	if (lf->netdev_ok)
		lf->netdev[lf->netdev_len] = '\0';
}

/* A link's line of /proc/net/dev: "NAME: rx_bytes rx_packets errs drop fifo
 * frame compressed multicast tx_bytes tx_packets errs drop ...".  A name holds no
 * ':' and no white space (dev_valid_name), so the first ':' ends it. */
bool proc_net_dev_stats(const char *text, const char *ifname, struct obs_stats *st)
{
	size_t n = strlen(ifname);

	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *name = line + strspn(line, " ");
		if (strncmp(name, ifname, n) == 0 && name[n] == ':') {
			unsigned long long v[12];
			if (sscanf(name + n + 1,
				   "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
				   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
				   &v[11]) != 12)
				return false;
			st->rx_bytes = v[0];
			st->rx_packets = v[1];
			st->rx_errors = v[2];
			st->rx_dropped = v[3];
			st->tx_bytes = v[8];
			st->tx_packets = v[9];
			st->tx_errors = v[10];
			st->tx_dropped = v[11];
			return true;
		}
		line = end ? end + 1 : NULL;
	}
	return false;
}

/* The reply's /proc/net/dev, read at its first use. */
static bool read_stats(struct live_facts *lf, const char *ifname, struct obs_stats *st)
{
	if (!lf->netdev_loaded)
		load_netdev(lf);
	return lf->netdev_ok && proc_net_dev_stats(lf->netdev, ifname, st);
}

/* A link's counters now: /proc/net/dev, and two files of its own.  None
 * of these reads takes the RTNL lock. */
void read_counters(struct daemon *d, const char *ifname, struct link_live *out)
{
	if (!read_stats(&d->live, ifname, &out->stats))
		return;
	out->has_stats = true;
	/* Not in /proc/net/dev (its "frame" column sums CRC with three
	 * others): the device's own files (net/core/net-sysfs.c
	 * netstat_show), which take no RTNL lock. */
	char crc[32], missed[32];
	if (read_sys(ifname, "statistics/rx_crc_errors", crc, sizeof(crc)) &&
	    read_sys(ifname, "statistics/rx_missed_errors", missed, sizeof(missed))) {
		out->stats.rx_crc_errors = strtoull(crc, NULL, 10);
		out->stats.rx_missed_errors = strtoull(missed, NULL, 10);
		out->stats.has_crc_missed = true;
	}
}

/* Speed and duplex from sysfs when the cached ones are stale; counters
 * from /proc/net/dev while the reply's time budget lasts. */
void link_live(void *ctx, const char *ifname, int ifindex, struct link_live *out)
{
	struct daemon *d = ctx;
	struct link_runtime *rt = link_rt(d, ifname);

	(void)ifindex;
	/* speed_show and duplex_show (net/core/net-sysfs.c) need the RTNL
	 * lock, retrying while someone else holds it: within the budget only. */
	if (rt && !rt->speed_fresh && clock_mono_us() < d->live.budget_end_us) {
		char dir[64];
		struct nic_speed speed;
		snprintf(dir, sizeof(dir), "/sys/class/net/%s", ifname);
		nic_speed_read(dir, &speed);
		rt->mbps = speed.mbps;
		snprintf(rt->duplex, sizeof(rt->duplex), "%s", speed.duplex);
		rt->speed_fresh = true;
	}
	if (rt && rt->duplex[0]) { /* read at least once */
		out->mbps = rt->mbps;
		snprintf(out->duplex, sizeof(out->duplex), "%s", rt->duplex);
	}
	if (clock_mono_us() < d->live.budget_end_us)
		read_counters(d, ifname, out);
}
