/* SPDX-License-Identifier: MIT */
/* One plan sent to the kernel, action by action; what each kernel error
 * means is decided by apply_error_meaning (plan/apply_error.h). */
#include "daemon_parts.h"
#include "apply_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

/*
 * bondd set `slave` admin-down to enslave it (earlier in this plan) and the
 * enslave failed: put it back up, so a link that never became a slave is
 * left as it was found.
 */
static void restore_admin_up(struct daemon *d, const struct action *failed, size_t at)
{
	char err[320];

	for (size_t i = at; i-- > 0;) {
		const struct action *a = &d->plan.v[i];
		if (a->kind != ACT_LINK_DOWN || strcmp(a->ifname, failed->ifname) != 0)
			continue;
		struct action up = *a;
		up.kind = ACT_LINK_UP;
		up.why = "restore";
		if (executor_run(&d->ex, &up, err, sizeof(err)) == 0)
			log_info("%s: apply: set %s up again (its enslave failed)", a->bond,
				 a->ifname);
		else
			log_err("%s: %s: %s", a->bond, a->ifname, err);
		return;
	}
}

/* Context the kernel does not give: what enslaving asked of the link. */
static void enslave_context(const struct daemon *d, const struct action *a, char *buf,
			    size_t len)
{
	const struct obs_link *l = observed_by_name(&d->ob.state, a->ifname);
	/* The plan set the bond's MTU before any enslave. */
	const struct desired_bond *b = desired_find_bond(&d->want, a->bond);

	buf[0] = '\0';
	if (a->kind == ACT_ENSLAVE && l && b && l->mtu != b->mtu)
		snprintf(buf, len, " (enslaving sets %s to the bond's MTU %u; it is at %u)",
			 a->ifname, b->mtu, l->mtu);
	else if (a->kind == ACT_SET_MTU && l && l->max_mtu && l->max_mtu < a->mtu)
		snprintf(buf, len, " (the device's max MTU is %u)", l->max_mtu);
}

/* What is backing off for each bond, with the kernel's words: status. */
void report_failing(struct daemon *d)
{
	for (size_t i = 0; i < d->n_bonds; i++) {
		struct bond_runtime *rt = &d->bonds[i];
		char text[sizeof(rt->failing)] = "";
		size_t used = 0;
		for (size_t j = 0; j < d->holds.n; j++) {
			const struct hold *h = &d->holds.v[j];
			if (strcmp(h->bond, rt->name) != 0 || used >= sizeof(text))
				continue;
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s",
						 used ? "; " : "", h->error);
		}
		/* (stored when it changes: after a status snapshot's
		 * copy-on-write fork, each bond's store is a page fault) */
		if (strcmp(rt->failing, text) != 0)
			memcpy(rt->failing, text, sizeof(text));
	}
}

void execute_plan(struct daemon *d)
{
	/* Bonds whose plan stopped at a failure; at most one per action. */
	char (*failed)[IFNAMSIZ] = calloc(d->plan.n ? d->plan.n : 1, sizeof(*failed));
	size_t n_failed = 0;
	char desc[256], err[224], ctx[72], key[PLAN_KEY_SIZE];

	if (!failed) {
		log_err("out of memory: plan of %zu actions not applied; planning again", d->plan.n);
		return;
	}

	/* Where each route rewrite goes, from the kernel's own list. */
	executor_order_routes(&d->ex, &d->plan);

	for (size_t i = 0; i < d->plan.n; i++) {
		const struct action *a = &d->plan.v[i];
		bool skip = false;
		/* After a failure the rest of that bond's plan assumed it
		 * succeeded: drop it and plan again from what is real. */
		for (size_t j = 0; j < n_failed; j++)
			skip |= strcmp(failed[j], a->bond) == 0;
		if (skip)
			continue;
		action_describe(a, desc, sizeof(desc));
		struct bond_runtime *rt = bond_rt(d, a->bond);
		uint64_t t0 = clock_mono_us();
		int ret = executor_run(&d->ex, a, err, sizeof(err));
		log_debug("%s took %llu us", action_kind_name(a->kind),
			  (unsigned long long)(clock_mono_us() - t0));
		breather_check(&d->breather);
		if (rt)
			rt->actions++;
		if (ret == 0) {
			/* "apply:" marks every kernel write, so tests and admins
			 * can tell a quiet pass from a busy one. */
			log_meta(LOG_NOTICE, &(struct log_meta){a->bond, a->ifname, LOG_MSGID_REPAIR},
				 "%s: apply: %s", a->bond, desc);
			record(d, EV_REPAIR, a->bond, a->ifname, "%s", desc);
			/* A link-down is only the first step of an enslave and
			 * shares its key: its success says nothing of the
			 * enslave's, and forgetting the enslave's failures here
			 * retried a refused enslave every 100 ms for ever. */
			if (a->kind != ACT_LINK_DOWN)
				holds_succeed(&d->holds,
					      plan_hold_key(a, OPT__COUNT, key, sizeof(key)));
			if (a->kind == ACT_SET_OPTS) /* every option in it was taken */
				for (int id = 0; id < OPT__COUNT; id++)
					if (bond_settings_has(&a->opts, (enum bond_option_id)id))
						holds_succeed(&d->holds,
							      plan_hold_key(a, id, key, sizeof(key)));
			continue;
		}
		struct apply_error meaning = apply_error_meaning(a, ret);
		if (meaning.kind == APPLY_ERR_GONE) {
			log_debug("%s: %s: %s; planning again", a->bond, desc, err);
			snprintf(failed[n_failed++], IFNAMSIZ, "%s", a->bond);
			continue;
		}
		enslave_context(d, a, ctx, sizeof(ctx));
		plan_hold_key(a, d->ex.failed_opt, key, sizeof(key));
		uint64_t backoff = holds_fail(&d->holds, key, clock_mono_ms());
		if (meaning.kind == APPLY_ERR_IN_USE)
			holds_refuse(&d->holds, key);
		char full[sizeof(rt->last_error)];
		snprintf(full, sizeof(full), "%s%s: %s%s",
			 meaning.kind == APPLY_ERR_CONFIG ? "configuration error: " : "",
			 a->ifname, err, ctx);
		holds_set_error(&d->holds, key, a->bond, full);
		/* What happens next, the same words in the log and the record. */
		char next[IFNAMSIZ + 64];
		if (meaning.kind == APPLY_ERR_IN_USE)
			snprintf(next, sizeof(next),
				 "not tried again until %s is re-created or bondd reloads", a->ifname);
		else
			snprintf(next, sizeof(next), "retrying in %llu ms",
				 (unsigned long long)backoff);
		log_err("%s: %s (%s)", a->bond, full, next);
		if (rt) {
			rt->errors++;
			rt->last_error_ms = clock_wall_ms();
			snprintf(rt->last_error, sizeof(rt->last_error), "%s", full);
		}
		/* What happens next before the kernel's words: an event keeps 200
		 * bytes, and a long message would cut it off. */
		record(d, EV_ERROR, a->bond, a->ifname, "%s failed, %s: %s%s", desc, next, err, ctx);
		if (meaning.restore_up)
			restore_admin_up(d, a, i);
		if (meaning.stops_bond)
			snprintf(failed[n_failed++], IFNAMSIZ, "%s", a->bond);
	}
	free(failed);
	report_failing(d);
}
