/* SPDX-License-Identifier: MIT */
/*
 * teamd configurations (teamd.conf(5): the JSON that teamd -f reads, or
 * that `teamdctl DEV config dump` prints) into plain data.  teamd is
 * deprecated in RHEL 9 in favour of the bonding driver; its runners map to
 * bonding modes, its link watchers to the bond's link monitors:
 *
 * - device is the bond's name; runner.name: roundrobin -> balance-rr,
 *   activebackup -> active-backup, loadbalance -> balance-xor, broadcast ->
 *   broadcast, lacp -> 802.3ad (default roundrobin); random has no bonding
 *   mode (balance-rr, noted);
 * - runner.tx_hash (loadbalance, lacp; default eth, ipv4, ipv6) -> the
 *   nearest xmit_hash_policy: with l4 fields layer3+4, with IP fields
 *   layer2+3, else layer2 (teamd hashes the listed fields; the kernel's
 *   policies are fixed sets: noted);
 * - runner.hwaddr_policy (activebackup) -> fail_over_mac: by_active ->
 *   active, only_active -> follow; runner.active, fast_rate, sys_prio,
 *   min_ports (lacp) -> lacp_active, lacp_rate, ad_actor_sys_prio,
 *   min_links; agg_select_policy bandwidth and count -> ad_select;
 * - link_watch ethtool (the default) -> miimon 100, teamd watching link
 *   events where the kernel polls, delay_up/delay_down -> updelay/downdelay
 *   (rounded up to multiples of miimon, noted); arp_ping -> arp_interval,
 *   arp_ip_target, arp_missed_max, arp_validate; nsna_ping -> arp_interval
 *   with ns_ip6_target.  link_watch may be a list: teamd keeps a port up
 *   while any of its watches says so (teamd_link_watch.c,
 *   teamd_link_watch_port_up: the first watch that reports link up
 *   decides; link_watch_policy "all", where newer teamd has it, is noted),
 *   which is what the bonding
 *   driver does with several arp_ip_target entries (arp_all_targets any), so
 *   the targets of every arp_ping watch go to arp_ip_target (and of every
 *   nsna_ping watch to ns_ip6_target); the interval and the other settings
 *   are the first ping watch's, and an ethtool watch beside ping watches is
 *   noted (the kernel runs one monitor);
 * - notify_peers.count -> num_grat_arp, mcast_rejoin.count -> resend_igmp;
 * - ports, in the order of the file: the slaves; prio -> slave.NAME.prio
 *   (the kernel uses it where teamd does, to choose the active port),
 *   queue_id -> slave.NAME.queue_id.
 * teamd sets no MTU and no address: the bond gets the kernel's 1500 and a
 * note says where the addresses were (ifcfg or NetworkManager).
 */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEAMD_MIIMON 100

static const char *str(const struct json *v)
{
	return v && v->type == JSON_STR ? v->str : NULL;
}

/* A whole number in [min, max], or false. */
static bool whole(const struct json *v, double min, double max, long *out)
{
	if (!v || v->type != JSON_NUM || !(v->num >= min && v->num <= max) ||
	    v->num != (double)(long long)v->num)
		return false;
	*out = (long)v->num;
	return true;
}

static void set_num(struct import_bond *b, const char *key, long v, const char *from)
{
	char text[24];

	snprintf(text, sizeof(text), "%ld", v);
	import_set_opt(b, key, text, from);
}

/* A number setting at path in an object: copied to bondd's key, or noted. */
static void number_opt(struct import_bond *b, const struct json *obj, const char *name,
		       const char *key, long min, long max, const char *from)
{
	const struct json *v = json_get(obj, name);
	long n;

	if (!v)
		return;
	if (whole(v, (double)min, (double)max, &n))
		set_num(b, key, n, from);
	else
		import_note(&b->notes, "not carried over: %s (%s): not a number %ld-%ld", name,
			    from, min, max);
}

static const char *runner_mode(const char *runner, struct import_bond *b, const char *from)
{
	static const struct {
		const char *runner, *mode;
	} map[] = {
		{"roundrobin", "balance-rr"}, {"activebackup", "active-backup"},
		{"loadbalance", "balance-xor"}, {"broadcast", "broadcast"},
		{"lacp", "802.3ad"},
	};

	if (!runner)
		return "balance-rr";
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(runner, map[i].runner) == 0)
			return map[i].mode;
	import_note(&b->notes, "runner %.40s (%s) has no bonding mode: balance-rr instead, "
		    "check it", runner, from);
	return "balance-rr";
}

static void tx_hash(struct import_bond *b, const struct json *runner, const char *from)
{
	const struct json *h = json_get(runner, "tx_hash");
	bool l4 = false, l3 = false, l2 = false;

	if (!h) {
		l2 = l3 = true; /* teamd's default: eth, ipv4, ipv6 */
	} else if (h->type != JSON_ARR) {
		import_note(&b->notes, "not carried over: runner.tx_hash (%s): not a list", from);
		return;
	}
	for (size_t i = 0; h && i < h->n; i++) {
		const char *f = str(&h->items[i]);
		if (!f)
			continue;
		if (!strcmp(f, "tcp") || !strcmp(f, "udp") || !strcmp(f, "sctp") || !strcmp(f, "l4"))
			l4 = true;
		else if (!strcmp(f, "ipv4") || !strcmp(f, "ipv6") || !strcmp(f, "ip") ||
			 !strcmp(f, "l3"))
			l3 = true;
		else if (!strcmp(f, "eth") || !strcmp(f, "vlan"))
			l2 = true;
	}
	const char *policy = l4 ? "layer3+4" : l3 ? "layer2+3" : "layer2";
	import_set_opt(b, "xmit_hash_policy", policy, from);
	import_note(&b->notes, "xmit_hash_policy = %s is the kernel's nearest to teamd's "
		    "tx_hash (%s%s%s): check it", policy, l2 ? "l2" : "",
		    l3 ? (l2 ? " l3" : "l3") : "", l4 ? " l4" : "");
	if (json_get(runner, "tx_balancer"))
		import_note(&b->notes, "not carried over: runner.tx_balancer (%s): the kernel "
			    "does not rebalance hashes", from);
}

static void runner_opts(struct import_bond *b, const struct json *runner, const char *name,
			const char *from)
{
	if (name && (strcmp(name, "loadbalance") == 0 || strcmp(name, "lacp") == 0))
		tx_hash(b, runner, from);
	if (name && strcmp(name, "activebackup") == 0) {
		const char *p = str(json_get(runner, "hwaddr_policy"));
		if (p && strcmp(p, "by_active") == 0)
			import_set_opt(b, "fail_over_mac", "active", from);
		else if (p && strcmp(p, "only_active") == 0)
			import_set_opt(b, "fail_over_mac", "follow", from);
		else if (p && strcmp(p, "same_all") != 0)
			import_note(&b->notes, "not carried over: runner.hwaddr_policy %.40s (%s)",
				    p, from);
	}
	if (!name || strcmp(name, "lacp") != 0)
		return;
	const struct json *active = json_get(runner, "active");
	if (active && active->type == JSON_BOOL)
		import_set_opt(b, "lacp_active", active->b ? "on" : "off", from);
	const struct json *fast = json_get(runner, "fast_rate");
	if (fast && fast->type == JSON_BOOL)
		import_set_opt(b, "lacp_rate", fast->b ? "fast" : "slow", from);
	number_opt(b, runner, "sys_prio", "ad_actor_sys_prio", 1, 65535, from);
	number_opt(b, runner, "min_ports", "min_links", 0, 255, from);
	const char *sel = str(json_get(runner, "agg_select_policy"));
	if (sel && (strcmp(sel, "bandwidth") == 0 || strcmp(sel, "count") == 0))
		import_set_opt(b, "ad_select", sel, from);
	else if (sel)
		import_note(&b->notes, "not carried over: runner.agg_select_policy %.40s (%s): "
			    "the kernel selects by stable, bandwidth or count", sel, from);
}

/* A delay in ms as a multiple of miimon, rounded up (the kernel would
 * round it down). */
static void delay(struct import_bond *b, const struct json *w, const char *name,
		  const char *key, const char *from)
{
	long ms;
	const struct json *v = json_get(w, name);

	if (!v)
		return;
	if (!whole(v, 0, 2147483647.0 - TEAMD_MIIMON, &ms)) {
		import_note(&b->notes, "not carried over: link_watch.%s (%s)", name, from);
		return;
	}
	long rounded = (ms + TEAMD_MIIMON - 1) / TEAMD_MIIMON * TEAMD_MIIMON;
	if (rounded != ms)
		import_note(&b->notes, "link_watch.%s %ld (%s) is %s = %ld: a multiple of miimon",
			    name, ms, from, key, rounded);
	set_num(b, key, rounded, from);
}

/* One ping watch's target added to a comma list (the kernel takes 16). */
static void add_target(char *list, size_t len, const char *t, unsigned *n)
{
	if (*n == 16 || strstr(list, t))
		return;
	snprintf(list + strlen(list), len - strlen(list), "%s%s", list[0] ? "," : "", t);
	(*n)++;
}

static bool is_ping(const char *name, bool *ns)
{
	*ns = name && strcmp(name, "nsna_ping") == 0;
	return name && (*ns || strcmp(name, "arp_ping") == 0);
}

/* The ping watches of ws (n of them): the first one's settings, every
 * one's target. */
static void ping_watches(struct import_bond *b, const struct json *ws, size_t n,
			 const char *from)
{
	char arp[256] = "", ns6[512] = "";
	unsigned n_arp = 0, n_ns = 0;
	long first_interval = -1;

	for (size_t i = 0; i < n; i++) {
		const struct json *w = &ws[i];
		bool ns;
		if (!is_ping(str(json_get(w, "name")), &ns))
			continue;
		const char *kind = ns ? "nsna_ping" : "arp_ping";
		const char *target = str(json_get(w, "target_host"));
		long interval;
		if (!whole(json_get(w, "interval"), 1, 2147483647.0, &interval)) {
			import_note(&b->notes, "not carried over: the %s link watch (%s) has no "
				    "interval", kind, from);
			continue;
		}
		if (!target || !*target || strchr(target, ',')) {
			import_note(&b->notes, "not carried over: the %s link watch (%s) has no "
				    "usable target_host", kind, from);
			continue;
		}
		if (ns)
			add_target(ns6, sizeof(ns6), target, &n_ns);
		else
			add_target(arp, sizeof(arp), target, &n_arp);
		if (first_interval < 0) {
			first_interval = interval;
			set_num(b, "arp_interval", interval, from);
			number_opt(b, w, "missed_max", "arp_missed_max", 1, 255, from);
			const struct json *va = json_get(w, "validate_active");
			const struct json *vi = json_get(w, "validate_inactive");
			bool a = va && va->type == JSON_BOOL && va->b;
			bool in = vi && vi->type == JSON_BOOL && vi->b;
			if (a || in)
				import_set_opt(b, "arp_validate", a && in ? "all" : a ? "active" :
					       "backup", from);
		} else if (interval != first_interval) {
			import_note(&b->notes, "the %s link watch for %.60s (%s) has interval %ld: "
				    "the bond has one arp_interval, %ld, the first watch's", kind,
				    target, from, interval, first_interval);
		}
		if (json_get(w, "source_host") || json_get(w, "send_always") ||
		    json_get(w, "vlanid") || json_get(w, "init_wait"))
			import_note(&b->notes, "not carried over: source_host, send_always, vlanid "
				    "or init_wait of the %s link watch (%s)", kind, from);
	}
	if (arp[0])
		import_set_opt(b, "arp_ip_target", arp, from);
	if (ns6[0])
		import_set_opt(b, "ns_ip6_target", ns6, from);
}

static void link_watch(struct import_bond *b, const struct json *lw, const char *from)
{
	const struct json *ws = lw;
	size_t n = lw ? 1 : 0, n_ping = 0;
	bool ns;

	if (lw && lw->type == JSON_ARR) {
		ws = lw->items;
		n = lw->n;
	}
	for (size_t i = 0; i < n; i++)
		if (is_ping(str(json_get(&ws[i], "name")), &ns))
			n_ping++;
	if (n_ping) {
		ping_watches(b, ws, n, from);
		for (size_t i = 0; i < n; i++) {
			const char *name = str(json_get(&ws[i], "name"));
			if (!is_ping(name, &ns))
				import_note(&b->notes, "not carried over: link watch %.40s (%s): the "
					    "bond runs one link monitor, the ARP/NS one here",
					    name ? name : "ethtool", from);
		}
		return;
	}
	const struct json *w = n ? &ws[0] : NULL;
	const char *name = w ? str(json_get(w, "name")) : NULL;
	for (size_t i = 1; i < n; i++)
		import_note(&b->notes, "not carried over: link watch %zu (%s): the bond has one "
			    "MII monitor", i + 1, from);
	if (!w || !name || strcmp(name, "ethtool") == 0) {
		set_num(b, "miimon", TEAMD_MIIMON, from);
		import_note(&b->notes, "miimon = %d stands for teamd's ethtool link watch, which "
			    "follows link events where the kernel polls", TEAMD_MIIMON);
		delay(b, w, "delay_up", "updelay", from);
		delay(b, w, "delay_down", "downdelay", from);
	} else {
		import_note(&b->notes, "not carried over: link watch %.40s (%s)", name, from);
	}
}

static void ports(struct import_bond *b, const struct json *p, const char *mode,
		  const char *from)
{
	if (!p)
		return;
	if (p->type != JSON_OBJ) {
		import_note(&b->notes, "not carried over: ports (%s): not an object", from);
		return;
	}
	bool prio_applies = strcmp(mode, "active-backup") == 0;
	for (size_t i = 0; i < p->n; i++) {
		const char *name = p->keys[i];
		const struct json *port = &p->items[i];
		long v;
		if (!import_add_slave(b, name, from))
			continue;
		size_t at = b->n_slaves - 1;
		if (strcmp(b->slaves[at], name) != 0)
			continue; /* listed twice: the first place counts */
		const struct json *prio = json_get(port, "prio");
		if (prio && !whole(prio, -2147483648.0, 2147483647.0, &v)) {
			import_note(&b->notes, "not carried over: ports.%s.prio (%s): not a number",
				    name, from);
		} else if (prio && prio_applies) {
			b->has_prio[at] = true;
			b->prio[at] = (int32_t)v;
		} else if (prio && v != 0) {
			import_note(&b->notes, "not carried over: ports.%s.prio (%s): only the "
				    "activebackup runner chooses ports by it", name, from);
		}
		if (whole(json_get(port, "queue_id"), 0, 65535, &v) && v > 0) {
			b->has_queue_id[at] = true;
			b->queue_id[at] = (uint16_t)v;
		}
		if (json_get(port, "sticky") || json_get(port, "lacp_prio") ||
		    json_get(port, "lacp_key") || json_get(port, "link_watch"))
			import_note(&b->notes, "not carried over: sticky, lacp_prio, lacp_key or "
				    "link_watch of port %s (%s)", name, from);
	}
}

static int read_team(struct import_result *r, const struct import_file *f)
{
	struct json root;
	char err[96];
	int rc = json_parse(f->text, f->len, &root, err, sizeof(err));

	if (rc == -ENOMEM)
		return rc;
	if (rc < 0) {
		import_note(&r->notes, "%s: not JSON (%s); skipped", f->name, err);
		return 0;
	}
	const char *dev = str(json_get(&root, "device"));
	if (root.type != JSON_OBJ || !dev) {
		import_note(&r->notes, "%s: no \"device\": not a teamd configuration; skipped",
			    f->name);
		json_free(&root);
		return 0;
	}
	struct import_bond *b = import_add_bond(r, dev, f->name);
	if (b) {
		const struct json *runner = json_get(&root, "runner");
		const char *name = str(json_get(runner, "name"));
		const char *mode = runner_mode(name, b, f->name);
		b->order_note = "teamd keeps none; the order of \"ports\" in the file. teamd names "
				"ports by name only: a rename loses them; bondd can name them by "
				"mac: or path: (bondd.conf(5)).";
		import_set_opt(b, "mode", mode, f->name);
		runner_opts(b, runner, name, f->name);
		link_watch(b, json_get(&root, "link_watch"), f->name);
		const char *policy = str(json_get(&root, "link_watch_policy"));
		if (policy && strcmp(policy, "any") != 0)
			import_note(&b->notes, "not carried over: link_watch_policy %.20s (%s): "
				    "the bond counts a port up when any target answers",
				    policy, f->name);
		number_opt(b, json_get(&root, "notify_peers"), "count", "num_grat_arp", 0, 255,
			   f->name);
		number_opt(b, json_get(&root, "mcast_rejoin"), "count", "resend_igmp", 0, 255,
			   f->name);
		ports(b, json_get(&root, "ports"), mode, f->name);
		if (json_get(&root, "hwaddr"))
			import_note(&b->notes, "not carried over: hwaddr (%s)", f->name);
		import_note(&b->notes, "teamd sets no address and no MTU: add those of %s from "
			    "its ifcfg file or NetworkManager profile", dev);
	}
	json_free(&root);
	return 0;
}

int import_teamd(const struct import_file *files, size_t n, struct import_result *out)
{
	int err = 0;

	out->format = "teamd";
	for (size_t i = 0; i < n && !err; i++)
		err = read_team(out, &files[i]);
	return err ? err : import_result_oom(out);
}
