/* SPDX-License-Identifier: MIT */
/*
 * bondd-import: prints the bondd.conf that does what another tool's bond
 * configuration does (bondd-import(8)).  This file only reads the files;
 * the readers (import_*.c) and the renderer are pure.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "build_config.h"
#include "grow.h"
#include "import.h"
#include "whole_file.h"

/* sysexits.h values, spelled out where they are used. */
enum { EXIT_NOBOND = 1, EXIT_USAGE = 64, EXIT_NOINPUT = 66, EXIT_SOFTWARE = 70 };

struct format {
	const char *name;
	int (*read)(const struct import_file *, size_t, struct import_result *);
	const char *dirs[4]; /* read when no PATH is given, in precedence order */
};

static const struct format formats[] = {
	{"ifcfg", import_ifcfg, {"/etc/sysconfig/network-scripts", NULL}},
	{"networkd", import_networkd,
	 {"/etc/systemd/network", "/run/systemd/network", "/usr/lib/systemd/network", NULL}},
	{"nm", import_nm,
	 {"/etc/NetworkManager/system-connections", "/run/NetworkManager/system-connections",
	  "/usr/lib/NetworkManager/system-connections", NULL}},
	/* teamd's JSON has no place of its own: a PATH is needed. */
	{"teamd", import_teamd, {NULL}},
	/* netplan's precedence: of files with one name, /run's is read. */
	{"netplan", import_netplan, {"/run/netplan", "/etc/netplan", "/lib/netplan", NULL}},
	/* A file: its source and source-directory lines name the rest. */
	{"ifupdown", import_ifupdown, {"/etc/network/interfaces", NULL}},
};

/* What one file is, whatever the name it was reached by. */
struct file_id {
	dev_t dev;
	ino_t ino;
};

struct inputs {
	struct import_file *files;
	size_t n, cap;
	struct file_id *ids;       /* parallel to files */
	size_t cap_ids;
	size_t nul_at;             /* where read_one found a NUL byte */
};

/* Most paths one ifupdown source pattern may reach, at any of its levels:
 * a pattern through a directory that links to itself otherwise doubles
 * its matches with every "/ *" (bondd-import(8)). */
#define IMPORT_MAX_GLOB 1024

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: bondd-import [--companion] FORMAT [PATH...]\n"
		"Prints the bondd.conf that makes the bonds another tool's files describe.\n"
		"\n"
		"FORMAT is one of:\n"
		"  ifcfg     RHEL initscripts ifcfg-* files (default %s)\n"
		"  networkd  systemd-networkd .netdev and .network files (default %s,\n"
		"            %s, %s)\n"
		"  nm        NetworkManager keyfiles (default %s,\n"
		"            %s, %s)\n"
		"  teamd     teamd JSON configurations (teamd -f FILE, teamdctl DEV config dump)\n"
		"  netplan   netplan YAML files (default %s, %s,\n"
		"            %s)\n"
		"  ifupdown  ifupdown's interfaces(5) with ifenslave's or ifupdown2's bond-*\n"
		"            keys, following source lines (default %s)\n"
		"PATH is a file, or a directory whose files of that format are read.\n"
		"\n"
		"  -c, --companion print only the companion: the files the source's manager\n"
		"                  needs to keep the VLANs and bridges on bondd's bonds\n"
		"  -h, --help      print this help and exit\n"
		"  -V, --version   print the version and exit\n"
		"\n"
		"See bondd-import(8).\n",
		formats[0].dirs[0], formats[1].dirs[0], formats[1].dirs[1], formats[1].dirs[2],
		formats[2].dirs[0], formats[2].dirs[1], formats[2].dirs[2], formats[4].dirs[0],
		formats[4].dirs[1], formats[4].dirs[2], formats[5].dirs[0]);
}

/* Whether a directory entry is a file of the format (a file named on the
 * command line is always read). */
static bool dir_wants(const struct format *f, const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.' || (n && name[n - 1] == '~'))
		return false;
	if (strcmp(f->name, "ifcfg") == 0)
		return strncmp(name, "ifcfg-", 6) == 0;
	if (strcmp(f->name, "networkd") == 0)
		return (n > 7 && strcmp(name + n - 7, ".netdev") == 0) ||
		       (n > 8 && strcmp(name + n - 8, ".network") == 0);
	if (strcmp(f->name, "netplan") == 0)
		return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
	if (strcmp(f->name, "ifupdown") == 0)
		return import_ifupdown_dir_entry(name);
	return true;
}

/* read_one's answer for what is neither a regular file nor /dev/null (no
 * file read can fail with this errno). */
#define NOT_A_FILE (-EMEDIUMTYPE)

static const char *read_error(const struct inputs *in, int err)
{
	static char nul[96];

	if (err == -EFBIG)
		return "too large";
	if (err == NOT_A_FILE)
		return "not a regular file or a directory; not reading it";
	if (err == -EILSEQ) {
		snprintf(nul, sizeof(nul), "holds a NUL byte (at byte %zu): not a text file; "
			 "not reading it", in->nul_at);
		return nul;
	}
	return strerror(-err);
}

/* /dev/null: a networkd file masked by a symlink to it reads as empty. */
static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/*
 * Every file any reader gets goes through here.  Opened without blocking
 * and looked at before a byte is read: a FIFO (or a terminal, a socket, a
 * device) would wait for a writer for ever, or never end; only a regular
 * file is read, and /dev/null as empty.
 */
static int read_one(struct inputs *in, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int err = 0;
	struct stat st;

	/* A device is not even opened (opening some has effects: a tape
	 * rewinds); the fstat below catches a swap between the two. */
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) && !is_dev_null(&st))
		return NOT_A_FILE;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) && !is_dev_null(&st)) {
		err = NOT_A_FILE;
		goto out;
	}
	if (in->n == IMPORT_MAX_FILES) {
		err = -E2BIG;
		goto out;
	}
	buf = malloc(IMPORT_MAX_FILE + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	if ((err = whole_fd_read(fd, buf, IMPORT_MAX_FILE + 1, &len)) < 0)
		goto out;
	if (len > IMPORT_MAX_FILE) {
		err = -EFBIG;
		goto out;
	}
	/* No format's text holds a NUL byte; a reader would stop a line or a
	 * name at it without a word, so the file is refused, saying where. */
	const char *nul = memchr(buf, '\0', len);
	if (nul) {
		in->nul_at = (size_t)(nul - buf);
		err = -EILSEQ;
		goto out;
	}
	struct import_file *v = grow_array(in->files, &in->cap, in->n + 1, sizeof(*v), 16);
	struct file_id *ids = grow_array(in->ids, &in->cap_ids, in->n + 1, sizeof(*ids), 16);
	if (v)
		in->files = v;
	if (ids)
		in->ids = ids;
	if (!v || !ids) {
		err = -ENOMEM;
		goto out;
	}
	in->ids[in->n] = (struct file_id){st.st_dev, st.st_ino};
	char *small = realloc(buf, len ? len : 1); /* most files are small */
	if (small)
		buf = small;
	char *name = strdup(path);
	if (!name) {
		err = -ENOMEM;
		goto out;
	}
	in->files[in->n++] = (struct import_file){name, buf, len};
	buf = NULL;
out:
	close(fd);
	free(buf);
	return err;
}

/* ---- ifupdown's source and source-directory lines ---- */

struct patterns {
	char **v;
	bool *dir;
	size_t n, cap;
	bool oom;
};

static void add_pattern(void *ctx, bool dir, const char *pattern)
{
	struct patterns *p = ctx;

	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		char **v = realloc(p->v, cap * sizeof(*v));
		bool *d = v ? realloc(p->dir, cap * sizeof(*d)) : NULL;
		if (v)
			p->v = v;
		if (!v || !d) {
			p->oom = true;
			return;
		}
		p->dir = d;
		p->cap = cap;
	}
	if (!(p->v[p->n] = strdup(pattern))) {
		p->oom = true;
		return;
	}
	p->dir[p->n++] = dir;
}

/* Whether the file st describes was read already, under any name (a
 * directory that links to itself names one file many times). */
static bool have_file(const struct inputs *in, const struct stat *st)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->ids[i].dev == st->st_dev && in->ids[i].ino == st->st_ino)
			return true;
	return false;
}

/* One file a source line names, unless it is read already; like ifupdown,
 * a file that cannot be read is reported and the rest goes on. */
static int read_included(struct inputs *in, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || have_file(in, &st))
		return 0;
	int err = read_one(in, path);
	if (err < 0)
		fprintf(stderr, "bondd-import: %s: %s\n", path, read_error(in, err));
	return err == -ENOMEM || err == -E2BIG ? err : 0;
}

struct paths {
	char **v;
	size_t n, cap;
};

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	*p = (struct paths){0};
}

static int paths_push(struct paths *p, char *path)
{
	if (!path)
		return -ENOMEM;
	char **v = grow_array(p->v, &p->cap, p->n + 1, sizeof(*v), 16);
	if (!v) {
		free(path);
		return -ENOMEM;
	}
	p->v = v;
	p->v[p->n++] = path;
	return 0;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The paths a shell pattern names, as glob(3) lists them (sorted, a
 * component's wildcards not matching a leading dot), one component at a
 * time and bounded: a level that reaches a directory already reached
 * under another name drops it (the same files lie below), and a level
 * with more than IMPORT_MAX_GLOB paths ends the expansion (-E2BIG).
 */
static int bounded_glob(const char *pattern, struct paths *out)
{
	struct paths cur = {0}, next = {0};
	char *copy = strdup(pattern);
	int err = 0;

	*out = (struct paths){0};
	if (!copy)
		return -ENOMEM;
	/* "" stands for the working directory (names come out as the
	 * pattern spells them: "./d/a" for the pattern "./d/STAR"). */
	err = paths_push(&cur, strdup(pattern[0] == '/' ? "/" : ""));
	char *save = NULL;
	for (char *c = strtok_r(copy, "/", &save); c && !err; c = strtok_r(NULL, "/", &save)) {
		bool wild = strpbrk(c, "*?[") != NULL;
		for (size_t i = 0; i < cur.n && !err; i++) {
			const char *dir = cur.v[i];
			const char *sep = !*dir || strcmp(dir, "/") == 0 ? "" : "/";
			char *path;
			if (!wild) {
				if (asprintf(&path, "%s%s%s", dir, sep, c) < 0)
					path = NULL;
				err = paths_push(&next, path);
				continue;
			}
			DIR *d = opendir(*dir ? dir : ".");
			if (!d)
				continue;
			for (struct dirent *e; !err && (e = readdir(d));) {
				if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
				    fnmatch(c, e->d_name, FNM_PERIOD) != 0)
					continue;
				if (asprintf(&path, "%s%s%s", dir, sep, e->d_name) < 0)
					path = NULL;
				err = paths_push(&next, path);
				if (!err && next.n > IMPORT_MAX_GLOB)
					err = -E2BIG;
			}
			closedir(d);
		}
		/* One directory reached under several names: kept once. */
		size_t kept = 0;
		for (size_t i = 0; i < next.n; i++) {
			struct stat a, b;
			bool dup = false;
			if (stat(next.v[i], &a) == 0 && S_ISDIR(a.st_mode))
				for (size_t j = 0; j < kept && !dup; j++)
					dup = stat(next.v[j], &b) == 0 && a.st_dev == b.st_dev &&
					      a.st_ino == b.st_ino;
			if (dup)
				free(next.v[i]);
			else
				next.v[kept++] = next.v[i];
		}
		next.n = kept;
		paths_free(&cur);
		cur = next;
		next = (struct paths){0};
	}
	free(copy);
	paths_free(&next);
	if (err) {
		paths_free(&cur);
		return err;
	}
	qsort(cur.v, cur.n, sizeof(cur.v[0]), by_string);
	*out = cur;
	return 0;
}

/*
 * The files ifupdown's source and source-directory lines name, read after
 * the ones given, transitively (config.c, read_interfaces_defn: wordexp of
 * the pattern, scandir with run-parts' names for a directory).
 */
static int read_ifupdown_includes(struct inputs *in)
{
	int err = 0;

	for (size_t i = 0; i < in->n && !err; i++) {
		struct patterns p = {0};
		import_ifupdown_includes(in->files[i].name, in->files[i].text, in->files[i].len,
					 add_pattern, &p);
		if (p.oom)
			err = -ENOMEM;
		for (size_t j = 0; j < p.n && !err; j++) {
			struct paths g;
			int ge = bounded_glob(p.v[j], &g);
			if (ge == -E2BIG) {
				fprintf(stderr, "bondd-import: %s: a source pattern, %s, reaches more "
					"than %d paths; not followed\n", in->files[i].name, p.v[j],
					IMPORT_MAX_GLOB);
				continue;
			}
			if (ge < 0) {
				err = ge;
				break;
			}
			for (size_t k = 0; k < g.n && !err; k++) {
				if (!p.dir[j]) {
					err = read_included(in, g.v[k]);
					continue;
				}
				struct dirent **names;
				int nn = scandir(g.v[k], &names, NULL, alphasort);
				for (int e = 0; e < nn; e++) {
					char *path;
					if (!err && import_ifupdown_dir_entry(names[e]->d_name)) {
						if (asprintf(&path, "%s/%s", g.v[k],
							     names[e]->d_name) < 0) {
							err = -ENOMEM;
						} else {
							err = read_included(in, path);
							free(path);
						}
					}
					free(names[e]);
				}
				if (nn >= 0)
					free(names);
			}
			paths_free(&g);
		}
		for (size_t j = 0; j < p.n; j++)
			free(p.v[j]);
		free(p.v);
		free(p.dir);
	}
	if (err < 0)
		fprintf(stderr, "bondd-import: reading source files: %s\n", strerror(-err));
	return err;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push_path(char ***paths, size_t *n, size_t *cap, char *path)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		char **v = realloc(*paths, c * sizeof(*v));
		if (!v) {
			free(path);
			return -ENOMEM;
		}
		*paths = v;
		*cap = c;
	}
	(*paths)[(*n)++] = path;
	return 0;
}

/* A networkd unit's drop-in directory (systemd.network(5): UNIT.network.d,
 * UNIT.netdev.d, holding NAME.conf files). */
static bool is_dropin_dir(const struct format *f, const char *name)
{
	size_t n = strlen(name);
	return strcmp(f->name, "networkd") == 0 && name[0] != '.' &&
	       ((n > 10 && strcmp(name + n - 10, ".network.d") == 0) ||
		(n > 9 && strcmp(name + n - 9, ".netdev.d") == 0));
}

/* The .conf files of a drop-in directory (regular, or /dev/null: masked). */
static int dropin_paths(const char *dir, char ***paths, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return 0; /* not a directory after all, or gone: networkd reads nothing */
	for (struct dirent *e; !err && (errno = 0, e = readdir(d));) {
		size_t l = strlen(e->d_name);
		struct stat st;
		char *path;
		if (e->d_name[0] == '.' || l <= 5 || strcmp(e->d_name + l - 5, ".conf") != 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (stat(path, &st) < 0 || !(S_ISREG(st.st_mode) || is_dev_null(&st))) {
			fprintf(stderr, "bondd-import: %s: not a regular file; skipped\n", path);
			free(path);
			continue;
		}
		err = push_path(paths, n, cap, path);
	}
	closedir(d);
	return err;
}

/* The directory's files of the format, in name order (for networkd, with
 * the drop-ins of its units' directories). */
static int read_dir(struct inputs *in, const struct format *f, const char *dir)
{
	DIR *d = opendir(dir);
	char **paths = NULL;
	size_t n = 0, cap = 0;
	int err = 0;

	if (!d)
		return -errno;
	for (struct dirent *e; (errno = 0, e = readdir(d));) {
		struct stat st;
		char *path;
		if (is_dropin_dir(f, e->d_name)) {
			if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
				err = -ENOMEM;
				break;
			}
			err = dropin_paths(path, &paths, &n, &cap);
			free(path);
			if (err)
				break;
			continue;
		}
		if (!dir_wants(f, e->d_name))
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		/* Regular files (a symlink to /dev/null masks a networkd file:
		 * it reads as empty, which the reader knows); anything else of
		 * the format's name is skipped, and said so. */
		if (stat(path, &st) < 0 || !(S_ISREG(st.st_mode) || is_dev_null(&st))) {
			if (!access(path, F_OK) && !S_ISDIR(st.st_mode))
				fprintf(stderr, "bondd-import: %s: not a regular file; skipped\n",
					path);
			free(path);
			continue;
		}
		if ((err = push_path(&paths, &n, &cap, path)) < 0)
			break;
	}
	if (!err && errno)
		err = -errno;
	closedir(d);
	if (n > 1)
		qsort(paths, n, sizeof(*paths), by_path);
	for (size_t i = 0; i < n; i++) {
		int e = err ? 0 : read_one(in, paths[i]);
		if (e < 0) {
			fprintf(stderr, "bondd-import: %s: %s\n", paths[i], read_error(in, e));
			err = e;
		}
		free(paths[i]);
	}
	free(paths);
	return err;
}

static int read_path(struct inputs *in, const struct format *f, const char *path, bool given)
{
	struct stat st;
	int err;

	if (stat(path, &st) < 0) {
		err = -errno;
		if (!given && err == -ENOENT)
			return 0; /* a default directory this host does not have */
	} else if (S_ISDIR(st.st_mode)) {
		err = read_dir(in, f, path);
		return err == -ENOENT || err == 0 ? 0 : err;
	} else {
		err = read_one(in, path);
	}
	if (err < 0)
		fprintf(stderr, "bondd-import: %s: %s\n", path, read_error(in, err));
	return err;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"companion", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	bool companion = false;
	const struct format *f = NULL;
	struct inputs in = {0};
	struct import_result r = {0};
	struct strbuf out = {0};
	int c, status = 0;

	while ((c = getopt_long(argc, argv, "chV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			companion = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("bondd-import %s\n", BONDD_VERSION);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(argv[optind], formats[i].name) == 0)
			f = &formats[i];
	if (!f) {
		fprintf(stderr, "bondd-import: unknown format \"%s\" (ifcfg, networkd, nm, teamd, netplan or ifupdown)\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	optind++;
	if (optind == argc && !f->dirs[0]) {
		fprintf(stderr, "bondd-import: %s needs a PATH\n", f->name);
		return EXIT_USAGE;
	}
	if (optind == argc) {
		for (size_t i = 0; f->dirs[i] && !status; i++)
			if (read_path(&in, f, f->dirs[i], false) < 0)
				status = EXIT_NOINPUT;
	}
	for (int i = optind; i < argc && !status; i++)
		if (read_path(&in, f, argv[i], true) < 0)
			status = EXIT_NOINPUT;
	if (!status && f->read == import_ifupdown && read_ifupdown_includes(&in) < 0)
		status = EXIT_NOINPUT;
	if (status)
		goto out;

	int err = f->read(in.files, in.n, &r);
	if (!err)
		err = companion ? import_companion(&r, "", &out) : import_render(&r, &out);
	if (err < 0) {
		fprintf(stderr, "bondd-import: %s\n", strerror(-err));
		status = EXIT_SOFTWARE;
		goto out;
	}
	if (fwrite(out.s, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		fprintf(stderr, "bondd-import: writing: %s\n", strerror(errno));
		status = EXIT_SOFTWARE;
		goto out;
	}
	if (r.n_bonds == 0) {
		fprintf(stderr, "bondd-import: no bond found in %zu %s file%s\n", in.n, f->name,
			in.n == 1 ? "" : "s");
		status = EXIT_NOBOND;
	}
out:
	for (size_t i = 0; i < in.n; i++) {
		free((char *)in.files[i].name);
		free((char *)in.files[i].text);
	}
	free(in.files);
	free(in.ids);
	import_result_free(&r);
	sb_free(&out);
	return status;
}
