/* SPDX-License-Identifier: MIT */
/* The clocks bondd reads (clock.h). */
#include "clock.h"

#include <time.h>

uint64_t clock_mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

uint64_t clock_mono_ms(void)
{
	return clock_mono_us() / 1000;
}

int64_t clock_wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t clock_backoff_ms(unsigned failures, uint64_t first_ms, uint64_t max_ms)
{
	uint64_t ms = first_ms;
	for (unsigned i = 1; i < failures && ms < max_ms; i++)
		ms *= 2;
	return ms < max_ms ? ms : max_ms;
}
