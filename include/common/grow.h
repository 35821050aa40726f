/* SPDX-License-Identifier: MIT */
/* Growing an array by doubling, with the size computation checked. */
#ifndef BONDD_GROW_H
#define BONDD_GROW_H

#include <stddef.h>

/*
 * Room for `need` elements of `size` bytes in array v of *cap: v itself
 * when it has room, else v reallocated to `first` or twice *cap (doubled
 * until need fits) with *cap updated.  NULL, with v and *cap untouched,
 * when memory is short or the byte count would overflow size_t.
 */
void *grow_array(void *v, size_t *cap, size_t need, size_t size, size_t first);

#endif
