/* SPDX-License-Identifier: MIT */
/*
 * The config parser's own state and the functions its files share
 * (config_grammar.c drives the pass; see there).  Private to src/config/.
 */
#ifndef BONDD_CONFIG_PARSER_H
#define BONDD_CONFIG_PARSER_H

#include <limits.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "bond_rules.h"
#include "ifname.h"
#include "selector.h"
#include "name_map.h"
#include "config_hints.h"

#define MAX_LINE 4096            /* bytes in a line, newline excluded */
#define MAX_FILE (1024 * 1024)   /* config_load refuses anything bigger */
#define MAX_BONDS 1024           /* bounds memory on hostile input */
#define MAX_ERRORS 1000          /* then the rest is noise */
/* queue_id and prio, or queue_id and actor_port_prio: prio is for
 * active-backup, balance-tlb and balance-alb, actor_port_prio for 802.3ad. */
#define MAX_SLAVE_KEYS (2 * BONDD_MAX_SLAVES)
#define SHOW_MAX 64              /* input bytes quoted in a message */
#define MAX_DROPINS 256          /* files in bondd.conf.d */

/* Per-slave prio matters only where the bond picks one active slave. */
#define PRIO_MODES (MODE_BIT(MODE_ACTIVE_BACKUP) | MODE_BIT(MODE_BALANCE_TLB) | \
		    MODE_BIT(MODE_BALANCE_ALB))

#define MTU_MIN 68
#define MTU_MAX 65535

enum slave_attr { SA_QUEUE_ID, SA_PRIO, SA_ACTOR_PORT_PRIO };
/* By enum slave_attr (config_keys.c). */
extern const char *const slave_attr_names[3];

/* A slave.NAME.ATTR line, kept until the section's slaves are known. */
struct slave_key {
	char name[SEL_TEXT_MAX]; /* a selector, as slaves = may write it */
	enum slave_attr attr;
	int64_t value;
	unsigned line;
};

struct section {
	struct desired_bond b;
	bool keep;                        /* a valid new name: part of the result */
	unsigned opt_line[OPT__COUNT];    /* 0: not given */
	const char *opt_key[OPT__COUNT];  /* the spelling used, for messages */
	uint64_t bad;                     /* OPT_BIT of options with a refused value */
	unsigned mtu_line, slaves_line;
	unsigned keep_order_line, state_line;
	unsigned link_check_line;         /* 0: not given, the mode's default */
	unsigned lldp_line;               /* 0: not given (yes) */
	unsigned link_topology_line;      /* 0: not given (per-port) */
	unsigned tcp_cc_line, single_stream_line;
	unsigned mac_line;                /* mac_address */
	char primary_text[SEL_TEXT_MAX];  /* primary = as written */
	unsigned addr_line[BONDD_MAX_ADDRS];
	struct slave_key sk[MAX_SLAVE_KEYS];
	size_t n_sk;
	/* A drop-in's section for a bond of an earlier file: 1 + its index in
	 * parser.bonds; it may only add addresses.  0: a section of its own. */
	size_t extends;
};

/* A diagnostic while the files are read: its file by number, so that
 * sorting keeps the files' order. */
struct found {
	unsigned file_no;          /* 0: the main file, then the drop-ins in order */
	unsigned line;
	enum config_severity severity;
	size_t seq;                /* the order found, within a line */
	char *text;
};

struct parser {
	const char *file;
	unsigned file_no;          /* index of file in files */
	const char *files[1 + MAX_DROPINS];
	struct config_diag *diag;
	unsigned line;
	struct found *found;       /* errors and warnings (which fail nothing) */
	size_t n_found, cap_found;
	size_t n_errors, n_warns;  /* of found */
	int fatal;                 /* -ENOMEM: stop and report that */
	bool stop;                 /* too many errors */
	unsigned stop_line;
	const char *stop_file;
	struct desired_bond *bonds;
	unsigned *slaves_line;     /* parallel to bonds: line of their slaves key */
	unsigned *file_of;         /* parallel to bonds: the file_no they are in */
	size_t n_bonds, cap_bonds;
	struct name_map bond_at;   /* name of a bond -> its index in bonds */
	struct name_map slave_of;  /* name of a slave -> index of its bond */
	bool in_section;
	struct section sec;
	/* The running kernel (KVER), whose refusals are errors; 0: unknown. */
	uint16_t kver;
};

/* An input quoted in a message, at most SHOW_MAX bytes (config_diag.c). */
struct shown {
	char s[SHOW_MAX * 4 + 4];
};

/* Adds a diagnostic at file:line (line 0: the whole file), taking text
 * over (freed on failure too). */
int diag_push(struct config_diag *diag, const char *file, unsigned line,
	      enum config_severity severity, char *text);

char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Records an error at the given line of the file being read (not always
 * the current line: section checks point at the option's own line). */
void errorf(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like errorf, for a warning. */
void warnf(struct parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int flush_errors(struct parser *p);

const char *where(const struct parser *p, size_t i, unsigned line, char *buf, size_t len);

const char *show(struct shown *buf, const char *text);

char *trim(char *s);

char *next_item(char **cursor);

int parse_range(const char *s, uint64_t min, uint64_t max, uint64_t *out);

int parse_s32(const char *s, int32_t *out);

bool parse_mac(const char *s, uint8_t mac[6]);
/* A boolean as systemd takes one (parse_boolean in systemd's
 * src/basic/parse-util.c): 1, yes, y, true, t, on for true, 0, no, n,
 * false, f, off for false, the words in any case.  -1 when it is neither. */
int parse_boolean(const char *s);

bool ip4_is_multicast(const struct in_addr *a);

const struct desired_bond *find_built(const struct parser *p, const char *name);

const struct desired_bond *find_slave_built(const struct parser *p,
						   const char *slave, size_t *index);

int append_bond(struct parser *p, const struct desired_bond *b, unsigned slaves_line);

int slave_index(const struct desired_bond *b, const char *name);

void parse_option(struct parser *p, const struct bond_option_spec *d, const char *key,
			 char *val);

void parse_key(struct parser *p, const char *key, char *val);

void finish_section(struct parser *p);

void check_bonds_as_slaves(struct parser *p);

struct parser *parser_new(struct config_diag *diag);

void parser_feed(struct parser *p, const char *name, const char *text, size_t len,
			char *buf);

int parser_finish(struct parser *p, struct desired *out);

void parser_free(struct parser *p);

#endif
