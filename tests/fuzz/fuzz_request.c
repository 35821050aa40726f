/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: bytes as a client could send them.  They are cut into lines
 * the way the server cuts them and each line goes through the request
 * parser; the whole input also goes through the /proc privilege filter.
 * Built for libFuzzer with clang (scripts/test), and with fuzz_main.c as a
 * plain replay-and-mutate driver in the unit suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proc_filter.h"
#include "status_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct status_request req;
	char err[256];

	for (size_t pos = 0; pos < size;) {
		const char *nl = memchr(text + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (text + pos)) : size - pos;
		/* The server never hands over more than one buffer's worth. */
		if (len < STATUS_MAX_REQUEST &&
		    status_request_parse(text + pos, len, &req, err, sizeof(err)) == 0) {
			if (req.n_bonds > STATUS_MAX_NAMES)
				__builtin_trap();
			for (size_t i = 0; i < req.n_bonds; i++)
				if (strnlen(req.bonds[i], IFNAMSIZ) == IFNAMSIZ)
					__builtin_trap();
			/* a trial's number and seconds are checked here, and
			 * name no bond */
			if (req.verb == SV_TRY && (req.arg < STATUS_TRY_MIN_S ||
						   req.arg > STATUS_TRY_MAX_S || req.n_bonds))
				__builtin_trap();
			if ((req.verb == SV_TRIAL_WAIT && (!req.arg || req.n_bonds)) ||
			    (req.verb == SV_CONFIRM && req.n_bonds))
				__builtin_trap();
		} else if (strnlen(err, sizeof(err)) == sizeof(err)) {
			__builtin_trap();
		}
		pos += len + 1;
	}

	struct strbuf out = {0};
	proc_filter_unprivileged(text, size, &out);
	if (out.len > size)
		__builtin_trap(); /* the filter only ever removes */
	sb_free(&out);
	return 0;
}
