/* SPDX-License-Identifier: MIT */
/* The link check's re-check schedule and confirmation (linkcheck_settle.h). */
#include "linkcheck_settle.h"

#include <string.h>

int64_t lc_settle_checked(struct lc_settle *s, int64_t now_ms, bool unsettled, bool fresh,
			  uint32_t jitter_ms)
{
	if (unsettled) {
		s->clean = 0;
		if (fresh || !s->step_ms)
			s->step_ms = LC_SETTLE_FIRST_MS;
		else
			s->step_ms = s->step_ms >= LC_SETTLE_MAX_MS / 2 ? LC_SETTLE_MAX_MS
								       : s->step_ms * 2;
	} else if (s->step_ms) {
		/* Clean after something was found: once more, soon, so that
		 * two checks agree before the bond goes quiet. */
		if (++s->clean >= LC_SETTLE_CLEAN) {
			*s = (struct lc_settle){0};
			return 0;
		}
		s->step_ms = LC_SETTLE_FIRST_MS;
	} else {
		/* Quiet and clean: stays quiet. */
		s->next_ms = 0;
		return 0;
	}
	s->next_ms = now_ms + s->step_ms + jitter_ms;
	return s->next_ms;
}

int64_t lc_bucket_refill(unsigned *tokens, int64_t *since, int64_t now_ms, unsigned burst,
			 int64_t refill_ms)
{
	while (*tokens < burst && now_ms - *since >= refill_ms) {
		(*tokens)++;
		*since += refill_ms;
	}
	if (*tokens >= burst)
		*since = now_ms;
	return *tokens ? now_ms : *since + refill_ms;
}

bool lc_settle_same(const struct finding *a, const struct finding *b)
{
	if (a->kind != b->kind || strcmp(a->bond, b->bond) != 0 || a->n_slaves != b->n_slaves)
		return false;
	for (size_t i = 0; i < a->n_slaves; i++)
		if (strcmp(a->slaves[i], b->slaves[i]) != 0)
			return false;
	return true;
}

static bool same_slaves(const struct finding *a, const struct finding *b)
{
	if (a->n_slaves != b->n_slaves)
		return false;
	for (size_t i = 0; i < a->n_slaves; i++)
		if (strcmp(a->slaves[i], b->slaves[i]) != 0)
			return false;
	return true;
}

unsigned lc_settle_confirm(struct findings *cur, size_t from, const struct findings *prev)
{
	unsigned pending = 0;

	for (size_t i = from; i < cur->n; i++) {
		struct finding *f = &cur->v[i];
		bool seen = false;
		for (size_t j = 0; prev && j < prev->n && !seen; j++)
			seen = prev->v[j].kind == f->kind && strcmp(prev->v[j].bond, f->bond) == 0 &&
			       same_slaves(&prev->v[j], f);
		f->pending = !seen;
		if (f->pending) {
			f->severity = FSEV_INFO;
			pending++;
		}
	}
	return pending;
}
