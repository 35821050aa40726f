/* SPDX-License-Identifier: MIT */
/*
 * The bonds of one status reply, each with everything the renderers show
 * about it joined once: the configured bond, the kernel's link, bondd's
 * counters, its health and the reason, and for each configured slave the
 * kernel's link, bondd's counters, its LLDP record, its hardware and its
 * live speed and counters; and the findings about the bond.
 *
 * Why: each renderer (--brief, --json, --prometheus, STATUS=) used to look
 * the same things up by name wherever it needed them, and each judged
 * health again; two formats could then disagree about one bond, and
 * following one reply meant following every lookup.  Now bond_views_build
 * looks everything up once, judges health once, and the renderers only
 * read plain data.  Pure but for the status_view's link_live callback.
 */
#ifndef BONDD_BOND_VIEW_H
#define BONDD_BOND_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "findings.h"
#include "observed.h"
#include "runtime.h"
#include "status_proto.h"

struct status_view;
struct lc_result;
struct lldp_port;
struct host_nic;

/* A link's speed and counters now (status_view's link_live callback). */
struct link_live {
	int mbps;                /* -1: unknown */
	char duplex[16];         /* "full", "half", "unknown" */
	bool has_stats;
	struct obs_stats stats;
};

/* LACP port state bits (AD_STATE_* in include/net/bond_3ad.h). */
#define AD_STATE_SYNCHRONIZATION 0x08
#define AD_STATE_DEFAULTED 0x40

/* A reason is kept to this size, NUL included (what --json shows). */
#define BOND_VIEW_WHY 160
/* --brief and STATUS= show at most this much of it, as they always have:
 * one line a terminal or systemctl still shows whole. */
#define BOND_VIEW_SHORT_WHY 127

/* One configured slave. */
struct slave_view {
	const char *name;                 /* as configured */
	const struct obs_link *obs;       /* the kernel's link; NULL: it does not exist */
	const struct link_runtime *rt;    /* bondd's counters of it; NULL: none yet */
	const struct lldp_port *lldp;     /* its LLDP record; NULL: none (lldp = no) */
	const struct host_nic *hw;        /* its hardware; NULL: the host check has not read it */
	/* Speed and counters: read through link_live when the build asked
	 * for them, else unknown speed and the last netlink message's counters. */
	struct link_live live;
	size_t position;                  /* in the bond's kernel order, from 1; 0: not in it */
	bool enslaved;                    /* the kernel's bond is its master */
	bool info;                        /* enslaved, with the kernel's slave attributes */
	bool up;                          /* enslaved with MII status up */
	bool active;                      /* the bond's active slave */
	/* Why it carries no 802.3ad traffic though enslaved; "" when it does. */
	char lacp_problem[BOND_VIEW_WHY];
};

/* One selected bond. */
struct bond_view {
	const struct desired_bond *want;
	const struct obs_link *obs;       /* the kernel's bond; NULL: it does not exist */
	const struct bond_runtime *rt;    /* bondd's counters of it; NULL: none */
	const struct obs_link *active;    /* the kernel's active slave; NULL: none */
	const struct lc_result *linkcheck; /* the link check's last result; NULL: none */
	const char *mode;                 /* the kernel's mode, else the configured one */
	bool is_8023ad;                   /* the kernel's bond is in 802.3ad */
	size_t slaves_up;                 /* configured slaves that are up */
	enum status_health health;
	char why[BOND_VIEW_WHY];          /* the first reason it is not healthy; "" when it is */
	struct slave_view *slaves;        /* want->n_slaves, in config order */
	/* The findings about it, every source's in source order. */
	const struct finding *const *findings;
	size_t n_findings;
};

struct bond_views {
	/* The reply's facts beyond the bonds: time, events, privilege, and
	 * the records the LLDP and link check renderers read. */
	const struct status_view *from;
	struct bond_view *v;
	size_t n;
	enum status_health worst;         /* the worst health of v[0..n) */
	struct slave_view *slave_store;
	const struct finding **finding_store;
};

/* Builds out from v for sel[0..n), in that order; live: read each existing
 * slave's speed and counters through v->link_live (--json, --prometheus).
 * 0, or -1 when out of memory (out then holds nothing to free). */
int bond_views_build(struct bond_views *out, const struct status_view *v,
		     const struct desired_bond *const *sel, size_t n, bool live);
/* The same for every configured bond, in config order. */
int bond_views_build_all(struct bond_views *out, const struct status_view *v, bool live);
void bond_views_free(struct bond_views *bv);

/* text as v's client may see it: itself for a privileged one, else in
 * buf (len bytes) with the values the kernel hides from an unprivileged
 * reader masked (event_public_text). */
const char *view_public_text(const struct status_view *v, const char *text, char *buf,
			     size_t len);

/* aa:bb:cc:dd:ee:ff in buf (18 bytes). */
const char *view_mac_text(const uint8_t mac[6], char buf[18]);

#endif
