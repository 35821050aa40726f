/* SPDX-License-Identifier: MIT */
/*
 * Which link each slave entry names now (slave_selector.h): by name or
 * altname, by permanent MAC, by device path and port.  Pure: the links as
 * data in, the assignment out; the daemon then plans with today's names,
 * so a slave renamed while enslaved keeps its place.
 */
#ifndef BONDD_IDENTITY_H
#define BONDD_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "desired.h"
#include "observed.h"

enum identity_state {
	ID_FOUND,     /* one link answers to it */
	ID_MISSING,   /* none does: a missing slave */
	ID_AMBIGUOUS, /* several do (one device path, one port): none is taken */
	ID_CONFLICT,  /* its link answers to another entry too: a config error */
};

struct identity_match {
	enum identity_state state;
	int ifindex;            /* ID_FOUND, ID_CONFLICT: the link; else 0 */
	char name[IFNAMSIZ];    /* that link's name today; ID_AMBIGUOUS: the first */
	char other[IFNAMSIZ];   /* ID_AMBIGUOUS: a second link */
	/* ID_CONFLICT: the other entry that matches the same link (the
	 * first in config order; for the first, the second). */
	size_t other_bond, other_slave;
};

/* Whether link l answers to selector s. */
bool identity_selects(const struct slave_selector *s, const struct obs_link *l);

/* The slave entries of want, config order: the size of identity_match's out. */
size_t identity_count(const struct desired *want);

/*
 * out[k] for the k-th slave entry of want (bond by bond, slave by slave).
 * Links of kind "bond" answer to no mac: or path: selector.  0, or
 * -ENOMEM (out is then incomplete: plan nothing from it).
 */
int identity_match(const struct desired *want, const struct obs_link *links, size_t n_links,
		   struct identity_match *out);
/* The same into a new array of identity_count(want) entries (at least
 * one), for the caller to free; NULL when out of memory. */
struct identity_match *identity_match_new(const struct desired *want,
					  const struct obs_link *links, size_t n_links);

/*
 * Puts the assignment into want: each slave's name is its link's name
 * today (ifindex set), or while none answers, its placeholder (for an
 * ID_CONFLICT or ID_AMBIGUOUS plain name, a ":NAME" no link can have).
 * An ID_CONFLICT entry that had that very link before (ifindex) keeps
 * it: a conflict while running moves nothing, one in a new config (no
 * ifindex yet) takes nothing;
 * a primary given by selector follows its slave.  Returns how many
 * slaves' names changed.
 */
size_t identity_apply(struct desired *want, const struct identity_match *m);

/* Whether the entry (bond, slave) in conflict comes after the one it
 * conflicts with: the pair is reported once, there. */
bool identity_conflict_later(const struct identity_match *m, size_t bond, size_t slave);

/* A conflict as the config error it is, "FILE:LINE: ..." for both
 * entries, into buf; m is the k-th entry's match. */
void identity_conflict_text(const struct desired *want, const struct identity_match *m,
			    size_t bond, size_t slave, char *buf, size_t len);

#endif
