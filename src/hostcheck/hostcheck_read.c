/* SPDX-License-Identifier: MIT */
/*
 * The host checks' reader: sysfs and procfs under a root given by the
 * caller ("" for the live system), so tests read fixture trees laid out as
 * the kernel lays out the real ones:
 *
 *   sys/class/net/eth0 -> ../../devices/pci0000:00/0000:00:01.0/0000:03:00.0/net/eth0
 *   .../net/eth0/device -> ../../../0000:03:00.0
 *   .../0000:03:00.0/driver -> ../../../../bus/pci/drivers/ixgbe
 *   .../net/eth0/speed, duplex
 *   proc/sys/net/ipv4/tcp_*
 *
 * It decides nothing; a file that cannot be read leaves its field unknown.
 */
#include "hostcheck.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "nic_speed.h"
#include "small_file.h"

static int read_int(const char *path)
{
	char buf[32], *end;
	if (!small_file_line(path, buf, sizeof(buf)))
		return -1;
	long v = strtol(buf, &end, 10);
	return end == buf || v < -1 || v > INT_MAX ? -1 : (int)v;
}

/* "0000:03:00.0" (drivers/pci/probe.c pci_setup_device names devices
 * "%04x:%02x:%02x.%d"). */
static bool parse_pci(const char *s, struct host_nic *n)
{
	unsigned d, b, sl, f;
	char tail;

	if (strlen(s) != 12 || sscanf(s, "%4x:%2x:%2x.%1u%c", &d, &b, &sl, &f, &tail) != 4 ||
	    s[4] != ':' || s[7] != ':' || s[10] != '.')
		return false;
	n->pci = true;
	n->domain = d;
	n->bus = b;
	n->slot = sl;
	n->function = f;
	snprintf(n->pci_addr, sizeof(n->pci_addr), "%s", s);
	return true;
}

/* The nearest PCI function at or above the device: the NIC itself, or the
 * function a virtio or USB device hangs from. */
static void find_pci(const char *device_path, struct host_nic *n)
{
	char real[PATH_MAX];

	if (!realpath(device_path, real))
		return;
	for (char *slash; (slash = strrchr(real, '/')) && slash != real; *slash = '\0')
		if (parse_pci(slash + 1, n))
			return;
}

static void read_driver(const char *device_path, struct host_nic *n)
{
	char path[PATH_MAX], link[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/driver", device_path) >= sizeof(path))
		return;
	ssize_t len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return;
	link[len] = '\0';
	const char *base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) < sizeof(n->driver))
		memcpy(n->driver, base, strlen(base) + 1);
}

bool hostcheck_read_nic(const char *root, const char *name, const struct hostcheck_speed *speed,
			struct host_nic *n)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct stat st;

	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->mbps = -1;
	snprintf(n->duplex, sizeof(n->duplex), "unknown");
	snprintf(dir, sizeof(dir), "%s/sys/class/net/%s", root, name);
	if (stat(dir, &st) < 0)
		return false;
	n->present = true;
	snprintf(path, sizeof(path), "%s/device", dir);
	find_pci(path, n);
	read_driver(path, n);
	struct nic_speed sp;
	/* The live system through the caller's reader (ethtool by ifindex,
	 * which sleeps for the RTNL lock where sysfs would spin: nic_speed.h);
	 * a fixture tree by its files. */
	if (speed && speed->read)
		speed->read(speed->ctx, name, &sp);
	else
		nic_speed_read(dir, &sp);
	n->mbps = sp.mbps;
	snprintf(n->duplex, sizeof(n->duplex), "%s", sp.duplex);
	return true;
}

void hostcheck_read_tcp(const char *root, struct host_tcp *t)
{
	char path[PATH_MAX];
	struct {
		const char *file;
		int *into;
	} ints[] = {
		{"tcp_reordering", &t->reordering}, {"tcp_max_reordering", &t->max_reordering},
		{"tcp_recovery", &t->recovery},     {"tcp_sack", &t->sack},
		{"tcp_dsack", &t->dsack},           {"tcp_timestamps", &t->timestamps},
	};

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		snprintf(path, sizeof(path), "%s/proc/sys/net/ipv4/%s", root, ints[i].file);
		*ints[i].into = read_int(path);
	}
	snprintf(path, sizeof(path), "%s/proc/sys/net/ipv4/tcp_congestion_control", root);
	if (!small_file_line(path, t->congestion, sizeof(t->congestion)))
		t->congestion[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/sys/net/ipv4/tcp_available_congestion_control",
		 root);
	if (!small_file_line(path, t->available, sizeof(t->available)))
		t->available[0] = '\0';
}

int hostcheck_read(const char *root, const struct desired *want,
		   const struct hostcheck_speed *speed, struct host_obs *out)
{
	size_t n = 0;

	for (size_t i = 0; i < want->n_bonds; i++)
		n += want->bonds[i].n_slaves;
	struct host_nic *nics = calloc(n ? n : 1, sizeof(*nics));
	if (!nics)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < want->n_bonds; i++)
		for (size_t j = 0; j < want->bonds[i].n_slaves; j++)
			hostcheck_read_nic(root, want->bonds[i].slaves[j].name, speed, &nics[k++]);
	host_obs_free(out);
	out->nics = nics;
	out->n_nics = n;
	hostcheck_read_tcp(root, &out->tcp);
	return 0;
}
