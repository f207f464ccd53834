/*
 * cmd_stats.c - nvtxtc stats [--report=NAME] [--format=FMT]
 * [--timeunit=UNIT] [-o OUT] FILE...: every file checked like lint
 * (diagnostics on standard error) with the stats collector of stats.h as
 * its back end, the ranges of all files in one report, written to
 * standard output or atomically to -o (nvtxtc(1), STATS).  Open ranges
 * and durations left in ticks are told in notes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "output.h"
#include "stats.h"

/* One file into the collector; its status (0, 1, 2). */
static int stats_one(struct run *run, struct nvtxt_stats *st, const char *path)
{
	const char *display = input_display(run->opt, path);
	struct nvtxt_backend be = nvtxt_stats_file(st, display);
	const struct output_ref ref = { NULL, NULL, true }; /* its errors: nvtxt_stats_error */
	int status = check_file(run->opt, &run->sink, &run->totals, path, &be, &ref);
	struct nvtxt_loc loc;
	const char *msg = nvtxt_stats_error(st, &loc);
	uint64_t open = nvtxt_stats_open_in_file(st);

	if (msg) {
		/* a time that converts outside int64 nanoseconds: an error of the input */
		report_backend_error(run, path, &loc, msg);
		status = 1;
	}
	if (nvtxt_stats_sort_error(st))
		status = 2; /* the trace's temporary file: said once, by run_stats */
	if (open)
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_UNCLOSED_RANGE, NVTXT_SEV_NOTE, display,
					    "%llu push range%s still open at the end of the file %s left out of the "
					    "statistics", (unsigned long long)open, open == 1 ? "" : "s",
					    open == 1 ? "is" : "are");
	return status;
}

/* Notes: the time bases whose durations stay ticks. */
static void tick_notes(struct run *run, const struct nvtxt_stats *st)
{
	unsigned bases = nvtxt_stats_tick_bases(st);

	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
		const char *name = nvtxt_timebase_name((enum nvtxt_timebase)tb);
		if (bases & (1u << tb))
			nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_TIME_CONVERSION, NVTXT_SEV_NOTE, NULL,
						    "the ranges of time base %s are counted in its ticks, in a table "
						    "of their own: give --time-conversion=%s:lin:NS_A,T_A,FREQ for "
						    "nanoseconds", name, name);
	}
}

/* The report to -o (atomically) or standard output; the status. */
static int write_report(struct run *run, const struct stats_report_view *v)
{
	const struct options *opt = run->opt;
	const char *to = opt->output && strcmp(opt->output, "-") != 0 ? opt->output : NULL; /* -o -: stdout */
	struct nvtxt_output out = { 0 };
	FILE *f = run->out;

	if (to) {
		if (output_open(&out, to) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s", to, strerror(errno));
			return 2;
		}
		f = out.file;
	}
	if (nvtxt_stats_print(v, (enum stats_format)opt->stats_format, (enum stats_unit)opt->stats_unit, f) != 0) {
		if (stats_view_error(v))
			io_error(&run->sink, NULL, "%s", stats_view_error(v));
		else
			io_error(&run->sink, NULL, "cannot write '%s': %s", to ? to : "standard output",
				 strerror(errno ? errno : EIO));
		if (to)
			output_abort(&out);
		return 2;
	}
	return to ? output_finish(&run->sink, &out, to, 0) : 0;
}

/*
 * NVTXTC_STATS_MEMORY=BYTES, for the tests only (tests/stats.t; not in
 * nvtxtc(1)): the summaries' budget for durations in memory
 * (nvtxt_stats_set_memory), so that small inputs spill to the temporary
 * file as large ones do.
 */
static void test_memory(struct nvtxt_stats *st)
{
	const char *v = getenv("NVTXTC_STATS_MEMORY");
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (!*end && !errno && n <= SIZE_MAX)
		nvtxt_stats_set_memory(st, (size_t)n);
}

int run_stats(struct run *run, char **files, int nfiles)
{
	struct options *opt = run->opt;
	struct nvtxt_stats *st = nvtxt_stats_new(&opt->tconv, (enum stats_report)opt->stats_report);
	int worst = 0, status;

	test_memory(st);
	opt->read_ahead = opt->jobs >= 2;
	for (int i = 0; i < nfiles && !nvtxt_stats_sort_error(st); i++) {
		status = stats_one(run, st, files[i]);
		if (status > worst)
			worst = status;
	}
	if (nvtxt_stats_sort_error(st)) /* nothing is printed: the rows are not all there */
		io_error(&run->sink, NULL, "%s", nvtxt_stats_sort_error(st));
	/*
	 * The ranges of the valid lines, on standard output as info prints
	 * them (the exit status says there were errors); -o is not written
	 * when an input has errors, as for every output file.
	 */
	if (worst == 0 || (worst == 1 && !opt->output)) {
		const struct stats_report_view *v = nvtxt_stats_finish(st);
		if (nvtxt_stats_sort_error(st)) { /* the durations' runs could not be read back */
			io_error(&run->sink, NULL, "%s", nvtxt_stats_sort_error(st));
			status = 2;
		} else {
			tick_notes(run, st);
			status = write_report(run, v);
		}
		if (status > worst)
			worst = status;
	}
	nvtxt_stats_free(st);
	return worst;
}
