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
#include <stdbool.h>
#include <stdint.h>

#include "strbuf.h"

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
/*
 * An event's text as a client without CAP_NET_ADMIN may see it: the values
 * of the options the kernel shows only to such a reader (ad_actor_sys_prio,
 * ad_user_port_key, ad_actor_system: bond_fill_info in
 * drivers/net/bonding/bond_netlink.c) become "*", wherever the text names
 * one as "KEY=VALUE", "KEY = VALUE" or "KEY: VALUE".  Used by every output.
 */
void event_public_text(const char *text, char *out, size_t len);
/* One --watch line: "TIME KIND BOND LINK TEXT\n", with "-" for an empty
 * bond or link; the public text unless privileged.  Returns the length
 * written (truncated to len - 1). */
size_t event_format_line(const struct event *e, char *buf, size_t len, bool privileged);
/* One --watch --json line: {"time":..,"kind":..,"bond":..,"link":..,"text":..}
 * and a newline; bond and link null when empty. */
void event_json_line(struct strbuf *out, const struct event *e, bool privileged);

#endif
