/* SPDX-License-Identifier: MIT */
/* bondd's command line (bondd_args.h): a table of command lines and the
 * test aids' values, and what bondd runs or what it says is wrong. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondd_args.h"
#include "build_config.h"

#define LONG_SOCKET "/run/" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static const struct {
	const char *what;
	const char *argv[8];
	const char *rcvbuf;
	enum bondd_run run;
	enum bondd_args_error error;
	const char *said;         /* bondd_args_say's first line, or NULL */
	const char *config;       /* NULL: the default */
	const char *socket;       /* NULL: the default */
	bool plan, json, detailed, debug;
	int event_rcvbuf;
} cases[] = {
	{"nothing: the daemon with the defaults", {NULL}, NULL, BONDD_RUN_DAEMON, BONDD_ARGS_OK, NULL,
	 NULL, NULL, false, false, false, false, 0},
	{"a config file and a socket", {"-c", "/srv/b.conf", "--socket", "/run/x.sock", NULL},
	 NULL, BONDD_RUN_DAEMON, BONDD_ARGS_OK, NULL, "/srv/b.conf", "/run/x.sock", false, false,
	 false, false, 0},
	{"--config=FILE and --debug", {"--config=/srv/c.conf", "-d", NULL}, NULL, BONDD_RUN_DAEMON,
	 BONDD_ARGS_OK, NULL, "/srv/c.conf", NULL, false, false, false, true, 0},
	{"--check", {"--check", NULL}, NULL, BONDD_RUN_CHECK, BONDD_ARGS_OK, NULL, NULL, NULL,
	 false, false, false, false, 0},
	{"--check --plan --json --detailed-exitcode",
	 {"-n", "-p", "-j", "--detailed-exitcode", NULL}, NULL, BONDD_RUN_CHECK, BONDD_ARGS_OK,
	 NULL, NULL, NULL, true, true, true, false, 0},
	{"--check takes any socket: it opens none", {"-n", "-s", "/run/", NULL}, NULL,
	 BONDD_RUN_CHECK, BONDD_ARGS_OK, NULL, NULL, "/run/", false, false, false, false, 0},
	{"--check ignores a bad BONDD_EVENT_RCVBUF", {"-n", NULL}, "lots", BONDD_RUN_CHECK,
	 BONDD_ARGS_OK, NULL, NULL, NULL, false, false, false, false, 0},
	{"--version", {"--version", NULL}, NULL, BONDD_RUN_VERSION, BONDD_ARGS_OK, NULL, NULL, NULL,
	 false, false, false, false, 0},
	{"--help before a wrong word: help", {"-h", "stray", NULL}, NULL, BONDD_RUN_HELP,
	 BONDD_ARGS_OK, NULL, NULL, NULL, false, false, false, false, 0},
	{"an unknown option", {"--frobnicate", NULL}, NULL, BONDD_RUN_USAGE, BONDD_ARGS_UNKNOWN,
	 "Usage: bondd [--config FILE]", NULL, NULL, false, false, false, false, 0},
	{"an unknown option before --version", {"-Z", "-V", NULL}, NULL, BONDD_RUN_USAGE,
	 BONDD_ARGS_UNKNOWN, NULL, NULL, NULL, false, false, false, false, 0},
	{"--config without its file", {"--config", NULL}, NULL, BONDD_RUN_USAGE, BONDD_ARGS_UNKNOWN,
	 NULL, NULL, NULL, false, false, false, false, 0},
	{"a stray word", {"-d", "extra", NULL}, NULL, BONDD_RUN_USAGE, BONDD_ARGS_UNEXPECTED,
	 "bondd: unexpected argument \"extra\"", NULL, NULL, false, false, false, true, 0},
	{"an empty config name", {"-c", "", NULL}, NULL, BONDD_RUN_USAGE, BONDD_ARGS_CONFIG_EMPTY,
	 "bondd: --config: the file name is empty", "", NULL, false, false, false, false, 0},
	{"--plan without --check", {"--plan", NULL}, NULL, BONDD_RUN_USAGE,
	 BONDD_ARGS_PLAN_ALONE, "bondd: --plan goes with --check", NULL, NULL, true, false, false,
	 false, 0},
	{"--json without --plan", {"-n", "-j", NULL}, NULL, BONDD_RUN_USAGE, BONDD_ARGS_JSON_ALONE,
	 "bondd: --json goes with --check --plan", NULL, NULL, false, true, false, false, 0},
	{"--detailed-exitcode without --plan", {"-n", "--detailed-exitcode", NULL}, NULL,
	 BONDD_RUN_USAGE, BONDD_ARGS_EXITCODE_ALONE,
	 "bondd: --detailed-exitcode goes with --check --plan", NULL, NULL, false, false, true,
	 false, 0},
	{"a socket path that is a directory", {"-s", "/run/bondd/", NULL}, NULL, BONDD_RUN_USAGE,
	 BONDD_ARGS_SOCKET, "bondd: --socket /run/bondd/: names a directory, not a socket", NULL,
	 "/run/bondd/", false, false, false, false, 0},
	{"a socket path too long to bind", {"-s", LONG_SOCKET, NULL}, NULL, BONDD_RUN_USAGE,
	 BONDD_ARGS_SOCKET, "bondd: --socket " LONG_SOCKET ": is longer than a UNIX socket address "
	 "allows (107 bytes)", NULL, LONG_SOCKET, false, false, false, false, 0},
	{"no socket at all", {"-s", "", NULL}, NULL, BONDD_RUN_DAEMON, BONDD_ARGS_OK, NULL, NULL, "",
	 false, false, false, false, 0},
	{"BONDD_EVENT_RCVBUF taken", {NULL}, "65536", BONDD_RUN_DAEMON, BONDD_ARGS_OK, NULL, NULL,
	 NULL, false, false, false, false, 65536},
	{"BONDD_EVENT_RCVBUF not a number", {NULL}, "64k", BONDD_RUN_USAGE, BONDD_ARGS_RCVBUF,
	 "bondd: BONDD_EVENT_RCVBUF: not a byte count: 64k", NULL, NULL, false, false, false, false,
	 0},
	{"BONDD_EVENT_RCVBUF negative", {NULL}, "-1", BONDD_RUN_USAGE, BONDD_ARGS_RCVBUF, NULL, NULL,
	 NULL, false, false, false, false, 0},
	{"BONDD_EVENT_RCVBUF past an int", {NULL}, "2147483648", BONDD_RUN_USAGE,
	 BONDD_ARGS_RCVBUF, NULL, NULL, NULL, false, false, false, false, 0},
	{"BONDD_EVENT_RCVBUF empty", {NULL}, "", BONDD_RUN_USAGE, BONDD_ARGS_RCVBUF, NULL, NULL,
	 NULL, false, false, false, false, 0},
};

/* What bondd_args_say writes, whole. */
static char *said(const struct bondd_args *a)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	bondd_args_say(a, f);
	fclose(f);
	return text;
}

static void args_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[10] = {"bondd"};
		int argc = 1;
		for (size_t k = 0; cases[i].argv[k]; k++)
			argv[argc++] = (char *)cases[i].argv[k];
		struct bondd_args a;
		bondd_args_parse(argc, argv, cases[i].rcvbuf, "/tmp/udev", &a);
		const char *config = cases[i].config ? cases[i].config : BONDD_DEFAULT_CONFIG;
		const char *socket = cases[i].socket ? cases[i].socket : BONDD_DEFAULT_SOCKET;
		if (a.run != cases[i].run || a.error != cases[i].error)
			fail_msg("%s: run %d error %d, want %d %d", cases[i].what, a.run, a.error,
				 cases[i].run, cases[i].error);
		if (a.run == BONDD_RUN_VERSION || a.run == BONDD_RUN_HELP)
			continue;
		if (strcmp(a.opts.config_path, config) || strcmp(a.opts.socket_path, socket) ||
		    a.check.plan != cases[i].plan || a.check.json != cases[i].json ||
		    a.check.detailed_exitcode != cases[i].detailed || a.debug != cases[i].debug)
			fail_msg("%s: config %s socket %s plan %d json %d exitcode %d debug %d",
				 cases[i].what, a.opts.config_path, a.opts.socket_path, a.check.plan,
				 a.check.json, a.check.detailed_exitcode, a.debug);
		if (a.run == BONDD_RUN_DAEMON &&
		    (a.opts.event_rcvbuf != cases[i].event_rcvbuf || !a.opts.udev_dir ||
		     strcmp(a.opts.udev_dir, "/tmp/udev")))
			fail_msg("%s: rcvbuf %d", cases[i].what, a.opts.event_rcvbuf);
		if (a.run != BONDD_RUN_USAGE)
			continue;
		char *text = said(&a);
		/* the line, then the usage, but after the environment's error */
		bool usage = strstr(text, "Usage: bondd") != NULL;
		if (usage != (a.error != BONDD_ARGS_RCVBUF))
			fail_msg("%s: said \"%s\"", cases[i].what, text);
		if (cases[i].said && strncmp(text, cases[i].said, strlen(cases[i].said)) != 0)
			fail_msg("%s: said \"%s\", want \"%s\"", cases[i].what, text, cases[i].said);
		free(text);
	}
}

/* The usage names every option and the defaults. */
static void usage_text(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	bondd_args_usage(f);
	fclose(f);
	static const char *const words[] = {"--config FILE", "--socket PATH", "--check", "--plan",
					    "--json", "--detailed-exitcode", "--debug", "--version",
					    "--help", BONDD_DEFAULT_CONFIG, BONDD_DEFAULT_SOCKET};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strstr(text, words[i]))
			fail_msg("the usage lacks %s", words[i]);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(args_table),
		cmocka_unit_test(usage_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
