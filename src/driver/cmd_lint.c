/*
 * cmd_lint.c - nvtxtc lint (the default) and --emit=NAME: check each FILE,
 * in parallel with -j when there is no back end, and hand its calls to the
 * back end of --emit, written to standard output or atomically to -o.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "output.h"
#include "util.h"

/* One file of a parallel lint: its diagnostics are kept until its turn to print. */
struct lint_job {
	const char *path;
	char *text;
	size_t len;
	int status;
	struct totals totals;
	bool done;
};

struct lint_pool {
	const struct options *opt;
	bool color;
	struct lint_job *jobs;
	int njobs;
	int next;                /* the next job to start */
	pthread_mutex_t lock;
	pthread_cond_t finished;
};

static void *lint_worker(void *arg)
{
	struct lint_pool *pool = arg;

	for (;;) {
		struct lint_job *job;
		struct nvtxt_text_printer printer = { .color = pool->color };
		struct nvtxt_diag_sink sink = { &printer, nvtxt_text_printer_report };
		FILE *err;

		pthread_mutex_lock(&pool->lock);
		if (pool->next >= pool->njobs) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		job = &pool->jobs[pool->next++];
		pthread_mutex_unlock(&pool->lock);

		err = open_memstream(&job->text, &job->len);
		if (!err) {
			job->status = 2;
		} else {
			printer.out = err;
			job->status = check_file(pool->opt, &sink, &job->totals, job->path, NULL);
			fclose(err);
		}
		pthread_mutex_lock(&pool->lock);
		job->done = true;
		pthread_cond_broadcast(&pool->finished);
		pthread_mutex_unlock(&pool->lock);
	}
}

/*
 * nvtxtc lint -j N: files are checked by N threads, and each file's
 * diagnostics are printed whole, in command-line order, as soon as the
 * files before it are printed.
 */
static int lint_parallel(struct run *run, char **files, int nfiles, long threads)
{
	struct lint_pool pool = { .opt = run->opt, .color = run->printer.color, .njobs = nfiles };
	pthread_t *tids;
	int worst = 0, started = 0;

	pool.jobs = xcalloc((size_t)nfiles, sizeof(*pool.jobs));
	for (int i = 0; i < nfiles; i++)
		pool.jobs[i].path = files[i];
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.finished, NULL);
	if (threads > nfiles)
		threads = nfiles;
	tids = xcalloc((size_t)threads, sizeof(*tids));
	for (long t = 0; t < threads; t++)
		if (pthread_create(&tids[started], NULL, lint_worker, &pool) == 0)
			started++;
	if (!started)
		lint_worker(&pool);
	for (int i = 0; i < nfiles; i++) {
		struct lint_job *job = &pool.jobs[i];
		pthread_mutex_lock(&pool.lock);
		while (!job->done)
			pthread_cond_wait(&pool.finished, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
		if (job->len)
			fwrite(job->text, 1, job->len, run->printer.out);
		free(job->text);
		run->totals.errors += job->totals.errors;
		run->totals.warnings += job->totals.warnings;
		if (job->status > worst)
			worst = job->status;
	}
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&pool.lock);
	pthread_cond_destroy(&pool.finished);
	free(tids);
	free(pool.jobs);
	return worst;
}

/* One file, its calls to the back end of --emit (if any), written to -o or standard output. */
static int lint_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const struct emitter *em = opt->emit && opt->emit->start ? opt->emit : NULL;
	struct nvtxt_output out = { 0 };
	struct nvtxt_backend be;
	void *state = NULL;
	int status;

	if (em) {
		if (opt->output && output_open(&out, opt->output) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s", opt->output, strerror(errno));
			return 2;
		}
		if (em->start(opt, opt->output ? out.file : stdout, &be, &state) != 0) {
			io_error(&run->sink, NULL, "cannot write '%s': %s",
				     opt->output ? opt->output : "standard output", strerror(errno));
			output_abort(&out);
			return 2;
		}
	}
	status = check_file(opt, &run->sink, &run->totals, path, em ? &be : NULL);
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

int run_lint(struct run *run, char **files, int nfiles)
{
	struct options *opt = run->opt;
	int worst = 0;

	if (!(opt->emit && opt->emit->start) && opt->jobs > 1 && nfiles > 1) {
		/* each file's thread reads ahead in a second one when there are processors to spare */
		long workers = opt->jobs < nfiles ? opt->jobs : nfiles;
		opt->read_ahead = opt->jobs >= 2 * workers;
		return lint_parallel(run, files, nfiles, opt->jobs);
	}
	opt->read_ahead = opt->jobs >= 2;
	for (int i = 0; i < nfiles; i++) {
		int status = lint_one(run, files[i]);
		if (status > worst)
			worst = status;
	}
	return worst;
}
