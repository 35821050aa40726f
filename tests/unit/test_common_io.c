/* SPDX-License-Identifier: MIT */
/* The small repeats named once in common/: a sysfs line (small_file.h), a
 * file read whole (whole_file.h), the monotonic clock and a timerfd armed
 * (clock.h).  Links common/ alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>

#include "clock.h"
#include "small_file.h"
#include "strbuf.h"
#include "whole_file.h"

static char dir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/bondd-test-common-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Writes LEN bytes of TEXT to DIR/NAME; its path in PATH. */
static void put(const char *name, const char *text, size_t len, char *path, size_t plen)
{
	snprintf(path, plen, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* text_set writes only a change, cut to fit like snprintf: a table. */
static void text_set_writes_changes_only(void **state)
{
	(void)state;
	static const struct {
		const char *was, *src;
		size_t cap;
		bool wrote;
		const char *now;
	} cases[] = {
		{"eth0", "eth0", 16, false, "eth0"},
		{"eth0", "eth1", 16, true, "eth1"},
		{"eth0", "", 16, true, ""},
		{"", "", 16, false, ""},
		{"", "eth0", 16, true, "eth0"},
		{"abcd", "abcdef", 5, false, "abcd"}, /* already its cut */
		{"abce", "abcdef", 5, true, "abcd"},
		{"eth0", "eth0x", 16, true, "eth0x"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char dst[16];
		snprintf(dst, sizeof(dst), "%s", cases[i].was);
		if (text_set(dst, cases[i].cap, cases[i].src) != cases[i].wrote)
			fail_msg("case %zu: wrote %d", i, !cases[i].wrote);
		assert_string_equal(dst, cases[i].now);
	}
	char one[1] = "";
	assert_false(text_set(one, 0, "x"));
}

static void sysfs_line(void **state)
{
	(void)state;
	char path[128], buf[16];
	static const struct {
		const char *text;   /* the file's bytes */
		bool ok;
		const char *line;   /* what small_file_line gives */
	} cases[] = {
		{"1000\n", true, "1000"},          /* speed_show */
		{"full\n", true, "full"},          /* duplex_show */
		{"bbr cubic reno\n", true, "bbr cubic reno"},
		{"no newline", true, "no newline"},
		{"a\nb\n", true, "a"},             /* the first line only */
		{"\n", true, ""},
		{"", false, NULL},                 /* empty: nothing read */
		{"0123456789abcdefXYZ\n", true, "0123456789abcde"}, /* cut at the buffer */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		put("attr", cases[i].text, strlen(cases[i].text), path, sizeof(path));
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(small_file_line(path, buf, sizeof(buf)), cases[i].ok);
		if (cases[i].ok)
			assert_string_equal(buf, cases[i].line);
		memset(buf, 'x', sizeof(buf));
		assert_int_equal(small_file_line_in(dir, "attr", buf, sizeof(buf)), cases[i].ok);
		if (cases[i].ok)
			assert_string_equal(buf, cases[i].line);
	}
	assert_false(small_file_line_in(dir, "missing", buf, sizeof(buf)));
	/* a path longer than PATH_MAX: false, not a shorter path's file */
	static char longname[PATH_MAX + 8];
	memset(longname, 'a', sizeof(longname) - 1);
	assert_false(small_file_line_in(dir, longname, buf, sizeof(buf)));
}

static void fd_read_bounded(void **state)
{
	(void)state;
	char path[128], buf[64];
	size_t len = 99;

	put("conf", "0123456789", 10, path, sizeof(path));
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(whole_fd_read(fd, buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 10);
	assert_memory_equal(buf, "0123456789", 10);
	close(fd);

	/* MAX 4: asks for 5, gets 5: "too large" */
	fd = open(path, O_RDONLY);
	assert_int_equal(whole_fd_read(fd, buf, 5, &len), 0);
	assert_int_equal(len, 5);
	close(fd);

	/* a pipe hands its bytes in pieces: read on to the end */
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	assert_int_equal(write(p[1], "defg", 4), 4);
	close(p[1]);
	assert_int_equal(whole_fd_read(p[0], buf, sizeof(buf), &len), 0);
	assert_int_equal(len, 7);
	assert_memory_equal(buf, "abcdefg", 7);
	close(p[0]);

	/* a read error is -errno */
	assert_int_equal(whole_fd_read(-1, buf, sizeof(buf), &len), -EBADF);
}

static void file_read_whole(void **state)
{
	(void)state;
	char path[128], *text = (char *)1;
	size_t len = 1, big = 100000; /* past 16 KiB: grown twice */
	char *want = malloc(big);

	assert_non_null(want);
	for (size_t i = 0; i < big; i++)
		want[i] = (char)('a' + i % 26);
	put("proc", want, big, path, sizeof(path));
	assert_int_equal(whole_file_read(path, 64u << 20, &text, &len), 0);
	assert_int_equal(len, big);
	assert_memory_equal(text, want, big);
	assert_int_equal(text[len], '\0');
	free(text);

	/* a ceiling below what the file holds: -ENOMEM, nothing handed back */
	assert_int_equal(whole_file_read(path, 65536, &text, &len), -ENOMEM);
	assert_null(text);
	/* 131072 is the size a 100000-byte text needs (16 K doubled three times) */
	assert_int_equal(whole_file_read(path, 131072, &text, &len), 0);
	assert_int_equal(len, big);
	free(text);

	put("empty", "", 0, path, sizeof(path));
	assert_int_equal(whole_file_read(path, 64u << 20, &text, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);

	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(whole_file_read(path, 64u << 20, &text, &len), -ENOENT);
	assert_null(text);
	free(want);
}

static void mono_clock(void **state)
{
	(void)state;
	struct timespec ts;
	uint64_t a = clock_mono_ms();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t b = clock_mono_ms();
	uint64_t direct = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;

	assert_true(a <= direct && direct <= b);
	assert_true(clock_mono_us() / 1000 >= b);
	assert_true(clock_wall_ms() > 1500000000000LL); /* after 2017 */
}

/* Whether FD fires within MS (and what it said is taken). */
static bool fires(int fd, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	if (poll(&p, 1, ms) != 1)
		return false;
	return clock_timer_take(fd) == 1 && clock_timer_take(fd) == 0;
}

static long armed_ms(int fd)
{
	struct itimerspec its;
	assert_int_equal(timerfd_gettime(fd, &its), 0);
	return (long)its.it_value.tv_sec * 1000 + its.it_value.tv_nsec / 1000000;
}

static void timer_arming(void **state)
{
	(void)state;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	assert_true(fd >= 0);

	/* due now or already past: fires at once, never left disarmed */
	assert_int_equal(clock_timer_in(fd, 0), 0);
	assert_true(fires(fd, 1000));
	assert_int_equal(clock_timer_in(fd, -5), 0);
	assert_true(fires(fd, 1000));

	/* nothing to take before it fires */
	assert_int_equal(clock_timer_take(fd), 0);

	/* in 10 s: armed for about that long */
	assert_int_equal(clock_timer_in(fd, 10000), 0);
	long left = armed_ms(fd);
	assert_true(left > 9000 && left <= 10000);
	assert_false(fires(fd, 20));

	/* off */
	assert_int_equal(clock_timer_off(fd), 0);
	assert_int_equal(armed_ms(fd), 0);

	/* absolute: in 10 s, and a time past */
	assert_int_equal(clock_timer_at(fd, (int64_t)clock_mono_ms() + 10000), 0);
	left = armed_ms(fd);
	assert_true(left > 9000 && left <= 10000);
	assert_int_equal(clock_timer_at(fd, 1), 0);
	assert_true(fires(fd, 1000));

	close(fd);
	assert_int_equal(clock_timer_in(fd, 1), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_set_writes_changes_only),
		cmocka_unit_test(sysfs_line),
		cmocka_unit_test(fd_read_bounded),
		cmocka_unit_test(file_read_whole),
		cmocka_unit_test(mono_clock),
		cmocka_unit_test(timer_arming),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
