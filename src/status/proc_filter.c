/* SPDX-License-Identifier: MIT */
#include "proc_filter.h"

#include <stdbool.h>
#include <string.h>

#include "observed.h"

static bool starts(const char *line, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(line, prefix, p) == 0;
}

/* The line at *pos of text[len], *n bytes long without its '\n'; *pos moves
 * past the '\n' (or to len when the text ends without one). */
static const char *proc_next_line(const char *text, size_t len, size_t *pos, size_t *n)
{
	const char *line = text + *pos;
	const char *nl = memchr(line, '\n', len - *pos);
	*n = nl ? (size_t)(nl - line) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	return line;
}

static bool ends(const char *line, size_t n, const char *suffix)
{
	size_t s = strlen(suffix);
	return n >= s && memcmp(line + n - s, suffix, s) == 0;
}

void proc_filter_unprivileged(const char *text, size_t len, struct strbuf *out)
{
	/* What a hidden block's continuation lines start with, while in one. */
	const char *block = NULL;

	for (size_t pos = 0, n; pos < len;) {
		const char *line = proc_next_line(text, len, &pos, &n);

		if (block) {
			if (starts(line, n, block))
				continue;
			block = NULL;
		}
		/* The bond's 802.3ad section (bond_info_show_master). */
		if (starts(line, n, "System priority: ") || starts(line, n, "System MAC address: "))
			continue;
		if (starts(line, n, "bond ") && ends(line, n, " has no active aggregator"))
			continue;
		if (n == strlen("Active Aggregator Info:") &&
		    starts(line, n, "Active Aggregator Info:")) {
			block = "\t";
			continue;
		}
		/* Each slave's (bond_info_show_slave). */
		if ((n == strlen("details actor lacp pdu:") &&
		     starts(line, n, "details actor lacp pdu:")) ||
		    (n == strlen("details partner lacp pdu:") &&
		     starts(line, n, "details partner lacp pdu:"))) {
			block = "    ";
			continue;
		}
		sb_add(out, line, pos - (size_t)(line - text)); /* with its '\n' */
	}
}

/* enum ad_churn of a /proc churn state word (include/net/bond_3ad.h
 * bond_3ad_churn_desc), or -1. */
static int churn_word(const char *w, size_t n)
{
	for (int state = AD_CHURN_MONITOR; state <= AD_CHURN_NONE; state++) {
		const char *name = ad_churn_name((uint8_t)state);
		if (name && strlen(name) == n && memcmp(name, w, n) == 0)
			return state;
	}
	return -1;
}

/* The rest of the first line that starts with `prefix` in slave's block
 * of text (the lines after "Slave Interface: <slave>", up to the next
 * slave's), its length in *rest_n; NULL when the block has none. */
static const char *slave_field(const char *text, size_t len, const char *slave,
			       const char *prefix, size_t *rest_n)
{
	static const char head[] = "Slave Interface: ";
	size_t p = strlen(prefix);
	bool in = false;

	for (size_t pos = 0, n; pos < len;) {
		const char *line = proc_next_line(text, len, &pos, &n);

		if (starts(line, n, head)) {
			if (in)
				return NULL; /* the next slave's block: ours is over */
			in = n - (sizeof(head) - 1) == strlen(slave) &&
			     memcmp(line + sizeof(head) - 1, slave, n - (sizeof(head) - 1)) == 0;
			continue;
		}
		if (in && starts(line, n, prefix)) {
			*rest_n = n - p;
			return line + p;
		}
	}
	return NULL;
}

bool proc_churn_states(const char *text, size_t len, const char *slave, uint8_t *actor,
		       uint8_t *partner)
{
	size_t an, pn;
	const char *aw = slave_field(text, len, slave, "Actor Churn State: ", &an);
	const char *pw = slave_field(text, len, slave, "Partner Churn State: ", &pn);
	int a = aw ? churn_word(aw, an) : -1, p = pw ? churn_word(pw, pn) : -1;

	if (a < 0 || p < 0)
		return false;
	*actor = (uint8_t)a;
	*partner = (uint8_t)p;
	return true;
}

/* A number of n bytes: digits only, at most 65535; -1 otherwise. */
static int id_of(const char *w, size_t n)
{
	long v = 0;
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -1;
		v = v * 10 + (w[i] - '0');
		if (v > 65535)
			return -1;
	}
	return (int)v;
}

bool proc_active_aggregator(const char *text, size_t len, uint16_t *id)
{
	static const char head[] = "Active Aggregator Info:", line_id[] = "\tAggregator ID: ";
	bool in = false;

	for (size_t pos = 0, n; pos < len;) {
		const char *line = proc_next_line(text, len, &pos, &n);

		if (starts(line, n, "Slave Interface: "))
			return false;
		if (n == sizeof(head) - 1 && starts(line, n, head)) {
			in = true;
			continue;
		}
		if (!in)
			continue;
		if (!starts(line, n, "\t"))
			return false; /* the section is over */
		if (starts(line, n, line_id)) {
			int v = id_of(line + sizeof(line_id) - 1, n - (sizeof(line_id) - 1));
			if (v < 0)
				return false;
			*id = (uint16_t)v;
			return true;
		}
	}
	return false;
}

bool proc_slave_aggregator(const char *text, size_t len, const char *slave, uint16_t *id)
{
	size_t n;
	const char *w = slave_field(text, len, slave, "Aggregator ID: ", &n);
	int v = w ? id_of(w, n) : -1;

	if (v < 0)
		return false;
	*id = (uint16_t)v;
	return true;
}

/* A finished slave block, to fn: the churn states only when both lines
 * were there and known, as proc_churn_states. */
static void lacp_block_end(struct proc_lacp_slave *s, int actor, int partner,
			   void (*fn)(void *ctx, const struct proc_lacp_slave *s), void *ctx)
{
	if (!s->name)
		return;
	s->has_churn = actor >= 0 && partner >= 0;
	if (s->has_churn) {
		s->actor_churn = (uint8_t)actor;
		s->partner_churn = (uint8_t)partner;
	}
	fn(ctx, s);
}

void proc_lacp_scan(const char *text, size_t len,
		    void (*fn)(void *ctx, const struct proc_lacp_slave *s), void *ctx)
{
	static const char head[] = "Slave Interface: ", agg[] = "Aggregator ID: ",
			  actor[] = "Actor Churn State: ", partner[] = "Partner Churn State: ";
	struct proc_lacp_slave cur = {0};
	int a = -1, p = -1;
	bool seen_agg = false, seen_a = false, seen_p = false;

	for (size_t pos = 0, n; pos < len;) {
		const char *line = proc_next_line(text, len, &pos, &n);

		if (starts(line, n, head)) {
			lacp_block_end(&cur, a, p, fn, ctx);
			cur = (struct proc_lacp_slave){.name = line + sizeof(head) - 1,
						       .name_len = n - (sizeof(head) - 1)};
			a = p = -1;
			seen_agg = seen_a = seen_p = false;
			continue;
		}
		if (!cur.name)
			continue;
		/* The first of each line in the block counts, as slave_field
		 * takes it. */
		if (!seen_agg && starts(line, n, agg)) {
			seen_agg = true;
			int v = id_of(line + sizeof(agg) - 1, n - (sizeof(agg) - 1));
			if (v >= 0) {
				cur.has_aggregator = true;
				cur.aggregator = (uint16_t)v;
			}
		} else if (!seen_a && starts(line, n, actor)) {
			seen_a = true;
			a = churn_word(line + sizeof(actor) - 1, n - (sizeof(actor) - 1));
		} else if (!seen_p && starts(line, n, partner)) {
			seen_p = true;
			p = churn_word(line + sizeof(partner) - 1, n - (sizeof(partner) - 1));
		}
	}
	lacp_block_end(&cur, a, p, fn, ctx);
}
