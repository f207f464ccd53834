/*
 * emit_chrome.c - the Trace Event Format back end (emit_chrome.h;
 * nvtxtc(1), CHROME TRACE EVENTS).
 *
 * The document is
 *
 *   {"displayTimeUnit":"ns","traceEvents":[EVENT,EVENT,...],"otherData":{...}}
 *
 * Every EVENT and the members around the array are serialised by jansson
 * (json_dumpb into a reused buffer); this file writes only the fixed
 * framing: the braces, the key "traceEvents" with its brackets, and the
 * commas between events.  The JSON values of an event are kept from one
 * event to the next (one template object per phase, sharing value nodes
 * that are updated in place), so an event costs no allocation besides
 * jansson's copy of the name.
 *
 * Timestamps: the Trace Event Format counts microseconds, and viewers
 * read "ts" as a JSON number (a double).  A time of 1.7e18 ns has 19
 * significant digits, more than a double holds, so ts counts from an
 * origin: the first event's time in nanoseconds, rounded toward zero to a
 * whole second, given exactly (an integer) as otherData.nvtxtc_time_origin_ns.
 * An offset below 10^15 ns (11.5 days) has at most 15 significant digits
 * as microseconds with three decimals, which a double holds and jansson
 * prints exactly at precision 15; a larger offset is printed at precision
 * 17 (the nearest double) and the event's exact nanoseconds are added as
 * args.ns.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "emit_chrome.h"
#include "util.h"

#define NS_PER_S INT64_C(1000000000)
#define EXACT_OFFSET_LIMIT INT64_C(1000000000000000) /* 10^15 ns: 15 significant digits of us */

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

struct nvtxt_chrome {
	FILE *out;
	struct nvtxt_tconv tc;
	bool started, any_event, origin_known;
	int64_t origin_ns;

	/* the reused JSON values */
	json_t *tmpl[PH_COUNT];
	json_t *v_name, *v_cat, *v_ts, *v_pid, *v_tid, *v_id;
	json_t *args, *a_end_args;
	json_t *a_category, *a_color, *a_payload, *a_line, *a_ns, *a_end_line;
	char *buf;
	size_t buf_cap;

	struct category *cats;
	size_t ncats, cats_cap;
	struct idmap cat_index;     /* (id, 0) -> index in cats */
	uint64_t generation;        /* bumped when a name or parent changes */

	char *display_name;
	char error[320];
	struct nvtxt_loc error_loc;
	bool has_error;
};

static json_t *must(json_t *j)
{
	if (!j) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
	return j;
}

/* Adds key -> value (a reused node, referenced once more) to obj. */
static void put(json_t *obj, const char *key, json_t *value)
{
	if (json_object_set(obj, key, value) != 0) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
}

static void put_new(json_t *obj, const char *key, json_t *value)
{
	if (json_object_set_new(obj, key, must(value)) != 0) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
}

struct nvtxt_chrome *nvtxt_chrome_new(FILE *out, const struct nvtxt_tconv *tc)
{
	struct nvtxt_chrome *c = xcalloc(1, sizeof *c);
	static const char *const ph_name[PH_COUNT] = { "B", "E", "i", "b", "e" };

	c->out = out;
	c->tc = *tc;
	c->v_name = must(json_string(""));
	c->v_cat = must(json_string(""));
	c->v_ts = must(json_real(0));
	c->v_pid = must(json_integer(0));
	c->v_tid = must(json_integer(0));
	c->v_id = must(json_integer(0));
	c->args = must(json_object());
	c->a_end_args = must(json_object());
	c->a_category = must(json_integer(0));
	c->a_color = must(json_string("0x00000000"));
	c->a_payload = must(json_integer(0));
	c->a_line = must(json_integer(0));
	c->a_ns = must(json_integer(0));
	c->a_end_line = must(json_integer(0));
	put(c->a_end_args, "line", c->a_end_line);
	for (int p = 0; p < PH_COUNT; p++) {
		json_t *t = c->tmpl[p] = must(json_object());

		put(t, "name", c->v_name);
		if (p != PH_E)
			put(t, "cat", c->v_cat);
		put_new(t, "ph", json_string(ph_name[p]));
		if (p == PH_I)
			put_new(t, "s", json_string("t"));
		if (p == PH_AB || p == PH_AE)
			put(t, "id", c->v_id);
		put(t, "ts", c->v_ts);
		put(t, "pid", c->v_pid);
		put(t, "tid", c->v_tid);
		if (p == PH_E)
			put(t, "args", c->a_end_args);
		else if (p != PH_AE)
			put(t, "args", c->args);
	}
	c->buf_cap = 4096;
	c->buf = xmalloc(c->buf_cap);
	return c;
}

void nvtxt_chrome_free(struct nvtxt_chrome *c)
{
	if (!c)
		return;
	json_t *nodes[] = { c->v_name, c->v_cat, c->v_ts, c->v_pid, c->v_tid, c->v_id, c->args,
			    c->a_end_args, c->a_category, c->a_color, c->a_payload, c->a_line, c->a_ns,
			    c->a_end_line };
	for (int p = 0; p < PH_COUNT; p++)
		json_decref(c->tmpl[p]);
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
		json_decref(nodes[i]);
	for (size_t i = 0; i < c->ncats; i++) {
		free(c->cats[i].name);
		free(c->cats[i].path);
	}
	free(c->cats);
	idmap_free(&c->cat_index);
	free(c->display_name);
	free(c->buf);
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

/* Serialises j (flags: jansson's) and writes it; returns 0 or -1 with errno. */
static int write_json(struct nvtxt_chrome *c, const json_t *j, size_t flags)
{
	size_t n = json_dumpb(j, c->buf, c->buf_cap, flags);

	if (n == 0) {
		errno = EINVAL; /* cannot happen: every value is valid */
		return -1;
	}
	if (n > c->buf_cap) {
		c->buf_cap = n + n / 2;
		c->buf = xrealloc(c->buf, c->buf_cap);
		n = json_dumpb(j, c->buf, c->buf_cap, flags);
	}
	return write_bytes(c, c->buf, n);
}

/* The document's start: {"displayTimeUnit":"ns","traceEvents":[ */
static int start(struct nvtxt_chrome *c)
{
	json_t *head;
	int rc;

	if (c->started)
		return 0;
	c->started = true;
	head = must(json_object());
	put_new(head, "displayTimeUnit", json_string("ns"));
	rc = write_bytes(c, "{", 1) || write_json(c, head, JSON_COMPACT | JSON_EMBED) ||
	     write_bytes(c, ",\"traceEvents\":[", 16);
	json_decref(head);
	return rc ? -1 : 0;
}

/* Writes one event object of the array, with the comma before it. */
static int write_event(struct nvtxt_chrome *c, const json_t *j, size_t precision)
{
	if (start(c) != 0)
		return -1;
	if (c->any_event && write_bytes(c, ",\n", 2) != 0)
		return -1;
	if (!c->any_event && write_bytes(c, "\n", 1) != 0)
		return -1;
	c->any_event = true;
	return write_json(c, j, JSON_COMPACT | JSON_REAL_PRECISION(precision));
}

static void set_string(json_t *j, struct nvtxt_str s)
{
	/* the front end hands over valid UTF-8 (nvtxt.h); jansson checks it again */
	if (json_string_setn(j, s.ptr ? s.ptr : "", s.len) != 0)
		json_string_set(j, "\xEF\xBF\xBD"); /* U+FFFD: not valid UTF-8 */
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
	json_t *m = must(json_object()), *args = must(json_object()), *v = must(json_string(""));
	int rc;

	put_new(m, "name", json_string(what));
	put_new(m, "ph", json_string("M"));
	put_new(m, "pid", json_integer(pid));
	if (tid >= 0)
		put_new(m, "tid", json_integer(tid));
	set_string(v, name);
	put_new(args, "name", v);
	put_new(m, "args", args);
	rc = write_event(c, m, 15);
	json_decref(m);
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

/*
 * Sets v_ts to time t of ev's time base, as microseconds from the origin;
 * returns the precision to print it with (15: exact; 17: the nearest
 * double, and args.ns is set), or -1 with errno and the error message.
 */
static int set_ts(struct nvtxt_chrome *c, const struct nvtxt_event *ev, int64_t t, bool *exact,
		  int64_t *ns)
{
	__int128 off;

	if (nvtxt_tconv_apply(&c->tc, ev->timebase, t, ns) != 0)
		return fail_time(c, ev, t);
	if (!c->origin_known) {
		c->origin_ns = *ns / NS_PER_S * NS_PER_S; /* toward zero: never overflows */
		c->origin_known = true;
	}
	off = (__int128)*ns - c->origin_ns;
	*exact = off > -EXACT_OFFSET_LIMIT && off < EXACT_OFFSET_LIMIT;
	json_real_set(c->v_ts, (double)off / 1000.0);
	return 0;
}

/* Fills the shared args object from ev's optional arguments and line. */
static void set_args(struct nvtxt_chrome *c, const struct nvtxt_event *ev, bool exact, int64_t ns)
{
	static const char hexdig[] = "0123456789ABCDEF";
	uint32_t p = ev->present;

	if (p & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) {
		json_integer_set(c->a_category, ev->category_id);
		put(c->args, "category_id", c->a_category);
	} else {
		json_object_del(c->args, "category_id");
	}
	if (p & NVTXT_BIT(NVTXT_ARG_COLOR)) {
		char text[11] = "0x";
		for (int i = 0; i < 8; i++)
			text[2 + i] = hexdig[(ev->color >> (28 - 4 * i)) & 15];
		text[10] = '\0';
		json_string_setn_nocheck(c->a_color, text, 10);
		put(c->args, "color", c->a_color);
	} else {
		json_object_del(c->args, "color");
	}
	if (p & NVTXT_BIT(NVTXT_ARG_PAYLOAD)) {
		json_integer_set(c->a_payload, ev->payload);
		put(c->args, "payload", c->a_payload);
	} else {
		json_object_del(c->args, "payload");
	}
	json_integer_set(c->a_line, ev->loc.line);
	put(c->args, "line", c->a_line);
	if (!exact) {
		json_integer_set(c->a_ns, ns);
		put(c->args, "ns", c->a_ns);
	} else {
		json_object_del(c->args, "ns");
	}
}

/* name, cat, pid and tid of an event (name and cat from `named`: a RangePop's push). */
static void set_common(struct nvtxt_chrome *c, const struct nvtxt_event *ev, const struct nvtxt_event *named,
		      json_t *tmpl)
{
	int64_t pid = (ev->present & NVTXT_BIT(NVTXT_ARG_PROCESS_ID)) ? ev->process_id : 0;
	int64_t tid = (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) ? ev->thread_id : 0;

	if (named->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		set_string(c->v_name, named->message);
	else
		json_string_setn_nocheck(c->v_name, "", 0);
	if (tmpl != c->tmpl[PH_E]) {
		if (named->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) {
			json_string_set(c->v_cat, category_path(c, named->category_id));
			put(tmpl, "cat", c->v_cat);
		} else {
			json_object_del(tmpl, "cat");
		}
	}
	json_integer_set(c->v_pid, pid);
	json_integer_set(c->v_tid, tid);
}

/* A Marker (i), RangePush (B) or RangePop (E). */
static int timed_event(struct nvtxt_chrome *c, const struct nvtxt_event *ev, enum phase ph)
{
	const struct nvtxt_event *named = ph == PH_E && ev->push ? ev->push : ev;
	bool exact = true;
	int64_t ns;

	if (set_ts(c, ev, ev->time, &exact, &ns) != 0)
		return -1;
	set_common(c, ev, named, c->tmpl[ph]);
	if (ph == PH_E) {
		json_integer_set(c->a_end_line, ev->loc.line);
		if (!exact) {
			json_integer_set(c->a_ns, ns);
			put(c->a_end_args, "ns", c->a_ns);
		} else {
			json_object_del(c->a_end_args, "ns");
		}
	} else {
		set_args(c, ev, exact, ns);
	}
	return write_event(c, c->tmpl[ph], exact ? 15 : 17);
}

/* A RangeStartEnd: an async b/e pair whose id is the event's ordinal. */
static int start_end(struct nvtxt_chrome *c, const struct nvtxt_event *ev)
{
	bool exact_b = true, exact_e = true;
	int64_t ns_b, ns_e;
	int rc;

	json_integer_set(c->v_id, (json_int_t)ev->ordinal);
	set_common(c, ev, ev, c->tmpl[PH_AB]);
	if (set_ts(c, ev, ev->start, &exact_b, &ns_b) != 0)
		return -1;
	set_args(c, ev, exact_b, ns_b);
	if (write_event(c, c->tmpl[PH_AB], exact_b ? 15 : 17) != 0)
		return -1;
	if (set_ts(c, ev, ev->end, &exact_e, &ns_e) != 0)
		return -1;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID))
		put(c->tmpl[PH_AE], "cat", c->v_cat);
	else
		json_object_del(c->tmpl[PH_AE], "cat");
	if (!exact_e) {
		json_t *args = must(json_object());
		put_new(args, "ns", json_integer(ns_e));
		json_object_set_new(c->tmpl[PH_AE], "args", args);
	} else {
		json_object_del(c->tmpl[PH_AE], "args");
	}
	rc = write_event(c, c->tmpl[PH_AE], exact_e ? 15 : 17);
	return rc;
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

/* The end: ],"otherData":{...}} */
static int chrome_finish(void *user)
{
	struct nvtxt_chrome *c = user;
	json_t *tail, *other;
	int rc;

	if (start(c) != 0)
		return -1;
	tail = must(json_object());
	other = must(json_object());
	put_new(other, "producer", json_string("nvtxtc"));
	if (c->display_name) {
		json_t *v = json_string(c->display_name);
		put_new(other, "file_display_name", v ? v : json_string("\xEF\xBF\xBD"));
	}
	if (c->origin_known)
		put_new(other, "nvtxtc_time_origin_ns", json_integer(c->origin_ns));
	put_new(tail, "otherData", other);
	rc = write_bytes(c, "\n],", 3) || write_json(c, tail, JSON_COMPACT | JSON_EMBED) ||
	     write_bytes(c, "}\n", 2);
	json_decref(tail);
	if (rc || fflush(c->out) != 0 || ferror(c->out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

struct nvtxt_backend nvtxt_chrome_backend(struct nvtxt_chrome *c)
{
	return (struct nvtxt_backend){ .user = c, .event = chrome_event, .finish = chrome_finish };
}
