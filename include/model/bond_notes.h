/* SPDX-License-Identifier: MIT */
/*
 * A bond's notes (the planner's complaints it could not act on) and its
 * failing actions (the requests backing off now, in the kernel's words),
 * kept as data in its runtime record (runtime.h) and made into text only
 * where they are shown: the log, an event, --brief, --explain, --json and
 * health (bond_notes.c, pure).
 *
 * Each list is bounded: what does not fit is counted and said as "and N
 * more".  The text is the notes (or failures) joined with "; ", cut where
 * its buffer (BOND_NOTES_TEXT) is full, as the status views always showed
 * them.
 */
#ifndef BONDD_BOND_NOTES_H
#define BONDD_BOND_NOTES_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"

/* Both lists joined fit in this (the views' buffers). */
#define BOND_NOTES_TEXT 512

/* More notes than the text shows: the shortest, "a: exists and is not a
 * bond; ", takes 29 bytes of BOND_NOTES_TEXT, and a bond has a note for
 * each slave at most, and a few of its own. */
#define BOND_NOTES_MAX 20

/* One of the planner's notes about a bond (struct plan_note). */
struct bond_note {
	char ifname[IFNAMSIZ];    /* the link it is about (the bond or a slave) */
	char msg[sizeof(((struct plan_note *)0)->msg)]; /* the planner's words */
};

struct bond_notes {
	struct bond_note v[BOND_NOTES_MAX];
	size_t n;
	size_t more;              /* notes past the BOND_NOTES_MAX kept */
};

/* The notes of bond among the planner's v[0..n), in its order.  Pure. */
void bond_notes_of(struct bond_notes *out, const struct plan_note *v, size_t n,
		   const char *bond);
bool bond_notes_equal(const struct bond_notes *a, const struct bond_notes *b);
/* "eth1: enslaved to br0, not taking it; eth2: ..." into out, cut where it
 * is full; returns whether there is any note. */
bool bond_notes_text(const struct bond_notes *notes, char *out, size_t len);

/* The key of a failing action (plan_hold_key: "mtu eth1", "link eth2"). */
#define ACTION_FAILURE_KEY 80
/* One failure in words (action_failure_text), as last_error keeps it. */
#define ACTION_FAILURE_TEXT 320

/* How one request failed. */
struct action_failure {
	char key[ACTION_FAILURE_KEY]; /* what it sets on which object */
	char ifname[IFNAMSIZ];    /* the link it was sent for */
	int err;                  /* the errno the kernel answered (positive) */
	/* A value the kernel refuses as invalid (apply_error.h
	 * APPLY_ERR_CONFIG): the configuration must change. */
	bool config_error;
	int64_t since_ms;         /* wall clock of the first failure in a row */
	char words[224];          /* the executor's: what was refused, and why */
	char context[72];         /* what the kernel does not say, or "" */
};

/* More failures than the text shows: a failure's words say what was
 * refused and the kernel's reason, 40 bytes or more with its link. */
#define BOND_FAILING_MAX 12

struct bond_failing {
	struct action_failure v[BOND_FAILING_MAX];
	size_t n;
	size_t more;              /* failures past the BOND_FAILING_MAX kept */
};

/* "configuration error: eth1: MTU 9000 refused by the kernel: Invalid
 * argument (the device's max MTU is 1500)", cut at len (at most
 * ACTION_FAILURE_TEXT); returns out. */
const char *action_failure_text(const struct action_failure *f, char *out, size_t len);
/* Adds f: kept while there is room, else counted in more. */
void bond_failing_add(struct bond_failing *list, const struct action_failure *f);
/* Each failure's text (action_failure_text) joined with "; " into out,
 * cut where it is full; returns whether there is any failure. */
bool bond_failing_text(const struct bond_failing *list, char *out, size_t len);

/* Every field the same (the strings up to their ends; a field added to
 * struct action_failure is compared here too).  Pure. */
bool action_failure_equal(const struct action_failure *a, const struct action_failure *b);

/*
 * Whether the failures a list would be made of, given one by one in the
 * order bond_failing_add would take them, make a list equal to `was`,
 * without making it: each kept one is compared with was's entry in its
 * place, those past BOND_FAILING_MAX are only counted (as the text says
 * them).  For the one who stores the list only when it changes
 * (report_failing): a bond with no failure before or now costs no write.
 * Pure.
 */
struct bond_failing_diff {
	const struct bond_failing *was;
	size_t seen;              /* failures given so far */
	bool differs;             /* one kept differs from was's in its place */
};

void bond_failing_diff_start(struct bond_failing_diff *d, const struct bond_failing *was);
void bond_failing_diff_add(struct bond_failing_diff *d, const struct action_failure *f);
/* After the last: whether the list they make differs from `was`. */
bool bond_failing_diff_changed(const struct bond_failing_diff *d);

#endif
