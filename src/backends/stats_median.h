/*
 * stats_median.h - the durations of the summaries' rows (stats_data.h) in
 * bounded memory, and their statistics: Total Time, Instances, Avg, Med,
 * Min, Max, StdDev, exact as when every duration is in memory (nvtxtc(1),
 * STATS, Memory).
 *
 * Each row keeps its durations in an array (4 bytes each, 8 once one
 * passes 32 bits).  While the arrays' room adds up to no more than the
 * budget, that is all.  When a row's array would grow past it, every
 * array is spilled: written as it is (one segment per row: its index,
 * count and width, then the durations in the order they came) as one run
 * appended to the temporary file of stats_tmp.h, and freed.  At the end a
 * row is taken at a time, in index order, so each run is read forward:
 *
 *  - a row that never spilled: from its array, as always (quickselect);
 *  - a row of at most budget / 16 durations: its segments and array read
 *    back into one array, in the order the durations came, then the same
 *    computation: the numbers are those of the row never spilled, bit for
 *    bit (the standard deviation's sums too);
 *  - a larger row is not loaded: a pass over its segments and array for
 *    the sum, least and largest; then histograms of 4096 buckets over the
 *    range that holds the median, each pass narrowing it, until the
 *    durations in it fit in budget / 2 bytes (or it is one value); a last
 *    pass keeps those and the median is selected among them.  StdDev's
 *    sum of squares is taken in the first histogram's pass (in the order
 *    the durations came, not the order quickselect leaves them in: the
 *    last bits of a long double may differ from the in-memory sum's).
 *
 * Memory: the budget (the arrays' room), plus STATS_TMP_BUF bytes to
 * write, at the end up to budget / 2 bytes for one row read back and
 * STATS_TMP_BUF bytes of chunk, plus 56 bytes per run (a run holds about
 * half the budget's worth of durations); nothing else grows with the
 * number of ranges.  Disk: 4 bytes a duration (8 in a wide run of a row).
 */
#ifndef NVTXT_STATS_MEDIAN_H
#define NVTXT_STATS_MEDIAN_H

#include <stddef.h>
#include <stdint.h>

#include "stats_data.h"

/* The arrays' room in all, in bytes, that nvtxtc stats allows before it spills (4 MiB). */
#define STATS_DURS_BUDGET ((size_t)4 << 20)

struct stats_durs;

/* A new store of `budget` bytes (at least 64).  Never returns NULL (out of memory exits, util.h). */
struct stats_durs *stats_durs_new(size_t budget);
void stats_durs_free(struct stats_durs *m);

/*
 * Room in g (one of groups[0..ngroups)) for one more duration, d: its
 * array grown, and widened when d passes 32 bits.  When the growth would
 * pass the budget, every group's array is spilled first (g's too: g->n
 * is then 0).  After the temporary file failed (stats_durs_error), the
 * groups' durations are dropped instead.
 */
void stats_durs_room(struct stats_durs *m, struct group *groups, size_t ngroups, struct group *g, uint64_t d);

/*
 * The statistics of the groups whose `want[style]` is set, in their
 * fields count, total, min, max, avg10, med10 and std10 (tenths of a unit:
 * the mean, the median and the sample standard deviation rounded half up;
 * 0 for a single duration); their arrays are freed and the temporary file
 * closed.  Returns 0, or -1 with errno when the temporary file failed,
 * now or before (stats_durs_error; the statistics are then not all
 * right and must not be printed).
 */
int stats_durs_finish(struct stats_durs *m, struct group *groups, size_t ngroups, const bool want[2]);

/* Why the temporary file failed, a sentence naming its directory; or NULL. */
const char *stats_durs_error(const struct stats_durs *m);

/* Runs written so far (0: every duration in memory); for the tests. */
size_t stats_durs_runs(const struct stats_durs *m);

#endif
