/* SPDX-License-Identifier: MIT */
/* status_server.c over a real UNIX socket: the reload request, with a reload that counts. */
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <cmocka.h>

#include "desired.h"
#include "event_log.h"
#include "observed.h"
#include "status_render.h"
#include "status_server.h"

struct fixture {
	struct desired want;
	struct observed obs;
	struct event_log events;
	unsigned reloads;
	char dir[64], path[96];
};

static void view(void *ctx, struct status_view *v)
{
	struct fixture *f = ctx;
	*v = (struct status_view){.want = &f->want, .obs = &f->obs, .events = &f->events};
}

static int reload(void *ctx, char *msg, size_t len)
{
	struct fixture *f = ctx;
	f->reloads++;
	snprintf(msg, len, "reloaded %u", f->reloads);
	return 0;
}

static int client(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* One turn of the daemon's loop for the server: wait until it has
 * something, then dispatch once.  Returns false when nothing came. */
static bool turn(struct status_server *s)
{
	struct pollfd p = {.fd = status_server_fd(s), .events = POLLIN};
	if (poll(&p, 1, 1000) != 1)
		return false;
	status_server_dispatch(s);
	return true;
}

/* Requests pipelined behind a reload wait for the next turn of the event
 * loop, one reload per turn: a client sending a thousand of them must not
 * hold the loop (watchdog pings, repairs, other clients) for all of them
 * at once.  Every one is still answered, in order. */
static void one_reload_per_turn(void **state)
{
	struct fixture f = {0};
	struct status_server *s;
	enum { N = 50 };
	char req[N * 8];
	size_t len = 0;

	snprintf(f.dir, sizeof(f.dir), "/tmp/bondd-test-XXXXXX");
	assert_non_null(mkdtemp(f.dir));
	snprintf(f.path, sizeof(f.path), "%s/s.sock", f.dir);
	assert_int_equal(status_server_open(&s, f.path, view, &f), 0);
	status_server_set_reload(s, reload);

	int fd = client(f.path);
	for (int i = 0; i < N; i++)
		len += (size_t)snprintf(req + len, sizeof(req) - len, "reload\n");
	len += (size_t)snprintf(req + len, sizeof(req) - len, "version\n");
	assert_int_equal(send(fd, req, len, 0), (ssize_t)len);

	unsigned turns = 0;
	while (f.reloads < N && turns < 10 * N) {
		unsigned before = f.reloads;
		if (!turn(s))
			break;
		turns++;
		assert_true(f.reloads - before <= 1);
	}
	assert_int_equal(f.reloads, N);
	for (int i = 0; i < 5; i++)
		turn(s); /* the version request after them */

	/* Every answer, in order, then the version. */
	char buf[8192];
	size_t got = 0;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	while (poll(&p, 1, 200) == 1) {
		ssize_t n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	char *at = buf;
	for (int i = 1; i <= N; i++) {
		char want[32];
		snprintf(want, sizeof(want), "reloaded %d\n", i);
		at = strstr(at, want);
		assert_non_null(at);
	}
	assert_non_null(strstr(at, "protocol 1"));

	close(fd);
	status_server_close(s);
	rmdir(f.dir);
	(void)state;
}

static uint32_t tried;
static int trial(void *ctx, enum status_verb verb, uint32_t arg, char *msg, size_t len)
{
	(void)ctx;
	if (verb == SV_TRY) {
		tried = arg;
		snprintf(msg, len, "trial 1: applied");
		return 0;
	}
	if (verb == SV_CONFIRM) {
		snprintf(msg, len, "no trial runs: nothing to confirm");
		return SE_CONFLICT;
	}
	return STATUS_TRIAL_PENDING;
}

/* try, confirm and trial-wait in-process (the unit tests' server): the
 * callback's answers become replies; a trial-wait for a running trial is
 * answered busy (only the status process keeps a client waiting); without
 * the callback each is an internal error. */
static void trial_requests_here(void **state)
{
	struct fixture f = {0};
	struct status_server *s;
	char buf[4096];

	if (geteuid() != 0)
		skip(); /* the same clients as reload */
	snprintf(f.dir, sizeof(f.dir), "/tmp/bondd-test-XXXXXX");
	assert_non_null(mkdtemp(f.dir));
	snprintf(f.path, sizeof(f.path), "%s/s.sock", f.dir);
	assert_int_equal(status_server_open(&s, f.path, view, &f), 0);

	static const struct {
		bool with_fn;
		const char *req, *want;
	} cases[] = {
		{false, "confirm\n", "bondd/1 error 500 trials are not available\n"},
		{true, "try 17\n", "\ntrial 1: applied\n"},
		{true, "confirm\n", "bondd/1 error 409 no trial runs: nothing to confirm\n"},
		{true, "trial-wait 1\n", "bondd/1 error 503 the trial runs; waiting needs the status "
					 "process\n"},
		{true, "try 0\n", "bondd/1 error 400 \"try\" takes one number of seconds, 1 to 3600\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		status_server_set_trial(s, cases[i].with_fn ? trial : NULL);
		int fd = client(f.path);
		assert_int_equal(send(fd, cases[i].req, strlen(cases[i].req), 0),
				 (ssize_t)strlen(cases[i].req));
		shutdown(fd, SHUT_WR);
		size_t got = 0;
		for (int t = 0; t < 20; t++) {
			turn(s);
			struct pollfd p = {.fd = fd, .events = POLLIN};
			if (poll(&p, 1, 10) != 1)
				continue;
			ssize_t n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		buf[got] = '\0';
		if (!strstr(buf, cases[i].want))
			fail_msg("%s answered \"%s\"", cases[i].req, buf);
		close(fd);
	}
	assert_int_equal(tried, 17);
	status_server_close(s);
	rmdir(f.dir);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_reload_per_turn),
		cmocka_unit_test(trial_requests_here),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
