/* SPDX-License-Identifier: MIT */
/*
 * The status socket's protocol, shared by bondd and bondd-status
 * (documented in bondd(8), PROTOCOL).
 *
 * A request is one line of printable ASCII ending in "\n", at most
 * STATUS_MAX_REQUEST bytes with the newline: a verb and bond names,
 * separated by spaces.  Every reply starts with one header line:
 *
 *	bondd/1 ok STATUS LENGTH\n      then exactly LENGTH bytes of body
 *	bondd/1 ok STATUS stream\n      (watch) then event lines until closed
 *	bondd/1 error CODE MESSAGE\n    no body
 *
 * STATUS is the health of the bonds asked about (enum status_health), so a
 * client learns it without parsing the body.  A connection may carry any
 * number of requests, one at a time; a client that shuts its sending side
 * after its requests still gets every reply (a last request may lack its
 * "\n" then).  A watching client's sending side is shut by the server.
 */
#ifndef BONDD_STATUS_PROTO_H
#define BONDD_STATUS_PROTO_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#define STATUS_PROTO_TAG "bondd/1"
#define STATUS_MAX_REQUEST 1024
#define STATUS_MAX_NAMES 64
/* try SECONDS: the bounds (the daemon's trial.h holds the same). */
#define STATUS_TRY_MIN_S 1
#define STATUS_TRY_MAX_S 3600

enum status_verb {
	SV_VERSION,    /* body: "bondd VERSION protocol 1\n" */
	SV_PROC,       /* /proc/net/bonding text, as the kernel shows it to the client */
	SV_JSON,       /* one JSON document */
	SV_BRIEF,      /* one line per bond */
	SV_PROMETHEUS, /* Prometheus text exposition format */
	SV_HEALTH,     /* empty body: the header's STATUS only */
	SV_WATCH,      /* a stream of event lines */
	SV_LINKCHECK,  /* a fresh link check, then its per-slave table (linkcheck.h) */
	SV_RELOAD,     /* root or bondd's own user: apply the config file again,
			* answered once applied (body: what was done) or refused
			* (error 422 and why) */
	SV_WATCH_JSON, /* a stream of events, one JSON object per line */
	SV_NEIGHBOURS, /* each slave's LLDP neighbour, one line a slave (lldp_render.h) */
	SV_EXPLAIN,    /* each bond on one screen: health, findings, slaves, link
			* check grid (status_explain.c) */
	/* A reload on trial (bondd(8), RELOAD ON TRIAL); the same clients as
	 * reload only. */
	SV_TRY,        /* "try SECONDS": apply the file as reload does, keep the
			* configuration before it, and put that back unless
			* confirmed within SECONDS (1..3600); answered once
			* applied (body: the trial's number and deadline) */
	SV_CONFIRM,    /* keep the configuration on trial (error 409: none runs) */
	SV_TRIAL_WAIT, /* "trial-wait N": answered when trial N ends: ok when
			* confirmed, error 410 when put back */
	SV_SETTLE,     /* a barrier: answered (as health) once bondd has read and
			* handled every kernel event queued when it got it */
};

/* Health, worst wins; also bondd-status's exit status. */
enum status_health {
	HEALTH_OK = 0,       /* up, every slave enslaved in order, MII up, MTU right */
	HEALTH_DEGRADED = 1, /* up, but something is missing or wrong */
	HEALTH_DOWN = 2,     /* missing, administratively down, or no carrier */
};

/* Error codes, after HTTP's where one fits. */
enum status_error {
	SE_BAD_REQUEST = 400,
	SE_FORBIDDEN = 403,
	SE_UNKNOWN_BOND = 404,
	SE_TOO_LONG = 413,
	SE_CONFLICT = 409,    /* a trial runs (reload, try), or none does (confirm) */
	SE_ROLLED_BACK = 410, /* trial-wait: the trial was put back */
	SE_REFUSED = 422,     /* reload: the file has errors; the running config stays */
	SE_BUSY = 503,
	SE_INTERNAL = 500,
};

struct status_request {
	enum status_verb verb;
	char bonds[STATUS_MAX_NAMES][IFNAMSIZ]; /* none: every managed bond */
	size_t n_bonds;
	uint32_t arg;  /* SV_TRY: the seconds; SV_TRIAL_WAIT: the trial's number */
};

/*
 * Parses one request line (without its "\n"; a trailing "\r" is allowed).
 * Returns 0, or -1 with a message in err for an error reply.
 */
int status_request_parse(const char *line, size_t len, struct status_request *req,
			 char *err, size_t errlen);
const char *status_health_name(enum status_health h); /* "healthy", "degraded", "down" */

#endif
