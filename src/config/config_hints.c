/* SPDX-License-Identifier: MIT */
/*
 * Hints for the config parser's "unknown key" and "invalid value" messages.
 *
 * Most people come to bondd.conf from another tool's files, so besides near
 * misses of bondd's own keys this knows the keys of the three formats
 * bondd-import(8) reads, and answers them with the bondd.conf line that does
 * the same: systemd-networkd's [Bond] keys (systemd.netdev(5)) and the few
 * .network keys a bond uses, RHEL's ifcfg variables (BONDING_OPTS, MTU,
 * IPADDR...), and NetworkManager keyfile keys.
 */
#include "config_hints.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORD 64

/* ---- edit distance ------------------------------------------------------ */

unsigned config_hint_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	unsigned d[MAX_WORD + 1][MAX_WORD + 1];

	if (n > MAX_WORD || m > MAX_WORD)
		return 255;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

/* How far a word may be from a candidate and still be "meant": one edit for
 * short words, two for longer ones, never half the word. */
static bool close_enough(const char *word, const char *cand, unsigned *dist)
{
	size_t len = strlen(cand);
	unsigned max = len <= 4 ? 1 : 2;

	*dist = config_hint_distance(word, cand);
	return *dist <= max && *dist * 2 < strlen(word) + 1;
}

bool config_hint_close(const char *word, const char *cand, unsigned *dist)
{
	return close_enough(word, cand, dist);
}

/* Text from the file that may be quoted back: printable, no quote or
 * backslash, not too long.  Anything else gets a hint without the value. */
static bool quotable(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f || *s == '"' || *s == '\\')
			return false;
	return n > 0 && n <= MAX_WORD;
}

/* ---- time spans ---------------------------------------------------------- */

long long config_hint_timespan_ms(const char *text, long long default_unit_ms)
{
	static const struct {
		const char *name;
		long long us;
	} units[] = {
		{"usec", 1}, {"us", 1}, {"msec", 1000}, {"ms", 1000},
		{"seconds", 1000000}, {"second", 1000000}, {"sec", 1000000}, {"s", 1000000},
		{"minutes", 60000000}, {"minute", 60000000}, {"min", 60000000}, {"m", 60000000},
		{"hours", 3600000000LL}, {"hour", 3600000000LL}, {"hr", 3600000000LL},
		{"h", 3600000000LL},
	};
	long long total_us = 0;
	const char *s = text;
	bool any = false;

	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (!isdigit((unsigned char)*s))
			return -1;
		long long v = 0, frac = 0, scale = 1;
		for (; isdigit((unsigned char)*s); s++) {
			v = v * 10 + (*s - '0');
			if (v > 1000000000LL)
				return -1;
		}
		/* A fraction, as systemd's parse_time takes ("0.2s"). */
		if (*s == '.') {
			for (s++; isdigit((unsigned char)*s); s++) {
				if (scale < 1000000) {
					frac = frac * 10 + (*s - '0');
					scale *= 10;
				}
			}
			if (scale == 1)
				return -1;
		}
		while (*s == ' ')
			s++;
		long long unit_us = -1;
		size_t ul = 0;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t l = strlen(units[i].name);
			if (strncmp(s, units[i].name, l) == 0 && !isalpha((unsigned char)s[l])) {
				unit_us = units[i].us;
				ul = l;
				break;
			}
		}
		if (unit_us < 0) {
			if (isalpha((unsigned char)*s) || default_unit_ms < 0)
				return -1;
			unit_us = default_unit_ms * 1000;
		}
		s += ul;
		total_us += v * unit_us + frac * unit_us / scale;
		if (total_us > 1000000000000LL)
			return -1;
		any = true;
	}
	if (!any || total_us % 1000)
		return -1;
	return total_us / 1000;
}

/* ---- other tools' keys ---------------------------------------------------- */

enum convert {
	CV_SAME,      /* the value means the same in bondd.conf */
	CV_MS,        /* a systemd time span (bare number: seconds) to milliseconds */
	CV_S,         /* a systemd time span to whole seconds */
	CV_BOOL,      /* yes/no, true/false, on/off, 1/0 to 1/0 */
	CV_BYTES,     /* a size with an optional K/M/G suffix (powers of 1024) */
	CV_NONE,      /* no bondd line for it: only the advice */
};

struct foreign_key {
	const char *key;      /* as the other tool spells it (case-sensitive) */
	const char *tool;     /* "systemd-networkd's [Bond] setting" */
	const char *bondd;    /* bondd.conf key, or NULL with CV_NONE */
	enum convert cv;
	const char *advice;   /* with CV_NONE, or when the value cannot be converted */
};

#define NETDEV "systemd-networkd's [Bond] setting"
#define NETWORK "a systemd-networkd .network setting"
#define IFCFG "an ifcfg variable"
#define NMKEY "a NetworkManager keyfile key"

static const struct foreign_key foreign_keys[] = {
	/* systemd.netdev(5), [Bond] */
	{"Mode", NETDEV, "mode", CV_SAME, NULL},
	{"TransmitHashPolicy", NETDEV, "xmit_hash_policy", CV_SAME, NULL},
	{"LACPTransmitRate", NETDEV, "lacp_rate", CV_SAME, NULL},
	{"MIIMonitorSec", NETDEV, "miimon", CV_MS, "miimon is in milliseconds"},
	{"UpDelaySec", NETDEV, "updelay", CV_MS, "updelay is in milliseconds"},
	{"DownDelaySec", NETDEV, "downdelay", CV_MS, "downdelay is in milliseconds"},
	{"PeerNotifyDelaySec", NETDEV, "peer_notif_delay", CV_MS,
	 "peer_notif_delay is in milliseconds"},
	{"LearnPacketIntervalSec", NETDEV, "lp_interval", CV_S, "lp_interval is in seconds"},
	{"AdSelect", NETDEV, "ad_select", CV_SAME, NULL},
	{"AdActorSystemPriority", NETDEV, "ad_actor_sys_prio", CV_SAME, NULL},
	{"AdUserPortKey", NETDEV, "ad_user_port_key", CV_SAME, NULL},
	{"AdActorSystem", NETDEV, "ad_actor_system", CV_SAME, NULL},
	{"FailOverMACPolicy", NETDEV, "fail_over_mac", CV_SAME, NULL},
	{"ARPValidate", NETDEV, "arp_validate", CV_SAME, NULL},
	{"ARPIntervalSec", NETDEV, "arp_interval", CV_MS, "arp_interval is in milliseconds"},
	{"ARPIPTargets", NETDEV, "arp_ip_target", CV_SAME, NULL},
	{"ARPAllTargets", NETDEV, "arp_all_targets", CV_SAME, NULL},
	{"ARPMissedMax", NETDEV, "arp_missed_max", CV_SAME, NULL},
	{"PrimaryReselectPolicy", NETDEV, "primary_reselect", CV_SAME, NULL},
	{"ResendIGMP", NETDEV, "resend_igmp", CV_SAME, NULL},
	{"PacketsPerSlave", NETDEV, "packets_per_slave", CV_SAME, NULL},
	{"GratuitousARP", NETDEV, "num_grat_arp", CV_SAME, NULL},
	{"AllSlavesActive", NETDEV, "all_slaves_active", CV_BOOL, NULL},
	{"DynamicTransmitLoadBalancing", NETDEV, "tlb_dynamic_lb", CV_BOOL, NULL},
	{"MinLinks", NETDEV, "min_links", CV_SAME, NULL},
	/* systemd.netdev(5) [NetDev] and systemd.network(5) */
	{"Name", "a systemd-networkd [NetDev]/[Match] setting", NULL, CV_NONE,
	 "the bond's name is the [NAME] section header"},
	{"Kind", "a systemd-networkd [NetDev] setting", NULL, CV_NONE,
	 "every section of bondd.conf is a bond"},
	{"MTUBytes", NETWORK, "mtu", CV_BYTES, NULL},
	{"Address", NETWORK, "address", CV_SAME, NULL},
	{"Bond", NETWORK, NULL, CV_NONE,
	 "list the slave in the bond's section: slaves = NIC1 NIC2 (in bond order)"},
	{"PrimarySlave", NETWORK, NULL, CV_NONE, "write primary = NIC in the bond's section"},
	/* RHEL initscripts ifcfg files */
	{"MTU", IFCFG, "mtu", CV_SAME, NULL},
	{"IPADDR", IFCFG, NULL, CV_NONE, "write address = IPADDR/PREFIX"},
	{"PREFIX", IFCFG, NULL, CV_NONE, "write address = IPADDR/PREFIX"},
	{"NETMASK", IFCFG, NULL, CV_NONE, "write address = IPADDR/PREFIX (the prefix length)"},
	{"IPV6ADDR", IFCFG, "address", CV_SAME, NULL},
	{"DEVICE", IFCFG, NULL, CV_NONE, "the bond's name is the [NAME] section header"},
	{"MASTER", IFCFG, NULL, CV_NONE,
	 "list the slave in the bond's section: slaves = NIC1 NIC2 (in bond order)"},
	{"SLAVE", IFCFG, NULL, CV_NONE,
	 "list the slave in the bond's section: slaves = NIC1 NIC2 (in bond order)"},
	/* nm-settings-keyfile(5) */
	{"interface-name", NMKEY, NULL, CV_NONE, "the bond's name is the [NAME] section header"},
	{"controller", NMKEY, NULL, CV_NONE,
	 "list the port in the bond's section: slaves = NIC1 NIC2 (in bond order)"},
	{"master", NMKEY, NULL, CV_NONE,
	 "list the port in the bond's section: slaves = NIC1 NIC2 (in bond order)"},
	{"address1", NMKEY, "address", CV_SAME, NULL},
};

static bool convert_bool(const char *v, char *out, size_t len)
{
	static const char *const yes[] = {"yes", "true", "on", "1", "y", "t"};
	static const char *const no[] = {"no", "false", "off", "0", "n", "f"};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			snprintf(out, len, "1");
			return true;
		}
		if (strcasecmp(v, no[i]) == 0) {
			snprintf(out, len, "0");
			return true;
		}
	}
	return false;
}

static bool convert_bytes(const char *v, char *out, size_t len)
{
	char *end;
	unsigned long long n;

	if (!isdigit((unsigned char)*v))
		return false;
	n = strtoull(v, &end, 10);
	if (*end == 'K' || *end == 'k')
		n *= 1024, end++;
	else if (*end == 'M')
		n *= 1024 * 1024, end++;
	else if (*end == 'G')
		n *= 1024ULL * 1024 * 1024, end++;
	if (*end || n > 0xffffffffULL)
		return false;
	snprintf(out, len, "%llu", n);
	return true;
}

/* The value in bondd.conf's terms, or false when it has none. */
static bool convert_value(enum convert cv, const char *val, char *out, size_t len)
{
	long long ms;

	switch (cv) {
	case CV_SAME:
		snprintf(out, len, "%s", val);
		return true;
	case CV_MS:
		ms = config_hint_timespan_ms(val, 1000);
		if (ms < 0)
			return false;
		snprintf(out, len, "%lld", ms);
		return true;
	case CV_S:
		ms = config_hint_timespan_ms(val, 1000);
		if (ms < 0 || ms % 1000)
			return false;
		snprintf(out, len, "%lld", ms / 1000);
		return true;
	case CV_BOOL:
		return convert_bool(val, out, len);
	case CV_BYTES:
		return convert_bytes(val, out, len);
	case CV_NONE:
		break;
	}
	return false;
}

/* ifcfg's BONDING_OPTS="mode=4 miimon=100": one bondd line per option. */
static void hint_bonding_opts(const char *val, char *buf, size_t len)
{
	char copy[512];
	size_t o = (size_t)snprintf(buf, len,
				    "; that is an ifcfg variable: write one line per option");
	const char *sep = ": ";

	snprintf(copy, sizeof(copy), "%s", val);
	for (char *save = NULL, *tok = strtok_r(copy, " \t\"'", &save); tok && o < len;
	     tok = strtok_r(NULL, " \t\"'", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			continue;
		*eq = '\0';
		const char *v = eq[1] == '+' ? eq + 2 : eq + 1; /* arp_ip_target=+ADDR */
		if (!bond_option_by_key(tok) || !quotable(v))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s\"%s = %s\"", sep, tok, v);
		sep = ", ";
	}
	if (o < len)
		snprintf(buf + o, len - o, " (bondd-import(8) converts whole ifcfg files)");
}

static bool hint_foreign(const char *key, const char *val, char *buf, size_t len)
{
	char conv[MAX_WORD + 1];
	const struct foreign_key *f = NULL;

	if (strcmp(key, "BONDING_OPTS") == 0) {
		hint_bonding_opts(val, buf, len);
		return true;
	}
	for (size_t i = 0; i < sizeof(foreign_keys) / sizeof(foreign_keys[0]) && !f; i++)
		if (strcmp(key, foreign_keys[i].key) == 0)
			f = &foreign_keys[i];
	if (!f)
		return false;
	if (f->cv != CV_NONE && quotable(val) && convert_value(f->cv, val, conv, sizeof(conv)))
		snprintf(buf, len, "; that is %s: write \"%s = %s\"", f->tool, f->bondd, conv);
	else if (f->cv != CV_NONE)
		snprintf(buf, len, "; that is %s: bondd's key is %s%s%s", f->tool, f->bondd,
			 f->advice ? ", and " : "", f->advice ? f->advice : "");
	else
		snprintf(buf, len, "; that is %s: %s", f->tool, f->advice);
	return true;
}

bool config_hint_netdev_bond(const char *key, const char *val, const char **bondd_key,
			     char *out, size_t len)
{
	for (size_t i = 0; i < sizeof(foreign_keys) / sizeof(foreign_keys[0]); i++) {
		const struct foreign_key *f = &foreign_keys[i];
		if (strcmp(f->tool, NETDEV) != 0 || strcmp(key, f->key) != 0)
			continue;
		*bondd_key = f->bondd;
		return convert_value(f->cv, val, out, len);
	}
	return false;
}

/* ---- near misses ----------------------------------------------------------- */

static const char *const own_keys[] = {"mtu", "slaves", "address", "bridge"};

void config_hint_key(const char *key, const char *val, char *buf, size_t len)
{
	const char *best = NULL;
	unsigned best_d = 255, d;

	buf[0] = '\0';
	if (len == 0 || hint_foreign(key, val, buf, len))
		return;
	for (size_t i = 0; i < sizeof(own_keys) / sizeof(own_keys[0]); i++)
		if (close_enough(key, own_keys[i], &d) && d < best_d)
			best = own_keys[i], best_d = d;
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *o = bond_option_spec((enum bond_option_id)id);
		if (close_enough(key, o->key, &d) && d < best_d)
			best = o->key, best_d = d;
		if (o->alias && close_enough(key, o->alias, &d) && d < best_d)
			best = o->alias, best_d = d;
	}
	if (best)
		snprintf(buf, len, "; did you mean \"%s\"?", best);
}

/* Names people use for modes that are not the kernel's. */
static const struct {
	const char *said, *meant;
} mode_synonyms[] = {
	{"round-robin", "balance-rr"}, {"roundrobin", "balance-rr"}, {"rr", "balance-rr"},
	{"lacp", "802.3ad"}, {"ieee802.3ad", "802.3ad"}, {"failover", "active-backup"},
	{"xor", "balance-xor"}, {"tlb", "balance-tlb"}, {"alb", "balance-alb"},
};

void config_hint_value(const struct bond_option_spec *d, const char *val, char *buf, size_t len)
{
	const char *best = NULL;
	unsigned best_d = 255, dist;
	char conv[MAX_WORD + 1];

	if (len == 0)
		return;
	buf[0] = '\0';
	if (d->id == OPT_MODE)
		for (size_t i = 0; i < sizeof(mode_synonyms) / sizeof(mode_synonyms[0]); i++)
			if (strcasecmp(val, mode_synonyms[i].said) == 0)
				best = mode_synonyms[i].meant, best_d = 0;
	if (d->names) {
		for (const struct bond_option_word *n = d->names; n->name; n++)
			if (close_enough(val, n->name, &dist) && dist < best_d)
				best = n->name, best_d = dist;
		if (!best && d->min == 0 && d->max == 1 && convert_bool(val, conv, sizeof(conv)))
			best = conv[0] == '1' ? "on" : "off";
	} else if (d->max >= 1000) {
		/* A time with a unit, where the kernel wants milliseconds. */
		long long ms = config_hint_timespan_ms(val, -1);
		bool is_ms = d->id == OPT_MIIMON || d->id == OPT_UPDELAY || d->id == OPT_DOWNDELAY ||
			     d->id == OPT_PEER_NOTIF_DELAY || d->id == OPT_ARP_INTERVAL;
		if (is_ms && ms >= 0) {
			snprintf(buf, len, "; the value is in milliseconds, without a unit: "
				 "did you mean %lld?", ms);
			return;
		}
	}
	if (best)
		snprintf(buf, len, "; did you mean \"%s\"?", best);
}
