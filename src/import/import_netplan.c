/* SPDX-License-Identifier: MIT */
/*
 * netplan YAML (netplan(5), doc/netplan-yaml.md in netplan's source) into
 * plain data, read with libyaml's document loader.  What each key means is
 * what netplan's own parser (src/parse.c) and its networkd renderer
 * (src/networkd.c) do with it:
 *
 * - files: of files with the same name the one given first is read (give
 *   /run/netplan before /etc/netplan before /lib/netplan: a file in /run
 *   shadows one in /etc, which shadows one in /lib); the rest are read in
 *   the lexical order of their names whatever their directory, and later
 *   files add to or override earlier ones: a scalar is replaced, a
 *   sequence is appended to, a mapping is merged key by key
 *   (doc/netplan-generate.md, "Handling multiple files").  Only a file's
 *   first YAML document is read, as netplan loads one;
 * - a bond is network.bonds.ID: its name is the ID.  interfaces lists IDs
 *   of other definitions (parse.c, handle_bond_interfaces); the interface
 *   bondd needs for an ethernets ID is its set-name, else its match's name
 *   when that is no glob, else (no match at all) the ID itself.  An ID
 *   matched by macaddress or driver alone names no interface we can know
 *   here: noted.  A bridge or a bond named in interfaces is not a slave;
 * - parameters are the networkd [Bond] settings netplan writes
 *   (networkd.c, write_bond_parameters): mii-monitor-interval, arp-interval,
 *   up-delay and down-delay are milliseconds unless they carry a time
 *   suffix (interval_has_suffix), learn-packet-interval is seconds unless
 *   it does; those are converted as bondd-import networkd converts
 *   networkd's; arp-ip-targets is a list; primary is an ID, resolved like
 *   interfaces; all-slaves-active / all-members-active and
 *   packets-per-slave / packets-per-member, gratuitous-arp / gratuitious-arp
 *   are aliases (parse.c, bond_params_handlers);
 * - the bond's mtu and addresses (a list of ADDR/PREFIX, or of mappings
 *   keyed by it) are carried over; dhcp4/dhcp6, routes, gateways,
 *   nameservers and the rest are noted;
 * - vlans whose link is the bond, and bridges that list it in interfaces,
 *   are named in the bond's notes;
 * - with renderer NetworkManager (network.renderer, or the bond's own),
 *   NetworkManager makes the bond and applies its miimon default of 100
 *   when neither mii-monitor-interval nor arp-interval is set; that is
 *   written out, as for NetworkManager's own files.
 * netplan keeps no slave order (networkd and NetworkManager enslave links as
 * they appear): the slaves are listed in the order of interfaces, and a
 * comment says so.
 */
#include "import.h"
#include "grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "config_hints.h"

#define NP_MAX_DEFS 512
#define NP_MAX_LIST 64
#define NP_MAX_PARAMS 32
#define NP_NAME 64
/* netplan's schema nests 6 deep; libyaml's scanner slows down with the
 * square of the flow nesting, so deeper input is refused before it is
 * loaded. */
#define NP_MAX_DEPTH 64
/* Mapping pairs and list items visited per run: aliases let a small file
 * name one big mapping many times. */
#define NP_BUDGET 200000
/* The longest scalar read: longer than any value this reader keeps (a
 * parameter's 255 bytes).  A longer one is refused once, before the
 * document is walked, and then costs nothing however often an alias
 * names it (one 116 kB scalar used as mtu in every pair the budget allows
 * took 50 s when each visit measured it). */
#define NP_MAX_SCALAR 255

enum np_type { NP_ETHERNET, NP_BOND, NP_VLAN, NP_BRIDGE, NP_OTHER };

static const char *const type_keys[] = {
	[NP_ETHERNET] = "ethernets", [NP_BOND] = "bonds", [NP_VLAN] = "vlans",
	[NP_BRIDGE] = "bridges",
};

struct np_param {
	char key[40];
	char value[256];
	char from[300];
};

/* One netdef, merged over every file that defines it. */
struct np_def {
	char id[NP_NAME];
	enum np_type type;
	const char *file;          /* the first file that defines it */
	char set_name[NP_NAME], match_name[NP_NAME];
	char match_mac[NP_NAME];     /* match.macaddress: the permanent address */
	bool has_match, match_other; /* match: by driver, ... */
	char mtu[24];
	char addrs[BONDD_MAX_ADDRS][64];
	size_t n_addrs;
	bool dhcp4, dhcp6;
	char ifaces[NP_MAX_LIST][NP_NAME]; /* bonds and bridges: interfaces */
	size_t n_ifaces;
	struct np_param params[NP_MAX_PARAMS];
	size_t n_params;
	char targets[NP_MAX_LIST][64];   /* parameters.arp-ip-targets */
	size_t n_targets;
	char link[NP_NAME], vlan_id[16]; /* vlans */
	char renderer[32];
	bool ovs;                  /* openvswitch: on the definition */
	char mac[24];              /* macaddress: (a bond's own) */
	struct strbuf notes;       /* keys not carried over */
};

struct np {
	struct import_result *r;
	struct np_def *defs;
	size_t n_defs, cap_defs;
	char renderer[32];         /* network.renderer, the last file's */
	unsigned long spent;       /* pairs and items visited, up to NP_BUDGET */
	bool oom;
};

/* One more pair or item visited; false once the budget is spent (noted). */
static bool spend(struct np *np)
{
	if (np->spent == NP_BUDGET)
		return false;
	if (++np->spent == NP_BUDGET)
		import_note(&np->r->notes, "not carried over: the rest of the input: more than %d "
			    "YAML items (aliases of big mappings?)", NP_BUDGET);
	return np->spent < NP_BUDGET;
}

/* ---- libyaml document access ------------------------------------------- */

/* A scalar's text, or NULL when node is none, is longer than
 * NP_MAX_SCALAR (refused by long_scalars) or holds a NUL byte. */
static const char *scalar(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.length > NP_MAX_SCALAR)
		return NULL;
	if (strlen((const char *)n->data.scalar.value) != n->data.scalar.length)
		return NULL;
	return (const char *)n->data.scalar.value;
}

/* Every scalar longer than NP_MAX_SCALAR, noted once with its line: a node
 * is visited here once, however many aliases name it. */
static void long_scalars(struct np *np, yaml_document_t *doc, const char *file)
{
	unsigned n = 0;

	for (yaml_node_t *v = doc->nodes.start; v < doc->nodes.top; v++) {
		if (v->type != YAML_SCALAR_NODE || v->data.scalar.length <= NP_MAX_SCALAR)
			continue;
		if (n++ < 3)
			import_note(&np->r->notes, "not carried over: %s:%zu: a value of %zu bytes, "
				    "longer than any netplan value bondd-import reads (%d): refused "
				    "wherever it is used", file, v->start_mark.line + 1,
				    v->data.scalar.length, NP_MAX_SCALAR);
	}
	if (n > 3)
		import_note(&np->r->notes, "not carried over: %s: %u more such values", file, n - 3);
}

static yaml_node_t *node(yaml_document_t *d, int id)
{
	return yaml_document_get_node(d, id);
}

/* The value of key in a mapping: the last one, as netplan's handlers run
 * for each pair in turn and the last write stays. */
static yaml_node_t *map_get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	yaml_node_t *found = NULL;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(node(d, p->key));
		if (k && strcmp(k, key) == 0)
			found = node(d, p->value);
	}
	return found;
}

/* netplan's booleans (parse.c, handle_generic_bool). */
static int yaml_bool(yaml_node_t *n)
{
	static const char *const yes[] = {"true", "on", "yes", "y"};
	static const char *const no[] = {"false", "off", "no", "n"};
	const char *s = scalar(n);

	for (size_t i = 0; s && i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

static void copy(char *out, size_t len, const char *s)
{
	snprintf(out, len, "%s", s ? s : "");
}

/* ---- merging the files ------------------------------------------------ */

static struct np_def *find_def(struct np *np, const char *id)
{
	for (size_t i = 0; i < np->n_defs; i++)
		if (strcmp(np->defs[i].id, id) == 0)
			return &np->defs[i];
	return NULL;
}

static struct np_def *get_def(struct np *np, const char *id, enum np_type type,
			      const char *file)
{
	struct np_def *d = find_def(np, id);

	if (d) {
		if (d->type != type)
			import_note(&np->r->notes, "%s: %.40s is under %s here but under %s in %s: "
				    "netplan refuses a definition that changes its type; the first "
				    "is kept", file, id, type_keys[type], type_keys[d->type], d->file);
		return d->type == type ? d : NULL;
	}
	if (np->n_defs == NP_MAX_DEFS || strlen(id) >= NP_NAME) {
		import_note(&np->r->notes, "not carried over: %.40s (%s): too many definitions or "
			    "too long an ID", id, file);
		return NULL;
	}
	d = grow_append(&np->defs, &np->cap_defs, &np->n_defs, sizeof(*d), 8, NULL);
	if (!d) {
		np->oom = true;
		return NULL;
	}
	copy(d->id, sizeof(d->id), id);
	d->type = type;
	d->file = file;
	return d;
}

static void add_name(char list[][NP_NAME], size_t *n, const char *s)
{
	if (*n < NP_MAX_LIST && strlen(s) < NP_NAME)
		copy(list[(*n)++], NP_NAME, s);
}

static void read_match(struct np *np, struct np_def *d, yaml_document_t *doc, yaml_node_t *m,
		       const char *file)
{
	d->has_match = true;
	if (!m || m->type != YAML_MAPPING_NODE) {
		import_note(&d->notes, "not carried over: %s.match (%s): not a mapping", d->id, file);
		return;
	}
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top && spend(np); p++) {
		const char *k = scalar(node(doc, p->key));
		const char *v = scalar(node(doc, p->value));
		if (k && strcmp(k, "name") == 0 && v)
			copy(d->match_name, sizeof(d->match_name), v);
		else if (k && strcmp(k, "macaddress") == 0 && v)
			copy(d->match_mac, sizeof(d->match_mac), v);
		else
			d->match_other = true;
	}
}

static void read_addresses(struct np *np, struct np_def *d, yaml_document_t *doc,
			   yaml_node_t *list, const char *file)
{
	if (!list || list->type != YAML_SEQUENCE_NODE) {
		import_note(&d->notes, "not carried over: %s.addresses (%s): not a list", d->id, file);
		return;
	}
	for (yaml_node_item_t *i = list->data.sequence.items.start;
	     i < list->data.sequence.items.top && spend(np); i++) {
		yaml_node_t *item = node(doc, *i);
		const char *a = scalar(item);
		/* - "10.0.0.1/24": {lifetime: 0, label: ...} */
		if (!a && item && item->type == YAML_MAPPING_NODE &&
		    item->data.mapping.pairs.top - item->data.mapping.pairs.start == 1) {
			a = scalar(node(doc, item->data.mapping.pairs.start->key));
			import_note(&d->notes, "not carried over: the options of address %.60s (%s)",
				    a ? a : "?", file);
		}
		if (!a || strlen(a) >= sizeof(d->addrs[0])) {
			import_note(&d->notes, "not carried over: an address of %s (%s)", d->id, file);
			continue;
		}
		if (d->n_addrs < BONDD_MAX_ADDRS)
			copy(d->addrs[d->n_addrs++], sizeof(d->addrs[0]), a);
	}
}

static void set_param(struct np_def *d, const char *key, const char *value, const char *from)
{
	for (size_t i = 0; i < d->n_params; i++) {
		if (strcmp(d->params[i].key, key) == 0) {
			copy(d->params[i].value, sizeof(d->params[i].value), value);
			copy(d->params[i].from, sizeof(d->params[i].from), from);
			return;
		}
	}
	if (d->n_params == NP_MAX_PARAMS)
		return;
	struct np_param *p = &d->params[d->n_params++];
	copy(p->key, sizeof(p->key), key);
	copy(p->value, sizeof(p->value), value);
	copy(p->from, sizeof(p->from), from);
}

static void read_parameters(struct np *np, struct np_def *d, yaml_document_t *doc,
			    yaml_node_t *m, const char *file)
{
	char from[300];

	snprintf(from, sizeof(from), "%s.parameters in %s", d->id, file);
	if (!m || m->type != YAML_MAPPING_NODE) {
		import_note(&d->notes, "not carried over: %s: not a mapping", from);
		return;
	}
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top && spend(np); p++) {
		const char *k = scalar(node(doc, p->key));
		yaml_node_t *vn = node(doc, p->value);
		if (!k)
			continue;
		if (strcmp(k, "arp-ip-targets") == 0 && vn && vn->type == YAML_SEQUENCE_NODE) {
			/* A sequence: appended to by later files. */
			for (yaml_node_item_t *i = vn->data.sequence.items.start;
			     i < vn->data.sequence.items.top && spend(np); i++) {
				const char *t = scalar(node(doc, *i));
				if (t && strlen(t) < 64 && d->n_targets < NP_MAX_LIST)
					copy(d->targets[d->n_targets++], 64, t);
			}
			continue;
		}
		const char *v = scalar(vn);
		if (!v) {
			import_note(&d->notes, "not carried over: %.40s (%s): not a value", k, from);
			continue;
		}
		set_param(d, k, v, from);
	}
}

/* Keys with nothing for bondd to carry and nothing lost. */
static bool harmless(enum np_type type, const char *k, yaml_node_t *v)
{
	if (strcmp(k, "renderer") == 0 || strcmp(k, "optional") == 0)
		return true;
	/* dhcp4: false, dhcp6: no, accept-ra: false on a NIC of the bond. */
	if ((strcmp(k, "dhcp4") == 0 || strcmp(k, "dhcp6") == 0 || strcmp(k, "accept-ra") == 0) &&
	    yaml_bool(v) == 0)
		return true;
	return type == NP_ETHERNET && strcmp(k, "link-local") == 0;
}

static void read_def(struct np *np, enum np_type type, const char *id, yaml_document_t *doc,
		     yaml_node_t *m, const char *file)
{
	struct np_def *d = get_def(np, id, type, file);

	if (!d)
		return;
	const char *empty = scalar(m);
	if (empty && (!*empty || strcmp(empty, "~") == 0 || strcmp(empty, "null") == 0))
		return; /* "eth0:" with nothing: a definition with no settings */
	if (!m || m->type != YAML_MAPPING_NODE) {
		import_note(&d->notes, "not carried over: %s (%s): not a mapping", id, file);
		return;
	}
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top && spend(np); p++) {
		const char *k = scalar(node(doc, p->key));
		yaml_node_t *v = node(doc, p->value);
		const char *s = scalar(v);
		if (!k)
			continue;
		if (strcmp(k, "match") == 0 && type == NP_ETHERNET) {
			read_match(np, d, doc, v, file);
		} else if (strcmp(k, "set-name") == 0 && s) {
			copy(d->set_name, sizeof(d->set_name), s);
		} else if (strcmp(k, "mtu") == 0 && s) {
			copy(d->mtu, sizeof(d->mtu), s);
		} else if (strcmp(k, "addresses") == 0) {
			read_addresses(np, d, doc, v, file);
		} else if ((strcmp(k, "dhcp4") == 0 || strcmp(k, "dhcp6") == 0) && yaml_bool(v) >= 0) {
			if (k[4] == '4')
				d->dhcp4 = yaml_bool(v) == 1;
			else
				d->dhcp6 = yaml_bool(v) == 1;
		} else if (strcmp(k, "interfaces") == 0 && (type == NP_BOND || type == NP_BRIDGE) &&
			   v && v->type == YAML_SEQUENCE_NODE) {
			/* Appended to by later files; a name listed twice counts once. */
			for (yaml_node_item_t *i = v->data.sequence.items.start;
			     i < v->data.sequence.items.top && spend(np); i++) {
				const char *name = scalar(node(doc, *i));
				bool dup = false;
				for (size_t j = 0; name && j < d->n_ifaces && !dup; j++)
					dup = strcmp(d->ifaces[j], name) == 0;
				if (name && !dup)
					add_name(d->ifaces, &d->n_ifaces, name);
			}
		} else if (strcmp(k, "parameters") == 0 && type == NP_BOND) {
			read_parameters(np, d, doc, v, file);
		} else if (strcmp(k, "link") == 0 && type == NP_VLAN && s) {
			copy(d->link, sizeof(d->link), s);
		} else if (strcmp(k, "id") == 0 && type == NP_VLAN && s) {
			copy(d->vlan_id, sizeof(d->vlan_id), s);
		} else if (strcmp(k, "renderer") == 0 && s) {
			copy(d->renderer, sizeof(d->renderer), s);
		} else if (strcmp(k, "macaddress") == 0 && type == NP_BOND && s) {
			/* netplan writes it as the bond's MACAddress=
			 * (networkd.c, write_netdev_file): bondd's mac_address. */
			copy(d->mac, sizeof(d->mac), s);
		} else if (strcmp(k, "openvswitch") == 0) {
			/* netplan renders it through Open vSwitch (parse.c,
			 * handle_ovs_*; openvswitch.c), even as "openvswitch: {}". */
			d->ovs = true;
		} else if (!harmless(type, k, v)) {
			import_note(&d->notes, "not carried over: %s.%s.%.40s%s%.60s (%s)",
				    type_keys[type], id, k, s ? ": " : "", s ? s : "", file);
		}
	}
}

static void read_doc(struct np *np, yaml_document_t *doc, const char *file)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	yaml_node_t *net = map_get(doc, root, "network");

	if (!net || net->type != YAML_MAPPING_NODE) {
		import_note(&np->r->notes, "%s: no \"network\" mapping: not a netplan file; skipped",
			    file);
		return;
	}
	for (yaml_node_pair_t *p = net->data.mapping.pairs.start;
	     p < net->data.mapping.pairs.top && spend(np); p++) {
		const char *k = scalar(node(doc, p->key));
		yaml_node_t *v = node(doc, p->value);
		enum np_type type = NP_OTHER;
		if (!k)
			continue;
		if (strcmp(k, "version") == 0) {
			const char *ver = scalar(v);
			if (!ver || strcmp(ver, "2") != 0)
				import_note(&np->r->notes, "%s: network.version is %.20s: netplan "
					    "reads version 2 only", file, ver ? ver : "not a number");
			continue;
		}
		if (strcmp(k, "renderer") == 0) {
			copy(np->renderer, sizeof(np->renderer), scalar(v));
			continue;
		}
		for (int t = NP_ETHERNET; t <= NP_BRIDGE; t++)
			if (strcmp(k, type_keys[t]) == 0)
				type = (enum np_type)t;
		if (type == NP_OTHER || !v || v->type != YAML_MAPPING_NODE)
			continue; /* wifis, tunnels, vrfs, ...: not a bond's business */
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start;
		     q < v->data.mapping.pairs.top && spend(np); q++) {
			const char *id = scalar(node(doc, q->key));
			if (id && *id)
				read_def(np, type, id, doc, node(doc, q->value), file);
		}
	}
}

/* 1 when the first document nests at most NP_MAX_DEPTH deep (or has a
 * syntax error, which the loader then reports), 0 when deeper, -ENOMEM. */
static int shallow(const struct import_file *f)
{
	yaml_parser_t parser;
	int depth = 0, rc = 1;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)f->text, f->len);
	for (bool done = false; !done;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			rc = parser.error == YAML_MEMORY_ERROR ? -ENOMEM : 1;
			break;
		}
		if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
			if (++depth > NP_MAX_DEPTH) {
				rc = 0;
				done = true;
			}
		} else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) {
			depth--;
		}
		done = done || ev.type == YAML_DOCUMENT_END_EVENT || ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return rc;
}

static int read_file(struct np *np, const struct import_file *f)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	int ok = shallow(f);

	if (ok < 0)
		return ok;
	if (!ok) {
		import_note(&np->r->notes, "%s: nested more than %d deep: not a netplan file; "
			    "skipped", f->name, NP_MAX_DEPTH);
		return 0;
	}
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)f->text, f->len);
	if (!yaml_parser_load(&parser, &doc)) {
		if (parser.error == YAML_MEMORY_ERROR) {
			yaml_parser_delete(&parser);
			return -ENOMEM;
		}
		import_note(&np->r->notes, "%s: not YAML (%.60s at line %zu); skipped", f->name,
			    parser.problem ? parser.problem : "error", parser.problem_mark.line + 1);
		yaml_parser_delete(&parser);
		return 0;
	}
	if (yaml_document_get_root_node(&doc)) {
		long_scalars(np, &doc, f->name);
		read_doc(np, &doc, f->name);
	}
	else
		import_note(&np->r->notes, "%s: empty; skipped", f->name);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return 0;
}

/* ---- bonds out of the merged definitions ------------------------------ */

/* The interface name an ID stands for, or NULL (why is noted). */
static const char *iface_name(struct np *np, struct import_bond *b, const char *id,
			      const char *what)
{
	const struct np_def *d = find_def(np, id);

	if (!d) {
		import_note(&b->notes, "%s %.40s is defined in no file given (netplan refuses "
			    "that): taken as an interface name", what, id);
		return id;
	}
	if (d->type == NP_BRIDGE || d->type == NP_BOND) {
		import_note(&b->notes, "not carried over: %s %.40s is a %s, not a NIC", what, id,
			    d->type == NP_BRIDGE ? "bridge" : "bond");
		return NULL;
	}
	if (*d->set_name) {
		if (d->match_other)
			import_note(&b->notes, "%s %.40s (%s) is matched by MAC address or driver "
				    "and renamed to %s: bondd takes it by that name", what, id, d->file,
				    d->set_name);
		return d->set_name;
	}
	if (!d->has_match)
		return d->id;
	if (*d->match_name && !strpbrk(d->match_name, "*?[") && !d->match_other && !*d->match_mac)
		return d->match_name;
	if (*d->match_name && !d->match_other && !*d->match_mac)
		import_note(&b->notes, "not carried over: %s %.40s (%s) matches name %.40s, a "
			    "pattern: list the links it fits in slaves by hand", what, id, d->file,
			    d->match_name);
	else
		import_note(&b->notes, "not carried over: %s %.40s (%s) is matched by MAC address "
			    "or driver with no set-name: its interface name cannot be known here; "
			    "add it to slaves by hand", what, id, d->file);
	return NULL;
}

/* A time span netplan hands to networkd: milliseconds (or seconds for
 * learn-packet-interval) unless it carries a suffix (interval_has_suffix). */
static void time_param(char *out, size_t len, const char *v, const char *unit)
{
	size_t digits = strspn(v, "0123456789");

	snprintf(out, len, "%s%s", v, digits == strlen(v) && digits ? unit : "");
}

static const struct {
	const char *netplan, *networkd, *unit;
} param_map[] = {
	{"mode", "Mode", NULL},
	{"lacp-rate", "LACPTransmitRate", NULL},
	{"mii-monitor-interval", "MIIMonitorSec", "ms"},
	{"min-links", "MinLinks", NULL},
	{"transmit-hash-policy", "TransmitHashPolicy", NULL},
	{"ad-select", "AdSelect", NULL},
	{"all-slaves-active", "AllSlavesActive", NULL},
	{"all-members-active", "AllSlavesActive", NULL},
	{"arp-interval", "ARPIntervalSec", "ms"},
	{"arp-validate", "ARPValidate", NULL},
	{"arp-all-targets", "ARPAllTargets", NULL},
	{"up-delay", "UpDelaySec", "ms"},
	{"down-delay", "DownDelaySec", "ms"},
	{"fail-over-mac-policy", "FailOverMACPolicy", NULL},
	{"gratuitous-arp", "GratuitousARP", NULL},
	{"gratuitious-arp", "GratuitousARP", NULL},
	{"packets-per-slave", "PacketsPerSlave", NULL},
	{"packets-per-member", "PacketsPerSlave", NULL},
	{"primary-reselect-policy", "PrimaryReselectPolicy", NULL},
	{"resend-igmp", "ResendIGMP", NULL},
	{"learn-packet-interval", "LearnPacketIntervalSec", "s"},
};

static void bond_params(struct np *np, struct import_bond *b, const struct np_def *d)
{
	for (size_t i = 0; i < d->n_params; i++) {
		const struct np_param *p = &d->params[i];
		char value[300], conv[256];
		const char *bkey;
		size_t j;
		if (strcmp(p->key, "primary") == 0) {
			const char *name = iface_name(np, b, p->value, "primary");
			if (name)
				import_set_opt(b, "primary", name, p->from);
			continue;
		}
		for (j = 0; j < sizeof(param_map) / sizeof(param_map[0]); j++)
			if (strcmp(param_map[j].netplan, p->key) == 0)
				break;
		if (j == sizeof(param_map) / sizeof(param_map[0])) {
			import_note(&b->notes, "not carried over: %.40s: %.60s (%s)", p->key, p->value,
				    p->from);
			continue;
		}
		if (param_map[j].unit)
			time_param(value, sizeof(value), p->value, param_map[j].unit);
		else
			copy(value, sizeof(value), p->value);
		if (config_hint_netdev_bond(param_map[j].networkd, value, &bkey, conv, sizeof(conv)))
			import_set_opt(b, bkey, conv, p->from);
		else
			import_note(&b->notes, "not carried over: %.40s: %.60s (%s)", p->key, p->value,
				    p->from);
	}
	if (d->n_targets) {
		char list[NP_MAX_LIST * 17] = "";
		for (size_t i = 0; i < d->n_targets; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? "," : "", d->targets[i]);
		char from[300];
		snprintf(from, sizeof(from), "%s.parameters.arp-ip-targets", d->id);
		import_set_opt(b, "arp_ip_target", list, from);
	}
}

/*
 * An Open vSwitch bond: netplan hands it to OVS (src/openvswitch.c), not to
 * the kernel's bonding driver, when the bond has an openvswitch: mapping,
 * when an OVS bridge (one with openvswitch:) lists it, or when its mode is
 * one only OVS has (balance-tcp, balance-slb; netplan's validation refuses
 * them otherwise).  bondd makes kernel bonds: it is refused, not made a
 * balance-rr bond with an OVS patch port for a slave.  Why, or NULL.
 */
static const char *ovs_bond(const struct np *np, const struct np_def *d)
{
	if (d->ovs)
		return "it has an openvswitch: mapping";
	for (size_t i = 0; i < d->n_params; i++)
		if (strcmp(d->params[i].key, "mode") == 0 &&
		    (strcmp(d->params[i].value, "balance-tcp") == 0 ||
		     strcmp(d->params[i].value, "balance-slb") == 0))
			return strcmp(d->params[i].value, "balance-tcp") == 0 ?
			       "its mode balance-tcp is Open vSwitch's" :
			       "its mode balance-slb is Open vSwitch's";
	for (size_t i = 0; i < np->n_defs; i++) {
		const struct np_def *o = &np->defs[i];
		for (size_t j = 0; o->type == NP_BRIDGE && o->ovs && j < o->n_ifaces; j++)
			if (strcmp(o->ifaces[j], d->id) == 0)
				return "an Open vSwitch bridge lists it";
	}
	return NULL;
}

static void read_bond(struct np *np, const struct np_def *d)
{
	const char *ovs = ovs_bond(np, d);
	if (ovs) {
		import_note(&np->r->notes, "not carried over: bonds.%s (%s) is an Open vSwitch "
			    "bond (%s): OVS makes it, not the kernel's bonding driver, and bondd "
			    "manages kernel bonds only; keep it in netplan", d->id, d->file, ovs);
		return;
	}
	struct import_bond *b = import_add_bond(np->r, d->id, d->file);

	if (!b)
		return;
	b->order_note = "netplan keeps none; the order of interfaces: check it.";
	bond_params(np, b, d);
	if (*d->mac) {
		if (strlen(d->mac) == 17 && strspn(d->mac, "0123456789abcdefABCDEF:") == 17)
			copy(b->mac, sizeof(b->mac), d->mac);
		else
			import_note(&b->notes, "not carried over: macaddress %.30s (%s): bondd's "
				    "mac_address takes one aa:bb:cc:dd:ee:ff", d->mac, d->file);
	}
	if (*d->mtu) {
		char *end;
		unsigned long v = strtoul(d->mtu, &end, 10);
		if (*d->mtu < '0' || *d->mtu > '9' || *end || v < 68 || v > 65535)
			import_note(&b->notes, "not carried over: mtu %.20s (%s)", d->mtu, d->file);
		else
			b->mtu = (uint32_t)v;
	}
	for (size_t i = 0; i < d->n_addrs; i++) {
		if (strchr(d->addrs[i], '/'))
			import_add_addr(b, d->addrs[i], d->file);
		else
			import_note(&b->notes, "not carried over: address %.60s (%s): no prefix "
				    "length", d->addrs[i], d->file);
	}
	if (d->dhcp4 || d->dhcp6)
		import_note(&b->notes, "not carried over: %s%s%s (%s): bondd sets static "
			    "addresses only", d->dhcp4 ? "dhcp4" : "", d->dhcp4 && d->dhcp6 ? ", " : "",
			    d->dhcp6 ? "dhcp6" : "", d->file);
	if (d->notes.len)
		sb_add(&b->notes, d->notes.s, d->notes.len);
	for (size_t i = 0; i < d->n_ifaces; i++) {
		const struct np_def *m = find_def(np, d->ifaces[i]);
		const char *name;
		/* match: macaddress is the permanent address (netplan(5)):
		 * a mac: entry, whatever set-name or udev call the NIC. */
		if (m && m->type == NP_ETHERNET && *m->match_mac &&
		    import_add_slave_by(b, "mac", m->match_mac, m->file)) {
			name = b->slaves[b->n_slaves - 1];
			if (*m->set_name)
				import_note(&b->notes, "interface %.40s (%s): taken by its permanent "
					    "MAC; its set-name %s is netplan's to give", m->id, m->file,
					    m->set_name);
		} else {
			name = iface_name(np, b, d->ifaces[i], "interface");
			if (!name || !import_add_slave(b, name, d->file))
				continue;
			if (m && *m->match_mac)
				import_note(&b->notes, "interface %.40s (%s): fell back to the name %s, "
					    "which a rename loses", m->id, m->file, name);
		}
		if (m && *m->mtu)
			import_note(&b->notes, "mtu %.20s of %s (%s) is not carried over: the kernel "
				    "gives every slave the bond's MTU", m->mtu, name, m->file);
		if (m && (m->dhcp4 || m->dhcp6))
			import_note(&b->notes, "not carried over: DHCP on slave %s (%s)", name,
				    m->file);
		if (m && m->notes.len)
			sb_add(&b->notes, m->notes.s, m->notes.len);
	}
	/* Stacked on the bond: named, not made. */
	for (size_t i = 0; i < np->n_defs; i++) {
		const struct np_def *o = &np->defs[i];
		if (o->type == NP_VLAN && strcmp(o->link, d->id) == 0) {
			import_note(&b->notes, "not carried over: VLAN %s (id %.8s) on %s (%s): bondd "
				    "makes the bond only; keep the VLAN in netplan, with the companion "
				    "below", o->id, *o->vlan_id ? o->vlan_id : "?", d->id, o->file);
			import_add_vlan(b, o->id, o->file);
		}
		for (size_t j = 0; o->type == NP_BRIDGE && j < o->n_ifaces; j++)
			if (strcmp(o->ifaces[j], d->id) == 0) {
				import_note(&b->notes, "not carried over: %s is a port of bridge %s "
					    "(%s): keep the bridge in netplan, with the companion below",
					    d->id, o->id, o->file);
				import_set_bridge(b, o->id, o->file);
			}
	}
	const char *renderer = *d->renderer ? d->renderer : np->renderer;
	b->np_networkd = strcmp(renderer, "NetworkManager") != 0;
	if (!b->np_networkd && (b->n_vlans || *b->bridge))
		import_note(&b->notes, "%s (%s): renderer NetworkManager: no companion is written; "
			    "see the NetworkManager recipe of bondd(8)", d->id, d->file);
	const char *arp = import_get_opt(b, "arp_interval");
	if (strcmp(renderer, "NetworkManager") == 0 && !import_get_opt(b, "miimon") &&
	    (!arp || strcmp(arp, "0") == 0)) {
		import_set_opt(b, "miimon", "100", "NetworkManager's default");
		import_note(&b->notes, "miimon = 100 is NetworkManager's default (renderer "
			    "NetworkManager) for a bond that sets neither mii-monitor-interval nor "
			    "arp-interval");
	}
}

static int by_base(const void *a, const void *b)
{
	const struct import_file *x = *(const struct import_file *const *)a;
	const struct import_file *y = *(const struct import_file *const *)b;
	const char *xs = strrchr(x->name, '/'), *ys = strrchr(y->name, '/');
	int c = strcmp(xs ? xs + 1 : x->name, ys ? ys + 1 : y->name);
	/* Same name: the one given first wins (and sorts first). */
	return c ? c : (x < y ? -1 : x > y);
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

int import_netplan(const struct import_file *files, size_t n, struct import_result *out)
{
	struct np np = {.r = out};
	const struct import_file **sorted = calloc(n ? n : 1, sizeof(*sorted));
	int err = -ENOMEM;

	out->format = "netplan";
	if (!sorted)
		goto out;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &files[i];
	qsort(sorted, n, sizeof(*sorted), by_base);
	for (size_t i = 0; i < n; i++) {
		if (i && strcmp(base(sorted[i]->name), base(sorted[i - 1]->name)) == 0) {
			import_note(&out->notes, "%s: shadowed by %s, which has the same name; skipped",
				    sorted[i]->name, sorted[i - 1]->name);
			continue;
		}
		if ((err = read_file(&np, sorted[i])) < 0)
			goto out;
		err = -ENOMEM;
		if (np.oom)
			goto out;
	}
	for (size_t i = 0; i < np.n_defs; i++)
		if (np.defs[i].type == NP_BOND)
			read_bond(&np, &np.defs[i]);
	err = np.oom ? -ENOMEM : 0;
	for (size_t i = 0; i < np.n_defs; i++)
		if (np.defs[i].notes.oom)
			err = -ENOMEM;
	if (import_result_oom(out))
		err = -ENOMEM;
out:
	for (size_t i = 0; np.defs && i < np.n_defs; i++)
		sb_free(&np.defs[i].notes);
	free(np.defs);
	free(sorted);
	return err;
}
