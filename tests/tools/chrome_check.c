/*
 * chrome_check.c - checks an `nvtxtc --emit=chrome` export against the
 * normal form of the same file (tests/chrome.t).
 *
 *   chrome_check FILE.nvtxt EXPORT.json [TIMEBASE:lin:...|TIMEBASE:lerp:...]...
 *
 * FILE.nvtxt, the file that was exported, is compiled with the library and
 * its checked events recorded: the events of its normal form, which
 * --emit=nvtxt prints one a line (their lines are those of FILE, as in
 * the export's args.line).  EXPORT.json is parsed with jansson.  Checked:
 * the document's shape; every Marker, RangePush, RangePop and
 * RangeStartEnd present exactly once, in file order within its kind, with
 * its name, pid, tid, category, color, payload and line; every time exact
 * to the nanosecond (ts from the origin in otherData, or args.ns); B/E
 * balanced per (pid, tid), each E closing the B on top, a push left open
 * at end of file closed by an E with args.unclosed at its thread's latest
 * time (after the other events); b/e pairs with
 * unique ids; one process_name per NameProcess and a thread_name for each
 * named thread seen.  Prints "ok" or the first difference; exits 0 or 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "timeconv.h"

struct rec {
	enum nvtxt_command cmd;
	uint32_t present, line, category_id, color;
	int64_t pid, tid, payload, t0, t1; /* t0, t1: nanoseconds; a push's t1: its range's end */
	uint32_t pop_line;                 /* a push: its pop's line (0: open at end of file) */
	bool unclosed;                     /* a push left open at end of file */
	size_t parent;                     /* a push: the push it is nested in (SIZE_MAX: none) */
	size_t shown;                      /* a push: the index of its range's event (SIZE_MAX: none) */
	char *message;                     /* a RangePop: its push's */
	char *name;
};

static struct rec *recs;
static size_t nrecs, caprecs;
static struct nvtxt_tconv tc;

static char *dup_str(struct nvtxt_str s)
{
	char *p = malloc(s.len + 1);

	if (!p)
		abort();
	if (s.len)
		memcpy(p, s.ptr, s.len);
	p[s.len] = '\0';
	return p;
}

static int64_t ns_of(const struct nvtxt_event *ev, int64_t t)
{
	int64_t ns;

	if (nvtxt_tconv_apply(&tc, ev->timebase, t, &ns) != 0) {
		fprintf(stderr, "chrome_check: line %u: time %" PRId64 " does not convert\n", ev->loc.line, t);
		exit(2);
	}
	return ns;
}

static int record(void *user, const struct nvtxt_event *ev)
{
	struct rec *r;
	const struct nvtxt_event *named = ev->push ? ev->push : ev;

	(void)user;
	if (nrecs == caprecs) {
		caprecs = caprecs ? 2 * caprecs : 64;
		recs = realloc(recs, caprecs * sizeof *recs);
		if (!recs)
			abort();
	}
	r = &recs[nrecs++];
	memset(r, 0, sizeof *r);
	r->cmd = ev->command;
	r->present = ev->present;
	r->line = ev->loc.line;
	r->category_id = ev->category_id;
	r->color = ev->color;
	r->pid = ev->process_id;
	r->tid = ev->thread_id;
	r->payload = ev->payload;
	r->message = (named->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) ? dup_str(named->message) : dup_str((struct nvtxt_str){ "", 0 });
	r->name = dup_str(ev->name);
	if (ev->present & NVTXT_BIT(NVTXT_ARG_TIME))
		r->t0 = ns_of(ev, ev->time);
	if (ev->present & NVTXT_BIT(NVTXT_ARG_START)) {
		r->t0 = ns_of(ev, ev->start);
		r->t1 = ns_of(ev, ev->end);
	}
	return 0;
}

static int failures;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			if (failures++ < 10) {                                  \
				printf("chrome_check: ");                       \
				printf(__VA_ARGS__);                            \
				putchar('\n');                                  \
			}                                                       \
		}                                                               \
	} while (0)

static void quiet_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user, (void)d, (void)src;
}

static int64_t origin;

/* The next record of `command` from *idx on (and *idx past it), or NULL. */
static struct rec *next_of(size_t *idx, enum nvtxt_command command)
{
	while (*idx < nrecs && recs[*idx].cmd != command)
		(*idx)++;
	return *idx < nrecs ? &recs[(*idx)++] : NULL;
}

/* The exact nanoseconds of an event object: args.ns when given, else origin + ts * 1000. */
static int64_t event_ns(json_t *e)
{
	json_t *ns = json_object_get(json_object_get(e, "args"), "ns");
	double ts = json_number_value(json_object_get(e, "ts"));

	if (json_is_integer(ns))
		return json_integer_value(ns);
	return origin + (int64_t)llround(ts * 1000.0);
}

static const char *str(json_t *e, const char *key)
{
	const char *s = json_string_value(json_object_get(e, key));
	return s ? s : "";
}

static int64_t num(json_t *e, const char *key)
{
	return json_integer_value(json_object_get(e, key));
}

/* The latest time of the events of thread (pid, tid): where its unclosed pushes end. */
static int64_t thread_last_ns(int64_t pid, int64_t tid)
{
	int64_t last = INT64_MIN;

	for (size_t i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i];
		if (r->pid != pid || r->tid != tid || r->cmd > NVTXT_CMD_RANGE_START_END)
			continue;
		if (r->t0 > last)
			last = r->t0;
		if (r->cmd == NVTXT_CMD_RANGE_START_END && r->t1 > last)
			last = r->t1;
	}
	return last;
}

/* The push at `line` (records are in line order), or NULL. */
static struct rec *push_at_line(uint32_t line)
{
	size_t lo = 0, hi = nrecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (recs[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nrecs && recs[lo].line == line && recs[lo].cmd == NVTXT_CMD_RANGE_PUSH ? &recs[lo] : NULL;
}

/* Pairs each push with its pop (per thread, as the normal form does): its end, its parent. */
static void pair_ranges(void)
{
	size_t *stack = calloc(nrecs + 1, sizeof *stack), depth = 0;

	if (!stack)
		abort();
	for (size_t i = 0; i < nrecs; i++) {
		struct rec *r = &recs[i];
		size_t top;
		r->shown = r->parent = SIZE_MAX;
		if (r->cmd != NVTXT_CMD_RANGE_PUSH && r->cmd != NVTXT_CMD_RANGE_POP)
			continue;
		for (top = depth; top > 0; top--)
			if (recs[stack[top - 1]].pid == r->pid && recs[stack[top - 1]].tid == r->tid)
				break;
		if (r->cmd == NVTXT_CMD_RANGE_PUSH) {
			r->parent = top ? stack[top - 1] : SIZE_MAX;
			stack[depth++] = i;
		} else if (top) {
			recs[stack[top - 1]].t1 = r->t0;
			recs[stack[top - 1]].pop_line = r->line;
			memmove(&stack[top - 1], &stack[top], (depth - top) * sizeof *stack);
			depth--;
		}
	}
	while (depth) {
		struct rec *p = &recs[stack[--depth]];
		p->unclosed = true;
		p->t1 = thread_last_ns(p->pid, p->tid);
	}
	free(stack);
}

/* The end of an X event in nanoseconds: args.end_ns when given, else its start plus dur. */
static int64_t end_ns(json_t *e)
{
	json_t *end = json_object_get(json_object_get(e, "args"), "end_ns");
	double dur = json_number_value(json_object_get(e, "dur"));

	if (json_is_integer(end))
		return json_integer_value(end);
	return event_ns(e) + (int64_t)llround(dur * 1000.0);
}

/* The args of a B, i or b against the record. */
static void check_args(json_t *e, const struct rec *r, const char *what)
{
	json_t *args = json_object_get(e, "args");

	CHECK(json_is_object(args), "%s at line %u: no args", what, r->line);
	CHECK(num(args, "line") == r->line, "%s: args.line %" PRId64 ", expected %u", what, num(args, "line"), r->line);
	CHECK(!json_object_get(args, "category_id"), "%s at line %u: args.category_id (cat names the category)",
	      what, r->line);
	CHECK(!json_object_get(e, "cat") == !(r->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)),
	      "%s at line %u: \"cat\" %s", what, r->line, json_object_get(e, "cat") ? "without CategoryId" : "missing");
	if (r->present & NVTXT_BIT(NVTXT_ARG_PAYLOAD))
		CHECK(num(args, "payload") == r->payload, "%s at line %u: payload", what, r->line);
	else
		CHECK(!json_object_get(args, "payload"), "%s at line %u: payload without Payload", what, r->line);
	CHECK(!json_object_get(args, "color"), "%s at line %u: args.color (no viewer colors by it)", what, r->line);
}

/* An event's name, pid, tid, time (its start) and args against the record. */
static void check_event(json_t *e, const struct rec *r, const char *what)
{
	CHECK(strcmp(str(e, "name"), r->message) == 0, "%s at line %u: name '%s', expected '%s'", what, r->line,
	      str(e, "name"), r->message);
	CHECK(num(e, "pid") == r->pid && num(e, "tid") == r->tid, "%s at line %u: pid/tid", what, r->line);
	CHECK(event_ns(e) == r->t0, "%s at line %u: %" PRId64 " ns, expected %" PRId64, what, r->line, event_ns(e),
	      r->t0);
	check_args(e, r, what);
}

/* Frees the records (so that LeakSanitizer stays quiet under make check-sanitize) and returns rc. */
static int done(int rc, json_t *doc)
{
	for (size_t i = 0; i < nrecs; i++) {
		free(recs[i].message);
		free(recs[i].name);
	}
	free(recs);
	json_decref(doc);
	return rc;
}

/* Where the walk of the export is in each kind of record, and what it counted. */
struct walk {
	json_t *events;
	size_t imarker, ise, iproc; /* the next record of each kind (next_of) */
	size_t nranges;             /* push/pop ranges seen in the export */
	size_t nmarker, nse;        /* records of each kind */
};

/* An instant event: the next marker. */
static void check_marker(struct walk *w, size_t i, json_t *e)
{
	struct rec *r = next_of(&w->imarker, NVTXT_CMD_MARKER);

	CHECK(r, "event %zu: an instant event more than the %zu markers", i, w->nmarker);
	if (!r)
		return;
	CHECK(!json_object_get(e, "s"), "marker at line %u: \"s\" (thread scope is the default)", r->line);
	check_event(e, r, "marker");
}

/* A push/pop range: X, or for one of length zero a B and an E with the same args. Returns the events it took. */
static size_t check_pushpop(struct walk *w, size_t i, json_t *e, const char *ph)
{
	json_t *args = json_object_get(e, "args");
	struct rec *p = push_at_line((uint32_t)num(args, "line"));
	json_t *end = strcmp(ph, "B") == 0 ? json_array_get(w->events, i + 1) : e;
	int64_t t_end;

	CHECK(p, "event %zu: a range whose args.line %" PRId64 " is no push's line", i, num(args, "line"));
	if (!p)
		return 1;
	CHECK(p->shown == SIZE_MAX, "push at line %u: its range is written twice", p->line);
	p->shown = i;
	w->nranges++;
	check_event(e, p, "push");
	CHECK(json_is_true(json_object_get(args, "unclosed")) == p->unclosed,
	      "push at line %u: args.unclosed %s", p->line, p->unclosed ? "missing" : "on a closed range");
	if (strcmp(ph, "B") == 0) {
		CHECK(end && strcmp(str(end, "ph"), "E") == 0 && strcmp(str(end, "name"), str(e, "name")) == 0 &&
		      json_equal(json_object_get(end, "args"), args),
		      "push at line %u: B not followed by an E with the same name and args", p->line);
		CHECK(p->t1 <= p->t0, "push at line %u: B/E for a range longer than zero (X expected)", p->line);
		t_end = end ? event_ns(end) : INT64_MIN;
	} else {
		CHECK(p->t1 > p->t0, "push at line %u: X for a range of length zero (B/E expected)", p->line);
		t_end = end_ns(e);
	}
	CHECK(t_end == p->t1, "%s at line %u: ends at %" PRId64 " ns, expected %" PRId64,
	      p->unclosed ? "unclosed push" : "pop", p->unclosed ? p->line : p->pop_line, t_end, p->t1);
	return strcmp(ph, "B") == 0 ? 2 : 1;
}

/* A start/end range: b and e, or for one of length zero an async instant n. Returns the events it took. */
static size_t check_startend(struct walk *w, size_t i, json_t *e, const char *ph)
{
	bool instant = strcmp(ph, "n") == 0;
	json_t *end = instant ? e : json_array_get(w->events, i + 1);
	struct rec *r = next_of(&w->ise, NVTXT_CMD_RANGE_START_END);

	CHECK(r, "event %zu: a %s event more than the %zu start/end ranges", i, ph, w->nse);
	if (!r)
		return 1;
	CHECK(strcmp(str(e, "name"), r->message) == 0, "start/end at line %u: name", r->line);
	CHECK(event_ns(e) == r->t0, "start/end at line %u: start %" PRId64 " ns, expected %" PRId64,
	      r->line, event_ns(e), r->t0);
	check_args(e, r, "start/end");
	CHECK(!instant || r->t1 == r->t0, "start/end at line %u: n for a range longer than zero (b/e expected)",
	      r->line);
	CHECK(instant || r->t1 != r->t0, "start/end at line %u: b/e for a range of length zero (n expected)",
	      r->line);
	CHECK(instant || (end && strcmp(str(end, "ph"), "e") == 0 && num(end, "id") == num(e, "id") &&
	      strcmp(str(end, "name"), r->message) == 0 && strcmp(str(end, "cat"), str(e, "cat")) == 0),
	      "start/end at line %u: no matching e event after the b event", r->line);
	CHECK(instant || !end || !json_object_get(end, "args"),
	      "start/end at line %u: args on the e event (the b has them)", r->line);
	if (end)
		CHECK(event_ns(end) == r->t1, "start/end at line %u: end %" PRId64 " ns, expected %" PRId64,
		      r->line, event_ns(end), r->t1);
	/* ids are unique */
	for (size_t k = 0; k < i; k++) {
		json_t *o = json_array_get(w->events, k);
		if ((strcmp(str(o, "ph"), "b") == 0 || strcmp(str(o, "ph"), "n") == 0) && num(o, "id") == num(e, "id"))
			CHECK(0, "start/end at line %u: id %" PRId64 " used twice", r->line, num(e, "id"));
	}
	return instant ? 1 : 2;
}

/* A metadata event: a process's name from the next NameProcess, a thread's from some NameOsThread. */
static void check_metadata(struct walk *w, size_t i, json_t *e)
{
	const char *what = str(e, "name");
	const char *name = str(json_object_get(e, "args"), "name");

	if (strcmp(what, "process_name") == 0) {
		struct rec *r = next_of(&w->iproc, NVTXT_CMD_NAME_PROCESS);
		CHECK(r && r->pid == num(e, "pid") && strcmp(r->name, name) == 0,
		      "process_name '%s' of pid %" PRId64 " matches no NameProcess", name, num(e, "pid"));
	} else if (strcmp(what, "thread_name") == 0) {
		int found = 0;
		for (size_t k = 0; k < nrecs; k++)
			found |= recs[k].cmd == NVTXT_CMD_NAME_OS_THREAD && recs[k].tid == num(e, "tid") &&
				 recs[k].pid == num(e, "pid") && strcmp(recs[k].name, name) == 0;
		CHECK(found, "thread_name '%s' of tid %" PRId64 " matches no NameOsThread", name, num(e, "tid"));
	} else {
		CHECK(0, "event %zu: unexpected metadata '%s'", i, what);
	}
}

/* Every event of the export against the records, in order; then what the export lacks. */
static void check_events(struct walk *w)
{
	for (size_t i = 0; i < json_array_size(w->events);) {
		json_t *e = json_array_get(w->events, i);
		const char *ph = str(e, "ph");

		if (strcmp(ph, "i") == 0) {
			check_marker(w, i, e);
			i++;
		} else if (strcmp(ph, "X") == 0 || strcmp(ph, "B") == 0) {
			i += check_pushpop(w, i, e, ph);
		} else if (strcmp(ph, "b") == 0 || strcmp(ph, "n") == 0) {
			i += check_startend(w, i, e, ph);
		} else if (strcmp(ph, "M") == 0) {
			check_metadata(w, i, e);
			i++;
		} else {
			CHECK(0, "event %zu: unexpected phase '%s'", i, ph);
			i++;
		}
	}
	CHECK(w->imarker >= nrecs || !next_of(&w->imarker, NVTXT_CMD_MARKER), "markers missing from the export");
	/* a range that starts with its parent comes after it (speedscope keeps their order) */
	for (size_t i = 0; i < nrecs; i++) {
		const struct rec *r = &recs[i], *p = r->parent == SIZE_MAX ? NULL : &recs[r->parent];
		if (r->cmd == NVTXT_CMD_RANGE_PUSH && p && p->t0 == r->t0 && r->t1 > r->t0 && p->t1 > p->t0)
			CHECK(p->shown < r->shown, "push at line %u: its range comes before its parent's (line %u), "
			      "which starts at the same time", r->line, p->line);
	}
	CHECK(w->ise >= nrecs || !next_of(&w->ise, NVTXT_CMD_RANGE_START_END),
	      "start/end ranges missing from the export");
	CHECK(w->iproc >= nrecs || !next_of(&w->iproc, NVTXT_CMD_NAME_PROCESS), "process names missing from the export");
}

/* The records of path (it must compile clean), with the conversions of argv[3...]: 0, or 2 (said). */
static int read_records(const char *path, int argc, char **argv)
{
	struct nvtxt_backend be = { .event = record };
	struct nvtxt_diag_config cfg;
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_compile_result res;
	int fd;

	nvtxt_tconv_init(&tc);
	for (int a = 3; a < argc; a++) {
		char err[256];
		if (nvtxt_tconv_parse(&tc, argv[a], err, sizeof err) != 0) {
			fprintf(stderr, "chrome_check: %s\n", err);
			return 2;
		}
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	nvtxt_diag_config_init(&cfg);
	co.display_name = path;
	co.fd = fd;
	co.diag_config = &cfg;
	co.sink = (struct nvtxt_diag_sink){ NULL, quiet_report };
	co.backend = &be;
	if (nvtxt_compile(&co, &res) != 0) {
		fprintf(stderr, "chrome_check: %s does not compile clean\n", path);
		return 2;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct walk w = { 0 };
	size_t npush = 0, npop = 0, nproc = 0;
	json_error_t jerr;
	json_t *doc;

	if (argc < 3) {
		fputs("usage: chrome_check FILE.nvtxt EXPORT.json [CONVERSION]...\n", stderr);
		return 2;
	}
	if (read_records(argv[1], argc, argv) != 0)
		return done(2, NULL);
	doc = json_load_file(argv[2], 0, &jerr);
	if (!doc) {
		printf("chrome_check: %s:%d:%d: not JSON: %s\n", argv[2], jerr.line, jerr.column, jerr.text);
		return done(1, NULL);
	}
	w.events = json_object_get(doc, "traceEvents");
	CHECK(json_is_array(w.events), "no traceEvents array");
	CHECK(strcmp(str(doc, "displayTimeUnit"), "ns") == 0, "displayTimeUnit is not \"ns\"");
	origin = num(json_object_get(doc, "otherData"), "nvtxtc_time_origin_ns");
	if (failures)
		return done(1, doc);
	for (size_t i = 0; i < nrecs; i++) {
		w.nmarker += recs[i].cmd == NVTXT_CMD_MARKER;
		npush += recs[i].cmd == NVTXT_CMD_RANGE_PUSH;
		npop += recs[i].cmd == NVTXT_CMD_RANGE_POP;
		w.nse += recs[i].cmd == NVTXT_CMD_RANGE_START_END;
		nproc += recs[i].cmd == NVTXT_CMD_NAME_PROCESS;
	}
	pair_ranges();
	check_events(&w);
	CHECK(w.nranges == npush, "%zu push/pop ranges in the export, expected %zu", w.nranges, npush);
	if (failures)
		return done(1, doc);
	printf("ok: %zu markers, %zu pushes, %zu pops, %zu start/end ranges, %zu process names\n", w.nmarker, npush,
	       npop, w.nse, nproc);
	return done(0, doc);
}
