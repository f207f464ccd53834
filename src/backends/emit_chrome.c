/*
 * emit_chrome.c - the Trace Event Format back end (emit_chrome.h;
 * nvtxtc(1), CHROME TRACE EVENTS).
 *
 * The document is
 *
 *   {"displayTimeUnit":"ns","traceEvents":[EVENT,EVENT,...],"otherData":{...}}
 *
 * Every EVENT and the members around the array are serialised by json-c
 * (json_object_to_json_string_length, JSON_C_TO_STRING_PLAIN); this file
 * writes only the fixed framing: the braces, the key "traceEvents" with
 * its brackets, and the commas between events.
 *
 * json-c, not jansson (which the rest of the library uses): serialising
 * one event costs jansson 2.14 about 22,000 instructions (an snprintf of
 * every number, and for its loop check an snprintf of every object's
 * address and a hash table insertion), json-c 0.16 about 8,500 (bench/README.md,
 * issue 14).  The two libraries' headers cannot be included in one file
 * and both export json_object_get: this file includes only json-c's and
 * never calls json_object_get (nor json_object_iter_next), and the link
 * names -ljansson before -ljson-c, so the rest keeps jansson's.
 *
 * Reuse: one template object per event shape (phase, and which of cat,
 * color, payload and args.ns it has), built at its first use and kept,
 * with its value nodes, which each event updates in place; an event costs
 * no allocation (json-c keeps a string's buffer when the new one fits).
 *
 * Timestamps: the Trace Event Format counts microseconds, and viewers
 * read "ts" as a JSON number (a double).  A time of 1.7e18 ns has 19
 * significant digits, more than a double holds, so ts counts from an
 * origin: the first event's time in nanoseconds, rounded toward zero to a
 * whole second, given exactly (an integer) as otherData.nvtxtc_time_origin_ns.
 * ts is the exact decimal of the offset in microseconds (timeconv_us_text: integer
 * digits, '.', the nanoseconds' three digits without trailing zeros but
 * at least one), handed to json-c as the serialised form of its double
 * node (json_object_userdata_to_json_string, the mechanism of
 * json_object_new_double_s), so no float formatting is involved.  An
 * offset below 10^15 ns (11.5 days) has at most 15 significant digits,
 * which a double holds, so a viewer reads it exactly; a larger offset
 * also gets the event's exact nanoseconds as args.ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "emit_chrome.h"
#include "util.h"

#define NS_PER_S INT64_C(1000000000)
#define EXACT_OFFSET_LIMIT INT64_C(1000000000000000) /* 10^15 ns: 15 significant digits of us */
#define DUMP_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

/* A category: its name (NULL until NameCategory), its parent, its cached path. */
struct category {
	uint32_t id;
	bool has_parent;
	uint32_t parent;
	char *name;
	char *path;                 /* "parent/child", or NULL when stale */
	uint64_t path_generation;
};

enum phase { PH_B, PH_E, PH_I, PH_AB, PH_AE, PH_COUNT };

/* What an event shape has besides its phase's fixed members. */
enum {
	HAS_CAT = 1,        /* "cat", and args.category_id (not on E and e) */
	HAS_COLOR = 2,      /* args.color */
	HAS_PAYLOAD = 4,    /* args.payload */
	HAS_NS = 8,         /* args.ns: far from the origin */
	HAS_UNCLOSED = 16,  /* args.unclosed: the E of a push still open at end of file */
	SHAPES = 32
};

/* One event shape's object and its value nodes (NULL: not a member). */
struct shape {
	struct json_object *obj;
	struct json_object *name, *cat, *ts, *pid, *tid, *id;
	struct json_object *category, *color, *payload, *line, *ns;
	char ts_text[48];           /* the serialised form of ts (timeconv_us_text) */
};

/* A thread's latest time so far (where its pushes left open at end of file are closed). */
struct thread_time {
	int64_t pid, tid, last_ns;
};

/* A push left open at end of file, closed by an E at finish. */
struct open_push {
	char *name;                 /* its Message, "" without one */
	int64_t pid, tid;
	uint32_t line;
};

struct nvtxt_chrome {
	FILE *out;
	struct nvtxt_tconv tc;
	bool started, any_event, origin_known;
	int64_t origin_ns;

	struct shape *shapes[PH_COUNT][SHAPES];

	struct thread_time *threads;
	size_t nthreads, threads_cap;
	struct idmap thread_index;  /* (pid, tid) -> index in threads */
	struct open_push *open;
	size_t nopen, open_cap;

	struct category *cats;
	size_t ncats, cats_cap;
	struct idmap cat_index;     /* (id, 0) -> index in cats */
	uint64_t generation;        /* bumped when a name or parent changes */

	char *display_name;
	char error[320];
	struct nvtxt_loc error_loc;
	bool has_error;
};

static struct json_object *must(struct json_object *j)
{
	if (!j) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
	return j;
}

/* Adds key -> value (a new node, owned by obj from then on) to obj; returns value. */
static struct json_object *put(struct json_object *obj, const char *key, struct json_object *value)
{
	/* the keys are string constants; every key is added once */
	if (json_object_object_add_ex(obj, key, must(value),
				      JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_KEY_IS_CONSTANT) != 0) {
		json_object_put(value);
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
	return value;
}

/* A string node from the front end's text (valid UTF-8, nvtxt.h). */
static struct json_object *new_string(struct nvtxt_str s)
{
	return must(json_object_new_string_len(s.ptr ? s.ptr : "", (int)s.len));
}

/*
 * Sets the string member `key` of obj, whose node is *node, to s.  An
 * empty s replaces the node by a new one: json-c 0.16's
 * json_object_set_string_len with length 0 on a node whose text had
 * outgrown it forgets its buffer (a leak at the next longer text).
 */
static void set_member_string(struct json_object *obj, const char *key, struct json_object **node,
			      struct nvtxt_str s)
{
	if (s.len == 0) {
		struct json_object *fresh = must(json_object_new_string(""));
		if (json_object_object_add(obj, key, fresh) != 0) { /* frees the old node */
			json_object_put(fresh);
			nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
		}
		*node = fresh;
		return;
	}
	if (!json_object_set_string_len(*node, s.ptr, (int)s.len))
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
}

/* The shape of phase ph with the members in `has`, built at its first use. */
static struct shape *shape(struct nvtxt_chrome *c, enum phase ph, unsigned has)
{
	static const char *const ph_name[PH_COUNT] = { "B", "E", "i", "b", "e" };
	struct shape *sh = c->shapes[ph][has];
	struct json_object *o, *args = NULL;

	if (sh)
		return sh;
	sh = c->shapes[ph][has] = xcalloc(1, sizeof *sh);
	o = sh->obj = must(json_object_new_object());
	sh->name = put(o, "name", json_object_new_string(""));
	if (has & HAS_CAT)
		sh->cat = put(o, "cat", json_object_new_string(""));
	put(o, "ph", json_object_new_string(ph_name[ph]));
	if (ph == PH_I)
		put(o, "s", json_object_new_string("t"));
	if (ph == PH_AB || ph == PH_AE)
		sh->id = put(o, "id", json_object_new_int64(0));
	sh->ts = put(o, "ts", json_object_new_double(0));
	/* ts is written as ts_text, which every event sets (timeconv_us_text) */
	strcpy(sh->ts_text, "0.0");
	json_object_set_serializer(sh->ts, json_object_userdata_to_json_string, sh->ts_text, NULL);
	sh->pid = put(o, "pid", json_object_new_int64(0));
	sh->tid = put(o, "tid", json_object_new_int64(0));
	if (ph != PH_AE || (has & HAS_NS))
		args = put(o, "args", json_object_new_object());
	if (ph != PH_E && ph != PH_AE) {
		if (has & HAS_CAT)
			sh->category = put(args, "category_id", json_object_new_int64(0));
		if (has & HAS_COLOR)
			sh->color = put(args, "color", json_object_new_string("0x00000000"));
		if (has & HAS_PAYLOAD)
			sh->payload = put(args, "payload", json_object_new_int64(0));
	}
	if (ph != PH_AE)
		sh->line = put(args, "line", json_object_new_int64(0));
	if (has & HAS_UNCLOSED)
		put(args, "unclosed", json_object_new_boolean(1));
	if (has & HAS_NS)
		sh->ns = put(args, "ns", json_object_new_int64(0));
	return sh;
}

struct nvtxt_chrome *nvtxt_chrome_new(FILE *out, const struct nvtxt_tconv *tc)
{
	struct nvtxt_chrome *c = xcalloc(1, sizeof *c);

	c->out = out;
	c->tc = *tc;
	return c;
}

void nvtxt_chrome_free(struct nvtxt_chrome *c)
{
	if (!c)
		return;
	for (int p = 0; p < PH_COUNT; p++)
		for (int h = 0; h < SHAPES; h++)
			if (c->shapes[p][h]) {
				json_object_put(c->shapes[p][h]->obj);
				free(c->shapes[p][h]);
			}
	for (size_t i = 0; i < c->ncats; i++) {
		free(c->cats[i].name);
		free(c->cats[i].path);
	}
	free(c->cats);
	idmap_free(&c->cat_index);
	free(c->threads);
	idmap_free(&c->thread_index);
	for (size_t i = 0; i < c->nopen; i++)
		free(c->open[i].name);
	free(c->open);
	free(c->display_name);
	free(c);
}

const char *nvtxt_chrome_error(const struct nvtxt_chrome *c, struct nvtxt_loc *loc)
{
	if (!c->has_error)
		return NULL;
	if (loc)
		*loc = c->error_loc;
	return c->error;
}

static int write_bytes(struct nvtxt_chrome *c, const char *p, size_t n)
{
	if (fwrite(p, 1, n, c->out) != n) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

/* Serialises j and writes it, without the braces when `inner`; returns 0 or -1 with errno. */
static int write_json(struct nvtxt_chrome *c, struct json_object *j, bool inner)
{
	size_t n;
	const char *text = json_object_to_json_string_length(j, DUMP_FLAGS, &n);

	if (!text) {
		errno = ENOMEM;
		return -1;
	}
	if (inner) {
		/* an object's members: its text without the braces ({} has none) */
		if (n < 2)
			return 0;
		text++;
		n -= 2;
	}
	return write_bytes(c, text, n);
}

/* The document's start: {"displayTimeUnit":"ns","traceEvents":[ */
static int start(struct nvtxt_chrome *c)
{
	struct json_object *head;
	int rc;

	if (c->started)
		return 0;
	c->started = true;
	head = must(json_object_new_object());
	put(head, "displayTimeUnit", json_object_new_string("ns"));
	rc = write_bytes(c, "{", 1) || write_json(c, head, true) || write_bytes(c, ",\"traceEvents\":[", 16);
	json_object_put(head);
	return rc ? -1 : 0;
}

/* Writes one event object of the array, with the comma before it. */
static int write_event(struct nvtxt_chrome *c, struct json_object *j)
{
	if (start(c) != 0)
		return -1;
	if (write_bytes(c, c->any_event ? ",\n" : "\n", c->any_event ? 2 : 1) != 0)
		return -1;
	c->any_event = true;
	return write_json(c, j, false);
}

/* --- categories --------------------------------------------------------- */

static struct category *category(struct nvtxt_chrome *c, uint32_t id)
{
	int inserted;
	uint32_t *slot = idmap_put(&c->cat_index, id, 0, (uint32_t)c->ncats, &inserted);

	if (inserted) {
		xgrow((void **)&c->cats, &c->cats_cap, c->ncats + 1, sizeof *c->cats);
		c->cats[c->ncats++] = (struct category){ .id = id };
	}
	return &c->cats[*slot];
}

/*
 * The category's path: its ancestors' names (or IDs, for an unnamed one)
 * from the root, joined by '/'.  Cached until a name or a parent changes.
 */
static const char *category_path(struct nvtxt_chrome *c, uint32_t id)
{
	struct category *cat = category(c, id);
	struct buf b = { 0 };
	uint32_t chain[64];
	size_t n = 0;

	if (cat->path && cat->path_generation == c->generation)
		return cat->path;
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
	buf_free(&b);
	cat->path_generation = c->generation;
	return cat->path;
}

/* --- names ------------------------------------------------------------- */

/*
 * NameOsThread and NameProcess: metadata events ("thread_name" with the
 * thread, "process_name" without one: tid < 0), written where they come.
 */
static int name_meta(struct nvtxt_chrome *c, const char *what, int64_t pid, int64_t tid,
		     struct nvtxt_str name)
{
	struct json_object *m = must(json_object_new_object()), *args;
	int rc;

	put(m, "name", json_object_new_string(what));
	put(m, "ph", json_object_new_string("M"));
	put(m, "pid", json_object_new_int64(pid));
	if (tid >= 0)
		put(m, "tid", json_object_new_int64(tid));
	args = put(m, "args", json_object_new_object());
	put(args, "name", new_string(name));
	rc = write_event(c, m);
	json_object_put(m);
	return rc;
}

/* --- events ------------------------------------------------------------- */

static int fail_time(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t t)
{
	int e = errno;

	nvtxt_tconv_error(&c->tc, ev->timebase, t, e, c->error, sizeof c->error);
	c->error_loc = ev->loc;
	c->has_error = true;
	errno = e;
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

/* The entry of thread (pid, tid), added (with last_ns = ns) when new. */
static struct thread_time *thread_time(struct nvtxt_chrome *c, int64_t pid, int64_t tid, int64_t ns)
{
	int inserted;
	uint32_t *slot = idmap_put(&c->thread_index, (uint64_t)pid, (uint64_t)tid, (uint32_t)c->nthreads,
				   &inserted);

	if (inserted) {
		xgrow((void **)&c->threads, &c->threads_cap, c->nthreads + 1, sizeof *c->threads);
		c->threads[c->nthreads++] = (struct thread_time){ pid, tid, ns };
	}
	return &c->threads[*slot];
}

/* ns is a time of ev's thread: its latest so far? */
static void note_time(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t ns)
{
	struct thread_time *t = thread_time(c, pid_of(ev), tid_of(ev), ns);

	if (ns > t->last_ns)
		t->last_ns = ns;
}

/* An offset of 10^15 ns or more from the origin: a viewer reading ts as a double loses nanoseconds, so args.ns is added. */
static bool far_from_origin(__int128 off)
{
	return !(off > -EXACT_OFFSET_LIMIT && off < EXACT_OFFSET_LIMIT);
}

/*
 * Converts time t of ev's time base to nanoseconds (*ns) and its offset
 * from the origin; *far is set when the offset is 10^15 ns or more (args.ns
 * needed).  Returns 0, or -1 with errno and the error message.
 */
static int convert(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t t, int64_t *ns,
		   __int128 *off, bool *far)
{
	if (nvtxt_tconv_apply(&c->tc, ev->timebase, t, ns) != 0)
		return fail_time(c, ev, t);
	if (!c->origin_known) {
		c->origin_ns = *ns / NS_PER_S * NS_PER_S; /* toward zero: never overflows */
		c->origin_known = true;
	}
	*off = (__int128)*ns - c->origin_ns;
	*far = far_from_origin(*off);
	note_time(c, ev, *ns);
	return 0;
}

/* Sets the shape's ts (and args.ns, when it has one) from the converted time. */
static void set_time(struct shape *sh, int64_t ns, __int128 off)
{
	timeconv_us_text(sh->ts_text, off);
	if (sh->ns)
		json_object_set_int64(sh->ns, ns);
}

/* The color as a string 0xAARRGGBB. */
static void set_color(struct json_object *j, uint32_t color)
{
	static const char hexdig[] = "0123456789ABCDEF";
	char text[11] = "0x";

	for (int i = 0; i < 8; i++)
		text[2 + i] = hexdig[(color >> (28 - 4 * i)) & 15];
	text[10] = '\0';
	json_object_set_string_len(j, text, 10); /* fits the node's buffer: no allocation */
}

/* The shape of an event of phase ph (args from ev's optional arguments; far: args.ns). */
static unsigned shape_bits(const struct nvtxt_event *ev, enum phase ph, bool far)
{
	uint32_t p = ev->present;
	unsigned has = far ? HAS_NS : 0;

	if (ph != PH_E && (p & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)))
		has |= HAS_CAT;
	if (ph == PH_E || ph == PH_AE)
		return has;
	if (p & NVTXT_BIT(NVTXT_ARG_COLOR))
		has |= HAS_COLOR;
	if (p & NVTXT_BIT(NVTXT_ARG_PAYLOAD))
		has |= HAS_PAYLOAD;
	return has;
}

/*
 * Fills the shape sh from ev: name (from `named`: a RangePop's push), cat,
 * pid, tid, and the args the shape has, with `line`.
 */
static void fill(struct nvtxt_chrome *c, struct shape *sh, const struct nvtxt_event *ev,
		 const struct nvtxt_event *named, uint32_t line)
{
	if (named->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		set_member_string(sh->obj, "name", &sh->name, named->message);
	else
		set_member_string(sh->obj, "name", &sh->name, (struct nvtxt_str){ "", 0 });
	if (sh->cat) {
		const char *path = category_path(c, named->category_id);
		set_member_string(sh->obj, "cat", &sh->cat, (struct nvtxt_str){ path, strlen(path) });
	}
	json_object_set_int64(sh->pid, pid_of(ev));
	json_object_set_int64(sh->tid, tid_of(ev));
	if (sh->category)
		json_object_set_int64(sh->category, ev->category_id);
	if (sh->color)
		set_color(sh->color, ev->color);
	if (sh->payload)
		json_object_set_int64(sh->payload, ev->payload);
	if (sh->line)
		json_object_set_int64(sh->line, line);
}

/* A Marker (i), RangePush (B) or RangePop (E). */
static int timed_event(struct nvtxt_chrome *c, const struct nvtxt_event *ev, enum phase ph)
{
	const struct nvtxt_event *named = ph == PH_E && ev->push ? ev->push : ev;
	struct shape *sh;
	int64_t ns;
	__int128 off;
	bool far;

	if (convert(c, ev, ev->time, &ns, &off, &far) != 0)
		return -1;
	sh = shape(c, ph, shape_bits(ev, ph, far));
	set_time(sh, ns, off);
	fill(c, sh, ev, named, ev->loc.line);
	return write_event(c, sh->obj);
}

/* A RangeStartEnd: an async b/e pair whose id is the event's ordinal. */
static int start_end(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	struct shape *b, *e;
	int64_t ns_b, ns_e;
	__int128 off_b, off_e;
	bool far_b, far_e;

	if (convert(c, ev, ev->start, &ns_b, &off_b, &far_b) != 0)
		return -1;
	b = shape(c, PH_AB, shape_bits(ev, PH_AB, far_b));
	set_time(b, ns_b, off_b);
	fill(c, b, ev, ev, ev->loc.line);
	json_object_set_int64(b->id, (int64_t)ev->ordinal);
	if (write_event(c, b->obj) != 0)
		return -1;
	if (convert(c, ev, ev->end, &ns_e, &off_e, &far_e) != 0)
		return -1;
	e = shape(c, PH_AE, shape_bits(ev, PH_AE, far_e));
	set_time(e, ns_e, off_e);
	fill(c, e, ev, ev, ev->loc.line);
	json_object_set_int64(e->id, (int64_t)ev->ordinal);
	return write_event(c, e->obj);
}

static int chrome_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_chrome *c = user;
	struct category *cat;

	switch (ev->command) {
	case NVTXT_CMD_MARKER:
		return timed_event(c, ev, PH_I);
	case NVTXT_CMD_RANGE_PUSH:
		return timed_event(c, ev, PH_B);
	case NVTXT_CMD_RANGE_POP:
		return timed_event(c, ev, PH_E);
	case NVTXT_CMD_RANGE_START_END:
		return start_end(c, ev);
	case NVTXT_CMD_NAME_CATEGORY:
		cat = category(c, ev->category_id);
		free(cat->name);
		cat->name = xstrndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
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
		free(c->display_name);
		c->display_name = xstrndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
		return 0;
	case NVTXT_CMD_COUNT:
		break;
	}
	errno = EINVAL;
	return -1;
}

/* A push still open at end of file: kept for finish, which closes it. */
static int chrome_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_chrome *c = user;
	struct open_push *o;

	xgrow((void **)&c->open, &c->open_cap, c->nopen + 1, sizeof *c->open);
	o = &c->open[c->nopen++];
	o->name = (push->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
			  ? xstrndup(push->message.ptr ? push->message.ptr : "", push->message.len)
			  : xstrndup("", 0);
	o->pid = pid_of(push);
	o->tid = tid_of(push);
	o->line = push->loc.line;
	return 0;
}

/*
 * The E events of the pushes left open, innermost first (the reverse of
 * the pushes' order, so on each thread every E closes the B on top), each
 * at its thread's latest time, with args.unclosed and the push's line.
 */
static int close_open_pushes(struct nvtxt_chrome *c)
{
	while (c->nopen) {
		struct open_push *o = &c->open[--c->nopen];
		/* the push's own time was noted, so its thread is known */
		int64_t ns = thread_time(c, o->pid, o->tid, 0)->last_ns;
		__int128 off = (__int128)ns - c->origin_ns;
		bool far = far_from_origin(off);
		struct shape *sh = shape(c, PH_E, HAS_UNCLOSED | (far ? HAS_NS : 0));
		int rc;

		set_time(sh, ns, off);
		set_member_string(sh->obj, "name", &sh->name, (struct nvtxt_str){ o->name, strlen(o->name) });
		json_object_set_int64(sh->pid, o->pid);
		json_object_set_int64(sh->tid, o->tid);
		json_object_set_int64(sh->line, o->line);
		rc = write_event(c, sh->obj);
		free(o->name);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* The end: ],"otherData":{...}} */
static int chrome_finish(void *user)
{
	struct nvtxt_chrome *c = user;
	struct json_object *tail, *other;
	int rc;

	if (start(c) != 0 || close_open_pushes(c) != 0)
		return -1;
	tail = must(json_object_new_object());
	other = put(tail, "otherData", json_object_new_object());
	put(other, "producer", json_object_new_string("nvtxtc"));
	if (c->display_name)
		put(other, "file_display_name", json_object_new_string(c->display_name));
	if (c->origin_known)
		put(other, "nvtxtc_time_origin_ns", json_object_new_int64(c->origin_ns));
	rc = write_bytes(c, "\n],", 3) || write_json(c, tail, true) || write_bytes(c, "}\n", 2);
	json_object_put(tail);
	if (rc || fflush(c->out) != 0 || ferror(c->out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

struct nvtxt_backend nvtxt_chrome_backend(struct nvtxt_chrome *c)
{
	return (struct nvtxt_backend){ .user = c, .event = chrome_event, .unclosed_push = chrome_unclosed,
				       .finish = chrome_finish };
}
