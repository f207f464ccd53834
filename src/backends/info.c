/*
 * info.c - nvtxtc info (info.h): counters per command, thread, time base
 * and category, the open ranges, the longest ranges and the distinct
 * messages, collected event by event.  The report is built as one JSON
 * object (nvtxt_info_json); the text form is printed from that object,
 * so both always say the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

typedef __int128 i128;

struct thread {
	int64_t pid, tid;
	uint64_t events;
	uint32_t tb_mask;
	int64_t min[NVTXT_TB_COUNT], max[NVTXT_TB_COUNT];
	uint32_t depth, max_depth;
};

struct range {
	char *message;          /* NULL: no Message */
	uint32_t line, end_line;
	int64_t pid, tid;
	enum nvtxt_timebase tb;
	bool ns;                /* duration in nanoseconds, else in ticks of tb */
	i128 duration;
	bool start_end;
};

struct named {
	int64_t id, id2;
	char *name;
	bool has_parent;
	uint32_t parent;
};

struct nvtxt_info {
	struct nvtxt_tconv tc;
	uint64_t by_command[NVTXT_CMD_COUNT];
	uint64_t total;
	struct {
		uint64_t events;    /* times seen; the first and last are the threads' */
	} tb[NVTXT_TB_COUNT];

	struct thread *threads;
	size_t nthreads, threads_cap;
	struct idmap thread_index;

	struct named *procs, *tnames, *cats;
	size_t nprocs, procs_cap, ntnames, tnames_cap, ncats, cats_cap;
	struct idmap proc_index, tname_index, cat_index;

	char *display_name;

	uint64_t open_count;
	struct range open[NVTXT_INFO_TOP];
	size_t nopen;
	struct range top[NVTXT_INFO_TOP]; /* longest first */
	size_t ntop;

	/* distinct messages: open addressing on (hash, text) */
	struct msg {
		uint64_t hash;
		char *text;
		size_t len;
	} *msgs;
	size_t msgs_cap, nmsgs;
	uint64_t no_message;        /* events without a Message */

	/*
	 * Shortcuts of the per-event path (the bench's 2 million events per
	 * 100 MB): recently seen threads by (pid, tid), direct-mapped, so that
	 * most events skip the index; the last category ID registered.
	 */
	struct thread_hint {
		int64_t pid, tid;
		uint32_t index_plus_1;  /* 0: empty */
	} hint[64];
	bool cat_seen;
	uint32_t last_cat;
};

struct nvtxt_info *nvtxt_info_new(const struct nvtxt_tconv *tc)
{
	struct nvtxt_info *info = xcalloc(1, sizeof *info);

	info->tc = *tc;
	return info;
}

static void free_named(struct named *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

void nvtxt_info_free(struct nvtxt_info *info)
{
	if (!info)
		return;
	free(info->threads);
	idmap_free(&info->thread_index);
	free_named(info->procs, info->nprocs);
	free_named(info->tnames, info->ntnames);
	free_named(info->cats, info->ncats);
	idmap_free(&info->proc_index);
	idmap_free(&info->tname_index);
	idmap_free(&info->cat_index);
	free(info->display_name);
	for (size_t i = 0; i < info->nopen; i++)
		free(info->open[i].message);
	for (size_t i = 0; i < info->ntop; i++)
		free(info->top[i].message);
	for (size_t i = 0; i < info->msgs_cap; i++)
		free(info->msgs[i].text);
	free(info->msgs);
	free(info);
}

/* The entry of key (id, id2) (a thread: (ProcessId, ThreadId)), added when new. */
static struct named *named_get2(struct named **v, size_t *n, size_t *cap, struct idmap *index, int64_t id,
				int64_t id2)
{
	int inserted;
	uint32_t *slot = idmap_put(index, (uint64_t)id, (uint64_t)id2, (uint32_t)*n, &inserted);

	if (inserted) {
		xgrow((void **)v, cap, *n + 1, sizeof **v);
		(*v)[(*n)++] = (struct named){ .id = id, .id2 = id2 };
	}
	return &(*v)[*slot];
}

static struct named *named_get(struct named **v, size_t *n, size_t *cap, struct idmap *index, int64_t id)
{
	return named_get2(v, n, cap, index, id, 0);
}

static void named_set(struct named *x, struct nvtxt_str name)
{
	free(x->name);
	x->name = xstrndup(name.ptr ? name.ptr : "", name.len);
}

static struct thread *thread_of(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	int64_t pid = (ev->present & NVTXT_BIT(NVTXT_ARG_PROCESS_ID)) ? ev->process_id : 0;
	int64_t tid = (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) ? ev->thread_id : 0;
	struct thread_hint *h = &info->hint[((uint64_t)pid * 0x9E3779B97F4A7C15u ^ (uint64_t)tid) & 63];
	int inserted;
	uint32_t *slot;

	if (h->index_plus_1 && h->pid == pid && h->tid == tid)
		return &info->threads[h->index_plus_1 - 1];
	slot = idmap_put(&info->thread_index, (uint64_t)pid, (uint64_t)tid, (uint32_t)info->nthreads, &inserted);
	if (inserted) {
		xgrow((void **)&info->threads, &info->threads_cap, info->nthreads + 1, sizeof *info->threads);
		info->threads[info->nthreads] = (struct thread){ .pid = pid, .tid = tid };
		for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
			info->threads[info->nthreads].min[tb] = INT64_MAX;
			info->threads[info->nthreads].max[tb] = INT64_MIN;
		}
		info->nthreads++;
	}
	*h = (struct thread_hint){ pid, tid, *slot + 1 };
	return &info->threads[*slot];
}

/* t in nanoseconds, as nvtxt_tconv_apply (0, or -1 with errno), without the call for an identity. */
static int to_ns(const struct nvtxt_info *info, enum nvtxt_timebase tb, int64_t t, int64_t *ns)
{
	if (info->tc.rule[tb].kind == NVTXT_TCONV_IDENTITY) {
		*ns = t;
		return 0;
	}
	return nvtxt_tconv_apply(&info->tc, tb, t, ns);
}

static void see_time(struct nvtxt_info *info, struct thread *t, enum nvtxt_timebase tb, int64_t v)
{
	/* the time base's first and last are its threads' (nvtxt_info_json): only counted here */
	info->tb[tb].events++;
	if (v < t->min[tb])
		t->min[tb] = v;
	if (v > t->max[tb])
		t->max[tb] = v;
	t->tb_mask |= 1u << tb;
}

/* memcmp(a, b, n) == 0 by words, the last one overlapping (messages are short: a call to memcmp cost as much). */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t u, v;

	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, 8);
		memcpy(&y, b + n - 8, 8);
		return x == y;
	}
	if (n >= 4) {
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		if (u != v)
			return false;
		memcpy(&u, a + n - 4, 4);
		memcpy(&v, b + n - 4, 4);
		return u == v;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static void see_message(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	uint64_t h;
	size_t i;

	if (!(ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))) {
		info->no_message++;
		return;
	}
	if (2 * (info->nmsgs + 1) > info->msgs_cap) {
		struct msg *old = info->msgs;
		size_t old_cap = info->msgs_cap;

		info->msgs_cap = old_cap ? 2 * old_cap : 64;
		info->msgs = xcalloc(info->msgs_cap, sizeof *info->msgs);
		for (size_t j = 0; j < old_cap; j++) {
			if (!old[j].text)
				continue;
			for (i = old[j].hash & (info->msgs_cap - 1); info->msgs[i].text; i = (i + 1) & (info->msgs_cap - 1))
				;
			info->msgs[i] = old[j];
		}
		free(old);
	}
	h = hash_bytes(ev->message.ptr, ev->message.len);
	for (i = h & (info->msgs_cap - 1); info->msgs[i].text; i = (i + 1) & (info->msgs_cap - 1))
		if (info->msgs[i].hash == h && info->msgs[i].len == ev->message.len &&
		    same_bytes(info->msgs[i].text, ev->message.ptr, ev->message.len))
			return;
	info->msgs[i] = (struct msg){ h, xstrndup(ev->message.ptr ? ev->message.ptr : "", ev->message.len),
				      ev->message.len };
	info->nmsgs++;
}

static char *message_copy(const struct nvtxt_event *ev)
{
	if (!(ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)))
		return NULL;
	return xstrndup(ev->message.ptr ? ev->message.ptr : "", ev->message.len);
}

/* Inserts a range of rank pos into the longest ranges (see_range decided it belongs there). */
static __attribute__((noinline)) void top_insert(struct nvtxt_info *info, size_t pos, const struct nvtxt_event *ev,
						 bool ns, i128 duration, uint32_t end_line, bool start_end)
{
	struct range r = { .line = ev->loc.line, .end_line = end_line, .tb = ev->timebase, .ns = ns,
			   .duration = duration, .start_end = start_end };

	r.pid = (ev->present & NVTXT_BIT(NVTXT_ARG_PROCESS_ID)) ? ev->process_id : 0;
	r.tid = (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) ? ev->thread_id : 0;
	if (info->ntop == NVTXT_INFO_TOP)
		free(info->top[--info->ntop].message);
	memmove(&info->top[pos + 1], &info->top[pos], (info->ntop - pos) * sizeof r);
	r.message = message_copy(ev);
	info->top[pos] = r;
	info->ntop++;
}

/*
 * A range from time a to time b, both of ev's time base: one of the
 * longest?  (Most are not: one comparison with the shortest kept.)
 */
static inline void see_range(struct nvtxt_info *info, const struct nvtxt_event *ev, int64_t a, int64_t b,
			     uint32_t end_line, bool start_end)
{
	int64_t na, nb;
	bool ns;
	i128 duration;
	size_t pos;

	if (to_ns(info, ev->timebase, a, &na) == 0 && to_ns(info, ev->timebase, b, &nb) == 0) {
		ns = true;
		duration = (i128)nb - na;
	} else {
		ns = false;
		duration = (i128)b - a;
	}
	/* rank: nanoseconds before ticks, then the longer first, then the earlier line */
	for (pos = info->ntop; pos > 0; pos--) {
		const struct range *q = &info->top[pos - 1];
		if (q->ns > ns || (q->ns == ns && q->duration >= duration))
			break;
	}
	if (pos < NVTXT_INFO_TOP)
		top_insert(info, pos, ev, ns, duration, end_line, start_end);
}

static int info_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_info *info = user;
	struct thread *t;

	if ((unsigned)ev->command >= NVTXT_CMD_COUNT)
		return 0;
	info->by_command[ev->command]++;
	info->total++;
	switch (ev->command) {
	case NVTXT_CMD_NAME_CATEGORY:
		named_set(named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->category_id),
			  ev->name);
		return 0;
	case NVTXT_CMD_ADD_CHILD_CATEGORY: {
		struct named *c;
		named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->parent_category_id);
		c = named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->category_id);
		c->has_parent = true;
		c->parent = ev->parent_category_id;
		return 0;
	}
	case NVTXT_CMD_NAME_OS_THREAD:
		named_set(named_get2(&info->tnames, &info->ntnames, &info->tnames_cap, &info->tname_index,
				     ev->process_id, ev->thread_id), ev->name);
		return 0;
	case NVTXT_CMD_NAME_PROCESS:
		named_set(named_get(&info->procs, &info->nprocs, &info->procs_cap, &info->proc_index,
				    ev->process_id), ev->name);
		return 0;
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		free(info->display_name);
		info->display_name = xstrndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
		return 0;
	default:
		break;
	}
	if ((unsigned)ev->timebase >= NVTXT_TB_COUNT)
		return 0;
	t = thread_of(info, ev);
	t->events++;
	if ((ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) &&
	    !(info->cat_seen && info->last_cat == ev->category_id)) {
		named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->category_id);
		info->cat_seen = true;
		info->last_cat = ev->category_id;
	}
	switch (ev->command) {
	case NVTXT_CMD_RANGE_START_END:
		see_time(info, t, ev->timebase, ev->start);
		see_time(info, t, ev->timebase, ev->end);
		see_message(info, ev);
		see_range(info, ev, ev->start, ev->end, ev->loc.line, true);
		break;
	case NVTXT_CMD_RANGE_PUSH:
		see_time(info, t, ev->timebase, ev->time);
		see_message(info, ev);
		if (++t->depth > t->max_depth)
			t->max_depth = t->depth;
		break;
	case NVTXT_CMD_RANGE_POP:
		see_time(info, t, ev->timebase, ev->time);
		if (t->depth)
			t->depth--;
		if (ev->push)
			see_range(info, ev->push, ev->push->time, ev->time, ev->loc.line, false);
		break;
	default: /* Marker */
		see_time(info, t, ev->timebase, ev->time);
		see_message(info, ev);
		break;
	}
	return 0;
}

static int info_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_info *info = user;

	info->open_count++;
	if (info->nopen < NVTXT_INFO_TOP) {
		struct range *r = &info->open[info->nopen++];
		*r = (struct range){ .message = message_copy(push), .line = push->loc.line,
				     .pid = push->process_id, .tid = push->thread_id, .tb = push->timebase };
	}
	return 0;
}

struct nvtxt_backend nvtxt_info_backend(struct nvtxt_info *info)
{
	return (struct nvtxt_backend){ .user = info, .event = info_event, .unclosed_push = info_unclosed };
}

/* --- the report ---------------------------------------------------------- */

static json_t *must(json_t *j)
{
	if (!j) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
	return j;
}

static void put(json_t *obj, const char *key, json_t *v)
{
	if (json_object_set_new(obj, key, must(v)) != 0) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
}

static void push(json_t *arr, json_t *v)
{
	if (json_array_append_new(arr, must(v)) != 0) {
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	}
}

static json_t *str_or_null(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string("\xEF\xBF\xBD");
}

static json_t *int128_json(i128 v)
{
	if (v > INT64_MAX)
		v = INT64_MAX;
	if (v < INT64_MIN)
		v = INT64_MIN;
	return json_integer((json_int_t)v);
}

static const char *name_of(const struct named *v, const struct idmap *index, int64_t id, int64_t id2)
{
	const uint32_t *slot = idmap_get(index, (uint64_t)id, (uint64_t)id2);

	return slot ? v[*slot].name : NULL;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* A thread's time span: in ns when every time base of it converts, else in ticks of its one base. */
static void thread_span(const struct nvtxt_info *info, const struct thread *t, json_t *o)
{
	bool all_ns = true, first = true;
	int64_t lo = 0, hi = 0, a, b;
	int only = -1, bases = 0;

	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
		if (!(t->tb_mask & (1u << tb)))
			continue;
		bases++;
		only = tb;
		if (nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, t->min[tb], &a) != 0 ||
		    nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, t->max[tb], &b) != 0) {
			all_ns = false;
			continue;
		}
		if (first || a < lo)
			lo = a;
		if (first || b > hi)
			hi = b;
		first = false;
	}
	if (bases && all_ns) {
		put(o, "first_ns", json_integer(lo));
		put(o, "span_ns", int128_json((i128)hi - lo));
	} else if (bases == 1) {
		put(o, "time_base", json_string(nvtxt_timebase_name((enum nvtxt_timebase)only)));
		put(o, "first", json_integer(t->min[only]));
		put(o, "span_ticks", int128_json((i128)t->max[only] - t->min[only]));
	}
}

static json_t *range_json(const struct range *r, bool open)
{
	json_t *o = must(json_object());

	put(o, "message", str_or_null(r->message));
	put(o, "line", json_integer(r->line));
	if (!open) {
		put(o, "end_line", json_integer(r->end_line));
		put(o, "kind", json_string(r->start_end ? "RangeStartEnd" : "RangePush/RangePop"));
	}
	put(o, "process_id", json_integer(r->pid));
	put(o, "thread_id", json_integer(r->tid));
	put(o, "time_base", json_string(nvtxt_timebase_name(r->tb)));
	if (!open)
		put(o, r->ns ? "duration_ns" : "duration_ticks", int128_json(r->duration));
	return o;
}

json_t *nvtxt_info_json(const struct nvtxt_info *info, const char *file)
{
	json_t *o = must(json_object()), *by = must(json_object()), *arr;
	struct thread *threads;
	struct named *cats;

	put(o, "file", str_or_null(file));
	put(o, "display_name", str_or_null(info->display_name));
	put(o, "events", json_integer((json_int_t)info->total));
	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		put(by, nvtxt_command_name((enum nvtxt_command)c), json_integer((json_int_t)info->by_command[c]));
	put(o, "events_by_command", by);

	arr = must(json_array());
	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
		json_t *t;
		int64_t a, b, first, last;

		if (!info->tb[tb].events)
			continue;
		first = INT64_MAX;
		last = INT64_MIN;
		for (size_t i = 0; i < info->nthreads; i++) {
			const struct thread *th = &info->threads[i];
			if ((th->tb_mask & (1u << tb)) && th->min[tb] < first)
				first = th->min[tb];
			if ((th->tb_mask & (1u << tb)) && th->max[tb] > last)
				last = th->max[tb];
		}
		t = must(json_object());
		put(t, "name", json_string(nvtxt_timebase_name((enum nvtxt_timebase)tb)));
		put(t, "times", json_integer((json_int_t)info->tb[tb].events));
		put(t, "first", json_integer(first));
		put(t, "last", json_integer(last));
		if (nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, first, &a) == 0 &&
		    nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, last, &b) == 0) {
			put(t, "first_ns", json_integer(a));
			put(t, "last_ns", json_integer(b));
		} else {
			/* no rule for this time base (nvtxtc(1), TIME CONVERSION): null, not left out */
			put(t, "first_ns", json_null());
			put(t, "last_ns", json_null());
		}
		push(arr, t);
	}
	put(o, "time_bases", arr);

	threads = xmalloc((info->nthreads ? info->nthreads : 1) * sizeof *threads);
	if (info->nthreads)
		memcpy(threads, info->threads, info->nthreads * sizeof *threads);
	qsort(threads, info->nthreads, sizeof *threads, cmp_thread);
	arr = must(json_array());
	for (size_t i = 0; i < info->nthreads; i++) {
		const struct thread *t = &threads[i];
		json_t *j = must(json_object());

		put(j, "process_id", json_integer(t->pid));
		put(j, "process_name", str_or_null(name_of(info->procs, &info->proc_index, t->pid, 0)));
		put(j, "thread_id", json_integer(t->tid));
		put(j, "thread_name", str_or_null(name_of(info->tnames, &info->tname_index, t->pid, t->tid)));
		put(j, "events", json_integer((json_int_t)t->events));
		thread_span(info, t, j);
		put(j, "max_push_depth", json_integer(t->max_depth));
		push(arr, j);
	}
	free(threads);
	put(o, "threads", arr);

	cats = xmalloc((info->ncats ? info->ncats : 1) * sizeof *cats);
	if (info->ncats)
		memcpy(cats, info->cats, info->ncats * sizeof *cats);
	qsort(cats, info->ncats, sizeof *cats, cmp_named);
	arr = must(json_array());
	for (size_t i = 0; i < info->ncats; i++) {
		json_t *j = must(json_object());

		put(j, "id", json_integer(cats[i].id));
		put(j, "name", str_or_null(cats[i].name));
		put(j, "parent", cats[i].has_parent ? json_integer(cats[i].parent) : json_null());
		push(arr, j);
	}
	free(cats);
	put(o, "categories", arr);

	arr = must(json_array());
	for (size_t i = 0; i < info->nopen; i++)
		push(arr, range_json(&info->open[i], true));
	put(o, "open_ranges", json_integer((json_int_t)info->open_count));
	put(o, "open_ranges_first", arr);
	arr = must(json_array());
	for (size_t i = 0; i < info->ntop; i++)
		push(arr, range_json(&info->top[i], false));
	put(o, "longest_ranges", arr);
	put(o, "distinct_messages", json_integer((json_int_t)info->nmsgs));
	put(o, "events_without_message", json_integer((json_int_t)info->no_message));
	return o;
}

/* --- text ------------------------------------------------------------------ */

/* A table: rows of cells, printed with each column as wide as its widest cell. */
struct table {
	int ncols;
	const char *const *head;
	const bool *right;        /* right-aligned columns (numbers) */
	char **cells;             /* rows * ncols */
	size_t nrows, cap;
};

static void table_row(struct table *t, ...)
{
	va_list ap;

	xgrow((void **)&t->cells, &t->cap, (t->nrows + 1) * (size_t)t->ncols, sizeof *t->cells);
	va_start(ap, t);
	for (int i = 0; i < t->ncols; i++) {
		const char *s = va_arg(ap, const char *);
		t->cells[t->nrows * (size_t)t->ncols + (size_t)i] = xstrndup(s ? s : "-", strlen(s ? s : "-"));
	}
	va_end(ap);
	t->nrows++;
}

/* Display width of a UTF-8 string: its code points (every one counted as one column). */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void table_print(struct table *t, FILE *out, const char *indent)
{
	size_t w[16] = { 0 };

	for (int c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t x = width(t->cells[r * (size_t)t->ncols + (size_t)c]);
			if (x > w[c])
				w[c] = x;
		}
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		struct buf line = { 0 };

		buf_adds(&line, indent);
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->head[c] : t->cells[(r - 1) * (size_t)t->ncols + (size_t)c];
			size_t pad = w[c] - width(s);

			if (c)
				buf_adds(&line, "  ");
			if (t->right[c])
				for (size_t i = 0; i < pad; i++)
					buf_addc(&line, ' ');
			buf_adds(&line, s);
			if (!t->right[c] && c + 1 < t->ncols)
				for (size_t i = 0; i < pad; i++)
					buf_addc(&line, ' ');
		}
		while (line.len && line.ptr[line.len - 1] == ' ')
			line.ptr[--line.len] = '\0';
		fprintf(out, "%s\n", line.ptr);
		buf_free(&line);
	}
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* A JSON value as a cell: strings bare, integers in decimal, null "-". */
static const char *cell(const json_t *v, char *tmp, size_t n)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return tmp;
	}
	return "-";
}

/* A duration or span: "1234567 ns" or "1234 ticks (Qpc)". */
static const char *duration_cell(const json_t *o, const char *ns_key, const char *ticks_key, char *tmp,
				 size_t n)
{
	const json_t *v = json_object_get(o, ns_key);

	if (v) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT " ns", json_integer_value(v));
		return tmp;
	}
	v = json_object_get(o, ticks_key);
	if (v) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT " %s ticks", json_integer_value(v),
			 json_string_value(json_object_get(o, "time_base")));
		return tmp;
	}
	return "-";
}

int nvtxt_info_print(const struct nvtxt_info *info, const char *file, FILE *out)
{
	json_t *o = nvtxt_info_json(info, file), *v;
	size_t i;
	char a[64], b[64], c[64], d[64], e[64], f[64];

	errno = 0;
	fprintf(out, "%s\n", file);
	if (json_is_string(json_object_get(o, "display_name")))
		fprintf(out, "  display name: %s\n", json_string_value(json_object_get(o, "display_name")));
	fprintf(out, "  events: %s\n", cell(json_object_get(o, "events"), a, sizeof a));
	{
		static const char *const head[] = { "command", "events" };
		static const bool right[] = { false, true };
		struct table t = { 2, head, right, NULL, 0, 0 };
		const char *key;

		json_object_foreach(json_object_get(o, "events_by_command"), key, v)
			if (json_integer_value(v))
				table_row(&t, key, cell(v, a, sizeof a));
		if (t.nrows)
			table_print(&t, out, "    ");
		else
			free(t.cells);
	}
	fprintf(out, "\n  time bases:\n");
	{
		static const char *const head[] = { "time base", "times", "first", "last", "first ns", "last ns" };
		static const bool right[] = { false, true, true, true, true, true };
		struct table t = { 6, head, right, NULL, 0, 0 };

		json_array_foreach(json_object_get(o, "time_bases"), i, v)
			table_row(&t, cell(json_object_get(v, "name"), a, sizeof a),
				  cell(json_object_get(v, "times"), b, sizeof b),
				  cell(json_object_get(v, "first"), c, sizeof c),
				  cell(json_object_get(v, "last"), d, sizeof d),
				  cell(json_object_get(v, "first_ns"), e, sizeof e),
				  cell(json_object_get(v, "last_ns"), f, sizeof f));
		table_print(&t, out, "    ");
	}
	fprintf(out, "\n  threads:\n");
	{
		static const char *const head[] = { "process", "name", "thread", "name", "events", "span",
						    "max depth" };
		static const bool right[] = { true, false, true, false, true, true, true };
		struct table t = { 7, head, right, NULL, 0, 0 };
		char g[64], h[64];

		json_array_foreach(json_object_get(o, "threads"), i, v)
			table_row(&t, cell(json_object_get(v, "process_id"), a, sizeof a),
				  cell(json_object_get(v, "process_name"), b, sizeof b),
				  cell(json_object_get(v, "thread_id"), c, sizeof c),
				  cell(json_object_get(v, "thread_name"), d, sizeof d),
				  cell(json_object_get(v, "events"), e, sizeof e),
				  duration_cell(v, "span_ns", "span_ticks", g, sizeof g),
				  cell(json_object_get(v, "max_push_depth"), h, sizeof h));
		table_print(&t, out, "    ");
	}
	fprintf(out, "\n  categories:\n");
	{
		static const char *const head[] = { "id", "name", "parent" };
		static const bool right[] = { true, false, true };
		struct table t = { 3, head, right, NULL, 0, 0 };

		json_array_foreach(json_object_get(o, "categories"), i, v)
			table_row(&t, cell(json_object_get(v, "id"), a, sizeof a),
				  cell(json_object_get(v, "name"), b, sizeof b),
				  cell(json_object_get(v, "parent"), c, sizeof c));
		table_print(&t, out, "    ");
	}
	fprintf(out, "\n  open ranges: %s\n", cell(json_object_get(o, "open_ranges"), a, sizeof a));
	if (json_array_size(json_object_get(o, "open_ranges_first"))) {
		static const char *const head[] = { "line", "process", "thread", "message" };
		static const bool right[] = { true, true, true, false };
		struct table t = { 4, head, right, NULL, 0, 0 };

		json_array_foreach(json_object_get(o, "open_ranges_first"), i, v)
			table_row(&t, cell(json_object_get(v, "line"), a, sizeof a),
				  cell(json_object_get(v, "process_id"), b, sizeof b),
				  cell(json_object_get(v, "thread_id"), c, sizeof c),
				  cell(json_object_get(v, "message"), d, sizeof d));
		table_print(&t, out, "    ");
	}
	fprintf(out, "\n  longest ranges:\n");
	{
		static const char *const head[] = { "duration", "lines", "process", "thread", "message" };
		static const bool right[] = { true, false, true, true, false };
		struct table t = { 5, head, right, NULL, 0, 0 };
		char lines[48];

		json_array_foreach(json_object_get(o, "longest_ranges"), i, v) {
			snprintf(lines, sizeof lines, "%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT,
				 json_integer_value(json_object_get(v, "line")),
				 json_integer_value(json_object_get(v, "end_line")));
			table_row(&t, duration_cell(v, "duration_ns", "duration_ticks", a, sizeof a), lines,
				  cell(json_object_get(v, "process_id"), b, sizeof b),
				  cell(json_object_get(v, "thread_id"), c, sizeof c),
				  cell(json_object_get(v, "message"), d, sizeof d));
		}
		table_print(&t, out, "    ");
	}
	fprintf(out, "\n  distinct messages: %s\n", cell(json_object_get(o, "distinct_messages"), a, sizeof a));
	json_decref(o);
	if (ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
