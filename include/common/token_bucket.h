/* SPDX-License-Identifier: MIT */
/*
 * A token bucket: at most `burst` at once, refilled at `per_s` a second.
 * What bounds the work one local user's requests (status_server.c) or the
 * status process's requests to bondd (status_split.c) can cause.  Pure:
 * time is passed in (holds.h style), in monotonic milliseconds.
 */
#ifndef BONDD_TOKEN_BUCKET_H
#define BONDD_TOKEN_BUCKET_H

#include <stdbool.h>
#include <stdint.h>

struct token_bucket {
	uint64_t milli;     /* tokens x 1000 */
	int64_t at_ms;      /* when milli was last brought up to date */
};

/* A full bucket at now_ms. */
void tb_init(struct token_bucket *b, uint32_t burst, int64_t now_ms);
/* Whole tokens there now (at most burst). */
uint32_t tb_level(struct token_bucket *b, uint32_t burst, uint32_t per_s, int64_t now_ms);
/* Takes cost tokens if there are that many; false (and nothing taken) if not. */
bool tb_take(struct token_bucket *b, uint32_t burst, uint32_t per_s, uint32_t cost,
	     int64_t now_ms);
/* Takes up to cost tokens, as many as there are; returns how many. */
uint32_t tb_take_up_to(struct token_bucket *b, uint32_t burst, uint32_t per_s, uint32_t cost,
		       int64_t now_ms);
/* When (monotonic ms) one whole token will be there; now_ms if there is one. */
int64_t tb_next_ms(struct token_bucket *b, uint32_t burst, uint32_t per_s, int64_t now_ms);

#endif
