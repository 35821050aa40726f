/* SPDX-License-Identifier: MIT */
/*
 * bondd --check --plan: the actions a start or reload would take now,
 * planned against the live kernel and printed, none of them taken.
 */
#ifndef BONDD_PLAN_PREVIEW_H
#define BONDD_PLAN_PREVIEW_H

#include <stdio.h>

#include "desired.h"

/* Prints want's plan against the kernel's links to out; 0, or -errno when
 * the kernel could not be read. */
int plan_preview(const struct desired *want, FILE *out);

#endif
