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
 * is that pattern.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "nvtxt/emit_nvtxt.h"

/* Keeps a rarely taken path out of line, so that the per-event code stays small. */
#if defined(__GNUC__)
#define EMIT_COLD __attribute__((cold, noinline))
#else
#define EMIT_COLD
#endif

/* A value printed before and its text, so that printing it again is a copy. */
struct memo {
	uint64_t key;
	char text[24];                 /* the text, then bytes that do not matter */
	unsigned char len;
};

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
	} cmd[NVTXT_CMD_COUNT];
	struct {
		char text[24];         /* the TimeBase's name as a quoted string: "Qpc" */
		unsigned char len;
	} tb[NVTXT_TB_COUNT];
	struct memo process_id, thread_id, color;
};

/*
 * The most bytes one argument takes on a line, not counting the bytes of
 * a Message or Name string: ", " and a copied 24-byte field (the bytes
 * past the value are overwritten later) or an integer (at most 21 bytes
 * stored).
 */
#define ARG_BOUND 26
/* The same for a line: the 24-byte name field, the arguments, '\n'. */
#define LINE_BOUND(nargs) (24 + (size_t)(nargs) * ARG_BOUND + 1)

/* "00", "01", ..., "99": two digits per table lookup. */
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

/* Writes s quoted (2 + s.len bytes) and returns the end. */
static char *put_string(char *p, struct nvtxt_str s)
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
		return put_i64(p, ev->time);
	case NVTXT_ARG_START:
		return put_i64(p, ev->start);
	case NVTXT_ARG_END:
		return put_i64(p, ev->end);
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

/* The line of a command whose plan is event_shape, in straight-line code. */
static char *format_event(char *p, struct printer *pr, const struct nvtxt_event *ev)
{
	const struct command_plan *c = &pr->cmd[ev->command];

	memcpy(p, c->name, sizeof c->name);
	p += c->name_len;
	if (c->start_end) {
		p = put_arg(p, pr, ev, NVTXT_ARG_START);
		p = put_arg(p, pr, ev, NVTXT_ARG_END);
	} else {
		p = put_arg(p, pr, ev, NVTXT_ARG_TIME);
	}
	p = put_arg(p, pr, ev, NVTXT_ARG_TIMEBASE);
	p = put_arg(p, pr, ev, NVTXT_ARG_PROCESS_ID);
	p = put_arg(p, pr, ev, NVTXT_ARG_THREAD_ID);
	if (c->optionals) {
		p = put_arg(p, pr, ev, NVTXT_ARG_CATEGORY_ID);
		p = put_arg(p, pr, ev, NVTXT_ARG_COLOR);
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
static size_t line_bound(const struct printer *pr, const struct nvtxt_event *ev)
{
	size_t n;

	if ((unsigned)ev->command >= NVTXT_CMD_COUNT ||
	    ((ev->present & NVTXT_BIT(NVTXT_ARG_TIMEBASE)) &&
	     (unsigned)ev->timebase >= NVTXT_TB_COUNT))
		return 0;
	n = LINE_BOUND(pr->cmd[ev->command].nargs);
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

/* The writer's buffer: lines are stored here and handed to fwrite when it is full. */
enum { EMIT_BUFFER = 64 * 1024 };

struct nvtxt_emit_nvtxt {
	FILE *out;
	size_t n;                 /* bytes of buf in use */
	int error;                /* the first write error (errno), then every call fails */
	struct printer pr;
	char buf[EMIT_BUFFER];
};

struct nvtxt_emit_nvtxt *nvtxt_emit_nvtxt_new(FILE *out)
{
	struct nvtxt_emit_nvtxt *w = malloc(sizeof *w);

	if (!w) {
		errno = ENOMEM;
		return NULL;
	}
	w->out = out;
	w->n = 0;
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
		w->error = errno;
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
		w->error = errno;
	free(line);
	return rc;
}

static int emit_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_emit_nvtxt *w = user;
	size_t bound = line_bound(&w->pr, ev);

	if (!bound || bound > sizeof w->buf - w->n || w->error)
		return write_line_slow(w, ev, bound);
	w->n = (size_t)(format_line(w->buf + w->n, &w->pr, ev) - w->buf);
	return 0;
}

int nvtxt_emit_nvtxt_flush(struct nvtxt_emit_nvtxt *w)
{
	if (drain(w) != 0)
		return -1;
	if (fflush(w->out) != 0 || ferror(w->out)) {
		if (!errno)
			errno = EIO;
		w->error = errno;
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

int nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev)
{
	struct printer pr;
	char local[1024], *line;
	size_t bound;
	int rc;

	printer_init(&pr);
	bound = line_bound(&pr, ev);
	if (!bound) {
		errno = EINVAL;
		return -1;
	}
	line = bound <= sizeof local ? local : malloc(bound);
	if (!line) {
		errno = ENOMEM;
		return -1;
	}
	rc = write_out(out, line, (size_t)(format_line(line, &pr, ev) - line));
	if (line != local)
		free(line);
	return rc;
}
