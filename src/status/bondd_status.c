/* SPDX-License-Identifier: MIT */
/*
 * bondd-status: asks bondd over its status socket (status_proto.h) and
 * prints the answer; its exit status is the health of the bonds asked
 * about, as monitoring plugins expect.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include "build_config.h"
#include "json_text.h"
#include "status_proto.h"
#include "strbuf.h"

enum { EXIT_NOT_RELOADED = 1, EXIT_UNREACHABLE = 3, EXIT_ROLLED_BACK = 4, EXIT_USAGE = 64 };

/* Waits this long for a reply (not for --watch events). */
#define REPLY_TIMEOUT_S 10
/* ... and for a reload, which answers once the new config is applied;
 * below systemd's default timeout for ExecReload= (90 s). */
#define RELOAD_TIMEOUT_S 80
/* ... and for --link-check, which waits for a check and the one that
 * confirms its findings: bondd gives it 60 s (CHECK_TIMEOUT_MS). */
#define LINK_CHECK_TIMEOUT_S 65

static void status_usage(FILE *f)
{
	fprintf(f,
		"Usage: bondd-status [--socket PATH] [--explain | --json | --brief | --prometheus |\n"
		"                    --link-check | --neighbours] [--watch] [BOND...]\n"
		"       bondd-status [--socket PATH] --nagios [BOND...]\n"
		"       bondd-status [--socket PATH] --reload [--try SECONDS [--wait]]\n"
		"       bondd-status [--socket PATH] --confirm\n"
		"       bondd-status [--socket PATH] --settle\n"
		"Shows the bonds bondd manages (all of them when none is named).\n"
		"  -s, --socket PATH  bondd's status socket (default %s)\n"
		"  -e, --explain      each bond on one screen: health and why, the findings\n"
		"                     and what to do, the slaves, the link check as a grid\n"
		"  -j, --json         one JSON document: configured and observed state, events\n"
		"  -b, --brief        one line per bond: name, health, mode, MTU, slaves up/total\n"
		"      --nagios       one line as a Nagios/Icinga plugin prints it:\n"
		"                     BONDD OK|WARNING|CRITICAL|UNKNOWN - summary | perfdata\n"
		"  -p, --prometheus   Prometheus text format (bondd_* metrics)\n"
		"  -l, --link-check   check each slave's path now (probes to bondd on the peers),\n"
		"                     wait for it and print a table per slave and the findings\n"
		"  -n, --neighbours   each slave's LLDP neighbour: switch, port, VLAN, maximum frame\n"
		"  -w, --watch        print events as they happen, until interrupted;\n"
		"                     with --json, one JSON object per line\n"
		"  -r, --reload       make bondd apply its configuration file again (root);\n"
		"                     returns once applied (exit 0) or refused (exit 1)\n"
		"  -t, --try SECONDS  reload on trial: bondd puts the configuration before it\n"
		"                     back unless --confirm comes within SECONDS (1-3600), or\n"
		"                     at once if a bond is left down or without slaves;\n"
		"                     returns once applied, printing the deadline (exit 0)\n"
		"      --wait         with --try: then wait until the trial ends: exit 0\n"
		"                     confirmed, 4 put back\n"
		"  -c, --confirm      keep the configuration on trial (root); exit 1 when no\n"
		"                     trial runs\n"
		"      --settle       return once bondd has handled every kernel event queued\n"
		"                     when it was asked (exit 0): a barrier for scripts and tests\n"
		"  -V, --version      print the version\n"
		"  -h, --help         print this help\n"
		"Default output: /proc/net/bonding/BOND as the kernel shows it to you.\n"
		"Exit status: 0 healthy, 1 degraded, 2 down or missing, 3 bondd unreachable or\n"
		"unknown bond, 64 bad usage.\n",
		BONDD_DEFAULT_SOCKET);
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "bondd-status: socket path too long: %s\n", path);
		return -1;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* A bondd that accepts nothing (stopped, or its backlog full) must not
	 * hang a monitoring check: connect() and sending the request time out
	 * like the reply does. */
	struct timeval tv = {.tv_sec = REPLY_TIMEOUT_S};
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "bondd-status: cannot reach bondd at %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads the header line, byte by byte: the body follows it directly. */
static int read_reply_line(int fd, char *buf, size_t len)
{
	size_t n = 0;
	while (n + 1 < len) {
		char c;
		ssize_t r = recv(fd, &c, 1, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\n') {
			buf[n] = '\0';
			return 0;
		}
		buf[n++] = c;
	}
	return -1;
}

/*
 * On a terminal (stderr, as git shows progress), a reply that takes more
 * than a second is waited for visibly: one line saying what for and for
 * how long so far, rewritten each second and erased when the reply comes.
 * Piped or redirected: nothing.  Returns false when limit_s passed with
 * no reply.
 */
static bool wait_for_reply(int fd, const char *what, int limit_s)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	bool shown = false, ok = true;

	if (!isatty(STDERR_FILENO))
		return true; /* recv's own timeout (SO_RCVTIMEO) bounds the wait */
	for (int waited = 0;;) {
		int r = poll(&p, 1, 1000);
		if (r != 0)
			break; /* something to read, the connection closed, or a signal */
		if (++waited >= limit_s) {
			ok = false;
			break;
		}
		/* under 80 columns, so "\r" goes back to its start */
		fprintf(stderr, "\rbondd-status: %.56s: %d s", what, waited);
		fflush(stderr);
		shown = true;
	}
	if (shown)
		fputs("\r\033[K", stderr);
	return ok;
}

static volatile sig_atomic_t interrupted;
static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Whether a --watch line is about one of the named bonds: the third word
 * of a text line, the "bond" member of a JSON line (compared in its
 * escaped form, as bondd writes it). */
static bool about(const char *line, bool json, char **bonds, int n_bonds)
{
	char bond[64] = "";

	if (n_bonds == 0)
		return true;
	if (!json)
		sscanf(line, "%*s %*s %63s", bond);
	for (int i = 0; i < n_bonds; i++) {
		if (!json) {
			if (strcmp(bonds[i], bond) == 0)
				return true;
			continue;
		}
		struct strbuf want = {0};
		sb_puts(&want, ",\"bond\":");
		json_string(&want, bonds[i]);
		sb_puts(&want, ",");
		bool hit = !want.oom && strstr(line, want.s) != NULL;
		sb_free(&want);
		if (hit)
			return true;
	}
	return false;
}

/* --watch: copies event lines, keeping those of the named bonds. */
static int watch(int fd, bool json, char **bonds, int n_bonds)
{
	struct sigaction sa = {.sa_handler = on_sigint};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	FILE *in = fdopen(fd, "r");
	char line[4096];

	if (!in)
		return EXIT_UNREACHABLE;
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!interrupted && fgets(line, sizeof(line), in)) {
		if (about(line, json, bonds, n_bonds))
			fputs(line, stdout);
	}
	fclose(in);
	if (interrupted)
		return 0;
	fprintf(stderr, "bondd-status: bondd closed the connection\n");
	return EXIT_UNREACHABLE;
}

/* --nagios: the plugin's one line (the Nagios plugin guidelines' output:
 * "SERVICE STATE - text | perfdata") from the brief reply's lines, "BOND
 * HEALTH MODE mtu N slaves UP/ALL up[ (why)]...".  The bonds that are not
 * healthy first, with their reason; per bond its slaves up (warning below
 * all, critical at none) and its health (0, 1, 2) as performance data. */
static const char *const nagios_state[] = {"OK", "WARNING", "CRITICAL", "UNKNOWN"};

/* A performance data label: no quote or '=' (the guidelines' rule). */
static void perf_label(struct strbuf *b, const char *name, const char *what)
{
	sb_puts(b, "'");
	for (const char *p = name; *p; p++)
		sb_printf(b, "%c", *p == '\'' || *p == '=' ? '_' : *p);
	sb_printf(b, "_%s'", what);
}

static int nagios_print(const char *reply, int status)
{
	struct strbuf text = {0}, perf = {0};
	size_t healthy = 0, bonds = 0;
	const char *line = reply;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		char l[1024], name[64], health[16], mode[32];
		unsigned mtu;
		size_t up, all;
		int used = 0;
		snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) - 1 ? n : sizeof(l) - 1), line);
		line = nl ? nl + 1 : NULL;
		if (sscanf(l, "%63s %15s %31s mtu %u slaves %zu/%zu up%n", name, health, mode, &mtu,
			   &up, &all, &used) != 6)
			continue;
		bonds++;
		int h = strcmp(health, "healthy") == 0 ? 0 : strcmp(health, "degraded") == 0 ? 1 : 2;
		if (h == 0)
			healthy++;
		else
			sb_printf(&text, "%s%s %s, %zu/%zu slaves up%s", text.len ? "; " : "", name,
				  health, up, all, l + used);
		perf_label(&perf, name, "slaves_up");
		sb_printf(&perf, "=%zu;%zu:;1:;0;%zu ", up, all, all);
		perf_label(&perf, name, "health");
		sb_printf(&perf, "=%d;0;1;0;2 ", h);
	}
	if (bonds == 0)
		sb_printf(&text, "no bonds configured");
	else if (healthy)
		sb_printf(&text, "%s%zu of %zu bond%s healthy", text.len ? "; " : "", healthy, bonds,
			  bonds == 1 ? "" : "s");
	if (perf.len)
		perf.s[--perf.len] = '\0';
	if (text.oom || perf.oom) {
		printf("BONDD UNKNOWN - out of memory\n");
		status = 3;
	} else
		printf("BONDD %s - %s%s%s\n", nagios_state[status], text.s, perf.len ? " | " : "",
		       perf.len ? perf.s : "");
	sb_free(&text);
	sb_free(&perf);
	return status;
}

/* --try --wait: the trial applied (reply: its answer, "trial N: ..."), ask
 * on the same connection for its end, and wait for it: a little past its
 * deadline at most (bondd ends every trial by then).  Exit 0 confirmed,
 * 4 put back, 3 no answer (bondd gone: a restart ends a trial). */
static int wait_trial(int fd, struct strbuf *reply, unsigned seconds)
{
	unsigned id;
	char req[64], head[512], what[64];

	sb_add(reply, "", 1);
	if (fflush(stdout) != 0 || reply->oom || sscanf(reply->s, "trial %u:", &id) != 1) {
		fprintf(stderr, "bondd-status: bondd did not name the trial\n");
		return EXIT_UNREACHABLE;
	}
	int limit = (int)seconds + 30;
	struct timeval tv = {.tv_sec = limit};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	int len = snprintf(req, sizeof(req), "trial-wait %u\n", id);
	snprintf(what, sizeof(what), "waiting for trial %u to be confirmed or put back", id);
	if (send_all(fd, req, (size_t)len) < 0 || !wait_for_reply(fd, what, limit) ||
	    read_reply_line(fd, head, sizeof(head)) < 0) {
		fprintf(stderr, "bondd-status: no word from bondd on trial %u (a restart of bondd "
				"ends a trial: it starts from the file)\n", id);
		return EXIT_UNREACHABLE;
	}
	int code, status;
	char size[32];
	if (sscanf(head, STATUS_PROTO_TAG " error %d", &code) == 1) {
		const char *msg = head + strlen(STATUS_PROTO_TAG " error ");
		msg += strspn(msg, "0123456789 ");
		fprintf(stderr, "bondd-status: %s\n", msg);
		return code == SE_ROLLED_BACK ? EXIT_ROLLED_BACK : EXIT_UNREACHABLE;
	}
	if (sscanf(head, STATUS_PROTO_TAG " ok %d %31s", &status, size) != 2) {
		fprintf(stderr, "bondd-status: unexpected reply from bondd: %.80s\n", head);
		return EXIT_UNREACHABLE;
	}
	/* Confirmed: the body says so. */
	char buf[4096];
	unsigned long long left = strtoull(size, NULL, 10);
	while (left > 0) {
		ssize_t n = recv(fd, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		fwrite(buf, 1, (size_t)n, stdout);
		left -= (unsigned long long)n;
	}
	return fflush(stdout) == 0 ? 0 : EXIT_UNREACHABLE;
}

static int nagios_mode;
static int nagios_printed;
static const char *nagios_socket = BONDD_DEFAULT_SOCKET;
static int status_main(int argc, char **argv);

/* Under --nagios every outcome is one line on stdout and a plugin's exit
 * status: a failure before a reply is UNKNOWN (3), bad usage too. */
int main(int argc, char **argv)
{
	/* Run by the unit as ExecReload=, with bondd's SCHED_RR 1 (systemd
	 * gives every Exec*= process the unit's policy): a client that parses
	 * bondd's reply has no reason to run at a real-time priority, so it
	 * goes back to SCHED_OTHER first (lowering needs no privilege, and
	 * RestrictRealtime= only refuses the real-time policies).  The unit
	 * sets no LimitRTTIME= (bondd sets its own, breather.h), and SIGXCPU
	 * is ignored for a limit an admin's own unit may still set. */
	if (sched_getscheduler(0) != SCHED_OTHER) {
		struct sched_param sp = {0};
		(void)sched_setscheduler(0, SCHED_OTHER, &sp);
	}
	signal(SIGXCPU, SIG_IGN);
	int rc = status_main(argc, argv);

	if (!nagios_mode || nagios_printed)
		return rc;
	if (rc == EXIT_USAGE)
		printf("BONDD UNKNOWN - bad usage (bondd-status --help)\n");
	else
		printf("BONDD UNKNOWN - no usable reply from bondd at %s\n", nagios_socket);
	return 3;
}

static int status_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"socket", required_argument, NULL, 's'}, {"json", no_argument, NULL, 'j'},
		{"brief", no_argument, NULL, 'b'},        {"prometheus", no_argument, NULL, 'p'},
		{"watch", no_argument, NULL, 'w'},        {"version", no_argument, NULL, 'V'},
		{"reload", no_argument, NULL, 'r'},       {"link-check", no_argument, NULL, 'l'},
		{"neighbours", no_argument, NULL, 'n'},     {"nagios", no_argument, NULL, 'N'},
		{"explain", no_argument, NULL, 'e'},
		{"try", required_argument, NULL, 't'},    {"confirm", no_argument, NULL, 'c'},
		{"wait", no_argument, NULL, 'W'},         {"settle", no_argument, NULL, 'S'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	const char *path = BONDD_DEFAULT_SOCKET, *verb = "proc";
	int formats = 0, do_watch = 0, do_reload = 0, do_wait = 0, c;
	unsigned long try_s = 0;
	bool reload_opt = false, confirm_opt = false, settle_opt = false;

	while ((c = getopt_long(argc, argv, "s:ejbplnwrt:cVh", longopts, NULL)) != -1) {
		switch (c) {
		case 's': path = nagios_socket = optarg; break;
		case 'N': verb = "brief"; nagios_mode = 1; formats++; break;
		case 'e': verb = "explain"; formats++; break;
		case 'j': verb = "json"; formats++; break;
		case 'b': verb = "brief"; formats++; break;
		case 'p': verb = "prometheus"; formats++; break;
		case 'l': verb = "linkcheck"; formats++; break;
		case 'n': verb = "neighbours"; formats++; break;
		case 'w': do_watch = 1; break;
		case 'r': reload_opt = true; break;
		case 't': {
			char *end;
			errno = 0;
			try_s = strtoul(optarg, &end, 10);
			if (errno || *end || !optarg[0] || optarg[0] == '-' ||
			    try_s < STATUS_TRY_MIN_S || try_s > STATUS_TRY_MAX_S) {
				fprintf(stderr, "bondd-status: --try takes seconds, %d to %d\n",
					STATUS_TRY_MIN_S, STATUS_TRY_MAX_S);
				return EXIT_USAGE;
			}
			break;
		}
		case 'c': confirm_opt = true; verb = "confirm"; formats++; break;
		case 'W': do_wait = 1; break;
		case 'S': settle_opt = true; verb = "settle"; formats++; break;
		case 'V': printf("bondd-status %s\n", BONDD_VERSION); return 0;
		case 'h': status_usage(stdout); return 0;
		default: status_usage(stderr); return EXIT_USAGE;
		}
	}
	/* --reload, --reload --try N (or --try N alone) */
	if (reload_opt || try_s) {
		verb = try_s ? "try" : "reload";
		do_reload = 1;
		formats++;
	}
	if (do_wait && !try_s) {
		fprintf(stderr, "bondd-status: --wait goes with --try\n");
		return EXIT_USAGE;
	}
	if (settle_opt && optind < argc) {
		fprintf(stderr, "bondd-status: --settle takes no bond names: it waits for every "
				"event bondd has queued\n");
		return EXIT_USAGE;
	}
	if (confirm_opt && optind < argc) {
		fprintf(stderr, "bondd-status: --confirm takes no bond names: it keeps the whole "
				"configuration on trial\n");
		return EXIT_USAGE;
	}
	bool watch_json = do_watch && formats == 1 && strcmp(verb, "json") == 0;
	if (formats > 1 || (do_watch && formats && !watch_json)) {
		fprintf(stderr, "bondd-status: choose one of --explain, --json, --brief, --nagios, "
				"--prometheus, --link-check, --neighbours, --watch, --reload (--watch may "
				"have --json), --confirm, --settle\n");
		return EXIT_USAGE;
	}
	if (do_reload && optind < argc) {
		fprintf(stderr, "bondd-status: --reload takes no bond names: it applies the whole file\n");
		return EXIT_USAGE;
	}
	if (argc - optind > STATUS_MAX_NAMES) {
		fprintf(stderr, "bondd-status: at most %d bonds at once\n", STATUS_MAX_NAMES);
		return EXIT_USAGE;
	}
	char req[STATUS_MAX_REQUEST];
	size_t len = (size_t)snprintf(req, sizeof(req), "%s",
				      watch_json ? "watch-json" : do_watch ? "watch" : verb);
	if (try_s)
		len += (size_t)snprintf(req + len, sizeof(req) - len, " %lu", try_s);
	for (int i = optind; i < argc && !do_watch; i++) {
		if (strlen(argv[i]) >= IFNAMSIZ || strchr(argv[i], ' ') || !argv[i][0]) {
			fprintf(stderr, "bondd-status: \"%s\" is not an interface name\n", argv[i]);
			return EXIT_USAGE;
		}
		len += (size_t)snprintf(req + len, sizeof(req) - len, " %s", argv[i]);
	}
	len += (size_t)snprintf(req + len, sizeof(req) - len, "\n");

	int fd = connect_to(path);
	if (fd < 0)
		return EXIT_UNREACHABLE;
	if (!do_watch) {
		struct timeval tv = {.tv_sec = REPLY_TIMEOUT_S};
		if (do_reload)
			tv.tv_sec = RELOAD_TIMEOUT_S;
		else if (strcmp(verb, "linkcheck") == 0)
			tv.tv_sec = LINK_CHECK_TIMEOUT_S;
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	char head[512];
	/* A refusal (too many clients) may come, and the connection close,
	 * before the request is sent: read what bondd said even then. */
	int sent = send_all(fd, req, len);
	const char *what = do_reload ? "waiting for bondd to apply its configuration file"
			 : strcmp(verb, "linkcheck") == 0
				 ? "waiting for the link check and the one confirming it"
				 : "waiting for bondd's reply";
	int limit = do_reload ? RELOAD_TIMEOUT_S
		    : strcmp(verb, "linkcheck") == 0 ? LINK_CHECK_TIMEOUT_S : REPLY_TIMEOUT_S;
	if ((!do_watch && !wait_for_reply(fd, what, limit)) ||
	    read_reply_line(fd, head, sizeof(head)) < 0 || (sent < 0 && !strstr(head, " error "))) {
		fprintf(stderr, "bondd-status: no reply from bondd at %s\n", path);
		close(fd);
		return EXIT_UNREACHABLE;
	}
	int status, code;
	char size[32];
	if (sscanf(head, STATUS_PROTO_TAG " error %d", &code) == 1) {
		const char *msg = head + strlen(STATUS_PROTO_TAG " error ");
		msg += strspn(msg, "0123456789 ");
		close(fd);
		if ((do_reload || confirm_opt) &&
		    (code == SE_REFUSED || code == SE_FORBIDDEN || code == SE_CONFLICT)) {
			fprintf(stderr, "bondd-status: %s refused: %s\n", verb, msg);
			return EXIT_NOT_RELOADED;
		}
		fprintf(stderr, "bondd-status: %s\n", msg);
		return code == SE_BAD_REQUEST ? EXIT_USAGE : EXIT_UNREACHABLE;
	}
	if (sscanf(head, STATUS_PROTO_TAG " ok %d %31s", &status, size) != 2 ||
	    status < 0 || status > 2) {
		fprintf(stderr, "bondd-status: unexpected reply from bondd: %.80s\n", head);
		close(fd);
		return EXIT_UNREACHABLE;
	}
	if (do_watch)
		return watch(fd, watch_json, argv + optind, argc - optind);

	char *end;
	unsigned long long left = strtoull(size, &end, 10);
	if (*end) {
		fprintf(stderr, "bondd-status: unexpected reply from bondd: %.80s\n", head);
		close(fd);
		return EXIT_UNREACHABLE;
	}
	char buf[16384];
	struct strbuf reply = {0};
	while (left > 0) {
		ssize_t n = recv(fd, buf, left < sizeof(buf) ? (size_t)left : sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "bondd-status: the reply was cut short\n");
			close(fd);
			sb_free(&reply);
			return EXIT_UNREACHABLE;
		}
		if (nagios_mode || do_wait)
			sb_add(&reply, buf, (size_t)n);
		if (!nagios_mode)
			fwrite(buf, 1, (size_t)n, stdout);
		left -= (unsigned long long)n;
	}
	if (do_wait) {
		int rc = wait_trial(fd, &reply, (unsigned)try_s);
		close(fd);
		sb_free(&reply);
		return rc;
	}
	close(fd);
	if (nagios_mode) {
		sb_add(&reply, "", 1);
		if (reply.oom)
			return EXIT_UNREACHABLE;
		nagios_printed = 1;
		status = nagios_print(reply.s, status);
		sb_free(&reply);
	}
	if (fflush(stdout) != 0)
		return EXIT_UNREACHABLE;
	/* Applied (or confirmed, or settled): the bonds' health is for the
	 * other requests to tell. */
	return do_reload || confirm_opt || settle_opt ? 0 : status;
}
