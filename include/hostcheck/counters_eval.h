/* SPDX-License-Identifier: MIT */
/*
 * The slaves' error counters judged side by side: a slave whose errors or
 * drops grow between two looks while its siblings' stay still is a cable,
 * transceiver or switch port going bad (the field reports' usual cause of
 * retransmits on a striped stream).  Pure: the daemon reads the counters
 * (daemon.c, counters_look) and passes two looks in, with their times.
 */
#ifndef BONDD_COUNTERS_EVAL_H
#define BONDD_COUNTERS_EVAL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "findings.h"

/* Growth below this in one look is noise (one bad frame at link-up, an
 * ARP a switch dropped): no finding. */
#define COUNTERS_MIN_GROWTH 10
/* A sibling whose growth is at least this fraction (1/N) of the slave's
 * shares the cause (a congested switch, the peer): no finding. */
#define COUNTERS_SIBLING_RATIO 10

/* One slave's counters at one look; known false when they could not be
 * read (no such link, out of the reply's time budget). */
struct slave_counts {
	char name[IFNAMSIZ];
	bool known;
	uint64_t errors;     /* rx_errors + tx_errors (CRC errors are in rx_errors) */
	uint64_t crc;        /* rx_crc_errors, for the evidence */
	uint64_t drops;      /* rx_dropped (missed included) + tx_dropped */
};

/*
 * Compares one bond's slaves at two looks, `then` and `now` (both in the
 * bond's configured order, n each, the same names), `secs` apart, and
 * appends to out (source FSRC_COUNTERS, kind FK_SLAVE_ERRORS, degraded)
 * one finding per slave whose errors or drops grew by at least
 * COUNTERS_MIN_GROWTH while every sibling known at both looks grew by less
 * than 1/COUNTERS_SIBLING_RATIO of that.  A slave alone, or one whose
 * counters went backwards (a device re-created), is not judged.  0 or
 * -ENOMEM.
 */
int counters_eval(const char *bond, const struct slave_counts *then,
		  const struct slave_counts *now, size_t n, unsigned secs, struct findings *out);

/*
 * Every bond of want at two looks: its slaves' counts one after another in
 * config order (n in all, as many as want's bonds have slaves), then
 * n_then of them, the look before, secs earlier.  *out (the last findings)
 * is replaced by counters_eval's for each bond not absent when the two
 * looks are of the same slaves (n_then == n); with no look before, or one
 * of another configuration, it is emptied: nothing to compare yet.  0, or
 * -ENOMEM with *out as it was.
 */
int counters_eval_all(const struct desired *want, const struct slave_counts *then,
		      size_t n_then, const struct slave_counts *now, size_t n, unsigned secs,
		      struct findings *out);

#endif
