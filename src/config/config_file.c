/* SPDX-License-Identifier: MIT */
/* bondd.conf and its drop-ins from disk: size and type checks, the drop-in
 * folder's files in order. */
#include "config_parser.h"

#include "whole_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- files ------------------------------------------------------------- */

/* An error about the file as a whole (text taken over): err, or -ENOMEM. */
static int file_error(struct config_diag *diag, const char *path, int err, char *text)
{
	return diag_push(diag, path, 0, CONFIG_ERROR, text) < 0 ? -ENOMEM : err;
}

static int load_error(struct config_diag *diag, const char *path, int err)
{
	char reason[128];

	return file_error(diag, path, err,
			  format("cannot read: %s", strerror_r(-err, reason, sizeof(reason))));
}

/* Reads the file at path into a new buffer (*text, *len).  Errors are
 * reported in diag and returned as -errno. */
static int read_config_file(const char *path, char **text, size_t *len,
			    struct config_diag *diag)
{
	char *buf = NULL;
	/* O_NONBLOCK: a FIFO (or a device) named as the config must not
	 * block the daemon's only thread; only a regular file is read. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	int err;

	*text = NULL;
	if (fd < 0)
		return load_error(diag, path, -errno);
	if (fstat(fd, &st) < 0) {
		err = load_error(diag, path, -errno);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = file_error(diag, path, -EINVAL, strdup("not a regular file; not reading it"));
		goto out;
	}
	buf = malloc(MAX_FILE + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	/* At most MAX_FILE + 1 bytes, so "too large" needs no stat. */
	err = whole_fd_read(fd, buf, MAX_FILE + 1, len);
	if (err < 0) {
		err = load_error(diag, path, err);
		goto out;
	}
	if (*len > MAX_FILE) {
		err = file_error(diag, path, -EFBIG,
				 format("too large (more than %d bytes)", MAX_FILE));
		goto out;
	}
	if (*len > 0 && buf[*len - 1] != '\n') {
		/* What a file caught while being rewritten in place looks like;
		 * a complete file ends with a newline. */
		err = file_error(diag, path, -EINVAL,
				 strdup("the last line has no newline: the file may have been "
					"cut while being written; not using it"));
		goto out;
	}
	*text = buf;
	buf = NULL;
out:
	close(fd);
	free(buf);
	return err;
}

char *config_dropin_dir(const char *path)
{
	return format("%s.d", path);
}

/* A drop-in's name: NAME.conf, NAME not empty and not hidden (editors'
 * and package managers' leftovers such as .#x.conf or x.conf.dpkg-old are
 * not read). */
static bool dropin_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > strlen(".conf") &&
	       strcmp(name + n - strlen(".conf"), ".conf") == 0;
}

static int dropin_by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths of dir's drop-ins in lexical (byte) order into *paths; a
 * missing dir is none.  Errors are reported in diag. */
static int list_dropins(const char *dir, char ***paths, size_t *n, struct config_diag *diag)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t count = 0;
	int err = 0;

	*paths = NULL;
	*n = 0;
	if (!d)
		return errno == ENOENT ? 0 : load_error(diag, dir, -errno);
	v = calloc(MAX_DROPINS + 1, sizeof(*v));
	if (!v) {
		closedir(d);
		return -ENOMEM;
	}
	for (struct dirent *e; (errno = 0, e = readdir(d));) {
		if (!dropin_name(e->d_name))
			continue;
		if (count == MAX_DROPINS) {
			err = file_error(diag, dir, -E2BIG,
					 format("more than %d drop-ins", MAX_DROPINS));
			goto out;
		}
		if (!(v[count] = format("%s/%s", dir, e->d_name))) {
			err = -ENOMEM;
			goto out;
		}
		count++;
	}
	if (errno)
		err = load_error(diag, dir, -errno);
out:
	closedir(d);
	if (err) {
		for (size_t i = 0; i < count; i++)
			free(v[i]);
		free(v);
		return err;
	}
	qsort(v, count, sizeof(*v), dropin_by_name);
	*paths = v;
	*n = count;
	return 0;
}

int config_load(const char *path, struct desired *out, struct config_diag *diag)
{
	return config_load_kernel(path, 0, out, diag);
}

int config_load_kernel(const char *path, uint16_t kver, struct desired *out,
		       struct config_diag *diag)
{
	char *dir = config_dropin_dir(path), **dropins = NULL, *text = NULL;
	char *buf = malloc(MAX_LINE + 1);
	struct parser *p = parser_new(diag);
	size_t n_dropins = 0, len = 0;
	int err = -ENOMEM;

	if (!dir || !buf || !p)
		goto out;
	p->kver = kver;
	/* An unreadable drop-in fails the whole load, like a bad line: no
	 * result, whatever was parsed before it. */
	if ((err = read_config_file(path, &text, &len, diag)) < 0)
		goto out;
	if ((err = list_dropins(dir, &dropins, &n_dropins, diag)) < 0)
		goto out;
	parser_feed(p, path, text, len, buf);
	for (size_t i = 0; i < n_dropins; i++) {
		free(text);
		if ((err = read_config_file(dropins[i], &text, &len, diag)) < 0)
			goto out;
		parser_feed(p, dropins[i], text, len, buf);
	}
	err = parser_finish(p, out);
out:
	parser_free(p);
	for (size_t i = 0; i < n_dropins; i++)
		free(dropins[i]);
	free(dropins);
	free(text);
	free(buf);
	free(dir);
	return err;
}
