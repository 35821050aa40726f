/* SPDX-License-Identifier: MIT */
/* The clocks bondd reads: monotonic for every timer and backoff, the wall
 * clock only for times shown to people. */
#ifndef BONDD_CLOCK_H
#define BONDD_CLOCK_H

#include <stdint.h>

uint64_t clock_mono_us(void);  /* CLOCK_MONOTONIC, microseconds */
uint64_t clock_mono_ms(void);  /* CLOCK_MONOTONIC, milliseconds */
int64_t clock_wall_ms(void);   /* CLOCK_REALTIME, ms since the epoch */

/* The wait after the `failures`-th failure in a row: first_ms, doubled for
 * each failure after the first, at most max_ms. */
uint64_t clock_backoff_ms(unsigned failures, uint64_t first_ms, uint64_t max_ms);

/* A one-shot timerfd (made with CLOCK_MONOTONIC) armed to fire IN_MS from
 * now, and one nanosecond: an all-zero it_value would disarm it instead
 * (fs/timerfd.c do_timerfd_settime, via hrtimer: "it_value zero disarms"
 * in timerfd_settime(2)), so 0 or less fires at once.  0 or -errno. */
int clock_timer_in(int fd, int64_t in_ms);

/* The same at AT_MS, an absolute CLOCK_MONOTONIC time in ms such as
 * clock_mono_ms gives (TFD_TIMER_ABSTIME; a time past fires at once); it
 * must be more than 0. */
int clock_timer_at(int fd, int64_t at_ms);

/* Disarms it.  0 or -errno. */
int clock_timer_off(int fd);

/* Takes what a non-blocking timerfd has to say once it fired: the number
 * of expirations since the last read, all of them in one read (fs/timerfd.c
 * timerfd_read), or 0 when it has not fired (EAGAIN). */
uint64_t clock_timer_take(int fd);

#endif
