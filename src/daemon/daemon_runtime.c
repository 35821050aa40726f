/* SPDX-License-Identifier: MIT */
/*
 * The daemon's runtime model: the records it keeps per configured bond and
 * link (runtime.h), looked up by name and rebuilt for a new configuration;
 * the bonds a wake-up plans (plan_touch.h); and the events it records for
 * the status socket.  The bottom of src/daemon/: every other file of the
 * folder calls it, it calls none of them.
 */
#include "daemon_parts.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void record_v(struct daemon *d, int64_t wall_ms, enum event_kind kind, const char *bond,
		     const char *link, const char *fmt, va_list ap)
	__attribute__((format(printf, 6, 0)));

static void record_v(struct daemon *d, int64_t wall_ms, enum event_kind kind, const char *bond,
		     const char *link, const char *fmt, va_list ap)
{
	struct event e = {.wall_ms = wall_ms, .kind = kind};

	snprintf(e.bond, sizeof(e.bond), "%s", bond ? bond : "");
	snprintf(e.link, sizeof(e.link), "%s", link ? link : "");
	vsnprintf(e.text, sizeof(e.text), fmt, ap);
	event_log_add(&d->events, &e);
	if (d->server)
		status_split_broadcast(d->server, &e);
}

/* Records an event for the status socket and sends it to watchers. */
void record(struct daemon *d, enum event_kind kind, const char *bond, const char *link,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	record_v(d, clock_wall_ms(), kind, bond, link, fmt, ap);
	va_end(ap);
}

/* The config's fate, for the reload metrics: every start, reload, refused
 * reload and trial step is an EV_CONFIG event recorded here, with its fate
 * said by the caller (not read back from the text). */
void record_config(struct daemon *d, enum config_fate fate, const char *bond, const char *fmt,
		   ...)
{
	int64_t now = clock_wall_ms();
	va_list ap;

	d->config_failed = fate == CONFIG_REFUSED;
	if (!d->config_failed)
		d->config_success_ms = now;
	va_start(ap, fmt);
	record_v(d, now, EV_CONFIG, bond, NULL, fmt, ap);
	va_end(ap);
}

struct bond_runtime *bond_rt(struct daemon *d, const char *name)
{
	for (size_t i = 0; i < d->n_bonds; i++)
		if (strcmp(d->bonds[i].name, name) == 0)
			return &d->bonds[i];
	return NULL;
}

struct link_runtime *link_rt(struct daemon *d, const char *name)
{
	/* Each bond's records are its own and then its slaves' (in config
	 * order, runtime_rebuild): the bond that names it says where. */
	size_t b = plan_touch_find(&d->touch, name);
	if (b < d->n_bonds && d->link_at && b < d->want.n_bonds) {
		size_t at = d->link_at[b], end = at + 1 + d->want.bonds[b].n_slaves;
		for (size_t i = at; i < end && i < d->n_links; i++)
			if (strcmp(d->links[i].name, name) == 0)
				return &d->links[i];
	}
	for (size_t i = 0; i < d->n_links; i++)
		if (strcmp(d->links[i].name, name) == 0)
			return &d->links[i];
	return NULL;
}

/* Builds the runtime records for a new config, keeping the counters of
 * bonds and links that stay. */
int runtime_rebuild(struct daemon *d, const struct desired *want)
{
	size_t n_links = 0;
	for (size_t i = 0; i < want->n_bonds; i++)
		n_links += 1 + want->bonds[i].n_slaves;
	struct bond_runtime *bonds = calloc(want->n_bonds ? want->n_bonds : 1, sizeof(*bonds));
	struct link_runtime *links = calloc(n_links ? n_links : 1, sizeof(*links));
	bool *touched = calloc(want->n_bonds ? want->n_bonds : 1, sizeof(*touched));
	size_t *link_at = calloc(want->n_bonds ? want->n_bonds : 1, sizeof(*link_at));
	if (!bonds || !links || !touched || !link_at) {
		free(bonds);
		free(links);
		free(touched);
		free(link_at);
		return -ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		struct bond_runtime *old = bond_rt(d, b->name);
		if (old)
			bonds[i] = *old;
		snprintf(bonds[i].name, IFNAMSIZ, "%s", b->name);
		link_at[i] = k;
		for (size_t j = 0; j <= b->n_slaves; j++) {
			const char *name = j == 0 ? b->name : b->slaves[j - 1].name;
			struct link_runtime *lo = link_rt(d, name);
			if (lo)
				links[k] = *lo;
			snprintf(links[k].name, IFNAMSIZ, "%s", name);
			snprintf(links[k].bond, IFNAMSIZ, "%s", b->name);
			k++;
		}
	}
	runtime_free(d);
	d->link_at = link_at;
	d->bonds = bonds;
	d->n_bonds = want->n_bonds;
	d->touched = touched;
	d->touched_all = true;
	d->links = links;
	d->n_links = n_links;
	d->host_check_due = true; /* a new config: other slaves, other settings */
	return 0;
}

/* Every bond from now on: the names the events are matched by changed
 * (a start, a reload, a slave entry that follows its link's new name). */
void touch_all(struct daemon *d)
{
	d->touched_all = true;
	if (plan_touch_build(&d->touch, &d->want) < 0)
		log_err("out of memory: every event plans every bond");
}

void runtime_free(struct daemon *d)
{
	free(d->bonds);
	free(d->links);
	free(d->touched);
	free(d->link_at);
	d->bonds = NULL;
	d->links = NULL;
	d->touched = NULL;
	d->link_at = NULL;
}
