/* SPDX-License-Identifier: MIT */
/*
 * Test data for the planner: builders for the desired and the observed
 * state, and a small model of the bonding driver that applies actions to
 * the observed state and fails the test when an action breaks one of the
 * kernel's rules (drivers/net/bonding/bond_options.c bond_opt_check_deps,
 * bond_main.c bond_enslave) or sends a value the kernel already has.
 *
 * Included by test_plan.c only; every function is used there.
 */
#ifndef BONDD_TEST_PLAN_FIXTURE_H
#define BONDD_TEST_PLAN_FIXTURE_H

#include <arpa/inet.h>
#include <net/if_arp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "plan.h"

#define FX_MAX_BONDS 8
#define FX_MAX_HOLDS 8
#define FX_NIC_MAX_MTU 9216

struct fx {
	struct desired want;
	struct desired_bond bonds[FX_MAX_BONDS];
	struct observed have;
	char held[FX_MAX_HOLDS][PLAN_KEY_SIZE];
	size_t n_held;
	char failing[FX_MAX_HOLDS][PLAN_KEY_SIZE];
	size_t n_failing;
	char refused[FX_MAX_HOLDS][PLAN_KEY_SIZE];
	size_t n_refused;
	bool no_rebuild; /* planning for an event, not a start or reload */
	const bool *only; /* the bonds planned; NULL: every one */
	struct action_list out;
	int next_ifindex;
	/* What the kernel remembers and does not report: the primary a bond
	 * keeps by name while that device is not one of its slaves. */
	struct {
		char bond[IFNAMSIZ];
		char primary[IFNAMSIZ];
		/* addr_assign_type NET_ADDR_SET: its MAC was given, at
		 * creation or later; else random or the first slave's. */
		bool mac_set;
	} params[FX_MAX_BONDS * 2];
	size_t n_params;
	uint8_t next_random; /* the last byte of the next random MAC */
};

static struct plan_constraints fx_holds(const struct fx *f)
{
	struct plan_constraints h = {f->held,	   f->n_held,  f->no_rebuild, f->failing,
			       f->n_failing, f->refused, f->n_refused, f->only};
	return h;
}

/* An action whose last try failed, due for its retry now. */
static void fx_failing(struct fx *f, const char *key)
{
	assert_true(f->n_failing < FX_MAX_HOLDS);
	snprintf(f->failing[f->n_failing++], PLAN_KEY_SIZE, "%s", key);
}

/* An action backing off, by its key ("addr bond0 fd00::1/64", ...). */
static void fx_hold_key(struct fx *f, const char *key)
{
	assert_true(f->n_held < FX_MAX_HOLDS);
	assert_true(strlen(key) < PLAN_KEY_SIZE);
	snprintf(f->held[f->n_held++], PLAN_KEY_SIZE, "%s", key);
}

/* A link's existence or membership backing off. */
static void fx_hold(struct fx *f, const char *name)
{
	char key[PLAN_KEY_SIZE];
	snprintf(key, sizeof(key), "link %s", name);
	fx_hold_key(f, key);
}

static void fx_name(char dst[IFNAMSIZ], const char *src)
{
	assert_true(strlen(src) < IFNAMSIZ);
	snprintf(dst, IFNAMSIZ, "%s", src);
}

/* ---- desired state ------------------------------------------------------ */

/* A configured bond: mode, MTU 9000, slaves as a space-separated list. */
static struct desired_bond *want_bond(struct fx *f, const char *name, enum bond_mode mode,
				      const char *slaves)
{
	char list[256];

	assert_true(f->want.n_bonds < FX_MAX_BONDS);
	struct desired_bond *b = &f->bonds[f->want.n_bonds++];
	f->want.bonds = f->bonds;
	memset(b, 0, sizeof(*b));
	fx_name(b->name, name);
	b->line = (unsigned)f->want.n_bonds;
	bond_settings_set(&b->opts, OPT_MODE, (uint32_t)mode);
	b->mtu = BONDD_DEFAULT_MTU;
	snprintf(list, sizeof(list), "%s", slaves);
	for (char *save = NULL, *s = strtok_r(list, " ", &save); s;
	     s = strtok_r(NULL, " ", &save)) {
		assert_true(b->n_slaves < BONDD_MAX_SLAVES);
		fx_name(b->slaves[b->n_slaves++].name, s);
	}
	return b;
}

static struct desired_slave *want_slave(struct desired_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n_slaves; i++)
		if (strcmp(b->slaves[i].name, name) == 0)
			return &b->slaves[i];
	fail_msg("%s is not configured in %s", name, b->name);
	return NULL;
}

static void want_queue_id(struct desired_bond *b, const char *slave, uint16_t queue_id)
{
	struct desired_slave *s = want_slave(b, slave);
	s->has_queue_id = true;
	s->queue_id = queue_id;
}

static void want_prio(struct desired_bond *b, const char *slave, int32_t prio)
{
	struct desired_slave *s = want_slave(b, slave);
	s->has_prio = true;
	s->prio = prio;
}

static void want_primary(struct desired_bond *b, const char *slave)
{
	b->opts.have |= OPT_BIT(OPT_PRIMARY);
	fx_name(b->opts.primary, slave);
}

static void want_arp_target(struct desired_bond *b, const char *ip)
{
	assert_true(b->opts.n_arp_ip_target < BOND_MAX_TARGETS);
	assert_int_equal(inet_pton(AF_INET, ip, &b->opts.arp_ip_target[b->opts.n_arp_ip_target]),
			 1);
	b->opts.n_arp_ip_target++;
	b->opts.have |= OPT_BIT(OPT_ARP_IP_TARGET);
}

static void want_ns_target(struct desired_bond *b, const char *ip)
{
	assert_true(b->opts.n_ns_ip6_target < BOND_MAX_TARGETS);
	assert_int_equal(inet_pton(AF_INET6, ip, &b->opts.ns_ip6_target[b->opts.n_ns_ip6_target]),
			 1);
	b->opts.n_ns_ip6_target++;
	b->opts.have |= OPT_BIT(OPT_NS_IP6_TARGET);
}

static void want_actor_system(struct desired_bond *b, uint8_t last)
{
	const uint8_t mac[6] = {0x02, 0x00, 0x00, 0x00, 0x00, last};
	memcpy(b->opts.ad_actor_system, mac, 6);
	b->opts.have |= OPT_BIT(OPT_AD_ACTOR_SYSTEM);
}

/* "10.0.0.1/24" or "fd00::1/64". */
static struct bond_addr fx_addr(const char *text)
{
	char ip[64];
	struct bond_addr a;
	const char *slash = strchr(text, '/');

	assert_non_null(slash);
	memset(&a, 0, sizeof(a));
	snprintf(ip, sizeof(ip), "%.*s", (int)(slash - text), text);
	a.family = strchr(ip, ':') ? AF_INET6 : AF_INET;
	assert_int_equal(inet_pton(a.family, ip, a.addr), 1);
	a.prefixlen = (uint8_t)atoi(slash + 1);
	return a;
}

static void want_addr(struct desired_bond *b, const char *text)
{
	assert_true(b->n_addrs < BONDD_MAX_ADDRS);
	b->addrs[b->n_addrs++] = fx_addr(text);
}

/* ---- observed state ----------------------------------------------------- */

static struct obs_link *obs_find(struct fx *f, const char *name)
{
	for (size_t i = 0; i < f->have.n_links; i++)
		if (strcmp(f->have.links[i].name, name) == 0)
			return &f->have.links[i];
	return NULL;
}

/* A link that must exist; the pointer lives until the next link is added. */
static struct obs_link *obs(struct fx *f, const char *name)
{
	struct obs_link *l = obs_find(f, name);
	if (!l)
		fail_msg("no observed link %s", name);
	return l;
}

static struct obs_link *obs_new(struct fx *f, const char *name, const char *kind)
{
	struct obs_link l;

	assert_null(obs_find(f, name));
	memset(&l, 0, sizeof(l));
	l.ifindex = f->next_ifindex ? f->next_ifindex : 2; /* 1 is lo */
	f->next_ifindex = l.ifindex + 1;
	fx_name(l.name, name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind);
	l.type = ARPHRD_ETHER;
	l.mtu = 1500;
	l.min_mtu = 68;
	l.max_mtu = FX_NIC_MAX_MTU;
	assert_int_equal(observed_put_link(&f->have, &l), 0);
	return obs(f, name);
}

/* A physical port, admin-up or down, with no master. */
static struct obs_link *obs_nic(struct fx *f, const char *name, bool up)
{
	struct obs_link *l = obs_new(f, name, "");
	const uint8_t mac[6] = {0x52, 0x54, 0x00, 0x00, 0x00, (uint8_t)l->ifindex};
	l->flags = up ? IFF_UP | IFF_LOWER_UP : 0;
	memcpy(l->hwaddr, mac, 6);
	return l;
}

/* Every option as a fresh 6.1 bond reports it. */
static void kernel_default_opts(struct bond_settings *o)
{
	memset(o, 0, sizeof(*o));
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		o->have |= OPT_BIT(id);
		if (d->type == OT_U8 || d->type == OT_U16 || d->type == OT_U32)
			o->val[id] = d->def;
	}
}

/* One option's value from src into dst (primary aside: see its callers). */
static void copy_opt(struct bond_settings *dst, const struct bond_settings *src, enum bond_option_id id)
{
	switch (bond_option_spec(id)->type) {
	case OT_IP4_LIST:
		dst->n_arp_ip_target = src->n_arp_ip_target;
		memcpy(dst->arp_ip_target, src->arp_ip_target, sizeof(dst->arp_ip_target));
		break;
	case OT_IP6_LIST:
		dst->n_ns_ip6_target = src->n_ns_ip6_target;
		memcpy(dst->ns_ip6_target, src->ns_ip6_target, sizeof(dst->ns_ip6_target));
		break;
	case OT_MAC:
		memcpy(dst->ad_actor_system, src->ad_actor_system, 6);
		break;
	case OT_IFNAME:
		break;
	default:
		dst->val[id] = src->val[id];
	}
	dst->have |= OPT_BIT(id);
}

static bool mode_uses_primary(const struct obs_link *bond)
{
	return bond_option_applies(bond_option_spec(OPT_PRIMARY), (enum bond_mode)bond->bond.val[OPT_MODE]);
}

static int fx_param(struct fx *f, const char *bond)
{
	for (size_t i = 0; i < f->n_params; i++)
		if (strcmp(f->params[i].bond, bond) == 0)
			return (int)i;
	assert_true(f->n_params < FX_MAX_BONDS * 2);
	fx_name(f->params[f->n_params].bond, bond);
	f->params[f->n_params].primary[0] = '\0';
	f->params[f->n_params].mac_set = false;
	return (int)f->n_params++;
}

static char *remembered_primary(struct fx *f, const char *bond)
{
	return f->params[fx_param(f, bond)].primary;
}

static bool *mac_set(struct fx *f, const char *bond)
{
	return &f->params[fx_param(f, bond)].mac_set;
}

/* eth_hw_addr_random: locally administered, and a new one each time. */
static void fx_random_mac(struct fx *f, struct obs_link *l)
{
	const uint8_t mac[6] = {0x0a, 0x5e, 0xed, 0x00, 0x00, ++f->next_random};
	memcpy(l->hwaddr, mac, 6);
}

/* A bond as the kernel creates it: down, no slaves, default options. */
static struct obs_link *obs_bond(struct fx *f, const char *name, uint32_t mtu)
{
	struct obs_link *l = obs_new(f, name, "bond");
	l->mtu = mtu;
	l->max_mtu = 65535;
	kernel_default_opts(&l->bond);
	fx_random_mac(f, l);
	*mac_set(f, name) = false;
	return obs(f, name);
}

/*
 * In the modes with one active slave (active-backup, tlb, alb) the kernel
 * keeps one slave active (state 0) and the others backup (1): the primary
 * when it is a slave, else the one already active, else the first.
 */
static void elect_active(struct fx *f, const char *bond)
{
	struct obs_link *m = obs(f, bond);
	char choose[IFNAMSIZ] = "";

	if (!mode_uses_primary(m) || m->n_order == 0)
		return;
	const char *primary = remembered_primary(f, bond);
	m = obs(f, bond);
	for (size_t i = 0; i < m->n_order; i++) {
		const struct obs_link *s = obs(f, m->order[i]);
		if (primary[0] && strcmp(s->name, primary) == 0) {
			fx_name(choose, s->name);
			break;
		}
		if (!choose[0] && s->slave.valid && s->slave.state == 0)
			fx_name(choose, s->name);
	}
	if (!choose[0])
		fx_name(choose, m->order[0]);
	for (size_t i = 0; i < m->n_order; i++) {
		struct obs_link *s = obs(f, m->order[i]);
		s->slave.state = strcmp(s->name, choose) == 0 ? 0 : 1;
	}
}

/* The kernel enslaving `slave` to `bond` (no rule checks: see kernel_apply). */
static void obs_enslave(struct fx *f, const char *slave, const char *bond)
{
	struct obs_link *m = obs(f, bond), *s = obs(f, slave);

	assert_true(m->n_order < BONDD_MAX_SLAVES);
	/* bond_main.c bond_enslave: the first slave gives a bond whose MAC
	 * is random its own (the slaves then take the bond's). */
	if (m->n_order == 0 && !*mac_set(f, bond)) {
		m = obs(f, bond);
		memcpy(m->hwaddr, s->hwaddr, 6);
	}
	fx_name(m->order[m->n_order++], slave);
	s->master = m->ifindex;
	s->mtu = m->mtu;
	s->flags |= IFF_UP; /* the bond opens its slaves */
	memset(&s->slave, 0, sizeof(s->slave));
	s->slave.valid = true;
	s->slave.has_prio = true;
	s->slave.state = 1;
	if (mode_uses_primary(m) && strcmp(remembered_primary(f, bond), slave) == 0) {
		fx_name(m->bond.primary, slave);
		m->primary_ifindex = s->ifindex;
	}
	elect_active(f, bond);
}

/* The kernel releasing `slave`: out of the order, admin-down. */
static void obs_release(struct fx *f, const char *slave)
{
	struct obs_link *s = obs(f, slave);
	struct obs_link *m = (struct obs_link *)observed_by_index(&f->have, s->master);
	size_t j = 0;

	assert_non_null(m);
	for (size_t i = 0; i < m->n_order; i++)
		if (strcmp(m->order[i], slave) != 0)
			memcpy(m->order[j++], m->order[i], IFNAMSIZ);
	m->n_order = j;
	if (strcmp(m->bond.primary, slave) == 0) {
		m->bond.primary[0] = '\0';
		m->primary_ifindex = 0;
	}
	s->master = 0;
	s->flags &= ~(unsigned)IFF_UP;
	memset(&s->slave, 0, sizeof(s->slave));
	char bond[IFNAMSIZ];
	fx_name(bond, m->name);
	/* __bond_release_one: the last slave out leaves a random MAC. */
	if (m->n_order == 0) {
		fx_random_mac(f, m);
		*mac_set(f, bond) = false;
	}
	elect_active(f, bond);
}

/* A device deleted: the kernel releases it first. */
static void obs_delete(struct fx *f, const char *name)
{
	struct obs_link *l = obs(f, name);
	if (l->master)
		obs_release(f, name);
	l = obs(f, name);
	if (strcmp(l->kind, "bond") == 0)
		while (l->n_order > 0) {
			char slave[IFNAMSIZ];
			memcpy(slave, l->order[l->n_order - 1], IFNAMSIZ);
			obs_release(f, slave);
			l = obs(f, name);
		}
	observed_del_link(&f->have, obs(f, name)->ifindex);
}

/* Rewrites a bond's order as /proc would show it (names only). */
static void obs_order(struct fx *f, const char *bond, const char *names)
{
	char list[256];
	struct obs_link *m = obs(f, bond);

	m->n_order = 0;
	snprintf(list, sizeof(list), "%s", names);
	for (char *save = NULL, *s = strtok_r(list, " ", &save); s;
	     s = strtok_r(NULL, " ", &save))
		fx_name(m->order[m->n_order++], s);
}

static void obs_addr(struct fx *f, const char *link, const char *text)
{
	struct obs_addr a = {obs(f, link)->ifindex, fx_addr(text)};
	assert_int_equal(observed_put_addr(&f->have, &a), 0);
}

/* The connected route the kernel makes for an IPv4 address on `link`
 * (net/ipv4/fib_frontend.c fib_add_ifaddr), with algorithm cc ("" none). */
static struct obs_route *obs_route(struct fx *f, const char *link, const char *text,
				   const char *cc)
{
	struct bond_addr a = fx_addr(text);
	struct obs_route r = {.family = AF_INET, .dst_len = a.prefixlen,
			      .oif = obs(f, link)->ifindex, .table = RT_TABLE_MAIN,
			      .protocol = RTPROT_KERNEL, .scope = RT_SCOPE_LINK,
			      .type = RTN_UNICAST, .has_prefsrc = true};

	memcpy(r.prefsrc, a.addr, 4);
	memcpy(r.dst, a.addr, 4);
	for (unsigned bit = a.prefixlen; bit < 32; bit++)
		r.dst[bit / 8] &= (uint8_t)~(0x80u >> (bit % 8));
	snprintf(r.cc_algo, sizeof(r.cc_algo), "%s", cc);
	assert_int_equal(observed_put_route(&f->have, &r), 0);
	for (size_t i = 0; i < f->have.n_routes; i++)
		if (route_same(&f->have.routes[i], &r))
			return &f->have.routes[i];
	return NULL;
}

/*
 * The kernel in the state the config asks for: every configured bond up at
 * its MTU with its options (the rest at the kernel's defaults), every
 * configured slave (created when missing, admin-up) enslaved in order with
 * its queue_id and prio, every address present with its connected route
 * at the configured tcp_congestion.
 */
static void obs_converged(struct fx *f)
{
	for (size_t i = 0; i < f->want.n_bonds; i++) {
		const struct desired_bond *b = &f->want.bonds[i];
		struct obs_link *m = obs_bond(f, b->name, b->mtu);
		m->flags = IFF_UP | IFF_LOWER_UP;
		if (b->has_mac) {
			memcpy(m->hwaddr, b->mac, 6);
			*mac_set(f, b->name) = true;
		}
		for (int id = 0; id < OPT__COUNT; id++)
			if (id != OPT_PRIMARY && bond_settings_has(&b->opts, (enum bond_option_id)id))
				copy_opt(&m->bond, &b->opts, (enum bond_option_id)id);
		if (bond_settings_has(&b->opts, OPT_PRIMARY))
			fx_name(remembered_primary(f, b->name), b->opts.primary);
		for (size_t j = 0; j < b->n_slaves; j++) {
			const struct desired_slave *ds = &b->slaves[j];
			if (!obs_find(f, ds->name))
				obs_nic(f, ds->name, false);
			obs_enslave(f, ds->name, b->name);
			struct obs_link *s = obs(f, ds->name);
			s->flags |= IFF_LOWER_UP;
			s->slave.queue_id = ds->has_queue_id ? ds->queue_id : 0;
			s->slave.prio = ds->has_prio ? ds->prio : 0;
		}
		for (size_t j = 0; j < b->n_addrs; j++) {
			struct obs_addr a = {obs(f, b->name)->ifindex, b->addrs[j]};
			assert_int_equal(observed_put_addr(&f->have, &a), 0);
			char text[INET6_ADDRSTRLEN + 8];
			inet_ntop(AF_INET, a.addr.addr, text, sizeof(text));
			snprintf(text + strlen(text), 8, "/%u", a.addr.prefixlen);
			if (a.addr.family == AF_INET && a.addr.prefixlen < 32)
				obs_route(f, b->name, text, b->tcp_congestion);
		}
	}
}

/* ---- the kernel model --------------------------------------------------- */

#define kernel_refuses(a, ...)                                                   \
	do {                                                                     \
		char desc_[256];                                                 \
		print_error("kernel refuses: %s: ",                              \
			    action_describe((a), desc_, sizeof(desc_)));         \
		fail_msg(__VA_ARGS__);                                           \
	} while (0)

static void kernel_set_opts(struct fx *f, const struct action *a)
{
	struct obs_link *m = obs(f, a->ifname);

	if (strcmp(m->kind, "bond") != 0)
		kernel_refuses(a, "%s is not a bond", a->ifname);
	for (int id = 0; id < OPT__COUNT; id++) {
		const struct bond_option_spec *d = bond_option_spec((enum bond_option_id)id);
		if (!bond_settings_has(&a->opts, (enum bond_option_id)id))
			continue;
		/* A remembered primary is not reported, so the planner may
		 * resend one the kernel restored on enslaving: allowed. */
		if (id != OPT_PRIMARY && bond_settings_equal(&a->opts, &m->bond, (enum bond_option_id)id))
			kernel_refuses(a, "%s sent unchanged", d->key);
		if ((d->flags & OF_REBUILD) && (m->flags & IFF_UP))
			kernel_refuses(a, "%s on a bond that is up (-EBUSY)", d->key);
		if ((id == OPT_MODE || (d->flags & OF_NO_SLAVES)) && m->n_order > 0)
			kernel_refuses(a, "%s on a bond with slaves (-ENOTEMPTY)", d->key);
		if (id == OPT_PRIMARY) {
			const struct obs_link *p = obs(f, a->opts.primary);
			if (p->master != m->ifindex)
				kernel_refuses(a, "primary %s is not a slave", a->opts.primary);
			fx_name(remembered_primary(f, m->name), a->opts.primary);
			if (mode_uses_primary(m)) {
				fx_name(m->bond.primary, a->opts.primary);
				m->primary_ifindex = p->ifindex;
			}
			continue;
		}
		copy_opt(&m->bond, &a->opts, (enum bond_option_id)id);
	}
}

static void kernel_set_mtu(struct fx *f, const struct action *a)
{
	struct obs_link *l = obs(f, a->ifname);

	if (l->mtu == a->mtu)
		kernel_refuses(a, "MTU sent unchanged");
	if (l->max_mtu && a->mtu > l->max_mtu)
		kernel_refuses(a, "MTU above max_mtu %u", l->max_mtu);
	l->mtu = a->mtu;
	if (strcmp(l->kind, "bond") != 0)
		return;
	/* The bond sets every slave, and rolls back if one cannot. */
	for (size_t i = 0; i < l->n_order; i++) {
		struct obs_link *s = obs(f, l->order[i]);
		if (s->max_mtu && a->mtu > s->max_mtu)
			kernel_refuses(a, "slave %s cannot take MTU %u", s->name, a->mtu);
		s->mtu = a->mtu;
	}
}

static void kernel_enslave(struct fx *f, const struct action *a)
{
	struct obs_link *m = obs(f, a->bond), *s = obs(f, a->ifname);

	if (strcmp(m->kind, "bond") != 0)
		kernel_refuses(a, "master %s is not a bond", a->bond);
	if (strcmp(s->kind, "bond") == 0)
		kernel_refuses(a, "%s is a bond", a->ifname);
	if (s->master)
		kernel_refuses(a, "%s already has a master (-EBUSY)", a->ifname);
	if (s->flags & IFF_UP)
		kernel_refuses(a, "%s is admin-up (-EPERM)", a->ifname);
	if (s->max_mtu && m->mtu > s->max_mtu)
		kernel_refuses(a, "%s cannot take MTU %u", a->ifname, m->mtu);
	obs_enslave(f, a->ifname, a->bond);
	obs(f, a->ifname)->flags |= IFF_LOWER_UP;
}

static void kernel_set_slave_opts(struct fx *f, const struct action *a)
{
	struct obs_link *s = obs(f, a->ifname);

	if (s->master != obs(f, a->bond)->ifindex)
		kernel_refuses(a, "%s is not a slave of %s", a->ifname, a->bond);
	if (!a->slave.has_queue_id && !a->slave.has_prio && !a->slave.has_actor_port_prio)
		kernel_refuses(a, "nothing to set");
	if (a->slave.has_actor_port_prio) {
		/* bond_options.c BOND_OPT_ACTOR_PORT_PRIO: 802.3ad only */
		if (obs(f, a->bond)->bond.val[OPT_MODE] != MODE_8023AD)
			kernel_refuses(a, "actor_port_prio outside 802.3ad (-EACCES)");
		if (s->slave.has_actor_port_prio && s->slave.actor_port_prio == a->slave.actor_port_prio)
			kernel_refuses(a, "actor_port_prio sent unchanged");
		s->slave.actor_port_prio = a->slave.actor_port_prio;
		s->slave.has_actor_port_prio = true;
	}
	if (a->slave.has_queue_id) {
		if (s->slave.queue_id == a->slave.queue_id)
			kernel_refuses(a, "queue_id sent unchanged");
		s->slave.queue_id = a->slave.queue_id;
	}
	if (a->slave.has_prio) {
		if (s->slave.has_prio && s->slave.prio == a->slave.prio)
			kernel_refuses(a, "prio sent unchanged");
		s->slave.prio = a->slave.prio;
		s->slave.has_prio = true;
	}
	s->slave.valid = true; /* the change is announced with the slave's data */
}

static void kernel_set_flag(struct fx *f, const struct action *a, bool up)
{
	struct obs_link *l = obs(f, a->ifname);

	if (((l->flags & IFF_UP) != 0) == up)
		kernel_refuses(a, "admin state sent unchanged");
	if (up)
		l->flags |= IFF_UP;
	else
		l->flags &= ~(unsigned)IFF_UP;
}

/* Applies one action as the 6.1 bonding driver would, or fails the test. */
static void kernel_apply(struct fx *f, const struct action *a)
{
	if (!a->why || !a->why[0] || !a->bond[0] || !a->ifname[0])
		kernel_refuses(a, "action without bond, link or reason");
	switch (a->kind) {
	case ACT_CREATE_BOND: {
		if (obs_find(f, a->ifname))
			kernel_refuses(a, "%s exists (-EEXIST)", a->ifname);
		if (bond_settings_has(&a->opts, OPT_PRIMARY))
			kernel_refuses(a, "primary names no device yet");
		/* A new bond is down and empty: every option is accepted. */
		struct obs_link *m = obs_bond(f, a->ifname, a->mtu);
		for (int id = 0; id < OPT__COUNT; id++)
			if (bond_settings_has(&a->opts, (enum bond_option_id)id))
				copy_opt(&m->bond, &a->opts, (enum bond_option_id)id);
		if (a->has_mac) {
			memcpy(m->hwaddr, a->mac, 6);
			*mac_set(f, a->ifname) = true;
		}
		break;
	}
	case ACT_SET_MAC: {
		struct obs_link *m = obs(f, a->ifname);
		if (strcmp(m->kind, "bond") != 0)
			kernel_refuses(a, "%s is not a bond", a->ifname);
		if (!a->has_mac || (a->mac[0] & 1))
			kernel_refuses(a, "not a unicast address (-EADDRNOTAVAIL)");
		if (memcmp(m->hwaddr, a->mac, 6) == 0)
			kernel_refuses(a, "address sent unchanged");
		/* bond_set_mac_address: ignored, with success, in
		 * active-backup with fail_over_mac: a repair that never ends. */
		if (m->bond.val[OPT_MODE] == MODE_ACTIVE_BACKUP && m->bond.val[OPT_FAIL_OVER_MAC])
			kernel_refuses(a, "ignored with fail_over_mac in active-backup");
		memcpy(m->hwaddr, a->mac, 6);
		*mac_set(f, a->ifname) = true;
		break;
	}
	case ACT_DELETE_BOND: {
		const struct obs_link *m = obs(f, a->ifname);
		if (strcmp(m->kind, "bond") != 0)
			kernel_refuses(a, "%s is not a bond", a->ifname);
		/* Deleting a bond releases every port (bond_main.c bond_uninit,
		 * __bond_release_one): the switch's rule of ACT_RELEASE below
		 * holds for each of them. */
		if (m->bond.val[OPT_MODE] == MODE_8023AD)
			for (size_t i = 0; i < m->n_order; i++) {
				const struct obs_link *p = obs(f, m->order[i]);
				if (p->flags & IFF_UP)
					kernel_refuses(a, "802.3ad port %s released while up "
						       "(its bond deleted)", p->name);
			}
		obs_delete(f, a->ifname);
		break;
	}
	case ACT_SET_OPTS:
		kernel_set_opts(f, a);
		break;
	case ACT_SET_MTU:
		kernel_set_mtu(f, a);
		break;
	case ACT_LINK_DOWN:
		kernel_set_flag(f, a, false);
		break;
	case ACT_LINK_UP:
		kernel_set_flag(f, a, true);
		break;
	case ACT_ENSLAVE:
		kernel_enslave(f, a);
		break;
	case ACT_RELEASE: {
		const struct obs_link *l = obs(f, a->ifname);
		if (!l->master)
			kernel_refuses(a, "%s has no master", a->ifname);
		/* Not the kernel's rule but a switch's: an 802.3ad port
		 * released while up may be err-disabled (plan.c,
		 * emit_release).  Every plan of the table is held to it. */
		const struct obs_link *m = observed_by_index(&f->have, l->master);
		if (m && m->bond.val[OPT_MODE] == MODE_8023AD && (l->flags & IFF_UP))
			kernel_refuses(a, "802.3ad port %s released while up", a->ifname);
		obs_release(f, a->ifname);
		break;
	}
	case ACT_SET_SLAVE_OPTS:
		kernel_set_slave_opts(f, a);
		break;
	case ACT_ADD_ADDR: {
		struct obs_addr oa = {obs(f, a->ifname)->ifindex, a->addr};
		if (observed_has_addr(&f->have, oa.ifindex, &oa.addr))
			kernel_refuses(a, "address exists (-EEXIST)");
		assert_int_equal(observed_put_addr(&f->have, &oa), 0);
		break;
	}
	case ACT_SET_ROUTE_CC: {
		/* The bond's route deleted as it was and added again with the
		 * algorithm (route_cc.c); the model adds no route with an address: the kernel's arrives as an event and
		 * is planned in the next pass. */
		struct obs_route *r = NULL;
		for (size_t i = 0; i < f->have.n_routes; i++)
			if (route_same(&f->have.routes[i], &a->route))
				r = &f->have.routes[i];
		if (!r)
			kernel_refuses(a, "no such route (-ESRCH)");
		if (r->protocol != a->route.protocol || r->scope != a->route.scope ||
		    r->has_prefsrc != a->route.has_prefsrc ||
		    memcmp(r->prefsrc, a->route.prefsrc, 4) != 0)
			kernel_refuses(a, "the route would no longer be the address's own");
		if (strcmp(r->cc_algo, a->route.cc_algo) == 0)
			kernel_refuses(a, "congestion control sent unchanged");
		*r = a->route;
		break;
	}
	case ACT_SET_BRIDGE: {
		/* net/core/rtnetlink.c do_set_master, br_add_if: the bridge
		 * must be one; the request with the master it has is a no-op. */
		struct obs_link *l = obs(f, a->ifname), *br = obs(f, a->master);
		if (strcmp(l->kind, "bond") != 0)
			kernel_refuses(a, "%s is not a bond", a->ifname);
		if (strcmp(br->kind, "bridge") != 0)
			kernel_refuses(a, "%s is not a bridge (-EOPNOTSUPP)", a->master);
		if (l->master == br->ifindex)
			kernel_refuses(a, "bridge sent unchanged");
		l->master = br->ifindex;
		break;
	}
	case ACT__COUNT:
		kernel_refuses(a, "not an action");
	}
}

#endif
