/* SPDX-License-Identifier: MIT */
#include "event_log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

const char *event_kind_name(enum event_kind k)
{
	static const char *const names[] = {
		[EV_DOWN] = "down",   [EV_UP] = "up",         [EV_GONE] = "gone",
		[EV_DRIFT] = "drift", [EV_REPAIR] = "repair", [EV_ERROR] = "error",
		[EV_CONFIG] = "config",
	};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) && names[k] ? names[k] : "?";
}

void event_log_add(struct event_log *log, const struct event *e)
{
	log->v[log->total % EVENT_LOG_SIZE] = *e;
	log->total++;
}

size_t event_log_count(const struct event_log *log)
{
	return log->total < EVENT_LOG_SIZE ? (size_t)log->total : EVENT_LOG_SIZE;
}

const struct event *event_log_at(const struct event_log *log, size_t i)
{
	uint64_t first = log->total - event_log_count(log);
	return &log->v[(first + i) % EVENT_LOG_SIZE];
}

const char *event_time_text(int64_t wall_ms, char buf[32])
{
	time_t secs = (time_t)(wall_ms / 1000);
	struct tm tm;

	if (!gmtime_r(&secs, &tm)) {
		snprintf(buf, 32, "?");
		return buf;
	}
	/* Formatted wide, then cut: the compiler cannot know tm's ranges. */
	char wide[96];
	snprintf(wide, sizeof(wide), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (int)(wall_ms % 1000));
	size_t n = strnlen(wide, 31);
	memcpy(buf, wide, n);
	buf[n] = '\0';
	return buf;
}

size_t event_format_line(const struct event *e, char *buf, size_t len)
{
	char t[32];
	int n = snprintf(buf, len, "%s %s %s %s %s\n", event_time_text(e->wall_ms, t),
			 event_kind_name(e->kind), e->bond[0] ? e->bond : "-",
			 e->link[0] ? e->link : "-", e->text);
	if (n < 0)
		return 0;
	if ((size_t)n >= len) {
		/* Truncated: still one line. */
		if (len >= 2)
			buf[len - 2] = '\n';
		return len ? len - 1 : 0;
	}
	return (size_t)n;
}
