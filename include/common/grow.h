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
/* The same, with room for `max` elements at most: the doubling stops at max,
 * and a need above it is refused (NULL, v and *cap untouched). */
void *grow_array_max(void *v, size_t *cap, size_t need, size_t size, size_t first, size_t max);

/*
 * One more element at the end of an array of *n elements of `size` bytes in
 * *cap room (grown as grow_array does): a copy of *init, or zeroed when init
 * is NULL (init must not point into the array).  `arrayp` is the address of
 * the array's pointer (&list->v, a T **), which is updated when the array
 * moves.  Returns the new element (*n is counted up), or NULL, with the
 * array, *n and *cap untouched, when memory is short.
 */
void *grow_append(void *arrayp, size_t *cap, size_t *n, size_t size, size_t first,
		  const void *init);

#endif
