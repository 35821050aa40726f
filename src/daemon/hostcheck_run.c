/* SPDX-License-Identifier: MIT */
/*
 * When the host checks run in the daemon: at start, on reload, and after a
 * pass in which a configured link appeared, went, or changed carrier (a
 * new device or a renegotiated link may have a new speed).  Never on a
 * timer: an idle bondd does not wake up for them.  A TCP sysctl changed by
 * hand is therefore seen at the next of those moments (or SIGHUP).
 */
#include "hostcheck_run.h"

#include <string.h>

#include "hostcheck.h"
#include "log.h"

static bool known(const struct findings *old, const struct finding *x)
{
	for (size_t i = 0; i < old->n; i++)
		if (old->v[i].kind == x->kind && strcmp(old->v[i].bond, x->bond) == 0 &&
		    strcmp(old->v[i].evidence, x->evidence) == 0)
			return true;
	return false;
}

void hostcheck_run_if_due(struct daemon *d)
{
	struct findings next = {0};

	if (!d->host_check_due)
		return;
	d->host_check_due = false;
	if (hostcheck_read("", &d->want, &d->host) < 0 ||
	    hostcheck_eval(&d->want, &d->host, &next) < 0) {
		log_err("host check: out of memory; keeping its last findings");
		findings_free(&next);
		return;
	}
	/* Each finding is logged once, when it first appears. */
	struct findings *cur = &d->findings[FSRC_HOST_CHECK];
	for (size_t i = 0; i < next.n; i++) {
		const struct finding *x = &next.v[i];
		if (known(cur, x))
			continue;
		if (x->severity == FSEV_DEGRADED)
			log_warn("%s: %s: %s; %s", x->bond, finding_kind_name(x->kind), x->evidence,
				 x->fix);
		else
			log_info("%s: %s: %s; %s", x->bond, finding_kind_name(x->kind), x->evidence,
				 x->fix);
	}
	findings_free(cur);
	*cur = next;
}
