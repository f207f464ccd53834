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
 * the end.  An event is written with one check of the room left: room for
 * its fixed members and for three strings of up to SHORT_STRING bytes
 * escaped (6 bytes each at most), then through a pointer; a longer string
 * is written in pieces of its own (put_string), as is the document's
 * framing.  Between escapes, plain bytes are found 16 at a time
 * (trace_string.h) and copied at once.
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

#include "decimal.h"
#include "timeconv.h"
#include "trace_string.h"
#include "trace_writer.h"
#include "util.h"

#define BUF_SIZE (256 * 1024)
#define NS_PER_S INT64_C(1000000000)
#define EXACT_LIMIT INT64_C(1000000000000000) /* 10^15 ns: 15 significant digits of us */

/*
 * The text ,"pid":P,"tid":T (or ,"pid":P alone for tid < 0) of a recent
 * thread: most events name one of a few threads, and this copy costs
 * less than the two numbers (len 0: the slot is empty).
 */
struct thread_text {
	char text[64];
	int64_t pid, tid;
	size_t len;
};
#define THREAD_SLOTS 16

struct nvtxt_trace_writer {
	struct thread_text thread[THREAD_SLOTS]; /* by a hash of (pid, tid) */
	/* timeconv_frac_text of each 0..999: its 4 bytes and how many count (a load, not three divisions) */
	char frac_text[1000][4];
	unsigned char frac_len[1000];
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

/* Room for n more bytes (n <= BUF_SIZE); on a write error the bytes go nowhere. */
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

static inline void put_int(struct nvtxt_trace_writer *w, int64_t v)
{
	char *p = room(w, 21);

	w->len = (size_t)(put_i64(p, v) - w->buf);
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
		if (trace_plain_table[*s]) {
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
 * Writes at p the JSON string of the n bytes at str, which has room for
 * 6 n + 2 bytes (no byte's escape is longer than 6); returns the end.
 * The runs of plain bytes are found and copied several at a time
 * (trace_string.h), the rest escaped one character at a time.
 */
__attribute__((noinline)) static char *string_text(char *p, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run, used;

	*p++ = '"';
	for (;;) {
		run = trace_plain_run(s, n);
		trace_copy(p, s, run);
		p += run;
		s += run;
		n -= run;
		if (!n)
			break;
		p += escape_one(p, s, n, &used);
		s += used;
		n -= used;
	}
	*p++ = '"';
	return p;
}

/*
 * The JSON string of the n bytes at str, of any length (a string longer
 * than SHORT_STRING, and the document's framing): the runs of plain bytes
 * copied in pieces no larger than half the buffer, the rest escaped.
 */
static void put_string(struct nvtxt_trace_writer *w, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t used;

	PUT_LIT(w, "\"");
	while (n) {
		size_t run = trace_plain_run(s, n);
		while (run) {
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

#define LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/*
 * v in decimal (as decimal.h's put_u64), at most 20 bytes.  Below 10^8
 * without a branch on the length: ascii_8_digits gives the 8 digits with
 * leading zeros, the first in the word's lowest byte, so the leading
 * zeros are the low bytes whose digit is 0, counted by the trailing zero
 * bits of the digits (the last digit always counts: 0 is "0"), and the
 * word shifted past them is the text.  Stores 8 bytes at p at least, 20
 * at most.  Inline: a few numbers an event.
 */
static inline char *dec_u64(char *p, uint64_t v)
{
	uint64_t a;
	unsigned zeros;

	if (v >= 100000000)
		return put_u64(p, v);
	a = ascii_8_digits((uint32_t)v);
	zeros = (unsigned)__builtin_ctzll((a & UINT64_C(0x0F0F0F0F0F0F0F0F)) | UINT64_C(1) << 56) & 56;
	store_le64(p, a >> zeros);
	return p + 8 - zeros / 8;
}

/* v in decimal, '-' first when negative: at most 21 bytes (stores as many). */
static inline char *dec_i64(char *p, int64_t v)
{
	*p = '-';
	p += v < 0;
	return dec_u64(p, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

/* timeconv_us_text's text of off (any int64) at p, without its NUL; stores at most 22 bytes. */
static inline char *us_text(const struct nvtxt_trace_writer *w, char *p, int64_t off)
{
	uint64_t mag = off < 0 ? 0 - (uint64_t)off : (uint64_t)off, us = mag / 1000;
	unsigned frac = (unsigned)(mag - us * 1000);

	*p = '-';
	p += off < 0;
	p = dec_u64(p, us);
	memcpy(p, w->frac_text[frac], 4);
	return p + w->frac_len[frac];
}

/* Fills slot t with the text of thread (pid, tid): at most 7 + 21 + 7 + 21 = 56 bytes stored. */
static void thread_text_fill(struct thread_text *t, int64_t pid, int64_t tid)
{
	char *e = dec_i64(LIT(t->text, ",\"pid\":"), pid);

	if (tid >= 0)
		e = dec_i64(LIT(e, ",\"tid\":"), tid);
	t->len = (size_t)(e - t->text);
	t->pid = pid;
	t->tid = tid;
}

/* Writes at p the text ,"pid":P[,"tid":T] of the thread (pid, tid), from its slot; stores 64 bytes. */
static inline char *thread_text(struct nvtxt_trace_writer *w, char *p, int64_t pid, int64_t tid)
{
	struct thread_text *t = &w->thread[((uint64_t)pid * UINT64_C(0x9E3779B97F4A7C15) + (uint64_t)tid) %
					   THREAD_SLOTS];

	if (!(t->len && t->pid == pid && t->tid == tid))
		thread_text_fill(t, pid, tid);
	memcpy(p, t->text, sizeof t->text);
	return p + t->len;
}

/* Writes at p the time of ns as microseconds from the origin (set here when unset); *far: args.ns needed. */
static inline char *time_text(struct nvtxt_trace_writer *w, char *p, int64_t ns, bool *far)
{
	int64_t off;

	if (!w->origin_known) {
		w->origin_ns = ns / NS_PER_S * NS_PER_S; /* toward zero: never overflows */
		w->origin_known = true;
	}
	if (!__builtin_sub_overflow(ns, w->origin_ns, &off)) {
		*far = !(off > -EXACT_LIMIT && off < EXACT_LIMIT);
		return us_text(w, p, off);
	}
	*far = true; /* beyond int64: 292 years from the origin */
	return p + timeconv_us_text(p, (__int128)ns - w->origin_ns);
}

/* --- the document --------------------------------------------------------- */

struct nvtxt_trace_writer *nvtxt_trace_writer_new(FILE *out)
{
	struct nvtxt_trace_writer *w = xcalloc(1, sizeof *w);

	w->out = out;
	w->buf = xmalloc(BUF_SIZE);
	for (unsigned f = 0; f < 1000; f++)
		w->frac_len[f] = (unsigned char)(timeconv_frac_text(w->frac_text[f], f) - w->frac_text[f]);
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
 * and args but for args.name; returns the end.  At most FIXED_TAIL bytes
 * stored, with what the number writers and thread_text store past their
 * end: 9 + 26 (id) + 28 (ts) + 29 (dur) + 64 (pid, tid) + 40 (payload) +
 * 28 (line) + 16 (unclosed) + 27 (ns) + 31 (end_ns) + 2 = 300.
 */
#define FIXED_TAIL 320
static inline char *tail_text(struct nvtxt_trace_writer *w, const struct nvtxt_trace_event *ev, char *p)
{
	bool far = false, end_far = false, any = false;

	p = LIT(p, ",\"ph\":\"?\"");
	p[-2] = ev->ph;
	if (ev->ph == 'b' || ev->ph == 'e' || ev->ph == 'n')
		p = dec_u64(LIT(p, ",\"id\":"), ev->id);
	if (ev->ph != 'M')
		p = time_text(w, LIT(p, ",\"ts\":"), ev->ts_ns, &far);
	if (ev->ph == 'X') {
		p = us_text(w, LIT(p, ",\"dur\":"), ev->dur_ns);
		/* the end far from the origin, or a duration with more digits than a double keeps */
		end_far = ev->dur_ns >= EXACT_LIMIT ||
			  !((__int128)ev->ts_ns + ev->dur_ns - w->origin_ns < EXACT_LIMIT);
	}
	p = thread_text(w, p, ev->pid, ev->tid);
	if (!(ev->args & ~NVTXT_TRACE_ARG_NAME) && !far && !end_far)
		return LIT(p, "}");
#define MEMBER(lit) (any ? LIT(p, "," lit) : (any = true, LIT(p, ",\"args\":{" lit)))
	if (ev->args & NVTXT_TRACE_ARG_PAYLOAD)
		p = dec_i64(MEMBER("\"payload\":"), ev->payload);
	if (ev->args & NVTXT_TRACE_ARG_LINE)
		p = dec_u64(MEMBER("\"line\":"), ev->line);
	if (ev->args & NVTXT_TRACE_ARG_UNCLOSED)
		p = MEMBER("\"unclosed\":true");
	if (far || end_far)
		p = dec_i64(MEMBER("\"ns\":"), ev->ts_ns);
	if (end_far)
		p = dec_i64(MEMBER("\"end_ns\":"), (int64_t)((uint64_t)ev->ts_ns + (uint64_t)ev->dur_ns));
#undef MEMBER
	return any ? LIT(p, "}}") : LIT(p, "}");
}

/*
 * The room an event is written in: its fixed members (FIXED_TAIL, or an
 * M event's, fewer), "name", "cat" and args.name of SHORT_STRING bytes
 * or fewer escaped, and the literals between them.
 */
#define SHORT_STRING 2048
#define EVENT_ROOM (FIXED_TAIL + 3 * (6 * SHORT_STRING + 2) + 64)

/*
 * Writes the JSON string of s at p, in the event's room; a longer string
 * than SHORT_STRING goes through put_string, and the room is taken again.
 */
__attribute__((always_inline)) static inline char *string_member(struct nvtxt_trace_writer *w, char *p,
								   struct nvtxt_str s)
{
	const char *str = s.ptr ? s.ptr : "";

	*p = '"';
	if (trace_copy_if_plain(p + 1, (const unsigned char *)str, s.len)) { /* most names: one check, two moves */
		p[s.len + 1] = '"';
		return p + s.len + 2;
	}
	if (s.len <= SHORT_STRING)
		return string_text(p, str, s.len);
	w->len = (size_t)(p - w->buf);
	put_string(w, s.ptr, s.len);
	return room(w, EVENT_ROOM);
}

int nvtxt_trace_writer_event(struct nvtxt_trace_writer *w, const struct nvtxt_trace_event *ev)
{
	char *p;

	if (w->observe)
		w->observe(w->observe_user, ev);
	if (!w->began)
		nvtxt_trace_writer_begin(w);
	p = room(w, EVENT_ROOM);
	if (w->any_event)
		p = LIT(p, ",\n{\"name\":");
	else
		p = LIT(p, "\n{\"name\":");
	w->any_event = true;
	p = string_member(w, p, ev->name);
	if (ev->cat.ptr)
		p = string_member(w, LIT(p, ",\"cat\":"), ev->cat);
	if (ev->args & NVTXT_TRACE_ARG_NAME) {
		/* a metadata event: {"name":...,"ph":"M","pid":P[,"tid":T],"args":{"name":...}} */
		p = thread_text(w, LIT(p, ",\"ph\":\"M\""), ev->pid, ev->tid);
		p = string_member(w, LIT(p, ",\"args\":{\"name\":"), ev->arg_name);
		p = LIT(p, "}}");
	} else {
		p = tail_text(w, ev, p);
	}
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
		put_int(w, w->origin_ns);
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
