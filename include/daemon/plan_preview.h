/* SPDX-License-Identifier: MIT */
/*
 * bondd --check --plan: the actions a start or reload would take now,
 * planned against the live kernel and printed, none of them taken.
 */
#ifndef BONDD_PLAN_PREVIEW_H
#define BONDD_PLAN_PREVIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "desired.h"

/* Prints want's plan against the kernel's links to out, as text or as
 * JSON (plan_report.h); 0 when nothing would change, 1 when something
 * would, or -errno when the kernel could not be read. */
int plan_preview(const struct desired *want, bool json, FILE *out);

/*
 * Matches want's slave entries to the kernel's links now (identity.h) and
 * gives them today's names.  Each conflict (one link, two entries) goes
 * to err_out as FILE:LINE for both; with show, out gets which link each
 * entry by mac:, path: or altname matches.  Returns the number of
 * conflicts, or -errno when the kernel could not be read.
 */
int identity_preview(struct desired *want, FILE *out, FILE *err_out, bool show);

/* The same two from a picture of the kernel given (plan_preview_of.c, in
 * the daemon's pure library): the same words and answers; reading nothing,
 * their only error is -ENOMEM. */
struct observed;
int plan_preview_of(const struct desired *want, const struct observed *obs, bool json,
		    FILE *out);
int identity_preview_of(struct desired *want, const struct observed *obs, FILE *out,
			FILE *err_out, bool show);

#endif
