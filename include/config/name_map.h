/* SPDX-License-Identifier: MIT */
/*
 * Interface names to numbers (an index into the caller's array), in a hash
 * table: the config parser looks a name up for every slave it reads, and a
 * linear search made a file of 1024 bonds x 32 slaves quadratic.
 */
#ifndef BONDD_NAME_MAP_H
#define BONDD_NAME_MAP_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

struct name_map_slot {
	char name[IFNAMSIZ];  /* "" : free */
	size_t value;
};

struct name_map {
	struct name_map_slot *v;
	size_t cap, n;        /* cap is 0 or a power of two */
};

/* Adds name (non-empty, shorter than IFNAMSIZ) or replaces its value.
 * Returns 0, -EINVAL for a name that does not fit, -ENOMEM. */
int name_map_put(struct name_map *m, const char *name, size_t value);
/* Whether name is there; its value in *value. */
bool name_map_get(const struct name_map *m, const char *name, size_t *value);
void name_map_free(struct name_map *m);

#endif
