/* SPDX-License-Identifier: MIT */
/* bondd's own troubles in words (view_text.h): a table of troubles and the
 * text health and STATUS= show for each. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "view_text.h"

struct impaired_case {
	const char *lc, *lldp, *status;
	const char *want; /* NULL: none */
};

static const struct impaired_case impaired[] = {
	{NULL, NULL, NULL, NULL},
	{"link check: no packet socket for 37 slaves: Too many open files", NULL, NULL,
	 "impaired: link check: no packet socket for 37 slaves: Too many open files "
	 "(open-file limit 128)"},
	{NULL, "LLDP: no socket", NULL, "impaired: LLDP: no socket (open-file limit 128)"},
	{NULL, NULL, "status: no new clients", "impaired: status: no new clients (open-file limit 128)"},
	{"lc", "ll", NULL, "impaired: lc; ll (open-file limit 128)"},
	{"lc", NULL, "st", "impaired: lc; st (open-file limit 128)"},
	{NULL, "ll", "st", "impaired: ll; st (open-file limit 128)"},
	{"lc", "ll", "st", "impaired: lc; ll; st (open-file limit 128)"},
};

static void impaired_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(impaired) / sizeof(impaired[0]); i++) {
		const struct impaired_case *c = &impaired[i];
		char out[320] = "untouched";
		bool any = impaired_text_of(c->lc, c->lldp, c->status, 128, out, sizeof(out));
		assert_int_equal(any, c->want != NULL);
		assert_string_equal(out, c->want ? c->want : "untouched");
	}
	char small[16];
	assert_true(impaired_text_of("a long trouble text", NULL, NULL, 1, small, sizeof(small)));
	assert_string_equal(small, "impaired: a lon");
}

static void stale_texts(void **state)
{
	(void)state;
	char out[128];
	stale_text_of(1767323045123, -EINTR, out, sizeof(out));
	assert_string_equal(out, "re-reading links failing since 2026-01-02T03:04:05Z: "
				 "Interrupted system call");
	stale_text_of(0, -ENOBUFS, out, sizeof(out));
	assert_string_equal(out, "re-reading links failing since 1970-01-01T00:00:00Z: "
				 "No buffer space available");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(impaired_table),
		cmocka_unit_test(stale_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
