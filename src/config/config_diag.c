/* SPDX-License-Identifier: MIT */
/* The parser's messages: FILE:LINE errors and warnings, kept and handed over
 * sorted by line, and input quoted safely. */
#include "config_parser.h"
#include "grow.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---------------------------------------------------------- */

void config_diag_free(struct config_diag *diag)
{
	if (!diag)
		return;
	for (size_t i = 0; i < diag->n; i++) {
		free(diag->msgs[i]);
		free(diag->places[i].file);
	}
	free(diag->msgs);
	free(diag->places);
	diag->msgs = NULL;
	diag->places = NULL;
	diag->n = diag->cap = diag->cap_places = 0;
	for (size_t i = 0; i < diag->n_warnings; i++)
		free(diag->warnings[i]);
	free(diag->warnings);
	diag->warnings = NULL;
	diag->n_warnings = diag->cap_warnings = 0;
}

/* Appends msg to a list, taking it over (freed on failure too). */
static int msgs_push(char ***msgs, size_t *n, size_t *cap, char *msg)
{
	char **v = grow_array(*msgs, cap, *n + 1, sizeof(*v), 8);
	if (!v) {
		free(msg);
		return -ENOMEM;
	}
	*msgs = v;
	(*msgs)[(*n)++] = msg;
	return 0;
}

int diag_push(struct config_diag *diag, const char *file, unsigned line, char *msg)
{
	if (!diag) {
		free(msg);
		return 0;
	}
	struct config_place *v = grow_array(diag->places, &diag->cap_places, diag->n + 1,
					    sizeof(*v), 8);
	char *copy = v ? strdup(file) : NULL;
	if (v)
		diag->places = v;
	if (!copy) {
		free(msg);
		return -ENOMEM;
	}
	diag->places[diag->n] = (struct config_place){.file = copy, .line = line};
	int err = msgs_push(&diag->msgs, &diag->n, &diag->cap, msg);
	if (err < 0)
		free(copy);
	return err;
}

static int diag_push_warning(struct config_diag *diag, char *msg)
{
	if (!diag) {
		free(msg);
		return 0;
	}
	return msgs_push(&diag->warnings, &diag->n_warnings, &diag->cap_warnings, msg);
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

/* Adds "FILE:LINE: " what and the formatted message to list (n entries in
 * cap room); false, with p->fatal set, when memory is short. */
__attribute__((format(printf, 7, 0)))
static bool add_diag(struct parser *p, struct error **list, size_t *n, size_t *cap,
		     unsigned line, const char *what, const char *fmt, va_list ap)
{
	char text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	struct error *v = grow_array(*list, cap, *n + 1, sizeof(*v), 8);
	char *msg = v ? format("%s:%u: %s%s", p->file, line, what, text) : NULL;
	if (v)
		*list = v;
	if (!msg) {
		p->fatal = -ENOMEM;
		return false;
	}
	v[*n] = (struct error){p->file_no, line, *n, msg};
	(*n)++;
	return true;
}

/*
 * Records "FILE:LINE: message" for the given line (not always the current
 * one: section checks point at the option's own line).  Messages are handed
 * over sorted by line once the whole file is read.
 */
void errorf(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (p->stop || p->fatal)
		return;
	va_start(ap, fmt);
	bool added = add_diag(p, &p->errors, &p->n_errors, &p->cap_errors, line, "", fmt, ap);
	va_end(ap);
	if (added && p->n_errors == MAX_ERRORS) {
		p->stop = true;
		p->stop_line = p->line;
		p->stop_file = p->file;
	}
}

/* Like errorf, for a warning: "FILE:LINE: warning: message". */

void warnf(struct parser *p, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (p->fatal || p->n_warns >= MAX_ERRORS)
		return;
	va_start(ap, fmt);
	add_diag(p, &p->warns, &p->n_warns, &p->cap_warns, line, "warning: ", fmt, ap);
	va_end(ap);
}

static int by_line(const void *a, const void *b)
{
	const struct error *x = a, *y = b;

	if (x->file_no != y->file_no)
		return x->file_no < y->file_no ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Hands the messages to diag in line order; a line's own messages keep the
 * order they were found in. */
int flush_errors(struct parser *p)
{
	int err = 0;

	if (p->n_errors > 1)
		qsort(p->errors, p->n_errors, sizeof(p->errors[0]), by_line);
	for (size_t i = 0; i < p->n_errors; i++) {
		if (!err)
			err = diag_push(p->diag, p->files[p->errors[i].file_no],
					p->errors[i].line, p->errors[i].msg);
		else
			free(p->errors[i].msg);
	}
	p->n_errors = 0;
	if (!err && p->stop) {
		char *msg = format("%s:%u: too many errors, giving up", p->stop_file, p->stop_line);
		err = msg ? diag_push(p->diag, p->stop_file, p->stop_line, msg) : -ENOMEM;
	}
	if (p->n_warns > 1)
		qsort(p->warns, p->n_warns, sizeof(p->warns[0]), by_line);
	for (size_t i = 0; i < p->n_warns; i++) {
		if (!err)
			err = diag_push_warning(p->diag, p->warns[i].msg);
		else
			free(p->warns[i].msg);
	}
	p->n_warns = 0;
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
