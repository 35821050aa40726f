/* SPDX-License-Identifier: MIT */
/* The status protocol's request parser: everything a client sends passes
 * here first, so it trusts nothing (fuzzed by tests/fuzz/fuzz_request.c). */
#include "status_proto.h"

#include <stdio.h>
#include <string.h>

static const char *const verbs[] = {
	[SV_VERSION] = "version", [SV_PROC] = "proc",     [SV_JSON] = "json",
	[SV_BRIEF] = "brief",     [SV_PROMETHEUS] = "prometheus",
	[SV_HEALTH] = "health",   [SV_WATCH] = "watch",     [SV_RELOAD] = "reload",
	[SV_LINKCHECK] = "linkcheck", [SV_WATCH_JSON] = "watch-json",
	[SV_NEIGHBOURS] = "neighbours", [SV_EXPLAIN] = "explain",
	[SV_TRY] = "try", [SV_CONFIRM] = "confirm", [SV_TRIAL_WAIT] = "trial-wait",
	[SV_SETTLE] = "settle",
};

const char *status_health_name(enum status_health h)
{
	switch (h) {
	case HEALTH_OK: return "healthy";
	case HEALTH_DEGRADED: return "degraded";
	case HEALTH_DOWN: return "down";
	}
	return "?";
}

/* An interface name the kernel would accept (dev_valid_name). */
static int valid_ifname(const char *s, size_t n)
{
	if (n == 0 || n >= IFNAMSIZ)
		return 0;
	if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || s[i] == ':')
			return 0;
	return 1;
}

/* A decimal number in [min, max], digits only (no sign, no leading zero
 * but "0" itself): 0, or -1. */
static int parse_number(const char *s, size_t n, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (n == 0 || n > 10 || (n > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v < min || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int status_request_parse(const char *line, size_t len, struct status_request *req,
			 char *err, size_t errlen)
{
	memset(req, 0, sizeof(*req));
	if (len > 0 && line[len - 1] == '\r')
		len--;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c < 0x20 || c > 0x7e) {
			snprintf(err, errlen, "the request holds a byte 0x%02x at offset %zu: "
					      "only printable ASCII is allowed", c, i);
			return -1;
		}
	}

	size_t pos = 0, word = 0;
	while (pos < len) {
		while (pos < len && line[pos] == ' ')
			pos++;
		if (pos == len)
			break;
		size_t start = pos;
		while (pos < len && line[pos] != ' ')
			pos++;
		const char *w = line + start;
		size_t n = pos - start;
		if (word++ == 0) {
			size_t v;
			for (v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++)
				if (strlen(verbs[v]) == n && memcmp(verbs[v], w, n) == 0)
					break;
			if (v == sizeof(verbs) / sizeof(verbs[0])) {
				snprintf(err, errlen, "unknown request \"%.*s\" (known: version, proc, "
						      "json, brief, prometheus, health, watch, "
						      "watch-json, reload, linkcheck, neighbours, explain, "
						      "try, confirm, trial-wait, settle)",
					 n > 32 ? 32 : (int)n, w);
				return -1;
			}
			req->verb = (enum status_verb)v;
			continue;
		}
		if (req->verb == SV_TRY || req->verb == SV_TRIAL_WAIT) {
			if (word > 2 || parse_number(w, n, req->verb == SV_TRY ? STATUS_TRY_MIN_S : 1,
						     req->verb == SV_TRY ? STATUS_TRY_MAX_S : UINT32_MAX,
						     &req->arg) < 0) {
				if (req->verb == SV_TRY)
					snprintf(err, errlen, "\"try\" takes one number of seconds, "
							      "%d to %d", STATUS_TRY_MIN_S, STATUS_TRY_MAX_S);
				else
					snprintf(err, errlen, "\"trial-wait\" takes one trial number");
				return -1;
			}
			continue;
		}
		if (req->verb == SV_VERSION || req->verb == SV_WATCH || req->verb == SV_WATCH_JSON ||
		    req->verb == SV_RELOAD || req->verb == SV_CONFIRM || req->verb == SV_SETTLE) {
			snprintf(err, errlen, "\"%s\" takes no arguments", verbs[req->verb]);
			return -1;
		}
		if (!valid_ifname(w, n)) {
			snprintf(err, errlen, "\"%.*s\" is not an interface name",
				 n > 32 ? 32 : (int)n, w);
			return -1;
		}
		if (req->n_bonds == STATUS_MAX_NAMES) {
			snprintf(err, errlen, "more than %d bond names", STATUS_MAX_NAMES);
			return -1;
		}
		memcpy(req->bonds[req->n_bonds], w, n);
		req->bonds[req->n_bonds][n] = '\0';
		req->n_bonds++;
	}
	if (word == 0) {
		snprintf(err, errlen, "empty request");
		return -1;
	}
	if ((req->verb == SV_TRY || req->verb == SV_TRIAL_WAIT) && word < 2) {
		snprintf(err, errlen, "\"%s\" needs a number (%s)", verbs[req->verb],
			 req->verb == SV_TRY ? "seconds" : "the trial's");
		return -1;
	}
	return 0;
}
