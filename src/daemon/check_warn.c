/* SPDX-License-Identifier: MIT */
/* bondd --check's own warnings (check_warn.h). */
#include "check_warn.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void check_print_diagnostic(FILE *to, const struct config_diagnostic *d)
{
	char *line = d->file && d->text ? config_diagnostic_format(d) : NULL;

	fprintf(to, "%s\n", line ? line : "bondd: out of memory");
	free(line);
}

void check_warning(FILE *to, const char *path, unsigned line, const char *fmt, ...)
{
	struct config_diagnostic d = {.file = strdup(path), .line = line,
				      .severity = CONFIG_WARNING};
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&d.text, fmt, ap) < 0)
		d.text = NULL;
	va_end(ap);
	check_print_diagnostic(to, &d);
	free(d.file);
	free(d.text);
}

/* The service runs as a dynamic user (DynamicUser=yes in bondd.service),
 * neither a file's owner nor in its group: a file it reads must be
 * readable by others, and its directories searchable.  --check runs as
 * root, which reads any file, so it says so here. */
static void check_one_readable(const char *file, FILE *to)
{
	struct stat st;
	char *dir = strdup(file), *slash;

	if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & S_IROTH))
		check_warning(to, file, 0, "the service's user cannot read it (mode %04o, and "
			      "bondd.service runs as a dynamic user, neither its owner nor "
			      "in its group): chmod o+r %s",
			      (unsigned)(st.st_mode & 07777), file);
	/* ... nor open it when a directory on its path is closed to others */
	while (dir && (slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && !(st.st_mode & S_IXOTH)) {
			check_warning(to, file, 0, "the service's user cannot reach it: directory "
				      "%s (mode %04o) is closed to others: chmod o+x %s", dir,
				      (unsigned)(st.st_mode & 07777), dir);
			break;
		}
	}
	free(dir);
}

void check_readable_by_service(const char *path, FILE *to)
{
	char *dir = config_dropin_dir(path);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;

	check_one_readable(path, to);
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".conf") != 0)
			continue;
		char *file;
		if (asprintf(&file, "%s/%s", dir, e->d_name) < 0)
			break;
		check_one_readable(file, to);
		free(file);
	}
	if (d)
		closedir(d);
	free(dir);
}
