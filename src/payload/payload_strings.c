/*
 * payload_strings.c - the strings of a payload writer's pending batches:
 * the tables, the cache in front of them, and the lookups that miss it
 * (payload_strings.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "payload_layout.h"
#include "payload_strings.h"

#define PW_KEEP_BYTES (64u << 10) /* larger tables are shrunk at a flush */
#define PW_HASH_K UINT64_C(0x9E3779B97F4A7C15)

/*
 * The hash of a string places it in its table: any function gives the
 * same file, so words in the host's byte order are fine, and each length
 * may be read its own way as long as its lookups compare the same way.
 * 8 to 32 bytes are read as pw_words reads them; other lengths a word at
 * a time, the last overlapping the one before, or below 8 bytes the
 * first and last 4, or the first, middle and last byte.  Every byte
 * counts and nothing past the string is read.  The table takes the top
 * bits; the shift brings the last word's high bytes (the string's last
 * bytes) down, where the multiply carries them up to those.
 */
static uint64_t pw_hash_end(uint64_t h)
{
	h ^= h >> 29;
	return h * PW_HASH_K;
}

static uint64_t pw_hash_words(size_t n, const uint64_t x[4])
{
	return pw_hash_end((((n ^ x[0]) * PW_HASH_K ^ x[1]) * PW_HASH_K ^ x[2]) * PW_HASH_K ^ x[3]);
}

static uint32_t pw_load32(const unsigned char *p)
{
	uint32_t x;

	memcpy(&x, p, sizeof x);
	return x;
}

/* The hash of n >= 1 bytes, n below 8 or over 32. */
static uint64_t pw_hash_any(const unsigned char *p, size_t n)
{
	uint64_t h = n;

	if (n > 32) {
		for (size_t i = 0; i + 8 < n; i += 8)
			h = (h ^ pw_load64(p + i)) * PW_HASH_K;
		h ^= pw_load64(p + n - 8);
	} else if (n >= 4) {
		h ^= (uint64_t)pw_load32(p) << 32 | pw_load32(p + n - 4);
	} else {
		h ^= (uint64_t)p[0] << 16 | (uint64_t)p[n / 2] << 8 | p[n - 1];
	}
	return pw_hash_end(h);
}

/* What a slot of t in use by a string of n bytes holds in genlen. */
static uint64_t pw_genlen(const struct pw_strings *t, size_t n)
{
	return (uint64_t)t->gen << 32 | n;
}

static bool pw_slot_used(const struct pw_strings *t, const struct pw_dedup_slot *d)
{
	return (uint32_t)(d->genlen >> 32) == t->gen;
}

/* The empty slot where a string of hash h goes, in a table that does not hold it. */
static struct pw_dedup_slot *pw_free_slot(struct pw_strings *t, uint64_t h)
{
	size_t i = (size_t)(h >> t->shift);

	while (pw_slot_used(t, &t->slot[i]))
		i = (i + 1) & t->mask;
	return &t->slot[i];
}

/*
 * Doubles the table (64 slots when it has none), which pw_str_add keeps
 * at most half full.  Returns 0, or -1 (ENOMEM).
 */
static int pw_grow(struct pw_strings *t)
{
	struct pw_dedup_slot *old = t->slot;
	size_t cap = old ? t->mask + 1 : 0, ncap = cap ? 2 * cap : 64;

	t->slot = calloc(ncap, sizeof *t->slot);
	if (!t->slot) {
		t->slot = old;
		return -1;
	}
	t->mask = ncap - 1;
	t->shift = 64;
	for (size_t c = ncap; c > 1; c >>= 1)
		t->shift--;
	for (size_t i = 0; i < cap; i++)
		if (pw_slot_used(t, &old[i]))
			*pw_free_slot(t, old[i].hash) = old[i];
	free(old);
	return 0;
}

int pw_strings_init(struct pw_strings *t)
{
	t->flex_len = 1;
	t->gen = 1;
	return pw_grow(t);
}

void pw_strings_free(struct pw_strings *t)
{
	pw_blocks_free(t->flex.head);
	free(t->slot);
}

/*
 * Counting the generation up leaves every slot empty without a write (a
 * wrap, after 2^32 - 1 batches, clears them); a table grown past
 * PW_KEEP_BYTES goes back to 64 slots.
 */
int pw_strings_reset(struct pw_shared *sh, struct pw_strings *t)
{
	pw_chain_release(&sh->pool, &t->flex);
	t->flex_len = 1;
	t->n = 0;
	if (!t->slot)
		return 0;
	if ((t->mask + 1) * sizeof *t->slot > PW_KEEP_BYTES) {
		free(t->slot);
		t->slot = NULL;
		return pw_grow(t);
	}
	if (++t->gen == 0) {
		memset(t->slot, 0, (t->mask + 1) * sizeof *t->slot);
		t->gen = 1;
	}
	return 0;
}

int pw_shared_init(struct pw_shared *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->cache = calloc(PW_CACHE_SLOTS, sizeof *sh->cache);
	sh->cache_gen = UINT64_C(1) << 32;
	return sh->cache ? 0 : -1;
}

void pw_shared_free(struct pw_shared *sh)
{
	pw_blocks_free(sh->pool.spare);
	free(sh->cache);
}

void pw_shared_flushed(struct pw_shared *sh)
{
	sh->pending_bytes = 0;
	sh->cache_gen += UINT64_C(1) << 32;
	if (!sh->cache_gen) { /* after 2^32 - 1 flush groups */
		memset(sh->cache, 0, PW_CACHE_SLOTS * sizeof *sh->cache);
		sh->cache_gen = UINT64_C(1) << 32;
	}
}

/* Whether a string of 8 to 32 bytes (its words x, pw_words) has a NUL byte. */
static bool pw_words_nul(size_t n, const uint64_t x[4])
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	uint64_t zero = ((x[0] - ones) & ~x[0]) | ((x[1] - ones) & ~x[1]);

	if (n > 16)
		zero |= ((x[2] - ones) & ~x[2]) | ((x[3] - ones) & ~x[3]);
	return (zero & highs) != 0;
}

/* Stores a string of 8 to 32 bytes (its words x) at p, as pw_words read it. */
static void pw_words_store(unsigned char *p, size_t n, const uint64_t x[4])
{
	memcpy(p, &x[0], 8);
	memcpy(p + n - 8, &x[1], 8);
	if (n > 16) {
		memcpy(p + 8, &x[2], 8);
		memcpy(p + n - 16, &x[3], 8);
	}
}

/*
 * Adds string src (n bytes, hash h), which t's pending batch does not
 * hold, at slot `slot` (empty): its NUL-terminated copy at the end of
 * flexData, from its words x when it has 8 to 32 bytes (else x is NULL).
 * Returns its offset there, or -1 with errno EINVAL (a NUL byte in src,
 * when `check`) or ENOMEM.  Only a new string is checked for NUL: the
 * table holds none with one, so a string found there has none.
 */
static int64_t pw_str_add(struct pw_shared *sh, struct pw_strings *t, struct pw_dedup_slot *slot,
			  const unsigned char *src, size_t n, uint64_t h, const uint64_t x[4],
			  bool check)
{
	struct pw_block *b = t->flex.tail;

	if (check && (x ? pw_words_nul(n, x) : memchr(src, 0, n) != NULL)) {
		errno = EINVAL;
		return -1;
	}
	if (2 * (t->n + 1) > t->mask + 1) {
		if (pw_grow(t))
			return -1;
		slot = pw_free_slot(t, h);
	}
	if (!b || b->cap - b->len < n + 1) {
		b = pw_block_add(&sh->pool, &t->flex, n + 1);
		if (!b)
			return -1;
	}
	if (x)
		pw_words_store(b->data + b->len, n, x);
	else
		memcpy(b->data + b->len, src, n);
	b->data[b->len + n] = 0;
	slot->str = b->data + b->len;
	slot->hash = h;
	slot->genlen = pw_genlen(t, n);
	slot->off = t->flex_len;
	b->len += n + 1;
	t->flex_len += n + 1;
	sh->pending_bytes += n + 1;
	t->n++;
	return (int64_t)slot->off;
}

/*
 * pw_str of a string of 8 to 32 bytes (its words x), whose cache slot is
 * c: c's offset when c holds it, else the table's lookup, and then c
 * holds it.  When c holds the same string of the same table from an
 * earlier flush group, the table cannot hold it (a lookup of it in this
 * group would have put it in c again), so it is added with the hash kept
 * in c, without a search or a check for NUL bytes (it had none before).
 */
static int64_t pw_str_table(struct pw_shared *sh, struct pw_strings *t, const unsigned char *src,
			    size_t n, const uint64_t x[4], struct pw_cache_slot *c)
{
	uint64_t h, genlen = pw_genlen(t, n);
	int64_t off = -1;
	size_t i;

	if (c->t == t && (uint32_t)c->tag == n &&
	    !((c->w[0] ^ x[0]) | (c->w[1] ^ x[1]) | (c->w[2] ^ x[2]) | (c->w[3] ^ x[3]))) {
		if (c->tag == (sh->cache_gen | n))
			return (int64_t)c->off;
		h = c->hash;
		off = pw_str_add(sh, t, pw_free_slot(t, h), src, n, h, x, false);
		goto found;
	}
	h = pw_hash_words(n, x);
	for (i = (size_t)(h >> t->shift); pw_slot_used(t, &t->slot[i]); i = (i + 1) & t->mask) {
		const struct pw_dedup_slot *e = &t->slot[i];
		uint64_t y[4];
		if (e->hash != h || e->genlen != genlen)
			continue;
		pw_words(e->str, n, y);
		if (!((y[0] ^ x[0]) | (y[1] ^ x[1]) | (y[2] ^ x[2]) | (y[3] ^ x[3]))) {
			off = (int64_t)e->off;
			goto found;
		}
	}
	off = pw_str_add(sh, t, &t->slot[i], src, n, h, x, true);
found:
	if (off < 0)
		return -1;
	memcpy(c->w, x, sizeof c->w);
	c->tag = sh->cache_gen | n;
	c->t = t;
	c->off = (uint64_t)off;
	c->hash = h;
	return off;
}

/*
 * pw_str of the lengths the cache does not hold: 0 (offset 0, the NUL at
 * byte 0 of flexData), over PL_STRING_MAX (EINVAL: no NVTXT line holds
 * one, and the reader refuses it), below 8 and over 32 bytes.
 */
static int64_t pw_str_any(struct pw_shared *sh, struct pw_strings *t, const unsigned char *src,
			  size_t n)
{
	uint64_t h, genlen = pw_genlen(t, n);
	size_t i;

	if (n == 0)
		return 0;
	if (n > PL_STRING_MAX) {
		errno = EINVAL;
		return -1;
	}
	h = pw_hash_any(src, n);
	for (i = (size_t)(h >> t->shift); pw_slot_used(t, &t->slot[i]); i = (i + 1) & t->mask) {
		const struct pw_dedup_slot *d = &t->slot[i];
		if (d->hash == h && d->genlen == genlen && memcmp(d->str, src, n) == 0)
			return (int64_t)d->off;
	}
	return pw_str_add(sh, t, &t->slot[i], src, n, h, NULL, true);
}

int64_t pw_str(struct pw_shared *sh, struct pw_strings *t, struct nvtxt_str str)
{
	const unsigned char *src = (const unsigned char *)str.ptr;
	uint64_t x[4];

	if (str.len - 8 > 24)
		return pw_str_any(sh, t, src, str.len);
	pw_words(src, str.len, x);
	return pw_str_table(sh, t, src, str.len, x, pw_cache_slot(sh, t, x));
}
