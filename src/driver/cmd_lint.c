/*
 * cmd_lint.c - nvtxtc lint (the default) and --emit=NAME: check each FILE,
 * in parallel with -j when there is no back end, and hand its calls to the
 * back end of --emit, written to standard output or atomically to -o.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "emit_chrome.h"
#include "journal.h"
#include "output.h"
#include "trace_writer.h"
#include "util.h"

/*
 * The source of a back end's error (a time that does not convert), found
 * after the compile has let go of its input: the line is read back from
 * the file at the location's offset (a window of 4096 bytes around the
 * column for a long line, as the compile's own excerpts).  Standard input
 * cannot be read back: no excerpt there.
 */
struct reread {
	int fd;
	char text[4096];
};

static const char *reread_line(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col)
{
	struct reread *r = user;
	uint64_t skip = loc->col > sizeof r->text / 2 ? loc->col - 1 - sizeof r->text / 2 : 0;
	ssize_t n = pread(r->fd, r->text, sizeof r->text, (off_t)(loc->line_offset + skip));
	char *nl;

	if (n < 0)
		return NULL;
	nl = memchr(r->text, '\n', (size_t)n);
	*len = nl ? (size_t)(nl - r->text) : (size_t)n;
	*first_col = (uint32_t)skip + 1;
	return r->text;
}

void report_backend_error(struct run *run, const char *path, const struct nvtxt_loc *loc,
				 const char *msg)
{
	const struct options *opt = run->opt;
	struct nvtxt_diag d = { .severity = NVTXT_SEV_ERROR, .check = NVTXT_CHECK_TIME_CONVERSION,
				.file = input_display(opt, path), .loc = *loc, .message = (char *)msg };
	struct reread r = { .fd = strcmp(path, "-") != 0 ? open(path, O_RDONLY | O_CLOEXEC) : -1 };
	struct nvtxt_source src = { &r, reread_line };

	if (run->sink.report)
		run->sink.report(run->sink.user, &d, r.fd >= 0 ? &src : NULL);
	if (r.fd >= 0)
		close(r.fd);
	run->totals.errors++;
}

/*
 * Reports the errors of the input that a back end found itself (times that
 * do not convert), read with `error` from its state, up to --max-errors;
 * returns the number of them.
 */
static unsigned long report_emit_errors(struct run *run,
					const char *(*error)(void *state, size_t i, struct nvtxt_loc *loc),
					void *state, const char *path)
{
	const struct options *opt = run->opt;
	unsigned long i, max = opt->diag.max_errors;
	struct nvtxt_loc loc;
	const char *msg;

	for (i = 0; (msg = error(state, i, &loc)) != NULL; i++) {
		if (max && i >= max)
			run->totals.errors++;
		else
			report_backend_error(run, path, &loc, msg);
	}
	if (max && i > max)
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, input_display(opt, path),
					    "%lu more error%s not shown (--max-errors=%lu)", i - max,
					    i - max == 1 ? "" : "s", max);
	return i;
}

static const char *chrome_error_of(void *state, size_t i, struct nvtxt_loc *loc)
{
	return nvtxt_chrome_error(state, i, loc);
}

/*
 * A binary output on standard output ('--emit=payload -o -': a regular
 * file at offset 0, validate_lint) after a failure: truncated back to
 * empty, as gcc and dtc leave their output on an error, never a part of a
 * payload.  The shell emptied the file when it opened it for '>', before
 * nvtxtc ran, so it cannot be replaced atomically as -o FILE is (nvtxtc(1), -o).
 */
static void empty_stdout(struct run *run)
{
	fflush(run->out);
	if (ftruncate(fileno(run->out), 0) != 0 || lseek(fileno(run->out), 0, SEEK_SET) != 0)
		io_error(&run->sink, NULL, "cannot empty standard output after the error: %s; "
			 "it holds a part of the payload", strerror(errno));
}

/* One file, its calls to the back end of --emit (if any), written to -o or standard output ('-o -'). */
static int lint_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const struct emitter *em = opt->emit && opt->emit->start ? opt->emit : NULL;
	const char *to = opt->output && strcmp(opt->output, "-") != 0 ? opt->output : NULL;
	struct nvtxt_output out = { 0 };
	struct nvtxt_backend be;
	void *state = NULL;
	struct output_ref ref = { run->out, NULL, em && em->error };
	int status;

	if (em) {
		if (to && output_open_stream(&out, to, opt->read_ahead) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s%s", to, strerror(errno), out.detail);
			return 2;
		}
		if (to)
			ref = (struct output_ref){ out.file, to, em->error != NULL };
		if (em->start(opt, ref.out, &be, &state) != 0) {
			output_error(&run->sink, &ref, errno);
			output_abort(&out);
			return 2;
		}
	}
	status = check_file(opt, &run->sink, &run->totals, path, em ? &be : NULL, em ? &ref : NULL);
	if (em && em->error && report_emit_errors(run, em->error, state, path))
		status = 1;
	if (em && em->stop)
		em->stop(state);
	if (em && em->needs_output && !to && status != 0)
		empty_stdout(run);
	if (out.file)
		status = output_finish(&run->sink, &out, to, status);
	return status;
}

/*
 * The files of a merged export, one after the other, each through its own
 * exporter into the one writer (nvtxt_chrome_new_shared); the worst
 * status.  names[i] gets file i's SetFileDisplayName (allocated) or NULL.
 */
static int merge_files(struct run *run, char **files, int n, struct nvtxt_trace_writer *w,
		       const struct output_ref *ref, char **names)
{
	const struct options *opt = run->opt;
	int worst = 0;

	for (int i = 0; i < n; i++) {
		struct nvtxt_chrome *c = nvtxt_chrome_new_shared(w, &opt->tconv);
		struct nvtxt_backend be = nvtxt_chrome_backend(c);
		int status = check_file(opt, &run->sink, &run->totals, files[i], &be, ref);
		const char *dn = nvtxt_chrome_display_name(c);

		/* times that do not convert: the file's events stop there, the others go on */
		if (report_emit_errors(run, chrome_error_of, c, files[i]))
			status = 1;
		names[i] = dn ? xstrndup(dn, strlen(dn)) : NULL;
		nvtxt_chrome_free(c);
		if (status > worst)
			worst = status;
		if (status == 2 && ferror(ref->out))
			break; /* a write error: the document is lost */
	}
	return worst;
}

/*
 * --emit=chrome FILE...: one Trace Event document of every file, in the
 * order of the inputs, on one origin, the earliest of the files' heads
 * (chrome_origin.c; nvtxtc(1), CHROME TRACE EVENTS),
 * written to -o or standard output; with -o, kept only when every file
 * is free of errors (as one file's export).
 */
static int run_chrome_merged(struct run *run, char **files, int n)
{
	const struct options *opt = run->opt;
	const char *to = opt->output && strcmp(opt->output, "-") != 0 ? opt->output : NULL;
	struct nvtxt_output out = { 0 };
	struct output_ref ref = { run->out, NULL, true }; /* each file's errors: nvtxt_chrome_error */
	struct nvtxt_trace_writer *w;
	struct nvtxt_trace_file *tf = xcalloc((size_t)n, sizeof *tf);
	char **names = xcalloc((size_t)n, sizeof *names);
	int64_t origin;
	int status;

	if (to && output_open_stream(&out, to, opt->read_ahead) != 0) {
		io_error(&run->sink, NULL, "cannot write '%s': %s%s", to, strerror(errno), out.detail);
		free(tf);
		free(names);
		return 2;
	}
	if (to)
		ref = (struct output_ref){ out.file, to, true };
	w = nvtxt_trace_writer_new(ref.out);
	if (chrome_merged_origin(opt, files, n, &origin)) /* the earliest head: no file's events before it */
		nvtxt_trace_writer_set_origin(w, origin);
	status = nvtxt_trace_writer_begin(w) != 0 ? 2 : merge_files(run, files, n, w, &ref, names);
	for (int i = 0; i < n; i++) {
		tf[i].file = (struct nvtxt_str){ files[i], strlen(files[i]) };
		if (names[i])
			tf[i].display_name = (struct nvtxt_str){ names[i], strlen(names[i]) };
	}
	if (status < 2 && nvtxt_trace_writer_end(w, &(struct nvtxt_trace_other){ .files = tf, .nfiles = (size_t)n }) != 0) {
		output_error(&run->sink, &ref, errno);
		status = 2;
	}
	nvtxt_trace_writer_free(w);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(tf);
	if (out.file)
		status = output_finish(&run->sink, &out, to, status);
	return status;
}

int run_lint(struct run *run, char **operands, int n)
{
	struct options *opt = run->opt;
	char **files;
	int nfiles, worst, status;

	if (opt->fix)
		return run_fix(run, operands, n);
	if (opt->emit && opt->emit->start && opt->emit->merges && n > 1) {
		worst = expand_operands(&run->sink, operands, n, &files, &nfiles);
		leftovers_report(&run->sink, files, nfiles, false);
		opt->read_ahead = opt->jobs >= 2;
		status = worst < 2 ? run_chrome_merged(run, files, nfiles) : 2;
		free_files(files, nfiles);
		return status > worst ? status : worst;
	}
	if (opt->emit && opt->emit->start) {
		/* one file (validate_lint), written to -o or standard output */
		leftovers_report(&run->sink, operands, 1, false);
		opt->read_ahead = opt->jobs >= 2;
		return lint_one(run, operands[0]);
	}
	worst = expand_operands(&run->sink, operands, n, &files, &nfiles);
	/* what killed runs left beside the files: journals, stale temporaries */
	leftovers_report(&run->sink, files, nfiles, false);
	/* each file's thread reads ahead in a second one when there are processors to spare */
	if (opt->jobs > 1 && nfiles > 1) {
		long workers = opt->jobs < nfiles ? opt->jobs : nfiles;
		opt->read_ahead = opt->jobs >= 2 * workers;
	} else {
		opt->read_ahead = opt->jobs >= 2;
	}
	/* a lint holds the input, maybe a payload's temporary, and the read-ahead's */
	status = run_jobs(run, files, nfiles, opt->jobs, 3, lint_one);
	free_files(files, nfiles);
	return status > worst ? status : worst;
}
