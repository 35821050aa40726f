/* SPDX-License-Identifier: MIT */
/*
 * When the loop's retry timer brings the next wake-up (retry_timer.c,
 * pure): the earliest of what is due, each time passed in on one clock
 * (monotonic ms, 0: none).  The loop arms the timer for it (daemon.c
 * arm_retry).
 */
#ifndef BONDD_RETRY_TIMER_H
#define BONDD_RETRY_TIMER_H

#include <stdbool.h>
#include <stdint.h>

struct retry_inputs {
	uint64_t holds_ms;        /* the holds' next expiry (holds_next_expiry) */
	uint64_t unsettled_ms;    /* the retry of bonds still differing (unsettled.h) */
	uint64_t udev_ms;         /* a link waiting for udev (udev_wait_next_ms) */
	uint64_t trial_ms;        /* a trial's next judgement (trial_next_ms) */
	bool stale;               /* a re-read of the links failed ... */
	uint64_t stale_retry_ms;  /* ... and is tried again then */
};

/* The earlier of two wake-up times, 0 meaning none. */
uint64_t earlier(uint64_t a, uint64_t b);

/* The next wake-up (0: none).  A failed re-read is retried at its time,
 * or at once (now + 1) when that has passed: never left for the next
 * event, which may not come. */
uint64_t retry_next_ms(const struct retry_inputs *in, uint64_t now_ms);

#endif
