/* SPDX-License-Identifier: MIT */
/*
 * bondd.conf text from an import_result, checked by bondd's own parser.
 *
 * The readers carry over what the source says; whether bondd (and the
 * kernel) would take it is decided here, once, by the same parser the
 * daemon uses: every line it refuses is turned into a comment with its
 * reason, and the text is parsed again until it is clean.  So the output
 * always passes `bondd --check`, and nothing is dropped silently.
 */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_config.h"
#include "config.h"

#define CHECK_NAME "import"
#define MAX_ROUNDS 8

static void render_bond(const struct import_bond *b, const char *format, struct strbuf *out)
{
	sb_printf(out, "\n[%s]\n", b->name);
	sb_printf(out, "# From %s.\n", b->source);
	if (!import_get_opt(b, "mode"))
		sb_puts(out, "# No mode in the source: the kernel's default.\n"
			     "mode = balance-rr\n");
	for (size_t i = 0; i < b->n_opts; i++)
		if (strcmp(b->opts[i].key, "mode") == 0)
			sb_printf(out, "mode = %s\n", b->opts[i].value);
	for (size_t i = 0; i < b->n_opts; i++)
		if (strcmp(b->opts[i].key, "mode") != 0)
			sb_printf(out, "%s = %s\n", b->opts[i].key, b->opts[i].value);
	if (b->mac[0])
		sb_printf(out, "mac_address = %s\n", b->mac);
	if (b->mtu) {
		sb_printf(out, "mtu = %u\n", b->mtu);
	} else {
		sb_puts(out, "# No MTU in the source: 1500, the kernel's default (bondd's is 9000).\n"
			     "mtu = 1500\n");
	}
	if (b->n_slaves) {
		if (b->order_note)
			sb_printf(out, "# Slave order: %s\n", b->order_note);
		sb_puts(out, "slaves =");
		for (size_t i = 0; i < b->n_slaves; i++)
			sb_printf(out, " %s", b->slaves[i]);
		sb_puts(out, "\n");
	} else {
		sb_puts(out, "# No slaves found in the source for this bond.\n");
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		if (b->has_prio[i])
			sb_printf(out, "slave.%s.prio = %d\n", b->slaves[i], (int)b->prio[i]);
		if (b->has_queue_id[i])
			sb_printf(out, "slave.%s.queue_id = %u\n", b->slaves[i],
				  (unsigned)b->queue_id[i]);
	}
	for (size_t i = 0; i < b->n_addrs; i++)
		sb_printf(out, "address = %s\n", b->addrs[i]);
	/* NetworkManager never makes a link it does not manage a bridge port,
	 * and ifupdown has no daemon to do it again after the bond was
	 * deleted: bondd does (bondd.conf(5), bridge).  networkd and netplan
	 * keep the port themselves (the companion). */
	if (*b->bridge && (strcmp(format, "NetworkManager") == 0 || strcmp(format, "ifupdown") == 0))
		sb_printf(out, "# %s is a port of bridge %s in the source: bondd keeps it one.\n"
			  "bridge = %s\n", b->name, b->bridge, b->bridge);
	if (b->notes.len)
		sb_add(out, b->notes.s, b->notes.len);
}

/* Turns the lines the parser refused into comments; false when no message
 * names a line (nothing more can be done). */
static bool comment_out(struct strbuf *text, const struct config_diag *diag)
{
	struct strbuf next = {0};
	const char *at = text->s;
	unsigned line = 0;
	bool changed = false;

	while (at && *at) {
		const char *nl = strchr(at, '\n');
		size_t n = nl ? (size_t)(nl - at) : strlen(at);
		bool refused = false;
		line++;
		for (size_t i = 0; i < diag->n_items; i++) {
			const struct config_diagnostic *e = &diag->items[i];
			if (e->severity == CONFIG_ERROR && e->line == line) {
				sb_printf(&next, "# bondd would refuse the next line: %s\n", e->text);
				refused = true;
			}
		}
		if (refused) {
			sb_puts(&next, "# ");
			changed = true;
		}
		sb_add(&next, at, n);
		sb_puts(&next, "\n");
		at = nl ? nl + 1 : NULL;
	}
	if (next.oom) {
		sb_free(&next);
		text->oom = true;
		return false;
	}
	sb_free(text);
	*text = next;
	return changed;
}

/* Puts each warning bondd gives about an option line above that line: the
 * kernel takes the value but ignores or changes it, and the admin reading
 * the import should know (a bond's own warnings, at its [section] line, are
 * --check's to give). */
static void annotate_warnings(struct strbuf *text, const struct config_diag *diag)
{
	struct strbuf next = {0};
	const char *at = text->s;
	unsigned line = 0;

	while (at && *at) {
		const char *nl = strchr(at, '\n');
		size_t n = nl ? (size_t)(nl - at) : strlen(at);
		line++;
		for (size_t i = 0; n && *at != '[' && *at != '#' && i < diag->n_items; i++) {
			const struct config_diagnostic *e = &diag->items[i];
			if (e->severity == CONFIG_WARNING && e->line == line)
				sb_printf(&next, "# bondd warns about the next line: %s\n", e->text);
		}
		sb_add(&next, at, n);
		sb_puts(&next, "\n");
		at = nl ? nl + 1 : NULL;
	}
	if (next.oom) {
		sb_free(&next);
		text->oom = true;
		return;
	}
	sb_free(text);
	*text = next;
}

int import_render(const struct import_result *r, struct strbuf *out)
{
	struct strbuf text = {0};
	int err = 0;

	sb_printf(&text, "# bondd.conf written by bondd-import %s from %s files.\n"
		  "# Read it, then check it: bondd --check --config FILE\n",
		  BONDD_VERSION, r->format);
	if (r->n_bonds == 0)
		sb_puts(&text, "# No bond found in the source.\n");
	if (r->notes.len)
		sb_add(&text, r->notes.s, r->notes.len);
	for (size_t i = 0; i < r->n_bonds; i++)
		render_bond(&r->bonds[i], r->format, &text);

	for (int round = 0; round < MAX_ROUNDS && !text.oom; round++) {
		struct desired d = {0};
		struct config_diag diag = {0};
		err = config_parse(CHECK_NAME, text.s, text.len, &d, &diag);
		if (err == 0) {
			desired_free(&d);
			annotate_warnings(&text, &diag);
		}
		bool changed = err == -EINVAL && comment_out(&text, &diag);
		config_diag_free(&diag);
		if (err != -EINVAL || !changed)
			break;
	}
	/* The companion after the check: comments only, with its own
	 * marker, so that `sed -n 's/^#| \?//p'` extracts it. */
	if (err == 0) {
		struct strbuf comp = {0};
		if (import_companion(r, "#|", &comp) < 0)
			text.oom = true;
		if (comp.len) {
			sb_printf(&text, "\n# The companion for %s: what it needs to keep stacking on\n"
				  "# bondd's bonds (bondd(8), LIVING BESIDE OTHER NETWORK MANAGERS).\n"
				  "# Each file after its == PATH == line; bondd-import --companion\n"
				  "# prints it alone.\n", r->format);
			sb_add(&text, comp.s, comp.len);
		}
		sb_free(&comp);
	}
	if (text.oom)
		err = -ENOMEM;
	if (err == 0) {
		sb_add(out, text.s, text.len);
		if (out->oom)
			err = -ENOMEM;
	} else if (err == -EINVAL) {
		err = -EPROTO; /* refused text that names no line: a bug here */
	}
	sb_free(&text);
	return err;
}
