/* SPDX-License-Identifier: MIT */
/*
 * The link check's state (struct linkcheck, its bonds and their slaves'
 * sockets) and the functions its files share.  Private to src/linkcheck/:
 *   linkcheck_state.c  a bond's slaves, peers and phase, the hosts known;
 *   linkcheck_await.c  whom a check waits for, what it keeps (no I/O);
 *   linkcheck_io.c     sockets, requests, answers, echoes, the frames;
 *   linkcheck_sched.c  when a check starts and ends, its evaluation;
 *   linkcheck_bonds.c  following the bonds, the daemon's calls.
 * Each calls only those listed before it (and the pure files: phase,
 * settle, eval, guard, spread, wire); what a lower one needs done above
 * it is left as state for the upper one to act on.
 */
#ifndef BONDD_LINKCHECK_PARTS_H
#define BONDD_LINKCHECK_PARTS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "linkcheck_guard.h"
#include "linkcheck_io.h"
#include "linkcheck_phase.h"
#include "linkcheck_retry.h"
#include "linkcheck_settle.h"
#include "linkcheck_spread.h"
#include "packet_sock.h"

/* Receive buffer per slave socket: a check's answers, 3 sizes from each
 * peer slave, are counted at the kernel's size of each frame (its
 * truesize: about 16 kB for 9000 bytes, a kmalloc bucket), 1 MB for the
 * full-size answers of the 63 peers of one slave at 64 hosts alone, and
 * the requests of peers checking meanwhile come on top; with
 * 1 MB the sockets of a busy host dropped up to 219 frames a check at a
 * 64-host start (PACKET_STATISTICS, the "link check done" line), the
 * requests it never answered then looked one-way to the asker.  A limit,
 * not an allocation: used only while frames wait to be read (the kernel
 * counts it double, for its own overhead: 8 MB of frames' truesize). */
#define LC_RCVBUF (4 << 20)
/* Send buffer per slave socket: a check of 63 peers asks for answers of
 * three sizes (up to the MTU) from each, about 1.7 MB at MTU 9000, all at
 * once, and the kernel's default (net.core.wmem_default, 208 kB) made
 * sendto fail with EAGAIN: the answers were never sent and 55 of 64
 * hosts reported their peers one-way (bench/linkcheck-scale.sh). */
#define LC_SNDBUF (4 << 20)
/* Peers' checks remembered as echoed (per bond): one check's requests
 * arrive on every slave within milliseconds, so this many checks of
 * others in between are plenty. */
#define LC_ECHOED 256

struct lc_bond;

/* A guarded socket's guard (linkcheck_guard.h): its state and read
 * window, the socket, never read, that counts what arrives while the
 * filter is on, and the kernel's drops of the sockets it replaced. */
struct lc_gsock {
	struct lc_guard guard;
	struct packet_sock counter;
	unsigned drops_carried;
	char by[2 * IFNAMSIZ + 64]; /* "BOND: link check: the flood ... on SLAVE" */
	/* the shared socket: admitted addresses that flood, taken out of its
	 * filter until the flood is over (lc_tally_note) */
	struct lc_tally tally;
	uint8_t banned[LC_BANS][6];
	unsigned n_banned;
};

struct lc_sock {
	struct lc_bond *bond;
	size_t idx;              /* the slave's index in the bond */
	/* closed: the slave is not ready to probe.  Its own socket (own), or
	 * the one every slave of an all-active bond shares (lc->shared: its
	 * fd, this slave's ifindex; lc_sock_close leaves it open). */
	struct packet_sock sock;
	bool own;
	uint32_t mtu;            /* the full size: the slave's MTU, at most the bond's */
	struct lc_reply_count replied; /* answers and echoes sent this second */
	/* the flood guard (linkcheck_guard.h): of its own socket (own), or
	 * its read window on the shared socket (whose guard is lc->shared_g);
	 * the addresses of the peers that answered it, which a filter
	 * admits; its link's address (the bond's own frames pass too) */
	struct lc_gsock g;
	struct lc_macs macs;
	uint8_t hwaddr[6];
	/* Its events' rate limit: a bucket of LC_BURST checks, one back
	 * every LC_REFILL_MS; an event without a token waits for one. */
	unsigned tokens;
	int64_t tokens_ms;
	bool pending;            /* an event waits for a token */
};

/* What asked for a check: events coalesce into one, named after (and
 * timed from) the first of our own, else the first peer's request. */
struct lc_asked {
	bool demand;             /* a client's request (bondd-status --link-check) */
	bool probe_back;         /* our own events: the peers are asked to probe back */
	bool fresh;              /* a change, not a re-check */
	int64_t since_ms;        /* monotonic: when the one it is named after came */
	char trigger[64];
};

struct lc_bond {
	char name[IFNAMSIZ];
	enum bond_mode mode;
	uint32_t mtu;
	bool enabled;
	bool lag_expected;       /* link_topology = lag */
	bool lag_seen;           /* the last check found a switch LAG: a peer
				  * slave heard is not one to wait for (the
				  * switch's hash picks who answers) */
	bool waited;             /* at the start of a sync: running or asked for */
	/* per slave, the peer slaves waited for that did not answer the last
	 * check (every size), and of those the ones that were not heard
	 * silent (lc_settle_hold_one_way); the checks in a row that held a
	 * one-way finding back before it, and after it */
	unsigned *missing_on;        /* [n] */
	unsigned *unexplained_on;    /* [n] */
	unsigned one_way_held_before, one_way_held;
	/* per slave, its flood guard was not open during the last check
	 * (lc_guard_flooded): no finding about it is confirmed */
	bool *flooded_on;            /* [n] */
	/* Its n slaves: each per-slave array (these, the ones above and the
	 * rows) has room for n alone, allocated by bond_shape
	 * (linkcheck_bonds.c) when the bond's shape changes and freed with
	 * the bond.  Sized for BONDD_MAX_SLAVES whatever n, they made an
	 * lc_bond 57 kB, resident, and bondd's forks for status replies
	 * (status_split.c) copy what they touch. */
	size_t n;
	char (*slaves)[IFNAMSIZ];    /* [n] */
	/* the slaves = entry where it is not the name (mac:, path:, an
	 * altname), "" otherwise: findings name it */
	char (*sel)[SEL_TEXT_MAX];   /* [n] */
	/* [n]: held by address in the epoll set (own sockets), the shared
	 * socket's lc->by_ifindex (rebuilt by lc_shared_sync at every sync)
	 * and each socket's guard while it acts (struct guarded, on the
	 * stack): an array replaced or freed has had every socket taken out
	 * of the epoll set and closed first (lc_sock_forget) */
	struct lc_sock *socks;
	struct lc_slave_obs *live;   /* being collected */
	struct lc_slave_obs *shown;  /* the last complete check */
	struct lc_result result;
	/* its schedule's phase and times (linkcheck_phase.h): changed by
	 * lc_bond_enter alone, and the retry of a bond that heard no peer by
	 * lc_phase_checked at a check's end */
	struct lc_phase_state ph;
	/* what asked for the next check (while one is due: lc_phase_due,
	 * lc_trigger), and for the running or last one (start_check) */
	struct lc_asked ask, run;
	uint32_t probe_id;       /* the running or last check's */
	/* peers' wishes to be probed back owed a check (lc_wish): [0] of
	 * peers, [1] of strangers, each taking its own bucket's token; blind:
	 * one came from a peer slave a full row had no place for, so that
	 * whether it was answered since cannot be told */
	struct lc_wish wish[2];
	bool wish_blind[2];
	char wish_why[64];       /* the first of them, for the check's trigger */
	/* the peers' checks echoed lately (host, probe id): one echo each,
	 * whichever of our slaves their requests arrived on */
	struct {
		uint8_t host[LC_HOST_ID_LEN];
		uint32_t probe_id;
	} echoed[LC_ECHOED];
	unsigned echoed_next;
	/* rate limit: peers' requests to probe back take a token of the
	 * bond's bucket or wait (lc_wish); no two checks within LC_MIN_GAP_MS
	 * (ph.last_start_ms) */
	unsigned peer_tokens;
	int64_t peer_tokens_ms;
	/* ... those of stations no check of ours heard answer take a token of
	 * a bucket of their own, so that they cannot use up the peers' */
	unsigned stranger_tokens;
	int64_t stranger_tokens_ms;
	bool drop_logged;        /* said once that requests were dropped */
	bool guard_logged;       /* said once that a flood guard went on for it */
	uint64_t shared_drops_seen; /* lc->shared_drops at its last check's end */
	unsigned proven_over;    /* peers' requests over their budget, unanswered */
	/* settling (linkcheck_settle.h): when to look again, and the
	 * findings of the last two checks as the evaluation made them */
	struct lc_settle settle;
	struct findings raw_last, raw_before;
	struct findings found;   /* the last check's, pending or confirmed */
	struct findings was;     /* found, as the check before left it */
	bool reeval;             /* a late answer changed the last check */
	struct lc_recent recent; /* our last checks' probe ids (late answers) */
	struct lc_slow slow;     /* peers that answered late lately */
	uint32_t slow_ms;        /* the latest answer came this long after its
				  * check began (decays check by check) */
	/* a client asked (bondd-status --link-check): it waits for a check
	 * whose findings are all confirmed, or for the confirming one */
	bool demand_wait;
	unsigned demand_checks;
};

struct linkcheck {
	int epfd, timer_fd;
	uint8_t host[LC_HOST_ID_LEN];
	char host_name[LC_HOST_NAME_LEN]; /* sent in frames with room: display only */
	uint32_t next_probe;
	struct findings *findings;
	lc_done_fn done;
	void *ctx;
	struct lc_bond **bonds;
	size_t n_bonds;
	/* the node's budget for the retries of bonds that heard no peer */
	struct lc_retry_node retry_node;
	const struct lc_result **rv;
	struct lc_results results;
	bool reloaded, perm_logged;
	bool twin_logged;        /* said that another host uses our host id */
	/* slaves ready to probe left without a socket by this sync, the
	 * last such error, and what was last said of them */
	size_t sock_short, said_short;
	int sock_err, said_err;
	char trouble[128];
	uint32_t rng;            /* xorshift state for the re-checks' jitter */
	/* hosts that answered a check of ours lately: their requests are a
	 * peer's, with budgets of their own */
	struct {
		uint8_t host[LC_HOST_ID_LEN];
		int64_t ms;
	} known[LC_KNOWN_HOSTS];
	struct lc_replies replies; /* answers and echoes spread (linkcheck_spread.h) */
	/* The socket the slaves of bonds whose slaves are all active share
	 * (linkcheck_sockets_needed), closed while none has one, its
	 * buffers' size, and the frames the kernel dropped for it in all
	 * (PACKET_STATISTICS, read at the end of every check) */
	struct packet_sock shared;
	int shared_buf;
	uint64_t shared_drops;
	/* its flood guard, and the read window of the frames of links none
	 * of its users is (linkcheck_guard.h, lc_shared_take) */
	struct lc_gsock shared_g;
	struct lc_guard foreign;
	bool foreign_logged;     /* said once that those frames flooded it */
	/* its users, by ifindex: an open-addressing table of lc_sock
	 * pointers, built at every sync */
	struct lc_sock **by_ifindex;
	size_t by_ifindex_cap;
	uint8_t buf[LC_MAX_LEN + 1];
};

static inline int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* linkcheck_state.c */
/* The one place b's phase changes (lc_phase_enter), its result's running
 * flag with it. */
void lc_bond_enter(struct lc_bond *b, enum lc_phase to, int64_t now, int64_t deadline_ms);
int lc_slave_index(const struct lc_bond *b, const char *name);
/* The peer slaves the bond's last complete check saw, over its slaves. */
size_t lc_bond_peers(const struct lc_bond *b);
bool lc_known_host(const struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now);
void lc_known_add(struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now);
/* A request from `end` on slave i shows what the last check did not. */
bool lc_news(const struct lc_bond *b, size_t i, const struct lc_end *end);
uint32_t lc_next_rand(struct linkcheck *lc);

/* linkcheck_await.c */
/* Slave i's row of the live matrix made ready for a check starting at
 * now: the answers of the last check forgotten, the peers' requests kept
 * while recent, whom to wait for marked (expected). */
void lc_row_restart(const struct linkcheck *lc, struct lc_bond *b, size_t i, int64_t now);
/* The peer slaves the running check waits for; in *missing those that
 * have not answered every size sent (per slave in missing_on, and of
 * those the ones a one-way path does not explain in unexplained_on,
 * either may be NULL). */
size_t lc_awaited(const struct lc_bond *b, size_t *missing, unsigned *missing_on,
		  unsigned *unexplained_on);
/* Every peer slave waited for has answered every size sent. */
bool lc_answers_complete(const struct lc_bond *b);
/* Requests kept from before the check, on a slave that peer slave no
 * longer answers, forgotten (the path moved). */
void lc_drop_moved(struct lc_bond *b);
/* A peer's wish to be probed back is still owed a check. */
bool lc_wish_owed(const struct lc_bond *b);
/* `end` answered slave i's requests in the running check or the last one. */
bool lc_proven_peer(const struct lc_bond *b, size_t i, const struct lc_end *end);
/* The peer slaves that answered slave i in the last complete check (what
 * the peers' answer budget grows with). */
size_t lc_answered_peers(const struct lc_bond *b, size_t i);
/* The peer slaves whose answers converge with ours (the answers' spread). */
size_t lc_answer_peers(const struct lc_bond *b);
/* The most peer slaves that answered slave i in the running check or the
 * last one (what its read budget grows with). */
size_t lc_read_peers(const struct lc_bond *b, size_t i);

/* linkcheck_io.c */
/* Frames the kernel dropped for s's socket since the last call, its
 * receive queue full (PACKET_STATISTICS, which reading resets:
 * net/packet/af_packet.c packet_getsockopt). */
unsigned lc_sock_drops(struct linkcheck *lc, struct lc_sock *s);
/* Opens s's socket on the link ifindex: its own when its bond needs one
 * per slave, else the shared one.  0 or -errno. */
int lc_sock_open(struct linkcheck *lc, struct lc_sock *s, int ifindex, bool own);
/* Closes s's own socket and its counter (its guard open again; the
 * addresses kept), or leaves the shared one. */
void lc_sock_close(struct lc_sock *s);
/* lc_sock_close for a socket whose memory is about to be freed: out of
 * the epoll set first. */
void lc_sock_forget(struct linkcheck *lc, struct lc_sock *s);
/* After a sync: the shared socket's table of users and its buffers, or
 * the socket closed when it has none. */
void lc_shared_sync(struct linkcheck *lc);
/* Runs the flood guards' timers due by now; returns when the next is due,
 * 0 for none. */
int64_t lc_guard_due(struct linkcheck *lc, int64_t now);
/* Slave s's frames may have been lost to a flood since since_ms: the
 * guard of its socket was not open all that time, or (on the shared
 * socket) its own read budget ran out (lc_shared_flooded). */
bool lc_sock_flooded(const struct linkcheck *lc, const struct lc_sock *s, int64_t since_ms);
/* Sends a slave's requests, one per size class, for the running check;
 * returns how many went out. */
unsigned lc_send_requests(struct linkcheck *lc, struct lc_bond *b, size_t i, bool probe_back);
/* Sends the answers and echoes due by now; returns when the next one is
 * due, or 0 when none waits. */
int64_t lc_send_due_replies(struct linkcheck *lc, int64_t now);
/* Reads what b's sockets hold (at most LC_READ_AT_END frames each): a
 * check that reaches its deadline counts the answers that came in time
 * but wait behind a batch limit, not as late. */
#define LC_READ_AT_END 1024
void lc_read_queued(struct linkcheck *lc, struct lc_bond *b);
/* A frame decoded, on slave s, from mac (NULL: no address): one of ours,
 * a peer's request or echo, or an answer (on_own_frame, on_request,
 * on_answer). */
void lc_frame_in(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		 const uint8_t *mac);
/* Reads what the sockets that are ready hold, a batch each, and the timer. */
void lc_io_dispatch(struct linkcheck *lc);
/* Closes what linkcheck_open opened and frees lc (its bonds freed before). */
void lc_io_close(struct linkcheck *lc);

/* linkcheck_sched.c */
/* Remembers that `b` should be checked; lc_process_due starts it when the
 * rate limit allows. */
void lc_trigger(struct lc_bond *b, const char *why, bool demand, bool from_peer, bool fresh);
/* A slave became ready. */
void lc_slave_event(struct lc_bond *b, struct lc_sock *s);
/* The findings list the daemon reads. */
void lc_rebuild_findings(struct linkcheck *lc);
/* Ends, starts and schedules checks; arms the timer. */
void lc_process_due(struct linkcheck *lc);


#endif
