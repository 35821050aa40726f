/* SPDX-License-Identifier: MIT */
/*
 * The status socket's replies, rendered from what bondd already holds: the
 * config (desired), the kernel as last observed, bondd's own counters and
 * its event log.  Pure: no I/O but the optional link_live callback, so
 * every format is unit-tested without a kernel.  The kernel's own
 * /proc/net/bonding text is not rendered here (status_server reads it).
 * Each bond's facts are looked up and its health judged once per reply,
 * into a bond_view (bond_view.h), which every format reads.
 */
#ifndef BONDD_STATUS_RENDER_H
#define BONDD_STATUS_RENDER_H

#include "bond_view.h"
#include "desired.h"
#include "event_log.h"
#include "findings.h"
#include "linkcheck.h"
#include "hostcheck.h"
#include "observed.h"
#include "runtime.h"
#include "status_proto.h"
#include "strbuf.h"

struct lldp_rx;

/* A reload on trial (bondd(8), RELOAD ON TRIAL): the running one, or the
 * last one that ended. */
enum status_trial_state {
	STRIAL_NONE,        /* no trial since bondd started */
	STRIAL_RUNNING,
	STRIAL_CONFIRMED,
	STRIAL_ROLLED_BACK,
};

struct status_trial {
	enum status_trial_state state;
	uint32_t id;             /* trials are numbered from 1 since the start */
	uint32_t seconds;        /* as asked */
	int64_t started_ms;      /* wall clock ms */
	int64_t deadline_ms;     /* ... when it is put back unless confirmed */
	int64_t ended_ms;        /* ... when it ended; 0 while it runs */
	char reason[160];        /* STRIAL_ROLLED_BACK: why */
};

/* "running", "confirmed", "rolled-back" (NULL for none). */
const char *status_trial_state_name(enum status_trial_state s);

struct status_view {
	const struct desired *want;
	const struct observed *obs;
	const struct bond_runtime *bonds;  /* parallel to want->bonds */
	const struct link_runtime *links;
	size_t n_links;
	const struct event_log *events;
	/* What the link check and the host checks found, one list per source
	 * (NULL: that check has found nothing yet). */
	const struct findings *findings[FSRC__COUNT];
	/* The link check's last results per bond (NULL: none). */
	const struct lc_results *linkcheck;
	/* The slaves' LLDP records (lldp_io.h; NULL: none). */
	const struct lldp_rx *lldp;
	/* The slaves' hardware as the host check read it (NULL: not read). */
	const struct host_obs *host;
	int64_t now_ms;                    /* wall clock */
	/* The client has CAP_NET_ADMIN (peer_cred.h): else what the kernel
	 * hides from such a reader is hidden here too. */
	bool privileged;
	/* The last config event: a refused reload, and when a config was last
	 * taken (start or reload; wall clock ms, 0: unknown). */
	bool config_failed;
	int64_t config_success_ms;
	/* Current facts about a link that netlink events do not keep fresh;
	 * the daemon reads sysfs, tests pass NULL (then: unknown speed, and
	 * the counters of the link's last netlink message). */
	void (*link_live)(void *ctx, const char *ifname, int ifindex, struct link_live *out);
	void *live_ctx;
	/* What the kernel changes without a netlink message, read again for
	 * each 802.3ad bond a reply covers (its aggregators and churn
	 * states, from /proc/net/bonding/<bond>), into obs; or NULL (the
	 * STATUS= line: the last values stand). */
	void (*bond_live)(void *ctx, const char *bond);
	/* The last reload on trial (state STRIAL_NONE: none). */
	struct status_trial trial;
	/* Why bondd's picture of the kernel may be stale, or NULL. */
	const char *stale;
	/* Why bondd cannot do all it should (a socket refused it at the
	 * open-file limit), or NULL: every bond is degraded with it. */
	const char *impaired;
};

/* The most bonds a reply covers: every bond of the largest configuration
 * (config_parser.h MAX_BONDS), so that a request naming none covers all of
 * them; sel arrays hold this many. */
#define STATUS_MAX_BONDS 1024

/* The bonds a request names, in config order and each once (all when it
 * names none, at most STATUS_MAX_BONDS).
 * Returns 0, or -1 with *unknown set to the first name not configured. */
int status_select(const struct status_view *v, const struct status_request *req,
		  const struct desired_bond **sel, size_t *n, const char **unknown);

/* Each renderer reads the bonds of one reply, assembled and judged once
 * (bond_view.h); bv->from gives the reply's other facts. */
void render_brief(struct strbuf *out, const struct bond_views *bv);
void render_json(struct strbuf *out, const struct bond_views *bv);
void render_prometheus(struct strbuf *out, const struct bond_views *bv);
/* The trial's line (--brief: while it runs; ended_too, --explain: also the
 * last that ended), or nothing. */
void render_trial_line(struct strbuf *out, const struct status_view *v, bool ended_too);
/* Whole seconds until the running trial's deadline, rounded up. */
long long status_trial_left_s(const struct status_view *v);
/* --explain: each bond on one screen of 80 columns (status_explain.c). */
void render_explain(struct strbuf *out, const struct bond_views *bv);

#endif
