/* SPDX-License-Identifier: MIT */
/* bondd --check --plan's words from a picture of the kernel (plan_preview.h):
 * which link each entry names, and the plan a start would make.  Pure but
 * for writing to the FILEs it is given. */
#include "plan_preview.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "observed.h"
#include "plan.h"
#include "plan_report.h"

/* One entry's link now, as --check --plan says it. */
static void say_match(FILE *out, const struct desired_bond *b, const struct desired_slave *ds,
		      const struct identity_match *m, const struct observed *obs)
{
	const struct obs_link *l = observed_by_index(obs, m->ifindex);

	if (m->state == ID_MISSING) {
		fprintf(out, "%s: slave %s matches no link now (a missing slave)\n", b->name,
			ds->sel.text);
		return;
	}
	if (m->state == ID_AMBIGUOUS) {
		fprintf(out, "%s: slave %s matches %s and %s: none is taken\n", b->name,
			ds->sel.text, m->name, m->other);
		return;
	}
	if (m->state != ID_FOUND || !l)
		return; /* ID_CONFLICT: said as an error */
	/* A plain name that is the link's own name says nothing new. */
	if (ds->sel.kind == SEL_NAME && strcmp(ds->sel.text, l->name) == 0)
		return;
	fprintf(out, "%s: slave %s is %s (ifindex %d", b->name, ds->sel.text, l->name, l->ifindex);
	if (l->has_perm_addr)
		fprintf(out, ", permanent address %02x:%02x:%02x:%02x:%02x:%02x", l->perm_addr[0],
			l->perm_addr[1], l->perm_addr[2], l->perm_addr[3], l->perm_addr[4],
			l->perm_addr[5]);
	if (l->id_path[0])
		fprintf(out, ", path %s/port%d", l->id_path, l->dev_port < 0 ? 0 : l->dev_port);
	fprintf(out, ")\n");
}

int identity_preview_of(struct desired *want, const struct observed *obs, FILE *out,
			FILE *err_out, bool show)
{
	struct identity_match *m = identity_match_new(want, obs->links, obs->n_links);
	int conflicts = 0;
	char text[1024];

	if (!m)
		return -ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++, k++) {
			if (m[k].state == ID_CONFLICT) {
				conflicts++;
				/* Said once per pair, at its later entry. */
				if (!identity_conflict_later(&m[k], i, j))
					continue;
				identity_conflict_text(want, &m[k], i, j, text, sizeof(text));
				fprintf(err_out, "%s\n", text);
			} else if (show) {
				say_match(out, b, &b->slaves[j], &m[k], obs);
			}
		}
	}
	identity_apply(want, m);
	free(m);
	return conflicts;
}

int plan_preview_of(const struct desired *want, const struct observed *obs, bool json, FILE *out)
{
	struct action_list plan_out = {0};
	struct plan_report report = {0};
	struct strbuf text = {0};
	int err;

	/* As a start or reload plans: rebuilds allowed, nothing held. */
	if ((err = plan(want, obs, NULL, &plan_out)) < 0)
		goto out;
	if ((err = plan_report_build(want, &plan_out, &report)) < 0)
		goto out;
	if ((err = plan_report_uppers(&report, obs)) < 0)
		goto out;
	if (json)
		plan_report_json(&report, &text);
	else {
		/* A slave that does not exist is no action (it joins when it
		 * appears), but it is not there: say which. */
		for (size_t i = 0; i < want->n_bonds; i++)
			for (size_t j = 0; !want->bonds[i].absent && j < want->bonds[i].n_slaves; j++)
				if (!observed_by_name(obs, want->bonds[i].slaves[j].name))
					sb_printf(&text, "%s: %s: not found: enslaved when it appears\n",
						  want->bonds[i].name, want->bonds[i].slaves[j].name);
		plan_report_text(&report, &text);
	}
	if (text.oom) {
		err = -ENOMEM;
		goto out;
	}
	fwrite(text.s, 1, text.len, out);
	err = plan_report_changes(&report) ? 1 : 0;
out:
	sb_free(&text);
	plan_report_free(&report);
	action_list_free(&plan_out);
	return err;
}
