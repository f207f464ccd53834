/*
 * payload.c - unit tests of the payload back end and reader: a hand-built
 * event stream is written, read back and decompiled, and every field is
 * compared; truncated, corrupted and hostile images must be rejected
 * cleanly (run under ASan/UBSan or valgrind to see out-of-bounds reads).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/payload.h"
#include "payload_layout.h"
#include "tap.h"

/* ---- a backend that renders every field of every call as a line ---- */

struct rec {
	char **lines;
	size_t n, cap;
};

static void add_line(struct rec *r, const char *prefix, const struct nvtxt_event *ev)
{
	char buf[1024];

	snprintf(buf, sizeof buf,
		 "%s cmd=%d present=0x%x time=%" PRId64 " start=%" PRId64 " end=%" PRId64
		 " tb=%d pid=%" PRId64 " tid=%" PRId64 " cat=%u parent=%u color=0x%08X"
		 " payload=%" PRId64 " msg=[%.*s] name=[%.*s] ord=%" PRIu64 " push=%" PRId64,
		 prefix, (int)ev->command, ev->present, ev->time, ev->start, ev->end,
		 (int)ev->timebase, ev->process_id, ev->thread_id, ev->category_id,
		 ev->parent_category_id, ev->color, ev->payload, (int)ev->message.len,
		 ev->message.ptr ? ev->message.ptr : "", (int)ev->name.len,
		 ev->name.ptr ? ev->name.ptr : "", ev->ordinal,
		 ev->push ? (int64_t)ev->push->ordinal : -1);
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->lines = realloc(r->lines, r->cap * sizeof *r->lines);
	}
	r->lines[r->n++] = strdup(buf);
}

/* Only the arguments whose bit is present are meaningful: zero the rest. */
static struct nvtxt_event meaningful(const struct nvtxt_event *ev)
{
	struct nvtxt_event e = *ev;
	uint32_t p = ev->present;

#define KEEP(arg, field) if (!(p & NVTXT_BIT(NVTXT_ARG_##arg))) memset(&e.field, 0, sizeof e.field)
	KEEP(TIME, time);
	KEEP(START, start);
	KEEP(END, end);
	KEEP(TIMEBASE, timebase);
	KEEP(PROCESS_ID, process_id);
	KEEP(THREAD_ID, thread_id);
	KEEP(CATEGORY_ID, category_id);
	KEEP(PARENT_CATEGORY_ID, parent_category_id);
	KEEP(COLOR, color);
	KEEP(PAYLOAD, payload);
	KEEP(MESSAGE, message);
	KEEP(NAME, name);
#undef KEEP
	memset(&e.loc, 0, sizeof e.loc);
	return e;
}

static int rec_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_event e = meaningful(ev);
	add_line(user, "event", &e);
	return 0;
}

static int rec_unclosed(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_event e = meaningful(ev);
	add_line(user, "unclosed", &e);
	return 0;
}

/* A back end whose event fails once *user reaches 0. */
static int fail_after(void *user, const struct nvtxt_event *ev)
{
	int *left = user;

	(void)ev;
	if (--*left < 0) {
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

static int rec_finish(void *user)
{
	(void)user;
	return 0;
}

static void rec_free(struct rec *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->lines[i]);
	free(r->lines);
	memset(r, 0, sizeof *r);
}

/* ---- the hand-built source ---- */

#define B(x) NVTXT_BIT(NVTXT_ARG_##x)
#define TIMED (B(TIME) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID))
#define S(s) { s, sizeof s - 1 }

static struct nvtxt_event events[] = {
	{ .command = NVTXT_CMD_SET_FILE_DISPLAY_NAME, .present = B(NAME), .name = S("demo file") },
	{ .command = NVTXT_CMD_NAME_PROCESS, .present = B(PROCESS_ID) | B(NAME), .process_id = 7,
	  .name = S("proc") },
	{ .command = NVTXT_CMD_NAME_OS_THREAD, .present = B(PROCESS_ID) | B(THREAD_ID) | B(NAME),
	  .process_id = 7, .thread_id = 9, .name = S("main \"thread\"") },
	{ .command = NVTXT_CMD_NAME_CATEGORY, .present = B(CATEGORY_ID) | B(NAME),
	  .category_id = 1, .name = S("cat one") },
	{ .command = NVTXT_CMD_ADD_CHILD_CATEGORY, .present = B(PARENT_CATEGORY_ID) | B(CATEGORY_ID),
	  .parent_category_id = 1, .category_id = 4294967295u },
	/* 5 */
	{ .command = NVTXT_CMD_RANGE_PUSH, .present = TIMED | B(CATEGORY_ID) | B(COLOR) |
	  B(MESSAGE) | B(PAYLOAD), .time = 10, .timebase = NVTXT_TB_QPC, .process_id = 7,
	  .thread_id = 9, .category_id = 1, .color = 0xFF0000FF, .payload = INT64_MIN,
	  .message = S("outer") },
	{ .command = NVTXT_CMD_MARKER, .present = TIMED | B(MESSAGE), .time = 15,
	  .timebase = NVTXT_TB_QPC, .process_id = 7, .thread_id = 9, .message = S("") },
	{ .command = NVTXT_CMD_RANGE_PUSH, .present = TIMED, .time = 20, .timebase = NVTXT_TB_QPC,
	  .process_id = 7, .thread_id = 9 },
	{ .command = NVTXT_CMD_RANGE_POP, .present = TIMED, .time = 30, .timebase = NVTXT_TB_QPC,
	  .process_id = 7, .thread_id = 9 },
	{ .command = NVTXT_CMD_RANGE_START_END, .present = B(START) | B(END) | B(TIMEBASE) |
	  B(PROCESS_ID) | B(THREAD_ID) | B(COLOR) | B(PAYLOAD) | B(MESSAGE), .start = 5, .end = 40,
	  .timebase = NVTXT_TB_RDTSC, .process_id = INT64_C(1) << 40, .thread_id = 3,
	  .color = 0xFF00FF00, .payload = -5, .message = S("x'y") },
	/* 10 */
	{ .command = NVTXT_CMD_MARKER, .present = TIMED | B(PAYLOAD) | B(CATEGORY_ID), .time = -3,
	  .timebase = NVTXT_TB_RELATIVE, .process_id = 0, .thread_id = INT64_MAX, .payload = 0,
	  .category_id = 0 },
	{ .command = NVTXT_CMD_RANGE_POP, .present = TIMED, .time = 50, .timebase = NVTXT_TB_QPC,
	  .process_id = 7, .thread_id = 9 },
	{ .command = NVTXT_CMD_RANGE_PUSH, .present = TIMED | B(MESSAGE), .time = 60,
	  .timebase = NVTXT_TB_CLOCK_MONOTONIC_RAW, .process_id = 7, .thread_id = 10,
	  .message = S("unclosed \xc3\xbc") },
	{ .command = NVTXT_CMD_MARKER, .present = TIMED | B(COLOR), .time = 1,
	  .timebase = NVTXT_TB_CNTVCT, .process_id = 4294967295, .thread_id = 4294967296,
	  .color = 0 },
	{ .command = NVTXT_CMD_MARKER, .present = TIMED, .time = 2, .timebase = NVTXT_TB_FILETIME,
	  .process_id = 1, .thread_id = 1 },
	/* 15 */
	{ .command = NVTXT_CMD_RANGE_START_END, .present = B(START) | B(END) | B(TIMEBASE) |
	  B(PROCESS_ID) | B(THREAD_ID), .start = 7, .end = 7, .timebase = NVTXT_TB_MANUAL,
	  .process_id = 1, .thread_id = 1 },
	{ .command = NVTXT_CMD_RANGE_PUSH, .present = TIMED | B(CATEGORY_ID), .time = 70,
	  .timebase = NVTXT_TB_QPC, .process_id = 7, .thread_id = 9, .category_id = 3 },
	{ .command = NVTXT_CMD_SET_FILE_DISPLAY_NAME, .present = B(NAME), .name = S("last name") },
};
#define NEV (sizeof events / sizeof events[0])
/* Which push each pop closes; pushes still open at the end. */
static const int pop_of[NEV] = { [8] = 7, [11] = 5 };
static const int unclosed[] = { 12, 16 };

/*
 * Feeds the source to a backend as the front end would.  What the reader
 * gives back: every call at its ordinal, a RangePop without ev->push, and
 * no unclosed_push (a push is a record of its own).
 */
static int feed(const struct nvtxt_backend *be, struct rec *expect)
{
	for (size_t i = 0; i < NEV; i++) {
		events[i].ordinal = i;
		events[i].push = NULL;
		if (expect)
			rec_event(expect, &events[i]);
		events[i].push = events[i].command == NVTXT_CMD_RANGE_POP ? &events[pop_of[i]] : NULL;
		if (be->event(be->user, &events[i]))
			return -1;
	}
	for (size_t i = 0; i < sizeof unclosed / sizeof unclosed[0]; i++)
		if (be->unclosed_push(be->user, &events[unclosed[i]]))
			return -1;
	return be->finish(be->user);
}

/* What a writer wrote to the temporary file f, in memory (*size bytes); closes f.  NULL when unreadable. */
static unsigned char *read_back(FILE *f, size_t *size)
{
	long n = ftell(f);
	unsigned char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;

	rewind(f);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*size = buf ? (size_t)n : 0;
	return buf;
}

/* Writes the source to a payload image in memory. */
static unsigned char *write_image(size_t *size, struct rec *expect)
{
	FILE *f = tmpfile();
	struct nvtxt_payload_writer *w = nvtxt_payload_writer_new(f);
	struct nvtxt_backend be = nvtxt_payload_backend(w);

	if (feed(&be, expect))
		return NULL;
	nvtxt_payload_writer_free(w);
	return read_back(f, size);
}

/* A source that hands out at most 1 to 7 bytes a call, to exercise partial reads. */
struct trickle {
	const unsigned char *p;
	size_t n, off;
};

static ptrdiff_t trickle_read(void *user, void *buf, size_t n)
{
	struct trickle *t = user;
	size_t k = 1 + t->off % 7;

	if (k > n)
		k = n;
	if (k > t->n - t->off)
		k = t->n - t->off;
	memcpy(buf, t->p + t->off, k);
	t->off += k;
	return (ptrdiff_t)k;
}

/*
 * Opens a copy of exactly `size` bytes (so ASan sees any overrun) and
 * decompiles it; then reads it again, through a source of a few bytes at
 * a time, and dumps it: both must agree.  Returns 0, or -1 (message in err).
 */
static int try_open(const unsigned char *img, size_t size, char *err, size_t errlen,
		    struct rec *out)
{
	unsigned char *copy = malloc(size ? size : 1);
	struct nvtxt_payload_reader *r;
	struct trickle t = { copy, size, 0 };
	char err2[256];
	int rc, rc2;

	memcpy(copy, img, size);
	rc = nvtxt_payload_open(&r, copy, size, err, errlen);
	if (!rc) {
		struct rec tmp = { 0 };
		struct nvtxt_backend be = { out ? out : &tmp, rec_event, rec_unclosed, rec_finish };

		rc = nvtxt_payload_decompile(r, &be, err, errlen);
		rec_free(&tmp);
		nvtxt_payload_reader_free(r);
	}
	rc2 = nvtxt_payload_reader_new(&r, trickle_read, &t, err2, sizeof err2);
	if (!rc2) {
		FILE *null = fopen("/dev/null", "w");
		rc2 = nvtxt_payload_dump(r, null, err2, sizeof err2);
		fclose(null);
		nvtxt_payload_reader_free(r);
	}
	free(copy);
	if ((rc != 0) != (rc2 != 0)) {
		snprintf(err, errlen, "decompile and dump disagree: %d, %d (%.100s)", rc, rc2, err2);
		return -2;
	}
	return rc ? -1 : 0;
}

/* ---- a test-side walk of the sections, to aim corruptions ---- */

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* File offset of the body of the first section of `type`, or 0. */
static size_t find_section(const unsigned char *img, size_t size, unsigned type)
{
	for (size_t off = 64; off + 16 <= size;) {
		uint64_t len = get64(img + off + 8);
		if (img[off] == type)
			return off + 16;
		off += 16 + len + (-len & 7);
	}
	return 0;
}

/* Expects a rejection of the image with `field` (at body + at) set to v. */
static void hostile(const unsigned char *img, size_t size, size_t at, uint64_t v,
		    const char *what)
{
	unsigned char *c = malloc(size);
	char err[256];

	memcpy(c, img, size);
	put64(c + at, v);
	err[0] = 0;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && err[0], "rejects %s: %s", what, err);
	free(c);
}

/* Round trip: the calls, and the display name once read. */
static void test_round_trip(const unsigned char *img, size_t size, const struct rec *expect)
{
	struct rec got = { 0 };
	char err[256];

	err[0] = 0;
	tap_is_int(try_open(img, size, err, sizeof err, &got), 0, "reads back: %s", err);
	tap_is_int(got.n, expect->n, "same number of calls");
	for (size_t i = 0; i < expect->n && i < got.n; i++)
		tap_is_str(got.lines[i], expect->lines[i], "call %zu round-trips", i);

	{
		struct nvtxt_payload_reader *r;
		unsigned char *copy = malloc(size);
		memcpy(copy, img, size);
		if (!nvtxt_payload_open(&r, copy, size, err, sizeof err)) {
			struct nvtxt_backend be = { NULL, rec_event, rec_unclosed, rec_finish };
			struct rec tmp = { 0 };
			be.user = &tmp;
			tap_ok(nvtxt_payload_display_name(r) == NULL, "no display name before reading");
			nvtxt_payload_decompile(r, &be, err, sizeof err);
			tap_is_str(nvtxt_payload_display_name(r), "last name",
				   "display name is the last SetFileDisplayName");
			rec_free(&tmp);
			nvtxt_payload_reader_free(r);
		}
		free(copy);
	}
	rec_free(&got);
}

/* Every prefix is rejected, as is, and with the size field patched. */
static void test_prefixes(const unsigned char *img, size_t size)
{
	size_t crashed = 0;
	char err[256];

	for (size_t n = 0; n < size; n++) {
		unsigned char *c = malloc(size);
		memcpy(c, img, size);
		if (try_open(c, n, err, sizeof err, NULL) != -1)
			crashed++;
		if (n >= 64) {
			put64(c + 24, n);
			if (try_open(c, n, err, sizeof err, NULL) != -1)
				crashed++;
		}
		free(c);
	}
	tap_is_int(crashed, 0, "all %zu prefixes are rejected (plain and with a patched size)", size);
}

/* Single-byte corruptions: rejected, or decoded without harm. */
static void test_corruptions(const unsigned char *img, size_t size)
{
	size_t crashed = 0, rejected = 0, accepted = 0;
	char err[256];

	for (size_t i = 0; i < size; i++) {
		static const unsigned char x[] = { 0x01, 0x80, 0xFF };
		for (size_t k = 0; k < sizeof x; k++) {
			unsigned char *c = malloc(size);
			memcpy(c, img, size);
			c[i] ^= x[k];
			int rc = try_open(c, size, err, sizeof err, NULL);
			if (rc == -2)
				crashed++;
			if (rc)
				rejected++;
			else
				accepted++;
			free(c);
		}
	}
	tap_is_int(crashed, 0, "decompile and dump agree on every corruption");
	tap_ok(rejected > 0, "single-byte corruptions: %zu rejected, %zu decoded (no crash)",
	       rejected, accepted);
}

/* Hostile counts and offsets in the header, a schema (at sched) and a batch (at batch). */
static void test_hostile_fields(const unsigned char *img, size_t size, size_t sched, size_t batch)
{
	hostile(img, size, sched + 40, UINT64_MAX / 64 + 1, "a schema entry count that overflows");
	hostile(img, size, sched + 32, UINT64_MAX - 7, "a schema entry offset of 2^64-8");
	hostile(img, size, sched + 8, UINT64_MAX, "a schema name offset of 2^64-1");
	hostile(img, size, sched + 64, 5, "a schema ID below the static range");
	hostile(img, size, sched + 48, 0, "a static size of 0");
	hostile(img, size, batch + 8, UINT64_MAX - 7, "a batch size of 2^64-8");
	hostile(img, size, batch + 16, UINT64_MAX - 63, "an events offset that wraps");
	hostile(img, size, batch + 40, UINT64_MAX, "a flexData offset of 2^64-1");
	hostile(img, size, batch + 48, UINT64_MAX, "a flexData size of 2^64-1");
	hostile(img, size, batch + 56, 8, "a flexDataOffset other than 0");
	hostile(img, size, batch, 12345, "a batch of an unknown schema");
	hostile(img, size, batch + 64, UINT64_MAX, "an ordinal of 2^64-1 in a record");
	hostile(img, size, 8, 0x0D0C0B0A, "a big-endian byte-order mark");
	hostile(img, size, 24, 0, "an unfinished file (size 0)");
	hostile(img, size, batch + 40, 8, "a flexData offset inside the batch header");
	hostile(img, size, 48, 0x0105, "another compat ID");
	hostile(img, size, batch + 24, 2, "a batch scope other than NONE");
	hostile(img, size, batch + 40, get64(img + batch + 40) + 8, "flexData not right after the events");
}

/* Hostile time domains, flexData and events offset. */
static void test_hostile_layout(const unsigned char *img, size_t size, size_t batch)
{
	size_t td = find_section(img, size, 1);
	unsigned char *c = malloc(size);
	char err[256];

	tap_ok(td != 0, "found the time domains");
	if (td) {
		hostile(img, size, td, 7, "a time domain's scope other than the page's");
		hostile(img, size, td + 24, 1, "a time domain's timer flags other than the page's");
		hostile(img, size, td + 32, 5, "a time domain's resolution other than the page's");
		hostile(img, size, td + 40, 9, "a time domain's timer start other than the page's");
	}
	if (batch) {
		/* the first byte of flexData */
		memcpy(c, img, size);
		c[batch + get64(img + batch + 40)] = 'x';
		err[0] = 0;
		tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && strstr(err, "NUL"),
		       "rejects flexData that does not start with NUL: %s", err);
	}
	memcpy(c, img, size);
	put64(c + batch + 16, 68);
	err[0] = 0;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 &&
	       strstr(err, "expected the events at offset 64, right after the batch header, found 68"),
	       "an events offset of 68 is rejected for what it is: %s", err);
	free(c);
}

/* One meaning, one encoding: what the writer never writes is rejected. */
static void test_one_encoding(const unsigned char *img, size_t size, size_t sched, size_t batch)
{
	char err[256];
	unsigned char *c = malloc(size);
	size_t at = batch + 64;

	memcpy(c, img, size);
	/* the first batch's flags: sorted as it is, so UNSORTED is wrong */
	put64(c + batch + 32, 6);
	err[0] = 0;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && strstr(err, "TIME_SORTED"),
	       "rejects UNSORTED on a sorted batch: %s", err);
	memcpy(c, img, size);
	/* a format 1.0 file, and a 2.1 one */
	c[12] = 1;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 &&
	       strstr(err, "offset 12: expected format version 2.0, found 1.0 (an older format"),
	       "rejects a 1.0 file, saying what to do: %s", err);
	c[12] = 2;
	c[14] = 1;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 &&
	       strstr(err, "found 2.1 (a newer format"), "rejects a 2.1 file: %s", err);
	memcpy(c, img, size);
	/* a schema numbered out of order */
	put64(c + sched + 64, get64(img + sched + 64) + 1);
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && strstr(err, "order they come"),
	       "rejects a schema ID out of order: %s", err);
	memcpy(c, img, size);
	/* a record's first ordinal that is not the lowest one missing */
	put64(c + at, 1);
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && strstr(err, "lowest"),
	       "rejects a batch that does not start at the lowest ordinal not read: %s", err);
	memcpy(c, img, size);
	/* the group flag taken off the last batch */
	c[find_section(img, size, 3) - 12] ^= 1;
	tap_ok(try_open(c, size, err, sizeof err, NULL) == -1 && strstr(err, "flush group"),
	       "rejects a group flag where the writer puts none: %s", err);
	free(c);
}

/* The writer checks the stream's contract. */
static void test_writer_contract(void)
{
	FILE *f = tmpfile();
	struct nvtxt_payload_writer *w = nvtxt_payload_writer_new(f);
	struct nvtxt_backend be = nvtxt_payload_backend(w);
	struct nvtxt_event ev = events[6];

	ev.ordinal = 3;
	errno = 0;
	tap_ok(be.event(be.user, &ev) == -1 && errno == EINVAL, "writer rejects an ordinal out of sequence");
	nvtxt_payload_writer_free(w);
	fclose(f);
}

/*
 * Many schemas in one flush group, their calls interleaved: the batches
 * read first are still in use when the later schemas arrive.
 */
static void test_many_schemas(void)
{
	char err[256];
	FILE *f = tmpfile();
	struct nvtxt_payload_writer *w = nvtxt_payload_writer_new(f);
	struct nvtxt_backend be = nvtxt_payload_backend(w);
	struct nvtxt_payload_reader *r;
	struct rec tmp = { 0 };
	struct nvtxt_backend rb = { &tmp, rec_event, rec_unclosed, rec_finish };
	static const enum nvtxt_command cmds[] = { NVTXT_CMD_MARKER, NVTXT_CMD_RANGE_START_END,
		NVTXT_CMD_RANGE_PUSH, NVTXT_CMD_RANGE_POP };
	uint64_t n = 0;
	unsigned char *buf;
	size_t len;
	int ok = 1;

	for (int round = 0; round < 3 && ok; round++)
		for (int wide = 0; wide < 2 && ok; wide++)
			for (int tb = 0; tb < NVTXT_TB_COUNT && ok; tb++)
				for (size_t c = 0; c < 4 && ok; c++) {
					struct nvtxt_event ev = { .command = cmds[c],
						.present = TIMED, .time = round, .start = round,
						.end = round + 1, .timebase = (enum nvtxt_timebase)tb,
						.process_id = wide ? INT64_C(1) << 33 : 1, .thread_id = 2,
						.ordinal = n++ };
					if (cmds[c] == NVTXT_CMD_RANGE_START_END)
						ev.present = B(START) | B(END) | B(TIMEBASE) |
							     B(PROCESS_ID) | B(THREAD_ID);
					ok = be.event(be.user, &ev) == 0;
				}
	ok = ok && be.finish(be.user) == 0;
	nvtxt_payload_writer_free(w);
	buf = read_back(f, &len);
	ok = ok && buf;
	tap_ok(ok, "writes %" PRIu64 " calls of 56 schemas", n);
	err[0] = 0;
	ok = nvtxt_payload_open(&r, buf, len, err, sizeof err) == 0 &&
	     nvtxt_payload_decompile(r, &rb, err, sizeof err) == 0;
	tap_ok(ok && tmp.n == n, "reads them back in order (%zu calls) %s", tmp.n, err);
	for (size_t i = 1; i < tmp.n; i++)
		if (!strstr(tmp.lines[i], "ord=") ||
		    strtoull(strstr(tmp.lines[i], "ord=") + 4, NULL, 10) != i) {
			tap_ok(0, "call %zu at its ordinal: %s", i, tmp.lines[i]);
			break;
		}
	rec_free(&tmp);
	nvtxt_payload_reader_free(r);
	free(buf);
}

/* A back end that fails stops a decompile, with its error. */
static void test_failing_backend(const unsigned char *img, size_t size)
{
	char err[256];
	struct nvtxt_payload_reader *r;
	struct nvtxt_backend be = { NULL, fail_after, rec_unclosed, rec_finish };
	int left = 3;

	be.user = &left;
	if (nvtxt_payload_open(&r, img, size, err, sizeof err) == 0) {
		tap_ok(nvtxt_payload_decompile(r, &be, err, sizeof err) == NVTXT_PAYLOAD_EIO &&
		       strstr(err, "write error"), "a failing back end: %s", err);
		nvtxt_payload_reader_free(r);
	}
}

/* A large stream is flushed in bounded batches and round-trips. */
static void test_large_stream(void)
{
	char err[256];
	FILE *f = tmpfile();
	struct nvtxt_payload_writer *w = nvtxt_payload_writer_new(f);
	struct nvtxt_backend be = nvtxt_payload_backend(w);
	struct nvtxt_event ev = events[6];
	struct nvtxt_payload_reader *r;
	const uint64_t n = 200000;
	unsigned char *buf;
	size_t len;
	int ok = 1;

	ev.message.ptr = "a message";
	ev.message.len = 9;
	for (uint64_t i = 0; i < n && ok; i++) {
		ev.ordinal = i;
		ev.time = (int64_t)(i * 3 % 1000);
		ok = be.event(be.user, &ev) == 0;
	}
	ok = ok && be.finish(be.user) == 0;
	nvtxt_payload_writer_free(w);
	buf = read_back(f, &len);
	ok = ok && buf;
	tap_ok(ok, "writes %" PRIu64 " markers (%zu bytes)", n, len);
	err[0] = 0;
	if (tap_ok(nvtxt_payload_open(&r, buf, len, err, sizeof err) == 0,
		   "reads them back %s", err)) {
		struct rec tmp = { 0 };
		struct nvtxt_backend rb = { &tmp, rec_event, rec_unclosed, rec_finish };
		int rc = nvtxt_payload_decompile(r, &rb, err, sizeof err);
		tap_ok(rc == 0 && tmp.n == n, "decompiles %zu calls %s", tmp.n, err);
		rec_free(&tmp);
		nvtxt_payload_reader_free(r);
	}
	if (nvtxt_payload_open(&r, buf, len, err, sizeof err) == 0) {
		char *text = NULL;
		size_t tlen = 0, nb = 0;
		FILE *m = open_memstream(&text, &tlen);
		tap_ok(nvtxt_payload_dump(r, m, err, sizeof err) == 0, "dumps them %s", err);
		fclose(m);
		for (const char *p = text; (p = strstr(p, "\nbatch at ")); p++)
			nb++;
		tap_ok(nb == (n + 16383) / 16384, "%zu batches of at most 16384 events", nb);
		free(text);
		nvtxt_payload_reader_free(r);
	}
	free(buf);
}

int main(void)
{
	struct rec expect = { 0 };
	size_t size = 0, sched, batch;
	unsigned char *img = write_image(&size, &expect);

	tap_ok(img != NULL, "writer accepts the hand-built stream (%zu bytes)", size);
	if (!img)
		return tap_done();
	tap_ok(nvtxt_payload_sniff(img, size), "sniff sees the magic");
	tap_ok(!nvtxt_payload_sniff("Marker, 1", 9), "sniff rejects NVTXT text");
	tap_is_int(size % 8, 0, "file size is a multiple of 8");
	test_round_trip(img, size, &expect);
	test_prefixes(img, size);
	test_corruptions(img, size);
	hostile(img, size, 32, UINT64_MAX, "an ordinal count of 2^64-1");
	hostile(img, size, 40, UINT64_MAX, "a section count of 2^64-1");
	hostile(img, size, 64 + 8, UINT64_MAX, "a section length of 2^64-1");
	hostile(img, size, 64 + 8, size, "a section length past the end");
	hostile(img, size, 64 + 8, UINT64_MAX - 15, "a section length that wraps");
	sched = find_section(img, size, 2);
	batch = find_section(img, size, 3);
	tap_ok(sched && batch && sched < batch, "found a schema and, after it, a batch section");
	test_hostile_fields(img, size, sched, batch);
	test_hostile_layout(img, size, batch);
	test_one_encoding(img, size, sched, batch);
	test_writer_contract();
	test_many_schemas();
	test_failing_backend(img, size);
	test_large_stream();
	rec_free(&expect);
	free(img);
	return tap_done();
}
