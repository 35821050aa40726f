/* SPDX-License-Identifier: MIT */
/* A running daemon's state built in memory (daemon_fixture.h). */
#include "daemon_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

void fixture_want(struct desired *want, const char *spec)
{
	char buf[256];
	size_t n = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (const char *c = buf; *c; c++)
		n += *c == ':';
	*want = (struct desired){.bonds = calloc(n ? n : 1, sizeof(struct desired_bond))};
	assert_non_null(want->bonds);
	for (char *save = NULL, *one = strtok_r(buf, " ", &save); one;
	     one = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(one, ':');
		assert_non_null(colon);
		*colon = '\0';
		struct desired_bond *b = &want->bonds[want->n_bonds++];
		snprintf(b->name, sizeof(b->name), "%s", one);
		for (char *s2 = NULL, *sl = strtok_r(colon + 1, ",", &s2); sl;
		     sl = strtok_r(NULL, ",", &s2)) {
			assert_true(b->n_slaves < BONDD_MAX_SLAVES);
			struct desired_slave *s = &b->slaves[b->n_slaves++];
			snprintf(s->name, sizeof(s->name), "%s", sl);
		}
	}
}

static struct daemon *start(struct desired *want)
{
	struct daemon *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	d->opts.config_path = "/etc/bondd/bondd.conf";
	d->epfd = d->sigfd = d->retry_fd = d->watchdog_fd = -1;
	d->want = *want;
	assert_int_equal(runtime_rebuild(d, &d->want), 0);
	touch_all(d);
	/* sd_notify sends nothing */
	unsetenv("NOTIFY_SOCKET");
	return d;
}

struct daemon *fixture_daemon(const char *spec)
{
	struct desired want;

	fixture_want(&want, spec);
	return start(&want);
}

struct daemon *fixture_daemon_conf(const char *conf)
{
	struct desired want = {0};
	struct config_diag diag = {0};

	assert_int_equal(config_parse("bondd.conf", conf, strlen(conf), &want, &diag), 0);
	config_diag_free(&diag);
	return start(&want);
}

struct obs_link *fixture_link(struct daemon *d, const char *name, int ifindex,
			      const char *kind)
{
	struct obs_link l = {.ifindex = ifindex, .flags = IFF_UP | IFF_LOWER_UP, .mtu = 1500};

	snprintf(l.name, sizeof(l.name), "%s", name);
	snprintf(l.kind, sizeof(l.kind), "%s", kind ? kind : "");
	assert_int_equal(observed_put_link(&d->ob.state, &l), 0);
	return (struct obs_link *)observed_by_index(&d->ob.state, ifindex);
}

const struct event *fixture_last_event(const struct daemon *d)
{
	size_t n = event_log_count(&d->events);
	return n ? event_log_at(&d->events, n - 1) : NULL;
}

void fixture_done(struct daemon *d)
{
	trial_free(d);
	action_list_free(&d->plan);
	plan_touch_free(&d->touch);
	desired_free(&d->want);
	observed_free(&d->ob.state);
	udev_wait_free(&d->udev);
	for (size_t i = 0; i < FSRC__COUNT; i++)
		findings_free(&d->findings[i]);
	free(d->counts);
	live_facts_free(&d->live);
	runtime_free(d);
	free(d);
}
