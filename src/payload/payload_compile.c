/*
 * payload_compile.c - the calls of a payload file checked as nvtxt_compile
 * checks NVTXT, without text in between.
 *
 * The reader (payload_read.c) checks every value of every record as a
 * call's own checks would (nvtxt-payload(5) VALIDATION: ranges, strings,
 * absent values), so its calls go straight to the event passes (pairing,
 * category, naming: the rules of nvtxt(5) that span calls) and the back
 * end, as a call that passed its checks does.  Diagnostics point at the
 * line of the call in the file's normal form (line = ordinal + 1, column
 * 1), which `nvtxtc --emit=nvtxt FILE` prints; there is no excerpt, since
 * no text is kept.
 */
#include <errno.h>
#include <setjmp.h>
#include <string.h>

#include "nvtxt/compile.h"
#include "diag_engine.h"
#include "nvtxt/payload.h"
#include "payload_reader.h"
#include "sema.h"
#include "util.h"

struct payload_run {
	struct nvtxt_payload_reader *r;
	const struct nvtxt_compile_options *opt;
	struct nvtxt_diags diags;
	struct sema *sema;
	struct guard guard;
	int rc;                 /* of nvtxt_payload_decompile */
	char *err;
	size_t errlen;
};

/* Calls of the reader's chunk (ours to change), their loc at their lines of the normal form (pr_calls.lines). */
static int to_passes(void *user, struct nvtxt_event *ev, size_t n)
{
	struct payload_run *run = user;
	int e;

	sema_events(run->sema, ev, n);
	if (sema_status(run->sema, &e) == NVTXT_OK)
		return 0;
	/* the back end's failure stops the reader; its status is taken from the passes after */
	errno = e ? e : EIO;
	return -1;
}

static int to_nothing(void *user)
{
	(void)user;
	return 0;
}

static void run_passes(struct payload_run *run)
{
	struct pr_calls calls = { run, to_passes, to_nothing, true };

	run->sema = sema_new(&run->diags, run->opt->backend);
	run->rc = pr_decompile(run->r, &calls, run->err, run->errlen);
	if (run->rc == 0) {
		sema_finish(run->sema);
		diag_finish(&run->diags);
	}
}

/* Runs `run` under a guard; returns 0, or the error of a failure (ENOMEM). */
static int run_guarded(struct payload_run *run)
{
	if (setjmp(run->guard.env))
		return run->guard.error;
	guard_push(&run->guard);
	run_passes(run);
	return 0;
}

int nvtxt_payload_compile(struct nvtxt_payload_reader *r, const struct nvtxt_compile_options *opt,
			  struct nvtxt_compile_result *res, char *err, size_t errlen)
{
	struct payload_run run;
	int failure, rc;

	memset(&run, 0, sizeof run);
	memset(res, 0, sizeof *res);
	if (errlen)
		err[0] = 0;
	run.r = r;
	run.opt = opt;
	run.err = err;
	run.errlen = errlen;
	nvtxt_diags_init(&run.diags, opt->diag_config, opt->sink, opt->display_name);
	r->read_ahead = opt->read_ahead;
	failure = run_guarded(&run);
	pr_ahead_stop(r); /* after a failure that left nvtxt_payload_decompile by the guard */
	if (run.sema) {
		res->status = sema_status(run.sema, &res->io_errno);
		sema_free(run.sema);
	}
	tmp_free(run.diags.supp.supp);
	if (failure)
		guard_release(&run.guard);
	else
		guard_pop(&run.guard);
	rc = run.rc;
	if (failure) {
		res->io_errno = failure;
		res->status = NVTXT_ERR_SYSTEM;
		rc = 0;
	}
	if (rc == NVTXT_PAYLOAD_EIO && res->status != NVTXT_OK)
		rc = 0; /* the back end's failure: in res, as nvtxt_compile reports it */
	res->errors = run.diags.errors;
	res->warnings = run.diags.warnings;
	res->hidden_errors = run.diags.hidden_errors;
	res->hidden_warnings = run.diags.hidden_warnings;
	if (rc)
		return rc;
	return res->status != NVTXT_OK ? 2 : run.diags.errors ? 1 : 0;
}
