/*
 * emit_chrome.c - the Trace Event Format back end (emit_chrome.h;
 * nvtxtc(1), CHROME TRACE EVENTS): NVTXT calls mapped to Trace Event
 * Format events, which trace_writer.c writes.
 *
 * Push/pop ranges: a complete event X (ts, dur) written at the pop, when
 * its end is known, with the push's name, category and args; the output
 * is then not sorted by ts, which the format allows ("the events do not
 * have to be in timestamp-sorted order") and every viewer sorts.  A range
 * of length zero is a B and an E with the same args instead: speedscope
 * 1.25 (src/import/trace-event.ts) turns an X into a B and an E, sorts
 * the X at one time by duration, longest first, and at one timestamp takes
 * an E before a B unless the two have the same name and args, so a
 * zero-length X followed by a sibling at the same time lost its E and
 * broke the nesting; explicit B/E pairs come first at their time, each E
 * right after its B.  The same importer keeps the order of the file for X
 * events of the same start and duration, so a range that starts with its
 * parent (and may end with it) is held back, with its own held ranges,
 * until the parent's X is written: a parent's X always comes before its
 * children's of the same start (memory: one held range per level of such
 * a chain).  A push still open at end of file ends at its thread's latest
 * time, with args.unclosed.
 *
 * Conversion errors (a time base without a known rate, a time outside
 * int64 nanoseconds) do not stop the compile: each is kept (its message
 * and location), nothing more is written, and `finish` fails with the
 * first one's status (enum nvtxt_status) so that the driver reports them
 * all, in line order (nvtxt_chrome_error).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit_chrome.h"
#include "trace_writer.h"
#include "util.h"

#define KEPT_ERRORS 1000 /* messages kept; the rest are counted */
#define NS_PER_S INT64_C(1000000000)

/* A category: its name (NULL until NameCategory), its parent, its cached path. */
struct category {
	uint32_t id;
	bool has_parent;
	uint32_t parent;
	char *name;
	char *path;                 /* "parent/child", or NULL when stale */
	size_t path_len;
	uint64_t path_generation;
};

/* A range held back until its parent's is written (the head of this file says why). */
struct held {
	struct nvtxt_trace_event te;  /* name and cat point at the copies below */
	char *name, *cat;
};

/* An open push: its start, and where the ranges held for it begin in its thread's list. */
struct open_range {
	int64_t start_ns;
	size_t held_from;
};

/*
 * A thread: its latest time so far (where its pushes left open at end of
 * file end), its open pushes, and its ranges held back (each open push's
 * descendants from its held_from on, in the order they are to be written).
 */
struct thread_time {
	int64_t pid, tid, last_ns;
	struct open_range *open;
	size_t depth, open_cap;
	struct held *held;
	size_t nheld, held_cap;
};

/* A push left open at end of file, written at finish. */
struct open_push {
	char *name;                 /* its Message, "" without one */
	bool has_cat, has_payload;
	uint32_t category_id, line;
	int64_t payload, pid, tid, ns;
};

struct conv_error {
	struct nvtxt_loc loc;
	char message[320];
};

struct nvtxt_chrome {
	struct nvtxt_trace_writer *w;
	bool shared;                /* w is the merged document's (nvtxt_chrome_new_shared) */
	bool origin_given;          /* the writer has been told its origin (the head of this file) */
	struct nvtxt_tconv tc;

	struct thread_time *threads;
	size_t nthreads, threads_cap;
	struct idmap thread_index;  /* (pid, tid) -> index in threads */
	/* index + 1 of a recent thread by a hash of (pid, tid), or 0: most events find theirs here */
	uint32_t recent_thread[64];
	struct open_push *open;
	size_t nopen, open_cap;

	struct category *cats;
	size_t ncats, cats_cap;
	struct idmap cat_index;     /* (id, 0) -> index in cats */
	size_t last_cat;            /* index + 1 of the category last asked for, or 0 */
	uint64_t generation;        /* bumped when a name or parent changes */

	char *display_name;
	struct conv_error *errors;  /* the first KEPT_ERRORS */
	size_t nerrors;             /* all of them */
	int first_status;           /* the first one's (enum nvtxt_status), which finish returns */
};

struct nvtxt_chrome *nvtxt_chrome_new(FILE *out, const struct nvtxt_tconv *tc)
{
	struct nvtxt_chrome *c = xcalloc(1, sizeof *c);

	c->w = nvtxt_trace_writer_new(out);
	c->tc = *tc;
	return c;
}

struct nvtxt_chrome *nvtxt_chrome_new_shared(struct nvtxt_trace_writer *w, const struct nvtxt_tconv *tc)
{
	struct nvtxt_chrome *c = xcalloc(1, sizeof *c);

	c->w = w;
	c->shared = true;
	c->tc = *tc;
	return c;
}

void nvtxt_chrome_free(struct nvtxt_chrome *c)
{
	if (!c)
		return;
	if (!c->shared)
		nvtxt_trace_writer_free(c->w);
	for (size_t i = 0; i < c->ncats; i++) {
		free(c->cats[i].name);
		free(c->cats[i].path);
	}
	free(c->cats);
	idmap_free(&c->cat_index);
	for (size_t i = 0; i < c->nthreads; i++) {
		for (size_t k = 0; k < c->threads[i].nheld; k++) {
			free(c->threads[i].held[k].name);
			free(c->threads[i].held[k].cat);
		}
		free(c->threads[i].held);
		free(c->threads[i].open);
	}
	free(c->threads);
	idmap_free(&c->thread_index);
	for (size_t i = 0; i < c->nopen; i++)
		free(c->open[i].name);
	free(c->open);
	free(c->display_name);
	free(c->errors);
	free(c);
}

struct nvtxt_trace_writer *nvtxt_chrome_writer(struct nvtxt_chrome *c)
{
	return c->w;
}

const char *nvtxt_chrome_display_name(const struct nvtxt_chrome *c)
{
	return c->display_name;
}

size_t nvtxt_chrome_errors(const struct nvtxt_chrome *c)
{
	return c->nerrors;
}

const char *nvtxt_chrome_error(const struct nvtxt_chrome *c, size_t i, struct nvtxt_loc *loc)
{
	if (i >= c->nerrors || i >= KEPT_ERRORS)
		return NULL;
	if (loc)
		*loc = c->errors[i].loc;
	return c->errors[i].message;
}

/* --- categories --------------------------------------------------------- */

static inline struct category *category(struct nvtxt_chrome *c, uint32_t id)
{
	int inserted;
	uint32_t *slot;

	/* events of one category come in a row: the last one first */
	if (c->last_cat && c->cats[c->last_cat - 1].id == id)
		return &c->cats[c->last_cat - 1];
	slot = idmap_put(&c->cat_index, id, 0, (uint32_t)c->ncats, &inserted);
	if (inserted) {
		xgrow((void **)&c->cats, &c->cats_cap, c->ncats + 1, sizeof *c->cats);
		c->cats[c->ncats++] = (struct category){ .id = id };
	}
	c->last_cat = (size_t)*slot + 1;
	return &c->cats[*slot];
}

/* Builds the path of category id (category_path) again: its cache was stale. */
static struct category *category_path_build(struct nvtxt_chrome *c, uint32_t id)
{
	struct category *cat;
	struct buf b = { 0 };
	uint32_t chain[64];
	size_t n = 0;

	/* walk up (the checker rejects cycles; the walk stops at 64 levels anyway) */
	for (uint32_t x = id;;) {
		struct category *k = category(c, x);
		chain[n++] = x;
		if (!k->has_parent || n == sizeof chain / sizeof chain[0])
			break;
		x = k->parent;
	}
	while (n--) {
		struct category *k = category(c, chain[n]);
		if (k->name)
			buf_adds(&b, k->name);
		else
			buf_printf(&b, "%" PRIu32, k->id);
		if (n)
			buf_addc(&b, '/');
	}
	cat = category(c, id); /* the array may have moved */
	free(cat->path);
	/* the buffer's memory is a temporary (util.h): keep a copy */
	cat->path = xstrndup(b.ptr ? b.ptr : "", b.len);
	cat->path_len = b.len;
	buf_free(&b);
	cat->path_generation = c->generation;
	return cat;
}

/*
 * The category's path: its ancestors' names (or IDs, for an unnamed one)
 * from the root, joined by '/'.  Cached until a name or a parent changes;
 * inline, as nearly every event asks for the one it asked for last.
 */
static inline struct nvtxt_str category_path(struct nvtxt_chrome *c, uint32_t id)
{
	struct category *cat = category(c, id);

	if (!(cat->path && cat->path_generation == c->generation))
		cat = category_path_build(c, id);
	return (struct nvtxt_str){ cat->path, cat->path_len };
}

/* --- times ------------------------------------------------------------- */

/*
 * Keeps the conversion error of time t of ev (status: NVTXT_ERR_TIME_NO_RATE
 * or NVTXT_ERR_TIME_RANGE, from nvtxt_tconv_apply); returns -1.
 */
static int fail_time(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t t, int status)
{
	if (!c->nerrors)
		c->first_status = status;
	if (c->nerrors < KEPT_ERRORS) {
		struct conv_error *ce;
		if (!c->errors)
			c->errors = xcalloc(KEPT_ERRORS, sizeof *c->errors);
		ce = &c->errors[c->nerrors];
		nvtxt_tconv_error(&c->tc, ev->timebase, t, status, ce->message, sizeof ce->message);
		ce->loc = ev->loc;
		/* a RangeStartEnd's two times of one unknown rate: one error */
		if (c->nerrors && ce[-1].loc.line == ce->loc.line && strcmp(ce[-1].message, ce->message) == 0)
			return -1;
	}
	c->nerrors++;
	return -1;
}

static int64_t pid_of(const struct nvtxt_event *ev)
{
	return (ev->present & NVTXT_BIT(NVTXT_ARG_PROCESS_ID)) ? ev->process_id : 0;
}

static int64_t tid_of(const struct nvtxt_event *ev)
{
	return (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) ? ev->thread_id : 0;
}

/* thread_time when the thread is not in its slot: from the index, added (with last_ns = ns) when new. */
static struct thread_time *thread_lookup(struct nvtxt_chrome *c, int64_t pid, int64_t tid, int64_t ns, unsigned h)
{
	int inserted;
	uint32_t *slot = idmap_put(&c->thread_index, (uint64_t)pid, (uint64_t)tid, (uint32_t)c->nthreads, &inserted);

	if (inserted) {
		xgrow((void **)&c->threads, &c->threads_cap, c->nthreads + 1, sizeof *c->threads);
		c->threads[c->nthreads++] = (struct thread_time){ .pid = pid, .tid = tid, .last_ns = ns };
	}
	c->recent_thread[h] = *slot + 1;
	return &c->threads[*slot];
}

/* The entry of thread (pid, tid), added (with last_ns = ns) when new. */
static inline struct thread_time *thread_time(struct nvtxt_chrome *c, int64_t pid, int64_t tid, int64_t ns)
{
	/* a recent thread by its slot (a multiplicative hash of both ids) before the index */
	unsigned h = (unsigned)((((uint64_t)pid * 0xC2B2AE3D27D4EB4FULL) ^ (uint64_t)tid) * 0x9E3779B97F4A7C15ULL >> 58);
	uint32_t r = c->recent_thread[h];

	if (r && c->threads[r - 1].pid == pid && c->threads[r - 1].tid == tid)
		return &c->threads[r - 1];
	return thread_lookup(c, pid, tid, ns, h);
}

/*
 * Converts time t of ev's time base to nanoseconds (*ns) and notes it as
 * a time of ev's thread (*thread, when not NULL); the first time that
 * converts, rounded toward zero to a whole second, is the writer's origin
 * (the head of this file says why).  Returns 0, or -1 after keeping the
 * error.
 */
static int convert(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t t, int64_t *ns,
		   struct thread_time **thread)
{
	struct thread_time *tt;
	const enum nvtxt_timebase tb = ev->timebase;
	int status = NVTXT_OK;

	/* nanoseconds already (the usual time bases): no call */
	if ((unsigned)tb < NVTXT_TB_COUNT && c->tc.rule[tb].kind == NVTXT_TCONV_IDENTITY)
		*ns = t;
	else
		status = nvtxt_tconv_apply(&c->tc, tb, t, ns);
	if (status != NVTXT_OK)
		return fail_time(c, ev, t, status);
	if (!c->origin_given) { /* a shared writer keeps the origin it has */
		nvtxt_trace_writer_set_origin(c->w, *ns / NS_PER_S * NS_PER_S);
		c->origin_given = true;
	}
	tt = thread_time(c, pid_of(ev), tid_of(ev), *ns);
	if (*ns > tt->last_ns)
		tt->last_ns = *ns;
	if (thread)
		*thread = tt;
	return 0;
}

/*
 * convert of a RangeStartEnd's Start and End, in that order (either may
 * fail; both are tried).  Nanoseconds already, the usual case, note the
 * thread once.
 */
static int convert_pair(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t *start, int64_t *end)
{
	const enum nvtxt_timebase tb = ev->timebase;
	struct thread_time *tt;
	int bad;

	if ((unsigned)tb < NVTXT_TB_COUNT && c->tc.rule[tb].kind == NVTXT_TCONV_IDENTITY && c->origin_given) {
		*start = ev->start;
		*end = ev->end;
		tt = thread_time(c, pid_of(ev), tid_of(ev), *start);
		if (*start > tt->last_ns)
			tt->last_ns = *start;
		if (*end > tt->last_ns)
			tt->last_ns = *end;
		return 0;
	}
	bad = convert(c, ev, ev->start, start, NULL);
	return convert(c, ev, ev->end, end, NULL) != 0 || bad ? -1 : 0;
}

/* --- events ------------------------------------------------------------- */

/*
 * The members that ev gives every event it makes: name, cat, pid, tid,
 * args with line and payload.  Not its color: no viewer of the format
 * colors an event by an argument (nvtxtc(1), CHROME TRACE EVENTS).
 */
static inline void base(struct nvtxt_chrome *c, const struct nvtxt_event *ev, char ph, struct nvtxt_trace_event *te)
{
	uint32_t p = ev->present;

	*te = (struct nvtxt_trace_event){ .ph = ph, .pid = pid_of(ev), .tid = tid_of(ev),
					  .args = NVTXT_TRACE_ARG_LINE, .line = ev->loc.line };
	if (p & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		te->name = ev->message;
	if (p & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID))
		te->cat = category_path(c, ev->category_id);
	if (p & NVTXT_BIT(NVTXT_ARG_PAYLOAD)) {
		te->args |= NVTXT_TRACE_ARG_PAYLOAD;
		te->payload = ev->payload;
	}
}

/*
 * A range from start_ns to end_ns: one X event, or, when it is not longer
 * than zero, a B and an E with the same name, cat and args (the head of
 * this file says why).  te has the range's members.
 */
static int range(struct nvtxt_chrome *c, struct nvtxt_trace_event *te, int64_t start_ns, int64_t end_ns)
{
	te->ts_ns = start_ns;
	if ((__int128)end_ns - start_ns > 0) {
		te->ph = 'X';
		te->dur_ns = (int64_t)((uint64_t)end_ns - (uint64_t)start_ns);
		return nvtxt_trace_writer_event(c->w, te);
	}
	te->ph = 'B';
	if (nvtxt_trace_writer_event(c->w, te) != 0)
		return -1;
	te->ph = 'E';
	te->ts_ns = end_ns;
	return nvtxt_trace_writer_event(c->w, te);
}

/* Writes the thread's held ranges from `from` on, in order, and lets them go. */
static int write_held(struct nvtxt_chrome *c, struct thread_time *t, size_t from)
{
	int rc = 0;

	for (size_t k = from; k < t->nheld; k++) {
		if (rc == 0)
			rc = nvtxt_trace_writer_event(c->w, &t->held[k].te);
		free(t->held[k].name);
		free(t->held[k].cat);
	}
	t->nheld = from;
	return rc;
}

/* Holds te back at `at`, before the ranges held for it (its descendants, from `at` on). */
static void hold(struct thread_time *t, size_t at, const struct nvtxt_trace_event *te)
{
	struct held *h;

	xgrow((void **)&t->held, &t->held_cap, t->nheld + 1, sizeof *t->held);
	memmove(&t->held[at + 1], &t->held[at], (t->nheld - at) * sizeof *t->held);
	t->nheld++;
	h = &t->held[at];
	h->te = *te;
	h->name = xstrndup(te->name.ptr ? te->name.ptr : "", te->name.len);
	h->te.name.ptr = h->name;
	h->cat = te->cat.ptr ? xstrndup(te->cat.ptr, te->cat.len) : NULL;
	h->te.cat.ptr = h->cat;
}

/* A RangePush: its start time on its thread's stack (its range is written at the pop). */
static int push(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	struct thread_time *t;
	int64_t ns;

	if (convert(c, ev, ev->time, &ns, &t) != 0 || c->nerrors)
		return 0;
	xgrow((void **)&t->open, &t->open_cap, t->depth + 1, sizeof *t->open);
	t->open[t->depth++] = (struct open_range){ ns, t->nheld };
	return 0;
}

/*
 * A RangePop: its range, from the push's time to the pop's, held back
 * when its parent starts at the same time, else written with the ranges
 * held for it.
 */
static int pop(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	const struct nvtxt_event *push = ev->push;
	struct nvtxt_trace_event te;
	struct thread_time *t;
	struct open_range o;
	int64_t end;

	if (convert(c, ev, ev->time, &end, &t) != 0 || c->nerrors || !push || !t->depth)
		return 0;
	o = t->open[--t->depth];
	base(c, push, 'X', &te);
	if (end <= o.start_ns) /* zero length: B and E, written now (it has no descendants held) */
		return range(c, &te, o.start_ns, end);
	if (t->depth && t->open[t->depth - 1].start_ns == o.start_ns) {
		te.ts_ns = o.start_ns;
		te.dur_ns = (int64_t)((uint64_t)end - (uint64_t)o.start_ns);
		hold(t, o.held_from, &te);
		return 0;
	}
	if (range(c, &te, o.start_ns, end) != 0)
		return -1;
	return write_held(c, t, o.held_from);
}

/* A Marker (i). */
static int marker(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	struct nvtxt_trace_event te;
	int64_t ns;

	if (convert(c, ev, ev->time, &ns, NULL) != 0 || c->nerrors)
		return 0;
	base(c, ev, 'i', &te);
	te.ts_ns = ns;
	return nvtxt_trace_writer_event(c->w, &te);
}

/*
 * A RangeStartEnd: an async b/e pair with the writer's next id (0, 1,
 * ...), the e without args; one of length zero (Start and End the same
 * nanosecond) is one async instant n instead, which the format and the
 * viewers show as the same slice of no length on the same async track.
 */
static int start_end(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	struct nvtxt_trace_event te;
	int64_t start, end;

	if (convert_pair(c, ev, &start, &end) != 0 || c->nerrors)
		return 0;
	base(c, ev, start == end ? 'n' : 'b', &te);
	te.id = nvtxt_trace_writer_new_id(c->w);
	te.ts_ns = start;
	if (te.ph == 'n')
		return nvtxt_trace_writer_event(c->w, &te);
	if (nvtxt_trace_writer_event(c->w, &te) != 0)
		return -1;
	te.ph = 'e';
	te.ts_ns = end;
	te.args = 0;
	return nvtxt_trace_writer_event(c->w, &te);
}

/*
 * NameOsThread and NameProcess: metadata events ("thread_name" with the
 * thread, "process_name" without one: tid < 0), written where they come.
 */
static int name_meta(struct nvtxt_chrome *c, const char *what, int64_t pid, int64_t tid,
		     struct nvtxt_str name)
{
	struct nvtxt_trace_event te = { .ph = 'M', .name = { what, strlen(what) }, .pid = pid, .tid = tid,
					.args = NVTXT_TRACE_ARG_NAME, .arg_name = name };

	return c->nerrors ? 0 : nvtxt_trace_writer_event(c->w, &te);
}

static void set_name(char **dst, struct nvtxt_str s)
{
	free(*dst);
	*dst = xstrndup(s.ptr ? s.ptr : "", s.len);
}

static int chrome_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_chrome *c = user;
	struct category *cat;

	switch (ev->command) {
	case NVTXT_CMD_MARKER:
		return marker(c, ev);
	case NVTXT_CMD_RANGE_PUSH:
		return push(c, ev);
	case NVTXT_CMD_RANGE_POP:
		return pop(c, ev);
	case NVTXT_CMD_RANGE_START_END:
		return start_end(c, ev);
	case NVTXT_CMD_NAME_CATEGORY:
		set_name(&category(c, ev->category_id)->name, ev->name);
		c->generation++;
		return 0;
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		category(c, ev->parent_category_id);
		cat = category(c, ev->category_id);
		cat->has_parent = true;
		cat->parent = ev->parent_category_id;
		c->generation++;
		return 0;
	case NVTXT_CMD_NAME_OS_THREAD:
		return name_meta(c, "thread_name", ev->process_id, ev->thread_id, ev->name);
	case NVTXT_CMD_NAME_PROCESS:
		return name_meta(c, "process_name", ev->process_id, -1, ev->name);
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		set_name(&c->display_name, ev->name);
		return 0;
	case NVTXT_CMD_COUNT:
		break;
	}
	errno = EINVAL;
	return -1;
}

/* A push still open at end of file: kept for finish (its thread's latest time is known only then). */
static int chrome_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_chrome *c = user;
	struct open_push *o;
	uint32_t p = push->present;
	int64_t ns;

	if (c->nerrors || nvtxt_tconv_apply(&c->tc, push->timebase, push->time, &ns) != 0)
		return 0;
	xgrow((void **)&c->open, &c->open_cap, c->nopen + 1, sizeof *c->open);
	o = &c->open[c->nopen++];
	*o = (struct open_push){
		.name = xstrndup((p & NVTXT_BIT(NVTXT_ARG_MESSAGE)) && push->message.ptr ? push->message.ptr : "",
				 (p & NVTXT_BIT(NVTXT_ARG_MESSAGE)) ? push->message.len : 0),
		.has_cat = p & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID),
		.has_payload = p & NVTXT_BIT(NVTXT_ARG_PAYLOAD),
		.category_id = push->category_id, .line = push->loc.line,
		.payload = push->payload, .pid = pid_of(push), .tid = tid_of(push), .ns = ns,
	};
	return 0;
}

/*
 * The ranges of the pushes left open, in the order of the pushes, each
 * ending at its thread's latest time (the greatest time of any event of
 * its thread), with args.unclosed.
 */
static int close_open_pushes(struct nvtxt_chrome *c)
{
	for (size_t i = 0; i < c->nopen; i++) {
		struct open_push *o = &c->open[i];
		struct nvtxt_trace_event te = {
			.name = { o->name, strlen(o->name) }, .pid = o->pid, .tid = o->tid,
			.args = NVTXT_TRACE_ARG_LINE | NVTXT_TRACE_ARG_UNCLOSED, .line = o->line,
			.payload = o->payload,
		};
		if (o->has_cat)
			te.cat = category_path(c, o->category_id);
		te.args |= o->has_payload ? NVTXT_TRACE_ARG_PAYLOAD : 0;
		if (range(c, &te, o->ns, thread_time(c, o->pid, o->tid, o->ns)->last_ns) != 0)
			return -1;
	}
	/* ranges held for the open ones, after them */
	for (size_t i = 0; i < c->nthreads; i++)
		if (write_held(c, &c->threads[i], 0) != 0)
			return -1;
	return 0;
}

/*
 * The end: the open pushes' ranges, then ],"otherData":{...}} (not for a
 * shared writer: the merged document's owner ends it); after conversion
 * errors, the first one's status (NVTXT_ERR_TIME_NO_RATE or _RANGE).
 */
static int chrome_finish(void *user)
{
	struct nvtxt_chrome *c = user;
	struct nvtxt_trace_other other = { .nfiles = 0 };

	if (c->nerrors)
		return c->first_status;
	if (c->shared)
		return close_open_pushes(c);
	if (nvtxt_trace_writer_begin(c->w) != 0 || close_open_pushes(c) != 0)
		return -1;
	if (c->display_name)
		other.file_display_name = (struct nvtxt_str){ c->display_name, strlen(c->display_name) };
	return nvtxt_trace_writer_end(c->w, &other);
}

struct nvtxt_backend nvtxt_chrome_backend(struct nvtxt_chrome *c)
{
	return (struct nvtxt_backend){ .user = c, .event = chrome_event, .unclosed_push = chrome_unclosed,
				       .finish = chrome_finish };
}
