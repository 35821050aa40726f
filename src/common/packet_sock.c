/* SPDX-License-Identifier: MIT */
/* A slave's own packet socket (packet_sock.h). */
#include "packet_sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* Sets a buffer size, forced past the sysctl limit when asked and allowed;
 * a failure leaves the kernel's default, which works, only smaller. */
static void set_buf(int fd, int opt, int force_opt, int bytes, bool force)
{
	if (!bytes)
		return;
	if (!force || setsockopt(fd, SOL_SOCKET, force_opt, &bytes, sizeof(bytes)) < 0)
		setsockopt(fd, SOL_SOCKET, opt, &bytes, sizeof(bytes));
}

static int ceiling;

void packet_sock_set_ceiling(int fds)
{
	ceiling = fds;
}

/* A new socket within the ceiling, or -errno. */
static int new_socket(int type)
{
	int fd = socket(AF_PACKET, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* The kernel hands out the lowest free number (fs/file.c
	 * alloc_fd), so the number is the files open. */
	if (ceiling > 0 && fd >= ceiling) {
		close(fd);
		return -EMFILE;
	}
	return fd;
}

int packet_sock_open(struct packet_sock *ps, const struct packet_sock_kind *k, int ifindex,
		     int epfd, void *tag)
{
	return packet_sock_open_filtered(ps, k, ifindex, epfd, tag, NULL);
}

int packet_sock_open_filtered(struct packet_sock *ps, const struct packet_sock_kind *k,
			      int ifindex, int epfd, void *tag, const struct sock_fprog *filter)
{
	/* Protocol 0 until bind: a packet socket made with its EtherType
	 * hears it on every link of the namespace from socket() on
	 * (net/packet/af_packet.c packet_create registers its hook, with no
	 * device, when it is given a protocol), and the frames queued before
	 * bind stay queued: a slave's socket read a sibling's answers (a
	 * 64-host start took them for a switch LAG). */
	int fd = new_socket(k->type);
	if (fd < 0)
		return fd;
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(k->ethertype),
				  .sll_ifindex = ifindex};
	struct packet_mreq mr = {.mr_ifindex = ifindex, .mr_type = PACKET_MR_MULTICAST,
				 .mr_alen = 6};
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = tag};
	if (k->group)
		memcpy(mr.mr_address, k->group, 6);
	set_buf(fd, SO_RCVBUF, SO_RCVBUFFORCE, k->rcvbuf, k->force_bufs);
	set_buf(fd, SO_SNDBUF, SO_SNDBUFFORCE, k->sndbuf, k->force_bufs);
	/* A socket bound to a link sees what we send on it too
	 * (net/core/dev.c dev_queue_xmit_nit), which packet_rx skips after a
	 * receive call each; asked, the kernel does not queue it at all
	 * (a kernel before 4.20 refuses the option: packet_rx still skips). */
	if (k->ignore_outgoing) {
		int one = 1;
		setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	}
	/* The filter before bind: no frame it refuses is ever queued. */
	if ((filter && setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, filter, sizeof(*filter)) < 0) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    (k->group && setsockopt(fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0) ||
	    (epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)) {
		int err = -errno;
		close(fd);
		return err;
	}
	ps->fd = fd;
	ps->ifindex = ifindex;
	return 0;
}

int packet_sock_open_any(struct packet_sock *ps, const struct packet_sock_kind *k, int epfd,
			 void *tag)
{
	return packet_sock_open_any_filtered(ps, k, epfd, tag, NULL);
}

int packet_sock_open_any_filtered(struct packet_sock *ps, const struct packet_sock_kind *k,
				  int epfd, void *tag, const struct sock_fprog *filter)
{
	/* Protocol 0 until bind, as packet_sock_open: nothing is queued before
	 * the socket has its EtherType. */
	int fd = new_socket(k->type);
	if (fd < 0)
		return fd;
	/* Bound to no device, the socket hooks its EtherType for every link
	 * (net/packet/af_packet.c packet_do_bind: dev NULL, dev_add_pack on
	 * ptype_base).  A frame on an active slave reaches it after the
	 * bond's rx_handler moved the skb to the bond (net/core/dev.c
	 * __netif_receive_skb_core, deliver_ptype_list_skb on ptype_base
	 * with orig_dev): packet_rcv names orig_dev, the slave, only with
	 * PACKET_ORIGDEV.  On an inactive slave the driver passes only
	 * link-local frames to sockets not bound to it
	 * (drivers/net/bonding/bond_main.c bond_handle_frame: RX_HANDLER_EXACT
	 * otherwise), so a user that must hear other frames there keeps a
	 * socket bound to that slave. */
	int one = 1;
	struct sockaddr_ll sll = {.sll_family = AF_PACKET, .sll_protocol = htons(k->ethertype)};
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = tag};
	set_buf(fd, SO_RCVBUF, SO_RCVBUFFORCE, k->rcvbuf, k->force_bufs);
	set_buf(fd, SO_SNDBUF, SO_SNDBUFFORCE, k->sndbuf, k->force_bufs);
	/* (bound to every link, it sees what we send on any of them:
	 * packet_sock_open_filtered) */
	if (k->ignore_outgoing)
		setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (setsockopt(fd, SOL_PACKET, PACKET_ORIGDEV, &one, sizeof(one)) < 0 ||
	    (filter && setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, filter, sizeof(*filter)) < 0) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0 ||
	    (epfd >= 0 && epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0)) {
		int err = -errno;
		close(fd);
		return err;
	}
	ps->fd = fd;
	ps->ifindex = 0;
	return 0;
}

int packet_sock_join(const struct packet_sock *ps, const uint8_t group[6], int ifindex, bool join)
{
	struct packet_mreq mr = {.mr_ifindex = ifindex, .mr_type = PACKET_MR_MULTICAST,
				 .mr_alen = 6};
	memcpy(mr.mr_address, group, 6);
	if (setsockopt(ps->fd, SOL_PACKET, join ? PACKET_ADD_MEMBERSHIP : PACKET_DROP_MEMBERSHIP,
		       &mr, sizeof(mr)) < 0)
		return -errno;
	return 0;
}

int packet_sock_filter(const struct packet_sock *ps, const struct sock_fprog *filter)
{
	int dummy = 0;
	if (ps->fd < 0)
		return -EBADF;
	if (filter ? setsockopt(ps->fd, SOL_SOCKET, SO_ATTACH_FILTER, filter, sizeof(*filter))
		   : setsockopt(ps->fd, SOL_SOCKET, SO_DETACH_FILTER, &dummy, sizeof(dummy)))
		return -errno;
	return 0;
}

void packet_sock_set_rcvbuf(const struct packet_sock *ps, const struct packet_sock_kind *k,
			    int bytes)
{
	if (ps->fd >= 0)
		set_buf(ps->fd, SO_RCVBUF, SO_RCVBUFFORCE, bytes, k->force_bufs);
}

void packet_sock_close(struct packet_sock *ps)
{
	if (ps->fd >= 0)
		close(ps->fd);
	*ps = PACKET_SOCK_CLOSED;
}

ssize_t packet_rx(const struct packet_sock *ps, void *buf, size_t len, struct sockaddr_ll *from,
		  unsigned *budget)
{
	while (ps->fd >= 0 && *budget > 0) {
		socklen_t fromlen = sizeof(*from);
		ssize_t n = recvfrom(ps->fd, buf, len, MSG_TRUNC | MSG_DONTWAIT,
				     (struct sockaddr *)from, &fromlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		--*budget;
		if (n > 0 && from->sll_pkttype != PACKET_OUTGOING)
			return n;
	}
	return -1;
}
