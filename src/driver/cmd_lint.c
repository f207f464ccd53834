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
#include "journal.h"
#include "output.h"
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

/* One file, its calls to the back end of --emit (if any), written to -o or standard output ('-o -'). */
static int lint_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const struct emitter *em = opt->emit && opt->emit->start ? opt->emit : NULL;
	const char *to = opt->output && strcmp(opt->output, "-") != 0 ? opt->output : NULL;
	struct nvtxt_output out = { 0 };
	struct nvtxt_backend be;
	void *state = NULL;
	struct output_ref ref = { run->out, NULL };
	int status;

	if (em) {
		if (to && output_open(&out, to) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s%s", to, strerror(errno), out.detail);
			return 2;
		}
		if (to)
			ref = (struct output_ref){ out.file, to };
		if (em->start(opt, ref.out, &be, &state) != 0) {
			output_error(&run->sink, &ref, errno);
			output_abort(&out);
			return 2;
		}
	}
	status = check_file(opt, &run->sink, &run->totals, path, em ? &be : NULL, em ? &ref : NULL);
	if (em && em->error) {
		struct nvtxt_loc loc;
		const char *msg;
		/* errors of the input that the back end found: times that do not convert */
		unsigned long i, max = opt->diag.max_errors;
		for (i = 0; (msg = em->error(state, i, &loc)) != NULL; i++) {
			if (max && i >= max)
				run->totals.errors++;
			else
				report_backend_error(run, path, &loc, msg);
			status = 1;
		}
		if (max && i > max)
			nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE,
						    input_display(opt, path),
						    "%lu more error%s not shown (--max-errors=%lu)", i - max,
						    i - max == 1 ? "" : "s", max);
	}
	if (em && em->stop)
		em->stop(state);
	if (out.file) {
		if (status != 0) {
			output_abort(&out);
		} else if (output_commit(&out) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s", to, strerror(errno));
			status = 2;
		}
	}
	return status;
}

int run_lint(struct run *run, char **operands, int n)
{
	struct options *opt = run->opt;
	char **files;
	int nfiles, worst, status;

	if (opt->fix)
		return run_fix(run, operands, n);
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
