/*
 * jobs.c - files checked or formatted by several threads, their outputs
 * printed in command-line order (see run_jobs in driver.h).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "driver.h"
#include "progress.h"
#include "util.h"

/* One file: what it prints is kept until its turn. */
struct job {
	const char *path;
	char *out, *err;
	size_t out_len, err_len;
	int status;
	struct totals totals;
	struct nvtxt_report report; /* JSON, SARIF: its diagnostics, moved into the run's in turn */
	bool done;
};

struct pool {
	struct run *run;
	job_fn fn;
	struct job *jobs;
	int njobs;
	int next;                /* the next job to start */
	pthread_mutex_t lock;
	pthread_cond_t finished;
};

static void *worker(void *arg)
{
	struct pool *pool = arg;

	for (;;) {
		struct job *job;
		struct run jr = { .opt = pool->run->opt, .job_sink = pool->run->job_sink };
		void *sink_state = NULL;
		FILE *out, *err;

		pthread_mutex_lock(&pool->lock);
		if (pool->next >= pool->njobs) {
			pthread_mutex_unlock(&pool->lock);
			return NULL;
		}
		job = &pool->jobs[pool->next++];
		pthread_mutex_unlock(&pool->lock);

		out = open_memstream(&job->out, &job->out_len);
		err = open_memstream(&job->err, &job->err_len);
		if (!out || !err) {
			job->status = 2;
		} else {
			jr.out = out;
			jr.printer.out = err;
			jr.printer.color = pool->run->printer.color;
			jr.sink = (struct nvtxt_diag_sink){ &jr.printer, nvtxt_text_printer_report };
			if (jr.job_sink)
				jr.sink = jr.job_sink(pool->run, err, &sink_state);
			if (pool->run->report) { /* JSON, SARIF: a report per job, moved in order below */
				jr.report = &job->report;
				jr.sink = (struct nvtxt_diag_sink){ &job->report, nvtxt_report_sink };
			}
			job->status = pool->fn(&jr, job->path);
			free(sink_state);
			job->totals = jr.totals;
			if (fflush(out) != 0 || fflush(err) != 0)
				job->status = 2;
		}
		if (out)
			fclose(out);
		if (err)
			fclose(err);
		pthread_mutex_lock(&pool->lock);
		job->done = true;
		pthread_cond_broadcast(&pool->finished);
		pthread_mutex_unlock(&pool->lock);
	}
}

long free_fds(void)
{
	struct rlimit rl;
	long open_now = 0, limit;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 1L << 20;
	limit = rl.rlim_cur > (1UL << 20) ? 1L << 20 : (long)rl.rlim_cur;
	d = opendir("/proc/self/fd");
	if (d) {
		while (readdir(d))
			open_now++;
		closedir(d);
		open_now -= 3; /* ".", ".." and the directory's own descriptor */
	} else {
		open_now = 3;
	}
	return limit > open_now ? limit - open_now : 0;
}

int run_jobs(struct run *run, char **files, int n, long threads, int fds_per_job, job_fn fn)
{
	struct pool pool = { .run = run, .fn = fn, .njobs = n };
	pthread_t *tids;
	int worst = 0, started = 0;
	long fit;

	if (threads > n)
		threads = n;
	/* fewer at once when descriptors are short, 8 kept for the rest of the process */
	fit = (free_fds() - 8) / fds_per_job;
	if (threads > fit)
		threads = fit > 1 ? fit : 1;
	if (threads <= 1) {
		for (int i = 0; i < n; i++) {
			int status = fn(run, files[i]);
			if (status > worst)
				worst = status;
		}
		return worst;
	}
	pool.jobs = xcalloc((size_t)n, sizeof(*pool.jobs));
	for (int i = 0; i < n; i++)
		pool.jobs[i].path = files[i];
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.finished, NULL);
	tids = xcalloc((size_t)threads, sizeof(*tids));
	for (long t = 0; t < threads; t++)
		if (pthread_create(&tids[started], NULL, worker, &pool) == 0)
			started++;
	if (!started)
		worker(&pool);
	for (int i = 0; i < n; i++) {
		struct job *job = &pool.jobs[i];
		pthread_mutex_lock(&pool.lock);
		while (!job->done)
			pthread_cond_wait(&pool.finished, &pool.lock);
		pthread_mutex_unlock(&pool.lock);
		if (job->out_len)
			fwrite(job->out, 1, job->out_len, run->out);
		if (job->err_len) {
			progress_hold();
			fwrite(job->err, 1, job->err_len, run->printer.out);
			progress_release();
		}
		if (run->report)
			nvtxt_report_move(run->report, &job->report);
		free(job->out);
		free(job->err);
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
