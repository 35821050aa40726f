/* SPDX-License-Identifier: MIT */
/*
 * When the link check looks again, and which of its findings count: pure,
 * time passed in (like holds.h), unit-tested without a socket.
 *
 * A finding is a claim to be confirmed: it enters the bond's health only
 * when the next check finds it again (same kind, same slaves); until then
 * it is shown as pending and counts for nothing.  A check that found
 * anything, or that waited in vain for a peer it expected, leaves the bond
 * unsettled: bondd looks again LC_SETTLE_FIRST_MS later, then after twice
 * as long each time, up to LC_SETTLE_MAX_MS, and goes quiet (no timer)
 * once LC_SETTLE_CLEAN checks in a row found the bond clean.  So a switch
 * put right is seen within LC_SETTLE_MAX_MS plus a check, with no event
 * and no request; a bond that stays wrong costs one check a minute.
 */
#ifndef BONDD_LINKCHECK_SETTLE_H
#define BONDD_LINKCHECK_SETTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings.h"

#define LC_SETTLE_FIRST_MS 1000
#define LC_SETTLE_MAX_MS 60000
#define LC_SETTLE_CLEAN 2

struct lc_settle {
	uint32_t step_ms;  /* the last wait; 0: quiet */
	unsigned clean;    /* clean checks in a row since it was unsettled */
	int64_t next_ms;   /* when to check again (monotonic); 0: no check due */
};

/*
 * A check ended at now_ms.  unsettled: it found something (pending or
 * confirmed) or a peer it waited for did not answer.  fresh: it was
 * started by a change (a slave ready, a reload, a request), which starts
 * the waits from LC_SETTLE_FIRST_MS again.  jitter_ms (linkcheck_sched.c
 * draws it as lc_peer_jitter does: longer with more peers) is added to
 * the wait, so that the hosts of one switch that saw one change do not all
 * look again at the same moment.  Returns the time of the next check, 0
 * for none.
 */
int64_t lc_settle_checked(struct lc_settle *s, int64_t now_ms, bool unsettled, bool fresh,
			  uint32_t jitter_ms);

/* The bond settled: no check is due. */
static inline bool lc_settle_quiet(const struct lc_settle *s)
{
	return s->next_ms == 0;
}

/*
 * Marks the findings of `bond` in cur (items from index `from` on, the
 * ones this check added) against prev, the findings of the check before
 * (unmarked, as the evaluation made them): a finding whose kind and slaves
 * prev holds too is confirmed, any other is pending (severity info,
 * pending = true).  A finding about peers (its `peers`) is confirmed
 * only by one that names one of the same peer slaves: at 64 hosts, while
 * hosts start and answers come late, one check saw peer X not answer on
 * e1 and the next peer Y, and "one-way on e1" was confirmed about nobody
 * twice.  Returns how many are pending.
 */
unsigned lc_settle_confirm(struct findings *cur, size_t from, const struct findings *prev);

/*
 * Holds back a one-way finding's confirmation while the check's loss was
 * general.  A one-way path is one port's, and it explains only the peer
 * slaves heard but silent on that port: a confirmed one-way finding in cur
 * is marked pending again when, in the same check, another slave of the
 * bond also missed answers of peer slaves it waited for (missing[k] for
 * the slave named slaves[k], n of them), or any slave missed answers that
 * one-way does not explain (unexplained[k]: a peer slave that sent no
 * request either, or answered some sizes only).  Then the network or the
 * peers were overloaded (64 hosts starting together on one CPU lost
 * answers on both slaves, or on one slave from peers heard and unheard
 * alike, and each check named other peers), and the next check decides.
 * After LC_ONE_WAY_HELD checks in a row that held one back (held_before),
 * it is confirmed anyway: a port broken one way whose peers also fall
 * silent is reported, later.  One that was confirmed in the check before
 * (was: that check's findings, as marked) stays confirmed: a fault warned
 * of does not go back to pending, and warn again, when a peer falls late
 * during it.  Returns how many it held.
 */
#define LC_ONE_WAY_HELD 3
unsigned lc_settle_hold_one_way(struct findings *cur, const struct findings *was,
				const char (*slaves)[IFNAMSIZ], const unsigned *missing,
				const unsigned *unexplained, size_t n, unsigned held_before);

/*
 * Holds back the findings about a slave whose frames a flood may have cost
 * the check (flooded[k] for the slave named slaves[k], n of them: its flood
 * guard was not open during the check, linkcheck_guard.h): the peers it did
 * not hear may have answered, their frames dropped unread or never
 * admitted.  A confirmed finding in cur that names such a slave is marked
 * pending again, unless it was confirmed in the check before (was: a fault
 * warned of stays warned of).  No limit: as long as the flood lasts its
 * slave's findings wait for a check without one; a flood can delay a
 * finding, never make one.  Returns how many it held.
 */
unsigned lc_settle_hold_flooded(struct findings *cur, const struct findings *was,
				const char (*slaves)[IFNAMSIZ], const bool *flooded, size_t n);
/*
 * Takes out of raw (a check's findings as evaluated, which confirm the next
 * check's, lc_settle_confirm) those lc_settle_hold_flooded holds back: what
 * a flood made cannot confirm anything.  Those confirmed in the check
 * before (was) stay.
 */
void lc_settle_drop_flooded(struct findings *raw, const struct findings *was,
			    const char (*slaves)[IFNAMSIZ], const bool *flooded, size_t n);

/*
 * A token bucket of `burst` tokens, one back every `refill_ms` (the link
 * check's rate limits, linkcheck_io.h): brings *tokens up to date at
 * now_ms and returns when the next token is there (now_ms when one is).
 * The caller takes it with lc_bucket_take.  A full bucket is looked at
 * without a store (the daemon looks at every bond's at every wake-up,
 * and after a status snapshot's copy-on-write fork a store is a page
 * fault): its refill starts when a token is taken.
 */
int64_t lc_bucket_refill(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst,
			 int64_t refill_ms);
/* A token taken at now_ms (the caller has one: lc_bucket_refill said so). */
void lc_bucket_take(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst);

/*
 * A peer's check asked to be probed back.  Its need, our requests arriving
 * while it listens, is met by the echo (linkcheck_io.h: one small request
 * per slave, unicast to it), so whether the wish also starts a check of our
 * own (a broadcast that every peer answers: with every peer doing so for
 * every check, the cluster's cost grows with the square of its hosts) is
 * decided here.  Only a wish that shows something our last check did not
 * (news: the peer slave did not answer the slave that heard it: a host new
 * to us, or a path that changed) is owed a check, and it is owed until a
 * check of ours starts after it (a broadcast: the peer answers it), or the
 * peer slave answers one running (linkcheck_sched.c re-validates what is
 * owed): it is delayed, never dropped.  A host that appears is heard only
 * while it checks, and it goes quiet once its own checks are answered; a
 * wish dropped by a busy moment or an empty budget would leave it out of
 * our matrix for good.  So every host learns a host that appears within
 * LC_PEER_WINDOW_MS or the refill of its budget, whichever is longer, plus
 * the jitter and one check.
 */
struct lc_wish {
	int64_t since_ms;   /* monotonic: the first wish owed a check, 0: none */
	uint32_t jitter_ms; /* lc_peer_jitter, drawn when it was first owed */
};

/*
 * When to start the check a wish is owed: not while a check runs or is
 * due (busy: that one serves it, or its end shows whether the peer
 * answered), at the soonest a window after the last check's start
 * (last_start_ms, 0: none yet), so that hosts starting together cost one
 * check of ours per window, which sees them all, and not before the
 * budget it takes from has a token (token_ms: when it has one, as
 * lc_bucket_refill returns it; the caller takes that token when the time
 * comes).  The jitter is added to the window.  No check when a re-check is
 * due (next_ms, 0: none) before that time or within a window of it: the
 * re-check serves it.  The window is LC_PEER_WINDOW_MIN_MS and
 * LC_PEER_WINDOW_PER_MS more for each peer slave the last check saw
 * (peers), LC_PEER_WINDOW_MS at most: a check costs each peer slave an
 * answer per size, so the cluster's answers a second stay proportional to
 * its hosts.  So a peer's routine check starts none of ours, and a bond
 * runs at most one check peers' wishes started per window, however many
 * peers check.  Returns when to start the check, 0 for none now (nothing
 * owed, or another check serves it).
 */
#define LC_PEER_WINDOW_MIN_MS 1000
#define LC_PEER_WINDOW_PER_MS 100
#define LC_PEER_WINDOW_MS 10000
uint32_t lc_peer_window(size_t peers);
int64_t lc_wish_at(const struct lc_wish *w, bool busy, int64_t last_start_ms, int64_t next_ms,
		   size_t peers, int64_t token_ms);

/*
 * The delay before a check a peer's wish is owed (lc_wish): the peers that
 * heard one check's requests at once do not all answer with a broadcast at
 * once.
 * rnd: a random number; up to LC_PEER_JITTER_MS plus LC_PEER_JITTER_PER_MS
 * for each peer slave the last check saw (their answers need the time),
 * half the window at most.
 */
#define LC_PEER_JITTER_MS 500
#define LC_PEER_JITTER_PER_MS 20
uint32_t lc_peer_jitter(uint32_t rnd, size_t peers);

/* The same claim: kind, bond and slaves (evidence may differ). */
bool lc_settle_same(const struct finding *a, const struct finding *b);

/*
 * Our recent checks of one bond, for answers that come later than the
 * check after them: a peer that answers at all proves the path both ways
 * (per-port domains send an answer back on the slave that asked), however
 * late, and a finding must not rest on a timeout that a busy peer or a
 * loaded link overran (at 64 hosts on one CPU, answers came two checks
 * late and made false one-way findings).  An answer counts, for the last
 * complete check, when it names one of the last LC_RECENT_CHECKS checks
 * begun within LC_RECENT_MS; older or unknown probe ids prove nothing.
 */
#define LC_RECENT_CHECKS 8
#define LC_RECENT_MS 60000

struct lc_recent {
	uint32_t id[LC_RECENT_CHECKS];
	int64_t started_ms[LC_RECENT_CHECKS];
	unsigned n, next; /* entries held; where the next goes */
};

/* A check with probe id `id` began at started_ms. */
void lc_recent_add(struct lc_recent *r, uint32_t id, int64_t started_ms);
/* When the check with probe id `id` began, if it is recent at now_ms;
 * -1 when it is not (unknown, or begun more than LC_RECENT_MS ago). */
int64_t lc_recent_started(const struct lc_recent *r, uint32_t id, int64_t now_ms);

/*
 * How long a check waits for answers at most (linkcheck_io.h): LC_WAIT_MS
 * and LC_WAIT_PER_PEER_MS for each peer slave the last check saw (peers:
 * they all answer at once, and a busy host answers its peers in turn), at
 * least twice *slow_ms, the lateness of the latest answer seen lately, so
 * that a slow path or a busy peer is waited for instead of judged;
 * LC_WAIT_MAX_MS at most.  *slow_ms decays by a quarter, check by check.
 * A check that may confirm a one-way finding (confirming_one_way: the
 * check before found one, pending) waits LC_WAIT_MAX_MS: a one-way path
 * is a claim that peers whose requests arrive never answer, and at start
 * no answer has come late yet, so the wait is short; at 64 hosts on one
 * CPU a busy peer's answers to both checks came after the second one
 * ended, and 9 of 64 hosts warned of one-way at start.  A path that is
 * one-way costs its confirmation those seconds; one that is late gets
 * them to answer in.  A check ends sooner when every peer it waits for
 * has answered.
 */
uint32_t lc_wait_ms(size_t peers, uint32_t *slow_ms, bool confirming_one_way);

/* When a check that is due may start: at once (now_ms) when none started
 * yet (last_start_ms 0), else LC_MIN_GAP_MS after the last one began. */
int64_t lc_start_at(int64_t last_start_ms, int64_t now_ms);

/* When to look at a running check begun at started_ms again: at
 * LC_MIN_WAIT_MS after its start while that is to come (it may end then,
 * once its answers are complete), else at its deadline. */
int64_t lc_end_at(int64_t started_ms, int64_t deadline_ms, int64_t now_ms);

/*
 * Peer slaves that answered one of our checks late, per slave of ours:
 * late is not one-way.  A peer that answers at all proved the path both
 * ways, and one that answers late in every check (a busy host: at 64 hosts
 * on one CPU, 5-10 s) would otherwise be missing from each check when it
 * ends, and a one-way finding about it confirmed before its answers came.
 * Kept LC_SLOW_KEEP_MS after its last late answer; LC_SLOW_MAX entries, the
 * oldest given up first.
 */
#define LC_SLOW_MAX 256
#define LC_SLOW_KEEP_MS 60000

struct lc_slow {
	struct {
		uint32_t peer; /* lc_peer_id */
		uint8_t slave; /* our slave's index in its bond */
		int64_t ms;    /* its last late answer; 0: free */
	} v[LC_SLOW_MAX];
};

/* A late answer from `peer` on our slave `slave` at now_ms. */
void lc_slow_note(struct lc_slow *t, uint8_t slave, uint32_t peer, int64_t now_ms);
/* Whether it answered late within LC_SLOW_KEEP_MS. */
bool lc_slow_recent(const struct lc_slow *t, uint8_t slave, uint32_t peer, int64_t now_ms);

/*
 * How many answers and echoes a slave sends a second to peer slaves that
 * proved themselves (their host answered a check of ours): LC_ANSWER_BURST
 * and LC_ANSWER_PER_PEER more for each peer slave that answered its last
 * check (peers; not the peer slaves merely heard, which anyone can make
 * up).
 * A peer's checks are LC_MIN_GAP_MS apart at the least, each three
 * requests and an echo, so a peer stays within 8 a second; at 64 hosts
 * starting together the peers' re-checks fall in the same seconds, and a
 * fixed budget of 256 left their requests unanswered and made one-way
 * findings on their side.  Strangers' requests keep LC_ANSWER_BURST of
 * their own (linkcheck_io.c reply_budget).
 */
#define LC_ANSWER_PER_PEER 8
unsigned lc_answer_budget(size_t peers);

/* The replies (answers and echoes) one slave sent in the current second:
 * to strangers, and to peers that answered us (proven). */
struct lc_reply_count {
	int64_t second_ms;  /* monotonic: the start of the current second */
	unsigned open, proven;
};

/* One more reply at now_ms, within LC_ANSWER_BURST a second to strangers
 * and lc_answer_budget(peers) a second to proven peers (peers: the peer
 * slaves that answered the slave's last check): counted and true, or false
 * when that budget is spent (counted nothing). */
bool lc_reply_take(struct lc_reply_count *c, bool proven, size_t peers, int64_t now_ms);

#endif
