/* SPDX-License-Identifier: MIT */
/* What a status reply shows of the daemon (fill_view), the error counters'
 * look, and the link check's hooks into the daemon. */
#include "daemon_parts.h"
#include "view_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "re-reading links failing since 2026-01-02T03:04:05Z: Interrupted system
 * call", or NULL while bondd's picture of the kernel is whole. */
static const char *stale_text(struct daemon *d)
{
	if (!d->ob.stale_since_ms)
		return NULL;
	stale_text_of(d->ob.stale_since_ms, d->ob.stale_err, d->stale, sizeof(d->stale));
	return d->stale;
}

/* "impaired: link check: no packet socket for 37 slaves: Too many open
 * files (open-file limit 128)", or NULL while nothing bondd needs was
 * refused to it for want of a resource. */
static const char *impaired_text(struct daemon *d)
{
	return impaired_text_of(linkcheck_trouble(d->lc), lldp_rx_trouble(d->lldp),
				status_split_trouble(d->server), d->fd_soft, d->impaired,
				sizeof(d->impaired)) ? d->impaired : NULL;
}

/* Looks further apart than this judge the counters again; closer ones
 * keep the last judgement (a fast poller sees the same findings). */
#define COUNTERS_LOOK_MS 10000

/*
 * The slaves' counters side by side (counters_eval.h), at a status
 * request: a look at every configured slave's errors and drops, compared
 * with the previous look when that was at least COUNTERS_LOOK_MS ago.  The
 * findings replace the last ones; a configuration with other slaves starts
 * over.  Out of memory: the last findings stand.
 */
static bool counters_look(struct daemon *d)
{
	int64_t now = (int64_t)(clock_mono_us() / 1000);
	size_t n = 0;

	if (d->counts_ms && now - d->counts_ms < COUNTERS_LOOK_MS)
		return false;
	for (size_t i = 0; i < d->want.n_bonds; i++)
		n += d->want.bonds[i].n_slaves;
	struct slave_counts *cur = n ? calloc(n, sizeof(*cur)) : NULL;
	if (n && !cur)
		return false;
	size_t k = 0;
	for (size_t i = 0; i < d->want.n_bonds; i++) {
		const struct desired_bond *b = &d->want.bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++, k++) {
			struct link_live live = {.mbps = -1};
			snprintf(cur[k].name, sizeof(cur[k].name), "%s", b->slaves[j].name);
			/* Not the reply's time budget (link_live): a slave
			 * left unread is unknown at this look, and its growth
			 * since the last one goes unjudged; these reads take
			 * no RTNL lock and cover the configured slaves only. */
			read_counters(d, b->slaves[j].name, &live);
			if (!live.has_stats || !live.stats.has_crc_missed ||
			    !observed_by_name(&d->ob.state, b->slaves[j].name))
				continue;
			cur[k].known = true;
			cur[k].errors = live.stats.rx_errors + live.stats.tx_errors;
			cur[k].crc = live.stats.rx_crc_errors;
			cur[k].drops = live.stats.rx_dropped + live.stats.tx_dropped;
		}
	}
	/* Out of memory: the last findings stand. */
	counters_eval_all(&d->want, d->counts, d->n_counts, cur, n,
			  (unsigned)((now - d->counts_ms) / 1000), &d->findings[FSRC_COUNTERS]);
	free(d->counts);
	d->counts = cur;
	d->n_counts = n;
	d->counts_ms = now;
	return true;
}

/*
 * What the kernel has now, for an 802.3ad bond a status reply covers, of
 * what it changes without a netlink message (/proc/net/bonding/<bond>,
 * read under RCU alone, bond_procfs.c bond_info_seq_start, like
 * /proc/net/dev), read once and scanned once for every slave:
 * - the churn states: the churn machine (drivers/net/bonding/bond_3ad.c
 *   ad_churn_machine) leaves "monitoring" for "none" or "churned" when its
 *   timer ends, 60 s after the port started, so the last RTM_NEWLINK's
 *   states could stay "monitoring" for ever;
 * - the aggregators: a port moved to an aggregator of its own while it
 *   stays inactive (proc_filter.h) kept the old id in bondd's picture, and
 *   a bond whose cable had moved was reported healthy (scenario 152, once
 *   in some 15 runs).
 * A slave or line the file does not show keeps its netlink value.  Not on
 * the loop's own wake-ups (the STATUS= line keeps the last values): with
 * 64 802.3ad bonds every unrelated link event read 64 files.
 */
static void lacp_live(void *ctx, const char *name)
{
	static struct strbuf text;
	struct daemon *d = ctx;
	char path[64 + IFNAMSIZ], buf[16384];
	struct obs_link *bond = (struct obs_link *)observed_by_name(&d->ob.state, name);

	if (!bond || strcmp(bond->kind, "bond") != 0)
		return;
	sb_reset(&text);
	snprintf(path, sizeof(path), "/proc/net/bonding/%s", bond->name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0)
			sb_add(&text, buf, (size_t)r);
	close(fd);
	if (r < 0 || text.oom) {
		sb_reset(&text);
		return;
	}
	lacp_proc_apply(&d->ob.state, bond, text.s, text.len);
	sb_reset(&text);
}

/* Before a snapshot is made, or the last one is said to hold: the error
 * counters' look, which compares with the look before it and so must be
 * bondd's own (a snapshot's look is lost with it).  True when it looked:
 * the findings may have changed, the snapshot must be new. */
bool refresh_for_snapshot(void *ctx)
{
	struct daemon *d = ctx;

	/* /proc/net/dev read afresh (live_facts caches it per reply) */
	live_reply_start(&d->live);
	return counters_look(d);
}

/* The view of what the daemon holds now, with no look at the kernel or
 * the host: what the STATUS= line is made from on every wake-up. */
void daemon_view_now(struct daemon *d, struct status_view *v)
{
	*v = (struct status_view){
		.want = &d->want, .obs = &d->ob.state, .bonds = d->bonds,
		.links = d->links, .n_links = d->n_links, .events = &d->events,
		.now_ms = clock_wall_ms(), .link_live = link_live, .live_ctx = d,
		.stale = stale_text(d), .impaired = impaired_text(d),
		.config_failed = d->config_failed, .config_success_ms = d->config_success_ms,
	};
	for (size_t i = 0; i < FSRC__COUNT; i++)
		v->findings[i] = &d->findings[i];
	v->host = &d->host;
	v->linkcheck = linkcheck_results(d->lc);
	v->lldp = d->lldp;
	v->trial = d->trial.shown;
}

/* A status client's view: the counters and LLDP looked at again, and
 * /proc read for the 802.3ad bonds the reply covers (lacp_live). */
void fill_view(void *ctx, struct status_view *v)
{
	struct daemon *d = ctx;

	live_reply_start(&d->live);
	counters_look(d);
	lldp_rx_refresh(d->lldp, &d->want, &d->ob.state, &d->findings[FSRC_LLDP]);
	daemon_view_now(d, v);
	v->bond_live = lacp_live;
}

/* The link check (linkcheck_io.h): its end answers the clients waiting for
 * it; the status socket's linkcheck verb starts one. */
static void on_linkcheck_done(void *ctx, const char *bond)
{
	struct daemon *d = ctx;
	if (d->server)
		status_split_check_done(d->server);
}

/* The bonds req names, or every one when it names none; names not
 * configured are left out (the reply says "unknown bond"). */
int on_status_check(void *ctx, const struct status_request *req, bool start)
{
	struct daemon *d = ctx;
	int busy = 0;
	for (size_t k = 0; k < req->n_bonds; k++)
		if (!desired_find_bond(&d->want, req->bonds[k]))
			return 0; /* answered "unknown bond", nothing started */
	for (size_t i = 0; i < d->want.n_bonds; i++) {
		const char *name = d->want.bonds[i].name;
		bool named = req->n_bonds == 0;
		for (size_t k = 0; k < req->n_bonds && !named; k++)
			named = strcmp(req->bonds[k], name) == 0;
		if (!named)
			continue;
		if (start)
			linkcheck_demand(d->lc, name);
		busy += linkcheck_busy(d->lc, name);
	}
	return busy;
}

/* Without it bondd still keeps its bonds: a link check that cannot start
 * is logged and the rest goes on. */
void open_linkcheck(struct daemon *d)
{
	int err = linkcheck_open(&d->lc, &d->findings[FSRC_LINK_CHECK], on_linkcheck_done, d);
	if (err == 0 && add_fd(d->epfd, linkcheck_fd(d->lc)) < 0)
		err = -errno;
	if (err < 0) {
		log_err("link check: %s; running without it", strerror(-err));
		linkcheck_close(d->lc);
		d->lc = NULL;
	}
}
