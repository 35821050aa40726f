/* SPDX-License-Identifier: MIT */
/* The plan as data, and its two printers (plan_report.h). */
#include "plan_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_text.h"
#include "plan.h"

static struct plan_report_bond *find_or_add(struct plan_report *r, const char *name,
					    size_t cap)
{
	for (size_t i = 0; i < r->n_bonds; i++)
		if (strcmp(r->bonds[i].name, name) == 0)
			return &r->bonds[i];
	if (r->n_bonds == cap)
		return NULL;
	struct plan_report_bond *b = &r->bonds[r->n_bonds++];
	snprintf(b->name, sizeof(b->name), "%s", name);
	return b;
}

int plan_report_build(const struct desired *want, const struct action_list *plan,
		      struct plan_report *r)
{
	/* At most one bond per configured bond, action and note. */
	size_t cap = want->n_bonds + plan->n + plan->n_notes;

	memset(r, 0, sizeof(*r));
	if ((cap && !(r->bonds = calloc(cap, sizeof(*r->bonds)))) ||
	    (plan->n && !(r->actions = calloc(plan->n, sizeof(*r->actions))))) {
		plan_report_free(r);
		return -ENOMEM;
	}
	r->plan = plan;
	for (size_t i = 0; i < want->n_bonds; i++)
		find_or_add(r, want->bonds[i].name, cap);
	/* Sized first, so that pointers into the arrays stay put. */
	for (size_t i = 0; i < plan->n; i++)
		find_or_add(r, plan->v[i].bond, cap)->n_actions++;
	for (size_t i = 0; i < plan->n_notes; i++)
		find_or_add(r, plan->notes[i].bond, cap)->n_notes++;
	for (size_t i = 0; i < r->n_bonds; i++) {
		struct plan_report_bond *b = &r->bonds[i];
		if ((b->n_actions && !(b->actions = calloc(b->n_actions, sizeof(*b->actions)))) ||
		    (b->n_notes && !(b->notes = calloc(b->n_notes, sizeof(*b->notes))))) {
			plan_report_free(r);
			return -ENOMEM;
		}
		b->n_actions = b->n_notes = 0;
	}
	for (size_t i = 0; i < plan->n; i++) {
		struct plan_report_bond *b = find_or_add(r, plan->v[i].bond, cap);
		bool disrupts = plan_action_disrupts(&plan->v[i]);
		r->actions[i] = (struct plan_report_action){&plan->v[i], disrupts};
		b->actions[b->n_actions++] = &r->actions[i];
		b->n_disrupting += disrupts;
		r->n_disrupting += disrupts;
	}
	for (size_t i = 0; i < plan->n_notes; i++) {
		struct plan_report_bond *b = find_or_add(r, plan->notes[i].bond, cap);
		b->notes[b->n_notes++] = &plan->notes[i];
	}
	r->n_actions = plan->n;
	r->n_notes = plan->n_notes;
	return 0;
}

void plan_report_free(struct plan_report *r)
{
	for (size_t i = 0; i < r->n_bonds; i++) {
		free(r->bonds[i].actions);
		free(r->bonds[i].notes);
	}
	free(r->bonds);
	free(r->actions);
	memset(r, 0, sizeof(*r));
}

bool plan_report_changes(const struct plan_report *r)
{
	return r->n_actions > 0;
}

/* Actions in the order they would be taken, then the notes: scenario 149
 * compares the lines with a start's "apply:" lines. */
void plan_report_text(const struct plan_report *r, struct strbuf *out)
{
	char desc[256];

	for (size_t i = 0; i < r->n_actions; i++) {
		const struct plan_report_action *pa = &r->actions[i];
		sb_printf(out, "%s: %s%s\n", pa->a->bond, action_describe(pa->a, desc, sizeof(desc)),
			  pa->disrupts ? "  [disrupts traffic]" : "");
	}
	for (size_t i = 0; i < r->n_notes; i++) {
		const struct plan_note *n = &r->plan->notes[i];
		sb_printf(out, "%s: %s: %s\n", n->bond, n->ifname, n->msg);
	}
	if (r->n_actions == 0)
		sb_puts(out, "nothing to do: the kernel matches the configuration\n");
	else
		sb_printf(out, "%zu action%s, %zu disrupting traffic; none taken\n", r->n_actions,
			  r->n_actions == 1 ? "" : "s", r->n_disrupting);
}

static void json_action(struct strbuf *out, const struct plan_report_action *pa)
{
	char desc[256];

	sb_puts(out, "{\"action\":");
	json_string(out, action_kind_name(pa->a->kind));
	sb_puts(out, ",\"interface\":");
	json_string(out, pa->a->ifname);
	sb_puts(out, ",\"reason\":");
	json_string(out, pa->a->why ? pa->a->why : "");
	sb_printf(out, ",\"disrupts_traffic\":%s,\"description\":",
		  pa->disrupts ? "true" : "false");
	json_string(out, action_describe(pa->a, desc, sizeof(desc)));
	sb_puts(out, "}");
}

void plan_report_json(const struct plan_report *r, struct strbuf *out)
{
	sb_printf(out, "{\"plan\":%d,\"changes\":%s,\"actions\":%zu,\"disrupting\":%zu,"
		  "\"bonds\":[", PLAN_REPORT_VERSION, plan_report_changes(r) ? "true" : "false",
		  r->n_actions, r->n_disrupting);
	for (size_t i = 0; i < r->n_bonds; i++) {
		const struct plan_report_bond *b = &r->bonds[i];
		sb_puts(out, i ? ",{\"name\":" : "{\"name\":");
		json_string(out, b->name);
		sb_printf(out, ",\"changes\":%s,\"disrupts_traffic\":%s,\"actions\":[",
			  b->n_actions ? "true" : "false", b->n_disrupting ? "true" : "false");
		for (size_t j = 0; j < b->n_actions; j++) {
			if (j)
				sb_puts(out, ",");
			json_action(out, b->actions[j]);
		}
		sb_puts(out, "],\"notes\":[");
		for (size_t j = 0; j < b->n_notes; j++) {
			sb_puts(out, j ? ",{\"interface\":" : "{\"interface\":");
			json_string(out, b->notes[j]->ifname);
			sb_puts(out, ",\"message\":");
			json_string(out, b->notes[j]->msg);
			sb_puts(out, "}");
		}
		sb_puts(out, "]}");
	}
	sb_puts(out, "]}\n");
}
