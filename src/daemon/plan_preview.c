/* SPDX-License-Identifier: MIT */
/* bondd --check --plan: read the kernel, then plan as a start would and
 * print (plan_preview_of.c). */
#include "plan_preview.h"

#include "observer.h"

int identity_preview(struct desired *want, FILE *out, FILE *err_out, bool show)
{
	struct observer ob;
	int err = observer_open(&ob, 0, NULL, NULL);

	if (err < 0)
		return err;
	if ((err = observer_sync(&ob)) >= 0)
		err = identity_preview_of(want, &ob.state, out, err_out, show);
	observer_close(&ob);
	return err;
}

int plan_preview(const struct desired *want, bool json, FILE *out)
{
	struct observer ob;
	int err = observer_open(&ob, 0, NULL, NULL);

	if (err < 0)
		return err;
	if ((err = observer_sync(&ob)) >= 0)
		err = plan_preview_of(want, &ob.state, json, out);
	observer_close(&ob);
	return err;
}
