/*
 * stats_sort.h - the rows of nvtx_pushpop_trace (stats.c) sorted in
 * bounded memory: an external merge sort.  Rows are added as a key and
 * bytes; they collect in one block of `budget` bytes (the bytes from its
 * bottom, the keys from its top); a full block is sorted and written as
 * one sorted run to the unnamed temporary file of stats_tmp.h (in
 * $TMPDIR or /tmp, nothing left behind whatever ends the process).  At the end the last block is sorted in memory, runs are
 * merged `fanin` at a time until at most `fanin` are left, and reading
 * merges those and the block (a k-way merge, a buffer of
 * STATS_SORT_READ_BUF bytes per run).  No temporary file is made when
 * every row fits in the block.
 *
 * Memory: budget + fanin * STATS_SORT_READ_BUF + STATS_SORT_READ_BUF (the
 * writer) + 16 bytes per run, whatever the number of rows; a row longer
 * than the block or a read buffer makes that one buffer grow to hold it.
 * Disk: about the bytes of the rows, twice while runs are merged.
 *
 * The order is that of the key: unit, then start, then dur, then id
 * (signed start; the others unsigned); keys should be unique (ids are),
 * equal keys come out in an unspecified order.
 */
#ifndef NVTXT_STATS_SORT_H
#define NVTXT_STATS_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "stats_tmp.h"

#define STATS_SORT_READ_BUF (64 * 1024)

struct stats_sort_key {
	int64_t start;
	uint64_t dur, id;
	uint8_t unit;
};

struct stats_sort;

/* A new sorter (budget >= 4096 bytes, fanin >= 2).  Never returns NULL (out of memory exits, util.h). */
struct stats_sort *stats_sort_new(size_t budget, unsigned fanin);
void stats_sort_free(struct stats_sort *s);

/*
 * Adds a row: its key and len bytes (copied).  Returns 0, or -1 with
 * errno set when the temporary file cannot be made or written
 * (stats_sort_error says which); the sorter then refuses every call.
 */
int stats_sort_add(struct stats_sort *s, const struct stats_sort_key *key, const void *bytes, size_t len);

/* After the last add: sorts the block and merges runs down to fanin.  0, or -1 with errno. */
int stats_sort_finish(struct stats_sort *s);

/*
 * Reading, after stats_sort_finish: rewind goes to the first row (0 or
 * -1); next gives the next row in order: returns 1 with *key, *bytes and
 * *len (the bytes valid until the next call of next or rewind), 0 after
 * the last row, -1 with errno on a read error.
 */
int stats_sort_rewind(struct stats_sort *s);
int stats_sort_next(struct stats_sort *s, struct stats_sort_key *key, const unsigned char **bytes, size_t *len);

/* What failed, as a sentence ("cannot write a temporary file in '/tmp': ..."), or NULL. */
const char *stats_sort_error(const struct stats_sort *s);

/* A varint (LEB128: 7 bits a byte, low first) of v at p (10 bytes at most); its length. */
static inline size_t stats_sort_put_uv(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

/* The varint at *p (before end) in *v, *p moved past it; -1 when cut short or too long. */
static inline int stats_sort_get_uv(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; *p < end && shift < 64; shift += 7) {
		unsigned char c = *(*p)++;
		x |= (uint64_t)(c & 0x7F) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* Signed integers as varints: zigzag (0, -1, 1, -2, ... as 0, 1, 2, 3, ...). */
static inline uint64_t stats_sort_zz(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t stats_sort_unzz(uint64_t z)
{
	return (int64_t)((z >> 1) ^ (0 - (z & 1)));
}

/* The runs written to the temporary file so far (0: every row in memory); for the tests. */
size_t stats_sort_runs(const struct stats_sort *s);

#endif
