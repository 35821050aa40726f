/* SPDX-License-Identifier: MIT */
/*
 * What bondd saw and did, with wall-clock times: carrier changes, drift
 * found, repairs made, kernel errors.  A fixed ring of the most recent
 * events feeds `bondd-status --json` (per bond) and `--watch` (as they
 * happen).  Plain data, no I/O.
 */
#ifndef BONDD_EVENT_LOG_H
#define BONDD_EVENT_LOG_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

enum event_kind {
	EV_DOWN,     /* a configured link lost carrier */
	EV_UP,       /* ... and got it back */
	EV_GONE,     /* a configured link disappeared */
	EV_DRIFT,    /* the kernel differs from the config */
	EV_REPAIR,   /* a kernel request that put something back */
	EV_ERROR,    /* a kernel request that failed */
	EV_CONFIG,   /* started, reloaded, or refused a reload */
};

struct event {
	int64_t wall_ms;          /* CLOCK_REALTIME, milliseconds */
	enum event_kind kind;
	char bond[IFNAMSIZ];      /* "" when not about one bond */
	char link[IFNAMSIZ];      /* the link concerned, or "" */
	char text[200];
};

#define EVENT_LOG_SIZE 256

struct event_log {
	struct event v[EVENT_LOG_SIZE];
	uint64_t total;           /* events ever added; v[total % SIZE] is next */
};

const char *event_kind_name(enum event_kind k); /* "down", "repair", ... */
/* Adds a copy of e; the oldest event falls out when the ring is full. */
void event_log_add(struct event_log *log, const struct event *e);
/* How many events are held, and the i-th oldest of them. */
size_t event_log_count(const struct event_log *log);
const struct event *event_log_at(const struct event_log *log, size_t i);
/* "2026-11-23T10:04:05.120Z" (UTC) into buf[25]. */
const char *event_time_text(int64_t wall_ms, char buf[32]);
/* One --watch line: "TIME KIND BOND LINK TEXT\n", with "-" for an empty
 * bond or link.  Returns the length written (truncated to len - 1). */
size_t event_format_line(const struct event *e, char *buf, size_t len);

#endif
