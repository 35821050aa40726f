/* SPDX-License-Identifier: MIT */
/* Slave selectors: equality, the name of a slave not found, ID_PATH. */
#include "slave_selector.h"

#include <stdio.h>
#include <string.h>

bool slave_selector_equal(const struct slave_selector *a, const struct slave_selector *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case SEL_MAC:
		return memcmp(a->mac, b->mac, sizeof(a->mac)) == 0;
	case SEL_PATH:
		return a->port == b->port && strcmp(a->path, b->path) == 0;
	case SEL_NAME:
		break;
	}
	return strcmp(a->text, b->text) == 0;
}

/* FNV-1a, for a short stable word from a long text. */
static uint32_t hash(const char *s, unsigned port)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		h = (h ^ *c) * 16777619u;
	return (h ^ port) * 16777619u;
}

void slave_selector_placeholder(const struct slave_selector *s, char out[IFNAMSIZ])
{
	const uint8_t *m = s->mac;

	switch (s->kind) {
	case SEL_MAC: /* "m:" and 12 hex digits: one per address */
		snprintf(out, IFNAMSIZ, "m:%02x%02x%02x%02x%02x%02x", m[0], m[1], m[2], m[3], m[4],
			 m[5]);
		return;
	case SEL_PATH:
		snprintf(out, IFNAMSIZ, "p:%08x", (unsigned)hash(s->path, s->port));
		return;
	case SEL_NAME:
		if (strlen(s->text) < IFNAMSIZ)
			snprintf(out, IFNAMSIZ, "%s", s->text);
		else
			snprintf(out, IFNAMSIZ, "a:%08x", (unsigned)hash(s->text, 0));
		return;
	}
}

bool slave_selector_is_placeholder(const char *name)
{
	return strchr(name, ':') != NULL;
}

/*
 * systemd's path_id builtin names a PCI device's path "pci-" and the PCI
 * name of the device (the bridges above it are skipped), and a platform
 * device's "platform-" and its name: the bus and the device the kernel
 * sends as IFLA_PARENT_DEV_BUS_NAME and IFLA_PARENT_DEV_NAME
 * (net/core/rtnetlink.c rtnl_fill_ifinfo: dev->dev.parent's name and its
 * bus's name, since 5.14).  Other buses' paths are udev's longer ones
 * (usb under its PCI controller); bondd then knows only "BUS-DEVICE".
 */
bool slave_selector_id_path(const char *bus, const char *dev, char *out, size_t len)
{
	if (!bus || !dev || !bus[0] || !dev[0])
		return false;
	int n = snprintf(out, len, "%s-%s", bus, dev);
	return n > 0 && (size_t)n < len;
}
