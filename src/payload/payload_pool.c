/*
 * payload_pool.c - the pool of blocks of the payload writer's pending
 * batches (payload_pool.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "payload_pool.h"

#define PW_STD_CAP (PW_BLOCK_SIZE - offsetof(struct pw_block, data))

struct pw_block *pw_block_add(struct pw_pool *pool, struct pw_chain *c, size_t need)
{
	struct pw_block *b = pool->spare;

	if (need <= PW_STD_CAP && b) {
		pool->spare = b->next;
	} else {
		size_t cap = need <= PW_STD_CAP ? PW_STD_CAP : need;
		if (cap > SIZE_MAX - offsetof(struct pw_block, data)) {
			errno = ENOMEM;
			return NULL;
		}
		b = malloc(offsetof(struct pw_block, data) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
	}
	b->next = NULL;
	b->len = 0;
	if (c->tail)
		c->tail->next = b;
	else
		c->head = b;
	c->tail = b;
	return b;
}

void pw_chain_release(struct pw_pool *pool, struct pw_chain *c)
{
	struct pw_block *b = c->head, *next;

	for (; b; b = next) {
		next = b->next;
		if (b->cap == PW_STD_CAP) {
			b->next = pool->spare;
			pool->spare = b;
		} else {
			free(b);
		}
	}
	c->head = c->tail = NULL;
}

void pw_blocks_free(struct pw_block *b)
{
	while (b) {
		struct pw_block *next = b->next;
		free(b);
		b = next;
	}
}
