/* SPDX-License-Identifier: MIT */
/*
 * The reasons of one bond's actions (action.why), each once, in plan
 * order: kept as data (pointers to the planner's static texts) and joined
 * into text only where they are shown (a log line, an event, health).
 */
#ifndef BONDD_ACTION_REASONS_H
#define BONDD_ACTION_REASONS_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"

/* More than every reason the planner has (about 20 texts), and more
 * (link, reason) pairs than the longest text that shows them holds: the
 * shortest pair, "a: mac, ", takes 8 bytes of a 160-byte line. */
#define ACTION_REASONS_MAX 32

struct action_reasons {
	const char *why[ACTION_REASONS_MAX];    /* static texts (action.why) */
	/* With by_link: the link of each, pointing into the plan (joined
	 * before the plan changes); NULL without. */
	const char *ifname[ACTION_REASONS_MAX];
	size_t n;
};

/*
 * The distinct reasons of bond's actions among v[0..n): by reason alone
 * (by_link false: actions without one are skipped; the result may be kept,
 * it points only at static texts), or by link and reason (an action
 * without one counts as "drift").  Pure.
 */
void action_reasons_of(struct action_reasons *out, const struct action *v, size_t n,
		       const char *bond, bool by_link);

/* Joined with ", " ("mac, order" or "eth0: mac, eth1: order") into out,
 * cut where it is full; returns whether there was any. */
bool action_reasons_text(const struct action_reasons *r, char *out, size_t len);

#endif
