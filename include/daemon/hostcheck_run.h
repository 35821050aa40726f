/* SPDX-License-Identifier: MIT */
/* The host checks in the daemon: run when due (start, reload, a configured
 * link that appeared, went, or changed carrier), never on a timer. */
#ifndef BONDD_HOSTCHECK_RUN_H
#define BONDD_HOSTCHECK_RUN_H

#include "daemon.h"

/* Reads the host and replaces d->findings[FSRC_HOST_CHECK] when
 * d->host_check_due; logs each new finding once. */
void hostcheck_run_if_due(struct daemon *d);

#endif
