/*
 * stats_median.c - the summaries' durations in bounded memory and their
 * statistics (stats_median.h): arrays in memory up to a budget, spilled
 * as they are to the temporary file of stats_tmp.h, read back a row at a
 * time at the end.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats_median.h"
#include "stats_tmp.h"
#include "util.h"

/* A segment of a run: one row's durations, count of them, 8 bytes each when wide, else 4 (host order). */
struct seg_head {
	uint64_t group, count, wide;
};

/* A run: one spill, its segments in row order; at the end, the segment at hand (at, head). */
struct run {
	uint64_t off, len;
	uint64_t at;          /* offset of the segment at hand */
	struct seg_head head; /* its head; group UINT64_MAX past the run's end */
};

struct stats_durs {
	size_t budget, mem; /* the arrays' room in bytes: allowed, taken */
	struct stats_tmp tmp;
	struct run *runs;
	size_t nruns, runs_cap;
	uint64_t *chunk;    /* STATS_TMP_BUF bytes: durations read back (a row too large to load) */
};

/* A row of more durations than this (bytes at 8 each) is not loaded whole at the end (stats_median.h). */
static size_t load_max(const struct stats_durs *m)
{
	return m->budget / 2;
}

struct stats_durs *stats_durs_new(size_t budget)
{
	struct stats_durs *m = xcalloc(1, sizeof *m);

	m->budget = budget < 64 ? 64 : budget;
	stats_tmp_init(&m->tmp, "the durations of the summaries are kept there for their medians");
	return m;
}

void stats_durs_free(struct stats_durs *m)
{
	if (!m)
		return;
	free(m->runs);
	free(m->chunk);
	stats_tmp_close(&m->tmp);
	free(m);
}

const char *stats_durs_error(const struct stats_durs *m)
{
	return stats_tmp_error(&m->tmp);
}

size_t stats_durs_runs(const struct stats_durs *m)
{
	return m->nruns;
}

/* --- spilling ------------------------------------------------------------------ */

/* Every array as one run (dropped instead once the file failed); the arrays are freed. */
static void spill_all(struct stats_durs *m, struct group *groups, size_t ngroups)
{
	uint64_t off = stats_tmp_tell(&m->tmp);

	for (size_t gi = 0; gi < ngroups; gi++) {
		struct group *g = &groups[gi];
		struct seg_head h = { .group = gi, .count = g->n, .wide = g->wide };
		if (g->n && !m->tmp.failed && stats_tmp_put(&m->tmp, &h, sizeof h) == 0 &&
		    stats_tmp_put(&m->tmp, g->d, g->n * (g->wide ? 8 : 4)) == 0)
			g->spilled += g->n;
		free(g->d);
		g->d = NULL;
		g->n = g->cap = 0;
		g->wide = false;
	}
	m->mem = 0;
	if (m->tmp.failed || stats_tmp_flush(&m->tmp) != 0 || m->tmp.end == off)
		return;
	xgrow((void **)&m->runs, &m->runs_cap, m->nruns + 1, sizeof *m->runs);
	m->runs[m->nruns++] = (struct run){ .off = off, .len = m->tmp.end - off };
}

/* The durations of g as 8 bytes each, room for cap (>= g->n) of them; they were 4. */
static void widen(struct group *g, size_t cap)
{
	const uint32_t *narrow = g->d;
	uint64_t *wide = xmalloc((cap ? cap : 1) * sizeof *wide);

	for (size_t i = 0; i < g->n; i++)
		wide[i] = narrow[i];
	free(g->d);
	g->d = wide;
	g->cap = cap;
	g->wide = true;
}

void stats_durs_room(struct stats_durs *m, struct group *groups, size_t ngroups, struct group *g, uint64_t d)
{
	bool wide = g->wide || d > UINT32_MAX;
	size_t old = g->cap * (g->wide ? 8 : 4), cap = g->n < g->cap ? g->cap : g->cap ? 2 * g->cap : 8;

	if (m->mem && m->mem - old + cap * (wide ? 8 : 4) > m->budget) {
		spill_all(m, groups, ngroups);
		wide = d > UINT32_MAX;
		old = 0;
		cap = 8;
	}
	if (wide && !g->wide) {
		widen(g, cap);
	} else if (cap != g->cap) {
		if (cap > SIZE_MAX / 16)
			nvtxt_fail(ENOMEM);
		g->d = xrealloc(g->d, cap * (wide ? 8 : 4));
		g->cap = cap;
	}
	m->mem = m->mem - old + cap * (wide ? 8 : 4);
}

/* --- the statistics ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void swap64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;
	*a = *b;
	*b = t;
}

/*
 * Moves the k-th smallest of d[0..n) to d[k], the smaller ones before it
 * and the larger after (quickselect, median-of-three pivots; after 64
 * rounds that did not shrink the range enough, a sort of what is left).
 */
static void select_kth(uint64_t *d, size_t n, size_t k)
{
	size_t lo = 0, hi = n; /* the k-th is in [lo, hi) */
	int rounds = 0;

	while (hi - lo > 16) {
		size_t mid = lo + (hi - lo) / 2, i = lo, j = hi - 1;
		uint64_t pivot;

		if (++rounds > 64) {
			qsort(d + lo, hi - lo, sizeof *d, cmp_u64);
			return;
		}
		if (d[mid] < d[lo])
			swap64(&d[mid], &d[lo]);
		if (d[hi - 1] < d[lo])
			swap64(&d[hi - 1], &d[lo]);
		if (d[hi - 1] < d[mid])
			swap64(&d[hi - 1], &d[mid]);
		pivot = d[mid];
		/* Hoare's partition: [lo, j] <= pivot <= [j + 1, hi) */
		for (;;) {
			while (d[i] < pivot)
				i++;
			while (d[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap64(&d[i++], &d[j--]);
		}
		if (k <= j)
			hi = j + 1;
		else
			lo = j + 1;
	}
	qsort(d + lo, hi - lo, sizeof *d, cmp_u64);
}

/* Avg, Med (med: the middle duration; below: the one before it, for an even count) and StdDev of g. */
static void set_stats(struct group *g, uint64_t med, uint64_t below, long double ss)
{
	uint64_t n = g->count;
	long double sd;

	g->avg10 = div_round(g->total * 10, n);
	g->med10 = n % 2 ? (u128)med * 10 : ((u128)below + med) * 5;
	g->std10 = 0;
	if (n < 2)
		return;
	sd = sqrtl(ss / (long double)(n - 1));
	g->std10 = (u128)(sd * 10.0L + 0.5L);
}

/* The statistics of g from its array (every duration in memory), which is freed. */
static void group_stats(struct group *g)
{
	size_t n = g->n, k = n / 2;
	long double mean, ss = 0;
	uint64_t *d, below = 0;

	if (!g->wide)
		widen(g, n);
	d = g->d;
	g->count = n;
	g->total = 0;
	g->min = UINT64_MAX;
	g->max = 0;
	for (size_t i = 0; i < n; i++) {
		g->total += d[i];
		if (d[i] < g->min)
			g->min = d[i];
		if (d[i] > g->max)
			g->max = d[i];
	}
	select_kth(d, n, k);
	for (size_t i = 0; i < k && n % 2 == 0; i++) /* the largest of d[0..k), all <= d[k] */
		if (d[i] > below)
			below = d[i];
	/* the sample standard deviation, two passes (the durations are all here) */
	mean = (long double)g->total / (long double)n;
	for (size_t i = 0; i < n && n >= 2; i++) {
		long double x = (long double)d[i] - mean;
		ss += x * x;
	}
	set_stats(g, d[k], below, ss);
	free(g->d);
	g->d = NULL;
	g->cap = 0;
}

/* --- reading back ------------------------------------------------------------ */

static uint64_t seg_bytes(const struct seg_head *h)
{
	return sizeof *h + h->count * (h->wide ? 8 : 4);
}

/* The head of r's segment at r->at (group UINT64_MAX past the run's end); -1 when unreadable. */
static int run_head(struct stats_durs *m, struct run *r)
{
	if (r->at >= r->off + r->len) {
		r->head.group = UINT64_MAX;
		return 0;
	}
	if (stats_tmp_read(&m->tmp, &r->head, sizeof r->head, r->at) != 0)
		return -1;
	if (r->head.group == UINT64_MAX || !r->head.count || r->head.wide > 1 || r->head.count > r->len ||
	    r->at + seg_bytes(&r->head) > r->off + r->len) {
		errno = EIO;
		return stats_tmp_fail(&m->tmp, "read");
	}
	return 0;
}

/* Every run at its segment of row gi or past it: the segments of earlier rows skipped. */
static int runs_to(struct stats_durs *m, uint64_t gi)
{
	for (size_t i = 0; i < m->nruns; i++) {
		struct run *r = &m->runs[i];
		while (r->head.group < gi) {
			r->at += seg_bytes(&r->head);
			if (run_head(m, r) != 0)
				return -1;
		}
	}
	return 0;
}

/* count durations of a segment at off, of width `wide`, into d[0..count) as 8 bytes each. */
static int read_durations(struct stats_durs *m, uint64_t *d, size_t count, bool wide, uint64_t off)
{
	const uint32_t *narrow = (const uint32_t *)(void *)d;

	if (stats_tmp_read(&m->tmp, d, count * (wide ? 8 : 4), off) != 0)
		return -1;
	for (size_t i = count; !wide && i-- > 0;) /* widened in place from the end */
		d[i] = narrow[i];
	return 0;
}

/*
 * g (row gi) with every duration in its array, in the order they came
 * (the runs' segments, then the array), as if it had never spilled.
 */
static int load_group(struct stats_durs *m, struct group *g, uint64_t gi)
{
	size_t n = g->spilled + g->n, at = 0;
	uint64_t *d = xmalloc(n * sizeof *d);

	for (size_t i = 0; i < m->nruns; i++) {
		const struct run *r = &m->runs[i];
		if (r->head.group != gi)
			continue;
		if (at + r->head.count > n || read_durations(m, d + at, (size_t)r->head.count, r->head.wide,
							      r->at + sizeof r->head) != 0) {
			free(d);
			return -1;
		}
		at += (size_t)r->head.count;
	}
	if (at != g->spilled) {
		free(d);
		errno = EIO;
		return stats_tmp_fail(&m->tmp, "read");
	}
	for (size_t i = 0; i < g->n; i++)
		d[at + i] = g->wide ? ((const uint64_t *)g->d)[i] : ((const uint32_t *)g->d)[i];
	free(g->d);
	g->d = d;
	g->n = g->cap = n;
	g->wide = true;
	return 0;
}

/* --- a row too large to load: its median found by histograms ----------------- */

#define HIST_N 4096

enum pass_kind { PASS_SUM, PASS_HIST, PASS_COLLECT };

/* A pass over a row's durations and what it finds. */
struct pass {
	enum pass_kind kind;
	u128 total;           /* PASS_SUM: the sum, the least, the largest */
	uint64_t min, max;
	bool with_ss;         /* PASS_HIST: the sum of squared deviations from mean too */
	long double mean, ss;
	uint64_t lo, hi;      /* the range that holds the rank sought */
	unsigned shift;       /* PASS_HIST: a duration's bucket is (v - lo) >> shift */
	uint64_t below, in;   /* PASS_HIST: durations under lo, in [lo, hi] */
	uint64_t hist[HIST_N];
	uint64_t *keep;       /* PASS_COLLECT: those in [lo, hi] (when lo < hi), and the largest under lo */
	size_t nkeep;
	uint64_t max_below;
};

static void visit(struct pass *p, const uint64_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = d[i];
		if (p->kind == PASS_SUM) {
			p->total += v;
			p->min = v < p->min ? v : p->min;
			p->max = v > p->max ? v : p->max;
			continue;
		}
		if (p->with_ss) {
			long double x = (long double)v - p->mean;
			p->ss += x * x;
		}
		if (v < p->lo) {
			p->below++;
			p->max_below = v > p->max_below ? v : p->max_below;
		} else if (v <= p->hi && p->kind == PASS_HIST) {
			p->in++;
			p->hist[(v - p->lo) >> p->shift]++;
		} else if (v <= p->hi && p->lo < p->hi) {
			p->keep[p->nkeep++] = v;
		}
	}
}

/* p visits every duration of row gi: its segments at the runs' cursors, then g's array; a chunk at a time. */
static int each_duration(struct stats_durs *m, const struct group *g, uint64_t gi, struct pass *p)
{
	const size_t per = STATS_TMP_BUF / 8;

	for (size_t i = 0; i < m->nruns; i++) {
		const struct run *r = &m->runs[i];
		size_t w = r->head.wide ? 8 : 4, k;
		for (uint64_t done = 0; r->head.group == gi && done < r->head.count; done += k) {
			k = r->head.count - done < per ? (size_t)(r->head.count - done) : per;
			if (read_durations(m, m->chunk, k, r->head.wide, r->at + sizeof r->head + done * w) != 0)
				return -1;
			visit(p, m->chunk, k);
		}
	}
	if (g->wide) {
		visit(p, g->d, g->n);
		return 0;
	}
	for (size_t done = 0, k; done < g->n; done += k) {
		k = g->n - done < per ? g->n - done : per;
		for (size_t i = 0; i < k; i++)
			m->chunk[i] = ((const uint32_t *)g->d)[done + i];
		visit(p, m->chunk, k);
	}
	return 0;
}

/* [lo, hi] narrowed to the bucket of the histogram that holds rank k. */
static void narrow(struct pass *p, uint64_t k)
{
	uint64_t cum = p->below, width;
	size_t b = 0;

	while (b < HIST_N - 1 && cum + p->hist[b] <= k)
		cum += p->hist[b++];
	p->lo += (uint64_t)b << p->shift;
	width = p->shift ? (UINT64_C(1) << p->shift) - 1 : 0;
	if (p->hi - p->lo > width)
		p->hi = p->lo + width;
}

/*
 * Row gi's statistics without loading it: a pass for the sum, least and
 * largest; then histograms of HIST_N buckets over the range that holds the
 * median, narrowed until it holds few enough durations to keep (or one
 * value); a last pass keeps those, and the median is selected among them.
 * StdDev's sum of squares is taken in the first histogram's pass.
 */
static int big_stats(struct stats_durs *m, struct group *g, uint64_t gi)
{
	uint64_t n = g->spilled + g->n, k = n / 2, med, before;
	struct pass *p = xcalloc(1, sizeof *p);
	int rc;

	p->kind = PASS_SUM;
	p->min = UINT64_MAX;
	rc = each_duration(m, g, gi, p);
	g->count = n;
	g->total = p->total;
	g->min = p->min;
	g->max = p->max;
	p->mean = (long double)p->total / (long double)n;
	p->lo = p->min;
	p->hi = p->max;
	for (p->kind = PASS_HIST, p->with_ss = true; rc == 0; p->with_ss = false) {
		for (p->shift = 0; ((p->hi - p->lo) >> p->shift) >= HIST_N; p->shift++)
			;
		memset(p->hist, 0, sizeof p->hist);
		p->below = p->in = 0;
		rc = each_duration(m, g, gi, p);
		if (p->in * 8 <= load_max(m) || p->lo == p->hi)
			break;
		narrow(p, k);
	}
	p->kind = PASS_COLLECT;
	p->keep = xmalloc((p->lo < p->hi ? p->in : 1) * sizeof *p->keep);
	p->below = p->max_below = 0;
	if (rc == 0)
		rc = each_duration(m, g, gi, p);
	if (rc == 0 && (p->below > k || (p->lo < p->hi ? p->nkeep : p->in) <= k - p->below)) {
		errno = EIO; /* the passes did not read the same durations */
		rc = stats_tmp_fail(&m->tmp, "read");
	}
	if (rc == 0) {
		med = before = p->lo;
		if (p->lo < p->hi) {
			select_kth(p->keep, p->nkeep, (size_t)(k - p->below));
			med = p->keep[k - p->below];
			for (size_t i = 0; i < k - p->below; i++) /* the largest of those before it */
				before = p->keep[i] > before ? p->keep[i] : before;
		}
		if (k == p->below) /* the one before the median is under lo */
			before = p->max_below;
		set_stats(g, med, before, p->ss);
	}
	free(p->keep);
	free(p);
	free(g->d);
	g->d = NULL;
	g->cap = 0;
	return rc;
}

int stats_durs_finish(struct stats_durs *m, struct group *groups, size_t ngroups, const bool want[2])
{
	for (size_t i = 0; i < m->nruns && !m->tmp.failed; i++) {
		m->runs[i].at = m->runs[i].off;
		run_head(m, &m->runs[i]);
	}
	if (m->nruns && !m->chunk)
		m->chunk = xmalloc(STATS_TMP_BUF);
	for (size_t gi = 0; gi < ngroups && !m->tmp.failed; gi++) {
		struct group *g = &groups[gi];
		if (!want[g->style])
			continue;
		if (g->spilled && runs_to(m, gi) != 0)
			break;
		if (g->spilled && (g->spilled + g->n) * 8 > load_max(m))
			big_stats(m, g, gi);
		else if (!g->spilled || load_group(m, g, gi) == 0)
			group_stats(g);
	}
	free(m->chunk);
	m->chunk = NULL;
	stats_tmp_close(&m->tmp);
	if (m->tmp.failed) {
		errno = EIO;
		return -1;
	}
	return 0;
}
