/* SPDX-License-Identifier: MIT */
/*
 * A reload on trial (bondd-status --reload --try SECONDS; bondd(8), RELOAD
 * ON TRIAL): the file is applied as any reload applies it, the
 * configuration that ran before is kept, and unless a confirm arrives
 * before the deadline bondd puts that one back.  A trial that leaves a
 * bond missing, down or without slaves, or that loses paths the link check
 * had proven under the previous configuration, is put back at once, once
 * the bonds had time to settle.
 *
 * This is the decision alone: the trial's times and the facts bondd
 * observed of each bond in, what to do out.  Pure, time passed in (like
 * holds.h), unit-tested with a table of cases (tests/unit/test_trial.c).
 */
#ifndef BONDD_TRIAL_H
#define BONDD_TRIAL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The seconds a trial may be given. */
#define TRIAL_MIN_S 1
#define TRIAL_MAX_S 3600
/* Before the bonds are judged: a bond re-built or given new slaves needs a
 * moment for its carrier (bond_set_carrier in drivers/net/bonding/
 * bond_main.c follows its slaves' link state, which the MII monitor
 * updates every miimon ms) ... */
#define TRIAL_SETTLE_MS 3000
/* ... plus, for a slave that comes up, the bond's updelay (bond_enslave
 * and bond_miimon_inspect in bond_main.c keep a new slave in
 * BOND_LINK_BACK for updelay before it counts) ... */
/* ... plus, in 802.3ad, the aggregator selection: bond_3ad_initiate_agg_
 * selection in drivers/net/bonding/bond_3ad.c waits
 * AD_AGGREGATOR_SELECTION_TIMER (8 s) after the bond comes up before an
 * aggregator (and so the bond's carrier) is chosen. */
#define TRIAL_LACP_SETTLE_MS 10000

/*
 * How long the bonds of a trial are given before they are judged: the
 * settle time, plus the largest updelay (ms) of its bonds, plus the
 * aggregator selection when one is in 802.3ad; never past the deadline
 * (seconds: the trial's length), where the trial ends anyway.
 */
uint32_t trial_grace_ms(uint32_t max_updelay_ms, bool any_8023ad, uint32_t seconds);

/* What is known of one bond of the tried configuration (not one it
 * retires with state = absent: deleting it is what was asked). */
struct trial_bond {
	char name[IFNAMSIZ];
	/* Before the trial (under the previous configuration; for a bond
	 * the previous one did not manage, as the kernel had it). */
	bool existed;          /* the bond was in the kernel */
	bool was_up;           /* ... administratively up with carrier */
	unsigned slaves_before; /* ... with this many slaves enslaved */
	/* The link check's paths (a local slave and a peer slave that
	 * answered at every size sent) of the slaves the tried configuration
	 * keeps: proven under the previous configuration (0: none, or the
	 * link check is off), and of those, still proven now.  A slave the
	 * trial removes takes its paths with it on purpose: not counted. */
	unsigned paths_before;
	/* Now. */
	bool exists;
	bool up;               /* IFF_UP and IFF_LOWER_UP */
	unsigned slaves;       /* enslaved now */
	bool paths_judged;     /* a link check that began after the trial
				* began has ended */
	unsigned paths;        /* ... and proved this many of paths_before
				* (at most that many counted per slave) */
};

enum trial_reason {
	TRIAL_NO_REASON,
	TRIAL_DEADLINE,        /* no confirm before the deadline */
	TRIAL_BOND_MISSING,    /* a bond that was there (or is new) is gone */
	TRIAL_NO_SLAVES,       /* a bond with slaves before (or new) has none */
	TRIAL_BOND_DOWN,       /* a bond that was up (or is new) has no carrier,
				* or is administratively down */
	TRIAL_PATHS_LOST,      /* the link check proves fewer paths than
				* before the trial */
};

enum trial_action {
	TRIAL_WAIT,            /* keep the tried configuration; judge again */
	TRIAL_KEEP,            /* confirmed: the tried configuration stays */
	TRIAL_ROLL_BACK,       /* put the previous configuration back now */
};

struct trial_verdict {
	enum trial_action action;
	enum trial_reason reason; /* TRIAL_ROLL_BACK: why */
	size_t bond;              /* ... the bond (index into the facts) for
				   * the reasons about one */
	int64_t next_ms;          /* TRIAL_WAIT: judge again at the latest then
				   * (the end of the grace, or the deadline) */
};

/*
 * The decision.  now_ms, settle_ms (the trial's start + trial_grace_ms)
 * and deadline_ms on one clock (monotonic); confirmed: a confirm arrived.
 * A confirm wins over everything (the admin has looked); before settle_ms
 * no bond is judged; after it the first bond (in the order given) that
 * the trial left missing, without slaves, down, or with fewer proven
 * paths ends it; at the deadline it ends.  A bond the trial found already
 * missing, down or slaveless (a cable pulled before) is not held against
 * it; a bond new in the trial must come up.
 */
struct trial_verdict trial_judge(bool confirmed, int64_t now_ms, int64_t settle_ms,
				 int64_t deadline_ms,
				 const struct trial_bond *bonds, size_t n);

/* "the deadline passed without a confirm", "bond0 is down", ...: the
 * reason in words (bond: the facts' bond for the reasons about one). */
void trial_reason_text(enum trial_reason reason, const struct trial_bond *bond, char *out,
		       size_t len);

#endif
