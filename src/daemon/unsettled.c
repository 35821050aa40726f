/* SPDX-License-Identifier: MIT */
/* When bondd tries again after an unsettled wake-up (unsettled.h).  Pure. */
#include "unsettled.h"

#include "clock.h"

struct unsettled_step unsettled_step_of(bool now_unsettled, bool others,
					const struct unsettled_step *was, uint64_t now_ms)
{
	struct unsettled_step s = *was;

	s.backoff_ms = UNSETTLED_FIRST_MS;
	if (!now_unsettled && !others) {
		s.in_a_row = 0;
		s.retry_at_ms = 0;
	} else if (now_unsettled) {
		s.in_a_row++;
		s.backoff_ms = clock_backoff_ms(s.in_a_row, UNSETTLED_FIRST_MS, UNSETTLED_MAX_MS);
		s.retry_at_ms = now_ms + s.backoff_ms;
	}
	return s;
}
