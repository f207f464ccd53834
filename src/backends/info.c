/*
 * info.c - nvtxtc info (info.h): counters per command, thread, time base
 * and category, the open ranges, the longest ranges and the distinct
 * messages, collected event by event into the struct of info_data.h,
 * which info_report.c reports as JSON and as text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "info_data.h"

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

/* t in nanoseconds, as nvtxt_tconv_apply (NVTXT_OK, or why not), without the call for an identity. */
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

/* Twice the room in the table of distinct messages. */
static __attribute__((noinline)) void grow_messages(struct nvtxt_info *info)
{
	struct msg *old = info->msgs;
	size_t old_cap = info->msgs_cap, i;

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

/* The last 8 bytes of p[0..n) (all of them when fewer), as a number. */
static inline uint64_t tail_of(const char *p, size_t n)
{
	uint64_t t = 0;

	if (n >= 8)
		memcpy(&t, p + n - 8, 8);
	else if (n)
		memcpy(&t, p, n);
	return t;
}

/* The message of ev in the table of distinct messages (added when new); its text there. */
static const char *find_message(struct nvtxt_info *info, const char *p, size_t n)
{
	uint64_t h;
	size_t i, mask;

	if (__builtin_expect(2 * (info->nmsgs + 1) > info->msgs_cap, 0))
		grow_messages(info);
	h = hash_bytes(p, n);
	mask = info->msgs_cap - 1;
	for (i = h & mask; info->msgs[i].text; i = (i + 1) & mask)
		if (info->msgs[i].hash == h && info->msgs[i].len == n && same_bytes(info->msgs[i].text, p, n))
			return info->msgs[i].text;
	info->msgs[i] = (struct msg){ h, xstrndup(p ? p : "", n), n };
	info->nmsgs++;
	return info->msgs[i].text;
}

static inline void see_message(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	const char *p = ev->message.ptr;
	size_t n = ev->message.len;
	uint64_t tail;
	struct msg_hint *hint;

	if (!(ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))) {
		info->no_message++;
		return;
	}
	tail = tail_of(p, n);
	hint = &info->msg_hint[((tail ^ n) * 0x9E3779B97F4A7C15u) >> 54];
	/* a short message is all in its tail; a longer one is compared whole */
	if (hint->text && hint->len == n && hint->tail == tail && (n <= 8 || same_bytes(hint->text, p, n)))
		return;
	*hint = (struct msg_hint){ find_message(info, p, n), n, tail };
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

/* The naming calls: few, kept off the path of the events. */
static __attribute__((noinline)) int info_naming(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	switch (ev->command) {
	case NVTXT_CMD_NAME_CATEGORY:
		named_set(named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->category_id),
			  ev->name);
		break;
	case NVTXT_CMD_ADD_CHILD_CATEGORY: {
		struct named *c;
		named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->parent_category_id);
		c = named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, ev->category_id);
		c->has_parent = true;
		c->parent = ev->parent_category_id;
		break;
	}
	case NVTXT_CMD_NAME_OS_THREAD:
		named_set(named_get2(&info->tnames, &info->ntnames, &info->tnames_cap, &info->tname_index,
				     ev->process_id, ev->thread_id), ev->name);
		break;
	case NVTXT_CMD_NAME_PROCESS:
		named_set(named_get(&info->procs, &info->nprocs, &info->procs_cap, &info->proc_index,
				    ev->process_id), ev->name);
		break;
	default: /* SetFileDisplayName */
		if (!info->nfiles)
			nvtxt_info_file(info, NULL);
		free(info->displays[info->nfiles - 1]);
		info->displays[info->nfiles - 1] = xstrndup(ev->name.ptr ? ev->name.ptr : "", ev->name.len);
		break;
	}
	return 0;
}

/* A category ID seen on an event: registered once (the last one is remembered). */
static __attribute__((noinline)) void see_category(struct nvtxt_info *info, uint32_t id)
{
	named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, id);
	info->cat_seen = true;
	info->last_cat = id;
}

static int info_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_info *info = user;
	struct thread *t;

	if ((unsigned)ev->command >= NVTXT_CMD_COUNT)
		return 0;
	info->by_command[ev->command]++;
	info->total++;
	if (ev->command > NVTXT_CMD_RANGE_START_END)
		return info_naming(info, ev);
	if ((unsigned)ev->timebase >= NVTXT_TB_COUNT)
		return 0;
	t = thread_of(info, ev);
	t->events++;
	if ((ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) &&
	    __builtin_expect(!(info->cat_seen && info->last_cat == ev->category_id), 0))
		see_category(info, ev->category_id);
	if (ev->command == NVTXT_CMD_RANGE_POP) {
		see_time(info, t, ev->timebase, ev->time);
		if (t->depth)
			t->depth--;
		if (ev->push)
			see_range(info, ev->push, ev->push->time, ev->time, ev->loc.line, false);
		return 0;
	}
	if (ev->command == NVTXT_CMD_RANGE_START_END) {
		see_time(info, t, ev->timebase, ev->start);
		see_time(info, t, ev->timebase, ev->end);
		see_range(info, ev, ev->start, ev->end, ev->loc.line, true);
	} else { /* RangePush, Marker */
		see_time(info, t, ev->timebase, ev->time);
		if (ev->command == NVTXT_CMD_RANGE_PUSH && ++t->depth > t->max_depth)
			t->max_depth = t->depth;
	}
	see_message(info, ev);
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
