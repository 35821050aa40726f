/* SPDX-License-Identifier: MIT */
/*
 * The link check's schedule of one bond as a state machine, with time and
 * the other inputs passed in (no clock, no I/O):
 *
 *   OFF      link checking is off for the bond (link_check = no, or a bond
 *            new to the link check before the daemon's pass enabled it);
 *   IDLE     no check runs and none is due: a re-check (linkcheck_settle.h)
 *            or a peer's wish (lc_wish) may make one due;
 *   DUE      a check is due: it starts once LC_MIN_GAP_MS have passed
 *            since the last one started (lc_start_at);
 *   RUNNING  a check's requests are out: it ends at its deadline, or once
 *            every awaited answer is in and LC_MIN_WAIT_MS have passed.
 *            A trigger while it runs makes the next check due (again):
 *            the bond is DUE when it ends.
 *
 * Beside the phase, a bond whose last check heard no peer at all (no
 * answer on any slave) keeps a retry (lc_phase_checked): at start, hosts
 * that boot together (a rack after a power cut) can each end their first
 * check before the other listens, and a switch port can carry a link for
 * many seconds before it forwards (spanning tree's listening and learning,
 * 15 s each by default); with no link change to come, nothing else would
 * check again, and the matrix would stay empty for good.  So such a bond
 * checks again LC_ALONE_FIRST_MS later, then after twice as long each
 * time, up to LC_ALONE_MAX_MS, until a check hears a peer.  Hearing no one
 * is no finding (linkcheck_eval): a retry changes no verdict by itself.
 * When a retry is due, the node's budget across bonds says when it really
 * starts (linkcheck_retry.h): lc_phase_next reports its time and starts it
 * only when chosen.
 *
 * lc_phase_enter is the only function that changes the phase and its
 * timestamps, lc_phase_checked the only one that sets the retry;
 * lc_phase_next says what to do now, or when to look again.
 */
#ifndef BONDD_LINKCHECK_PHASE_H
#define BONDD_LINKCHECK_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "linkcheck_settle.h"

enum lc_phase {
	LC_PHASE_OFF = 0, /* (a zeroed bond is off until a pass enables it) */
	LC_PHASE_IDLE,
	LC_PHASE_DUE,
	LC_PHASE_RUNNING,
};

struct lc_phase_state {
	enum lc_phase phase;
	bool again;            /* RUNNING: the next check is due when it ends */
	int64_t started_ms;    /* the running (or last) check's start */
	int64_t deadline_ms;   /* ... and when it ends at the latest */
	int64_t last_start_ms; /* the last check's start, 0: none yet */
	/* no peer heard (lc_phase_checked): the last retry's wait, 0 once a
	 * check heard a peer (or none ended yet), and when to check again,
	 * 0: no retry (a check that starts takes its place) */
	uint32_t alone_ms;
	int64_t alone_at_ms;
};

/*
 * The retry's waits: 5 s after the first check that heard no one (by then
 * the hosts that started with it are up, even on a loaded machine), then
 * 10, 20, 40, 80 and 160 s, and 5 minutes from then on, each with the
 * re-check's random delay.  So the retries come 5, 15, 35 (spanning tree's
 * 30 s of listening and learning past), 75, 155 and 315 s after that
 * check, then every 5 minutes.  A bond on a switch where no bondd answers
 * sends its requests (3 per slave) 4 times in its first minute, first
 * check included, and once every 5 minutes from its sixth: 12 frames per
 * 5 minutes for 4 slaves.  Each retry takes a token of the bucket
 * re-checks take (linkcheck_io.h), so the bond's budget of checks holds
 * with it.
 */
#define LC_ALONE_FIRST_MS 5000
#define LC_ALONE_MAX_MS 300000

/*
 * Enters phase `to` at now (monotonic ms):
 *   OFF, IDLE from anything but RUNNING: that phase, nothing owed;
 *   IDLE from RUNNING: the check ended (or was dropped): DUE instead when
 *     a trigger came while it ran (again);
 *   DUE from IDLE or DUE: DUE; from RUNNING: the next check is due once
 *     this one ends (again); from OFF: stays OFF (checks are off);
 *   RUNNING from any other phase: a check starts at now and ends by
 *     deadline_ms at the latest, and takes the retry's place (none set
 *     until it ends: lc_phase_checked); from RUNNING: its deadline moves
 *     to deadline_ms if that is later (answers it must still wait for).
 *   OFF also forgets the retry and its wait.
 */
void lc_phase_enter(struct lc_phase_state *ps, enum lc_phase to, int64_t now,
		    int64_t deadline_ms);

/*
 * A check ended at now (after lc_phase_enter IDLE).  sent: some slave's
 * requests went out; heard: some slave got an answer, from any peer slave
 * at any size (the rules of the findings apply from there, however few
 * answered).  fresh: a change started it (a slave ready, a reload, a
 * request), which starts the waits from LC_ALONE_FIRST_MS again.
 * jitter_ms is added to the wait, as the re-check's is.
 *   heard: no retry, the wait forgotten;
 *   sent and not heard: a retry after the next wait (the first one when
 *     fresh or none before, else twice the last, LC_ALONE_MAX_MS at most);
 *   nothing sent (no slave ready): no retry, the wait kept (the slave
 *     that becomes ready starts a check).
 * Returns the retry's time, 0 for none.
 */
int64_t lc_phase_checked(struct lc_phase_state *ps, int64_t now, bool sent, bool heard,
			 bool fresh, uint32_t jitter_ms);

static inline bool lc_phase_running(const struct lc_phase_state *ps)
{
	return ps->phase == LC_PHASE_RUNNING;
}

/* A check is due: now, or once the running one ends. */
static inline bool lc_phase_due(const struct lc_phase_state *ps)
{
	return ps->phase == LC_PHASE_DUE || (ps->phase == LC_PHASE_RUNNING && ps->again);
}

/* What lc_phase_next weighs besides the phase: the caller's view of the
 * bond at now. */
struct lc_phase_in {
	bool complete;          /* every awaited answer is in (RUNNING only) */
	bool demand_wait;       /* a client waits for a check's findings */
	int64_t recheck_ms;     /* the re-check's time (lc_settle next_ms), 0: none */
	/* [0] peers', [1] strangers' wishes owed a check (lc_wish) */
	struct lc_wish wish[2];
	bool wishes_owed;       /* some wish still unanswered (else they are served) */
	/* when each bucket has a token ([0] the peers', which re-checks take
	 * too; [1] the strangers'), as lc_bucket_refill returns it */
	int64_t token_ms[2];
	size_t peers;           /* peer slaves the last check saw */
	/* the node's budget chose this bond's retry now (linkcheck_retry.h):
	 * without it a retry due is only reported (lc_next.retry_at) */
	bool retry_go;
};

enum lc_step {
	LC_STEP_WAIT,        /* nothing to do now: look again at .at (0: on an event) */
	LC_STEP_FINISH,      /* end the running check and evaluate it */
	LC_STEP_RECHECK,     /* trigger the re-check (a peers' token, unless demand_wait) */
	LC_STEP_RETRY,       /* trigger the retry of a bond that heard no peer (a peers'
			      * token; the node's budget chose it: retry_go) */
	LC_STEP_SERVED,      /* the wishes were answered without a check: forget them */
	LC_STEP_WISH_PEER,   /* trigger the check owed to peers' wishes (a peers' token) */
	LC_STEP_WISH_STRANGER, /* ... to strangers' wishes (a strangers' token) */
	LC_STEP_START,       /* start the due check */
};

struct lc_next {
	enum lc_step step;
	int64_t at;          /* LC_STEP_WAIT: when to look again, 0: no timer */
	int64_t retry_at;    /* LC_STEP_WAIT: the retry is due by the bond's own
			      * rules then (lc_phase_retry_at), for the node's
			      * budget to weigh; not in .at.  0: none */
};

/*
 * The first thing to do at now, in this order: end a running check past
 * its deadline or complete; trigger a re-check that is due (no check
 * running or due: that one takes its place); trigger the retry of a bond
 * that heard no peer when the node's budget chose it (in->retry_go; it is
 * due: lc_phase_retry_at); forget wishes answered
 * meanwhile; trigger a check owed to wishes (lc_wish_at); start a due
 * check.  Else LC_STEP_WAIT with the earliest time any of these becomes
 * due.  The caller does the step, which changes the state, and asks
 * again until it is told to wait.
 */
struct lc_next lc_phase_next(const struct lc_phase_state *ps, int64_t now,
			     const struct lc_phase_in *in);

/* When the bond's retry is due by its own rules: its backoff's time
 * (lc_phase_checked), or later when the peers' bucket has no token then;
 * only while the bond is idle with no re-check set (a check running or due,
 * or the re-check, takes the retry's place).  0: no retry wanted. */
int64_t lc_phase_retry_at(const struct lc_phase_state *ps, int64_t now,
			  const struct lc_phase_in *in);

/* The phase's name (debug log, tests). */
const char *lc_phase_name(enum lc_phase p);

#endif
