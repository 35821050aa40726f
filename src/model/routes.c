/* SPDX-License-Identifier: MIT */
/* The observed connected routes: plain data kept in the kernel's order. */
#include "routes.h"
#include "grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "observed.h"

bool route_same(const struct obs_route *a, const struct obs_route *b)
{
	return route_same_group(a, b) && a->oif == b->oif;
}

bool route_same_group(const struct obs_route *a, const struct obs_route *b)
{
	return a->family == b->family && a->dst_len == b->dst_len && a->table == b->table &&
	       a->tos == b->tos && a->priority == b->priority &&
	       memcmp(a->dst, b->dst, sizeof(a->dst)) == 0;
}

static int route_insert_at(struct observed *o, size_t at, const struct obs_route *r)
{
	struct obs_route *v = grow_array(o->routes, &o->cap_routes, o->n_routes + 1, sizeof(*v), 16);
	if (!v)
		return -ENOMEM;
	o->routes = v;
	memmove(&o->routes[at + 1], &o->routes[at], (o->n_routes - at) * sizeof(*o->routes));
	o->routes[at] = *r;
	o->n_routes++;
	return 0;
}

static void route_remove_at(struct observed *o, size_t at)
{
	memmove(&o->routes[at], &o->routes[at + 1], (o->n_routes - at - 1) * sizeof(*o->routes));
	o->n_routes--;
}

/*
 * The list keeps the kernel's order within a group (same table, prefix,
 * tos, priority), because that order decides which device a packet to the
 * subnet leaves by (net/ipv4/fib_trie.c fib_table_lookup takes the first
 * alias that fits).  The kernel tells where a new alias went in the
 * notification's flags (net/ipv4/fib_trie.c fib_table_insert): NLM_F_REPLACE
 * took the place of the group's first alias, NLM_F_APPEND went after the
 * group's last, otherwise before its first.  A dump lists them in order.
 */
int observed_put_route_flags(struct observed *o, const struct obs_route *r, uint16_t flags)
{
	size_t first = o->n_routes, last = o->n_routes, same = o->n_routes;

	for (size_t i = 0; i < o->n_routes; i++) {
		if (!route_same_group(&o->routes[i], r))
			continue;
		if (first == o->n_routes)
			first = i;
		last = i;
		if (o->routes[i].oif == r->oif && same == o->n_routes)
			same = i;
	}
	if (flags & NLM_F_REPLACE && first < o->n_routes) {
		o->routes[first] = *r;
		/* the same route further on is now a stale copy */
		if (same != o->n_routes && same != first)
			route_remove_at(o, same);
		return 0;
	}
	if (same < o->n_routes) {
		o->routes[same] = *r;
		return 0;
	}
	if (first == o->n_routes || flags & NLM_F_APPEND || !(flags & NLM_F_CREATE))
		return route_insert_at(o, first == o->n_routes ? o->n_routes : last + 1, r);
	return route_insert_at(o, first, r);
}

int observed_put_route(struct observed *o, const struct obs_route *r)
{
	return observed_put_route_flags(o, r, NLM_F_APPEND);
}

void observed_del_route(struct observed *o, const struct obs_route *r)
{
	for (size_t i = 0; i < o->n_routes; i++)
		if (route_same(&o->routes[i], r)) {
			route_remove_at(o, i);
			return;
		}
}

bool route_first_of_group(const struct observed *o, const struct obs_route *r)
{
	for (size_t i = 0; i < o->n_routes; i++)
		if (route_same_group(&o->routes[i], r))
			return o->routes[i].oif == r->oif;
	return true;
}

void route_observe_link(struct observed *o, int ifindex, bool up)
{
	/* IPv4 flushes a device's routes when it goes down or away without
	 * an RTM_DELROUTE (net/ipv4/fib_frontend.c fib_disable_ip, then
	 * fib_table_flush, which notifies no listener). */
	if (up)
		return;
	size_t kept = 0;
	for (size_t i = 0; i < o->n_routes; i++)
		if (o->routes[i].oif != ifindex)
			o->routes[kept++] = o->routes[i];
	o->n_routes = kept;
}

const struct obs_route *route_connected(const struct observed *o, int ifindex,
					const struct bond_addr *a)
{
	uint8_t net[4];

	if (a->family != AF_INET || a->prefixlen >= 32)
		return NULL; /* a /32 brings no prefix route */
	memcpy(net, a->addr, 4);
	for (unsigned bit = a->prefixlen; bit < 32; bit++)
		net[bit / 8] &= (uint8_t)~(0x80u >> (bit % 8));
	for (size_t i = 0; i < o->n_routes; i++) {
		const struct obs_route *r = &o->routes[i];
		/* The main table's only: see route_connected in routes.h. */
		if (r->oif == ifindex && r->family == AF_INET && r->dst_len == a->prefixlen &&
		    memcmp(r->dst, net, 4) == 0 && r->scope == RT_SCOPE_LINK &&
		    r->table == RT_TABLE_MAIN)
			return r;
	}
	return NULL;
}
