/* SPDX-License-Identifier: MIT */
/*
 * bondd's command line (bondd_args.c, pure but for getopt's own message
 * about an option it does not know): the arguments and the two test aids
 * from the environment in, what to run or what is wrong out.  main.c does
 * what it says; the words are made at the edge (bondd_args_say).
 */
#ifndef BONDD_BONDD_ARGS_H
#define BONDD_BONDD_ARGS_H

#include <stdbool.h>
#include <stdio.h>

struct daemon_opts {
	const char *config_path;
	const char *socket_path;
	int event_rcvbuf;         /* 0: the kernel's default */
	const char *udev_dir;     /* NULL: /run/udev */
};

/* --check's own. */
struct check_opts {
	bool plan, json, detailed_exitcode;
};

enum bondd_run {
	BONDD_RUN_DAEMON,
	BONDD_RUN_CHECK,          /* --check */
	BONDD_RUN_VERSION,        /* --version: print it, exit 0 */
	BONDD_RUN_HELP,           /* --help: the usage on stdout, exit 0 */
	BONDD_RUN_USAGE,          /* wrong: bondd_args_say, exit 64 (EX_USAGE) */
};

/* What is wrong with a command line (BONDD_RUN_USAGE). */
enum bondd_args_error {
	BONDD_ARGS_OK,
	BONDD_ARGS_UNKNOWN,       /* an option getopt refused (it said which) */
	BONDD_ARGS_UNEXPECTED,    /* a word that is no option: arg */
	BONDD_ARGS_CONFIG_EMPTY,  /* --config "" */
	BONDD_ARGS_PLAN_ALONE,    /* --plan without --check */
	BONDD_ARGS_JSON_ALONE,    /* --json without --check --plan */
	BONDD_ARGS_EXITCODE_ALONE, /* --detailed-exitcode without --check --plan */
	BONDD_ARGS_SOCKET,        /* a --socket that can never be bound: arg, why */
	BONDD_ARGS_RCVBUF,        /* BONDD_EVENT_RCVBUF not a byte count: arg */
};

struct bondd_args {
	enum bondd_run run;
	enum bondd_args_error error;
	const char *arg;          /* the word at fault (points into argv or env) */
	const char *why;          /* BONDD_ARGS_SOCKET: what is wrong with it */
	struct daemon_opts opts;
	struct check_opts check;
	bool debug;
};

/*
 * argv as main has it (getopt may reorder its words); rcvbuf and udev_dir:
 * the test aids BONDD_EVENT_RCVBUF and BONDD_UDEV_DIR (bondd(8)), NULL when
 * unset.  --version and --help end the reading where they stand, as an
 * unknown option does.
 */
void bondd_args_parse(int argc, char **argv, const char *rcvbuf, const char *udev_dir,
		      struct bondd_args *out);

/* The usage text. */
void bondd_args_usage(FILE *to);

/* What is wrong (BONDD_RUN_USAGE) on `to`: the line, then the usage
 * where it helps. */
void bondd_args_say(const struct bondd_args *a, FILE *to);

/* Why `path` can never be a UNIX socket's address, or NULL ("" is no
 * socket at all). */
const char *bondd_socket_path_problem(const char *path);

#endif
