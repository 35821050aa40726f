/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: LLDP frames as anyone on a switch port could send them to
 * bondd (lldp.h).  The input is one Ethernet frame.  A frame the parser
 * takes must leave every text NUL-terminated, in its buffer, and printable
 * ASCII (the status outputs print them); a refusal must say why.  A frame
 * taken goes on into a slave's record beside a sibling's (lldp_eval.h):
 * the findings' sentences must end inside their fields.  Built
 * for libFuzzer with clang (scripts/test), and with fuzz_main.c as a plain
 * replay-and-mutate driver in the unit suite.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lldp.h"
#include "lldp_eval.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The frame's neighbour on e1, a fixed one on e2 (same chassis and port,
 * PVID 1, 1518 bytes), every finding of a balance-rr bond at MTU 9000. */
static void records(const struct lldp_neighbor *n)
{
	struct lldp_neighbor other = {.chassis_subtype = 4, .port_subtype = 5, .ttl = 120,
				      .has_pvid = true, .pvid = 1, .has_max_frame = true,
				      .max_frame = 1518};
	static struct lldp_port p[2];
	const struct lldp_port *ports[2] = {&p[0], &p[1]};
	struct findings f = {0};

	memcpy(other.chassis_id, n->chassis_id, sizeof(other.chassis_id));
	memcpy(other.port_id, n->port_id, sizeof(other.port_id));
	lldp_port_init(&p[0], "bond0", "e1", 0);
	lldp_port_init(&p[1], "bond0", "e2", 0);
	lldp_port_take(&p[1], &other, 0, 0);
	lldp_port_take(&p[0], &other, 0, 0);
	if (lldp_port_token(&p[0], 1))
		lldp_port_take(&p[0], n, 1, 1);
	/* and again a second later: confirmed, or a second speaker beside
	 * e1's first */
	lldp_port_take(&p[0], n, 1 + LLDP_CONFIRM_MS, 1);
	lldp_port_take(&p[1], &other, LLDP_CONFIRM_MS, 0);
	if (lldp_eval("bond0", 9000, true, ports, 2, &f) < 0)
		__builtin_trap();
	for (size_t i = 0; i < f.n; i++)
		if (strnlen(f.v[i].evidence, sizeof(f.v[i].evidence)) == sizeof(f.v[i].evidence) ||
		    strnlen(f.v[i].fix, sizeof(f.v[i].fix)) == sizeof(f.v[i].fix) || !f.v[i].n_slaves)
			__builtin_trap();
	findings_free(&f);
	lldp_port_expire(&p[0], (n->ttl > 120 ? n->ttl : 120) * 1000LL + 1 + LLDP_CONFIRM_MS);
	if (p[0].n_sp || p[0].changed)
		__builtin_trap();
	lldp_port_free(&p[0]);
	lldp_port_free(&p[1]);
}

static void printable(const char *s)
{
	size_t n = strnlen(s, LLDP_TEXT_SIZE);
	if (n == LLDP_TEXT_SIZE)
		__builtin_trap();
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] >= 0x7f)
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lldp_neighbor n;
	const char *why = NULL;
	int rc = lldp_parse_frame(data, size, &n, &why);

	if (rc == 0) {
		printable(n.chassis_id);
		printable(n.port_id);
		printable(n.port_descr);
		printable(n.sys_name);
		records(&n);
	} else if (rc != -EINVAL && rc != -EPROTO) {
		__builtin_trap();
	} else if (!why || !why[0]) {
		__builtin_trap();
	}
	return 0;
}
