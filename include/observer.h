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

#include "nlsock.h"
#include "observed.h"

/* Called for every link that appears, changes or goes (old or new NULL). */
typedef void (*observer_change_cb)(void *ctx, const struct obs_link *old,
				   const struct obs_link *new_link);

struct observer {
	struct nlsock events;         /* subscribed socket, read when poll says so */
	struct nlsock dump;           /* for dumps */
	struct observed state;
	const char *proc_dir;     /* "/proc/net/bonding" */
	observer_change_cb on_change;
	void *ctx;
	unsigned long resyncs;    /* full re-reads after lost events */
};

/* The event socket's receive buffer unless told otherwise. */
#define OBSERVER_RCVBUF (4 << 20)

/* rcvbuf > 0 sets the event socket's buffer (tests shrink it to provoke
 * ENOBUFS); 0 means OBSERVER_RCVBUF. */
int observer_open(struct observer *ob, int rcvbuf, observer_change_cb cb, void *ctx);
void observer_close(struct observer *ob);
int observer_fd(const struct observer *ob);

/* Re-reads everything from the kernel; change callbacks fire for differences. */
int observer_sync(struct observer *ob);

/* Asks the kernel for one link now (its counters move without events);
 * 0 or -errno.  Does not touch the observed state. */
int observer_fetch_link(struct observer *ob, int ifindex, struct obs_link *out);

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
