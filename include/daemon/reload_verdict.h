/* SPDX-License-Identifier: MIT */
/*
 * A reload's verdict, decided once (reload_verdict.c, pure) from the facts
 * the reload gathered, and what its one reporter (daemon.c, reload_report)
 * writes for it: the log, the event, the client's answer, STATUS= and
 * READY=1.  The reload gathers its facts in order (a running trial, the
 * file, its bonds, the slave entries' links, memory) and asks for the
 * verdict after each step: a fact not gathered yet objects to nothing, so
 * the first refusal in that order wins, and nothing after it is done.
 */
#ifndef BONDD_RELOAD_VERDICT_H
#define BONDD_RELOAD_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

enum reload_verdict {
	RELOAD_ACCEPT,
	RELOAD_REFUSED_TRIAL,      /* a plain reload while a trial runs */
	RELOAD_REFUSED_ERROR_AT,   /* the file has an error at FILE:LINE */
	RELOAD_REFUSED_UNREADABLE, /* ... an error with no line: not read at all */
	RELOAD_REFUSED_NO_BONDS,   /* it defines no bond while bondd manages some */
	RELOAD_REFUSED_CONFLICT,   /* one link named by two slave entries */
	RELOAD_REFUSED_NOMEM,      /* what the swap needs could not be allocated */
};

/* What a reload found; zero is "nothing found yet". */
struct reload_facts {
	bool trial_runs;          /* a trial runs, and this is a plain reload */
	bool parsed;              /* the file was read and parsed without error */
	bool parse_failed;        /* ... or it had an error */
	bool error_has_line;      /* the first error names a line of a file */
	size_t next_bonds;        /* bonds the parsed file defines */
	size_t running_bonds;     /* bonds bondd manages now */
	int conflicts;            /* identity_refresh: entries in conflict, or -ENOMEM */
	bool out_of_memory;       /* keeping the running state or the records failed */
};

enum reload_verdict reload_verdict_of(const struct reload_facts *f);

/* What the reporter writes for a verdict, besides the log line and the
 * client's answer that every verdict has. */
struct reload_effects {
	bool refused;            /* the configuration was not taken */
	bool event;              /* an EV_CONFIG event (the reload metrics) */
	bool status_line;        /* "last reload refused: ..." kept for STATUS= */
	bool ready;              /* READY=1 after RELOADING=1 */
	bool message_id;         /* its log line carries LOG_MSGID_RELOAD_REFUSED */
};

struct reload_effects reload_effects_of(enum reload_verdict v);

/* The last refusal that STATUS= names until a configuration is taken
 * (reload_effects.status_line). */
struct reload_refusal {
	enum reload_verdict verdict;   /* RELOAD_ACCEPT: none */
	char where[320];               /* RELOAD_REFUSED_ERROR_AT: FILE:LINE */
	size_t managing;               /* RELOAD_REFUSED_NO_BONDS: bonds still managed */
};

/* "last reload refused: ..." for STATUS=, "" when none: where an error is,
 * never what it says (STATUS= is for everyone to read; the file may not
 * be).  path: the configuration file. */
void reload_refusal_text(const struct reload_refusal *r, const char *path, char *out,
			 size_t len);

#endif
