/* SPDX-License-Identifier: MIT */
/* When the retry timer brings the next wake-up (retry_timer.h).  Pure. */
#include "retry_timer.h"

uint64_t earlier(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

uint64_t retry_next_ms(const struct retry_inputs *in, uint64_t now_ms)
{
	uint64_t next = earlier(in->holds_ms, in->unsettled_ms);

	next = earlier(next, in->udev_ms);
	next = earlier(next, in->trial_ms);
	if (in->stale)
		next = earlier(next, in->stale_retry_ms > now_ms ? in->stale_retry_ms : now_ms + 1);
	return next;
}
