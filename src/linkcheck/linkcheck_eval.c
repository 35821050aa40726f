/* SPDX-License-Identifier: MIT */
/*
 * The link check's evaluation: a bond's observation matrix -> findings.
 * Pure; every rule here is a table entry in tests/unit/test_linkcheck.c.
 */
#include "linkcheck.h"

#include "grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lc_end_same(const struct lc_end *a, const struct lc_end *b)
{
	return memcmp(a->host, b->host, LC_HOST_ID_LEN) == 0 && strcmp(a->bond, b->bond) == 0 &&
	       strcmp(a->slave, b->slave) == 0;
}

/* Same host and bond: the same peer bond, whatever slave. */
static bool same_bond(const struct lc_end *a, const struct lc_end *b)
{
	return memcmp(a->host, b->host, LC_HOST_ID_LEN) == 0 && strcmp(a->bond, b->bond) == 0;
}

/* Room for at least `want` peers (at most LC_MAX_PEERS), by doubling. */
static int row_grow(struct lc_slave_obs *row, size_t want)
{
	if (want <= row->cap_peers)
		return 0;
	struct lc_peer_obs *v = grow_array_max(row->peers, &row->cap_peers, want,
					       sizeof(*v), 4, LC_MAX_PEERS);
	if (!v)
		return -1;
	row->peers = v;
	return 0;
}

int lc_row_copy(struct lc_slave_obs *dst, const struct lc_slave_obs *src)
{
	struct lc_peer_obs *peers = dst->peers;
	size_t cap = dst->cap_peers;
	*dst = *src;
	dst->peers = peers;
	dst->cap_peers = cap;
	int rc = row_grow(dst, src->n_peers);
	dst->n_peers = src->n_peers < dst->cap_peers ? src->n_peers : dst->cap_peers;
	if (dst->n_peers)
		memcpy(dst->peers, src->peers, dst->n_peers * sizeof(*dst->peers));
	return rc;
}

void lc_row_free(struct lc_slave_obs *row)
{
	free(row->peers);
	row->peers = NULL;
	row->n_peers = row->cap_peers = 0;
}

void lc_rows_free(struct lc_slave_obs *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		lc_row_free(&rows[i]);
}

struct lc_peer_obs *lc_row_peer(struct lc_slave_obs *row, const struct lc_end *end)
{
	for (size_t i = 0; i < row->n_peers; i++)
		if (lc_end_same(&row->peers[i].end, end)) {
			/* A peer slave that moved to another place is the same
			 * slave: keep its newest place. */
			row->peers[i].end.pos = end->pos;
			if (end->host_name[0])
				memcpy(row->peers[i].end.host_name, end->host_name,
				       LC_HOST_NAME_LEN);
			return &row->peers[i];
		}
	if (row->n_peers == row->cap_peers && row_grow(row, row->n_peers + 1) < 0)
		return NULL;
	struct lc_peer_obs *p = &row->peers[row->n_peers++];
	memset(p, 0, sizeof(*p));
	p->end = *end;
	return p;
}

struct lc_peer_obs *lc_row_peer_answered(struct lc_slave_obs *row, const struct lc_end *end)
{
	struct lc_peer_obs *p = lc_row_peer(row, end);
	if (p || row->n_peers < LC_MAX_PEERS)
		return p; /* (found or added; or out of memory: no place taken) */
	/* Full: the place of a peer that only sent requests, one the check
	 * did not wait for if there is one, else one it waited for. */
	for (int pass = 0; pass < 2 && !p; pass++)
		for (size_t i = row->n_peers; i-- > 0 && !p;)
			if (!row->peers[i].answered && (pass || !row->peers[i].expected))
				p = &row->peers[i];
	if (p) {
		memset(p, 0, sizeof(*p));
		p->end = *end;
	}
	return p;
}

void lc_host_short(const uint8_t host[LC_HOST_ID_LEN], char out[9])
{
	snprintf(out, 9, "%02x%02x%02x%02x", host[0], host[1], host[2], host[3]);
}

const char *lc_end_host(const struct lc_end *end, char out[LC_HOST_NAME_LEN])
{
	if (lc_host_name_valid(end->host_name))
		snprintf(out, LC_HOST_NAME_LEN, "%s", end->host_name);
	else
		lc_host_short(end->host, out);
	return out;
}

const struct lc_result *lc_results_find(const struct lc_results *rs, const char *bond)
{
	for (size_t i = 0; rs && i < rs->n; i++)
		if (strcmp(rs->v[i]->bond, bond) == 0)
			return rs->v[i];
	return NULL;
}

uint32_t lc_peer_id(const struct lc_end *end)
{
	/* FNV-1a over the host id and the slave's name */
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < LC_HOST_ID_LEN; i++)
		h = (h ^ end->host[i]) * 16777619u;
	for (size_t i = 0; i < IFNAMSIZ && end->slave[i]; i++)
		h = (h ^ (uint8_t)end->slave[i]) * 16777619u;
	return h;
}

bool lc_host_answered(const struct lc_slave_obs *rows, size_t n,
		      const uint8_t host[LC_HOST_ID_LEN])
{
	for (size_t i = 0; i < n; i++)
		for (size_t p = 0; p < rows[i].n_peers; p++)
			if (rows[i].peers[p].answered &&
			    memcmp(rows[i].peers[p].end.host, host, LC_HOST_ID_LEN) == 0)
				return true;
	return false;
}

/* A request heard from a peer counts for a finding only when its host
 * answered this check (lc_host_answered). */
static bool heard(const struct lc_matrix *m, const struct lc_peer_obs *p)
{
	return p->heard && lc_host_answered(m->slaves, m->n_slaves, p->end.host);
}

/* A peer slave counts as reached when the path to it is proven in either
 * direction: it answered, or its own requests arrived (from a host that
 * answers). */
static bool reached(const struct lc_matrix *m, const struct lc_peer_obs *p)
{
	return p->answered || heard(m, p);
}

static size_t n_reached(const struct lc_matrix *m, const struct lc_slave_obs *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_peers; i++)
		n += reached(m, &s->peers[i]);
	return n;
}

/* Modes that send one MAC address out of every slave at once, so that a
 * switch domain shared by two slaves sees that address move between ports:
 * balance-rr and balance-xor stripe, broadcast duplicates
 * (drivers/net/bonding/bond_main.c, bond_start_xmit).  Active-backup, the
 * load balancers with their own MACs per slave, and 802.3ad (an aggregate
 * the switch knows) want one domain. */
static bool mode_needs_own_domains(enum bond_mode mode)
{
	return mode == MODE_BALANCE_RR || mode == MODE_BALANCE_XOR || mode == MODE_BROADCAST;
}

static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* Appends text to buf, after sep when buf holds something already. */
static void append(char *buf, size_t len, const char *sep, const char *text)
{
	size_t used = strlen(buf);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s%s", used ? sep : "", text);
}

/* Groups the probed slaves by broadcast domain (parent[], a union-find
 * forest); with out, adds a finding per group of two or more. */
/* A degraded finding about m's bond, naming slave when it is not NULL;
 * NULL when out of memory. */
static struct finding *degraded(struct findings *out, const struct lc_matrix *m,
				enum finding_kind kind, const char *slave)
{
	struct finding *f = findings_add(out, FSRC_LINK_CHECK, FSEV_DEGRADED, kind, m->bond);
	if (f && slave)
		finding_add_slave(f, slave);
	return f;
}

static int shared_domains(const struct lc_matrix *m, size_t parent[BONDD_MAX_SLAVES],
			  struct findings *out)
{
	char why[BONDD_MAX_SLAVES][160];
	size_t n = m->n_slaves < BONDD_MAX_SLAVES ? m->n_slaves : BONDD_MAX_SLAVES;

	for (size_t i = 0; i < n; i++) {
		parent[i] = i;
		why[i][0] = '\0';
	}
	for (size_t i = 0; i < n; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed)
			continue;
		for (size_t k = 0; k < n; k++) {
			if (k == i || !(s->siblings & (1u << k)) || !m->slaves[k].probed)
				continue;
			size_t a = find_root(parent, i), b = find_root(parent, k);
			if (a == b)
				continue;
			parent[b] = a;
			if (!why[a][0])
				snprintf(why[a], sizeof(why[a]), "%s received the probes %s sent",
					 s->name, m->slaves[k].name);
		}
		/* Two slaves that both meet one peer slave are in one domain,
		 * whether or not their own broadcasts met. */
		for (size_t j = i + 1; j < n; j++) {
			const struct lc_slave_obs *t = &m->slaves[j];
			if (!t->probed || find_root(parent, i) == find_root(parent, j))
				continue;
			for (size_t p = 0; p < s->n_peers; p++) {
				bool both = false;
				for (size_t q = 0; q < t->n_peers && !both; q++)
					both = lc_end_same(&s->peers[p].end, &t->peers[q].end) &&
					       reached(m, &s->peers[p]) && reached(m, &t->peers[q]);
				if (!both)
					continue;
				size_t a = find_root(parent, i), b = find_root(parent, j);
				parent[b] = a;
				if (!why[a][0]) {
					char host[LC_HOST_NAME_LEN];
					lc_end_host(&s->peers[p].end, host);
					snprintf(why[a], sizeof(why[a]),
						 "%s and %s both reach slave %s of host %s", s->name,
						 t->name, s->peers[p].end.slave, host);
				}
				break;
			}
		}
	}
	for (size_t r = 0; out && r < n; r++) {
		size_t members = 0;
		for (size_t i = 0; i < n; i++)
			members += m->slaves[i].probed && find_root(parent, i) == r;
		if (members < 2)
			continue;
		struct finding *f = degraded(out, m, FK_SHARED_DOMAIN, NULL);
		if (!f)
			return -1;
		char names[128] = "";
		for (size_t i = 0; i < n; i++)
			if (m->slaves[i].probed && find_root(parent, i) == r) {
				finding_add_slave(f, m->slaves[i].name);
				append(names, sizeof(names), ", ", m->slaves[i].name);
			}
		snprintf(f->evidence, sizeof(f->evidence),
			 "%.60s are in one broadcast domain (%.90s): the switch sees the bond's one "
			 "MAC address on several ports", names, why[r]);
		snprintf(f->fix, sizeof(f->fix),
			 "put each port in a VLAN (or switch) of its own, port N of every host in "
			 "the same one");
	}
	return 0;
}

static int jumbo(const struct lc_matrix *m, struct findings *out)
{
	for (size_t i = 0; i < m->n_slaves; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed || !(s->sent & LC_SIZE_BIT(LC_FULL)))
			continue;
		size_t full = 0, smaller = 0;
		int largest = -1;
		for (size_t p = 0; p < s->n_peers; p++) {
			uint8_t a = s->peers[p].answered;
			full += !!(a & LC_SIZE_BIT(LC_FULL));
			smaller += !!(a & (LC_SIZE_BIT(LC_SMALL) | LC_SIZE_BIT(LC_STANDARD)));
			if ((a & LC_SIZE_BIT(LC_STANDARD)) && (s->sent & LC_SIZE_BIT(LC_STANDARD)))
				largest = LC_STANDARD;
			else if ((a & LC_SIZE_BIT(LC_SMALL)) && largest < 0)
				largest = LC_SMALL;
		}
		if (full || !smaller || largest < 0)
			continue;
		struct finding *f = degraded(out, m, FK_JUMBO_DROPPED, s->name);
		if (!f)
			return -1;
		snprintf(f->evidence, sizeof(f->evidence),
			 "%s's %u-byte probes reached no peer while its %u-byte probes reached %zu "
			 "peer slave%s; the largest that passed was %u bytes",
			 s->name, s->sizes[LC_FULL], s->sizes[LC_SMALL], smaller,
			 smaller == 1 ? "" : "s", s->sizes[largest]);
		snprintf(f->fix, sizeof(f->fix),
			 "enable jumbo frames (MTU %u or more) on the switch ports and the peers' "
			 "NICs on %s's path, or lower the bond's MTU",
			 s->sizes[LC_FULL], s->name);
	}
	return 0;
}

/* Local slave i meets exactly one slave of a peer bond, at another place:
 * with a domain per port and one slave order on every host, port i must
 * meet port i. */
static bool shares_domain(const struct lc_matrix *m, size_t *parent, size_t i)
{
	for (size_t k = 0; k < m->n_slaves && k < BONDD_MAX_SLAVES; k++)
		if (k != i && m->slaves[k].probed && find_root(parent, k) == find_root(parent, i))
			return true;
	return false;
}

/* (Slaves sharing a domain meet every port of it: no order to judge.) */
static int crossed(const struct lc_matrix *m, size_t *parent, struct findings *out)
{
	struct finding *f = NULL;
	char evidence[sizeof(f->evidence)] = "";

	for (size_t i = 0; i < m->n_slaves && i < BONDD_MAX_SLAVES; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed || shares_domain(m, parent, i))
			continue;
		for (size_t p = 0; p < s->n_peers; p++) {
			const struct lc_peer_obs *pe = &s->peers[p];
			if (!reached(m, pe))
				continue;
			size_t same = 0;
			for (size_t q = 0; q < s->n_peers; q++)
				same += same_bond(&s->peers[q].end, &pe->end) && reached(m, &s->peers[q]);
			if (same != 1 || pe->end.pos == s->pos)
				continue;
			if (!f) {
				f = degraded(out, m, FK_CROSSED, NULL);
				if (!f)
					return -1;
			}
			bool listed = false;
			for (size_t k = 0; k < f->n_slaves; k++)
				listed |= strcmp(f->slaves[k], s->name) == 0;
			if (!listed)
				finding_add_slave(f, s->name);
			char host[LC_HOST_NAME_LEN], one[200];
			lc_end_host(&pe->end, host);
			/* An entry by mac: or path: is named: "which port of
			 * the host is place 2" is the question here. */
			snprintf(one, sizeof(one), "%.16s (place %u%s%.60s) meets %.31s's %.16s (place %u)",
				 s->name, s->pos, s->sel[0] ? ", " : "", s->sel, host, pe->end.slave,
				 pe->end.pos);
			append(evidence, sizeof(evidence), "; ", one);
		}
	}
	if (f) {
		snprintf(f->evidence, sizeof(f->evidence), "%s", evidence);
		snprintf(f->fix, sizeof(f->fix),
			 "port N of every host must meet port N: swap the crossed cables or switch "
			 "port VLANs back, or list the slaves in the same order on every host");
	}
	return 0;
}

static int unreachable(const struct lc_matrix *m, struct findings *out)
{
	size_t reaching = 0;
	for (size_t i = 0; i < m->n_slaves; i++)
		reaching += m->slaves[i].probed && n_reached(m, &m->slaves[i]) > 0;
	if (!reaching)
		return 0;
	for (size_t i = 0; i < m->n_slaves; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed || n_reached(m, s) > 0)
			continue;
		struct finding *f = degraded(out, m, FK_UNREACHABLE, s->name);
		if (!f)
			return -1;
		char others[128] = "";
		for (size_t k = 0; k < m->n_slaves; k++)
			if (m->slaves[k].probed && n_reached(m, &m->slaves[k]) > 0)
				append(others, sizeof(others), ", ", m->slaves[k].name);
		snprintf(f->evidence, sizeof(f->evidence),
			 "%s reached no peer and heard none, while %.100s reached peers", s->name, others);
		snprintf(f->fix, sizeof(f->fix),
			 "check %s's cable, switch port and VLAN: it must be in the domain of the "
			 "peers' port %u", s->name, s->pos);
	}
	return 0;
}

static int one_way(const struct lc_matrix *m, struct findings *out)
{
	for (size_t i = 0; i < m->n_slaves; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed)
			continue;
		struct finding *f = NULL;
		char peers[160] = "";
		for (size_t p = 0; p < s->n_peers; p++) {
			const struct lc_peer_obs *pe = &s->peers[p];
			if (!heard(m, pe) || pe->answered || pe->slow)
				continue;
			if (!f) {
				f = degraded(out, m, FK_ONE_WAY, s->name);
				if (!f)
					return -1;
			}
			if (f->n_peers < FINDING_MAX_PEERS)
				f->peers[f->n_peers++] = lc_peer_id(&pe->end);
			char host[LC_HOST_NAME_LEN], one[64];
			lc_end_host(&pe->end, host);
			snprintf(one, sizeof(one), "%s's %s", host, pe->end.slave);
			append(peers, sizeof(peers), ", ", one);
		}
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "%s receives the probes of %.100s, but none of its own probes was answered "
			 "by them: frames are lost one way (to them, or their answers back)",
			 s->name, peers);
		/* Not only a VLAN: the answers of every peer converge on this
		 * slave's switch port at once, and a port whose buffer is full
		 * drops them (incast) while the peers' requests, spread over
		 * their own ports, arrive; linkcheck_spread.h. */
		snprintf(f->fix, sizeof(f->fix),
			 "check the VLAN membership of %s's switch port both ways (egress "
			 "untagged, the PVID), then that port's output drops (a burst of answers "
			 "converging on it) and the peer's side", s->name);
	}
	return 0;
}

/*
 * A switch that aggregates the bond's ports (a static LAG, EtherChannel):
 * answers to one slave's requests arrive on another slave (the switch
 * picks a port of the aggregate by its hash of the addresses, whatever
 * port the request came in on), while no slave hears its siblings' own
 * broadcasts (a switch never floods a frame back into the aggregate it
 * came from: in one plain domain it would).  Per-port domains send every
 * answer back on the slave that asked.  Returns true when m shows it; with
 * out, adds the finding (informational when the admin said link_topology =
 * lag).
 */
static int switch_lag(const struct lc_matrix *m, struct findings *out, bool *lag)
{
	size_t probed = 0, answered = 0, first = SIZE_MAX, on = 0, foreign = 0;
	uint32_t sib = 0;

	*lag = false;
	for (size_t i = 0; i < m->n_slaves && i < BONDD_MAX_SLAVES; i++) {
		const struct lc_slave_obs *s = &m->slaves[i];
		if (!s->probed)
			continue;
		probed++;
		sib |= s->siblings;
		answered += s->answered_on != 0;
		if (s->answered_on & ~(1u << i)) {
			foreign++;
			if (first == SIZE_MAX) {
				first = i;
				for (on = 0; on < m->n_slaves && !(s->answered_on & ~(1u << i) &
								    (1u << on));
				     on++)
					;
			}
		}
	}
	if (probed < 2 || !foreign || sib || !mode_needs_own_domains(m->mode))
		return 0;
	*lag = true;
	struct finding *f = findings_add(out, FSRC_LINK_CHECK,
					 m->lag_expected ? FSEV_INFO : FSEV_DEGRADED,
					 FK_SWITCH_LAG, m->bond);
	if (!f)
		return -1;
	char names[128] = "";
	for (size_t i = 0; i < m->n_slaves; i++)
		if (m->slaves[i].probed) {
			finding_add_slave(f, m->slaves[i].name);
			append(names, sizeof(names), ", ", m->slaves[i].name);
		}
	snprintf(f->evidence, sizeof(f->evidence),
		 "%.40s are one link to the switch (a static LAG): %s's answers came in on "
		 "%s, %zu of %zu slaves' on another slave, and none heard the others' probes",
		 names, m->slaves[first].name, on < m->n_slaves ? m->slaves[on].name : "?",
		 foreign, answered);
	snprintf(f->fix, sizeof(f->fix), m->lag_expected
		 ? "none (link_topology = lag): one stream to a peer rides one port of the "
		   "LAG, the one the switch's hash picks; a VLAN per port would stripe it"
		 : "one stream to a peer rides one port of the LAG (the switch's hash): to "
		   "stripe it, drop the LAG and give port N of every host a VLAN of its own; "
		   "if the LAG is meant, set link_topology = lag");
	return 0;
}

int linkcheck_eval(const struct lc_matrix *m, struct findings *out)
{
	size_t parent[BONDD_MAX_SLAVES];
	bool lag;

	/* Through a LAG the slaves meet whatever peer slave the switch's
	 * hash picks: crossed, unreachable, one-way and shared-domain do not
	 * apply; only jumbo-dropped still does. */
	if (switch_lag(m, out, &lag) < 0)
		return -1;
	if (lag)
		return jumbo(m, out);

	if (shared_domains(m, parent, mode_needs_own_domains(m->mode) ? out : NULL) < 0)
		return -1;
	if (jumbo(m, out) < 0 || crossed(m, parent, out) < 0 || unreachable(m, out) < 0 ||
	    one_way(m, out) < 0)
		return -1;
	return 0;
}
