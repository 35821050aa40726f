/* SPDX-License-Identifier: MIT */
/*
 * The config file parser.
 *
 * One pass over the lines fills one section at a time; a section is checked
 * as a whole when it ends (options may come before the mode they depend on),
 * and the file as a whole at the end (a bond may be named after a slave of an
 * earlier section).  Errors never stop the pass: the user gets every problem
 * in one go, and only a clean file replaces the caller's state.
 */
#include "config.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "bond_rules.h"

#include "ifname.h"
#include "name_map.h"

#include "config_hints.h"

#define MAX_LINE 4096            /* bytes in a line, newline excluded */
#define MAX_FILE (1024 * 1024)   /* config_load refuses anything bigger */
#define MAX_BONDS 1024           /* bounds memory on hostile input */
#define MAX_ERRORS 1000          /* then the rest is noise */
/* queue_id and prio, or queue_id and actor_port_prio: prio is for
 * active-backup, balance-tlb and balance-alb, actor_port_prio for 802.3ad. */
#define MAX_SLAVE_KEYS (2 * BONDD_MAX_SLAVES)
#define SHOW_MAX 64              /* input bytes quoted in a message */
#define MAX_DROPINS 256          /* files in bondd.conf.d */


/* Per-slave prio matters only where the bond picks one active slave. */
#define PRIO_MODES (MODE_BIT(MODE_ACTIVE_BACKUP) | MODE_BIT(MODE_BALANCE_TLB) | \
		    MODE_BIT(MODE_BALANCE_ALB))

#define MTU_MIN 68
#define MTU_MAX 65535

enum slave_attr { SA_QUEUE_ID, SA_PRIO, SA_ACTOR_PORT_PRIO };
static const char *const slave_attr_names[] = {"queue_id", "prio", "actor_port_prio"};

/* A slave.NAME.ATTR line, kept until the section's slaves are known. */
struct slave_key {
	char name[IFNAMSIZ];
	enum slave_attr attr;
	int64_t value;
	unsigned line;
};

struct section {
	struct desired_bond b;
	bool keep;                        /* a valid new name: part of the result */
	unsigned opt_line[OPT__COUNT];    /* 0: not given */
	const char *opt_key[OPT__COUNT];  /* the spelling used, for messages */
	uint64_t bad;                     /* OPT_BIT of options with a refused value */
	unsigned mtu_line, slaves_line;
	unsigned keep_order_line, state_line;
	unsigned link_check_line;         /* 0: not given, the mode's default */
	unsigned link_topology_line;      /* 0: not given (per-port) */
	unsigned tcp_cc_line, single_stream_line;
	unsigned mac_line;                /* mac_address */
	unsigned addr_line[BONDD_MAX_ADDRS];
	struct slave_key sk[MAX_SLAVE_KEYS];
	size_t n_sk;
	/* A drop-in's section for a bond of an earlier file: 1 + its index in
	 * parser.bonds; it may only add addresses.  0: a section of its own. */
	size_t extends;
};

struct error {
	unsigned file_no;          /* 0: the main file, then the drop-ins in order */
	unsigned line;
	size_t seq;
	char *msg;
};

struct parser {
	const char *file;
	unsigned file_no;          /* index of file in files */
	const char *files[1 + MAX_DROPINS];
	struct config_diag *diag;
	unsigned line;
	struct error *errors;
	size_t n_errors, cap_errors;
	struct error *warns;       /* like errors, but they fail nothing */
	size_t n_warns, cap_warns;
	int fatal;                 /* -ENOMEM: stop and report that */
	bool stop;                 /* too many errors */
	unsigned stop_line;
	const char *stop_file;
	struct desired_bond *bonds;
	unsigned *slaves_line;     /* parallel to bonds: line of their slaves key */
	unsigned *file_of;         /* parallel to bonds: the file_no they are in */
	size_t n_bonds, cap_bonds;
	struct name_map bond_at;   /* name of a bond -> its index in bonds */
	struct name_map slave_of;  /* name of a slave -> index of its bond */
	bool in_section;
	struct section sec;
};

/* ---- messages ---------------------------------------------------------- */

void config_diag_free(struct config_diag *diag)
{
	if (!diag)
		return;
	for (size_t i = 0; i < diag->n; i++)
		free(diag->msgs[i]);
	free(diag->msgs);
	diag->msgs = NULL;
	diag->n = diag->cap = 0;
	for (size_t i = 0; i < diag->n_warnings; i++)
		free(diag->warnings[i]);
	free(diag->warnings);
	diag->warnings = NULL;
	diag->n_warnings = diag->cap_warnings = 0;
}

/* Appends msg to a list, taking it over (freed on failure too). */
static int msgs_push(char ***msgs, size_t *n, size_t *cap, char *msg)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		char **v = realloc(*msgs, c * sizeof(*v));
		if (!v) {
			free(msg);
			return -ENOMEM;
		}
		*msgs = v;
		*cap = c;
	}
	(*msgs)[(*n)++] = msg;
	return 0;
}

static int diag_push(struct config_diag *diag, char *msg)
{
	if (!diag) {
		free(msg);
		return 0;
	}
	return msgs_push(&diag->msgs, &diag->n, &diag->cap, msg);
}

static int diag_push_warning(struct config_diag *diag, char *msg)
{
	if (!diag) {
		free(msg);
		return 0;
	}
	return msgs_push(&diag->warnings, &diag->n_warnings, &diag->cap_warnings, msg);
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : msg;
}

/*
 * Records "FILE:LINE: message" for the given line (not always the current
 * one: section checks point at the option's own line).  Messages are handed
 * over sorted by line once the whole file is read.
 */
static void errorf(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void errorf(struct parser *p, unsigned line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (p->stop || p->fatal)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (p->n_errors == p->cap_errors) {
		size_t cap = p->cap_errors ? p->cap_errors * 2 : 8;
		struct error *v = realloc(p->errors, cap * sizeof(*v));
		if (!v) {
			p->fatal = -ENOMEM;
			return;
		}
		p->errors = v;
		p->cap_errors = cap;
	}
	char *msg = format("%s:%u: %s", p->file, line, text);
	if (!msg) {
		p->fatal = -ENOMEM;
		return;
	}
	p->errors[p->n_errors] = (struct error){p->file_no, line, p->n_errors, msg};
	p->n_errors++;
	if (p->n_errors == MAX_ERRORS) {
		p->stop = true;
		p->stop_line = p->line;
		p->stop_file = p->file;
	}
}

/* Like errorf, for a warning: "FILE:LINE: warning: message". */
static void warnf(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warnf(struct parser *p, unsigned line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	if (p->fatal || p->n_warns >= MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (p->n_warns == p->cap_warns) {
		size_t cap = p->cap_warns ? p->cap_warns * 2 : 8;
		struct error *v = realloc(p->warns, cap * sizeof(*v));
		if (!v) {
			p->fatal = -ENOMEM;
			return;
		}
		p->warns = v;
		p->cap_warns = cap;
	}
	char *msg = format("%s:%u: warning: %s", p->file, line, text);
	if (!msg) {
		p->fatal = -ENOMEM;
		return;
	}
	p->warns[p->n_warns] = (struct error){p->file_no, line, p->n_warns, msg};
	p->n_warns++;
}

static int by_line(const void *a, const void *b)
{
	const struct error *x = a, *y = b;

	if (x->file_no != y->file_no)
		return x->file_no < y->file_no ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Hands the messages to diag in line order; a line's own messages keep the
 * order they were found in. */
static int flush_errors(struct parser *p)
{
	int err = 0;

	if (p->n_errors > 1)
		qsort(p->errors, p->n_errors, sizeof(p->errors[0]), by_line);
	for (size_t i = 0; i < p->n_errors; i++) {
		if (!err)
			err = diag_push(p->diag, p->errors[i].msg);
		else
			free(p->errors[i].msg);
	}
	p->n_errors = 0;
	if (!err && p->stop) {
		char *msg = format("%s:%u: too many errors, giving up", p->stop_file, p->stop_line);
		err = msg ? diag_push(p->diag, msg) : -ENOMEM;
	}
	if (p->n_warns > 1)
		qsort(p->warns, p->n_warns, sizeof(p->warns[0]), by_line);
	for (size_t i = 0; i < p->n_warns; i++) {
		if (!err)
			err = diag_push_warning(p->diag, p->warns[i].msg);
		else
			free(p->warns[i].msg);
	}
	p->n_warns = 0;
	return err;
}

/* Where bond i of the result is defined: "line N" in the file being read,
 * "FILE:N" in another one. */
static const char *where(const struct parser *p, size_t i, unsigned line, char *buf, size_t len)
{
	if (p->file_of[i] == p->file_no)
		snprintf(buf, len, "line %u", line);
	else
		snprintf(buf, len, "%s:%u", p->files[p->file_of[i]], line);
	return buf;
}

/* Input text made safe to print: the file may hold any byte, and a message
 * ends up on a terminal or in the journal. */
struct shown {
	char s[SHOW_MAX * 4 + 4];
};

static const char *show(struct shown *buf, const char *text)
{
	size_t o = 0;

	for (size_t i = 0; text[i]; i++) {
		unsigned char c = (unsigned char)text[i];
		if (i == SHOW_MAX) {
			memcpy(buf->s + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf->s[o++] = (char)c;
		else
			o += (size_t)snprintf(buf->s + o, sizeof(buf->s) - o, "\\x%02x", c);
	}
	buf->s[o] = '\0';
	return buf->s;
}

/* ---- small value parsers ----------------------------------------------- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static char *trim(char *s)
{
	while (is_blank(*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Next item of a list separated by blanks and/or commas, or NULL. */
static char *next_item(char **cursor)
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

static int parse_range(const char *s, uint64_t min, uint64_t max, uint64_t *out)
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

static int parse_s32(const char *s, int32_t *out)
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
static bool parse_mac(const char *s, uint8_t mac[6])
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

static bool ip4_is_multicast(const struct in_addr *a)
{
	return (ntohl(a->s_addr) & 0xf0000000u) == 0xe0000000u;
}

/* ---- the result being built --------------------------------------------- */

/* Lookups by name go through hash tables: a search through every bond
 * (and every slave) for each name read made parsing quadratic. */
static const struct desired_bond *find_built(const struct parser *p, const char *name)
{
	size_t i;
	return name_map_get(&p->bond_at, name, &i) ? &p->bonds[i] : NULL;
}

static const struct desired_bond *find_slave_built(const struct parser *p,
						   const char *slave, size_t *index)
{
	return name_map_get(&p->slave_of, slave, index) ? &p->bonds[*index] : NULL;
}

static int append_bond(struct parser *p, const struct desired_bond *b, unsigned slaves_line)
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
	p->slaves_line[p->n_bonds] = slaves_line;
	p->file_of[p->n_bonds] = p->file_no;
	p->n_bonds++;
	return 0;
}

static int slave_index(const struct desired_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- values of the kernel's options -------------------------------------- */

/* "balance-rr, active-backup, ... or 0-6" */
static void expected_values(const struct bond_opt_desc *d, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!d->names) {
		snprintf(buf, len, "a number %u-%u", d->min, d->max);
		return;
	}
	for (const struct bond_opt_name *n = d->names; n->name && o < len; n++)
		o += (size_t)snprintf(buf + o, len - o, "%s, ", n->name);
	if (o >= 2 && o < len) {
		o -= 2;
		snprintf(buf + o, len - o, " or %u-%u", d->min, d->max);
	}
}

static bool parse_scalar(struct parser *p, const struct bond_opt_desc *d, const char *key,
			 const char *val)
{
	struct bond_opts *o = &p->sec.b.opts;
	struct shown sh;
	uint32_t v;
	int err = bond_opt_parse_scalar(d, val, &v);

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
	bond_opts_set(o, d->id, v);
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
	struct bond_opts *o = &p->sec.b.opts;
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
	struct bond_opts *o = &p->sec.b.opts;
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

static bool parse_primary(struct parser *p, const char *key, const char *val)
{
	struct bond_opts *o = &p->sec.b.opts;
	const char *why = ifname_problem(val);
	struct shown sh;

	if (why) {
		errorf(p, p->line, "%s: invalid interface name \"%s\": %s", key, show(&sh, val), why);
		return false;
	}
	snprintf(o->primary, sizeof(o->primary), "%s", val);
	return true;
}

static bool parse_opt_value(struct parser *p, const struct bond_opt_desc *d, const char *key,
			    char *val)
{
	struct bond_opts *o = &p->sec.b.opts;
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

static void parse_option(struct parser *p, const struct bond_opt_desc *d, const char *key,
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

/* ---- bondd's own keys ---------------------------------------------------- */

static void parse_mtu(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	struct shown sh;
	uint64_t v;

	if (s->mtu_line) {
		errorf(p, p->line, "duplicate key \"mtu\" (first on line %u)", s->mtu_line);
		return;
	}
	s->mtu_line = p->line;
	int err = parse_range(val, MTU_MIN, MTU_MAX, &v);
	if (err == -ERANGE)
		errorf(p, p->line, "mtu: %s is out of range %d-%d", show(&sh, val), MTU_MIN, MTU_MAX);
	else if (err)
		errorf(p, p->line, "mtu: invalid value \"%s\" (expected a number %d-%d)",
		       show(&sh, val), MTU_MIN, MTU_MAX);
	else
		s->b.mtu = (uint32_t)v;
}

/* mac_address: a unicast MAC other than zero, as the kernel's
 * is_valid_ether_addr wants it (drivers/net/bonding/bond_main.c
 * bond_set_mac_address; net/core/dev.c dev_set_mac_address). */
static void parse_mac_address(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	static const uint8_t zero[6];
	struct shown sh;
	uint8_t mac[6];

	if (s->mac_line) {
		errorf(p, p->line, "duplicate key \"mac_address\" (first on line %u)", s->mac_line);
		return;
	}
	s->mac_line = p->line;
	if (!parse_mac(val, mac))
		errorf(p, p->line, "mac_address: invalid MAC address \"%s\" (expected "
		       "aa:bb:cc:dd:ee:ff)", show(&sh, val));
	else if (mac[0] & 1)
		errorf(p, p->line, "mac_address: %s is a multicast address", val);
	else if (memcmp(mac, zero, sizeof(zero)) == 0)
		errorf(p, p->line, "mac_address: %s is not a usable address", val);
	else {
		s->b.has_mac = true;
		memcpy(s->b.mac, mac, sizeof(mac));
	}
}

static void parse_keep_order(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->keep_order_line) {
		errorf(p, p->line, "duplicate key \"keep_order\" (first on line %u)",
		       s->keep_order_line);
		return;
	}
	s->keep_order_line = p->line;
	if (strcmp(val, "yes") == 0 || strcmp(val, "no") == 0) {
		s->b.has_keep_order = true;
		s->b.keep_order = val[0] == 'y';
	} else {
		errorf(p, p->line, "keep_order: invalid value \"%s\" (expected yes or no)",
		       show(&sh, val));
	}
}

static void parse_state(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->state_line) {
		errorf(p, p->line, "duplicate key \"state\" (first on line %u)", s->state_line);
		return;
	}
	s->state_line = p->line;
	if (strcmp(val, "present") == 0 || strcmp(val, "absent") == 0)
		s->b.absent = val[0] == 'a';
	else
		errorf(p, p->line, "state: invalid value \"%s\" (expected present or absent)",
		       show(&sh, val));
}

static void parse_link_check(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->link_check_line) {
		errorf(p, p->line, "duplicate key \"link_check\" (first on line %u)",
		       s->link_check_line);
		return;
	}
	s->link_check_line = p->line;
	if (strcmp(val, "yes") == 0 || strcmp(val, "no") == 0)
		s->b.link_check = val[0] == 'y';
	else
		errorf(p, p->line, "link_check: invalid value \"%s\" (expected yes or no)",
		       show(&sh, val));
}

/* link_topology = per-port | lag: what the link check should expect of
 * the switch (linkcheck.h, the switch-lag finding). */
static void parse_link_topology(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->link_topology_line) {
		errorf(p, p->line, "duplicate key \"link_topology\" (first on line %u)",
		       s->link_topology_line);
		return;
	}
	s->link_topology_line = p->line;
	if (strcmp(val, "per-port") == 0 || strcmp(val, "lag") == 0)
		s->b.lag_expected = val[0] == 'l';
	else
		errorf(p, p->line, "link_topology: invalid value \"%s\" (expected per-port or lag)",
		       show(&sh, val));
}

static void add_slave(struct parser *p, const char *name, bool *full)
{
	struct desired_bond *b = &p->sec.b;
	const char *why = ifname_problem(name);
	struct shown sh;
	size_t at;

	if (why) {
		errorf(p, p->line, "slaves: invalid interface name \"%s\": %s", show(&sh, name), why);
		return;
	}
	if (slave_index(b, name) >= 0) {
		errorf(p, p->line, "slaves: %s is listed twice", name);
		return;
	}
	const struct desired_bond *other = find_slave_built(p, name, &at);
	if (other) {
		char loc[PATH_MAX + 16];
		errorf(p, p->line, "%s is already a slave of %s (%s)", name, other->name,
		       where(p, at, p->slaves_line[at], loc, sizeof(loc)));
		return;
	}
	if (b->n_slaves == BONDD_MAX_SLAVES) {
		if (!*full)
			errorf(p, p->line, "slaves: more than %d slaves", BONDD_MAX_SLAVES);
		*full = true;
		return;
	}
	snprintf(b->slaves[b->n_slaves++].name, IFNAMSIZ, "%s", name);
}

static void parse_slaves(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	bool full = false;

	if (s->slaves_line) {
		errorf(p, p->line, "duplicate key \"slaves\" (first on line %u)", s->slaves_line);
		return;
	}
	s->slaves_line = p->line;
	for (char *item; (item = next_item(&val));)
		add_slave(p, item, &full);
}

/* Addresses the kernel would refuse or that make no sense on an interface. */
static bool addr_usable(const struct bond_addr *a)
{
	if (a->family == AF_INET) {
		struct in_addr v4;
		memcpy(&v4, a->addr, 4);
		return v4.s_addr != 0 && v4.s_addr != 0xffffffffu && !ip4_is_multicast(&v4);
	}
	struct in6_addr v6;
	memcpy(&v6, a->addr, 16);
	return !IN6_IS_ADDR_UNSPECIFIED(&v6) && !IN6_IS_ADDR_LOOPBACK(&v6) &&
	       !IN6_IS_ADDR_MULTICAST(&v6);
}

/* ADDR/PREFIX into *a; false after reporting why not. */
static bool parse_cidr(struct parser *p, char *val, struct bond_addr *a)
{
	struct shown sh;
	uint64_t prefix;

	if (strpbrk(val, " \t,")) {
		errorf(p, p->line, "address: one address per line");
		return false;
	}
	char *slash = strchr(val, '/');
	if (!slash) {
		errorf(p, p->line, "address: \"%s\" has no prefix length (as in ADDR/24)",
		       show(&sh, val));
		return false;
	}
	*slash = '\0';
	memset(a, 0, sizeof(*a));
	a->family = strchr(val, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(a->family, val, a->addr) != 1) {
		errorf(p, p->line, "address: invalid %s address \"%s\"",
		       a->family == AF_INET ? "IPv4" : "IPv6", show(&sh, val));
		return false;
	}
	unsigned max = a->family == AF_INET ? 32 : 128;
	int err = parse_range(slash + 1, 0, max, &prefix);
	if (err) {
		errorf(p, p->line, "address: prefix length \"%s\" is not in 0-%u",
		       show(&sh, slash + 1), max);
		return false;
	}
	a->prefixlen = (uint8_t)prefix;
	if (!addr_usable(a)) {
		errorf(p, p->line, "address: %s is not a usable interface address", val);
		return false;
	}
	return true;
}

static void parse_address(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	struct desired_bond *b = &s->b;
	char text[INET6_ADDRSTRLEN];
	struct bond_addr a;

	if (!parse_cidr(p, val, &a))
		return;
	for (size_t i = 0; i < b->n_addrs; i++) {
		if (b->addrs[i].family == a.family && memcmp(b->addrs[i].addr, a.addr, 16) == 0) {
			char loc[PATH_MAX + 16];
			inet_ntop(a.family, a.addr, text, sizeof(text));
			if (s->addr_line[i])
				snprintf(loc, sizeof(loc), "line %u", s->addr_line[i]);
			else /* from the file this section extends */
				where(p, s->extends - 1, b->line, loc, sizeof(loc));
			errorf(p, p->line, "address: %s is given twice (%s)", text, loc);
			return;
		}
	}
	if (b->n_addrs == BONDD_MAX_ADDRS) {
		errorf(p, p->line, "address: more than %d addresses", BONDD_MAX_ADDRS);
		return;
	}
	s->addr_line[b->n_addrs] = p->line;
	b->addrs[b->n_addrs++] = a;
}

/* tcp_congestion = NAME: a name as the kernel registers algorithms
 * (net/ipv4/tcp_cong.c tcp_register_congestion_control; TCP_CA_NAME_MAX).
 * Whether this kernel has it is known only at run time: the host check
 * reports it. */
static void parse_tcp_congestion(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;
	size_t n = strlen(val);

	if (s->tcp_cc_line) {
		errorf(p, p->line, "duplicate key \"tcp_congestion\" (first on line %u)",
		       s->tcp_cc_line);
		return;
	}
	s->tcp_cc_line = p->line;
	if (n == 0 || n >= sizeof(s->b.tcp_congestion) ||
	    strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789_") != n) {
		errorf(p, p->line,
		       "tcp_congestion: invalid algorithm name \"%s\" (expected a name such as "
		       "bbr or cubic: lower-case letters, digits, _; at most %zu)",
		       show(&sh, val), sizeof(s->b.tcp_congestion) - 1);
		return;
	}
	memcpy(s->b.tcp_congestion, val, n + 1);
}

static void parse_single_stream(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->single_stream_line) {
		errorf(p, p->line, "duplicate key \"single_stream\" (first on line %u)",
		       s->single_stream_line);
		return;
	}
	s->single_stream_line = p->line;
	if (strcmp(val, "yes") == 0)
		s->b.single_stream = true;
	else if (strcmp(val, "no") != 0)
		errorf(p, p->line, "single_stream: invalid value \"%s\" (expected yes or no)",
		       show(&sh, val));
}

/* slave.NAME.queue_id / .prio / .actor_port_prio: NAME may itself hold dots
 * (eth0.100), so the attribute is what follows the last one. */
static void parse_slave_key(struct parser *p, const char *key, const char *val)
{
	struct section *s = &p->sec;
	const char *rest = key + strlen("slave.");
	const char *dot = strrchr(rest, '.');
	char name[MAX_LINE + 1];
	struct shown sh, sh_name;
	struct slave_key k = {.line = p->line};

	int attr = -1;
	for (int i = 0; dot && i <= SA_ACTOR_PORT_PRIO; i++)
		if (strcmp(dot + 1, slave_attr_names[i]) == 0)
			attr = i;
	if (attr < 0) {
		errorf(p, p->line, "unknown key \"%s\"", show(&sh, key));
		return;
	}
	k.attr = (enum slave_attr)attr;
	memcpy(name, rest, (size_t)(dot - rest));
	name[dot - rest] = '\0';
	const char *why = ifname_problem(name);
	if (why) {
		errorf(p, p->line, "%s: invalid interface name \"%s\": %s", show(&sh, key),
		       show(&sh_name, name), why);
		return;
	}
	memcpy(k.name, name, strlen(name) + 1); /* fits: ifname_problem checked */
	for (size_t i = 0; i < s->n_sk; i++) {
		if (s->sk[i].attr == k.attr && strcmp(s->sk[i].name, k.name) == 0) {
			errorf(p, p->line, "duplicate key \"%s\" (first on line %u)", key,
			       s->sk[i].line);
			return;
		}
	}

	int err;
	if (k.attr == SA_PRIO) {
		int32_t v = 0;
		err = parse_s32(val, &v);
		k.value = v;
	} else {
		uint64_t v = 0;
		err = parse_range(val, 0, UINT16_MAX, &v);
		k.value = (int64_t)v;
	}
	if (err == -ERANGE)
		errorf(p, p->line, "%s: %s is out of range %s", key, show(&sh, val),
		       k.attr == SA_PRIO ? "-2147483648 to 2147483647" : "0-65535");
	else if (err)
		errorf(p, p->line, "%s: invalid value \"%s\" (expected a number %s)", key,
		       show(&sh, val), k.attr == SA_PRIO ? "-2147483648 to 2147483647" : "0-65535");
	else if (s->n_sk == MAX_SLAVE_KEYS)
		errorf(p, p->line, "too many per-slave settings (at most %d)", MAX_SLAVE_KEYS);
	else
		s->sk[s->n_sk++] = k;
}

static void parse_key(struct parser *p, const char *key, char *val)
{
	const struct bond_opt_desc *d = bond_opt_by_key(key);
	struct shown sh;
	char hint[512];

	if (p->sec.extends && strcmp(key, "address") != 0) {
		char loc[PATH_MAX + 16];
		size_t i = p->sec.extends - 1;
		errorf(p, p->line, "%s: [%s] is already defined (%s); a section in another file "
		       "may only add address lines to it", show(&sh, key), p->bonds[i].name,
		       where(p, i, p->bonds[i].line, loc, sizeof(loc)));
		return;
	}
	if (strcmp(key, "mtu") == 0)
		parse_mtu(p, val);
	else if (strcmp(key, "slaves") == 0)
		parse_slaves(p, val);
	else if (strcmp(key, "address") == 0)
		parse_address(p, val);
	else if (strcmp(key, "keep_order") == 0)
		parse_keep_order(p, val);
	else if (strcmp(key, "state") == 0)
		parse_state(p, val);
	else if (strcmp(key, "link_check") == 0)
		parse_link_check(p, val);
	else if (strcmp(key, "link_topology") == 0)
		parse_link_topology(p, val);
	else if (strcmp(key, "tcp_congestion") == 0)
		parse_tcp_congestion(p, val);
	else if (strcmp(key, "single_stream") == 0)
		parse_single_stream(p, val);
	else if (strcmp(key, "mac_address") == 0)
		parse_mac_address(p, val);
	else if (strncmp(key, "slave.", strlen("slave.")) == 0)
		parse_slave_key(p, key, val);
	else if (d)
		parse_option(p, d, key, val);
	else {
		config_hint_key(key, val, hint, sizeof(hint));
		errorf(p, p->line, "unknown key \"%s\"%s", show(&sh, key), hint);
	}
}

/* ---- checks on a whole section ------------------------------------------- */

static const char *slave_key_name(const struct slave_key *k, char *buf, size_t len)
{
	snprintf(buf, len, "slave.%s.%s", k->name, slave_attr_names[k->attr]);
	return buf;
}

static bool mode_known(const struct section *s)
{
	return !(s->bad & OPT_BIT(OPT_MODE));
}

static void apply_slave_keys(struct parser *p)
{
	struct section *s = &p->sec;
	struct desired_bond *b = &s->b;
	enum bond_mode mode = (enum bond_mode)b->opts.val[OPT_MODE];
	char key[64];

	for (size_t i = 0; i < s->n_sk; i++) {
		const struct slave_key *k = &s->sk[i];
		int at = slave_index(b, k->name);
		slave_key_name(k, key, sizeof(key));
		if (at < 0) {
			errorf(p, k->line, "%s: %s is not listed in slaves", key, k->name);
			continue;
		}
		struct desired_slave *sl = &b->slaves[at];
		if (k->attr == SA_QUEUE_ID) {
			sl->has_queue_id = true;
			sl->queue_id = (uint16_t)k->value;
		} else if (k->attr == SA_ACTOR_PORT_PRIO) {
			/* bond_options.c BOND_OPT_ACTOR_PORT_PRIO: 802.3ad only */
			if (mode_known(s) && mode != MODE_8023AD) {
				errorf(p, k->line, "%s does not apply to mode %s", key,
				       bond_mode_name(mode));
			} else {
				sl->has_actor_port_prio = true;
				sl->actor_port_prio = (uint16_t)k->value;
			}
		} else if (mode_known(s) && !(PRIO_MODES & MODE_BIT(mode))) {
			errorf(p, k->line, "%s does not apply to mode %s", key, bond_mode_name(mode));
		} else {
			sl->has_prio = true;
			sl->prio = (int32_t)k->value;
		}
	}
}

/* The kernel refuses a non-zero queue_id that another slave of the bond
 * already has. */
static void check_queue_ids(struct parser *p)
{
	const struct section *s = &p->sec;
	char key[64];

	for (size_t i = 0; i < s->n_sk; i++) {
		const struct slave_key *k = &s->sk[i];
		if (k->attr != SA_QUEUE_ID || k->value == 0)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct slave_key *first = &s->sk[j];
			if (first->attr == SA_QUEUE_ID && first->value == k->value) {
				errorf(p, k->line, "%s: %u is already the queue_id of %s (line %u)",
				       slave_key_name(k, key, sizeof(key)), (unsigned)k->value,
				       first->name, first->line);
				break;
			}
		}
	}
}

/*
 * In active-backup with fail_over_mac active or follow the bond's MAC is
 * the active slave's, and the kernel ignores a MAC set on the bond
 * (drivers/net/bonding/bond_main.c bond_set_mac_address returns success
 * without setting it).  In the other modes fail_over_mac does nothing.
 */
static void check_mac_address(struct parser *p)
{
	const struct section *s = &p->sec;
	const struct bond_opts *o = &s->b.opts;
	char val[32];

	if (!s->b.has_mac || !mode_known(s) || o->val[OPT_MODE] != MODE_ACTIVE_BACKUP ||
	    !bond_opts_has(o, OPT_FAIL_OVER_MAC) || o->val[OPT_FAIL_OVER_MAC] == 0)
		return;
	errorf(p, s->mac_line, "mac_address cannot be kept with %s = %s (line %u): in "
	       "active-backup the bond then takes the active slave's MAC; remove one of them",
	       s->opt_key[OPT_FAIL_OVER_MAC],
	       bond_opts_format(o, OPT_FAIL_OVER_MAC, val, sizeof(val)),
	       s->opt_line[OPT_FAIL_OVER_MAC]);
}

static void check_primary(struct parser *p)
{
	const struct section *s = &p->sec;
	const struct desired_bond *b = &s->b;

	if (bond_opts_has(&b->opts, OPT_PRIMARY) && slave_index(b, b->opts.primary) < 0)
		errorf(p, s->opt_line[OPT_PRIMARY], "%s: %s is not listed in slaves",
		       s->opt_key[OPT_PRIMARY], b->opts.primary);
}

/* A rule of bond_rules.c broken: FILE:LINE of the option to blame, with
 * the key as the file spells it. */
static void rule_broken(void *ctx, enum bond_opt id, const char *rest)
{
	struct parser *p = ctx;

	errorf(p, p->sec.opt_line[id], "%s%s", p->sec.opt_key[id], rest);
}

/* What the kernel takes but is probably not what was meant. */
static void warn_section(struct parser *p)
{
	const struct section *s = &p->sec;
	const struct bond_opts *o = &s->b.opts;
	enum bond_mode mode = (enum bond_mode)o->val[OPT_MODE];

	/* Modes that have an ARP monitor get no forced miimon (see
	 * check_forced_miimon); without either monitor a dead link keeps its
	 * share of the traffic.  The kernel's bonding documentation
	 * (Documentation/networking/bonding.rst) calls link monitoring critical. */
	if (mode_known(s) && bond_opt_applies(bond_opt_desc(OPT_ARP_INTERVAL), mode) &&
	    !(s->bad & (OPT_BIT(OPT_MIIMON) | OPT_BIT(OPT_ARP_INTERVAL))) &&
	    !(bond_opts_has(o, OPT_MIIMON) && o->val[OPT_MIIMON] > 0) &&
	    !(bond_opts_has(o, OPT_ARP_INTERVAL) && o->val[OPT_ARP_INTERVAL] > 0))
		warnf(p, s->b.line, "[%s]: mode %s without link monitoring (neither miimon nor "
		      "arp_interval): a failed link is never noticed and keeps getting traffic; "
		      "write miimon = 100", s->b.name, bond_mode_name(mode));
	if (!s->mtu_line)
		warnf(p, s->b.line, "[%s]: no mtu: the bond and its slaves get MTU %d (bondd's "
		      "default), which every switch port and peer on the path must carry; write "
		      "mtu = %d to keep it, or mtu = 1500", s->b.name, BONDD_DEFAULT_MTU,
		      BONDD_DEFAULT_MTU);
}

/* A drop-in's section for a bond of an earlier file: its addresses join
 * that bond; everything else was checked with the bond's own section. */
static void finish_extension(struct parser *p)
{
	struct desired_bond *b = &p->bonds[p->sec.extends - 1];

	memcpy(b->addrs, p->sec.b.addrs, sizeof(b->addrs));
	b->n_addrs = p->sec.b.n_addrs;
}

/*
 * A drop-in's section for a bond no earlier file defines, without slaves:
 * most likely a typo in the name of the bond it meant to give addresses
 * to ([bnod0] for [bond0]).  Taken as written it would create a bond with
 * no slaves and the host's address, and leave the meant bond without it;
 * so it is an error, with the closest defined name.  A drop-in may still
 * define a whole bond, with its slaves.
 */
static bool dropin_orphan(struct parser *p)
{
	const struct section *s = &p->sec;

	/* `state = absent` names a bond to delete, which needs no slaves:
	 * a drop-in may retire a bond; a misspelt one deletes nothing (only
	 * an existing bond of that very name is deleted). */
	if (!s->keep || p->file_no == 0 || s->slaves_line || s->b.absent)
		return false;
	const char *best = NULL;
	unsigned best_d = UINT_MAX, d;
	for (size_t i = 0; i < p->n_bonds; i++)
		if (config_hint_close(s->b.name, p->bonds[i].name, &d) && d < best_d) {
			best = p->bonds[i].name;
			best_d = d;
		}
	char hint[IFNAMSIZ + 32] = "";
	if (best)
		snprintf(hint, sizeof(hint), "; did you mean [%s]?", best);
	errorf(p, s->b.line, "[%s]: no earlier file defines a bond %s, and this section has no "
	       "slaves: a drop-in may add addresses to a bond defined before it, or define a "
	       "whole bond with its slaves%s", s->b.name, s->b.name, hint);
	return true;
}

static void finish_section(struct parser *p)
{
	struct section *s = &p->sec;

	if (!p->in_section)
		return;
	p->in_section = false;
	if (s->extends) {
		finish_extension(p);
		return;
	}
	if (dropin_orphan(p))
		return;
	apply_slave_keys(p);
	check_queue_ids(p);
	if (mode_known(s))
		bond_rules_check(&s->b.opts, &s->bad, rule_broken, p);
	check_primary(p);
	check_mac_address(p);
	/* The link check is on by default where bondd's users need it and
	 * its peers run bondd: balance-rr (bondd.conf(5), link_check). */
	if (!s->link_check_line)
		s->b.link_check = s->b.opts.val[OPT_MODE] == MODE_BALANCE_RR;
	if (s->keep)
		warn_section(p);
	if (s->keep && append_bond(p, &s->b, s->slaves_line) < 0)
		p->fatal = -ENOMEM;
}

/* A bond may be named after a slave of any section, earlier or later, in
 * any file: checked once every file is read. */
static void check_bonds_as_slaves(struct parser *p)
{
	for (size_t i = 0; i < p->n_bonds; i++) {
		const struct desired_bond *b = &p->bonds[i];
		/* The message belongs to the file of the slaves line. */
		p->file_no = p->file_of[i];
		p->file = p->files[p->file_no];
		for (size_t j = 0; j < b->n_slaves; j++) {
			const struct desired_bond *other = find_built(p, b->slaves[j].name);
			char loc[PATH_MAX + 16];
			if (other)
				errorf(p, p->slaves_line[i],
				       "%s is configured as a bond (%s) and cannot be a slave",
				       other->name, where(p, (size_t)(other - p->bonds), other->line,
							  loc, sizeof(loc)));
		}
	}
}

/* ---- lines --------------------------------------------------------------- */

/* name is NULL after a malformed header: its keys are still checked, in a
 * section that is not part of the result. */
static void start_section(struct parser *p, const char *name)
{
	struct section *s = &p->sec;
	const char *why = name ? ifname_problem(name) : NULL;
	const struct desired_bond *first = name && !why ? find_built(p, name) : NULL;
	struct shown sh;

	memset(s, 0, sizeof(*s));
	s->b.line = p->line;
	s->b.mtu = BONDD_DEFAULT_MTU;
	bond_opts_set(&s->b.opts, OPT_MODE, MODE_BALANCE_RR);
	p->in_section = true;
	if (!name) {
		errorf(p, p->line, "malformed section header (expected \"[NAME]\")");
	} else if (why) {
		errorf(p, p->line, "invalid bond name \"%s\": %s", show(&sh, name), why);
	} else if (first && p->file_of[first - p->bonds] != p->file_no) {
		/* Another file's bond: this section may add addresses to it. */
		s->extends = (size_t)(first - p->bonds) + 1;
		s->b = *first;
	} else if (first) {
		errorf(p, p->line, "[%s] is already defined (line %u)", name, first->line);
	} else if (p->n_bonds == MAX_BONDS) {
		errorf(p, p->line, "too many bonds (at most %d)", MAX_BONDS);
	} else {
		snprintf(s->b.name, sizeof(s->b.name), "%s", name);
		s->keep = true;
	}
}

static void parse_header(struct parser *p, char *line)
{
	size_t n = strlen(line);

	finish_section(p);
	if (n < 2 || line[n - 1] != ']') {
		start_section(p, NULL);
		return;
	}
	line[n - 1] = '\0';
	start_section(p, trim(line + 1));
}

static void parse_line(struct parser *p, char *line)
{
	struct shown sh;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (*line == '\0')
		return;
	if (*line == '[') {
		parse_header(p, line);
		return;
	}
	char *eq = strchr(line, '=');
	if (!eq) {
		errorf(p, p->line, "malformed line (expected \"key = value\" or \"[NAME]\")");
		return;
	}
	*eq = '\0';
	char *key = trim(line), *val = trim(eq + 1);
	if (*key == '\0')
		errorf(p, p->line, "missing key before \"=\"");
	else if (!p->in_section)
		errorf(p, p->line, "key \"%s\" outside of any [NAME] section", show(&sh, key));
	else if (*val == '\0')
		errorf(p, p->line, "%s: empty value", show(&sh, key));
	else
		parse_key(p, key, val);
}

static void parse_text(struct parser *p, const char *text, size_t len, char *buf)
{
	const char *end = text + len;

	for (const char *at = text; at < end && !p->stop && !p->fatal;) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = (size_t)((nl ? nl : end) - at);
		p->line++;
		if (n > MAX_LINE) {
			errorf(p, p->line, "line too long (more than %d bytes)", MAX_LINE);
		} else if (memchr(at, '\0', n)) {
			errorf(p, p->line, "NUL byte in line");
		} else {
			memcpy(buf, at, n);
			buf[n] = '\0';
			parse_line(p, buf);
		}
		at += n + (nl != NULL);
	}
	finish_section(p);
}

/* ---- one configuration from one or more files ---------------------------- */

static struct parser *parser_new(struct config_diag *diag)
{
	struct parser *p = calloc(1, sizeof(*p));

	if (p)
		p->diag = diag;
	return p;
}

/* Parses the next file (name must outlive the parser). */
static void parser_feed(struct parser *p, const char *name, const char *text, size_t len,
			char *buf)
{
	if (p->stop || p->fatal)
		return;
	if (p->files[0])
		p->file_no++;
	p->files[p->file_no] = name;
	p->file = name;
	p->line = 0;
	parse_text(p, text, len, buf);
}

/* The checks across files, then the result: see config_parse. */
static int parser_finish(struct parser *p, struct desired *out)
{
	if (!p->stop && !p->fatal)
		check_bonds_as_slaves(p);
	bool failed = p->n_errors > 0;
	int err = flush_errors(p);

	if (!err)
		err = p->fatal;
	if (!err && failed)
		err = -EINVAL;
	if (!err) {
		out->bonds = p->bonds;
		out->n_bonds = p->n_bonds;
		p->bonds = NULL;
	}
	return err;
}

static void parser_free(struct parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_errors; i++)
		free(p->errors[i].msg);
	free(p->errors);
	for (size_t i = 0; i < p->n_warns; i++)
		free(p->warns[i].msg);
	free(p->warns);
	free(p->bonds);
	free(p->slaves_line);
	free(p->file_of);
	name_map_free(&p->bond_at);
	name_map_free(&p->slave_of);
	free(p);
}

int config_parse(const char *name, const char *text, size_t len,
		 struct desired *out, struct config_diag *diag)
{
	struct parser *p = parser_new(diag);
	char *buf = malloc(MAX_LINE + 1);
	int err = -ENOMEM;

	if (p && buf) {
		parser_feed(p, name, text, len, buf);
		err = parser_finish(p, out);
	}
	parser_free(p);
	free(buf);
	return err;
}

/* ---- files ------------------------------------------------------------- */

/* Reads at most MAX_FILE + 1 bytes, so "too large" needs no stat. */
static int read_all(int fd, char *buf, size_t cap, size_t *len)
{
	size_t n = 0;

	while (n < cap) {
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return 0;
}

static int load_error(struct config_diag *diag, const char *path, int err)
{
	char reason[128];
	char *msg = format("%s: cannot read: %s", path, strerror_r(-err, reason, sizeof(reason)));

	if (!msg || diag_push(diag, msg) < 0)
		return -ENOMEM;
	return err;
}

/* Reads the file at path into a new buffer (*text, *len).  Errors are
 * reported in diag and returned as -errno. */
static int read_config_file(const char *path, char **text, size_t *len,
			    struct config_diag *diag)
{
	char *buf = NULL;
	/* O_NONBLOCK: a FIFO (or a device) named as the config must not
	 * block the daemon's only thread; only a regular file is read. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	int err;

	*text = NULL;
	if (fd < 0)
		return load_error(diag, path, -errno);
	if (fstat(fd, &st) < 0) {
		err = load_error(diag, path, -errno);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		char *msg = format("%s: not a regular file; not reading it", path);
		err = !msg || diag_push(diag, msg) < 0 ? -ENOMEM : -EINVAL;
		goto out;
	}
	buf = malloc(MAX_FILE + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	err = read_all(fd, buf, MAX_FILE + 1, len);
	if (err < 0) {
		err = load_error(diag, path, err);
		goto out;
	}
	if (*len > MAX_FILE) {
		char *msg = format("%s: too large (more than %d bytes)", path, MAX_FILE);
		err = !msg || diag_push(diag, msg) < 0 ? -ENOMEM : -EFBIG;
		goto out;
	}
	if (*len > 0 && buf[*len - 1] != '\n') {
		/* What a file caught while being rewritten in place looks like;
		 * a complete file ends with a newline. */
		char *msg = format("%s: the last line has no newline: the file may have been "
				   "cut while being written; not using it", path);
		err = !msg || diag_push(diag, msg) < 0 ? -ENOMEM : -EINVAL;
		goto out;
	}
	*text = buf;
	buf = NULL;
out:
	close(fd);
	free(buf);
	return err;
}

char *config_dropin_dir(const char *path)
{
	return format("%s.d", path);
}

/* A drop-in's name: NAME.conf, NAME not empty and not hidden (editors'
 * and package managers' leftovers such as .#x.conf or x.conf.dpkg-old are
 * not read). */
static bool dropin_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > strlen(".conf") &&
	       strcmp(name + n - strlen(".conf"), ".conf") == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths of dir's drop-ins in lexical (byte) order into *paths; a
 * missing dir is none.  Errors are reported in diag. */
static int list_dropins(const char *dir, char ***paths, size_t *n, struct config_diag *diag)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t count = 0;
	int err = 0;

	*paths = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : load_error(diag, dir, -errno);
	v = calloc(MAX_DROPINS + 1, sizeof(*v));
	if (!v) {
		closedir(d);
		return -ENOMEM;
	}
	for (struct dirent *e; (errno = 0, e = readdir(d));) {
		if (!dropin_name(e->d_name))
			continue;
		if (count == MAX_DROPINS) {
			char *msg = format("%s: more than %d drop-ins", dir, MAX_DROPINS);
			err = !msg || diag_push(diag, msg) < 0 ? -ENOMEM : -E2BIG;
			goto out;
		}
		if (!(v[count] = format("%s/%s", dir, e->d_name))) {
			err = -ENOMEM;
			goto out;
		}
		count++;
	}
	if (errno)
		err = load_error(diag, dir, -errno);
out:
	closedir(d);
	if (err) {
		for (size_t i = 0; i < count; i++)
			free(v[i]);
		free(v);
		return err;
	}
	qsort(v, count, sizeof(*v), by_name);
	*paths = v;
	*n = count;
	return 0;
}

int config_load(const char *path, struct desired *out, struct config_diag *diag)
{
	char *dir = config_dropin_dir(path), **dropins = NULL, *text = NULL;
	char *buf = malloc(MAX_LINE + 1);
	struct parser *p = parser_new(diag);
	size_t n_dropins = 0, len = 0;
	int err = -ENOMEM;

	if (!dir || !buf || !p)
		goto out;
	/* An unreadable drop-in fails the whole load, like a bad line: no
	 * result, whatever was parsed before it. */
	if ((err = read_config_file(path, &text, &len, diag)) < 0)
		goto out;
	if ((err = list_dropins(dir, &dropins, &n_dropins, diag)) < 0)
		goto out;
	parser_feed(p, path, text, len, buf);
	for (size_t i = 0; i < n_dropins; i++) {
		free(text);
		if ((err = read_config_file(dropins[i], &text, &len, diag)) < 0)
			goto out;
		parser_feed(p, dropins[i], text, len, buf);
	}
	err = parser_finish(p, out);
out:
	parser_free(p);
	for (size_t i = 0; i < n_dropins; i++)
		free(dropins[i]);
	free(dropins);
	free(text);
	free(buf);
	free(dir);
	return err;
}
