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

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a back end callback returns, and how a compilation ended
 * (nvtxt_compile_result.status).  Two failures are the input's, not the
 * system's: a time that cannot become nanoseconds (nvtxtc(1), TIME
 * CONVERSION; the NVTX time domains of nvToolsExtPayload.h have no rate of
 * their own).  A back end that returns one of them tells the error itself,
 * with its place (nvtxtc's do: nvtxt_chrome_error, the filter's `error`).
 */
enum nvtxt_status {
	NVTXT_OK = 0,
	NVTXT_ERR_SYSTEM = -1,       /* reading, writing or memory failed: errno (io_errno) says which */
	NVTXT_ERR_TIME_NO_RATE = -2, /* a time of a time base whose clock rate is not known (Qpc, Rdtsc,
					CNTVCT without a --time-conversion rule) */
	NVTXT_ERR_TIME_RANGE = -3,   /* a time outside the int64 range of nanoseconds once converted */
};

/*
 * The message of a status: one sentence without a final period, in
 * English, static (never freed); "unknown status" for a value that is not
 * one of enum nvtxt_status.  For NVTXT_ERR_SYSTEM, strerror(io_errno)
 * says more.  Cannot fail; thread-safe.
 */
const char *nvtxt_status_message(int status);

struct nvtxt_backend {
	void *user;
	/*
	 * One checked call.  For a RangePush the event is delivered at the
	 * push; for the matching RangePop, ev->push points at the push's
	 * event.  Returns NVTXT_OK (0), or an enum nvtxt_status, which stops
	 * the compilation: NVTXT_ERR_SYSTEM (-1) with errno set for an I/O
	 * error, or NVTXT_ERR_TIME_NO_RATE or NVTXT_ERR_TIME_RANGE for a time
	 * the back end could not convert to nanoseconds, which it describes
	 * itself (nvtxt_chrome_error, the filter's `error`): nvtxtc reports
	 * that as an error of the input.  Any other non-zero value counts as
	 * NVTXT_ERR_SYSTEM.
	 */
	int (*event)(void *user, const struct nvtxt_event *ev);
	/*
	 * A RangePush still open at end of file (the front end also warns
	 * about it), in the order of the pushes, before `finish`.  May be
	 * NULL.  Returns as `event` does.
	 */
	int (*unclosed_push)(void *user, const struct nvtxt_event *push);
	/* End of file.  Returns as `event` does. */
	int (*finish)(void *user);
};

#ifdef __cplusplus
}
#endif

#endif
