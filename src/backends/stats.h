/*
 * stats.h - nvtxtc stats (nvtxtc(1), STATS): the NVTX reports of Nsight
 * Systems' `nsys stats` (nvtx_sum, nvtx_pushpop_sum, nvtx_startend_sum,
 * nvtx_pushpop_trace), computed as a back end while NVTXT or payload files
 * stream through the front end, and printed as column, table, csv, tsv,
 * json or html (stats_print.c).
 *
 * Source: Nsight Systems Post-Collection Analysis Guide, "Statistical
 * Reports Shipped With Nsight Systems" (the reports' columns: Time (%),
 * Total Time, Instances, Avg, Med, Min, Max, StdDev, Style, Range; Start,
 * End, Duration, DurChild, DurNonChild, Name, PID, TID, Lvl, NumChild,
 * RangeId, ParentId, RangeStack, NameTree), and `nsys stats --format`,
 * `--timeunit`.  Where nvtxtc follows nsys and where it chooses is said in
 * nvtxtc(1), STATS.
 *
 * Memory: the summaries keep the closed ranges' durations (for the exact
 * median) in at most STATS_DURS_BUDGET bytes, beyond that in sorted runs
 * in a temporary file (stats_median.h), one entry per distinct (time
 * unit, style, name), and the open push ranges of each thread;
 * nvtx_pushpop_trace keeps the open push ranges and a fixed amount
 * besides: its rows, sorted by start time, go through an external merge
 * sort (stats_sort.h) whose runs are in the temporary file too.
 */
#ifndef NVTXT_STATS_H
#define NVTXT_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvtxt/backend.h"
#include "timeconv.h"

enum stats_report {
	STATS_SUM,           /* nvtx_sum: push/pop and start/end ranges, a Style column */
	STATS_PUSHPOP_SUM,   /* nvtx_pushpop_sum */
	STATS_STARTEND_SUM,  /* nvtx_startend_sum */
	STATS_PUSHPOP_TRACE, /* nvtx_pushpop_trace */
	STATS_REPORT_COUNT
};

enum stats_format { STATS_COLUMN, STATS_TABLE, STATS_CSV, STATS_TSV, STATS_JSON, STATS_HTML, STATS_FORMAT_COUNT };

/* --timeunit: nanoseconds times 10^(3 * unit) */
enum stats_unit { STATS_NSEC, STATS_USEC, STATS_MSEC, STATS_SEC, STATS_UNIT_COUNT };

/* The names of the command line ("nvtx_sum", "column", "nsec"), or NULL out of range; lookups return -1 when unknown. */
const char *stats_report_name(enum stats_report r);
const char *stats_format_name(enum stats_format f);
const char *stats_unit_name(enum stats_unit u);
int stats_report_lookup(const char *name);
int stats_format_lookup(const char *name);
int stats_unit_lookup(const char *name);

struct nvtxt_stats;

/*
 * A new collector of report `report`; times convert to nanoseconds with
 * `tc` (copied) where its rules allow, else they stay ticks of their time
 * base (a table of their own).  Never returns NULL (out of memory exits,
 * util.h).
 */
struct nvtxt_stats *nvtxt_stats_new(const struct nvtxt_tconv *tc, enum stats_report report);
void nvtxt_stats_free(struct nvtxt_stats *st);

/*
 * The back end for the next input file, named `name` (kept for the
 * report; copied): push/pop nesting is per file and thread, so a file's
 * RangePop never closes another file's RangePush.  Its `event` returns
 * NVTXT_ERR_TIME_RANGE when a time converts outside the int64 range of
 * nanoseconds (nvtxt_stats_error says where); it never fails otherwise.
 */
struct nvtxt_backend nvtxt_stats_file(struct nvtxt_stats *st, const char *name);

/* The message of the conversion error of the last file, its location in *loc; NULL when none. */
const char *nvtxt_stats_error(struct nvtxt_stats *st, struct nvtxt_loc *loc);

/* Push ranges left open at the end of the last file, and in all files. */
uint64_t nvtxt_stats_open_in_file(const struct nvtxt_stats *st);
uint64_t nvtxt_stats_open_total(const struct nvtxt_stats *st);
/* Bit tb set: some range of time base tb stayed in ticks (its TimeBase has no conversion). */
unsigned nvtxt_stats_tick_bases(const struct nvtxt_stats *st);

/*
 * Why the temporary file failed (it could not be made, written or read:
 * nvtx_pushpop_trace's sort, or the summaries' durations past their
 * budget), as a sentence naming the directory, or NULL.  Once failed, the
 * report cannot be printed (nvtxt_stats_print fails; the driver checks
 * after each file and after nvtxt_stats_finish, and prints nothing).
 */
const char *nvtxt_stats_sort_error(const struct nvtxt_stats *st);

/*
 * The bytes the summaries may keep durations in before they spill to the
 * temporary file (stats_median.h; STATS_DURS_BUDGET by default, at least
 * 64).  Only before the first file; for the tests (nvtxtc reads it from
 * NVTXTC_STATS_MEMORY, cmd_stats.c), to spill small inputs.
 */
void nvtxt_stats_set_memory(struct nvtxt_stats *st, size_t bytes);
/* The runs the summaries' durations were spilled to so far (0: all in memory); for the tests. */
size_t nvtxt_stats_spills(const struct nvtxt_stats *st);

/* --- the computed report, as the printers read it ------------------------ */

/* A number: mag / 10^decimals, negative when neg. */
struct stats_num {
	unsigned __int128 mag;
	uint8_t decimals;
	bool neg;
};

enum stats_col_kind {
	COL_PERCENT,  /* Time (%): one decimal */
	COL_TIME,     /* a duration or a timestamp: converted by --timeunit, "(ns)" in its header */
	COL_COUNT,    /* Instances, NumChild: thousands separators in column and table */
	COL_ID,       /* PID, TID, Lvl, RangeId, ParentId: plain */
	COL_TEXT,     /* Style, Range, Name, RangeStack, NameTree */
};

struct stats_col {
	const char *name; /* without unit: "Total Time" */
	enum stats_col_kind kind;
};

struct stats_cell {
	struct stats_num num; /* numeric columns */
	const char *text;     /* COL_TEXT: len bytes, any but NUL */
	size_t len;
	bool empty;           /* no value (ParentId at level 0) */
};

/*
 * One table of the report: the ranges of one time unit, nanoseconds
 * (ticks false) or ticks of time base `tb`.  Rows are made on demand:
 * stats_row fills ncols cells (their text valid until the next call).
 */
struct stats_table {
	bool ticks;
	enum nvtxt_timebase tb;
	size_t nrows;
	void *priv;
};

struct stats_report_view {
	enum stats_report report;
	int ncols;
	const struct stats_col *cols;
	struct stats_table *tables; /* nanoseconds first, then ticks by time base */
	size_t ntables;
	const char *const *files;
	size_t nfiles;
	uint64_t open_ranges;
};

/*
 * Computes the report (medians, sums, sorting) once every file has been
 * read; the view stays valid until nvtxt_stats_free.  The trace's rows
 * are read back from its sort in order: stats_row and stats_bar cost
 * least when each table is read from row 0 on (an earlier row than the
 * last one read starts over from the first).
 */
const struct stats_report_view *nvtxt_stats_finish(struct nvtxt_stats *st);
void stats_row(const struct stats_report_view *v, const struct stats_table *t, size_t row,
	       struct stats_cell *cells);

/*
 * Chart data: for a summary, row i's Range (and Style) and total time in
 * ns or ticks; for the trace, row i's start and end, nesting level, PID
 * and TID and name.
 */
struct stats_bar {
	const char *name;
	size_t len;
	const char *style;        /* summaries: "PushPop" or "StartEnd"; trace: NULL */
	unsigned __int128 total;  /* summaries */
	int64_t start, end;       /* trace */
	uint32_t level;
	int64_t pid, tid;
	uint32_t file;
};
void stats_bar(const struct stats_report_view *v, const struct stats_table *t, size_t row, struct stats_bar *bar);

/* nvtxt_stats_sort_error of the view's collector: the rows could not all be read. */
const char *stats_view_error(const struct stats_report_view *v);

/*
 * Prints the report in `format`, times in `unit` (ticks stay ticks).
 * Returns 0, or -1 with errno set when writing fails (or ENOMEM), or when
 * the trace's rows could not be read back (stats_view_error says why).
 */
int nvtxt_stats_print(const struct stats_report_view *v, enum stats_format format, enum stats_unit unit,
		      FILE *out);

#endif
