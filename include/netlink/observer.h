/* SPDX-License-Identifier: MIT */
/*
 * The observer keeps `struct observed` equal to the kernel: one dump of
 * links and addresses, then RTNLGRP_LINK and address events.  When the
 * event socket overflows (ENOBUFS) events were lost, so it dumps again
 * rather than trust a partial stream.
 */
#ifndef BONDD_OBSERVER_H
#define BONDD_OBSERVER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_caps.h"
#include "nlsock.h"
#include "observed.h"

/* Called for every link that appears, changes or goes (old or new NULL). */
typedef void (*observer_change_cb)(void *ctx, const struct obs_link *old,
				   const struct obs_link *new_link);

/* Called for every address event (ifindex: its link) and every route
 * event (ifindex 0), after the state took it; optional. */
typedef void (*observer_touch_cb)(void *ctx, int ifindex);

struct observer {
	struct nlsock events;         /* subscribed socket, read when poll says so */
	struct nlsock dump;           /* for dumps */
	struct observed state;
	const char *proc_dir;     /* "/proc/net/bonding" */
	observer_change_cb on_change;
	observer_touch_cb on_touch;  /* NULL: none */
	void *ctx;
	unsigned long resyncs;    /* full re-reads after lost events */
	unsigned long dumps_interrupted; /* dumps the kernel flagged NLM_F_DUMP_INTR */
	unsigned long foreign_family;    /* link messages ignored: not AF_UNSPEC */
	struct kernel_caps caps;  /* which IFLA_BOND_* this kernel reports to us */
	/* A failed re-read leaves a picture that may be stale: since when
	 * (wall clock ms, 0 while the last re-read worked), why, and when to
	 * try again (monotonic ms, backing off). */
	int64_t stale_since_ms;
	int stale_err;
	unsigned stale_failures;
	uint64_t retry_at_ms;
};

/* Backoff between failed re-reads: 100 ms, doubling, at most 5 s. */
#define OBSERVER_RETRY_FIRST_MS 100
#define OBSERVER_RETRY_MAX_MS 5000

/* An interrupted dump is taken again up to this many times in a row; then
 * observer_sync fails with -EINTR and the caller retries later. */
#define OBSERVER_DUMP_TRIES 8

/* The event socket's receive buffer unless told otherwise. */
#define OBSERVER_RCVBUF (4 << 20)

/* rcvbuf > 0 sets the event socket's buffer (tests shrink it to provoke
 * ENOBUFS); 0 means OBSERVER_RCVBUF. */
int observer_open(struct observer *ob, int rcvbuf, observer_change_cb cb, void *ctx);
void observer_close(struct observer *ob);
/* One dump of the links, only to learn what this kernel reports; 0 or -errno. */
int observer_learn_caps(struct kernel_caps *out);
int observer_fd(const struct observer *ob);

/* Re-reads everything from the kernel; change callbacks fire for differences.
 * A failure is recorded in stale_* and retry_at_ms, a success clears them. */
int observer_sync(struct observer *ob);


/* Throws away queued events (they may predate a loss) and re-reads
 * everything; counts as a resync. */
int observer_resync(struct observer *ob);

/*
 * Reads every event waiting on the socket without blocking and applies it.
 * On ENOBUFS re-reads everything.  Returns the number of messages applied
 * (> 0 means the state may have changed), or -errno.
 */
int observer_drain(struct observer *ob);

#endif
