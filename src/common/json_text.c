/* SPDX-License-Identifier: MIT */
#include "json_text.h"

#include <stdbool.h>
#include <stdint.h>

size_t utf8_seq_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n;
	uint32_t cp, min;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	/* A NUL ends the string before a continuation byte is missed. */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* s escaped for a JSON string (json) or a Prometheus label value (not
 * json), as json_text.h says of each; '"' and '\\' escaped in both. */
static void escape_text(struct strbuf *b, const char *s, bool json)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq_len(p);
		if (n == 0) {
			sb_printf(b, json ? "\\udc%02x" : "\\\\x%02x", *p);
		} else if (*p == '"' || *p == '\\') {
			sb_printf(b, "\\%c", *p);
		} else if (json && (*p < 0x20 || *p == 0x7f)) {
			sb_printf(b, "\\u%04x", *p);
		} else if (!json && *p == '\n') {
			sb_puts(b, "\\n");
		} else {
			sb_add(b, p, n);
			p += n;
			continue;
		}
		p++;
	}
}

void json_string(struct strbuf *b, const char *s)
{
	sb_add(b, "\"", 1);
	escape_text(b, s, true);
	sb_add(b, "\"", 1);
}

void prom_label(struct strbuf *b, const char *s)
{
	escape_text(b, s, false);
}
