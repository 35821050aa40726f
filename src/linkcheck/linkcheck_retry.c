/* SPDX-License-Identifier: MIT */
/*
 * The node's budget for the retries of bonds that heard no peer
 * (linkcheck_retry.h): pure, time passed in.
 */
#include "linkcheck_retry.h"

#include "linkcheck_settle.h"

void lc_retry_node_init(struct lc_retry_node *n)
{
	*n = (struct lc_retry_node){.tokens = LC_RETRY_NODE_BURST};
}

void lc_retry_offer(struct lc_retry_queue *q, size_t idx, int64_t ready_ms)
{
	if (!q->n || ready_ms < q->first_ms) {
		q->first = idx;
		q->first_ms = ready_ms;
	}
	q->n++;
}

/* When the node's bucket has a token (now when it has one), looked at on
 * a copy (no store). */
static int64_t token_at(const struct lc_retry_node *node, int64_t now)
{
	struct lc_retry_node c = *node;
	return lc_bucket_refill(&c.tokens, &c.since_ms, now, LC_RETRY_NODE_BURST,
				LC_RETRY_NODE_GAP_MS);
}

struct lc_retry_go lc_retry_decide(const struct lc_retry_node *node,
				   const struct lc_retry_queue *q, int64_t now)
{
	if (!q->n)
		return (struct lc_retry_go){false, 0, 0};
	int64_t at = token_at(node, now);
	if (q->first_ms > at)
		at = q->first_ms;
	if (at <= now)
		return (struct lc_retry_go){true, q->first, 0};
	return (struct lc_retry_go){false, q->first, at};
}

void lc_retry_take(struct lc_retry_node *node, int64_t now)
{
	lc_bucket_refill(&node->tokens, &node->since_ms, now, LC_RETRY_NODE_BURST,
			 LC_RETRY_NODE_GAP_MS);
	lc_bucket_take(&node->tokens, &node->since_ms, now, LC_RETRY_NODE_BURST);
}

int64_t lc_retry_estimate(const struct lc_retry_node *node, int64_t now, int64_t ready_ms,
			  size_t ahead)
{
	struct lc_retry_node c = *node;
	lc_bucket_refill(&c.tokens, &c.since_ms, now, LC_RETRY_NODE_BURST, LC_RETRY_NODE_GAP_MS);
	int64_t at = now;
	/* the bonds ahead take the tokens there are, then one each as they
	 * come back, one a gap (a full bucket's refill starts with the first
	 * token taken: now at the earliest) */
	if (ahead >= c.tokens) {
		int64_t base = c.tokens >= LC_RETRY_NODE_BURST ? now : c.since_ms;
		at = base + (int64_t)(ahead - c.tokens + 1) * LC_RETRY_NODE_GAP_MS;
	}
	return at > ready_ms ? at : ready_ms;
}
