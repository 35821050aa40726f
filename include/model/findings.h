/* SPDX-License-Identifier: MIT */
/*
 * Findings: what bondd's checks found about a bond beyond its configuration
 * (the link check: a switch domain shared by two slaves, a path that drops
 * full-size frames; the host checks: two slaves on one PCI card, mixed
 * speeds, TCP settings).  Plain data.  Each check owns one list (one per
 * source) and replaces it whole when it has looked again; the status
 * renderers read every list, so a finding has one place in every output.
 */
#ifndef BONDD_FINDINGS_H
#define BONDD_FINDINGS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

enum finding_source {
	FSRC_LINK_CHECK,  /* probes sent over each slave (link_check = yes) */
	FSRC_HOST_CHECK,  /* sysfs and procfs of this host */
	FSRC_COUNTERS,    /* the slaves' error counters side by side (counters_eval.h) */
	FSRC_LLDP,        /* what the switch ports say over LLDP (lldp_eval.h) */
	FSRC__COUNT
};

/* Degraded findings make the bond's health degraded (bondd-status exit 1);
 * informational ones are shown and change nothing. */
enum finding_severity { FSEV_INFO, FSEV_DEGRADED };

enum finding_kind {
	/* the link check */
	FK_SHARED_DOMAIN,   /* two slaves of one bond in one broadcast domain */
	FK_JUMBO_DROPPED,   /* full-size frames reach no peer, small ones do */
	FK_CROSSED,         /* local slave i reaches a peer's slave j != i */
	FK_UNREACHABLE,     /* a slave reaches no peer while its siblings do */
	FK_ONE_WAY,         /* a path that works in one direction only */
	FK_SWITCH_LAG,      /* the switch aggregates the slaves' ports */
	/* the host checks */
	FK_SHARED_CARD,     /* slaves on functions of one PCI device */
	FK_SPEED_MISMATCH,  /* slaves of a striping bond at different speeds */
	FK_DUPLEX_MISMATCH, /* ... or different duplex */
	FK_MODE_NO_STRIPE,  /* a mode that cannot stripe one stream */
	FK_TCP_SETTING,     /* a host TCP setting that hurts one rr stream */
	/* the counters */
	FK_SLAVE_ERRORS,    /* one slave's errors or drops grow, its siblings' do not */
	/* LLDP */
	FK_LLDP_MAX_FRAME,  /* a switch port's maximum frame is below the bond's MTU */
	FK_LLDP_SAME_PORT,  /* two slaves on one switch port */
	FK_LLDP_ONE_VLAN,   /* balance-rr slaves in one switch VLAN (information) */
	FK_LLDP_CHANGED,    /* a slave's neighbour changed (information) */
	FK_LLDP_SEVERAL,    /* one slave hears several LLDP speakers (information) */
	FK__COUNT
};

#define FINDING_MAX_SLAVES 8

#define FINDING_MAX_PEERS 16

struct finding {
	enum finding_source source;
	enum finding_severity severity;
	enum finding_kind kind;
	char bond[IFNAMSIZ];
	char slaves[FINDING_MAX_SLAVES][IFNAMSIZ]; /* the slaves involved */
	size_t n_slaves;
	char evidence[256];  /* what was seen, in one sentence */
	char fix[256];       /* what to do, in one sentence */
	/* seen once, not yet confirmed by a second look (the link check,
	 * linkcheck_settle.h): shown, with severity info */
	bool pending;
	/* the peers it is about (the link check's one-way: lc_peer_id of
	 * each peer slave named, the first FINDING_MAX_PEERS), none for most:
	 * confirming it takes a second look that names one of them again */
	uint32_t peers[FINDING_MAX_PEERS];
	size_t n_peers;
};

struct findings {
	struct finding *v;
	size_t n, cap;
};

void findings_free(struct findings *f);
void findings_clear(struct findings *f);
/* Appends a finding with these fields set (slaves, evidence and fix empty)
 * and returns it to be filled in, or NULL when out of memory. */
struct finding *findings_add(struct findings *f, enum finding_source source,
			     enum finding_severity severity, enum finding_kind kind,
			     const char *bond);
/* Adds a slave name to a finding (ignored past FINDING_MAX_SLAVES). */
void finding_add_slave(struct finding *x, const char *slave);

const char *finding_kind_name(enum finding_kind k);         /* "shared-domain" */
const char *finding_source_name(enum finding_source s);     /* "link_check" */
const char *finding_severity_name(enum finding_severity s); /* "degraded" */

/* The findings about `bond` in lists[0..n) (NULL entries allowed), list by
 * list: their number, and when out is not NULL, each one's address in
 * out[0..number). */
size_t findings_about(const struct findings *const *lists, size_t n, const char *bond,
		      const struct finding **out);

/* Whether f holds a finding of x's kind about x's bond with x's evidence
 * (what is said of it once).  The search starts where the last one that
 * found something ended (*hint, 0 at first) and goes round: two lists in
 * the same order are compared in one pass, not one per finding. */
bool findings_has(const struct findings *f, const struct finding *x, size_t *hint);

/* A JSON array of the findings v[0..n). */
void findings_json(struct strbuf *out, const struct finding *const *v, size_t n);

#endif
