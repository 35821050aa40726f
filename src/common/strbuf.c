/* SPDX-License-Identifier: MIT */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_free(struct strbuf *b)
{
	free(b->s);
	*b = (struct strbuf){0};
}

void sb_reset(struct strbuf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->s)
		b->s[0] = '\0';
}

static bool grow(struct strbuf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void sb_add(struct strbuf *b, const void *data, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->s + b->len, data, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_puts(struct strbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

void sb_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256];

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		sb_add(b, small, (size_t)n);
		return;
	}
	if (!grow(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_consume(struct strbuf *b, size_t n)
{
	if (n >= b->len) {
		sb_reset(b);
		return;
	}
	memmove(b->s, b->s + n, b->len - n + 1);
	b->len -= n;
}

bool text_set(char *dst, size_t cap, const char *src)
{
	if (!cap || strncmp(dst, src, cap - 1) == 0)
		return false;
	snprintf(dst, cap, "%s", src);
	return true;
}
