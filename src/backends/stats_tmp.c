/*
 * stats_tmp.c - the unnamed temporary file of nvtxtc stats (stats_tmp.h):
 * a buffered writer and buffered readers of ranges (pread).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats_tmp.h"
#include "util.h"

void stats_tmp_init(struct stats_tmp *t, const char *why)
{
	*t = (struct stats_tmp){ .fd = -1, .why = why };
}

void stats_tmp_close(struct stats_tmp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	free(t->wbuf);
	t->wbuf = NULL;
}

int stats_tmp_fail(struct stats_tmp *t, const char *what)
{
	int e = errno ? errno : EIO;

	if (!t->failed)
		snprintf(t->error, sizeof t->error, "cannot %s a temporary file in '%s' (TMPDIR; %s): %s", what,
			 t->dir ? t->dir : "/tmp", t->why, strerror(e));
	t->failed = true;
	errno = e;
	return -1;
}

int stats_tmp_flush(struct stats_tmp *t)
{
	size_t done = 0;

	if (t->failed) {
		errno = EIO;
		return -1;
	}
	while (done < t->wlen) {
		ssize_t n = write(t->fd, t->wbuf + done, t->wlen - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return stats_tmp_fail(t, "write");
		}
		done += (size_t)n;
	}
	t->end += t->wlen;
	t->wlen = 0;
	return 0;
}

int stats_tmp_put(struct stats_tmp *t, const void *p, size_t len)
{
	const unsigned char *b = p;

	if (t->failed) {
		errno = EIO;
		return -1;
	}
	if (t->fd < 0) {
		errno = 0;
		t->fd = temp_fd(&t->dir);
		if (t->fd < 0)
			return stats_tmp_fail(t, "create");
		if (!t->wbuf)
			t->wbuf = xmalloc(STATS_TMP_BUF);
	}
	while (len) {
		size_t room = STATS_TMP_BUF - t->wlen, n = len < room ? len : room;
		memcpy(t->wbuf + t->wlen, b, n);
		t->wlen += n;
		b += n;
		len -= n;
		if (t->wlen == STATS_TMP_BUF && stats_tmp_flush(t) != 0)
			return -1;
	}
	return 0;
}

int stats_tmp_read(struct stats_tmp *t, void *p, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t got = pread(t->fd, (char *)p + done, len - done, (off_t)(off + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = EIO; /* the file is shorter than what was written */
			return stats_tmp_fail(t, "read");
		}
		done += (size_t)got;
	}
	return 0;
}

int stats_tmp_fill(struct stats_tmp *t, struct stats_tmp_reader *r, size_t n)
{
	size_t want;

	if (r->fill - r->start >= n)
		return 0;
	memmove(r->buf, r->buf + r->start, r->fill - r->start);
	r->fill -= r->start;
	r->start = 0;
	if (n > r->cap) {
		r->buf = xrealloc(r->buf, n);
		r->cap = n;
	}
	want = r->cap - r->fill;
	if (want > r->end - r->pos)
		want = (size_t)(r->end - r->pos);
	if (stats_tmp_read(t, r->buf + r->fill, want, r->pos) != 0)
		return -1;
	r->fill += want;
	r->pos += want;
	return 0;
}
