/* SPDX-License-Identifier: MIT */
/*
 * LLDP, receive only: one packet socket for the slaves of every bond
 * with lldp = yes (AF_PACKET, EtherType 0x88cc, bound to no link, each
 * frame's slave told by its sll_ifindex, member of 01:80:c2:00:00:0e on
 * each slave), in an epoll set of its own that the daemon's loop watches
 * as one fd: two open files in all, whatever the number of slaves.  bondd sends nothing.  No timer: a
 * neighbour's TTL is judged when the records are read (lldp_refresh).
 * A frame goes through the size-checked parser (lldp.h), then the slave's
 * rate limit (lldp_eval.h); a frame refused by either changes only a
 * counter.
 */
#ifndef BONDD_LLDP_IO_H
#define BONDD_LLDP_IO_H

#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "findings.h"
#include "lldp_eval.h"
#include "observed.h"

struct lldp_rx;

int lldp_rx_open(struct lldp_rx **out);
void lldp_rx_close(struct lldp_rx *rx);
int lldp_rx_fd(const struct lldp_rx *rx);
/* Reads what is ready (a bounded batch per slave); never blocks. */
void lldp_rx_dispatch(struct lldp_rx *rx);
/* After every pass over the bonds: a record for each configured slave
 * of a bond with lldp = yes, heard while the slave exists; records of
 * other slaves are dropped. */
void lldp_rx_sync(struct lldp_rx *rx, const struct desired *want, const struct observed *obs);
/* Why some slave hears no LLDP now (its socket or group refused: "LLDP:
 * Too many open files"), or NULL. */
const char *lldp_rx_trouble(const struct lldp_rx *rx);
/* Expires what has passed by now and rewrites `out` (FSRC_LLDP) with the
 * findings of every bond (lldp_eval).  Out of memory: the last stand. */
void lldp_rx_refresh(struct lldp_rx *rx, const struct desired *want, const struct observed *obs,
		     struct findings *out);
/* The record of `slave` of `bond`, or NULL (lldp off, not configured).
 * rx may be NULL. */
const struct lldp_port *lldp_rx_find(const struct lldp_rx *rx, const char *bond,
				     const char *slave);

#endif
