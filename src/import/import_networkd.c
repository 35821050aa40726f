/* SPDX-License-Identifier: MIT */
/*
 * systemd-networkd files (systemd.netdev(5), systemd.network(5)) into plain
 * data.  Netplan renders to these too (/run/systemd/network).
 *
 * - a bond is a .netdev with [NetDev] Kind=bond; its name is Name=, its
 *   options the [Bond] settings (config_hint_netdev_bond converts them:
 *   time spans to milliseconds, booleans to 1/0), [NetDev] MTUBytes= its MTU;
 * - a slave is named in [Match] Name= of a .network file with [Network]
 *   Bond=<bond>.  networkd applies to a link the first .network file, in
 *   the lexical order of file names, whose [Match] fits it: a later file
 *   that names the same link is not used, and a pattern (eth*) names no
 *   link we can know here (noted).  Of files with the same name, the one
 *   given first is read (give /etc before /run before /usr/lib, networkd's
 *   precedence); an empty one masks them all;
 * - the bond's own .network (the first whose Name= fits the bond) gives its
 *   addresses ([Network] Address=, [Address] Address=) and [Link]
 *   MTUBytes=, which wins over the .netdev's; its [Network] VLAN= and
 *   Bridge= are the bond's uppers, which networkd keeps with the companion
 *   .network (import_companion);
 * - PrimarySlave=yes in a slave's .network is the bond's primary;
 * - a name in [Match] Name= that is a Kind=bridge .netdev of the input is
 *   not a slave: Bond= applies to whatever link the file matches
 *   (systemd.network(5)), so networkd would try to put the bridge itself
 *   in the bond, which is no NIC and which bondd refuses as a slave; it is
 *   named in a note instead.
 * networkd enslaves links as they appear, so the source has no order: the
 * slaves are listed in the order of their .network files and, within one
 * file, of Name=, and a comment says so.
 */
#include "import.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config_hints.h"

enum { NETDEV, NETWORK };

#define MAX_DROPINS 64

/* A unit: its file, then its drop-ins (FILE.d/NAME.conf) in the order
 * networkd reads them (systemd.network(5), systemd.netdev(5): every
 * directory's drop-ins of that unit's name, sorted by file name, a name
 * given in an earlier directory hiding the same name in a later one). */
struct unit {
	const struct import_file *in;
	const char *base;
	int kind;
	const struct import_file *dropins[MAX_DROPINS];
	size_t n_dropins;
};

/* Key=Value lines over a unit's file and its drop-ins, each line's `from`
 * naming its own file. */
struct unit_cursor {
	struct ini_cursor c;
	const struct unit *u;
	size_t part;     /* 0: the unit's file, i: drop-in i - 1 */
	bool open, oom;
	unsigned bad_lines;
};

static void unit_open(struct unit_cursor *uc, const struct unit *u)
{
	memset(uc, 0, sizeof(*uc));
	uc->u = u;
}

static bool unit_next(struct unit_cursor *uc)
{
	for (;;) {
		if (!uc->open) {
			if (uc->part > uc->u->n_dropins)
				return false;
			const struct import_file *f = uc->part ? uc->u->dropins[uc->part - 1] : uc->u->in;
			if (ini_open(&uc->c, f) < 0) {
				uc->oom = true;
				return false;
			}
			uc->open = true;
		}
		if (ini_next(&uc->c))
			return true;
		uc->bad_lines += uc->c.bad_lines;
		ini_close(&uc->c);
		uc->open = false;
		uc->part++;
	}
}

/* Ends the walk; -ENOMEM when a file could not be read into memory. */
static int unit_close(struct unit_cursor *uc)
{
	if (uc->open) {
		uc->bad_lines += uc->c.bad_lines;
		ini_close(&uc->c);
	}
	uc->open = false;
	return uc->oom ? -ENOMEM : 0;
}

static bool yes(const char *v)
{
	return strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0 ||
	       strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), l = strlen(suffix);
	return n > l && strcmp(s + n - l, suffix) == 0;
}

static int by_base(const void *a, const void *b)
{
	const struct unit *x = a, *y = b;
	int c = strcmp(x->base, y->base);
	/* Same name in two directories: the one given first wins. */
	return c ? c : (x->in < y->in ? -1 : x->in > y->in);
}

/* MTUBytes=: bytes, with the K (1024) suffix systemd's size parser takes. */
static bool networkd_parse_mtu(const char *v, uint32_t *out)
{
	char *end;

	if (*v < '0' || *v > '9')
		return false;
	unsigned long long n = strtoull(v, &end, 10);
	if (*end == 'K') {
		n *= 1024;
		end++;
	}
	if (*end || n < 68 || n > 65535)
		return false;
	*out = (uint32_t)n;
	return true;
}

/* MACAddress= ([NetDev] of the bond's .netdev, [Link] of its .network):
 * the bond's own address, bondd's mac_address.  "none" and "random"
 * (systemd.netdev(5)) have no bondd equivalent. */
static void networkd_set_mac(struct import_bond *b, const char *v, const char *from)
{
	if (strlen(v) != 17 || strspn(v, "0123456789abcdefABCDEF:") != 17) {
		import_note(&b->notes, "not carried over: MACAddress=%.40s (%s): bondd's "
			    "mac_address takes one aa:bb:cc:dd:ee:ff", v, from);
		return;
	}
	snprintf(b->mac, sizeof(b->mac), "%s", v);
}

/* ---- .netdev ------------------------------------------------------------ */

static int read_netdev(struct import_result *r, const struct unit *u)
{
	struct unit_cursor uc;
	struct ini_cursor *c = &uc.c;
	char name[64] = "", kind[32] = "", mtu[32] = "";

	unit_open(&uc, u);
	while (unit_next(&uc)) {
		if (strcmp(c->section, "NetDev") != 0)
			continue;
		if (strcmp(c->key, "Name") == 0)
			snprintf(name, sizeof(name), "%s", c->val);
		else if (strcmp(c->key, "Kind") == 0)
			snprintf(kind, sizeof(kind), "%s", c->val);
		else if (strcmp(c->key, "MTUBytes") == 0)
			snprintf(mtu, sizeof(mtu), "%s", c->val);
	}
	if (unit_close(&uc) < 0)
		return -ENOMEM;
	if (strcmp(kind, "bond") != 0)
		return 0;
	struct import_bond *b = import_add_bond(r, name, u->in->name);
	if (!b)
		return 0;
	b->order_note = "networkd keeps none; by .network file and Name=: check it.";
	if (*mtu && !networkd_parse_mtu(mtu, &b->mtu))
		import_note(&b->notes, "not carried over: MTUBytes=%.40s (%s)", mtu, u->in->name);

	unit_open(&uc, u);
	while (unit_next(&uc)) {
		char conv[256];
		const char *bkey;
		if (strcmp(c->section, "Bond") == 0) {
			if (config_hint_netdev_bond(c->key, c->val, &bkey, conv, sizeof(conv)))
				import_set_opt(b, bkey, conv, c->from);
			else
				import_note(&b->notes, "not carried over: [Bond] %.40s=%.60s (%s)",
					    c->key, c->val, c->from);
		} else if (strcmp(c->section, "NetDev") == 0) {
			if (strcmp(c->key, "MACAddress") == 0)
				networkd_set_mac(b, c->val, c->from);
			else if (strcmp(c->key, "Name") != 0 && strcmp(c->key, "Kind") != 0 &&
				 strcmp(c->key, "MTUBytes") != 0 && strcmp(c->key, "Description") != 0)
				import_note(&b->notes, "not carried over: [NetDev] %.40s=%.60s (%s)",
					    c->key, c->val, c->from);
		} else {
			import_note(&b->notes, "not carried over: [%.30s] %.40s=%.60s (%s)",
				    c->section, c->key, c->val, c->from);
		}
	}
	if (unit_close(&uc) < 0)
		return -ENOMEM;
	if (uc.bad_lines)
		import_note(&b->notes, "%s: %u lines that are not Key=Value were skipped",
			    u->in->name, uc.bad_lines);
	return 0;
}

/* ---- .network ------------------------------------------------------------ */

#define MAX_NAMES 64

struct network {
	const struct unit *u;
	char names[MAX_NAMES][64]; /* [Match] Name= words, patterns included */
	size_t n_names;
	bool other_match;          /* [Match] has more than Name= (and the below) */
	/* [Match] PermanentMACAddress=, Path=, MACAddress= words: what names
	 * a port whatever its name (systemd.network(5)). */
	char ids[3][MAX_NAMES][64];
	size_t n_ids[3];
	char bond[64];             /* [Network] Bond= */
	bool primary;              /* [Network] PrimarySlave=yes */
	bool active;               /* [Network] ActiveSlave=yes */
	char mtu[32];              /* [Link] MTUBytes= */
};

/* [Match] keys that name a port by hardware, most lasting first: the
 * permanent address, the device path, the current address (which for a
 * NIC not yet enslaved is its own). */
static const char *const id_keys[3] = {"PermanentMACAddress", "Path", "MACAddress"};
static const char *const id_kinds[3] = {"mac", "path", "mac"};

static int id_key(const char *key)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(key, id_keys[i]) == 0)
			return i;
	return -1;
}

/*
 * The ports a slave's .network names by hardware, as mac: or path:
 * entries: the first of id_keys it has, when its values are the ports
 * (one value, or no Name= to pair them with).  True when it named them
 * so; false when the caller is to use Name= (said in a note where the
 * file had a hardware match that could not be carried over).
 */
static bool slaves_by_id(struct import_bond *b, const struct network *s, const char *path)
{
	for (int k = 0; k < 3; k++) {
		if (!s->n_ids[k])
			continue;
		if (s->n_ids[k] > 1 && s->n_names) {
			import_note(&b->notes, "%s: [Match] %s= with several values and Name= cannot "
				    "be paired into ports; the slaves are named by Name= (fell back to "
				    "names, which a rename loses)", path, id_keys[k]);
			return false;
		}
		bool all = true;
		for (size_t i = 0; i < s->n_ids[k]; i++)
			all &= import_add_slave_by(b, id_kinds[k], s->ids[k][i], path);
		if (k == 2)
			import_note(&b->notes, "%s: [Match] MACAddress= is the current address; "
				    "bondd matches mac: on the permanent one (ethtool -P): check that "
				    "they are the same", path);
		if (!all && s->n_names)
			import_note(&b->notes, "%s: fell back to [Match] Name= for what %s= could "
				    "not name", path, id_keys[k]);
		return all || !s->n_names;
	}
	return false;
}

static int read_network(struct network *n, const struct unit *u)
{
	struct unit_cursor uc;
	struct ini_cursor *c = &uc.c;

	memset(n, 0, sizeof(*n));
	n->u = u;
	unit_open(&uc, u);
	while (unit_next(&uc)) {
		if (strcmp(c->section, "Match") == 0 && strcmp(c->key, "Name") == 0) {
			if (!*c->val)
				n->n_names = 0; /* an empty assignment resets the list */
			for (char *save = NULL, *w = strtok_r(c->val, " \t", &save); w;
			     w = strtok_r(NULL, " \t", &save))
				if (n->n_names < MAX_NAMES)
					snprintf(n->names[n->n_names++], sizeof(n->names[0]), "%s", w);
		} else if (strcmp(c->section, "Match") == 0 && id_key(c->key) >= 0) {
			int k = id_key(c->key);
			if (!*c->val)
				n->n_ids[k] = 0;
			for (char *save = NULL, *w = strtok_r(c->val, " \t", &save); w;
			     w = strtok_r(NULL, " \t", &save))
				if (n->n_ids[k] < MAX_NAMES)
					snprintf(n->ids[k][n->n_ids[k]++], sizeof(n->ids[0][0]), "%s", w);
		} else if (strcmp(c->section, "Match") == 0) {
			n->other_match = true;
		} else if (strcmp(c->section, "Network") == 0 && strcmp(c->key, "Bond") == 0) {
			snprintf(n->bond, sizeof(n->bond), "%s", c->val);
		} else if (strcmp(c->section, "Network") == 0 && strcmp(c->key, "PrimarySlave") == 0) {
			n->primary = yes(c->val);
		} else if (strcmp(c->section, "Network") == 0 && strcmp(c->key, "ActiveSlave") == 0) {
			n->active = yes(c->val);
		} else if (strcmp(c->section, "Link") == 0 && strcmp(c->key, "MTUBytes") == 0) {
			snprintf(n->mtu, sizeof(n->mtu), "%s", c->val);
		}
	}
	return unit_close(&uc);
}

static bool is_pattern(const char *w)
{
	return strpbrk(w, "*?[") != NULL;
}

/* Whether networkd would apply n to a link called name (Name= only; any
 * other [Match] condition is noted by the caller). */
static bool fits(const struct network *n, const char *name)
{
	bool inverted = n->n_names && n->names[0][0] == '!', matched = false;

	/* systemd.network(5): any glob of the list fits; a list that starts
	 * with "!" is inverted as a whole. */
	for (size_t i = 0; i < n->n_names && !matched; i++) {
		const char *w = n->names[i];
		if (i == 0 && inverted)
			w++;
		matched = fnmatch(w, name, 0) == 0;
	}
	return matched != inverted;
}

/* The file networkd uses for link name: the first that fits. */
static const struct network *first_fit(const struct network *nets, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (nets[i].n_names && fits(&nets[i], name))
			return &nets[i];
	return NULL;
}

/* The bond's own .network: addresses, MTU, and what else it holds. */
static int bond_network(struct import_bond *b, const struct network *n)
{
	struct unit_cursor uc;
	struct ini_cursor *c = &uc.c;
	const char *path = n->u->in->name;

	if (n->other_match)
		import_note(&b->notes, "%s: its [Match] has conditions besides Name=; they are "
			    "not carried over", path);
	if (*n->mtu && !networkd_parse_mtu(n->mtu, &b->mtu))
		import_note(&b->notes, "not carried over: [Link] MTUBytes=%.40s (%s)", n->mtu, path);
	unit_open(&uc, n->u);
	while (unit_next(&uc)) {
		if ((strcmp(c->section, "Network") == 0 || strcmp(c->section, "Address") == 0) &&
		    strcmp(c->key, "Address") == 0) {
			if (strchr(c->val, '/'))
				import_add_addr(b, c->val, c->from);
			else
				import_note(&b->notes, "not carried over: Address=%.60s (%s): no "
					    "prefix length", c->val, c->from);
		} else if (strcmp(c->section, "Link") == 0 && strcmp(c->key, "MACAddress") == 0) {
			networkd_set_mac(b, c->val, c->from);
		} else if (strcmp(c->section, "Network") == 0 &&
			   (strcmp(c->key, "VLAN") == 0 || strcmp(c->key, "Bridge") == 0)) {
			/* networkd reads VLAN= and Bridge= from the lower
			 * link's own file: the companion keeps that file. */
			if (strcmp(c->key, "VLAN") == 0)
				import_add_vlan(b, c->val, c->from);
			else
				import_set_bridge(b, c->val, c->from);
			import_note(&b->notes, "not carried over: %s=%.40s (%s): networkd keeps it with "
				    "the companion below", c->key, c->val, c->from);
		} else if (strcmp(c->section, "Match") == 0 ||
			   (strcmp(c->section, "Link") == 0 && strcmp(c->key, "MTUBytes") == 0)) {
			continue;
		} else {
			import_note(&b->notes, "not carried over: [%.30s] %.40s=%.60s (%s)",
				    c->section, c->key, c->val, c->from);
		}
	}
	return unit_close(&uc);
}

/* A netdev of the input that is no bond: its name, kind and file. */
struct other_netdev {
	char name[64], kind[32];
	const char *path;
};

static int read_kind(const struct unit *u, struct other_netdev *o)
{
	struct unit_cursor uc;
	struct ini_cursor *c = &uc.c;

	memset(o, 0, sizeof(*o));
	o->path = u->in->name;
	unit_open(&uc, u);
	while (unit_next(&uc)) {
		if (strcmp(c->section, "NetDev") == 0 && strcmp(c->key, "Name") == 0)
			snprintf(o->name, sizeof(o->name), "%s", c->val);
		else if (strcmp(c->section, "NetDev") == 0 && strcmp(c->key, "Kind") == 0)
			snprintf(o->kind, sizeof(o->kind), "%s", c->val);
	}
	return unit_close(&uc);
}

static const struct other_netdev *bridge_named(const struct other_netdev *o, size_t n,
					       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(o[i].kind, "bridge") == 0 && strcmp(o[i].name, name) == 0)
			return &o[i];
	return NULL;
}

/* What a slave's .network says besides joining the bond: every line gets a
 * note (bondd-import(8) promises one for whatever is not carried over). */
static int slave_network_notes(struct import_bond *b, const struct network *s)
{
	struct unit_cursor uc;
	struct ini_cursor *c = &uc.c;

	unit_open(&uc, s->u);
	while (unit_next(&uc)) {
		bool network = strcmp(c->section, "Network") == 0;
		if (strcmp(c->section, "Match") == 0 ||
		    (network && (strcmp(c->key, "Bond") == 0 || strcmp(c->key, "PrimarySlave") == 0)) ||
		    (strcmp(c->section, "Link") == 0 && strcmp(c->key, "MTUBytes") == 0))
			continue;
		if (network && strcmp(c->key, "ActiveSlave") == 0 && s->active)
			import_note(&b->notes, "[Network] ActiveSlave=%.20s (%s): bondd has no "
				    "active_slave; the slave is listed first instead, so it is the active "
				    "one when the bond is made (primary = NAME would prefer it for ever)",
				    c->val, c->from);
		else if (network && strcmp(c->key, "ActiveSlave") == 0)
			continue; /* =no: what the kernel does anyway */
		else
			import_note(&b->notes, "not carried over: [%.30s] %.40s=%.60s (%s): a "
				    "slave's own setting; an enslaved NIC has no addresses, routes or "
				    "DHCP of its own", c->section, c->key, c->val, c->from);
	}
	return unit_close(&uc);
}

static int bond_slaves(struct import_bond *b, const struct network *nets, size_t n,
		       const struct other_netdev *others, size_t n_others)
{
	const char *active = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct network *s = &nets[i];
		const char *path = s->u->in->name;
		if (strcmp(s->bond, b->name) != 0)
			continue;
		if (slave_network_notes(b, s) < 0)
			return -ENOMEM;
		if (s->other_match)
			import_note(&b->notes, "%s: its [Match] has conditions besides Name=; only "
				    "the names are carried over", path);
		bool by_id = slaves_by_id(b, s, path);
		if (by_id && s->primary && s->n_ids[0] + s->n_ids[1] + s->n_ids[2] > 0)
			import_set_opt(b, "primary", b->slaves[b->n_slaves - 1], path);
		if (s->n_names == 0 && !by_id && !s->n_ids[0] && !s->n_ids[1] && !s->n_ids[2])
			import_note(&b->notes, "not carried over: %s joins links to %s but names "
				    "none in [Match] Name=, PermanentMACAddress=, Path= or MACAddress=: "
				    "list them in slaves by hand", path, b->name);
		for (size_t j = 0; j < s->n_names && !by_id; j++) {
			const char *w = s->names[j];
			if (is_pattern(w) || (j == 0 && w[0] == '!')) {
				import_note(&b->notes, "not carried over: Name=%.40s (%s) is a pattern: "
					    "list the links it fits in slaves by hand", w, path);
				continue;
			}
			const struct other_netdev *br = bridge_named(others, n_others, w);
			if (br) {
				import_note(&b->notes, "not carried over: %s (%s) is a Kind=bridge "
					    "netdev (%s), not a NIC: a bridge is no bond slave; keep it "
					    "out of slaves", w, path, br->path);
				continue;
			}
			const struct network *used = first_fit(nets, n, w);
			if (used != s) {
				import_note(&b->notes, "not carried over: %s (%s): networkd uses %s for "
					    "it, which comes first", w, path,
					    used ? used->u->in->name : "no file");
				continue;
			}
			if (import_add_slave(b, w, path) && s->active && !active)
				active = w;
			if (s->primary)
				import_set_opt(b, "primary", w, path);
			if (*s->mtu)
				import_note(&b->notes, "[Link] MTUBytes=%.20s of %s (%s) is not carried "
					    "over: the kernel gives every slave the bond's MTU", s->mtu, w,
					    path);
		}
	}
	/* ActiveSlave=yes: networkd makes that slave the active one once it
	 * joins (netdev/bond.c, IFLA_BOND_ACTIVE_SLAVE); the kernel takes
	 * the first slave that joins a bond without one, so listing it
	 * first gives the bond that bondd makes the same active slave. */
	for (size_t i = 1; active && i < b->n_slaves; i++) {
		if (strcmp(b->slaves[i], active) != 0)
			continue;
		char name[sizeof(b->slaves[0])];
		memcpy(name, b->slaves[i], sizeof(name));
		memmove(b->slaves[1], b->slaves[0], i * sizeof(b->slaves[0]));
		memcpy(b->slaves[0], name, sizeof(name));
		break;
	}
	return 0;
}

/* Whether f is a drop-in (DIR/UNIT.network.d/NAME.conf, DIR/UNIT.netdev.d/
 * NAME.conf); its unit's file name (UNIT.network) into unit. */
static bool dropin_of(const struct import_file *f, char *unit, size_t len)
{
	const char *slash = strrchr(f->name, '/');
	if (!slash || !has_suffix(slash + 1, ".conf"))
		return false;
	const char *dir = slash;
	while (dir > f->name && dir[-1] != '/')
		dir--;
	size_t dlen = (size_t)(slash - dir);
	bool net = dlen > 10 && memcmp(slash - 10, ".network.d", 10) == 0;
	bool dev = dlen > 9 && memcmp(slash - 9, ".netdev.d", 9) == 0;
	if (!net && !dev)
		return false;
	if (unit)
		snprintf(unit, len, "%.*s", (int)(dlen - 2), dir);
	return true;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int by_dropin_name(const void *a, const void *b)
{
	const struct import_file *const *x = a, *const *y = b;
	return strcmp(base_of((*x)->name), base_of((*y)->name));
}

/* Each unit's drop-ins, as networkd reads them: of one name, the one in the
 * directory given first (/etc before /run before /usr/lib); then all in
 * the order of their names.  An empty one (or a link to /dev/null) masks
 * that name and adds nothing. */
static void attach_dropins(struct unit *units, size_t m, const struct import_file *files,
			   size_t n, struct import_result *out)
{
	char unit[256];

	for (size_t i = 0; i < n; i++) {
		if (!dropin_of(&files[i], unit, sizeof(unit)))
			continue;
		struct unit *u = NULL;
		for (size_t k = 0; k < m && !u; k++)
			if (strcmp(units[k].base, unit) == 0)
				u = &units[k];
		if (!u) {
			import_note(&out->notes, "%s: a drop-in of %s, which is not given; skipped",
				    files[i].name, unit);
			continue;
		}
		bool hidden = false;
		for (size_t k = 0; k < u->n_dropins && !hidden; k++)
			hidden = strcmp(base_of(u->dropins[k]->name), base_of(files[i].name)) == 0;
		if (hidden) {
			import_note(&out->notes, "%s: shadowed by a drop-in of the same name given "
				    "earlier; skipped", files[i].name);
			continue;
		}
		if (u->n_dropins == MAX_DROPINS) {
			import_note(&out->notes, "%s: more than %d drop-ins for %s; skipped",
				    files[i].name, MAX_DROPINS, unit);
			continue;
		}
		u->dropins[u->n_dropins++] = &files[i];
	}
	for (size_t k = 0; k < m; k++) {
		qsort(units[k].dropins, units[k].n_dropins, sizeof(units[k].dropins[0]),
		      by_dropin_name);
		size_t kept = 0;
		for (size_t d = 0; d < units[k].n_dropins; d++)
			if (units[k].dropins[d]->len)
				units[k].dropins[kept++] = units[k].dropins[d];
		units[k].n_dropins = kept;
	}
}

int import_networkd(const struct import_file *files, size_t n, struct import_result *out)
{
	struct unit *units = calloc(n ? n : 1, sizeof(*units));
	struct network *nets = NULL;
	struct other_netdev *others = NULL;
	size_t m = 0, n_nets = 0, n_others = 0;
	int err = -ENOMEM;

	out->format = "systemd-networkd";
	if (!units)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(files[i].name, '/');
		const char *base = slash ? slash + 1 : files[i].name;
		int kind = has_suffix(base, ".netdev") ? NETDEV :
			   has_suffix(base, ".network") ? NETWORK : -1;
		if (kind < 0 && dropin_of(&files[i], NULL, 0))
			continue; /* attached to its unit below */
		if (kind < 0) {
			import_note(&out->notes, "%s: neither .netdev nor .network; skipped",
				    files[i].name);
			continue;
		}
		units[m++] = (struct unit){.in = &files[i], .base = base, .kind = kind};
	}
	qsort(units, m, sizeof(*units), by_base);
	/* A file shadowed by one of the same name given earlier. */
	size_t k = 0;
	for (size_t i = 0; i < m; i++) {
		if (k && strcmp(units[k - 1].base, units[i].base) == 0) {
			import_note(&out->notes, "%s: shadowed by %s, which has the same name; skipped",
				    units[i].in->name, units[k - 1].in->name);
			continue;
		}
		units[k++] = units[i];
	}
	/* An empty file masks the files of its name, and configures nothing. */
	m = 0;
	for (size_t i = 0; i < k; i++) {
		if (units[i].in->len == 0)
			import_note(&out->notes, "%s: empty, so it masks the files of its name; "
				    "skipped", units[i].in->name);
		else
			units[m++] = units[i];
	}
	attach_dropins(units, m, files, n, out);
	nets = calloc(m ? m : 1, sizeof(*nets));
	others = calloc(m ? m : 1, sizeof(*others));
	if (!nets || !others)
		goto out;
	for (size_t i = 0; i < m; i++)
		if (units[i].kind == NETDEV && (err = read_kind(&units[i], &others[n_others++])) < 0)
			goto out;
	err = -ENOMEM;
	for (size_t i = 0; i < m; i++) {
		if (units[i].kind == NETDEV && (err = read_netdev(out, &units[i])) < 0)
			goto out;
		if (units[i].kind == NETWORK && (err = read_network(&nets[n_nets++], &units[i])) < 0)
			goto out;
	}
	for (size_t i = 0; i < out->n_bonds; i++) {
		struct import_bond *b = &out->bonds[i];
		const struct network *own = first_fit(nets, n_nets, b->name);
		if (own && !*own->bond && (err = bond_network(b, own)) < 0)
			goto out;
		if ((err = bond_slaves(b, nets, n_nets, others, n_others)) < 0)
			goto out;
	}
	for (size_t i = 0; i < n_nets; i++)
		if (*nets[i].bond && !import_find_bond(out, nets[i].bond))
			import_note(&out->notes, "%s: joins links to %.40s, which no .netdev given "
				    "defines", nets[i].u->in->name, nets[i].bond);
	err = import_result_oom(out);
out:
	free(others);
	free(nets);
	free(units);
	return err;
}
