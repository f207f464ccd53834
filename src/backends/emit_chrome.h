/*
 * emit_chrome.h - the Chrome Trace Event back end (--emit=chrome): the
 * JSON object form of the Trace Event Format, which Perfetto's UI,
 * chrome://tracing and speedscope read.
 *
 * Source: "Trace Event Format" (Google, the Chromium catapult document):
 * the JSON object format, complete events X, duration events B/E,
 * instant events i, async events b/e with id, metadata events M process_name and
 * thread_name.  The mapping, the timestamps and their exactness are
 * documented in nvtxtc(1), CHROME TRACE EVENTS.
 *
 * Memory is bounded by the number of categories (their names and paths)
 * and of pushes left open at end of file, never by the number of events:
 * each event is written by trace_writer.c as it comes (a push/pop range
 * at its pop).
 */
#ifndef NVTXT_EMIT_CHROME_H
#define NVTXT_EMIT_CHROME_H

#include <stdio.h>

#include "nvtxt/backend.h"
#include "timeconv.h"

struct nvtxt_chrome;

/*
 * A new exporter writing to `out` (which must stay open while it is
 * used), converting times with `tc` (copied).  Never returns NULL (out of
 * memory exits, util.h).  Free it with nvtxt_chrome_free.
 */
struct nvtxt_chrome *nvtxt_chrome_new(FILE *out, const struct nvtxt_tconv *tc);
void nvtxt_chrome_free(struct nvtxt_chrome *c);

struct nvtxt_trace_writer;

/*
 * An exporter of one file of a merged document (nvtxtc --emit=chrome
 * FILE..., nvtxtc(1) CHROME TRACE EVENTS): its events go into `w`, which
 * the caller owns, has begun (nvtxt_trace_writer_begin) and ends after
 * the last file (nvtxt_trace_writer_end), so that every file shares one
 * origin and one sequence of async ids.  Its `finish` writes the ranges
 * of the pushes left open and returns, without ending the document.
 * nvtxt_chrome_free leaves `w` alone.  Never returns NULL.
 */
struct nvtxt_chrome *nvtxt_chrome_new_shared(struct nvtxt_trace_writer *w, const struct nvtxt_tconv *tc);

/* The file's SetFileDisplayName (the last one), or NULL; valid until nvtxt_chrome_free. */
const char *nvtxt_chrome_display_name(const struct nvtxt_chrome *c);

/*
 * The back end.  `event` and `finish` return NVTXT_ERR_SYSTEM (-1) with
 * errno set: the write's error (EIO when the stream has its error flag
 * without errno).  A time that does not convert (NVTXT_ERR_TIME_NO_RATE:
 * a time base without a known rate; NVTXT_ERR_TIME_RANGE: nanoseconds
 * outside int64) does not stop the compile: the error is kept, nothing
 * more is written, and `finish` returns the first one's status; the
 * errors are then read with nvtxt_chrome_error.  A file that stops before
 * `finish` (an error) is not valid JSON.
 */
struct nvtxt_backend nvtxt_chrome_backend(struct nvtxt_chrome *c);

/*
 * The number of conversion errors, and the message of the i-th (0-based,
 * in line order; without location) with its event's location in *loc;
 * NULL when i is past the last one kept (the first 1000 are).  Valid until
 * nvtxt_chrome_free.
 */
size_t nvtxt_chrome_errors(const struct nvtxt_chrome *c);
const char *nvtxt_chrome_error(const struct nvtxt_chrome *c, size_t i, struct nvtxt_loc *loc);

/* The exporter's writer (trace_writer.h), for tests that observe its events. */
struct nvtxt_trace_writer *nvtxt_chrome_writer(struct nvtxt_chrome *c);

#endif
