/*
 * chrome_diff.c - the differential test of the hand-written Trace Event
 * writer (src/backends/trace_writer.c; issue 22's rule, condition a),
 * run by tests/chrome.t.
 *
 *   chrome_diff [-c RULE]... FILE...
 *
 * Each FILE (NVTXT) is compiled with the chrome back end
 * (emit_chrome.c) into memory, RULEs as --time-conversion arguments.  The
 * writer's observer hands over every event the back end gives it; the
 * tool builds each one again as a jansson object from its fields (the
 * reference: strings through json_stringn, integers through
 * json_integer, ts and dur through json_real of the nearest double to
 * their exact decimal, args.ns and args.end_ns where the writer's rule
 * puts them), and the same for the document around them.  The origin of
 * ts is the reference's own: a pass in front of the back end converts
 * the first event's time (in input order) and rounds it toward zero to a
 * whole second (nvtxtc(1), CHROME TRACE EVENTS, Timestamps).  The writer's
 * bytes are then parsed with jansson (duplicate keys rejected) and
 * compared with the reference, the document's members and then event by
 * event (json_equal): same count, same order, same members and values.
 * A file whose compile stops before the end of the document (a conversion
 * error, or an error that stops the front end) is counted as not
 * exported; every file that gets a whole document is compared.
 *
 * Prints a line per difference (at most 10 a file) and a summary
 * "ok: N files, E events compared (S not exported)"; exits 0 when
 * nothing differs, 1 otherwise, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "emit_chrome.h"
#include "trace_writer.h"

#define NS_PER_S INT64_C(1000000000)
#define EXACT_LIMIT INT64_C(1000000000000000)

struct ref {
	json_t *events;            /* the reference events, in order */
	bool origin_known;         /* the first event read whose time converts */
	int64_t origin;
	const struct nvtxt_tconv *tc;
	char *display_name;        /* the last SetFileDisplayName */
	bool bad_string;           /* a string jansson refused (not UTF-8) */
	const struct nvtxt_backend *inner;
};

static int failures;

#define DIFF(...)                                             \
	do {                                                  \
		if (failures++ < 10) {                        \
			printf("chrome_diff: ");              \
			printf(__VA_ARGS__);                  \
			putchar('\n');                        \
		}                                             \
	} while (0)

/* The nearest double to the exact decimal of `ns` nanoseconds in microseconds (strtod of it). */
static json_t *us_real(__int128 ns)
{
	unsigned __int128 mag = ns < 0 ? -(unsigned __int128)ns : (unsigned __int128)ns;
	char text[64];

	snprintf(text, sizeof text, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", (uint64_t)(mag / 1000),
		 (unsigned)(mag % 1000));
	return json_real(strtod(text, NULL));
}

static json_t *str(struct ref *r, struct nvtxt_str s)
{
	json_t *j = json_stringn(s.ptr ? s.ptr : "", s.len);

	if (!j) {
		r->bad_string = true;
		j = json_string("");
	}
	return j;
}

/* The reference object of one event, as the format and nvtxtc(1) say it is written. */
static void observe(void *user, const struct nvtxt_trace_event *ev)
{
	struct ref *r = user;
	json_t *o = json_object(), *args = json_object();
	char ph[2] = { ev->ph, 0 };
	bool far = false, end_far = false;

	json_object_set_new(o, "name", str(r, ev->name));
	if (ev->cat.ptr)
		json_object_set_new(o, "cat", str(r, ev->cat));
	json_object_set_new(o, "ph", json_string(ph));
	if (ev->ph == 'b' || ev->ph == 'e' || ev->ph == 'n')
		json_object_set_new(o, "id", json_integer((json_int_t)ev->id));
	if (ev->ph != 'M') {
		__int128 off;
		if (!r->origin_known) {
			DIFF("an event written (ts %" PRId64 " ns) before any event read had a time", ev->ts_ns);
			r->origin = ev->ts_ns / NS_PER_S * NS_PER_S;
			r->origin_known = true;
		}
		off = (__int128)ev->ts_ns - r->origin;
		far = off <= -EXACT_LIMIT || off >= EXACT_LIMIT;
		json_object_set_new(o, "ts", us_real(off));
	}
	if (ev->ph == 'X') {
		json_object_set_new(o, "dur", us_real(ev->dur_ns));
		end_far = ev->dur_ns >= EXACT_LIMIT || (__int128)ev->ts_ns + ev->dur_ns - r->origin >= EXACT_LIMIT;
	}
	json_object_set_new(o, "pid", json_integer(ev->pid));
	if (ev->tid >= 0)
		json_object_set_new(o, "tid", json_integer(ev->tid));
	if (ev->args & NVTXT_TRACE_ARG_NAME)
		json_object_set_new(args, "name", str(r, ev->arg_name));
	if (ev->args & NVTXT_TRACE_ARG_PAYLOAD)
		json_object_set_new(args, "payload", json_integer(ev->payload));
	if (ev->args & NVTXT_TRACE_ARG_LINE)
		json_object_set_new(args, "line", json_integer(ev->line));
	if (ev->args & NVTXT_TRACE_ARG_UNCLOSED)
		json_object_set_new(args, "unclosed", json_true());
	if (far || end_far)
		json_object_set_new(args, "ns", json_integer(ev->ts_ns));
	if (end_far)
		json_object_set_new(args, "end_ns", json_integer((json_int_t)((uint64_t)ev->ts_ns + (uint64_t)ev->dur_ns)));
	if (json_object_size(args))
		json_object_set_new(o, "args", args);
	else
		json_decref(args);
	json_array_append_new(r->events, o);
}

/*
 * The origin by the man page's rule: the time of the first event read
 * whose time converts (a start/end range's start), rounded toward zero.
 */
static void note_origin(struct ref *r, const struct nvtxt_event *ev)
{
	int64_t t, ns;

	switch (ev->command) {
	case NVTXT_CMD_MARKER:
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		t = ev->time;
		break;
	case NVTXT_CMD_RANGE_START_END:
		t = ev->start;
		break;
	default:
		return;
	}
	if (!r->origin_known && nvtxt_tconv_apply(r->tc, ev->timebase, t, &ns) == 0) {
		r->origin = ns / NS_PER_S * NS_PER_S;
		r->origin_known = true;
	}
}

/* In front of the chrome back end: notes the origin and the display name, as emit_chrome.c keeps it. */
static int pass_event(void *user, const struct nvtxt_event *ev)
{
	struct ref *r = user;

	note_origin(r, ev);
	if (ev->command == NVTXT_CMD_SET_FILE_DISPLAY_NAME) {
		free(r->display_name);
		r->display_name = strndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
	}
	return r->inner->event(r->inner->user, ev);
}

static int pass_unclosed(void *user, const struct nvtxt_event *push)
{
	struct ref *r = user;
	return r->inner->unclosed_push(r->inner->user, push);
}

static int pass_finish(void *user)
{
	struct ref *r = user;
	return r->inner->finish(r->inner->user);
}

static void quiet(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user, (void)d, (void)src;
}

/* The reference document around the events. */
static json_t *reference_doc(struct ref *r)
{
	json_t *doc = json_object(), *other = json_object();

	json_object_set_new(doc, "displayTimeUnit", json_string("ns"));
	json_object_set(doc, "traceEvents", r->events);
	json_object_set_new(other, "producer", json_string("nvtxtc"));
	if (r->display_name)
		json_object_set_new(other, "file_display_name",
				    str(r, (struct nvtxt_str){ r->display_name, strlen(r->display_name) }));
	if (r->origin_known)
		json_object_set_new(other, "nvtxtc_time_origin_ns", json_integer(r->origin));
	json_object_set_new(doc, "otherData", other);
	return doc;
}

/* Compares the parsed output with the reference; returns the events compared. */
static size_t compare(const char *path, json_t *got, json_t *want)
{
	json_t *ge = json_object_get(got, "traceEvents"), *we = json_object_get(want, "traceEvents");
	size_t n = json_array_size(we);

	if (json_object_size(got) != 3 || !json_is_array(ge))
		DIFF("%s: the document has %zu members, not displayTimeUnit, traceEvents and otherData", path,
		     json_object_size(got));
	if (!json_equal(json_object_get(got, "displayTimeUnit"), json_object_get(want, "displayTimeUnit")))
		DIFF("%s: displayTimeUnit differs", path);
	if (!json_equal(json_object_get(got, "otherData"), json_object_get(want, "otherData"))) {
		char *a = json_dumps(json_object_get(got, "otherData"), JSON_SORT_KEYS);
		char *b = json_dumps(json_object_get(want, "otherData"), JSON_SORT_KEYS);
		DIFF("%s: otherData %s, expected %s", path, a ? a : "?", b ? b : "?");
		free(a);
		free(b);
	}
	if (json_array_size(ge) != n)
		DIFF("%s: %zu events written, %zu given to the writer", path, json_array_size(ge), n);
	for (size_t i = 0; i < n && i < json_array_size(ge); i++) {
		if (!json_equal(json_array_get(ge, i), json_array_get(we, i))) {
			char *a = json_dumps(json_array_get(ge, i), JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
			char *b = json_dumps(json_array_get(we, i), JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
			DIFF("%s: event %zu is %s, expected %s", path, i, a ? a : "?", b ? b : "?");
			free(a);
			free(b);
		}
	}
	return n;
}

/* One file: 1 compared, 0 not exported (the document stopped early), -1 could not be read. */
static int one_file(const char *path, const struct nvtxt_tconv *tc, size_t *events)
{
	struct ref r = { .events = json_array(), .tc = tc };
	struct nvtxt_diag_config cfg;
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_compile_result res;
	struct nvtxt_backend chrome, front = { .user = &r, .event = pass_event, .unclosed_push = pass_unclosed,
					      .finish = pass_finish };
	struct nvtxt_chrome *c;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int fd = open(path, O_RDONLY), rc = 0;

	if (fd < 0 || !mem) {
		perror(path);
		return -1;
	}
	c = nvtxt_chrome_new(mem, tc);
	chrome = nvtxt_chrome_backend(c);
	r.inner = &chrome;
	nvtxt_trace_writer_observe(nvtxt_chrome_writer(c), observe, &r);
	nvtxt_diag_config_init(&cfg);
	co.display_name = path;
	co.fd = fd;
	co.diag_config = &cfg;
	co.sink = (struct nvtxt_diag_sink){ NULL, quiet };
	co.backend = &front;
	nvtxt_compile(&co, &res);
	close(fd);
	fclose(mem);
	if (r.bad_string)
		DIFF("%s: the back end gave the writer a string that is not UTF-8", path);
	/* a whole document: the compile reached the back end's finish */
	if (res.io_errno == 0 && nvtxt_chrome_errors(c) == 0 && len > 0) {
		json_error_t jerr;
		json_t *got = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr), *want = reference_doc(&r);
		if (!got)
			DIFF("%s: the export is not JSON: %d:%d: %s", path, jerr.line, jerr.column, jerr.text);
		else
			*events += compare(path, got, want);
		json_decref(got);
		json_decref(want);
		rc = 1;
	}
	nvtxt_chrome_free(c);
	json_decref(r.events);
	free(r.display_name);
	free(text);
	return rc;
}

int main(int argc, char **argv)
{
	struct nvtxt_tconv tc;
	size_t files = 0, skipped = 0, events = 0;
	int a = 1;

	nvtxt_tconv_init(&tc);
	for (; a + 1 < argc && strcmp(argv[a], "-c") == 0; a += 2) {
		char err[320];
		if (nvtxt_tconv_parse(&tc, argv[a + 1], err, sizeof err) != 0) {
			fprintf(stderr, "chrome_diff: %s\n", err);
			return 2;
		}
	}
	if (a >= argc) {
		fputs("usage: chrome_diff [-c RULE]... FILE...\n", stderr);
		return 2;
	}
	for (; a < argc; a++) {
		int rc = one_file(argv[a], &tc, &events);
		if (rc < 0)
			return 2;
		files++;
		skipped += rc == 0;
	}
	if (failures) {
		printf("chrome_diff: %d difference%s\n", failures, failures == 1 ? "" : "s");
		return 1;
	}
	printf("ok: %zu files, %zu events compared (%zu not exported)\n", files, events, skipped);
	return 0;
}
