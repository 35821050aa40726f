/* SPDX-License-Identifier: MIT */
/* The clocks bondd reads (clock.h). */
#include "clock.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>
#include <sys/timerfd.h>

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

static int timer_set(int fd, int flags, int64_t sec, long nsec)
{
	struct itimerspec its = {0};

	its.it_value.tv_sec = (time_t)sec;
	its.it_value.tv_nsec = nsec;
	return timerfd_settime(fd, flags, &its, NULL) < 0 ? -errno : 0;
}

int clock_timer_in(int fd, int64_t in_ms)
{
	if (in_ms < 0)
		in_ms = 0;
	return timer_set(fd, 0, in_ms / 1000, (long)(in_ms % 1000) * 1000000L + 1);
}

int clock_timer_at(int fd, int64_t at_ms)
{
	return timer_set(fd, TFD_TIMER_ABSTIME, at_ms / 1000, (long)(at_ms % 1000) * 1000000L);
}

int clock_timer_off(int fd)
{
	return timer_set(fd, 0, 0, 0);
}

uint64_t clock_timer_take(int fd)
{
	uint64_t ticks;

	return read(fd, &ticks, sizeof(ticks)) == sizeof(ticks) ? ticks : 0;
}
