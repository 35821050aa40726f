/* SPDX-License-Identifier: MIT */
/*
 * The link check's plain data: what one check of a bond saw, slave by
 * slave (the observation matrix), and the pure function from it to
 * findings.  The I/O that fills it is src/linkcheck/linkcheck_io.c (with
 * linkcheck_sched.c and linkcheck_bonds.c); this part knows
 * no socket and is unit-tested with tables of matrices.
 *
 * A check sends from each slave a request at each size class to the
 * broadcast address; bondd on another host answers on the slave that
 * received it.  Per local slave the matrix holds the peer slaves whose
 * answers came back (proving the path there and back, per size), the peer
 * slaves whose own requests arrived (proving the path from them), and the
 * siblings (other slaves of this bond on this host) whose requests arrived
 * (proving that the two share a broadcast domain).
 */
#ifndef BONDD_LINKCHECK_H
#define BONDD_LINKCHECK_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bond_option_table.h"
#include "desired.h"
#include "findings.h"
#include "linkcheck_wire.h"
#include "strbuf.h"

/* Peer slaves remembered per local slave; more are ignored.  A bound on
 * memory (a row's peers take about 100 bytes each, two rows per slave: the
 * check running and the last), not on the cluster: 128 hosts of two slaves
 * in one domain, and a domain of 256 hosts with a VLAN per port, fit whole.
 * A row holds room only for the peers it has seen (lc_row_peer grows it),
 * so a node of many bonds with few peers stays small: a status reply forks
 * bondd (status_split.c), and what it forks is what it costs.  A full row
 * keeps its places for the peers that answer (lc_row_peer_answered). */
#define LC_MAX_PEERS 256

/* One peer slave as a local slave saw it. */
struct lc_peer_obs {
	struct lc_end end;
	uint8_t answered;     /* LC_SIZE_BIT()s: our requests it answered */
	uint8_t heard;        /* LC_SIZE_BIT()s: its requests that arrived here */
	int64_t heard_ms;     /* monotonic, when last heard (collection only) */
	bool expected;        /* answered the check before (collection only) */
	bool slow;            /* answered a check of ours late lately
			       * (lc_slow_recent): not one-way */
	bool wished;          /* asked to be probed back, showing news
			       * (linkcheck_settle.h lc_wish), since the
			       * running or last check began (collection only) */
};

/* One local slave's row. */
struct lc_slave_obs {
	char name[IFNAMSIZ];
	char sel[SEL_TEXT_MAX]; /* its slaves = entry when not the name, else "" */
	uint8_t pos;          /* 1-based place in the bond */
	int ifindex;          /* when probed */
	bool probed;          /* its requests went out */
	bool resent;          /* ... again, for a peer that asked (collection only) */
	bool reopen_resent;   /* ... again, after its socket was opened again (idem) */
	uint8_t sent;         /* LC_SIZE_BIT()s sent */
	uint32_t sizes[LC__SIZES]; /* payload bytes per size class sent */
	uint32_t siblings;    /* bit k: the requests of slaves[k] arrived here */
	uint32_t answered_on; /* bit k: answers to this slave's requests arrived
			       * on slaves[k] (on itself alone, unless the
			       * switch treats the ports as one) */
	char error[96];       /* why it was not probed, "" when it was or is down */
	struct lc_peer_obs *peers; /* n_peers of them, room for cap_peers (owned:
				    * lc_row_free) */
	size_t n_peers;
	size_t cap_peers;
};

struct lc_matrix {
	char bond[IFNAMSIZ];
	enum bond_mode mode;
	uint32_t mtu;
	struct lc_slave_obs *slaves; /* in bond order; n_slaves of them */
	size_t n_slaves;
	bool lag_expected;    /* link_topology = lag: a switch LAG is intended */
};

/* One bond's last complete check, as the status renderers show it. */
struct lc_result {
	char bond[IFNAMSIZ];
	bool enabled;          /* link_check = yes */
	bool running;          /* a check is collecting answers now */
	unsigned long checks;  /* completed so far */
	int64_t wall_ms;       /* end of the last check, 0: none yet */
	uint32_t took_ms;      /* its length, first request to evaluation */
	uint32_t wait_ms;      /* the longest it would have waited for answers */
	uint32_t trigger_ms;   /* from what started it (a slave's return, a
				* request) to its end */
	char trigger[64];      /* what started it: "start", "e2 up", ... */
	unsigned frames_sent;  /* requests sent by the last check */
	unsigned long requests_total; /* requests sent, all time */
	unsigned long answers_sent; /* answers to peers' requests, all time */
	unsigned long echoes_sent;  /* echoes to peers' wishes to be probed
				     * back (linkcheck_io.c), all time */
	unsigned long bad_frames;   /* frames that failed to parse, all time */
	unsigned long late_answers; /* answers that came after their check */
	unsigned long dropped;      /* strangers' requests over their budget */
	unsigned pending;      /* findings of the last check not yet confirmed */
	unsigned missing;      /* peer slaves it waited for in vain */
	bool settling;         /* a re-check is due (linkcheck_settle.h) */
	uint32_t recheck_ms;   /* ... this long after the last check's end */
	uint32_t retry_ms;     /* no peer answered it: the retry this long after
				* its end (linkcheck_phase.h), 0: none */
	char error[128];       /* why no check can run, "" when they can */
	struct lc_matrix m;
};

struct lc_results {
	const struct lc_result *const *v;
	size_t n;
};

/*
 * The pure evaluation: appends to out (source FSRC_LINK_CHECK) what m
 * shows about its bond.  Slaves that were not probed are left out of every
 * finding; a bond whose slaves reach no peer at all gets none (no bondd
 * answers there, which proves nothing).  Returns 0 or -1 when out of
 * memory.
 */
int linkcheck_eval(const struct lc_matrix *m, struct findings *out);

/* The row's entry for a peer slave, added when missing (NULL when full, or
 * out of memory).  Adding one may move the row's peers: a pointer into
 * them lasts until the next call on the same row. */
struct lc_peer_obs *lc_row_peer(struct lc_slave_obs *row, const struct lc_end *end);
/* The same for an answer to our check, which proves a path where a request
 * proves only that someone sent it: in a full row it takes the place of a
 * peer that has not answered (one not waited for first), so requests from
 * many stations cannot crowd the peers that answer out (NULL when every
 * place holds a peer that answered). */
struct lc_peer_obs *lc_row_peer_answered(struct lc_slave_obs *row, const struct lc_end *end);
bool lc_end_same(const struct lc_end *a, const struct lc_end *b);
/* dst becomes a copy of src, peers and all, in dst's own room (grown when
 * needed).  Returns 0, or -1 when out of memory: dst then keeps the peers
 * that fit, the first ones. */
int lc_row_copy(struct lc_slave_obs *dst, const struct lc_slave_obs *src);
/* Frees a row's peers (the row itself is the caller's), leaving it empty. */
void lc_row_free(struct lc_slave_obs *row);
void lc_rows_free(struct lc_slave_obs *rows, size_t n);
/* Whether one of host's slaves answered a probe in rows (n of them): a
 * bondd that takes part, not a station that only sends requests (anyone on
 * the switch can send one with a made-up host id; only a bondd answers). */
bool lc_host_answered(const struct lc_slave_obs *rows, size_t n,
		      const uint8_t host[LC_HOST_ID_LEN]);
/* A peer slave as a number (a hash of its host id and name), for a
 * finding's `peers` (findings.h). */
uint32_t lc_peer_id(const struct lc_end *end);
/* The first 8 hex digits of a host id, enough to tell hosts apart. */
void lc_host_short(const uint8_t host[LC_HOST_ID_LEN], char out[9]);

/* A peer's host as people know it: the name its frames gave, else the
 * first 8 hex digits of its id. */
const char *lc_end_host(const struct lc_end *end, char out[LC_HOST_NAME_LEN]);

const struct lc_result *lc_results_find(const struct lc_results *rs, const char *bond);

/* Renderers (src/linkcheck/linkcheck_render.c). */
/* The "link_check" object of a bond in --json ("null" without a result). */
void linkcheck_json(struct strbuf *out, const struct lc_result *r);
/* bondd_link_check_* gauges of the bonds whose last results are
 * results[0..n) (NULL: none for that bond). */
void linkcheck_prometheus(struct strbuf *out, const struct lc_result *const *results, size_t n);
/* The per-slave table of bondd-status --link-check, with the link check's
 * findings among found[0..n_found), the findings about the bond. */
void linkcheck_table(struct strbuf *out, const struct lc_result *r, const char *bond,
		     const struct finding *const *found, size_t n_found);

#endif
