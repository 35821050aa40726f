/* SPDX-License-Identifier: MIT */
/*
 * The link check's schedule as a state machine (linkcheck_phase.h): pure,
 * time passed in.
 */
#include "linkcheck_phase.h"

#include "linkcheck_io.h"

void lc_phase_enter(struct lc_phase_state *ps, enum lc_phase to, int64_t now,
		    int64_t deadline_ms)
{
	bool running = ps->phase == LC_PHASE_RUNNING;
	switch (to) {
	case LC_PHASE_OFF:
		ps->phase = LC_PHASE_OFF;
		ps->again = false;
		ps->alone_ms = 0;
		ps->alone_at_ms = 0;
		break;
	case LC_PHASE_IDLE:
		ps->phase = running && ps->again ? LC_PHASE_DUE : LC_PHASE_IDLE;
		ps->again = false;
		break;
	case LC_PHASE_DUE:
		if (running)
			ps->again = true;
		else if (ps->phase != LC_PHASE_OFF)
			ps->phase = LC_PHASE_DUE;
		break;
	case LC_PHASE_RUNNING:
		if (running) {
			if (deadline_ms > ps->deadline_ms)
				ps->deadline_ms = deadline_ms;
			break;
		}
		ps->phase = LC_PHASE_RUNNING;
		ps->again = false;
		ps->started_ms = ps->last_start_ms = now;
		ps->deadline_ms = deadline_ms;
		ps->alone_at_ms = 0; /* this check is the retry, or takes its place */
		break;
	}
}

int64_t lc_phase_checked(struct lc_phase_state *ps, int64_t now, bool sent, bool heard,
			 bool fresh, uint32_t jitter_ms)
{
	ps->alone_at_ms = 0;
	if (heard) {
		ps->alone_ms = 0;
		return 0;
	}
	if (!sent || ps->phase == LC_PHASE_OFF)
		return 0;
	if (fresh || !ps->alone_ms)
		ps->alone_ms = LC_ALONE_FIRST_MS;
	else
		ps->alone_ms = ps->alone_ms >= LC_ALONE_MAX_MS / 2 ? LC_ALONE_MAX_MS
								 : ps->alone_ms * 2;
	ps->alone_at_ms = now + ps->alone_ms + jitter_ms;
	return ps->alone_at_ms;
}

int64_t lc_phase_retry_at(const struct lc_phase_state *ps, int64_t now,
			  const struct lc_phase_in *in)
{
	if (!ps->alone_at_ms || ps->phase != LC_PHASE_IDLE || in->recheck_ms)
		return 0;
	/* due by its backoff, and a peers' token then (a re-check's bucket) */
	int64_t at = ps->alone_at_ms;
	if (in->token_ms[0] > now && in->token_ms[0] > at)
		at = in->token_ms[0];
	return at;
}

static int64_t earliest(int64_t a, int64_t b)
{
	return !a || (b && b < a) ? b : a;
}

struct lc_next lc_phase_next(const struct lc_phase_state *ps, int64_t now,
			     const struct lc_phase_in *in)
{
	int64_t wake = 0;
	if (ps->phase == LC_PHASE_OFF)
		return (struct lc_next){LC_STEP_WAIT, 0, 0};
	bool running = lc_phase_running(ps), due = lc_phase_due(ps);
	bool wished = in->wish[0].since_ms || in->wish[1].since_ms;

	if (running && (now >= ps->deadline_ms ||
			(now >= ps->started_ms + LC_MIN_WAIT_MS && in->complete)))
		return (struct lc_next){LC_STEP_FINISH, 0, 0};
	/* the re-check, unless a check is due or running anyway (it takes
	 * the re-check's place); one a client waits for takes no token */
	if (in->recheck_ms && !running && !due) {
		int64_t at = in->recheck_ms;
		if (at <= now && !in->demand_wait)
			at = in->token_ms[0];
		if (at <= now)
			return (struct lc_next){LC_STEP_RECHECK, 0, 0};
		wake = earliest(wake, at);
	}
	/* the retry of a bond that heard no peer: not while a check runs or
	 * is due, nor while a re-check is set (that check takes its place and
	 * its end sets the next retry); the node's budget says which bond's
	 * goes when (linkcheck_retry.h), so its time is no wake-up of the
	 * bond's own */
	int64_t retry_at = lc_phase_retry_at(ps, now, in);
	if (retry_at && retry_at <= now && in->retry_go)
		return (struct lc_next){LC_STEP_RETRY, 0, 0};
	/* wishes answered since (a check that runs or is due serves them,
	 * or its end shows whether the peers answered) */
	if (!running && !due && wished && !in->wishes_owed)
		return (struct lc_next){LC_STEP_SERVED, 0, 0};
	for (int k = 0; k < 2; k++) {
		int64_t at = in->wish[k].since_ms
				     ? lc_wish_at(&in->wish[k], running || due, ps->last_start_ms,
						  in->recheck_ms, in->peers, in->token_ms[k])
				     : 0;
		if (at && at <= now)
			return (struct lc_next){k ? LC_STEP_WISH_STRANGER : LC_STEP_WISH_PEER, 0, 0};
		wake = earliest(wake, at);
	}
	if (due && !running) {
		int64_t at = lc_start_at(ps->last_start_ms, now);
		if (at <= now)
			return (struct lc_next){LC_STEP_START, 0, 0};
		wake = earliest(wake, at);
	}
	if (running)
		wake = earliest(wake, lc_end_at(ps->started_ms, ps->deadline_ms, now));
	return (struct lc_next){LC_STEP_WAIT, wake, retry_at};
}

const char *lc_phase_name(enum lc_phase p)
{
	switch (p) {
	case LC_PHASE_OFF:
		return "off";
	case LC_PHASE_IDLE:
		return "idle";
	case LC_PHASE_DUE:
		return "due";
	case LC_PHASE_RUNNING:
		return "running";
	}
	return "?";
}
