/* SPDX-License-Identifier: MIT */
/* bondd's command line (bondd_args.h). */
#include "bondd_args.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "build_config.h"

void bondd_args_usage(FILE *to)
{
	fprintf(to,
		"Usage: bondd [--config FILE] [--socket PATH] [--debug] [--version] [--help]\n"
		"       bondd --check [--plan [--json]] [--detailed-exitcode] [--config FILE]\n"
		"Keeps the Linux bonding interfaces described in FILE exactly as configured.\n"
		"\n"
		"  -c, --config FILE   configuration file (default %s);\n"
		"                      the drop-ins FILE.d/*.conf are read after it\n"
		"  -s, --socket PATH   status socket (default %s)\n"
		"  -n, --check         check the configuration, print \"configuration OK\", exit\n"
		"  -p, --plan          with --check: print what a start or reload would change\n"
		"                      in the kernel now, and what disrupts traffic; change nothing\n"
		"                      (warnings are printed but do not fail the check)\n"
		"  -j, --json          with --plan: print the plan as one JSON document\n"
		"      --detailed-exitcode  with --plan: exit 0 when nothing would change,\n"
		"                      2 when something would (errors keep their codes)\n"
		"  -d, --debug         log debug messages\n"
		"  -V, --version       print the version and exit\n"
		"  -h, --help          print this help and exit\n"
		"\n"
		"See bondd(8) and bondd.conf(5).\n",
		BONDD_DEFAULT_CONFIG, BONDD_DEFAULT_SOCKET);
}

const char *bondd_socket_path_problem(const char *path)
{
	size_t n = strlen(path);

	if (n >= sizeof(((struct sockaddr_un *)0)->sun_path))
		return "is longer than a UNIX socket address allows (107 bytes)";
	if (n && path[n - 1] == '/')
		return "names a directory, not a socket";
	return NULL;
}

static void wrong(struct bondd_args *a, enum bondd_args_error e, const char *arg)
{
	a->run = BONDD_RUN_USAGE;
	a->error = e;
	a->arg = arg;
}

void bondd_args_parse(int argc, char **argv, const char *rcvbuf, const char *udev_dir,
		      struct bondd_args *out)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"socket", required_argument, NULL, 's'},
		{"check", no_argument, NULL, 'n'},
		{"plan", no_argument, NULL, 'p'},
		{"json", no_argument, NULL, 'j'},
		{"detailed-exitcode", no_argument, NULL, 'x'},
		{"debug", no_argument, NULL, 'd'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bondd_args *a = out;
	bool check = false;
	int c;

	*a = (struct bondd_args){.run = BONDD_RUN_DAEMON,
				 .opts = {.config_path = BONDD_DEFAULT_CONFIG,
					  .socket_path = BONDD_DEFAULT_SOCKET}};
	optind = 0; /* getopt's state from the start (glibc): each call reads anew */
	while ((c = getopt_long(argc, argv, "c:s:npjdVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			a->opts.config_path = optarg;
			break;
		case 's':
			a->opts.socket_path = optarg;
			break;
		case 'n':
			check = true;
			break;
		case 'p':
			a->check.plan = true;
			break;
		case 'j':
			a->check.json = true;
			break;
		case 'x':
			a->check.detailed_exitcode = true;
			break;
		case 'd':
			a->debug = true;
			break;
		case 'V':
			a->run = BONDD_RUN_VERSION;
			return;
		case 'h':
			a->run = BONDD_RUN_HELP;
			return;
		default:
			wrong(a, BONDD_ARGS_UNKNOWN, NULL);
			return;
		}
	}
	if (optind < argc)
		return wrong(a, BONDD_ARGS_UNEXPECTED, argv[optind]);
	/* An empty name would reach open() and come back as "cannot read"
	 * with nothing before the colon. */
	if (!a->opts.config_path[0])
		return wrong(a, BONDD_ARGS_CONFIG_EMPTY, NULL);
	if (a->check.plan && !check)
		return wrong(a, BONDD_ARGS_PLAN_ALONE, NULL);
	if (a->check.json && !a->check.plan)
		return wrong(a, BONDD_ARGS_JSON_ALONE, NULL);
	if (a->check.detailed_exitcode && !a->check.plan)
		return wrong(a, BONDD_ARGS_EXITCODE_ALONE, NULL);
	if (check) {
		a->run = BONDD_RUN_CHECK;
		return;
	}
	/* A socket path that can never be bound would leave bondd without its
	 * socket, and so without the guard against a second instance. */
	a->why = bondd_socket_path_problem(a->opts.socket_path);
	if (a->why)
		return wrong(a, BONDD_ARGS_SOCKET, a->opts.socket_path);
	/* A test aid, documented in bondd(8): a small event buffer makes the
	 * kernel drop events, which bondd must notice and recover from. */
	if (rcvbuf) {
		char *end;
		errno = 0;
		long v = strtol(rcvbuf, &end, 10);
		if (errno || end == rcvbuf || *end || v < 0 || v > INT_MAX)
			return wrong(a, BONDD_ARGS_RCVBUF, rcvbuf);
		a->opts.event_rcvbuf = (int)v;
	}
	/* A test aid, documented in bondd(8): where udev's runtime directory
	 * is (/run/udev), so a test can fake udev's database. */
	a->opts.udev_dir = udev_dir;
}

void bondd_args_say(const struct bondd_args *a, FILE *to)
{
	switch (a->error) {
	case BONDD_ARGS_OK:
	case BONDD_ARGS_UNKNOWN: /* getopt said which */
		break;
	case BONDD_ARGS_UNEXPECTED:
		fprintf(to, "bondd: unexpected argument \"%s\"\n", a->arg);
		break;
	case BONDD_ARGS_CONFIG_EMPTY:
		fprintf(to, "bondd: --config: the file name is empty\n");
		break;
	case BONDD_ARGS_PLAN_ALONE:
		fprintf(to, "bondd: --plan goes with --check\n");
		break;
	case BONDD_ARGS_JSON_ALONE:
	case BONDD_ARGS_EXITCODE_ALONE:
		fprintf(to, "bondd: %s goes with --check --plan\n",
			a->error == BONDD_ARGS_JSON_ALONE ? "--json" : "--detailed-exitcode");
		break;
	case BONDD_ARGS_SOCKET:
		fprintf(to, "bondd: --socket %s: %s\n", a->arg, a->why);
		break;
	case BONDD_ARGS_RCVBUF:
		/* the environment's, not the command line's: no usage */
		fprintf(to, "bondd: BONDD_EVENT_RCVBUF: not a byte count: %s\n", a->arg);
		return;
	}
	bondd_args_usage(to);
}
