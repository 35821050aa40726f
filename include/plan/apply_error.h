/* SPDX-License-Identifier: MIT */
/*
 * What a kernel error on one action of a plan means for what bondd does
 * next.  Pure: the daemon sends, this decides (daemon_apply.c acts on it).
 */
#ifndef BONDD_APPLY_ERROR_H
#define BONDD_APPLY_ERROR_H

#include <stdbool.h>

#include "action.h"

enum apply_error_kind {
	/* The link went away between the observation and the request: not
	 * a refusal, the next pass sees the truth.  No backoff, no error. */
	APPLY_ERR_GONE,
	/* An enslave refused because another rx_handler holds the link: not
	 * tried again until the link is re-created or bondd reloads. */
	APPLY_ERR_IN_USE,
	/* A value the kernel refuses as invalid or out of range: refused on
	 * every retry, the config must change.  Retried with backoff. */
	APPLY_ERR_CONFIG,
	/* Anything else: retried with backoff. */
	APPLY_ERR_RETRY,
};

struct apply_error {
	enum apply_error_kind kind;
	/* The rest of the bond's plan assumed this action succeeded: drop it
	 * and plan again from what is real. */
	bool stops_bond;
	/* An enslave failed after bondd set the link down for it: put it up. */
	bool restore_up;
};

/* err: the negative errno the kernel answered to action a. */
struct apply_error apply_error_meaning(const struct action *a, int err);

#endif
