/* SPDX-License-Identifier: MIT */
/*
 * flood: the tools of the status-socket flood benchmark (bench/guest.sh,
 * part_flood).  One small program rather than hundreds of processes of a
 * scripting language: a process start costs about 100 ms in the UML guest,
 * and 220 of them would be most of what the guest's CPU does.  It shares no
 * code with bondd and knows its protocol only as a client does.
 *
 *   flood load --socket PATH [--senders N] [--watchers N] [--line-bytes N]
 *              [--watch-retry-ms MS] --seconds MAX
 *       The hostile user: N senders, each sending request lines of
 *       --line-bytes (1 MiB; the last byte a newline) one after another for
 *       as long as bondd takes them, and connecting again at once whenever
 *       bondd closes the connection or refuses it; and N watchers, each
 *       sending "watch" and then never reading, connecting again
 *       --watch-retry-ms (1000) after bondd dropped it (0: never).  All in
 *       one process and one epoll loop.  Runs until SIGTERM or SIGINT, or
 *       MAX seconds at most, then prints one JSON line of what it did.
 *
 *   flood spin --seconds S [--tree PID]
 *       The normal-priority process beside bondd: a CPU-bound loop at
 *       SCHED_OTHER, nice 0, for S seconds; prints its pace (iterations per
 *       second of wall time) and its own share of the CPUs as one JSON line.
 *       With --tree, also the CPU time PID and its descendants used over the
 *       same seconds (see cpu).
 *
 *   flood cpu PID...
 *       One sample of the CPU time each PID's process tree has used: utime +
 *       stime + cutime + cstime (/proc/P/stat) summed over PID and every
 *       live descendant, so that time of children already reaped (into
 *       their parent's cutime/cstime) and of live ones both count.  Prints
 *       "TICKS PROCESSES MONOTONIC_US TICKS_PER_SECOND CPUS" per PID ("-" for
 *       one that is gone); the difference of two samples over the difference
 *       of their times is the tree's share.
 *
 *   flood query --socket PATH [--request LINE] [--count N] [--interval-ms MS]
 *       N queries (default "brief"), one connection each: connect, send,
 *       shut the write side, read to the end; prints every time in ms as
 *       one JSON line.  Run it above bondd's priority (chrt -r 50) and it
 *       times bondd's answer, not its own wait for the CPU.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
	fprintf(stderr, "usage: flood load --socket PATH [--senders N] [--watchers N] [--line-bytes N]\n"
			"                  [--watch-retry-ms MS] --seconds MAX\n"
			"       flood spin --seconds S [--tree PID]\n"
			"       flood cpu PID...\n"
			"       flood query --socket PATH [--request LINE] [--count N] [--interval-ms MS]\n");
	exit(64);
}

/* --- a process tree's CPU time --------------------------------------- */

struct proc {
	int pid, ppid;
	unsigned long long ticks;
};

/* Every process's parent and its utime + stime + cutime + cstime. */
static size_t read_procs(struct proc **out)
{
	size_t n = 0, cap = 256;
	struct proc *p = malloc(cap * sizeof(*p));
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!p || !d) {
		perror("flood: /proc");
		exit(1);
	}
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[300], buf[1024];
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* gone meanwhile */
		ssize_t len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = 0;
		/* The name may hold spaces and parentheses: fields start
		 * after the last ')'.  Then: state ppid ... utime (14th
		 * field) stime cutime cstime. */
		char *r = strrchr(buf, ')');
		int ppid;
		unsigned long long ut, st;
		long long cut, cst;
		if (!r || sscanf(r + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
				 &ppid, &ut, &st, &cut, &cst) != 5)
			continue;
		if (n == cap) {
			cap *= 2;
			p = realloc(p, cap * sizeof(*p));
			if (!p)
				exit(1);
		}
		p[n++] = (struct proc){.pid = atoi(e->d_name), .ppid = ppid,
				       .ticks = ut + st + (unsigned long long)cut + (unsigned long long)cst};
	}
	closedir(d);
	*out = p;
	return n;
}

struct sample {
	unsigned long long ticks;
	int procs;
	double t;
};

static struct sample tree_sample(int root)
{
	struct proc *p;
	double t0 = now_s();
	size_t n = read_procs(&p);
	struct sample s = {.t = (t0 + now_s()) / 2};
	bool *in = calloc(n, sizeof(*in));

	if (!in)
		exit(1);
	/* Descendants: mark children of marked processes until nothing
	 * changes (a handful of passes for a shallow tree). */
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			if (in[i])
				continue;
			bool mark = p[i].pid == root;
			for (size_t j = 0; j < n && !mark; j++)
				mark = in[j] && p[j].pid == p[i].ppid;
			if (mark) {
				in[i] = more = true;
				s.ticks += p[i].ticks;
				s.procs++;
			}
		}
	}
	free(in);
	free(p);
	return s;
}

static int cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

static int cmd_cpu(int argc, char **argv)
{
	int ret = 0;

	if (argc < 2)
		usage();
	for (int i = 1; i < argc; i++) {
		struct sample s = tree_sample(atoi(argv[i]));
		if (!s.procs) {
			fprintf(stderr, "flood: no process %s\n", argv[i]);
			printf("-\n");
			ret = 1;
			continue;
		}
		printf("%llu %d %.0f %ld %d\n", s.ticks, s.procs, s.t * 1e6, sysconf(_SC_CLK_TCK), cpus());
	}
	return ret;
}

/* --- the CPU-bound process ------------------------------------------- */

static int cmd_spin(double seconds, int tree)
{
	struct sched_param sp = {0};
	if (sched_setscheduler(0, SCHED_OTHER, &sp) < 0 || setpriority(PRIO_PROCESS, 0, 0) < 0)
		perror("flood spin: SCHED_OTHER, nice 0");
	struct sample a = {0}, b = {0};
	if (tree)
		a = tree_sample(tree);
	volatile unsigned long x = 0;
	unsigned long long iters = 0;
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	double t0 = now_s(), t1;
	do {
		/* Long enough between clock reads that the reads (a system
		 * call in the guest) are a small part of the pace. */
		for (int i = 0; i < 1000000; i++)
			x++;
		iters += 1000000;
		t1 = now_s();
	} while (t1 - t0 < seconds);
	getrusage(RUSAGE_SELF, &r1);
	if (tree)
		b = tree_sample(tree);
	/* Its own share of the guest's CPU: on a shared host the pace also
	 * follows how much the host gives the guest, the share only how the
	 * guest's scheduler divides what it got. */
	double self = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
		      (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
	printf("{\"seconds\": %.3f, \"iter_per_s\": %.0f, \"self_share\": %.4f", t1 - t0,
	       (double)iters / (t1 - t0), self / (t1 - t0) / cpus());
	if (tree) {
		double cpu = (double)(b.ticks - a.ticks) / (double)sysconf(_SC_CLK_TCK);
		printf(", \"tree_cpu_s\": %.2f, \"tree_share\": %.4f, \"tree_procs\": %d, \"cpus\": %d", cpu,
		       cpu / ((b.t - a.t) * cpus()), b.procs, cpus());
	}
	printf("}\n");
	return 0;
}

/* --- one query -------------------------------------------------------- */

static int dial(const char *path, bool nonblock)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int cmd_query(const char *path, const char *request, int count, int interval_ms)
{
	char req[1100], buf[65536];
	int failed = 0;
	snprintf(req, sizeof(req), "%s\n", request);
	printf("{\"request\": \"%s\", \"ms\": [", request);
	for (int i = 0; i < count; i++) {
		double t0 = now_s();
		int fd = dial(path, false);
		bool ok = fd >= 0;
		if (ok) {
			struct timeval tv = {.tv_sec = 10};
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			ok = send(fd, req, strlen(req), MSG_NOSIGNAL) == (ssize_t)strlen(req);
			shutdown(fd, SHUT_WR);
			ssize_t n, got = 0;
			while (ok && (n = recv(fd, buf, sizeof(buf), 0)) > 0) {
				if (!got && strncmp(buf, "bondd/1 ok ", 11) != 0)
					ok = false; /* an error line: not an answer */
				got += n;
			}
			ok = ok && got > 0 && n == 0;
			close(fd);
		}
		double ms = (now_s() - t0) * 1e3;
		if (ok)
			printf("%s%.2f", i - failed ? ", " : "", ms);
		failed += !ok;
		fflush(stdout);
		if (i + 1 < count)
			usleep((useconds_t)interval_ms * 1000);
	}
	printf("], \"failed\": %d}\n", failed);
	return 0;
}

/* --- the flood -------------------------------------------------------- */

enum kind { SENDER, WATCHER };

struct client {
	enum kind kind;
	int fd;           /* -1: waiting to connect */
	size_t off;       /* of the line being sent (a sender) */
	double retry_at;  /* when to connect again */
};

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct counts {
	unsigned long long sender_connects, watcher_connects, refused, drops, bytes_sent, bytes_read;
};

static void flood_connect(int ep, const char *path, struct client *c, struct counts *k, double now)
{
	c->fd = dial(path, true);
	if (c->fd < 0) {
		/* A full backlog (EAGAIN) or no socket at all: try again soon,
		 * not in a tight loop. */
		k->refused++;
		c->retry_at = now + 0.01;
		return;
	}
	c->off = 0;
	uint32_t want = EPOLLRDHUP;
	if (c->kind == SENDER) {
		k->sender_connects++;
		want |= EPOLLIN | EPOLLOUT;
	} else {
		k->watcher_connects++;
		/* A small receive buffer, never read: the events bondd sends it
		 * pile up at bondd's end. */
		int small = 4096;
		setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		(void)!send(c->fd, "watch\n", 6, MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	struct epoll_event ev = {.events = want, .data.ptr = c};
	epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
}

static void flood_drop(int ep, struct client *c, struct counts *k, double now, double watch_retry)
{
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	k->drops++;
	c->retry_at = c->kind == SENDER ? now : watch_retry > 0 ? now + watch_retry : -1;
}

static int cmd_load(const char *path, int senders, int watchers, size_t line_bytes, int watch_retry_ms,
		    double seconds)
{
	int n = senders + watchers;
	struct client *cl = calloc((size_t)n, sizeof(*cl));
	char *line = malloc(line_bytes);
	static char sink[65536];
	struct counts k = {0};
	int ep = epoll_create1(EPOLL_CLOEXEC);

	if (!cl || !line || ep < 0) {
		perror("flood");
		return 1;
	}
	memset(line, 'A', line_bytes);
	line[line_bytes - 1] = '\n';
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	double start = now_s(), end = start + seconds, t = start;
	for (int i = 0; i < n; i++) {
		cl[i].kind = i < senders ? SENDER : WATCHER;
		flood_connect(ep, path, &cl[i], &k, t);
	}
	fprintf(stderr, "flood: %d senders of %zu-byte lines and %d watchers on %s\n", senders,
		line_bytes, watchers, path);
	while (!stop && (t = now_s()) < end) {
		struct epoll_event evs[64];
		int m = epoll_wait(ep, evs, 64, 10);
		t = now_s();
		for (int i = 0; i < m; i++) {
			struct client *c = evs[i].data.ptr;
			uint32_t e = evs[i].events;
			if (c->fd < 0)
				continue; /* dropped earlier in this batch */
			bool gone = e & (EPOLLERR | EPOLLHUP | EPOLLRDHUP);
			if (!gone && (e & EPOLLIN)) {
				ssize_t r = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
				if (r > 0)
					k.bytes_read += (unsigned long long)r;
				else if (r == 0 || (errno != EAGAIN && errno != EINTR))
					gone = true;
			}
			if (!gone && (e & EPOLLOUT)) {
				ssize_t w = send(c->fd, line + c->off, line_bytes - c->off,
						 MSG_NOSIGNAL | MSG_DONTWAIT);
				if (w > 0) {
					k.bytes_sent += (unsigned long long)w;
					c->off = (c->off + (size_t)w) % line_bytes; /* then the next line */
				} else if (w < 0 && errno != EAGAIN && errno != EINTR) {
					gone = true;
				}
			}
			if (gone)
				flood_drop(ep, c, &k, t, watch_retry_ms / 1000.0);
		}
		for (int i = 0; i < n; i++)
			if (cl[i].fd < 0 && cl[i].retry_at >= 0 && cl[i].retry_at <= t)
				flood_connect(ep, path, &cl[i], &k, t);
	}
	int live_senders = 0, live_watchers = 0;
	for (int i = 0; i < n; i++) {
		if (cl[i].fd >= 0) {
			live_senders += cl[i].kind == SENDER;
			live_watchers += cl[i].kind == WATCHER;
			close(cl[i].fd);
		}
	}
	printf("{\"load_seconds\": %.2f, \"senders\": %d, \"watchers\": %d, \"line_bytes\": %zu, "
	       "\"watch_retry_ms\": %d, \"sender_connects\": %llu, \"watcher_connects\": %llu, "
	       "\"connect_refused\": %llu, \"drops\": %llu, \"bytes_sent\": %llu, \"bytes_read\": %llu, "
	       "\"live_senders_at_end\": %d, \"live_watchers_at_end\": %d}\n",
	       t - start, senders, watchers, line_bytes, watch_retry_ms, k.sender_connects, k.watcher_connects,
	       k.refused, k.drops, k.bytes_sent, k.bytes_read, live_senders, live_watchers);
	close(ep);
	free(line);
	free(cl);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"socket", required_argument, NULL, 's'},      {"senders", required_argument, NULL, 'n'},
		{"watchers", required_argument, NULL, 'w'},    {"line-bytes", required_argument, NULL, 'l'},
		{"watch-retry-ms", required_argument, NULL, 'r'}, {"seconds", required_argument, NULL, 't'},
		{"tree", required_argument, NULL, 'p'},        {"request", required_argument, NULL, 'q'},
		{"count", required_argument, NULL, 'c'},       {"interval-ms", required_argument, NULL, 'i'},
		{NULL, 0, NULL, 0},
	};
	const char *path = NULL, *request = "brief";
	int senders = 20, watchers = 200, watch_retry_ms = 1000, tree = 0, count = 10, interval_ms = 200;
	size_t line_bytes = 1 << 20;
	double seconds = 0;
	int c;

	if (argc < 2)
		usage();
	const char *what = argv[1];
	if (strcmp(what, "cpu") == 0)
		return cmd_cpu(argc - 1, argv + 1);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': path = optarg; break;
		case 'n': senders = atoi(optarg); break;
		case 'w': watchers = atoi(optarg); break;
		case 'l': line_bytes = strtoul(optarg, NULL, 0); break;
		case 'r': watch_retry_ms = atoi(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'p': tree = atoi(optarg); break;
		case 'q': request = optarg; break;
		case 'c': count = atoi(optarg); break;
		case 'i': interval_ms = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc || line_bytes < 2 || senders < 0 || watchers < 0 || strlen(request) > 1024)
		usage();
	if (strcmp(what, "spin") == 0 && seconds > 0)
		return cmd_spin(seconds, tree);
	if (strcmp(what, "query") == 0 && path && count > 0)
		return cmd_query(path, request, count, interval_ms);
	if (strcmp(what, "load") == 0 && path && seconds > 0)
		return cmd_load(path, senders, watchers, line_bytes, watch_retry_ms, seconds);
	usage();
}
