/* SPDX-License-Identifier: MIT */
/*
 * The link check's guard against a flood of probe frames (issue 31): pure,
 * time passed in, unit-tested without a socket.  linkcheck_io.c does what
 * it says.
 *
 * Anyone on a slave's segment can send EtherType 0x88B5 frames, and bondd
 * reads them at real-time priority.  Reading is bounded per second and
 * slave (lc_read_budget).  Pausing the socket when the budget is spent is
 * not enough: while it waits, its 4 MiB queue keeps the flood's frames
 * ahead of the real peers' answers, read seconds late (a check during a
 * flood took 8.7 s, scenario 181).  So when a slave's budget is spent the
 * guard puts on a classic BPF filter (SO_ATTACH_FILTER) that admits only
 * frames from the Ethernet addresses of the peers that answered this
 * slave's checks most recently (LC_GUARD_MACS) and of the bond's own
 * slaves: the kernel drops a stranger's frame before it is queued
 * (net/packet/af_packet.c packet_rcv runs the filter first), at no cost to
 * bondd, and the socket is opened again with the filter so that the queue
 * of the flood's frames is dropped unread.  What the filter admits is
 * read within a fresh budget.  A second socket, never read, with a queue
 * of a frame or two, counts what arrives (PACKET_STATISTICS counts the
 * frames its full queue drops): once it counts at most half the budget a
 * second for LC_GUARD_CALM seconds in a row, the flood is over and the
 * filter comes off.
 *
 * What the guard cannot stop: a sender that uses the address of a peer in
 * the list (spoofed, or of a host that answered our checks on purpose: our
 * requests are broadcast, anyone can answer them) passes the filter.  The
 * budget still bounds what it costs: past it the filtered socket is not
 * read until its second ends, and then opened again, dropping its queue,
 * so that what is read is at most a second old.  The real peer's answers
 * drown among its frames then, and the check does not hear that peer: the
 * slave counts as flooded for that check (lc_guard_flooded), and no finding
 * about a flooded slave is confirmed (lc_settle_hold_flooded): a flood can
 * delay a finding, never make one.
 */
#ifndef BONDD_LINKCHECK_GUARD_H
#define BONDD_LINKCHECK_GUARD_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How many frames a slave's socket is read in a second of its own:
 * LC_READ_BASE, and LC_READ_PER_PEER more for each peer slave that
 * answered it in the running or the last check (peers; not those merely
 * heard, which anyone can make up).  A peer slave legitimately brings at
 * most 16 a second: its checks' requests and echo (8, lc_answer_budget)
 * and its answers to ours (three sizes, our checks at most two a second).
 * The base covers the first check, before any peer has answered (64 hosts
 * starting together bring about 440 a second).
 */
#define LC_READ_BASE 512
#define LC_READ_PER_PEER 16
unsigned lc_read_budget(size_t peers);
/* ... and while the filter is on, when only the peers' and the bond's own
 * frames pass: LC_READ_FILTERED_BASE (the bond's own requests on a
 * sibling slave, a peer's burst) and LC_READ_PER_PEER for each peer slave.
 * What a flood from a peer's address costs is bounded by this. */
#define LC_READ_FILTERED_BASE 64
unsigned lc_read_budget_filtered(size_t peers);

/* The peers' addresses a slave's filter admits: the LC_GUARD_MACS that
 * answered its checks most recently (the oldest answer gives its place
 * up).  No address is forgotten by age: a settled bond checks only on a
 * change, and its peers must still pass a filter put on an hour later. */
#define LC_GUARD_MACS 64
struct lc_macs {
	uint8_t mac[LC_GUARD_MACS][6];
	int64_t ms[LC_GUARD_MACS]; /* its last answer */
	unsigned n;
};
/* An answer from mac at now_ms; returns true when mac is new to the list. */
bool lc_macs_note(struct lc_macs *m, const uint8_t mac[6], int64_t now_ms);

/*
 * Builds the filter that admits frames whose Ethernet source address is
 * one of macs[0..n) and drops every other: 5 instructions per address
 * (compared as a word and a half-word of the link-layer header,
 * SKF_LL_OFF: the socket is SOCK_DGRAM, its offset 0 is past the header)
 * and a final drop.  First, 3 drop a frame sent to another station's
 * unicast address (PACKET_OTHERHOST), whoever sent it: none is this
 * slave's (a request is broadcast, an answer or an echo goes to the
 * address of the slave that asked), and a switch floods a peer's answers
 * and echoes to a flood's made-up senders to every port of a VLAN where
 * it has not learnt their addresses: admitted by the peer's address, they
 * took the peer's filtered budget, and its own check's requests went
 * unanswered (sandbox 181).  (In balance-tlb and balance-alb, whose
 * slaves keep addresses of their own, an answer to a sibling's request
 * that reached this slave, a shared domain, is dropped too: a flooded
 * slave's findings wait anyway, lc_settle_hold_flooded.)  Returns the
 * instructions written, at most
 * LC_FILTER_LEN(n); 0 when cap is too small.
 */
#define LC_FILTER_LEN(n) (5 * (n) + 4)
size_t lc_filter_build(const uint8_t (*macs)[6], size_t n, struct sock_filter *out, size_t cap);

enum lc_guard_state {
	LC_GUARD_OPEN,     /* no filter: every frame read, within the budget */
	LC_GUARD_FILTERED, /* the filter on: the peers' frames read, within a budget */
	LC_GUARD_PAUSED,   /* the filter on and its budget spent: not read */
};

/* What linkcheck_io.c does on the guard's word. */
enum lc_guard_act {
	LC_GUARD_NONE,
	LC_GUARD_ATTACH, /* the socket opened again with the filter, and the counter */
	LC_GUARD_PAUSE,  /* the socket out of the epoll set's events */
	LC_GUARD_RESUME, /* opened again with the filter (its queue dropped), read */
	LC_GUARD_DETACH, /* the filter off, the counter closed */
};

#define LC_GUARD_LOOK_MS 1000 /* how often the counter is looked at */
#define LC_GUARD_CALM 2       /* looks in a row under half the budget: over */

struct lc_guard {
	enum lc_guard_state state;
	int64_t window_ms;    /* start of the read window (a second) */
	unsigned reads;       /* frames read in it */
	int64_t look_ms;      /* the counter's last look */
	unsigned calm;        /* looks in a row that counted under half the budget */
	int64_t open_ms;      /* when it last went back to LC_GUARD_OPEN (0: never left) */
	unsigned engaged;     /* times the filter went on */
	unsigned paused;      /* times a filtered socket's budget ran out */
	int64_t spent_ms;     /* a shared socket's slave window: when its
			       * budget last ran out (0: never) */
	unsigned renewed;     /* times the guard gave the socket a fresh
			       * window (the filter went on, a pause ended);
			       * a shared socket's slave window: the socket's
			       * count when this window began */
};

/* Frames the socket may still read at now_ms of `budget` a window (a new
 * window begins a second after the last began); 0 while paused. */
unsigned lc_guard_left(struct lc_guard *g, int64_t now_ms, unsigned budget);
/* The window's budget is spent at now_ms: the filter goes on (from open,
 * with a fresh window: the peers' frames get a budget the flood did not
 * take), or, filtered, the socket waits for the window's end. */
enum lc_guard_act lc_guard_spent(struct lc_guard *g, int64_t now_ms);
/* When lc_guard_tick is due; 0 when open (no timer). */
int64_t lc_guard_next(const struct lc_guard *g);
/* The guard's timer at now_ms; counted: the frames the counter saw since
 * its last look (linkcheck_io.c reads and resets it), budget: the slave's
 * lc_read_budget. */
enum lc_guard_act lc_guard_tick(struct lc_guard *g, int64_t now_ms, unsigned counted,
				unsigned budget);
/* The guard may have lost the slave's peers' frames since since_ms (a
 * check's start): it was not open all that time. */
bool lc_guard_flooded(const struct lc_guard *g, int64_t since_ms);

/*
 * The shared socket (linkcheck_io.c: one socket for the slaves of every
 * bond whose slaves are all active, each frame attributed to the slave it
 * arrived on by its sll_ifindex).  The guard is the socket's: one state,
 * one filter (the union of its users' peers' addresses, lc_macs_union),
 * one counter, and a window of the socket's budget (lc_shared_budget).
 * The budget per slave stays: each frame read takes one of its slave's
 * window (a struct lc_guard of which only the window is used), or of the
 * window of the frames of links none of its users is (LC_READ_BASE, on
 * every link of the namespace).  lc_shared_take: a frame read at now_ms,
 * for window w of `budget` a second: true when it is handled; false when
 * w's budget is spent, and the frame is dropped (read, not looked at).
 * *act: what the socket's guard sock does then: the filter goes on when
 * it was open; filtered, one slave over its budget (a flood from a
 * peer's address) does not pause the socket that the other slaves' frames
 * come by: only its whole budget spent does (lc_guard_spent).
 * When the guard gives the socket a fresh window (the filter goes on, a
 * pause ends), every slave's window starts anew at its next frame, as a
 * slave's own socket's does: what a slave read before, the flood's frames
 * against the open budget, takes nothing from the filtered budget of the
 * peers' frames the filter admits.  (Kept, each slave's window of the
 * flood's second stayed spent against the smaller filtered budget until
 * it ended: the requests of a peer's check then, and its re-sent ones,
 * went unanswered on every slave of the socket; sandbox 181.)
 */
bool lc_shared_take(struct lc_guard *sock, struct lc_guard *w, int64_t now_ms, unsigned budget,
		    enum lc_guard_act *act);
/* The shared socket's budget a second: its users' (users of them, each
 * with peers[k] answering peer slaves: lc_read_budget, or filtered
 * lc_read_budget_filtered) and LC_READ_BASE (LC_READ_FILTERED_BASE) for
 * the links none of them is; filtered, LC_READ_SKIP more: the frames past
 * a slave's budget, from an address the filter admits, that are read
 * only to be dropped (only an answer to our checks among them is taken,
 * linkcheck_io.c), so that such a flood on one slave does not pause the
 * socket its siblings' frames come by before it is this large. */
#define LC_READ_SKIP (LC_BAN_AT + 512)
unsigned lc_shared_budget(const size_t *peers, size_t users, bool filtered);
/* Slave w of a shared socket may have lost frames to a flood since
 * since_ms: the socket's guard was not open all that time, or w's own
 * budget ran out. */
bool lc_shared_flooded(const struct lc_guard *sock, const struct lc_guard *w, int64_t since_ms);

/*
 * A flood from an address the shared socket's filter admits (a peer's, or
 * the bonds' own, spoofed) would make every slave of that socket wait for
 * its second's end once the frames past the flooded slave's budget fill
 * LC_READ_SKIP.  So those frames are tallied by source address, and one
 * that brings LC_BAN_AT of them in a second is taken out of the filter
 * (banned) until the flood is over: the kernel drops its frames again, and
 * the real peer of that address goes unheard meanwhile, as it would among
 * the flood's frames.  At most LC_BANS addresses; past that the socket
 * waits as before.
 */
/* (above what a real peer slave sends: its answers and echoes, at most
 * LC_ANSWER_BURST to strangers and lc_answer_budget to peers a second,
 * reach us too when the switch floods them to an unknown address: a
 * flood's fake requesters') */
#define LC_BAN_AT 1024
#define LC_BANS 8
#define LC_TALLY 8
struct lc_tally {
	uint8_t mac[LC_TALLY][6];
	unsigned n[LC_TALLY];
	int64_t window_ms;
};
/* A frame past its slave's budget from mac at now_ms: true once, when
 * mac's frames in the tally's second reach LC_BAN_AT.  The tally keeps the
 * LC_TALLY addresses seen most (a new one takes the place of the least). */
bool lc_tally_note(struct lc_tally *t, const uint8_t mac[6], int64_t now_ms);

/* The most addresses one filter holds: the kernel takes at most
 * BPF_MAXINSNS (4096) instructions (net/core/filter.c bpf_check_classic,
 * through sk_attach_filter), 5 an address and 4 more (LC_FILTER_LEN). */
#define LC_FILTER_MACS_MAX 800
/*
 * The addresses of a shared socket's filter: out[0..have) are given (the
 * bonds' own, which always pass), and the union of the lists (each user's
 * peers, n_lists of them; NULL entries skipped) is added, each address
 * once, the latest answers first while room is left (cap in all).
 * Returns the addresses in out.
 */
size_t lc_macs_union(const struct lc_macs *const *lists, size_t n_lists, uint8_t (*out)[6],
		     size_t have, size_t cap);

#endif
