/* SPDX-License-Identifier: MIT */
/*
 * A slave's own AF_PACKET socket, for the link check and LLDP: opened
 * non-blocking, bound to the slave and in the event loop's epoll, and read
 * in bounded batches (retried on EINTR; our own outgoing frames, which a
 * packet socket bound to a slave also sees, skipped).
 */
#ifndef BONDD_PACKET_SOCK_H
#define BONDD_PACKET_SOCK_H

#include <linux/filter.h>
#include <linux/if_packet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How a user's packet sockets are opened. */
struct packet_sock_kind {
	int type;              /* SOCK_DGRAM, or SOCK_RAW for the Ethernet header too */
	uint16_t ethertype;    /* host order: the one frame type received */
	int rcvbuf, sndbuf;    /* bytes; 0 leaves the kernel's default */
	bool force_bufs;       /* SO_RCVBUFFORCE/SO_SNDBUFFORCE first (CAP_NET_ADMIN:
				  above net.core.rmem_max/wmem_max), else the plain ones */
	const uint8_t *group;  /* a multicast address (6 bytes) to join on the slave, or NULL */
	bool ignore_outgoing;  /* our own frames not queued (PACKET_IGNORE_OUTGOING, 4.20+) */
};

/* One slave's socket; PACKET_SOCK_CLOSED until opened. */
struct packet_sock {
	int fd;      /* -1 when closed */
	int ifindex; /* the link it is bound to; 0 when closed */
};
#define PACKET_SOCK_CLOSED ((struct packet_sock){.fd = -1})

/* Packet sockets take no descriptor numbered `fds` or above (opening one
 * fails with -EMFILE): the rest is kept for what must not fail for want of
 * a file, bondd's netlink sockets and the status socket's clients.  0: no
 * ceiling (the default). */
void packet_sock_set_ceiling(int fds);

/*
 * Opens *ps as a socket of kind k bound to the link ifindex, added to epfd
 * for EPOLLIN with `tag` as its data.  *ps must be closed.  Returns 0, or
 * -errno with *ps left closed.
 */
int packet_sock_open(struct packet_sock *ps, const struct packet_sock_kind *k, int ifindex,
		     int epfd, void *tag);
/* The same with a classic BPF socket filter attached before the socket is
 * bound (filter NULL: none), so that no frame it refuses is ever queued;
 * epfd < 0: not added to an epoll set (a socket only counted, never read). */
int packet_sock_open_filtered(struct packet_sock *ps, const struct packet_sock_kind *k,
			      int ifindex, int epfd, void *tag, const struct sock_fprog *filter);
/* Attaches filter to an open socket, replacing any (SO_ATTACH_FILTER), or
 * detaches it (NULL: SO_DETACH_FILTER).  Frames queued already stay.
 * Returns 0 or -errno. */
int packet_sock_filter(const struct packet_sock *ps, const struct sock_fprog *filter);
/*
 * Opens *ps as one socket of kind k for every link of the network
 * namespace (bound to ifindex 0, with PACKET_ORIGDEV: each frame's
 * sll_ifindex names the slave it arrived on, not the bond the bonding
 * driver moved it to), added to epfd with `tag`.  k->group is not joined
 * here: packet_sock_join joins it link by link.  Returns 0 or -errno.
 */
int packet_sock_open_any(struct packet_sock *ps, const struct packet_sock_kind *k, int epfd,
			 void *tag);
/* The same with a filter attached before bind, epfd < 0 for none, as
 * packet_sock_open_filtered. */
int packet_sock_open_any_filtered(struct packet_sock *ps, const struct packet_sock_kind *k,
				  int epfd, void *tag, const struct sock_fprog *filter);
/* Joins (join true) or leaves the multicast group on link ifindex, for
 * a socket of packet_sock_open_any.  0 or -errno. */
int packet_sock_join(const struct packet_sock *ps, const uint8_t group[6], int ifindex,
		     bool join);
/* Sets the receive buffer of *ps to `bytes` (forced when k says so). */
void packet_sock_set_rcvbuf(const struct packet_sock *ps, const struct packet_sock_kind *k,
			    int bytes);
/* Closes *ps if open (which also takes it out of the epoll set and leaves
 * its multicast group). */
void packet_sock_close(struct packet_sock *ps);

/*
 * Reads the next frame worth looking at from *ps into buf (len bytes), its
 * sender's address into *from: frames we sent ourselves and empty ones are
 * skipped.  Every read, skipped or not, takes one from *budget, so that a
 * flood on one slave cannot starve the event loop.  Returns the frame's
 * length, which may be more than len (MSG_TRUNC: the caller sees a frame
 * was cut), or -1 when nothing more is there, the budget is spent, *ps is
 * closed (perhaps by the caller, while handling the last frame), or on an
 * error (the socket is read again at its next event).
 */
ssize_t packet_rx(const struct packet_sock *ps, void *buf, size_t len, struct sockaddr_ll *from,
		  unsigned *budget);

#endif
