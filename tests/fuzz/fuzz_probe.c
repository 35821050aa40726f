/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: probe frames as anyone on a switch could send them to
 * bondd's link check.  The input is a sequence of frames, each behind a
 * two-byte big-endian length.  Each goes through the parser; a frame it
 * accepts must encode back to the same header and host name (one meaning,
 * one encoding), and is put into an observation matrix the way the daemon
 * would, which is then evaluated and rendered (hostile names reach the findings and JSON).
 * Built for libFuzzer with clang (scripts/test), and with fuzz_main.c as a
 * plain replay-and-mutate driver in the unit suite.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "linkcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t again[LC_MAX_LEN];
	struct lc_slave_obs rows[4];
	struct lc_matrix m = {.bond = "bond0", .mode = MODE_BALANCE_RR, .mtu = 9000,
			      .slaves = rows, .n_slaves = 4};

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < 4; i++) {
		rows[i].name[0] = 'e';
		rows[i].name[1] = (char)('1' + i);
		rows[i].pos = (uint8_t)(i + 1);
		rows[i].probed = true;
		rows[i].sent = 7;
		rows[i].sizes[LC_SMALL] = LC_HEADER_LEN;
		rows[i].sizes[LC_STANDARD] = LC_STANDARD_LEN;
		rows[i].sizes[LC_FULL] = 9000;
	}
	for (size_t pos = 0; pos + 2 <= size;) {
		size_t len = (size_t)data[pos] << 8 | data[pos + 1];
		pos += 2;
		if (len > size - pos)
			len = size - pos;
		struct lc_frame f;
		const char *why = NULL;
		if (lc_frame_decode(data + pos, len, &f, &why) == 0) {
			if (lc_frame_encode(&f, again, sizeof(again)) != (int)len ||
			    memcmp(again, data + pos,
				   len >= LC_NAMED_LEN ? LC_NAMED_LEN : LC_HEADER_LEN) != 0)
				__builtin_trap();
			struct lc_slave_obs *row = &rows[f.from.pos % 4];
			if (f.type == LC_ANSWER)
				row = &rows[f.to.pos % 4];
			struct lc_peer_obs *pe = lc_row_peer(row, &f.from);
			if (pe && f.type == LC_ANSWER)
				pe->answered |= (uint8_t)LC_SIZE_BIT(f.size);
			else if (pe)
				pe->heard |= (uint8_t)LC_SIZE_BIT(f.size);
			if (f.flags & LC_FLAG_PROBE_BACK)
				rows[f.from.pos % 4].siblings |= 1u << (f.to.pos % 4);
		} else if (!why || !why[0]) {
			__builtin_trap(); /* every refusal says why */
		}
		pos += len;
	}

	struct findings out = {0};
	struct lc_result r = {.bond = "bond0", .enabled = true, .checks = 1, .m = m};
	struct strbuf sb = {0};
	if (linkcheck_eval(&m, &out) == 0) {
		linkcheck_json(&sb, &r);
		const struct finding *found[64];
		size_t n = out.n < 64 ? out.n : 64;
		for (size_t i = 0; i < n; i++)
			found[i] = &out.v[i];
		linkcheck_table(&sb, &r, "bond0", found, n);
		findings_json(&sb, found, n);
	}
	sb_free(&sb);
	findings_free(&out);
	lc_rows_free(rows, 4);
	return 0;
}
