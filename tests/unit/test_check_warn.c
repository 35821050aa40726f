/* SPDX-License-Identifier: MIT */
/* bondd --check's own warnings (check_warn.c): shaped as the parser's, and
 * the files the service's dynamic user could not read: a file closed to
 * others, a drop-in too (other names in the drop-in folder skipped), a
 * directory on the path closed to others.  Files of the test's own in a
 * fresh directory; modes, not access, are judged, so root sees the same. */
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

#include "check_warn.h"

static char top[] = "/tmp/bondd-checkwarn-XXXXXX";

static void file_of(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[bond0]\nslaves = eth0\n", f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* What check_readable_by_service says of path, whole. */
static char *said(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	check_readable_by_service(path, f);
	fclose(f);
	return text;
}

static size_t lines(const char *text)
{
	size_t n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void unreadable_said(void **state)
{
	(void)state;
	char conf[128], dropins[128], p[160], want[640];

	assert_non_null(mkdtemp(top));
	assert_int_equal(chmod(top, 0755), 0);
	snprintf(conf, sizeof(conf), "%s/bondd.conf", top);
	snprintf(dropins, sizeof(dropins), "%s/bondd.conf.d", top);

	/* readable by others, no drop-ins: nothing to say */
	file_of(conf, 0644);
	char *text = said(conf);
	assert_string_equal(text, "");
	free(text);

	/* the file closed to others */
	file_of(conf, 0640);
	text = said(conf);
	snprintf(want, sizeof(want), "%s: warning: the service's user cannot read it (mode 0640, "
		 "and bondd.service runs as a dynamic user, neither its owner nor in its group): "
		 "chmod o+r %s\n", conf, conf);
	assert_string_equal(text, want);
	free(text);
	file_of(conf, 0644);

	/* drop-ins: one closed to others is said; hidden and other names skipped */
	assert_int_equal(mkdir(dropins, 0755), 0);
	snprintf(p, sizeof(p), "%s/10-open.conf", dropins);
	file_of(p, 0644);
	snprintf(p, sizeof(p), "%s/20-closed.conf", dropins);
	file_of(p, 0600);
	snprintf(p, sizeof(p), "%s/.hidden.conf", dropins);
	file_of(p, 0600);
	snprintf(p, sizeof(p), "%s/notes.txt", dropins);
	file_of(p, 0600);
	snprintf(p, sizeof(p), "%s/.conf", dropins);
	file_of(p, 0600);
	text = said(conf);
	assert_int_equal(lines(text), 1);
	snprintf(want, sizeof(want), "%s/20-closed.conf: warning: the service's user cannot read "
		 "it (mode 0600", dropins);
	assert_non_null(strstr(text, want));
	free(text);

	/* the folder of the drop-ins closed to others: each drop-in is
	 * unreachable (the file itself is not in it) */
	assert_int_equal(chmod(dropins, 0750), 0);
	text = said(conf);
	snprintf(want, sizeof(want), "the service's user cannot reach it: directory %s (mode 0750) "
		 "is closed to others: chmod o+x %s\n", dropins, dropins);
	assert_non_null(strstr(text, want));
	assert_int_equal(lines(text), 3); /* 10-open: one; 20-closed: two */
	free(text);

	/* the warning's own shape, at a line */
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	assert_non_null(f);
	check_warning(f, "/etc/bondd/bondd.conf", 7, "[%s]: %s", "bond0", "a note");
	fclose(f);
	assert_string_equal(line, "/etc/bondd/bondd.conf:7: warning: [bond0]: a note\n");
	free(line);

	assert_int_equal(chmod(dropins, 0755), 0);
	static const char *const names[] = {"10-open.conf", "20-closed.conf", ".hidden.conf",
					    "notes.txt", ".conf"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dropins, names[i]);
		unlink(p);
	}
	rmdir(dropins);
	unlink(conf);
	rmdir(top);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unreadable_said),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
