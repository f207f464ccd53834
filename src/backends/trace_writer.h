/*
 * trace_writer.h - a writer of Trace Event Format documents (the JSON
 * object form): the document's framing and one event at a time, written
 * by hand into a large buffer (trace_writer.c says why and how; nvtxtc(1),
 * CHROME TRACE EVENTS, documents the output).
 *
 * Source: "Trace Event Format" (Google, the Chromium catapult document):
 * the JSON object format {"traceEvents":[...],"displayTimeUnit":...,
 * "otherData":{...}}; complete events X with dur, duration events B/E,
 * instant events i, nestable async events b/e and n with id, metadata
 * events M.  The
 * strings are escaped by RFC 8259 section 7 (trace_writer.c).
 *
 * Use: nvtxt_trace_writer_new, then nvtxt_trace_writer_begin once,
 * nvtxt_trace_writer_event for each event in the order they are to
 * appear, nvtxt_trace_writer_end once, nvtxt_trace_writer_free.  The
 * writer knows nothing of NVTXT: the chrome back end (emit_chrome.c) maps
 * NVTXT calls to events, and a merged export of several files can share
 * one writer (one origin, one document).
 */
#ifndef NVTXT_TRACE_WRITER_H
#define NVTXT_TRACE_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "nvtxt/language.h"

/* The members of an event's "args" object (nvtxt_trace_event.args), in this order. */
enum {
	NVTXT_TRACE_ARG_NAME = 1,     /* args.name: a string (M events, and their only member) */
	NVTXT_TRACE_ARG_PAYLOAD = 2,  /* args.payload: an integer */
	NVTXT_TRACE_ARG_LINE = 4,     /* args.line: an integer */
	NVTXT_TRACE_ARG_UNCLOSED = 8  /* args.unclosed: true */
};

/*
 * One event.  Members are written in this order, each only where it
 * applies: "name", "cat" (when cat.ptr is not NULL), "ph", "id" (b, e
 * and n), "ts" (all but M), "dur" (X), "pid", "tid" (when tid >= 0), "args"
 * (when `args` has a bit, or the writer adds args.ns).  An M event has
 * only "name", "ph", "pid", "tid" and args.name.
 *
 * Times are nanoseconds (int64).  The writer writes "ts" as microseconds
 * from its origin (nvtxt_trace_writer_set_origin, or the first timed
 * event's time rounded toward zero to a whole second), exactly: the
 * integer microseconds, '.', the nanoseconds' digits without trailing
 * zeros but at least one (timeconv_us_text).  "dur" likewise (dur_ns >= 0).
 * An event 10^15 ns (11.5 days) or more from the origin, where a viewer's
 * double loses nanoseconds, also gets its exact nanoseconds as args.ns
 * (and for X, args.end_ns for its end).
 *
 * Strings are any bytes: escaped as trace_writer.c says (invalid UTF-8
 * becomes U+FFFD).
 */
struct nvtxt_trace_event {
	char ph;                   /* 'X', 'B', 'E', 'i', 'b', 'e', 'n' or 'M' */
	struct nvtxt_str name;
	struct nvtxt_str cat;      /* ptr NULL: no "cat" */
	uint64_t id;               /* b, e, n */
	int64_t ts_ns;             /* all but M */
	int64_t dur_ns;            /* X: >= 0 */
	int64_t pid;
	int64_t tid;               /* < 0: no "tid" */
	unsigned args;             /* NVTXT_TRACE_ARG_* */
	struct nvtxt_str arg_name; /* NVTXT_TRACE_ARG_NAME */
	int64_t payload;           /* NVTXT_TRACE_ARG_PAYLOAD */
	uint32_t line;             /* NVTXT_TRACE_ARG_LINE */
};

/* One input of a merged document: its path and its SetFileDisplayName (ptr NULL: none). */
struct nvtxt_trace_file {
	struct nvtxt_str file, display_name;
};

/*
 * What goes into "otherData" at the end, besides "producer":"nvtxtc":
 * "file_display_name" (one file's export), "files" (a merged export: an
 * array of {"file":...,"display_name":...}, display_name null without one,
 * in the order of the inputs, when nfiles > 0).
 */
struct nvtxt_trace_other {
	struct nvtxt_str file_display_name; /* ptr NULL: none */
	const struct nvtxt_trace_file *files;
	size_t nfiles;
};

struct nvtxt_trace_writer;

/*
 * A writer to `out`, which must stay open while it is used; nothing is
 * written before nvtxt_trace_writer_begin.  Never returns NULL (out of
 * memory exits, util.h).  Memory: one buffer of 256 KiB, whatever the
 * events.
 */
struct nvtxt_trace_writer *nvtxt_trace_writer_new(FILE *out);
void nvtxt_trace_writer_free(struct nvtxt_trace_writer *w);

/*
 * Sets the origin of "ts" to `ns` (before the first timed event; later
 * calls are ignored).  A writer without one takes the first timed event's
 * time rounded toward zero to a whole second.
 */
void nvtxt_trace_writer_set_origin(struct nvtxt_trace_writer *w, int64_t ns);

/* The origin in *ns, when one is set. */
bool nvtxt_trace_writer_origin(const struct nvtxt_trace_writer *w, int64_t *ns);

/*
 * A new id for an async event pair (b/e) or instant (n): 0, 1, 2, ... in the order of
 * the calls, so ids are unique in the writer's document whoever asks
 * (several files' back ends writing into one document included).
 */
uint64_t nvtxt_trace_writer_new_id(struct nvtxt_trace_writer *w);

/*
 * The document's start, {"displayTimeUnit":"ns","traceEvents":[, and the
 * events, each on a line of its own with the comma before it.  Return 0,
 * or -1 with errno after a write error (EIO when the stream had an error
 * without errno); after an error every call fails the same way.  Bytes
 * are buffered: an event may reach `out` only at a later call or at end.
 * An event before begin begins the document.
 */
int nvtxt_trace_writer_begin(struct nvtxt_trace_writer *w);
int nvtxt_trace_writer_event(struct nvtxt_trace_writer *w, const struct nvtxt_trace_event *ev);

/*
 * The document's end, ],"otherData":{"producer":"nvtxtc",...}} and a
 * newline (with "nvtxtc_time_origin_ns" when an origin is set), then the
 * buffer is written out and `out` flushed.  Returns 0, or -1 with errno.
 */
int nvtxt_trace_writer_end(struct nvtxt_trace_writer *w, const struct nvtxt_trace_other *other);

/*
 * Test hook (tests/tools/chrome_diff.c): `fn` is called with every event
 * as nvtxt_trace_writer_event receives it, before it is written.
 */
void nvtxt_trace_writer_observe(struct nvtxt_trace_writer *w,
				void (*fn)(void *user, const struct nvtxt_trace_event *ev), void *user);

/*
 * Appends to buf (at least 6 * n + 2 bytes) the JSON string of the n
 * bytes at s, quotes included, escaped as trace_writer.c says; returns
 * its length.  For tests and the fuzz target: the writer itself writes
 * strings in pieces, through the same code.
 */
size_t nvtxt_trace_json_string(char *buf, const char *s, size_t n);

#endif
