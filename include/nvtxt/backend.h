/*
 * backend.h - what a back end receives from the front end.
 *
 * The front end streams: it calls `event` once for every checked command
 * call, in file order, as soon as the call's line has passed every
 * per-instruction pass, and `finish` once at end of file.  A line with an
 * error never reaches a back end; the driver decides from the error count
 * whether the back end's output is kept.
 */
#ifndef NVTXT_BACKEND_H
#define NVTXT_BACKEND_H

#include "language.h"

struct nvtxt_backend {
	void *user;
	/*
	 * One checked call.  For a RangePush the event is delivered at the
	 * push; for the matching RangePop, ev->push points at the push's
	 * event.  Returns 0, or -1 on an I/O error (errno set), which stops
	 * the compilation.  errno EDOM or ERANGE: not an I/O error but a
	 * time the back end could not convert to nanoseconds (timeconv.h),
	 * which it describes itself (nvtxt_chrome_error, the filter's
	 * `error`); the driver reports it as an error of the input.
	 */
	int (*event)(void *user, const struct nvtxt_event *ev);
	/*
	 * A RangePush still open at end of file (the front end also warns
	 * about it), in the order of the pushes, before `finish`.  May be NULL.
	 */
	int (*unclosed_push)(void *user, const struct nvtxt_event *push);
	/* End of file.  Returns 0, or -1 on an I/O error (errno set). */
	int (*finish)(void *user);
};

#endif
