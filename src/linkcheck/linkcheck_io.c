/* SPDX-License-Identifier: MIT */
/*
 * The link check's I/O (linkcheck_io.h): packet sockets per slave, sending
 * requests, answering peers, collecting answers until the check's deadline.
 * What the answers mean is decided in linkcheck_eval.c.
 */
#include "linkcheck_io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include "linkcheck_settle.h"
#include "log.h"
#include "small_file.h"

/* Receive buffer per slave socket. */
#define LC_RCVBUF (1 << 20)
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

struct lc_sock {
	struct lc_bond *bond;
	size_t idx;              /* the slave's index in the bond */
	int fd;                  /* -1: the slave is not ready to probe */
	int ifindex;
	uint32_t mtu;            /* the full size: the slave's MTU, at most the bond's */
	int64_t answers_ms;      /* start of the current answer second */
	unsigned answers;        /* answers sent in it */
	unsigned answers_proven; /* ... of them to peers that answered us */
	/* Its events' rate limit: a bucket of LC_BURST checks, one back
	 * every LC_REFILL_MS; an event without a token waits for one. */
	unsigned tokens;
	int64_t tokens_ms;
	bool pending;            /* an event waits for a token */
};

struct lc_bond {
	char name[IFNAMSIZ];
	enum bond_mode mode;
	uint32_t mtu;
	bool enabled, seen;
	bool lag_expected;       /* link_topology = lag */
	bool lag_seen;           /* the last check found a switch LAG: a peer
				  * slave heard is not one to wait for (the
				  * switch's hash picks who answers) */
	bool waited;             /* at the start of a sync: running or asked for */
	size_t n;
	char slaves[BONDD_MAX_SLAVES][IFNAMSIZ];
	struct lc_sock socks[BONDD_MAX_SLAVES];
	struct lc_slave_obs *live;   /* being collected */
	struct lc_slave_obs *shown;  /* the last complete check */
	struct lc_result result;
	/* the running check */
	bool running;
	uint32_t probe_id;
	int64_t started_ms, deadline_ms, trigger_since_ms;
	bool running_fresh;      /* it was started by a change, not a re-check */
	bool running_demand;     /* ... by a client's request */
	/* the next check */
	bool due, due_demand, due_probe_back, due_fresh;
	int64_t due_since_ms;
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
	char due_trigger[64];
	/* rate limit: peers' requests to probe back take a token of the
	 * bond's bucket or wait (lc_wish); no two checks within LC_MIN_GAP_MS */
	unsigned peer_tokens;
	int64_t peer_tokens_ms, last_start_ms;
	/* ... those of stations no check of ours heard answer take a token of
	 * a bucket of their own, so that they cannot use up the peers' */
	unsigned stranger_tokens;
	int64_t stranger_tokens_ms;
	bool drop_logged;        /* said once that requests were dropped */
	/* settling (linkcheck_settle.h): when to look again, and the
	 * findings of the last two checks as the evaluation made them */
	struct lc_settle settle;
	struct findings raw_last, raw_before;
	struct findings found;   /* the last check's, pending or confirmed */
	struct findings was;     /* found, as the check before left it */
	bool reeval;             /* a late answer changed the last check */
	struct lc_recent recent; /* our last checks' probe ids (late answers) */
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
	uint32_t next_probe;
	struct findings *findings;
	lc_done_fn done;
	void *ctx;
	struct lc_bond **bonds;
	size_t n_bonds;
	const struct lc_result **rv;
	struct lc_results results;
	bool reloaded, perm_logged;
	bool twin_logged;        /* said that another host uses our host id */
	uint32_t rng;            /* xorshift state for the re-checks' jitter */
	/* hosts that answered a check of ours lately: their requests are a
	 * peer's, with budgets of their own */
	struct {
		uint8_t host[LC_HOST_ID_LEN];
		int64_t ms;
	} known[LC_KNOWN_HOSTS];
	uint8_t buf[LC_MAX_LEN + 1];
};

static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The host id: /etc/machine-id, made distinct per network namespace (two
 * bondd in two namespaces of one machine are two hosts to the switch);
 * random when there is no machine-id. */
static void host_id(uint8_t id[LC_HOST_ID_LEN])
{
	char text[64];
	bool ok = small_file_read("/etc/machine-id", text, sizeof(text));
	for (size_t i = 0; ok && i < LC_HOST_ID_LEN; i++) {
		unsigned v;
		ok = sscanf(text + 2 * i, "%2x", &v) == 1;
		id[i] = (uint8_t)v;
	}
	if (!ok && getrandom(id, LC_HOST_ID_LEN, 0) != LC_HOST_ID_LEN)
		for (size_t i = 0; i < LC_HOST_ID_LEN; i++)
			id[i] = (uint8_t)(rand() ^ getpid());
	struct stat st;
	if (stat("/proc/self/ns/net", &st) == 0)
		for (size_t i = 0; i < sizeof(st.st_ino) && i < 8; i++)
			id[i] ^= (uint8_t)(st.st_ino >> (8 * i));
}

/* --- sockets --------------------------------------------------------------- */

static void sock_close(struct lc_sock *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->ifindex = 0;
}

static int sock_open(struct linkcheck *lc, struct lc_sock *s, int ifindex)
{
	/* SOCK_DGRAM: the kernel builds and strips the Ethernet header.
	 * Bound to the slave, with our EtherType only, the socket sees the
	 * frames that arrived on that slave even while it is enslaved
	 * (net/core/dev.c __netif_receive_skb_core delivers to the
	 * orig_dev's ptype_specific list after the bond's rx_handler). */
	int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(LC_ETHERTYPE));
	if (fd < 0)
		return -errno;
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(LC_ETHERTYPE),
				  .sll_ifindex = ifindex};
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = s};
	/* A check's answers come in a burst of up to three sizes from every
	 * peer slave: room for them (the forced size needs CAP_NET_ADMIN,
	 * which bondd has; else the kernel's limit applies). */
	int rcvbuf = LC_RCVBUF;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	int sndbuf = LC_SNDBUF;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    epoll_ctl(lc->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	s->fd = fd;
	s->ifindex = ifindex;
	return 0;
}

/* Sends to `mac`, or to the broadcast address when it is NULL. */
static int sock_send(struct lc_sock *s, const uint8_t *buf, size_t len, const uint8_t *mac)
{
	struct sockaddr_ll to = {.sll_family = AF_PACKET, .sll_protocol = htons(LC_ETHERTYPE),
				 .sll_ifindex = s->ifindex, .sll_halen = 6,
				 .sll_addr = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	if (mac)
		memcpy(to.sll_addr, mac, 6);
	for (;;) {
		ssize_t n = sendto(s->fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
		if (n == (ssize_t)len)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : -EMSGSIZE;
	}
}

/* --- bonds ------------------------------------------------------------------ */

static void bond_free(struct lc_bond *b)
{
	for (size_t i = 0; i < b->n; i++)
		sock_close(&b->socks[i]);
	free(b->live);
	free(b->shown);
	findings_free(&b->raw_last);
	findings_free(&b->raw_before);
	findings_free(&b->found);
	findings_free(&b->was);
	free(b);
}

static struct lc_bond *bond_find(struct linkcheck *lc, const char *name)
{
	for (size_t i = 0; i < lc->n_bonds; i++)
		if (strcmp(lc->bonds[i]->name, name) == 0)
			return lc->bonds[i];
	return NULL;
}

static int slave_index(const struct lc_bond *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->slaves[i], name) == 0)
			return (int)i;
	return -1;
}

/* A host whose bondd answered one of our checks in the last LC_KNOWN_MS. */
static bool known_host(const struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now)
{
	for (size_t i = 0; i < LC_KNOWN_HOSTS; i++)
		if (lc->known[i].ms && now - lc->known[i].ms < LC_KNOWN_MS &&
		    memcmp(lc->known[i].host, host, LC_HOST_ID_LEN) == 0)
			return true;
	return false;
}

/* Remembers that `host` answered; the oldest entry gives its place. */
static void known_add(struct linkcheck *lc, const uint8_t host[LC_HOST_ID_LEN], int64_t now)
{
	size_t at = 0;
	for (size_t i = 0; i < LC_KNOWN_HOSTS; i++) {
		if (memcmp(lc->known[i].host, host, LC_HOST_ID_LEN) == 0 && lc->known[i].ms) {
			at = i;
			break;
		}
		if (lc->known[i].ms < lc->known[at].ms)
			at = i;
	}
	memcpy(lc->known[at].host, host, LC_HOST_ID_LEN);
	lc->known[at].ms = now;
}

/* The rate limits' token buckets (linkcheck_settle.h). */
static int64_t refill(unsigned *tokens, int64_t *since, int64_t now)
{
	return lc_bucket_refill(tokens, since, now, LC_BURST, LC_REFILL_MS);
}

/* Remembers that `b` should be checked; process_due starts it when the
 * rate limit allows.  A check started by our own events asks the peers to
 * probe back, so that their requests (the other direction) arrive within
 * it; one started by a peer's request does not, or two hosts would keep
 * each other checking. */
static void trigger(struct lc_bond *b, const char *why, bool demand, bool from_peer, bool fresh)
{
	if (!b->enabled)
		return;
	/* Events coalesce into one check; it is named after (and timed
	 * from) the first of our own, else the first peer's request. */
	if (!b->due || (!from_peer && !b->due_probe_back)) {
		b->due_since_ms = mono_ms();
		snprintf(b->due_trigger, sizeof(b->due_trigger), "%s", why);
	}
	b->due = true;
	b->due_demand |= demand;
	b->due_probe_back |= !from_peer;
	b->due_fresh |= fresh;
}

/* A slave became ready: a check now if its bucket has a token, else
 * when it has one (process_due). */
static void slave_event(struct lc_bond *b, struct lc_sock *s)
{
	int64_t now = mono_ms();
	if (refill(&s->tokens, &s->tokens_ms, now) > now) {
		s->pending = true;
		return;
	}
	s->tokens--;
	s->pending = false;
	char why[64];
	snprintf(why, sizeof(why), "%s ready", b->slaves[s->idx]);
	trigger(b, why, false, false, true);
}

/* The findings list the daemon reads: every enabled bond's last check's,
 * pending or confirmed. */
static void rebuild_findings(struct linkcheck *lc)
{
	findings_clear(lc->findings);
	for (size_t i = 0; i < lc->n_bonds; i++) {
		const struct lc_bond *b = lc->bonds[i];
		for (size_t j = 0; b->enabled && b->result.checks && j < b->found.n; j++) {
			struct finding *f = findings_add(lc->findings, FSRC_LINK_CHECK,
							 FSEV_DEGRADED, FK_CROSSED, b->name);
			if (!f) {
				log_err("%s: link check: out of memory for its findings", b->name);
				return;
			}
			*f = b->found.v[j];
		}
	}
}

/* f was a confirmed finding of the check before too (warned of then). */
static bool confirmed_before(const struct lc_bond *b, const struct finding *f)
{
	for (size_t j = 0; j < b->was.n; j++)
		if (!b->was.v[j].pending && lc_settle_same(&b->was.v[j], f))
			return true;
	return false;
}

/* The last check's matrix evaluated, its findings marked pending or
 * confirmed against the check before's; returns how many are pending, or
 * -1 when out of memory. */
static int evaluate(struct lc_bond *b)
{
	findings_clear(&b->raw_last);
	findings_clear(&b->found);
	if (linkcheck_eval(&b->result.m, &b->raw_last) < 0)
		return -1;
	for (size_t j = 0; j < b->raw_last.n; j++) {
		struct finding *f = findings_add(&b->found, FSRC_LINK_CHECK, FSEV_DEGRADED,
						 FK_CROSSED, b->name);
		if (!f)
			return -1;
		*f = b->raw_last.v[j];
	}
	b->lag_seen = false;
	for (size_t j = 0; j < b->raw_last.n; j++)
		b->lag_seen |= b->raw_last.v[j].kind == FK_SWITCH_LAG;
	return (int)lc_settle_confirm(&b->found, 0, &b->raw_before);
}

/* Sends a slave's requests, one per size class, for the running check;
 * returns how many went out. */
static unsigned send_requests(struct linkcheck *lc, struct lc_bond *b, size_t i, bool probe_back)
{
	struct lc_slave_obs *row = &b->live[i];
	struct lc_sock *s = &b->socks[i];
	unsigned frames = 0;

	if (s->fd < 0)
		return 0;
	uint32_t full = s->mtu < LC_MAX_LEN ? s->mtu : LC_MAX_LEN;
	row->sizes[LC_SMALL] = LC_HEADER_LEN;
	row->sizes[LC_STANDARD] = full > LC_STANDARD_LEN ? LC_STANDARD_LEN : 0;
	row->sizes[LC_FULL] = full > LC_HEADER_LEN ? full : 0;
	for (int c = 0; c < LC__SIZES; c++) {
		if (!row->sizes[c])
			continue;
		struct lc_frame f = {.type = LC_REQUEST, .size = (enum lc_size)c,
				     .flags = probe_back ? LC_FLAG_PROBE_BACK : 0,
				     .probe_id = b->probe_id, .length = (uint16_t)row->sizes[c]};
		memcpy(f.from.host, lc->host, LC_HOST_ID_LEN);
		snprintf(f.from.bond, IFNAMSIZ, "%s", b->name);
		snprintf(f.from.slave, IFNAMSIZ, "%s", b->slaves[i]);
		f.from.pos = row->pos;
		int len = lc_frame_encode(&f, lc->buf, sizeof(lc->buf));
		int err = len < 0 ? -EINVAL : sock_send(s, lc->buf, (size_t)len, NULL);
		if (err == -ENOBUFS) {
			/* Dropped on the way out: by a full queue, or by a next
			 * hop that takes no frame this large (a veth peer,
			 * drivers/net/veth.c veth_xmit, reports its MTU drop
			 * so).  Sent, as far as the matrix goes: no answer will
			 * say what happened to it. */
			snprintf(row->error, sizeof(row->error), "%u bytes dropped on the way out",
				 row->sizes[c]);
			err = 0;
		}
		if (err < 0) {
			snprintf(row->error, sizeof(row->error), "sending %u bytes: %s", row->sizes[c],
				 strerror(-err));
			row->sizes[c] = 0;
			continue;
		}
		row->sent |= (uint8_t)LC_SIZE_BIT(c);
		frames++;
	}
	row->probed = row->sent & LC_SIZE_BIT(LC_SMALL);
	b->result.requests_total += frames;
	return frames;
}

/* How long a check waits at most: LC_WAIT_MS, more with many peers (they
 * all answer at once, and a busy host answers its peers in turn), and
 * twice the lateness of the latest answer seen lately, so that a slow
 * path or a busy peer is waited for instead of judged; LC_WAIT_MAX_MS at
 * most.  A check ends sooner when every peer it waits for has answered. */
static uint32_t wait_for(struct lc_bond *b)
{
	size_t peers = 0;
	for (size_t i = 0; i < b->n; i++)
		peers += b->shown[i].n_peers;
	uint64_t ms = LC_WAIT_MS + (uint64_t)LC_WAIT_PER_PEER_MS * peers;
	if (ms < 2ull * b->slow_ms)
		ms = 2ull * b->slow_ms;
	if (ms > LC_WAIT_MAX_MS)
		ms = LC_WAIT_MAX_MS;
	b->slow_ms -= b->slow_ms / 4;
	b->result.wait_ms = (uint32_t)ms;
	return (uint32_t)ms;
}

static void start_check(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	b->running = b->result.running = true;
	b->started_ms = b->last_start_ms = now;
	b->deadline_ms = now + wait_for(b);
	b->trigger_since_ms = b->due_since_ms;
	b->probe_id = lc->next_probe++;
	lc_recent_add(&b->recent, b->probe_id, now);
	snprintf(b->result.trigger, sizeof(b->result.trigger), "%s", b->due_trigger);
	bool probe_back = b->due_probe_back;
	b->running_fresh = b->due_fresh;
	b->running_demand = b->due_demand;
	b->due = b->due_demand = b->due_probe_back = b->due_fresh = false;
	/* a broadcast check: it serves every wish owed so far */
	memset(b->wish, 0, sizeof(b->wish));
	memset(b->wish_blind, 0, sizeof(b->wish_blind));
	b->settle.next_ms = 0; /* this is the re-check, or replaces it */

	unsigned frames = 0;
	for (size_t i = 0; i < b->n; i++) {
		struct lc_slave_obs *row = &b->live[i];
		/* Answers are this check's alone; what peers sent counts while
		 * it is recent (it may be what made us check), and in a re-check
		 * a little longer: it confirms or clears what the check before
		 * found, and a peer's requests arrive only when the peer checks
		 * (a one-way path is confirmed by its peer's requests of the
		 * check before and the answers still missing in this one). */
		int64_t slack = b->running_fresh ? LC_HEARD_SLACK_MS : LC_HEARD_KEEP_MS;
		size_t keep = 0;
		for (size_t p = 0; p < row->n_peers; p++) {
			struct lc_peer_obs pe = row->peers[p];
			pe.answered = 0;
			pe.expected = pe.wished = false;
			if (pe.heard && pe.heard_ms >= now - slack)
				row->peers[keep++] = pe;
		}
		row->n_peers = keep;
		/* Whom to wait for: every peer slave the check before saw,
		 * those that answered it first (in a full row a peer that
		 * only sent requests gives its place up). */
		for (int pass = 0; pass < 2; pass++)
			for (size_t p = 0; p < b->shown[i].n_peers; p++) {
				const struct lc_peer_obs *old = &b->shown[i].peers[p];
				/* (a peer only heard is waited for when its
				 * host answered: a stranger's requests are not
				 * a peer's) */
				if (pass ? old->answered || !old->heard || b->lag_seen ||
						   !known_host(lc, old->end.host, now)
					 : !old->answered)
					continue;
				struct lc_peer_obs *pe = pass ? lc_row_peer(row, &old->end)
							      : lc_row_peer_answered(row, &old->end);
				if (pe)
					pe->expected = true;
			}
		row->siblings = row->answered_on = 0;
		row->probed = row->resent = false;
		row->sent = 0;
		row->error[0] = '\0';
		memset(row->sizes, 0, sizeof(row->sizes));
		snprintf(row->name, sizeof(row->name), "%s", b->slaves[i]);
		row->pos = (uint8_t)(i + 1);
		row->ifindex = b->socks[i].ifindex;
		frames += send_requests(lc, b, i, probe_back);
	}
	b->result.frames_sent = frames;
	log_debug("%s: link check started (%s): %u requests", b->name, b->result.trigger, frames);
}

/* A host one of whose slaves answered this check: a bondd, not a station
 * that only sends requests (a forger's made-up host id never answers). */
static bool host_answered(const struct lc_bond *b, const uint8_t host[LC_HOST_ID_LEN])
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++)
			if (b->live[i].peers[p].answered &&
			    memcmp(b->live[i].peers[p].end.host, host, LC_HOST_ID_LEN) == 0)
				return true;
	return false;
}

/* Counts the peer slaves we wait for (they answered the check before, or
 * their requests arrived and their host answers) and, in *missing, those
 * of them that have not answered every size sent yet. */
static size_t awaited(const struct lc_bond *b, size_t *missing)
{
	size_t known = 0;
	*missing = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct lc_slave_obs *row = &b->live[i];
		for (size_t p = 0; row->probed && p < row->n_peers; p++) {
			const struct lc_peer_obs *pe = &row->peers[p];
			if (!pe->expected &&
			    (b->lag_seen || !(pe->heard && host_answered(b, pe->end.host))))
				continue;
			known++;
			*missing += pe->answered != row->sent;
		}
	}
	return known;
}

/* Every peer slave we wait for has answered every size sent: nothing more
 * to wait for.  A check with no such peer waits its whole time. */
static bool answers_complete(const struct lc_bond *b)
{
	size_t missing, known = awaited(b, &missing);
	if (!known || missing)
		return false;
	/* A probed slave that no peer answered yet, while others have
	 * answers, is waited for the whole time: it may be slow rather
	 * than cut off, and a finding about it must rest on a full wait. */
	for (size_t i = 0; i < b->n; i++) {
		const struct lc_slave_obs *row = &b->live[i];
		bool any = false;
		for (size_t p = 0; row->probed && p < row->n_peers && !any; p++)
			any = row->peers[p].answered != 0;
		if (row->probed && !any)
			return false;
	}
	return true;
}

static uint32_t next_rand(struct linkcheck *lc)
{
	/* xorshift32: spreads the checks of hosts that saw one change */
	uint32_t x = lc->rng ? lc->rng : 0x9e3779b9u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	lc->rng = x;
	return x;
}

static uint32_t jitter(struct linkcheck *lc)
{
	return next_rand(lc) % (LC_SETTLE_FIRST_MS / 4);
}

/* A peer slave's request kept from before this check (a re-check keeps
 * LC_HEARD_KEEP_MS) on one slave, while in this check that peer slave
 * answered another slave and not this one: the path moved (a switch put
 * right), and the request came the old way.  It is dropped. */
static void drop_moved(struct lc_bond *b)
{
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++) {
			struct lc_peer_obs *pe = &b->live[i].peers[p];
			if (!pe->heard || pe->answered || pe->heard_ms >= b->started_ms)
				continue;
			bool moved = false;
			for (size_t j = 0; j < b->n && !moved; j++)
				for (size_t q = 0; j != i && q < b->live[j].n_peers && !moved; q++)
					moved = b->live[j].peers[q].answered &&
						lc_end_same(&b->live[j].peers[q].end, &pe->end);
			if (moved)
				pe->heard = 0;
		}
}

/* A request from `end` shows what the last check of slave i did not:
 * that slave was not answered by it (a host new to us, a path that
 * changed).  A peer slave only heard is news too: its requests prove
 * nothing about ours reaching it, and a host that appeared while our check
 * ran may have been heard and never asked (a wish that found us busy).
 * Behind a switch LAG a peer slave answers whichever slave the switch's
 * hash picks: one that answered another slave is no news. */
static bool news(const struct lc_bond *b, size_t i, const struct lc_end *end)
{
	if (!b->result.checks || !b->shown[i].probed)
		return true;
	for (size_t j = 0; j < b->n; j++) {
		const struct lc_slave_obs *row = &b->shown[j];
		for (size_t p = 0; (j == i || b->lag_seen) && p < row->n_peers; p++)
			if (row->peers[p].answered && lc_end_same(&row->peers[p].end, end))
				return false;
	}
	return true;
}

/* A wish owed a check is still owed: a peer slave that asked since the
 * last check began has not answered us since (a late answer counts), or
 * one asked that a full row had no place for. */
static bool wish_owed(const struct lc_bond *b)
{
	if (!b->wish[0].since_ms && !b->wish[1].since_ms)
		return false;
	if (b->wish_blind[0] || b->wish_blind[1])
		return true;
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->live[i].n_peers; p++)
			if (b->live[i].peers[p].wished && news(b, i, &b->live[i].peers[p].end))
				return true;
	return false;
}

static void finish_check(struct linkcheck *lc, struct lc_bond *b, int64_t now)
{
	drop_moved(b);
	b->running = b->result.running = false;
	b->result.checks++;
	b->result.wall_ms = wall_ms();
	b->result.took_ms = (uint32_t)(now - b->started_ms);
	b->result.trigger_ms = (uint32_t)(now - b->trigger_since_ms);
	memcpy(b->shown, b->live, b->n * sizeof(*b->shown));
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			b->shown[i].peers[p].expected = false;
	b->result.m = (struct lc_matrix){.mode = b->mode, .mtu = b->mtu, .slaves = b->shown,
					 .n_slaves = b->n, .lag_expected = b->lag_expected};
	snprintf(b->result.m.bond, IFNAMSIZ, "%s", b->name);
	size_t missing;
	awaited(b, &missing);
	struct findings t = b->raw_before;
	b->raw_before = b->raw_last;
	b->raw_last = t;
	t = b->was;
	b->was = b->found;
	b->found = t;
	int pending = evaluate(b);
	if (pending < 0)
		log_err("%s: link check: out of memory for its findings", b->name);
	b->reeval = false;
	rebuild_findings(lc);
	b->result.pending = pending > 0 ? (unsigned)pending : 0;
	b->result.missing = (unsigned)missing;
	/* (an informational finding, such as an intended LAG, is no reason
	 * to look again) */
	bool degraded = false;
	for (size_t j = 0; j < b->raw_last.n; j++)
		degraded |= b->raw_last.v[j].severity == FSEV_DEGRADED;
	lc_settle_checked(&b->settle, now, degraded || missing > 0, b->running_fresh, jitter(lc));
	/* wishes the check did not serve (the peer slave asked while it
	 * ran and did not answer it) stay owed: process_due */
	bool owed = wish_owed(b);
	b->result.settling = !lc_settle_quiet(&b->settle) || owed;
	b->result.recheck_ms = b->settle.next_ms ? (uint32_t)(b->settle.next_ms - now) : 0;
	/* The client's answer is a check started after it asked (one that
	 * was running already may predate what it wants to see), and the
	 * check confirming that one's findings when it found any that
	 * matter (a new informational one starts no re-check: nothing to
	 * wait for). */
	if (b->demand_wait && (b->running_demand || b->demand_checks) &&
	    (++b->demand_checks >= 2 || pending <= 0 || lc_settle_quiet(&b->settle)))
		b->demand_wait = false;
	/* A client waits for the confirming check: it comes at the first
	 * step, whatever the schedule had reached. */
	if (b->demand_wait && b->settle.next_ms > now + LC_SETTLE_FIRST_MS)
		b->settle.next_ms = now + LC_SETTLE_FIRST_MS;

	size_t n_find = 0, reached = 0;
	for (size_t i = 0; i < lc->findings->n; i++)
		n_find += strcmp(lc->findings->v[i].bond, b->name) == 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t p = 0; p < b->shown[i].n_peers; p++)
			reached += b->shown[i].peers[p].answered != 0;
	log_info("%s: link check done in %u ms (%s): %u requests, %zu answered paths, "
		 "%zu finding%s (%d pending), %zu peer slave%s late; next check %s", b->name,
		 b->result.took_ms, b->result.trigger, b->result.frames_sent, reached, n_find,
		 n_find == 1 ? "" : "s", pending, missing, missing == 1 ? "" : "s",
		 b->settle.next_ms || owed ? "soon" : "on a change");
	/* A finding is a warning once confirmed; pending, it is a claim that
	 * the next check may not repeat (a peer late, a port still learning):
	 * logged at info. */
	for (size_t i = 0; i < b->found.n; i++) {
		const struct finding *f = &b->found.v[i];
		if (f->pending)
			log_info("%s: link check: pending %s: %s", b->name,
				 finding_kind_name(f->kind), f->evidence);
		else if (f->severity == FSEV_INFO || confirmed_before(b, f))
			/* informational, or a warning already given */
			log_info("%s: link check: %s: %s", b->name, finding_kind_name(f->kind),
				 f->evidence);
		else
			log_warn("%s: link check: %s: %s; fix: %s", b->name,
				 finding_kind_name(f->kind), f->evidence, f->fix);
	}
	if (lc->done)
		lc->done(lc->ctx, b->name);
}


/* Ends checks past their deadline, starts the due ones the rate limit
 * allows, and arms the timer for the next of these; with nothing running
 * or due the timer is off. */
static void process_due(struct linkcheck *lc)
{
	int64_t now = mono_ms(), next = 0;

	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		if (b->reeval) {
			b->reeval = false;
			int pending = evaluate(b);
			b->result.pending = pending > 0 ? (unsigned)pending : 0;
			rebuild_findings(lc);
		}
		if (b->running && (now >= b->deadline_ms ||
				   (now >= b->started_ms + LC_MIN_WAIT_MS && answers_complete(b))))
			finish_check(lc, b, now);
		for (size_t j = 0; j < b->n; j++) {
			struct lc_sock *s = &b->socks[j];
			if (!s->pending)
				continue;
			if (s->fd < 0) {
				s->pending = false;
				continue;
			}
			int64_t at = refill(&s->tokens, &s->tokens_ms, now);
			if (at <= now)
				slave_event(b, s);
			else if (!next || at < next)
				next = at;
		}
		/* settling: the re-check, unless a check is due or running
		 * anyway (it takes the re-check's place).  Re-checks take a
		 * token of the bucket peers' wishes to be probed back take
		 * (a check that our own events did not start), so that the
		 * two together stay within it; one a client waits for does
		 * not wait for a token. */
		if (b->settle.next_ms && !b->running && !b->due) {
			int64_t at = b->settle.next_ms;
			if (at <= now && !b->demand_wait)
				at = refill(&b->peer_tokens, &b->peer_tokens_ms, now);
			if (at <= now) {
				if (!b->demand_wait)
					b->peer_tokens--;
				trigger(b, "re-check", false, false, false);
			} else if (!next || at < next) {
				next = at;
			}
		}
		/* peers' wishes owed a check (lc_wish): unless one runs or
		 * is due (it serves them, or its end shows whether the peers
		 * answered), when the window and the wish's bucket allow;
		 * those answered since are served. */
		if (!b->running && !b->due && (b->wish[0].since_ms || b->wish[1].since_ms) &&
		    !wish_owed(b)) {
			memset(b->wish, 0, sizeof(b->wish));
			memset(b->wish_blind, 0, sizeof(b->wish_blind));
			/* the last check's line said "next check soon" for them */
			if (lc_settle_quiet(&b->settle))
				log_info("%s: link check: the peer slaves that asked to be probed "
					 "back have answered; next check on a change", b->name);
		}
		for (int k = 0; k < 2; k++) {
			size_t peers = 0;
			for (size_t j = 0; j < b->n; j++)
				peers += b->shown[j].n_peers;
			unsigned *tokens = k ? &b->stranger_tokens : &b->peer_tokens;
			int64_t *since = k ? &b->stranger_tokens_ms : &b->peer_tokens_ms;
			int64_t at = b->wish[k].since_ms
					     ? lc_wish_at(&b->wish[k], b->running || b->due,
							  b->last_start_ms, b->settle.next_ms, peers,
							  refill(tokens, since, now))
					     : 0;
			if (at && at <= now) {
				(*tokens)--;
				trigger(b, b->wish_why, false, true, false);
			} else if (at && (!next || at < next)) {
				next = at;
			}
		}
		/* settling: a re-check is due, or a check owed to wishes (a
		 * wish served by the answers to a check, with no check of
		 * its own, leaves the bond settled) */
		if (!b->running && b->enabled)
			b->result.settling = !lc_settle_quiet(&b->settle) || b->wish[0].since_ms ||
					     b->wish[1].since_ms;
		if (b->due && !b->running) {
			int64_t at = b->last_start_ms ? b->last_start_ms + LC_MIN_GAP_MS : now;
			if (at <= now)
				start_check(lc, b, now);
			else if (!next || at < next)
				next = at;
		}
		int64_t end = b->started_ms + LC_MIN_WAIT_MS > now ? b->started_ms + LC_MIN_WAIT_MS
								  : b->deadline_ms;
		if (b->running && (!next || end < next))
			next = end;
	}
	struct itimerspec its = {0};
	if (next) {
		int64_t in = next > now ? next - now : 1;
		its.it_value.tv_sec = in / 1000;
		its.it_value.tv_nsec = (in % 1000) * 1000000 + 1;
	}
	timerfd_settime(lc->timer_fd, 0, &its, NULL);
}

/* --- frames from the wire ---------------------------------------------------- */

/* Requests left unanswered by the strangers' budget (more than
 * LC_ANSWER_BURST a second from stations that never answered: a flood):
 * counted, and said once per bond.  (Wishes to be probed back are never
 * dropped: over their budget they wait for a token, lc_wish.) */
static void dropped(struct lc_bond *b)
{
	b->result.dropped++;
	if (b->drop_logged)
		return;
	b->drop_logged = true;
	log_warn("%s: link check: requests to be answered from stations that never answered a "
		 "check of ours are over their budget and dropped (a flood, or forged frames); "
		 "peers that answer keep budgets of their own; counted as dropped in "
		 "bondd-status --json, said once", b->name);
}

/* `end` answered slave i's requests in the running check or the last one. */
static bool proven_peer(const struct lc_bond *b, size_t i, const struct lc_end *end)
{
	const struct lc_slave_obs *rows[2] = {&b->live[i], &b->shown[i]};
	for (size_t r = 0; r < 2; r++)
		for (size_t p = 0; p < rows[r]->n_peers; p++)
			if (rows[r]->peers[p].answered && lc_end_same(&rows[r]->peers[p].end, end))
				return true;
	return false;
}

/* A frame of ours in reply to `from`'s, on slave s: takes one of its
 * budget, or returns false.  A peer (or anyone) sending requests fast
 * cannot make us a frame generator: at most LC_ANSWER_BURST answers and
 * echoes a second per slave, and as many again to the peer slaves that
 * answered this slave's requests (in the running check or the last one),
 * so that a flood from stations that never answer cannot starve a real
 * peer. */
static bool reply_budget(struct linkcheck *lc, struct lc_sock *s, const struct lc_end *from,
			 int64_t now)
{
	struct lc_bond *b = s->bond;
	if (now - s->answers_ms >= 1000) {
		s->answers_ms = now;
		s->answers = s->answers_proven = 0;
	}
	bool proven = known_host(lc, from->host, now) || proven_peer(b, s->idx, from);
	unsigned *used = proven ? &s->answers_proven : &s->answers;
	if (*used >= LC_ANSWER_BURST) {
		if (!proven)
			dropped(b);
		return false;
	}
	(*used)++;
	return true;
}

/* A peer's check asked to be probed back: one small request from every
 * slave of the bond, flagged as an echo (no answer wanted), to the peer's
 * address alone, once per check of the peer's whatever slaves its requests
 * arrive on.  Its requests, broadcast, are answered by every host; an
 * echo costs each peer one frame per slave, so a check's cost to the
 * cluster grows with the number of hosts, not with its square.  From
 * every slave, not only the one that heard the peer: a path that passes
 * from us to the peer only (one-way) shows only so. */
static void echo(struct linkcheck *lc, struct lc_bond *b, const struct lc_frame *req,
		 const uint8_t *mac)
{
	if (!mac)
		return;
	for (size_t k = 0; k < LC_ECHOED; k++)
		if (b->echoed[k].probe_id == req->probe_id &&
		    memcmp(b->echoed[k].host, req->from.host, LC_HOST_ID_LEN) == 0)
			return;
	memcpy(b->echoed[b->echoed_next].host, req->from.host, LC_HOST_ID_LEN);
	b->echoed[b->echoed_next].probe_id = req->probe_id;
	b->echoed_next = (b->echoed_next + 1) % LC_ECHOED;
	int64_t now = mono_ms();
	for (size_t i = 0; i < b->n; i++) {
		struct lc_sock *s = &b->socks[i];
		if (s->fd < 0 || !reply_budget(lc, s, &req->from, now))
			continue;
		/* (the asker's probe id: the echo counts for that check only) */
		struct lc_frame f = {.type = LC_REQUEST, .size = LC_SMALL, .flags = LC_FLAG_ECHO,
				     .probe_id = req->probe_id, .length = LC_HEADER_LEN};
		memcpy(f.from.host, lc->host, LC_HOST_ID_LEN);
		snprintf(f.from.bond, IFNAMSIZ, "%s", b->name);
		snprintf(f.from.slave, IFNAMSIZ, "%s", b->slaves[i]);
		f.from.pos = (uint8_t)(i + 1);
		int len = lc_frame_encode(&f, lc->buf, sizeof(lc->buf));
		int err = len > 0 ? sock_send(s, lc->buf, (size_t)len, mac) : -EINVAL;
		if (err == 0)
			b->result.echoes_sent++;
		else
			log_debug("%s: link check: echo to %s on %s: %s", b->name, req->from.slave,
				  b->slaves[i], strerror(-err));
	}
}

/* Answers to the requester's address: a broadcast answer would reach
 * every port of a shared domain, and every host's socket there. */
static void answer(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *req,
		   const uint8_t *mac)
{
	struct lc_bond *b = s->bond;

	if (!reply_budget(lc, s, &req->from, mono_ms()))
		return;
	struct lc_frame f = {.type = LC_ANSWER, .size = req->size, .probe_id = req->probe_id,
			     .length = req->length, .to = req->from};
	memcpy(f.from.host, lc->host, LC_HOST_ID_LEN);
	snprintf(f.from.bond, IFNAMSIZ, "%s", b->name);
	snprintf(f.from.slave, IFNAMSIZ, "%s", b->slaves[s->idx]);
	f.from.pos = (uint8_t)(s->idx + 1);
	int len = lc_frame_encode(&f, lc->buf, sizeof(lc->buf));
	int err = len > 0 ? sock_send(s, lc->buf, (size_t)len, mac) : -EINVAL;
	if (err == 0)
		b->result.answers_sent++;
	else
		log_debug("%s: link check: answering %s on %s: %s", b->name, f.to.slave,
			  b->slaves[s->idx], strerror(-err));
}

/* The probe id of a check of ours, the running one or the last. */
static bool own_probe(const struct linkcheck *lc, uint32_t id)
{
	for (size_t i = 0; i < lc->n_bonds; i++)
		if (lc->bonds[i]->probe_id == id && lc->bonds[i]->result.requests_total)
			return true;
	return false;
}

static void on_frame(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		     const uint8_t *mac)
{
	struct lc_bond *b = s->bond;
	struct lc_slave_obs *row = &b->live[s->idx];

	if (memcmp(f->from.host, lc->host, LC_HOST_ID_LEN) == 0) {
		/* An echo of ours, flooded back to us by a switch that did not
		 * know the peer's address yet: proves nothing here. */
		if (f->type == LC_REQUEST && (f->flags & LC_FLAG_ECHO))
			return;
		/* A request with our id that no check of ours sent: a host
		 * with a copy of our /etc/machine-id (a cloned image: in the
		 * initial network namespace its id is ours), whose probes
		 * all look like our own, or a replayed frame.  Said once. */
		if (f->type == LC_REQUEST && !own_probe(lc, f->probe_id)) {
			b->result.bad_frames++;
			if (!lc->twin_logged) {
				char host[9];
				lc_host_short(lc->host, host);
				log_warn("%s: link check: a probe on %s carries this host's id %s but "
					 "no check of this bondd sent it: another host with the same "
					 "/etc/machine-id (a cloned image), or a replayed frame; the "
					 "link check cannot tell the two hosts apart",
					 b->name, b->slaves[s->idx], host);
				lc->twin_logged = true;
			}
			return;
		}
		/* Our own request, arrived on another slave of the bond: the
		 * two share a broadcast domain. */
		int k = f->type == LC_REQUEST && strcmp(f->from.bond, b->name) == 0
				? slave_index(b, f->from.slave) : -1;
		/* ... of this check: one of an earlier check, replayed by
		 * anyone on the wire into another domain, proves nothing. */
		if (k >= 0 && (size_t)k != s->idx && b->running && f->probe_id == b->probe_id)
			row->siblings |= 1u << k;
		return;
	}
	if (f->type == LC_REQUEST) {
		/* An echo proves the path from its sender for the check of
		 * ours it names, while that check runs: not for a later one
		 * (the switch may have changed since). */
		if ((f->flags & LC_FLAG_ECHO) && (!b->running || f->probe_id != b->probe_id))
			return;
		struct lc_peer_obs *pe = lc_row_peer(row, &f->from);
		if (pe) {
			pe->heard |= (uint8_t)LC_SIZE_BIT(f->size);
			/* (an echo's leaves heard_ms: the next check does not
			 * keep it, start_check) */
			if (!(f->flags & LC_FLAG_ECHO))
				pe->heard_ms = mono_ms();
		}
		/* An echo wants no answer and no check: it is the answer to a
		 * wish of ours. */
		if (f->flags & LC_FLAG_ECHO)
			return;
		answer(lc, s, f, mac);
		int64_t now = mono_ms();
		if (f->flags & LC_FLAG_PROBE_BACK)
			echo(lc, b, f, mac);
		/* A peer checking while we are: it had not seen our requests
		 * if it has not answered them; this slave sends them again,
		 * once per check. */
		if ((f->flags & LC_FLAG_PROBE_BACK) && b->running && pe && !pe->answered &&
		    !row->resent) {
			row->resent = true;
			b->result.frames_sent += send_requests(lc, b, s->idx, false);
		}
		/* A peer's wish to be probed back that shows news is owed a
		 * check (lc_wish, process_due), from the peers' budget or
		 * the strangers'; never dropped, or a host that appears
		 * while we are busy would stay out of our matrix once its
		 * own checks are answered. */
		if ((f->flags & LC_FLAG_PROBE_BACK) && news(b, s->idx, &f->from)) {
			int k = known_host(lc, f->from.host, now) ? 0 : 1;
			if (pe)
				pe->wished = true;
			else
				b->wish_blind[k] = true;
			if (!b->wish[0].since_ms && !b->wish[1].since_ms) {
				char host[9];
				lc_host_short(f->from.host, host);
				snprintf(b->wish_why, sizeof(b->wish_why), "probe from %s's %s", host,
					 f->from.slave);
			}
			if (!b->wish[k].since_ms) {
				size_t peers = 0;
				for (size_t i = 0; i < b->n; i++)
					peers += b->shown[i].n_peers;
				b->wish[k] = (struct lc_wish){
					.since_ms = now,
					.jitter_ms = lc_peer_jitter(next_rand(lc), peers)};
			}
			/* not settled while it is owed: it may find something */
			b->result.settling = true;
		}
		return;
	}
	if (memcmp(f->to.host, lc->host, LC_HOST_ID_LEN) != 0 || strcmp(f->to.bond, b->name) != 0)
		return; /* another host's or another bond's */
	/* An answer to the last complete check that came after its end (a
	 * busy peer, a loaded link; the next check may be running by then):
	 * late is not lost, it counts for that check, whose findings are
	 * evaluated again before the next check's are confirmed against
	 * them. */
	/* Also one to a check before that, if recent (lc_recent_started): a
	 * peer that answers at all, however late, proved the path. */
	int64_t now_ms = mono_ms();
	bool current = b->running && f->probe_id == b->probe_id;
	int64_t began = current ? -1 : lc_recent_started(&b->recent, f->probe_id, now_ms);
	bool late = b->result.checks && began >= 0;
	if (!late && !current) {
		b->result.late_answers++;
		log_debug("%s: link check: a late answer from %s for %s (%s)", b->name,
			  f->from.slave, f->to.slave, lc_size_name(f->size));
		return;
	}
	int k = slave_index(b, f->to.slave);
	if (k < 0)
		return;
	struct lc_slave_obs *rows = late ? b->shown : b->live;
	/* An answer has its request's length: one of another length (a
	 * forger's, which proves nothing about the larger frames) does not
	 * count for the size class it names. */
	if (!(rows[k].sent & LC_SIZE_BIT(f->size)) || f->length != rows[k].sizes[f->size]) {
		b->result.bad_frames++;
		log_debug("%s: link check: an answer of %u bytes from %s for %s's %s probe of %u",
			  b->name, f->length, f->from.slave, f->to.slave, lc_size_name(f->size),
			  rows[k].sizes[f->size]);
		return;
	}
	known_add(lc, f->from.host, mono_ms());
	rows[k].answered_on |= 1u << s->idx;
	struct lc_peer_obs *pe = lc_row_peer_answered(&rows[k], &f->from);
	if (pe && late && !(pe->answered & LC_SIZE_BIT(f->size))) {
		int64_t lat = now_ms - began;
		b->result.late_answers++;
		b->reeval = true;
		if (lat > (int64_t)b->slow_ms)
			b->slow_ms = lat > LC_WAIT_MAX_MS ? LC_WAIT_MAX_MS : (uint32_t)lat;
	}
	if (pe)
		pe->answered |= (uint8_t)LC_SIZE_BIT(f->size);
}

static void on_readable(struct linkcheck *lc, struct lc_sock *s)
{
	/* A bounded batch: a flood on one slave cannot starve the loop. */
	for (int i = 0; i < 256 && s->fd >= 0; i++) {
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(s->fd, lc->buf, sizeof(lc->buf), MSG_TRUNC | MSG_DONTWAIT,
				     (struct sockaddr *)&from, &fromlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		struct lc_frame f;
		const char *why = "";
		if ((size_t)n > sizeof(lc->buf) - 1 ||
		    lc_frame_decode(lc->buf, (size_t)n, &f, &why) < 0) {
			s->bond->result.bad_frames++;
			log_debug("%s: link check: a frame of %zd bytes dropped: %s",
				  s->bond->slaves[s->idx], n, (size_t)n >= sizeof(lc->buf) ? "too long" : why);
			continue;
		}
		on_frame(lc, s, &f, from.sll_halen == 6 ? from.sll_addr : NULL);
	}
}

void linkcheck_dispatch(struct linkcheck *lc)
{
	struct epoll_event evs[16];
	int n = epoll_wait(lc->epfd, evs, 16, 0);

	for (int i = 0; i < n; i++) {
		if (evs[i].data.ptr == lc) {
			uint64_t ticks;
			(void)!read(lc->timer_fd, &ticks, sizeof(ticks));
		} else {
			on_readable(lc, evs[i].data.ptr);
		}
	}
	process_due(lc);
}

/* --- following the bonds ------------------------------------------------------ */

/* A new bond, or one whose slaves or mode changed: rows start empty. */
static int bond_shape(struct lc_bond *b, const struct desired_bond *d)
{
	bool same = b->live && b->n == d->n_slaves && b->mtu == d->mtu &&
		    b->mode == (enum bond_mode)d->opts.val[OPT_MODE];
	for (size_t i = 0; same && i < d->n_slaves; i++)
		same = strcmp(b->slaves[i], d->slaves[i].name) == 0;
	if (same)
		return 0;
	struct lc_slave_obs *live = calloc(d->n_slaves ? d->n_slaves : 1, sizeof(*live));
	struct lc_slave_obs *shown = calloc(d->n_slaves ? d->n_slaves : 1, sizeof(*shown));
	if (!live || !shown) {
		free(live);
		free(shown);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->n; i++)
		sock_close(&b->socks[i]);
	free(b->live);
	free(b->shown);
	b->live = live;
	b->shown = shown;
	b->n = d->n_slaves;
	b->mtu = d->mtu;
	b->mode = (enum bond_mode)d->opts.val[OPT_MODE];
	b->running = b->result.running = false;
	b->result.checks = 0;
	b->result.m = (struct lc_matrix){0};
	/* what the old shape's checks found proves nothing about the new */
	b->settle = (struct lc_settle){0};
	memset(b->wish, 0, sizeof(b->wish));
	memset(b->wish_blind, 0, sizeof(b->wish_blind));
	b->demand_checks = 0;
	findings_clear(&b->raw_last);
	findings_clear(&b->raw_before);
	findings_clear(&b->found);
	findings_clear(&b->was);
	for (size_t i = 0; i < b->n; i++) {
		snprintf(b->slaves[i], IFNAMSIZ, "%s", d->slaves[i].name);
		b->socks[i] = (struct lc_sock){.bond = b, .idx = i, .fd = -1, .tokens = LC_BURST,
					       .tokens_ms = mono_ms()};
	}
	return 0;
}

static void sync_bond(struct linkcheck *lc, struct lc_bond *b, const struct desired_bond *d,
		      const struct observed *obs)
{
	const struct obs_link *bond = observed_by_name(obs, d->name);

	for (size_t i = 0; i < b->n; i++) {
		struct lc_sock *s = &b->socks[i];
		const struct obs_link *l = observed_by_name(obs, b->slaves[i]);
		bool ready = b->enabled && bond && l && l->master == bond->ifindex &&
			     (l->flags & IFF_UP) && (l->flags & IFF_LOWER_UP);
		if (!ready) {
			sock_close(s);
			continue;
		}
		s->mtu = l->mtu < d->mtu ? l->mtu : d->mtu;
		if (s->fd >= 0 && s->ifindex == l->ifindex)
			continue;
		sock_close(s);
		if (lc->perm_logged)
			continue;
		int err = sock_open(lc, s, l->ifindex);
		if (err == -EPERM || err == -EACCES) {
			snprintf(b->result.error, sizeof(b->result.error),
				 "no packet socket: %s (bondd needs CAP_NET_RAW)", strerror(-err));
			if (!lc->perm_logged)
				log_warn("link check: cannot open a packet socket: %s; bondd needs "
					 "CAP_NET_RAW for it (bondd(8)); checks are off", strerror(-err));
			lc->perm_logged = true;
			continue;
		}
		if (err < 0) {
			log_warn("%s: link check: packet socket on %s: %s", b->name, l->name,
				 strerror(-err));
			continue;
		}
		slave_event(b, s);
	}
}

void linkcheck_sync(struct linkcheck *lc, const struct desired *want, const struct observed *obs)
{
	if (!lc)
		return;
	/* A check someone waits for that this sync ends without evaluating
	 * it (link checking turned off, the bond gone or reshaped) is over
	 * for them too: done() tells them, or they would wait forever. */
	bool cancelled = false;
	for (size_t i = 0; i < lc->n_bonds; i++) {
		lc->bonds[i]->seen = false;
		lc->bonds[i]->waited = lc->bonds[i]->running || lc->bonds[i]->demand_wait ||
				       (lc->bonds[i]->due && lc->bonds[i]->due_demand);
	}
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *d = &want->bonds[i];
		struct lc_bond *b = bond_find(lc, d->name);
		if (!b) {
			struct lc_bond **v = realloc(lc->bonds, (lc->n_bonds + 1) * sizeof(*v));
			if (v)
				lc->bonds = v;
			b = v ? calloc(1, sizeof(*b)) : NULL;
			if (!b) {
				log_err("%s: link check: out of memory", d->name);
				continue;
			}
			snprintf(b->name, IFNAMSIZ, "%s", d->name);
			snprintf(b->result.bond, IFNAMSIZ, "%s", d->name);
			b->peer_tokens = b->stranger_tokens = LC_BURST;
			b->peer_tokens_ms = b->stranger_tokens_ms = mono_ms();
			lc->bonds[lc->n_bonds++] = b;
		}
		if (bond_shape(b, d) < 0) {
			log_err("%s: link check: out of memory", d->name);
			continue;
		}
		b->seen = true;
		bool was = b->enabled;
		b->enabled = b->result.enabled = d->link_check;
		b->lag_expected = b->result.m.lag_expected = d->lag_expected;
		if (!b->enabled) {
			b->due = b->running = b->result.running = b->demand_wait = false;
			b->settle = (struct lc_settle){0};
			memset(b->wish, 0, sizeof(b->wish));
			memset(b->wish_blind, 0, sizeof(b->wish_blind));
			b->result.settling = false;
			if (was)
				b->result.checks = 0;
		}
		sync_bond(lc, b, d, obs);
		/* A check someone waits for that a new shape of the bond
		 * ended: the next one is theirs. */
		if (b->waited && !b->running && !(b->due && b->due_demand) &&
		    (!b->demand_wait || lc_settle_quiet(&b->settle)))
			trigger(b, "asked", true, false, true);
		if (lc->reloaded)
			trigger(b, "reload", false, false, true);
	}
	lc->reloaded = false;
	size_t keep = 0;
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		cancelled |= b->waited && (!b->seen || !(b->running || b->demand_wait ||
							 (b->due && b->due_demand)));
		if (b->seen)
			lc->bonds[keep++] = b;
		else
			bond_free(b);
	}
	lc->n_bonds = keep;
	const struct lc_result **rv = realloc(lc->rv, (keep ? keep : 1) * sizeof(*rv));
	if (rv) {
		lc->rv = rv;
		for (size_t i = 0; i < keep; i++)
			rv[i] = &lc->bonds[i]->result;
		lc->results = (struct lc_results){.v = rv, .n = keep};
	} else {
		lc->results = (struct lc_results){0};
	}
	rebuild_findings(lc);
	process_due(lc);
	if (cancelled && lc->done)
		lc->done(lc->ctx, NULL);
}

void linkcheck_reloaded(struct linkcheck *lc)
{
	if (lc) {
		lc->reloaded = true;
		lc->perm_logged = false;
		for (size_t i = 0; i < lc->n_bonds; i++)
			lc->bonds[i]->result.error[0] = '\0';
	}
}

bool linkcheck_demand(struct linkcheck *lc, const char *bond)
{
	struct lc_bond *b = lc ? bond_find(lc, bond) : NULL;
	if (!b || !b->enabled)
		return false;
	if (!b->demand_wait) {
		b->demand_wait = true;
		b->demand_checks = 0;
	}
	/* A running check started before the request: the next one is the
	 * client's. */
	trigger(b, "asked", true, false, true);
	process_due(lc);
	return true;
}

bool linkcheck_busy(const struct linkcheck *lc, const char *bond)
{
	for (size_t i = 0; lc && i < lc->n_bonds; i++)
		if (strcmp(lc->bonds[i]->name, bond) == 0)
			return lc->bonds[i]->running || lc->bonds[i]->demand_wait ||
			       (lc->bonds[i]->due && lc->bonds[i]->due_demand);
	return false;
}

const struct lc_results *linkcheck_results(const struct linkcheck *lc)
{
	return lc ? &lc->results : NULL;
}

int linkcheck_fd(const struct linkcheck *lc)
{
	return lc->epfd;
}

int linkcheck_open(struct linkcheck **out, struct findings *findings, lc_done_fn done, void *ctx)
{
	struct linkcheck *lc = calloc(1, sizeof(*lc));
	if (!lc)
		return -ENOMEM;
	lc->epfd = lc->timer_fd = -1;
	lc->findings = findings;
	lc->done = done;
	lc->ctx = ctx;
	lc->epfd = epoll_create1(EPOLL_CLOEXEC);
	lc->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = lc};
	if (lc->epfd < 0 || lc->timer_fd < 0 ||
	    epoll_ctl(lc->epfd, EPOLL_CTL_ADD, lc->timer_fd, &ev) < 0) {
		int err = -errno;
		linkcheck_close(lc);
		return err;
	}
	host_id(lc->host);
	if (getrandom(&lc->next_probe, sizeof(lc->next_probe), 0) != sizeof(lc->next_probe))
		lc->next_probe = (uint32_t)getpid();
	memcpy(&lc->rng, lc->host, sizeof(lc->rng));
	lc->rng ^= lc->next_probe;
	char host[9];
	lc_host_short(lc->host, host);
	log_debug("link check: host id %s", host);
	*out = lc;
	return 0;
}

void linkcheck_close(struct linkcheck *lc)
{
	if (!lc)
		return;
	for (size_t i = 0; i < lc->n_bonds; i++)
		bond_free(lc->bonds[i]);
	free(lc->bonds);
	free(lc->rv);
	if (lc->timer_fd >= 0)
		close(lc->timer_fd);
	if (lc->epfd >= 0)
		close(lc->epfd);
	free(lc);
}
