/*
 * cmd_lint.c - nvtxtc lint (the default) and --emit=NAME: check each FILE,
 * in parallel with -j when there is no back end, and hand its calls to the
 * back end of --emit, written to standard output or atomically to -o.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "output.h"
#include "util.h"

/* One file, its calls to the back end of --emit (if any), written to -o or standard output. */
static int lint_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const struct emitter *em = opt->emit && opt->emit->start ? opt->emit : NULL;
	struct nvtxt_output out = { 0 };
	struct nvtxt_backend be;
	void *state = NULL;
	struct output_ref ref;
	int status;

	if (em) {
		if (opt->output && output_open(&out, opt->output) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s", opt->output, strerror(errno));
			return 2;
		}
		if (em->start(opt, opt->output ? out.file : run->out, &be, &state) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s",
				     opt->output ? opt->output : "standard output", strerror(errno));
			output_abort(&out);
			return 2;
		}
	}
	ref.out = opt->output ? out.file : run->out;
	ref.name = opt->output ? opt->output : "standard output";
	status = check_file(opt, &run->sink, &run->totals, path, em ? &be : NULL, em ? &ref : NULL);
	if (em && em->error) {
		struct nvtxt_loc loc;
		const char *msg = em->error(state, &loc);
		if (msg) {
			/* an error of the input that the back end found: a time that does not convert */
			struct nvtxt_diag d = { .severity = NVTXT_SEV_ERROR, .check = NVTXT_CHECK_TIME_CONVERSION,
						.file = input_display(opt, path), .loc = loc, .message = (char *)msg };
			if (run->sink.report)
				run->sink.report(run->sink.user, &d, NULL);
			run->totals.errors++;
			status = 1;
		}
	}
	if (em && em->stop)
		em->stop(state);
	if (out.file) {
		if (status != 0) {
			output_abort(&out);
		} else if (output_commit(&out) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s", opt->output, strerror(errno));
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

	if (opt->emit && opt->emit->start) {
		/* one file (validate_lint), written to -o or standard output */
		opt->read_ahead = opt->jobs >= 2;
		return lint_one(run, operands[0]);
	}
	worst = expand_operands(&run->sink, operands, n, &files, &nfiles);
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
