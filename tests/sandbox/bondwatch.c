/* SPDX-License-Identifier: MIT */
/*
 * bondwatch: waits, from outside bondd, until a bond is whole (up, its
 * slaves exactly the given list in that order, bond and slaves at the given
 * MTU), and prints how long that took from a trigger seen in the kernel's
 * own event stream: a link appearing, or a link's MTU leaving the expected
 * value.  Used by the sandbox scenarios and the recovery benchmark.
 *
 *   bondwatch --bond B --slaves a,b,c [--mtu N] [--after-new NAME |
 *             --after-mtu NAME] [--timeout SECONDS] [--verbose]
 *
 * Prints "whole after X.XXX ms" and exits 0, or prints what is missing and
 * exits 1 at the timeout.  Without a trigger the clock starts at once.
 * --verbose prints every link change seen, with its time, on stderr: name,
 * MTU, master's ifindex, admin state.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "observer.h"

struct watch {
	const char *bond;
	char slaves[BONDD_MAX_SLAVES][IFNAMSIZ];
	size_t n_slaves;
	uint32_t mtu;
	const char *trigger_new, *trigger_mtu;
	bool armed, started, verbose;
	struct timespec t0, start;
};

static double ms_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) * 1e3 + (double)(now.tv_nsec - t0->tv_nsec) / 1e6;
}

static void on_change(void *ctx, const struct obs_link *old, const struct obs_link *now)
{
	struct watch *w = ctx;

	if (w->verbose)
		fprintf(stderr, "%9.3f ms %s %s mtu %u master %d %s\n", ms_since(&w->start),
			!now ? "gone" : !old ? "new" : "changed", now ? now->name : old->name,
			now ? now->mtu : 0, now ? now->master : 0,
			now && (now->flags & IFF_UP) ? "up" : "down");
	/* Links seen in the first dump are not triggers: they were there
	 * before we watched. */
	if (!w->armed || w->started || !now)
		return;
	if (w->trigger_new && !old && strcmp(now->name, w->trigger_new) == 0)
		w->started = true;
	if (w->trigger_mtu && strcmp(now->name, w->trigger_mtu) == 0 && now->mtu != w->mtu)
		w->started = true;
	if (w->started)
		clock_gettime(CLOCK_MONOTONIC, &w->t0);
}

/* Returns NULL when whole, else what is still wrong. */
static const char *missing(const struct watch *w, const struct observed *o, char *buf,
			   size_t len)
{
	const struct obs_link *b = observed_by_name(o, w->bond);

	if (!b || strcmp(b->kind, "bond") != 0)
		return snprintf(buf, len, "%s does not exist", w->bond), buf;
	if (!(b->flags & IFF_UP))
		return snprintf(buf, len, "%s is down", w->bond), buf;
	if (w->mtu && b->mtu != w->mtu)
		return snprintf(buf, len, "%s has MTU %u", w->bond, b->mtu), buf;
	if (b->n_order != w->n_slaves)
		return snprintf(buf, len, "%s has %zu slaves, not %zu", w->bond, b->n_order,
				w->n_slaves), buf;
	for (size_t i = 0; i < w->n_slaves; i++) {
		const struct obs_link *s = observed_by_name(o, w->slaves[i]);
		if (strcmp(b->order[i], w->slaves[i]) != 0)
			return snprintf(buf, len, "slave %zu is %s, not %s", i + 1, b->order[i],
					w->slaves[i]), buf;
		if (!s || s->master != b->ifindex)
			return snprintf(buf, len, "%s is not enslaved", w->slaves[i]), buf;
		if (w->mtu && s->mtu != w->mtu)
			return snprintf(buf, len, "%s has MTU %u", w->slaves[i], s->mtu), buf;
	}
	return NULL;
}

static int parse_slaves(struct watch *w, char *list)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (w->n_slaves == BONDD_MAX_SLAVES || strlen(tok) >= IFNAMSIZ)
			return -1;
		snprintf(w->slaves[w->n_slaves++], IFNAMSIZ, "%s", tok);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"bond", required_argument, NULL, 'b'},
		{"slaves", required_argument, NULL, 's'},
		{"mtu", required_argument, NULL, 'm'},
		{"after-new", required_argument, NULL, 'n'},
		{"after-mtu", required_argument, NULL, 'u'},
		{"timeout", required_argument, NULL, 't'},
		{"verbose", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	struct watch w = {0};
	struct observer ob;
	double timeout_ms = 10000;
	char why[128];
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': w.bond = optarg; break;
		case 's':
			if (parse_slaves(&w, optarg) < 0)
				return 64;
			break;
		case 'm': w.mtu = (uint32_t)strtoul(optarg, NULL, 10); break;
		case 'n': w.trigger_new = optarg; break;
		case 'u': w.trigger_mtu = optarg; break;
		case 't': timeout_ms = strtod(optarg, NULL) * 1000; break;
		case 'v': w.verbose = true; break;
		default: return 64;
		}
	}
	if (!w.bond) {
		fprintf(stderr, "usage: bondwatch --bond B --slaves a,b [--mtu N] "
				"[--after-new NAME | --after-mtu NAME] [--timeout S]\n");
		return 64;
	}
	clock_gettime(CLOCK_MONOTONIC, &w.start);
	int err = observer_open(&ob, 0, on_change, &w);
	/* Under churn (sandbox 130) the kernel flags dump after dump
	 * NLM_F_DUMP_INTR: dump again, as bondd does, for up to 10 s. */
	for (int tries = 0; !err; tries++) {
		err = observer_sync(&ob);
		if (err != -EINTR || tries >= 1000)
			break;
		err = 0;
		nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
	}
	if (err) {
		fprintf(stderr, "bondwatch: netlink: %s\n", strerror(-err));
		return 2;
	}
	/* The clock must start when the kernel announces the trigger, not when
	 * this process next gets the CPU: at normal priority bondd, woken by
	 * the same event, may do all its repair first (in a one-CPU guest it
	 * does), and the time would read as ~0.  A real-time priority makes
	 * the kernel run us as soon as an event is queued for us, before
	 * bondd; the price is that our own work on each of bondd's events
	 * is counted in the repair time, which errs on the slow side. */
	struct sched_param sp = {.sched_priority = 50};
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		fprintf(stderr, "bondwatch: warning: no real-time priority (%s); "
				"the clock may start late\n", strerror(errno));
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	w.armed = true;
	if (!w.trigger_new && !w.trigger_mtu) {
		w.started = true;
		w.t0 = start;
	}
	/* Printed once the subscription is live, so a script can start the
	 * disturbance only after this line and no event can be missed. */
	printf("watching\n");
	fflush(stdout);
	for (;;) {
		if (w.started && !missing(&w, &ob.state, why, sizeof(why))) {
			printf("whole after %.3f ms\n", ms_since(&w.t0));
			break;
		}
		double left = timeout_ms - ms_since(&start);
		if (left <= 0) {
			printf("not whole after %.0f ms: %s\n", timeout_ms,
			       w.started ? missing(&w, &ob.state, why, sizeof(why)) : "trigger not seen");
			observer_close(&ob);
			return 1;
		}
		struct pollfd p = {.fd = observer_fd(&ob), .events = POLLIN};
		if (poll(&p, 1, (int)left + 1) > 0 && observer_drain(&ob) < 0)
			break;
	}
	observer_close(&ob);
	return 0;
}
