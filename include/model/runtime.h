/* SPDX-License-Identifier: MIT */
/*
 * What bondd itself saw and did for each configured bond and link: counters
 * and last errors that neither the config nor the kernel holds.  Plain
 * data, written by the daemon, read by the status renderers.
 */
#ifndef BONDD_RUNTIME_H
#define BONDD_RUNTIME_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "action_reasons.h"
#include "bond_notes.h"
#include "uppers.h"

/* One configured link: a bond or a slave. */
struct link_runtime {
	char name[IFNAMSIZ];
	char bond[IFNAMSIZ];          /* the configured bond it belongs to */
	unsigned long carrier_losses; /* carrier up -> down transitions seen */
	int64_t last_flap_ms;         /* wall clock of the last carrier change, 0: none */
	/* Speed and duplex change only with a new link or a carrier change:
	 * read from sysfs when a status reply needs them and they are stale. */
	bool speed_fresh;
	bool host_due;                /* its NIC to be read again by the host check */
	int mbps;                     /* -1: unknown */
	char duplex[16];
};

/* What health shows of failing while refused. */
#define BOND_REFUSED_SHOWN 191

/* The unsettled reasons joined (action_reasons_text) fit in this. */
#define BOND_UNSETTLED_WHY_TEXT 96

/* One configured bond. */
struct bond_runtime {
	char name[IFNAMSIZ];
	unsigned long actions;        /* kernel requests made on its behalf */
	unsigned long errors;         /* ... that failed */
	char last_error[ACTION_FAILURE_TEXT]; /* the last failure, action_failure_text */
	int64_t last_error_ms;        /* wall clock, 0: none */
	struct bond_notes notes;      /* the planner's current complaints */
	/* Why it still differs after the daemon's last wake-up and is being
	 * retried on a timer (passes 0 when the last wake-up left it as
	 * configured): said in words by health (bond_view.c). */
	struct bond_unsettled {
		unsigned passes;                 /* the pass limit it ended at */
		unsigned long long retry_ms;     /* retried every ... */
		struct action_reasons why;       /* its actions' reasons */
	} unsettled;
	bool was_healthy;             /* whole after bondd's last pass */
	struct bond_failing failing;  /* actions backing off now, in the kernel's words */
	/* Something bondd still has to do for it was refused and backs off
	 * (a fresh plan without holds is not empty): health says the bond is
	 * degraded, and why in the kernel's words, the first
	 * BOND_REFUSED_SHOWN bytes of failing's text (bond_failing_text). */
	bool refused;
	/* The health last logged (enum status_health), for the journal's one
	 * line per change; health_logged false: none yet. */
	bool health_logged;
	int health;
	/* Its uppers as last seen, and those the kernel took with it when it
	 * was deleted and that are not back (uppers.h); health says so. */
	struct uppers_memory uppers;
	/* Why, as last judged ("" when healthy): STATUS= names every bond
	 * but judges again only those a wake-up touched. */
	char health_why[160];
};

#endif
