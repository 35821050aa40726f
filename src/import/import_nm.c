/* SPDX-License-Identifier: MIT */
/*
 * NetworkManager keyfiles (nm-settings-keyfile(5), the settings of
 * nm-settings-nmcli(5)) into plain data.  Netplan's NetworkManager renderer
 * writes these too (/run/NetworkManager/system-connections).
 *
 * - a bond is a connection with [connection] type=bond; its name is
 *   interface-name= ([bond] interface-name= in old files); its options are
 *   the keys of [bond], which are the kernel's option names (active_slave
 *   is NetworkManager's old spelling of primary);
 * - when [bond] sets neither miimon nor arp_interval, NetworkManager
 *   applies miimon 100, its default for the option; that is written out;
 * - a port is a connection with controller= (or master=) naming the bond by
 *   interface name, UUID or id, and port-type= (or slave-type=) bond; its
 *   interface-name= is the slave;
 * - [ethernet] mtu= (0: not set) is the bond's MTU; [ipv4] and [ipv6]
 *   address keys with method=manual are its addresses.  Which keys those
 *   are is nm-keyfile.c's (ip_addrroute_match_key): "address" or
 *   "addresses", bare or followed by 0 or a decimal without a leading
 *   zero; they are read in the order of that number (bare first, then 0,
 *   1, ...; "address" before "addresses" at the same number).  A value is
 *   ADDR[/PREFIX][,GATEWAY], where '/', ';' and ',' are interchangeable
 *   and a trailing ';' is allowed (read_one_ip_address_or_route); with no
 *   prefix NetworkManager takes /24 (IPv4) or /64 (IPv6), noted here;
 * - a VLAN ([connection] type=vlan) whose [vlan] parent= is the bond's
 *   interface name or its connection's UUID (nm-settings-nmcli(5),
 *   vlan.parent), and a bridge the bond is a port of (its controller= with
 *   port-type=bridge) are named in the bond's notes: bondd makes neither;
 * - [bond] options= is no key NetworkManager reads (the bond setting's
 *   properties are one key each in [bond]; nmcli's bond.options is written
 *   that way), so it is not carried over, and the note says what it holds.
 * NetworkManager activates ports as it finds them and keeps no order: the
 * slaves are listed in the order of their files' names, and a comment says
 * so.
 */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ADDR_KEYS 64

struct conn {
	const struct import_file *in;
	const char *base;
	char id[128], uuid[64], type[32], ifname[64], controller[128], port_type[32];
	char mtu[16];
	char vlan_parent[128], vlan_id[16];
	/* What names the port whatever its name (nm-settings-nmcli(5)):
	 * ethernet.mac-address, the permanent address; match.path, udev's
	 * ID_PATH (a list). */
	char perm_mac[64], paths[256];
};

/* GLib key file escapes, for the values read here: \s \t \\ (a \n or \r
 * makes the value unusable: it is cut there). */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 's')
			*o++ = ' ';
		else if (*s == 't')
			*o++ = '\t';
		else if (*s == '\\')
			*o++ = '\\';
		else if (*s == 'n' || *s == 'r')
			break;
		else
			*o++ = *s;
	}
	*o = '\0';
}

static bool is_ethernet(const char *section)
{
	return strcmp(section, "ethernet") == 0 || strcmp(section, "802-3-ethernet") == 0;
}

static int read_conn(struct conn *c, const struct import_file *in)
{
	struct ini_cursor cur;

	memset(c, 0, sizeof(*c));
	c->in = in;
	const char *slash = strrchr(in->name, '/');
	c->base = slash ? slash + 1 : in->name;
	if (ini_open(&cur, in) < 0)
		return -ENOMEM;
	while (ini_next(&cur)) {
		unescape(cur.val);
		if (strcmp(cur.section, "connection") == 0) {
			if (strcmp(cur.key, "id") == 0)
				snprintf(c->id, sizeof(c->id), "%s", cur.val);
			else if (strcmp(cur.key, "uuid") == 0)
				snprintf(c->uuid, sizeof(c->uuid), "%s", cur.val);
			else if (strcmp(cur.key, "type") == 0)
				snprintf(c->type, sizeof(c->type), "%s", cur.val);
			else if (strcmp(cur.key, "interface-name") == 0)
				snprintf(c->ifname, sizeof(c->ifname), "%s", cur.val);
			else if (strcmp(cur.key, "controller") == 0 ||
				 (strcmp(cur.key, "master") == 0 && !*c->controller))
				snprintf(c->controller, sizeof(c->controller), "%s", cur.val);
			else if (strcmp(cur.key, "port-type") == 0 ||
				 (strcmp(cur.key, "slave-type") == 0 && !*c->port_type))
				snprintf(c->port_type, sizeof(c->port_type), "%s", cur.val);
		} else if (strcmp(cur.section, "bond") == 0 &&
			   strcmp(cur.key, "interface-name") == 0 && !*c->ifname) {
			snprintf(c->ifname, sizeof(c->ifname), "%s", cur.val);
		} else if (is_ethernet(cur.section) && strcmp(cur.key, "mtu") == 0) {
			snprintf(c->mtu, sizeof(c->mtu), "%s", cur.val);
		} else if (is_ethernet(cur.section) && strcmp(cur.key, "mac-address") == 0) {
			snprintf(c->perm_mac, sizeof(c->perm_mac), "%s", cur.val);
		} else if (strcmp(cur.section, "match") == 0 && strcmp(cur.key, "path") == 0) {
			snprintf(c->paths, sizeof(c->paths), "%s", cur.val);
		} else if (strcmp(cur.section, "vlan") == 0 && strcmp(cur.key, "parent") == 0) {
			snprintf(c->vlan_parent, sizeof(c->vlan_parent), "%s", cur.val);
		} else if (strcmp(cur.section, "vlan") == 0 && strcmp(cur.key, "id") == 0) {
			snprintf(c->vlan_id, sizeof(c->vlan_id), "%s", cur.val);
		}
	}
	ini_close(&cur);
	return 0;
}

static int by_base(const void *a, const void *b)
{
	const struct conn *x = a, *y = b;
	return strcmp(x->base, y->base);
}

/*
 * nm-keyfile.c's address keys (ip_addrroute_match_key): "address" or
 * "addresses", then nothing, "0", or a decimal with no leading zero.  The
 * order key sorts as NetworkManager reads them: by number (bare first),
 * then "address" before "addresses".  0 when key is not one of them.
 */
static unsigned long address_order(const char *key)
{
	bool plural = strncmp(key, "addresses", 9) == 0;
	const char *n = plural ? key + 9 : strncmp(key, "address", 7) == 0 ? key + 7 : NULL;
	unsigned long idx;
	char *end;

	if (!n)
		return 0;
	if (*n == '\0') {
		idx = 0;
	} else if (n[0] == '0' && n[1] == '\0') {
		idx = 1;
	} else {
		if (*n < '1' || *n > '9')
			return 0;
		unsigned long v = strtoul(n, &end, 10);
		if (*end || v > 100000)
			return 0;
		idx = v + 1;
	}
	return idx * 2 + (plural ? 1 : 0) + 1;
}

struct addr_key {
	unsigned long order;
	unsigned line;
	bool v6;
	char key[32];
	char value[96];
	char from[320];
};

static int by_order(const void *a, const void *b)
{
	const struct addr_key *x = a, *y = b;
	if (x->v6 != y->v6)
		return x->v6 ? 1 : -1; /* IPv4 first */
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* One address value as read_one_ip_address_or_route splits it: fields
 * separated by any of '/', ';', ','; a trailing ';' allowed. */
static void nm_address(struct import_bond *b, struct addr_key *a)
{
	char *fields[4] = {0}, *at = a->value;
	size_t n = 0;
	size_t len = strlen(at);

	if (len && at[len - 1] == ';')
		at[len - 1] = '\0';
	while (n < 4) {
		fields[n++] = at;
		at = strpbrk(at, "/;,");
		if (!at)
			break;
		*at++ = '\0';
	}
	if (at || !*fields[0]) {
		import_note(&b->notes, "not carried over: %s (%s): not ADDRESS/PREFIX,GATEWAY",
			    a->key, a->from);
		return;
	}
	const char *addr = fields[0], *plen = fields[1], *gw = fields[2];
	char cidr[128];
	if (n > 3) {
		import_note(&b->notes, "not carried over: %s (%s): more fields than "
			    "ADDRESS/PREFIX,GATEWAY", a->key, a->from);
		return;
	}
	if (gw && *gw)
		import_note(&b->notes, "not carried over: gateway %.60s (%s): bondd sets no "
			    "routes", gw, a->from);
	if (!plen || !*plen) {
		/* A value of ADDR,GATEWAY: NetworkManager reads the second field
		 * as the prefix and falls back to the default when it is not one. */
		plen = a->v6 ? "64" : "24";
		import_note(&b->notes, "%s (%s) has no prefix length: /%s, NetworkManager's "
			    "default", addr, a->from, plen);
	} else if (strspn(plen, "0123456789") != strlen(plen)) {
		import_note(&b->notes, "%s (%s): the prefix \"%.20s\" is not a number: /%s, "
			    "NetworkManager's default", addr, a->from, plen, a->v6 ? "64" : "24");
		if (!gw || !*gw)
			import_note(&b->notes, "not carried over: gateway %.60s (%s): bondd sets "
				    "no routes", plen, a->from);
		plen = a->v6 ? "64" : "24";
	}
	snprintf(cidr, sizeof(cidr), "%.60s/%.8s", addr, plen);
	import_add_addr(b, cidr, a->from);
}

/* [bond] options=: "mode=802.3ad,miimon=100" is how nmcli prints the bond
 * setting, not a key NetworkManager reads back, so it changes nothing. */
static void options_note(struct import_bond *b, const char *val, const char *from)
{
	char meant[300] = "", copy[256];

	snprintf(copy, sizeof(copy), "%s", val);
	for (char *save = NULL, *t = strtok_r(copy, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save))
		snprintf(meant + strlen(meant), sizeof(meant) - strlen(meant), "%s%s",
			 meant[0] ? ", " : "", t);
	import_note(&b->notes, "not carried over: [bond] options=%.80s (%s): NetworkManager "
		    "reads no such key and ignores it; the author likely meant one [bond] key "
		    "each: %.120s; add them here by hand if so", val, from, meant);
}

/* Everything of the bond's own file but its identity. */
static int read_bond_settings(struct import_bond *b, const struct conn *c)
{
	struct ini_cursor cur;
	struct addr_key addrs[MAX_ADDR_KEYS];
	size_t n_addrs = 0;
	char method4[32] = "", method6[32] = "";

	if (ini_open(&cur, c->in) < 0)
		return -ENOMEM;
	while (ini_next(&cur)) {
		unsigned long order;
		unescape(cur.val);
		if (strcmp(cur.section, "bond") == 0) {
			if (strcmp(cur.key, "interface-name") == 0)
				continue;
			if (strcmp(cur.key, "options") == 0) {
				options_note(b, cur.val, cur.from);
				continue;
			}
			import_set_opt(b, strcmp(cur.key, "active_slave") == 0 ? "primary" : cur.key,
				       cur.val, cur.from);
		} else if ((strcmp(cur.section, "ipv4") == 0 || strcmp(cur.section, "ipv6") == 0) &&
			   (order = address_order(cur.key)) > 0) {
			if (n_addrs == MAX_ADDR_KEYS)
				continue;
			struct addr_key *a = &addrs[n_addrs++];
			a->order = order;
			a->line = cur.line;
			a->v6 = cur.section[3] == '6';
			snprintf(a->key, sizeof(a->key), "%.31s", cur.key);
			snprintf(a->value, sizeof(a->value), "%s", cur.val);
			snprintf(a->from, sizeof(a->from), "%s", cur.from);
		} else if (strcmp(cur.section, "ipv4") == 0 && strcmp(cur.key, "method") == 0) {
			snprintf(method4, sizeof(method4), "%s", cur.val);
		} else if (strcmp(cur.section, "ipv6") == 0 && strcmp(cur.key, "method") == 0) {
			snprintf(method6, sizeof(method6), "%s", cur.val);
		} else if (strcmp(cur.section, "connection") == 0 &&
			   strcmp(cur.key, "autoconnect") == 0 &&
			   (strcasecmp(cur.val, "false") == 0 || strcmp(cur.val, "0") == 0 ||
			    strcasecmp(cur.val, "no") == 0)) {
			import_note(&b->notes, "autoconnect=%s (%s): NetworkManager does not bring "
				    "this bond up at boot; bondd makes it whenever it runs", cur.val,
				    cur.from);
		} else if (strcmp(cur.section, "connection") == 0 || is_ethernet(cur.section) ||
			   ((strcmp(cur.section, "ipv4") == 0 || strcmp(cur.section, "ipv6") == 0) &&
			    (strcmp(cur.key, "may-fail") == 0 ||
			     strcmp(cur.key, "addr-gen-mode") == 0)) ||
			   strcmp(cur.section, "proxy") == 0) {
			if (is_ethernet(cur.section) && strcmp(cur.key, "mtu") != 0)
				import_note(&b->notes, "not carried over: [%s] %.40s=%.60s (%s)",
					    cur.section, cur.key, cur.val, cur.from);
		} else {
			import_note(&b->notes, "not carried over: [%.30s] %.40s=%.60s (%s)",
				    cur.section, cur.key, cur.val, cur.from);
		}
	}
	ini_close(&cur);

	if (strcmp(method4, "auto") == 0 || strcmp(method6, "auto") == 0 ||
	    strcmp(method6, "dhcp") == 0)
		import_note(&b->notes, "not carried over: addresses from DHCP or autoconfiguration "
			    "(method=auto in %s): bondd sets static addresses only", c->in->name);
	qsort(addrs, n_addrs, sizeof(addrs[0]), by_order);
	for (size_t i = 0; i < n_addrs; i++) {
		/* A key given twice: the last one counts (ip_address_or_route_parser
		 * skips the earlier of two equal keys). */
		if (i + 1 < n_addrs && addrs[i].v6 == addrs[i + 1].v6 &&
		    strcmp(addrs[i].key, addrs[i + 1].key) == 0)
			continue;
		const char *method = addrs[i].v6 ? method6 : method4;
		if (strcmp(method, "manual") != 0) {
			import_note(&b->notes, "not carried over: address %.60s (%s): method is "
				    "not manual", addrs[i].value, addrs[i].from);
			continue;
		}
		nm_address(b, &addrs[i]);
	}
	return 0;
}

static bool names_bond(const struct conn *port, const struct conn *bond)
{
	const char *c = port->controller;
	return *c && (strcmp(c, bond->ifname) == 0 || (*bond->uuid && strcmp(c, bond->uuid) == 0) ||
		      (*bond->id && strcmp(c, bond->id) == 0));
}

/*
 * The port by what survives a rename: ethernet.mac-address (the permanent
 * address: nm-settings-nmcli(5)), else a match.path of one value.  True
 * when added so; false (noted where the file had one) for the name.
 */
static bool port_by_id(struct import_bond *b, const struct conn *p)
{
	const char *path = p->in->name;

	if (*p->perm_mac && import_add_slave_by(b, "mac", p->perm_mac, path))
		return true;
	if (*p->paths) {
		char one[256];
		size_t n = strcspn(p->paths, ",;");
		snprintf(one, sizeof(one), "%.*s", (int)n, p->paths);
		bool single = p->paths[n] == '\0' || p->paths[n + strspn(p->paths + n, ",; ")] == '\0';
		if (!single)
			import_note(&b->notes, "not carried over: match.path=%.60s (%s): several "
				    "paths, one port", p->paths, path);
		else if (import_add_slave_by(b, "path", one, path))
			return true;
	}
	if ((*p->perm_mac || *p->paths) && *p->ifname)
		import_note(&b->notes, "%s: fell back to interface-name=%s, which a rename loses",
			    path, p->ifname);
	return false;
}

static void read_ports(struct import_bond *b, const struct conn *bond, const struct conn *all,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct conn *p = &all[i];
		if (p == bond || !names_bond(p, bond))
			continue;
		if (*p->port_type && strcmp(p->port_type, "bond") != 0) {
			import_note(&b->notes, "%s: names %s as its controller but is a %s port; "
				    "skipped", p->in->name, bond->ifname, p->port_type);
			continue;
		}
		if (!port_by_id(b, p)) {
			if (!*p->ifname) {
				import_note(&b->notes, "not carried over: the port in %s has no "
					    "interface-name, mac-address nor match.path: add it to "
					    "slaves by hand", p->in->name);
				continue;
			}
			import_add_slave(b, p->ifname, p->in->name);
		}
		if (*p->mtu && strcmp(p->mtu, "0") != 0)
			import_note(&b->notes, "mtu=%.20s of port %s (%s) is not carried over: the "
				    "kernel gives every slave the bond's MTU", p->mtu, p->ifname,
				    p->in->name);
	}
}

/* VLANs on the bond, and a bridge it is a port of: named, not made. */
static void stacked(struct import_bond *b, const struct conn *bond, const struct conn *all,
		    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct conn *v = &all[i];
		if (strcmp(v->type, "vlan") != 0 || !*v->vlan_parent)
			continue;
		bool by_uuid = *bond->uuid && strcmp(v->vlan_parent, bond->uuid) == 0;
		if (strcmp(v->vlan_parent, bond->ifname) != 0 && !by_uuid)
			continue;
		import_note(&b->notes, "not carried over: VLAN %.40s (id %.8s) on %s (%s): "
			    "bondd makes the bond only; keep the VLAN in NetworkManager",
			    *v->ifname ? v->ifname : v->id, *v->vlan_id ? v->vlan_id : "?",
			    bond->ifname, v->in->name);
		/* The bond's profile goes: a parent named by its UUID names
		 * nothing then (nm-settings-nmcli(5), vlan.parent takes an
		 * interface name as well). */
		if (by_uuid)
			import_note(&b->notes, "%s: [vlan] parent= names the bond's profile, which "
				    "goes; set parent=%s", v->in->name, bond->ifname);
		if (*v->ifname) {
			import_add_vlan(b, v->ifname, v->in->name);
		} else {
			/* NetworkManager names a VLAN without interface-name
			 * PARENT.ID (nm_utils_new_vlan_name). */
			char name[64];
			snprintf(name, sizeof(name), "%.15s.%.8s", bond->ifname,
				 *v->vlan_id ? v->vlan_id : "?");
			import_add_vlan(b, name, v->in->name);
		}
	}
	if (*bond->controller && strcmp(bond->port_type, "bridge") == 0) {
		/* controller= names the bridge's profile by interface name,
		 * UUID or id. */
		const char *br = bond->controller;
		for (size_t i = 0; i < n; i++)
			if (strcmp(all[i].type, "bridge") == 0 && *all[i].ifname &&
			    (strcmp(all[i].ifname, br) == 0 || strcmp(all[i].uuid, br) == 0 ||
			     strcmp(all[i].id, br) == 0))
				br = all[i].ifname;
		import_note(&b->notes, "not carried over: %s is a bridge port of %.60s (%s): "
			    "NetworkManager never makes a link it does not manage a port; bondd "
			    "does (bridge =)", bond->ifname, bond->controller, bond->in->name);
		import_set_bridge(b, br, bond->in->name);
	} else if (*bond->controller) {
		import_note(&b->notes, "not carried over: %s is a %s port of %.60s (%s): keep "
			    "that in NetworkManager", bond->ifname,
			    *bond->port_type ? bond->port_type : "controller's", bond->controller,
			    bond->in->name);
	}
}

static void bond_defaults(struct import_bond *b)
{
	const char *arp = import_get_opt(b, "arp_interval");

	/* nm-setting-bond: miimon's default is 100, and it is left at 0 only
	 * when arp_interval is set instead. */
	if (!import_get_opt(b, "miimon") && (!arp || strcmp(arp, "0") == 0)) {
		import_set_opt(b, "miimon", "100", "NetworkManager's default");
		import_note(&b->notes, "miimon = 100 is NetworkManager's default for a bond "
			    "whose [bond] sets neither miimon nor arp_interval");
	}
}

int import_nm(const struct import_file *files, size_t n, struct import_result *out)
{
	struct conn *all = calloc(n ? n : 1, sizeof(*all));
	size_t m = 0;
	int err = -ENOMEM;

	out->format = "NetworkManager";
	if (!all)
		goto out;
	for (size_t i = 0; i < n; i++) {
		if ((err = read_conn(&all[m], &files[i])) < 0)
			goto out;
		if (!*all[m].type) {
			import_note(&out->notes, "%s: no [connection] type=: not a NetworkManager "
				    "keyfile; skipped", files[i].name);
			continue;
		}
		m++;
	}
	qsort(all, m, sizeof(*all), by_base);
	for (size_t i = 0; i < m; i++) {
		const struct conn *c = &all[i];
		if (strcmp(c->type, "bond") != 0)
			continue;
		struct import_bond *b = import_add_bond(out, c->ifname, c->in->name);
		if (!b)
			continue;
		b->order_note = "NetworkManager keeps none; by keyfile name: check it.";
		if (*c->mtu && strcmp(c->mtu, "0") != 0) {
			char *end;
			unsigned long v = strtoul(c->mtu, &end, 10);
			if (*end || v < 68 || v > 65535)
				import_note(&b->notes, "not carried over: mtu=%.20s (%s)", c->mtu,
					    c->in->name);
			else
				b->mtu = (uint32_t)v;
		}
		if ((err = read_bond_settings(b, c)) < 0)
			goto out;
		bond_defaults(b);
		read_ports(b, c, all, m);
		stacked(b, c, all, m);
	}
	for (size_t i = 0; i < m; i++) {
		const struct conn *p = &all[i];
		bool found = false;
		if (!*p->controller || strcmp(p->port_type, "bond") != 0)
			continue;
		for (size_t j = 0; j < m && !found; j++)
			found = strcmp(all[j].type, "bond") == 0 && names_bond(p, &all[j]);
		if (!found)
			import_note(&out->notes, "%s: a port of %.60s, which no keyfile given defines",
				    p->in->name, p->controller);
	}
	err = import_result_oom(out);
out:
	free(all);
	return err;
}
