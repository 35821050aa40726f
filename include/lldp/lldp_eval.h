/* SPDX-License-Identifier: MIT */
/*
 * LLDP per slave: what one slave's neighbour last said (plain data, kept
 * by lldp_io.c), the rules that keep it (a rate limit, TTL expiry, a
 * changed neighbour), and the findings from a bond's slaves side by side.
 * Pure: times are passed in, nothing here reads a clock or a socket.
 */
#ifndef BONDD_LLDP_EVAL_H
#define BONDD_LLDP_EVAL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "findings.h"
#include "lldp.h"
#include "slave_selector.h"

/* Good frames taken per slave: a bucket of LLDP_BURST that refills one every
 * LLDP_REFILL_MS.  A switch sends one every 30 s (802.1AB msgTxInterval),
 * a few a second at fast start; the rest are counted and dropped. */
#define LLDP_BURST 8
#define LLDP_REFILL_MS 1000
/* Frames read from a slave's socket per second, good or not: past them the
 * socket is not read until the second ends, and the kernel drops what
 * does not fit its buffer (counted as dropped when it is read again).  What a flood can cost bondd is then LLDP_READS_PER_S receives
 * and parses and one timer wake-up a second per slave, whatever the rate
 * on the wire (bench/FLOOD.md); 32 is four times the bucket above, so the
 * counters still tell a flood of good frames from a malformed one. */
#define LLDP_READS_PER_S 32
/* An 802.3 maximum frame size counts the Ethernet header and FCS: an
 * untagged frame of the bond's MTU needs MTU + 18 bytes. */
#define LLDP_FRAME_OVERHEAD 18

/*
 * Nothing in LLDP is authenticated: anyone on the slave's segment (a VM
 * bridge, an unmanaged switch that floods 01:80:c2:00:00:0e) can send an
 * LLDPDU naming any chassis and port, with any TTL up to 65535 s (18 h).
 * So what a frame says is shown for its TTL, but it weighs on the bond's
 * health (a degraded verdict) only under three rules:
 *
 *  - Held, not kept: a speaker counts for judgement only within
 *    min(TTL, LLDP_HOLD_MS) of its last frame.  120 s is 802.1AB's own
 *    default TTL (msgTxInterval 30 s x msgTxHold 4), so a switch at its
 *    defaults loses nothing, and one that re-announces every 30 s keeps its
 *    verdicts through three lost frames.  A record whose neighbour falls
 *    silent stops weighing 2 minutes later, whatever TTL it claimed.
 *  - Confirmed before reported: a verdict needs a run of agreeing frames
 *    from one speaker (one chassis and port, the same PVID and maximum frame
 *    size, each within the hold of the last) spanning LLDP_CONFIRM_MS, so at
 *    least two frames.  802.1AB's fast start sends a new neighbour
 *    txFastInit (4) frames msgFastTx (1 s) apart, so a switch port coming up
 *    confirms in about a second; otherwise by its second frame (30 s).  A
 *    verdict clears on one frame (never cry wolf; clearing is not one).
 *  - One cable, one neighbour: a slave that hears two speakers (chassis or
 *    port differ) within their holds is not one cable's neighbour (a hub, a
 *    VM bridge, a forger): both are shown, the slave gives no verdict and
 *    says so (information).
 */
#define LLDP_HOLD_MS 120000
#define LLDP_CONFIRM_MS 1000
/* Speakers shown per slave: a real segment has one; a flood of forged
 * chassis replaces the one heard longest ago (the slave is judged several
 * speakers either way). */
#define LLDP_SPEAKERS 4

/* One chassis and port heard on a slave. */
struct lldp_speaker {
	struct lldp_neighbor nb;    /* its last frame's, source MAC included */
	int64_t heard_ms;           /* monotonic ms of that frame */
	int64_t heard_wall_ms;      /* the same, wall clock */
	int64_t since_ms;           /* monotonic: first frame of its agreeing run */
	uint64_t frames;            /* frames taken from it */
	/* As of the last lldp_port_take or lldp_port_expire: */
	bool counts;                /* heard within min(TTL, LLDP_HOLD_MS) */
	bool confirmed;             /* counts, and its run spans LLDP_CONFIRM_MS */
};

/* One slave's LLDP record. */
struct lldp_port {
	char bond[IFNAMSIZ];
	char slave[IFNAMSIZ];
	/* The slaves = entry when it is not the name (mac:, path:, an
	 * altname): findings name it beside the name.  "" otherwise. */
	char sel[SEL_TEXT_MAX];
	/* The speakers whose TTL has not passed, oldest first: sp[0..n_sp),
	 * room for cap_sp (at most LLDP_SPEAKERS), grown by lldp_port_take
	 * as speakers are heard and freed by lldp_port_free (NULL: none
	 * heard).  Room for all four in every record was 16 KB a slave, most
	 * of a port's size, whether it heard one speaker or none; a status
	 * reply's fork (status_split.c) copies what bondd holds.  A pointer
	 * into sp (lldp_port_neighbour, &p->sp[i]) is good until the next
	 * lldp_port_take, lldp_port_expire or lldp_port_free of that port. */
	struct lldp_speaker *sp;
	size_t n_sp, cap_sp;
	/* As of the last take or expire: how many speakers count, and the
	 * index of the one when exactly one does (else -1): the slave's
	 * neighbour for the findings. */
	size_t n_counting;
	int sole;
	/* The last sole neighbour, kept after it expires: a cable moved to
	 * another port is off longer than a TTL. */
	char last_chassis[LLDP_TEXT_SIZE];
	char last_port[LLDP_TEXT_SIZE];
	char last_name[LLDP_TEXT_SIZE];
	/* The sole neighbour differs from the last one: shown, as
	 * information, for the new one's hold. */
	bool changed;
	char was_chassis[LLDP_TEXT_SIZE];
	char was_port[LLDP_TEXT_SIZE];
	char was_name[LLDP_TEXT_SIZE];
	int64_t changed_until_ms;   /* monotonic */
	uint64_t frames;            /* good LLDPDUs taken */
	uint64_t malformed;         /* refused by the parser, or too long */
	uint64_t limited;           /* not taken: over the rate limit */
	uint64_t nomem;             /* not taken: no memory for another
				       speaker (lldp_port_take -ENOMEM) */
	uint64_t dropped;           /* not read: dropped by the kernel while
				       the read budget was spent */
	unsigned tokens;
	int64_t refill_ms;          /* monotonic: when the bucket last refilled */
	unsigned reads;             /* frames read in the second from read_ms */
	int64_t read_ms;            /* monotonic */
};

/* A fresh record (a full bucket, nothing heard).  p is taken as memory
 * to fill: a record that holds speakers is given lldp_port_free first. */
void lldp_port_init(struct lldp_port *p, const char *bond, const char *slave, int64_t now_ms);
/* Frees the record's speakers (it keeps its counters, and hears none). */
void lldp_port_free(struct lldp_port *p);
/* dst as src, its own speakers (dst is an initialised record: its room is
 * reused or freed).  0, or -ENOMEM: dst then holds no speaker. */
int lldp_port_copy(struct lldp_port *dst, const struct lldp_port *src);
/* Takes a token for one frame; false (and counted in limited) when none. */
bool lldp_port_token(struct lldp_port *p, int64_t now_ms);
/* How many more frames may be read from the slave's socket now (0: not
 * before lldp_port_reads_resume); the caller adds what it read to
 * p->reads. */
unsigned lldp_port_reads_left(struct lldp_port *p, int64_t now_ms);
int64_t lldp_port_reads_resume(const struct lldp_port *p);
/* Records a good LLDPDU heard now, under its speaker (chassis and port).
 * TTL 0 (the speaker shuts down) forgets that speaker at once; a new one
 * when LLDP_SPEAKERS are kept replaces the one heard longest ago.  0, or
 * -ENOMEM: no room for a new speaker could be had; the frame is not taken
 * (counted in nomem, the record as it was). */
int lldp_port_take(struct lldp_port *p, const struct lldp_neighbor *nb, int64_t now_ms,
		   int64_t wall_ms);
/* Ends what has passed by now (a speaker after its TTL, a change after its
 * time) and judges the speakers as of now (counts, confirmed, sole). */
void lldp_port_expire(struct lldp_port *p, int64_t now_ms);
/* The speaker's TTL end, and the end of its hold (monotonic ms). */
int64_t lldp_speaker_expires(const struct lldp_speaker *s);
int64_t lldp_speaker_holds(const struct lldp_speaker *s);
/* The slave's one neighbour (exactly one speaker kept), or NULL. */
const struct lldp_speaker *lldp_port_neighbour(const struct lldp_port *p);

/*
 * One bond's slaves side by side (ports[0..n), each NULL when not
 * received, the bond's MTU, whether it is balance-rr), appending to out
 * (source FSRC_LLDP), as judged by the last lldp_port_expire:
 *   - max-frame (degraded): a neighbour's maximum frame size below
 *     mtu + LLDP_FRAME_OVERHEAD;
 *   - same-switch-port (degraded): two slaves hearing one chassis and port;
 *   - one-vlan (information, balance-rr only): two or more slaves whose
 *     ports have one PVID;
 *   - neighbour-changed (information): a slave whose neighbour changed;
 *   - several-neighbours (information): a slave hearing several speakers.
 * Only a slave's sole counting speaker is judged, and only a confirmed one
 * gives a degraded verdict (the rules above).  0 or -ENOMEM.
 */
int lldp_eval(const char *bond, uint32_t mtu, bool balance_rr,
	      const struct lldp_port *const *ports, size_t n, struct findings *out);

#endif
