/* SPDX-License-Identifier: MIT */
/* What sending a plan did, and what each outcome does and says
 * (apply_report.h).  Pure. */
#include "apply_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "plan.h"

void apply_report_free(struct apply_report *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

void apply_context(const struct action *a, const struct obs_link *l,
		   const struct desired_bond *b, char *buf, size_t len)
{
	buf[0] = '\0';
	/* The plan set the bond's MTU before any enslave. */
	if (a->kind == ACT_ENSLAVE && l && b && l->mtu != b->mtu)
		snprintf(buf, len, " (enslaving sets %s to the bond's MTU %u; it is at %u)",
			 a->ifname, b->mtu, l->mtu);
	else if (a->kind == ACT_SET_MTU && l && l->max_mtu && l->max_mtu < a->mtu)
		snprintf(buf, len, " (the device's max MTU is %u)", l->max_mtu);
}

static void take_done(const struct action *a, struct holds *h, struct applied_said *say)
{
	char desc[256], key[PLAN_KEY_SIZE];

	action_describe(a, desc, sizeof(desc));
	/* "apply:" marks every kernel write, so tests and admins can tell a
	 * quiet pass from a busy one. */
	*say = (struct applied_said){.line = true, .level = LOG_NOTICE, .repair = true,
				     .event = true, .event_kind = EV_REPAIR};
	snprintf(say->text, sizeof(say->text), "%s: apply: %s", a->bond, desc);
	snprintf(say->event_text, sizeof(say->event_text), "%s", desc);
	/* A link-down is only the first step of an enslave and shares its
	 * key: its success says nothing of the enslave's, and forgetting the
	 * enslave's failures here retried a refused enslave every 100 ms for
	 * ever. */
	if (a->kind != ACT_LINK_DOWN)
		holds_succeed(h, plan_hold_key(a, OPT__COUNT, key, sizeof(key)));
	if (a->kind == ACT_SET_OPTS) /* every option in it was taken */
		for (int id = 0; id < OPT__COUNT; id++)
			if (bond_settings_has(&a->opts, (enum bond_option_id)id))
				holds_succeed(h, plan_hold_key(a, id, key, sizeof(key)));
}

static void take_failed(const struct action *a, const struct applied *r, const char *context,
		    struct holds *h, struct bond_runtime *rt, struct applied_said *say)
{
	char desc[256], key[PLAN_KEY_SIZE], full[ACTION_FAILURE_TEXT], next[IFNAMSIZ + 64];

	action_describe(a, desc, sizeof(desc));
	*say = (struct applied_said){.line = true, .level = LOG_ERR, .event = true,
				     .event_kind = EV_ERROR};
	plan_hold_key(a, r->failed_opt, key, sizeof(key));
	uint64_t backoff = holds_fail(h, key, r->mono_ms);
	if (r->meaning.kind == APPLY_ERR_IN_USE)
		holds_refuse(h, key);
	struct action_failure f = {.err = -r->err,
				   .config_error = r->meaning.kind == APPLY_ERR_CONFIG,
				   .since_ms = r->wall_ms};
	snprintf(f.key, sizeof(f.key), "%s", key);
	snprintf(f.ifname, sizeof(f.ifname), "%s", a->ifname);
	snprintf(f.words, sizeof(f.words), "%s", r->words);
	snprintf(f.context, sizeof(f.context), "%s", context);
	holds_set_error(h, key, a->bond, &f);
	action_failure_text(&f, full, sizeof(full));
	/* What happens next, the same words in the log and the event. */
	if (r->meaning.kind == APPLY_ERR_IN_USE)
		snprintf(next, sizeof(next), "not tried again until %s is re-created or bondd reloads",
			 a->ifname);
	else
		snprintf(next, sizeof(next), "retrying in %llu ms", (unsigned long long)backoff);
	snprintf(say->text, sizeof(say->text), "%s: %s (%s)", a->bond, full, next);
	if (rt) {
		rt->errors++;
		rt->last_error_ms = r->wall_ms;
		snprintf(rt->last_error, sizeof(rt->last_error), "%s", full);
	}
	/* What happens next before the kernel's words: an event keeps 200
	 * bytes, and a long message would cut it off. */
	snprintf(say->event_text, sizeof(say->event_text), "%s failed, %s: %s%s", desc, next,
		 r->words, context);
	if (r->restore == RESTORE_DONE) {
		say->restore_line = true;
		say->restore_level = LOG_INFO;
		snprintf(say->restore_text, sizeof(say->restore_text),
			 "%s: apply: set %s up again (its enslave failed)", r->restore_bond,
			 a->ifname);
	} else if (r->restore == RESTORE_FAILED) {
		say->restore_line = true;
		say->restore_level = LOG_ERR;
		snprintf(say->restore_text, sizeof(say->restore_text), "%s: %s: %s", r->restore_bond,
			 a->ifname, r->restore_words);
	}
}

void applied_take(const struct action *a, const struct applied *r, const char *context,
		  struct holds *h, struct bond_runtime *rt, struct applied_said *say)
{
	char desc[256];

	*say = (struct applied_said){0};
	if (r->kind == APPLIED_SKIPPED)
		return;
	if (rt)
		rt->actions++;
	if (r->kind == APPLIED_DONE) {
		take_done(a, h, say);
		return;
	}
	if (r->meaning.kind == APPLY_ERR_GONE) {
		/* Gone between the observation and the request: not a
		 * refusal, the next pass sees the truth. */
		action_describe(a, desc, sizeof(desc));
		*say = (struct applied_said){.line = true, .level = LOG_DEBUG};
		snprintf(say->text, sizeof(say->text), "%s: %s: %s; planning again", a->bond, desc,
			 r->words);
		return;
	}
	take_failed(a, r, context, h, rt, say);
}
