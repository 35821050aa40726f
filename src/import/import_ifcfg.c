/* SPDX-License-Identifier: MIT */
/*
 * RHEL initscripts ifcfg files (/etc/sysconfig/network-scripts/ifcfg-*)
 * into plain data.  What each variable means is what the initscripts'
 * network-scripts do with it:
 *
 * - a bond is a file with TYPE=Bond, BONDING_MASTER=yes or BONDING_OPTS;
 *   its name is DEVICE, else the file name after "ifcfg-";
 * - BONDING_OPTS="key=value ..." are sysfs writes (install_bonding_driver):
 *   the key is what precedes the first '=', the value what follows the
 *   last; arp_ip_target items may carry sysfs's '+';
 * - a slave is a file with SLAVE=yes and MASTER=<bond> (ifup-eth), and
 *   ifup-eth enslaves them in the order of its glob over ifcfg-*: the
 *   lexical order of the file names.  MASTER= without SLAVE=yes is where
 *   the two readers of these files part: initscripts' ifup-eth enslaves
 *   only with SLAVE=yes, NetworkManager's ifcfg-rh plugin
 *   (nms-ifcfg-rh-reader.c, check_if_bond_slave) takes MASTER= or
 *   MASTER_UUID= alone, "for backward compatibility".  RHEL 8 and later
 *   read these files through NetworkManager, so such a file is a slave
 *   here too, with a note saying initscripts would not enslave it.  An
 *   explicit SLAVE=no is taken at its word (not a slave, noted), though
 *   NetworkManager does not read SLAVE at all;
 * - a VLAN is a file with VLAN=yes or TYPE=Vlan (ifup's VLAN branch and
 *   ifup-vlan; nms-ifcfg-rh-reader.c, make_vlan_setting): never a bond,
 *   whatever BONDING_OPTS it carries.  Its parent is PHYSDEV=, else what
 *   precedes ".ID" in DEVICE (bond0.123); a VLAN on a bond is named in
 *   that bond's notes, as is a bridge the bond is a port of (BRIDGE=);
 * - addresses are IPADDR, then IPADDR0, IPADDR1, ... (expand_config: stops
 *   at the first gap after index 1), each with PREFIXn, else NETMASKn, else
 *   the address's class; IPV6ADDR and IPV6ADDR_SECONDARIES when IPV6INIT=yes
 *   (ifup-ipv6; /64 when no prefix is given);
 * - MTU on the bond; a slave's own MTU is overridden by the kernel, which
 *   gives every slave the bond's MTU when it joins.
 */
#include "import.h"
#include "grow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VARS 1024

struct ifcfg {
	const char *path;
	const char *base;          /* after the last '/' */
	struct import_kv *vars;
	size_t n_vars, cap_vars;
	bool *used;                /* parallel to vars: carried over or noted */
	char device[sizeof(((struct import_kv *)0)->value)];
	unsigned bad_lines;
};

static const char *get(const struct ifcfg *f, const char *key)
{
	/* The last assignment wins, as when the shell sources the file. */
	return import_kv_get(f->vars, f->n_vars, key);
}

static void mark_used(struct ifcfg *f, const char *key)
{
	import_kv_mark(f->vars, f->used, f->n_vars, key);
}

static const char *ifcfg_take(struct ifcfg *f, const char *key)
{
	mark_used(f, key);
	return get(f, key);
}

/* initscripts' is_true. */
static bool is_true(const char *v)
{
	return v && (strcasecmp(v, "yes") == 0 || strcasecmp(v, "y") == 0 ||
		     strcasecmp(v, "true") == 0 || strcasecmp(v, "t") == 0 ||
		     strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0);
}

static bool key_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* One shell word: 'single', "double" (\" \\ \$ \` escapes) or bare, up to
 * a blank or a '#'.  Returns false on an unterminated quote. */
static bool shell_value(const char *s, char *out, size_t len)
{
	size_t o = 0;

	while (*s && *s != ' ' && *s != '\t' && *s != '#') {
		if (*s == '\'') {
			const char *end = strchr(s + 1, '\'');
			if (!end)
				return false;
			for (s++; s < end; s++)
				if (o + 1 < len)
					out[o++] = *s;
			s++;
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && strchr("\"\\$`", s[1]))
					s++;
				if (o + 1 < len)
					out[o++] = *s;
			}
			if (*s != '"')
				return false;
			s++;
		} else {
			if (*s == '\\' && s[1])
				s++;
			if (o + 1 < len)
				out[o++] = *s;
			s++;
		}
	}
	out[o] = '\0';
	return true;
}

static int parse_ifcfg(struct ifcfg *f, const struct import_file *in)
{
	const char *at = in->text, *end = in->text + in->len;
	char line[1024];

	while (at < end) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = (size_t)((nl ? nl : end) - at);
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 at);
		at += n + 1;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\0' || *s == '\r')
			continue;
		if (strncmp(s, "export ", 7) == 0)
			s += 7;
		char *k = s;
		while (key_char(*s))
			s++;
		if (*s != '=' || s == k || (size_t)(s - k) >= sizeof(f->vars[0].key) ||
		    f->n_vars == MAX_VARS) {
			f->bad_lines++;
			continue;
		}
		struct import_kv *nv = grow_array(f->vars, &f->cap_vars, f->n_vars + 1, sizeof(*nv), 16);
		if (!nv)
			return -ENOMEM;
		f->vars = nv;
		struct import_kv *v = &f->vars[f->n_vars];
		snprintf(v->key, sizeof(v->key), "%.*s", (int)(s - k), k);
		char *cr = strchr(s + 1, '\r');
		if (cr)
			*cr = '\0';
		if (!shell_value(s + 1, v->value, sizeof(v->value))) {
			f->bad_lines++;
			continue;
		}
		f->n_vars++;
	}
	return 0;
}

/* initscripts' is_ignored_file, and only ifcfg-* files. */
static bool wanted(const char *base)
{
	static const char *const suffixes[] = {"~", ".bak", ".orig", ".rpmnew", ".rpmorig",
					       ".rpmsave"};
	size_t n = strlen(base);

	if (strncmp(base, "ifcfg-", 6) != 0 || n == 6 || strcmp(base, "ifcfg-lo") == 0)
		return false;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t l = strlen(suffixes[i]);
		if (n >= l && strcmp(base + n - l, suffixes[i]) == 0)
			return false;
	}
	return true;
}

static int by_base(const void *a, const void *b)
{
	const struct ifcfg *x = *(struct ifcfg *const *)a, *y = *(struct ifcfg *const *)b;
	return strcmp(x->base, y->base);
}

static bool is_vlan(const struct ifcfg *f)
{
	const char *type = get(f, "TYPE");

	return is_true(get(f, "VLAN")) || (type && strcasecmp(type, "Vlan") == 0);
}

/* The VLAN's parent: PHYSDEV, else DEVICE's part before ".ID" (ifup-vlan
 * and make_vlan_setting both split the name at its last dot). */
static void vlan_parent(const struct ifcfg *f, char *out, size_t len)
{
	const char *phys = get(f, "PHYSDEV");
	const char *dot = strrchr(f->device, '.');

	out[0] = '\0';
	if (phys && *phys)
		snprintf(out, len, "%s", phys);
	else if (dot && dot != f->device && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
		snprintf(out, len, "%.*s", (int)(dot - f->device), f->device);
}

static const char *master_of(const struct ifcfg *f)
{
	const char *m = get(f, "MASTER_UUID");
	return m && *m ? m : get(f, "MASTER");
}

static bool is_bond(struct ifcfg *f)
{
	const char *type = get(f, "TYPE");

	if (is_true(get(f, "SLAVE")) || is_vlan(f))
		return false;
	return (type && strcasecmp(type, "Bond") == 0) || is_true(get(f, "BONDING_MASTER")) ||
	       get(f, "BONDING_OPTS");
}

/* BONDING_OPTS as install_bonding_driver splits it. */
static void bonding_opts(struct import_bond *b, struct ifcfg *f)
{
	const char *opts = ifcfg_take(f, "BONDING_OPTS");
	char copy[512], from[300];

	if (!opts)
		return;
	snprintf(from, sizeof(from), "BONDING_OPTS in %s", f->path);
	snprintf(copy, sizeof(copy), "%s", opts);
	for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *first = strchr(tok, '='), *last = strrchr(tok, '=');
		if (!first || first == tok) {
			import_note(&b->notes, "not carried over: \"%.60s\" (%s): not key=value",
				    tok, from);
			continue;
		}
		*first = '\0';
		char value[256];
		snprintf(value, sizeof(value), "%s", last + 1);
		if (strcmp(tok, "arp_ip_target") == 0 || strcmp(tok, "ns_ip6_target") == 0) {
			/* "+a,+b": sysfs's add marks. */
			char list[256] = "", *save2 = NULL;
			for (char *t = strtok_r(value, ",", &save2); t; t = strtok_r(NULL, ",", &save2)) {
				if (*t == '+')
					t++;
				if (*t)
					snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
						 list[0] ? "," : "", t);
			}
			snprintf(value, sizeof(value), "%s", list);
		}
		import_set_opt(b, tok, value, from);
	}
}

/* The class's prefix, as ipcalc gives it when neither PREFIX nor NETMASK is. */
static int class_prefix(const char *addr)
{
	struct in_addr a;

	if (inet_pton(AF_INET, addr, &a) != 1)
		return -1;
	uint32_t first = ntohl(a.s_addr) >> 24;
	return first < 128 ? 8 : first < 192 ? 16 : 24;
}

static void ipv4_addrs(struct import_bond *b, struct ifcfg *f)
{
	char key[32], cidr[1100];

	for (int idx = -1; idx <= 255; idx++) {
		char suffix[8] = "";
		if (idx >= 0)
			snprintf(suffix, sizeof(suffix), "%d", idx);
		snprintf(key, sizeof(key), "IPADDR%s", suffix);
		const char *ip = ifcfg_take(f, key);
		snprintf(key, sizeof(key), "PREFIX%s", suffix);
		const char *prefix = ifcfg_take(f, key);
		snprintf(key, sizeof(key), "NETMASK%s", suffix);
		const char *mask = ifcfg_take(f, key);
		if (!ip || !*ip) {
			if (idx >= 2)
				break;
			continue;
		}
		int p = -1;
		if (prefix && *prefix) {
			snprintf(cidr, sizeof(cidr), "%s/%s", ip, prefix);
		} else if (mask && *mask && (p = import_netmask_prefix(mask)) >= 0) {
			snprintf(cidr, sizeof(cidr), "%s/%d", ip, p);
		} else if ((p = class_prefix(ip)) >= 0) {
			snprintf(cidr, sizeof(cidr), "%s/%d", ip, p);
			import_note(&b->notes, "IPADDR%s=%s (%s) has no PREFIX%s or NETMASK%s: "
				    "/%d, its class's, as ipcalc gives it", suffix, ip, f->path,
				    suffix, suffix, p);
		} else {
			import_note(&b->notes, "not carried over: IPADDR%s=%.60s (%s)", suffix, ip,
				    f->path);
			continue;
		}
		import_add_addr(b, cidr, f->path);
	}
}

static void ipv6_addr(struct import_bond *b, const char *a, const char *path)
{
	char cidr[1100];

	snprintf(cidr, sizeof(cidr), "%s%s", a, strchr(a, '/') ? "" : "/64");
	import_add_addr(b, cidr, path);
}

static void ipv6_addrs(struct import_bond *b, struct ifcfg *f)
{
	const char *init = ifcfg_take(f, "IPV6INIT");
	const char *main6 = ifcfg_take(f, "IPV6ADDR"), *more = ifcfg_take(f, "IPV6ADDR_SECONDARIES");
	char copy[512];

	if (!main6 && !more)
		return;
	if (!is_true(init)) {
		import_note(&b->notes, "not carried over: IPV6ADDR (%s): IPV6INIT is not yes, "
			    "so ifup-ipv6 does not add it", f->path);
		return;
	}
	if (main6 && *main6)
		ipv6_addr(b, main6, f->path);
	snprintf(copy, sizeof(copy), "%s", more ? more : "");
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save))
		ipv6_addr(b, t, f->path);
}

static void bond_mtu(struct import_bond *b, struct ifcfg *f)
{
	const char *mtu = ifcfg_take(f, "MTU");
	char *end;

	if (!mtu)
		return;
	unsigned long v = strtoul(mtu, &end, 10);
	if (*mtu < '0' || *mtu > '9' || *end || v == 0 || v > 65535)
		import_note(&b->notes, "not carried over: MTU=%.40s (%s): not an MTU", mtu, f->path);
	else
		b->mtu = (uint32_t)v;
}

/* Variables with nothing for bondd to carry over, and nothing lost. */
static bool harmless(const char *key, const char *value)
{
	static const char *const keys[] = {
		"DEVICE", "NAME", "UUID", "TYPE", "BONDING_MASTER", "USERCTL", "NM_CONTROLLED",
		"IPV4_FAILURE_FATAL", "IPV6_FAILURE_FATAL", "PROXY_METHOD", "BROWSER_ONLY",
		"IPV6_ADDR_GEN_MODE", "IPV6_PRIVACY", "HWADDR", "SLAVE", "MASTER", "DEFROUTE",
		"IPV6_DEFROUTE", "MASTER_UUID",
	};
	/* These lose something only with some values: dynamic addresses, a
	 * bond that is not brought up at boot. */
	if (strcmp(key, "BOOTPROTO") == 0)
		return !*value || strcasecmp(value, "none") == 0 || strcasecmp(value, "static") == 0;
	if (strcmp(key, "ONBOOT") == 0)
		return is_true(value);
	if (strcmp(key, "IPV6_AUTOCONF") == 0)
		return !is_true(value);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

static void note_rest(struct strbuf *notes, struct ifcfg *f)
{
	for (size_t i = 0; i < f->n_vars; i++) {
		if (f->used[i] || harmless(f->vars[i].key, f->vars[i].value))
			continue;
		/* An assignment repeated: noted once, for its last value. */
		if (get(f, f->vars[i].key) != f->vars[i].value)
			continue;
		import_note(notes, "not carried over: %s=%.80s (%s)", f->vars[i].key,
			    f->vars[i].value, f->path);
	}
	if (f->bad_lines)
		import_note(notes, "%s: %u lines that are not VAR=value were skipped", f->path,
			    f->bad_lines);
}

static void read_bond(struct import_result *r, struct ifcfg *f, struct ifcfg **all, size_t n)
{
	struct import_bond *b = import_add_bond(r, f->device, f->path);

	if (!b)
		return;
	b->order_note = "ifcfg has none; this is ifup-eth's, by ifcfg file name.";
	bonding_opts(b, f);
	bond_mtu(b, f);
	ipv4_addrs(b, f);
	ipv6_addrs(b, f);
	if (get(f, "BRIDGE"))
		mark_used(f, "BRIDGE");
	note_rest(&b->notes, f);
	const char *uuid = get(f, "UUID");
	for (size_t i = 0; i < n; i++) {
		struct ifcfg *s = all[i];
		const char *master = master_of(s);
		char parent[sizeof(s->device)];
		if (s == f)
			continue;
		if (is_vlan(s)) {
			vlan_parent(s, parent, sizeof(parent));
			if (strcmp(parent, f->device) == 0 || (uuid && *uuid && strcmp(parent, uuid) == 0))
				import_note(&b->notes, "not carried over: VLAN %.40s on %s (%s): bondd "
					    "makes the bond only; keep the VLAN in the tool that made "
					    "it%s", s->device, f->device, s->path,
					    get(s, "BONDING_OPTS") ? " (its BONDING_OPTS are not the "
					    "bond's and are ignored)" : "");
			continue;
		}
		if (!master || (strcmp(master, f->device) != 0 &&
				!(uuid && *uuid && strcmp(master, uuid) == 0)))
			continue;
		const char *slave = get(s, "SLAVE");
		if (slave && !is_true(slave)) {
			import_note(&b->notes, "not carried over: %s has MASTER=%.40s but SLAVE=%.10s: "
				    "not a slave here, as for initscripts' ifup-eth (NetworkManager "
				    "would enslave it: it does not read SLAVE)", s->path, master, slave);
			continue;
		}
		if (!slave)
			import_note(&b->notes, "%s has MASTER=%.40s but no SLAVE=yes: NetworkManager "
				    "enslaves it (nms-ifcfg-rh-reader.c, check_if_bond_slave), "
				    "initscripts' ifup-eth does not; it is a slave here: check it",
				    s->path, master);
		mark_used(s, "MASTER");
		mark_used(s, "MASTER_UUID");
		mark_used(s, "SLAVE");
		if (!get(s, "DEVICE") && get(s, "HWADDR"))
			import_note(&b->notes, "%s has no DEVICE: initscripts finds the NIC by "
				    "HWADDR=%.20s when it runs; the name %s is taken from the file "
				    "name: check it", s->path, get(s, "HWADDR"), s->device);
		const char *mtu = ifcfg_take(s, "MTU");
		if (mtu)
			import_note(&b->notes, "MTU=%.20s of slave %s (%s) is not carried over: the "
				    "kernel gives every slave the bond's MTU", mtu, s->device, s->path);
		if (import_add_slave(b, s->device, s->path))
			note_rest(&b->notes, s);
	}
	const char *bridge = ifcfg_take(f, "BRIDGE");
	if (bridge && *bridge)
		import_note(&b->notes, "not carried over: %s is a port of bridge %.40s (BRIDGE= in "
			    "%s): keep the bridge in the tool that made it", f->device, bridge, f->path);
}

int import_ifcfg(const struct import_file *files, size_t n, struct import_result *out)
{
	struct ifcfg *all = calloc(n ? n : 1, sizeof(*all));
	struct ifcfg **sorted = calloc(n ? n : 1, sizeof(*sorted));
	size_t m = 0;
	int err = -ENOMEM;

	out->format = "ifcfg";
	if (!all || !sorted)
		goto out;
	for (size_t i = 0; i < n; i++) {
		struct ifcfg *f = &all[m];
		const char *slash = strrchr(files[i].name, '/');
		f->path = files[i].name;
		f->base = slash ? slash + 1 : files[i].name;
		if (!wanted(f->base)) {
			import_note(&out->notes, "%s: not an ifcfg-NAME file initscripts reads; "
				    "skipped", f->path);
			continue;
		}
		if (parse_ifcfg(f, &files[i]) < 0)
			goto out;
		f->used = calloc(f->n_vars ? f->n_vars : 1, sizeof(*f->used));
		if (!f->used)
			goto out;
		const char *dev = get(f, "DEVICE");
		snprintf(f->device, sizeof(f->device), "%s", dev && *dev ? dev : f->base + 6);
		sorted[m++] = f;
	}
	qsort(sorted, m, sizeof(*sorted), by_base);
	for (size_t i = 0; i < m; i++)
		if (is_bond(sorted[i]))
			read_bond(out, sorted[i], sorted, m);
	/* Slaves of a bond that is not here, and VLANs that are never bonds. */
	for (size_t i = 0; i < m; i++) {
		const char *master = master_of(sorted[i]);
		bool found = false;
		for (size_t j = 0; master && j < out->n_bonds && !found; j++) {
			const char *uuid = NULL;
			for (size_t k = 0; k < m && !uuid; k++)
				if (strcmp(sorted[k]->device, out->bonds[j].name) == 0)
					uuid = get(sorted[k], "UUID");
			found = strcmp(master, out->bonds[j].name) == 0 ||
				(uuid && *uuid && strcmp(master, uuid) == 0);
		}
		if (master && !found && !is_vlan(sorted[i]))
			import_note(&out->notes, "%s: a slave of %.40s, which no ifcfg file given "
				    "defines", sorted[i]->path, master);
		if (is_vlan(sorted[i]) && get(sorted[i], "BONDING_OPTS"))
			import_note(&out->notes, "%s: a VLAN (VLAN=yes or TYPE=Vlan), not a bond: "
				    "its BONDING_OPTS are ignored, as initscripts and NetworkManager "
				    "ignore them", sorted[i]->path);
	}
	err = import_result_oom(out);
out:
	for (size_t i = 0; all && i < n; i++) {
		free(all[i].used);
		free(all[i].vars);
	}
	free(all);
	free(sorted);
	return err;
}
