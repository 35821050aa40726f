/* SPDX-License-Identifier: MIT */
/*
 * LLDP per slave: keeping each slave's neighbour, and the findings from a
 * bond's slaves side by side (lldp_eval.h).
 */
#include "lldp_eval.h"

#include "grow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lldp_port_init(struct lldp_port *p, const char *bond, const char *slave, int64_t now_ms)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->bond, sizeof(p->bond), "%s", bond);
	snprintf(p->slave, sizeof(p->slave), "%s", slave);
	p->sole = -1; /* (none: sp is NULL until a speaker is heard) */
	p->tokens = LLDP_BURST;
	p->refill_ms = now_ms;
}

void lldp_port_free(struct lldp_port *p)
{
	free(p->sp);
	p->sp = NULL;
	p->n_sp = p->cap_sp = 0;
	p->n_counting = 0;
	p->sole = -1;
}

/* Room for at least `want` speakers (at most LLDP_SPEAKERS), by doubling
 * from one: most slaves hear one speaker. */
static int port_grow(struct lldp_port *p, size_t want)
{
	if (want <= p->cap_sp)
		return 0;
	struct lldp_speaker *v = grow_array_max(p->sp, &p->cap_sp, want, sizeof(*v), 1,
						LLDP_SPEAKERS);
	if (!v)
		return -ENOMEM;
	p->sp = v;
	return 0;
}

int lldp_port_copy(struct lldp_port *dst, const struct lldp_port *src)
{
	struct lldp_speaker *sp = dst->sp;
	size_t cap = dst->cap_sp;
	*dst = *src;
	dst->sp = sp;
	dst->cap_sp = cap;
	dst->n_sp = 0;
	if (port_grow(dst, src->n_sp) < 0) {
		lldp_port_free(dst);
		return -ENOMEM;
	}
	dst->n_sp = src->n_sp;
	if (dst->n_sp)
		memcpy(dst->sp, src->sp, dst->n_sp * sizeof(*dst->sp));
	return 0;
}

bool lldp_port_token(struct lldp_port *p, int64_t now_ms)
{
	if (now_ms < p->refill_ms) /* not monotonic: start the bucket again */
		p->refill_ms = now_ms;
	int64_t add = (now_ms - p->refill_ms) / LLDP_REFILL_MS;
	if (add > 0) {
		p->tokens = add >= LLDP_BURST - p->tokens ? LLDP_BURST : p->tokens + (unsigned)add;
		p->refill_ms += add * LLDP_REFILL_MS;
	}
	if (p->tokens == LLDP_BURST)
		p->refill_ms = now_ms;
	if (!p->tokens) {
		p->limited++;
		return false;
	}
	p->tokens--;
	return true;
}

unsigned lldp_port_reads_left(struct lldp_port *p, int64_t now_ms)
{
	if (now_ms < p->read_ms || now_ms - p->read_ms >= 1000) {
		p->read_ms = now_ms;
		p->reads = 0;
	}
	return p->reads >= LLDP_READS_PER_S ? 0 : LLDP_READS_PER_S - p->reads;
}

int64_t lldp_port_reads_resume(const struct lldp_port *p)
{
	return p->read_ms + 1000;
}

/* A finding's sentence, cut to its field when identifiers are long. */
static void __attribute__((format(printf, 3, 4)))
say(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(dst, len, fmt, ap);
	va_end(ap);
}

static const char *shown_name(const struct lldp_neighbor *nb)
{
	return nb->sys_name[0] ? nb->sys_name : nb->chassis_id;
}

int64_t lldp_speaker_expires(const struct lldp_speaker *s)
{
	return s->heard_ms + (int64_t)s->nb.ttl * 1000;
}

int64_t lldp_speaker_holds(const struct lldp_speaker *s)
{
	int64_t ttl = (int64_t)s->nb.ttl * 1000;
	return s->heard_ms + (ttl < LLDP_HOLD_MS ? ttl : LLDP_HOLD_MS);
}

const struct lldp_speaker *lldp_port_neighbour(const struct lldp_port *p)
{
	return p && p->n_sp == 1 ? &p->sp[0] : NULL;
}

static bool same_speaker(const struct lldp_neighbor *a, const struct lldp_neighbor *b)
{
	return strcmp(a->chassis_id, b->chassis_id) == 0 && strcmp(a->port_id, b->port_id) == 0;
}

/* What a verdict rests on says the same in both frames. */
static bool agree(const struct lldp_neighbor *a, const struct lldp_neighbor *b)
{
	return a->has_pvid == b->has_pvid && (!a->has_pvid || a->pvid == b->pvid) &&
	       a->has_max_frame == b->has_max_frame &&
	       (!a->has_max_frame || a->max_frame == b->max_frame);
}

static void drop_speaker(struct lldp_port *p, size_t i)
{
	memmove(&p->sp[i], &p->sp[i + 1], (p->n_sp - i - 1) * sizeof(p->sp[0]));
	p->n_sp--;
}

/* Judges the speakers as of now, and notes a changed neighbour: the sole
 * counting speaker is another than the last sole one. */
static void judge(struct lldp_port *p, int64_t now_ms)
{
	p->n_counting = 0;
	p->sole = -1;
	for (size_t i = 0; i < p->n_sp; i++) {
		struct lldp_speaker *s = &p->sp[i];
		s->counts = now_ms < lldp_speaker_holds(s);
		s->confirmed = s->counts && s->heard_ms - s->since_ms >= LLDP_CONFIRM_MS;
		if (s->counts) {
			p->n_counting++;
			p->sole = (int)i;
		}
	}
	if (p->n_counting != 1)
		p->sole = -1;
	if (p->changed && (p->sole < 0 || now_ms >= p->changed_until_ms))
		p->changed = false;
	if (p->sole < 0)
		return;
	const struct lldp_speaker *s = &p->sp[p->sole];
	if (p->last_chassis[0] && (strcmp(p->last_chassis, s->nb.chassis_id) != 0 ||
				   strcmp(p->last_port, s->nb.port_id) != 0)) {
		p->changed = true;
		snprintf(p->was_chassis, sizeof(p->was_chassis), "%s", p->last_chassis);
		snprintf(p->was_port, sizeof(p->was_port), "%s", p->last_port);
		snprintf(p->was_name, sizeof(p->was_name), "%s", p->last_name);
		p->changed_until_ms = lldp_speaker_holds(s);
	}
	snprintf(p->last_chassis, sizeof(p->last_chassis), "%s", s->nb.chassis_id);
	snprintf(p->last_port, sizeof(p->last_port), "%s", s->nb.port_id);
	snprintf(p->last_name, sizeof(p->last_name), "%s", shown_name(&s->nb));
}

int lldp_port_take(struct lldp_port *p, const struct lldp_neighbor *nb, int64_t now_ms,
		   int64_t wall_ms)
{
	size_t i = 0;

	while (i < p->n_sp && !same_speaker(&p->sp[i].nb, nb))
		i++;
	if (nb->ttl == 0) {
		/* The speaker says it is leaving (802.1AB shutdown LLDPDU). */
		p->frames++;
		if (i < p->n_sp)
			drop_speaker(p, i);
		judge(p, now_ms);
		return 0;
	}
	if (i == p->n_sp) {
		if (p->n_sp < LLDP_SPEAKERS && port_grow(p, p->n_sp + 1) < 0) {
			p->nomem++;
			return -ENOMEM;
		}
		if (p->n_sp == LLDP_SPEAKERS) {
			size_t old = 0;
			for (size_t j = 1; j < p->n_sp; j++)
				if (p->sp[j].heard_ms < p->sp[old].heard_ms)
					old = j;
			drop_speaker(p, old);
			i = p->n_sp;
		}
		memset(&p->sp[i], 0, sizeof(p->sp[i]));
		p->sp[i].since_ms = now_ms;
		p->n_sp++;
	} else if (!agree(&p->sp[i].nb, nb) || now_ms >= lldp_speaker_holds(&p->sp[i])) {
		/* A new run: a verdict rests on frames that agree, each
		 * within the hold of the last. */
		p->sp[i].since_ms = now_ms;
	}
	struct lldp_speaker *s = &p->sp[i];
	p->frames++;
	s->nb = *nb;
	s->heard_ms = now_ms;
	s->heard_wall_ms = wall_ms;
	s->frames++;
	judge(p, now_ms);
	return 0;
}

void lldp_port_expire(struct lldp_port *p, int64_t now_ms)
{
	for (size_t i = p->n_sp; i-- > 0;)
		if (now_ms >= lldp_speaker_expires(&p->sp[i]))
			drop_speaker(p, i);
	if (!p->n_sp && p->sp) {
		/* Silent past every TTL: no room kept for it. */
		free(p->sp);
		p->sp = NULL;
		p->cap_sp = 0;
	}
	judge(p, now_ms);
}

/* A slave as findings name it: "NAME" or, given by selector,
 * "NAME (mac:...)", so the admin sees which entry of slaves = it is. */
static const char *who(const struct lldp_port *p, char *buf, size_t len)
{
	if (!p->sel[0])
		return p->slave;
	snprintf(buf, len, "%s (%s)", p->slave, p->sel);
	return buf;
}

/* The slave's neighbour for the findings: its sole counting speaker; for a
 * degraded verdict, also confirmed. */
static const struct lldp_speaker *sole(const struct lldp_port *const *ports, size_t i,
				       bool verdict)
{
	const struct lldp_port *p = ports[i];
	if (!p || p->sole < 0)
		return NULL;
	const struct lldp_speaker *s = &p->sp[p->sole];
	return !verdict || s->confirmed ? s : NULL;
}

int lldp_eval(const char *bond, uint32_t mtu, bool balance_rr,
	      const struct lldp_port *const *ports, size_t n, struct findings *out)
{
	struct finding *x;
	char w1[IFNAMSIZ + SEL_TEXT_MAX + 4], w2[sizeof(w1)];

	for (size_t i = 0; i < n; i++) {
		const struct lldp_speaker *p = sole(ports, i, true);
		if (!p || !p->nb.has_max_frame || p->nb.max_frame >= mtu + LLDP_FRAME_OVERHEAD)
			continue;
		const char *slave = ports[i]->slave;
		if (!(x = findings_add(out, FSRC_LLDP, FSEV_DEGRADED, FK_LLDP_MAX_FRAME, bond)))
			return -ENOMEM;
		finding_add_slave(x, slave);
		say(x->evidence, sizeof(x->evidence),
			 "%s's switch port %.60s on %.60s takes frames of at most %u bytes, "
			 "the bond's MTU %u needs %u", who(ports[i], w1, sizeof(w1)), p->nb.port_id,
			 shown_name(&p->nb),
			 p->nb.max_frame, mtu, mtu + LLDP_FRAME_OVERHEAD);
		say(x->fix, sizeof(x->fix),
			 "raise that switch port's MTU (jumbo frames) to at least %u, or lower the "
			 "bond's mtu", mtu + LLDP_FRAME_OVERHEAD);
	}
	/* Two slaves on one switch port: each pair once, the first slave of
	 * a group names the rest. */
	for (size_t i = 0; i < n; i++) {
		const struct lldp_speaker *p = sole(ports, i, true);
		bool first = true;
		if (!p)
			continue;
		for (size_t j = 0; j < i && p; j++) {
			const struct lldp_speaker *q = sole(ports, j, true);
			if (q && same_speaker(&q->nb, &p->nb))
				p = NULL; /* counted with q's group */
		}
		if (!p)
			continue;
		for (size_t j = i + 1; j < n; j++) {
			const struct lldp_speaker *q = sole(ports, j, true);
			if (!q || !same_speaker(&q->nb, &p->nb))
				continue;
			if (first) {
				if (!(x = findings_add(out, FSRC_LLDP, FSEV_DEGRADED,
						       FK_LLDP_SAME_PORT, bond)))
					return -ENOMEM;
				finding_add_slave(x, ports[i]->slave);
				say(x->evidence, sizeof(x->evidence),
					 "%s and %s hear one switch port: %.60s on %.60s",
					 who(ports[i], w1, sizeof(w1)), who(ports[j], w2, sizeof(w2)),
					 p->nb.port_id,
					 shown_name(&p->nb));
				say(x->fix, sizeof(x->fix),
					 "give each slave a switch port of its own (a hub, a media "
					 "converter or a crossed patch between them)");
				first = false;
			}
			finding_add_slave(x, ports[j]->slave);
		}
	}
	/* balance-rr slaves in one switch VLAN: the switch sees the bond's
	 * MAC on every port of that VLAN (the field reports' 270 instead of
	 * 450 MB/s); some set-ups want exactly that, so information. */
	for (size_t i = 0; balance_rr && i < n; i++) {
		const struct lldp_speaker *p = sole(ports, i, false);
		bool first = true, seen = false;
		if (!p || !p->nb.has_pvid)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct lldp_speaker *q = sole(ports, j, false);
			seen |= q && q->nb.has_pvid && q->nb.pvid == p->nb.pvid;
		}
		for (size_t j = i + 1; !seen && j < n; j++) {
			const struct lldp_speaker *q = sole(ports, j, false);
			if (!q || !q->nb.has_pvid || q->nb.pvid != p->nb.pvid)
				continue;
			if (first) {
				if (!(x = findings_add(out, FSRC_LLDP, FSEV_INFO, FK_LLDP_ONE_VLAN,
						       bond)))
					return -ENOMEM;
				finding_add_slave(x, ports[i]->slave);
				say(x->evidence, sizeof(x->evidence),
					 "balance-rr slaves on switch ports of one VLAN (port VLAN ID %u)",
					 p->nb.pvid);
				say(x->fix, sizeof(x->fix),
					 "without a LAG on the switch, put each slave's port in a VLAN "
					 "of its own (the peer's slaves likewise)");
				first = false;
			}
			finding_add_slave(x, ports[j]->slave);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct lldp_speaker *p = sole(ports, i, false);
		if (!p || !ports[i]->changed)
			continue;
		const struct lldp_port *r = ports[i];
		if (!(x = findings_add(out, FSRC_LLDP, FSEV_INFO, FK_LLDP_CHANGED, bond)))
			return -ENOMEM;
		finding_add_slave(x, r->slave);
		say(x->evidence, sizeof(x->evidence),
			 "%s's neighbour changed from port %.50s on %.50s to port %.50s on %.50s",
			 who(r, w1, sizeof(w1)), r->was_port, r->was_name, p->nb.port_id,
			 shown_name(&p->nb));
		say(x->fix, sizeof(x->fix),
			 "nothing if the cable was moved on purpose; else check %s's cabling",
			 who(r, w1, sizeof(w1)));
	}
	/* Several speakers on one slave: no verdict from it (sole() gives
	 * none), and the reason said, naming two of them by what they claim
	 * and where their frames came from. */
	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *r = ports[i];
		const struct lldp_speaker *a = NULL, *b = NULL;
		if (!r || r->n_counting < 2)
			continue;
		for (size_t k = 0; k < r->n_sp; k++) {
			if (!r->sp[k].counts)
				continue;
			if (!a)
				a = &r->sp[k];
			else if (!b)
				b = &r->sp[k];
		}
		if (!(x = findings_add(out, FSRC_LLDP, FSEV_INFO, FK_LLDP_SEVERAL, bond)))
			return -ENOMEM;
		finding_add_slave(x, r->slave);
		say(x->evidence, sizeof(x->evidence),
			 "%s hears %zu LLDP speakers at once, port %.40s on %.40s from %s and port "
			 "%.40s on %.40s from %s: not one cable's neighbour, no LLDP verdict from %s",
			 who(r, w1, sizeof(w1)), r->n_counting, a->nb.port_id, shown_name(&a->nb),
			 a->nb.src_mac, b->nb.port_id, shown_name(&b->nb), b->nb.src_mac, r->slave);
		say(x->fix, sizeof(x->fix),
			 "find what else sends LLDP on %s's segment (a hub, a VM bridge, a host "
			 "running an LLDP agent, or forged frames from the source MACs shown)",
			 r->slave);
	}
	return 0;
}
