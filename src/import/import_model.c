/* SPDX-License-Identifier: MIT */
/*
 * The plain data the import readers fill (import.h), and the helpers they
 * share.  Every string that ends up in bondd.conf passes through here and is
 * refused when it holds a byte that would change the meaning of the output
 * (a control character, a '#' that would start a comment, '[' or '=' in a
 * name): the source files are input from disk, not trusted.
 */
#include "import.h"
#include "ifname.h"
#include "selector.h"
#include "grow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bond_option_table.h"

void import_result_free(struct import_result *r)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		sb_free(&r->bonds[i].notes);
	free(r->bonds);
	sb_free(&r->notes);
	r->bonds = NULL;
	r->n_bonds = r->cap_bonds = 0;
}

void import_note(struct strbuf *notes, const char *fmt, ...)
{
	char text[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* A note is one comment line whatever the source held. */
	for (char *c = text; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
			*c = '?';
	sb_printf(notes, "# %s\n", text);
}

/* Text that can stand in bondd.conf as a value: printable, no comment. */
static bool safe_value(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f || *s == '#')
			return false;
	return true;
}

/* An interface name as bondd.conf can hold it (the parser checks the rest). */
static bool safe_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= IFNAMSIZ)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f || *s == '#' ||
		    *s == '[' || *s == ']' || *s == '=' || *s == ',' || *s == '/' || *s == ':')
			return false;
	return true;
}

int import_result_oom(const struct import_result *r)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		if (r->bonds[i].notes.oom)
			return -ENOMEM;
	return r->notes.oom ? -ENOMEM : 0;
}

struct import_bond *import_find_bond(struct import_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		if (strcmp(r->bonds[i].name, name) == 0)
			return &r->bonds[i];
	return NULL;
}

struct import_bond *import_add_bond(struct import_result *r, const char *name,
				    const char *source)
{
	if (!safe_name(name)) {
		import_note(&r->notes, "not carried over: a bond named \"%.40s\" (%s): not a "
			    "usable interface name", name, source);
		return NULL;
	}
	if (import_find_bond(r, name)) {
		import_note(&r->notes, "not carried over: %s defines %s again; the first "
			    "definition is kept", source, name);
		return NULL;
	}
	if (r->n_bonds == IMPORT_MAX_BONDS) {
		import_note(&r->notes, "not carried over: %s (%s): more than %d bonds", name,
			    source, IMPORT_MAX_BONDS);
		return NULL;
	}
	struct import_bond *b = grow_append(&r->bonds, &r->cap_bonds, &r->n_bonds, sizeof(*b), 4,
					    NULL);
	if (!b)
		return NULL;
	snprintf(b->name, sizeof(b->name), "%s", name);
	snprintf(b->source, sizeof(b->source), "%s", source);
	return b;
}

const char *import_get_opt(const struct import_bond *b, const char *key)
{
	for (size_t i = 0; i < b->n_opts; i++)
		if (strcmp(b->opts[i].key, key) == 0)
			return b->opts[i].value;
	return NULL;
}

bool import_set_opt(struct import_bond *b, const char *key, const char *value,
		    const char *from)
{
	const struct bond_option_spec *d = bond_option_by_key(key);

	if (!d) {
		import_note(&b->notes, "not carried over: %.60s=%.80s (%s): not a bonding option "
			    "bondd manages", key, value, from);
		return false;
	}
	if (!safe_value(value) || strlen(value) >= sizeof(b->opts[0].value)) {
		import_note(&b->notes, "not carried over: %s (%s): its value cannot be written "
			    "in bondd.conf", key, from);
		return false;
	}
	for (size_t i = 0; i < b->n_opts; i++) {
		/* The last one wins, as it does when the kernel is told twice;
		 * an alias counts as its option. */
		if (bond_option_by_key(b->opts[i].key) == d) {
			snprintf(b->opts[i].value, sizeof(b->opts[i].value), "%s", value);
			return true;
		}
	}
	if (b->n_opts == IMPORT_MAX_OPTS)
		return false;
	snprintf(b->opts[b->n_opts].key, sizeof(b->opts[0].key), "%s", d->key);
	snprintf(b->opts[b->n_opts].value, sizeof(b->opts[0].value), "%s", value);
	b->n_opts++;
	return true;
}

bool import_add_slave(struct import_bond *b, const char *name, const char *from)
{
	if (!safe_name(name)) {
		import_note(&b->notes, "not carried over: a slave named \"%.40s\" (%s): not a "
			    "usable interface name", name, from);
		return false;
	}
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i], name) == 0)
			return true;
	if (b->n_slaves == BONDD_MAX_SLAVES) {
		import_note(&b->notes, "not carried over: slave %s (%s): more than %d slaves",
			    name, from, BONDD_MAX_SLAVES);
		return false;
	}
	snprintf(b->slaves[b->n_slaves++], sizeof(b->slaves[0]), "%s", name);
	return true;
}

bool import_add_slave_by(struct import_bond *b, const char *kind, const char *value,
			 const char *from)
{
	char text[SEL_TEXT_MAX];
	struct slave_selector sel, other;
	const char *why = NULL;

	if (strpbrk(value, "*?[") || !safe_value(value))
		why = "a pattern or an unusual value, which bondd cannot match";
	else if (snprintf(text, sizeof(text), "%s:%s", kind, value) >= (int)sizeof(text))
		why = "too long";
	else {
		/* 00-11-22-33-44-55 is the same address (systemd.net-naming). */
		if (strcmp(kind, "mac") == 0)
			for (char *c = text + 4; *c; c++)
				if (*c == '-')
					*c = ':';
		why = slave_selector_parse(text, &sel);
	}
	if (why) {
		import_note(&b->notes, "not carried over: %s %.60s (%s): %s", kind, value, from, why);
		return false;
	}
	for (size_t i = 0; i < b->n_slaves; i++)
		if (!slave_selector_parse(b->slaves[i], &other) && slave_selector_equal(&sel, &other))
			return true;
	if (b->n_slaves == BONDD_MAX_SLAVES) {
		import_note(&b->notes, "not carried over: slave %s (%s): more than %d slaves", text,
			    from, BONDD_MAX_SLAVES);
		return false;
	}
	snprintf(b->slaves[b->n_slaves++], sizeof(b->slaves[0]), "%s", text);
	return true;
}

bool import_add_addr(struct import_bond *b, const char *cidr, const char *from)
{
	if (!safe_value(cidr) || strlen(cidr) >= sizeof(b->addrs[0]) || strchr(cidr, ' ')) {
		import_note(&b->notes, "not carried over: address \"%.60s\" (%s)", cidr, from);
		return false;
	}
	for (size_t i = 0; i < b->n_addrs; i++)
		if (strcmp(b->addrs[i], cidr) == 0)
			return true;
	if (b->n_addrs == BONDD_MAX_ADDRS) {
		import_note(&b->notes, "not carried over: address %s (%s): more than %d "
			    "addresses", cidr, from, BONDD_MAX_ADDRS);
		return false;
	}
	snprintf(b->addrs[b->n_addrs++], sizeof(b->addrs[0]), "%s", cidr);
	return true;
}

int import_netmask_prefix(const char *mask)
{
	struct in_addr a;

	if (inet_pton(AF_INET, mask, &a) != 1)
		return -1;
	uint32_t m = ntohl(a.s_addr);
	int prefix = 0;
	while (prefix < 32 && (m & (UINT32_C(1) << (31 - prefix))))
		prefix++;
	/* The bits after the first zero must all be zero. */
	if (prefix < 32 && (m & (UINT32_MAX >> prefix)))
		return -1;
	return prefix;
}

/* ---- ini-style files ----------------------------------------------------- */

int ini_open(struct ini_cursor *c, const struct import_file *in)
{
	memset(c, 0, sizeof(*c));
	c->copy = malloc(in->len + 1);
	if (!c->copy)
		return -ENOMEM;
	memcpy(c->copy, in->text, in->len);
	c->copy[in->len] = '\0';
	c->at = c->copy;
	c->end = c->copy + in->len;
	c->name = in->name;
	return 0;
}

void ini_close(struct ini_cursor *c)
{
	free(c->copy);
	c->copy = c->at = c->end = NULL;
}

static char *trim_blanks(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

bool ini_next(struct ini_cursor *c)
{
	while (c->at && c->at < c->end) {
		char *s = c->at;
		char *nl = memchr(s, '\n', (size_t)(c->end - s));
		if (nl) {
			*nl = '\0';
			c->at = nl + 1;
		} else {
			c->at = c->end;
		}
		c->line++;
		/* A NUL inside the line ends it: what follows is not read. */
		s = trim_blanks(s);
		if (*s == '\0' || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			if (!close) {
				c->bad_lines++;
				continue;
			}
			*close = '\0';
			snprintf(c->section, sizeof(c->section), "%s", s + 1);
			continue;
		}
		char *eq = strchr(s, '=');
		if (!eq || eq == s) {
			c->bad_lines++;
			continue;
		}
		*eq = '\0';
		c->key = trim_blanks(s);
		c->val = trim_blanks(eq + 1);
		snprintf(c->from, sizeof(c->from), "%s:%u", c->name, c->line);
		return true;
	}
	return false;
}

const char *import_kv_get(const struct import_kv *v, size_t n, const char *key)
{
	for (size_t i = n; i-- > 0;)
		if (strcmp(v[i].key, key) == 0)
			return v[i].value;
	return NULL;
}

void import_kv_mark(const struct import_kv *v, bool *used, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].key, key) == 0)
			used[i] = true;
}

/* An upper's name: one the kernel would take (so the companion's text is
 * safe to print), else a note. */
static bool upper_name(struct import_bond *b, const char *what, const char *name,
		       const char *from)
{
	const char *why = ifname_problem(name);
	if (why)
		import_note(&b->notes, "%s \"%.40s\" on %s (%s) is left out of the companion: %s",
			    what, name, b->name, from, why);
	return !why;
}

void import_add_vlan(struct import_bond *b, const char *name, const char *from)
{
	if (!upper_name(b, "VLAN", name, from))
		return;
	for (size_t i = 0; i < b->n_vlans; i++)
		if (strcmp(b->vlans[i], name) == 0)
			return;
	if (b->n_vlans == IMPORT_MAX_VLANS) {
		import_note(&b->notes, "VLAN %s on %s (%s) is left out of the companion: more "
			    "than %d VLANs", name, b->name, from, IMPORT_MAX_VLANS);
		return;
	}
	snprintf(b->vlans[b->n_vlans++], sizeof(b->vlans[0]), "%s", name);
}

void import_set_bridge(struct import_bond *b, const char *name, const char *from)
{
	if (!upper_name(b, "bridge", name, from) || strcmp(b->bridge, name) == 0)
		return;
	if (*b->bridge) {
		import_note(&b->notes, "%s is named a port of bridge %s as well (%s); a link is "
			    "a port of one bridge: the companion keeps %s", b->name, name, from,
			    b->bridge);
		return;
	}
	snprintf(b->bridge, sizeof(b->bridge), "%s", name);
}
