/*
 * stats_sort.c - the external merge sort of nvtx_pushpop_trace's rows
 * (src/backends/stats_sort.h): rows of random keys and lengths (none, a
 * few bytes, longer than the block) come out in the order of qsort over
 * the same keys, with their bytes, through small blocks and fan-ins that
 * force sorted runs on disk and merge passes; twice (rewind); and all in
 * memory with no temporary file when they fit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats_sort.h"
#include "tap.h"

struct row {
	struct stats_sort_key key;
	size_t len;
	unsigned seed;
};

static int cmp(const void *a, const void *b)
{
	const struct stats_sort_key *x = &((const struct row *)a)->key, *y = &((const struct row *)b)->key;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The bytes of a row: len bytes from its seed. */
static void fill(unsigned char *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(seed * 31 + i * 7);
}

/* Reads every row back and compares with rows[] sorted; returns the number of mismatches. */
static size_t check_all(struct stats_sort *s, struct row *rows, size_t n, unsigned char *want)
{
	struct stats_sort_key k;
	const unsigned char *b;
	size_t len, i = 0, bad = 0;
	int rc;

	while ((rc = stats_sort_next(s, &k, &b, &len)) == 1) {
		if (i >= n) {
			bad++;
			break;
		}
		fill(want, rows[i].len, rows[i].seed);
		if (cmp(&(struct row){ .key = k }, &rows[i]) != 0 || len != rows[i].len ||
		    (len && memcmp(b, want, len) != 0))
			bad++;
		i++;
	}
	return bad + (rc != 0) + (i != n);
}

static void one_case(const char *what, size_t n, size_t budget, unsigned fanin, size_t maxlen, int want_runs)
{
	struct row *rows = calloc(n ? n : 1, sizeof *rows);
	unsigned char *buf = malloc(maxlen + 1), *want = malloc(maxlen + 1);
	struct stats_sort *s = stats_sort_new(budget, fanin);
	int added = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t r = tap_rand();
		rows[i].key = (struct stats_sort_key){ .unit = (uint8_t)(r % 3 == 0 ? r % 5 : 0),
						       .start = (int64_t)(tap_rand() % 1000) - 500,
						       .dur = tap_rand() % 4, .id = i + 1 };
		rows[i].len = (r >> 8) % 17 == 0 ? maxlen : (size_t)((r >> 16) % 40);
		rows[i].seed = (unsigned)i;
		fill(buf, rows[i].len, rows[i].seed);
		added |= stats_sort_add(s, &rows[i].key, buf, rows[i].len);
	}
	tap_ok(added == 0, "%s: %zu rows added", what, n);
	tap_ok(stats_sort_finish(s) == 0, "%s: finish", what);
	if (want_runs)
		tap_ok(stats_sort_runs(s) >= 1 && stats_sort_runs(s) <= fanin,
		       "%s: sorted runs on disk, merged down to the fan-in (%zu runs)", what, stats_sort_runs(s));
	else
		tap_ok(stats_sort_runs(s) == 0, "%s: every row in memory, no temporary file", what);
	qsort(rows, n, sizeof *rows, cmp);
	tap_ok(check_all(s, rows, n, want) == 0, "%s: every row in order with its bytes", what);
	tap_ok(stats_sort_rewind(s) == 0 && check_all(s, rows, n, want) == 0, "%s: again after rewind", what);
	tap_ok(stats_sort_error(s) == NULL, "%s: no error", what);
	stats_sort_free(s);
	free(rows);
	free(buf);
	free(want);
}

int main(void)
{
	tap_rng = 88172645463325252ULL; /* this test's own stream */
	one_case("no rows", 0, 4096, 2, 10, 0);
	one_case("a few rows in memory", 50, 1 << 20, 4, 100, 0);
	one_case("20,000 rows, 4 KiB block, fan-in 3", 20000, 4096, 3, 300, 1);
	one_case("rows longer than the block, fan-in 2", 3000, 4096, 2, 9000, 1);
	one_case("5,000 rows, fan-in 64", 5000, 8192, 64, 64, 1);
	/* after finish no more rows */
	{
		struct stats_sort *s = stats_sort_new(4096, 2);
		struct stats_sort_key k = { .id = 1 };
		stats_sort_finish(s);
		tap_ok(stats_sort_add(s, &k, "x", 1) == -1, "a row after finish is refused");
		stats_sort_free(s);
	}
	printf("1..%d\n", tap_count);
	return tap_failed != 0;
}
