/* SPDX-License-Identifier: MIT */
/*
 * /etc/network/interfaces (interfaces(5)) with the bond keys of Debian's
 * ifenslave and of ifupdown2, into plain data.  What the file means is
 * what ifupdown's config.c (read_interfaces_defn) reads and what the bond
 * scripts do with it:
 *
 * - logical lines: a trailing backslash joins the next line; a line whose
 *   first non-blank is '#' is a comment (there are no end-of-line
 *   comments).  Stanzas start with iface, mapping, auto, allow-CLASS,
 *   rename, source and source-directory; other lines are options of the
 *   iface stanza above them;
 * - "source PATTERN" reads the files the shell pattern names, in order,
 *   and "source-directory DIR" the files of DIR whose names are made of
 *   letters, digits, '_' and '-' (run-parts' rule), in lexical order; a
 *   relative PATTERN or DIR is relative to the directory of the file that
 *   holds the line, and a file already read is not read again (config.c,
 *   read_interfaces_defn and already_seen).  bondd_import.c reads those
 *   files from disk (import_ifupdown_includes tells it which); this
 *   reader only follows the lines among the files it is given;
 * - a bond is an iface with bond-slaves (ifupdown2's alias: bond-ports),
 *   or with any other bond-* key but bond-master, or named by another
 *   iface's bond-master.  Its slaves are the words of bond-slaves ("none":
 *   the slaves name the bond instead; ifupdown2's "glob" and "regex"
 *   lists, and ifenslave's "all", name no interface we can know here:
 *   noted), then the ifaces with bond-master BOND in the order they are
 *   read.  ifenslave enslaves bond-slaves in their order; the others join
 *   as they come up (ifup -a brings them up in file order);
 * - the other bond-KEY keys are the kernel's options with '-' for '_'
 *   (ifenslave writes /sys/class/net/BOND/bonding/KEY; ifupdown2's
 *   addons/bond.py maps the same names to netlink), ifupdown2's
 *   bond-ad-sys-priority, bond-ad-sys-mac-addr and bond-num-unsol-na being
 *   old names of ad_actor_sys_prio, ad_actor_system and num_grat_arp;
 *   bond-mode takes names and numbers alike, booleans yes/no become 1/0;
 * - mtu is the bond's MTU; address (with /PREFIX, or with netmask as a
 *   dotted mask or a prefix length) of inet static and inet6 static
 *   stanzas are its addresses, and of ifupdown2's stanzas with no family
 *   and method; under manual, ifupdown's manual method adds none (its
 *   address is noted: ifupdown2 would add it);
 * - a VLAN on the bond (an iface named BOND.ID, or with vlan-raw-device
 *   BOND) and a bridge with the bond in bridge-ports are named in the
 *   bond's notes.
 */
#include "import.h"
#include "grow.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bond_option_table.h"

#define IFU_MAX_STANZAS 1024
#define IFU_MAX_OPTS 128
#define IFU_DEPTH 16
/* source lines followed per run (each is matched against every file). */
#define IFU_MAX_INCLUDES 1024

struct ifu_stanza {
	char name[64], family[16], method[16];
	const char *file;
	unsigned line;
	struct import_kv *opts;
	size_t n_opts, cap_opts;
	bool *used;                /* parallel to opts: carried over or noted */
};

struct ifu {
	struct import_result *r;
	const struct import_file *files;
	size_t n_files;
	bool *seen;                /* parallel to files */
	struct ifu_stanza *st;
	size_t n_st, cap_st;
	char (*autos)[64];         /* auto and allow-* names */
	size_t n_autos, cap_autos;
	unsigned includes;         /* source lines followed */
	bool oom;
};

/* ---- lines ---------------------------------------------------------------- */

/* The next logical line of text (continuations joined) into out; false at
 * the end.  *line counts physical lines. */
static bool ifupdown_next_line(const char **at, const char *end, char *out, size_t len, unsigned *line,
		      unsigned *first)
{
	size_t o = 0;
	bool any = false;

	*first = *line + 1;
	while (*at < end) {
		const char *nl = memchr(*at, '\n', (size_t)(end - *at));
		const char *stop = nl ? nl : end;
		size_t n = (size_t)(stop - *at);
		bool cont = n && (*at)[n - 1] == '\\';
		if (cont)
			n--;
		for (size_t i = 0; i < n; i++)
			if (o + 1 < len)
				out[o++] = (*at)[i] == '\0' || (*at)[i] == '\r' ? ' ' : (*at)[i];
		*at = nl ? nl + 1 : end;
		(*line)++;
		any = true;
		if (!cont)
			break;
	}
	out[o] = '\0';
	return any;
}

/* The first word of s into w (cut to len); returns what follows it,
 * blanks skipped, or NULL when s holds no word. */
static char *word(char *s, char *w, size_t len)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	size_t n = strcspn(s, " \t");
	snprintf(w, len, "%.*s", (int)n, s);
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void trim_end(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* run-parts' default name rule, which source-directory uses. */
bool import_ifupdown_dir_entry(const char *name)
{
	if (!*name)
		return false;
	for (; *name; name++)
		if (!((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
		      (*name >= '0' && *name <= '9') || *name == '_' || *name == '-'))
			return false;
	return true;
}

/* PATTERN relative to the directory of the file named from, as
 * read_interfaces_defn joins them. */
static void join(char *out, size_t len, const char *from, const char *pattern)
{
	const char *slash = strrchr(from, '/');

	if (pattern[0] == '/')
		snprintf(out, len, "%s", pattern);
	else if (!slash)
		snprintf(out, len, "./%s", pattern);
	else if (slash == from)
		snprintf(out, len, "/%s", pattern);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - from), from, pattern);
}

static bool is_source(const char *w)
{
	return strcmp(w, "source") == 0;
}

/* source-dir, source-directory: read_interfaces_defn matches the prefix. */
static bool is_source_dir(const char *w)
{
	return strncmp(w, "source-dir", 10) == 0;
}

void import_ifupdown_includes(const char *name, const char *text, size_t len,
			      void (*fn)(void *ctx, bool dir, const char *pattern), void *ctx)
{
	const char *at = text, *end = text + len;
	char line[1024], w[80], path[1200];
	unsigned n = 0, first, count = 0;

	while (ifupdown_next_line(&at, end, line, sizeof(line), &n, &first)) {
		char *rest = word(line, w, sizeof(w));
		if (!rest || w[0] == '#' || !*rest || (!is_source(w) && !is_source_dir(w)))
			continue;
		trim_end(rest);
		if (strpbrk(rest, "$`~"))
			continue; /* not expanded here: the reader notes it */
		join(path, sizeof(path), name, rest);
		fn(ctx, is_source_dir(w), path);
		if (++count == IFU_MAX_INCLUDES)
			break;
	}
}

/* ---- reading stanzas ------------------------------------------------------ */

static struct ifu_stanza *new_stanza(struct ifu *u)
{
	if (u->n_st == IFU_MAX_STANZAS)
		return NULL;
	struct ifu_stanza *s = grow_append(&u->st, &u->cap_st, &u->n_st, sizeof(*s), 16, NULL);
	if (!s)
		u->oom = true;
	return s;
}

static void add_opt(struct ifu *u, struct ifu_stanza *s, const char *key, const char *value,
		    unsigned line)
{
	if (s->n_opts == IFU_MAX_OPTS)
		return;
	struct import_kv *v = grow_array(s->opts, &s->cap_opts, s->n_opts + 1, sizeof(*v), 8);
	if (!v) {
		u->oom = true;
		return;
	}
	s->opts = v;
	struct import_kv *o = &s->opts[s->n_opts++];
	snprintf(o->key, sizeof(o->key), "%.47s", key);
	snprintf(o->value, sizeof(o->value), "%s", value);
	o->line = line;
}

static void add_auto(struct ifu *u, const char *name)
{
	if (u->n_autos == u->cap_autos) {
		size_t cap = u->cap_autos ? u->cap_autos * 2 : 16;
		if (cap > 4096)
			return;
		char(*v)[64] = realloc(u->autos, cap * sizeof(*v));
		if (!v) {
			u->oom = true;
			return;
		}
		u->autos = v;
		u->cap_autos = cap;
	}
	snprintf(u->autos[u->n_autos++], 64, "%s", name);
}

static int ifupdown_by_name(const void *a, const void *b)
{
	const struct import_file *x = *(const struct import_file *const *)a;
	const struct import_file *y = *(const struct import_file *const *)b;
	return strcmp(x->name, y->name);
}

static int by_base(const void *a, const void *b)
{
	const struct import_file *x = *(const struct import_file *const *)a;
	const struct import_file *y = *(const struct import_file *const *)b;
	return strcmp(strrchr(x->name, '/') + 1, strrchr(y->name, '/') + 1);
}

static void read_file(struct ifu *u, size_t idx, int depth);

/* The given files a source or source-directory line names, read in
 * ifupdown's order (glob's name order; alphasort within a directory). */
static void include(struct ifu *u, const char *from, unsigned line, const char *rest, bool dir,
		    int depth)
{
	char path[1200];
	const struct import_file **hits = calloc(u->n_files ? u->n_files : 1, sizeof(*hits));
	size_t n = 0;

	if (!hits) {
		u->oom = true;
		return;
	}
	if (++u->includes > IFU_MAX_INCLUDES) {
		if (u->includes == IFU_MAX_INCLUDES + 1)
			import_note(&u->r->notes, "not carried over: %s:%u and later source lines: "
				    "more than %d", from, line, IFU_MAX_INCLUDES);
		free(hits);
		return;
	}
	if (strpbrk(rest, "$`~")) {
		import_note(&u->r->notes, "not carried over: %s:%u: \"%.80s\": variables and ~ are "
			    "not expanded here", from, line, rest);
		free(hits);
		return;
	}
	join(path, sizeof(path), from, rest);
	size_t plen = strlen(path);
	while (dir && plen > 1 && path[plen - 1] == '/')
		path[--plen] = '\0';
	for (size_t i = 0; i < u->n_files; i++) {
		const char *name = u->files[i].name;
		const char *slash = strrchr(name, '/');
		bool match;
		if (dir)
			match = slash && (size_t)(slash - name) == plen &&
				strncmp(name, path, plen) == 0 && import_ifupdown_dir_entry(slash + 1);
		else
			match = fnmatch(path, name, FNM_PATHNAME | FNM_PERIOD) == 0;
		if (match)
			hits[n++] = &u->files[i];
	}
	if (n == 0)
		import_note(&u->r->notes, "%s:%u: %s %.80s names no file that was read", from, line,
			    dir ? "source-directory" : "source", rest);
	qsort(hits, n, sizeof(*hits), dir ? by_base : ifupdown_by_name);
	for (size_t i = 0; i < n; i++)
		read_file(u, (size_t)(hits[i] - u->files), depth + 1);
	free(hits);
}

/*
 * ifupdown2 runs the Mako template engine over the file before it parses
 * it (ifupdown2's user guide, "Using Templates"): "%for ...:" and
 * "%endfor" lines, <% ... %> blocks and ${...} expressions.  bondd-import
 * runs no template, so such a line is named, never read as if it were
 * not there: the stanzas a loop makes, and a value built from ${v}, are
 * not carried over.  *block: inside a <% ... %> block.  ${...} counts
 * only in a file with Mako's control lines (mako): elsewhere it is the
 * shell's, in an up or down command of classic ifupdown.
 */
static bool template_line(const char *line, bool mako, bool *block)
{
	const char *s = line + strspn(line, " \t");
	const char *open = strstr(s, "<%");

	if (*block) {
		*block = !strstr(s, "%>");
		return true;
	}
	if (s[0] == '%' && s[1] != '%')
		return true;
	if (open) {
		*block = !strstr(open + 2, "%>");
		return true;
	}
	return mako && strstr(s, "${") != NULL;
}

/* Whether a file has Mako's control lines (% at the start, or <%). */
static bool has_mako(const char *text, size_t len)
{
	const char *at = text, *end = text + len;

	while (at < end) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = nl ? (size_t)(nl - at) : (size_t)(end - at);
		size_t lead = 0;
		while (lead < n && (at[lead] == ' ' || at[lead] == '\t'))
			lead++;
		if ((lead < n && at[lead] == '%' && (lead + 1 == n || at[lead + 1] != '%')) ||
		    (n >= 2 && memmem(at, n, "<%", 2)))
			return true;
		at = nl ? nl + 1 : end;
	}
	return false;
}

#define IFU_TEMPLATE_NOTES 8

static void read_file(struct ifu *u, size_t idx, int depth)
{
	const struct import_file *f = &u->files[idx];
	const char *at = f->text, *end = f->text + f->len;
	char line[1024], w[80];
	unsigned n = 0, first, bad = 0, templ = 0;
	struct ifu_stanza *cur = NULL;
	size_t cur_idx = 0;
	bool block = false, mako = has_mako(f->text, f->len);

	if (u->seen[idx] || depth > IFU_DEPTH)
		return;
	u->seen[idx] = true;
	while (!u->oom && ifupdown_next_line(&at, end, line, sizeof(line), &n, &first)) {
		const char *lead = line + strspn(line, " \t");
		if (*lead != '#' && template_line(line, mako, &block)) {
			if (templ++ < IFU_TEMPLATE_NOTES)
				import_note(&u->r->notes, "not carried over: %s:%u: \"%.60s\" is a "
					    "Mako template line of ifupdown2, which bondd-import does not "
					    "run: what it makes is not read; import what ifupdown2 makes "
					    "of the file (ifquery --running -a)", f->name, first, lead);
			cur = NULL; /* what the template made holds the lines that follow */
			continue;
		}
		char *rest = word(line, w, sizeof(w));
		if (!rest || w[0] == '#')
			continue;
		trim_end(rest);
		if (strcmp(w, "iface") == 0) {
			/* ifupdown needs a family and a method; ifupdown2 takes the
			 * name alone (inet manual). */
			char name[64] = "", fam[16] = "", method[16] = "";
			char *r2 = word(rest, name, sizeof(name));
			if (r2)
				r2 = word(r2, fam, sizeof(fam));
			if (r2)
				word(r2, method, sizeof(method));
			cur = *name ? new_stanza(u) : NULL;
			if (!cur) {
				if (!u->oom)
					import_note(&u->r->notes, "not carried over: %s:%u: an iface line "
						    "ifupdown would refuse, or too many", f->name, first);
				continue;
			}
			cur_idx = (size_t)(cur - u->st);
			snprintf(cur->name, sizeof(cur->name), "%s", name);
			snprintf(cur->family, sizeof(cur->family), "%s", fam);
			snprintf(cur->method, sizeof(cur->method), "%s", method);
			cur->file = f->name;
			cur->line = first;
		} else if (strcmp(w, "auto") == 0 || strncmp(w, "allow-", 6) == 0) {
			char name[64];
			for (char *r2 = rest; (r2 = word(r2, name, sizeof(name)));)
				add_auto(u, name);
			cur = NULL;
		} else if (is_source(w) || is_source_dir(w)) {
			cur = NULL;
			if (*rest)
				include(u, f->name, first, rest, is_source_dir(w), depth);
			/* u->st may have moved: nothing holds a stanza across this. */
		} else if (strcmp(w, "mapping") == 0 || strcmp(w, "rename") == 0) {
			import_note(&u->r->notes, "not carried over: %s:%u: %s %.80s", f->name, first,
				    w, rest);
			cur = NULL;
		} else if (cur) {
			cur = &u->st[cur_idx];
			add_opt(u, cur, w, rest, first);
		} else {
			bad++;
		}
	}
	if (bad)
		import_note(&u->r->notes, "%s: %u lines outside any iface stanza were skipped",
			    f->name, bad);
	if (templ > IFU_TEMPLATE_NOTES)
		import_note(&u->r->notes, "not carried over: %s: %u more Mako template lines",
			    f->name, templ - IFU_TEMPLATE_NOTES);
}

/* ---- bonds ---------------------------------------------------------------- */

static const char *opt_get(const struct ifu_stanza *s, const char *key)
{
	return import_kv_get(s->opts, s->n_opts, key);
}

static void ifupdown_mark(struct ifu_stanza *s, const char *key)
{
	import_kv_mark(s->opts, s->used, s->n_opts, key);
}

static bool is_slave_list_key(const char *k)
{
	return strcmp(k, "bond-slaves") == 0 || strcmp(k, "bond-ports") == 0;
}

/* Whether s configures a bond (by its own keys). */
static bool bond_keys(const struct ifu_stanza *s)
{
	if (opt_get(s, "bond-master"))
		return false;
	for (size_t i = 0; i < s->n_opts; i++)
		if (strncmp(s->opts[i].key, "bond-", 5) == 0)
			return true;
	return false;
}

static bool named_master(const struct ifu *u, const char *name)
{
	for (size_t i = 0; i < u->n_st; i++) {
		const char *m = opt_get(&u->st[i], "bond-master");
		if (m && strcmp(m, name) == 0)
			return true;
	}
	return false;
}

/* A name the kernel (ethN) or udev's predictable naming (en*, eth*, wl*,
 * ww*, ib*) gives a NIC. */
static bool nic_name(const char *name)
{
	static const char *const prefixes[] = {"en", "eth", "wl", "ww", "ib"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * Why name, named by some iface's bond-master, is no bond, or NULL.  A
 * bond-master is made a bond by ifenslave (bonding_masters) only when no
 * such link exists; one that is itself a slave (its own bond-master, or in
 * a bond-slaves list) is none, and neither is a NIC: a stanza without any
 * bond key for a NIC's name (a typo in a real file: bond-master enp7s0f0
 * on its sibling).  Reported, not made a bond.
 */
static const char *not_a_bond(const struct ifu *u, const char *name, bool own_keys)
{
	for (size_t i = 0; i < u->n_st; i++) {
		const struct ifu_stanza *s = &u->st[i];
		if (strcmp(s->name, name) == 0 && opt_get(s, "bond-master"))
			return "it is itself a slave (bond-master)";
		for (size_t j = 0; j < s->n_opts; j++) {
			if (!is_slave_list_key(s->opts[j].key))
				continue;
			char copy[512];
			snprintf(copy, sizeof(copy), "%s", s->opts[j].value);
			for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
			     t = strtok_r(NULL, " \t", &save))
				if (strcmp(t, name) == 0)
					return "it is listed as a slave (bond-slaves)";
		}
	}
	if (!own_keys && nic_name(name))
		return "a NIC's name, and its stanzas have no bond key";
	return NULL;
}

/* Whether any stanza of name configures a bond by its own keys. */
static bool any_bond_keys(const struct ifu *u, const char *name)
{
	for (size_t i = 0; i < u->n_st; i++)
		if (strcmp(u->st[i].name, name) == 0 && bond_keys(&u->st[i]))
			return true;
	return false;
}

static bool is_auto(const struct ifu *u, const char *name)
{
	for (size_t i = 0; i < u->n_autos; i++)
		if (strcmp(u->autos[i], name) == 0)
			return true;
	return false;
}

static bool yesno(const char *v, char *out, size_t len)
{
	if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0)
		snprintf(out, len, "1");
	else if (strcasecmp(v, "no") == 0 || strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0)
		snprintf(out, len, "0");
	else
		return false;
	return true;
}

/* One bond-KEY value as the kernel option it sets. */
static void bond_opt(struct import_bond *b, const char *key, const char *value, const char *from)
{
	static const struct {
		const char *ifu, *kernel;
	} renamed[] = {
		{"bond-ad-sys-priority", "ad_actor_sys_prio"},
		{"bond-ad-sys-mac-addr", "ad_actor_system"},
		{"es-sys-mac", "ad_actor_system"},
		{"bond-num-unsol-na", "num_grat_arp"},
	};
	char kkey[48], v[512];
	const char *k = NULL;

	for (size_t i = 0; i < sizeof(renamed) / sizeof(renamed[0]); i++)
		if (strcmp(key, renamed[i].ifu) == 0)
			k = renamed[i].kernel;
	if (!k) {
		snprintf(kkey, sizeof(kkey), "%s", key + 5);
		for (char *c = kkey; *c; c++)
			if (*c == '-')
				*c = '_';
		k = kkey;
	}
	if (!bond_option_by_key(k)) {
		import_note(&b->notes, "not carried over: %s %.80s (%s): no kernel bonding option "
			    "bondd manages", key, value, from);
		return;
	}
	snprintf(v, sizeof(v), "%s", value);
	if (strcmp(k, "use_carrier") == 0 || strcmp(k, "all_slaves_active") == 0 ||
	    strcmp(k, "tlb_dynamic_lb") == 0) {
		if (!yesno(value, v, sizeof(v))) {
			import_note(&b->notes, "not carried over: %s %.60s (%s): not yes or no", key,
				    value, from);
			return;
		}
	} else if (strcmp(k, "arp_ip_target") == 0 || strcmp(k, "ns_ip6_target") == 0) {
		/* Words or a comma list, each maybe with sysfs's '+'. */
		char copy[512];
		snprintf(copy, sizeof(copy), "%s", value);
		v[0] = '\0';
		for (char *save = NULL, *t = strtok_r(copy, " \t,", &save); t;
		     t = strtok_r(NULL, " \t,", &save)) {
			if (*t == '+')
				t++;
			if (*t)
				snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%s", v[0] ? "," : "", t);
		}
	}
	import_set_opt(b, k, v, from);
}

/* One [A-B] or A-B range of a glob word: its bounds and where it is. */
struct glob_range {
	unsigned long lo, hi;
	size_t at, len;            /* the text it replaces in the word */
};

/* The numbers of the ranges of a glob word: "swp1-6.100" (PREFIX A-B
 * SUFFIX, the prefix ending in no digit) or "swp[1-6]s[0-3].100" (any
 * number of [A-B]).  0 when the word has none or one is malformed. */
static size_t glob_ranges(const char *w, struct glob_range *r, size_t max)
{
	size_t n = 0;

	if (strchr(w, '[')) {
		for (const char *p = w; (p = strchr(p, '[')) && n < max;) {
			char *end;
			const char *q = p + 1;
			if (*q < '0' || *q > '9')
				return 0;
			r[n].lo = strtoul(q, &end, 10);
			if (*end != '-' || end[1] < '0' || end[1] > '9')
				return 0;
			r[n].hi = strtoul(end + 1, &end, 10);
			if (*end != ']' || r[n].hi < r[n].lo)
				return 0;
			r[n].at = (size_t)(p - w);
			r[n].len = (size_t)(end + 1 - p);
			n++;
			p = end + 1;
		}
		return strchr(w + r[n - 1].at + r[n - 1].len, '[') ? 0 : n;
	}
	const char *dash = strchr(w, '-');
	if (!dash || dash == w)
		return 0;
	const char *lo = dash;
	while (lo > w && lo[-1] >= '0' && lo[-1] <= '9')
		lo--;
	if (lo == dash || lo == w || dash[1] < '0' || dash[1] > '9')
		return 0;
	char *end;
	r[0].lo = strtoul(lo, NULL, 10);
	r[0].hi = strtoul(dash + 1, &end, 10);
	if (r[0].hi < r[0].lo)
		return 0;
	r[0].at = (size_t)(lo - w);
	r[0].len = (size_t)(end - lo);
	return 1;
}

#define IFU_GLOB_RANGES 4

/*
 * ifupdown2's "glob WORD" in a port list (its user guide, "Using Globs for
 * Port Lists"): swp1-6.100 is swp1.100 to swp6.100, swp[1-2]s[0-3] is
 * swp1s0 ... swp2s3 (the last range varying fastest).  "glob" applies to
 * the one word after it.  The names are added in that order, at most
 * BONDD_MAX_SLAVES of them; a malformed word, or one that makes more, is
 * noted.
 */
static void glob_slaves(struct import_bond *b, const char *w, const char *key, const char *from)
{
	struct glob_range r[IFU_GLOB_RANGES];
	size_t n = glob_ranges(w, r, IFU_GLOB_RANGES);
	unsigned long total = 1, k[IFU_GLOB_RANGES] = {0};

	for (size_t i = 0; i < n; i++) {
		total *= r[i].hi - r[i].lo + 1;
		if (total > BONDD_MAX_SLAVES)
			break;
	}
	if (!n || total > BONDD_MAX_SLAVES) {
		import_note(&b->notes, "not carried over: %s glob %.60s (%s): %s", key, w, from,
			    n ? "it makes more names than a bond has slaves (32)" :
				"not a range ifupdown2 expands (PREFIX1-4SUFFIX or [1-4])");
		return;
	}
	for (unsigned long c = 0; c < total; c++) {
		char name[128] = "";
		size_t pos = 0;
		for (size_t i = 0; i < n; i++) {
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%.*s%lu",
				 (int)(r[i].at - pos), w + pos, r[i].lo + k[i]);
			pos = r[i].at + r[i].len;
		}
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s", w + pos);
		import_add_slave(b, name, from);
		for (size_t i = n; i-- > 0;) { /* the last range fastest */
			if (++k[i] <= r[i].hi - r[i].lo)
				break;
			k[i] = 0;
		}
	}
}

static void slave_list(struct ifu *u, struct import_bond *b, struct ifu_stanza *s)
{
	for (size_t i = 0; i < s->n_opts; i++) {
		if (!is_slave_list_key(s->opts[i].key))
			continue;
		char from[320], copy[512];
		snprintf(from, sizeof(from), "%s:%u", s->file, s->opts[i].line);
		snprintf(copy, sizeof(copy), "%s", s->opts[i].value);
		char *save = NULL, *t = strtok_r(copy, " \t", &save);
		if (t && (strcmp(t, "regex") == 0 || strcmp(t, "all") == 0)) {
			import_note(&b->notes, "not carried over: %s %.80s (%s): a pattern, not names: "
				    "list the links it fits in slaves by hand", s->opts[i].key,
				    s->opts[i].value, from);
			continue;
		}
		for (; t; t = strtok_r(NULL, " \t", &save)) {
			if (strcmp(t, "glob") == 0) {
				char *g = strtok_r(NULL, " \t", &save);
				if (g)
					glob_slaves(b, g, s->opts[i].key, from);
				continue;
			}
			if (strcmp(t, "none") != 0)
				import_add_slave(b, t, from);
		}
	}
	(void)u;
}

/* Options of an iface that are no loss when not carried over. */
static bool harmless(const char *key)
{
	return strcmp(key, "bond-master") == 0 || strcmp(key, "bond-slaves") == 0 ||
	       strcmp(key, "bond-ports") == 0;
}

static void note_rest(struct import_bond *b, struct ifu_stanza *s)
{
	for (size_t i = 0; i < s->n_opts; i++) {
		if (s->used[i] || harmless(s->opts[i].key))
			continue;
		import_note(&b->notes, "not carried over: %s %.80s (%s:%u)", s->opts[i].key,
			    s->opts[i].value, s->file, s->opts[i].line);
	}
}

static void bond_address(struct import_bond *b, struct ifu_stanza *s)
{
	bool v6 = strcmp(s->family, "inet6") == 0;
	const char *mask = opt_get(s, "netmask");

	for (size_t i = 0; i < s->n_opts; i++) {
		const struct import_kv *o = &s->opts[i];
		char from[320], cidr[600];
		if (strcmp(o->key, "address") != 0)
			continue;
		s->used[i] = true;
		snprintf(from, sizeof(from), "%s:%u", s->file, o->line);
		if (strcmp(s->method, "manual") == 0) {
			import_note(&b->notes, "not carried over: address %.60s (%s): ifupdown's "
				    "manual method adds no address (ifupdown2 would: add it by hand "
				    "if this host runs ifupdown2)", o->value, from);
			continue;
		}
		if (strcmp(s->method, "static") != 0 && *s->method) {
			import_note(&b->notes, "not carried over: address %.60s (%s): the method is "
				    "%s, not static", o->value, from, s->method);
			continue;
		}
		if (strchr(o->value, '/')) {
			import_add_addr(b, o->value, from);
			continue;
		}
		int p = -1;
		if (mask && strspn(mask, "0123456789") == strlen(mask) && *mask &&
		    strlen(mask) <= 3)
			p = atoi(mask);
		else if (mask && !v6)
			p = import_netmask_prefix(mask);
		if (p < 0 || p > (v6 ? 128 : 32)) {
			import_note(&b->notes, "not carried over: address %.60s (%s): no prefix "
				    "length or netmask", o->value, from);
			continue;
		}
		snprintf(cidr, sizeof(cidr), "%.500s/%d", o->value, p);
		import_add_addr(b, cidr, from);
	}
	ifupdown_mark(s, "netmask");
}

static void read_bond(struct ifu *u, const char *name)
{
	struct ifu_stanza *first = NULL;

	for (size_t i = 0; i < u->n_st && !first; i++)
		if (strcmp(u->st[i].name, name) == 0)
			first = &u->st[i];
	struct import_bond *b = import_add_bond(u->r, name, first ? first->file : "bond-master");
	if (!b)
		return;
	b->order_note = "bond-slaves in their order, then the ifaces with bond-master in file "
			"order, as ifenslave and ifup -a enslave them: check it.";
	if (!is_auto(u, name))
		import_note(&b->notes, "%s has no auto or allow- line: ifupdown brings it up only "
			    "by hand; bondd makes it whenever it runs", name);
	/* Every stanza of the bond (inet, inet6): keys, MTU, addresses. */
	for (size_t i = 0; i < u->n_st; i++) {
		struct ifu_stanza *s = &u->st[i];
		if (strcmp(s->name, name) != 0)
			continue;
		for (size_t j = 0; j < s->n_opts; j++) {
			const struct import_kv *o = &s->opts[j];
			char from[320];
			snprintf(from, sizeof(from), "%s:%u", s->file, o->line);
			if (is_slave_list_key(o->key) || strcmp(o->key, "bond-master") == 0)
				continue;
			if (strncmp(o->key, "bond-", 5) == 0 || strcmp(o->key, "es-sys-mac") == 0) {
				s->used[j] = true;
				bond_opt(b, o->key, o->value, from);
			} else if (strcmp(o->key, "mtu") == 0) {
				char *end;
				unsigned long v = strtoul(o->value, &end, 10);
				s->used[j] = true;
				if (*o->value < '0' || *o->value > '9' || *end || v < 68 || v > 65535)
					import_note(&b->notes, "not carried over: mtu %.20s (%s)", o->value,
						    from);
				else
					b->mtu = (uint32_t)v;
			}
		}
		bond_address(b, s);
		if (strcmp(s->method, "dhcp") == 0 || strcmp(s->method, "auto") == 0)
			import_note(&b->notes, "not carried over: iface %s %s %s (%s:%u): bondd sets "
				    "static addresses only", name, s->family, s->method, s->file, s->line);
		note_rest(b, s);
		slave_list(u, b, s);
	}
	/* Slaves that name the bond. */
	for (size_t i = 0; i < u->n_st; i++) {
		struct ifu_stanza *s = &u->st[i];
		const char *m = opt_get(s, "bond-master");
		char from[320];
		if (!m || strcmp(m, name) != 0)
			continue;
		snprintf(from, sizeof(from), "%s:%u", s->file, s->line);
		const char *mtu = opt_get(s, "mtu");
		ifupdown_mark(s, "mtu");
		if (mtu)
			import_note(&b->notes, "mtu %.20s of slave %s (%s) is not carried over: the "
				    "kernel gives every slave the bond's MTU", mtu, s->name, from);
		if (import_add_slave(b, s->name, from))
			note_rest(b, s);
	}
	/* Stacked on the bond: named, not made. */
	size_t nlen = strlen(name);
	for (size_t i = 0; i < u->n_st; i++) {
		const struct ifu_stanza *s = &u->st[i];
		const char *raw = opt_get(s, "vlan-raw-device");
		const char *ports = opt_get(s, "bridge-ports");
		if (!ports)
			ports = opt_get(s, "bridge_ports");
		bool dotted = strncmp(s->name, name, nlen) == 0 && s->name[nlen] == '.' &&
			      s->name[nlen + 1];
		if ((raw && strcmp(raw, name) == 0) || dotted) {
			import_note(&b->notes, "not carried over: VLAN %s on %s (%s:%u): bondd makes the "
				    "bond only; keep the VLAN in ifupdown, with the companion below",
				    s->name, name, s->file, s->line);
			import_add_vlan(b, s->name, s->file);
		}
		if (ports) {
			char copy[512];
			snprintf(copy, sizeof(copy), "%s", ports);
			for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t;
			     t = strtok_r(NULL, " \t", &save))
				if (strcmp(t, name) == 0) {
					import_note(&b->notes, "not carried over: %s is a port of bridge "
						    "%s (%s:%u): keep the bridge in ifupdown; bondd puts "
						    "the bond back in it (bridge =)", name, s->name,
						    s->file, s->line);
					import_set_bridge(b, s->name, s->file);
				}
		}
	}
}

int import_ifupdown(const struct import_file *files, size_t n, struct import_result *out)
{
	struct ifu u = {.r = out, .files = files, .n_files = n};
	int err = -ENOMEM;

	out->format = "ifupdown";
	u.seen = calloc(n ? n : 1, sizeof(*u.seen));
	if (!u.seen)
		goto out;
	/* Each file given in turn; one a source line reached is not read again. */
	for (size_t i = 0; i < n && !u.oom; i++)
		read_file(&u, i, 0);
	if (u.oom)
		goto out;
	for (size_t i = 0; i < u.n_st; i++) {
		u.st[i].used = calloc(u.st[i].n_opts ? u.st[i].n_opts : 1, sizeof(bool));
		if (!u.st[i].used)
			goto out;
	}
	/* Bonds in the order their first stanza is read, then those only
	 * named by bond-master. */
	for (size_t i = 0; i < u.n_st; i++) {
		const char *name = u.st[i].name;
		bool earlier = false;
		for (size_t j = 0; j < i && !earlier; j++)
			earlier = strcmp(u.st[j].name, name) == 0;
		if (earlier || import_find_bond(out, name))
			continue;
		bool own = any_bond_keys(&u, name);
		if (!own && !named_master(&u, name))
			continue;
		const char *why = own ? NULL : not_a_bond(&u, name, own);
		if (why) {
			for (size_t j = 0; j < u.n_st; j++) {
				const char *m = opt_get(&u.st[j], "bond-master");
				if (m && strcmp(m, name) == 0)
					import_note(&out->notes, "not carried over: %s:%u: %s names "
						    "bond-master %.40s, which is no bond (%s): not made "
						    "a bond; a typo?", u.st[j].file, u.st[j].line,
						    u.st[j].name, name, why);
			}
			continue;
		}
		read_bond(&u, name);
	}
	for (size_t i = 0; i < u.n_st; i++) {
		const char *m = opt_get(&u.st[i], "bond-master");
		if (m && !import_find_bond(out, m)) {
			bool defined = false;
			for (size_t j = 0; j < u.n_st && !defined; j++)
				defined = strcmp(u.st[j].name, m) == 0;
			if (!defined)
				import_note(&out->notes, "%s:%u: %s names bond-master %.40s, which no "
					    "iface stanza read defines", u.st[i].file, u.st[i].line,
					    u.st[i].name, m);
		}
	}
	err = import_result_oom(out);
out:
	for (size_t i = 0; i < u.n_st; i++) {
		free(u.st[i].opts);
		free(u.st[i].used);
	}
	free(u.st);
	free(u.autos);
	free(u.seen);
	return err;
}
