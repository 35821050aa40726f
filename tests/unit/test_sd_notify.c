/* SPDX-License-Identifier: MIT */
/* sd_notify without libsystemd (sd_notify.c): the datagram systemd reads,
 * to a socket by path and in the abstract namespace, none without
 * NOTIFY_SOCKET, a refusal for an address that cannot be one; and the
 * watchdog's interval only for the process it names.  A socket of the
 * test's own in a fresh directory stands for systemd's. */
#include <errno.h>
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

#include "sd_notify.h"

/* A datagram socket at path (a leading '@': abstract). */
static int listener(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t len = strlen(path);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	assert_true(fd >= 0);
	memcpy(sa.sun_path, path, len);
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	assert_int_equal(bind(fd, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len)), 0);
	return fd;
}

static void got(int fd, const char *want)
{
	char buf[64];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

static void notify_sent(void **state)
{
	(void)state;
	char dir[] = "/tmp/bondd-notify-XXXXXX", path[64], abstract[64];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	int fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	assert_int_equal(sd_notify_send("READY=1"), 0);
	got(fd, "READY=1");
	assert_int_equal(sd_notify_send("STATUS=bond0 ok"), 0);
	got(fd, "STATUS=bond0 ok");
	close(fd);
	unlink(path);
	/* no one listens there now */
	assert_int_equal(sd_notify_send("READY=1"), -ENOENT);
	rmdir(dir);

	snprintf(abstract, sizeof(abstract), "@bondd-test-notify-%ld", (long)getpid());
	fd = listener(abstract);
	setenv("NOTIFY_SOCKET", abstract, 1);
	assert_int_equal(sd_notify_send("WATCHDOG=1"), 0);
	got(fd, "WATCHDOG=1");
	close(fd);

	/* not systemd's: nothing sent, no error */
	unsetenv("NOTIFY_SOCKET");
	assert_int_equal(sd_notify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "", 1);
	assert_int_equal(sd_notify_send("READY=1"), 0);
	/* no address at all */
	setenv("NOTIFY_SOCKET", "run/notify", 1);
	assert_int_equal(sd_notify_send("READY=1"), -EINVAL);
	char long_path[160];
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	setenv("NOTIFY_SOCKET", long_path, 1);
	assert_int_equal(sd_notify_send("READY=1"), -EINVAL);
	unsetenv("NOTIFY_SOCKET");
}

static void watchdog_interval(void **state)
{
	(void)state;
	char pid[24];

	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	assert_int_equal(sd_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "20000000", 1);
	assert_int_equal(sd_watchdog_usec(), 20000000); /* no PID: ours */
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	assert_int_equal(sd_watchdog_usec(), 20000000);
	snprintf(pid, sizeof(pid), "%ld", (long)getpid() + 1);
	setenv("WATCHDOG_PID", pid, 1);
	assert_int_equal(sd_watchdog_usec(), 0); /* another process's */
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(notify_sent),
		cmocka_unit_test(watchdog_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
