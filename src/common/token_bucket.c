/* SPDX-License-Identifier: MIT */
#include "token_bucket.h"

void tb_init(struct token_bucket *b, uint32_t burst, int64_t now_ms)
{
	b->milli = (uint64_t)burst * 1000u;
	b->at_ms = now_ms;
}

static void tb_refill(struct token_bucket *b, uint32_t burst, uint32_t per_s, int64_t now_ms)
{
	uint64_t cap = (uint64_t)burst * 1000u;
	if (now_ms > b->at_ms) {
		/* per_s tokens a second is per_s milli-tokens a millisecond */
		uint64_t add = (uint64_t)(now_ms - b->at_ms) * per_s;
		b->milli = add >= cap - (b->milli < cap ? b->milli : cap) ? cap : b->milli + add;
	}
	if (b->milli > cap)
		b->milli = cap;
	/* A clock that went back (it never does: monotonic) keeps the level. */
	b->at_ms = now_ms;
}

uint32_t tb_level(struct token_bucket *b, uint32_t burst, uint32_t per_s, int64_t now_ms)
{
	tb_refill(b, burst, per_s, now_ms);
	return (uint32_t)(b->milli / 1000u);
}

bool tb_take(struct token_bucket *b, uint32_t burst, uint32_t per_s, uint32_t cost,
	     int64_t now_ms)
{
	tb_refill(b, burst, per_s, now_ms);
	if (b->milli < (uint64_t)cost * 1000u)
		return false;
	b->milli -= (uint64_t)cost * 1000u;
	return true;
}

uint32_t tb_take_up_to(struct token_bucket *b, uint32_t burst, uint32_t per_s, uint32_t cost,
		       int64_t now_ms)
{
	uint32_t have = tb_level(b, burst, per_s, now_ms);
	uint32_t take = have < cost ? have : cost;
	b->milli -= (uint64_t)take * 1000u;
	return take;
}

int64_t tb_next_ms(struct token_bucket *b, uint32_t burst, uint32_t per_s, int64_t now_ms)
{
	tb_refill(b, burst, per_s, now_ms);
	if (b->milli >= 1000u)
		return now_ms;
	if (!per_s)
		return INT64_MAX;
	uint64_t missing = 1000u - b->milli;
	return now_ms + (int64_t)((missing + per_s - 1) / per_s);
}
