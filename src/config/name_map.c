/* SPDX-License-Identifier: MIT */
/* An open-addressing hash table of interface names (linear probing). */
#include "name_map.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* FNV-1a: names are short and not chosen to collide by anyone who gains
 * from it (the file is root's), so a simple hash does. */
static size_t map_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

static struct name_map_slot *map_find(const struct name_map *m, const char *name)
{
	for (size_t i = map_hash(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1))
		if (!m->v[i].name[0] || strcmp(m->v[i].name, name) == 0)
			return &m->v[i];
}

static int map_grow(struct name_map *m)
{
	struct name_map old = *m;
	size_t cap = m->cap ? m->cap * 2 : 64;
	struct name_map_slot *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	m->v = v;
	m->cap = cap;
	for (size_t i = 0; i < old.cap; i++)
		if (old.v[i].name[0])
			*map_find(m, old.v[i].name) = old.v[i];
	free(old.v);
	return 0;
}

int name_map_put(struct name_map *m, const char *name, size_t value)
{
	size_t len = strlen(name);

	if (len == 0 || len >= IFNAMSIZ)
		return -EINVAL;
	/* At most half full: probes stay short and a free slot always ends one. */
	if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
		return -ENOMEM;
	struct name_map_slot *s = map_find(m, name);
	if (!s->name[0]) {
		memcpy(s->name, name, len + 1);
		m->n++;
	}
	s->value = value;
	return 0;
}

bool name_map_get(const struct name_map *m, const char *name, size_t *value)
{
	if (!m->cap)
		return false;
	const struct name_map_slot *s = map_find(m, name);
	if (!s->name[0])
		return false;
	*value = s->value;
	return true;
}

void name_map_free(struct name_map *m)
{
	free(m->v);
	m->v = NULL;
	m->cap = m->n = 0;
}
