/*
 * emit_nvtxt.c - unit test of the normal form printer (src/backends/emit_nvtxt.c)
 * against a plain reference written from nvtxt(5), CANONICAL FORM, with
 * fprintf: random events of every command (any arguments absent, integers
 * at every number of digits, both signs and the extremes, strings with
 * either quote, empty, and longer than the printer's stack buffer) on the
 * kinds of stream the printer treats differently: fully buffered (lines
 * formatted in the stream's buffer, which is written out when too full),
 * line-buffered and unbuffered (lines through fwrite), and a memory stream.
 * Run under ASan/UBSan or valgrind to see writes past a buffer.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/emit_nvtxt.h"
#include "tap.h"

/* ---- the reference ---- */

static void ref_string(FILE *f, struct nvtxt_str s)
{
	char q = s.len && memchr(s.ptr, '"', s.len) ? '\'' : '"';

	fprintf(f, "%c%.*s%c", q, (int)s.len, s.ptr, q);
}

static void ref_line(FILE *f, const struct nvtxt_event *ev)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(ev->command, args);

	fputs(nvtxt_command_name(ev->command), f);
	for (size_t i = 0; i < n; i++) {
		fputc(',', f);
		if (!(ev->present & NVTXT_BIT(args[i])))
			continue;
		fputc(' ', f);
		switch (args[i]) {
		case NVTXT_ARG_TIME: fprintf(f, "%" PRId64, ev->time); break;
		case NVTXT_ARG_START: fprintf(f, "%" PRId64, ev->start); break;
		case NVTXT_ARG_END: fprintf(f, "%" PRId64, ev->end); break;
		case NVTXT_ARG_TIMEBASE: fprintf(f, "\"%s\"", nvtxt_timebase_name(ev->timebase)); break;
		case NVTXT_ARG_PROCESS_ID: fprintf(f, "%" PRId64, ev->process_id); break;
		case NVTXT_ARG_THREAD_ID: fprintf(f, "%" PRId64, ev->thread_id); break;
		case NVTXT_ARG_CATEGORY_ID: fprintf(f, "%" PRIu32, ev->category_id); break;
		case NVTXT_ARG_PARENT_CATEGORY_ID: fprintf(f, "%" PRIu32, ev->parent_category_id); break;
		case NVTXT_ARG_COLOR: fprintf(f, "0x%08" PRIX32, ev->color); break;
		case NVTXT_ARG_MESSAGE: ref_string(f, ev->message); break;
		case NVTXT_ARG_NAME: ref_string(f, ev->name); break;
		case NVTXT_ARG_PAYLOAD: fprintf(f, "%" PRId64, ev->payload); break;
		case NVTXT_ARG_COUNT: break;
		}
	}
	fputc('\n', f);
}

/* ---- random events ---- */

/* An integer of a random number of digits, often at a power of ten. */
static uint64_t any_u64(void)
{
	static const uint64_t edges[] = { 0, 1, 9, 10, 99, 100, UINT32_MAX, INT64_MAX,
					  (uint64_t)INT64_MAX + 1, UINT64_MAX };
	unsigned digits = (unsigned)(tap_rand() % 21);
	uint64_t p = 1;

	switch (tap_rand() % 4) {
	case 0:
		return edges[tap_rand() % (sizeof edges / sizeof edges[0])];
	case 1:
		for (unsigned i = 1; i < digits && i < 20; i++)
			p *= 10;
		return p - (tap_rand() % 2); /* 10^k or 10^k - 1 */
	default:
		for (unsigned i = 0; i < digits && i < 19; i++)
			p *= 10;
		return tap_rand() % p;
	}
}

static int64_t any_i64(void)
{
	uint64_t v = any_u64();
	return (int64_t)(tap_rand() % 3 ? v >> (tap_rand() % 2) : 0 - v);
}

static char big[3000];

/*
 * A string of 0 to 70 bytes, with a '"' at any place or none, in a block
 * of its own size (so that AddressSanitizer and valgrind see a read
 * outside it: the printer copies short strings a word at a time).  The
 * last few stay allocated, as an event holds two and the reference
 * prints them after the printer.
 */
static struct nvtxt_str any_sized_string(void)
{
	static char *ring[8];
	static unsigned at;
	size_t n = (size_t)(tap_rand() % 71);
	char *s = malloc(n ? n : 1);

	for (size_t i = 0; i < n; i++)
		s[i] = (char)('a' + tap_rand() % 26);
	if (n && tap_rand() % 3 == 0)
		s[tap_rand() % n] = '"';
	at = (at + 1) % 8;
	free(ring[at]);
	ring[at] = s;
	return (struct nvtxt_str){ s, n };
}

static struct nvtxt_str any_string(void)
{
	static const char *const pool[] = {
		"", "a", "hello", "it's", "say \"hi\"", "both ' and \"?", "x,y", "UTF-8 \xc3\xa9\xe2\x82\xac",
		"exactly 8", "sixteen bytes!!!", "#1 $HOME \\n",
	};
	if (tap_rand() % 40 == 0) {
		size_t n = (size_t)(tap_rand() % sizeof big);
		return (struct nvtxt_str){ big, n };
	}
	if (tap_rand() % 2)
		return any_sized_string();
	const char *s = pool[tap_rand() % (sizeof pool / sizeof pool[0])];
	return (struct nvtxt_str){ s, strlen(s) };
}

static struct nvtxt_event any_event(void)
{
	struct nvtxt_event ev;

	memset(&ev, 0, sizeof ev);
	ev.command = (enum nvtxt_command)(tap_rand() % NVTXT_CMD_COUNT);
	/* Mostly every argument given, sometimes any subset. */
	ev.present = tap_rand() % 4 ? 0xFFFu & (uint32_t)~(tap_rand() & tap_rand()) : (uint32_t)tap_rand() & 0xFFFu;
	ev.time = any_i64();
	ev.start = any_i64();
	ev.end = any_i64();
	ev.timebase = (enum nvtxt_timebase)(tap_rand() % NVTXT_TB_COUNT);
	/*
	 * IDs repeat, as in a trace, and change: the printer keeps the text
	 * from TimeBase to Color of recent lines, so lines alike but for one
	 * of those values (or its presence, or the command) are frequent.
	 */
	ev.process_id = tap_rand() % 3 ? 41237 : any_i64();
	ev.thread_id = tap_rand() % 2 ? (int64_t)(tap_rand() % 4) : any_i64();
	ev.category_id = tap_rand() % 2 ? (uint32_t)(tap_rand() % 3) : (uint32_t)any_u64();
	ev.parent_category_id = (uint32_t)any_u64();
	ev.color = tap_rand() % 2 ? 0xFF0000FFu - (uint32_t)(tap_rand() % 2) : (uint32_t)tap_rand();
	ev.payload = any_i64();
	ev.message = any_string();
	ev.name = any_string();
	return ev;
}

/* ---- the streams ---- */

static char *slurp(FILE *f, size_t *len)
{
	long n;
	char *buf;

	fflush(f);
	n = ftell(f);
	buf = malloc((size_t)n + 1);
	rewind(f);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = 0;
	return buf;
}

/* Prints `count` events with the back end on a stream set up by `mode`, and compares. */
static void compare(const char *what, int mode, size_t bufsize, int count, uint64_t seed)
{
	FILE *got = tmpfile(), *want = tmpfile(), *mem = NULL;
	struct nvtxt_backend be;
	struct nvtxt_emit_nvtxt *w;
	char *memtext = NULL, *a, *b;
	size_t memlen = 0, alen, blen;
	int ok = 1;

	if (mode == 3) {
		mem = open_memstream(&memtext, &memlen);
		w = nvtxt_emit_nvtxt_new(mem);
	} else {
		if (mode != 0)
			setvbuf(got, NULL, mode == 1 ? _IOLBF : _IONBF, 0);
		else if (bufsize)
			setvbuf(got, NULL, _IOFBF, bufsize);
		w = nvtxt_emit_nvtxt_new(got);
	}
	if (!w)
		abort();
	be = nvtxt_emit_nvtxt_backend(w);
	tap_rng = seed;
	for (int i = 0; i < count && ok; i++) {
		struct nvtxt_event ev = any_event();
		ok = be.event(be.user, &ev) == 0;
		ref_line(want, &ev);
	}
	ok = ok && be.finish(be.user) == 0;
	nvtxt_emit_nvtxt_free(w);
	tap_ok(ok, "%s: %d events written", what, count);
	if (mem) {
		fclose(mem);
		a = memtext;
		alen = memlen;
	} else {
		a = slurp(got, &alen);
	}
	b = slurp(want, &blen);
	if (!tap_ok(alen == blen && memcmp(a, b, alen) == 0, "%s: same bytes as the reference (%zu)",
		    what, blen)) {
		size_t i = 0, line = 1;
		while (i < alen && i < blen && a[i] == b[i])
			line += a[i++] == '\n';
		printf("#   first difference at byte %zu, line %zu\n", i, line);
	}
	free(a);
	free(b);
	fclose(got);
	fclose(want);
}

int main(void)
{
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (char)('a' + i % 26);
	big[1500] = '"';

	compare("fully buffered", 0, 0, 20000, 1);
	compare("fully buffered, 300-byte buffer", 0, 300, 20000, 2);
	compare("line-buffered", 1, 0, 5000, 3);
	compare("unbuffered", 2, 0, 5000, 4);
	compare("memory stream", 3, 0, 20000, 5);

	/* The normal form of a Marker, spelt out. */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		struct nvtxt_event ev = {
			.command = NVTXT_CMD_MARKER, .time = 5123488127, .timebase = NVTXT_TB_CLOCK_MONOTONIC_RAW,
			.process_id = 41237, .thread_id = 3, .category_id = 1, .color = 0xFF0000FF,
			.message = { "surface_flux (f64)", 18 },
		};
		ev.present = NVTXT_BIT(NVTXT_ARG_TIME) | NVTXT_BIT(NVTXT_ARG_TIMEBASE) |
			     NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID) |
			     NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) | NVTXT_BIT(NVTXT_ARG_COLOR) |
			     NVTXT_BIT(NVTXT_ARG_MESSAGE);
		tap_ok(nvtxt_emit_nvtxt_event(f, &ev) == 0, "nvtxt_emit_nvtxt_event prints a Marker");
		fclose(f);
		tap_is_str(text, "Marker, 5123488127, \"ClockMonotonicRaw\", 41237, 3, 1, 0xFF0000FF, "
			   "\"surface_flux (f64)\",\n", "the Marker's normal form");
		free(text);
	}

	/* Out-of-range values are refused, not printed. */
	{
		FILE *f = tmpfile();
		struct nvtxt_event ev = { .command = NVTXT_CMD_COUNT };

		errno = 0;
		tap_ok(nvtxt_emit_nvtxt_event(f, &ev) == -1 && errno == EINVAL, "a command out of range: EINVAL");
		ev.command = NVTXT_CMD_MARKER;
		ev.present = NVTXT_BIT(NVTXT_ARG_TIMEBASE);
		ev.timebase = NVTXT_TB_COUNT;
		errno = 0;
		tap_ok(nvtxt_emit_nvtxt_event(f, &ev) == -1 && errno == EINVAL, "a TimeBase out of range: EINVAL");
		fclose(f);
	}

	/* A write error is reported, by an event or at the latest by finish. */
	{
		FILE *f = fopen("/dev/full", "w");

		if (f) {
			struct nvtxt_emit_nvtxt *w = nvtxt_emit_nvtxt_new(f);
			struct nvtxt_backend be = nvtxt_emit_nvtxt_backend(w);
			int failed = 0;

			tap_rng = 6;
			for (int i = 0; i < 2000 && !failed; i++) {
				struct nvtxt_event ev = any_event();
				failed = be.event(be.user, &ev) != 0;
			}
			failed = failed || be.finish(be.user) != 0;
			tap_ok(failed && errno == ENOSPC, "writing to /dev/full fails with ENOSPC");
			nvtxt_emit_nvtxt_free(w);
			fclose(f);
		} else {
			tap_ok(1, "# SKIP no /dev/full");
		}
	}
	return tap_done();
}
