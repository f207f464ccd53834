/*
 * trace_string.c - unit test of the Trace Event writer's fast paths
 * (src/backends/trace_string.h, trace_writer.c): the scanners that find
 * the first byte needing care several bytes a step, the copy of a short
 * string that needs none, and the writer's events byte for byte.
 *
 *   - trace_plain_swar and trace_plain_sse2 (where built) against the
 *     byte-by-byte trace_plain_bytes: every length 0..80 at every
 *     alignment 0..15, all plain, then each byte that is not plain (and
 *     the plain ones next to them: ' ', '!', '#', '[', ']', '~', DEL) at
 *     every position, one and two of them; then random bytes;
 *   - trace_copy_if_plain: the bytes copied exactly, nothing stored
 *     outside them, 0 and nothing written for a string with such a byte;
 *   - the writer: a name, a category and a metadata name with each
 *     special sequence (controls, quote, backslash, DEL, U+2028/2029, a
 *     cut sequence, an overlong form, a surrogate, C0, FF, a 2-, 3- and
 *     4-byte character) at every position 0..40 of strings of 0..70
 *     bytes, around 16 and 32 and the writer's short-string limit, and
 *     strings longer than its buffer: each string in the document as
 *     nvtxt_trace_json_string writes it (the reference of the fuzz
 *     target) and each event's line as this file formats it with
 *     snprintf (times, ids, pids, tids, args; far times with args.ns);
 *     many threads in turn (the writer's slots of pid/tid text).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "trace_string.h"
#include "trace_writer.h"

/* --- the scanners ---------------------------------------------------------- */

static long scans, scan_failures;

/* Every scanner on s (n bytes) gives trace_plain_bytes's answer, and that is `want`. */
static void check_scan(const unsigned char *s, size_t n, size_t want)
{
	size_t got[4], k = 0;

	scans++;
	got[k++] = trace_plain_bytes(s, n);
#ifdef TRACE_HAVE_SWAR
	got[k++] = trace_plain_swar(s, n);
#endif
#if defined(TRACE_HAVE_SSE2) && defined(TRACE_HAVE_SWAR)
	got[k++] = trace_plain_sse2(s, n);
#endif
	got[k++] = trace_plain_run(s, n);
	for (size_t i = 0; i < k; i++) {
		if (got[i] != want) {
			if (scan_failures++ < 10)
				printf("# scanner %zu: %zu bytes, first not plain at %zu, found %zu\n", i, n, want,
				       got[i]);
			return;
		}
	}
}

static const unsigned char special[] = { 0x00, 0x01, 0x08, 0x0A, 0x1F, '"', '\\', 0x80, 0xBF, 0xC0,
					 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFE, 0xFF };
static const unsigned char plain_edge[] = { ' ', '!', '#', '[', ']', '~', 0x7F };

/* A plain byte, mostly letters, sometimes one next to a special one. */
static unsigned char plain_byte(void)
{
	uint64_t r = tap_rand();

	return (r & 7) == 0 ? plain_edge[(r >> 3) % sizeof plain_edge] : (unsigned char)('a' + (r >> 3) % 26);
}

static void test_scanners(void)
{
	/* room for an alignment of 0..15, 80 bytes, and a guard */
	static unsigned char buf[16 + 80 + 16];

	for (size_t align = 0; align < 16; align++) {
		unsigned char *s = buf + align;
		for (size_t n = 0; n <= 80; n++) {
			for (size_t i = 0; i < n; i++)
				s[i] = plain_byte();
			s[n] = 0; /* a special byte just past the end must not be seen */
			check_scan(s, n, n);
			for (size_t at = 0; at < n; at++) {
				unsigned char keep = s[at];
				for (size_t k = 0; k < sizeof special; k++) {
					s[at] = special[k];
					check_scan(s, n, at);
					if (at + 1 < n) { /* a second one after it changes nothing */
						unsigned char keep2 = s[n - 1];
						s[n - 1] = special[(k + 3) % sizeof special];
						check_scan(s, n, at);
						s[n - 1] = keep2;
					}
				}
				s[at] = keep;
			}
		}
	}
	tap_ok(scan_failures == 0, "the scanners: lengths 0..80, alignments 0..15, a special byte anywhere (%ld)",
	       scans);

	scan_failures = 0;
	for (int round = 0; round < 200000; round++) {
		size_t n = tap_rand() % 80, align = tap_rand() % 16;
		unsigned char *s = buf + align;
		for (size_t i = 0; i < n; i++) {
			uint64_t r = tap_rand();
			s[i] = (r & 15) == 0 ? (unsigned char)(r >> 8) : plain_byte();
		}
		check_scan(s, n, trace_plain_bytes(s, n));
	}
	tap_ok(scan_failures == 0, "the scanners on random bytes agree with the byte-by-byte one");
}

static void test_copy_if_plain(void)
{
	unsigned char src[16 + 40];
	char dst[16 + 40 + 16];
	long bad = 0;

	for (size_t align = 0; align < 16; align++) {
		for (size_t n = 0; n <= 40; n++) {
			unsigned char *s = src + align;
			for (size_t i = 0; i < n; i++)
				s[i] = plain_byte();
			for (size_t at = 0; at <= n; at++) { /* at == n: all plain */
				unsigned char keep = at < n ? s[at] : 0;
				int got, want = at == n;
				if (at < n)
					s[at] = special[(at + n) % sizeof special];
				memset(dst, '#', sizeof dst);
				got = trace_copy_if_plain(dst + 8, s, n);
				if (got != (n <= 32 ? want : 0) || (got && memcmp(dst + 8, s, n) != 0))
					bad++;
				for (size_t i = 0; i < sizeof dst; i++)
					if ((i < 8 || i >= 8 + n || !got) && dst[i] != '#')
						bad++;
				if (at < n)
					s[at] = keep;
			}
		}
	}
	tap_is_int(bad, 0, "trace_copy_if_plain: copies exactly the string when all plain and at most 32 bytes");
}

/* --- the writer ------------------------------------------------------------ */

static char *doc;
static size_t doc_len;

/* Writes the events into memory with origin 0; the document in doc. */
static void write_doc(const struct nvtxt_trace_event *ev, size_t n)
{
	FILE *mem = open_memstream(&doc, &doc_len);
	struct nvtxt_trace_writer *w;

	if (!mem)
		abort();
	w = nvtxt_trace_writer_new(mem);
	nvtxt_trace_writer_set_origin(w, 0);
	for (size_t i = 0; i < n; i++)
		if (nvtxt_trace_writer_event(w, &ev[i]) != 0)
			abort();
	if (nvtxt_trace_writer_end(w, NULL) != 0)
		abort();
	nvtxt_trace_writer_free(w);
	fclose(mem);
}

/* Appends to *p the JSON string of s by nvtxt_trace_json_string. */
static void ref_string(char **p, struct nvtxt_str s)
{
	*p += nvtxt_trace_json_string(*p, s.ptr ? s.ptr : "", s.len);
}

/* The microseconds of off nanoseconds as the writer documents them: "-"?, whole, ".", 1 to 3 digits. */
static void ref_us(char **p, __int128 off)
{
	unsigned __int128 mag = off < 0 ? -(unsigned __int128)off : (unsigned __int128)off;
	char frac[8];
	int len;

	len = snprintf(frac, sizeof frac, "%03u", (unsigned)(mag % 1000));
	while (len > 1 && frac[len - 1] == '0')
		frac[--len] = '\0';
	*p += sprintf(*p, "%s%" PRIu64 ".%s", off < 0 ? "-" : "", (uint64_t)(mag / 1000), frac);
}

/* The event's line, {...}, as trace_writer.h describes it (origin 0); NUL-terminated. */
static void ref_event(char *p, const struct nvtxt_trace_event *ev)
{
	const __int128 exact = 1000000000000000; /* 10^15 */
	bool far = ev->ts_ns <= -exact || ev->ts_ns >= exact, end_far = false, any = false;

	p += sprintf(p, "{\"name\":");
	ref_string(&p, ev->name);
	if (ev->cat.ptr) {
		p += sprintf(p, ",\"cat\":");
		ref_string(&p, ev->cat);
	}
	p += sprintf(p, ",\"ph\":\"%c\"", ev->ph);
	if (ev->ph == 'M') {
		p += sprintf(p, ",\"pid\":%" PRId64, ev->pid);
		if (ev->tid >= 0)
			p += sprintf(p, ",\"tid\":%" PRId64, ev->tid);
		p += sprintf(p, ",\"args\":{\"name\":");
		ref_string(&p, ev->arg_name);
		sprintf(p, "}}");
		return;
	}
	if (ev->ph == 'b' || ev->ph == 'e' || ev->ph == 'n')
		p += sprintf(p, ",\"id\":%" PRIu64, ev->id);
	p += sprintf(p, ",\"ts\":");
	ref_us(&p, ev->ts_ns);
	if (ev->ph == 'X') {
		p += sprintf(p, ",\"dur\":");
		ref_us(&p, ev->dur_ns);
		end_far = ev->dur_ns >= exact || (__int128)ev->ts_ns + ev->dur_ns >= exact;
	}
	p += sprintf(p, ",\"pid\":%" PRId64, ev->pid);
	if (ev->tid >= 0)
		p += sprintf(p, ",\"tid\":%" PRId64, ev->tid);
#define MEMBER(...) (p += sprintf(p, any ? "," : ",\"args\":{"), any = true, p += sprintf(p, __VA_ARGS__))
	if (ev->args & NVTXT_TRACE_ARG_PAYLOAD)
		MEMBER("\"payload\":%" PRId64, ev->payload);
	if (ev->args & NVTXT_TRACE_ARG_LINE)
		MEMBER("\"line\":%" PRIu32, ev->line);
	if (ev->args & NVTXT_TRACE_ARG_UNCLOSED)
		MEMBER("\"unclosed\":true");
	if (far || end_far)
		MEMBER("\"ns\":%" PRId64, ev->ts_ns);
	if (end_far)
		MEMBER("\"end_ns\":%" PRId64, (int64_t)((uint64_t)ev->ts_ns + (uint64_t)ev->dur_ns));
#undef MEMBER
	sprintf(p, any ? "}}" : "}");
}

/* Whether doc's events are the reference's, line by line; says the first that is not. */
static int same_events(const struct nvtxt_trace_event *ev, size_t n, const char *what)
{
	const char *p = strchr(doc, '\n');
	size_t cap = 64;
	char *want;

	for (size_t i = 0; i < n; i++)
		cap += 6 * (ev[i].name.len + ev[i].cat.len + ev[i].arg_name.len) + 512;
	want = malloc(cap);
	if (!want)
		abort();
	for (size_t i = 0; i < n; i++, p = strchr(p + 1, '\n')) {
		size_t len;
		ref_event(want, &ev[i]);
		len = strlen(want);
		if (!p || strncmp(p + 1, want, len) != 0 || (p[1 + len] != ',' && p[1 + len] != '\n')) {
			/* the line as far as its end (strings hold no raw line feed) */
			int got_len = p ? (int)strcspn(p + 1, "\n") : 0;
			printf("# %s: event %zu\n#   got:  %.*s\n#   want: %.300s\n", what, i,
			       got_len > 300 ? 300 : got_len, p ? p + 1 : "", want);
			free(want);
			return 0;
		}
	}
	free(want);
	return 1;
}

static const char *const sequences[] = {
	"\x00", "\x01", "\t", "\n", "\x1F", "\"", "\\", "\x7F", "/",
	"\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80", "\xE2", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
	"\xED\xA0\x80", "\xC0\xAF", "\xC1\xBF", "\xE0\x80\xAF", "\xF4\x90\x80\x80", "\x80", "\xFE", "\xFF",
};
static const size_t sequence_len[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 2, 1, 2, 3, 4, 3, 2, 2, 3, 4, 1, 1, 1 };

/* A string of n plain bytes with sequence k at `at` (cut at n); in buf. */
static size_t make_string(char *buf, size_t n, size_t k, size_t at)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)plain_byte();
	for (size_t j = 0; j < sequence_len[k] && at + j < n; j++)
		buf[at + j] = sequences[k][j];
	return n;
}

static void test_writer_strings(void)
{
	static char name[128], cat[128], meta[128];
	size_t lengths[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 47, 48, 63, 64, 65, 70 };
	long events = 0, bad = 0;

	for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
		size_t n = lengths[li];
		for (size_t k = 0; k < sizeof sequences / sizeof sequences[0]; k++) {
			for (size_t at = 0; at <= 40 && (at < n || (n == 0 && at == 0)); at++) {
				struct nvtxt_trace_event ev[3] = {
					{ .ph = 'X', .ts_ns = 1000, .dur_ns = 500, .pid = 1, .tid = 2,
					  .args = NVTXT_TRACE_ARG_LINE, .line = 7 },
					{ .ph = 'i', .name = { "m", 1 }, .ts_ns = 1200, .pid = 1, .tid = 2 },
					{ .ph = 'M', .name = { "thread_name", 11 }, .pid = 1, .tid = 2,
					  .args = NVTXT_TRACE_ARG_NAME },
				};
				ev[0].name = (struct nvtxt_str){ name, make_string(name, n, k, at) };
				ev[1].cat = (struct nvtxt_str){ cat, make_string(cat, n, k, n ? n - 1 - at % n : 0) };
				ev[2].arg_name = (struct nvtxt_str){ meta, make_string(meta, n, k, at / 2) };
				write_doc(ev, 3);
				events += 3;
				if (!same_events(ev, 3, "short strings") && bad++ > 5) {
					free(doc);
					goto out;
				}
				free(doc);
			}
		}
	}
out:
	tap_ok(bad == 0, "names, categories, metadata names of 0..70 bytes, a special sequence at 0..40 (%ld events)",
	       events);
}

/* Strings around the writer's short-string limit and longer than its buffer. */
static void test_writer_long_strings(void)
{
	size_t lengths[] = { 2040, 2047, 2048, 2049, 2100, 4096, 21845, 21846, 100000, 300000, 700000 };
	int ok = 1;

	for (size_t li = 0; li < sizeof lengths / sizeof lengths[0] && ok; li++) {
		size_t n = lengths[li];
		char *s = malloc(n), *t = malloc(n);
		struct nvtxt_trace_event ev[4] = {
			{ .ph = 'X', .ts_ns = 1000, .dur_ns = 500, .pid = 1, .tid = 2 },
			{ .ph = 'i', .name = { "m", 1 }, .ts_ns = 1200, .pid = 1, .tid = 2 },
			{ .ph = 'M', .name = { "process_name", 12 }, .pid = 1, .tid = -1, .args = NVTXT_TRACE_ARG_NAME },
			{ .ph = 'i', .name = { "after", 5 }, .ts_ns = 1300, .pid = 1, .tid = 3 },
		};
		if (!s || !t)
			abort();
		for (size_t i = 0; i < n; i++) {
			uint64_t r = tap_rand();
			s[i] = (r & 255) == 0 ? (char)sequences[(r >> 8) % 24][0] : (char)plain_byte();
			t[i] = (char)plain_byte();
		}
		ev[0].name = (struct nvtxt_str){ s, n };
		ev[0].cat = (struct nvtxt_str){ t, n / 3 };
		ev[1].cat = (struct nvtxt_str){ t, n };
		ev[2].arg_name = (struct nvtxt_str){ s + 1, n - 1 };
		write_doc(ev, 4);
		ok = same_events(ev, 4, "long strings");
		free(doc);
		free(s);
		free(t);
	}
	tap_ok(ok, "strings of 2040 to 700000 bytes, plain and with special bytes");
}

/* A time or duration: an edge, or random of some number of digits. */
static int64_t some_time(void)
{
	static const int64_t edges[] = { 0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 1100, 123475430, 999999999,
					 99999999999, 100000000000, 100000000001, 999999999999999,
					 1000000000000000, 1000000000000001, INT64_MAX, INT64_MAX - 1 };
	uint64_t r = tap_rand();

	if ((r & 3) == 0) {
		int64_t v = edges[(r >> 2) % (sizeof edges / sizeof edges[0])];
		return (r & 64) ? (v == INT64_MAX ? INT64_MIN : -v) : v;
	}
	r = tap_rand() >> (tap_rand() % 64);
	return (tap_rand() & 1) ? -(int64_t)(r >> 1) : (int64_t)(r >> 1);
}

static void test_writer_numbers(void)
{
	enum { N = 4000 };
	static struct nvtxt_trace_event ev[N];
	static const char phs[] = "XBEibenM";
	int ok = 1;

	for (int round = 0; round < 25 && ok; round++) {
		for (size_t i = 0; i < N; i++) {
			uint64_t r = tap_rand();
			struct nvtxt_trace_event *e = &ev[i];
			*e = (struct nvtxt_trace_event){ .ph = phs[r % 8], .name = { "n", 1 } };
			e->ts_ns = some_time();
			e->dur_ns = some_time();
			if (e->dur_ns < 0)
				e->dur_ns = e->dur_ns == INT64_MIN ? 0 : -e->dur_ns;
			e->id = tap_rand() >> (tap_rand() % 64);
			/* a few threads in turn, and now and then one of many */
			e->pid = (r >> 8) & 1 ? 41237 : (int64_t)(tap_rand() >> (tap_rand() % 64)) * ((r >> 9) & 1 ? -1 : 1);
			e->tid = (r >> 10) % 7 == 0 ? -1 : (r >> 13) % 4 == 0 ? (int64_t)(tap_rand() >> 1) : (int64_t)((r >> 16) % 12);
			e->args = (unsigned)(r >> 24) & (NVTXT_TRACE_ARG_PAYLOAD | NVTXT_TRACE_ARG_LINE | NVTXT_TRACE_ARG_UNCLOSED);
			e->payload = (int64_t)tap_rand();
			e->line = (uint32_t)tap_rand();
			if (e->ph == 'M') {
				e->args = NVTXT_TRACE_ARG_NAME;
				e->arg_name = (struct nvtxt_str){ "a name", 6 };
			}
		}
		write_doc(ev, N);
		ok = same_events(ev, N, "numbers");
		free(doc);
	}
	tap_ok(ok, "ts, dur, id, pid, tid, payload, line, args.ns and end_ns as snprintf writes them (100000 events)");
}

int main(void)
{
	tap_rng = 0x2545F4914F6CDD1Du; /* this test's own stream */
	test_scanners();
	test_copy_if_plain();
	test_writer_strings();
	test_writer_long_strings();
	test_writer_numbers();
	return tap_done();
}
