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
	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++)
		info->ns_identity[tb] = tc->rule[tb].kind == NVTXT_TCONV_IDENTITY;
	info->last_cat = -1;
	info->msgs_cap = 64;
	info->msgs_shift = 64 - 6;
	info->msgs = xcalloc(info->msgs_cap, sizeof *info->msgs);
	info->msg_text = xcalloc(info->msgs_cap, sizeof *info->msg_text);
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
		free(info->msg_text[i]);
	free(info->msgs);
	free(info->msg_text);
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

/* The thread of (pid, tid), added when new; the hints follow threads[] when it moves. */
static __attribute__((noinline)) struct thread *thread_add(struct nvtxt_info *info, struct thread_hint *h,
							  int64_t pid, int64_t tid)
{
	struct thread *old = info->threads;
	int inserted;
	uint32_t *slot = idmap_put(&info->thread_index, (uint64_t)pid, (uint64_t)tid, (uint32_t)info->nthreads,
				   &inserted);

	if (inserted) {
		xgrow((void **)&info->threads, &info->threads_cap, info->nthreads + 1, sizeof *info->threads);
		info->threads[info->nthreads] = (struct thread){ .pid = pid, .tid = tid };
		for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
			info->threads[info->nthreads].min[tb] = INT64_MAX;
			info->threads[info->nthreads].max[tb] = INT64_MIN;
		}
		info->nthreads++;
		if (info->threads != old)
			for (size_t i = 0; i < sizeof info->hint / sizeof *info->hint; i++)
				if (info->hint[i].t)
					info->hint[i].t = &info->threads[info->hint[i].index];
	}
	*h = (struct thread_hint){ pid, tid, &info->threads[*slot], *slot };
	return h->t;
}

/* The hint of thread (pid, tid). */
static inline struct thread_hint *hint_of(struct nvtxt_info *info, int64_t pid, int64_t tid)
{
	return &info->hint[((uint64_t)pid * 9 + (uint64_t)tid) & 63];
}

/* ev's thread when its hint holds it (the ProcessId and ThreadId given, as every event has them), else NULL. */
static inline struct thread *hinted_thread(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	const uint32_t both = NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID);
	const struct thread_hint *h = hint_of(info, ev->process_id, ev->thread_id);
	struct thread *t = h->t;

	if ((ev->present & both) == both && h->pid == ev->process_id && h->tid == ev->thread_id)
		return t;
	return NULL;
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

/* A time v of time base tb on thread t: its first and last (branch-free: times come in any order). */
static inline void see_time(struct thread *t, enum nvtxt_timebase tb, int64_t v)
{
	int64_t lo = t->min[tb], hi = t->max[tb];

	t->min[tb] = v < lo ? v : lo;
	t->max[tb] = v > hi ? v : hi;
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
static void grow_messages(struct nvtxt_info *info)
{
	struct msg *old = info->msgs;
	char **old_text = info->msg_text;
	size_t old_cap = info->msgs_cap, i, mask;

	info->msgs_cap = 2 * old_cap;
	info->msgs_shift--;
	info->msgs = xcalloc(info->msgs_cap, sizeof *info->msgs);
	info->msg_text = xcalloc(info->msgs_cap, sizeof *info->msg_text);
	mask = info->msgs_cap - 1;
	for (size_t j = 0; j < old_cap; j++) {
		if (!old[j].tag)
			continue;
		i = msg_hash((struct msg_key){ old[j].w0, old[j].w1, old[j].w2, old[j].w3 }, old_text[j],
			     msg_len(old[j].tag)) >> info->msgs_shift;
		for (; info->msgs[i].tag; i = (i + 1) & mask)
			;
		info->msgs[i] = old[j];
		info->msg_text[i] = old_text[j];
	}
	free(old);
	free(old_text);
}

/*
 * The message p[0..n) among the distinct ones (returns 0): from its slot
 * on, a slot holds it (its words and length, then for more than 32 bytes
 * its bytes 16 to n - 16), or the probe ends at an empty slot, where it
 * is added.
 */
static __attribute__((noinline)) int find_message(struct nvtxt_info *info, const char *p, size_t n)
{
	struct msg_key k = msg_words(p, n);
	size_t mask = info->msgs_cap - 1, i = msg_hash(k, p, n) >> info->msgs_shift;
	uint64_t tag = msg_tag(n);

	for (;; i = (i + 1) & mask) {
		const struct msg *m = &info->msgs[i];
		if (m->w0 == k.w0 && m->w1 == k.w1 && m->w2 == k.w2 && m->w3 == k.w3 && m->tag == tag &&
		    (n <= 32 || same_bytes(info->msg_text[i] + 16, p + 16, n - 32)))
			return 0;
		if (!m->tag)
			break;
	}
	info->msgs[i] = (struct msg){ k.w0, k.w1, k.w2, k.w3, tag };
	info->msg_text[i] = xstrndup(p ? p : "", n);
	if (2 * ++info->nmsgs > info->msgs_cap)
		grow_messages(info);
	return 0;
}

/*
 * Counts ev's message among the distinct ones (returns 0).  Most are met
 * again, of up to 32 bytes, and found in their first slot by their words
 * and length alone; every other case is find_message's.
 */
static __attribute__((noinline)) int see_message(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	const char *p = ev->message.ptr;
	size_t n = ev->message.len;
	const struct msg *m;
	struct msg_key k;

	if (!(ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))) {
		info->no_message++;
		return 0;
	}
	if (n > 32)
		return find_message(info, p, n);
	k = msg_words(p, n);
	m = &info->msgs[msg_hash(k, p, n) >> info->msgs_shift];
	if (m->w0 == k.w0 && m->w1 == k.w1 && m->w2 == k.w2 && m->w3 == k.w3 && m->tag == ~(uint64_t)n)
		return 0;
	return find_message(info, p, n);
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
	/* the shortest kept, when the ten are full, in nanoseconds and not negative: see may_rank */
	if (info->ntop == NVTXT_INFO_TOP && info->top[NVTXT_INFO_TOP - 1].ns &&
	    info->top[NVTXT_INFO_TOP - 1].duration >= 0) {
		info->top_floor = (uint64_t)info->top[NVTXT_INFO_TOP - 1].duration;
		memcpy(info->rank_fast, info->ns_identity, sizeof info->rank_fast);
	}
}

/* A range of the given duration: its rank among the longest, and its place there when it has one. */
static __attribute__((noinline)) void see_duration(struct nvtxt_info *info, const struct nvtxt_event *ev, bool ns,
						   i128 duration, uint32_t end_line, bool start_end)
{
	size_t pos;

	/* rank: nanoseconds before ticks, then the longer first, then the earlier line */
	for (pos = info->ntop; pos > 0; pos--) {
		const struct range *q = &info->top[pos - 1];
		if (q->ns > ns || (q->ns == ns && q->duration >= duration))
			break;
	}
	if (pos < NVTXT_INFO_TOP)
		top_insert(info, pos, ev, ns, duration, end_line, start_end);
}

/*
 * Whether a range of time base tb from time a to time b may be one of the
 * longest.  Most are not: in nanoseconds already, no longer than the
 * shortest kept, and they stop at this comparison.  That one is rank_fast
 * only when it is 0 or more, which a range ending before it starts is
 * not longer than, and which a range ending after it starts is compared
 * with in 64 bits without a sign (b - a < 2^64).
 */
static inline bool may_rank(const struct nvtxt_info *info, enum nvtxt_timebase tb, int64_t a, int64_t b)
{
	if (!info->rank_fast[tb])
		return true;
	return b >= a && (uint64_t)b - (uint64_t)a > info->top_floor;
}

/* A range from time a to time b, both of ev's time base, that may_rank: one of the longest? */
static __attribute__((noinline)) int see_range(struct nvtxt_info *info, const struct nvtxt_event *ev, int64_t a,
					       int64_t b, uint32_t end_line, bool start_end)
{
	int64_t na, nb;

	if (info->ns_identity[ev->timebase])
		see_duration(info, ev, true, (i128)b - a, end_line, start_end);
	else if (to_ns(info, ev->timebase, a, &na) == 0 && to_ns(info, ev->timebase, b, &nb) == 0)
		see_duration(info, ev, true, (i128)nb - na, end_line, start_end);
	else
		see_duration(info, ev, false, (i128)b - a, end_line, start_end);
	return 0;
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
static void see_category(struct nvtxt_info *info, uint32_t id)
{
	named_get(&info->cats, &info->ncats, &info->cats_cap, &info->cat_index, id);
	info->last_cat = id;
}

/* A naming call, an event of no time base (counted, nothing more) or no command: off the path of the events. */
static __attribute__((noinline)) int info_other(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	if ((unsigned)ev->command >= NVTXT_CMD_COUNT)
		return 0;
	info->by_command[ev->command]++;
	return ev->command > NVTXT_CMD_RANGE_START_END ? info_naming(info, ev) : 0;
}

/* A RangeStartEnd that may be one of the longest: ranked, then its message. */
static __attribute__((noinline)) int see_start_end(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	see_range(info, ev, ev->start, ev->end, ev->loc.line, true);
	return see_message(info, ev);
}

/*
 * An event of a known time base, on thread t, its category registered:
 * counted.  Whatever is rare (a range among the longest, a new message)
 * is a call made last, so that the common path needs no registers saved.
 */
static inline __attribute__((always_inline)) int count_event(struct nvtxt_info *info, const struct nvtxt_event *ev,
							     struct thread *t)
{
	enum nvtxt_timebase tb = ev->timebase;

	t->counts[ev->command][tb]++;
	if (ev->command == NVTXT_CMD_RANGE_POP) {
		see_time(t, tb, ev->time);
		t->depth -= t->depth != 0;
		if (ev->push && may_rank(info, ev->push->timebase, ev->push->time, ev->time))
			return see_range(info, ev->push, ev->push->time, ev->time, ev->loc.line, false);
		return 0;
	}
	if (ev->command == NVTXT_CMD_RANGE_START_END) {
		see_time(t, tb, ev->start);
		see_time(t, tb, ev->end);
		if (may_rank(info, tb, ev->start, ev->end))
			return see_start_end(info, ev);
	} else { /* RangePush, Marker */
		see_time(t, tb, ev->time);
		if (ev->command == NVTXT_CMD_RANGE_PUSH && ++t->depth > t->max_depth)
			t->max_depth = t->depth;
	}
	return see_message(info, ev);
}

/*
 * An event whose thread is not in its hint (or that lacks a ProcessId or
 * ThreadId, which no checked event does), or whose category is not the
 * last one registered: both made known, the thread added when new, then
 * counted.
 */
static __attribute__((noinline)) int info_event_slow(struct nvtxt_info *info, const struct nvtxt_event *ev)
{
	int64_t pid = (ev->present & NVTXT_BIT(NVTXT_ARG_PROCESS_ID)) ? ev->process_id : 0;
	int64_t tid = (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) ? ev->thread_id : 0;
	struct thread *t = hinted_thread(info, ev);

	if (!t)
		t = thread_add(info, hint_of(info, pid, tid), pid, tid);
	if ((ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) && info->last_cat != ev->category_id)
		see_category(info, ev->category_id);
	return count_event(info, ev, t);
}

/* The path of every event: its thread is most often in its hint, its category the last one met. */
static int info_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_info *info = user;
	struct thread *t;

	if ((unsigned)ev->command > NVTXT_CMD_RANGE_START_END || (unsigned)ev->timebase >= NVTXT_TB_COUNT)
		return info_other(info, ev);
	t = hinted_thread(info, ev);
	if (__builtin_expect(!t, 0) || __builtin_expect((ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) &&
								info->last_cat != ev->category_id, 0))
		return info_event_slow(info, ev);
	return count_event(info, ev, t);
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
