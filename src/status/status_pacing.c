/* SPDX-License-Identifier: MIT */
#include "status_pacing.h"

enum snap_step snap_pacing_step(const struct snap_pacing *p, int64_t now_ms, int64_t *at_ms)
{
	if (!p->wanted)
		return SNAP_NOTHING;
	bool fresh = p->have && !p->force && p->gen == p->snap_gen;
	int64_t gap = fresh ? SNAP_ANSWER_GAP_MS : SNAP_FORK_GAP_MS;
	int64_t last = fresh ? p->last_answer_ms : p->last_fork_ms;
	if (last && now_ms < last + gap) {
		*at_ms = last + gap;
		return SNAP_WAIT;
	}
	return fresh ? SNAP_SAME : SNAP_FORK;
}
