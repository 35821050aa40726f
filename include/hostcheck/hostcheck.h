/* SPDX-License-Identifier: MIT */
/*
 * The host checks: what this host's sysfs and procfs say about the slaves'
 * hardware and about TCP, and what of it hurts a bond (two slaves on one
 * PCI card, mixed speeds, a mode that cannot stripe one stream on a bond
 * meant for one, TCP settings that fight balance-rr's reordering).
 *
 * Three parts: the observation below (plain data), a pure evaluation from
 * observation and config to findings (hostcheck_eval.c, unit-tested), and
 * a thin reader of a sysfs/procfs tree whose root is a parameter
 * (hostcheck_read.c; tests point it at fixture trees).
 */
#ifndef BONDD_HOSTCHECK_H
#define BONDD_HOSTCHECK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "desired.h"
#include "findings.h"
#include "strbuf.h"

/* TCP_CA_NAME_MAX in include/net/tcp.h, NUL included. */
#define HOST_CC_NAME 16

/* One configured slave as sysfs shows it. */
struct host_nic {
	char name[IFNAMSIZ];
	bool present;          /* /sys/class/net/NAME exists */
	/* The PCI function the device is, or sits under (a virtio NIC's
	 * device is virtioN, whose parent is the PCI function). */
	bool pci;
	unsigned domain, bus, slot, function;
	char pci_addr[16];     /* "0000:03:00.0"; "" when not PCI */
	char driver[32];       /* device/driver's name; "" when unknown */
	int mbps;              /* -1: unknown (link down, or the driver does not say) */
	char duplex[8];        /* "full", "half" or "unknown" */
};

/* The host's TCP settings that matter to one stream striped over links
 * (Documentation/networking/ip-sysctl.rst).  -1: could not be read. */
struct host_tcp {
	int reordering;        /* net.ipv4.tcp_reordering: initial reordering degree */
	int max_reordering;    /* net.ipv4.tcp_max_reordering */
	int recovery;          /* net.ipv4.tcp_recovery: bit 0x1 is RACK loss detection */
	int sack, dsack;       /* net.ipv4.tcp_sack, tcp_dsack */
	int timestamps;        /* net.ipv4.tcp_timestamps */
	char congestion[HOST_CC_NAME]; /* tcp_congestion_control; "" unknown */
	char available[256];   /* tcp_available_congestion_control, space-separated */
};

struct host_obs {
	struct host_tcp tcp;
	struct host_nic *nics; /* every configured slave, in config order */
	size_t n_nics;
	size_t hint;           /* where host_obs_nic's last search ended */
};

void host_obs_free(struct host_obs *h);
/* The NIC of a configured slave, or NULL.  Lookups come in config order,
 * as nics is: each search starts where the last one ended (h->hint), so a
 * look at every slave costs one pass, not one per slave. */
const struct host_nic *host_obs_nic(const struct host_obs *h, const char *name);

struct nic_speed;
/* How a live NIC's speed and duplex are read: the daemon asks the kernel by
 * ifindex (netlink/ethtool_link.h), never by a name that may be gone.  NULL
 * (or a NULL read) reads root's sysfs files, as for a fixture tree.  The
 * reader answers false when the NIC is gone, and leaves OUT unknown. */
struct hostcheck_speed {
	bool (*read)(void *ctx, const char *name, struct nic_speed *out);
	void *ctx;
};

/* Reads everything under root ("" for the live system; tests pass a fixture
 * tree holding sys/class/net/... and proc/sys/net/ipv4/...), each NIC's
 * speed through SPEED.  Replaces *out; 0 or -ENOMEM.  Files that cannot be
 * read leave their field unknown. */
int hostcheck_read(const char *root, const struct desired *want,
		   const struct hostcheck_speed *speed, struct host_obs *out);
/* One slave's hardware; false when root/sys/class/net/NAME does not exist. */
bool hostcheck_read_nic(const char *root, const char *name, const struct hostcheck_speed *speed,
			struct host_nic *out);
void hostcheck_read_tcp(const char *root, struct host_tcp *out);

/* True when the mode sends one TCP stream over every slave (balance-rr). */
bool hostcheck_mode_stripes(const struct desired_bond *b);
/* True when name is a word of the space-separated list. */
bool hostcheck_cc_listed(const char *list, const char *name);

/*
 * The pure evaluation: clears out and fills it with the host findings
 * (source FSRC_HOST_CHECK) about every bond of want.  0 or -ENOMEM.
 */
int hostcheck_eval(const struct desired *want, const struct host_obs *h, struct findings *out);

/* A slave's "hardware" object for --json: pci, driver, speed, duplex
 * (null where unknown); "null" when n is NULL (the slave was never read,
 * host_obs_nic) or does not exist. */
void hostcheck_json_nic(struct strbuf *out, const struct host_nic *n);

#endif
