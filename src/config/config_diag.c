/* SPDX-License-Identifier: MIT */
/* The parser's diagnostics: errors and warnings with their file and line,
 * kept and handed over sorted by line; the one formatter that makes them
 * lines of text; input quoted safely. */
#include "config_parser.h"
#include "grow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- diagnostics --------------------------------------------------------- */

void config_diag_free(struct config_diag *diag)
{
	if (!diag)
		return;
	for (size_t i = 0; i < diag->n_items; i++) {
		free(diag->items[i].file);
		free(diag->items[i].text);
	}
	free(diag->items);
	diag->items = NULL;
	diag->n_items = diag->cap_items = 0;
}

size_t config_diag_count(const struct config_diag *diag, enum config_severity severity)
{
	size_t n = 0;

	for (size_t i = 0; i < diag->n_items; i++)
		n += diag->items[i].severity == severity;
	return n;
}

const struct config_diagnostic *config_diag_first(const struct config_diag *diag,
						  enum config_severity severity)
{
	for (size_t i = 0; i < diag->n_items; i++)
		if (diag->items[i].severity == severity)
			return &diag->items[i];
	return NULL;
}

char *config_diagnostic_format(const struct config_diagnostic *d)
{
	const char *what = d->severity == CONFIG_WARNING ? "warning: " : "";

	if (d->line)
		return format("%s:%u: %s%s", d->file, d->line, what, d->text);
	return format("%s: %s%s", d->file, what, d->text);
}

int diag_push(struct config_diag *diag, const char *file, unsigned line,
	      enum config_severity severity, char *text)
{
	if (!text)
		return -ENOMEM;
	if (!diag) {
		free(text);
		return 0;
	}
	struct config_diagnostic d = {.line = line, .severity = severity, .text = text};
	struct config_diagnostic *v = grow_array(diag->items, &diag->cap_items,
						 diag->n_items + 1, sizeof(*v), 8);
	if (v) {
		diag->items = v;
		d.file = strdup(file);
	}
	if (!d.file) {
		free(text);
		return -ENOMEM;
	}
	v[diag->n_items++] = d;
	return 0;
}

char *format(const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : msg;
}

/* Adds the formatted text at line of the file being read; false, with
 * p->fatal set, when memory is short. */
__attribute__((format(printf, 4, 0)))
static bool add_found(struct parser *p, enum config_severity severity, unsigned line,
		      const char *fmt, va_list ap)
{
	char text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	struct found *v = grow_array(p->found, &p->cap_found, p->n_found + 1, sizeof(*v), 8);
	char *copy = v ? strdup(text) : NULL;
	if (v)
		p->found = v;
	if (!copy) {
		p->fatal = -ENOMEM;
		return false;
	}
	v[p->n_found] = (struct found){p->file_no, line, severity, p->n_found, copy};
	p->n_found++;
	return true;
}

/*
 * Records an error at the given line (not always the current one: section
 * checks point at the option's own line).  Diagnostics are handed over
 * sorted by line once every file is read.
 */
void errorf(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (p->stop || p->fatal)
		return;
	va_start(ap, fmt);
	bool added = add_found(p, CONFIG_ERROR, line, fmt, ap);
	va_end(ap);
	if (added && ++p->n_errors == MAX_ERRORS) {
		p->stop = true;
		p->stop_line = p->line;
		p->stop_file = p->file;
	}
}

void warnf(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (p->fatal || p->n_warns >= MAX_ERRORS)
		return;
	va_start(ap, fmt);
	bool added = add_found(p, CONFIG_WARNING, line, fmt, ap);
	va_end(ap);
	p->n_warns += added;
}

/* Errors before warnings, each in order of file and line; a line's own in
 * the order they were found. */
static int by_line(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->severity != y->severity)
		return x->severity == CONFIG_ERROR ? -1 : 1;
	if (x->file_no != y->file_no)
		return x->file_no < y->file_no ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Where too many errors stopped the parse: after the last error. */
static int push_stop(struct parser *p)
{
	char *text = strdup("too many errors, giving up");

	return text ? diag_push(p->diag, p->stop_file, p->stop_line, CONFIG_ERROR, text)
		    : -ENOMEM;
}

/* Hands the diagnostics to diag in that order. */
int flush_errors(struct parser *p)
{
	bool stop_told = !p->stop;
	int err = 0;

	if (p->n_found > 1)
		qsort(p->found, p->n_found, sizeof(p->found[0]), by_line);
	for (size_t i = 0; i < p->n_found; i++) {
		const struct found *f = &p->found[i];
		if (!err && !stop_told && f->severity != CONFIG_ERROR) {
			stop_told = true;
			err = push_stop(p);
		}
		if (!err)
			err = diag_push(p->diag, p->files[f->file_no], f->line, f->severity,
					f->text);
		else
			free(f->text);
	}
	p->n_found = p->n_errors = p->n_warns = 0;
	if (!err && !stop_told)
		err = push_stop(p);
	return err;
}

/* Where bond i of the result is defined: "line N" in the file being read,
 * "FILE:N" in another one. */
const char *where(const struct parser *p, size_t i, unsigned line, char *buf, size_t len)
{
	if (p->file_of[i] == p->file_no)
		snprintf(buf, len, "line %u", line);
	else
		snprintf(buf, len, "%s:%u", p->files[p->file_of[i]], line);
	return buf;
}

/* Input text made safe to print: the file may hold any byte, and a message
 * ends up on a terminal or in the journal. */
const char *show(struct shown *buf, const char *text)
{
	size_t o = 0;

	for (size_t i = 0; text[i]; i++) {
		unsigned char c = (unsigned char)text[i];
		if (i == SHOW_MAX) {
			memcpy(buf->s + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf->s[o++] = (char)c;
		else
			o += (size_t)snprintf(buf->s + o, sizeof(buf->s) - o, "\\x%02x", c);
	}
	buf->s[o] = '\0';
	return buf->s;
}
