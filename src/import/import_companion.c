/* SPDX-License-Identifier: MIT */
/*
 * The companion: what the source's network manager needs to keep stacking
 * on a bond that bondd makes (bondd(8), LIVING BESIDE OTHER NETWORK
 * MANAGERS, whose recipes the systemd tier's managers phase runs:
 * tests/systemd-tier/managers/).  Only for bonds with uppers, and only text:
 * bondd-import writes no file.
 *
 * - networkd reads VLAN= and Bridge= from the lower link's own .network
 *   (systemd.network(5)), which Unmanaged=yes skips: the bond keeps a
 *   .network that only stacks (no MTUBytes=, no address, no IPv6 link-local
 *   address of its own), and the slaves alone are Unmanaged=yes;
 * - netplan takes a VLAN's link: or a bridge's interfaces: only when they
 *   name a netplan ID: an ethernets: entry that matches the bond by name
 *   and configures nothing, and networkd's file for the slaves as above;
 * - ifupdown2 sets the MTU of every interface with a stanza to 1500 unless
 *   the stanza says one (its physical-NIC default): the bond's stanza says
 *   bondd's MTU and holds no bond-* line;
 * - NetworkManager keeps off the bond and its slaves (unmanaged-devices);
 *   it makes a VLAN on an unmanaged link, never a bridge port of one: that
 *   is bondd's `bridge =` (written by import_render).
 */
#include "import.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool has_uppers(const struct import_bond *b)
{
	return b->n_vlans || *b->bridge;
}

/* A slave the companion can name: a name, not a mac: or path: selector. */
static bool plain_name(const char *s)
{
	return strncmp(s, "mac:", 4) != 0 && strncmp(s, "path:", 5) != 0;
}

/* One line of a companion file, after prefix ("#|" in bondd.conf, a
 * blank between it and a line's text). */
static void line(struct strbuf *out, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(struct strbuf *out, const char *prefix, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	sb_printf(out, "%s%s%s\n", prefix, *prefix && *text ? " " : "", text);
}

/* Every named slave of the bonds with uppers, for networkd's Unmanaged=yes
 * or NetworkManager's unmanaged-devices; the bond too (NetworkManager). */
static void slave_names(const struct import_result *r, struct strbuf *out, const char *before,
			const char *sep, bool bonds)
{
	bool first = true;
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct import_bond *b = &r->bonds[i];
		if (!has_uppers(b))
			continue;
		if (bonds) {
			sb_printf(out, "%s%s%s", first ? "" : sep, before, b->name);
			first = false;
		}
		for (size_t j = 0; j < b->n_slaves; j++) {
			if (!plain_name(b->slaves[j]))
				continue;
			sb_printf(out, "%s%s%s", first ? "" : sep, before, b->slaves[j]);
			first = false;
		}
	}
}

static bool selector_slaves(const struct import_result *r)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		for (size_t j = 0; has_uppers(&r->bonds[i]) && j < r->bonds[i].n_slaves; j++)
			if (!plain_name(r->bonds[i].slaves[j]))
				return true;
	return false;
}

static void networkd_slaves(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	struct strbuf names = {0};

	slave_names(r, &names, "", " ", false);
	line(out, prefix, "== /etc/systemd/network/00-bondd.network ==");
	line(out, prefix, "# networkd keeps off bondd's slaves (the first file that fits wins).");
	if (selector_slaves(r))
		line(out, prefix, "# Add the slaves bondd.conf names by mac: or path: by their names.");
	line(out, prefix, "[Match]");
	/* Not through line(): the list has no bound of its own. */
	sb_printf(out, "%s%sName=%s\n", prefix, *prefix ? " " : "", names.s ? names.s : "");
	line(out, prefix, "%s", "");
	line(out, prefix, "[Link]");
	line(out, prefix, "Unmanaged=yes");
	if (names.oom)
		out->oom = true;
	sb_free(&names);
}

static void networkd(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct import_bond *b = &r->bonds[i];
		if (!has_uppers(b))
			continue;
		line(out, prefix, "== /etc/systemd/network/00-bondd-%s.network ==", b->name);
		line(out, prefix, "# In place of %s's .netdev and .network: bondd makes the bond,",
		     b->name);
		line(out, prefix, "# networkd only stacks on it (no MTUBytes=, no address).");
		line(out, prefix, "[Match]");
		line(out, prefix, "Name=%s", b->name);
		line(out, prefix, "%s", "");
		line(out, prefix, "[Network]");
		for (size_t j = 0; j < b->n_vlans; j++)
			line(out, prefix, "VLAN=%s", b->vlans[j]);
		if (*b->bridge)
			line(out, prefix, "Bridge=%s", b->bridge);
		line(out, prefix, "LinkLocalAddressing=no");
	}
	networkd_slaves(r, prefix, out);
}

static void netplan(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	bool any = false;

	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct import_bond *b = &r->bonds[i];
		if (!has_uppers(b) || !b->np_networkd)
			continue;
		if (!any) {
			line(out, prefix, "== /etc/netplan/60-bondd.yaml ==");
			line(out, prefix, "# In place of the bonds: entries: bondd makes the bonds; these");
			line(out, prefix, "# entries make them netplan IDs for vlans: and bridges:, and");
			line(out, prefix, "# configure nothing.");
			line(out, prefix, "network:");
			line(out, prefix, "  version: 2");
			line(out, prefix, "  ethernets:");
			any = true;
		}
		line(out, prefix, "    %s:", b->name);
		line(out, prefix, "      match:");
		line(out, prefix, "        name: %s", b->name);
		line(out, prefix, "      link-local: []");
	}
	if (any)
		networkd_slaves(r, prefix, out);
}

static void ifupdown(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct import_bond *b = &r->bonds[i];
		if (!has_uppers(b))
			continue;
		line(out, prefix, "== /etc/network/interfaces: in place of %s's stanza ==", b->name);
		line(out, prefix, "# No bond-* line: bondd makes the bond.  The MTU is bondd's: without");
		line(out, prefix, "# it ifupdown2 sets 1500 at every ifup and ifreload, which bondd");
		line(out, prefix, "# repairs.");
		line(out, prefix, "auto %s", b->name);
		line(out, prefix, "iface %s inet manual", b->name);
		line(out, prefix, "\tmtu %u", b->mtu ? b->mtu : 1500);
	}
}

static void nm(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	struct strbuf names = {0};

	slave_names(r, &names, "interface-name:", ";", true);
	line(out, prefix, "== /etc/NetworkManager/conf.d/90-bondd.conf ==");
	line(out, prefix, "# NetworkManager keeps off bondd's bonds and slaves; delete their");
	line(out, prefix, "# profiles, keep the VLANs' (parent= the bond's name).");
	if (selector_slaves(r))
		line(out, prefix, "# Add the slaves bondd.conf names by mac: or path: by their names.");
	line(out, prefix, "[keyfile]");
	sb_printf(out, "%s%sunmanaged-devices=%s\n", prefix, *prefix ? " " : "",
		  names.s ? names.s : "");
	if (names.oom)
		out->oom = true;
	sb_free(&names);
}

int import_companion(const struct import_result *r, const char *prefix, struct strbuf *out)
{
	bool any = false;

	for (size_t i = 0; i < r->n_bonds; i++)
		any = any || has_uppers(&r->bonds[i]);
	if (!any)
		return 0;
	if (strcmp(r->format, "systemd-networkd") == 0)
		networkd(r, prefix, out);
	else if (strcmp(r->format, "netplan") == 0)
		netplan(r, prefix, out);
	else if (strcmp(r->format, "ifupdown") == 0)
		ifupdown(r, prefix, out);
	else if (strcmp(r->format, "NetworkManager") == 0)
		nm(r, prefix, out);
	return out->oom ? -ENOMEM : 0;
}
