/* SPDX-License-Identifier: MIT */
/* Holding new links until udev has initialized them (bounded). */
#include "udev_wait.h"
#include "grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "small_file.h"

void udev_wait_init(struct udev_wait *u, const char *dir)
{
	memset(u, 0, sizeof(*u));
	snprintf(u->dir, sizeof(u->dir), "%s", dir);
}

void udev_wait_free(struct udev_wait *u)
{
	free(u->v);
	free(u->held);
	memset(u, 0, sizeof(*u));
}

bool udev_record_initialized(const char *text)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (p[0] == 'I' && p[1] == ':')
			return true;
	return false;
}

static bool udev_running(const struct udev_wait *u)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/control", u->dir);
	return access(path, F_OK) == 0;
}

static bool initialized(const struct udev_wait *u, int ifindex)
{
	char path[128], text[4096];
	snprintf(path, sizeof(path), "%s/data/n%d", u->dir, ifindex);
	return small_file_read(path, text, sizeof(text)) && udev_record_initialized(text);
}

/* The entry of a name: the search starts where the last one ended, since
 * names are looked up in config order, as they were added (a scan from
 * the start for each of 1,024 slaves was a quadratic step of every pass). */
static struct udev_link *udev_link_find(struct udev_wait *u, const char *name)
{
	for (size_t k = 0; k < u->n; k++) {
		size_t i = (u->hint + k) % u->n;
		if (!strcmp(u->v[i].name, name)) {
			u->hint = i + 1;
			return &u->v[i];
		}
	}
	return NULL;
}

static struct udev_link *entry(struct udev_wait *u, const char *name)
{
	struct udev_link *e = udev_link_find(u, name);
	if (e)
		return e;
	e = grow_append(&u->v, &u->cap, &u->n, sizeof(*e), 16, NULL);
	if (e)
		snprintf(e->name, sizeof(e->name), "%s", name);
	return e;
}

/* Looks at one configured slave; true while it is to be held. */
static bool hold_link(struct udev_wait *u, bool running, const struct obs_link *l,
		      uint64_t now_ms)
{
	struct udev_link *e = entry(u, l->name);

	if (!e)
		return false; /* out of memory: act rather than wait forever */
	if (e->ifindex != l->ifindex) {
		/* A new device under this name. */
		e->ifindex = l->ifindex;
		e->state = UDEV_PENDING;
		e->since_ms = now_ms;
	}
	if (e->state == UDEV_READY)
		return false;
	if (!running || initialized(u, l->ifindex)) {
		if (running && now_ms > e->since_ms)
			log_info("%s: udev initialized it after %llu ms", l->name,
				 (unsigned long long)(now_ms - e->since_ms));
		e->state = UDEV_READY;
		return false;
	}
	if (now_ms - e->since_ms >= UDEV_WAIT_MS) {
		log_warn("%s: udev has not initialized it after %d ms (no \"I:\" line in "
			 "%s/data/n%d); acting on it anyway", l->name, UDEV_WAIT_MS, u->dir,
			 l->ifindex);
		e->state = UDEV_READY;
		return false;
	}
	if (e->since_ms == now_ms)
		log_info("%s: waiting for udev to initialize it (up to %d ms)", l->name,
			 UDEV_WAIT_MS);
	return true;
}

struct plan_constraints udev_wait_holds(struct udev_wait *u, const struct desired *want,
				  const struct observed *obs, const struct plan_constraints *base,
				  uint64_t now_ms)
{
	size_t need = base->n, n = 0;
	bool running = false, checked = false;

	for (size_t i = 0; i < want->n_bonds; i++)
		need += want->bonds[i].n_slaves;
	if (need > u->cap_held) {
		char(*h)[PLAN_KEY_SIZE] = realloc(u->held, need * sizeof(*h));
		if (!h)
			return *base;
		u->held = h;
		u->cap_held = need;
	}
	for (size_t i = 0; i < base->n; i++)
		memcpy(u->held[n++], base->keys[i], PLAN_KEY_SIZE);
	u->n_pending = 0;
	for (size_t i = 0; i < want->n_bonds; i++) {
		const struct desired_bond *b = &want->bonds[i];
		for (size_t j = 0; j < b->n_slaves; j++) {
			const struct obs_link *l = observed_by_name(obs, b->slaves[j].name);
			if (!l)
				continue;
			const struct udev_link *e = udev_link_find(u, l->name);
			if (e && e->ifindex == l->ifindex && e->state == UDEV_READY)
				continue; /* the common case: no file system access */
			if (!checked) {
				running = udev_running(u);
				checked = true;
			}
			if (hold_link(u, running, l, now_ms)) {
				/* Planned as absent: its membership is held. */
				snprintf(u->held[n++], PLAN_KEY_SIZE, "link %s", l->name);
				u->n_pending++;
			}
		}
	}
	return (struct plan_constraints){.keys = (const char(*)[PLAN_KEY_SIZE])u->held, .n = n,
				   .no_rebuild = base->no_rebuild, .failing = base->failing,
				   .n_failing = base->n_failing, .refused = base->refused,
				   .n_refused = base->n_refused, .only = base->only};
}

uint64_t udev_wait_next_ms(const struct udev_wait *u, uint64_t now_ms)
{
	return u->n_pending ? now_ms + UDEV_POLL_MS : 0;
}
