/*
 * payload_strings.h - the strings of a payload writer's pending batches
 * (payload_write.c; nvtxt-payload(5), flexData): each schema's batch
 * holds each string once, in the order the events first use them, and
 * its records hold their offsets.
 *
 * A string is looked up twice over.  Each schema's table (struct
 * pw_strings, open addressing) holds every string of its pending batch,
 * found by a hash of all its bytes.  In front of the tables, the writer's
 * cache (struct pw_shared) holds the strings of 8 to 32 bytes, the most
 * common lengths, direct-mapped by a few operations on their words and
 * compared as words in the slot: most messages are found there
 * (pw_str_cached, inlined into the writer's per-event code) without a
 * hash or a pointer to follow.  A flush empties the tables and the cache
 * by counting their generations up, without a write.
 */
#ifndef NVTXT_PAYLOAD_STRINGS_H
#define NVTXT_PAYLOAD_STRINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "nvtxt/language.h"
#include "payload_pool.h"

/* Inlined whatever the compiler's estimate: the writer's per-event code. */
#if defined(__GNUC__)
#define PW_INLINE inline __attribute__((always_inline))
#else
#define PW_INLINE inline
#endif

/*
 * A string of a pending batch: where its copy is, and its flexData
 * offset.  genlen is the table's generation (high 32 bits) and the
 * string's length: a slot is in use when its generation is the table's,
 * and one compare checks both.
 */
struct pw_dedup_slot {
	const unsigned char *str;
	uint64_t hash;          /* most mismatches end here */
	uint64_t genlen;        /* the length is at most PL_STRING_MAX */
	uint64_t off;
};

/* The strings of one schema's pending batch. */
struct pw_strings {
	struct pw_chain flex;   /* flexData after its first byte, the NUL */
	size_t flex_len;        /* bytes of flexData, that NUL included */
	struct pw_dedup_slot *slot; /* at most half full; NULL: the schema has no strings */
	size_t mask, n;         /* slots - 1, slots in use */
	unsigned shift;         /* 64 - log2(slots): a string's first slot is its hash's top bits */
	uint32_t gen;           /* of the slots in use; never 0, which calloc gives */
};

/*
 * A string of 8 to 32 bytes that a schema's pending batch holds: its
 * words (pw_words), the generation of the flush group (high 32 bits) and
 * its length, the table of its schema, its offset and its hash.
 */
#define PW_CACHE_BITS 12
#define PW_CACHE_SLOTS (1u << PW_CACHE_BITS)
struct pw_cache_slot {
	uint64_t w[4];
	uint64_t tag;
	const struct pw_strings *t;
	uint64_t off, hash;
};

/*
 * What the tables of one writer share: the pool of blocks (records use
 * it too), the cache, and the bytes of records and strings of the
 * pending flush group.
 */
struct pw_shared {
	struct pw_pool pool;
	struct pw_cache_slot *cache; /* PW_CACHE_SLOTS of them */
	uint64_t cache_gen;     /* of the slots in use, shifted left by 32; never 0 */
	size_t pending_bytes;
};

/* Sets up sh (an empty pool and cache).  Returns 0, or -1 (ENOMEM). */
int pw_shared_init(struct pw_shared *sh);
void pw_shared_free(struct pw_shared *sh);
/* After a flush group is written: the cache and the byte count start again. */
void pw_shared_flushed(struct pw_shared *sh);

/* Sets up the empty table of a schema whose records hold strings.  Returns 0, or -1 (ENOMEM). */
int pw_strings_init(struct pw_strings *t);
void pw_strings_free(struct pw_strings *t);
/*
 * Empties t for the next batch (its flexData written): its blocks go back
 * to the pool, a table grown large is shrunk.  Returns 0, or -1 (ENOMEM).
 */
int pw_strings_reset(struct pw_shared *sh, struct pw_strings *t);

/*
 * The flexData offset of string `str` in t's pending batch (below 2^32):
 * 0 for the empty string, else the offset of its NUL-terminated copy,
 * appended unless the batch already holds it.  Returns it, or -1 with
 * errno EINVAL (a NUL byte in str, or a string over PL_STRING_MAX) or
 * ENOMEM.  A string of 8 to 32 bytes is looked for in the cache first,
 * and is there after.
 */
int64_t pw_str(struct pw_shared *sh, struct pw_strings *t, struct nvtxt_str str);

/* A word of the bytes at p, in the host's byte order. */
static PW_INLINE uint64_t pw_load64(const unsigned char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof x);
	return x;
}

/*
 * The four words that cover a string of 8 to 32 bytes: at 0, n - 8, 8
 * and n - 16 (the last two 0 up to 16 bytes).  Nothing past the string is
 * read.
 */
static PW_INLINE void pw_words(const unsigned char *src, size_t n, uint64_t x[4])
{
	x[0] = pw_load64(src);
	x[1] = pw_load64(src + n - 8);
	x[2] = n > 16 ? pw_load64(src + 8) : 0;
	x[3] = n > 16 ? pw_load64(src + n - 16) : 0;
}

/*
 * The cache slot of a string of 8 to 32 bytes (its words x) of table t:
 * the top bits of the product of a weighted sum of the words (three
 * address adds, no copies of the words, which pw_cache_has compares
 * next: the writer's per-event code keeps everything in the registers a
 * call may clobber) and the table.  Strings that share a slot only cost
 * a lookup in the table.
 */
static PW_INLINE struct pw_cache_slot *pw_cache_slot(const struct pw_shared *sh,
						     const struct pw_strings *t, const uint64_t x[4])
{
	uint64_t y = (x[0] + 2 * x[1] + 4 * x[2] + 8 * x[3]) ^ (uintptr_t)t;

	return &sh->cache[(size_t)((y * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - PW_CACHE_BITS))];
}

/* Whether cache slot c holds t's string of n bytes (8 to 32) whose words are x. */
static PW_INLINE bool pw_cache_has(const struct pw_shared *sh, const struct pw_cache_slot *c,
				   const struct pw_strings *t, size_t n, const uint64_t x[4])
{
	return c->tag == (sh->cache_gen | n) && c->t == t &&
	       !((c->w[0] ^ x[0]) | (c->w[1] ^ x[1]) | (c->w[2] ^ x[2]) | (c->w[3] ^ x[3]));
}

/* The flexData offset of string `str` in t's pending batch when the cache holds it, else -1. */
static PW_INLINE int64_t pw_str_cached(const struct pw_shared *sh, const struct pw_strings *t,
				       struct nvtxt_str str)
{
	const struct pw_cache_slot *c;
	uint64_t x[4];

	if (str.len - 8 > 24)
		return -1;
	pw_words((const unsigned char *)str.ptr, str.len, x);
	c = pw_cache_slot(sh, t, x);
	return pw_cache_has(sh, c, t, str.len, x) ? (int64_t)c->off : -1;
}

#endif
