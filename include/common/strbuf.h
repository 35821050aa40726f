/* SPDX-License-Identifier: MIT */
/*
 * A growable byte buffer for building replies.  Out of memory is sticky:
 * appends after a failed one do nothing and `oom` says so, so a renderer
 * checks once at the end instead of after every line.
 */
#ifndef BONDD_STRBUF_H
#define BONDD_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *s;        /* NUL-terminated when len > 0 */
	size_t len, cap;
	bool oom;
};

void sb_free(struct strbuf *b);
void sb_reset(struct strbuf *b);          /* len = 0, memory kept */
void sb_add(struct strbuf *b, const void *data, size_t n);
void sb_puts(struct strbuf *b, const char *s);
void sb_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drops the first n bytes (what a non-blocking write sent). */
void sb_consume(struct strbuf *b, size_t n);

/* dst (of cap bytes) set to src, cut to fit, and written only when that
 * changes it: records kept for every bond or link are set at every
 * wake-up, and after a copy-on-write fork (a status snapshot) each store
 * is a page fault.  Returns whether it wrote. */
bool text_set(char *dst, size_t cap, const char *src);

#endif
