/* SPDX-License-Identifier: MIT */
/*
 * Messages that teach: what the config parser adds to "unknown key" and
 * "invalid value" when the user most likely meant something it knows (a near
 * miss of a key or a value name), or wrote another tool's setting (an ifcfg
 * variable, a systemd-networkd key).  Pure functions over text.
 */
#ifndef BONDD_CONFIG_HINTS_H
#define BONDD_CONFIG_HINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "bond_option_table.h"

/*
 * For an unknown key `key` with value `val` (as written, after trimming):
 * writes into buf the text that follows the "unknown key" message, starting
 * with "; ", or "" when there is no hint.  Examples:
 *   miimom                -> "; did you mean \"miimon\"?"
 *   MIIMonitorSec = 1s    -> "; that is systemd-networkd's [Bond] setting:
 *                             write \"miimon = 1000\""
 *   BONDING_OPTS = "mode=4 miimon=100"
 *                         -> "; that is an ifcfg variable: write one line per
 *                             option: \"mode = 4\", \"miimon = 100\""
 */
void config_hint_key(const char *key, const char *val, char *buf, size_t len);

/* For a value that is none of d's names: "; did you mean \"balance-rr\"?" or "". */
void config_hint_value(const struct bond_option_spec *d, const char *val, char *buf, size_t len);

/* The edit distance between a and b, ignoring case, where swapping two
 * neighbours counts as one edit (optimal string alignment); strings longer
 * than 64 bytes are never close: 255. */
unsigned config_hint_distance(const char *a, const char *b);

/* word is close enough to cand to have been meant as it (one edit for
 * names of up to 4 characters, two for longer ones, never half the word);
 * *dist is their distance. */
bool config_hint_close(const char *word, const char *cand, unsigned *dist);

/*
 * A systemd time span (systemd.time(7): "100ms", "1s 500ms", "2min"; a bare
 * number is in default_unit_ms milliseconds) in whole milliseconds.  -1 when
 * it is not one, or not a whole number of milliseconds.
 */
long long config_hint_timespan_ms(const char *text, long long default_unit_ms);

/*
 * A systemd.netdev(5) [Bond] setting in bondd.conf's terms: sets *bondd_key
 * to the option's key and writes the value converted (time spans to
 * milliseconds or seconds, booleans to 1/0) into out.  False when key is
 * not a [Bond] setting or its value cannot be converted.
 */
bool config_hint_netdev_bond(const char *key, const char *val, const char **bondd_key,
			     char *out, size_t len);

#endif
