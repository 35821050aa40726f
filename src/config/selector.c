/* SPDX-License-Identifier: MIT */
/* A slave selector's text: name (or altname), mac:ADDRESS, path:ID_PATH[/portN]. */
#include "selector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ifname.h"

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static const char *parse_mac_sel(const char *s, uint8_t mac[6])
{
	static const uint8_t zero[6];

	for (int i = 0; i < 6; i++) {
		int hi = hex(s[0]), lo = hi < 0 ? -1 : hex(s[1]);
		if (hi < 0 || lo < 0 || (i < 5 && s[2] != ':') || (i == 5 && s[2] != '\0'))
			return "expected mac:XX:XX:XX:XX:XX:XX (six hex bytes)";
		mac[i] = (uint8_t)(hi << 4 | lo);
		s += 3;
	}
	if (mac[0] & 1)
		return "is a multicast address, never a NIC's permanent one";
	if (memcmp(mac, zero, sizeof(zero)) == 0)
		return "is all zeros, which the kernel reports for a link without a permanent "
		       "address";
	return NULL;
}

/* ID_PATH as udev writes it: letters, digits and "-:._+", a bus and a
 * device joined by "-"; then /portN for the kernel's dev_port. */
static const char *parse_path_sel(const char *s, struct slave_selector *out)
{
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);

	if (n == 0)
		return "expected path:ID_PATH, such as path:pci-0000:3b:00.0";
	if (n >= sizeof(out->path))
		return "the device path is too long";
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("-:._+", c)))
			return "the device path may hold only letters, digits and \"-:._+\"";
	}
	if (!memchr(s, '-', n) || s[0] == '-')
		return "expected BUS-DEVICE as udev's ID_PATH, such as pci-0000:3b:00.0";
	memcpy(out->path, s, n);
	out->path[n] = '\0';
	out->port = 0;
	if (!slash)
		return NULL;
	const char *p = slash + strlen("/");
	if (strncmp(p, "port", 4) != 0)
		return "expected /portN after the device path (N: the NIC's dev_port)";
	p += 4;
	char *end;
	if (*p < '0' || *p > '9')
		return "expected /portN after the device path (N: the NIC's dev_port)";
	unsigned long v = strtoul(p, &end, 10);
	if (*end || v > 65535) /* dev_port: unsigned short (include/linux/netdevice.h) */
		return "the port is a number 0-65535 (the NIC's dev_port)";
	out->port = (unsigned)v;
	return NULL;
}

const char *slave_selector_parse(const char *text, struct slave_selector *out)
{
	size_t n = strlen(text);
	const char *why;

	memset(out, 0, sizeof(*out));
	if (n >= sizeof(out->text))
		return "is longer than 127 bytes";
	memcpy(out->text, text, n + 1);
	if (strncmp(text, "mac:", 4) == 0) {
		out->kind = SEL_MAC;
		return parse_mac_sel(text + 4, out->mac);
	}
	if (strncmp(text, "path:", 5) == 0) {
		out->kind = SEL_PATH;
		return parse_path_sel(text + 5, out);
	}
	out->kind = SEL_NAME;
	why = ifname_problem(text);
	if (!why || n < IFNAMSIZ)
		return why;
	/* 16-127 bytes: only an altname can be that long (ALTIFNAMSIZ). */
	for (const char *c = text; *c; c++)
		if ((why = ifname_char_problem(*c)))
			return why;
	return NULL;
}

const char *slave_selector_noun(enum sel_kind kind)
{
	return kind == SEL_MAC ? "permanent MAC" : kind == SEL_PATH ? "device path"
								    : "interface name";
}
