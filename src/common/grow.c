/* SPDX-License-Identifier: MIT */
/* Growing an array by doubling (grow.h). */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *grow_array(void *v, size_t *cap, size_t need, size_t size, size_t first)
{
	return grow_array_max(v, cap, need, size, first, SIZE_MAX);
}

void *grow_array_max(void *v, size_t *cap, size_t need, size_t size, size_t first, size_t max)
{
	if (need <= *cap)
		return v;
	if (need > max)
		return NULL;
	size_t n = *cap ? *cap : first ? first : 1;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	if (n > max)
		n = max;
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = realloc(v, n * size);
	if (!p)
		return NULL;
	*cap = n;
	return p;
}

void *grow_append(void *arrayp, size_t *cap, size_t *n, size_t size, size_t first,
		  const void *init)
{
	/* *arrayp is a T *: read and written as bytes, since it is no void *
	 * (object pointers share one representation on every target bondd
	 * builds for). */
	void *v;
	memcpy(&v, arrayp, sizeof(v));
	v = grow_array(v, cap, *n + 1, size, first);
	if (!v)
		return NULL;
	memcpy(arrayp, &v, sizeof(v));
	unsigned char *e = (unsigned char *)v + *n * size;
	if (init)
		memcpy(e, init, size);
	else
		memset(e, 0, size);
	(*n)++;
	return e;
}
