/*
 * stats_median.c - the summaries of nvtxtc stats with their durations
 * spilled to sorted runs on disk (src/backends/stats_median.h) give the
 * same report, cell for cell, as with every duration in memory: rows of
 * one, two and three ranges, ties, zeros, durations past 32 bits, a
 * table of ticks, hundreds of rows of random counts and a row of 20,000,
 * their ranges interleaved so that every spill holds part of many rows;
 * budgets from 64 bytes (thousands of runs, merged 16 at a time) to 64
 * KiB, for each report.  The medians of a few rows are checked by hand
 * (a sort here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

struct range {
	char name[16];
	uint64_t dur;
	bool push;                /* a RangePush/RangePop pair, else a RangeStartEnd */
	enum nvtxt_timebase tb;
};

static struct range *ranges;
static size_t nranges, ranges_cap;

static void add(const char *name, uint64_t dur, bool push, enum nvtxt_timebase tb)
{
	if (nranges == ranges_cap) {
		ranges_cap = ranges_cap ? 2 * ranges_cap : 1024;
		ranges = realloc(ranges, ranges_cap * sizeof *ranges);
	}
	snprintf(ranges[nranges].name, sizeof ranges[nranges].name, "%s", name);
	ranges[nranges].dur = dur;
	ranges[nranges].push = push;
	ranges[nranges].tb = tb;
	nranges++;
}

/* The ranges of the test, shuffled. */
static void make_ranges(void)
{
	char name[16];

	add("single", 42, false, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	add("two", 10, false, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	add("two", 15, false, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 3; i++)
		add("three", (uint64_t)(9 - 4 * i), true, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 1001; i++)
		add("ties", i % 3 ? 5 : 7, false, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 300; i++)
		add("zero", 0, true, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 500; i++)
		add("wide", i % 7 ? tap_rand() % 1000 : (UINT64_C(1) << 33) + tap_rand() % 1000, false,
		    NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int i = 0; i < 999; i++)
		add("qpc", tap_rand() % 5000, i % 2, NVTXT_TB_QPC);
	for (int i = 0; i < 20000; i++)
		add("big", tap_rand() % 3000000, true, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	for (int r = 0; r < 200; r++) {
		int n = 1 + (int)(tap_rand() % 300);
		snprintf(name, sizeof name, "r%d", r);
		for (int i = 0; i < n; i++)
			add(name, tap_rand() % (r % 2 ? 1000 : 100000000), r % 3 == 0, NVTXT_TB_CLOCK_MONOTONIC_RAW);
	}
	for (size_t i = nranges - 1; i > 0; i--) {
		size_t j = (size_t)(tap_rand() % (i + 1));
		struct range t = ranges[i];
		ranges[i] = ranges[j];
		ranges[j] = t;
	}
}

/* A collector of `report` with `budget` bytes (0: the default) fed every range. */
static struct nvtxt_stats *collect(enum stats_report report, size_t budget)
{
	struct nvtxt_tconv tc;
	struct nvtxt_stats *st;
	struct nvtxt_backend be;
	int bad = 0;

	nvtxt_tconv_init(&tc);
	st = nvtxt_stats_new(&tc, report);
	if (budget)
		nvtxt_stats_set_memory(st, budget);
	be = nvtxt_stats_file(st, "t.nvtxt");
	for (size_t i = 0; i < nranges; i++) {
		const struct range *r = &ranges[i];
		struct nvtxt_event push = { .command = NVTXT_CMD_RANGE_PUSH, .timebase = r->tb, .time = 1000,
					    .present = NVTXT_BIT(NVTXT_ARG_MESSAGE),
					    .message = { r->name, strlen(r->name) }, .ordinal = 2 * i };
		struct nvtxt_event ev = push;
		if (r->push) {
			ev = (struct nvtxt_event){ .command = NVTXT_CMD_RANGE_POP, .timebase = r->tb,
						   .time = 1000 + (int64_t)r->dur, .push = &push, .ordinal = 2 * i + 1 };
			bad |= be.event(be.user, &push);
		} else {
			ev.command = NVTXT_CMD_RANGE_START_END;
			ev.start = -5;
			ev.end = -5 + (int64_t)r->dur;
		}
		bad |= be.event(be.user, &ev);
	}
	tap_ok(bad == 0, "report %d, budget %zu: every range taken", (int)report, budget);
	return st;
}

static bool same_cell(const struct stats_cell *a, const struct stats_cell *b)
{
	return a->num.mag == b->num.mag && a->num.decimals == b->num.decimals && a->num.neg == b->num.neg &&
	       a->len == b->len && a->empty == b->empty && (!a->len || memcmp(a->text, b->text, a->len) == 0);
}

/* Cells of every row of both views that differ. */
static size_t compare(const struct stats_report_view *a, const struct stats_report_view *b)
{
	struct stats_cell ca[16], cb[16];
	size_t bad = 0;

	if (a->ntables != b->ntables || a->ncols != b->ncols)
		return 1;
	for (size_t t = 0; t < a->ntables; t++) {
		if (a->tables[t].nrows != b->tables[t].nrows || a->tables[t].ticks != b->tables[t].ticks)
			return 1;
		for (size_t r = 0; r < a->tables[t].nrows; r++) {
			stats_row(a, &a->tables[t], r, ca);
			stats_row(b, &b->tables[t], r, cb);
			for (int c = 0; c < a->ncols; c++)
				bad += !same_cell(&ca[c], &cb[c]);
		}
	}
	return bad;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Med (tenths) of the ranges named `name`, by a sort. */
static unsigned __int128 median10(const char *name)
{
	uint64_t *d = malloc(nranges * sizeof *d);
	size_t n = 0;
	unsigned __int128 m;

	for (size_t i = 0; i < nranges; i++)
		if (strcmp(ranges[i].name, name) == 0)
			d[n++] = ranges[i].dur;
	qsort(d, n, sizeof *d, cmp_u64);
	m = n % 2 ? (unsigned __int128)d[n / 2] * 10 : ((unsigned __int128)d[n / 2 - 1] + d[n / 2]) * 5;
	free(d);
	return m;
}

/* Med of the row named `name` of the first table, as stats_row gives it; 0 when none. */
static unsigned __int128 row_median10(const struct stats_report_view *v, const char *name)
{
	struct stats_cell c[16];

	for (size_t r = 0; r < v->tables[0].nrows; r++) {
		stats_row(v, &v->tables[0], r, c);
		if (c[v->ncols - 1].len == strlen(name) && memcmp(c[v->ncols - 1].text, name, c[v->ncols - 1].len) == 0)
			return c[4].num.mag;
	}
	return 0;
}

int main(void)
{
	static const size_t budgets[] = { 64, 1000, 4096, 65536 };
	static const char *const by_hand[] = { "single", "two", "ties", "wide", "big", "r7" };

	tap_rng = 0x5DEECE66DULL; /* this test's own stream */
	make_ranges();
	for (int rep = STATS_SUM; rep <= STATS_STARTEND_SUM; rep++) {
		struct nvtxt_stats *mem = collect((enum stats_report)rep, 0);
		const struct stats_report_view *want = nvtxt_stats_finish(mem);
		tap_ok(nvtxt_stats_spills(mem) == 0, "report %d: the default budget holds every duration", rep);
		if (rep == STATS_SUM)
			for (size_t i = 0; i < sizeof by_hand / sizeof by_hand[0]; i++)
				tap_ok(row_median10(want, by_hand[i]) == median10(by_hand[i]),
				       "in memory: the median of %s is that of a sort", by_hand[i]);
		for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
			struct nvtxt_stats *st = collect((enum stats_report)rep, budgets[b]);
			size_t spills = nvtxt_stats_spills(st);
			const struct stats_report_view *got = nvtxt_stats_finish(st);
			tap_ok(spills > (budgets[b] < 4096 ? 16u : 0u), "report %d, budget %zu: %zu runs spilled", rep,
			       budgets[b], spills);
			tap_ok(nvtxt_stats_sort_error(st) == NULL, "report %d, budget %zu: no error", rep, budgets[b]);
			tap_is_int((long long)compare(got, want), 0LL,
				   "report %d, budget %zu: every cell as in memory", rep, budgets[b]);
			if (rep == STATS_SUM)
				tap_ok(row_median10(got, "three") == median10("three") && row_median10(got, "ties") == 50 &&
					       row_median10(got, "big") == median10("big"),
				       "budget %zu: medians of three, of ties (5.0) and of 20,000, by hand", budgets[b]);
			nvtxt_stats_free(st);
		}
		nvtxt_stats_free(mem);
	}
	free(ranges);
	return tap_done();
}
