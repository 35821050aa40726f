/* SPDX-License-Identifier: MIT */
/*
 * Our answers to a peer's check, spread over a short window
 * (linkcheck_spread.h): the delay drawn, and the replies waiting for it
 * in a binary heap by due time (a check of 64 hosts leaves hundreds
 * waiting, each taken out once).
 */
#include "linkcheck_spread.h"

#include <stdlib.h>

#include "grow.h"

uint32_t lc_answer_window_ms(size_t peers)
{
	return peers >= LC_SPREAD_MAX_MS / LC_SPREAD_PER_PEER_MS
		       ? LC_SPREAD_MAX_MS
		       : (uint32_t)(LC_SPREAD_PER_PEER_MS * peers);
}

uint32_t lc_answer_delay_ms(uint32_t rnd, size_t peers)
{
	uint32_t slots = lc_answer_window_ms(peers) / LC_SPREAD_SLOT_MS + 1;
	return (rnd % slots) * LC_SPREAD_SLOT_MS;
}

/* a leaves before b */
static bool before(const struct lc_reply *a, const struct lc_reply *b)
{
	return a->due_ms < b->due_ms || (a->due_ms == b->due_ms && a->seq < b->seq);
}

static void swap(struct lc_reply *a, struct lc_reply *b)
{
	struct lc_reply t = *a;
	*a = *b;
	*b = t;
}

bool lc_replies_add(struct lc_replies *q, const struct lc_reply *r)
{
	if (q->n >= LC_REPLIES_MAX)
		return false;
	struct lc_reply *added = grow_append(&q->v, &q->cap, &q->n, sizeof(*q->v), 64, r);
	if (!added)
		return false;
	added->seq = q->next_seq++;
	/* up from the new leaf while its parent leaves later */
	for (size_t i = q->n - 1; i > 0 && before(&q->v[i], &q->v[(i - 1) / 2]); i = (i - 1) / 2)
		swap(&q->v[(i - 1) / 2], &q->v[i]);
	return true;
}

/* Takes the root (the earliest) out. */
static struct lc_reply pop(struct lc_replies *q)
{
	struct lc_reply top = q->v[0];
	q->v[0] = q->v[--q->n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < q->n && before(&q->v[l], &q->v[m]))
			m = l;
		if (r < q->n && before(&q->v[r], &q->v[m]))
			m = r;
		if (m == i)
			break;
		swap(&q->v[i], &q->v[m]);
		i = m;
	}
	return top;
}

size_t lc_replies_take_due(struct lc_replies *q, int64_t now_ms, struct lc_reply *out,
			   size_t max)
{
	size_t k = 0;
	while (k < max && q->n && q->v[0].due_ms <= now_ms)
		out[k++] = pop(q);
	return k;
}

int64_t lc_replies_next(const struct lc_replies *q)
{
	return q->n ? q->v[0].due_ms : 0;
}

void lc_replies_free(struct lc_replies *q)
{
	free(q->v);
	*q = (struct lc_replies){0};
}
