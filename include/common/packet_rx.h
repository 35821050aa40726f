/* SPDX-License-Identifier: MIT */
/*
 * One frame from a non-blocking AF_PACKET socket, for the link check's and
 * LLDP's per-slave sockets: retried on EINTR, our own outgoing frames
 * (which a packet socket bound to a slave also sees) skipped.
 */
#ifndef BONDD_PACKET_RX_H
#define BONDD_PACKET_RX_H

#include <linux/if_packet.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Reads one frame into buf (len bytes), its sender's address into *from.
 * Returns its length, which may be
 * more than len (MSG_TRUNC: the caller sees a frame was cut), 0 for a frame
 * to skip (one we sent), or -1 when nothing more is there (or on an error:
 * the socket is read again at its next event).
 */
ssize_t packet_rx(int fd, void *buf, size_t len, struct sockaddr_ll *from);

#endif
