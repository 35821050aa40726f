/* SPDX-License-Identifier: MIT */
/*
 * The kernel prints some lines of /proc/net/bonding/<bond> only to readers
 * with CAP_NET_ADMIN: for 802.3ad, the system priority and MAC, the active
 * aggregator's details, and each slave's LACP PDU details.  bondd reads the
 * file as root; for a client without the capability it drops exactly those
 * lines, so the socket shows nobody more than the kernel would.
 */
#ifndef BONDD_PROC_FILTER_H
#define BONDD_PROC_FILTER_H

#include "strbuf.h"

/* Appends text[0..len) to out without the privileged lines. */
void proc_filter_unprivileged(const char *text, size_t len, struct strbuf *out);

#endif
