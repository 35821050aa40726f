/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader (RFC 8259) for teamd configurations: a whole text
 * into a tree of plain values.  Bounded: nesting depth, and the input size
 * the caller gives.  Input from disk, so every malformed text is an error
 * with a byte offset, never a crash.
 */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32

struct reader {
	const char *s, *end;
	int depth;
	const char *why;
};

static void skip_ws(struct reader *r)
{
	while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
		r->s++;
}

static bool fail(struct reader *r, const char *why)
{
	if (!r->why)
		r->why = why;
	return false;
}

static bool literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->s) < n || memcmp(r->s, word, n) != 0)
		return fail(r, "unexpected character");
	r->s += n;
	return true;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A string, unescaped into a new buffer (UTF-8; a \u escape of a surrogate
 * becomes '?': nothing here needs characters beyond the BMP). */
static bool string(struct reader *r, char **out)
{
	const char *s = r->s + 1;
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return fail(r, "out of memory");
	for (;;) {
		if (s >= r->end) {
			free(buf);
			return fail(r, "unterminated string");
		}
		unsigned char c = (unsigned char)*s++;
		char enc[4];
		size_t len = 1;
		if (c == '"')
			break;
		if (c < 0x20) {
			free(buf);
			return fail(r, "control character in a string");
		}
		enc[0] = (char)c;
		if (c == '\\') {
			if (s >= r->end) {
				free(buf);
				return fail(r, "unterminated string");
			}
			char e = *s++;
			const char *simple = strchr("\"\\/bfnrt", e);
			if (e && simple) {
				enc[0] = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
			} else if (e == 'u' && r->end - s >= 4 && hex4(s) >= 0) {
				int u = hex4(s);
				s += 4;
				if (u >= 0xd800 && u <= 0xdfff) {
					enc[0] = '?';
				} else if (u < 0x80) {
					enc[0] = (char)u;
				} else if (u < 0x800) {
					enc[0] = (char)(0xc0 | (u >> 6));
					enc[1] = (char)(0x80 | (u & 0x3f));
					len = 2;
				} else {
					enc[0] = (char)(0xe0 | (u >> 12));
					enc[1] = (char)(0x80 | ((u >> 6) & 0x3f));
					enc[2] = (char)(0x80 | (u & 0x3f));
					len = 3;
				}
			} else {
				free(buf);
				return fail(r, "bad escape in a string");
			}
		}
		if (n + len + 1 > cap) {
			cap *= 2;
			char *v = realloc(buf, cap);
			if (!v) {
				free(buf);
				return fail(r, "out of memory");
			}
			buf = v;
		}
		memcpy(buf + n, enc, len);
		n += len;
	}
	buf[n] = '\0';
	r->s = s;
	*out = buf;
	return true;
}

static bool number(struct reader *r, double *out)
{
	const char *s = r->s;
	char tmp[64];

	if (s < r->end && *s == '-')
		s++;
	if (s >= r->end || *s < '0' || *s > '9')
		return fail(r, "unexpected character");
	while (s < r->end && strchr("0123456789.eE+-", *s))
		s++;
	if ((size_t)(s - r->s) >= sizeof(tmp))
		return fail(r, "number too long");
	memcpy(tmp, r->s, (size_t)(s - r->s));
	tmp[s - r->s] = '\0';
	char *end;
	*out = strtod(tmp, &end);
	if (*end)
		return fail(r, "bad number");
	r->s = s;
	return true;
}

static bool value(struct reader *r, struct json *v);

/* Appends an element (and for objects its key, taken over). */
static bool json_push(struct reader *r, struct json *parent, char *key, struct json *item)
{
	size_t n = parent->n + 1;
	struct json *items = realloc(parent->items, n * sizeof(*items));

	if (!items) {
		free(key);
		json_free(item);
		return fail(r, "out of memory");
	}
	parent->items = items;
	if (parent->type == JSON_OBJ) {
		char **keys = realloc(parent->keys, n * sizeof(*keys));
		if (!keys) {
			free(key);
			json_free(item);
			return fail(r, "out of memory");
		}
		parent->keys = keys;
		keys[parent->n] = key;
	}
	items[parent->n] = *item;
	parent->n = n;
	return true;
}

static bool container(struct reader *r, struct json *v, char close)
{
	v->type = close == '}' ? JSON_OBJ : JSON_ARR;
	r->s++;
	if (++r->depth > MAX_DEPTH)
		return fail(r, "nested too deep");
	skip_ws(r);
	if (r->s < r->end && *r->s == close) {
		r->s++;
		r->depth--;
		return true;
	}
	for (;;) {
		char *key = NULL;
		struct json item = {0};
		skip_ws(r);
		if (v->type == JSON_OBJ) {
			if (r->s >= r->end || *r->s != '"' || !string(r, &key))
				return fail(r, "expected a key");
			skip_ws(r);
			if (r->s >= r->end || *r->s != ':') {
				free(key);
				return fail(r, "expected ':'");
			}
			r->s++;
		}
		if (!value(r, &item)) {
			free(key);
			json_free(&item);
			return false;
		}
		if (!json_push(r, v, key, &item))
			return false;
		skip_ws(r);
		if (r->s < r->end && *r->s == ',') {
			r->s++;
			continue;
		}
		if (r->s < r->end && *r->s == close) {
			r->s++;
			r->depth--;
			return true;
		}
		return fail(r, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static bool value(struct reader *r, struct json *v)
{
	memset(v, 0, sizeof(*v));
	skip_ws(r);
	if (r->s >= r->end)
		return fail(r, "unexpected end");
	switch (*r->s) {
	case '{':
		return container(r, v, '}');
	case '[':
		return container(r, v, ']');
	case '"':
		v->type = JSON_STR;
		return string(r, &v->str);
	case 't':
		v->type = JSON_BOOL;
		v->b = true;
		return literal(r, "true");
	case 'f':
		v->type = JSON_BOOL;
		return literal(r, "false");
	case 'n':
		v->type = JSON_NULL;
		return literal(r, "null");
	default:
		v->type = JSON_NUM;
		return number(r, &v->num);
	}
}

int json_parse(const char *text, size_t len, struct json *out, char *err, size_t errlen)
{
	struct reader r = {text, text + len, 0, NULL};
	struct json v;

	if (value(&r, &v)) {
		skip_ws(&r);
		if (r.s == r.end) {
			*out = v;
			return 0;
		}
		fail(&r, "text after the value");
	}
	json_free(&v);
	snprintf(err, errlen, "%s at byte %zu", r.why, (size_t)(r.s - text));
	return strcmp(r.why, "out of memory") == 0 ? -ENOMEM : -EINVAL;
}

void json_free(struct json *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof(*v));
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJ)
		return NULL;
	/* The last of duplicate keys wins, as in most readers. */
	for (size_t i = obj->n; i-- > 0;)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}
