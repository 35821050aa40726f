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
#include <sys/stat.h>
#include <cmocka.h>

#include "log.h"

enum stream { TERMINAL, JOURNAL, ELSEWHERE, GARBAGE };

/* Runs the levels with stderr in a temporary file, JOURNAL_STREAM naming
 * that file (JOURNAL), another one (ELSEWHERE: stderr was redirected by
 * something started under systemd) or unset; returns the text written. */
static char *captured_with(enum stream where, bool debug, void (*emit)(void))
{
	static char text[512];
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	struct stat st;
	char env[64];

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &st), 0);
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + (where == ELSEWHERE));
	if (where == GARBAGE)
		snprintf(env, sizeof(env), "%llu:%llux", (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino);
	if (where != TERMINAL)
		setenv("JOURNAL_STREAM", env, 1);
	else
		unsetenv("JOURNAL_STREAM");
	fflush(stderr);
	assert_int_equal(dup2(fileno(f), STDERR_FILENO), STDERR_FILENO);
	log_init(debug);
	emit();
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void levels(void)
{
	log_err("e %d", 1);
	log_warn("w");
	log_notice("n");
	log_info("i");
	log_debug("d");
}

static char *captured(bool journal, bool debug)
{
	return captured_with(journal ? JOURNAL : TERMINAL, debug, levels);
}

/* JOURNAL_STREAM is inherited by whatever a service starts; only a stderr
 * that is still that stream gets the prefixes (systemd.exec(5)). */
static void journal_stream_elsewhere(void **state)
{
	assert_string_equal(captured_with(ELSEWHERE, false, levels),
			    "bondd: error: e 1\nbondd: warning: w\nbondd: n\nbondd: i\n");
	/* stderr's own numbers, with something after them. */
	assert_string_equal(captured_with(GARBAGE, false, levels),
			    "bondd: error: e 1\nbondd: warning: w\nbondd: n\nbondd: i\n");
	(void)state;
}

static void hostile(void)
{
	/* Interface names may hold any byte but '/', ':', NUL and blanks
	 * (net/core/dev.c dev_valid_name); messages quote files and the
	 * kernel.  None may start a journal entry of its own or carry a
	 * terminal escape: "<3>" after a newline would be a forged error. */
	log_warn("%s disappeared", "e\x1b[2J\x7f");
	log_info("quoted \"%s\"", "a\nb\r<3>forged");
	log_info("%s", "caf\xc3\xa9 \xff\\");
}

static void control_bytes_escaped(void **state)
{
	assert_string_equal(captured_with(JOURNAL, false, hostile),
			    "<4>e\\x1b[2J\\x7f disappeared\n"
			    "<6>quoted \"a\\x0ab\\x0d<3>forged\"\n"
			    "<6>caf\\xc3\\xa9 \\xff\\\n");
	assert_string_equal(captured_with(TERMINAL, false, hostile),
			    "bondd: warning: e\\x1b[2J\\x7f disappeared\n"
			    "bondd: quoted \"a\\x0ab\\x0d<3>forged\"\n"
			    "bondd: caf\\xc3\\xa9 \\xff\\\n");
	(void)state;
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
		cmocka_unit_test(journal_stream_elsewhere),
		cmocka_unit_test(control_bytes_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
