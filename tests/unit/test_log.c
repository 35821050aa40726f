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
#include <syslog.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
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
	/* No journal socket unless a test names one (the host's may exist). */
	if (!getenv("BONDD_JOURNAL_SOCKET"))
		setenv("BONDD_JOURNAL_SOCKET", "", 1);
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

static void with_fields(void)
{
	struct log_meta health = {"bond0", NULL, LOG_MSGID_HEALTH};
	struct log_meta repair = {"bond0", "e\x01", LOG_MSGID_REPAIR};

	log_meta(LOG_WARNING, &health, "bond0: health: healthy -> degraded: %s", "e2 down");
	log_meta(LOG_NOTICE, &repair, "bond0: apply: x\ny");
	log_info("plain");
	log_meta(LOG_DEBUG, &health, "not with debug off");
}

/* Under systemd, lines go to the journal's socket as the native protocol
 * with INTERFACE= and MESSAGE_ID=, nothing to stderr; a name with a
 * control byte takes the binary form; a MESSAGE stays escaped. */
static void journal_native_fields(void **state)
{
	char dir[] = "/tmp/bondd-test-log-XXXXXX", path[64], dgram[3][512];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	ssize_t n[3];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/socket", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	setenv("BONDD_JOURNAL_SOCKET", path, 1);
	assert_string_equal(captured_with(JOURNAL, false, with_fields), "");
	for (int i = 0; i < 3; i++)
		n[i] = recv(fd, dgram[i], sizeof(dgram[i]), MSG_DONTWAIT);
	assert_int_equal(recv(fd, dgram[0], 1, MSG_DONTWAIT), -1);
	const char want0[] = "MESSAGE=bond0: health: healthy -> degraded: e2 down\nPRIORITY=4\n"
			     "SYSLOG_IDENTIFIER=bondd\nINTERFACE=bond0\n"
			     "MESSAGE_ID=" LOG_MSGID_HEALTH "\n";
	assert_int_equal(n[0], sizeof(want0) - 1);
	assert_memory_equal(dgram[0], want0, sizeof(want0) - 1);
	const char want1[] = "MESSAGE=bond0: apply: x\\x0ay\nPRIORITY=5\n"
			     "SYSLOG_IDENTIFIER=bondd\nINTERFACE=bond0\n"
			     "INTERFACE\n\x02\0\0\0\0\0\0\0e\x01\n"
			     "MESSAGE_ID=" LOG_MSGID_REPAIR "\n";
	assert_int_equal(n[1], sizeof(want1) - 1);
	assert_memory_equal(dgram[1], want1, sizeof(want1) - 1);
	const char want2[] = "MESSAGE=plain\nPRIORITY=6\nSYSLOG_IDENTIFIER=bondd\n";
	assert_int_equal(n[2], sizeof(want2) - 1);
	assert_memory_equal(dgram[2], want2, sizeof(want2) - 1);

	/* Nobody at the socket any more: stderr, with the prefixes. */
	close(fd);
	unlink(path);
	assert_string_equal(captured_with(JOURNAL, false, with_fields),
			    "<4>bond0: health: healthy -> degraded: e2 down\n"
			    "<5>bond0: apply: x\\x0ay\n<6>plain\n");
	rmdir(dir);
	setenv("BONDD_JOURNAL_SOCKET", "", 1);
}

/* A datagram too small for the line: 0, and the caller falls back. */
static void datagram_too_small(void **state)
{
	char buf[40];
	struct log_meta m = {"bond0", NULL, LOG_MSGID_HEALTH};

	(void)state;
	assert_int_equal(log_journal_datagram(LOG_INFO, &m, "a message", buf, sizeof(buf)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(journal_native_fields),
		cmocka_unit_test(datagram_too_small),
		cmocka_unit_test(journal_prefixes),
		cmocka_unit_test(terminal_words),
		cmocka_unit_test(journal_stream_elsewhere),
		cmocka_unit_test(control_bytes_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
