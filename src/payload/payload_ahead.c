/*
 * payload_ahead.c - the buffers of batches, and the thread that reads and
 * checks the next sections while nvtxt_payload_decompile hands on the
 * records of the ones before (read-ahead, as src/frontend/reader.c does for
 * text).
 *
 * The buffers: a batch's body is as long as its section, at most
 * PL_BATCH_BODY_MAX bytes (section_header refuses a longer one before
 * anything is allocated).  Used batches go back to a pool of at most
 * PR_POOL_COUNT buffers and PR_POOL_BYTES bytes, from which the next
 * batches take theirs: a flush group's buffers are reused from group to
 * group instead of being allocated, touched and given back to the system
 * every time (large blocks are mmap'ed by malloc; freeing them in another
 * thread than the one that allocated them churned the malloc arenas).
 *
 * The thread: runs pr_fill, which reads and checks the sections, takes
 * the calls from the batches in ordinal order and decodes them, a chunk
 * of PR_CHUNK_EVENTS calls at a time, into PR_AHEAD_CHUNKS chunks that the
 * caller hands on to the back end and gives back.  So the thread does what
 * the file costs (reading, checking, ordering, decoding) and the caller
 * what the back end costs (the passes, the output).  A chunk keeps the
 * batches it used up (its calls' strings point into them) until it is
 * given back.
 *
 * The hand-off: PR_AHEAD_CHUNKS chunks hold one flush group's calls
 * (PL_GROUP_EVENTS), so the caller has calls to hand on while the thread
 * reads and checks the next group's batches, which it does before it can
 * decode the group's first call.  A thread that waits (the caller for a
 * filled chunk, the thread for a free one) is woken when half of them are
 * ready (or the last chunk is filled), not for each: a wake-up costs a
 * futex call and a switch each side, and one per chunk of 1024 calls
 * cost --emit=nvtxt F.payload a tenth of its wall time at 100 MB.
 *
 * Memory: the chunks, the flush group being read (at most
 * PL_BATCH_BODY_MAX per batch, PL_GROUP_BYTES and one string in all), the
 * batches the chunks keep, and the pool.  The caller sees the calls and
 * the end or the error in the same order as without the thread (pr_fill
 * does the same work in the caller then), so the output, the error and
 * the calls handed on before an error are the same.  One mutex guards the
 * chunks and the pool; the reader's other state is the thread's until
 * pr_ahead_stop joins it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "payload_reader.h"
#include "util.h"

#define PR_AHEAD_CHUNKS (PL_GROUP_EVENTS / PR_CHUNK_EVENTS)
#define PR_AHEAD_WAKE (PR_AHEAD_CHUNKS / 2)
_Static_assert(PR_AHEAD_WAKE >= 1, "chunks in flight");
#define PR_POOL_BYTES (2 * PL_BATCH_BODY_MAX)
#define PR_BUF_MIN 65536u /* the smallest buffer: small batches share sizes */

struct pr_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct pr_chunk *chunks[PR_AHEAD_CHUNKS];
	struct pr_chunk *free[PR_AHEAD_CHUNKS];   /* to fill */
	struct pr_chunk *filled[PR_AHEAD_CHUNKS]; /* to hand on: nfilled from filled[head] */
	size_t nfree, head, nfilled;
	bool stop;                /* the consumer is done: the thread ends */
	bool last;                /* the thread has filled its last chunk (end or error) */
	bool reader_waits;        /* the thread waits for PR_AHEAD_WAKE free chunks */
	bool caller_waits;        /* the caller waits for PR_AHEAD_WAKE filled chunks, or the last */
};

/* ---- the pool ---- */

static void pool_lock(struct nvtxt_payload_reader *r)
{
	if (r->ahead)
		pthread_mutex_lock(&r->ahead->lock);
}

static void pool_unlock(struct nvtxt_payload_reader *r)
{
	if (r->ahead)
		pthread_mutex_unlock(&r->ahead->lock);
}

static void batch_destroy(struct pr_batch *b)
{
	if (b) {
		free(b->body);
		free(b);
	}
}

/* The pooled batch that fits len best (the smallest big enough, else the largest), taken out; NULL if none. */
static struct pr_batch *pool_take(struct nvtxt_payload_reader *r, uint64_t len)
{
	size_t fit = r->npool, big = r->npool;
	struct pr_batch *b;

	for (size_t i = 0; i < r->npool; i++) {
		size_t cap = r->pool[i]->cap;
		if (cap >= len && (fit == r->npool || cap < r->pool[fit]->cap))
			fit = i;
		if (big == r->npool || cap > r->pool[big]->cap)
			big = i;
	}
	if (fit == r->npool)
		fit = big;
	if (fit == r->npool)
		return NULL;
	b = r->pool[fit];
	r->pool[fit] = r->pool[--r->npool];
	r->pool_bytes -= b->cap;
	return b;
}

struct pr_batch *pr_batch_alloc(struct nvtxt_payload_reader *r, uint64_t len)
{
	struct pr_batch *b;

	if (len > PL_BATCH_BODY_MAX + 8) { /* section_header's bound, and its padding */
		errno = ENOMEM;
		return NULL;
	}
	pool_lock(r);
	b = pool_take(r, len);
	pool_unlock(r);
	if (b && b->cap >= len)
		return b;
	if (!b && !(b = try_calloc(1, sizeof *b)))
		return NULL;
	free(b->body);
	b->cap = len > PR_BUF_MIN ? (size_t)len : PR_BUF_MIN;
	b->body = try_malloc(b->cap);
	if (!b->body) {
		free(b);
		return NULL;
	}
	return b;
}

void pr_batch_free(struct nvtxt_payload_reader *r, struct pr_batch *b)
{
	if (!b)
		return;
	if (r) {
		pool_lock(r);
		if (r->npool == PR_POOL_COUNT || r->pool_bytes + b->cap > PR_POOL_BYTES) {
			/* make room by dropping the smallest, if b is larger */
			size_t min = 0;
			for (size_t i = 1; i < r->npool; i++)
				if (r->pool[i]->cap < r->pool[min]->cap)
					min = i;
			if (r->npool && r->pool[min]->cap < b->cap &&
			    r->pool_bytes - r->pool[min]->cap + b->cap <= PR_POOL_BYTES) {
				struct pr_batch *drop = r->pool[min];
				r->pool_bytes -= drop->cap;
				r->pool[min] = b;
				r->pool_bytes += b->cap;
				b = drop;
			}
		} else {
			r->pool[r->npool++] = b;
			r->pool_bytes += b->cap;
			b = NULL;
		}
		pool_unlock(r);
	}
	batch_destroy(b);
}

void pr_pool_free(struct nvtxt_payload_reader *r)
{
	while (r->npool)
		batch_destroy(r->pool[--r->npool]);
	r->pool_bytes = 0;
}

/* ---- the thread ---- */

/* Gives back the batches whose strings the chunk's calls used. */
static void chunk_retire(struct nvtxt_payload_reader *r, struct pr_chunk *c)
{
	while (c->retired) {
		struct pr_batch *b = c->retired;
		c->retired = b->next;
		pr_batch_free(r, b);
	}
}

static void *ahead_main(void *arg)
{
	struct nvtxt_payload_reader *r = arg;
	struct pr_ahead *a = r->ahead;

	for (;;) {
		struct pr_chunk *c;
		bool last;

		pthread_mutex_lock(&a->lock);
		if (a->nfree == 0) {
			a->reader_waits = true;
			while (!a->stop && a->nfree < PR_AHEAD_WAKE)
				pthread_cond_wait(&a->changed, &a->lock);
			a->reader_waits = false;
		}
		if (a->stop) {
			pthread_mutex_unlock(&a->lock);
			break;
		}
		c = a->free[--a->nfree];
		pthread_mutex_unlock(&a->lock);
		pr_fill(r, c);
		pthread_mutex_lock(&a->lock);
		a->filled[(a->head + a->nfilled++) % PR_AHEAD_CHUNKS] = c;
		a->last = last = c->end != PR_BATCH;
		if (a->caller_waits && (a->nfilled >= PR_AHEAD_WAKE || last))
			pthread_cond_broadcast(&a->changed);
		pthread_mutex_unlock(&a->lock);
		if (last)
			break;
	}
	return NULL;
}

static void ahead_free(struct pr_ahead *a)
{
	for (size_t i = 0; i < PR_AHEAD_CHUNKS; i++)
		free(a->chunks[i]);
	free(a);
}

int pr_ahead_start(struct nvtxt_payload_reader *r)
{
	struct pr_ahead *a = try_calloc(1, sizeof *a);

	if (!a)
		return -1;
	for (size_t i = 0; i < PR_AHEAD_CHUNKS; i++) {
		if (!(a->chunks[i] = try_malloc(sizeof *a->chunks[i]))) {
			ahead_free(a);
			return -1;
		}
		a->free[a->nfree++] = a->chunks[i];
	}
	if (pthread_mutex_init(&a->lock, NULL)) {
		ahead_free(a);
		return -1;
	}
	if (pthread_cond_init(&a->changed, NULL)) {
		pthread_mutex_destroy(&a->lock);
		ahead_free(a);
		return -1;
	}
	r->ahead = a;
	if (pthread_create(&a->thread, NULL, ahead_main, r) == 0)
		return 0;
	r->ahead = NULL;
	pthread_cond_destroy(&a->changed);
	pthread_mutex_destroy(&a->lock);
	ahead_free(a);
	return -1;
}

struct pr_chunk *pr_chunk_get(struct nvtxt_payload_reader *r)
{
	struct pr_ahead *a = r->ahead;
	struct pr_chunk *c;

	if (!a) {
		if (!r->solo && !(r->solo = try_malloc(sizeof *r->solo)))
			return NULL;
		pr_fill(r, r->solo);
		r->in_use = r->solo;
		return r->solo;
	}
	pthread_mutex_lock(&a->lock);
	if (a->nfilled == 0) {
		a->caller_waits = true;
		while (a->nfilled < PR_AHEAD_WAKE && !a->last)
			pthread_cond_wait(&a->changed, &a->lock);
		a->caller_waits = false;
	}
	c = a->filled[a->head];
	a->head = (a->head + 1) % PR_AHEAD_CHUNKS;
	a->nfilled--;
	pthread_mutex_unlock(&a->lock);
	r->in_use = c;
	return c;
}

void pr_chunk_put(struct nvtxt_payload_reader *r, struct pr_chunk *c)
{
	struct pr_ahead *a = r->ahead;

	chunk_retire(r, c);
	r->in_use = NULL;
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->free[a->nfree++] = c;
	if (a->reader_waits && a->nfree >= PR_AHEAD_WAKE)
		pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
}

void pr_chunks_free(struct nvtxt_payload_reader *r)
{
	pr_ahead_stop(r);
	if (r->in_use)
		chunk_retire(r, r->in_use);
	r->in_use = NULL;
	free(r->solo);
	r->solo = NULL;
}

void pr_ahead_stop(struct nvtxt_payload_reader *r)
{
	struct pr_ahead *a = r->ahead;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = true;
	pthread_cond_broadcast(&a->changed);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	r->ahead = NULL;
	if (r->in_use) /* left by a failure of the caller (a guard) */
		chunk_retire(r, r->in_use);
	r->in_use = NULL;
	for (; a->nfilled; a->nfilled--, a->head = (a->head + 1) % PR_AHEAD_CHUNKS)
		chunk_retire(r, a->filled[a->head]);
	pthread_cond_destroy(&a->changed);
	pthread_mutex_destroy(&a->lock);
	ahead_free(a);
}
