/* SPDX-License-Identifier: MIT */
/*
 * Writing the Prometheus text exposition format: one writer for the status
 * metrics and the link check's.  Labels join with node_exporter's without
 * relabelling: its bonding collector labels a bond `master`, its network
 * collectors label every interface `device`.
 */
#ifndef BONDD_PROM_TEXT_H
#define BONDD_PROM_TEXT_H

#include "strbuf.h"

/* "# HELP name help" and "# TYPE name type" (type: gauge, counter). */
void prom_head(struct strbuf *out, const char *name, const char *type, const char *help);

/* name{master="MASTER",device="DEVICE"[,LABEL="VALUE"]} value; label NULL
 * for none.  Names are escaped (prom_label); label is written as is. */
void prom_sample(struct strbuf *out, const char *name, const char *master, const char *device,
		 const char *label, const char *label_value, unsigned long long value);

#endif
