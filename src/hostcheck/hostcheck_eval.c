/* SPDX-License-Identifier: MIT */
/*
 * The host checks' judgement: observation + config -> findings.  Pure: no
 * I/O, so every finding is tested against fixture observations.
 *
 * Severities: a slave at another speed or duplex in a bond that spreads
 * packets blindly is degraded (the bond runs at N x its slowest slave, and
 * it is usually a bad cable or port); so is a tcp_congestion the kernel
 * does not have (bondd cannot do what the config says).  Everything else is
 * information: a shared card may or may not cap the ports, a mode is the
 * admin's choice, and TCP settings change throughput, not whether the bond
 * works.
 */
#include "hostcheck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bond_option_table.h"

/* What bondd recommends for one stream over balance-rr, from bench/RESULTS.md. */
#define RECOMMENDED_CC "bbr"
/* What one balance-rr stream gained from bbr, by the number of slaves (the
 * seeds: 2 x 1 GbE, 1.19 Gbit/s with cubic and 1.78 with bbr; bondd's bench,
 * bench/RESULTS.md 1d, Linux 7.2.7, links of 200 Mbit/s, ten runs a cell on
 * an idle host, medians of N links: two 0.99 with bbr and 0.98 with cubic,
 * three 0.98 and 0.96, four 0.85 and 0.95): bbr is suggested for two and
 * three slaves, and said to have measured lower where it is set on four or
 * more. */
#define BBR_SUGGESTED_MAX_SLAVES 3
#define BBR_LOWER_FROM_SLAVES 4

void host_obs_free(struct host_obs *h)
{
	free(h->nics);
	h->nics = NULL;
	h->n_nics = 0;
	h->hint = 0;
}

/* Outward from where the last search ended, one step each way in turn: the
 * checks look at one bond's slaves, in and out of order, then the next
 * bond's, so the NIC sought is a few places from the last one.  (A search
 * that only went forward wrapped round every NIC of the node whenever a
 * check went back a slave: at 256 bonds that was most of a repair's CPU.) */
const struct host_nic *host_obs_nic(const struct host_obs *h, const char *name)
{
	if (!h || !h->n_nics)
		return NULL;
	size_t n = h->n_nics, at = h->hint < n ? h->hint : 0;
	for (size_t d = 0; d <= n / 2; d++) {
		size_t ahead = (at + d) % n, back = (at + n - d) % n;
		size_t found = n;
		if (strcmp(h->nics[ahead].name, name) == 0)
			found = ahead;
		else if (back != ahead && strcmp(h->nics[back].name, name) == 0)
			found = back;
		if (found < n) {
			((struct host_obs *)h)->hint = found; /* (h itself is never const) */
			return &h->nics[found];
		}
	}
	return NULL;
}

static enum bond_mode mode_of(const struct desired_bond *b)
{
	return bond_settings_has(&b->opts, OPT_MODE) ? (enum bond_mode)b->opts.val[OPT_MODE]
						 : MODE_BALANCE_RR;
}

bool hostcheck_mode_stripes(const struct desired_bond *b)
{
	return mode_of(b) == MODE_BALANCE_RR;
}

bool hostcheck_cc_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; n && (p = strstr(p, name)); p += n) {
		bool starts = p == list || p[-1] == ' ' || p[-1] == '\t';
		bool ends = p[n] == '\0' || p[n] == ' ' || p[n] == '\t' || p[n] == '\n';
		if (starts && ends)
			return true;
	}
	return false;
}

/* Modes in which several slaves carry traffic at once: for them, the card
 * under two slaves matters.  Active-backup uses one slave at a time. */
static bool mode_uses_slaves_together(enum bond_mode m)
{
	return m != MODE_ACTIVE_BACKUP;
}

/* Modes that hand out packets or flows to slaves without regard to their
 * speed, so a slow slave caps its share: balance-rr (every stream) and
 * balance-xor (a hash).  802.3ad aggregates only ports of one speed itself;
 * tlb/alb balance by load. */
static bool mode_blind_to_speed(enum bond_mode m)
{
	return m == MODE_BALANCE_RR || m == MODE_BALANCE_XOR;
}

#define ADD(out, sev, kind, bond)                                                          \
	do {                                                                               \
		if (!(x = findings_add((out), FSRC_HOST_CHECK, (sev), (kind), (bond))))    \
			return -ENOMEM;                                                     \
	} while (0)

static int shared_cards(const struct desired_bond *b, const struct host_obs *h,
			struct findings *out)
{
	bool done[BONDD_MAX_SLAVES] = {false};
	struct finding *x;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct host_nic *a = host_obs_nic(h, b->slaves[i].name);
		if (done[i] || !a || !a->pci)
			continue;
		char names[128] = "";
		size_t used = 0, n = 0;
		x = NULL;
		for (size_t j = i; j < b->n_slaves; j++) {
			const struct host_nic *c = host_obs_nic(h, b->slaves[j].name);
			if (!c || !c->pci || c->domain != a->domain || c->bus != a->bus ||
			    c->slot != a->slot)
				continue;
			done[j] = true;
			n++;
			if (used < sizeof(names))
				used += (size_t)snprintf(names + used, sizeof(names) - used,
							 "%s%s (%s)", used ? ", " : "", c->name,
							 c->pci_addr);
		}
		if (n < 2)
			continue;
		ADD(out, FSEV_INFO, FK_SHARED_CARD, b->name);
		for (size_t j = i; j < b->n_slaves; j++)
			if (done[j]) {
				const struct host_nic *c = host_obs_nic(h, b->slaves[j].name);
				if (c && c->pci && c->domain == a->domain && c->bus == a->bus &&
				    c->slot == a->slot)
					finding_add_slave(x, c->name);
			}
		snprintf(x->evidence, sizeof(x->evidence),
			 "%zu slaves are functions of one PCI card %04x:%02x:%02x%s%s: %s", n,
			 a->domain, a->bus, a->slot, a->driver[0] ? ", driver " : "", a->driver,
			 names);
		snprintf(x->fix, sizeof(x->fix),
			 "a card may not carry all its ports at full speed at once (two ports of "
			 "one 10 GbE card gave 14 Gbit/s, on two cards 20): use one port per card");
	}
	return 0;
}

static int speeds(const struct desired_bond *b, const struct host_obs *h, struct findings *out)
{
	int lo = -1, hi = -1;
	size_t n_known = 0;
	struct finding *x;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct host_nic *c = host_obs_nic(h, b->slaves[i].name);
		if (!c || c->mbps <= 0)
			continue;
		n_known++;
		lo = lo < 0 || c->mbps < lo ? c->mbps : lo;
		hi = c->mbps > hi ? c->mbps : hi;
	}
	if (n_known >= 2 && lo != hi) {
		char list[160] = "";
		size_t used = 0;
		ADD(out, FSEV_DEGRADED, FK_SPEED_MISMATCH, b->name);
		for (size_t i = 0; i < b->n_slaves; i++) {
			const struct host_nic *c = host_obs_nic(h, b->slaves[i].name);
			if (!c || c->mbps <= 0)
				continue;
			if (c->mbps < hi)
				finding_add_slave(x, c->name);
			if (used < sizeof(list))
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s %d",
							 used ? ", " : "", c->name, c->mbps);
		}
		snprintf(x->evidence, sizeof(x->evidence),
			 "slaves at different speeds (Mb/s: %s): %s gives each slave an equal "
			 "share, so the bond carries at most %zu x %d Mb/s",
			 list, bond_mode_name(mode_of(b)), n_known, lo);
		snprintf(x->fix, sizeof(x->fix),
			 "check the slower slaves' cables and switch ports (ethtool NAME), or "
			 "bond links of one speed");
	}

	size_t n_full = 0, n_half = 0;
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct host_nic *c = host_obs_nic(h, b->slaves[i].name);
		if (c && strcmp(c->duplex, "full") == 0)
			n_full++;
		else if (c && strcmp(c->duplex, "half") == 0)
			n_half++;
	}
	if (n_full && n_half) {
		ADD(out, FSEV_DEGRADED, FK_DUPLEX_MISMATCH, b->name);
		for (size_t i = 0; i < b->n_slaves; i++) {
			const struct host_nic *c = host_obs_nic(h, b->slaves[i].name);
			if (c && strcmp(c->duplex, "half") == 0)
				finding_add_slave(x, c->name);
		}
		snprintf(x->evidence, sizeof(x->evidence),
			 "%zu slave%s at half duplex, %zu at full: a half-duplex link collides "
			 "and delays its share of every stream",
			 n_half, n_half == 1 ? "" : "s", n_full);
		snprintf(x->fix, sizeof(x->fix),
			 "half duplex is almost always a failed autonegotiation: check the "
			 "cable and both ends' settings (ethtool NAME)");
	}
	return 0;
}

static int mode_for_one_stream(const struct desired_bond *b, struct findings *out)
{
	struct finding *x;
	enum bond_mode m = mode_of(b);

	if (!b->single_stream || m == MODE_BALANCE_RR)
		return 0;
	ADD(out, FSEV_INFO, FK_MODE_NO_STRIPE, b->name);
	snprintf(x->evidence, sizeof(x->evidence),
		 "single_stream = yes, but %s sends each TCP stream over one slave: one "
		 "stream gets at most one link (measured: 944 Mbit/s of 2 x 1 GbE in 802.3ad "
		 "and balance-tlb)",
		 bond_mode_name(m));
	snprintf(x->fix, sizeof(x->fix),
		 "only mode = balance-rr stripes one stream, on both hosts, with a switch "
		 "that allows it (one VLAN per slave, or direct cables)");
	return 0;
}

static int tcp_settings(const struct desired_bond *b, const struct host_tcp *t,
			struct findings *out)
{
	struct finding *x;

	/* What the config asks for and the kernel cannot do, in any mode. */
	if (b->tcp_congestion[0] && t->available[0] &&
	    !hostcheck_cc_listed(t->available, b->tcp_congestion)) {
		ADD(out, FSEV_DEGRADED, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "tcp_congestion = %s, but the kernel has no such algorithm "
			 "(net.ipv4.tcp_available_congestion_control: %.100s)",
			 b->tcp_congestion, t->available);
		snprintf(x->fix, sizeof(x->fix),
			 "load its module (modprobe tcp_%s), or name one that is available",
			 b->tcp_congestion);
	}
	/* The rest is about reordering: only a striping bond reorders. */
	if (!hostcheck_mode_stripes(b) || b->n_slaves < 2)
		return 0;
	if (t->sack == 0) {
		ADD(out, FSEV_INFO, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "net.ipv4.tcp_sack = 0: without SACK, TCP cannot tell the segments "
			 "balance-rr reorders from lost ones, and RACK does not run");
		snprintf(x->fix, sizeof(x->fix), "sysctl -w net.ipv4.tcp_sack=1 (the default)");
	}
	if (t->recovery >= 0 && !(t->recovery & 1)) {
		ADD(out, FSEV_INFO, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "net.ipv4.tcp_recovery = %d: RACK loss detection is off, so three "
			 "duplicate ACKs from reordered segments count as a loss",
			 t->recovery);
		snprintf(x->fix, sizeof(x->fix), "sysctl -w net.ipv4.tcp_recovery=1 (the default)");
	}
	if (t->dsack == 0) {
		ADD(out, FSEV_INFO, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "net.ipv4.tcp_dsack = 0: without D-SACK, TCP never learns that a "
			 "retransmission was spurious, so it neither undoes the cut nor raises "
			 "its reordering estimate");
		snprintf(x->fix, sizeof(x->fix), "sysctl -w net.ipv4.tcp_dsack=1 (the default)");
	}
	const char *cc = b->tcp_congestion[0] ? b->tcp_congestion : t->congestion;
	if (cc[0] && strcmp(cc, RECOMMENDED_CC) != 0 && !b->tcp_congestion[0] &&
	    b->n_slaves <= BBR_SUGGESTED_MAX_SLAVES) {
		ADD(out, FSEV_INFO, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "TCP over %s uses %s (net.ipv4.tcp_congestion_control), a loss-based "
			 "algorithm that backs off at reordering: one balance-rr stream over "
			 "2 x 1 GbE was measured at 1.19 Gbit/s with cubic, 1.78 with bbr",
			 b->name, cc);
		snprintf(x->fix, sizeof(x->fix),
			 "tcp_congestion = %s in [%s] sets it for this bond's own subnets only "
			 "(see tcp_congestion in bondd.conf(5))",
			 RECOMMENDED_CC, b->name);
	}
	if (strcmp(b->tcp_congestion, RECOMMENDED_CC) == 0 && b->n_slaves >= BBR_LOWER_FROM_SLAVES) {
		ADD(out, FSEV_INFO, FK_TCP_SETTING, b->name);
		snprintf(x->evidence, sizeof(x->evidence),
			 "tcp_congestion = %s on %zu slaves: one balance-rr stream over 4 links "
			 "was measured at 0.85 of their sum with bbr and 0.95 with the kernel's "
			 "default, cubic (Linux 7.2.7)",
			 RECOMMENDED_CC, b->n_slaves);
		snprintf(x->fix, sizeof(x->fix),
			 "without tcp_congestion in [%s] its subnets use the kernel's default; "
			 "keep bbr where your own measurement of one stream says otherwise",
			 b->name);
	}
	return 0;
}

int hostcheck_eval(const struct desired *want, const struct host_obs *h, struct findings *out)
{
	findings_clear(out);
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		enum bond_mode m = mode_of(b);
		if ((mode_uses_slaves_together(m) && shared_cards(b, h, out) < 0) ||
		    (mode_blind_to_speed(m) && speeds(b, h, out) < 0) ||
		    mode_for_one_stream(b, out) < 0 || tcp_settings(b, &h->tcp, out) < 0)
			return -ENOMEM;
	}
	return 0;
}
