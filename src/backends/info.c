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
	uint32_t file;          /* index into files[] */
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

	/* the files read (nvtxt_info_file), each with its SetFileDisplayName */
	char **files, **displays;
	size_t nfiles, files_cap, displays_cap;

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
	for (size_t i = 0; i < info->nfiles; i++) {
		free(info->files[i]);
		free(info->displays[i]);
	}
	free(info->files);
	free(info->displays);
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
			   .duration = duration, .start_end = start_end,
			   .file = info->nfiles ? (uint32_t)info->nfiles - 1 : 0 };

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
		if (!info->nfiles)
			nvtxt_info_file(info, NULL);
		free(info->displays[info->nfiles - 1]);
		info->displays[info->nfiles - 1] = xstrndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
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
				     .pid = push->process_id, .tid = push->thread_id, .tb = push->timebase,
				     .file = info->nfiles ? (uint32_t)info->nfiles - 1 : 0 };
	}
	return 0;
}

void nvtxt_info_file(struct nvtxt_info *info, const char *name)
{
	xgrow((void **)&info->files, &info->files_cap, info->nfiles + 1, sizeof *info->files);
	xgrow((void **)&info->displays, &info->displays_cap, info->nfiles + 1, sizeof *info->displays);
	info->files[info->nfiles] = name ? xstrndup(name, strlen(name)) : NULL;
	info->displays[info->nfiles] = NULL;
	info->nfiles++;
	/* push/pop pairs per file: a file starts with no push open on any thread */
	for (size_t i = 0; i < info->nthreads; i++)
		info->threads[i].depth = 0;
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

static json_t *range_json(const struct nvtxt_info *info, const struct range *r, bool open, const char *file)
{
	json_t *o = must(json_object());

	put(o, "file", str_or_null(info->nfiles ? info->files[r->file] : file));
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

/* "files": each input's "file" and "display_name", one shape whatever their number */
static void files_json(const struct nvtxt_info *info, const char *file, json_t *o)
{
	json_t *arr;

	/* one shape whatever the number of files: "files", each range's "file" */
	arr = must(json_array());
	for (size_t i = 0; i < (info->nfiles ? info->nfiles : 1); i++) {
		json_t *f = must(json_object());
		put(f, "file", str_or_null(info->nfiles ? info->files[i] : file));
		put(f, "display_name", str_or_null(info->nfiles ? info->displays[i] : NULL));
		push(arr, f);
	}
	put(o, "files", arr);
}

static json_t *time_bases_json(const struct nvtxt_info *info)
{
	json_t *arr;

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
	return arr;
}

static json_t *threads_json(const struct nvtxt_info *info)
{
	struct thread *threads;
	json_t *arr;

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
	return arr;
}

static json_t *categories_json(const struct nvtxt_info *info)
{
	struct named *cats;
	json_t *arr;

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
	return arr;
}

json_t *nvtxt_info_json(const struct nvtxt_info *info, const char *file)
{
	json_t *o = must(json_object()), *by = must(json_object()), *arr;

	files_json(info, file, o);
	put(o, "events", json_integer((json_int_t)info->total));
	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		put(by, nvtxt_command_name((enum nvtxt_command)c), json_integer((json_int_t)info->by_command[c]));
	put(o, "events_by_command", by);
	put(o, "time_bases", time_bases_json(info));
	put(o, "threads", threads_json(info));
	put(o, "categories", categories_json(info));
	arr = must(json_array());
	for (size_t i = 0; i < info->nopen; i++)
		push(arr, range_json(info, &info->open[i], true, file));
	put(o, "open_ranges", json_integer((json_int_t)info->open_count));
	put(o, "open_ranges_first", arr);
	arr = must(json_array());
	for (size_t i = 0; i < info->ntop; i++)
		push(arr, range_json(info, &info->top[i], false, file));
	put(o, "longest_ranges", arr);
	put(o, "distinct_messages", json_integer((json_int_t)info->nmsgs));
	put(o, "events_without_message", json_integer((json_int_t)info->no_message));
	return o;
}
