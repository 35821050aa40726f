/* SPDX-License-Identifier: MIT */
/* Status replies from the models: which bonds a request selects, and
 * --brief (status_json.c and status_prometheus.c render the rest, all
 * from the bond views of bond_view.c). */
#include "status_render.h"

#include <string.h>

int status_select(const struct status_view *v, const struct status_request *req,
		  const struct desired_bond **sel, size_t *n, const char **unknown)
{
	*n = 0;
	if (req->n_bonds == 0) {
		for (size_t i = 0; i < v->want->n_bonds && *n < STATUS_MAX_BONDS; i++)
			sel[(*n)++] = &v->want->bonds[i];
		return 0;
	}
	for (size_t i = 0; i < req->n_bonds; i++) {
		if (!desired_find_bond(v->want, req->bonds[i])) {
			*unknown = req->bonds[i];
			return -1;
		}
	}
	/* Config order, each once, whatever order the request names them in. */
	for (size_t i = 0; i < v->want->n_bonds; i++) {
		for (size_t j = 0; j < req->n_bonds; j++) {
			if (strcmp(v->want->bonds[i].name, req->bonds[j]) == 0) {
				sel[(*n)++] = &v->want->bonds[i];
				break;
			}
		}
	}
	return 0;
}

const char *status_trial_state_name(enum status_trial_state s)
{
	switch (s) {
	case STRIAL_NONE: return NULL;
	case STRIAL_RUNNING: return "running";
	case STRIAL_CONFIRMED: return "confirmed";
	case STRIAL_ROLLED_BACK: return "rolled-back";
	}
	return NULL;
}

/* Whole seconds until the trial's deadline, rounded up (0 once past). */
static long long trial_left_s(const struct status_view *v)
{
	int64_t left = v->trial.deadline_ms - v->now_ms;
	return left > 0 ? (long long)((left + 999) / 1000) : 0;
}

void render_trial_line(struct strbuf *out, const struct status_view *v, bool ended_too)
{
	const struct status_trial *t = &v->trial;

	if (t->state == STRIAL_RUNNING)
		sb_printf(out, "trial %u running: %lld s left; put back unless confirmed "
			       "(bondd-status --confirm)\n", t->id, trial_left_s(v));
	else if (ended_too && t->state == STRIAL_CONFIRMED)
		sb_printf(out, "trial %u confirmed\n", t->id);
	else if (ended_too && t->state == STRIAL_ROLLED_BACK)
		sb_printf(out, "trial %u rolled back: %s\n", t->id, t->reason);
}

long long status_trial_left_s(const struct status_view *v)
{
	return trial_left_s(v);
}

void render_brief(struct strbuf *out, const struct bond_views *bv)
{
	for (size_t i = 0; i < bv->n; i++) {
		const struct bond_view *b = &bv->v[i];
		sb_printf(out, "%s %s %s mtu %u slaves %zu/%zu up", b->want->name,
			  status_health_name(b->health), b->mode, b->obs ? b->obs->mtu : b->want->mtu,
			  b->slaves_up, b->want->n_slaves);
		if (b->health != HEALTH_OK)
			sb_printf(out, " (%.*s)", BOND_VIEW_SHORT_WHY, b->why);
		/* Why it is not whole, in bondd's and the kernel's words (as
		 * --json shows them to this client: values the kernel hides
		 * from an unprivileged reader masked). */
		char text[BOND_NOTES_TEXT], pub[BOND_NOTES_TEXT];
		if (b->rt && bond_notes_text(&b->rt->notes, text, sizeof(text)))
			sb_printf(out, " [%s]", view_public_text(bv->from, text, pub, sizeof(pub)));
		if (b->rt && bond_failing_text(&b->rt->failing, text, sizeof(text)))
			sb_printf(out, " [failing: %s]",
				  view_public_text(bv->from, text, pub, sizeof(pub)));
		sb_puts(out, "\n");
	}
	render_trial_line(out, bv->from, false);
}
