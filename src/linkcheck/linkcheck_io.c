/* SPDX-License-Identifier: MIT */
/*
 * The link check's I/O (linkcheck_io.h): packet sockets per slave, sending
 * requests, answering peers, collecting answers until the check's deadline.
 * What the answers mean is decided in linkcheck_eval.c.
 */
#include "linkcheck_parts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_packet.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include "log.h"
#include "small_file.h"

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

/* SOCK_DGRAM: the kernel builds and strips the Ethernet header.  Bound to
 * the slave, with our EtherType only, the socket sees the frames that
 * arrived on that slave even while it is enslaved (net/core/dev.c
 * __netif_receive_skb_core delivers to the orig_dev's ptype_specific list
 * after the bond's rx_handler).  A check's answers come in a burst of up
 * to three sizes from every peer slave: room for them (the forced size
 * needs CAP_NET_ADMIN, which bondd has; else the kernel's limit applies). */
static const struct packet_sock_kind lc_sock_kind = {
	.type = SOCK_DGRAM, .ethertype = LC_ETHERTYPE,
	.rcvbuf = LC_RCVBUF, .sndbuf = LC_SNDBUF, .force_bufs = true,
	/* (our answers to a flood, read back, took the read budget) */
	.ignore_outgoing = true,
};

/* One socket for the slaves of every bond whose slaves are all active
 * (balance-rr, balance-xor, broadcast): bound to no link, each frame's
 * slave named by its sll_ifindex (PACKET_ORIGDEV, packet_sock.h), each
 * request sent with the slave's ifindex.  A socket per slave took one open
 * file each, and at 130 bonds of 4 slaves (with LLDP's) bondd had none
 * left.  Where a slave may be inactive (active-backup, 802.3ad, tlb, alb)
 * the bonding driver passes a frame that is not link-local only to
 * sockets bound to that slave (drivers/net/bonding/bond_main.c
 * bond_handle_frame, RX_HANDLER_EXACT): those slaves keep their own. */
#define LC_SHARED_BUF_MAX (64 << 20)

int lc_sock_open(struct linkcheck *lc, struct lc_sock *s, int ifindex, bool own)
{
	if (own) {
		int err = packet_sock_open(&s->sock, &lc_sock_kind, ifindex, lc->epfd, s);
		s->own = err == 0;
		return err;
	}
	if (lc->shared.fd < 0) {
		int err = packet_sock_open_any(&lc->shared, &lc_sock_kind, lc->epfd, &lc->shared);
		if (err < 0)
			return err;
		lc->shared_buf = LC_RCVBUF;
	}
	s->sock = (struct packet_sock){.fd = lc->shared.fd, .ifindex = ifindex};
	s->own = false;
	return 0;
}

void lc_sock_close(struct lc_sock *s)
{
	if (s->own) {
		packet_sock_close(&s->sock);
		packet_sock_close(&s->g.counter);
	}
	s->sock = PACKET_SOCK_CLOSED;
	s->own = false;
	/* a new socket starts without a filter, a slave new to the shared one
	 * with a fresh window: its guard with it (its peers' addresses kept) */
	s->g = (struct lc_gsock){.counter = PACKET_SOCK_CLOSED};
}

void lc_sock_forget(struct linkcheck *lc, struct lc_sock *s)
{
	/* An own socket's registration holds s's address (packet_sock_open).
	 * A close takes it out of the epoll set only when no other process
	 * has the descriptor (fs/eventpoll.c eventpoll_release), and a status
	 * snapshot's child, just forked, has it until its first steps close
	 * it (status_split.c): an event meanwhile would name freed memory. */
	if (s->own && s->sock.fd >= 0)
		epoll_ctl(lc->epfd, EPOLL_CTL_DEL, s->sock.fd, NULL);
	lc_sock_close(s);
}

static size_t ifindex_slot(int ifindex, size_t cap)
{
	return ((uint32_t)ifindex * 2654435761u) & (cap - 1);
}

static struct lc_sock *shared_user(const struct linkcheck *lc, int ifindex)
{
	if (!lc->by_ifindex || ifindex <= 0)
		return NULL;
	for (size_t k = ifindex_slot(ifindex, lc->by_ifindex_cap); lc->by_ifindex[k];
	     k = (k + 1) & (lc->by_ifindex_cap - 1))
		if (lc->by_ifindex[k]->sock.ifindex == ifindex)
			return lc->by_ifindex[k];
	return NULL;
}

static void shared_refilter(struct linkcheck *lc);

void lc_shared_sync(struct linkcheck *lc)
{
	size_t users = 0;
	for (size_t i = 0; i < lc->n_bonds; i++)
		for (size_t j = 0; j < lc->bonds[i]->n; j++)
			users += lc->bonds[i]->socks[j].sock.fd >= 0 && !lc->bonds[i]->socks[j].own;
	free(lc->by_ifindex);
	lc->by_ifindex = NULL;
	lc->by_ifindex_cap = 0;
	if (!users) {
		packet_sock_close(&lc->shared);
		packet_sock_close(&lc->shared_g.counter);
		lc->shared_g = (struct lc_gsock){.counter = PACKET_SOCK_CLOSED};
		lc->foreign = (struct lc_guard){0};
		return;
	}
	size_t cap = 16;
	while (cap < 2 * users)
		cap *= 2;
	if ((lc->by_ifindex = calloc(cap, sizeof(*lc->by_ifindex))))
		lc->by_ifindex_cap = cap;
	for (size_t i = 0; lc->by_ifindex && i < lc->n_bonds; i++)
		for (size_t j = 0; j < lc->bonds[i]->n; j++) {
			struct lc_sock *s = &lc->bonds[i]->socks[j];
			if (s->sock.fd < 0 || s->own)
				continue;
			size_t k = ifindex_slot(s->sock.ifindex, cap);
			while (lc->by_ifindex[k])
				k = (k + 1) & (cap - 1);
			lc->by_ifindex[k] = s;
		}
	/* Each slave's room, as its own socket had (LC_RCVBUF, LC_SNDBUF:
	 * the answers of a check of 64 hosts), up to LC_SHARED_BUF_MAX: a
	 * limit, not an allocation.  Grown only. */
	size_t want = users * (size_t)LC_RCVBUF;
	int buf = want > LC_SHARED_BUF_MAX ? LC_SHARED_BUF_MAX : (int)want;
	if (buf > lc->shared_buf) {
		packet_sock_set_rcvbuf(&lc->shared, &lc_sock_kind, buf);
		if (setsockopt(lc->shared.fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) < 0)
			setsockopt(lc->shared.fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
		lc->shared_buf = buf;
	}
	/* (a filter on: it admits the slaves that joined, and their peers) */
	shared_refilter(lc);
}

/* PACKET_STATISTICS of a socket (read and reset by the kernel:
 * net/packet/af_packet.c packet_getsockopt; its tp_packets includes the
 * drops). */
static struct tpacket_stats sock_stats(const struct packet_sock *ps)
{
	struct tpacket_stats st = {0};
	socklen_t len = sizeof(st);
	if (ps->fd < 0 || getsockopt(ps->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) < 0)
		return (struct tpacket_stats){0};
	return st;
}

unsigned lc_sock_drops(struct linkcheck *lc, struct lc_sock *s)
{
	if (s->own) {
		unsigned n = s->g.drops_carried + sock_stats(&s->sock).tp_drops;
		s->g.drops_carried = 0;
		return n;
	}
	/* The shared socket counts for every slave (and reading resets it,
	 * so the sum is kept here): what it dropped since this bond's last
	 * check ended, taken by the first of its slaves that asks. */
	struct lc_bond *b = s->bond;
	lc->shared_drops += lc->shared_g.drops_carried + sock_stats(&lc->shared).tp_drops;
	lc->shared_g.drops_carried = 0;
	unsigned d = (unsigned)(lc->shared_drops - b->shared_drops_seen);
	b->shared_drops_seen = lc->shared_drops;
	return d;
}

/* Sends to `mac`, or to the broadcast address when it is NULL. */
static int sock_send(struct lc_sock *s, const uint8_t *buf, size_t len, const uint8_t *mac)
{
	struct sockaddr_ll to = {.sll_family = AF_PACKET, .sll_protocol = htons(LC_ETHERTYPE),
				 .sll_ifindex = s->sock.ifindex, .sll_halen = 6,
				 .sll_addr = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	if (mac)
		memcpy(to.sll_addr, mac, 6);
	for (;;) {
		ssize_t n = sendto(s->sock.fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)&to,
				   sizeof(to));
		if (n == (ssize_t)len)
			return 0;
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -errno : -EMSGSIZE;
	}
}

/* Sends a slave's requests, one per size class, for the running check;
 * returns how many went out. */
unsigned lc_send_requests(struct linkcheck *lc, struct lc_bond *b, size_t i, bool probe_back)
{
	struct lc_slave_obs *row = &b->live[i];
	struct lc_sock *s = &b->socks[i];
	unsigned frames = 0;

	if (s->sock.fd < 0)
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
		memcpy(f.from.host_name, lc->host_name, LC_HOST_NAME_LEN);
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
/* --- frames from the wire ---------------------------------------------------- */

static void guard_noted(struct linkcheck *lc, struct lc_sock *s);

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

/* A frame of ours in reply to `from`'s, on slave s: takes one of its
 * budget, or returns false.  A peer (or anyone) sending requests fast
 * cannot make us a frame generator: at most LC_ANSWER_BURST answers and
 * echoes a second per slave, and apart from those lc_answer_budget to the
 * peer slaves that answered this slave's requests (in the running check
 * or the last one; it grows with the peer slaves that answered the last
 * check), so that a flood from stations that never answer cannot starve
 * a real peer. */
static bool reply_budget(struct linkcheck *lc, struct lc_sock *s, const struct lc_end *from,
			 int64_t now)
{
	struct lc_bond *b = s->bond;
	bool proven = lc_known_host(lc, from->host, now) || lc_proven_peer(b, s->idx, from);
	if (lc_reply_take(&s->replied, proven, lc_answered_peers(b, s->idx), now))
		return true;
	if (!proven)
		dropped(b);
	else
		b->proven_over++;
	return false;
}

/* An answer or an echo (a request flagged LC_FLAG_ECHO), built, sent on s
 * to mac now. */
static void send_reply(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		       const uint8_t *mac)
{
	struct lc_bond *b = s->bond;
	bool is_echo = f->type == LC_REQUEST;
	int len = lc_frame_encode(f, lc->buf, sizeof(lc->buf));
	int err = len > 0 ? sock_send(s, lc->buf, (size_t)len, mac) : -EINVAL;
	if (err == 0) {
		if (is_echo)
			b->result.echoes_sent++;
		else
			b->result.answers_sent++;
	} else {
		log_debug("%s: link check: %s on %s: %s", b->name,
			  is_echo ? "an echo" : "an answer", b->slaves[s->idx], strerror(-err));
	}
}

/* An answer or echo, sent `delay` ms from now (linkcheck_spread.h: a
 * peer's check gets every peer slave's answers at once on one port
 * otherwise); at once when there is no delay or no room to wait. */
static void reply_at(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		     const uint8_t *mac, int64_t now, uint32_t delay)
{
	static const uint8_t broadcast[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	struct lc_reply r = {.due_ms = now + delay, .ifindex = s->sock.ifindex, .frame = *f};
	memcpy(r.mac, mac ? mac : broadcast, sizeof(r.mac));
	if (!delay || !lc_replies_add(&lc->replies, &r))
		send_reply(lc, s, f, mac);
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
		 const uint8_t *mac, int64_t now, uint32_t delay)
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
	for (size_t i = 0; i < b->n; i++) {
		struct lc_sock *s = &b->socks[i];
		if (s->sock.fd < 0 || !reply_budget(lc, s, &req->from, now))
			continue;
		/* (the asker's probe id: the echo counts for that check only) */
		struct lc_frame f = {.type = LC_REQUEST, .size = LC_SMALL, .flags = LC_FLAG_ECHO,
				     .probe_id = req->probe_id, .length = LC_HEADER_LEN};
		memcpy(f.from.host, lc->host, LC_HOST_ID_LEN);
		memcpy(f.from.host_name, lc->host_name, LC_HOST_NAME_LEN);
		snprintf(f.from.bond, IFNAMSIZ, "%s", b->name);
		snprintf(f.from.slave, IFNAMSIZ, "%s", b->slaves[i]);
		f.from.pos = (uint8_t)(i + 1);
		reply_at(lc, s, &f, mac, now, delay);
	}
}

/* Answers to the requester's address: a broadcast answer would reach
 * every port of a shared domain, and every host's socket there. */
static void answer(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *req,
		   const uint8_t *mac, int64_t now, uint32_t delay)
{
	struct lc_bond *b = s->bond;

	if (!reply_budget(lc, s, &req->from, now))
		return;
	struct lc_frame f = {.type = LC_ANSWER, .size = req->size, .probe_id = req->probe_id,
			     .length = req->length, .to = req->from};
	memcpy(f.from.host, lc->host, LC_HOST_ID_LEN);
	memcpy(f.from.host_name, lc->host_name, LC_HOST_NAME_LEN);
	snprintf(f.from.bond, IFNAMSIZ, "%s", b->name);
	snprintf(f.from.slave, IFNAMSIZ, "%s", b->slaves[s->idx]);
	f.from.pos = (uint8_t)(s->idx + 1);
	reply_at(lc, s, &f, mac, now, delay);
}

/* The slave a waiting reply leaves by: the bond and slave that built it,
 * if they are still there with the same link and an open socket. */
static struct lc_sock *reply_sock(struct linkcheck *lc, const struct lc_reply *r)
{
	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		if (strcmp(b->name, r->frame.from.bond) != 0)
			continue;
		int k = lc_slave_index(b, r->frame.from.slave);
		if (k < 0 || b->socks[k].sock.fd < 0 || b->socks[k].sock.ifindex != r->ifindex)
			return NULL;
		return &b->socks[k];
	}
	return NULL;
}

int64_t lc_send_due_replies(struct linkcheck *lc, int64_t now)
{
	struct lc_reply due[64];
	size_t n;
	while ((n = lc_replies_take_due(&lc->replies, now, due, sizeof(due) / sizeof(due[0]))))
		for (size_t k = 0; k < n; k++) {
			struct lc_sock *s = reply_sock(lc, &due[k]);
			if (s)
				send_reply(lc, s, &due[k].frame, due[k].mac);
		}
	return lc_replies_next(&lc->replies);
}

/* The probe id of a check of ours, the running one or the last. */
static bool own_probe(const struct linkcheck *lc, uint32_t id)
{
	for (size_t i = 0; i < lc->n_bonds; i++)
		if (lc->bonds[i]->probe_id == id && lc->bonds[i]->result.requests_total)
			return true;
	return false;
}

/* A frame with our own host id, on slave s. */
static void on_own_frame(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f)
{
	struct lc_bond *b = s->bond;

	/* An echo of ours, flooded back to us by a switch that did not know
	 * the peer's address yet: proves nothing here. */
	if (f->type == LC_REQUEST && (f->flags & LC_FLAG_ECHO))
		return;
	/* A request with our id that no check of ours sent: a host with a
	 * copy of our /etc/machine-id (a cloned image: in the initial network
	 * namespace its id is ours), whose probes all look like our own, or a
	 * replayed frame.  Said once. */
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
	/* Our own request, arrived on another slave of the bond: the two
	 * share a broadcast domain. */
	int k = f->type == LC_REQUEST && strcmp(f->from.bond, b->name) == 0
			? lc_slave_index(b, f->from.slave) : -1;
	/* ... of this check: one of an earlier check, replayed by anyone on
	 * the wire into another domain, proves nothing. */
	if (k >= 0 && (size_t)k != s->idx && lc_phase_running(&b->ph) &&
	    f->probe_id == b->probe_id)
		b->live[s->idx].siblings |= 1u << k;
}

/* A peer's wish to be probed back that shows news is owed a check
 * (lc_wish, lc_process_due), from the peers' budget or the strangers';
 * never dropped, or a host that appears while we are busy would stay out
 * of our matrix once its own checks are answered.  pe: the peer slave's
 * place in the row, NULL when a full row had none. */
static void note_wish(struct linkcheck *lc, struct lc_bond *b, struct lc_peer_obs *pe,
		      const struct lc_frame *f, int64_t now)
{
	int k = lc_known_host(lc, f->from.host, now) ? 0 : 1;
	if (pe)
		pe->wished = true;
	else
		b->wish_blind[k] = true;
	if (!b->wish[0].since_ms && !b->wish[1].since_ms) {
		char host[LC_HOST_NAME_LEN];
		lc_end_host(&f->from, host);
		snprintf(b->wish_why, sizeof(b->wish_why), "probe from %s's %s", host,
			 f->from.slave);
	}
	if (!b->wish[k].since_ms) {
		b->wish[k] = (struct lc_wish){
			.since_ms = now,
			.jitter_ms = lc_peer_jitter(lc_next_rand(lc), lc_bond_peers(b))};
	}
	/* not settled while it is owed: it may find something */
	b->result.settling = true;
}

/* A peer's request (or echo) on slave s, from mac. */
static void on_request(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		       const uint8_t *mac)
{
	struct lc_bond *b = s->bond;
	struct lc_slave_obs *row = &b->live[s->idx];
	bool echoed = f->flags & LC_FLAG_ECHO, probe_back = f->flags & LC_FLAG_PROBE_BACK;
	bool running = lc_phase_running(&b->ph);

	/* An echo proves the path from its sender for the check of ours it
	 * names, while that check runs: not for a later one (the switch may
	 * have changed since). */
	if (echoed && (!running || f->probe_id != b->probe_id))
		return;
	struct lc_peer_obs *pe = lc_row_peer(row, &f->from);
	if (pe) {
		pe->heard |= (uint8_t)LC_SIZE_BIT(f->size);
		/* (an echo's leaves heard_ms: the next check does not keep
		 * it, start_check) */
		if (!echoed)
			pe->heard_ms = mono_ms();
	}
	/* An echo wants no answer and no check: it is the answer to a wish
	 * of ours. */
	if (echoed)
		return;
	/* The echo leaves with this request's answer, just before it: the
	 * asker's check may end once every answer is in, and the echoes must
	 * be in by then too. */
	int64_t now = mono_ms();
	uint32_t delay = lc_answer_delay_ms(lc_next_rand(lc), lc_answer_peers(b));
	if (probe_back)
		echo(lc, b, f, mac, now, delay);
	answer(lc, s, f, mac, now, delay);
	/* A peer checking while we are: it had not seen our requests if it
	 * has not answered them (or its answers are still on their way,
	 * spread: then it answers twice); this slave sends them again, once
	 * per check. */
	if (probe_back && running && pe && !pe->answered && !row->resent) {
		row->resent = true;
		b->result.frames_sent += lc_send_requests(lc, b, s->idx, false);
	}
	if (probe_back && lc_news(b, s->idx, &f->from))
		note_wish(lc, b, pe, f, now);
}

/* A late answer, new for the last check (`lat` ms after the check it
 * answers began), from `from` to slave k: counted, the last check
 * evaluated again, the peer remembered as slow (not one-way) and the next
 * checks' wait grown with it. */
static void note_late(struct lc_bond *b, size_t k, const struct lc_end *from, int64_t lat,
		      int64_t now_ms)
{
	b->result.late_answers++;
	b->reeval = true;
	lc_slow_note(&b->slow, (uint8_t)k, lc_peer_id(from), now_ms);
	if (lat > (int64_t)b->slow_ms)
		b->slow_ms = lat > LC_WAIT_MAX_MS ? LC_WAIT_MAX_MS : (uint32_t)lat;
}

/* An answer on slave s, from mac: to the running check, or late (to the
 * last complete check that came after its end: a busy peer, a loaded
 * link; the next check may be running by then).  Late is not lost: it
 * counts for that check, whose findings are evaluated again before the
 * next check's are confirmed against them.  Also one to a check before
 * that, if recent (lc_recent_started): a peer that answers at all,
 * however late, proved the path. */
static void on_answer(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		      const uint8_t *mac)
{
	struct lc_bond *b = s->bond;

	if (memcmp(f->to.host, lc->host, LC_HOST_ID_LEN) != 0 || strcmp(f->to.bond, b->name) != 0)
		return; /* another host's or another bond's */
	int64_t now_ms = mono_ms();
	bool current = lc_phase_running(&b->ph) && f->probe_id == b->probe_id;
	int64_t began = current ? -1 : lc_recent_started(&b->recent, f->probe_id, now_ms);
	bool late = b->result.checks && began >= 0;
	if (!late && !current) {
		b->result.late_answers++;
		log_debug("%s: link check: a late answer from %s for %s (%s)", b->name,
			  f->from.slave, f->to.slave, lc_size_name(f->size));
		return;
	}
	int k = lc_slave_index(b, f->to.slave);
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
	lc_known_add(lc, f->from.host, mono_ms());
	/* its address passes s's filter in a flood (linkcheck_guard.h) */
	if (mac && lc_macs_note(&s->macs, mac, now_ms))
		guard_noted(lc, s);
	rows[k].answered_on |= 1u << s->idx;
	struct lc_peer_obs *pe = lc_row_peer_answered(&rows[k], &f->from);
	if (pe && late && !(pe->answered & LC_SIZE_BIT(f->size)))
		note_late(b, (size_t)k, &f->from, now_ms - began, now_ms);
	if (pe)
		pe->answered |= (uint8_t)LC_SIZE_BIT(f->size);
}

void lc_frame_in(struct linkcheck *lc, struct lc_sock *s, const struct lc_frame *f,
		 const uint8_t *mac)
{
	if (memcmp(f->from.host, lc->host, LC_HOST_ID_LEN) == 0)
		on_own_frame(lc, s, f);
	else if (f->type == LC_REQUEST)
		on_request(lc, s, f, mac);
	else
		on_answer(lc, s, f, mac);
}

/* A frame of n bytes in lc->buf, read for slave s from `from`. */
static void take_frame(struct linkcheck *lc, struct lc_sock *s, ssize_t n,
		       const struct sockaddr_ll *from)
{
	struct lc_frame f;
	const char *why = "";
	if ((size_t)n > sizeof(lc->buf) - 1 || lc_frame_decode(lc->buf, (size_t)n, &f, &why) < 0) {
		s->bond->result.bad_frames++;
		log_debug("%s: link check: a frame of %zd bytes dropped: %s", s->bond->slaves[s->idx],
			  n, (size_t)n >= sizeof(lc->buf) ? "too long" : why);
		return;
	}
	lc_frame_in(lc, s, &f, from->sll_halen == 6 ? from->sll_addr : NULL);
}

/* Reads at most `budget` frames of s's own socket; returns how many it
 * read. */
static unsigned read_frames(struct linkcheck *lc, struct lc_sock *s, unsigned budget)
{
	unsigned asked = budget;
	struct sockaddr_ll from;
	ssize_t n;
	while ((n = packet_rx(&s->sock, lc->buf, sizeof(lc->buf), &from, &budget)) > 0)
		take_frame(lc, s, n, &from);
	return asked - budget;
}

/* Slave s's read budget a second, open or filtered (linkcheck_guard.h). */
static unsigned slave_budget(const struct lc_sock *s, bool filtered)
{
	size_t peers = lc_read_peers(s->bond, s->idx);
	return filtered ? lc_read_budget_filtered(peers) : lc_read_budget(peers);
}

/* The shared socket's users (slaves of all-active bonds with a socket). */
#define FOR_SHARED_USERS(lc, s)                                                       \
	for (size_t bi_ = 0; bi_ < (lc)->n_bonds; bi_++)                              \
		for (size_t si_ = 0; si_ < (lc)->bonds[bi_]->n; si_++)                \
			if (((s) = &(lc)->bonds[bi_]->socks[si_])->sock.fd >= 0 && !(s)->own)

/* The shared socket's budget a second: its users' and the other links'
 * (lc_shared_budget). */
static unsigned shared_budget(const struct linkcheck *lc, bool filtered)
{
	struct lc_sock *s;
	size_t users = 0;
	FOR_SHARED_USERS(lc, s)
		users++;
	size_t *peers = users ? calloc(users, sizeof(*peers)) : NULL;
	size_t k = 0;
	if (peers)
		FOR_SHARED_USERS(lc, s)
			peers[k++] = lc_read_peers(s->bond, s->idx);
	unsigned budget = lc_shared_budget(peers, k, filtered);
	free(peers);
	return budget;
}

/* --- the flood guard (linkcheck_guard.h) ----------------------------------------- */

/* The counter: a socket with a queue of a frame or two (the kernel's
 * least, SOCK_MIN_RCVBUF), never read and in no epoll set, so that the
 * frames it cannot queue are counted as its drops (net/packet/af_packet.c
 * packet_rcv: drop_n_acct) and cost bondd nothing. */
static const struct packet_sock_kind lc_counter_kind = {
	.type = SOCK_DGRAM, .ethertype = LC_ETHERTYPE, .rcvbuf = 1,
};

/* ... counting what arrives, not what we send (the socket sees our own
 * frames too, PACKET_OUTGOING). */
static const struct sock_filter counter_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (uint32_t)SKF_AD_OFF + SKF_AD_PKTTYPE),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, 0),
	BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),
};

/* A guarded socket: a slave's own (s), or the shared one (s NULL). */
struct guarded {
	struct packet_sock *sock;
	struct lc_gsock *g;
	struct lc_sock *s;
};

static struct guarded own_guarded(struct lc_sock *s)
{
	return (struct guarded){.sock = &s->sock, .g = &s->g, .s = s};
}

static struct guarded shared_guarded(struct linkcheck *lc)
{
	return (struct guarded){.sock = &lc->shared, .g = &lc->shared_g, .s = NULL};
}

/* Adds mac to out[0..n) unless there; returns the new n. */
static size_t add_mac(uint8_t (*out)[6], size_t n, size_t cap, const uint8_t mac[6])
{
	static const uint8_t zero[6];
	if (n >= cap || memcmp(mac, zero, 6) == 0)
		return n;
	for (size_t j = 0; j < n; j++)
		if (memcmp(out[j], mac, 6) == 0)
			return n;
	memcpy(out[n], mac, 6);
	return n + 1;
}

/* A slave's own socket admits its peers (s->macs) and its bond's slaves
 * (our own requests on a sibling slave show a shared domain); the shared
 * socket the union of its users' peers and every bond's slaves on it,
 * as many as one filter holds (LC_FILTER_MACS_MAX, the latest answers
 * first). */
#define LC_OWN_FILTER_MACS (LC_GUARD_MACS + BONDD_MAX_SLAVES)
static struct sock_filter filter_prog[LC_FILTER_LEN(LC_FILTER_MACS_MAX)];
static uint8_t filter_macs[LC_FILTER_MACS_MAX][6];

static struct sock_fprog guard_filter(struct linkcheck *lc, const struct guarded *gd)
{
	size_t n = 0, cap;
	if (gd->s) {
		const struct lc_bond *b = gd->s->bond;
		cap = LC_OWN_FILTER_MACS;
		for (size_t k = 0; k < b->n; k++)
			if (b->socks[k].sock.fd >= 0)
				n = add_mac(filter_macs, n, cap, b->socks[k].hwaddr);
		const struct lc_macs *list = &gd->s->macs;
		n = lc_macs_union(&list, 1, filter_macs, n, cap);
	} else {
		cap = LC_FILTER_MACS_MAX;
		struct lc_sock *s;
		size_t users = 0;
		FOR_SHARED_USERS(lc, s) {
			n = add_mac(filter_macs, n, cap, s->hwaddr);
			users++;
		}
		const struct lc_macs **lists = users ? calloc(users, sizeof(*lists)) : NULL;
		size_t k = 0;
		if (lists)
			FOR_SHARED_USERS(lc, s)
				lists[k++] = &s->macs;
		n = lc_macs_union(lists, k, filter_macs, n, cap);
		free(lists);
	}
	/* (the addresses banned for flooding it stay out) */
	size_t kept = 0;
	for (size_t i = 0; i < n; i++) {
		bool banned = false;
		for (unsigned j = 0; j < gd->g->n_banned && !banned; j++)
			banned = memcmp(filter_macs[i], gd->g->banned[j], 6) == 0;
		if (!banned)
			memmove(filter_macs[kept++], filter_macs[i], 6);
	}
	n = kept;
	struct sock_fprog fp = {.filter = filter_prog};
	fp.len = (unsigned short)lc_filter_build((const uint8_t(*)[6])filter_macs, n, filter_prog,
						 sizeof(filter_prog) / sizeof(filter_prog[0]));
	return fp;
}

/* Its name in the log. */
static void guarded_name(const struct guarded *gd, char *out, size_t len)
{
	if (gd->s)
		snprintf(out, len, "%s's socket on %s", gd->s->bond->name,
			 gd->s->bond->slaves[gd->s->idx]);
	else
		snprintf(out, len, "the socket of the all-active bonds' slaves");
}

/* Its queue back to size and its events back on (a pause shrank and
 * stopped them), for a socket that could not be opened again. */
static void guard_unpause(struct linkcheck *lc, const struct guarded *gd)
{
	int size = gd->s ? LC_RCVBUF : lc->shared_buf;
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = gd->s ? (void *)gd->s : &lc->shared};
	if (setsockopt(gd->sock->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(gd->sock->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	epoll_ctl(lc->epfd, EPOLL_CTL_MOD, gd->sock->fd, &ev);
}

/* The socket opened again with its filter: what its queue holds (a
 * flood's frames, mostly) is dropped unread, and none the filter refuses
 * is queued (attached before bind).  The new socket is open before the
 * old one closes: no frame is lost in between.  The shared socket's users
 * take the new one.  Falls back to attaching the filter to the old
 * socket. */
static void guard_reopen(struct linkcheck *lc, const struct guarded *gd)
{
	struct sock_fprog fp = guard_filter(lc, gd);
	struct packet_sock fresh = PACKET_SOCK_CLOSED;
	int err = gd->s ? packet_sock_open_filtered(&fresh, &lc_sock_kind, gd->sock->ifindex,
						    lc->epfd, gd->s, &fp)
			: packet_sock_open_any_filtered(&fresh, &lc_sock_kind, lc->epfd,
							&lc->shared, &fp);
	if (err < 0) {
		char name[64];
		guarded_name(gd, name, sizeof(name));
		log_debug("link check: opening %s again: %s", name, strerror(-err));
		packet_sock_filter(gd->sock, &fp);
		guard_unpause(lc, gd);
		return;
	}
	gd->g->drops_carried += sock_stats(gd->sock).tp_drops;
	packet_sock_close(gd->sock);
	*gd->sock = fresh;
	if (gd->s)
		return;
	/* (the shared socket's room, as lc_shared_sync made it) */
	int buf = lc->shared_buf;
	packet_sock_set_rcvbuf(&lc->shared, &lc_sock_kind, buf);
	if (setsockopt(lc->shared.fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) < 0)
		setsockopt(lc->shared.fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	struct lc_sock *s;
	for (size_t i = 0; i < lc->n_bonds; i++)
		for (size_t j = 0; j < lc->bonds[i]->n; j++)
			if ((s = &lc->bonds[i]->socks[j])->sock.fd >= 0 && !s->own)
				s->sock.fd = lc->shared.fd;
}

static void shared_refilter(struct linkcheck *lc)
{
	struct guarded gd = shared_guarded(lc);
	if (gd.g->guard.state == LC_GUARD_OPEN || gd.sock->fd < 0)
		return;
	struct sock_fprog fp = guard_filter(lc, &gd);
	packet_sock_filter(gd.sock, &fp);
}

/* The socket gd was opened again, its queue dropped: answers to a running
 * check among the flood's frames went with it.  The slaves it serves send
 * that check's requests again, once per check (row->reopen_resent: a
 * resend for a peer that asked may have gone before the drop), so that
 * the peers, whose addresses the filter admits, answer again; and the
 * check waits for them at least LC_WAIT_MS from now (it could otherwise
 * end before they come: sandbox 181 on 6.1, a check under a flood that
 * ended without b's answers).  Once per check and slave: a bound. */
static void guard_resend(struct linkcheck *lc, const struct guarded *gd)
{
	int64_t until = mono_ms() + LC_WAIT_MS;

	for (size_t i = 0; i < lc->n_bonds; i++) {
		struct lc_bond *b = lc->bonds[i];
		for (size_t k = 0; lc_phase_running(&b->ph) && k < b->n; k++) {
			struct lc_sock *s = &b->socks[k];
			bool served = gd->s ? s == gd->s : (s->sock.fd >= 0 && !s->own);
			if (!served || b->live[k].reopen_resent || !b->live[k].probed)
				continue;
			b->live[k].reopen_resent = b->live[k].resent = true;
			b->result.frames_sent += lc_send_requests(lc, b, k, false);
			/* (a later deadline for the running check) */
			lc_bond_enter(b, LC_PHASE_RUNNING, until - LC_WAIT_MS, until);
		}
	}
}

/* A new peer's address noted for slave s: its socket's filter, if on,
 * admits it from now on. */
static void guard_noted(struct linkcheck *lc, struct lc_sock *s)
{
	struct guarded gd = s->own ? own_guarded(s) : shared_guarded(lc);
	if (gd.g->guard.state == LC_GUARD_OPEN || gd.sock->fd < 0)
		return;
	struct sock_fprog fp = guard_filter(lc, &gd);
	packet_sock_filter(gd.sock, &fp);
}

/* Does what the guard says; `by` is the slave whose frames spent a budget
 * (NULL: frames of a link no bond of ours probes, on the shared socket). */
static void guard_do(struct linkcheck *lc, const struct guarded *gd, enum lc_guard_act act,
		     struct lc_sock *by, unsigned budget)
{
	char name[64];
	guarded_name(gd, name, sizeof(name));
	switch (act) {
	case LC_GUARD_NONE:
		break;
	case LC_GUARD_ATTACH: {
		guard_reopen(lc, gd);
		guard_resend(lc, gd);
		struct sock_fprog cp = {.len = sizeof(counter_insns) / sizeof(counter_insns[0]),
					.filter = (struct sock_filter *)counter_insns};
		packet_sock_close(&gd->g->counter);
		if (gd->s)
			packet_sock_open_filtered(&gd->g->counter, &lc_counter_kind, gd->sock->ifindex,
						  -1, NULL, &cp);
		else
			packet_sock_open_any_filtered(&gd->g->counter, &lc_counter_kind, -1, NULL, &cp);
		/* (who flooded it, for the word that the flood is over) */
		snprintf(gd->g->by, sizeof(gd->g->by), "%s%s%s", by ? by->bond->name : "",
			 by ? ": link check: the flood of probe frames on " : "link check: the flood "
			 "of probe frames on a link no bond probes", by ? by->bond->slaves[by->idx] : "");
		bool *logged = by ? &by->bond->guard_logged : &lc->foreign_logged;
		if (!*logged)
			log_warn("%s%slink check: more probe frames on %s than it reads a second (%u): "
				 "a flood; until it stops, the kernel drops those of every address but "
				 "the peers' that answered and the bonds' own%s (bondd(8), What a flood "
				 "of frames costs); said once",
				 by ? by->bond->name : "", by ? ": " : "",
				 by ? by->bond->slaves[by->idx] : "a link no bond probes", budget,
				 gd->s ? "" : ", for every slave of the all-active bonds (one socket)");
		else
			log_debug("link check: %s filtered", name);
		*logged = true;
		break;
	}
	case LC_GUARD_PAUSE:
		/* Not read until the window ends, and its queue is dropped then
		 * (RESUME): meanwhile the least queue the kernel allows, so that
		 * the flood's frames are dropped on arrival (packet_rcv checks
		 * sk_rcvbuf) instead of queued only for us to free them. */
		if (gd->sock->fd >= 0) {
			int least = 1;
			struct epoll_event ev = {.events = 0,
						 .data.ptr = gd->s ? (void *)gd->s : &lc->shared};
			epoll_ctl(lc->epfd, EPOLL_CTL_MOD, gd->sock->fd, &ev);
			setsockopt(gd->sock->fd, SOL_SOCKET, SO_RCVBUF, &least, sizeof(least));
		}
		break;
	case LC_GUARD_RESUME:
		guard_reopen(lc, gd);
		guard_resend(lc, gd);
		break;
	case LC_GUARD_DETACH:
		packet_sock_filter(gd->sock, NULL);
		packet_sock_close(&gd->g->counter);
		gd->g->n_banned = 0;
		gd->g->tally = (struct lc_tally){0};
		log_info("%s is over; every address is read again (%s)", gd->g->by, name);
		break;
	}
}

/* The guard's timer of one socket, if due; returns when it is next due. */
static int64_t guard_tick(struct linkcheck *lc, const struct guarded *gd, int64_t now,
			  unsigned budget)
{
	int64_t at = lc_guard_next(&gd->g->guard);
	if (gd->sock->fd < 0)
		return 0;
	if (at && at <= now) {
		struct tpacket_stats st = sock_stats(&gd->g->counter);
		guard_do(lc, gd, lc_guard_tick(&gd->g->guard, now, st.tp_packets, budget), NULL,
			 budget);
		at = lc_guard_next(&gd->g->guard);
	}
	return at;
}

int64_t lc_guard_due(struct linkcheck *lc, int64_t now)
{
	int64_t next = 0;
	for (size_t i = 0; i < lc->n_bonds; i++)
		for (size_t k = 0; k < lc->bonds[i]->n; k++) {
			struct lc_sock *s = &lc->bonds[i]->socks[k];
			if (!s->own || !lc_guard_next(&s->g.guard))
				continue;
			struct guarded gd = own_guarded(s);
			int64_t at = guard_tick(lc, &gd, now, slave_budget(s, false));
			if (at && (!next || at < next))
				next = at;
		}
	if (lc->shared.fd >= 0 && lc_guard_next(&lc->shared_g.guard)) {
		struct guarded gd = shared_guarded(lc);
		int64_t at = guard_tick(lc, &gd, now, shared_budget(lc, false));
		if (at && (!next || at < next))
			next = at;
	}
	return next;
}

bool lc_sock_flooded(const struct linkcheck *lc, const struct lc_sock *s, int64_t since_ms)
{
	if (s->own)
		return lc_guard_flooded(&s->g.guard, since_ms);
	return lc_shared_flooded(&lc->shared_g.guard, &s->g.guard, since_ms);
}

/* Reads at most `batch` frames of s's own socket within its read budget;
 * the guard acts when the budget is spent. */
static void read_budgeted(struct linkcheck *lc, struct lc_sock *s, unsigned batch)
{
	int64_t now = mono_ms();
	unsigned budget = slave_budget(s, s->g.guard.state != LC_GUARD_OPEN);
	unsigned left = lc_guard_left(&s->g.guard, now, budget);
	if (left)
		s->g.guard.reads += read_frames(lc, s, left < batch ? left : batch);
	if (s->sock.fd >= 0 && !lc_guard_left(&s->g.guard, now, budget)) {
		struct guarded gd = own_guarded(s);
		guard_do(lc, &gd, lc_guard_spent(&s->g.guard, now), s, budget);
	}
}

/* mac, admitted by the shared socket's filter, floods it past a slave's
 * budget (by; NULL: a link no bond probes): out of the filter until the
 * flood is over (lc_tally_note), while there is room in the list. */
static void guard_ban(struct linkcheck *lc, const struct guarded *gd, const uint8_t mac[6],
		      const struct lc_sock *by)
{
	if (gd->g->n_banned >= LC_BANS)
		return;
	memcpy(gd->g->banned[gd->g->n_banned++], mac, 6);
	struct sock_fprog fp = guard_filter(lc, gd);
	packet_sock_filter(gd->sock, &fp);
	log_warn("%s%slink check: %02x:%02x:%02x:%02x:%02x:%02x, an address the flood guard "
		 "admits (a peer's or the bonds' own), floods %s: its frames are dropped too until "
		 "the flood is over (bondd(8), What a flood of frames costs)",
		 by ? by->bond->name : "", by ? ": " : "", mac[0], mac[1], mac[2], mac[3], mac[4],
		 mac[5], by ? by->bond->slaves[by->idx] : "a link no bond probes");
}

/* The frame of n bytes in lc->buf is an answer to this host's checks.
 * Past its slave's budget on the shared socket a frame is still looked at
 * this far (its header, no answer sent): a flood from an address the
 * filter admits (a peer's, spoofed) must not cost the slave's peers'
 * answers to a running check, nor, by pausing the socket, its siblings'
 * (each such frame still takes one of the socket's budget). */
static bool answer_to_us(const struct linkcheck *lc, ssize_t n)
{
	struct lc_frame f;
	const char *why = "";
	return (size_t)n < sizeof(lc->buf) && lc_frame_decode(lc->buf, (size_t)n, &f, &why) == 0 &&
	       f.type == LC_ANSWER && memcmp(f.to.host, lc->host, LC_HOST_ID_LEN) == 0;
}

/* The shared socket: each frame to the slave it arrived on (its
 * sll_ifindex), if that slave is one of its users, within that slave's
 * read budget and the socket's (lc_shared_take); `batch` frames at most. */
static void read_shared(struct linkcheck *lc, unsigned batch)
{
	struct lc_guard *sg = &lc->shared_g.guard;
	struct guarded gd = shared_guarded(lc);
	int64_t now = mono_ms();
	bool filtered = sg->state != LC_GUARD_OPEN;
	unsigned budget = shared_budget(lc, filtered);
	struct sockaddr_ll from;
	ssize_t n;
	while (lc->shared.fd >= 0) {
		if (!lc_guard_left(sg, now, budget)) {
			guard_do(lc, &gd, lc_guard_spent(sg, now), NULL, budget);
			break;
		}
		if ((n = packet_rx(&lc->shared, lc->buf, sizeof(lc->buf), &from, &batch)) <= 0)
			break;
		struct lc_sock *s = shared_user(lc, from.sll_ifindex);
		enum lc_guard_act act;
		bool take = lc_shared_take(sg, s ? &s->g.guard : &lc->foreign, now,
					   s ? slave_budget(s, filtered)
					     : (filtered ? LC_READ_FILTERED_BASE : LC_READ_BASE),
					   &act);
		if (act != LC_GUARD_NONE) {
			guard_do(lc, &gd, act, s, s ? slave_budget(s, false) : LC_READ_BASE);
			filtered = sg->state != LC_GUARD_OPEN;
			budget = shared_budget(lc, filtered);
		}
		if (s && (take || answer_to_us(lc, n)))
			take_frame(lc, s, n, &from);
		else if (!take && filtered && from.sll_halen == 6 &&
			 lc_tally_note(&lc->shared_g.tally, from.sll_addr, now))
			guard_ban(lc, &gd, from.sll_addr, s);
	}
}

static void own_readable(struct linkcheck *lc, struct lc_sock *s)
{
	/* A bounded batch: a flood on one slave cannot starve the loop; a
	 * bounded second: it cannot take the CPU (linkcheck_guard.h). */
	read_budgeted(lc, s, 256);
}

void lc_read_queued(struct linkcheck *lc, struct lc_bond *b)
{
	bool shared = false;
	for (size_t i = 0; i < b->n; i++) {
		if (b->socks[i].own)
			read_budgeted(lc, &b->socks[i], LC_READ_AT_END);
		else
			shared |= b->socks[i].sock.fd >= 0;
	}
	/* (every slave's frames queue there: as much as the bond's own
	 * sockets would have held) */
	if (shared)
		read_shared(lc, LC_READ_AT_END * (unsigned)b->n);
}

void lc_io_dispatch(struct linkcheck *lc)
{
	struct epoll_event evs[16];
	int n = epoll_wait(lc->epfd, evs, 16, 0);

	for (int i = 0; i < n; i++) {
		if (evs[i].data.ptr == lc) {
			uint64_t ticks;
			(void)!read(lc->timer_fd, &ticks, sizeof(ticks));
		} else if (evs[i].data.ptr == &lc->shared) {
			read_shared(lc, 256);
		} else {
			own_readable(lc, evs[i].data.ptr);
		}
	}
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
	lc->shared = PACKET_SOCK_CLOSED;
	lc->shared_g.counter = PACKET_SOCK_CLOSED;
	lc->findings = findings;
	lc->done = done;
	lc->ctx = ctx;
	lc_retry_node_init(&lc->retry_node);
	lc->epfd = epoll_create1(EPOLL_CLOEXEC);
	lc->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = lc};
	if (lc->epfd < 0 || lc->timer_fd < 0 ||
	    epoll_ctl(lc->epfd, EPOLL_CTL_ADD, lc->timer_fd, &ev) < 0) {
		int err = -errno;
		lc_io_close(lc);
		return err;
	}
	host_id(lc->host);
	/* The name peers show us by (display only; the id stays what counts). */
	char uts[256] = "";
	if (gethostname(uts, sizeof(uts) - 1) == 0)
		lc_host_name_from(uts, lc->host_name);
	if (getrandom(&lc->next_probe, sizeof(lc->next_probe), 0) != sizeof(lc->next_probe))
		lc->next_probe = (uint32_t)getpid();
	memcpy(&lc->rng, lc->host, sizeof(lc->rng));
	lc->rng ^= lc->next_probe;
	char host[9];
	lc_host_short(lc->host, host);
	log_debug("link check: host id %s, named %s", host,
		  lc->host_name[0] ? lc->host_name : "(none)");
	*out = lc;
	return 0;
}

void lc_io_close(struct linkcheck *lc)
{
	packet_sock_close(&lc->shared);
	packet_sock_close(&lc->shared_g.counter);
	free(lc->by_ifindex);
	free(lc->rv);
	lc_replies_free(&lc->replies);
	if (lc->timer_fd >= 0)
		close(lc->timer_fd);
	if (lc->epfd >= 0)
		close(lc->epfd);
	free(lc);
}
