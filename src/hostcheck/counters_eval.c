/* SPDX-License-Identifier: MIT */
/*
 * The slaves' error counters judged side by side (counters_eval.h).
 *
 * Only a difference between siblings is a finding: errors on every slave
 * at once come from what they share (the peer, a congested switch, the
 * host) and the link check and the host check speak to those.  A slave
 * whose counters went backwards was re-created (a driver reload resets
 * them): it is not judged until it has two looks of its own.
 */
#include "counters_eval.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Growth of the counter `field` of slave i between the looks, or -1 when
 * it is not known at both or went backwards. */
static int64_t growth(const struct slave_counts *then, const struct slave_counts *now,
		      size_t i, bool drops)
{
	if (!then[i].known || !now[i].known || strcmp(then[i].name, now[i].name) != 0)
		return -1;
	uint64_t a = drops ? then[i].drops : then[i].errors;
	uint64_t b = drops ? now[i].drops : now[i].errors;
	if (b < a || then[i].crc > now[i].crc)
		return -1;
	return b - a > INT64_MAX ? INT64_MAX : (int64_t)(b - a);
}

/* Whether slave i's growth g stands alone: at least one sibling known at
 * both looks, and each grew by less than g / COUNTERS_SIBLING_RATIO. */
static bool alone(const struct slave_counts *then, const struct slave_counts *now, size_t n,
		  size_t i, bool drops, int64_t g)
{
	size_t siblings = 0;

	for (size_t j = 0; j < n; j++) {
		if (j == i)
			continue;
		int64_t h = growth(then, now, j, drops);
		if (h < 0)
			continue;
		siblings++;
		if (h * COUNTERS_SIBLING_RATIO >= g)
			return false;
	}
	return siblings > 0;
}

int counters_eval(const char *bond, const struct slave_counts *then,
		  const struct slave_counts *now, size_t n, unsigned secs, struct findings *out)
{
	for (size_t i = 0; i < n; i++) {
		int64_t errs = growth(then, now, i, false), drops = growth(then, now, i, true);
		bool bad_errs = errs >= COUNTERS_MIN_GROWTH && alone(then, now, n, i, false, errs);
		bool bad_drops = drops >= COUNTERS_MIN_GROWTH && alone(then, now, n, i, true, drops);
		if (!bad_errs && !bad_drops)
			continue;
		struct finding *x = findings_add(out, FSRC_COUNTERS, FSEV_DEGRADED, FK_SLAVE_ERRORS,
						 bond);
		if (!x)
			return -ENOMEM;
		finding_add_slave(x, now[i].name);
		char what[128];
		if (bad_errs && bad_drops)
			snprintf(what, sizeof(what), "%lld errors (%llu CRC) and %lld drops",
				 (long long)errs, (unsigned long long)(now[i].crc - then[i].crc),
				 (long long)drops);
		else if (bad_errs)
			snprintf(what, sizeof(what), "%lld errors (%llu CRC)", (long long)errs,
				 (unsigned long long)(now[i].crc - then[i].crc));
		else
			snprintf(what, sizeof(what), "%lld drops", (long long)drops);
		snprintf(x->evidence, sizeof(x->evidence),
			 "%s had %s in %u s while its sibling%s had less than a tenth of that",
			 now[i].name, what, secs, n > 2 ? "s" : "");
		snprintf(x->fix, sizeof(x->fix),
			 bad_errs ? "check %s's cable, transceiver and switch port (CRC errors: "
				    "the cable or optic; other errors: the NIC or its driver)"
				  : "check %s's switch port and NIC: drops on one slave alone "
				    "(a full receive ring, a port that discards)",
			 now[i].name);
	}
	return 0;
}

int counters_eval_all(const struct desired *want, const struct slave_counts *then,
		      size_t n_then, const struct slave_counts *now, size_t n, unsigned secs,
		      struct findings *out)
{
	struct findings next = {0};
	int err = 0;

	if (!then || n_then != n) {
		findings_clear(out);
		return 0;
	}
	for (size_t i = 0, k = 0; i < want->n_bonds && !err; i++) {
		const struct desired_bond *b = &want->bonds[i];
		if (!b->absent)
			err = counters_eval(b->name, then + k, now + k, b->n_slaves, secs, &next);
		k += b->n_slaves;
	}
	if (!err) {
		findings_free(out);
		*out = next;
		next = (struct findings){0};
	}
	findings_free(&next); /* what an error left */
	return err;
}
