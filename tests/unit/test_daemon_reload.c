/* SPDX-License-Identifier: MIT */
/* A reload refused, as its one reporter writes it (daemon.c reload,
 * reload_report): what the one who asked is told, the event, STATUS= and
 * the reload metrics, for each refusal.  Real files in a fresh directory;
 * no kernel (an empty picture of it), no socket.  A refused reload touches
 * nothing, so none of these reaches the kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon_fixture.h"

static char dir[64], path[96];

static void write_conf(const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct daemon *running(void)
{
	struct daemon *d = fixture_daemon_conf("[bond0]\nslaves = eth0\n");

	snprintf(dir, sizeof(dir), "/tmp/bondd-reload-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bondd.conf", dir);
	d->opts.config_path = path;
	return d;
}

static void done(struct daemon *d)
{
	unlink(path);
	rmdir(dir);
	fixture_done(d);
}

static const char *last_event(struct daemon *d)
{
	return fixture_last_event(d)->text;
}

static void ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	if (n < t || strcmp(s + n - t, tail) != 0)
		fail_msg("\"%s\" does not end with \"%s\"", s, tail);
}

static void refusals_reported(void **state)
{
	(void)state;
	struct daemon *d = running();
	char msg[400], want[512];

	/* an error at a line */
	write_conf("[bond0]\nslaves = eth0\nmode = sideways\n");
	assert_int_equal(reload(d, msg, sizeof(msg), 0), -1);
	assert_non_null(strstr(msg, "bondd.conf:3"));
	ends_with(msg, "; the running configuration stays");
	snprintf(want, sizeof(want), "reload of %s refused: error at %s:3", path, path);
	assert_string_equal(last_event(d), want);
	assert_true(d->config_failed);
	snprintf(want, sizeof(want), "; last reload refused: error at %s:3", path);
	ends_with(d->status_line, want);
	assert_int_equal(d->want.n_bonds, 1); /* the running configuration stays */

	/* the file gone: it cannot be read */
	unlink(path);
	assert_int_equal(reload(d, msg, sizeof(msg), 0), -1);
	snprintf(want, sizeof(want), "reload of %s refused", path);
	assert_string_equal(last_event(d), want);
	snprintf(want, sizeof(want), "; last reload refused: %s cannot be read", path);
	ends_with(d->status_line, want);

	/* a file without bonds while bondd manages one */
	write_conf("# nothing here\n");
	assert_int_equal(reload(d, msg, sizeof(msg), 0), -1);
	snprintf(want, sizeof(want), "%s defines no bonds, and bondd manages 1; the running "
		 "configuration stays (to stop managing every bond, stop the service)", path);
	assert_string_equal(msg, want);
	snprintf(want, sizeof(want), "reload of %s refused: it defines no bonds", path);
	assert_string_equal(last_event(d), want);
	snprintf(want, sizeof(want), "; last reload refused: %s defines no bonds, still "
		 "managing 1", path);
	ends_with(d->status_line, want);

	/* one link named by two slave entries */
	struct obs_link l = {.ifindex = 7, .has_perm_addr = true,
			     .perm_addr = {0x02, 0, 0, 0, 0xaa, 0x01}};
	snprintf(l.name, sizeof(l.name), "eth7");
	assert_int_equal(observed_put_link(&d->ob.state, &l), 0);
	write_conf("[bond0]\nslaves = mac:02:00:00:00:aa:01 eth7\n");
	assert_int_equal(reload(d, msg, sizeof(msg), 0), -1);
	snprintf(want, sizeof(want), "%s: one link is named by two slave entries (see bondd's "
		 "log); the running configuration stays", path);
	assert_string_equal(msg, want);
	snprintf(want, sizeof(want), "reload of %s refused: one link named by two slave "
		 "entries", path);
	assert_string_equal(last_event(d), want);
	ends_with(d->status_line, "; last reload refused: one link named by two slave entries");
	assert_true(d->config_failed);
	assert_string_equal(d->want.bonds[0].slaves[0].name, "eth0");
	done(d);
}

/* While a trial runs a plain reload is refused before the file is read:
 * the event says so; STATUS= keeps what it said (the trial). */
static void refused_while_a_trial_runs(void **state)
{
	(void)state;
	struct daemon *d = running();
	char msg[400], want[512];

	d->trial.running = true;
	d->trial.id = 3;
	write_conf("[bond0]\nslaves = eth0\n");
	assert_int_equal(reload(d, msg, sizeof(msg), 0), -1);
	assert_non_null(strstr(msg, "trial 3 runs ("));
	snprintf(want, sizeof(want), "reload of %s refused: trial 3 runs", path);
	assert_string_equal(last_event(d), want);
	assert_true(d->config_failed);
	assert_string_equal(d->status_line, ""); /* not sent: nothing new to say */
	d->trial.running = false;
	done(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refusals_reported),
		cmocka_unit_test(refused_while_a_trial_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
