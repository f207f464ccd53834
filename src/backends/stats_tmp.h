/*
 * stats_tmp.h - the unnamed temporary file of nvtxtc stats (nvtxtc(1),
 * STATS, Memory): the sorted runs of nvtx_pushpop_trace's rows
 * (stats_sort.c) and of the summaries' durations (stats_median.c).  It is
 * made at the first write in $TMPDIR (or /tmp; temp_fd of util.h:
 * O_TMPFILE, or mkstemp and unlinked at once), so nothing is left behind
 * whatever ends the process; it is written through one buffer of
 * STATS_TMP_BUF bytes and read back in ranges (a reader: one buffer each).
 */
#ifndef NVTXT_STATS_TMP_H
#define NVTXT_STATS_TMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_TMP_BUF (64 * 1024)

struct stats_tmp {
	int fd;              /* -1 until the first write */
	const char *dir;     /* where it was made (temp_fd) */
	const char *why;     /* the end of the error's parenthesis: "the rows of nvtx_pushpop_trace are sorted there" */
	uint64_t end;        /* bytes written to the file (the buffer's not counted) */
	unsigned char *wbuf; /* STATS_TMP_BUF bytes once the file is made */
	size_t wlen;
	bool failed;
	char error[4200];
};

/* A range of the file being read: pos to end, through buf. */
struct stats_tmp_reader {
	uint64_t pos, end;
	unsigned char *buf;
	size_t cap, start, fill; /* unread bytes: buf[start..fill) */
};

/* A file not made yet; `why` (static) ends its error messages. */
void stats_tmp_init(struct stats_tmp *t, const char *why);
/* Closes the file (it has no name: its blocks are freed) and frees the buffer. */
void stats_tmp_close(struct stats_tmp *t);

/* The offset of the next byte put. */
static inline uint64_t stats_tmp_tell(const struct stats_tmp *t)
{
	return t->end + t->wlen;
}

/*
 * Appends len bytes (the file is made at the first call).  Returns 0, or
 * -1 with errno set when it cannot be made or written: the error, a
 * sentence naming the directory, is kept (stats_tmp_error) and every
 * later call fails.
 */
int stats_tmp_put(struct stats_tmp *t, const void *p, size_t len);
/* Writes the buffer out (before the bytes put are read back).  0, or -1 as stats_tmp_put. */
int stats_tmp_flush(struct stats_tmp *t);

/*
 * len bytes of the file at offset off into p (the bytes put must have been
 * flushed).  Returns 0, or -1 with errno (a read error, or EIO when the
 * file is shorter), kept as stats_tmp_put's are.
 */
int stats_tmp_read(struct stats_tmp *t, void *p, size_t len, uint64_t off);

/*
 * At least n bytes of r's range in r->buf from r->start (fewer only at
 * the range's end), the buffer grown when n is more than it holds.
 * Returns 0, or -1 with errno (a read error, or EIO when the file is
 * shorter than what was written), kept as stats_tmp_put's are.
 */
int stats_tmp_fill(struct stats_tmp *t, struct stats_tmp_reader *r, size_t n);

/* Records what failed ("create", "write", "read"; errno kept, EIO when 0); returns -1. */
int stats_tmp_fail(struct stats_tmp *t, const char *what);

/* The first failure as a sentence ("cannot write a temporary file in '/tmp' (TMPDIR; ...): ..."), or NULL. */
static inline const char *stats_tmp_error(const struct stats_tmp *t)
{
	return t->failed ? t->error : NULL;
}

#endif
