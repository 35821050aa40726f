/* SPDX-License-Identifier: MIT */
/* bondd --check --plan: read the kernel, plan as a start would, print. */
#include "plan_preview.h"

#include <errno.h>

#include "observer.h"
#include "plan.h"
#include "plan_report.h"

int plan_preview(const struct desired *want, bool json, FILE *out)
{
	struct observer ob;
	struct action_list plan_out = {0};
	struct plan_report report = {0};
	struct strbuf text = {0};

	int err = observer_open(&ob, 0, NULL, NULL);
	if (err < 0)
		return err;
	if ((err = observer_sync(&ob)) < 0)
		goto out;
	/* As a start or reload plans: rebuilds allowed, nothing held. */
	if ((err = plan(want, &ob.state, NULL, &plan_out)) < 0)
		goto out;
	if ((err = plan_report_build(want, &plan_out, &report)) < 0)
		goto out;
	if (json)
		plan_report_json(&report, &text);
	else
		plan_report_text(&report, &text);
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
	observer_close(&ob);
	return err;
}
