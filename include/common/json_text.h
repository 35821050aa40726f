/* SPDX-License-Identifier: MIT */
/*
 * Text from the kernel and the config, written so that every consumer
 * parses it.  An interface name is any bytes but '/', ':', NUL and white
 * space (dev_valid_name in net/core/dev.c): it need not be UTF-8, which
 * JSON and the Prometheus text format require.
 */
#ifndef BONDD_JSON_TEXT_H
#define BONDD_JSON_TEXT_H

#include <stddef.h>

#include "strbuf.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte at
 * s does not start one (overlong forms, surrogates and values past
 * U+10FFFF are invalid, as RFC 3629 says). */
size_t utf8_seq_len(const unsigned char *s);

/*
 * A JSON string literal, quotes included.  A byte that is not part of
 * valid UTF-8 becomes \udcXX (XX the byte), the convention of Python's
 * "surrogateescape": every parser reads it, and the original bytes come
 * back with os.fsencode().
 */
void json_string(struct strbuf *b, const char *s);

/*
 * A Prometheus label value, without quotes: '\\', '"' and newline escaped
 * as the text format wants, and a byte that is not valid UTF-8 written as
 * the four characters \xXX (its backslash escaped), so promtool accepts it.
 */
void prom_label(struct strbuf *b, const char *s);

#endif
