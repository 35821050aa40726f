/* SPDX-License-Identifier: MIT */
/*
 * The facts a reload on trial is judged by (trial.h), read from bondd's
 * picture of the kernel: before the trial and now, per bond of the tried
 * configuration.  Pure: the observed links in, the facts out
 * (daemon_trial.c gathers them and adds the link check's paths).
 */
#ifndef BONDD_TRIAL_FACTS_H
#define BONDD_TRIAL_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "observed.h"
#include "trial.h"

/* b's facts before the trial: f's name, existed, was_up, slaves_before. */
void trial_facts_before(struct trial_bond *f, const struct desired_bond *b,
			const struct observed *o);

/* f's facts now: exists, up, slaves (b: the bond as configured now, NULL
 * when the running configuration lacks it: none of its slaves count). */
void trial_facts_now(struct trial_bond *f, const struct desired_bond *b,
		     const struct observed *o);

/* The paths still proven, slave by slave: at most as many as each had
 * before (new paths of one slave do not make up for another's). */
unsigned trial_paths_kept(const uint16_t *before, const unsigned *now, size_t n);

/* What the grace before judging depends on (trial_grace_ms): the longest
 * updelay of the bonds of next, and whether one is 802.3ad. */
void trial_grace_inputs(const struct desired *next, uint32_t *updelay, bool *lacp);

#endif
