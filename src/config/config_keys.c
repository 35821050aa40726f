/* SPDX-License-Identifier: MIT */
/* bondd's own keys (slaves, mtu, address, link_check, ...) and the dispatch
 * of one KEY = VALUE line. */
#include "config_parser.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const slave_attr_names[3] = {"queue_id", "prio", "actor_port_prio"};

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

/* lldp = yes | no: receive LLDP on the slaves (lldp_io.h). */
static void parse_lldp(struct parser *p, const char *val)
{
	struct section *s = &p->sec;
	struct shown sh;

	if (s->lldp_line) {
		errorf(p, p->line, "duplicate key \"lldp\" (first on line %u)", s->lldp_line);
		return;
	}
	s->lldp_line = p->line;
	if (strcmp(val, "yes") == 0 || strcmp(val, "no") == 0)
		s->b.lldp = val[0] == 'y';
	else
		errorf(p, p->line, "lldp: invalid value \"%s\" (expected yes or no)",
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
	else if (strcmp(key, "lldp") == 0)
		parse_lldp(p, val);
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
