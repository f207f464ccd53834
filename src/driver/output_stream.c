/*
 * output_stream.c - the stream of an output's temporary, written in
 * aligned pieces, behind the caller when it allows (output_stream.h).
 *
 * The FILE is unbuffered: each fwrite reaches out_write with the caller's
 * bytes, which are copied into the current piece (one copy, as a stdio
 * buffer makes).  A piece that starts at an offset that is not a multiple
 * of OUTPUT_PIECE (after a seek) ends at the next multiple, so the pieces
 * after it are aligned again.  A full piece is written (write(2), then the
 * writeback kick) by the caller, or queued for the writer thread; the
 * queue is a ring of OUTPUT_PIECES - 1 pieces in file order, one thread
 * writes them, and every write is made in order through the descriptor's
 * offset, so the bytes are those a plain stream would write.
 */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output_stream.h"
#include "util.h"

enum { WRITEBACK_EVERY = 8 << 20 };

struct piece {
	char *buf;
	size_t len, cap; /* bytes in it; its end, at most OUTPUT_PIECE */
};

struct output_stream {
	int fd;
	bool behind;              /* the thread may run (the caller allowed it, and it could start) */
	struct piece cur;         /* the caller's, being filled */
	off_t pos;                /* the caller's offset: after cur's bytes */
	/* the writing side's: the thread while it runs, else the caller */
	off_t high, kicked;       /* the end of what was written, of what was handed to writeback */
	/* under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool started, stop, drop; /* the thread runs; it ends when the queue is empty; without writing it */
	struct piece queue[OUTPUT_PIECES];
	size_t head, n;           /* the queue's first piece and length */
	char *spare[OUTPUT_PIECES];
	size_t nspare, nbufs;     /* free buffers; buffers made */
	int err;                  /* the errno of the first write that failed, or 0 */
	pthread_t thread;
};

/* Writes piece p at the descriptor's offset, then kicks writeback; 0 or an errno value. */
static int write_piece(struct output_stream *s, const struct piece *p)
{
	size_t done = 0;

	while (done < p->len) {
		ssize_t w = write(s->fd, p->buf + done, p->len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		done += (size_t)w;
	}
	{
		off_t end = lseek(s->fd, 0, SEEK_CUR);
		if (end > s->high)
			s->high = end;
	}
	if (s->high - s->kicked >= WRITEBACK_EVERY) {
#ifdef SYNC_FILE_RANGE_WRITE
		sync_file_range(s->fd, s->kicked, s->high - s->kicked, SYNC_FILE_RANGE_WRITE);
#endif
		s->kicked = s->high;
	}
	return 0;
}

/* The writer thread: the queued pieces, in order, until told to stop. */
static void *writer_main(void *arg)
{
	struct output_stream *s = arg;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		struct piece p;
		int e = 0;

		while (!s->n && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		if (!s->n)
			break;
		p = s->queue[s->head];
		if (!s->err && !s->drop) {
			pthread_mutex_unlock(&s->lock);
			e = write_piece(s, &p);
			pthread_mutex_lock(&s->lock);
		}
		if (e && !s->err)
			s->err = e;
		s->head = (s->head + 1) % OUTPUT_PIECES;
		s->n--;
		s->spare[s->nspare++] = p.buf;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* Starts the writer thread (under lock) with every signal blocked in it; false when it cannot. */
static bool start_writer(struct output_stream *s)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&s->thread, NULL, writer_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->started = rc == 0;
	return s->started;
}

/* The next piece's room: up to the next multiple of OUTPUT_PIECE from pos. */
static void piece_begin(struct output_stream *s)
{
	s->cur.len = 0;
	s->cur.cap = OUTPUT_PIECE - (size_t)(s->pos % OUTPUT_PIECE);
}

/*
 * Hands the current piece on: written now when there is no writer
 * thread, else queued, and the caller gets a free buffer (made, up to
 * OUTPUT_PIECES, or waited for).  0, or an errno value.
 */
static int submit(struct output_stream *s)
{
	int e = 0;

	if (!s->cur.len)
		return 0;
	pthread_mutex_lock(&s->lock);
	if (s->behind && !s->started && !start_writer(s))
		s->behind = false;
	if (!s->behind) {
		pthread_mutex_unlock(&s->lock);
		e = s->err ? s->err : write_piece(s, &s->cur);
		s->err = e;
		piece_begin(s);
		return e;
	}
	s->queue[(s->head + s->n) % OUTPUT_PIECES] = s->cur;
	s->n++;
	pthread_cond_broadcast(&s->cond);
	s->cur.buf = NULL;
	if (!s->nspare && s->nbufs < OUTPUT_PIECES && (s->cur.buf = malloc(OUTPUT_PIECE)) != NULL)
		s->nbufs++;
	while (!s->cur.buf && !s->nspare)
		pthread_cond_wait(&s->cond, &s->lock);
	if (!s->cur.buf)
		s->cur.buf = s->spare[--s->nspare];
	e = s->err;
	pthread_mutex_unlock(&s->lock);
	piece_begin(s);
	return e;
}

static ssize_t out_write(void *cookie, const char *p, size_t n)
{
	struct output_stream *s = cookie;
	size_t left = n;

	while (left) {
		size_t k = s->cur.cap - s->cur.len;
		int e;

		if (k > left)
			k = left;
		memcpy(s->cur.buf + s->cur.len, p, k);
		s->cur.len += k;
		s->pos += (off_t)k;
		p += k;
		left -= k;
		if (s->cur.len == s->cur.cap && (e = submit(s)) != 0) {
			errno = e;
			return -1;
		}
	}
	return (ssize_t)n;
}

int output_stream_drain(struct output_stream *s)
{
	int e = submit(s);

	pthread_mutex_lock(&s->lock);
	while (s->n)
		pthread_cond_wait(&s->cond, &s->lock);
	if (!e)
		e = s->err;
	pthread_mutex_unlock(&s->lock);
	return e;
}

static int out_seek(void *cookie, off64_t *off, int whence)
{
	struct output_stream *s = cookie;
	int e = output_stream_drain(s);
	off_t r;

	if (e) {
		errno = e;
		return -1;
	}
	r = lseek(s->fd, (off_t)*off, whence);
	if (r < 0)
		return -1;
	*off = s->pos = r;
	piece_begin(s);
	return 0;
}

static int out_close(void *cookie)
{
	struct output_stream *s = cookie;
	int rc;

	pthread_mutex_lock(&s->lock);
	s->stop = s->drop = true; /* fclose after a drain (commit), or to throw the file away */
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->started)
		pthread_join(s->thread, NULL);
	free(s->cur.buf);
	while (s->nspare)
		free(s->spare[--s->nspare]);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	rc = close(s->fd);
	free(s);
	return rc;
}

FILE *output_stream_open(int fd, bool write_behind, struct output_stream **state)
{
	static const cookie_io_functions_t io = { .write = out_write, .seek = out_seek, .close = out_close };
	struct output_stream *s = try_calloc(1, sizeof(*s));
	FILE *f = NULL;

	if (!s)
		return NULL;
	s->fd = fd;
	s->behind = write_behind;
	s->cur.buf = try_malloc(OUTPUT_PIECE);
	s->nbufs = 1;
	if (s->cur.buf)
		f = fopencookie(s, "w", io);
	if (!f) {
		free(s->cur.buf);
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	setvbuf(f, NULL, _IONBF, 0);
	piece_begin(s);
	*state = s;
	return f;
}
