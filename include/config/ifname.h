/* SPDX-License-Identifier: MIT */
/*
 * The one check of an interface name that bondd accepts from its config:
 * the kernel's rules plus bondd's own.  Pure; shared by every parser of
 * names so that they all refuse the same ones.
 */
#ifndef BONDD_IFNAME_H
#define BONDD_IFNAME_H

/* Why name cannot be an interface name bondd manages, or NULL when it can. */
const char *ifname_problem(const char *name);
/* Why c cannot be in such a name (or an altname), or NULL. */
const char *ifname_char_problem(char c);

#endif
