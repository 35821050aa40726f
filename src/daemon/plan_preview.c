/* SPDX-License-Identifier: MIT */
/* bondd --check --plan: read the kernel, plan as a start would, print. */
#include "plan_preview.h"

#include <errno.h>

#include "observer.h"
#include "plan.h"

int plan_preview(const struct desired *want, FILE *out)
{
	struct observer ob;
	struct action_list plan_out = {0};
	char desc[256];
	size_t disrupting = 0;

	int err = observer_open(&ob, 0, NULL, NULL);
	if (err < 0)
		return err;
	if ((err = observer_sync(&ob)) < 0)
		goto out;
	/* As a start or reload plans: rebuilds allowed, nothing held. */
	if ((err = plan(want, &ob.state, NULL, &plan_out)) < 0)
		goto out;
	for (size_t i = 0; i < plan_out.n; i++) {
		const struct action *a = &plan_out.v[i];
		bool disrupts = plan_action_disrupts(a);
		disrupting += disrupts;
		fprintf(out, "%s: %s%s\n", a->bond, action_describe(a, desc, sizeof(desc)),
			disrupts ? "  [disrupts traffic]" : "");
	}
	for (size_t i = 0; i < plan_out.n_notes; i++)
		fprintf(out, "%s: %s: %s\n", plan_out.notes[i].bond, plan_out.notes[i].ifname,
			plan_out.notes[i].msg);
	/* A slave that does not exist is no action (it joins when it
	 * appears), but it is not there: say which. */
	size_t missing = 0;
	for (size_t i = 0; i < want->n_bonds; i++)
		for (size_t j = 0; !want->bonds[i].absent && j < want->bonds[i].n_slaves; j++)
			if (!observed_by_name(&ob.state, want->bonds[i].slaves[j].name)) {
				fprintf(out, "%s: %s: not found: enslaved when it appears\n",
					want->bonds[i].name, want->bonds[i].slaves[j].name);
				missing++;
			}
	if (plan_out.n == 0 && missing)
		fprintf(out, "nothing to do now: the kernel matches the configuration but for "
			     "%zu slave%s not found\n", missing, missing == 1 ? "" : "s");
	else if (plan_out.n == 0)
		fprintf(out, "nothing to do: the kernel matches the configuration\n");
	else
		fprintf(out, "%zu action%s, %zu disrupting traffic; none taken\n", plan_out.n,
			plan_out.n == 1 ? "" : "s", disrupting);
out:
	action_list_free(&plan_out);
	observer_close(&ob);
	return err;
}
