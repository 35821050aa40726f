/* SPDX-License-Identifier: MIT */
/* The status server over a real Unix socket in a temporary directory: a
 * half-closed client gets its reply, watchers are capped with the oldest
 * closed, a watcher cannot make the server read, and a client is served a
 * bounded amount per call.  No kernel: the view is empty. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <cmocka.h>

#include "status_server.h"

struct fixture {
	char dir[64], path[96];
	struct desired want;
	struct observed obs;
	struct event_log events;
	struct status_server *s;
};

static void view(void *ctx, struct status_view *out)
{
	struct fixture *f = ctx;
	*out = (struct status_view){.want = &f->want, .obs = &f->obs, .events = &f->events};
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/bondd-test-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/sock", f->dir);
	assert_int_equal(status_server_open(&f->s, f->path, view, f), 0);
	signal(SIGPIPE, SIG_IGN);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	status_server_close(f->s);
	rmdir(f->dir);
	free(f);
	return 0;
}

static int connect_to(const struct fixture *f)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* Runs the server until fd has something to read (or EOF), at most ~2 s. */
static void serve_until_readable(struct fixture *f, int fd)
{
	for (int i = 0; i < 400; i++) {
		status_server_dispatch(f->s);
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 5) > 0)
			return;
	}
	fail_msg("no reply within 2 s");
}

/* Reads until EOF while serving; returns the bytes read. */
static size_t read_all(struct fixture *f, int fd, char *buf, size_t len)
{
	size_t got = 0;
	for (;;) {
		serve_until_readable(f, fd);
		ssize_t n = recv(fd, buf + got, len - 1 - got, MSG_DONTWAIT);
		/* A reset after the data: we closed with its input unread. */
		if (n == 0 || (n < 0 && errno == ECONNRESET))
			break;
		if (n < 0 && errno == EAGAIN)
			continue;
		assert_true(n > 0);
		got += (size_t)n;
	}
	buf[got] = '\0';
	return got;
}

/* A one-shot client: the request, then shutdown(SHUT_WR) at once (as
 * `printf 'brief\n' | socat - UNIX-CONNECT:...` does).  Every one gets its
 * replies, then EOF - with and without a final newline, pipelined too. */
static void half_closed_client_gets_its_reply(void **state)
{
	struct fixture *f = *state;
	static const char *const requests[] = {"version\n", "version", "health\nversion\n"};
	char buf[4096];

	for (int round = 0; round < 100; round++) {
		const char *req = requests[round % 3];
		int fd = connect_to(f);
		assert_int_equal(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
		assert_int_equal(shutdown(fd, SHUT_WR), 0);
		read_all(f, fd, buf, sizeof(buf));
		close(fd);
		if (round % 3 == 2) {
			assert_true(strncmp(buf, "bondd/1 ok 0 0\nbondd/1 ok 0 ", 28) == 0);
		} else {
			assert_true(strncmp(buf, "bondd/1 ok 0 ", 13) == 0);
			assert_non_null(strstr(buf, " protocol 1\n"));
		}
	}
	for (int i = 0; i < 5; i++)
		status_server_dispatch(f->s);
	assert_int_equal(status_server_clients(f->s), 0);
}

/* More watchers than allowed: the oldest are closed (EOF after their
 * header), the newest stay, and the total stays within the cap. */
static void watchers_capped_oldest_closed(void **state)
{
	struct fixture *f = *state;
	enum { N = 80 };
	int fds[N];
	char buf[256];

	for (int i = 0; i < N; i++) {
		fds[i] = connect_to(f);
		assert_int_equal(send(fds[i], "watch\n", 6, 0), 6);
		serve_until_readable(f, fds[i]);
		ssize_t n = recv(fds[i], buf, sizeof(buf) - 1, MSG_DONTWAIT);
		assert_true(n > 0);
		buf[n] = '\0';
		assert_string_equal(buf, "bondd/1 ok 0 stream\n");
	}
	size_t held = status_server_clients(f->s);
	assert_true(held >= 8 && held <= 64);
	/* The first watcher was closed, the last one is open. */
	assert_int_equal(recv(fds[0], buf, sizeof(buf), MSG_DONTWAIT), 0);
	assert_int_equal(recv(fds[N - 1], buf, sizeof(buf), MSG_DONTWAIT), -1);
	assert_int_equal(errno, EAGAIN);

	/* The newest gets events, as one line each; a JSON watcher a JSON line. */
	int j = connect_to(f);
	assert_int_equal(send(j, "watch-json\n", 11, 0), 11);
	serve_until_readable(f, j);
	assert_true(recv(j, buf, sizeof(buf), MSG_DONTWAIT) > 0);
	struct event e = {.wall_ms = 1700000000000, .kind = EV_REPAIR};
	snprintf(e.bond, sizeof(e.bond), "b\xff");
	snprintf(e.text, sizeof(e.text), "set b ad_actor_sys_prio=7");
	status_server_broadcast(f->s, &e);
	status_server_flush(f->s);
	ssize_t n = recv(fds[N - 1], buf, sizeof(buf) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, " repair b\xff - set b ad_actor_sys_prio="));
	n = recv(j, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "\"bond\":\"b\\udcff\",\"link\":null,"));
	assert_int_equal(buf[n - 1], '\n');
	close(j);
	for (int i = 0; i < N; i++)
		close(fds[i]);
}

/* A watcher's input is refused at its own end: the server never reads it. */
static void watcher_input_refused(void **state)
{
	struct fixture *f = *state;
	char buf[64];
	int fd = connect_to(f);

	assert_int_equal(send(fd, "watch\n", 6, 0), 6);
	serve_until_readable(f, fd);
	assert_true(recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0);
	errno = 0;
	assert_int_equal(send(fd, "junk\n", 5, MSG_NOSIGNAL), -1);
	assert_int_equal(errno, EPIPE);
	close(fd);
}

/* An endless request line: the 413 error, then the server reads no more
 * (the client's writes fail) and closes. */
static void oversized_request_closed(void **state)
{
	struct fixture *f = *state;
	char big[8192], buf[512];
	int fd = connect_to(f);

	memset(big, 'A', sizeof(big));
	(void)!send(fd, big, sizeof(big), MSG_DONTWAIT | MSG_NOSIGNAL);
	read_all(f, fd, buf, sizeof(buf));
	assert_true(strncmp(buf, "bondd/1 error 413 ", 18) == 0);
	errno = 0;
	assert_int_equal(send(fd, big, 10, MSG_NOSIGNAL), -1);
	close(fd);
}

/* At the open-file limit accept() fails (EMFILE) and the listening socket
 * stays readable: the server must not spin on it.  It says why once,
 * leaves the socket out of its loop (its epoll set is quiet), and tries
 * again after ACCEPT_PAUSE_MS: once a file is free the waiting client is
 * taken and answered, and the trouble is over. */
static void accept_at_the_file_limit_pauses(void **state)
{
	struct fixture *f = *state;
	struct rlimit was, low;
	int spare[512], n_spare = 0;
	char buf[4096];

	assert_int_equal(getrlimit(RLIMIT_NOFILE, &was), 0);
	int fd = connect_to(f);
	low = was;
	low.rlim_cur = (rlim_t)fd + 8;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	while (n_spare < 512) {
		int x = dup(0);
		if (x < 0)
			break;
		spare[n_spare++] = x;
	}
	assert_int_equal(errno, EMFILE);
	assert_int_equal(send(fd, "version\n", 8, 0), 8);
	assert_null(status_server_trouble(f->s));
	status_server_dispatch(f->s);
	assert_non_null(status_server_trouble(f->s));
	assert_non_null(strstr(status_server_trouble(f->s), "Too many open files"));
	/* Quiet: nothing ready in the server's set while it pauses (before,
	 * the listening socket was ready at every call, for ever). */
	struct pollfd p = {.fd = status_server_fd(f->s), .events = POLLIN};
	assert_int_equal(poll(&p, 1, 0), 0);
	for (int i = 0; i < 20; i++)
		status_server_dispatch(f->s);
	assert_int_equal(status_server_clients(f->s), 0);
	/* Files free again: within the pause and a little, the client is
	 * taken and answered (a few: a reply may need one of its own, and
	 * valgrind keeps some). */
	for (int i = 0; i < 8 && n_spare > 0; i++)
		close(spare[--n_spare]);
	/* (valgrind emulates the limit: the kernel accepts, valgrind closes
	 * the new descriptor and says EMFILE, so the waiting client is reset
	 * there; a new one is served either way) */
	const char *pre = getenv("LD_PRELOAD");
	bool valgrind = pre && strstr(pre, "vgpreload");
	int fd2 = connect_to(f);
	assert_int_equal(send(fd2, "version\n", 8, 0), 8);
	for (int c = 0; c < 2; c++) {
		int x = c ? fd2 : fd;
		serve_until_readable(f, x);
		ssize_t got = recv(x, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (got < 0 && errno == ECONNRESET && valgrind && x == fd)
			continue;
		if (got <= 0)
			fail_msg("client %d: no reply: %zd (%s)", c, got, strerror(errno));
		buf[got] = '\0';
		assert_true(strncmp(buf, "bondd/1 ok 0 ", 13) == 0);
	}
	assert_null(status_server_trouble(f->s));
	close(fd2);
	while (n_spare > 0)
		close(spare[--n_spare]);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &was), 0);
	close(fd);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One unprivileged user connecting again and again (as nobody, uid 65534),
 * 100 connections at once, each asking "version": its first 64
 * (UID_CONNS_BURST) are served and then about 16 a second
 * (UID_CONNS_PER_S); the rest are closed unanswered, most of them held
 * first (TARPIT_MS: the client waits instead of connecting again at once),
 * none longer than that.  Root is served meanwhile.  Skipped when not
 * root. */
static void connection_flood_bounded(void **state)
{
	struct fixture *f = *state;
	int pfd[2];
	enum { CONNS = 100 };

	if (geteuid() != 0)
		skip();
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_int_equal(pipe(pfd), 0);
	pid_t kid = fork();
	assert_true(kid >= 0);
	if (kid == 0) {
		/* [0] served, [1] closed unanswered, [2] of them after 800 ms or
		 * more, [3] the longest wait for a close, ms, [4] still open,
		 * [5] elapsed ms */
		unsigned t[6] = {0};
		int fds[CONNS];
		double at[CONNS];
		close(pfd[0]);
		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		double t0 = mono_s();
		for (int i = 0; i < CONNS; i++) {
			struct sockaddr_un sa = {.sun_family = AF_UNIX};
			snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
			fds[i] = socket(AF_UNIX, SOCK_STREAM, 0);
			if (connect(fds[i], (struct sockaddr *)&sa, sizeof(sa)) < 0)
				_exit(2);
			at[i] = mono_s();
			(void)!send(fds[i], "version\n", 8, MSG_NOSIGNAL);
			shutdown(fds[i], SHUT_WR);
		}
		int open = CONNS;
		while (open && mono_s() - t0 < 5.0) {
			struct pollfd p[CONNS];
			for (int i = 0; i < CONNS; i++)
				p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
			if (poll(p, CONNS, 100) <= 0)
				continue;
			for (int i = 0; i < CONNS; i++) {
				if (fds[i] < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				char buf[256];
				ssize_t n = recv(fds[i], buf, sizeof(buf), 0);
				unsigned ms = (unsigned)((mono_s() - at[i]) * 1000);
				if (n > 0 && strncmp(buf, "bondd/1 ok", 10) == 0) {
					t[0]++;
				} else {
					t[1]++;
					t[2] += ms >= 800;
					t[3] = ms > t[3] ? ms : t[3];
				}
				close(fds[i]);
				fds[i] = -1;
				open--;
			}
		}
		t[4] = (unsigned)open;
		t[5] = (unsigned)((mono_s() - t0) * 1000);
		(void)!write(pfd[1], t, sizeof(t));
		_exit(0);
	}
	close(pfd[1]);
	unsigned got[6] = {0};
	bool done = false;
	for (int i = 0; i < 4000 && !done; i++) {
		status_server_dispatch(f->s);
		struct pollfd p = {.fd = pfd[0], .events = POLLIN};
		if (poll(&p, 1, 2) > 0) {
			assert_int_equal(read(pfd[0], got, sizeof(got)), (ssize_t)sizeof(got));
			done = true;
		}
	}
	close(pfd[0]);
	kill(kid, SIGKILL);
	int st = 0;
	waitpid(kid, &st, 0);
	assert_true(done);
	print_message("nobody: %u served, %u closed unanswered (%u held 800 ms or more, the "
		      "longest %u ms), %u open, in %u ms\n",
		      got[0], got[1], got[2], got[3], got[4], got[5]);
	assert_int_equal(got[4], 0);
	assert_int_equal(got[0] + got[1], CONNS);
	/* its burst served, then no more than the rate allows */
	assert_true(got[0] >= 64);
	unsigned most = 64 + 16 * (got[5] / 1000 + 1) + 1;
	if (got[0] > most)
		fail_msg("%u served in %u ms, more than %u", got[0], got[5], most);
	assert_true(got[1] >= CONNS - most);
	/* held, not closed at once (the client waits), and never for long */
	assert_true(got[2] >= 1);
	assert_true(got[3] <= 2500);
	/* root, meanwhile over nobody's budget, is served */
	char buf[4096];
	int fd = connect_to(f);
	assert_int_equal(send(fd, "version\n", 8, 0), 8);
	assert_int_equal(shutdown(fd, SHUT_WR), 0);
	read_all(f, fd, buf, sizeof(buf));
	close(fd);
	assert_true(strncmp(buf, "bondd/1 ok 0 ", 13) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(half_closed_client_gets_its_reply, setup, teardown),
		cmocka_unit_test_setup_teardown(watchers_capped_oldest_closed, setup, teardown),
		cmocka_unit_test_setup_teardown(watcher_input_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(oversized_request_closed, setup, teardown),
		cmocka_unit_test_setup_teardown(accept_at_the_file_limit_pauses, setup, teardown),
		cmocka_unit_test_setup_teardown(connection_flood_bounded, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
