/*
 * payload_pool.h - the blocks that hold a payload writer's pending
 * records and strings (payload_write.c): chains of blocks taken from a
 * pool that the writer keeps for its whole life.  A flush returns them to
 * the pool, so after the first batches no memory is allocated, zeroed by
 * the kernel or copied by realloc, and the peak memory is that of the
 * largest set of pending batches.
 */
#ifndef NVTXT_PAYLOAD_POOL_H
#define NVTXT_PAYLOAD_POOL_H

#include <stddef.h>

#define PW_BLOCK_SIZE (64u << 10) /* the blocks of the pool, header included */

/* A block of pending records or strings. */
struct pw_block {
	struct pw_block *next;
	size_t len, cap;        /* bytes used, bytes of data */
	unsigned char data[];
};

/* The blocks of one batch's records or strings, in order. */
struct pw_chain {
	struct pw_block *head, *tail;
};

/* The blocks of PW_BLOCK_SIZE not in use. */
struct pw_pool {
	struct pw_block *spare;
};

/*
 * Appends to chain c a block with at least `need` free bytes: one of the
 * pool, or a new one (larger than PW_BLOCK_SIZE when need asks for it).
 * Returns it, or NULL (ENOMEM).
 */
struct pw_block *pw_block_add(struct pw_pool *pool, struct pw_chain *c, size_t need);

/* Empties chain c: blocks of the standard size go back to the pool. */
void pw_chain_release(struct pw_pool *pool, struct pw_chain *c);

/* Frees a chain's blocks, or the pool's (pw_blocks_free(pool->spare)). */
void pw_blocks_free(struct pw_block *b);

#endif
