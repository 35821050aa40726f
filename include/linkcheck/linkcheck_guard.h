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
 * and a final drop.  Returns the instructions written, at most
 * LC_FILTER_LEN(n); 0 when cap is too small.
 */
#define LC_FILTER_LEN(n) (5 * (n) + 1)
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

#endif
