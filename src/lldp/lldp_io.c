/* SPDX-License-Identifier: MIT */
/*
 * LLDP, receive only (lldp_io.h): the socket and the records.
 */
#include "lldp_io.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "bond_settings.h"
#include "clock.h"
#include "log.h"
#include "packet_sock.h"
#include "token_bucket.h"

/* The nearest-bridge group address (802.1AB clause 7.1): what a switch
 * port sends on, and what no switch forwards.  The other two LLDP
 * addresses may come from further away: not this port's neighbour. */
static const uint8_t lldp_dest[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e};
/* An LLDPDU fills at most one frame of 1500 bytes: longer is refused. */
#define LLDP_FRAME_MAX (14 + 1500)
#define LLDP_BATCH 64
/* The receive buffer: this much per slave heard, up to LLDP_RCVBUF_MAX
 * (a limit, not an allocation: used only while frames wait). */
#define LLDP_RCVBUF 65536
#define LLDP_RCVBUF_MAX (4 << 20)

struct lldp_slot {
	struct lldp_port port;
	int ifindex;  /* the slave's link, its group joined; 0: none */
};

struct lldp_rx {
	int epfd;
	/* One socket for every slave (packet_sock_open_any): a socket per
	 * slave took one open file each, and at 130 bonds of 4 slaves bondd
	 * ran out of them. */
	struct packet_sock sock;
	int rcvbuf;   /* what it was last given */
	int err;      /* the last open's or join's error, logged once until it changes */
	char trouble[128]; /* why some slave hears no LLDP, or "" */
	struct lldp_slot **v;
	size_t n;
	size_t hint;  /* where the last slot_find ended: lookups come in config order */
	/* What a flood may cost, whatever the rate on the wire: at most
	 * reads_cap() frames read a second from the socket all slaves share;
	 * past it the socket is not read until the bucket refills (the timer
	 * wakes it), and the kernel drops what its buffer cannot hold.  Within
	 * it, each slave's own LLDP_READS_PER_S: frames past them are read but
	 * not parsed, counted as the slave's dropped. */
	struct token_bucket reads;
	bool paused;
	bool nomem_said; /* a frame not taken for want of memory: said once */
	int timer_fd;
	uint8_t buf[LLDP_FRAME_MAX + 1];
};

/* A switch sends one LLDPDU every 30 s a port (a few a second at fast
 * start): 64 and 4 a second per slave leave ample room. */
static uint32_t reads_cap(const struct lldp_rx *rx)
{
	return 64 + 4 * (uint32_t)rx->n;
}

/* SOCK_RAW: the parser reads the destination address.  One socket for
 * every link (packet_sock.h packet_sock_open_any): an LLDP frame is
 * link-local, so the bonding driver passes it on an inactive slave too
 * (drivers/net/bonding/bond_main.c bond_handle_frame: RX_HANDLER_PASS for
 * is_link_local_ether_addr, "for e.g. LLDP daemons to be able to monitor
 * inactive slave links without being forced to bind to them"), and on an
 * active one PACKET_ORIGDEV names the slave it came in on.  A NIC filters
 * multicast it was not asked for: the group is joined on each slave
 * itself (net/packet/af_packet.c packet_dev_mc). */
static const struct packet_sock_kind lldp_sock_kind = {
	.type = SOCK_RAW, .ethertype = LLDP_ETHERTYPE, .rcvbuf = LLDP_RCVBUF,
};

static struct lldp_slot *slot_by_ifindex(const struct lldp_rx *rx, int ifindex)
{
	for (size_t i = 0; ifindex > 0 && i < rx->n; i++)
		if (rx->v[i]->ifindex == ifindex)
			return rx->v[i];
	return NULL;
}

/* Listens to the socket again, or not (events 0 keeps it in the set). */
static void listen_to(struct lldp_rx *rx, bool on)
{
	struct epoll_event ev = {.events = on ? EPOLLIN : 0, .data.ptr = rx};
	if (rx->sock.fd >= 0 && epoll_ctl(rx->epfd, EPOLL_CTL_MOD, rx->sock.fd, &ev) == 0)
		rx->paused = !on;
}

static void lldp_on_readable(struct lldp_rx *rx)
{
	/* A bounded batch: a flood cannot starve the loop; what is left
	 * waits for the next round (the kernel drops what does not fit).
	 * And a bounded second (struct lldp_rx, reads). */
	int64_t now = (int64_t)clock_mono_ms();
	unsigned budget = tb_take_up_to(&rx->reads, reads_cap(rx), reads_cap(rx), LLDP_BATCH, now);
	unsigned asked = budget;
	struct sockaddr_ll from;
	ssize_t n;
	if (!budget) {
		listen_to(rx, false);
		clock_timer_at(rx->timer_fd, tb_next_ms(&rx->reads, reads_cap(rx), reads_cap(rx), now));
		return;
	}
	while ((n = packet_rx(&rx->sock, rx->buf, sizeof(rx->buf), &from, &budget)) > 0) {
		/* LLDP of links that are no configured slave: not ours. */
		struct lldp_slot *s = slot_by_ifindex(rx, from.sll_ifindex);
		if (!s)
			continue;
		/* The slave's own second: past it, read (the socket is
		 * shared) but not parsed. */
		if (!lldp_port_reads_left(&s->port, now)) {
			s->port.dropped++;
			continue;
		}
		s->port.reads++;
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
		if (lldp_port_token(&s->port, now) &&
		    lldp_port_take(&s->port, &nb, now, clock_wall_ms()) < 0 && !rx->nomem_said) {
			/* Counted in the slave's nomem; said once. */
			log_warn("%s: LLDP: no memory to keep another speaker (%s, port %s): "
				 "its frames are not taken",
				 s->port.slave, nb.chassis_id, nb.port_id);
			rx->nomem_said = true;
		}
	}
	/* What the batch did not read goes back to the bucket. */
	rx->reads.milli += (uint64_t)budget * 1000u;
	(void)asked;
}

void lldp_rx_dispatch(struct lldp_rx *rx)
{
	struct epoll_event evs[4];
	int n = epoll_wait(rx->epfd, evs, 4, 0);
	bool readable = false;

	for (int i = 0; i < n; i++) {
		if (evs[i].data.ptr == &rx->timer_fd) {
			clock_timer_take(rx->timer_fd);
			listen_to(rx, true);
		} else {
			readable = true;
		}
	}
	if (readable)
		lldp_on_readable(rx);
}

/* The slots are in config order, and so are the lookups (a sync, a
 * status reply): the search starts after the last hit and wraps, one
 * pass for all of them instead of one per slave. */
static struct lldp_slot *slot_find(const struct lldp_rx *rx, const char *bond, const char *slave)
{
	for (size_t k = 0; rx && k < rx->n; k++) {
		size_t i = (rx->hint + k) % rx->n;
		if (strcmp(rx->v[i]->port.slave, slave) == 0 &&
		    strcmp(rx->v[i]->port.bond, bond) == 0) {
			((struct lldp_rx *)rx)->hint = i + 1; /* (rx itself is never const) */
			return rx->v[i];
		}
	}
	return NULL;
}

const struct lldp_port *lldp_rx_find(const struct lldp_rx *rx, const char *bond,
				     const char *slave)
{
	const struct lldp_slot *s = slot_find(rx, bond, slave);
	return s ? &s->port : NULL;
}

/* Leaves the group on the slot's link (a link deleted has left it
 * already: net/packet/af_packet.c packet_notifier, NETDEV_UNREGISTER). */
static void slot_leave(struct lldp_rx *rx, struct lldp_slot *s)
{
	if (s->ifindex && rx->sock.fd >= 0)
		(void)packet_sock_join(&rx->sock, lldp_dest, s->ifindex, false);
	s->ifindex = 0;
}

/* An error that leaves slaves without LLDP: said once until it changes,
 * at the normal level, and kept for the status (lldp_rx_trouble). */
static void trouble(struct lldp_rx *rx, int err, const char *slave)
{
	/* (without CAP_NET_RAW LLDP is off, as the link check: said, not a
	 * fault of the bonds) */
	if (err != -EPERM && err != -EACCES)
		snprintf(rx->trouble, sizeof(rx->trouble), "LLDP: %s%s%s", slave ? slave : "",
			 slave ? ": " : "", strerror(-err));
	if (err != rx->err)
		log_warn("%s: cannot receive LLDP: %s%s", slave ? slave : "every slave",
			 strerror(-err), err == -EMFILE || err == -ENFILE
				 ? " (bondd's open files are at their limit: LimitNOFILE=, bondd(8))"
				 : "");
	rx->err = err;
}

void lldp_rx_sync(struct lldp_rx *rx, const struct desired *want, const struct observed *obs)
{
	size_t k = 0;

	if (!rx)
		return;
	/* Every configured slave of a bond with lldp = yes has its slot (a
	 * new one, or the one it had); the others are dropped.  Which were
	 * seen is kept beside the slots, not in them: a flag in each slot
	 * was a store in 1,024 slots at every sync, each a page fault after
	 * a status snapshot's copy-on-write fork. */
	size_t old_n = rx->n;
	bool *seen = calloc(old_n ? old_n : 1, sizeof(*seen));
	if (!seen)
		return; /* (the slots stay as they are; the next sync again) */
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		if (!b->lldp || b->absent)
			continue;
		for (size_t j = 0; j < b->n_slaves; j++) {
			struct lldp_slot *s = slot_find(rx, b->name, b->slaves[j].name);
			if (s) {
				/* (slot_find leaves hint one past it) */
				if (rx->hint - 1 < old_n)
					seen[rx->hint - 1] = true;
				continue;
			}
			struct lldp_slot **v = realloc(rx->v, (rx->n + 1) * sizeof(*v));
			if (v)
				rx->v = v;
			if (!v || !(s = calloc(1, sizeof(*s)))) {
				free(seen);
				return;
			}
			lldp_port_init(&s->port, b->name, b->slaves[j].name,
				       (int64_t)clock_mono_ms());
			rx->v[rx->n++] = s; /* (kept: past old_n) */
		}
	}
	for (size_t i = 0; i < rx->n; i++) {
		if (i >= old_n || seen[i]) {
			rx->v[k++] = rx->v[i];
			continue;
		}
		slot_leave(rx, rx->v[i]);
		lldp_port_free(&rx->v[i]->port);
		free(rx->v[i]);
	}
	free(seen);
	rx->n = k;
	rx->hint = 0;
	if (rx->n == 0) {
		packet_sock_close(&rx->sock);
		rx->trouble[0] = '\0';
		rx->err = 0;
		return;
	}
	rx->trouble[0] = '\0';
	if (rx->sock.fd < 0) {
		/* Every pass comes here: a refusal (no CAP_NET_RAW, no open
		 * file left) is said once, and tried again at the next. */
		int err = packet_sock_open_any(&rx->sock, &lldp_sock_kind, rx->epfd, rx);
		if (err < 0) {
			for (size_t i = 0; i < rx->n; i++)
				rx->v[i]->ifindex = 0;
			trouble(rx, err, NULL);
			return;
		}
		rx->rcvbuf = LLDP_RCVBUF;
	}
	size_t want_buf = rx->n * (size_t)LLDP_RCVBUF;
	int buf = want_buf > LLDP_RCVBUF_MAX ? LLDP_RCVBUF_MAX : (int)want_buf;
	if (buf > rx->rcvbuf) {
		packet_sock_set_rcvbuf(&rx->sock, &lldp_sock_kind, buf);
		rx->rcvbuf = buf;
	}
	int last_err = 0;
	for (size_t i = 0; i < rx->n; i++) {
		struct lldp_slot *s = rx->v[i];
		/* The group follows the device: a slave deleted and created
		 * again has another ifindex.  The record stays (the cable is
		 * the same; its TTL decides). */
		const struct obs_link *l = observed_by_name(obs, s->port.slave);
		int ifindex = l ? l->ifindex : 0;
		if (s->ifindex == ifindex)
			continue;
		slot_leave(rx, s);
		if (!ifindex)
			continue;
		int err = packet_sock_join(&rx->sock, lldp_dest, ifindex, true);
		if (err == -ENODEV)
			continue; /* deleted since it was seen (net/packet/
				   * af_packet.c packet_mc_add: no device by that
				   * ifindex): its event follows, and the sync
				   * after it joins its successor.  Not a fault:
				   * said as one, it made every bond "impaired"
				   * while a slave was re-created. */
		if (err < 0) {
			trouble(rx, err, s->port.slave);
			last_err = err;
			continue;
		}
		s->ifindex = ifindex;
	}
	if (!last_err && !rx->trouble[0])
		rx->err = 0;
}

const char *lldp_rx_trouble(const struct lldp_rx *rx)
{
	return rx && rx->trouble[0] ? rx->trouble : NULL;
}

void lldp_rx_refresh(struct lldp_rx *rx, const struct desired *want, const struct observed *obs,
		     struct findings *out)
{
	int64_t now = (int64_t)clock_mono_ms();
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
	rx->sock = PACKET_SOCK_CLOSED;
	rx->epfd = epoll_create1(EPOLL_CLOEXEC);
	rx->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event tev = {.events = EPOLLIN, .data.ptr = &rx->timer_fd};
	if (rx->epfd < 0 || rx->timer_fd < 0 ||
	    epoll_ctl(rx->epfd, EPOLL_CTL_ADD, rx->timer_fd, &tev) < 0) {
		int err = -errno;
		if (rx->timer_fd >= 0)
			close(rx->timer_fd);
		if (rx->epfd >= 0)
			close(rx->epfd);
		free(rx);
		return err;
	}
	tb_init(&rx->reads, 64, (int64_t)clock_mono_ms());
	*out = rx;
	return 0;
}

void lldp_rx_close(struct lldp_rx *rx)
{
	if (!rx)
		return;
	packet_sock_close(&rx->sock);
	for (size_t i = 0; i < rx->n; i++) {
		lldp_port_free(&rx->v[i]->port);
		free(rx->v[i]);
	}
	free(rx->v);
	close(rx->timer_fd);
	close(rx->epfd);
	free(rx);
}
