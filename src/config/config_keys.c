/* SPDX-License-Identifier: MIT */
/* bondd's own keys (slaves, mtu, address, link_check, ...) and the dispatch
 * of one KEY = VALUE line. */
#include "config_parser.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const slave_attr_names[3] = {"queue_id", "prio", "actor_port_prio"};

/* ---- bondd's own keys ---------------------------------------------------- */

/* Records the line of a key a section gives at most once; false, after
 * saying so, when the section gave it already. */
static bool first_time(struct parser *p, const char *key, unsigned *line)
{
	if (*line) {
		errorf(p, p->line, "duplicate key \"%s\" (first on line %u)", key, *line);
		return false;
	}
	*line = p->line;
	return true;
}

static void parse_mtu(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	struct shown sh;
	uint64_t v;

	if (!first_time(p, "mtu", &s->mtu_line))
		return;
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
static void parse_mac_address(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	static const uint8_t zero[6];
	struct shown sh;
	uint8_t mac[6];

	if (!first_time(p, "mac_address", &s->mac_line))
		return;
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

/*
 * bondd's keys that take one of two words, and the flag of the bond each
 * sets, as networkd's key tables name the field a key fills: line and flag
 * are offsets into struct section and struct desired_bond.
 */
struct word_key {
	const char *key;
	const char *words[2];   /* in the order "expected A or B" names them */
	unsigned sets;          /* the word that sets flag; the other clears it */
	size_t line;            /* unsigned: where the section gave the key */
	size_t flag;            /* bool */
	size_t given;           /* bool set once the key is given; 0: none */
};

#define SECTION_LINE(field) offsetof(struct section, field)
#define BOND_FLAG(field) offsetof(struct desired_bond, field)

static const struct word_key word_keys[] = {
	/* Unset: the mode's default (desired_keeps_order). */
	{"keep_order", {"yes", "no"}, 0, SECTION_LINE(keep_order_line), BOND_FLAG(keep_order),
	 BOND_FLAG(has_keep_order)},
	{"state", {"present", "absent"}, 1, SECTION_LINE(state_line), BOND_FLAG(absent), 0},
	/* Unset: the mode's default (finish_section). */
	{"link_check", {"yes", "no"}, 0, SECTION_LINE(link_check_line), BOND_FLAG(link_check), 0},
	/* Receive LLDP on the slaves (lldp_io.h); unset: yes. */
	{"lldp", {"yes", "no"}, 0, SECTION_LINE(lldp_line), BOND_FLAG(lldp), 0},
	/* What the link check should expect of the switch (linkcheck.h, the
	 * switch-lag finding); unset: per-port. */
	{"link_topology", {"per-port", "lag"}, 1, SECTION_LINE(link_topology_line),
	 BOND_FLAG(lag_expected), 0},
	{"single_stream", {"yes", "no"}, 0, SECTION_LINE(single_stream_line),
	 BOND_FLAG(single_stream), 0},
};

static void parse_word_key(struct parser *p, const struct word_key *k, const char *val)
{
	struct section *s = &p->sec;
	char *bond = (char *)&s->b;
	struct shown sh;

	if (!first_time(p, k->key, (unsigned *)((char *)s + k->line)))
		return;
	/* yes/no keys take every boolean systemd takes */
	int b = strcmp(k->words[0], "yes") == 0 ? parse_boolean(val) : -1;
	for (unsigned w = 0; w < 2; w++) {
		if (b >= 0 ? b != (w == 0) : strcmp(val, k->words[w]) != 0)
			continue;
		*(bool *)(bond + k->flag) = w == k->sets;
		if (k->given)
			*(bool *)(bond + k->given) = true;
		return;
	}
	errorf(p, p->line, "%s: invalid value \"%s\" (expected %s or %s)", k->key,
	       show(&sh, val), k->words[0], k->words[1]);
}

/* An entry: a name (or altname), mac:ADDRESS or path:ID_PATH[/portN]
 * (selector.h).  A selector not matching a plain name is kept under a
 * placeholder name until a link answers to it (identity.h). */
static void add_slave(struct parser *p, const char *text, bool *full)
{
	struct desired_bond *b = &p->sec.b;
	struct slave_selector sel;
	const char *why = slave_selector_parse(text, &sel);
	char name[IFNAMSIZ];
	struct shown sh;
	size_t at;

	if (why) {
		/* "MAC:..." or "pci:...": a selector misspelt, most likely. */
		errorf(p, p->line, "slaves: invalid %s \"%s\": %s%s",
		       slave_selector_noun(sel.kind), show(&sh, text), why,
		       sel.kind == SEL_NAME && strchr(text, ':') ?
		       " (an entry is a name, mac:XX:XX:XX:XX:XX:XX or path:ID_PATH)" : "");
		return;
	}
	slave_selector_placeholder(&sel, name);
	for (size_t i = 0; i < b->n_slaves; i++) {
		if (slave_selector_equal(&b->slaves[i].sel, &sel)) {
			errorf(p, p->line, "slaves: %s is listed twice", show(&sh, text));
			return;
		}
	}
	const struct desired_bond *other = find_slave_built(p, name, &at);
	if (other) {
		char loc[PATH_MAX + 16];
		errorf(p, p->line, "%s is already a slave of %s (%s)", show(&sh, text), other->name,
		       where(p, at, p->slaves_line[at], loc, sizeof(loc)));
		return;
	}
	if (b->n_slaves == BONDD_MAX_SLAVES) {
		if (!*full)
			errorf(p, p->line, "slaves: more than %d slaves", BONDD_MAX_SLAVES);
		*full = true;
		return;
	}
	b->slaves[b->n_slaves].sel = sel;
	snprintf(b->slaves[b->n_slaves++].name, IFNAMSIZ, "%s", name);
}

static void parse_slaves(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	bool full = false;

	if (!first_time(p, "slaves", &s->slaves_line))
		return;
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
static void parse_tcp_congestion(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	struct shown sh;
	size_t n = strlen(val);

	if (!first_time(p, "tcp_congestion", &s->tcp_cc_line))
		return;
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

/* bridge = NAME: an interface name as the kernel takes one (ifname.h).
 * The bridge is the network manager's; bondd only makes the bond its port
 * (bondd.conf(5)), so it may be one of bondd's own names only by mistake:
 * checked in finish_section. */
static void parse_bridge(struct parser *p, char *val)
{
	struct section *s = &p->sec;
	struct shown sh;
	const char *why = ifname_problem(val);

	if (!first_time(p, "bridge", &s->b.bridge_line))
		return;
	if (why) {
		errorf(p, p->line, "bridge: invalid interface name \"%s\": %s", show(&sh, val),
		       why);
		return;
	}
	memcpy(s->b.bridge, val, strlen(val) + 1); /* fits: ifname_problem checked */
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
	struct slave_selector sel, other;
	const char *why = slave_selector_parse(name, &sel);
	if (why) {
		errorf(p, p->line, "%s: invalid %s \"%s\": %s", show(&sh, key),
		       slave_selector_noun(sel.kind), show(&sh_name, name), why);
		return;
	}
	memcpy(k.name, name, strlen(name) + 1); /* fits: slave_selector_parse checked */
	for (size_t i = 0; i < s->n_sk; i++) {
		if (s->sk[i].attr == k.attr && !slave_selector_parse(s->sk[i].name, &other) &&
		    slave_selector_equal(&other, &sel)) {
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

/* bondd's own keys with more to them than two words. */
static const struct {
	const char *key;
	void (*parse)(struct parser *p, char *val);
} own_keys[] = {
	{"mtu", parse_mtu},
	{"slaves", parse_slaves},
	{"address", parse_address},
	{"tcp_congestion", parse_tcp_congestion},
	{"mac_address", parse_mac_address},
	{"bridge", parse_bridge},
};

void parse_key(struct parser *p, const char *key, char *val)
{
	const struct bond_option_spec *d = bond_option_by_key(key);
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
	for (size_t i = 0; i < sizeof(own_keys) / sizeof(own_keys[0]); i++) {
		if (strcmp(key, own_keys[i].key) == 0) {
			own_keys[i].parse(p, val);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(word_keys) / sizeof(word_keys[0]); i++) {
		if (strcmp(key, word_keys[i].key) == 0) {
			parse_word_key(p, &word_keys[i], val);
			return;
		}
	}
	if (strncmp(key, "slave.", strlen("slave.")) == 0)
		parse_slave_key(p, key, val);
	else if (d)
		parse_option(p, d, key, val);
	else {
		config_hint_key(key, val, hint, sizeof(hint));
		errorf(p, p->line, "unknown key \"%s\"%s", show(&sh, key), hint);
	}
}
