/* SPDX-License-Identifier: MIT */
#include "event_log.h"
#include "json_text.h"

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

/* The options whose values the kernel shows only with CAP_NET_ADMIN. */
static const char *const hidden_keys[] = {"ad_actor_sys_prio", "ad_user_port_key",
					  "ad_actor_system"};

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* Length of a hidden key starting at s (at a word boundary), 0 if none. */
static size_t hidden_key_at(const char *text, const char *s)
{
	if (s > text && is_word_char(s[-1]))
		return 0;
	for (size_t k = 0; k < sizeof(hidden_keys) / sizeof(hidden_keys[0]); k++) {
		size_t n = strlen(hidden_keys[k]);
		if (strncmp(s, hidden_keys[k], n) == 0 && !is_word_char(s[n]))
			return n;
	}
	return 0;
}

void event_public_text(const char *text, char *out, size_t len)
{
	size_t o = 0;

	if (!len)
		return;
	for (const char *s = text; *s && o + 1 < len;) {
		size_t k = hidden_key_at(text, s);
		if (!k) {
			out[o++] = *s++;
			continue;
		}
		/* The key, then its separator, then the value masked. */
		const char *p = s + k;
		while (*p == ' ')
			p++;
		if (*p != '=' && *p != ':') {
			for (size_t i = 0; i < k && o + 1 < len; i++)
				out[o++] = *s++;
			continue;
		}
		p++;
		while (*p == ' ' || *p == '"' || *p == '\'')
			p++;
		for (; s < p && o + 1 < len; s++)
			out[o++] = *s;
		while (*p && *p != ' ' && *p != ',' && *p != ';' && *p != ')' && *p != '"' &&
		       *p != '\'')
			p++;
		if (o + 1 < len)
			out[o++] = '*';
		s = p;
	}
	out[o] = '\0';
}

size_t event_format_line(const struct event *e, char *buf, size_t len, bool privileged)
{
	char t[32], pub[sizeof(e->text)];
	if (!privileged)
		event_public_text(e->text, pub, sizeof(pub));
	int n = snprintf(buf, len, "%s %s %s %s %s\n", event_time_text(e->wall_ms, t),
			 event_kind_name(e->kind), e->bond[0] ? e->bond : "-",
			 e->link[0] ? e->link : "-", privileged ? e->text : pub);
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

static void json_name_or_null(struct strbuf *out, const char *name)
{
	if (name[0])
		json_string(out, name);
	else
		sb_puts(out, "null");
}

void event_json_line(struct strbuf *out, const struct event *e, bool privileged)
{
	char t[32], pub[sizeof(e->text)];

	if (!privileged)
		event_public_text(e->text, pub, sizeof(pub));
	sb_puts(out, "{\"time\":");
	json_string(out, event_time_text(e->wall_ms, t));
	sb_puts(out, ",\"kind\":");
	json_string(out, event_kind_name(e->kind));
	sb_puts(out, ",\"bond\":");
	json_name_or_null(out, e->bond);
	sb_puts(out, ",\"link\":");
	json_name_or_null(out, e->link);
	sb_puts(out, ",\"text\":");
	json_string(out, privileged ? e->text : pub);
	sb_puts(out, "}\n");
}
