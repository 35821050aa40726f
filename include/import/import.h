/* SPDX-License-Identifier: MIT */
/*
 * bondd-import(8): other tools' bond configurations into bondd.conf.
 *
 * Each reader (import_ifcfg.c, import_networkd.c, import_nm.c,
 * import_teamd.c, import_netplan.c, import_ifupdown.c) has the same
 * shape: the files' text in, plain data out (struct import_result: the bonds
 * with the option lines, MTU, slaves in order and addresses the source
 * means, plus a note for everything it cannot carry over).  import_render
 * turns that into bondd.conf text.  No reader touches the disk or the
 * kernel: bondd_import.c reads the files.
 */
#ifndef BONDD_IMPORT_H
#define BONDD_IMPORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "desired.h"
#include "strbuf.h"

#define IMPORT_MAX_FILES 4096
#define IMPORT_MAX_FILE (1024 * 1024)
#define IMPORT_MAX_BONDS 256
#define IMPORT_MAX_OPTS 48
#define IMPORT_MAX_VLANS 16

/* One input file: its name as given (for comments) and its bytes. */
struct import_file {
	const char *name;
	const char *text;
	size_t len;
};

/* An option line, key as bondd.conf spells it (the kernel's name). */
struct import_opt {
	char key[32];
	char value[256];
};

struct import_bond {
	char name[IFNAMSIZ];
	char source[256];          /* the file it was defined in */
	struct import_opt opts[IMPORT_MAX_OPTS]; /* source order; mode is added if absent */
	size_t n_opts;
	uint32_t mtu;              /* 0: the source sets none */
	/* Bond order; each a name or a selector (mac:..., path:...,
	 * bondd.conf(5)) when the source names the port by its hardware. */
	char slaves[BONDD_MAX_SLAVES][SEL_TEXT_MAX];
	size_t n_slaves;
	/* Per-slave settings, parallel to slaves (slave.NAME.prio/queue_id). */
	bool has_prio[BONDD_MAX_SLAVES], has_queue_id[BONDD_MAX_SLAVES];
	int32_t prio[BONDD_MAX_SLAVES];
	uint16_t queue_id[BONDD_MAX_SLAVES];
	char addrs[BONDD_MAX_ADDRS][64];         /* ADDR/PREFIX */
	size_t n_addrs;
	struct strbuf notes;       /* "# ..." lines: what is not carried over */
	const char *order_note;    /* how the slave order was decided */
	char mac[18];              /* the bond's own MAC (mac_address), "" when none */
	/* What the source stacks on the bond: bondd makes neither, and the
	 * companion (import_companion) keeps them in the source's manager. */
	char vlans[IMPORT_MAX_VLANS][IFNAMSIZ]; /* VLANs whose lower link it is */
	size_t n_vlans;
	char bridge[IFNAMSIZ];     /* the bridge it is a port of, "" when none */
	bool np_networkd;          /* netplan: the networkd renderer */
};

struct import_result {
	const char *format;        /* "ifcfg", "networkd", "nm" */
	struct import_bond *bonds;
	size_t n_bonds, cap_bonds;
	struct strbuf notes;       /* notes that belong to no bond */
};

void import_result_free(struct import_result *r);

/* Each returns 0, or -ENOMEM.  Input it does not understand becomes notes. */
int import_ifcfg(const struct import_file *files, size_t n, struct import_result *out);
int import_networkd(const struct import_file *files, size_t n, struct import_result *out);
int import_nm(const struct import_file *files, size_t n, struct import_result *out);
int import_teamd(const struct import_file *files, size_t n, struct import_result *out);
int import_netplan(const struct import_file *files, size_t n, struct import_result *out);
int import_ifupdown(const struct import_file *files, size_t n, struct import_result *out);

/*
 * ifupdown's includes: for each source (dir false) or source-directory
 * (dir true) line of a file, fn gets the pattern or directory as ifupdown
 * resolves it (relative to the file's own directory).  bondd_import.c
 * reads what they name; import_ifupdown follows the lines among the files
 * it is given.  import_ifupdown_dir_entry: whether source-directory reads
 * a file of that name (run-parts' rule).
 */
void import_ifupdown_includes(const char *name, const char *text, size_t len,
			      void (*fn)(void *ctx, bool dir, const char *pattern), void *ctx);
bool import_ifupdown_dir_entry(const char *name);

/*
 * The bondd.conf text for r.  It is checked with bondd's own parser before
 * it is handed out: a line bondd would refuse (an option the mode ignores, a
 * value out of range) is turned into a comment that says why, so the text
 * always passes `bondd --check`.  Returns 0 or -ENOMEM.
 */
int import_render(const struct import_result *r, struct strbuf *out);

/*
 * The companion files for the bonds of r that have uppers (VLANs, a
 * bridge): what the source's manager needs so that it keeps stacking on
 * bondd's bond (a networkd .network for the bond that only stacks and one
 * that keeps networkd off the slaves; netplan's ethernets: entry that
 * makes the bond a netplan ID; the ifupdown stanza with the bond's MTU;
 * NetworkManager's unmanaged-devices).  Each file starts with a line
 * "== PATH ==" (prefix before every line, "" for none); nothing when no
 * bond has uppers or the format has no companion.  Returns 0 or -ENOMEM.
 */
int import_companion(const struct import_result *r, const char *prefix, struct strbuf *out);

/* ---- helpers the readers share (import_model.c) ---- */

/* A new bond named name (cut to IFNAMSIZ - 1, with a note), or NULL when
 * out of memory or there are too many (noted). */
struct import_bond *import_add_bond(struct import_result *r, const char *name,
				    const char *source);
struct import_bond *import_find_bond(struct import_result *r, const char *name);

/* -ENOMEM when a note of r or of one of its bonds could not be kept (every
 * reader ends with it: a result with a note lost is not whole), else 0. */
int import_result_oom(const struct import_result *r);
/* Adds or replaces option key; a key bondd does not know becomes a note
 * naming what (from) the source said.  Returns false when not added. */
bool import_set_opt(struct import_bond *b, const char *key, const char *value,
		    const char *from);
const char *import_get_opt(const struct import_bond *b, const char *key);
bool import_add_slave(struct import_bond *b, const char *name, const char *from);
/*
 * A slave the source names by its permanent MAC (kind "mac") or its device
 * path in udev's ID_PATH form (kind "path"): added as mac:... or path:...
 * (the MAC in colon form; "-" separators taken), which survives renames.
 * False, with a note, when the value cannot be one (a pattern, a
 * malformed address): the caller then falls back to the name, if any.
 */
bool import_add_slave_by(struct import_bond *b, const char *kind, const char *value,
			 const char *from);
bool import_add_addr(struct import_bond *b, const char *cidr, const char *from);
/* A VLAN on the bond (kept once, in the source's order) or the bridge it is a
 * port of (the first one named; another is noted).  A name that is no
 * interface name is noted and not kept. */
void import_add_vlan(struct import_bond *b, const char *name, const char *from);
void import_set_bridge(struct import_bond *b, const char *name, const char *from);
void import_note(struct strbuf *notes, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * One KEY=VALUE a reader took from a file (ifcfg variables, ifupdown stanza
 * options), with the line it stood on where the reader keeps it.  The
 * readers keep an array of them and a parallel array of flags: which were
 * carried over or noted.
 */
struct import_kv {
	char key[64];
	char value[512];
	unsigned line;
};

/* The value of the last of the n entries of v named key (the last one wins),
 * or NULL. */
const char *import_kv_get(const struct import_kv *v, size_t n, const char *key);
/* Sets used[i] for every one of the n entries of v named key. */
void import_kv_mark(const struct import_kv *v, bool *used, size_t n, const char *key);

/* "a.b.c.d" + "255.255.255.0" -> 24; -1 if not a contiguous IPv4 mask. */
int import_netmask_prefix(const char *mask);

/*
 * Cursor over an ini-style file (systemd unit files, GLib key files):
 * "[Section]" headers, "Key=Value" lines, '#' and ';' comments.  Each
 * ini_next moves to the next Key=Value line and returns true, or false at
 * the end; section, key, val, line and from then describe that line (key
 * and val point into a copy the cursor owns, and may be changed).  Lines
 * that are neither are skipped and counted in bad_lines.
 */
struct ini_cursor {
	char *copy, *at, *end;
	const char *name;  /* the file's */
	char section[128]; /* "" before the first header */
	char *key, *val;
	unsigned line, bad_lines;
	char from[320];    /* "FILE:LINE", for notes */
};
int ini_open(struct ini_cursor *c, const struct import_file *in);
bool ini_next(struct ini_cursor *c);
void ini_close(struct ini_cursor *c);

/* JSON, for teamd's configuration (import_json.c). */
enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

struct json {
	enum json_type type;
	bool b;
	double num;
	char *str;
	struct json *items;        /* JSON_ARR and JSON_OBJ: n values */
	char **keys;               /* JSON_OBJ: n keys, in file order */
	size_t n;
};

/* 0, or -EINVAL with "why at byte N" in err, or -ENOMEM. */
int json_parse(const char *text, size_t len, struct json *out, char *err, size_t errlen);
void json_free(struct json *v);
/* The value of key in an object (the last one if repeated), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);

#endif
