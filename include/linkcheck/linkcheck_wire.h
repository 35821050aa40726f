/* SPDX-License-Identifier: MIT */
/*
 * The link check's probe frame: what bondd sends from each slave and what
 * the bondd on another host answers.  Frames from the wire are untrusted
 * input: lc_frame_decode checks every field and length before anything is
 * used (fuzzed by tests/fuzz/fuzz_probe.c).
 *
 * EtherType 0x88B5 (IEEE 802 "local experimental"), sent to the broadcast
 * address, payload (all integers big-endian, names NUL-padded):
 *
 *	0   magic "BDLC"
 *	4   version (1)
 *	5   type: 1 request, 2 answer
 *	6   size class: 0 small (128 bytes), 1 standard (1500 bytes), 2 full
 *	    (the bond's MTU, more than 128); a length that is not the class's
 *	    is refused
 *	7   flags: bit 0 "probe back" (a request from a check that was not
 *	    itself started by a peer's probe)
 *	8   probe id (u32): the sender's check; an answer echoes the request's
 *	12  sender's host id (16 bytes)
 *	28  sender's slave position in its bond (1-based), then one zero byte
 *	30  total payload length (u16): what the sender sent, so a frame cut
 *	    or padded on the way is recognised
 *	32  sender's bond name (16)
 *	48  sender's slave name (16)
 *	64  answer only (zero in a request): the request's host id (16), bond
 *	    (16), slave (16) and position (1), then zero padding to 128
 *	128 the sender's host name (32, NUL-padded, optional): in a frame of
 *	    at least 160 bytes (every standard frame), zero when the sender
 *	    gives none (an older bondd) or the frame has no room for it;
 *	    letters, digits, '-', '_' and '.' only.  For display alone: a
 *	    peer is still known by its host id, so a name proves nothing
 *	160 zero padding up to the size class's length (from 128 in a frame
 *	    too short for the name)
 *
 * An answer has the length and size class of the request it answers, so an
 * answer received proves the path in both directions at that size (an
 * answer of another length counts as a bad frame).
 */
#ifndef BONDD_LINKCHECK_WIRE_H
#define BONDD_LINKCHECK_WIRE_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LC_ETHERTYPE 0x88B5
#define LC_VERSION 1
#define LC_HEADER_LEN 128
#define LC_HOST_ID_LEN 16
/* The sender's host name: at most 31 bytes and its NUL (the first label of
 * gethostname(), cut), where the frame has room for it. */
#define LC_HOST_NAME_LEN 32
#define LC_NAMED_LEN (LC_HEADER_LEN + LC_HOST_NAME_LEN)
/* The standard Ethernet payload, the middle size class. */
#define LC_STANDARD_LEN 1500
/* The largest payload bondd sends or accepts (the largest bond MTU). */
#define LC_MAX_LEN 65535

enum lc_type { LC_REQUEST = 1, LC_ANSWER = 2 };
enum lc_size { LC_SMALL = 0, LC_STANDARD = 1, LC_FULL = 2, LC__SIZES };
#define LC_SIZE_BIT(s) (1u << (s))
#define LC_FLAG_PROBE_BACK 0x01
/* A request sent in reply to a peer's wish to be probed back, to that
 * peer's address alone: it proves the path from us, and wants no answer
 * (never with LC_FLAG_PROBE_BACK). */
#define LC_FLAG_ECHO 0x02

/* One end of a probe: a slave of a bond on a host. */
struct lc_end {
	uint8_t host[LC_HOST_ID_LEN];
	char bond[IFNAMSIZ];
	char slave[IFNAMSIZ];
	uint8_t pos;            /* 1-based place in its bond */
	/* Its host's name as the host gave it, "" when unknown: shown, never
	 * compared (lc_end_same compares the host id). */
	char host_name[LC_HOST_NAME_LEN];
};

struct lc_frame {
	enum lc_type type;
	enum lc_size size;
	uint8_t flags;
	uint32_t probe_id;
	uint16_t length;        /* the whole payload */
	struct lc_end from;
	struct lc_end to;       /* answers only */
};

/*
 * Writes f into buf (f->length bytes, at least LC_HEADER_LEN, at most len).
 * Returns the length written or -1 when it does not fit or a name does not.
 */
int lc_frame_encode(const struct lc_frame *f, uint8_t *buf, size_t len);

/*
 * Parses a received payload.  Returns 0, or -1 with a reason in why (a
 * short static string) for anything that is not a well-formed version 1
 * probe: wrong magic, version, type, size class or flags, a length field
 * that is not the received length, a name that is empty, unterminated or
 * not an interface name, a position of 0, a length that is not its size
 * class's, a host name field that is neither zero nor a valid name
 * (lc_host_name_valid).  An answer's `to` has no host name.
 */
int lc_frame_decode(const uint8_t *buf, size_t len, struct lc_frame *f, const char **why);

const char *lc_size_name(enum lc_size s); /* "small", "standard", "full" */

/* 1-31 bytes of letters, digits, '-', '_' and '.': what a frame may carry
 * as a host name (and all a terminal is shown of one). */
bool lc_host_name_valid(const char *s);
/* A host name fit to send, from a system's host name: its first label,
 * with any byte lc_host_name_valid refuses dropped, cut to 31 bytes ("" when
 * nothing is left). */
void lc_host_name_from(const char *hostname, char out[LC_HOST_NAME_LEN]);

#endif
