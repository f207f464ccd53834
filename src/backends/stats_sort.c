/*
 * stats_sort.c - an external merge sort of the rows of nvtx_pushpop_trace
 * (stats_sort.h): sorted runs in an unnamed temporary file, a k-way merge.
 *
 * A row on disk: varint(len), varint(unit), varint(zigzag(start)),
 * varint(dur), varint(id), then its len bytes (LEB128 varints: 7 bits a
 * byte, low first).  In the block: varint(len) and the bytes from the
 * bottom, a struct ent (the key and the bytes' offset) from the top.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats_sort.h"
#include "util.h"

#define HEAD_MAX 50 /* a row's five varints */

struct ent {
	struct stats_sort_key key;
	uint32_t off; /* of varint(len) in the block */
};

struct run {
	uint64_t off, len;
};

/* One source of a merge: a run on disk, or the block. */
struct source {
	bool disk;                  /* a run, else the block */
	struct stats_tmp_reader rd; /* the run's bytes still to read */
	size_t next_ent;       /* the block: index of the next entry */
	bool have;             /* key, bytes, len hold its current row */
	struct stats_sort_key key;
	const unsigned char *bytes;
	size_t len;
};

struct stats_sort {
	unsigned char *block;
	size_t budget, bottom, nents; /* entries at block + budget - nents * sizeof(struct ent) */
	unsigned fanin;
	struct stats_tmp tmp;
	struct run *runs;
	size_t nruns, runs_cap;
	struct source *src;  /* the reading merge: up to fanin runs and the block */
	size_t nsrc, last;   /* last: the source of the row given, advanced at the next call */
	bool finished;
};

static size_t put_head(unsigned char *p, const struct stats_sort_key *k, size_t len)
{
	size_t n = stats_sort_put_uv(p, len);

	n += stats_sort_put_uv(p + n, k->unit);
	n += stats_sort_put_uv(p + n, stats_sort_zz(k->start));
	n += stats_sort_put_uv(p + n, k->dur);
	n += stats_sort_put_uv(p + n, k->id);
	return n;
}

/* The head at *p: the key and the bytes' length; 0, or -1 when malformed. */
static int get_head(const unsigned char **p, const unsigned char *end, struct stats_sort_key *k, uint64_t *len)
{
	uint64_t unit, zz;

	if (stats_sort_get_uv(p, end, len) || stats_sort_get_uv(p, end, &unit) || stats_sort_get_uv(p, end, &zz) ||
	    stats_sort_get_uv(p, end, &k->dur) || stats_sort_get_uv(p, end, &k->id) || unit > UINT8_MAX)
		return -1;
	k->unit = (uint8_t)unit;
	k->start = stats_sort_unzz(zz);
	return 0;
}

static int key_cmp(const struct stats_sort_key *x, const struct stats_sort_key *y)
{
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static int ent_cmp(const void *a, const void *b)
{
	return key_cmp(&((const struct ent *)a)->key, &((const struct ent *)b)->key);
}

struct stats_sort *stats_sort_new(size_t budget, unsigned fanin)
{
	struct stats_sort *s = xcalloc(1, sizeof *s);

	s->budget = budget < 4096 ? 4096 : budget > UINT32_MAX / 2 ? UINT32_MAX / 2 : budget;
	s->budget &= ~(size_t)15; /* the entries at its top stay aligned */
	s->fanin = fanin < 2 ? 2 : fanin;
	s->block = xmalloc(s->budget);
	stats_tmp_init(&s->tmp, "the rows of nvtx_pushpop_trace are sorted there");
	return s;
}

void stats_sort_free(struct stats_sort *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nsrc; i++)
		free(s->src[i].rd.buf);
	free(s->src);
	free(s->block);
	free(s->runs);
	stats_tmp_close(&s->tmp);
	free(s);
}

const char *stats_sort_error(const struct stats_sort *s)
{
	return stats_tmp_error(&s->tmp);
}

size_t stats_sort_runs(const struct stats_sort *s)
{
	return s->nruns;
}

/* --- writing runs ------------------------------------------------------------ */

/* A row of the run being written. */
static int wrow(struct stats_sort *s, const struct stats_sort_key *k, const unsigned char *bytes, size_t len)
{
	unsigned char head[HEAD_MAX];

	return stats_tmp_put(&s->tmp, head, put_head(head, k, len)) || stats_tmp_put(&s->tmp, bytes, len) ? -1 : 0;
}

static int begin_run(struct stats_sort *s)
{
	if (s->tmp.failed) {
		errno = EIO;
		return -1;
	}
	xgrow((void **)&s->runs, &s->runs_cap, s->nruns + 1, sizeof *s->runs);
	s->runs[s->nruns] = (struct run){ .off = stats_tmp_tell(&s->tmp) };
	return 0;
}

static int end_run(struct stats_sort *s)
{
	if (stats_tmp_flush(&s->tmp) != 0)
		return -1;
	s->runs[s->nruns].len = s->tmp.end - s->runs[s->nruns].off;
	s->nruns++;
	return 0;
}

static struct ent *ents(const struct stats_sort *s)
{
	return (struct ent *)(void *)(s->block + s->budget - s->nents * sizeof(struct ent));
}

/* The bytes of entry e: their length in *len. */
static const unsigned char *ent_bytes(const struct stats_sort *s, const struct ent *e, size_t *len)
{
	const unsigned char *p = s->block + e->off;
	uint64_t n = 0;

	stats_sort_get_uv(&p, s->block + s->bottom, &n);
	*len = (size_t)n;
	return p;
}

/* The block, sorted, as one run on disk; the block is empty after. */
static int spill(struct stats_sort *s)
{
	struct ent *e = ents(s);

	if (s->nents == 0)
		return 0;
	qsort(e, s->nents, sizeof *e, ent_cmp);
	if (begin_run(s) != 0)
		return -1;
	for (size_t i = 0; i < s->nents; i++) {
		size_t len;
		const unsigned char *b = ent_bytes(s, &e[i], &len);
		if (wrow(s, &e[i].key, b, len) != 0)
			return -1;
	}
	s->nents = 0;
	s->bottom = 0;
	return end_run(s);
}

/* A row longer than the block: a run of its own. */
static int add_alone(struct stats_sort *s, const struct stats_sort_key *key, const void *bytes, size_t len)
{
	if (begin_run(s) != 0 || wrow(s, key, bytes, len) != 0)
		return -1;
	return end_run(s);
}

int stats_sort_add(struct stats_sort *s, const struct stats_sort_key *key, const void *bytes, size_t len)
{
	size_t need = 10 + len + sizeof(struct ent);
	unsigned char *p;
	struct ent *e;

	if (s->tmp.failed || s->finished) {
		errno = s->tmp.failed ? EIO : EINVAL;
		return -1;
	}
	if (s->bottom + need + s->nents * sizeof(struct ent) > s->budget && spill(s) != 0)
		return -1;
	if (need > s->budget)
		return add_alone(s, key, bytes, len);
	p = s->block + s->bottom;
	s->nents++;
	e = ents(s);
	*e = (struct ent){ .key = *key, .off = (uint32_t)s->bottom };
	s->bottom += stats_sort_put_uv(p, len);
	if (len)
		memcpy(s->block + s->bottom, bytes, len);
	s->bottom += len;
	return 0;
}

/* --- reading: the k-way merge --------------------------------------------------- */

/* The next row of source r into r->key, bytes, len (r->have false at its end). */
static int src_next(struct stats_sort *s, struct source *r)
{
	const unsigned char *p, *end;
	uint64_t len;

	r->have = false;
	if (!r->disk) {
		if (r->next_ent < s->nents) {
			const struct ent *e = &ents(s)[r->next_ent++];
			r->key = e->key;
			r->bytes = ent_bytes(s, e, &r->len);
			r->have = true;
		}
		return 0;
	}
	if (stats_tmp_fill(&s->tmp, &r->rd, HEAD_MAX) != 0)
		return -1;
	if (r->rd.fill == r->rd.start)
		return 0; /* the run's end */
	p = r->rd.buf + r->rd.start;
	end = r->rd.buf + r->rd.fill;
	if (get_head(&p, end, &r->key, &len) != 0 || len > SIZE_MAX - HEAD_MAX) {
		errno = EIO;
		return stats_tmp_fail(&s->tmp, "read");
	}
	r->rd.start = (size_t)(p - r->rd.buf);
	if (stats_tmp_fill(&s->tmp, &r->rd, (size_t)len) != 0)
		return -1;
	if (r->rd.fill - r->rd.start < len) {
		errno = EIO;
		return stats_tmp_fail(&s->tmp, "read");
	}
	r->bytes = r->rd.buf + r->rd.start;
	r->len = (size_t)len;
	r->rd.start += (size_t)len;
	r->have = true;
	return 0;
}

/* Sources for runs[first..first + n) (and the block when with_block), each at its first row. */
static int merge_open(struct stats_sort *s, size_t first, size_t n, bool with_block)
{
	size_t need = n + (with_block ? 1 : 0);

	if (s->nsrc < need) {
		s->src = xrealloc(s->src, need * sizeof *s->src);
		for (size_t i = s->nsrc; i < need; i++)
			s->src[i] = (struct source){ .disk = false };
	}
	for (size_t i = need; i < s->nsrc; i++) {
		free(s->src[i].rd.buf);
		s->src[i].rd.buf = NULL;
	}
	s->nsrc = need;
	for (size_t i = 0; i < need; i++) {
		struct source *r = &s->src[i];
		unsigned char *buf = r->rd.buf;
		size_t cap = r->rd.cap;
		if (i < n && !buf) {
			buf = xmalloc(STATS_SORT_READ_BUF);
			cap = STATS_SORT_READ_BUF;
		}
		*r = (struct source){ .disk = i < n, .rd = { .buf = buf, .cap = buf ? cap : 0 } };
		if (r->disk) { /* a copy: begin_run may move the runs */
			r->rd.pos = s->runs[first + i].off;
			r->rd.end = r->rd.pos + s->runs[first + i].len;
		}
		if (src_next(s, r) != 0)
			return -1;
	}
	s->last = SIZE_MAX;
	return 0;
}

/* The source of the smallest row, or SIZE_MAX when all are done. */
static size_t merge_pick(const struct stats_sort *s)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < s->nsrc; i++)
		if (s->src[i].have && (best == SIZE_MAX || key_cmp(&s->src[i].key, &s->src[best].key) < 0))
			best = i;
	return best;
}

/* Merges the n shortest runs into a new one at the end; the runs merged leave the list. */
static int merge_pass(struct stats_sort *s, size_t n)
{
	size_t i;

	/* the shortest n first (the fewest bytes rewritten), in their order otherwise */
	for (i = 0; i < n; i++) {
		size_t m = i;
		for (size_t j = i + 1; j < s->nruns; j++)
			if (s->runs[j].len < s->runs[m].len)
				m = j;
		struct run t = s->runs[i];
		s->runs[i] = s->runs[m];
		s->runs[m] = t;
	}
	if (merge_open(s, 0, n, false) != 0 || begin_run(s) != 0)
		return -1;
	while ((i = merge_pick(s)) != SIZE_MAX) {
		struct source *r = &s->src[i];
		if (wrow(s, &r->key, r->bytes, r->len) != 0 || src_next(s, r) != 0)
			return -1;
	}
	if (end_run(s) != 0)
		return -1;
	/* the new run replaces the n merged ones */
	memmove(s->runs, s->runs + n, (s->nruns - n) * sizeof *s->runs);
	s->nruns -= n;
	return 0;
}

int stats_sort_finish(struct stats_sort *s)
{
	if (s->tmp.failed) {
		errno = EIO;
		return -1;
	}
	if (!s->finished) {
		s->finished = true;
		if (s->nents)
			qsort(ents(s), s->nents, sizeof(struct ent), ent_cmp);
		while (s->nruns > s->fanin) {
			size_t n = s->nruns - s->fanin + 1;
			if (merge_pass(s, n < s->fanin ? n : s->fanin) != 0)
				return -1;
		}
		if (stats_tmp_flush(&s->tmp) != 0)
			return -1;
		free(s->tmp.wbuf);
		s->tmp.wbuf = NULL;
	}
	return stats_sort_rewind(s);
}

int stats_sort_rewind(struct stats_sort *s)
{
	if (s->tmp.failed || !s->finished) {
		errno = s->tmp.failed ? EIO : EINVAL;
		return -1;
	}
	return merge_open(s, 0, s->nruns, true);
}

int stats_sort_next(struct stats_sort *s, struct stats_sort_key *key, const unsigned char **bytes, size_t *len)
{
	size_t i;

	if (s->tmp.failed) {
		errno = EIO;
		return -1;
	}
	if (s->last != SIZE_MAX && src_next(s, &s->src[s->last]) != 0)
		return -1;
	s->last = i = merge_pick(s);
	if (i == SIZE_MAX)
		return 0;
	*key = s->src[i].key;
	*bytes = s->src[i].bytes;
	*len = s->src[i].len;
	return 1;
}
