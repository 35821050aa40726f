/* SPDX-License-Identifier: MIT */
/* The status socket's directory made (socket_dir.c): every missing level,
 * traversable; one already there; a file in the way named; a path too
 * long for a socket or without a directory left alone.  In a fresh
 * directory of the test's own. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "daemon_parts.h"

static char top[] = "/tmp/bondd-sockdir-XXXXXX";

static void made(void **state)
{
	(void)state;
	char path[160], want[160], where[160] = "";
	struct stat st;

	umask(022);
	assert_non_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/run/bondd/bondd.sock", top);
	assert_int_equal(socket_dir_make(path, where, sizeof(where)), 0);
	snprintf(want, sizeof(want), "%s/run/bondd", top);
	assert_int_equal(stat(want, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0755);
	assert_int_equal(socket_dir_make(path, where, sizeof(where)), 0); /* already there */

	/* a file where a directory should be */
	snprintf(want, sizeof(want), "%s/file", top);
	FILE *f = fopen(want, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/file/bondd.sock", top);
	assert_int_equal(socket_dir_make(path, where, sizeof(where)), -ENOTDIR);
	assert_string_equal(where, want);
	snprintf(path, sizeof(path), "%s/file/sub/bondd.sock", top);
	assert_int_equal(socket_dir_make(path, where, sizeof(where)), -ENOTDIR);
	snprintf(want, sizeof(want), "%s/file/sub", top);
	assert_string_equal(where, want);

	/* left alone: no directory, the root's, too long to be a socket */
	assert_int_equal(socket_dir_make("bondd.sock", where, sizeof(where)), 0);
	assert_int_equal(socket_dir_make("/bondd.sock", where, sizeof(where)), 0);
	snprintf(path, sizeof(path), "%s/long/%0120d.sock", top, 0);
	assert_int_equal(socket_dir_make(path, where, sizeof(where)), 0);
	snprintf(want, sizeof(want), "%s/long", top);
	assert_int_equal(stat(want, &st), -1);

	snprintf(want, sizeof(want), "%s/file", top);
	unlink(want);
	snprintf(want, sizeof(want), "%s/run/bondd", top);
	rmdir(want);
	snprintf(want, sizeof(want), "%s/run", top);
	rmdir(want);
	rmdir(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(made),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
