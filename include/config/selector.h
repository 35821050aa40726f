/* SPDX-License-Identifier: MIT */
/* A slave selector's text (slave_selector.h) parsed and checked.  Pure. */
#ifndef BONDD_SELECTOR_H
#define BONDD_SELECTOR_H

#include "slave_selector.h"

/*
 * Parses one entry of `slaves =` (or the NAME of slave.NAME.*, primary).
 * NULL when it is a selector, else why not (for "FILE:LINE: ... : WHY").
 * A plain name follows ifname_problem's rules, except that one of 16 to
 * 127 bytes is taken as an altname (it can match nothing else).
 */
const char *slave_selector_parse(const char *text, struct slave_selector *out);

/* "interface name", "permanent MAC" or "device path", for "invalid %s". */
const char *slave_selector_noun(enum sel_kind kind);

#endif
