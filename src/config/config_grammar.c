/* SPDX-License-Identifier: MIT */
/*
 * The config file parser.
 *
 * One pass over the lines fills one section at a time; a section is checked
 * as a whole when it ends (options may come before the mode they depend on),
 * and the file as a whole at the end (a bond may be named after a slave of an
 * earlier section).  Errors never stop the pass: the user gets every problem
 * in one go, and only a clean file replaces the caller's state.
 */
#include "config_parser.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lines --------------------------------------------------------------- */

/* name is NULL after a malformed header: its keys are still checked, in a
 * section that is not part of the result. */
static void start_section(struct parser *p, const char *name)
{
	struct section *s = &p->sec;
	const char *why = name ? ifname_problem(name) : NULL;
	const struct desired_bond *first = name && !why ? find_built(p, name) : NULL;
	struct shown sh;

	memset(s, 0, sizeof(*s));
	s->b.line = p->line;
	s->b.mtu = BONDD_DEFAULT_MTU;
	bond_settings_set(&s->b.opts, OPT_MODE, MODE_BALANCE_RR);
	p->in_section = true;
	if (!name) {
		errorf(p, p->line, "malformed section header (expected \"[NAME]\")");
	} else if (why) {
		errorf(p, p->line, "invalid bond name \"%s\": %s", show(&sh, name), why);
	} else if (first && p->file_of[first - p->bonds] != p->file_no) {
		/* Another file's bond: this section may add addresses to it. */
		s->extends = (size_t)(first - p->bonds) + 1;
		s->b = *first;
	} else if (first) {
		errorf(p, p->line, "[%s] is already defined (line %u)", name, first->line);
	} else if (p->n_bonds == MAX_BONDS) {
		errorf(p, p->line, "too many bonds (at most %d)", MAX_BONDS);
	} else {
		snprintf(s->b.name, sizeof(s->b.name), "%s", name);
		s->keep = true;
	}
}

static void parse_header(struct parser *p, char *line)
{
	size_t n = strlen(line);

	finish_section(p);
	if (n < 2 || line[n - 1] != ']') {
		start_section(p, NULL);
		return;
	}
	line[n - 1] = '\0';
	start_section(p, trim(line + 1));
}

static void parse_line(struct parser *p, char *line)
{
	struct shown sh;
	char *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	line = trim(line);
	if (*line == '\0')
		return;
	if (*line == '[') {
		parse_header(p, line);
		return;
	}
	char *eq = strchr(line, '=');
	if (!eq) {
		errorf(p, p->line, "malformed line (expected \"key = value\" or \"[NAME]\")");
		return;
	}
	*eq = '\0';
	char *key = trim(line), *val = trim(eq + 1);
	if (*key == '\0')
		errorf(p, p->line, "missing key before \"=\"");
	else if (!p->in_section)
		errorf(p, p->line, "key \"%s\" outside of any [NAME] section", show(&sh, key));
	else if (*val == '\0')
		errorf(p, p->line, "%s: empty value", show(&sh, key));
	else
		parse_key(p, key, val);
}

static void parse_text(struct parser *p, const char *text, size_t len, char *buf)
{
	const char *end = text + len;

	for (const char *at = text; at < end && !p->stop && !p->fatal;) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = (size_t)((nl ? nl : end) - at);
		p->line++;
		if (n > MAX_LINE) {
			errorf(p, p->line, "line too long (more than %d bytes)", MAX_LINE);
		} else if (memchr(at, '\0', n)) {
			errorf(p, p->line, "NUL byte in line");
		} else {
			memcpy(buf, at, n);
			buf[n] = '\0';
			parse_line(p, buf);
		}
		at += n + (nl != NULL);
	}
	finish_section(p);
}

/* ---- one configuration from one or more files ---------------------------- */

struct parser *parser_new(struct config_diag *diag)
{
	struct parser *p = calloc(1, sizeof(*p));

	if (p)
		p->diag = diag;
	return p;
}

/* Parses the next file (name must outlive the parser). */
void parser_feed(struct parser *p, const char *name, const char *text, size_t len,
			char *buf)
{
	if (p->stop || p->fatal)
		return;
	if (p->files[0])
		p->file_no++;
	p->files[p->file_no] = name;
	p->file = name;
	p->line = 0;
	parse_text(p, text, len, buf);
}

/* The checks across files, then the result: see config_parse. */
int parser_finish(struct parser *p, struct desired *out)
{
	if (!p->stop && !p->fatal)
		check_bonds_as_slaves(p);
	bool failed = p->n_errors > 0;
	int err = flush_errors(p);

	if (!err)
		err = p->fatal;
	if (!err && failed)
		err = -EINVAL;
	if (!err) {
		/* The file names, for FILE:LINE once links are matched (none
		 * without bonds: callers free a result without bonds or not). */
		size_t n = p->files[0] && p->n_bonds ? p->file_no + 1u : 0;
		char **files = n ? calloc(n, sizeof(*files)) : NULL;
		for (size_t i = 0; files && i < n; i++)
			if (!(files[i] = strdup(p->files[i] ? p->files[i] : "")))
				err = -ENOMEM;
		if (n && !files)
			err = -ENOMEM;
		if (err) {
			for (size_t i = 0; files && i < n; i++)
				free(files[i]);
			free(files);
			return err;
		}
		out->bonds = p->bonds;
		out->n_bonds = p->n_bonds;
		out->files = files;
		out->n_files = n;
		p->bonds = NULL;
	}
	return err;
}

void parser_free(struct parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_found; i++)
		free(p->found[i].text);
	free(p->found);
	free(p->bonds);
	free(p->slaves_line);
	free(p->file_of);
	name_map_free(&p->bond_at);
	name_map_free(&p->slave_of);
	free(p);
}

int config_parse(const char *name, const char *text, size_t len,
		 struct desired *out, struct config_diag *diag)
{
	return config_parse_kernel(name, text, len, 0, out, diag);
}

int config_parse_kernel(const char *name, const char *text, size_t len, uint16_t kver,
			struct desired *out, struct config_diag *diag)
{
	struct parser *p = parser_new(diag);
	char *buf = malloc(MAX_LINE + 1);
	int err = -ENOMEM;

	if (p && buf) {
		p->kver = kver;
		parser_feed(p, name, text, len, buf);
		err = parser_finish(p, out);
	}
	parser_free(p);
	free(buf);
	return err;
}
