/* SPDX-License-Identifier: MIT */
/* One frame from a packet socket (packet_rx.h). */
#include "packet_rx.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

ssize_t packet_rx(int fd, void *buf, size_t len, struct sockaddr_ll *from)
{
	for (;;) {
		socklen_t fromlen = sizeof(*from);
		ssize_t n = recvfrom(fd, buf, len, MSG_TRUNC | MSG_DONTWAIT,
				     (struct sockaddr *)from, &fromlen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		return from->sll_pkttype == PACKET_OUTGOING ? 0 : n;
	}
}
