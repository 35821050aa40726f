/* SPDX-License-Identifier: MIT */
/*
 * LLDP in the status outputs: a slave's "lldp" member in JSON, the
 * Prometheus info metric and counters, and bondd-status --neighbours'
 * text.  Reads the records only (lldp_io.h).
 */
#ifndef BONDD_LLDP_RENDER_H
#define BONDD_LLDP_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "lldp_io.h"
#include "strbuf.h"

/* The value of a slave's "lldp" member: null when p is NULL (lldp = no). */
void lldp_json(struct strbuf *out, const struct lldp_port *p);
/* bondd_slave_lldp_neighbour_info and the frame counters of the slaves
 * whose records are ports[0..n) (NULL: none for that slave). */
void lldp_prometheus(struct strbuf *out, const struct lldp_port *const *ports, size_t n);
/* One line per slave of b, whose records are ports[0..b->n_slaves) (NULL:
 * none for that slave); now_wall_ms for "heard N s ago". */
void lldp_text(struct strbuf *out, const struct desired_bond *b,
	       const struct lldp_port *const *ports, int64_t now_wall_ms);

#endif
