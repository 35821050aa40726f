/* SPDX-License-Identifier: MIT */
/* A reload on trial: keep waiting, keep, or put back (trial.h).  Pure. */
#include "trial.h"

#include <stdio.h>

uint32_t trial_grace_ms(uint32_t max_updelay_ms, bool any_8023ad, uint32_t seconds)
{
	uint64_t grace = TRIAL_SETTLE_MS + (uint64_t)max_updelay_ms +
			 (any_8023ad ? TRIAL_LACP_SETTLE_MS : 0);
	uint64_t whole = (uint64_t)seconds * 1000;

	return (uint32_t)(grace < whole ? grace : whole);
}

/* The first thing the trial broke in b, or TRIAL_NO_REASON. */
static enum trial_reason judge_bond(const struct trial_bond *b)
{
	/* A bond new in the trial is held to the same standard as one that
	 * was whole: the trial made it, so it must work. */
	bool fresh = !b->existed;

	if (!b->exists)
		return TRIAL_BOND_MISSING;
	if (b->slaves == 0 && (fresh || b->slaves_before > 0))
		return TRIAL_NO_SLAVES;
	if (!b->up && (fresh || b->was_up))
		return TRIAL_BOND_DOWN;
	if (b->paths_judged && b->paths < b->paths_before)
		return TRIAL_PATHS_LOST;
	return TRIAL_NO_REASON;
}

struct trial_verdict trial_judge(bool confirmed, int64_t now_ms, int64_t settle_ms,
				 int64_t deadline_ms,
				 const struct trial_bond *bonds, size_t n)
{
	struct trial_verdict v = {.action = TRIAL_WAIT};

	if (confirmed) {
		v.action = TRIAL_KEEP;
		return v;
	}
	if (now_ms >= settle_ms) {
		for (size_t i = 0; i < n; i++) {
			enum trial_reason r = judge_bond(&bonds[i]);
			if (r != TRIAL_NO_REASON) {
				v.action = TRIAL_ROLL_BACK;
				v.reason = r;
				v.bond = i;
				return v;
			}
		}
	}
	if (now_ms >= deadline_ms) {
		v.action = TRIAL_ROLL_BACK;
		v.reason = TRIAL_DEADLINE;
		return v;
	}
	v.next_ms = now_ms < settle_ms && settle_ms < deadline_ms ? settle_ms : deadline_ms;
	return v;
}

void trial_reason_text(enum trial_reason reason, const struct trial_bond *b, char *out,
		       size_t len)
{
	const char *name = b ? b->name : "?";

	switch (reason) {
	case TRIAL_NO_REASON:
		snprintf(out, len, "nothing went wrong");
		return;
	case TRIAL_DEADLINE:
		snprintf(out, len, "no confirm before the deadline");
		return;
	case TRIAL_BOND_MISSING:
		snprintf(out, len, "%s is missing", name);
		return;
	case TRIAL_NO_SLAVES:
		snprintf(out, len, "%s has no slaves", name);
		return;
	case TRIAL_BOND_DOWN:
		snprintf(out, len, "%s is down", name);
		return;
	case TRIAL_PATHS_LOST:
		snprintf(out, len, "the link check proves %u path%s of %s, %u before the trial",
			 b ? b->paths : 0, b && b->paths == 1 ? "" : "s", name,
			 b ? b->paths_before : 0);
		return;
	}
	snprintf(out, len, "?");
}
