/* SPDX-License-Identifier: MIT */
/*
 * The link check's I/O: one packet socket per probed slave (AF_PACKET,
 * EtherType 0x88B5, bound to the slave's ifindex), a timer for the end of
 * a check and for checks the rate limit delayed, all in an epoll set of its
 * own that the daemon's loop watches as one fd.  Nothing runs on a timer
 * while nothing happens: a check is a burst of requests, a wait for answers
 * (LC_WAIT_MS at most) and one evaluation (linkcheck.h), started by
 *   - a slave becoming ready to probe (enslaved, up, carrier): at start, a
 *     slave that joins or is re-created, a carrier that returns;
 *   - a reload;
 *   - a request on the status socket (bondd-status --link-check);
 *   - a peer's request that asks to be probed back and shows what the last
 *     check did not: owed a check until one starts, at most one per
 *     LC_PEER_WINDOW_MS (linkcheck_settle.h lc_wish); every such request is answered with an echo (one small request per
 *     slave to that peer alone, which no one answers), so that a check's
 *     cost to the cluster grows with its hosts, not with their square.
 * Rate limits (bondd.conf(5)): per slave, its events take a token from a
 * bucket of LC_BURST that refills one per LC_REFILL_MS (an event without a
 * token is remembered and checked when one is there); per bond, peers'
 * requests to probe back take a token from a bucket of the same size (a
 * wish without a token waits for one), and no two checks start within LC_MIN_GAP_MS (on demand
 * too); per slave, at most LC_ANSWER_BURST answers a second, and apart
 * from those lc_answer_budget (growing with the peer slaves heard) to peer
 * slaves that answered its own requests (so that stations that never
 * answer cannot use the budget up for the real peers).
 */
#ifndef BONDD_LINKCHECK_IO_H
#define BONDD_LINKCHECK_IO_H

#include <stdbool.h>

#include "desired.h"
#include "findings.h"
#include "linkcheck.h"
#include "observed.h"

/* The longest wait for answers.  A check ends sooner, as soon as every
 * peer slave that answered the check before, or whose requests arrived,
 * has answered every size: usually within milliseconds. */
#define LC_WAIT_MS 1000
/* ... longer with many peer slaves (this much each), and twice as long as
 * the latest answer lately came, up to LC_WAIT_MAX_MS (at 64 hosts on one
 * CPU answers came 5-10 s late: bench/linkcheck-scale.sh). */
#define LC_WAIT_PER_PEER_MS 10
#define LC_WAIT_MAX_MS 15000
/* ... but not sooner than this: a peer new to us gets this long. */
#define LC_MIN_WAIT_MS 50
#define LC_BURST 4
#define LC_REFILL_MS 15000
#define LC_MIN_GAP_MS 500
#define LC_ANSWER_BURST 256
/* Hosts remembered as peers (their bondd answered a check of ours) and
 * for how long: their requests and wishes to be probed back have budgets
 * of their own, apart from strangers'. */
#define LC_KNOWN_HOSTS 64
#define LC_KNOWN_MS (10 * 60 * 1000)
/* Peers' requests heard this long before a check began still count in it
 * (the request that made us check, for one). */
#define LC_HEARD_SLACK_MS 500
/* ... and in a re-check (linkcheck_settle.h), those heard this long
 * before: the evidence of the check it confirms. */
#define LC_HEARD_KEEP_MS 2500

struct linkcheck;

/* Called when a check of `bond` has been evaluated, or with NULL when a
 * sync ended checks that clients may wait for without one (link checking
 * turned off, a bond gone). */
typedef void (*lc_done_fn)(void *ctx, const char *bond);

/* findings: the list this check owns (FSRC_LINK_CHECK), rewritten after
 * every check.  Returns 0 or -errno. */
int linkcheck_open(struct linkcheck **out, struct findings *findings, lc_done_fn done, void *ctx);
void linkcheck_close(struct linkcheck *lc);
int linkcheck_fd(const struct linkcheck *lc);
/* Handles whatever is ready; never blocks. */
void linkcheck_dispatch(struct linkcheck *lc);

/* After every pass over the bonds: opens and closes sockets to match the
 * slaves as they now are, and checks the bonds where a slave became ready. */
void linkcheck_sync(struct linkcheck *lc, const struct desired *want, const struct observed *obs);
/* A reload: every bond with link checking on is checked at the next sync. */
void linkcheck_reloaded(struct linkcheck *lc);
/* On demand: starts (or joins, or schedules) a check of `bond`.  Returns
 * true when one is under way, false when the bond has link checking off. */
bool linkcheck_demand(struct linkcheck *lc, const char *bond);
/* A check of `bond` is running, or one asked for on demand waits for its
 * turn. */
bool linkcheck_busy(const struct linkcheck *lc, const char *bond);

/* The packet sockets the link check opens for bond b beyond the one it
 * shares: one per slave it must bind to.  Pure. */
size_t linkcheck_sockets_needed(const struct desired_bond *b);
/* Why some slave that is ready to probe has no socket now ("link check:
 * no packet socket for 37 slaves: Too many open files"), or NULL. */
const char *linkcheck_trouble(const struct linkcheck *lc);

const struct lc_results *linkcheck_results(const struct linkcheck *lc);

#endif
