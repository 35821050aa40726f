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

#endif
