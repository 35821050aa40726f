/* SPDX-License-Identifier: MIT */
/* A reload's verdict and what is said of it (reload_verdict.h).  Pure. */
#include "reload_verdict.h"

#include <stdio.h>

enum reload_verdict reload_verdict_of(const struct reload_facts *f)
{
	/* Which configuration would a rollback put back?  Confirm first, or
	 * let the trial end. */
	if (f->trial_runs)
		return RELOAD_REFUSED_TRIAL;
	if (f->parse_failed)
		return f->error_has_line ? RELOAD_REFUSED_ERROR_AT : RELOAD_REFUSED_UNREADABLE;
	/* A file truncated for a rewrite, or left empty by an editor that
	 * crashed, would stop every repair without a word.  At start an empty
	 * file is taken (no bonds run yet). */
	if (f->parsed && f->next_bonds == 0 && f->running_bonds > 0)
		return RELOAD_REFUSED_NO_BONDS;
	/* Out of memory while matching counts as a conflict: the entries'
	 * links are not known, and the running configuration stays. */
	if (f->conflicts != 0)
		return RELOAD_REFUSED_CONFLICT;
	if (f->out_of_memory)
		return RELOAD_REFUSED_NOMEM;
	return RELOAD_ACCEPT;
}

struct reload_effects reload_effects_of(enum reload_verdict v)
{
	switch (v) {
	case RELOAD_ACCEPT:
		return (struct reload_effects){.event = true, .ready = true};
	case RELOAD_REFUSED_TRIAL:
		/* refused before RELOADING=1 was sent: no READY=1 owed; the
		 * running trial already shows in STATUS= */
		return (struct reload_effects){.refused = true, .event = true,
					       .message_id = true};
	case RELOAD_REFUSED_ERROR_AT:
	case RELOAD_REFUSED_UNREADABLE:
	case RELOAD_REFUSED_NO_BONDS:
		return (struct reload_effects){.refused = true, .event = true, .status_line = true,
					       .ready = true, .message_id = true};
	case RELOAD_REFUSED_CONFLICT:
		return (struct reload_effects){.refused = true, .event = true, .status_line = true,
					       .ready = true};
	case RELOAD_REFUSED_NOMEM:
		/* nothing the file did: said in the log and to the client only */
		return (struct reload_effects){.refused = true, .ready = true};
	}
	return (struct reload_effects){.refused = true, .ready = true};
}

void reload_refusal_text(const struct reload_refusal *r, const char *path, char *out,
			 size_t len)
{
	switch (r->verdict) {
	case RELOAD_REFUSED_ERROR_AT:
		snprintf(out, len, "last reload refused: error at %s", r->where);
		return;
	case RELOAD_REFUSED_UNREADABLE:
		snprintf(out, len, "last reload refused: %s cannot be read", path);
		return;
	case RELOAD_REFUSED_NO_BONDS:
		snprintf(out, len, "last reload refused: %s defines no bonds, still managing %zu",
			 path, r->managing);
		return;
	case RELOAD_REFUSED_CONFLICT:
		snprintf(out, len, "last reload refused: one link named by two slave entries");
		return;
	case RELOAD_ACCEPT:
	case RELOAD_REFUSED_TRIAL:  /* (the trial shows in STATUS= itself) */
	case RELOAD_REFUSED_NOMEM:
		break;
	}
	if (len)
		out[0] = '\0';
}
