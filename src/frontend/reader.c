/*
 * reader.c - the input in chunks of whole lines, parsed ahead by the fast
 * path, with a second thread when asked (reader.h).
 *
 * Producing a chunk has two steps: filling it (read(), then the cut after
 * its last line break, the rest carried to the next chunk), which must
 * happen in input order and one at a time, and parsing it into line
 * records, which needs nothing but the chunk.  Both the reading thread and
 * the caller (the consumer) produce: the consumer takes its next chunk
 * when it is ready, and otherwise, rather than wait, fills and parses the
 * next chunk nobody has claimed; it waits only while every chunk is
 * claimed (filled or parsed by the other thread, or ready but out of
 * order).  So the work is shared as the processors allow: when the reading
 * thread gets no processor, the consumer does everything as if it were
 * alone, and the hand-off costs a lock per chunk.
 *
 * CHUNKS_THREADED chunks circulate (one consumed, one or two being
 * produced, the rest ready), so memory is bounded whatever the input size.
 * Without a thread one chunk is filled when the previous one is handed
 * back.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"
#include "reader.h"

enum { CHUNKS_THREADED = 4 };

struct reader {
	int fd;
	const char *text;         /* the input in memory, or NULL (then fd) */
	size_t text_len, text_pos;
	size_t ramp;              /* reader_ramp: the next chunk's most bytes of text, doubling; 0: full chunks */
	fast_lines_fn *fast_lines; /* the fast path, or NULL: every line is slow */
	bool want_thread;

	/* the input: only the producer holding `filling` touches it */
	bool eof;
	int io_errno;
	bool in_long_line;        /* the last chunk ended inside a line longer than a chunk */
	uint64_t long_len;        /* the bytes of that line so far */
	char *carry;              /* the incomplete last line of the last chunk */
	size_t carry_len;
	bool peeked;              /* reader_peek read the first chunk */
	struct chunk *first;      /* read by reader_peek, not cut and parsed yet */

	/* under lock */
	struct chunk *all[CHUNKS_THREADED];
	size_t nall;
	struct chunk *free_list;
	bool filling;             /* a producer is filling a chunk */
	bool input_done;          /* the last chunk was filled */
	uint64_t next_seq;        /* the number of the next chunk filled */
	uint64_t want_seq;        /* the number of the chunk the consumer takes next */
	bool cancel;              /* the consumer stops */

	bool threaded;            /* the thread runs */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static struct chunk *chunk_new(void)
{
	struct chunk *c = try_calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->bytes = try_calloc(1, READER_FRONT_PAD + READER_CHUNK + READER_PAD);
	if (!c->bytes) {
		free(c);
		return NULL;
	}
	c->bytes += READER_FRONT_PAD;
	return c;
}

static void chunk_free(struct chunk *c)
{
	if (!c)
		return;
	free(c->bytes ? c->bytes - READER_FRONT_PAD : NULL);
	free(c->lines);
	free(c->values);
	free(c);
}

struct reader *reader_new(int fd, bool fast_path, bool thread)
{
	struct reader *r = try_calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->fd = fd;
	r->fast_lines = fast_path ? fast_lines_parser() : NULL;
	r->want_thread = thread;
	r->carry = try_malloc(READER_CHUNK);
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

struct reader *reader_new_text(const char *text, size_t len, bool fast_path, bool thread)
{
	struct reader *r = reader_new(-1, fast_path, thread);

	if (r) {
		r->text = text;
		r->text_len = len;
	}
	return r;
}

void reader_ramp(struct reader *r, size_t first)
{
	r->ramp = r->text && !r->carry_len ? first : 0;
}

/* --- producing a chunk ----------------------------------------------------- */

/* Reads into c after the carried bytes until it is full or the input ends. */
static void fill(struct reader *r, struct chunk *c)
{
	c->len = 0;
	c->skip = 0;
	c->last = false;
	c->io_errno = 0;
	if (r->carry_len) {
		memcpy(c->bytes, r->carry, r->carry_len);
		c->len = r->carry_len;
		r->carry_len = 0;
	}
	if (r->text) {
		/* text in memory: copied, as the fast path needs the chunk's sentinel and padding */
		size_t n = r->text_len - r->text_pos;
		if (n > READER_CHUNK - c->len)
			n = READER_CHUNK - c->len;
		if (r->ramp && n > r->ramp) {
			/* a small chunk that ends after a line break, or a full one when none is near */
			size_t k = r->ramp;
			while (k > 0 && r->text[r->text_pos + k - 1] != '\n')
				k--;
			if (k)
				n = k;
			r->ramp = r->ramp * 2 < READER_CHUNK ? r->ramp * 2 : 0;
		}
		memcpy(c->bytes + c->len, r->text + r->text_pos, n);
		c->len += n;
		r->text_pos += n;
		r->eof = r->text_pos == r->text_len;
	}
	while (!r->text && c->len < READER_CHUNK && !r->eof && !r->io_errno) {
		ssize_t n = read(r->fd, c->bytes + c->len, READER_CHUNK - c->len);
		if (n > 0)
			c->len += (size_t)n;
		else if (n == 0)
			r->eof = true;
		else if (errno != EINTR)
			r->io_errno = errno;
	}
	c->filled = c->len;
	c->bytes[c->len] = '\n';
}

/*
 * Cuts c after its last line break, carrying the incomplete last line to
 * the next chunk; a chunk without a line break is one piece of a line
 * longer than a chunk.  Writes the sentinel '\n' after the cut.
 */
static void cut(struct reader *r, struct chunk *c)
{
	bool at_end = r->eof || r->io_errno;
	const char *from = c->bytes + c->skip, *nl = NULL;

	for (const char *p = c->bytes + c->len; p > from; p--)
		if (p[-1] == '\n') {
			nl = p - 1;
			break;
		}
	c->long_rest = r->in_long_line;
	c->tail_continues = !nl && !at_end;
	if (nl && !at_end) {
		r->carry_len = (size_t)(c->bytes + c->len - (nl + 1));
		memcpy(r->carry, nl + 1, r->carry_len);
		c->len = (size_t)(nl + 1 - c->bytes);
	}
	if (c->long_rest) {
		/* the rest of a line longer than a chunk: count it, up to its line break */
		const char *end_nl = memchr(from, '\n', (size_t)(c->bytes + c->len - from));
		r->long_len += (size_t)((end_nl ? end_nl : c->bytes + c->len) - from);
		c->long_line_len = r->long_len;
	} else if (c->tail_continues) {
		r->long_len = (size_t)(c->bytes + c->len - from);
	}
	r->in_long_line = c->tail_continues;
	c->last = at_end;
	c->io_errno = r->io_errno;
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

static void add_slow(struct chunk *c, const char *p, size_t len)
{
	struct line_rec *rec = &c->lines[c->nlines++];
	rec->start = (uint32_t)(p - c->bytes);
	rec->len = (uint32_t)len;
	rec->kind = LINE_SLOW;
}

/*
 * Makes c's line records, the fast path parsing each line it can.
 * Returns false when out of memory.
 */
static bool parse(fast_lines_fn *fast_lines, struct chunk *c)
{
	char *p = c->bytes + c->skip, *end = c->bytes + c->len;

	c->nlines = c->nvalues = 0;
	if (c->long_rest || c->tail_continues) {
		/*
		 * A line longer than a chunk: its head (a whole chunk), nothing
		 * inside it, and its end (the rest up to its line break, or up to
		 * the end of input) -- never its bytes for flex.
		 */
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *next = nl ? (char *)nl + 1 : end;
		if (!c->long_rest) {
			if (!reserve((void **)&c->lines, &c->lines_cap, 1, sizeof(*c->lines)))
				return false;
			add_slow(c, p, (size_t)(end - p));
			c->lines[0].kind = LINE_LONG_HEAD;
			return true;
		}
		if (c->tail_continues)
			return true;
		if (!reserve((void **)&c->lines, &c->lines_cap, 1, sizeof(*c->lines)))
			return false;
		add_slow(c, p, (size_t)(next - p));
		c->lines[0].kind = LINE_TOO_LONG;
		p = next;
	}
	while (p < end) {
		const char *nl;

		if (c->nlines == c->lines_cap &&
		    !reserve((void **)&c->lines, &c->lines_cap, c->nlines + 1, sizeof(*c->lines)))
			return false;
		if (fast_lines) {
			if (c->values_cap - c->nvalues < FRONTEND_MAX_VALUES &&
			    !reserve((void **)&c->values, &c->values_cap, c->nvalues + FRONTEND_MAX_VALUES,
				     sizeof(*c->values)))
				return false;
			p = fast_lines(p, c);
			if (p == end)
				break;
			if (c->nlines == c->lines_cap || c->values_cap - c->nvalues < FRONTEND_MAX_VALUES)
				continue; /* out of room: make more, and go on */
		}
		/* a line the fast path does not take */
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl) {
			add_slow(c, p, (size_t)(nl + 1 - p));
			p = (char *)nl + 1;
		} else {
			/* the last line, without a line break */
			add_slow(c, p, (size_t)(end - p));
			p = end;
		}
	}
	return true;
}

/* --- sharing the work ------------------------------------------------------ */

/* A producer may start on a chunk (under lock). */
static bool can_produce(const struct reader *r)
{
	return !r->filling && !r->input_done && (r->first || r->free_list);
}

/*
 * Fills and parses the next chunk (called and returning under lock, which
 * it drops meanwhile) and makes it ready.
 */
static void produce(struct reader *r)
{
	struct chunk *c;
	bool first = r->first != NULL;

	if (first) {
		c = r->first;
		r->first = NULL;
	} else {
		c = r->free_list;
		r->free_list = c->next;
	}
	r->filling = true;
	c->seq = r->next_seq++;
	c->ready = false;
	pthread_mutex_unlock(&r->lock);

	if (!first)
		fill(r, c);
	cut(r, c);

	pthread_mutex_lock(&r->lock);
	r->filling = false;
	r->input_done = c->last;
	pthread_cond_broadcast(&r->changed);
	pthread_mutex_unlock(&r->lock);

	if (!parse(r->fast_lines, c)) {
		/* out of memory: the input ends here, as after a read error */
		c->last = true;
		c->io_errno = ENOMEM;
	}

	pthread_mutex_lock(&r->lock);
	c->ready = true;
	pthread_cond_broadcast(&r->changed);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	pthread_mutex_lock(&r->lock);
	while (!r->cancel && !r->input_done) {
		if (can_produce(r))
			produce(r);
		else
			pthread_cond_wait(&r->changed, &r->lock);
	}
	pthread_mutex_unlock(&r->lock);
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
	*len = r->all[0]->filled;
	return (const unsigned char *)r->all[0]->bytes;
}

void reader_start(struct reader *r, size_t skip)
{
	size_t len;

	reader_peek(r, &len);
	r->first->skip = skip;
	/* a second thread only when there is more than one chunk to read */
	if (!r->want_thread || r->eof || r->io_errno)
		return;
	for (; r->nall < CHUNKS_THREADED; r->nall++) {
		r->all[r->nall] = chunk_new();
		if (!r->all[r->nall])
			break;
		r->all[r->nall]->next = r->free_list;
		r->free_list = r->all[r->nall];
	}
	if (r->nall > 1 && pthread_create(&r->thread, NULL, reader_main, r) == 0)
		r->threaded = true;
}

struct chunk *reader_next(struct reader *r)
{
	struct chunk *c = NULL;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		for (size_t i = 0; i < r->nall; i++)
			if (r->all[i]->ready && r->all[i]->seq == r->want_seq) {
				c = r->all[i];
				break;
			}
		if (c) {
			c->ready = false;
			r->want_seq++;
			break;
		}
		if (r->input_done && r->want_seq == r->next_seq)
			break; /* every chunk was taken */
		if (can_produce(r))
			produce(r);
		else
			pthread_cond_wait(&r->changed, &r->lock);
	}
	pthread_mutex_unlock(&r->lock);
	return c;
}

void reader_release(struct reader *r, struct chunk *c)
{
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
