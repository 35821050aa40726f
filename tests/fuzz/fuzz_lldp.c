/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: LLDP frames as anyone on a switch port could send them to
 * bondd (lldp.h).  The input is one Ethernet frame.  A frame the parser
 * takes must leave every text NUL-terminated, in its buffer, and printable
 * ASCII (the status outputs print them); a refusal must say why.  Built
 * for libFuzzer with clang (scripts/test), and with fuzz_main.c as a plain
 * replay-and-mutate driver in the unit suite.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lldp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	} else if (rc != -EINVAL && rc != -EPROTO) {
		__builtin_trap();
	} else if (!why || !why[0]) {
		__builtin_trap();
	}
	return 0;
}
