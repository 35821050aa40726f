/* SPDX-License-Identifier: MIT */
/*
 * status-qps: load on bondd's status socket.  For each client count given,
 * opens that many connections and keeps one request in flight on each
 * (closed loop) for a fixed time, then prints queries per second and the
 * median and p99 time per query.  Also times one whole query on a fresh
 * connection next to one open/read/close of /proc/net/bonding/BOND, in
 * process, so process start-up (about 100 ms in the UML guest) is not
 * what is measured.
 *
 *   status-qps --socket PATH --bond BOND [--request LINE] [--seconds S] N...
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

struct conn {
	int fd;
	char buf[65536];
	size_t have;
	long long need;   /* body bytes still to read; -1 while in the header */
	double sent;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dial(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "status-qps: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static void send_req(struct conn *c, const char *req)
{
	c->have = 0;
	c->need = -1;
	c->sent = now();
	if (send(c->fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
		perror("status-qps: send");
		exit(1);
	}
}

/* Reads what is there; returns 1 when a whole reply has arrived. */
static int on_data(struct conn *c)
{
	ssize_t n = recv(c->fd, c->buf + c->have, sizeof(c->buf) - c->have, 0);
	if (n <= 0) {
		fprintf(stderr, "status-qps: the server closed a connection\n");
		exit(1);
	}
	c->have += (size_t)n;
	if (c->need < 0) {
		char *nl = memchr(c->buf, '\n', c->have);
		if (!nl)
			return 0;
		int status;
		long long len;
		if (sscanf(c->buf, "bondd/1 ok %d %lld", &status, &len) != 2) {
			fprintf(stderr, "status-qps: reply: %.60s\n", c->buf);
			exit(1);
		}
		size_t head = (size_t)(nl - c->buf) + 1;
		c->need = len - (long long)(c->have - head);
	} else {
		c->need -= n;
	}
	if (c->need > 0) {
		if (c->have > sizeof(c->buf) / 2)
			c->have = 0; /* the body is not kept, only counted */
		return 0;
	}
	return 1;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void run(const char *path, const char *req, int n, double seconds)
{
	struct conn *c = calloc((size_t)n, sizeof(*c));
	struct pollfd *p = calloc((size_t)n, sizeof(*p));
	size_t cap = 1 << 20, done = 0;
	double *lat = malloc(cap * sizeof(*lat));
	if (!c || !p || !lat)
		exit(1);
	for (int i = 0; i < n; i++) {
		c[i].fd = dial(path);
		p[i] = (struct pollfd){.fd = c[i].fd, .events = POLLIN};
	}
	double start = now(), end = start + seconds;
	for (int i = 0; i < n; i++)
		send_req(&c[i], req);
	while (now() < end) {
		if (poll(p, (nfds_t)n, 1000) < 0)
			break;
		for (int i = 0; i < n; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			if (on_data(&c[i])) {
				if (done < cap)
					lat[done] = now() - c[i].sent;
				done++;
				send_req(&c[i], req);
			}
		}
	}
	double took = now() - start;
	size_t k = done < cap ? done : cap;
	qsort(lat, k, sizeof(*lat), cmp);
	printf("clients %3d: %8.0f queries/s  median %7.1f us  p99 %7.1f us  (%zu queries in %.1f s)\n",
	       n, (double)done / took, k ? lat[k / 2] * 1e6 : 0, k ? lat[k * 99 / 100] * 1e6 : 0,
	       done, took);
	for (int i = 0; i < n; i++)
		close(c[i].fd);
	free(c);
	free(p);
	free(lat);
}

/* One query on a new connection, against one read of the kernel's file. */
static void single(const char *path, const char *req, const char *bond)
{
	enum { ROUNDS = 200 };
	double q[ROUNDS], f[ROUNDS];
	char file[128], buf[65536];
	snprintf(file, sizeof(file), "/proc/net/bonding/%s", bond);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now();
		struct conn c = {.fd = dial(path)};
		send_req(&c, req);
		while (!on_data(&c))
			;
		close(c.fd);
		double t1 = now();
		int fd = open(file, O_RDONLY);
		while (fd >= 0 && read(fd, buf, sizeof(buf)) > 0)
			;
		if (fd >= 0)
			close(fd);
		q[r] = t1 - t0;
		f[r] = now() - t1;
	}
	qsort(q, ROUNDS, sizeof(double), cmp);
	qsort(f, ROUNDS, sizeof(double), cmp);
	printf("one query on a new connection: median %.1f us; one read of %s: median %.1f us\n",
	       q[ROUNDS / 2] * 1e6, file, f[ROUNDS / 2] * 1e6);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"socket", required_argument, NULL, 's'}, {"bond", required_argument, NULL, 'b'},
		{"request", required_argument, NULL, 'r'}, {"seconds", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	const char *path = "/run/bondd/bondd.sock", *bond = "bond0", *verb = "proc";
	double seconds = 3;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': path = optarg; break;
		case 'b': bond = optarg; break;
		case 'r': verb = optarg; break;
		case 't': seconds = atof(optarg); break;
		default: return 64;
		}
	}
	char req[256];
	snprintf(req, sizeof(req), "%s %s\n", verb, bond);
	printf("request: %s", req);
	single(path, req, bond);
	for (int i = optind; i < argc; i++)
		run(path, req, atoi(argv[i]), seconds);
	return 0;
}
