/* SPDX-License-Identifier: MIT */
/* Values: numbers, MACs and addresses, and the kernel's bond options by their
 * row in the option table. */
#include "config_parser.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small value parsers ----------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

char *trim(char *s)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Next item of a list separated by blanks and/or commas, or NULL. */
char *next_item(char **cursor)
{
	char *s = *cursor;

	while (*s == ',' || is_blank(*s))
		s++;
	if (!*s) {
		*cursor = s;
		return NULL;
	}
	char *item = s;
	while (*s && *s != ',' && !is_blank(*s))
		s++;
	if (*s)
		*s++ = '\0';
	*cursor = s;
	return item;
}

/* Plain decimal, nothing else: no sign, no base prefix, no blanks. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			v = max + 1; /* keep scanning: a later letter is -EINVAL */
		else
			v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;
	int err = parse_u64(s, max, &v);

	if (err)
		return err;
	if (v < min)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_s32(const char *s, int32_t *out)
{
	bool neg = *s == '-';
	uint64_t v;
	int err = parse_u64(s + neg, neg ? UINT64_C(2147483648) : INT32_MAX, &v);

	if (err)
		return err;
	*out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly aa:bb:cc:dd:ee:ff, as the kernel's mac_pton wants it. */
int parse_boolean(const char *s)
{
	static const char *const yes[] = {"1", "yes", "y", "true", "t", "on"};
	static const char *const no[] = {"0", "no", "n", "false", "f", "off"};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* An option whose words are the kernel's off and on (use_carrier,
 * all_slaves_active, lacp_active, ...): a boolean key. */
static bool off_on_option(const struct bond_option_spec *d)
{
	return d->names && d->names[0].name && d->names[1].name && !d->names[2].name &&
	       strcmp(d->names[0].name, "off") == 0 && d->names[0].value == 0 &&
	       strcmp(d->names[1].name, "on") == 0 && d->names[1].value == 1;
}

bool parse_mac(const char *s, uint8_t mac[6])
{
	if (strlen(s) != 17)
		return false;
	for (int i = 0; i < 6; i++) {
		int hi = hex_digit(s[3 * i]), lo = hex_digit(s[3 * i + 1]);
		if (hi < 0 || lo < 0 || (i < 5 && s[3 * i + 2] != ':'))
			return false;
		mac[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

bool ip4_is_multicast(const struct in_addr *a)
{
	return (ntohl(a->s_addr) & 0xf0000000u) == 0xe0000000u;
}

/* ---- the result being built --------------------------------------------- */

/* Lookups by name go through hash tables: a search through every bond
 * (and every slave) for each name read made parsing quadratic. */
const struct desired_bond *find_built(const struct parser *p, const char *name)
{
	size_t i;
	return name_map_get(&p->bond_at, name, &i) ? &p->bonds[i] : NULL;
}

const struct desired_bond *find_slave_built(const struct parser *p,
						   const char *slave, size_t *index)
{
	return name_map_get(&p->slave_of, slave, index) ? &p->bonds[*index] : NULL;
}

int append_bond(struct parser *p, const struct desired_bond *b, unsigned slaves_line)
{
	if (p->n_bonds == p->cap_bonds) {
		size_t cap = p->cap_bonds ? p->cap_bonds * 2 : 4;
		struct desired_bond *v = realloc(p->bonds, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		p->bonds = v;
		unsigned *l = realloc(p->slaves_line, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		p->slaves_line = l;
		unsigned *f = realloc(p->file_of, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		p->file_of = f;
		p->cap_bonds = cap;
	}
	if (name_map_put(&p->bond_at, b->name, p->n_bonds) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < b->n_slaves; i++)
		if (name_map_put(&p->slave_of, b->slaves[i].name, p->n_bonds) < 0)
			return -ENOMEM;
	p->bonds[p->n_bonds] = *b;
	p->bonds[p->n_bonds].slaves_line = slaves_line;
	p->bonds[p->n_bonds].file_no = p->file_no;
	p->slaves_line[p->n_bonds] = slaves_line;
	p->file_of[p->n_bonds] = p->file_no;
	p->n_bonds++;
	return 0;
}

int slave_index(const struct desired_bond *b, const char *name)
{
	struct slave_selector sel;

	/* A selector is found by what it names (mac:AA:.. is mac:aa:..). */
	if (slave_selector_parse(name, &sel) == NULL) {
		for (size_t i = 0; i < b->n_slaves; i++)
			if (slave_selector_equal(&b->slaves[i].sel, &sel))
				return (int)i;
		return -1;
	}
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- values of the kernel's options -------------------------------------- */

/* "balance-rr, active-backup, ... or 0-6" */
static void expected_values(const struct bond_option_spec *d, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!d->names) {
		snprintf(buf, len, "a number %u-%u", d->min, d->max);
		return;
	}
	for (const struct bond_option_word *n = d->names; n->name && o < len; n++)
		o += (size_t)snprintf(buf + o, len - o, "%s, ", n->name);
	if (o >= 2 && o < len) {
		o -= 2;
		snprintf(buf + o, len - o, " or %u-%u", d->min, d->max);
	}
}

static bool parse_scalar(struct parser *p, const struct bond_option_spec *d, const char *key,
			 const char *val)
{
	struct bond_settings *o = &p->sec.b.opts;
	struct shown sh;
	uint32_t v;
	/* on, off, 1 and 0 as the kernel takes them; yes, no, true, false
	 * too, as for every boolean key */
	int b = off_on_option(d) ? parse_boolean(val) : -1;
	int err = b >= 0 ? 0 : bond_option_parse_scalar(d, val, &v);
	if (b >= 0)
		v = (uint32_t)b;

	if (err == -ERANGE) {
		errorf(p, p->line, "%s: %s is out of range %u-%u", key, show(&sh, val),
		       d->min, d->max);
		return false;
	}
	if (err) {
		char expect[256], hint[128];
		expected_values(d, expect, sizeof(expect));
		config_hint_value(d, val, hint, sizeof(hint));
		errorf(p, p->line, "%s: invalid value \"%s\" (expected %s)%s", key, show(&sh, val),
		       expect, hint);
		return false;
	}
	bond_settings_set(o, d->id, v);
	return true;
}

/* Addresses that cannot be probed: 0.0.0.0/8 and the limited broadcast
 * for ARP, the unspecified, loopback and multicast ones for NS. */
static bool target_ok(int af, const void *a)
{
	if (af == AF_INET) {
		uint32_t h = ntohl(((const struct in_addr *)a)->s_addr);
		return (h & 0xff000000u) != 0 && h != 0xffffffffu;
	}
	const struct in6_addr *a6 = a;
	return !IN6_IS_ADDR_UNSPECIFIED(a6) && !IN6_IS_ADDR_LOOPBACK(a6) &&
	       !IN6_IS_ADDR_MULTICAST(a6);
}

/* arp_ip_target (AF_INET) or ns_ip6_target (AF_INET6): a list of at most
 * BOND_MAX_TARGETS distinct addresses; every bad item is named. */
static bool parse_target_list(struct parser *p, const char *key, char *val, int af)
{
	struct bond_settings *o = &p->sec.b.opts;
	bool v6 = af == AF_INET6;
	size_t len = v6 ? sizeof(struct in6_addr) : sizeof(struct in_addr);
	unsigned char *list = v6 ? (unsigned char *)o->ns_ip6_target
				 : (unsigned char *)o->arp_ip_target;
	struct shown sh;
	bool ok = true, full = false;
	unsigned n = 0;

	for (char *item; (item = next_item(&val));) {
		union {
			struct in_addr v4;
			struct in6_addr v6;
		} a;
		if (inet_pton(af, item, &a) != 1) {
			errorf(p, p->line, "%s: invalid %s address \"%s\"", key, v6 ? "IPv6" : "IPv4",
			       show(&sh, item));
			ok = false;
			continue;
		}
		if (!target_ok(af, &a)) {
			errorf(p, p->line, "%s: %s cannot be a target", key, item);
			ok = false;
			continue;
		}
		bool dup = false;
		for (unsigned i = 0; i < n && !dup; i++)
			dup = memcmp(list + i * len, &a, len) == 0;
		if (dup) {
			errorf(p, p->line, "%s: %s is listed twice", key, item);
			ok = false;
		} else if (n == BOND_MAX_TARGETS) {
			if (!full)
				errorf(p, p->line, "%s: more than %d targets", key, BOND_MAX_TARGETS);
			full = true;
			ok = false;
		} else {
			memcpy(list + n++ * len, &a, len);
		}
	}
	if (v6)
		o->n_ns_ip6_target = n;
	else
		o->n_arp_ip_target = n;
	return ok;
}

static bool parse_actor_system(struct parser *p, const char *key, const char *val)
{
	struct bond_settings *o = &p->sec.b.opts;
	static const uint8_t zero[6];
	struct shown sh;
	uint8_t mac[6];

	if (!parse_mac(val, mac)) {
		errorf(p, p->line, "%s: invalid MAC address \"%s\" (expected aa:bb:cc:dd:ee:ff)",
		       key, show(&sh, val));
		return false;
	}
	if (mac[0] & 1) {
		errorf(p, p->line, "%s: %s is a multicast address", key, val);
		return false;
	}
	/* All-zero means "use the bond's own MAC": leave the option out instead. */
	if (memcmp(mac, zero, sizeof(zero)) == 0) {
		errorf(p, p->line, "%s: %s is not a usable system address", key, val);
		return false;
	}
	memcpy(o->ad_actor_system, mac, sizeof(mac));
	return true;
}

/* primary = a slave as slaves = names it; check_primary finds which. */
static bool parse_primary(struct parser *p, const char *key, const char *val)
{
	struct slave_selector sel;
	const char *why = slave_selector_parse(val, &sel);
	struct shown sh;

	if (why) {
		errorf(p, p->line, "%s: invalid %s \"%s\": %s", key,
		       slave_selector_noun(sel.kind), show(&sh, val), why);
		return false;
	}
	snprintf(p->sec.primary_text, sizeof(p->sec.primary_text), "%s", val);
	return true;
}

static bool parse_opt_value(struct parser *p, const struct bond_option_spec *d, const char *key,
			    char *val)
{
	struct bond_settings *o = &p->sec.b.opts;
	bool ok;

	switch (d->type) {
	case OT_IP4_LIST:
		ok = parse_target_list(p, key, val, AF_INET);
		break;
	case OT_IP6_LIST:
		ok = parse_target_list(p, key, val, AF_INET6);
		break;
	case OT_MAC:
		ok = parse_actor_system(p, key, val);
		break;
	case OT_IFNAME:
		ok = parse_primary(p, key, val);
		break;
	default:
		return parse_scalar(p, d, key, val);
	}
	if (ok)
		o->have |= OPT_BIT(d->id);
	return ok;
}

void parse_option(struct parser *p, const struct bond_option_spec *d, const char *key,
			 char *val)
{
	struct section *s = &p->sec;

	if (s->opt_line[d->id]) {
		errorf(p, p->line, "duplicate key \"%s\" (first on line %u)", key,
		       s->opt_line[d->id]);
		return;
	}
	s->opt_line[d->id] = p->line;
	s->opt_key[d->id] = strcmp(key, d->key) == 0 ? d->key : d->alias;
	if (!parse_opt_value(p, d, key, val))
		s->bad |= OPT_BIT(d->id);
}
