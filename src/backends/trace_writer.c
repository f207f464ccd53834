/*
 * trace_writer.c - the Trace Event Format writer (trace_writer.h).
 *
 * Hand-written, not through a JSON library: the per-event hot loop of
 * --emit=chrome, where json-c cost about 8,500 instructions an event and
 * jansson 22,000 (bench/README.md), against a few hundred here.  Issue
 * 22's rule allows it on three conditions, met by tests/tools/chrome_diff.c
 * (every output parsed with jansson and compared, event by event, with
 * the document jansson builds from the same events: tests/chrome.t),
 * tests/fuzz/fuzz_chrome_strings.c (hostile strings must parse and round
 * trip) and the escaping rules below, which nvtxtc(1) repeats (CHROME
 * TRACE EVENTS).
 *
 * Bytes go into one buffer of 256 KiB, handed to fwrite when full and at
 * the end; a string longer than the buffer is written in pieces.
 *
 * Numbers: integers in decimal ('-' and digits, no leading zeros); "ts"
 * and "dur" the exact decimal of microseconds (timeconv_us_text), computed
 * in integers, never through a double.
 *
 * Strings (RFC 8259, section 7 "Strings", and section 8.1: JSON text is
 * UTF-8), byte by byte:
 *   - '"' is written \" and '\' is written \\ (the two characters that
 *     must be escaped besides the controls);
 *   - the control characters U+0000 to U+001F, which must be escaped, are
 *     written \b \t \n \f \r for U+0008, U+0009, U+000A, U+000C, U+000D
 *     and \u00XX (lowercase hex) for the others;
 *   - U+2028 and U+2029 (LINE and PARAGRAPH SEPARATOR) are written \u2028
 *     and \u2029: JSON allows them raw, JavaScript string literals before
 *     ES2019 do not, and a viewer may evaluate the text as JavaScript;
 *   - every other well-formed UTF-8 sequence (RFC 3629: shortest form, no
 *     surrogate code point U+D800..U+DFFF, at most U+10FFFF) is copied as
 *     it is, U+007F and characters beyond the BMP (4 bytes, not surrogate
 *     pairs) included;
 *   - each byte that does not begin a well-formed sequence (a stray
 *     continuation byte, an overlong form, a surrogate encoded in UTF-8
 *     such as ED A0 80, a sequence cut short, C0, C1, F5..FF) is written
 *     as U+FFFD REPLACEMENT CHARACTER (EF BF BD), and the next byte is
 *     read as a new start.
 * Nothing else is escaped ('/' neither).  nvtxtc's inputs never meet the
 * last rule (the front end and the payload reader reject invalid UTF-8),
 * but the writer does not rely on that: the fuzz target's strings do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeconv.h"
#include "trace_writer.h"
#include "util.h"

#define BUF_SIZE (256 * 1024)
#define NS_PER_S INT64_C(1000000000)
#define EXACT_LIMIT INT64_C(1000000000000000) /* 10^15 ns: 15 significant digits of us */

struct nvtxt_trace_writer {
	FILE *out;
	char *buf;
	size_t len;
	bool began, any_event, origin_known, failed;
	int err;
	int64_t origin_ns;
	uint64_t next_id;           /* nvtxt_trace_writer_new_id */
	void (*observe)(void *user, const struct nvtxt_trace_event *ev);
	void *observe_user;
};

/*
 * plain[c]: byte c is copied as it is (printable ASCII but '"' and '\').
 * The others take the slow path of put_string.
 */
static const unsigned char plain[256] = {
	[0x20] = 1, 1, 0 /* " */, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x30 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 /* \ */, 1, 1, 1,
	/* 0x60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 /* DEL */,
};

static const char hexdig[] = "0123456789abcdef";

/* --- the buffer ----------------------------------------------------------- */

static int flush_buf(struct nvtxt_trace_writer *w)
{
	if (w->failed)
		return -1;
	if (w->len && fwrite(w->buf, 1, w->len, w->out) != w->len) {
		w->failed = true;
		w->err = errno ? errno : EIO;
		return -1;
	}
	w->len = 0;
	return 0;
}

/* Room for n more bytes (n <= 320); on a write error the bytes go nowhere. */
static inline char *room(struct nvtxt_trace_writer *w, size_t n)
{
	if (BUF_SIZE - w->len < n && flush_buf(w) != 0)
		w->len = 0; /* keep writing into the buffer; the error is reported at the event's end */
	return w->buf + w->len;
}

static inline void put(struct nvtxt_trace_writer *w, const char *s, size_t n)
{
	memcpy(room(w, n), s, n);
	w->len += n;
}

#define PUT_LIT(w, lit) put((w), (lit), sizeof(lit) - 1)

#define u64_text timeconv_u64_text /* timeconv.h */

static inline char *i64_text(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return u64_text(p, -(uint64_t)v);
	}
	return u64_text(p, (uint64_t)v);
}

static inline void put_i64(struct nvtxt_trace_writer *w, int64_t v)
{
	char *p = room(w, 21);

	w->len = (size_t)(i64_text(p, v) - w->buf);
}

/* --- strings -------------------------------------------------------------- */

/* The escaped form of the byte(s) at s (not plain), at most 6 bytes at p; *used: the input bytes taken. */
static size_t escape_one(char *p, const unsigned char *s, size_t n, size_t *used)
{
	unsigned c = s[0];
	size_t len;

	*used = 1;
	if (c < 0x20 || c == '"' || c == '\\') {
		static const char short_form[0x20] = { ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
							['\f'] = 'f', ['\r'] = 'r' };
		p[0] = '\\';
		if (c == '"' || c == '\\') {
			p[1] = (char)c;
			return 2;
		}
		if (short_form[c]) {
			p[1] = short_form[c];
			return 2;
		}
		memcpy(p + 1, "u00", 3);
		p[4] = hexdig[c >> 4];
		p[5] = hexdig[c & 15];
		return 6;
	}
	len = utf8_seq(s, n);
	if (len == 0) {
		memcpy(p, "\xEF\xBF\xBD", 3); /* U+FFFD for this byte */
		return 3;
	}
	*used = len;
	if (len == 3 && c == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9)) {
		memcpy(p, s[2] == 0xA8 ? "\\u2028" : "\\u2029", 6);
		return 6;
	}
	memcpy(p, s, len);
	return len;
}

size_t nvtxt_trace_json_string(char *buf, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = 0, used;

	buf[len++] = '"';
	while (n) {
		if (plain[*s]) {
			buf[len++] = (char)*s++;
			n--;
			continue;
		}
		len += escape_one(buf + len, s, n, &used);
		s += used;
		n -= used;
	}
	buf[len++] = '"';
	return len;
}

/*
 * The number of plain bytes at the start of s (n bytes): eight at a time
 * while a word has none below 0x20, no '"', no '\\' and none from 0x80
 * (the usual bit tricks: a byte is zero in x - 0x01.. & ~x & 0x80..).
 */
static inline size_t plain_run(const unsigned char *s, size_t n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
	size_t run = 0;

	for (; run + 8 <= n; run += 8) {
		uint64_t x, q, b;
		memcpy(&x, s + run, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		if (((x - ones * 0x20) | (q - ones) | (b - ones) | x) & highs) {
			/* some byte may need care: find it byte by byte */
			break;
		}
	}
	while (run < n && plain[s[run]])
		run++;
	return run;
}

/* The JSON string of the n bytes at str: runs of plain bytes copied at once, the rest escaped. */
static void put_string(struct nvtxt_trace_writer *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t used;

	PUT_LIT(w, "\"");
	while (n) {
		size_t run = plain_run(s, n);
		while (run) { /* in pieces no larger than the buffer */
			size_t piece = run < BUF_SIZE / 2 ? run : BUF_SIZE / 2;
			memcpy(room(w, piece), s, piece);
			w->len += piece;
			s += piece;
			n -= piece;
			run -= piece;
		}
		if (!n)
			break;
		w->len += escape_one(room(w, 6), s, n, &used);
		s += used;
		n -= used;
	}
	PUT_LIT(w, "\"");
}

/* --- numbers -------------------------------------------------------------- */

/* Writes at p the time of ns as microseconds from the origin (set here when unset); *far: args.ns needed. */
static inline char *time_text(struct nvtxt_trace_writer *w, char *p, int64_t ns, bool *far)
{
	__int128 off;

	if (!w->origin_known) {
		w->origin_ns = ns / NS_PER_S * NS_PER_S; /* toward zero: never overflows */
		w->origin_known = true;
	}
	off = (__int128)ns - w->origin_ns;
	*far = !(off > -EXACT_LIMIT && off < EXACT_LIMIT);
	return p + timeconv_us_text(p, off);
}

#define LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* --- the document --------------------------------------------------------- */

struct nvtxt_trace_writer *nvtxt_trace_writer_new(FILE *out)
{
	struct nvtxt_trace_writer *w = xcalloc(1, sizeof *w);

	w->out = out;
	w->buf = xmalloc(BUF_SIZE);
	return w;
}

void nvtxt_trace_writer_free(struct nvtxt_trace_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w);
}

void nvtxt_trace_writer_set_origin(struct nvtxt_trace_writer *w, int64_t ns)
{
	if (!w->origin_known) {
		w->origin_ns = ns;
		w->origin_known = true;
	}
}

bool nvtxt_trace_writer_origin(const struct nvtxt_trace_writer *w, int64_t *ns)
{
	if (w->origin_known)
		*ns = w->origin_ns;
	return w->origin_known;
}

uint64_t nvtxt_trace_writer_new_id(struct nvtxt_trace_writer *w)
{
	return w->next_id++;
}

void nvtxt_trace_writer_observe(struct nvtxt_trace_writer *w,
				void (*fn)(void *user, const struct nvtxt_trace_event *ev), void *user)
{
	w->observe = fn;
	w->observe_user = user;
}

static int status(struct nvtxt_trace_writer *w)
{
	if (w->failed) {
		errno = w->err;
		return -1;
	}
	return 0;
}

int nvtxt_trace_writer_begin(struct nvtxt_trace_writer *w)
{
	if (!w->began) {
		w->began = true;
		PUT_LIT(w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	}
	return status(w);
}

/*
 * Writes at p the members of ev after "cat": ph, id, ts, dur, pid, tid
 * and args but for args.name (at most FIXED_TAIL bytes); returns the end.
 */
#define FIXED_TAIL 320
static char *tail_text(struct nvtxt_trace_writer *w, const struct nvtxt_trace_event *ev, char *p)
{
	bool far = false, end_far = false, any = false;

	p = LIT(p, ",\"ph\":\"?\"");
	p[-2] = ev->ph;
	if (ev->ph == 'b' || ev->ph == 'e' || ev->ph == 'n')
		p = u64_text(LIT(p, ",\"id\":"), ev->id);
	if (ev->ph != 'M')
		p = time_text(w, LIT(p, ",\"ts\":"), ev->ts_ns, &far);
	if (ev->ph == 'X') {
		p = LIT(p, ",\"dur\":");
		p += timeconv_us_text(p, ev->dur_ns);
		/* the end far from the origin, or a duration with more digits than a double keeps */
		end_far = ev->dur_ns >= EXACT_LIMIT ||
			  !((__int128)ev->ts_ns + ev->dur_ns - w->origin_ns < EXACT_LIMIT);
	}
	p = i64_text(LIT(p, ",\"pid\":"), ev->pid);
	if (ev->tid >= 0)
		p = i64_text(LIT(p, ",\"tid\":"), ev->tid);
#define MEMBER(lit) (any ? LIT(p, "," lit) : (any = true, LIT(p, ",\"args\":{" lit)))
	if (ev->args & NVTXT_TRACE_ARG_PAYLOAD)
		p = i64_text(MEMBER("\"payload\":"), ev->payload);
	if (ev->args & NVTXT_TRACE_ARG_LINE)
		p = u64_text(MEMBER("\"line\":"), ev->line);
	if (ev->args & NVTXT_TRACE_ARG_UNCLOSED)
		p = MEMBER("\"unclosed\":true");
	if (far || end_far)
		p = i64_text(MEMBER("\"ns\":"), ev->ts_ns);
	if (end_far)
		p = i64_text(MEMBER("\"end_ns\":"), (int64_t)((uint64_t)ev->ts_ns + (uint64_t)ev->dur_ns));
#undef MEMBER
	return any ? LIT(p, "}}") : LIT(p, "}");
}

int nvtxt_trace_writer_event(struct nvtxt_trace_writer *w, const struct nvtxt_trace_event *ev)
{
	char *p;

	if (w->observe)
		w->observe(w->observe_user, ev);
	if (!w->began)
		nvtxt_trace_writer_begin(w);
	if (w->any_event)
		PUT_LIT(w, ",\n{\"name\":");
	else
		PUT_LIT(w, "\n{\"name\":");
	w->any_event = true;
	put_string(w, ev->name.ptr ? ev->name.ptr : "", ev->name.len);
	if (ev->cat.ptr) {
		PUT_LIT(w, ",\"cat\":");
		put_string(w, ev->cat.ptr, ev->cat.len);
	}
	if (ev->args & NVTXT_TRACE_ARG_NAME) {
		/* a metadata event: {"name":...,"ph":"M","pid":P[,"tid":T],"args":{"name":...}} */
		p = room(w, FIXED_TAIL);
		p = LIT(p, ",\"ph\":\"M\",\"pid\":");
		p = i64_text(p, ev->pid);
		if (ev->tid >= 0)
			p = i64_text(LIT(p, ",\"tid\":"), ev->tid);
		p = LIT(p, ",\"args\":{\"name\":");
		w->len = (size_t)(p - w->buf);
		put_string(w, ev->arg_name.ptr ? ev->arg_name.ptr : "", ev->arg_name.len);
		PUT_LIT(w, "}}");
		return status(w);
	}
	p = tail_text(w, ev, room(w, FIXED_TAIL));
	w->len = (size_t)(p - w->buf);
	return status(w);
}

/* "files":[{"file":...,"display_name":...},...] of a merged document */
static void put_files(struct nvtxt_trace_writer *w, const struct nvtxt_trace_file *f, size_t n)
{
	PUT_LIT(w, ",\"files\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			PUT_LIT(w, ",");
		PUT_LIT(w, "{\"file\":");
		put_string(w, f[i].file.ptr, f[i].file.len);
		PUT_LIT(w, ",\"display_name\":");
		if (f[i].display_name.ptr)
			put_string(w, f[i].display_name.ptr, f[i].display_name.len);
		else
			PUT_LIT(w, "null");
		PUT_LIT(w, "}");
	}
	PUT_LIT(w, "]");
}

int nvtxt_trace_writer_end(struct nvtxt_trace_writer *w, const struct nvtxt_trace_other *other)
{
	if (!w->began)
		nvtxt_trace_writer_begin(w);
	PUT_LIT(w, "\n],\"otherData\":{\"producer\":\"nvtxtc\"");
	if (other && other->file_display_name.ptr) {
		PUT_LIT(w, ",\"file_display_name\":");
		put_string(w, other->file_display_name.ptr, other->file_display_name.len);
	}
	if (other && other->nfiles)
		put_files(w, other->files, other->nfiles);
	if (w->origin_known) {
		PUT_LIT(w, ",\"nvtxtc_time_origin_ns\":");
		put_i64(w, w->origin_ns);
	}
	PUT_LIT(w, "}}\n");
	if (flush_buf(w) != 0 || fflush(w->out) != 0 || ferror(w->out)) {
		if (!w->failed) {
			w->failed = true;
			w->err = errno ? errno : EIO;
		}
	}
	return status(w);
}
