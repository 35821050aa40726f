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
/* An 802.3 maximum frame size counts the Ethernet header and FCS: an
 * untagged frame of the bond's MTU needs MTU + 18 bytes. */
#define LLDP_FRAME_OVERHEAD 18

/* One slave's LLDP record. */
struct lldp_port {
	char bond[IFNAMSIZ];
	char slave[IFNAMSIZ];
	/* The slaves = entry when it is not the name (mac:, path:, an
	 * altname): findings name it beside the name.  "" otherwise. */
	char sel[SEL_TEXT_MAX];
	bool heard;                 /* a neighbour whose TTL has not passed */
	struct lldp_neighbor nb;    /* the last good frame's, kept after expiry */
	int64_t heard_ms;           /* monotonic ms of that frame (frames > 0) */
	int64_t heard_wall_ms;      /* the same, wall clock */
	int64_t expires_ms;         /* monotonic: heard_ms + TTL */
	/* The neighbour before the last change (other chassis or port):
	 * shown, as information, for one TTL of the new neighbour. */
	bool changed;
	char was_chassis[LLDP_TEXT_SIZE];
	char was_port[LLDP_TEXT_SIZE];
	char was_name[LLDP_TEXT_SIZE];
	int64_t changed_until_ms;   /* monotonic */
	uint64_t frames;            /* good LLDPDUs taken */
	uint64_t malformed;         /* refused by the parser, or too long */
	uint64_t limited;           /* not parsed: over the rate limit */
	unsigned tokens;
	int64_t refill_ms;          /* monotonic: when the bucket last refilled */
};

/* A fresh record (a full bucket, nothing heard). */
void lldp_port_init(struct lldp_port *p, const char *bond, const char *slave, int64_t now_ms);
/* Takes a token for one frame; false (and counted in limited) when none. */
bool lldp_port_token(struct lldp_port *p, int64_t now_ms);
/* Records a good LLDPDU heard now.  TTL 0 (the neighbour shuts down)
 * forgets it at once; another chassis or port than the last marks the
 * slave changed until one TTL from now. */
void lldp_port_take(struct lldp_port *p, const struct lldp_neighbor *nb, int64_t now_ms,
		    int64_t wall_ms);
/* Ends what has passed by now: a neighbour after its TTL, a change after
 * its time. */
void lldp_port_expire(struct lldp_port *p, int64_t now_ms);

/*
 * One bond's slaves side by side (ports[0..n), each NULL when not
 * received, the bond's MTU, whether it is balance-rr), appending to out
 * (source FSRC_LLDP):
 *   - max-frame (degraded): a neighbour's maximum frame size below
 *     mtu + LLDP_FRAME_OVERHEAD;
 *   - same-switch-port (degraded): two slaves hearing one chassis and port;
 *   - one-vlan (information, balance-rr only): two or more slaves whose
 *     ports have one PVID;
 *   - neighbour-changed (information): a slave whose neighbour changed.
 * Only neighbours heard (TTL not passed) count.  0 or -ENOMEM.
 */
int lldp_eval(const char *bond, uint32_t mtu, bool balance_rr,
	      const struct lldp_port *const *ports, size_t n, struct findings *out);

#endif
