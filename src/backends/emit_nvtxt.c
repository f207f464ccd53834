/*
 * emit_nvtxt.c - the normal form printer (nvtxt(5), CANONICAL FORM).
 *
 * It runs once per event, so it is written for speed.  A line is formatted
 * in one pass, without bounds checks, into memory known to be large enough
 * for it: the free part of the writer's own buffer (EMIT_BUFFER bytes,
 * handed to fwrite when full), else a buffer on the heap for a line longer
 * than that.  What the printer needs to know about the commands comes from
 * lang.c, read once per writer into a `struct printer`, which also
 * remembers the last ProcessId, ThreadId and Color it printed, as those
 * repeat from line to line.  The lines of the event commands, whose
 * default definitions share one pattern, are written by straight-line code
 * (format_event) instead of the general loop over the definition
 * (format_generic), once the printer has checked that lang.c's definition
 * is that pattern.  Their middle, from TimeBase to Color, repeats most
 * (a thread's process, time base, category and color), so the printer
 * keeps the texts of recent ones (`struct run`) and copies them whole.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "nvtxt/emit_nvtxt.h"

/* Keeps a rarely taken path out of line, so that the per-event code stays small; or the other way. */
#if defined(__GNUC__)
#define EMIT_COLD __attribute__((cold, noinline))
#define EMIT_INLINE __attribute__((always_inline))
#else
#define EMIT_COLD
#define EMIT_INLINE
#endif

/* A value printed before and its text, so that printing it again is a copy. */
struct memo {
	uint64_t key;
	char text[24];                 /* the text, then bytes that do not matter */
	unsigned char len;
};

/*
 * The run of an event line from its TimeBase through its ThreadId, or
 * through its Color when the command has the optional arguments
 * (', "ClockMonotonicRaw", 41237, 3, 1, 0xFF0000FF'), with the values it
 * was written from: `shape` holds the line's present bits of those
 * arguments, RUN_OPTIONALS for the longer run and the TimeBase (<< 16);
 * RUN_EMPTY, which no line has, marks a slot not yet used.  The key holds
 * every field the text could come from, even those that are absent: two
 * lines with equal keys have equal runs.  The longest run is 94 bytes: a
 * TimeBase field of at most 24 bytes, two int64s of 20 and a uint32 of
 * 10 and a color of 10, each after ", ".  128 bytes in all, so that a
 * slot's address is a shift.
 */
enum { RUN_SLOTS_LOG2 = 6, RUN_SLOTS = 1 << RUN_SLOTS_LOG2, RUN_TEXT = 96, RUN_HEAD = 48 };
#define RUN_OPTIONALS (1u << 15)
#define RUN_ARGS (NVTXT_BIT(NVTXT_ARG_TIMEBASE) | NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID))
#define RUN_OPTIONAL_ARGS (NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) | NVTXT_BIT(NVTXT_ARG_COLOR))
#define RUN_EMPTY UINT32_MAX
struct run {
	int64_t process_id, thread_id;
	uint64_t category_color;       /* CategoryId | Color << 32 */
	uint32_t shape;
	unsigned char len;
	char text[RUN_TEXT];           /* the run, then bytes that do not matter */
};
_Static_assert(sizeof(struct run) == 128, "a run is 128 bytes");

/* The printer's state, built from lang.c when a writer is made. */
struct printer {
	struct command_plan {
		char name[24];         /* the command's name, NUL-padded: copied whole */
		unsigned char name_len;
		/*
		 * The default definition, for format_generic; event_shape when
		 * it is Time (RangeStartEnd: Start, End), TimeBase, ProcessId,
		 * ThreadId, then - when `optionals` - CategoryId, Color,
		 * Message, Payload: the pattern that format_event writes.
		 */
		unsigned char nargs;
		unsigned char args[NVTXT_ARG_COUNT];
		bool event_shape, start_end, optionals;
		uint32_t bound;        /* LINE_BOUND(nargs) */
		/* The key of a run (put_run): the present bits in run_mask, then run_flag. */
		uint32_t run_mask, run_flag;
	} cmd[NVTXT_CMD_COUNT];
	struct {
		char text[24];         /* the TimeBase's name as a quoted string: "Qpc" */
		unsigned char len;
	} tb[NVTXT_TB_COUNT];
	struct memo process_id, thread_id, color;
	struct run runs[RUN_SLOTS];    /* each in the slot its values hash to (put_run) */
};

/*
 * The most bytes one argument takes on a line, not counting the bytes of
 * a Message or Name string: ", " and a copied 24-byte field (the bytes
 * past the value are overwritten later) or an integer (at most 21 bytes
 * stored).
 */
#define ARG_BOUND 26
/*
 * The same for a line: the 24-byte name field, the arguments, '\n', and
 * RUN_TEXT more, as a run's text is copied whole (up to RUN_TEXT bytes)
 * where its arguments may have fewer slots (RangePop's three: 78).
 */
#define LINE_BOUND(nargs) (24 + (size_t)(nargs) * ARG_BOUND + 1 + RUN_TEXT)

/* The quote of a string in normal form: '"' unless the string contains one. */
static char quote_of(struct nvtxt_str s)
{
	return s.len && memchr(s.ptr, '"', s.len) ? '\'' : '"';
}

/*
 * Whether a default definition is the pattern of format_event, and which
 * variant: stores start_end and optionals and returns true, or returns
 * false.
 */
static bool event_shape(const enum nvtxt_arg *args, size_t n, bool *start_end, bool *optionals)
{
	static const enum nvtxt_arg tail[] = {
		NVTXT_ARG_TIMEBASE, NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID,
		NVTXT_ARG_CATEGORY_ID, NVTXT_ARG_COLOR, NVTXT_ARG_MESSAGE, NVTXT_ARG_PAYLOAD
	};
	size_t lead;

	if (n >= 1 && args[0] == NVTXT_ARG_TIME)
		lead = 1;
	else if (n >= 2 && args[0] == NVTXT_ARG_START && args[1] == NVTXT_ARG_END)
		lead = 2;
	else
		return false;
	if (n != lead + 3 && n != lead + 7)
		return false;
	for (size_t i = lead; i < n; i++)
		if (args[i] != tail[i - lead])
			return false;
	*start_end = lead == 2;
	*optionals = n == lead + 7;
	return true;
}

EMIT_COLD
static void printer_init(struct printer *pr)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];

	memset(pr, 0, sizeof *pr);
	for (int i = 0; i < NVTXT_CMD_COUNT; i++) {
		struct command_plan *c = &pr->cmd[i];
		const char *name = nvtxt_command_name((enum nvtxt_command)i);
		size_t len = strlen(name), n = nvtxt_command_default_args((enum nvtxt_command)i, args);

		if (len >= sizeof c->name)
			len = sizeof c->name - 1; /* cannot happen: lang.c's names are at most 18 bytes */
		memcpy(c->name, name, len);
		c->name_len = (unsigned char)len;
		c->nargs = (unsigned char)n;
		for (size_t j = 0; j < n; j++)
			c->args[j] = (unsigned char)args[j];
		c->event_shape = event_shape(args, n, &c->start_end, &c->optionals);
		c->bound = (uint32_t)LINE_BOUND(n);
		c->run_mask = c->optionals ? RUN_ARGS | RUN_OPTIONAL_ARGS : RUN_ARGS;
		c->run_flag = c->optionals ? RUN_OPTIONALS : 0;
	}
	for (int i = 0; i < NVTXT_TB_COUNT; i++) {
		const char *name = nvtxt_timebase_name((enum nvtxt_timebase)i);
		struct nvtxt_str s = { name, strlen(name) };
		char q = quote_of(s);

		if (s.len + 2 > sizeof pr->tb[i].text)
			s.len = sizeof pr->tb[i].text - 2; /* cannot happen: lang.c's names are at most 17 bytes */
		pr->tb[i].text[0] = q;
		memcpy(pr->tb[i].text + 1, s.ptr, s.len);
		pr->tb[i].text[s.len + 1] = q;
		pr->tb[i].len = (unsigned char)(s.len + 2);
	}
	/* Key 0 is printed "0", and as a color "0x00000000". */
	memcpy(pr->process_id.text, "0", pr->process_id.len = 1);
	memcpy(pr->thread_id.text, "0", pr->thread_id.len = 1);
	memcpy(pr->color.text, "0x00000000", pr->color.len = 10);
	for (int i = 0; i < RUN_SLOTS; i++)
		pr->runs[i].shape = RUN_EMPTY;
}

/* Writes v like put_i64, copying the text from m when v is m's key. */
static char *put_i64_memo(char *p, struct memo *m, int64_t v)
{
	if ((uint64_t)v != m->key) {
		m->key = (uint64_t)v;
		m->len = (unsigned char)(put_i64(m->text, v) - m->text);
	}
	memcpy(p, m->text, sizeof m->text);
	return p + m->len;
}

/* Writes an ARGB color as 0xAARRGGBB (10 bytes; stores 24) and returns the end. */
static char *put_color(char *p, struct memo *m, uint32_t argb)
{
	static const char hexdig[] = "0123456789ABCDEF";

	if (argb != m->key) {
		m->key = argb;
		for (int i = 0; i < 8; i++)
			m->text[2 + i] = hexdig[(argb >> (28 - 4 * i)) & 15];
	}
	memcpy(p, m->text, sizeof m->text);
	return p + 10;
}

/* Writes s quoted (2 + s.len bytes) and returns the end: put_string's general case. */
EMIT_COLD
static char *put_string_any(char *p, struct nvtxt_str s)
{
	char q = quote_of(s);

	*p++ = q;
	if (s.len)
		memcpy(p, s.ptr, s.len);
	p += s.len;
	*p++ = q;
	return p;
}

/*
 * Of the 8 bytes of w, QUOTE_BITS(w) & HIGH_1 is non-zero when one is '"':
 * a byte of w ^ '"'s is then zero, and subtracting 1 from it sets its top
 * bit where ~ keeps it (a borrow can only run on from a zero byte, so
 * there is no false alarm without one).  The "& HIGH_1" is left out so
 * that the words of a string share one.
 */
#define QUOTES_1 0x2222222222222222u
#define LOW_1 0x0101010101010101u
#define HIGH_1 0x8080808080808080u
#define QUOTE_BITS(w) ((((w) ^ QUOTES_1) - LOW_1) & ~((w) ^ QUOTES_1))

/*
 * Copies the first and the last 16 bytes of the n (16 to 32) at s to d
 * and returns non-zero when one of them is '"'.  With GCC's vectors (SSE2
 * on x86-64, NEON on arm64): two loads, two stores, two compares; else
 * (or with EMIT_NO_VECTORS, which tests/unit/emit_nvtxt_words.t builds)
 * four words of QUOTE_BITS.
 */
static inline uint64_t copy_16_16(char *d, const char *s, size_t n)
{
#if defined(__GNUC__) && !defined(EMIT_NO_VECTORS)
	typedef unsigned char bytes16 __attribute__((vector_size(16)));
	bytes16 a, b, m;
	uint64_t half[2];

	memcpy(&a, s, 16);
	memcpy(&b, s + n - 16, 16);
	memcpy(d, &a, 16);
	memcpy(d + n - 16, &b, 16);
	m = (bytes16)((a == '"') | (b == '"'));
	memcpy(half, &m, 16);
	return half[0] | half[1];
#else
	uint64_t w[4];

	memcpy(&w[0], s, 8);
	memcpy(&w[1], s + 8, 8);
	memcpy(&w[2], s + n - 16, 8);
	memcpy(&w[3], s + n - 8, 8);
	memcpy(d, &w[0], 8);
	memcpy(d + 8, &w[1], 8);
	memcpy(d + n - 16, &w[2], 8);
	memcpy(d + n - 8, &w[3], 8);
	return (QUOTE_BITS(w[0]) | QUOTE_BITS(w[1]) | QUOTE_BITS(w[2]) | QUOTE_BITS(w[3])) & HIGH_1;
#endif
}

/*
 * Writes s quoted (2 + s.len bytes) and returns the end.  A string of 4 to
 * 32 bytes (most messages) is copied as two overlapping blocks of 4, 8 or
 * 16 bytes (the first and the last), each read and written inside s and
 * its place, so nothing else is touched; the quote is chosen from the
 * same blocks.  No call to memchr and memcpy, no loop.
 */
static inline char *put_string(char *p, struct nvtxt_str s)
{
	size_t n = s.len;
	uint64_t quotes;
	char q;

	if (n - 4 > 32 - 4) /* shorter than 4 or longer than 32 */
		return put_string_any(p, s);
	if (n >= 16) {
		quotes = copy_16_16(p + 1, s.ptr, n);
	} else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s.ptr, 8);
		memcpy(&b, s.ptr + n - 8, 8);
		memcpy(p + 1, &a, 8);
		memcpy(p + 1 + n - 8, &b, 8);
		quotes = (QUOTE_BITS(a) | QUOTE_BITS(b)) & HIGH_1;
	} else {
		uint32_t a, b;

		memcpy(&a, s.ptr, 4);
		memcpy(&b, s.ptr + n - 4, 4);
		memcpy(p + 1, &a, 4);
		memcpy(p + 1 + n - 4, &b, 4);
		quotes = QUOTE_BITS((uint64_t)a | (uint64_t)b << 32) & HIGH_1;
	}
	q = quotes ? '\'' : '"';
	p[0] = q;
	p[n + 1] = q;
	return p + n + 2;
}

/*
 * Writes a time t like put_i64 (stores at most 21 bytes) and returns the
 * end.  Most times are 9 to 16 digits (nanoseconds of a clock that
 * started at boot, or at 1970): those are put_u64's two blocks, inlined
 * (no call, one test of the length).  Any other time is put_i64's.
 */
EMIT_INLINE
static inline char *put_time(char *p, int64_t t)
{
	uint64_t v = (uint64_t)t, hi;

	if (v - 100000000 >= 10000000000000000 - 100000000)
		return put_i64(p, t);
	hi = v / 100000000;
	p = put_below_1e8(p, (uint32_t)hi);
	put_8_digits(p, (uint32_t)(v - 100000000 * hi));
	return p + 8;
}

/*
 * Writes one argument of a line: ',' then, when it is present, ' ' and its
 * value; returns the end.  Inlined with a constant `arg` by format_event.
 */
static inline char *put_arg(char *p, struct printer *pr, const struct nvtxt_event *ev,
			    enum nvtxt_arg arg)
{
	*p++ = ',';
	if (!(ev->present & NVTXT_BIT(arg)))
		return p; /* absent: nothing between the commas */
	*p++ = ' ';
	switch (arg) {
	case NVTXT_ARG_TIME:
		return put_time(p, ev->time);
	case NVTXT_ARG_START:
		return put_time(p, ev->start);
	case NVTXT_ARG_END:
		return put_time(p, ev->end);
	case NVTXT_ARG_TIMEBASE:
		memcpy(p, pr->tb[ev->timebase].text, sizeof pr->tb[ev->timebase].text);
		return p + pr->tb[ev->timebase].len;
	case NVTXT_ARG_PROCESS_ID:
		return put_i64_memo(p, &pr->process_id, ev->process_id);
	case NVTXT_ARG_THREAD_ID:
		return put_i64_memo(p, &pr->thread_id, ev->thread_id);
	case NVTXT_ARG_CATEGORY_ID:
		return put_u64(p, ev->category_id);
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		return put_u64(p, ev->parent_category_id);
	case NVTXT_ARG_COLOR:
		return put_color(p, &pr->color, ev->color);
	case NVTXT_ARG_MESSAGE:
		return put_string(p, ev->message);
	case NVTXT_ARG_NAME:
		return put_string(p, ev->name);
	case NVTXT_ARG_PAYLOAD:
		return put_i64(p, ev->payload);
	case NVTXT_ARG_COUNT:
		break;
	}
	return p;
}

/* The line of a command whose plan is not event_shape: lang.c's definition, in a loop. */
static char *format_generic(char *p, struct printer *pr, const struct nvtxt_event *ev)
{
	const struct command_plan *c = &pr->cmd[ev->command];

	memcpy(p, c->name, sizeof c->name);
	p += c->name_len;
	for (size_t i = 0; i < c->nargs; i++)
		p = put_arg(p, pr, ev, (enum nvtxt_arg)c->args[i]);
	*p++ = '\n';
	return p;
}

/*
 * Writes ev's run of this shape into r (the slot it hashes to, which it
 * takes over) and returns r.  The arguments are written into `tmp`,
 * which has room for what put_arg stores past the run's end (a memo's 24
 * bytes after the Color's ", " at most at 82: 108 bytes).
 */
static struct run *run_fill(struct run *r, struct printer *pr, uint32_t shape,
			    const struct nvtxt_event *ev)
{
	char tmp[RUN_TEXT + 32], *p = tmp;

	p = put_arg(p, pr, ev, NVTXT_ARG_TIMEBASE);
	p = put_arg(p, pr, ev, NVTXT_ARG_PROCESS_ID);
	p = put_arg(p, pr, ev, NVTXT_ARG_THREAD_ID);
	if (shape & RUN_OPTIONALS) {
		p = put_arg(p, pr, ev, NVTXT_ARG_CATEGORY_ID);
		p = put_arg(p, pr, ev, NVTXT_ARG_COLOR);
	}
	r->process_id = ev->process_id;
	r->thread_id = ev->thread_id;
	r->category_color = ev->category_id | (uint64_t)ev->color << 32;
	r->shape = shape;
	memcpy(r->text, tmp, RUN_TEXT);
	r->len = (unsigned char)(p - tmp);
	return r;
}

/*
 * Writes ev's run (the arguments from TimeBase to ThreadId or Color) and
 * returns the end.  `shape` is the key's first part: the line's present
 * bits of the run's arguments, RUN_OPTIONALS for the longer run, and the
 * TimeBase << 16, which is taken whole only when it is present and so in
 * range (line_bound); when absent, its field is not in the text.  The slot is a multiplicative hash of the values that
 * change from line to line (ProcessId and TimeBase seldom do), so that the
 * runs of a trace's threads, categories and colors seldom evict each
 * other; the key is compared without a branch per field.
 */
static inline char *put_run(char *p, struct printer *pr, const struct nvtxt_event *ev, uint32_t shape)
{
	uint64_t cc = ev->category_id | (uint64_t)ev->color << 32;
	uint64_t h = ((uint64_t)ev->thread_id ^ cc) * 0x9E3779B97F4A7C15u;
	struct run *r = &pr->runs[h >> (64 - RUN_SLOTS_LOG2)];

	if (((uint64_t)(r->process_id ^ ev->process_id) | (uint64_t)(r->thread_id ^ ev->thread_id) |
	     (r->category_color ^ cc) | (r->shape ^ shape)) != 0)
		r = run_fill(r, pr, shape, ev);
	/* Most runs are shorter than RUN_HEAD: one fixed-size copy (LINE_BOUND has room for all RUN_TEXT). */
	memcpy(p, r->text, RUN_HEAD);
	if (r->len > RUN_HEAD)
		memcpy(p + RUN_HEAD, r->text + RUN_HEAD, RUN_TEXT - RUN_HEAD);
	return p + r->len;
}

/*
 * The line of a command whose plan is event_shape, in straight-line code;
 * inlined into emit_event, as a call's saving and restoring of registers
 * would cost as much as a field.
 */
EMIT_INLINE
static inline char *format_event(char *p, struct printer *pr, const struct nvtxt_event *ev)
{
	/* Read before the first store through p, which the compiler must assume may change them. */
	const struct command_plan *c = &pr->cmd[ev->command];
	bool start_end = c->start_end, optionals = c->optionals;
	uint32_t shape = (ev->present & c->run_mask) | c->run_flag | (uint32_t)ev->timebase << 16;

	memcpy(p, c->name, sizeof c->name);
	p += c->name_len;
	if (start_end) {
		p = put_arg(p, pr, ev, NVTXT_ARG_START);
		p = put_arg(p, pr, ev, NVTXT_ARG_END);
	} else {
		p = put_arg(p, pr, ev, NVTXT_ARG_TIME);
	}
	p = put_run(p, pr, ev, shape);
	if (optionals) {
		p = put_arg(p, pr, ev, NVTXT_ARG_MESSAGE);
		p = put_arg(p, pr, ev, NVTXT_ARG_PAYLOAD);
	}
	*p++ = '\n';
	return p;
}

/*
 * An upper bound of the length of ev's line; 0 when ev cannot be printed
 * (a command or TimeBase out of range).
 */
static inline size_t line_bound(const struct printer *pr, const struct nvtxt_event *ev)
{
	size_t n;

	if ((unsigned)ev->command >= NVTXT_CMD_COUNT ||
	    ((unsigned)ev->timebase >= NVTXT_TB_COUNT &&
	     (ev->present & NVTXT_BIT(NVTXT_ARG_TIMEBASE))))
		return 0;
	n = pr->cmd[ev->command].bound;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		n += ev->message.len;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_NAME))
		n += ev->name.len;
	return n;
}

/*
 * Writes ev's line, '\n' included, at p, which must have room for
 * line_bound(pr, ev) bytes, and returns its end.
 */
static char *format_line(char *p, struct printer *pr, const struct nvtxt_event *ev)
{
	return pr->cmd[ev->command].event_shape ? format_event(p, pr, ev)
						: format_generic(p, pr, ev);
}

/*
 * The writer's buffer: lines are stored here and handed to fwrite when it
 * is full.  A line whose strings are shorter than FAST_STRING is at most
 * FAST_LINE bytes long: while that much is free, emit_event needs no
 * bound of its own.
 */
enum {
	EMIT_BUFFER = 64 * 1024,
	FAST_STRING = 256,
	FAST_LINE = LINE_BOUND(NVTXT_ARG_COUNT) + 2 * FAST_STRING,
};

struct nvtxt_emit_nvtxt {
	FILE *out;
	size_t n;                 /* bytes of buf in use */
	size_t fast_below;        /* EMIT_BUFFER - FAST_LINE + 1; 0 after an error (set_error) */
	int error;                /* the first write error (errno), then every call fails */
	struct printer pr;
	char buf[EMIT_BUFFER];
};

/* Remembers the first write error (errno): every later call fails, none by emit_event's fast path. */
static void set_error(struct nvtxt_emit_nvtxt *w)
{
	w->error = errno;
	w->fast_below = 0;
}

struct nvtxt_emit_nvtxt *nvtxt_emit_nvtxt_new(FILE *out)
{
	struct nvtxt_emit_nvtxt *w = malloc(sizeof *w);

	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->out = out;
	w->n = 0;
	w->fast_below = EMIT_BUFFER - FAST_LINE + 1;
	w->error = 0;
	printer_init(&w->pr);
	return w;
}

/* Hands `n` bytes at p to fwrite; 0, or -1 with errno set (EIO when the stream says nothing). */
static int write_out(FILE *out, const char *p, size_t n)
{
	errno = 0;
	if (n && (fwrite(p, 1, n, out) != n || ferror(out))) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Writes the buffer out; 0, or -1 with errno set (and remembered). */
static int drain(struct nvtxt_emit_nvtxt *w)
{
	if (w->error) {
		errno = w->error;
		return -1;
	}
	if (write_out(w->out, w->buf, w->n) != 0) {
		set_error(w);
		return -1;
	}
	w->n = 0;
	return 0;
}

/*
 * Writes ev's line when the buffer has no room for line_bound(pr, ev) =
 * bound bytes (0: ev cannot be printed): writes the buffer out to make
 * room, or, for a line longer than the buffer, formats it on the heap.
 * Returns 0, or -1 with errno set.
 */
EMIT_COLD
static int write_line_slow(struct nvtxt_emit_nvtxt *w, const struct nvtxt_event *ev, size_t bound)
{
	char *line;
	int rc;

	if (!bound) {
		errno = EINVAL;
		return -1;
	}
	if (drain(w) != 0)
		return -1;
	if (bound <= sizeof w->buf) {
		w->n = (size_t)(format_line(w->buf, &w->pr, ev) - w->buf);
		return 0;
	}
	line = malloc(bound);
	if (!line) {
		errno = ENOMEM;
		return -1;
	}
	rc = write_out(w->out, line, (size_t)(format_line(line, &w->pr, ev) - line));
	if (rc != 0)
		set_error(w);
	free(line);
	return rc;
}

/* emit_event for a line that may not fit, or not be printable: with its own bound. */
static int emit_bounded(struct nvtxt_emit_nvtxt *w, const struct nvtxt_event *ev)
{
	size_t bound = line_bound(&w->pr, ev);

	if (!bound || bound > sizeof w->buf - w->n || w->error)
		return write_line_slow(w, ev, bound);
	w->n = (size_t)(format_line(w->buf + w->n, &w->pr, ev) - w->buf);
	return 0;
}

/*
 * Most lines take the first way: command and TimeBase in range (the
 * TimeBase even when absent, for one test less), strings shorter than
 * FAST_STRING, FAST_LINE bytes free and no error.
 */
static int emit_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_emit_nvtxt *w = user;
	char *p;

	if ((unsigned)ev->command >= NVTXT_CMD_COUNT || (unsigned)ev->timebase >= NVTXT_TB_COUNT ||
	    (ev->message.len | ev->name.len) >= FAST_STRING || w->n >= w->fast_below)
		return emit_bounded(w, ev);
	p = w->buf + w->n;
	p = w->pr.cmd[ev->command].event_shape ? format_event(p, &w->pr, ev)
					       : format_generic(p, &w->pr, ev);
	w->n = (size_t)(p - w->buf);
	return 0;
}

int nvtxt_emit_nvtxt_flush(struct nvtxt_emit_nvtxt *w)
{
	if (drain(w) != 0)
		return -1;
	if (fflush(w->out) != 0 || ferror(w->out)) {
		if (!errno)
			errno = EIO;
		set_error(w);
		return -1;
	}
	return 0;
}

static int emit_finish(void *user)
{
	return nvtxt_emit_nvtxt_flush(user);
}

void nvtxt_emit_nvtxt_free(struct nvtxt_emit_nvtxt *w)
{
	free(w);
}

struct nvtxt_backend nvtxt_emit_nvtxt_backend(struct nvtxt_emit_nvtxt *w)
{
	return (struct nvtxt_backend){ .user = w, .event = emit_event, .finish = emit_finish };
}

/* The printer (9 KiB with its runs) and the line are on the heap, not on the caller's stack. */
int nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev)
{
	struct printer *pr = malloc(sizeof *pr);
	char *line = NULL;
	size_t bound;
	int rc = -1, err;

	if (!pr) {
		errno = ENOMEM;
		return -1;
	}
	printer_init(pr);
	bound = line_bound(pr, ev);
	if (!bound)
		errno = EINVAL;
	else if (!(line = malloc(bound)))
		errno = ENOMEM;
	else
		rc = write_out(out, line, (size_t)(format_line(line, pr, ev) - line));
	err = errno;
	free(line);
	free(pr);
	errno = err;
	return rc;
}
