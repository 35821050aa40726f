/* SPDX-License-Identifier: MIT */
/* log.c: the priority prefixes journald reads, and the plain words on a
 * terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

/* Runs the four levels with stderr in a temporary file; returns its text. */
static char *captured(bool journal, bool debug)
{
	static char text[512];
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);

	assert_non_null(f);
	if (journal)
		setenv("JOURNAL_STREAM", "8:1234", 1);
	else
		unsetenv("JOURNAL_STREAM");
	fflush(stderr);
	assert_int_equal(dup2(fileno(f), STDERR_FILENO), STDERR_FILENO);
	log_init(debug);
	log_err("e %d", 1);
	log_warn("w");
	log_notice("n");
	log_info("i");
	log_debug("d");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void journal_prefixes(void **state)
{
	/* sd-daemon(3): <3> err, <4> warning, <5> notice, <6> info, <7> debug */
	assert_string_equal(captured(true, true), "<3>e 1\n<4>w\n<5>n\n<6>i\n<7>d\n");
	assert_string_equal(captured(true, false), "<3>e 1\n<4>w\n<5>n\n<6>i\n");
	(void)state;
}

static void terminal_words(void **state)
{
	assert_string_equal(captured(false, false),
			    "bondd: error: e 1\nbondd: warning: w\nbondd: n\nbondd: i\n");
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(journal_prefixes),
		cmocka_unit_test(terminal_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
