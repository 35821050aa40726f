/* SPDX-License-Identifier: MIT */
/* The event loop: observe, plan, execute; reload on SIGHUP. */
#include "daemon_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <syslog.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>

#include "config.h"
#include "config_handover.h"
#include "kernel_caps.h"
#include "fd_budget.h"
#include "hostcheck_run.h"
#include "log.h"
#include "packet_sock.h"
#include "plan.h"
#include "proc_filter.h"
#include "reload_verdict.h"
#include "retry_timer.h"
#include "sd_notify.h"
#include "service_status.h"
#include "small_file.h"
#include "unsettled.h"

/* Start-up dumps (each already repeated OBSERVER_DUMP_TRIES times when
 * interrupted) before bondd gives up: about 5 s of waits in all. */
#define START_SYNC_TRIES 10

/* The retry timer: the earliest of the holds' expiries and the retry of
 * bonds that still differed after the last wake-up.  Holds count as they
 * were when the last plan was made (plan_ms): one that has expired since
 * left its action out of that plan, and must bring bondd back at once,
 * not be forgotten until an unrelated event. */
static void arm_retry(struct daemon *d, uint64_t plan_ms)
{
	uint64_t now = clock_mono_ms();
	struct retry_inputs in = {
		.holds_ms = holds_next_expiry(&d->holds, plan_ms),
		.unsettled_ms = d->unsettled_retry_ms,
		.udev_ms = udev_wait_next_ms(&d->udev, now),
		.trial_ms = trial_next_ms(d),
		.stale = d->ob.stale_since_ms != 0,
		.stale_retry_ms = d->ob.retry_at_ms,
	};
	uint64_t next = retry_next_ms(&in, now);

	/* Already due (the wake-up took longer than the backoff): at once
	 * (clock_timer_in: a zero would disarm the timer). */
	if (next)
		clock_timer_in(d->retry_fd, next > now ? (int64_t)(next - now) : 0);
	else
		clock_timer_off(d->retry_fd);
}

/* A re-read that failed is tried again on the retry timer, backing off,
 * never left for the next event (which may not come). */
static void retry_stale(struct daemon *d)
{
	if (!d->ob.stale_since_ms || clock_mono_ms() < d->ob.retry_at_ms)
		return;
	int err = observer_resync(&d->ob);
	d->touched_all = true;
	if (err < 0)
		log_err("re-reading links: %s (failure %u in a row; again in %llu ms)",
			strerror(-err), d->ob.stale_failures,
			(unsigned long long)(d->ob.retry_at_ms - clock_mono_ms()));
	else
		log_info("re-reading links works again");
}

static void trial_judge_now(struct daemon *d);

static void converge(struct daemon *d)
{
	bool unsettled = false;
	uint64_t plan_ms = clock_mono_ms();

	retry_stale(d);
	for (int pass = 0; pass < MAX_PASSES; pass++) {
		unsigned long resyncs = d->ob.resyncs;
		int err = observer_drain(&d->ob);
		if (err < 0)
			log_err("reading netlink events: %s", strerror(-err));
		if (d->ob.resyncs != resyncs) {
			log_warn("netlink events were lost (receive buffer overflow); "
				 "re-read every link from the kernel");
			d->touched_all = true;
		}
		/* Only when a link came, went or changed what entries match
		 * it by: with 1,300 links a match costs milliseconds. */
		if (d->identity_due || d->touched_all) {
			d->identity_due = false;
			identity_refresh(&d->want, &d->ob.state, d, true);
		}
		plan_ms = clock_mono_ms();
		struct plan_constraints held = holds_constraints(&d->holds, plan_ms);
		held = udev_wait_holds(&d->udev, &d->want, &d->ob.state, &held, plan_ms);
		held.no_rebuild = !d->rebuild_ok;
		held.only = d->touched_all ? NULL : d->touched;
		action_list_clear(&d->plan);
		if (plan(&d->want, &d->ob.state, &held, &d->plan) < 0) {
			log_err("planning: out of memory");
			break;
		}
		report_notes(d);
		if (d->plan.n == 0)
			break;
		if (pass == MAX_PASSES - 1) {
			/* Either something keeps undoing our changes, or our
			 * picture of the kernel is wrong: re-read it, so the
			 * next wake-up plans from the truth. */
			log_warn("bonds still differ from the config after %d passes; "
				 "re-reading every link and trying again soon", MAX_PASSES);
			if ((err = observer_resync(&d->ob)) < 0)
				log_err("re-reading links: %s", strerror(-err));
			unsettled = true;
		} else {
			report_drift(d);
			execute_plan(d);
		}
	}
	note_unsettled(d, unsettled);
	arm_retry(d, plan_ms);
	track_uppers(d);
	notify_status(d);
	/* LLDP first: its one socket serves every slave, and must not find
	 * the open files taken by the link check's sockets per slave.  Its
	 * groups follow the slaves' ifindexes: looked at again when a link
	 * came, went or was renamed, or while something was refused. */
	if (d->lldp_due || d->touched_all || lldp_rx_trouble(d->lldp)) {
		lldp_rx_sync(d->lldp, &d->want, &d->ob.state);
		d->lldp_due = false;
	}
	linkcheck_sync(d->lc, &d->want, &d->ob.state);
	hostcheck_run_if_due(d);
	/* Last: a trial put back converges again, from here. */
	trial_judge_now(d);
	memset(d->touched, 0, d->n_bonds * sizeof(*d->touched));
	d->touched_all = false;
}

/* The config's errors (log_err) or warnings (log_warn), one line each. */
static void log_diagnostics(const struct config_diag *diag, enum config_severity severity)
{
	for (size_t i = 0; i < diag->n_items; i++) {
		if (diag->items[i].severity != severity)
			continue;
		char *line = config_diagnostic_format(&diag->items[i]);
		if (severity == CONFIG_ERROR)
			log_err("%s", line ? line : "out of memory");
		else
			log_warn("%s", line ? line : "out of memory");
		free(line);
	}
}

/* The running kernel's version, whose refusals the config parser makes
 * errors (config_load_kernel); 0 when it cannot be read. */
static uint16_t running_kernel(void)
{
	struct utsname u;

	return uname(&u) == 0 ? kernel_caps_parse_release(u.release) : 0;
}

/* Says, at the normal level, when the configuration needs more open
 * files than the limit: slaves would go without the link check, clients
 * without a reply. */
static void fd_limit_check(struct daemon *d)
{
	size_t need = fd_budget_need(&d->want, STATUS_SERVER_MAX_FDS);

	if (need > d->fd_soft)
		log_warn("%zu bonds need about %zu open files, more than bondd's limit of %zu: "
			 "slaves beyond it go without the link check (said when it happens); "
			 "raise LimitNOFILE= (bondd(8))", d->want.n_bonds, need, d->fd_soft);
}

/* The one reporter of a reload's verdict (reload_verdict.h): the log, the
 * event, the client's answer (msg), STATUS= and READY=1, each as
 * reload_effects_of says.  diag: the file's diagnostics, when it was read;
 * try_s: a reload on trial, whose start trial_started says.  Returns 0 when
 * the configuration was taken, -1 when refused. */
static int reload_report(struct daemon *d, enum reload_verdict v, const struct config_diag *diag,
			 uint32_t try_s, char *msg, size_t len)
{
	struct reload_effects fx = reload_effects_of(v);
	const struct log_meta *meta = fx.message_id ?
		&(struct log_meta){.message_id = LOG_MSGID_RELOAD_REFUSED} : NULL;
	const char *path = d->opts.config_path;

	switch (v) {
	case RELOAD_ACCEPT:
		if (try_s) {
			trial_started(d, msg, len);
			break;
		}
		log_info("reloaded: %zu bond%s", d->want.n_bonds, d->want.n_bonds == 1 ? "" : "s");
		record_config(d, CONFIG_TAKEN, NULL, "reloaded %s: %zu bonds", path,
			      d->want.n_bonds);
		snprintf(msg, len, "reloaded %s: %zu bond%s", path, d->want.n_bonds,
			 d->want.n_bonds == 1 ? "" : "s");
		break;
	case RELOAD_REFUSED_TRIAL:
		/* msg: why, as trial_conflict said it */
		log_meta(LOG_ERR, meta, "reload refused: %s", msg);
		record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused: trial %u runs", path,
			      d->trial.id);
		break;
	case RELOAD_REFUSED_ERROR_AT:
	case RELOAD_REFUSED_UNREADABLE: {
		const struct config_diagnostic *first = config_diag_first(diag, CONFIG_ERROR);
		log_diagnostics(diag, CONFIG_ERROR);
		log_meta(LOG_ERR, meta, "reload failed: keeping the running configuration");
		/* Anyone may watch events; the message may quote a file only
		 * root may read.  Where the error is, then, not what it says:
		 * the log and the one who asked for the reload get the rest. */
		char where[320] = "";
		if (v == RELOAD_REFUSED_ERROR_AT)
			snprintf(where, sizeof(where), "%s:%u", first->file, first->line);
		if (where[0])
			record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused: error at %s",
				      path, where);
		else
			record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused", path);
		char *first_line = first ? config_diagnostic_format(first) : NULL;
		snprintf(msg, len, "%s%s; the running configuration stays",
			 first_line ? first_line : first ? "out of memory" : "the file cannot be read",
			 config_diag_count(diag, CONFIG_ERROR) > 1 ?
			 " (and more errors, see bondd's log)" : "");
		free(first_line);
		d->reload_refused = (struct reload_refusal){.verdict = v};
		snprintf(d->reload_refused.where, sizeof(d->reload_refused.where), "%s", where);
		break;
	}
	case RELOAD_REFUSED_NO_BONDS:
		log_diagnostics(diag, CONFIG_WARNING);
		log_meta(LOG_ERR, meta,
			 "reload refused: %s defines no bonds, and bondd manages %zu; keeping the "
			 "running configuration (to stop managing every bond, stop the service)",
			 path, d->want.n_bonds);
		record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused: it defines no bonds",
			      path);
		snprintf(msg, len, "%s defines no bonds, and bondd manages %zu; the running "
			 "configuration stays (to stop managing every bond, stop the service)",
			 path, d->want.n_bonds);
		d->reload_refused = (struct reload_refusal){.verdict = v,
							    .managing = d->want.n_bonds};
		break;
	case RELOAD_REFUSED_CONFLICT:
		log_meta(LOG_ERR, meta, "reload failed: keeping the running configuration");
		record_config(d, CONFIG_REFUSED, NULL, "reload of %s refused: one link named by two "
			      "slave entries", path);
		snprintf(msg, len, "%s: one link is named by two slave entries (see bondd's "
			 "log); the running configuration stays", path);
		d->reload_refused = (struct reload_refusal){.verdict = v};
		break;
	case RELOAD_REFUSED_NOMEM:
		log_meta(LOG_ERR, meta, "reload: out of memory; keeping the running configuration");
		snprintf(msg, len, "out of memory; the running configuration stays");
		break;
	}
	if (fx.status_line)
		notify_status(d);
	if (fx.ready)
		sd_notify_send("READY=1");
	return fx.refused ? -1 : 0;
}

/* Returns 0 once the file is applied, -1 when it was refused (msg: why).
 * try_s: on trial for that many seconds (daemon_trial.c), 0: a reload.
 * Facts are gathered in order, the verdict asked for after each step
 * (reload_verdict.h), and everything that can fail is done before
 * anything is written: a reload that says it kept the running
 * configuration must have changed nothing. */
int reload(struct daemon *d, char *msg, size_t len, uint32_t try_s)
{
	struct desired next = {0};
	struct config_diag diag = {0};
	struct reload_facts facts = {.running_bonds = d->want.n_bonds};
	enum reload_verdict v;
	int ret;

	facts.trial_runs = !try_s && trial_conflict(d, "reload", msg, len);
	if ((v = reload_verdict_of(&facts)) != RELOAD_ACCEPT)
		return reload_report(d, v, NULL, try_s, msg, len);
	sd_notify_send("RELOADING=1");
	log_info("reloading %s", d->opts.config_path);
	/* A value the kernel refuses is refused here, before anything is
	 * touched: applied, a down-only option would take the bond down (its
	 * 802.3ad ports set down, released) for a request that then fails. */
	if (config_load_kernel(d->opts.config_path, running_kernel(), &next, &diag) < 0) {
		const struct config_diagnostic *first = config_diag_first(&diag, CONFIG_ERROR);
		facts.parse_failed = true;
		facts.error_has_line = first && first->line;
	} else {
		facts.parsed = true;
		facts.next_bonds = next.n_bonds;
	}
	if ((v = reload_verdict_of(&facts)) != RELOAD_ACCEPT) {
		ret = reload_report(d, v, &diag, try_s, msg, len);
		config_diag_free(&diag);
		desired_free(&next);
		return ret;
	}
	log_diagnostics(&diag, CONFIG_WARNING);
	config_diag_free(&diag);
	/* Entries by mac:, path: or altname take today's names first (the
	 * link records are then kept by name); one link named by two entries
	 * is a config error (identity.h). */
	facts.conflicts = identity_refresh(&next, &d->ob.state, NULL, true);
	if ((v = reload_verdict_of(&facts)) == RELOAD_ACCEPT) {
		facts.out_of_memory = (try_s && trial_begin(d, &next, try_s) < 0) ||
				      runtime_rebuild(d, &next) < 0;
		if (facts.out_of_memory && try_s)
			trial_cancel(d);
		v = reload_verdict_of(&facts);
	}
	if (v != RELOAD_ACCEPT) {
		desired_free(&next);
		return reload_report(d, v, NULL, try_s, msg, len);
	}
	/* On trial, the running configuration is kept (trial_begin took it)
	 * to be put back; else it goes. */
	apply_config(d, &next, d->opts.config_path, !try_s, !try_s);
	return reload_report(d, v, NULL, try_s, msg, len);
}

/* Makes next (taken over) the configuration and converges to it, as a
 * start or reload does: hitless for every bond already right.  The runtime
 * records must already be rebuilt for it (runtime_rebuild).  A bond the
 * running configuration has and next lacks is left as it is, unmanaged:
 * one read of a file caught half-written must not delete a storage
 * network.  Deleting takes "state = absent" (bondd(8)).  from: where next
 * came from, for the log; free_old: the running configuration goes (else
 * the caller has kept it: a trial); accept_lost: the uppers lost with a
 * deleted bond are no longer waited for (a plain reload, the admin's word;
 * not a trial's start or its rollback, which put nothing back). */
void apply_config(struct daemon *d, struct desired *next, const char *from, bool free_old,
		  bool accept_lost)
{
	for (size_t i = 0; i < d->want.n_bonds; i++) {
		const struct desired_bond *b = &d->want.bonds[i];
		if (handover_dropped(b, next)) {
			log_info("%s: no longer in %s: left in place as it is, no longer managed "
				 "(state = absent deletes it)", b->name, from);
			record_config(d, CONFIG_TAKEN, b->name,
				      "no longer configured: left in place, unmanaged");
		}
	}
	handover_bridges(&d->want, next);
	if (free_old)
		desired_free(&d->want);
	d->want = *next;
	*next = (struct desired){0};
	touch_all(d); /* (its names pointed into the old config) */
	d->reload_refused = (struct reload_refusal){.verdict = RELOAD_ACCEPT};
	/* A reload accepts the absence of the uppers the kernel took with a
	 * deleted bond (bondd(8), UPPERS). */
	for (size_t i = 0; accept_lost && i < d->n_bonds; i++) {
		if (d->bonds[i].uppers.n_lost)
			log_info("%s: reload: no longer waiting for uppers lost with the bond",
				 d->bonds[i].name);
		uppers_forget_lost(&d->bonds[i].uppers);
	}
	/* A new config is a new start for every link that was backing off,
	 * and what it changes is not drift. */
	holds_clear(&d->holds);
	for (size_t i = 0; i < d->n_bonds; i++)
		d->bonds[i].was_healthy = false; /* logged as converging, not drift */
	report_failing(d);
	d->rebuild_ok = true; /* the admin asked: see plan.h, no_rebuild */
	fd_limit_check(d);
	linkcheck_reloaded(d->lc);
	converge(d);
	d->rebuild_ok = false;
}

/* The running trial judged now (daemon_trial.c); one put back is applied
 * here, the same path as a reload's. */
static void trial_judge_now(struct daemon *d)
{
	struct trial_putback back;

	if (!trial_step(d, &back))
		return;
	apply_config(d, &back.prev, back.from, true, false); /* frees the tried one */
	log_info("trial %u: the configuration before it runs again: %zu bond%s", back.id,
		 d->want.n_bonds, d->want.n_bonds == 1 ? "" : "s");
}

/* The status socket's reload request. */
static int reload_request(void *ctx, char *msg, size_t len)
{
	return reload(ctx, msg, len, 0);
}

/* The status socket's try, confirm and trial-wait (daemon_trial.c). */
static int trial_request(void *ctx, enum status_verb verb, uint32_t arg, char *msg, size_t len)
{
	struct daemon *d = ctx;

	if (verb != SV_TRY) {
		int ret = trial_answer(d, verb, arg, msg, len);
		if (verb == SV_CONFIRM && ret == 0) {
			trial_judge_now(d);
			notify_status(d); /* STATUS= without the trial */
		}
		return ret;
	}
	if (trial_conflict(d, "try", msg, len))
		return SE_CONFLICT;
	return reload(d, msg, len, arg) < 0 ? SE_REFUSED : 0;
}

static void on_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	while (read(d->sigfd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGHUP:
			/* A burst of SIGHUPs is one reload, after the burst is
			 * read: of the file as it is then. */
			d->reload_pending = true;
			break;
		case SIGTERM:
		case SIGINT:
			d->stop = true;
			break;
		case SIGCHLD:
			if (d->server && !d->stop)
				status_split_reap(d->server);
			break;
		}
	}
}

static int setup_fds(struct daemon *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGCHLD); /* the status process and the snapshots */
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	signal(SIGPIPE, SIG_IGN);
	breather_catch_xcpu();
	/* The bound on a spin at a real-time priority, set by bondd once the
	 * handler above is in place (breather.h). */
	int rt = breather_limit_rttime(BREATHER_RTTIME_SOFT_US, BREATHER_RTTIME_HARD_US);
	if (rt < 0)
		log_warn("could not set RLIMIT_RTTIME (%s): a bondd that spins at its real-time "
			 "priority is not stopped by the kernel", strerror(-rt));
	d->sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	d->retry_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->sigfd < 0 || d->retry_fd < 0 || d->epfd < 0)
		return -errno;
	if (add_fd(d->epfd, d->sigfd) || add_fd(d->epfd, d->retry_fd) ||
	    add_fd(d->epfd, observer_fd(&d->ob)))
		return -errno;

	uint64_t wd = sd_watchdog_usec();
	if (wd) {
		/* Ping at half the interval, as systemd recommends. */
		struct itimerspec its = {0};
		its.it_interval.tv_sec = (time_t)(wd / 2 / 1000000);
		its.it_interval.tv_nsec = (long)(wd / 2 % 1000000) * 1000L;
		its.it_value = its.it_interval;
		d->watchdog_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
		if (d->watchdog_fd < 0 || timerfd_settime(d->watchdog_fd, 0, &its, NULL) < 0 ||
		    add_fd(d->epfd, d->watchdog_fd))
			return -errno;
	}
	return 0;
}

/* Whether the kernel has queued anything on the events socket (a message,
 * or an overflow's error), without waiting. */
static bool events_queued(const struct daemon *d)
{
	struct pollfd p = {.fd = observer_fd(&d->ob), .events = POLLIN};

	return poll(&p, 1, 0) > 0;
}

/* bondd-status --settle, a barrier for whoever changed something just
 * before: the kernel queues a link's event on our socket before the
 * request that changed it returns (net/core/rtnetlink.c rtnl_notify ->
 * net/netlink/af_netlink.c netlink_broadcast, in the sender's context), so
 * every event of what the client did is there now; read and handled as a
 * turn of their own, before the answer.  Nothing queued, nothing done: the
 * barrier only brings forward the turn those events would cause anyway. */
static void settle(struct daemon *d)
{
	if (!status_split_settle_pending(d->server) || !events_queued(d))
		return;
	converge(d);
	status_split_changed(d->server);
}

static void drain_timer(int fd)
{
	uint64_t ticks;
	while (read(fd, &ticks, sizeof(ticks)) == sizeof(ticks))
		;
}

/* Returns 0 when asked to stop, -1 when the loop itself broke (then the
 * exit status is a failure, so that Restart=on-failure starts bondd again).
 * The kernel first: signals, netlink events and due retries are handled and
 * the bonds repaired before any client is served, and the status server
 * does a bounded amount of client work per turn (status_server.h), so a
 * busy socket delays a repair by one such turn at most. */
static int run_loop(struct daemon *d)
{
	while (!d->stop) {
		struct epoll_event evs[8];
		int n = epoll_wait(d->epfd, evs, 8, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_err("epoll_wait: %s", strerror(errno));
			return -1;
		}
		bool work = false, clients = false, changed = false;
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			if (fd == d->sigfd) {
				on_signal(d);
				if (d->reload_pending && !d->stop) {
					char msg[400];
					d->reload_pending = false;
					reload(d, msg, sizeof(msg), 0);
					/* Only a reload changes the state here: a
					 * replaced snapshot's SIGCHLD does not (else
					 * its exit made the next request fork
					 * another, every 200 ms under a flood). */
					changed = true;
				}
			} else if (fd == d->retry_fd) {
				drain_timer(fd);
				touch_due(d);
				work = changed = true;
			} else if (fd == d->watchdog_fd) {
				drain_timer(fd);
				sd_notify_send("WATCHDOG=1");
				if (d->server)
					status_split_watchdog(d->server);
			} else if (fd == observer_fd(&d->ob)) {
				work = changed = true;
			} else if (d->server && fd == status_split_fd(d->server)) {
				clients = true;
			} else if (d->lc && fd == linkcheck_fd(d->lc)) {
				linkcheck_dispatch(d->lc);
				/* a check's end may prove fewer paths */
				trial_judge_now(d);
				changed = true;
			} else if (d->lldp && fd == lldp_rx_fd(d->lldp)) {
				lldp_rx_dispatch(d->lldp);
				changed = true;
			}
		}
		if (work && !d->stop)
			converge(d);
		if (d->server && !d->stop) {
			/* What a snapshot asked for from now on shows: the
			 * kernel's events of this turn were handled above. */
			if (changed)
				status_split_changed(d->server);
			if (clients) {
				status_split_dispatch(d->server);
				settle(d);
				/* a reload asked for is done now, outside the
				 * server's dispatch */
				status_split_answer_asks(d->server);
			} else
				status_split_flush(d->server); /* events of this turn's repairs */
		}
		/* A turn after a turn with events pending never sleeps in
		 * epoll_wait: clients that never let up must not keep a
		 * real-time bondd from sleeping either. */
		breather_check(&d->breather);
	}
	return 0;
}

static int open_server(struct daemon *d)
{
	if (!d->opts.socket_path || !d->opts.socket_path[0])
		return 0;
	char dir[108] = "";
	int err = socket_dir_make(d->opts.socket_path, dir, sizeof(dir));
	if (err < 0) {
		/* Without the socket there is no guard against a second bondd
		 * either: refuse to start rather than run unguarded. */
		log_err("status socket %s: cannot create directory %s: %s", d->opts.socket_path,
			dir, strerror(-err));
		return err;
	}
	err = status_split_open(&d->server, d->opts.socket_path, fill_view, d);
	if (err == -EADDRINUSE) {
		log_err("%s: another bondd answers there; not starting a second one",
			d->opts.socket_path);
		return err;
	}
	if (err < 0) {
		/* The bonds matter more than their status: go on without it. */
		log_err("status socket %s: %s; running without it", d->opts.socket_path,
			strerror(-err));
		d->server = NULL;
		return 0;
	}
	if (add_fd(d->epfd, status_split_fd(d->server)) < 0)
		return -errno;
	status_split_set_reload(d->server, reload_request);
	status_split_set_trial(d->server, trial_request);
	status_split_set_check(d->server, on_status_check);
	status_split_set_refresh(d->server, refresh_for_snapshot);
	log_info("status socket: %s", d->opts.socket_path);
	return 0;
}

static void daemon_free(struct daemon *d)
{
	status_split_close(d->server);
	linkcheck_close(d->lc);
	lldp_rx_close(d->lldp);
	action_list_free(&d->plan);
	executor_close(&d->ex);
	observer_close(&d->ob);
	udev_wait_free(&d->udev);
	desired_free(&d->want);
	runtime_free(d);
	plan_touch_free(&d->touch);
	for (size_t i = 0; i < FSRC__COUNT; i++)
		findings_free(&d->findings[i]);
	free(d->counts);
	d->counts = NULL;
	d->n_counts = 0;
	host_obs_free(&d->host);
	live_facts_free(&d->live);
	trial_free(d);
	int fds[] = {d->epfd, d->sigfd, d->retry_fd, d->watchdog_fd};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The soft open-file limit raised to the hard one (a service's soft limit
 * is 1024: 130 bonds of 4 slaves took them all), and packet sockets kept
 * below what bondd's own work and its clients need. */
static void fd_limit_start(struct daemon *d)
{
	size_t hard = 0;
	int err = fd_limit_raise(&d->fd_soft, &hard);

	if (err < 0)
		log_warn("raising the open-file limit to %zu: %s; it stays %zu", hard,
			 strerror(-err), d->fd_soft);
	log_debug("open files: limit %zu (hard %zu)", d->fd_soft, hard);
	size_t ceiling = fd_budget_packet_ceiling(d->fd_soft, STATUS_SERVER_MAX_FDS);
	packet_sock_set_ceiling(ceiling > INT_MAX ? 0 : (int)ceiling);
	fd_limit_check(d);
}

int daemon_main(const struct daemon_opts *opts)
{
	struct daemon d = {.opts = *opts, .epfd = -1, .sigfd = -1, .retry_fd = -1,
			   .watchdog_fd = -1};
	struct config_diag diag = {0};
	int err, status = 1;

	if (config_load_kernel(opts->config_path, running_kernel(), &d.want, &diag) < 0) {
		log_diagnostics(&diag, CONFIG_ERROR);
		config_diag_free(&diag);
		return 78; /* EX_CONFIG */
	}
	log_diagnostics(&diag, CONFIG_WARNING);
	config_diag_free(&diag);
	if (runtime_rebuild(&d, &d.want) < 0)
		goto out;
	touch_all(&d);
	fd_limit_start(&d);
	udev_wait_init(&d.udev, opts->udev_dir ? opts->udev_dir : "/run/udev");
	if ((err = observer_open(&d.ob, opts->event_rcvbuf, daemon_on_link_change, &d)) < 0 ||
	    (err = executor_open(&d.ex)) < 0) {
		log_err("opening netlink: %s", strerror(-err));
		goto out;
	}
	d.ob.on_touch = daemon_on_addr_or_route;
	d.ob.dump.breather = &d.breather;
	d.ex.mnl.breather = &d.breather;
	d.ex.links = &d.ob.state; /* names to ifindexes: no lookup of its own */
	if ((err = setup_fds(&d)) < 0) {
		log_err("setting up the event loop: %s", strerror(-err));
		goto out;
	}
	/* Links come and go while udev works at boot: a dump that keeps being
	 * interrupted is taken again for a while before bondd gives up. */
	for (int attempt = 1; (err = observer_sync(&d.ob)) < 0; attempt++) {
		if (attempt >= START_SYNC_TRIES) {
			log_err("reading links: %s", strerror(-err));
			goto out;
		}
		log_warn("reading links: %s; trying again", strerror(-err));
		usleep((useconds_t)(100000 * attempt));
	}
	/* One link named by two slave entries is a config error: nothing done.
	 * (While running, such a conflict moves nothing: identity_apply.) */
	if ((err = identity_refresh(&d.want, &d.ob.state, &d, true)) != 0) {
		if (err > 0)
			log_err("%s: one link is named by two slave entries; not starting",
				opts->config_path);
		status = err > 0 ? 78 : 1;
		goto out;
	}
	report_unreported(&d);
	if (open_server(&d) < 0)
		goto out;
	open_linkcheck(&d);
	/* Without it bondd still keeps its bonds (as the link check). */
	if ((err = lldp_rx_open(&d.lldp)) == 0 && add_fd(d.epfd, lldp_rx_fd(d.lldp)) < 0)
		err = -errno;
	if (err < 0) {
		log_err("LLDP: %s; running without it", strerror(-err));
		lldp_rx_close(d.lldp);
		d.lldp = NULL;
	}
	if (d.want.n_bonds == 0)
		log_info("no bonds configured in %s: running idle", opts->config_path);
	else
		log_info("managing %zu bond%s from %s", d.want.n_bonds,
			 d.want.n_bonds == 1 ? "" : "s", opts->config_path);
	record_config(&d, CONFIG_TAKEN, NULL, "started with %s: %zu bonds", opts->config_path,
		      d.want.n_bonds);
	d.rebuild_ok = true;
	converge(&d);
	d.rebuild_ok = false;
	log_info("ready");
	sd_notify_send("READY=1");
	int looped = run_loop(&d);
	sd_notify_send("STOPPING=1");
	trial_on_stop(&d);
	/* The bonds are the storage network: leave them as they are. */
	log_info("stopping; bonds are left in place");
	status = looped < 0 ? 1 : 0;
out:
	daemon_free(&d);
	return status;
}
