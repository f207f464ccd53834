/*
 * reader.c - the input in chunks of whole lines, parsed ahead by the fast
 * path, in a second thread when asked (reader.h).
 *
 * Three chunks circulate when there is a reading thread: one it fills,
 * one ready, one the passes work through; it waits for a free chunk, so
 * memory stays bounded whatever the input size.  Without a thread, one
 * chunk is filled when the previous one is handed back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "reader.h"

enum { CHUNKS_THREADED = 3 };

struct reader {
	int fd;
	bool fast_path;
	bool want_thread;

	/* the producer's state (the reading thread's, or the caller's) */
	bool eof;
	int io_errno;
	uint32_t line;            /* the number of the next line */
	uint64_t offset;          /* the file offset of the next byte */
	bool in_long_line;        /* the last chunk ended inside a line longer than a chunk */
	char *carry;              /* the incomplete last line of the last chunk */
	size_t carry_len;
	bool peeked;              /* reader_peek read the first chunk */
	struct chunk *first;      /* filled by reader_peek, not parsed yet */
	size_t first_skip;

	/* chunks: all of them, the free ones, the ready ones (in order) */
	struct chunk *all[CHUNKS_THREADED];
	size_t nall;
	struct chunk *free_list;
	struct chunk *ready_head, *ready_tail;
	bool done;                /* the producer handed over the last chunk */
	bool cancel;              /* the consumer stops early */

	bool threaded;            /* the thread runs */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static struct chunk *chunk_new(void)
{
	struct chunk *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->bytes = calloc(1, READER_CHUNK + READER_PAD);
	if (!c->bytes) {
		free(c);
		return NULL;
	}
	return c;
}

static void chunk_free(struct chunk *c)
{
	if (!c)
		return;
	free(c->bytes);
	free(c->lines);
	free(c->values);
	free(c);
}

struct reader *reader_new(int fd, bool fast_path, bool thread)
{
	struct reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = fd;
	r->fast_path = fast_path;
	r->want_thread = thread;
	r->carry = malloc(READER_CHUNK);
	r->all[0] = chunk_new();
	if (!r->carry || !r->all[0]) {
		free(r->carry);
		chunk_free(r->all[0]);
		free(r);
		return NULL;
	}
	r->nall = 1;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	return r;
}

/* --- producing a chunk ----------------------------------------------------- */

/* Reads into c after the carried bytes until it is full or the input ends. */
static void fill(struct reader *r, struct chunk *c)
{
	c->len = 0;
	c->nlines = c->nvalues = 0;
	c->last = false;
	c->io_errno = 0;
	if (r->carry_len) {
		memcpy(c->bytes, r->carry, r->carry_len);
		c->len = r->carry_len;
		r->carry_len = 0;
	}
	while (c->len < READER_CHUNK && !r->eof && !r->io_errno) {
		ssize_t n = read(r->fd, c->bytes + c->len, READER_CHUNK - c->len);
		if (n > 0)
			c->len += (size_t)n;
		else if (n == 0)
			r->eof = true;
		else if (errno != EINTR)
			r->io_errno = errno;
	}
	c->bytes[c->len] = '\n';
}

static bool reserve(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static struct line_rec *add_slow(struct chunk *c, const char *p, size_t len, bool continues)
{
	struct line_rec *rec = &c->lines[c->nlines++];
	rec->start = (uint32_t)(p - c->bytes);
	rec->len = (uint32_t)len;
	rec->fast = false;
	rec->continues = continues;
	return rec;
}

/*
 * Cuts c into line records, the fast path parsing each line it can; the
 * incomplete last line is carried to the next chunk.  Returns false when
 * out of memory (then the chunk ends early, as after a read error).
 */
static bool parse(struct reader *r, struct chunk *c, size_t skip)
{
	char *p = c->bytes + skip, *end = c->bytes + c->len;
	bool at_end = r->eof || r->io_errno;

	while (p < end) {
		const char *nl;
		char *next;

		if (!reserve((void **)&c->lines, &c->lines_cap, c->nlines + 1, sizeof(*c->lines)))
			return false;
		if (r->in_long_line) {
			/* the rest of a line longer than a chunk */
			nl = memchr(p, '\n', (size_t)(end - p));
			next = nl ? (char *)nl + 1 : end;
			add_slow(c, p, (size_t)(next - p), !nl && !at_end);
			r->offset += (uint64_t)(next - p);
			if (nl) {
				r->line++;
				r->in_long_line = false;
			}
			p = next;
			continue;
		}
		if (r->fast_path) {
			struct line_rec *rec = &c->lines[c->nlines];
			if (!reserve((void **)&c->values, &c->values_cap, c->nvalues + FRONTEND_MAX_VALUES,
				     sizeof(*c->values)))
				return false;
			next = fast_line_parse(p, end, r->line, r->offset, rec, c->values + c->nvalues);
			if (next) {
				rec->start = (uint32_t)(p - c->bytes);
				rec->len = (uint32_t)(next - p);
				rec->fast = true;
				rec->continues = false;
				rec->first_value = (uint32_t)c->nvalues;
				c->nvalues += rec->instr.nvalues;
				c->nlines++;
				r->line++;
				r->offset += rec->len;
				p = next;
				continue;
			}
		}
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl) {
			add_slow(c, p, (size_t)(nl + 1 - p), false);
			r->line++;
			r->offset += (uint64_t)(nl + 1 - p);
			p = (char *)nl + 1;
		} else if (at_end) {
			/* the last line, without a line break */
			add_slow(c, p, (size_t)(end - p), false);
			r->offset += (uint64_t)(end - p);
			p = end;
		} else if (p == c->bytes + skip) {
			/* a line longer than the chunk: hand it over in pieces */
			add_slow(c, p, (size_t)(end - p), true);
			r->offset += (uint64_t)(end - p);
			r->in_long_line = true;
			p = end;
		} else {
			r->carry_len = (size_t)(end - p);
			memcpy(r->carry, p, r->carry_len);
			c->len = (size_t)(p - c->bytes);
			p = end;
		}
	}
	c->last = at_end;
	c->io_errno = r->io_errno;
	return true;
}

/* Fills and parses the next chunk into c. */
static void produce(struct reader *r, struct chunk *c)
{
	size_t skip = 0;

	if (r->first == c) {
		/* read by reader_peek */
		skip = r->first_skip;
		r->first = NULL;
	} else {
		fill(r, c);
	}
	if (!parse(r, c, skip)) {
		/* out of memory: end the input here, as a read error */
		r->io_errno = ENOMEM;
		c->last = true;
		c->io_errno = ENOMEM;
	}
}

/* --- the thread ------------------------------------------------------------ */

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	bool last = false;

	while (!last) {
		struct chunk *c;

		pthread_mutex_lock(&r->lock);
		while (!r->free_list && !r->cancel)
			pthread_cond_wait(&r->changed, &r->lock);
		if (r->cancel) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		c = r->free_list;
		r->free_list = c->next;
		pthread_mutex_unlock(&r->lock);

		produce(r, c);
		last = c->last;

		pthread_mutex_lock(&r->lock);
		c->next = NULL;
		if (r->ready_tail)
			r->ready_tail->next = c;
		else
			r->ready_head = c;
		r->ready_tail = c;
		r->done = last;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/* --- the consumer's side --------------------------------------------------- */

const unsigned char *reader_peek(struct reader *r, size_t *len)
{
	if (!r->peeked) {
		r->peeked = true;
		r->first = r->all[0];
		fill(r, r->first);
	}
	*len = r->all[0]->len;
	return (const unsigned char *)r->all[0]->bytes;
}

void reader_start(struct reader *r, size_t skip, uint32_t line, uint64_t offset)
{
	size_t len;

	reader_peek(r, &len);
	r->first_skip = skip;
	r->line = line;
	r->offset = offset;
	/* a second thread only when there is more than one chunk to read */
	if (!r->want_thread || r->eof || r->io_errno)
		return;
	for (; r->nall < CHUNKS_THREADED; r->nall++) {
		r->all[r->nall] = chunk_new();
		if (!r->all[r->nall])
			return;
	}
	for (size_t i = 0; i < r->nall; i++) {
		r->all[i]->next = r->free_list;
		r->free_list = r->all[i];
	}
	/* the first chunk is produced first */
	if (r->free_list != r->first) {
		struct chunk **p = &r->free_list;
		while (*p != r->first)
			p = &(*p)->next;
		*p = r->first->next;
		r->first->next = r->free_list;
		r->free_list = r->first;
	}
	if (pthread_create(&r->thread, NULL, reader_main, r) == 0) {
		r->threaded = true;
	} else {
		r->free_list = NULL;
	}
}

struct chunk *reader_next(struct reader *r)
{
	struct chunk *c;

	if (!r->threaded) {
		if (r->done)
			return NULL;
		c = r->all[0];
		produce(r, c);
		r->done = c->last;
		return c;
	}
	pthread_mutex_lock(&r->lock);
	while (!r->ready_head && !r->done)
		pthread_cond_wait(&r->changed, &r->lock);
	c = r->ready_head;
	if (c) {
		r->ready_head = c->next;
		if (!r->ready_head)
			r->ready_tail = NULL;
	}
	pthread_mutex_unlock(&r->lock);
	return c;
}

void reader_release(struct reader *r, struct chunk *c)
{
	if (!r->threaded)
		return;
	pthread_mutex_lock(&r->lock);
	c->next = r->free_list;
	r->free_list = c;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);
}

void reader_free(struct reader *r)
{
	if (!r)
		return;
	if (r->threaded) {
		pthread_mutex_lock(&r->lock);
		r->cancel = true;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->thread, NULL);
	}
	for (size_t i = 0; i < r->nall; i++)
		chunk_free(r->all[i]);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->changed);
	free(r->carry);
	free(r);
}
