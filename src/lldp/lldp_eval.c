/* SPDX-License-Identifier: MIT */
/*
 * LLDP per slave: keeping each slave's neighbour, and the findings from a
 * bond's slaves side by side (lldp_eval.h).
 */
#include "lldp_eval.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void lldp_port_init(struct lldp_port *p, const char *bond, const char *slave, int64_t now_ms)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->bond, sizeof(p->bond), "%s", bond);
	snprintf(p->slave, sizeof(p->slave), "%s", slave);
	p->tokens = LLDP_BURST;
	p->refill_ms = now_ms;
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

void lldp_port_take(struct lldp_port *p, const struct lldp_neighbor *nb, int64_t now_ms,
		    int64_t wall_ms)
{
	/* Compared with the last neighbour heard, even one that expired:
	 * a cable moved to another port is off longer than a TTL. */
	if (p->frames++ && (strcmp(p->nb.chassis_id, nb->chassis_id) != 0 ||
			    strcmp(p->nb.port_id, nb->port_id) != 0)) {
		p->changed = true;
		snprintf(p->was_chassis, sizeof(p->was_chassis), "%s", p->nb.chassis_id);
		snprintf(p->was_port, sizeof(p->was_port), "%s", p->nb.port_id);
		snprintf(p->was_name, sizeof(p->was_name), "%s", shown_name(&p->nb));
		p->changed_until_ms = now_ms + (int64_t)nb->ttl * 1000;
	}
	p->nb = *nb;
	p->heard_ms = now_ms;
	p->heard_wall_ms = wall_ms;
	p->expires_ms = now_ms + (int64_t)nb->ttl * 1000;
	/* TTL 0: the neighbour says it is leaving (802.1AB shutdown LLDPDU). */
	p->heard = nb->ttl > 0;
	if (!p->heard)
		p->changed = false;
}

void lldp_port_expire(struct lldp_port *p, int64_t now_ms)
{
	if (p->heard && now_ms >= p->expires_ms)
		p->heard = false;
	if (p->changed && (!p->heard || now_ms >= p->changed_until_ms))
		p->changed = false;
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

static const struct lldp_port *live(const struct lldp_port *const *ports, size_t i)
{
	return ports[i] && ports[i]->heard ? ports[i] : NULL;
}

int lldp_eval(const char *bond, uint32_t mtu, bool balance_rr,
	      const struct lldp_port *const *ports, size_t n, struct findings *out)
{
	struct finding *x;
	char w1[IFNAMSIZ + SEL_TEXT_MAX + 4], w2[sizeof(w1)];

	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *p = live(ports, i);
		if (!p || !p->nb.has_max_frame || p->nb.max_frame >= mtu + LLDP_FRAME_OVERHEAD)
			continue;
		if (!(x = findings_add(out, FSRC_LLDP, FSEV_DEGRADED, FK_LLDP_MAX_FRAME, bond)))
			return -ENOMEM;
		finding_add_slave(x, p->slave);
		say(x->evidence, sizeof(x->evidence),
			 "%s's switch port %.60s on %.60s takes frames of at most %u bytes, "
			 "the bond's MTU %u needs %u", who(p, w1, sizeof(w1)), p->nb.port_id,
			 shown_name(&p->nb),
			 p->nb.max_frame, mtu, mtu + LLDP_FRAME_OVERHEAD);
		say(x->fix, sizeof(x->fix),
			 "raise that switch port's MTU (jumbo frames) to at least %u, or lower the "
			 "bond's mtu", mtu + LLDP_FRAME_OVERHEAD);
	}
	/* Two slaves on one switch port: each pair once, the first slave of
	 * a group names the rest. */
	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *p = live(ports, i);
		bool first = true;
		if (!p)
			continue;
		for (size_t j = 0; j < i && p; j++) {
			const struct lldp_port *q = live(ports, j);
			if (q && strcmp(q->nb.chassis_id, p->nb.chassis_id) == 0 &&
			    strcmp(q->nb.port_id, p->nb.port_id) == 0)
				p = NULL; /* counted with q's group */
		}
		if (!p)
			continue;
		for (size_t j = i + 1; j < n; j++) {
			const struct lldp_port *q = live(ports, j);
			if (!q || strcmp(q->nb.chassis_id, p->nb.chassis_id) != 0 ||
			    strcmp(q->nb.port_id, p->nb.port_id) != 0)
				continue;
			if (first) {
				if (!(x = findings_add(out, FSRC_LLDP, FSEV_DEGRADED,
						       FK_LLDP_SAME_PORT, bond)))
					return -ENOMEM;
				finding_add_slave(x, p->slave);
				say(x->evidence, sizeof(x->evidence),
					 "%s and %s hear one switch port: %.60s on %.60s",
					 who(p, w1, sizeof(w1)), who(q, w2, sizeof(w2)), p->nb.port_id,
					 shown_name(&p->nb));
				say(x->fix, sizeof(x->fix),
					 "give each slave a switch port of its own (a hub, a media "
					 "converter or a crossed patch between them)");
				first = false;
			}
			finding_add_slave(x, q->slave);
		}
	}
	/* balance-rr slaves in one switch VLAN: the switch sees the bond's
	 * MAC on every port of that VLAN (the field reports' 270 instead of
	 * 450 MB/s); some set-ups want exactly that, so information. */
	for (size_t i = 0; balance_rr && i < n; i++) {
		const struct lldp_port *p = live(ports, i);
		bool first = true, seen = false;
		if (!p || !p->nb.has_pvid)
			continue;
		for (size_t j = 0; j < i; j++) {
			const struct lldp_port *q = live(ports, j);
			seen |= q && q->nb.has_pvid && q->nb.pvid == p->nb.pvid;
		}
		for (size_t j = i + 1; !seen && j < n; j++) {
			const struct lldp_port *q = live(ports, j);
			if (!q || !q->nb.has_pvid || q->nb.pvid != p->nb.pvid)
				continue;
			if (first) {
				if (!(x = findings_add(out, FSRC_LLDP, FSEV_INFO, FK_LLDP_ONE_VLAN,
						       bond)))
					return -ENOMEM;
				finding_add_slave(x, p->slave);
				say(x->evidence, sizeof(x->evidence),
					 "balance-rr slaves on switch ports of one VLAN (port VLAN ID %u)",
					 p->nb.pvid);
				say(x->fix, sizeof(x->fix),
					 "without a LAG on the switch, put each slave's port in a VLAN "
					 "of its own (the peer's slaves likewise)");
				first = false;
			}
			finding_add_slave(x, q->slave);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct lldp_port *p = live(ports, i);
		if (!p || !p->changed)
			continue;
		if (!(x = findings_add(out, FSRC_LLDP, FSEV_INFO, FK_LLDP_CHANGED, bond)))
			return -ENOMEM;
		finding_add_slave(x, p->slave);
		say(x->evidence, sizeof(x->evidence),
			 "%s's neighbour changed from port %.50s on %.50s to port %.50s on %.50s",
			 who(p, w1, sizeof(w1)), p->was_port, p->was_name, p->nb.port_id,
			 shown_name(&p->nb));
		say(x->fix, sizeof(x->fix),
			 "nothing if the cable was moved on purpose; else check %s's cabling",
			 who(p, w1, sizeof(w1)));
	}
	return 0;
}
