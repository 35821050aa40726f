/* SPDX-License-Identifier: MIT */
/* bondd: command line, then the daemon. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "config.h"
#include "daemon.h"
#include "log.h"

/* sysexits.h values, spelled out where they are used. */
enum { EXIT_USAGE = 64, EXIT_CONFIG = 78 };

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: bondd [--config FILE] [--socket PATH] [--check] [--debug]\n"
		"             [--version] [--help]\n"
		"Keeps the Linux bonding interfaces described in FILE exactly as configured.\n"
		"\n"
		"  -c, --config FILE   configuration file (default %s);\n"
		"                      the drop-ins FILE.d/*.conf are read after it\n"
		"  -s, --socket PATH   status socket (default %s)\n"
		"  -n, --check         check the configuration, print \"configuration OK\", exit\n"
		"                      (warnings are printed but do not fail the check)\n"
		"  -d, --debug         log debug messages\n"
		"  -V, --version       print the version and exit\n"
		"  -h, --help          print this help and exit\n"
		"\n"
		"See bondd(8) and bondd.conf(5).\n",
		BONDD_DEFAULT_CONFIG, BONDD_DEFAULT_SOCKET);
}

static int check_config(const char *path)
{
	struct desired want = {0};
	struct config_diag diag = {0};
	int err = config_load(path, &want, &diag);

	for (size_t i = 0; i < diag.n; i++)
		fprintf(stderr, "%s\n", diag.msgs[i]);
	/* Warnings do not fail the check: the daemon would run this file. */
	for (size_t i = 0; i < diag.n_warnings; i++)
		fprintf(stderr, "%s\n", diag.warnings[i]);
	config_diag_free(&diag);
	if (err < 0)
		return EXIT_CONFIG;
	desired_free(&want);
	printf("configuration OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"socket", required_argument, NULL, 's'},
		{"check", no_argument, NULL, 'n'},
		{"debug", no_argument, NULL, 'd'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct daemon_opts opts = {
		.config_path = BONDD_DEFAULT_CONFIG,
		.socket_path = BONDD_DEFAULT_SOCKET,
	};
	bool check = false, debug = false;
	int c;

	while ((c = getopt_long(argc, argv, "c:s:ndVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opts.config_path = optarg;
			break;
		case 's':
			opts.socket_path = optarg;
			break;
		case 'n':
			check = true;
			break;
		case 'd':
			debug = true;
			break;
		case 'V':
			printf("bondd %s\n", BONDD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bondd: unexpected argument \"%s\"\n", argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (check)
		return check_config(opts.config_path);

	/* A test aid, documented in bondd(8): a small event buffer makes the
	 * kernel drop events, which bondd must notice and recover from. */
	const char *rcvbuf = getenv("BONDD_EVENT_RCVBUF");
	if (rcvbuf) {
		char *end;
		errno = 0;
		long v = strtol(rcvbuf, &end, 10);
		if (errno || end == rcvbuf || *end || v < 0 || v > INT_MAX) {
			fprintf(stderr, "bondd: BONDD_EVENT_RCVBUF: not a byte count: %s\n", rcvbuf);
			return EXIT_USAGE;
		}
		opts.event_rcvbuf = (int)v;
	}

	log_init(debug);
	return daemon_main(&opts);
}
