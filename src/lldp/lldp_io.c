/* SPDX-License-Identifier: MIT */
/*
 * LLDP, receive only (lldp_io.h): the sockets and the records.
 */
#include "lldp_io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "bond_settings.h"
#include "log.h"
#include "packet_sock.h"

/* The nearest-bridge group address (802.1AB clause 7.1): what a switch
 * port sends on, and what no switch forwards.  The other two LLDP
 * addresses may come from further away: not this port's neighbour. */
static const uint8_t lldp_dest[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
/* An LLDPDU fills at most one frame of 1500 bytes: longer is refused. */
#define LLDP_FRAME_MAX (14 + 1500)
#define LLDP_BATCH 64
#define LLDP_RCVBUF 65536

struct lldp_slot {
	struct lldp_port port;
	struct packet_sock sock;
	int err;  /* the last open's error, logged once until it changes */
	bool paused; /* its read budget spent: out of the epoll set's events */
};

struct lldp_rx {
	int epfd;
	int timer_fd; /* wakes paused sockets when their second ends */
	struct lldp_slot **v;
	size_t n;
	uint8_t buf[LLDP_FRAME_MAX + 1];
};

static int64_t clock_ms(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SOCK_RAW: the parser reads the destination address.  Bound to the slave,
 * the socket gets the frames that arrived on it while it is enslaved:
 * net/core/dev.c __netif_receive_skb_core delivers to orig_dev's
 * ptype_specific list after the bond's rx_handler
 * (drivers/net/bonding/bond_main.c bond_handle_frame) moved the skb to the
 * bond, and on an inactive slave it passes link-local frames as they are.
 * A NIC filters multicast it was not asked for: the group is joined on the
 * slave itself (net/packet/af_packet.c packet_dev_mc). */
static const struct packet_sock_kind lldp_sock_kind = {
	.type = SOCK_RAW, .ethertype = LLDP_ETHERTYPE, .rcvbuf = LLDP_RCVBUF,
	.group = lldp_dest,
};

/* Listens to s again, or not (events 0 keeps it in the set: closing it
 * takes it out as before). */
static void listen_to(struct lldp_rx *rx, struct lldp_slot *s, bool on)
{
	struct epoll_event ev = {.events = on ? EPOLLIN : 0, .data.ptr = s};
	if (s->sock.fd >= 0 && epoll_ctl(rx->epfd, EPOLL_CTL_MOD, s->sock.fd, &ev) == 0)
		s->paused = !on;
}

/* The timer at the earliest end of a paused socket's second, or off. */
static void arm_timer(struct lldp_rx *rx)
{
	int64_t due = 0;
	for (size_t i = 0; i < rx->n; i++) {
		const struct lldp_slot *s = rx->v[i];
		int64_t t = lldp_port_reads_resume(&s->port);
		if (s->paused && (!due || t < due))
			due = t;
	}
	struct itimerspec its = {0};
	if (due) {
		its.it_value.tv_sec = due / 1000;
		its.it_value.tv_nsec = due % 1000 * 1000000;
	}
	timerfd_settime(rx->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* What the kernel dropped at s's full buffer since the last look: the
 * frames of a flood bondd did not read (net/packet/af_packet.c
 * packet_rcv counts them in tp_drops; PACKET_STATISTICS reads and
 * resets). */
static void count_drops(struct lldp_slot *s)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);
	if (s->sock.fd >= 0 &&
	    getsockopt(s->sock.fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
		s->port.dropped += st.tp_drops;
}

static void on_timer(struct lldp_rx *rx)
{
	uint64_t ticks;
	int64_t now = clock_ms(CLOCK_MONOTONIC);
	(void)!read(rx->timer_fd, &ticks, sizeof(ticks));
	for (size_t i = 0; i < rx->n; i++) {
		struct lldp_slot *s = rx->v[i];
		if (s->paused && now >= lldp_port_reads_resume(&s->port)) {
			count_drops(s);
			listen_to(rx, s, true);
		}
	}
	arm_timer(rx);
}

static void on_readable(struct lldp_rx *rx, struct lldp_slot *s)
{
	/* A bounded batch: a flood on one slave cannot starve the loop.
	 * And a bounded second: past LLDP_READS_PER_S the socket is not
	 * read until the second ends (lldp_eval.h); the kernel drops what
	 * its buffer cannot hold, at no cost to bondd. */
	unsigned left = lldp_port_reads_left(&s->port, clock_ms(CLOCK_MONOTONIC));
	unsigned budget = left < LLDP_BATCH ? left : LLDP_BATCH;
	unsigned asked = budget;
	struct sockaddr_ll from;
	ssize_t n;
	if (!left) {
		listen_to(rx, s, false);
		arm_timer(rx);
		return;
	}
	while ((n = packet_rx(&s->sock, rx->buf, sizeof(rx->buf), &from, &budget)) > 0) {
		struct lldp_neighbor nb;
		const char *why = "";
		if ((size_t)n > LLDP_FRAME_MAX)
			why = "longer than 1514 bytes";
		else if ((size_t)n >= 6 && memcmp(rx->buf, lldp_dest, 6) != 0)
			why = "not sent to 01:80:c2:00:00:0e";
		else if (lldp_parse_frame(rx->buf, (size_t)n, &nb, &why) == 0)
			why = NULL;
		if (why) {
			s->port.malformed++;
			log_debug("%s: LLDP: a frame of %zd bytes dropped: %s", s->port.slave, n, why);
			continue;
		}
		/* Parsing is cheap and bounded (one frame, the batch): the
		 * limit is on what may rewrite the record. */
		int64_t now = clock_ms(CLOCK_MONOTONIC);
		if (lldp_port_token(&s->port, now))
			lldp_port_take(&s->port, &nb, now, clock_ms(CLOCK_REALTIME));
	}
	s->port.reads += asked - budget;
	if (s->port.reads >= LLDP_READS_PER_S) {
		listen_to(rx, s, false);
		arm_timer(rx);
	}
}

void lldp_rx_dispatch(struct lldp_rx *rx)
{
	struct epoll_event evs[16];
	int n = epoll_wait(rx->epfd, evs, 16, 0);

	for (int i = 0; i < n; i++) {
		if (evs[i].data.ptr == rx)
			on_timer(rx);
		else
			on_readable(rx, evs[i].data.ptr);
	}
}

static struct lldp_slot *slot_find(const struct lldp_rx *rx, const char *bond, const char *slave)
{
	for (size_t i = 0; rx && i < rx->n; i++)
		if (strcmp(rx->v[i]->port.bond, bond) == 0 &&
		    strcmp(rx->v[i]->port.slave, slave) == 0)
			return rx->v[i];
	return NULL;
}

const struct lldp_port *lldp_rx_find(const struct lldp_rx *rx, const char *bond,
				     const char *slave)
{
	const struct lldp_slot *s = slot_find(rx, bond, slave);
	return s ? &s->port : NULL;
}

static bool wanted(const struct desired *want, const struct lldp_port *p)
{
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		if (strcmp(b->name, p->bond) != 0 || !b->lldp || b->absent)
			continue;
		for (size_t j = 0; j < b->n_slaves; j++)
			if (strcmp(b->slaves[j].name, p->slave) == 0)
				return true;
	}
	return false;
}

/* A slave renamed while enslaved (a slaves = entry by mac:, path: or
 * altname follows it: identity.h) keeps its record and socket: the
 * cable is the same. */
static void follow_renames(struct lldp_rx *rx, const struct desired *want)
{
	for (size_t i = 0; i < rx->n; i++) {
		struct lldp_slot *s = rx->v[i];
		const struct desired_bond *b = desired_find_bond(want, s->port.bond);
		for (size_t j = 0; b && s->sock.fd >= 0 && j < b->n_slaves; j++)
			if (b->slaves[j].ifindex && b->slaves[j].ifindex == s->sock.ifindex &&
			    strcmp(b->slaves[j].name, s->port.slave) != 0 &&
			    !slot_find(rx, b->name, b->slaves[j].name))
				snprintf(s->port.slave, sizeof(s->port.slave), "%s",
					 b->slaves[j].name);
	}
}

void lldp_rx_sync(struct lldp_rx *rx, const struct desired *want, const struct observed *obs)
{
	size_t k = 0;

	if (!rx)
		return;
	follow_renames(rx, want);
	for (size_t i = 0; i < rx->n; i++) {
		if (wanted(want, &rx->v[i]->port)) {
			rx->v[k++] = rx->v[i];
			continue;
		}
		packet_sock_close(&rx->v[i]->sock);
		free(rx->v[i]);
	}
	rx->n = k;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		if (!b->lldp || b->absent)
			continue;
		for (size_t j = 0; j < b->n_slaves; j++) {
			struct lldp_slot *s = slot_find(rx, b->name, b->slaves[j].name);
			if (!s) {
				struct lldp_slot **v = realloc(rx->v, (rx->n + 1) * sizeof(*v));
				if (!v)
					return;
				rx->v = v;
				if (!(s = calloc(1, sizeof(*s))))
					return;
				lldp_port_init(&s->port, b->name, b->slaves[j].name,
					       clock_ms(CLOCK_MONOTONIC));
				s->sock = PACKET_SOCK_CLOSED;
				rx->v[rx->n++] = s;
			}
			const struct slave_selector *sel = &b->slaves[j].sel;
			snprintf(s->port.sel, sizeof(s->port.sel), "%s",
				 sel->text[0] && strcmp(sel->text, s->port.slave) != 0 ? sel->text : "");
			/* The socket follows the device: a slave deleted and
			 * created again has another ifindex.  The record
			 * stays (the cable is the same; its TTL decides). */
			const struct obs_link *l = observed_by_name(obs, s->port.slave);
			int ifindex = l ? l->ifindex : 0;
			if (s->sock.ifindex == ifindex && s->sock.fd >= 0)
				continue;
			packet_sock_close(&s->sock);
			s->paused = false;
			if (!ifindex)
				continue;
			/* Every pass comes here: a refusal (no CAP_NET_RAW) is
			 * logged once, not on every pass. */
			int err = packet_sock_open(&s->sock, &lldp_sock_kind, ifindex, rx->epfd, s);
			if (err < 0 && err != s->err)
				log_warn("%s: cannot receive LLDP: %s", s->port.slave, strerror(-err));
			s->err = err;
		}
	}
}

void lldp_rx_refresh(struct lldp_rx *rx, const struct desired *want, const struct observed *obs,
		     struct findings *out)
{
	int64_t now = clock_ms(CLOCK_MONOTONIC);
	struct findings next = {0};
	int err = 0;

	if (!rx) {
		findings_clear(out);
		return;
	}
	for (size_t i = 0; i < rx->n; i++)
		lldp_port_expire(&rx->v[i]->port, now);
	for (size_t i = 0; i < want->n_bonds && !err; i++) {
		const struct desired_bond *b = &want->bonds[i];
		const struct lldp_port *ports[BONDD_MAX_SLAVES];
		if (!b->lldp || b->absent)
			continue;
		for (size_t j = 0; j < b->n_slaves; j++)
			ports[j] = lldp_rx_find(rx, b->name, b->slaves[j].name);
		const struct obs_link *bond = observed_by_name(obs, b->name);
		err = lldp_eval(b->name, bond ? bond->mtu : b->mtu,
				b->opts.val[OPT_MODE] == MODE_BALANCE_RR, ports, b->n_slaves, &next);
	}
	if (err) {
		findings_free(&next);
		return;
	}
	findings_free(out);
	*out = next;
}

int lldp_rx_fd(const struct lldp_rx *rx)
{
	return rx->epfd;
}

int lldp_rx_open(struct lldp_rx **out)
{
	struct lldp_rx *rx = calloc(1, sizeof(*rx));
	if (!rx)
		return -ENOMEM;
	rx->epfd = epoll_create1(EPOLL_CLOEXEC);
	rx->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = rx};
	if (rx->epfd < 0 || rx->timer_fd < 0 ||
	    epoll_ctl(rx->epfd, EPOLL_CTL_ADD, rx->timer_fd, &ev) < 0) {
		int err = -errno;
		if (rx->epfd >= 0)
			close(rx->epfd);
		if (rx->timer_fd >= 0)
			close(rx->timer_fd);
		free(rx);
		return err;
	}
	*out = rx;
	return 0;
}

void lldp_rx_close(struct lldp_rx *rx)
{
	if (!rx)
		return;
	for (size_t i = 0; i < rx->n; i++) {
		packet_sock_close(&rx->v[i]->sock);
		free(rx->v[i]);
	}
	free(rx->v);
	close(rx->timer_fd);
	close(rx->epfd);
	free(rx);
}
