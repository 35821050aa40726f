/* SPDX-License-Identifier: MIT */
/*
 * The planner, case by case: a desired and an observed state in, the exact
 * action list and notes out.  Each case then applies its actions to a model
 * of the bonding driver (plan_fixture.h), which fails the case if an action
 * breaks a kernel rule or resends a value the kernel has, and plans again:
 * one pass must converge, so the second plan must be empty.
 */
#include <limits.h>

#include "plan_fixture.h"

#define B(o) OPT_BIT(o)
#define UNSET INT64_MIN
#define MAX_EXP 32
#define MAX_NOTES 4

/* One expected action; fields a kind does not use must be zero in it. */
struct exp {
	enum action_kind kind;
	const char *ifname;
	const char *bond;
	const char *why;
	uint64_t opts;           /* CREATE, SET_OPTS: exactly these options */
	uint32_t mtu;            /* CREATE, SET_MTU */
	size_t addr;             /* ADD_ADDR: index in the bond's configured addrs */
	int64_t queue_id, prio;  /* SET_SLAVE_OPTS: UNSET when not sent */
	int64_t actor_prio;      /* SET_SLAVE_OPTS: actor_port_prio, UNSET when not sent */
	const char *cc;          /* SET_ROUTE_CC: the algorithm written, "" none */
	bool mac;                /* CREATE, SET_MAC: the configured mac_address sent */
	const char *master;      /* SET_BRIDGE: the bridge */
};

struct exp_note {
	const char *bond, *ifname, *msg;
};

#define EXP(k, dev, b, w) .kind = (k), .ifname = (dev), .bond = (b), .why = (w)
#define A_CREATE(b, bits, m) {EXP(ACT_CREATE_BOND, b, b, "missing"), .opts = (bits), .mtu = (m)}
#define A_CREATE_MAC(b, bits, m) {EXP(ACT_CREATE_BOND, b, b, "missing"), .opts = (bits), \
				  .mtu = (m), .mac = true}
#define A_MAC(b, why) {EXP(ACT_SET_MAC, b, b, why), .mac = true}
#define A_DELETE(b) {EXP(ACT_DELETE_BOND, b, b, "state absent")}
#define A_OPTS(b, why, bits) {EXP(ACT_SET_OPTS, b, b, why), .opts = (bits)}
#define A_MTU(dev, b, m) {EXP(ACT_SET_MTU, dev, b, "mtu"), .mtu = (m)}
#define A_DOWN(dev, b, why) {EXP(ACT_LINK_DOWN, dev, b, why)}
#define A_UP(b, why) {EXP(ACT_LINK_UP, b, b, why)}
#define A_ENSLAVE(dev, b, why) {EXP(ACT_ENSLAVE, dev, b, why)}
#define A_RELEASE(dev, b, why) {EXP(ACT_RELEASE, dev, b, why)}
#define A_SLAVE(dev, b, q, p) {EXP(ACT_SET_SLAVE_OPTS, dev, b, "option"), .queue_id = (q), .prio = (p), \
			       .actor_prio = UNSET}
#define A_SLAVE_AD(dev, b, ap) {EXP(ACT_SET_SLAVE_OPTS, dev, b, "option"), .queue_id = UNSET, \
				.prio = UNSET, .actor_prio = (ap)}
#define A_ADDR(b, i) {EXP(ACT_ADD_ADDR, b, b, "address"), .addr = (i)}
#define A_BRIDGE(b, br, why) {EXP(ACT_SET_BRIDGE, b, b, why), .master = (br)}
#define A_ROUTE_CC(b, c, why) {EXP(ACT_SET_ROUTE_CC, b, b, why), .cc = (c)}

struct plan_case {
	const char *name;
	void (*setup)(struct fx *f);
	struct exp acts[MAX_EXP];          /* ends at the first ifname == NULL */
	struct exp_note notes[MAX_NOTES];  /* ends at the first bond == NULL */
	void (*extra)(const struct fx *f); /* further checks, or NULL */
};

/* ---- comparing ------------------------------------------------------------ */

static size_t n_exp(const struct exp *e)
{
	size_t n = 0;
	while (n < MAX_EXP && e[n].ifname)
		n++;
	return n;
}

static size_t n_exp_notes(const struct exp_note *e)
{
	size_t n = 0;
	while (n < MAX_NOTES && e[n].bond)
		n++;
	return n;
}

static bool same_addr(const struct bond_addr *a, const struct bond_addr *b)
{
	return a->family == b->family && a->prefixlen == b->prefixlen &&
	       memcmp(a->addr, b->addr, sizeof(a->addr)) == 0;
}

/* NULL when a matches e, else what differs. */
static const char *mismatch(const struct fx *f, const struct action *a, const struct exp *e)
{
	const struct desired_bond *want = desired_find_bond(&f->want, a->bond);

	if (a->kind != e->kind)
		return "kind";
	if (strcmp(a->ifname, e->ifname) != 0)
		return "ifname";
	if (strcmp(a->bond, e->bond) != 0)
		return "bond";
	if (!a->why || strcmp(a->why, e->why) != 0)
		return "why";
	if (a->opts.have != e->opts)
		return "options sent";
	for (int id = 0; id < OPT__COUNT; id++)
		if (bond_settings_has(&a->opts, (enum bond_option_id)id) &&
		    (!want || !bond_settings_equal(&a->opts, &want->opts, (enum bond_option_id)id)))
			return "an option value is not the configured one";
	if (a->mtu != e->mtu)
		return "mtu";
	if (a->has_mac != e->mac)
		return "mac sent or not";
	if (a->has_mac && (!want || !want->has_mac || memcmp(a->mac, want->mac, 6) != 0))
		return "mac is not the configured one";
	if (a->kind == ACT_ADD_ADDR) {
		if (!want || e->addr >= want->n_addrs || !same_addr(&a->addr, &want->addrs[e->addr]))
			return "address";
	} else if (a->addr.family != 0) {
		return "address set on a non-address action";
	}
	if (a->kind == ACT_SET_SLAVE_OPTS) {
		if (a->slave.has_queue_id != (e->queue_id != UNSET) ||
		    (a->slave.has_queue_id && a->slave.queue_id != e->queue_id))
			return "queue_id";
		if (a->slave.has_prio != (e->prio != UNSET) ||
		    (a->slave.has_prio && a->slave.prio != e->prio))
			return "prio";
		if (a->slave.has_actor_port_prio != (e->actor_prio != UNSET) ||
		    (a->slave.has_actor_port_prio && a->slave.actor_port_prio != e->actor_prio))
			return "actor_port_prio";
	} else if (a->slave.has_queue_id || a->slave.has_prio || a->slave.has_actor_port_prio) {
		return "slave options set on another action";
	}
	if (a->kind == ACT_SET_BRIDGE) {
		if (!e->master || strcmp(a->master, e->master) != 0)
			return "bridge";
	} else if (a->master[0]) {
		return "bridge set on another action";
	}
	if (a->kind == ACT_SET_ROUTE_CC) {
		if (!e->cc || strcmp(a->route.cc_algo, e->cc) != 0)
			return "congestion control";
	} else if (a->route.family != 0) {
		return "route set on another action";
	}
	return NULL;
}

static void dump_plan(const struct fx *f, const struct exp *e, size_t n)
{
	char buf[512];

	print_message("planned:\n");
	for (size_t i = 0; i < f->out.n; i++)
		print_message("  %zu %s\n", i, action_describe(&f->out.v[i], buf, sizeof(buf)));
	for (size_t i = 0; i < f->out.n_notes; i++)
		print_message("  note %s %s: %s\n", f->out.notes[i].bond, f->out.notes[i].ifname,
			      f->out.notes[i].msg);
	print_message("expected:\n");
	for (size_t i = 0; i < n; i++)
		print_message("  %zu %s %s (%s)\n", i, action_kind_name(e[i].kind), e[i].ifname,
			      e[i].why);
}

static void expect_actions(const struct fx *f, const struct exp *e)
{
	size_t n = n_exp(e);

	if (f->out.n != n) {
		dump_plan(f, e, n);
		fail_msg("%zu actions planned, %zu expected", f->out.n, n);
	}
	for (size_t i = 0; i < n; i++) {
		const char *what = mismatch(f, &f->out.v[i], &e[i]);
		if (what) {
			dump_plan(f, e, n);
			fail_msg("action %zu: %s differs", i, what);
		}
	}
}

static void expect_notes(const struct fx *f, const struct exp_note *e)
{
	size_t n = n_exp_notes(e);

	if (f->out.n_notes != n) {
		dump_plan(f, NULL, 0);
		fail_msg("%zu notes, %zu expected", f->out.n_notes, n);
	}
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(f->out.notes[i].bond, e[i].bond);
		assert_string_equal(f->out.notes[i].ifname, e[i].ifname);
		assert_string_equal(f->out.notes[i].msg, e[i].msg);
	}
}

static void run_plan(struct fx *f)
{
	struct plan_constraints h = fx_holds(f);

	action_list_clear(&f->out);
	assert_int_equal(plan(&f->want, &f->have, &h, &f->out), 0);
}

/* ---- common fixtures ------------------------------------------------------ */

/* The storage node: four ports striped in balance-rr. */
static struct desired_bond *want_rr4(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2 eth3 eth4");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	want_addr(b, "10.0.0.1/24");
	return b;
}

static void rr4_converged(struct fx *f)
{
	want_rr4(f);
	obs_converged(f);
}

/* Someone set the bond's MTU: the kernel carried it to every slave. */
static void obs_bond_mtu(struct fx *f, const char *bond, uint32_t mtu)
{
	struct obs_link *m = obs(f, bond);
	m->mtu = mtu;
	for (size_t i = 0; i < m->n_order; i++) {
		char slave[IFNAMSIZ];
		memcpy(slave, obs(f, bond)->order[i], IFNAMSIZ);
		obs(f, slave)->mtu = mtu;
	}
}

static void nics(struct fx *f, const char *names, bool up)
{
	char list[128];
	snprintf(list, sizeof(list), "%s", names);
	for (char *save = NULL, *s = strtok_r(list, " ", &save); s;
	     s = strtok_r(NULL, " ", &save))
		obs_nic(f, s, up);
}

/* ---- setups: converged states ---------------------------------------------- */

static void setup_converged_8023ad(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2 eth3 eth4");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_AD_LACP_RATE, 1);
	bond_settings_set(&b->opts, OPT_XMIT_HASH_POLICY, 1);
	bond_settings_set(&b->opts, OPT_MIN_LINKS, 1);
	want_addr(b, "10.0.0.1/24");
	obs_converged(f);
}

static void setup_converged_active_backup(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_FAIL_OVER_MAC, 1);
	want_primary(b, "eth2");
	want_queue_id(b, "eth1", 1);
	want_prio(b, "eth2", 10);
	want_addr(b, "10.0.0.1/24");
	want_addr(b, "fd00::1/64");
	obs_converged(f);
}

/* One bond per mode, each with options that mode takes. */
static void setup_converged_every_mode(struct fx *f)
{
	struct desired_bond *b;

	b = want_bond(f, "brr", MODE_BALANCE_RR, "e0 e1");
	bond_settings_set(&b->opts, OPT_PACKETS_PER_SLAVE, 4);
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	b = want_bond(f, "bab", MODE_ACTIVE_BACKUP, "e2 e3");
	want_primary(b, "e3");
	bond_settings_set(&b->opts, OPT_PRIMARY_RESELECT, 2);
	bond_settings_set(&b->opts, OPT_FAIL_OVER_MAC, 2);
	bond_settings_set(&b->opts, OPT_ARP_INTERVAL, 200);
	want_arp_target(b, "10.0.0.254");
	want_arp_target(b, "10.0.0.253");
	want_ns_target(b, "fd00::fe");
	bond_settings_set(&b->opts, OPT_ARP_VALIDATE, 3);
	bond_settings_set(&b->opts, OPT_ARP_ALL_TARGETS, 1);
	bond_settings_set(&b->opts, OPT_MISSED_MAX, 3);
	b = want_bond(f, "bxor", MODE_BALANCE_XOR, "e4 e5");
	bond_settings_set(&b->opts, OPT_XMIT_HASH_POLICY, 2);
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_UPDELAY, 200);
	bond_settings_set(&b->opts, OPT_DOWNDELAY, 200);
	bond_settings_set(&b->opts, OPT_USE_CARRIER, 0);
	b = want_bond(f, "bbc", MODE_BROADCAST, "e6 e7");
	bond_settings_set(&b->opts, OPT_MIIMON, 50);
	bond_settings_set(&b->opts, OPT_ALL_SLAVES_ACTIVE, 1);
	b = want_bond(f, "bad", MODE_8023AD, "e8 e9");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_AD_LACP_ACTIVE, 1);
	bond_settings_set(&b->opts, OPT_AD_LACP_RATE, 1);
	bond_settings_set(&b->opts, OPT_AD_SELECT, 2);
	bond_settings_set(&b->opts, OPT_AD_ACTOR_SYS_PRIO, 100);
	bond_settings_set(&b->opts, OPT_AD_USER_PORT_KEY, 5);
	want_actor_system(b, 0x42);
	b = want_bond(f, "btlb", MODE_BALANCE_TLB, "e10 e11");
	bond_settings_set(&b->opts, OPT_TLB_DYNAMIC_LB, 0);
	bond_settings_set(&b->opts, OPT_LP_INTERVAL, 2);
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	b = want_bond(f, "balb", MODE_BALANCE_ALB, "e12 e13");
	want_primary(b, "e12");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_RESEND_IGMP, 3);
	bond_settings_set(&b->opts, OPT_NUM_PEER_NOTIF, 2);
	bond_settings_set(&b->opts, OPT_PEER_NOTIF_DELAY, 200);
	obs_converged(f);
}

/* Options the config leaves out are not managed, whatever their value. */
static void setup_unmanaged_options_differ(struct fx *f)
{
	rr4_converged(f);
	obs(f, "bond0")->bond.val[OPT_UPDELAY] = 500;
	obs(f, "bond0")->bond.val[OPT_PACKETS_PER_SLAVE] = 7;
	obs(f, "bond0")->bond.have &= ~B(OPT_RESEND_IGMP);
}

/* A port taken down for maintenance stays in place and down. */
static void setup_slave_admin_down(struct fx *f)
{
	rr4_converged(f);
	obs(f, "eth3")->flags &= ~(unsigned)(IFF_UP | IFF_LOWER_UP);
}

/* Addresses bondd did not add are never removed. */
static void setup_extra_address(struct fx *f)
{
	rr4_converged(f);
	obs_addr(f, "bond0", "192.168.1.5/24");
}

/* ---- setups: cold start ---------------------------------------------------- */

static void setup_cold_start(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_addr(b, "fd00::1/64");
	nics(f, "eth1 eth2 eth4", true); /* eth3 is not there */
}

static void setup_cold_start_ports_down(struct fx *f)
{
	want_rr4(f);
	nics(f, "eth1 eth2 eth3 eth4", false);
}

static void setup_cold_start_primary(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	want_primary(b, "eth2");
	want_queue_id(b, "eth2", 3);
	want_prio(b, "eth1", 0); /* the kernel's default: nothing to send */
	nics(f, "eth1 eth2", false);
}

static void setup_cold_start_primary_absent(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	want_primary(b, "eth2");
	nics(f, "eth1", false);
}

static void setup_cold_start_two_bonds(struct fx *f)
{
	want_bond(f, "bond1", MODE_BALANCE_RR, "eth3 eth4");
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2");
	nics(f, "eth1 eth2 eth3 eth4", false);
}

/* ---- setups: slave order ---------------------------------------------------- */

/* eth2 deleted (the kernel released it) and created again, admin-down. */
static void setup_slave_recreated(struct fx *f)
{
	rr4_converged(f);
	obs_delete(f, "eth2");
	obs_nic(f, "eth2", false);
}

static void setup_slave_recreated_up(struct fx *f)
{
	rr4_converged(f);
	obs_delete(f, "eth2");
	obs_nic(f, "eth2", true);
}

static void setup_slave_gone(struct fx *f)
{
	rr4_converged(f);
	obs_delete(f, "eth2");
}

static void setup_released_first(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth1");
}

static void setup_released_middle(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth3");
}

static void setup_released_last(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth4");
}

static void setup_order_swapped(struct fx *f)
{
	rr4_converged(f);
	obs_order(f, "bond0", "eth1 eth3 eth2 eth4");
}

/* /proc read a moment before eth4 joined: netlink says it is a slave. */
static void setup_slave_missing_from_proc(struct fx *f)
{
	rr4_converged(f);
	obs_order(f, "bond0", "eth1 eth2 eth3");
}

/* /proc read a moment before eth9 was deleted. */
static void setup_stale_proc_entry(struct fx *f)
{
	rr4_converged(f);
	obs_order(f, "bond0", "eth1 eth2 eth9 eth3 eth4");
}

static void setup_unconfigured_slave_last(struct fx *f)
{
	rr4_converged(f);
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
}

/* A port the file does not list, up, in a converged 802.3ad bond: set
 * down before its release (plan.c emit_release, "not configured"). */
static void setup_lacp_stranger_up(struct fx *f)
{
	setup_converged_8023ad(f);
	obs_nic(f, "eth9", true);
	obs_enslave(f, "eth9", "bond0");
	obs(f, "eth9")->flags |= IFF_UP;
}

static void setup_unconfigured_slave_middle(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth4");
	obs_release(f, "eth3");
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	obs_enslave(f, "eth3", "bond0");
	obs_enslave(f, "eth4", "bond0");
}

static void setup_unconfigured_slave_not_in_proc(struct fx *f)
{
	setup_unconfigured_slave_last(f);
	obs_order(f, "bond0", "eth1 eth2 eth3 eth4");
}

/* ---- setups: MTU -------------------------------------------------------------- */

static void setup_slave_mtu(struct fx *f)
{
	rr4_converged(f);
	obs(f, "eth3")->mtu = 1500;
}

static void setup_bond_mtu(struct fx *f)
{
	rr4_converged(f);
	obs_bond_mtu(f, "bond0", 1500);
}

static void setup_bond_and_slave_mtu(struct fx *f)
{
	setup_bond_mtu(f);
	obs(f, "eth3")->mtu = 4000;
}

static void setup_bond_mtu_and_released(struct fx *f)
{
	setup_bond_mtu(f);
	obs_release(f, "eth2");
}

static void setup_max_mtu_outside(struct fx *f)
{
	rr4_converged(f);
	obs_delete(f, "eth3");
	obs_nic(f, "eth3", false)->max_mtu = 1500;
}

static void setup_max_mtu_inside(struct fx *f)
{
	setup_bond_mtu(f);
	obs(f, "eth3")->max_mtu = 1500;
}

static void setup_max_mtu_unknown(struct fx *f)
{
	rr4_converged(f);
	obs_delete(f, "eth3");
	obs_nic(f, "eth3", false)->max_mtu = 0;
}

/* ---- setups: options ------------------------------------------------------------ */

static void setup_miimon_change(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	obs_converged(f);
	bond_settings_set(&b->opts, OPT_MIIMON, 200);
}

static void check_miimon_200(const struct fx *f)
{
	assert_int_equal(f->out.v[0].opts.val[OPT_MIIMON], 200);
}

static void setup_some_options_differ(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_BALANCE_XOR, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_UPDELAY, 200);
	bond_settings_set(&b->opts, OPT_DOWNDELAY, 200);
	bond_settings_set(&b->opts, OPT_XMIT_HASH_POLICY, 1);
	bond_settings_set(&b->opts, OPT_RESEND_IGMP, 1);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_UPDELAY] = 0;
	obs(f, "bond0")->bond.val[OPT_XMIT_HASH_POLICY] = 0;
}

static void check_some_options_values(const struct fx *f)
{
	assert_int_equal(f->out.v[0].opts.val[OPT_UPDELAY], 200);
	assert_int_equal(f->out.v[0].opts.val[OPT_XMIT_HASH_POLICY], 1);
}

static void setup_option_not_reported(struct fx *f)
{
	rr4_converged(f);
	obs(f, "bond0")->bond.have &= ~B(OPT_MIIMON);
}

/* The converged 802.3ad bond whose last message lacked the options
 * the kernel tells only a caller with CAP_NET_ADMIN in the initial user
 * namespace (bond_netlink.c bond_fill_info): ad_user_port_key is down-only,
 * so a difference would be an outage. */
static void setup_8023ad_privileged_unreported(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_AD_USER_PORT_KEY, 7);
	bond_settings_set(&b->opts, OPT_AD_ACTOR_SYS_PRIO, 100);
	b->opts.have |= B(OPT_AD_ACTOR_SYSTEM);
	b->opts.ad_actor_system[0] = 0x02;
	obs_converged(f);
	obs(f, "bond0")->bond.have &=
		~(B(OPT_AD_USER_PORT_KEY) | B(OPT_AD_ACTOR_SYS_PRIO) | B(OPT_AD_ACTOR_SYSTEM));
	obs(f, "bond0")->bond.val[OPT_AD_USER_PORT_KEY] = 0;
	obs(f, "bond0")->bond.val[OPT_AD_ACTOR_SYS_PRIO] = 0;
	memset(obs(f, "bond0")->bond.ad_actor_system, 0, 6);
}

static void setup_arp_targets_change(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_BALANCE_XOR, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_ARP_INTERVAL, 100);
	want_arp_target(b, "10.0.0.254");
	want_arp_target(b, "10.0.0.253");
	obs_converged(f);
	obs(f, "bond0")->bond.n_arp_ip_target = 1;
}

static void setup_actor_system_change(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	want_actor_system(b, 0x42);
	obs_converged(f);
	obs(f, "bond0")->bond.ad_actor_system[5] = 0x41;
}

static void setup_mode_change(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	obs_converged(f);
	b->opts.val[OPT_MODE] = MODE_ACTIVE_BACKUP;
}

static void setup_mode_and_miimon_change(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	obs_converged(f);
	b->opts.val[OPT_MODE] = MODE_ACTIVE_BACKUP;
	b->opts.val[OPT_MIIMON] = 200;
}

/* ad_select differs on a live balance-rr bond: the kernel takes it only
 * on a bond that is down, and balance-rr never reads it. */
static void setup_unused_down_only_change(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	bond_settings_set(&b->opts, OPT_AD_SELECT, 2);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_AD_SELECT] = 0;
}

static void setup_lacp_rate_change(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_AD_LACP_RATE, 1);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_AD_LACP_RATE] = 0;
}

/* 802.3ad ports are set down before each release (plan.c emit_release):
 * a rebuild away from 802.3ad, one into it, and the order restored with
 * keep_order yes; balance-rr's releases (mode_change_rebuilds) get none. */
static void setup_lacp_to_rr(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	obs_converged(f);
	b->opts.val[OPT_MODE] = MODE_BALANCE_RR;
}

static void setup_rr_to_lacp(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	obs_converged(f);
	b->opts.val[OPT_MODE] = MODE_8023AD;
}

static void setup_lacp_order(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2 eth3");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	b->has_keep_order = true;
	b->keep_order = true;
	obs_converged(f);
	obs_release(f, "eth2");
	obs_enslave(f, "eth2", "bond0"); /* now eth1 eth3 eth2 */
}

/* A port already down is released as it is: no request that changes nothing. */
static void setup_lacp_order_port_down(struct fx *f)
{
	setup_lacp_order(f);
	obs(f, "eth3")->flags &= ~(unsigned)IFF_UP;
}

/* A bond left down and empty (its ports are gone) in the wrong mode. */
static void setup_mode_change_empty_down(struct fx *f)
{
	want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	obs_converged(f);
	obs_delete(f, "eth1");
	obs_delete(f, "eth2");
	obs(f, "bond0")->flags = 0;
	obs(f, "bond0")->bond.val[OPT_MODE] = MODE_BALANCE_RR;
}

static struct desired_bond *want_ab_fom(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_FAIL_OVER_MAC, 1);
	want_primary(b, "eth1");
	return b;
}

static void setup_fail_over_mac_with_slaves(struct fx *f)
{
	want_ab_fom(f);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_FAIL_OVER_MAC] = 0;
}

static void setup_fail_over_mac_no_slaves(struct fx *f)
{
	setup_fail_over_mac_with_slaves(f);
	obs_delete(f, "eth1");
	obs_delete(f, "eth2");
}

static void setup_mode_and_fail_over_mac_no_slaves(struct fx *f)
{
	setup_fail_over_mac_no_slaves(f);
	obs(f, "bond0")->bond.val[OPT_MODE] = MODE_BALANCE_RR;
}

static void setup_rebuild_with_held_slave(struct fx *f)
{
	setup_mode_change(f);
	fx_hold(f, "eth2");
}

/* From balance-rr (no primary) to active-backup with one. */
static void setup_mode_change_primary(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	want_primary(b, "eth2");
	obs_converged(f);
	struct obs_link *m = obs(f, "bond0");
	m->bond.val[OPT_MODE] = MODE_BALANCE_RR;
	m->bond.primary[0] = '\0';
	m->primary_ifindex = 0;
	remembered_primary(f, "bond0")[0] = '\0';
}

/* ---- setups: what the planner leaves alone ----------------------------------------- */

static void setup_foreign_bridge(struct fx *f)
{
	want_rr4(f);
	nics(f, "eth1 eth2 eth3 eth4", false);
	int br = obs_new(f, "br0", "bridge")->ifindex;
	obs(f, "eth2")->master = br;
	obs(f, "eth2")->flags = IFF_UP;
}

static void setup_foreign_bond(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth2");
	obs_bond(f, "bond9", 1500);
	obs_enslave(f, "eth2", "bond9");
}

static void setup_master_unknown(struct fx *f)
{
	rr4_converged(f);
	obs_release(f, "eth2");
	obs(f, "eth2")->master = 99;
}

static void setup_slave_is_bond(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 bond9");
	nics(f, "eth1", false);
	obs_bond(f, "bond9", 1500);
}

static void setup_name_taken(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1");
	want_bond(f, "bond1", MODE_BALANCE_RR, "eth2");
	obs_new(f, "bond0", "dummy");
	nics(f, "eth1 eth2", false);
}

static void setup_held_slave_cold(struct fx *f)
{
	setup_cold_start_ports_down(f);
	fx_hold(f, "eth2");
}

static void setup_held_slave_in_bond(struct fx *f)
{
	setup_released_first(f);
	fx_hold(f, "eth2");
}

static void setup_held_slave_mtu(struct fx *f)
{
	setup_slave_mtu(f);
	fx_hold(f, "eth3");
}

static void setup_held_bond(struct fx *f)
{
	want_rr4(f);
	struct desired_bond *b1 = want_bond(f, "bond1", MODE_BALANCE_RR, "eth5 eth6");
	bond_settings_set(&b1->opts, OPT_MIIMON, 100);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_MIIMON] = 50;
	obs(f, "bond1")->bond.val[OPT_MIIMON] = 50;
	fx_hold(f, "bond0");
}

static void setup_held_bond_missing(struct fx *f)
{
	setup_cold_start_ports_down(f);
	fx_hold(f, "bond0");
}

/* ---- setups: slaves moving between managed bonds ------------------------------------ */

/* The config moved eth3 from bond0 to bond1. */
static void obs_eth3_in_bond0(struct fx *f)
{
	obs_converged(f);
	obs_release(f, "eth4");
	obs_release(f, "eth3");
	obs_enslave(f, "eth3", "bond0");
	obs_enslave(f, "eth4", "bond1");
}

static void setup_moved_to_later_bond(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2");
	want_bond(f, "bond1", MODE_BALANCE_RR, "eth3 eth4");
	obs_eth3_in_bond0(f);
}

static void setup_moved_to_earlier_bond(struct fx *f)
{
	want_bond(f, "bond1", MODE_BALANCE_RR, "eth3 eth4");
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2");
	obs_eth3_in_bond0(f);
}

/* ---- setups: primary, slave options, addresses, admin state ---------------------------- */

static void setup_primary_change(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	want_primary(b, "eth2");
	obs_converged(f);
	struct obs_link *m = obs(f, "bond0");
	fx_name(m->bond.primary, "eth1");
	m->primary_ifindex = obs(f, "eth1")->ifindex;
	fx_name(remembered_primary(f, "bond0"), "eth1");
}

static void setup_primary_returns(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	want_primary(b, "eth1");
	obs_converged(f);
	obs_release(f, "eth1");
}

static void setup_primary_absent(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	want_primary(b, "eth1");
	obs_converged(f);
	obs_delete(f, "eth1");
}

static void setup_primary_held(struct fx *f)
{
	setup_primary_returns(f);
	fx_hold(f, "eth1");
}

static void setup_queue_id_drift(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_queue_id(b, "eth2", 2);
	obs_converged(f);
	obs(f, "eth2")->slave.queue_id = 0;
}

static void setup_prio_drift(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	want_prio(b, "eth2", 5);
	want_queue_id(b, "eth2", 1);
	obs_converged(f);
	obs(f, "eth2")->slave.prio = -3;
}

static void setup_slave_opts_drift(struct fx *f)
{
	setup_prio_drift(f);
	obs(f, "eth2")->slave.queue_id = 0;
}

static void setup_slave_opts_fresh(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_queue_id(b, "eth4", 4);
	want_queue_id(b, "eth3", 0);
	obs_converged(f);
	obs_release(f, "eth4");
	obs_release(f, "eth3");
}

/* Re-enslaving resets queue_id and prio: set them again even though the
 * slave had them right before it was released for the order. */
static void setup_slave_opts_reenslaved(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2 eth3");
	b->has_keep_order = true;
	b->keep_order = true; /* eth1 is active: eth3 may be released */
	want_queue_id(b, "eth3", 3);
	want_prio(b, "eth3", 7);
	obs_converged(f);
	obs_release(f, "eth2");
}

/* actor_port_prio (802.3ad, 6.18 and stable kernels): a kept slave that
 * reports another value is set; one fresh from enslaving has the kernel's
 * 255, so only another value is sent. */
static struct desired_bond *want_ad_prio(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_8023AD, "eth1 eth2 eth3");
	want_slave(b, "eth2")->has_actor_port_prio = true;
	want_slave(b, "eth2")->actor_port_prio = 100;
	want_slave(b, "eth3")->has_actor_port_prio = true;
	want_slave(b, "eth3")->actor_port_prio = 255;
	return b;
}

static void setup_actor_prio_drift(struct fx *f)
{
	want_ad_prio(f);
	obs_converged(f);
	for (int i = 1; i <= 3; i++) {
		char name[8];
		snprintf(name, sizeof(name), "eth%d", i);
		obs(f, name)->slave.has_actor_port_prio = true;
		obs(f, name)->slave.actor_port_prio = 255;
	}
}

static void setup_actor_prio_fresh(struct fx *f)
{
	want_ad_prio(f);
	obs_converged(f);
	obs_release(f, "eth2");
	obs_release(f, "eth3");
}

/* A kernel that does not report it (mainline before 6.18): a kept slave
 * cannot be compared, and is not written again and again. */
static void setup_actor_prio_not_reported(struct fx *f)
{
	want_ad_prio(f);
	obs_converged(f);
}

static void setup_slave_info_unknown(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_queue_id(b, "eth2", 2);
	obs_converged(f);
	memset(&obs(f, "eth2")->slave, 0, sizeof(obs(f, "eth2")->slave));
}

static void setup_address_missing(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_addr(b, "fd00::1/64");
	obs_converged(f);
	struct obs_addr a = {obs(f, "bond0")->ifindex, b->addrs[1]};
	observed_del_addr(&f->have, &a);
}

static void setup_address_other_prefix(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	obs_converged(f);
	struct obs_addr a = {obs(f, "bond0")->ifindex, b->addrs[0]};
	observed_del_addr(&f->have, &a);
	obs_addr(f, "bond0", "10.0.0.1/16");
}

/* tcp_congestion: the connected routes of the configured IPv4 addresses. */
static void setup_route_cc_missing(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_addr(b, "fd00::1/64");    /* IPv6: not covered */
	want_addr(b, "10.9.9.9/32");   /* no prefix route */
	want_addr(b, "10.0.0.2/24");   /* the same subnet: the same route, once */
	snprintf(b->tcp_congestion, sizeof(b->tcp_congestion), "bbr");
	obs_converged(f);
	obs_route(f, "bond0", "10.0.0.1/24", "")->metrics[RTAX_MTU] = 1400;
	f->have.routes[0].metrics_set |= 1u << RTAX_MTU;
}

static void check_route_metrics_kept(const struct fx *f)
{
	assert_int_equal(f->out.v[0].route.metrics[RTAX_MTU], 1400);
	assert_true(f->out.v[0].route.metrics_set & (1u << RTAX_MTU));
	assert_int_equal(f->out.v[0].route.protocol, RTPROT_KERNEL);
	assert_true(f->out.v[0].route.has_prefsrc);
}

static void setup_route_cc_removed(struct fx *f)
{
	want_rr4(f);
	obs_converged(f);
	struct obs_route *r = obs_route(f, "bond0", "10.0.0.1/24", "bbr");
	r->metrics[RTAX_LOCK] = 1u << RTAX_CC_ALGO;
	r->metrics_set |= 1u << RTAX_LOCK;
}

static void check_route_lock_cleared(const struct fx *f)
{
	assert_int_equal(f->out.v[0].route.metrics[RTAX_LOCK], 0);
}

static void setup_route_cc_other(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	snprintf(b->tcp_congestion, sizeof(b->tcp_congestion), "cubic");
	obs_converged(f);
	obs_route(f, "bond0", "10.0.0.1/24", "bbr");
}

/* Another NIC (not bondd's) has an address in the bond's subnet: its
 * route shares the key.  Only the bond's route is named, as it was (to be
 * deleted exactly), and the new one goes where the old one was. */
static void setup_route_cc_other_nic_first(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	snprintf(b->tcp_congestion, sizeof(b->tcp_congestion), "bbr");
	obs_converged(f);
	obs_nic(f, "eth9", true);
	struct obs_route bond = f->have.routes[0];
	bond.cc_algo[0] = '\0';
	f->have.n_routes = 0;
	obs_route(f, "eth9", "10.0.0.9/24", "");
	assert_int_equal(observed_put_route(&f->have, &bond), 0);
}

static void check_route_cc_appended(const struct fx *f)
{
	const struct action *a = &f->out.v[0];
	assert_int_equal(a->route.oif, observed_by_name(&f->have, "bond0")->ifindex);
	assert_int_equal(a->route_was.oif, observed_by_name(&f->have, "bond0")->ifindex);
	assert_string_equal(a->route_was.cc_algo, "");
	assert_true(a->route_append);
}

static void setup_route_cc_bond_first(struct fx *f)
{
	setup_route_cc_other_nic_first(f);
	struct obs_route nic = f->have.routes[0];
	f->have.routes[0] = f->have.routes[1];
	f->have.routes[1] = nic;
}

static void check_route_cc_in_front(const struct fx *f)
{
	assert_int_equal(f->out.v[0].route.oif, observed_by_name(&f->have, "bond0")->ifindex);
	assert_false(f->out.v[0].route_append);
}

static void setup_route_cc_right(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	snprintf(b->tcp_congestion, sizeof(b->tcp_congestion), "bbr");
	obs_converged(f);
}

static void setup_route_cc_held(struct fx *f)
{
	setup_route_cc_other(f);
	fx_hold_key(f, "route bond0");
}

static void setup_route_cc_unknown_metric(struct fx *f)
{
	setup_route_cc_other(f);
	f->have.routes[0].unknown_metric = true;
}

static void setup_route_cc_no_route(struct fx *f)
{
	/* address just added: its route is not observed yet */
	struct desired_bond *b = want_rr4(f);
	snprintf(b->tcp_congestion, sizeof(b->tcp_congestion), "bbr");
	obs_converged(f);
	f->have.n_routes = 0;
}

static void setup_bond_down(struct fx *f)
{
	rr4_converged(f);
	obs(f, "bond0")->flags &= ~(unsigned)IFF_UP;
}

/* Every kind of drift on one bond, to pin the order of the steps. */
static void setup_everything_drifts(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_queue_id(b, "eth1", 1);
	obs_converged(f);
	obs_bond_mtu(f, "bond0", 1500);
	obs(f, "bond0")->bond.val[OPT_MIIMON] = 50;
	obs(f, "bond0")->flags &= ~(unsigned)IFF_UP;
	obs(f, "eth1")->slave.queue_id = 0;
	obs_release(f, "eth2");
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	struct obs_addr a = {obs(f, "bond0")->ifindex, b->addrs[0]};
	observed_del_addr(&f->have, &a);
}

/* ---- the table ------------------------------------------------------------------------- */

/* ---- setups: keep_order, holds per action, eligibility ---------------------- */

/* A NIC reset: the device deleted (the kernel releases it) and re-created,
 * admin-up, at MTU 1500. */
static void recreate(struct fx *f, const char *name)
{
	obs_delete(f, name);
	obs_nic(f, name, true);
}

/* active-backup, eth2 the primary and active: the backup eth1 comes back.
 * Restoring the order would release eth2: a failover for nothing. */
static void setup_ab_backup_returns(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	want_primary(b, "eth2");
	obs_converged(f);
	recreate(f, "eth1");
}

/* The same with keep_order yes asked for: the active slave still stays. */
static void setup_ab_keep_order_active_stays(struct fx *f)
{
	setup_ab_backup_returns(f);
	f->bonds[0].has_keep_order = true;
	f->bonds[0].keep_order = true;
}

/* Active-backup with keep_order yes, the active slave first: the backups
 * after the returning one are released for the order, the active is not. */
static void setup_ab_keep_order_backups_reordered(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2 eth3");
	b->has_keep_order = true;
	b->keep_order = true;
	obs_converged(f);
	recreate(f, "eth2");
}

static void expect_eth2_active(const struct fx *f)
{
	assert_int_equal(observed_by_name(&f->have, "eth2")->slave.state, 0);
}

/* 802.3ad: port 1 of 3 re-created.  Releasing ports 2 and 3 would take
 * the aggregator down and make the partner renegotiate. */
static void setup_lacp_port_returns(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "lag0", MODE_8023AD, "eth1 eth2 eth3");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	bond_settings_set(&b->opts, OPT_AD_LACP_RATE, 1);
	obs_converged(f);
	recreate(f, "eth1");
}

/* balance-rr told not to keep order. */
static void setup_rr_keep_order_no(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	b->has_keep_order = true;
	b->keep_order = false;
	obs_converged(f);
	recreate(f, "eth2");
}

/* A slave not configured, in the middle, with keep_order no: only it goes. */
static void setup_unordered_foreign_slave(struct fx *f)
{
	setup_lacp_port_returns(f);
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "lag0");
	obs_order(f, "lag0", "eth2 eth9 eth3");
}

/* The address keeps failing (IPv6 disabled): the returning slave is
 * enslaved all the same. */
static void setup_address_held(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	want_addr(b, "fd00::1/64");
	obs_converged(f);
	observed_del_addr(&f->have, &(struct obs_addr){obs(f, "bond0")->ifindex, b->addrs[1]});
	recreate(f, "eth4");
	fx_hold_key(f, "addr bond0 fd00::1/64");
}

/* One option refused: the others are still set. */
static void setup_option_held(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	bond_settings_set(&b->opts, OPT_PACKETS_PER_SLAVE, 4);
	obs_converged(f);
	obs(f, "bond0")->bond.val[OPT_PACKETS_PER_SLAVE] = 1;
	obs(f, "bond0")->bond.val[OPT_MIIMON] = 0;
	fx_hold_key(f, "opt bond0 packets_per_slave");
}

/* The bond's MTU refused: slaves follow the bond, not the config. */
static void setup_bond_mtu_held(struct fx *f)
{
	rr4_converged(f);
	obs_bond_mtu(f, "bond0", 1500);
	fx_hold_key(f, "mtu bond0");
}

/* The bond's MTU refused (a slave that cannot follow it) and a slave
 * re-created meanwhile: it is enslaved at once, at the bond's MTU. */
static void setup_bond_mtu_held_slave_returns(struct fx *f)
{
	setup_bond_mtu_held(f);
	recreate(f, "eth4");
}

/* The same, the slave back at the configured MTU: enslaving brings it to
 * the bond's (drivers/net/bonding/bond_main.c bond_enslave, dev_set_mtu). */
static void setup_bond_mtu_held_slave_returns_at_9000(struct fx *f)
{
	setup_bond_mtu_held_slave_returns(f);
	obs(f, "eth4")->mtu = 9000;
}

/* One slave's MTU refused: membership goes on, its MTU waits. */
static void setup_slave_mtu_held_key(struct fx *f)
{
	rr4_converged(f);
	obs(f, "eth2")->mtu = 1500;
	recreate(f, "eth4");
	fx_hold_key(f, "mtu eth2");
}

/* Deleting takes state = absent: bond1 goes, its slave is free again;
 * bond2, absent and of another kind, is left alone. */
static void setup_state_absent(struct fx *f)
{
	want_bond(f, "bond1", MODE_BALANCE_RR, "eth1");
	obs_converged(f);
	f->bonds[0].absent = true;
	f->bonds[0].n_slaves = 0;
	want_bond(f, "bond2", MODE_BALANCE_RR, "")->absent = true;
	obs_nic(f, "bond2", true);
}

/* An 802.3ad bond deleted by state = absent: deleting a bond releases its
 * ports, so each port that is up is set down first (plan.c emit_release). */
static void setup_state_absent_lacp(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "lag1", MODE_8023AD, "eth2 eth1 eth3");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	obs_converged(f);
	obs(f, "eth1")->flags &= ~(unsigned)IFF_UP; /* down already: no request */
	b->absent = true;
	b->n_slaves = 0;
}

/* The mode changed behind bondd's back (a foreign bond of that name), seen
 * in an event: no rebuild, and the bond is not taken over: left alone. */
static void setup_mode_change_from_event(struct fx *f)
{
	setup_mode_and_miimon_change(f);
	f->no_rebuild = true;
}

/* A VLAN already in the bond, as configured (enslaved by hand or by an
 * older bondd): it works, so it is left in place, not released. */
static void setup_ineligible_already_slave(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth1.5");
	obs_nic(f, "eth1", true);
	obs_new(f, "eth1.5", "vlan");
	obs_converged(f);
}

/* Typos and wrong links: none is touched. */
static void setup_ineligible(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 lo br0 eth1.5 tun0");
	obs_nic(f, "eth1", true);
	struct obs_link *l = obs_nic(f, "lo", true);
	l->flags |= IFF_LOOPBACK;
	l->type = ARPHRD_LOOPBACK;
	l->max_mtu = 0;
	obs_new(f, "br0", "bridge")->flags = IFF_UP;
	obs_new(f, "eth1.5", "vlan")->flags = IFF_UP;
	obs_new(f, "tun0", "tun")->type = ARPHRD_NONE;
}

/* NICs that carry something enslaving would cut off: a VLAN, a macvlan,
 * an address of their own.  None is set down; a link-local IPv6 address
 * and a veth peer (IFLA_LINK too) do not count. */
static void setup_carrying(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2 eth3 eth4 eth5");
	obs_nic(f, "eth1", true);
	obs_addr(f, "eth1", "fe80::1/64");
	obs_nic(f, "eth2", true);
	obs_new(f, "eth2.100", "vlan")->lower = obs(f, "eth2")->ifindex;
	obs_nic(f, "eth3", true);
	obs_new(f, "mv3", "macvlan")->lower = obs(f, "eth3")->ifindex;
	obs_nic(f, "eth4", true);
	obs_addr(f, "eth4", "198.51.100.4/24");
	obs_nic(f, "eth5", true);
	obs_new(f, "peer5", "veth")->lower = obs(f, "eth5")->ifindex;
}

/* balance-rr, eth2's enslave failed last time and is due again: eth3 and
 * eth4, healthy, are not released for its place; eth2 joins last. */
static void setup_failing_slave_joins_last(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2 eth3 eth4");
	obs_converged(f);
	obs_release(f, "eth2");
	fx_failing(f, "link eth2");
}

/* The same without the failure: the order is restored (keep_order). */
static void setup_missing_slave_reorders(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2 eth3 eth4");
	obs_converged(f);
	obs_release(f, "eth2");
}

/* The kernel refused eth2 as in use (a macvlan in a container's namespace):
 * not set down again, noted; eth3 joins as usual. */
static void setup_refused_in_use(struct fx *f)
{
	want_bond(f, "bond0", MODE_BALANCE_RR, "eth1 eth2 eth3");
	obs_converged(f);
	obs_release(f, "eth2");
	obs(f, "eth2")->flags |= IFF_UP;
	obs_release(f, "eth3");
	snprintf(f->refused[f->n_refused++], PLAN_KEY_SIZE, "link eth2");
}

/* ---- mac_address ----------------------------------------------------------------------- */

static const uint8_t pinned_mac[6] = {0x02, 0x00, 0x5e, 0x10, 0x00, 0x01};

static struct desired_bond *want_rr4_mac(struct fx *f)
{
	struct desired_bond *b = want_rr4(f);
	b->has_mac = true;
	memcpy(b->mac, pinned_mac, 6);
	return b;
}

static void setup_mac_cold_start(struct fx *f)
{
	want_rr4_mac(f);
	nics(f, "eth1 eth2 eth3 eth4", false);
}

/* The bond keeps the pinned MAC: a restart finds nothing to do. */
static void setup_mac_converged(struct fx *f)
{
	want_rr4_mac(f);
	obs_converged(f);
}

/* `ip link set bond0 address ...` by hand. */
static void setup_mac_changed_by_hand(struct fx *f)
{
	want_rr4_mac(f);
	obs_converged(f);
	obs(f, "bond0")->hwaddr[5] = 0x77;
}

/* A mode change releases every slave: the kernel's random MAC after the
 * last release would be replaced by eth1's at the first enslave. */
static void setup_mac_mode_change(struct fx *f)
{
	struct desired_bond *b = want_rr4_mac(f);
	obs_converged(f);
	b->opts.val[OPT_MODE] = MODE_ACTIVE_BACKUP;
}

/* Every slave deleted (a driver reload): the bond was left with a random
 * MAC; the NICs are back. */
static void setup_mac_slaves_returned(struct fx *f)
{
	want_rr4_mac(f);
	obs_converged(f);
	const char *names[] = {"eth4", "eth3", "eth2", "eth1"};
	for (size_t i = 0; i < 4; i++)
		obs_delete(f, names[i]);
	nics(f, "eth1 eth2 eth3 eth4", false);
}

/* One slave of four re-created: the others held the MAC. */
static void setup_mac_one_slave_returned(struct fx *f)
{
	want_rr4_mac(f);
	obs_converged(f);
	obs_delete(f, "eth4");
	nics(f, "eth4", false);
}

/* A MAC that failed to set backs off: not tried again meanwhile. */
static void setup_mac_held(struct fx *f)
{
	setup_mac_changed_by_hand(f);
	fx_hold_key(f, "mac bond0");
}

/* An active-backup bond bondd does not set fail_over_mac on, with
 * fail_over_mac active: the kernel would ignore the MAC. */
static void setup_mac_fail_over_mac_unmanaged(struct fx *f)
{
	struct desired_bond *b = want_bond(f, "bond0", MODE_ACTIVE_BACKUP, "eth1 eth2");
	bond_settings_set(&b->opts, OPT_MIIMON, 100);
	b->has_mac = true;
	memcpy(b->mac, pinned_mac, 6);
	obs_converged(f);
	struct obs_link *m = obs(f, "bond0");
	m->bond.val[OPT_FAIL_OVER_MAC] = 1;
	m->hwaddr[5] = 0x42;
}

/* ---- bridge = NAME ------------------------------------------------------------------- */

static struct obs_link *obs_bridge(struct fx *f, const char *name)
{
	struct obs_link *l = obs_new(f, name, "bridge");
	l->flags = IFF_UP | IFF_LOWER_UP;
	return l;
}

static struct desired_bond *want_rr4_bridge(struct fx *f, const char *bridge)
{
	struct desired_bond *b = want_rr4(f);
	fx_name(b->bridge, bridge);
	return b;
}

/* The manager's bridge exists, the bond is no port yet: it joins. */
static void setup_bridge_join(struct fx *f)
{
	want_rr4_bridge(f, "vmbr0");
	obs_converged(f);
	obs_bridge(f, "vmbr0");
}

/* Already its port: nothing to do. */
static void setup_bridge_converged(struct fx *f)
{
	setup_bridge_join(f);
	obs(f, "bond0")->master = obs(f, "vmbr0")->ifindex;
}

/* The bridge does not exist (yet): nothing done, no note (status says it). */
static void setup_bridge_absent(struct fx *f)
{
	want_rr4_bridge(f, "vmbr0");
	obs_converged(f);
}

/* The bond was deleted: created again, then made the bridge's port. */
static void setup_bridge_bond_missing(struct fx *f)
{
	want_rr4_bridge(f, "vmbr0");
	nics(f, "eth1 eth2 eth3 eth4", false);
	obs_bridge(f, "vmbr0");
}

/* The manager put the bond in another bridge: left there, with a note. */
static void setup_bridge_elsewhere(struct fx *f)
{
	setup_bridge_join(f);
	obs(f, "bond0")->master = obs_bridge(f, "vmbr1")->ifindex;
}

/* A reload changed bridge = vmbr1 to vmbr0: bondd's own port moves. */
static void setup_bridge_moved_by_reload(struct fx *f)
{
	setup_bridge_elsewhere(f);
	fx_name(f->bonds[0].bridge_was, "vmbr1");
}

/* A link by that name that is not a bridge: never made its port. */
static void setup_bridge_not_a_bridge(struct fx *f)
{
	want_rr4_bridge(f, "vmbr0");
	obs_converged(f);
	obs_new(f, "vmbr0", "vrf");
}

/* Without the key the bond's master is never touched. */
static void setup_bridge_unset_left_alone(struct fx *f)
{
	want_rr4(f);
	obs_converged(f);
	obs(f, "bond0")->master = obs_bridge(f, "vmbr0")->ifindex;
}

/* A failed join backs off: not tried again meanwhile. */
static void setup_bridge_held(struct fx *f)
{
	setup_bridge_join(f);
	fx_hold_key(f, "bridge bond0");
}

static const struct plan_case cases[] = {
	/* bridge = NAME */
	{"bridge_join", setup_bridge_join, {A_BRIDGE("bond0", "vmbr0", "bridge")}, {{0}}, NULL},
	{"bridge_converged", setup_bridge_converged, {{0}}, {{0}}, NULL},
	{"bridge_absent_nothing_done", setup_bridge_absent, {{0}}, {{0}}, NULL},
	{"bridge_bond_created_then_joins", setup_bridge_bond_missing,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_BRIDGE("bond0", "vmbr0", "create"),
		 A_ADDR("bond0", 0),
	 },
	 {{0}}, NULL},
	{"bridge_elsewhere_left_there", setup_bridge_elsewhere, {{0}},
	 {{"bond0", "bond0", "is a port of vmbr1, not of bridge vmbr0: left there (bondd takes no "
	   "port from another master)"}}, NULL},
	{"bridge_moved_by_reload", setup_bridge_moved_by_reload,
	 {A_BRIDGE("bond0", "vmbr0", "bridge")}, {{0}}, NULL},
	{"bridge_not_a_bridge", setup_bridge_not_a_bridge, {{0}},
	 {{"bond0", "bond0", "bridge vmbr0 is a link of kind vrf, not a bridge: the bond is not "
	   "made its port"}}, NULL},
	{"bridge_unset_master_left_alone", setup_bridge_unset_left_alone, {{0}}, {{0}}, NULL},
	{"bridge_held", setup_bridge_held, {{0}}, {{0}}, NULL},

	/* Converged: nothing to do. */
	{"converged_balance_rr", rr4_converged, {{0}}, {{0}}, NULL},
	{"converged_8023ad_miimon_100", setup_converged_8023ad, {{0}}, {{0}}, NULL},
	{"converged_active_backup_primary_slave_opts", setup_converged_active_backup, {{0}}, {{0}},
	 NULL},
	{"converged_every_mode", setup_converged_every_mode, {{0}}, {{0}}, NULL},
	{"converged_unmanaged_options_differ", setup_unmanaged_options_differ, {{0}}, {{0}}, NULL},
	{"converged_slave_admin_down_left_alone", setup_slave_admin_down, {{0}}, {{0}}, NULL},
	{"converged_extra_address_kept", setup_extra_address, {{0}}, {{0}}, NULL},

	/* tcp_congestion on the bond's connected routes. */
	{"route_cc_missing", setup_route_cc_missing,
	 {A_ROUTE_CC("bond0", "bbr", "route congestion control")}, {{0}},
	 check_route_metrics_kept},
	{"route_cc_removed_restores_default", setup_route_cc_removed,
	 {A_ROUTE_CC("bond0", "", "tcp_congestion removed")}, {{0}}, check_route_lock_cleared},
	{"route_cc_other_algorithm", setup_route_cc_other,
	 {A_ROUTE_CC("bond0", "cubic", "route congestion control")}, {{0}}, NULL},
	{"converged_route_cc", setup_route_cc_right, {{0}}, {{0}}, NULL},
	{"route_cc_other_nic_first", setup_route_cc_other_nic_first,
	 {A_ROUTE_CC("bond0", "bbr", "route congestion control")}, {{0}}, check_route_cc_appended},
	{"route_cc_bond_first", setup_route_cc_bond_first,
	 {A_ROUTE_CC("bond0", "bbr", "route congestion control")}, {{0}}, check_route_cc_in_front},
	{"route_cc_held", setup_route_cc_held, {{0}}, {{0}}, NULL},
	{"route_cc_unknown_metric_left_alone", setup_route_cc_unknown_metric, {{0}}, {{0}}, NULL},
	{"route_cc_route_not_seen_yet", setup_route_cc_no_route, {{0}}, {{0}}, NULL},


	/* mac_address */
	{"mac_cold_start_created_with_it",
	 setup_mac_cold_start,
	 {
		 A_CREATE_MAC("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_ADDR("bond0", 0),
	 },
	 {{0}},
	 NULL},
	{"mac_converged", setup_mac_converged, {{0}}, {{0}}, NULL},
	{"mac_held_not_retried", setup_mac_held, {{0}}, {{0}}, NULL},
	{"mac_changed_by_hand_repaired", setup_mac_changed_by_hand, {A_MAC("bond0", "mac")},
	 {{0}}, NULL},
	{"mac_kept_through_mode_change",
	 setup_mac_mode_change,
	 {
		 A_RELEASE("eth4", "bond0", "rebuild"),
		 A_RELEASE("eth3", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_MAC("bond0", "every slave released"),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_ENSLAVE("eth3", "bond0", "rebuild"),
		 A_ENSLAVE("eth4", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"mac_set_before_slaves_return",
	 setup_mac_slaves_returned,
	 {
		 A_MAC("bond0", "mac"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"mac_one_slave_returned_untouched",
	 setup_mac_one_slave_returned,
	 {
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"mac_ignored_with_fail_over_mac_noted",
	 setup_mac_fail_over_mac_unmanaged,
	 {{0}},
	 {{"bond0", "bond0",
	   "fail_over_mac is not none: the kernel ignores mac_address in active-backup, not "
	   "setting it"}},
	 NULL},

	/* Cold start. */
	{"cold_start",
	 setup_cold_start,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_DOWN("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_DOWN("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_DOWN("eth4", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_ADDR("bond0", 0),
		 A_ADDR("bond0", 1),
	 },
	 {{0}},
	 NULL},
	{"cold_start_ports_down",
	 setup_cold_start_ports_down,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_ADDR("bond0", 0),
	 },
	 {{0}},
	 NULL},
	{"cold_start_primary_after_slaves",
	 setup_cold_start_primary,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_SLAVE("eth2", "bond0", 3, UNSET),
		 A_OPTS("bond0", "option", B(OPT_PRIMARY)),
		 A_UP("bond0", "create"),
	 },
	 {{0}},
	 NULL},
	{"cold_start_primary_absent",
	 setup_cold_start_primary_absent,
	 {
		 A_CREATE("bond0", B(OPT_MODE), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_UP("bond0", "create"),
	 },
	 {{0}},
	 NULL},
	{"cold_start_two_bonds_in_config_order",
	 setup_cold_start_two_bonds,
	 {
		 A_CREATE("bond1", B(OPT_MODE), 9000),
		 A_ENSLAVE("eth3", "bond1", "missing"),
		 A_ENSLAVE("eth4", "bond1", "missing"),
		 A_UP("bond1", "create"),
		 A_CREATE("bond0", B(OPT_MODE), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_UP("bond0", "create"),
	 },
	 {{0}},
	 NULL},

	/* Slave order. */
	{"slave_recreated_in_middle",
	 setup_slave_recreated,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_recreated_admin_up",
	 setup_slave_recreated_up,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_DOWN("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_gone_from_middle", setup_slave_gone, {{0}}, {{0}}, NULL},
	{"slave_released_first",
	 setup_released_first,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_RELEASE("eth2", "bond0", "order"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_released_middle",
	 setup_released_middle,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_released_last",
	 setup_released_last,
	 {
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"slaves_out_of_order",
	 setup_order_swapped,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth2", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_missing_from_proc_counts", setup_slave_missing_from_proc, {{0}}, {{0}}, NULL},
	{"stale_proc_entry_ignored", setup_stale_proc_entry, {{0}}, {{0}}, NULL},
	{"unconfigured_slave_last",
	 setup_unconfigured_slave_last,
	 {
		 A_RELEASE("eth9", "bond0", "not configured"),
	 },
	 {{0}},
	 NULL},
	{"lacp_stranger_down_before_release",
	 setup_lacp_stranger_up,
	 {
		 A_DOWN("eth9", "bond0", "not configured"),
		 A_RELEASE("eth9", "bond0", "not configured"),
	 },
	 {{0}},
	 NULL},
	{"unconfigured_slave_middle",
	 setup_unconfigured_slave_middle,
	 {
		 A_RELEASE("eth9", "bond0", "not configured"),
	 },
	 {{0}},
	 NULL},
	{"unconfigured_slave_not_in_proc",
	 setup_unconfigured_slave_not_in_proc,
	 {
		 A_RELEASE("eth9", "bond0", "not configured"),
	 },
	 {{0}},
	 NULL},

	/* MTU. */
	{"slave_mtu_drift",
	 setup_slave_mtu,
	 {
		 A_MTU("eth3", "bond0", 9000),
	 },
	 {{0}},
	 NULL},
	{"bond_mtu_drift",
	 setup_bond_mtu,
	 {
		 A_MTU("bond0", "bond0", 9000),
	 },
	 {{0}},
	 NULL},
	{"bond_mtu_drift_covers_slave_drift",
	 setup_bond_and_slave_mtu,
	 {
		 A_MTU("bond0", "bond0", 9000),
	 },
	 {{0}},
	 NULL},
	{"bond_mtu_after_releases_before_enslaves",
	 setup_bond_mtu_and_released,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_MTU("bond0", "bond0", 9000),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"max_mtu_too_small_not_enslaved",
	 setup_max_mtu_outside,
	 {{0}},
	 {{"bond0", "eth3", "max_mtu 1500 is below the configured MTU 9000"}},
	 NULL},
	{"max_mtu_too_small_released_before_bond_mtu",
	 setup_max_mtu_inside,
	 {
		 A_RELEASE("eth3", "bond0", "unusable"),
		 A_MTU("bond0", "bond0", 9000),
	 },
	 {{"bond0", "eth3", "max_mtu 1500 is below the configured MTU 9000"}},
	 NULL},
	{"max_mtu_not_reported",
	 setup_max_mtu_unknown,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},

	/* Options. */
	{"miimon_100_to_200",
	 setup_miimon_change,
	 {
		 A_OPTS("bond0", "option", B(OPT_MIIMON)),
	 },
	 {{0}},
	 check_miimon_200},
	{"only_differing_options_sent",
	 setup_some_options_differ,
	 {
		 A_OPTS("bond0", "option", B(OPT_UPDELAY) | B(OPT_XMIT_HASH_POLICY)),
	 },
	 {{0}},
	 check_some_options_values},
	/* What the kernel does not report is unknown, not different. */
	{"option_not_reported_is_no_difference", setup_option_not_reported, {{0}}, {{0}}, NULL},
	{"converged_8023ad_privileged_options_unreported", setup_8023ad_privileged_unreported,
	 {{0}}, {{0}}, NULL},
	{"arp_ip_target_list_change",
	 setup_arp_targets_change,
	 {
		 A_OPTS("bond0", "option", B(OPT_ARP_IP_TARGET)),
	 },
	 {{0}},
	 NULL},
	{"ad_actor_system_change_is_live",
	 setup_actor_system_change,
	 {
		 A_OPTS("bond0", "option", B(OPT_AD_ACTOR_SYSTEM)),
	 },
	 {{0}},
	 NULL},
	{"mode_change_rebuilds",
	 setup_mode_change,
	 {
		 A_RELEASE("eth4", "bond0", "rebuild"),
		 A_RELEASE("eth3", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_ENSLAVE("eth3", "bond0", "rebuild"),
		 A_ENSLAVE("eth4", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"lacp_to_rr_ports_down_before_release",
	 setup_lacp_to_rr,
	 {
		 A_DOWN("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_DOWN("eth1", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"rr_to_lacp_ports_down_before_release",
	 setup_rr_to_lacp,
	 {
		 A_DOWN("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_DOWN("eth1", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"lacp_order_port_down_before_release",
	 setup_lacp_order,
	 {
		 A_DOWN("eth2", "bond0", "order"),
		 A_RELEASE("eth2", "bond0", "order"),
		 A_DOWN("eth3", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"lacp_order_port_already_down",
	 setup_lacp_order_port_down,
	 {
		 A_DOWN("eth2", "bond0", "order"),
		 A_RELEASE("eth2", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "order"),
		 A_ENSLAVE("eth3", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"mode_change_and_live_option",
	 setup_mode_and_miimon_change,
	 {
		 A_RELEASE("eth4", "bond0", "rebuild"),
		 A_RELEASE("eth3", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_OPTS("bond0", "option", B(OPT_MIIMON)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_ENSLAVE("eth3", "bond0", "rebuild"),
		 A_ENSLAVE("eth4", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"lacp_rate_change_rebuilds",
	 setup_lacp_rate_change,
	 {
		 /* 802.3ad: each port down before its release */
		 A_DOWN("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_DOWN("eth1", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_AD_LACP_RATE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"mode_change_empty_down_bond",
	 setup_mode_change_empty_down,
	 {
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_UP("bond0", "down"),
	 },
	 {{0}},
	 NULL},
	{"fail_over_mac_with_slaves_releases_all",
	 setup_fail_over_mac_with_slaves,
	 {
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_FAIL_OVER_MAC)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"fail_over_mac_without_slaves_is_live",
	 setup_fail_over_mac_no_slaves,
	 {
		 A_OPTS("bond0", "option", B(OPT_FAIL_OVER_MAC)),
	 },
	 {{0}},
	 NULL},
	{"mode_and_fail_over_mac_in_one_rebuild",
	 setup_mode_and_fail_over_mac_no_slaves,
	 {
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE) | B(OPT_FAIL_OVER_MAC)),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"rebuild_releases_held_slave_too",
	 setup_rebuild_with_held_slave,
	 {
		 A_RELEASE("eth4", "bond0", "rebuild"),
		 A_RELEASE("eth3", "bond0", "rebuild"),
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth3", "bond0", "rebuild"),
		 A_ENSLAVE("eth4", "bond0", "rebuild"),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},
	{"mode_change_then_primary",
	 setup_mode_change_primary,
	 {
		 A_RELEASE("eth2", "bond0", "rebuild"),
		 A_RELEASE("eth1", "bond0", "rebuild"),
		 A_DOWN("bond0", "bond0", "rebuild"),
		 A_OPTS("bond0", "rebuild", B(OPT_MODE)),
		 A_ENSLAVE("eth1", "bond0", "rebuild"),
		 A_ENSLAVE("eth2", "bond0", "rebuild"),
		 A_OPTS("bond0", "option", B(OPT_PRIMARY)),
		 A_UP("bond0", "rebuild"),
	 },
	 {{0}},
	 NULL},

	/* What is not bondd's, or not now. */
	{"foreign_master_bridge",
	 setup_foreign_bridge,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_ADDR("bond0", 0),
	 },
	 {{"bond0", "eth2", "enslaved to br0, not taking it"}},
	 NULL},
	{"foreign_master_unmanaged_bond",
	 setup_foreign_bond,
	 {{0}},
	 {{"bond0", "eth2", "enslaved to bond9, not taking it"}},
	 NULL},
	{"foreign_master_unknown",
	 setup_master_unknown,
	 {{0}},
	 {{"bond0", "eth2", "enslaved to ifindex 99, not taking it"}},
	 NULL},
	{"configured_slave_is_a_bond",
	 setup_slave_is_bond,
	 {
		 A_CREATE("bond0", B(OPT_MODE), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_UP("bond0", "create"),
	 },
	 {{"bond0", "bond9", "is a bond, not enslaving it"}},
	 NULL},
	{"name_taken_by_another_kind",
	 setup_name_taken,
	 {
		 A_CREATE("bond1", B(OPT_MODE), 9000),
		 A_ENSLAVE("eth2", "bond1", "missing"),
		 A_UP("bond1", "create"),
	 },
	 {{"bond0", "bond0", "exists and is not a bond"}},
	 NULL},
	{"held_slave_planned_as_absent",
	 setup_held_slave_cold,
	 {
		 A_CREATE("bond0", B(OPT_MODE) | B(OPT_MIIMON), 9000),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_UP("bond0", "create"),
		 A_ADDR("bond0", 0),
	 },
	 {{0}},
	 NULL},
	{"held_slave_in_bond_not_released",
	 setup_held_slave_in_bond,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"held_slave_mtu_left_alone", setup_held_slave_mtu, {{0}}, {{0}}, NULL},
	{"held_bond_planned_not_at_all",
	 setup_held_bond,
	 {
		 A_OPTS("bond1", "option", B(OPT_MIIMON)),
	 },
	 {{0}},
	 NULL},
	{"held_bond_not_created", setup_held_bond_missing, {{0}}, {{0}}, NULL},

	/* Slaves moving between managed bonds. */
	{"slave_moved_to_later_bond",
	 setup_moved_to_later_bond,
	 {
		 A_RELEASE("eth3", "bond0", "not configured"),
		 A_RELEASE("eth4", "bond1", "order"),
		 A_ENSLAVE("eth3", "bond1", "missing"),
		 A_ENSLAVE("eth4", "bond1", "order"),
	 },
	 {{0}},
	 NULL},
	{"slave_moved_to_earlier_bond",
	 setup_moved_to_earlier_bond,
	 {
		 A_RELEASE("eth4", "bond1", "order"),
		 A_RELEASE("eth3", "bond1", "moved"),
		 A_ENSLAVE("eth3", "bond1", "missing"),
		 A_ENSLAVE("eth4", "bond1", "order"),
	 },
	 {{0}},
	 NULL},

	/* Primary. */
	{"primary_change",
	 setup_primary_change,
	 {
		 A_OPTS("bond0", "option", B(OPT_PRIMARY)),
	 },
	 {{0}},
	 NULL},
	{"primary_set_after_its_slave_returns",
	 setup_primary_returns,
	 {
		 A_ENSLAVE("eth1", "bond0", "missing; joins at the end (keep_order no)"),
		 A_OPTS("bond0", "option", B(OPT_PRIMARY)),
	 },
	 {{0}},
	 NULL},
	{"primary_device_absent", setup_primary_absent, {{0}}, {{0}}, NULL},
	{"primary_device_held", setup_primary_held, {{0}}, {{0}}, NULL},

	/* keep_order, the active slave. */
	{"active_backup_backup_returns_joins",
	 setup_ab_backup_returns,
	 {
		 A_DOWN("eth1", "bond0", "missing; joins at the end (keep_order no)"),
		 A_ENSLAVE("eth1", "bond0", "missing; joins at the end (keep_order no)"),
	 },
	 {{0}},
	 expect_eth2_active},
	{"active_backup_keep_order_never_releases_active",
	 setup_ab_keep_order_active_stays,
	 {
		 A_DOWN("eth1", "bond0", "missing; joins at the end (keep_order no)"),
		 A_ENSLAVE("eth1", "bond0", "missing; joins at the end (keep_order no)"),
	 },
	 {{"bond0", "eth2", "is the active slave: slave order not restored, that would be a failover"}},
	 expect_eth2_active},
	{"active_backup_keep_order_reorders_backups",
	 setup_ab_keep_order_backups_reordered,
	 {
		 A_RELEASE("eth3", "bond0", "order"),
		 A_DOWN("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
	 },
	 {{0}},
	 NULL},
	{"lacp_port_returns_joins",
	 setup_lacp_port_returns,
	 {
		 A_DOWN("eth1", "lag0", "missing; joins at the end (keep_order no)"),
		 A_ENSLAVE("eth1", "lag0", "missing; joins at the end (keep_order no)"),
	 },
	 {{0}},
	 NULL},
	{"balance_rr_keep_order_no_joins",
	 setup_rr_keep_order_no,
	 {
		 A_DOWN("eth2", "bond0", "missing; joins at the end (keep_order no)"),
		 A_ENSLAVE("eth2", "bond0", "missing; joins at the end (keep_order no)"),
	 },
	 {{0}},
	 NULL},
	{"unordered_releases_only_the_stranger",
	 setup_unordered_foreign_slave,
	 {
		 A_DOWN("eth9", "lag0", "not configured"), /* 802.3ad */
		 A_RELEASE("eth9", "lag0", "not configured"),
		 A_DOWN("eth1", "lag0", "missing; joins at the end (keep_order no)"),
		 A_ENSLAVE("eth1", "lag0", "missing; joins at the end (keep_order no)"),
	 },
	 {{0}},
	 NULL},

	/* Backoff per action. */
	{"address_held_membership_goes_on",
	 setup_address_held,
	 {
		 A_DOWN("eth4", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"option_held_others_set",
	 setup_option_held,
	 {
		 A_OPTS("bond0", "option", B(OPT_MIIMON)),
	 },
	 {{0}},
	 NULL},
	{"bond_mtu_held_slaves_follow_the_bond", setup_bond_mtu_held, {{0}}, {{0}}, NULL},
	{"bond_mtu_held_returning_slave_enslaved",
	 setup_bond_mtu_held_slave_returns,
	 {
		 A_DOWN("eth4", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"bond_mtu_held_returning_slave_at_9000_enslaved",
	 setup_bond_mtu_held_slave_returns_at_9000,
	 {
		 A_DOWN("eth4", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"slave_mtu_held_membership_goes_on",
	 setup_slave_mtu_held_key,
	 {
		 A_DOWN("eth4", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},

	/* Rebuilds only at start or reload. */
	{"no_rebuild_from_an_event",
	 setup_mode_change_from_event,
	 {{0}},
	 {{"bond0", "bond0", "mode differ: a rebuild, done at start or reload only"}},
	 NULL},

	/* An option the mode does not use is no reason for an outage. */
	{"unused_down_only_option_no_rebuild",
	 setup_unused_down_only_change,
	 {{0}},
	 {{"bond0", "bond0", "ad_select differ but do nothing in mode balance-rr: no rebuild for "
			      "them"}},
	 NULL},

	/* Deletion. */
	{"state_absent_deletes",
	 setup_state_absent,
	 {
		 A_DELETE("bond1"),
	 },
	 {{"bond2", "bond2", "exists and is not a bond"}},
	 NULL},
	{"state_absent_lacp_ports_down_first",
	 setup_state_absent_lacp,
	 {
		 A_DOWN("eth3", "lag1", "state absent"),
		 A_DOWN("eth2", "lag1", "state absent"),
		 A_DELETE("lag1"),
	 },
	 {{0}},
	 NULL},

	/* Eligibility. */
	{"ineligible_links_untouched",
	 setup_ineligible,
	 {
		 A_CREATE("bond0", B(OPT_MODE), 9000),
		 A_DOWN("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_UP("bond0", "create"),
	 },
	 {{"bond0", "lo", "is the loopback device, not enslaving it"},
	  {"bond0", "br0", "is a bridge, not enslaving it"},
	  {"bond0", "eth1.5", "is a VLAN (an upper device), not enslaving it"},
	  {"bond0", "tun0", "is not an Ethernet device, not enslaving it"}},
	 NULL},

	{"missing_slave_reorders",
	 setup_missing_slave_reorders,
	 {
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
	 },
	 {{0}},
	 NULL},

	{"refused_in_use_not_set_down",
	 setup_refused_in_use,
	 {
		 A_ENSLAVE("eth3", "bond0", "missing"),
	 },
	 {{"bond0", "eth2",
	   "in use by another device (a macvlan or ipvlan, maybe in another namespace): "
	   "not tried again until re-created or reload"}},
	 NULL},

	{"carrying_nics_untouched",
	 setup_carrying,
	 {
		 A_CREATE("bond0", B(OPT_MODE), 9000),
		 A_DOWN("eth1", "bond0", "missing"),
		 A_ENSLAVE("eth1", "bond0", "missing"),
		 A_DOWN("eth5", "bond0", "missing"),
		 A_ENSLAVE("eth5", "bond0", "missing"),
		 A_UP("bond0", "create"),
	 },
	 {{"bond0", "eth2", "carries eth2.100, not enslaving it"},
	  {"bond0", "eth3", "carries mv3, not enslaving it"},
	  {"bond0", "eth4", "carries address 198.51.100.4/24, not enslaving it"}},
	 NULL},

	{"ineligible_already_in_the_bond_stays", setup_ineligible_already_slave, {{0}}, {{0}}, NULL},

	/* Slave options. */
	{"queue_id_drift",
	 setup_queue_id_drift,
	 {
		 A_SLAVE("eth2", "bond0", 2, UNSET),
	 },
	 {{0}},
	 NULL},
	{"prio_drift",
	 setup_prio_drift,
	 {
		 A_SLAVE("eth2", "bond0", UNSET, 5),
	 },
	 {{0}},
	 NULL},
	{"queue_id_and_prio_drift",
	 setup_slave_opts_drift,
	 {
		 A_SLAVE("eth2", "bond0", 1, 5),
	 },
	 {{0}},
	 NULL},
	{"slave_opts_after_enslave_only_when_not_default",
	 setup_slave_opts_fresh,
	 {
		 A_ENSLAVE("eth3", "bond0", "missing"),
		 A_ENSLAVE("eth4", "bond0", "missing"),
		 A_SLAVE("eth4", "bond0", 4, UNSET),
	 },
	 {{0}},
	 NULL},
	{"slave_opts_again_after_reenslave",
	 setup_slave_opts_reenslaved,
	 {
		 A_RELEASE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_SLAVE("eth3", "bond0", 3, 7),
	 },
	 {{0}},
	 NULL},
	{"actor_port_prio_drift",
	 setup_actor_prio_drift,
	 {
		 A_SLAVE_AD("eth2", "bond0", 100),
	 },
	 {{0}},
	 NULL},
	{"actor_port_prio_after_enslave_only_when_not_default",
	 setup_actor_prio_fresh,
	 {
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_SLAVE_AD("eth2", "bond0", 100),
		 A_ENSLAVE("eth3", "bond0", "missing"),
	 },
	 {{0}},
	 NULL},
	{"actor_port_prio_not_reported_not_written",
	 setup_actor_prio_not_reported,
	 {{0}},
	 {{0}},
	 NULL},
	{"slave_info_not_reported",
	 setup_slave_info_unknown,
	 {
		 A_SLAVE("eth2", "bond0", 2, UNSET),
	 },
	 {{0}},
	 NULL},

	/* Addresses and admin state. */
	{"address_missing",
	 setup_address_missing,
	 {
		 A_ADDR("bond0", 1),
	 },
	 {{0}},
	 NULL},
	{"address_with_other_prefix",
	 setup_address_other_prefix,
	 {
		 A_ADDR("bond0", 0),
	 },
	 {{0}},
	 NULL},
	{"bond_admin_down",
	 setup_bond_down,
	 {
		 A_UP("bond0", "down"),
	 },
	 {{0}},
	 NULL},
	{"everything_drifts",
	 setup_everything_drifts,
	 {
		 A_OPTS("bond0", "option", B(OPT_MIIMON)),
		 A_RELEASE("eth9", "bond0", "not configured"),
		 A_RELEASE("eth4", "bond0", "order"),
		 A_RELEASE("eth3", "bond0", "order"),
		 A_MTU("bond0", "bond0", 9000),
		 A_SLAVE("eth1", "bond0", 1, UNSET),
		 A_ENSLAVE("eth2", "bond0", "missing"),
		 A_ENSLAVE("eth3", "bond0", "order"),
		 A_ENSLAVE("eth4", "bond0", "order"),
		 A_UP("bond0", "down"),
		 A_ADDR("bond0", 0),
	 },
	 {{0}},
	 NULL},
};

#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* ---- running a case -------------------------------------------------------------------- */

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	action_list_free(&f->out);
	observed_free(&f->have);
	free(f);
	return 0;
}

/* Applies the plan to the kernel model and plans again: nothing left to do,
 * and the same notes. */
static void expect_one_pass(struct fx *f)
{
	size_t n_notes = f->out.n_notes;

	for (size_t i = 0; i < f->out.n; i++)
		kernel_apply(f, &f->out.v[i]);
	run_plan(f);
	if (f->out.n != 0) {
		dump_plan(f, NULL, 0);
		fail_msg("a second pass still plans %zu actions", f->out.n);
	}
	assert_int_equal(f->out.n_notes, n_notes);
}

static const struct plan_case *current_case;

static void run_case(void **state)
{
	struct fx *f = *state;
	const struct plan_case *tc = current_case;

	tc->setup(f);
	run_plan(f);
	expect_actions(f, tc->acts);
	expect_notes(f, tc->notes);
	if (tc->extra)
		tc->extra(f);
	expect_one_pass(f);
}

/* cmocka hands the setup's state to the test: the case travels beside it. */
static int case_setup(void **state)
{
	current_case = *state;
	return fx_setup(state);
}

/* ---- tests outside the table ----------------------------------------------------------- */

/* plan() appends, and actions already in the list are not its own. */
static void plan_appends(void **state)
{
	struct fx *f = *state;
	struct action earlier;

	setup_released_middle(f);
	memset(&earlier, 0, sizeof(earlier));
	earlier.kind = ACT_RELEASE;
	fx_name(earlier.bond, "bond0");
	fx_name(earlier.ifname, "eth4");
	earlier.why = "earlier";
	assert_non_null(action_list_push(&f->out, &earlier));
	assert_int_equal(plan(&f->want, &f->have, NULL, &f->out), 0);
	assert_int_equal(f->out.n, 4);
	assert_string_equal(f->out.v[0].why, "earlier");
	memmove(&f->out.v[0], &f->out.v[1], 3 * sizeof(f->out.v[0]));
	f->out.n = 3;
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth4", "bond0", "order"),
		A_ENSLAVE("eth3", "bond0", "missing"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, e);
}

/* Planning only the bonds an event touched (plan_constraints.only) gives
 * those bonds' part of the full plan, in the same order, and nothing for
 * the others: for every subset of three bonds that all drifted. */
static void only_touched_bonds(void **state)
{
	struct fx *f = *state;
	struct action_list full = {0};
	static const char *const names[] = {"bond0", "bond1", "bond2"};

	want_rr4(f);
	want_bond(f, "bond1", MODE_ACTIVE_BACKUP, "eth5 eth6");
	want_bond(f, "bond2", MODE_BALANCE_RR, "eth7 eth8");
	obs_converged(f);
	recreate(f, "eth2");
	obs_release(f, "eth6");
	obs_bond_mtu(f, "bond2", 1500);
	run_plan(f);
	for (size_t i = 0; i < f->out.n; i++)
		assert_non_null(action_list_push(&full, &f->out.v[i]));
	for (unsigned mask = 0; mask < 8; mask++) {
		bool only[3] = {mask & 1, mask & 2, mask & 4};
		size_t k = 0;
		f->only = only;
		run_plan(f);
		for (size_t i = 0; i < full.n; i++) {
			size_t b = 0;
			while (b < 3 && strcmp(full.v[i].bond, names[b]) != 0)
				b++;
			assert_true(b < 3);
			if (!only[b])
				continue;
			char x[512], y[512];
			assert_true(k < f->out.n);
			assert_string_equal(action_describe(&f->out.v[k++], x, sizeof(x)),
					    action_describe(&full.v[i], y, sizeof(y)));
		}
		assert_int_equal(k, f->out.n);
		if (mask == 7)
			assert_int_equal(k, full.n);
	}
	/* each bond had something to do */
	for (size_t b = 0; b < 3; b++) {
		bool any = false;
		for (size_t i = 0; i < full.n; i++)
			any |= strcmp(full.v[i].bond, names[b]) == 0;
		assert_true(any);
	}
	f->only = NULL;
	action_list_free(&full);
}

/* Same input, same output, byte for byte: no clock, no hidden state. */
/* The plan depends on what the kernel has, not on the order it was told:
 * the same links and addresses in reverse dump order plan the same. */
static void plan_is_deterministic(void **state)
{
	struct fx *f = *state;
	struct action_list again = {0};
	struct observed rev = {0};

	setup_everything_drifts(f);
	run_plan(f);
	assert_true(f->out.n > 3);
	for (size_t i = f->have.n_links; i-- > 0;)
		assert_int_equal(observed_put_link(&rev, &f->have.links[i]), 0);
	for (size_t i = f->have.n_addrs; i-- > 0;)
		assert_int_equal(observed_put_addr(&rev, &f->have.addrs[i]), 0);
	assert_int_equal(plan(&f->want, &rev, NULL, &again), 0);
	assert_int_equal(again.n, f->out.n);
	for (size_t i = 0; i < again.n; i++) {
		char a[512], b[512];
		assert_string_equal(action_describe(&again.v[i], a, sizeof(a)),
				    action_describe(&f->out.v[i], b, sizeof(b)));
		assert_ptr_equal(again.v[i].why, f->out.v[i].why);
	}
	action_list_free(&again);
	observed_free(&rev);
}

/*
 * A failure in the middle of executing a plan, at every position of a plan
 * that touches everything: the daemon holds that action (its key), drops
 * the rest of the bond's plan when plan_failure_stops_bond says so, and
 * plans again.  Every later pass must be one the driver model accepts, the
 * bond must converge around the held action within the daemon's pass
 * limit, and once the hold expires one more pass must finish the job.
 */
static void run_failure_at(size_t at, void (*setup)(struct fx *f), bool *more)
{
	struct fx *f = calloc(1, sizeof(*f));
	char key[PLAN_KEY_SIZE];

	assert_non_null(f);
	setup(f);
	run_plan(f);
	*more = at + 1 < f->out.n;
	if (at >= f->out.n) {
		fx_teardown((void **)&f);
		return;
	}
	struct action failed = f->out.v[at];
	struct action_list plan1 = f->out;
	memset(&f->out, 0, sizeof(f->out));
	for (size_t j = 0; j < plan1.n; j++) {
		const struct action *a = &plan1.v[j];
		if (j == at)
			fx_hold_key(f, plan_hold_key(a, OPT__COUNT, key, sizeof(key)));
		else if (j < at || !plan_failure_stops_bond(&failed) ||
			 strcmp(a->bond, failed.bond) != 0)
			kernel_apply(f, a);
	}
	action_list_free(&plan1);
	int pass = 0;
	for (run_plan(f); f->out.n; run_plan(f)) {
		if (++pass > 5) {
			dump_plan(f, NULL, 0);
			fail_msg("failure at action %zu: no convergence around the hold", at);
		}
		for (size_t j = 0; j < f->out.n; j++)
			kernel_apply(f, &f->out.v[j]);
	}
	f->n_held = 0; /* the hold expires */
	run_plan(f);
	for (size_t j = 0; j < f->out.n; j++)
		kernel_apply(f, &f->out.v[j]);
	run_plan(f);
	if (f->out.n) {
		dump_plan(f, NULL, 0);
		fail_msg("failure at action %zu: not converged after the hold expired", at);
	}
	fx_teardown((void **)&f);
}

static void failure_mid_plan_converges(void **state)
{
	void (*setups[])(struct fx *f) = {setup_everything_drifts, setup_cold_start,
					  setup_ab_backup_returns, setup_lacp_port_returns,
					  setup_address_held, setup_state_absent,
					  setup_mac_mode_change, setup_mac_slaves_returned};
	bool more = true;
	(void)state;

	for (size_t k = 0; k < sizeof(setups) / sizeof(setups[0]); k++) {
		more = true;
		for (size_t at = 0; more; at++)
			run_failure_at(at, setups[k], &more);
	}
}

/* The backoff keys: what is set on which object, one per kind. */
static void hold_keys(void **state)
{
	(void)state;
	struct action a;
	char key[PLAN_KEY_SIZE];

	memset(&a, 0, sizeof(a));
	snprintf(a.bond, sizeof(a.bond), "bond0");
	snprintf(a.ifname, sizeof(a.ifname), "eth1");
	a.kind = ACT_ENSLAVE;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "link eth1");
	a.kind = ACT_SET_MTU;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "mtu eth1");
	a.kind = ACT_SET_SLAVE_OPTS;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "slave-opts eth1");
	snprintf(a.ifname, sizeof(a.ifname), "bond0");
	a.kind = ACT_SET_MAC;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "mac bond0");
	assert_false(plan_failure_stops_bond(&a));
	a.kind = ACT_LINK_UP;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "up bond0");
	a.kind = ACT_DELETE_BOND;
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "link bond0");
	a.kind = ACT_SET_OPTS;
	bond_settings_set(&a.opts, OPT_MIIMON, 100);
	bond_settings_set(&a.opts, OPT_PEER_NOTIF_DELAY, 400);
	assert_string_equal(plan_hold_key(&a, OPT_PEER_NOTIF_DELAY, key, sizeof(key)),
			    "opt bond0 peer_notif_delay");
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)), "opt bond0 miimon");
	a.kind = ACT_ADD_ADDR;
	a.addr = fx_addr("fd00::1/64");
	assert_string_equal(plan_hold_key(&a, OPT__COUNT, key, sizeof(key)),
			    "addr bond0 fd00::1/64");
}

/* What --check --plan marks as interrupting traffic. */
static void disruptive_actions(void **state)
{
	struct fx *f = *state;
	size_t disrupts = 0;

	setup_mode_change(f);
	run_plan(f);
	for (size_t i = 0; i < f->out.n; i++) {
		const struct action *a = &f->out.v[i];
		bool expect = a->kind == ACT_RELEASE || a->kind == ACT_DELETE_BOND ||
			      (a->kind == ACT_LINK_DOWN && strcmp(a->ifname, a->bond) == 0) ||
			      (a->kind == ACT_SET_OPTS && strcmp(a->why, "rebuild") == 0);
		assert_int_equal(plan_action_disrupts(a), expect);
		disrupts += expect;
	}
	assert_int_equal(disrupts, 6); /* four releases, link-down, the mode */
}

/* Every kind the planner emits is pinned by at least one expectation. */
static void every_action_kind_is_asserted(void **state)
{
	bool seen[ACT__COUNT] = {false};
	(void)state;

	for (size_t i = 0; i < N_CASES; i++)
		for (size_t j = 0; j < n_exp(cases[i].acts); j++)
			seen[cases[i].acts[j].kind] = true;
	for (int k = 0; k < ACT__COUNT; k++)
		if (!seen[k])
			fail_msg("no case expects a %s action", action_kind_name((enum action_kind)k));
}

/* ---- slaves that go anyway do not count in the order -------------------------------------- */

/* `ip link set eth2 name lan2` on an enslaved port: the kernel keeps it
 * enslaved, at its place, under its new name. */
static void obs_rename(struct fx *f, const char *from, const char *to)
{
	struct obs_link *l = obs(f, from);
	struct obs_link *m = (struct obs_link *)observed_by_index(&f->have, l->master);

	for (size_t i = 0; m && i < m->n_order; i++)
		if (strcmp(m->order[i], from) == 0)
			fx_name(m->order[i], to);
	fx_name(l->name, to);
}

/* A renamed slave in the middle: only it is released, the slaves after
 * it stay enslaved (no carrier loss on them). */
static void renamed_slave_in_the_middle_released_alone(void **state)
{
	struct fx *f = *state;

	rr4_converged(f);
	obs_rename(f, "eth2", "lan2");
	run_plan(f);
	const struct exp e[MAX_EXP] = {A_RELEASE("lan2", "bond0", "not configured")};
	expect_actions(f, e);
	expect_one_pass(f);
	assert_int_equal(obs(f, "bond0")->n_order, 3);
	assert_string_equal(obs(f, "bond0")->order[1], "eth3");

	/* eth2 comes back: enslaved last, then the order is restored the
	 * only way the kernel allows (release and enslave the tail). */
	obs_nic(f, "eth2", false);
	run_plan(f);
	const struct exp back[MAX_EXP] = {
		A_RELEASE("eth4", "bond0", "order"),
		A_RELEASE("eth3", "bond0", "order"),
		A_ENSLAVE("eth2", "bond0", "missing"),
		A_ENSLAVE("eth3", "bond0", "order"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, back);
	expect_one_pass(f);
}

/* A stranger and an unusable configured slave, both before slaves in
 * place: two releases, last first, and nothing else. */
static void strangers_and_unusable_released_alone(void **state)
{
	struct fx *f = *state;

	rr4_converged(f);
	obs_release(f, "eth4");
	obs_release(f, "eth3");
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	obs_enslave(f, "eth3", "bond0");
	obs_enslave(f, "eth4", "bond0");
	obs(f, "eth3")->max_mtu = 1500; /* cannot take 9000 */
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth3", "bond0", "unusable"),
		A_RELEASE("eth9", "bond0", "not configured"),
	};
	expect_actions(f, e);
	expect_one_pass(f);
	assert_int_equal(obs(f, "bond0")->n_order, 3);
	assert_string_equal(obs(f, "bond0")->order[2], "eth4");
}

/* eth2's enslave failed last time and is due again (balance-rr,
 * keep_order yes): eth3 and eth4, healthy, are not released for its place;
 * it joins last.  Once it is in and its failure forgotten, the order is
 * restored, once. */
static void failing_slave_joins_last(void **state)
{
	struct fx *f = *state;

	setup_failing_slave_joins_last(f);
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_ENSLAVE("eth2", "bond0", "missing"),
	};
	expect_actions(f, e);
	assert_int_equal(f->out.n_notes, 1);
	assert_string_equal(f->out.notes[0].msg, "joins after the others while its enslave "
						  "fails: no healthy slave released for its place");
	for (size_t i = 0; i < f->out.n; i++)
		kernel_apply(f, &f->out.v[i]);
	f->n_failing = 0;
	run_plan(f);
	const struct exp again[MAX_EXP] = {
		A_RELEASE("eth2", "bond0", "order"),
		A_RELEASE("eth4", "bond0", "order"),
		A_RELEASE("eth3", "bond0", "order"),
		A_ENSLAVE("eth2", "bond0", "order"),
		A_ENSLAVE("eth3", "bond0", "order"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, again);
	expect_one_pass(f);
}

/* A stranger does not hide a real order problem behind it: the slaves out
 * of place are still released and enslaved again. */
static void stranger_before_slaves_out_of_order(void **state)
{
	struct fx *f = *state;

	rr4_converged(f);
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	obs_order(f, "bond0", "eth1 eth9 eth3 eth2 eth4");
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth4", "bond0", "order"),
		A_RELEASE("eth2", "bond0", "order"),
		A_RELEASE("eth3", "bond0", "order"),
		A_RELEASE("eth9", "bond0", "not configured"),
		A_ENSLAVE("eth2", "bond0", "order"),
		A_ENSLAVE("eth3", "bond0", "order"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, e);
	expect_one_pass(f);
}


/* ---- strangers in other shapes (attack on the release-only-the-stranger plan) ------------- */

/* The bond's enslavement order, as a space-separated list. */
static void expect_order(struct fx *f, const char *bond, const char *names)
{
	char got[256] = "";
	size_t used = 0;
	const struct obs_link *m = obs(f, bond);

	for (size_t i = 0; i < m->n_order; i++)
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s", i ? " " : "",
					 m->order[i]);
	assert_string_equal(got, names);
}

/* Applies the plan, then asserts the order it leaves and that nothing is
 * left to do. */
static void expect_order_after(struct fx *f, const char *names)
{
	for (size_t i = 0; i < f->out.n; i++)
		kernel_apply(f, &f->out.v[i]);
	expect_order(f, "bond0", names);
	run_plan(f);
	if (f->out.n != 0) {
		dump_plan(f, NULL, 0);
		fail_msg("a second pass still plans %zu actions", f->out.n);
	}
}

/* The converged rr4 bond with strangers eth8 and eth9 enslaved (those
 * named in `order`), then its order rewritten to `order`. */
static void rr4_with_order(struct fx *f, const char *order)
{
	static const char *const strangers[] = {"eth8", "eth9"};

	rr4_converged(f);
	for (size_t i = 0; i < 2; i++)
		if (strstr(order, strangers[i])) {
			obs_nic(f, strangers[i], false);
			obs_enslave(f, strangers[i], "bond0");
		}
	obs_order(f, "bond0", order);
}

static void stranger_first_released_alone(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth9 eth1 eth2 eth3 eth4");
	run_plan(f);
	const struct exp e[MAX_EXP] = {A_RELEASE("eth9", "bond0", "not configured")};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

static void stranger_last_released_alone(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth1 eth2 eth3 eth4 eth9");
	run_plan(f);
	const struct exp e[MAX_EXP] = {A_RELEASE("eth9", "bond0", "not configured")};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

static void two_strangers_released_alone(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth1 eth8 eth2 eth9 eth3 eth4");
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth9", "bond0", "not configured"),
		A_RELEASE("eth8", "bond0", "not configured"),
	};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

/* A stranger where a deleted slave was: the stranger goes, the others stay
 * (the missing one cannot be enslaved, nothing is out of order). */
static void stranger_and_absent_slave(void **state)
{
	struct fx *f = *state;

	rr4_converged(f);
	obs_delete(f, "eth2");
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	obs_order(f, "bond0", "eth1 eth9 eth3 eth4");
	run_plan(f);
	const struct exp e[MAX_EXP] = {A_RELEASE("eth9", "bond0", "not configured")};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth3 eth4");
}

/* A stranger where a free, usable slave belongs: the tail after the gap
 * is released and enslaved again behind it. */
static void stranger_and_free_slave(void **state)
{
	struct fx *f = *state;

	rr4_converged(f);
	obs_release(f, "eth2");
	obs_nic(f, "eth9", false);
	obs_enslave(f, "eth9", "bond0");
	obs_order(f, "bond0", "eth1 eth9 eth3 eth4");
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth4", "bond0", "order"),
		A_RELEASE("eth3", "bond0", "order"),
		A_RELEASE("eth9", "bond0", "not configured"),
		A_ENSLAVE("eth2", "bond0", "missing"),
		A_ENSLAVE("eth3", "bond0", "order"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

/* A stranger and two configured slaves swapped around it. */
static void stranger_and_wrong_order(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth2 eth9 eth1 eth3 eth4");
	run_plan(f);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

static void stranger_after_swapped_tail(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth1 eth2 eth4 eth3 eth9");
	run_plan(f);
	const struct exp e[MAX_EXP] = {
		A_RELEASE("eth9", "bond0", "not configured"),
		A_RELEASE("eth3", "bond0", "order"),
		A_RELEASE("eth4", "bond0", "order"),
		A_ENSLAVE("eth3", "bond0", "order"),
		A_ENSLAVE("eth4", "bond0", "order"),
	};
	expect_actions(f, e);
	expect_order_after(f, "eth1 eth2 eth3 eth4");
}

/* A held slave and a stranger: the stranger goes, the held one is left
 * where it is (not released for the order either). */
static void stranger_and_held_slave(void **state)
{
	struct fx *f = *state;

	rr4_with_order(f, "eth1 eth3 eth9 eth2 eth4");
	fx_hold(f, "eth3");
	run_plan(f);
	for (size_t i = 0; i < f->out.n; i++)
		assert_string_not_equal(f->out.v[i].ifname, "eth3");
	for (size_t i = 0; i < f->out.n; i++)
		kernel_apply(f, &f->out.v[i]);
	for (size_t i = 0; i < obs(f, "bond0")->n_order; i++)
		assert_string_not_equal(obs(f, "bond0")->order[i], "eth9");
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test_setup_teardown(plan_appends, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(plan_is_deterministic, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(only_touched_bonds, fx_setup, fx_teardown),
		cmocka_unit_test(every_action_kind_is_asserted),
		cmocka_unit_test_setup_teardown(renamed_slave_in_the_middle_released_alone, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(failing_slave_joins_last, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(strangers_and_unusable_released_alone, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_before_slaves_out_of_order, fx_setup,
						fx_teardown),
		cmocka_unit_test(failure_mid_plan_converges),
		cmocka_unit_test(hold_keys),
		cmocka_unit_test_setup_teardown(disruptive_actions, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_first_released_alone, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_last_released_alone, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(two_strangers_released_alone, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_and_absent_slave, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_and_free_slave, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_and_wrong_order, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_after_swapped_tail, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(stranger_and_held_slave, fx_setup, fx_teardown),
	};
	struct CMUnitTest tests[N_CASES + sizeof(fixed) / sizeof(fixed[0])];

	for (size_t i = 0; i < N_CASES; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = run_case;
		tests[i].setup_func = case_setup;
		tests[i].teardown_func = fx_teardown;
		tests[i].initial_state = (void *)&cases[i];
	}
	memcpy(&tests[N_CASES], fixed, sizeof(fixed));
	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
