/* SPDX-License-Identifier: MIT */
/*
 * bondd's own troubles in words, for health and STATUS= (view_text.c,
 * pure): its picture of the kernel stale, and the resources refused to it.
 */
#ifndef BONDD_VIEW_TEXT_H
#define BONDD_VIEW_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "re-reading links failing since 2026-01-02T03:04:05Z: Interrupted system
 * call": since_ms the wall clock of the first failure, err a -errno. */
void stale_text_of(int64_t since_ms, int err, char *out, size_t len);

/* "impaired: LC; LLDP; STATUS (open-file limit N)" from the troubles the
 * link check, LLDP and the status process report (each NULL: none);
 * false, out untouched, when there are none. */
bool impaired_text_of(const char *lc, const char *lldp, const char *status, size_t fd_soft,
		      char *out, size_t len);

#endif
