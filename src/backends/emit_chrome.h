/*
 * emit_chrome.h - the Chrome Trace Event back end (--emit=chrome): the
 * JSON object form of the Trace Event Format, which Perfetto's UI,
 * chrome://tracing and speedscope read.
 *
 * Source: "Trace Event Format" (Google, the Chromium catapult document):
 * the JSON object format, duration events B/E, instant events i with
 * scope s, async events b/e with id, metadata events M process_name and
 * thread_name.  The mapping, the timestamps and their exactness are
 * documented in nvtxtc(1), CHROME TRACE EVENTS.
 *
 * Memory is bounded by the number of categories (their names and paths),
 * never by the number of events: each event is one JSON object,
 * serialised by json-c (emit_chrome.c says why not jansson) and written
 * at once.
 */
#ifndef NVTXT_EMIT_CHROME_H
#define NVTXT_EMIT_CHROME_H

#include <stdio.h>

#include "backend.h"
#include "timeconv.h"

struct nvtxt_chrome;

/*
 * A new exporter writing to `out` (which must stay open while it is
 * used), converting times with `tc` (copied).  Never returns NULL (out of
 * memory exits, util.h).  Free it with nvtxt_chrome_free.
 */
struct nvtxt_chrome *nvtxt_chrome_new(FILE *out, const struct nvtxt_tconv *tc);
void nvtxt_chrome_free(struct nvtxt_chrome *c);

/*
 * The back end.  `event` and `finish` return -1 with errno set: the
 * write's error (EIO when the stream has its error flag without errno);
 * EDOM for a time base without a known rate and ERANGE for a time whose
 * nanoseconds do not fit in int64, both with a message from
 * nvtxt_chrome_error.  `finish` writes the end of the document: a file
 * that stops before it (an error) is not valid JSON.
 */
struct nvtxt_backend nvtxt_chrome_backend(struct nvtxt_chrome *c);

/*
 * The message of the conversion error that stopped the export (without
 * location) and, in *loc, the event's location; NULL when there was none.
 * Valid until nvtxt_chrome_free.
 */
const char *nvtxt_chrome_error(const struct nvtxt_chrome *c, struct nvtxt_loc *loc);

#endif
