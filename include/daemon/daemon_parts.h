/* SPDX-License-Identifier: MIT */
/*
 * What the daemon's files share (daemon.c runs the loop; daemon_apply.c,
 * daemon_events.c, daemon_live.c, daemon_view.c and the others each hold
 * one part).  Private to src/daemon/.
 */
#ifndef BONDD_DAEMON_PARTS_H
#define BONDD_DAEMON_PARTS_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/epoll.h>

#include "daemon.h"
#include "apply_report.h"
#include "clock.h"
#include "config.h"
#include "hostcheck_run.h"
#include "log.h"
#include "plan.h"
#include "sd_notify.h"
#include "service_status.h"
#include "small_file.h"

/* The runtime model (daemon_runtime.c), below every other file here. */
/* Records an event for the status socket and sends it to watchers. */
void record(struct daemon *d, enum event_kind kind, const char *bond, const char *link,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* An EV_CONFIG event, and what it says of the configuration for the
 * reload metrics (bondd_config_last_reload_successful): taken, or refused. */
enum config_fate { CONFIG_TAKEN, CONFIG_REFUSED };
void record_config(struct daemon *d, enum config_fate fate, const char *bond, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

struct bond_runtime *bond_rt(struct daemon *d, const char *name);

struct link_runtime *link_rt(struct daemon *d, const char *name);


/* Whether this wake-up plans and judges bond i again. */
static inline bool touched(const struct daemon *d, size_t i)
{
	return d->touched_all || d->touched[i];
}

/* What a wake-up concludes once its passes are done (daemon_judge.c). */
/* The planner's complaints logged once each, not on every pass. */
void report_notes(struct daemon *d);
/* What drifted, once per bond and pass, before the plan is sent. */
void report_drift(struct daemon *d);
/* After the pass limit (unsettled) or not: the retry's schedule, and
 * which bonds still differ and why, for health. */
void note_unsettled(struct daemon *d, bool unsettled);
/* Each bond's uppers against what they were (uppers.h). */
void track_uppers(struct daemon *d);

/* The kernel's events as the daemon takes them (daemon_events.c): the
 * observer's callbacks (observer.h on_change and on_touch). */
void daemon_on_link_change(void *ctx, const struct obs_link *old, const struct obs_link *now);
void daemon_on_addr_or_route(void *ctx, int ifindex);
/* The bonds a retry is for: those with an action backing off, still
 * differing after the last wake-up, or with a slave waiting for udev. */
void touch_due(struct daemon *d);
/* Configured options this kernel does not report to bondd (kernel_caps.h),
 * logged, and what was said kept (caps_logged). */
void report_unreported(struct daemon *d);

/* Every bond is planned and judged at the next wake-up, the names events
 * are matched by made again (daemon.c). */
void touch_all(struct daemon *d);

/* fd added to the loop's epoll set, to be read. */
static inline int add_fd(int epfd, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

void report_failing(struct daemon *d);

/* The plan sent to the kernel action by action (daemon_apply.c), and what
 * each did (apply_report.h; v NULL: no memory, nothing sent); what drifted
 * is said before (daemon.c). */
struct apply_report execute_plan(struct daemon *d);
/* The one reporter of a plan sent: each action's outcome into the backoff
 * and its bond's record (applied_take), the log, the events, and then what
 * is failing (report_failing). */
void report_applied(struct daemon *d, const struct apply_report *rep);

/* ifname's counters from the text of /proc/net/dev (dev_seq_show in
 * net/core/net-procfs.c): true when its line was there and whole.  Pure. */
bool proc_net_dev_stats(const char *text, const char *ifname, struct obs_stats *st);

/* A status reply starts: a new time budget, /proc/net/dev to read again. */
void live_reply_start(struct live_facts *lf);
void live_facts_free(struct live_facts *lf);

/* Speed and duplex from sysfs when the cached ones are stale; counters
 * from /proc/net/dev while the reply's time budget lasts. */
void link_live(void *ctx, const char *ifname, int ifindex, struct link_live *out);

/* A link's counters now, outside any reply's time budget (daemon_live.c). */
void read_counters(struct daemon *d, const char *ifname, struct link_live *out);
void fill_view(void *ctx, struct status_view *v);
/* What /proc/net/bonding/<bond> (text, len bytes) says of an 802.3ad bond
 * in obs, applied to it: the active aggregator's id, and per slave of that
 * bond its aggregator and churn states (where netlink reported churn).  A
 * slave or line the text lacks keeps its value (lacp_proc.c, pure). */
void lacp_proc_apply(struct observed *obs, struct obs_link *bond, const char *text, size_t len);
/* A snapshot is asked for: bondd's own looks first (daemon_view.c). */
bool refresh_for_snapshot(void *ctx);
/* What the daemon holds now, read nowhere (the STATUS= line). */
void daemon_view_now(struct daemon *d, struct status_view *v);

/* The status socket's directory is systemd's RuntimeDirectory; when bondd
 * is run by hand it may not exist yet: every missing level of path's
 * directory is made (as mkdir -p), traversable (0755) so that unprivileged
 * readers reach the socket.  A path too long for a socket is left for
 * status_server_open to refuse.  Returns 0, or -errno with where naming
 * the level that failed (socket_dir.c). */
int socket_dir_make(const char *path, char *where, size_t len);

int on_status_check(void *ctx, const struct status_request *req, bool start);

void open_linkcheck(struct daemon *d);

/*
 * Gives want's slave entries the names their links have now (identity.h;
 * daemon_identity.c); d, when given, is the running daemon whose want this
 * is: its link records follow.  With say, a conflict or an ambiguous
 * entry is logged (once while it lasts) and a rename noted.  Returns the
 * number of entries in conflict (a config error), or -ENOMEM.
 */
int identity_refresh(struct desired *want, const struct observed *obs, struct daemon *d,
		     bool say);
void identity_rename_runtime(struct daemon *d);

/* The runtime records for want, keeping those of bonds and links that
 * stay (daemon.c).  0 or -ENOMEM (nothing changed then). */
int runtime_rebuild(struct daemon *d, const struct desired *want);
/* Frees what runtime_rebuild made (bonds, links, touched, link_at). */
void runtime_free(struct daemon *d);
/* Reloads the configuration file (try_s: on trial for that many seconds,
 * 0: a plain reload): 0 once applied, -1 when refused; msg: what the one
 * who asked is told (daemon.c). */
int reload(struct daemon *d, char *msg, size_t len, uint32_t try_s);
/* Makes next (taken over) the configuration and converges to it, the
 * hitless way of a start or reload (daemon.c). */
void apply_config(struct daemon *d, struct desired *next, const char *from, bool free_old,
		  bool accept_lost);

/* A reload on trial (daemon_trial.c). */
/* Before a tried configuration next is applied: keeps the running one and
 * what its bonds were like; the trial runs from now.  0 or -ENOMEM. */
int trial_begin(struct daemon *d, const struct desired *next, uint32_t seconds);
/* trial_begin undone (what followed it failed; nothing was applied). */
void trial_cancel(struct daemon *d);
/* After the tried configuration is applied: logged, recorded, and said
 * to the one who asked in msg. */
void trial_started(struct daemon *d, char *msg, size_t len);
/* Whether a trial runs, with why verb (reload, try) must wait in msg. */
bool trial_conflict(struct daemon *d, const char *verb, char *msg, size_t len);
/* confirm and trial-wait (status_server.h status_trial_fn); a confirm
 * (returning 0) leaves the trial to be judged at once by the caller. */
int trial_answer(struct daemon *d, enum status_verb verb, uint32_t arg, char *msg, size_t len);
/* What a trial put back leaves the caller to apply (apply_config). */
struct trial_putback {
	struct desired prev;       /* the configuration before the trial */
	char from[48];             /* "the configuration before trial N" */
	uint32_t id;
};
/* Judges the running trial now: keeps waiting or keeps it (false), or
 * ends it to be put back: true, with out to apply (daemon.c trial_judge_now). */
bool trial_step(struct daemon *d, struct trial_putback *out);
/* When the running trial must be judged next (monotonic ms), 0: none. */
uint64_t trial_next_ms(const struct daemon *d);
/* "; trial N runs: put back at TIME unless confirmed" appended to the
 * STATUS= line while one runs. */
void trial_status_text(const struct daemon *d, char *line, size_t len);
/* STATUS= for systemd when it changed, and which bonds are whole now
 * (daemon_judge.c). */
void notify_status(struct daemon *d);
/* bondd stops: a running trial ends with it (said in the log). */
void trial_on_stop(struct daemon *d);
void trial_free(struct daemon *d);

#endif
