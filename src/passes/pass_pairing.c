/*
 * pass_pairing.c - RangePush/RangePop pairing per (ProcessId, ThreadId).
 *
 * Rules (nvtxt(5), SEMANTIC RULES): a RangePop closes the innermost open
 * RangePush of its thread; a pop with none open, earlier than its push or
 * with another TimeBase is an error; a push still open at end of file is
 * a warning.  Each thread's open pushes are a stack, and their messages a
 * byte stack beside it, so steady push/pop traffic allocates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "sema_snap.h"

struct push_rec {
	struct nvtxt_event ev;
	size_t msg_off;          /* the message's bytes in the thread's strings */
	bool failed;             /* a RangePush with an error: its pop is consumed silently */
};

struct thread {
	int64_t pid, tid;
	struct push_rec *recs;
	size_t n, cap;
	struct buf strings;
};

struct pairing {
	struct idmap index;      /* (pid, tid) -> index in threads */
	struct thread *threads;
	size_t count, cap;
	struct thread *popped;   /* the thread whose top push the last pop closed */
	size_t last;             /* threads[last] is the thread of the last event (when count > 0) */
	/* recent threads by (pid, tid): index + 1 of a thread that hashed to the slot, or 0 */
	uint32_t recent[64];
	unsigned long lost_pushes; /* failed pushes on an unknown thread */
};

struct pairing *pairing_new(void)
{
	return try_calloc(1, sizeof(struct pairing));
}

/* thread_of past its caches: the threads one by one while they are few, then the index. */
static NOINLINE struct thread *thread_lookup(struct pairing *p, const struct nvtxt_event *ev, bool create)
{
	uint32_t *idx;
	int inserted;

	/* a few threads (most traces): looking at each costs less than hashing */
	if (p->count <= 8) {
		for (size_t i = 0; i < p->count; i++) {
			if (p->threads[i].pid == ev->process_id && p->threads[i].tid == ev->thread_id) {
				p->last = i;
				return &p->threads[i];
			}
		}
		if (!create)
			return NULL;
	}
	if (!create) {
		idx = idmap_get(&p->index, (uint64_t)ev->process_id, (uint64_t)ev->thread_id);
		if (!idx)
			return NULL;
		p->last = *idx;
		return &p->threads[*idx];
	}
	idx = idmap_put(&p->index, (uint64_t)ev->process_id, (uint64_t)ev->thread_id,
			(uint32_t)p->count, &inserted);
	if (inserted) {
		void *t = p->threads;
		xgrow(&t, &p->cap, p->count + 1, sizeof(*p->threads));
		p->threads = t;
		memset(&p->threads[p->count], 0, sizeof(*p->threads));
		p->threads[p->count].pid = ev->process_id;
		p->threads[p->count].tid = ev->thread_id;
		p->count++;
	}
	p->last = *idx;
	return &p->threads[*idx];
}

/* The slot of (pid, tid) in p->recent. */
static inline unsigned recent_slot(int64_t pid, int64_t tid)
{
	return (unsigned)((((uint64_t)pid * 0xC2B2AE3D27D4EB4FULL) ^ (uint64_t)tid) * 0x9E3779B97F4A7C15ULL >> 58);
}

static inline struct thread *thread_of(struct pairing *p, const struct nvtxt_event *ev, bool create)
{
	unsigned slot = recent_slot(ev->process_id, ev->thread_id);
	uint32_t r = p->recent[slot];
	struct thread *t;

	/* traces come in bursts on a few threads: the last one, then a recent one by its slot */
	if (p->count && p->threads[p->last].pid == ev->process_id &&
	    p->threads[p->last].tid == ev->thread_id)
		return &p->threads[p->last];
	if (r && p->threads[r - 1].pid == ev->process_id && p->threads[r - 1].tid == ev->thread_id) {
		p->last = r - 1;
		return &p->threads[r - 1];
	}
	t = thread_lookup(p, ev, create);
	if (t)
		p->recent[slot] = (uint32_t)p->last + 1;
	return t;
}

static void fix_message(struct thread *t, struct push_rec *r)
{
	if (r->ev.present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		r->ev.message.ptr = t->strings.ptr + r->msg_off;
}

static void push(struct pairing *p, const struct nvtxt_event *ev)
{
	struct thread *t = thread_of(p, ev, true);
	struct push_rec *r;

	/* most threads hold one or two open pushes: start small (10^6 threads must fit) */
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1;
		t->recs = xrealloc(t->recs, t->cap * sizeof(*t->recs));
	}
	r = &t->recs[t->n++];
	r->ev = *ev;
	r->msg_off = t->strings.len;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) {
		/* buf_add without its call while the bytes fit (nothing reads a NUL after them) */
		size_t len = ev->message.len;
		if (t->strings.cap - t->strings.len > len) {
			if (len) /* a NULL ptr of an empty message is no source for memcpy */
				memcpy(t->strings.ptr + t->strings.len, ev->message.ptr, len);
			t->strings.len += len;
		} else {
			buf_add(&t->strings, ev->message.ptr, len);
		}
	}
	r->ev.message.ptr = NULL;
	r->ev.push = NULL;
	r->failed = false;
}

static void drop_top(struct thread *t)
{
	t->n--;
	t->strings.len = t->recs[t->n].msg_off;
}

bool pairing_event(struct pairing *p, struct nvtxt_diags *d, struct nvtxt_event *ev)
{
	struct thread *t;
	struct push_rec *top;
	struct nvtxt_diag *dg;
	bool ok = true;

	p->popped = NULL;
	if (ev->command == NVTXT_CMD_RANGE_PUSH) {
		push(p, ev);
		return true;
	}
	t = thread_of(p, ev, false);
	if ((!t || t->n == 0) && p->lost_pushes) {
		p->lost_pushes--;
		return false;
	}
	if (!t || t->n == 0) {
		diag_error(d, NVTXT_CHECK_POP_WITHOUT_PUSH, &ev->loc,
			   "RangePop without an open RangePush on thread %lld of process %lld",
			   (long long)ev->thread_id, (long long)ev->process_id);
		return false;
	}
	top = &t->recs[t->n - 1];
	if (top->failed) {
		drop_top(t);
		return false;
	}
	fix_message(t, top);
	if (top->ev.timebase != ev->timebase) {
		dg = diag_begin(d, NVTXT_CHECK_POP_TIMEBASE, &ev->loc,
				"RangePop uses TimeBase %s but the RangePush it closes uses %s",
				nvtxt_timebase_name(ev->timebase), nvtxt_timebase_name(top->ev.timebase));
		diag_note(dg, &top->ev.loc, "the RangePush is here");
		diag_end(d, dg);
		ok = false;
	} else if (ev->time < top->ev.time) {
		dg = diag_begin(d, NVTXT_CHECK_POP_BEFORE_PUSH, &ev->loc,
				"RangePop at time %lld is earlier than the RangePush it closes, at time %lld",
				(long long)ev->time, (long long)top->ev.time);
		diag_note(dg, &top->ev.loc, "the RangePush is here");
		diag_end(d, dg);
		ok = false;
	}
	if (!ok) {
		drop_top(t);
		return false;
	}
	ev->push = &top->ev;
	p->popped = t;
	return true;
}

void pairing_failed(struct pairing *p, const struct nvtxt_event *ev, bool thread_known)
{
	struct thread *t;

	if (ev->command == NVTXT_CMD_RANGE_PUSH) {
		if (!thread_known) {
			p->lost_pushes++;
			return;
		}
		push(p, ev);
		t = thread_of(p, ev, false);
		t->recs[t->n - 1].failed = true;
		t->recs[t->n - 1].ev.present &= ~NVTXT_BIT(NVTXT_ARG_MESSAGE);
		t->strings.len = t->recs[t->n - 1].msg_off;
	} else if (ev->command == NVTXT_CMD_RANGE_POP && thread_known) {
		t = thread_of(p, ev, false);
		if (t && t->n)
			drop_top(t);
	}
}

void pairing_commit(struct pairing *p)
{
	if (p->popped && p->popped->n)
		drop_top(p->popped);
	p->popped = NULL;
}

struct open_push {
	struct thread *t;
	size_t i;
};

static int by_ordinal(const void *a, const void *b)
{
	const struct open_push *x = a, *y = b;
	uint64_t ox = x->t->recs[x->i].ev.ordinal, oy = y->t->recs[y->i].ev.ordinal;
	return ox < oy ? -1 : ox > oy;
}

int pairing_finish(struct pairing *p, struct nvtxt_diags *d, const struct nvtxt_backend *be)
{
	struct open_push *open = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; i < p->count; i++) {
		struct thread *t = &p->threads[i];
		if (n + t->n > cap) {
			/* a temporary (util.h): freed by the guard if memory runs out */
			cap = (n + t->n) * 2;
			open = tmp_realloc(open, cap * sizeof(*open));
		}
		for (size_t j = 0; j < t->n; j++)
			if (!t->recs[j].failed)
				open[n++] = (struct open_push){ t, j };
	}
	if (n)
		qsort(open, n, sizeof(*open), by_ordinal);
	for (size_t k = 0; k < n; k++) {
		struct thread *t = open[k].t;
		struct push_rec *r = &t->recs[open[k].i];
		struct nvtxt_diag *dg;

		fix_message(t, r);
		dg = diag_begin(d, NVTXT_CHECK_UNCLOSED_RANGE, &r->ev.loc,
				"RangePush is never popped: thread %lld of process %lld ends with it open",
				(long long)r->ev.thread_id, (long long)r->ev.process_id);
		diag_end(d, dg);
		if (rc == 0 && be && be->unclosed_push)
			rc = be->unclosed_push(be->user, &r->ev);
	}
	tmp_free(open);
	return rc;
}

void pairing_free(struct pairing *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->count; i++) {
		free(p->threads[i].recs);
		buf_free(&p->threads[i].strings);
	}
	free(p->threads);
	idmap_free(&p->index);
	free(p);
}

/* --- snapshots (sema_snap.h): the open pushes of every thread ---------------- */

void pairing_save(const struct pairing *p, struct sema_snap *sn)
{
	snap_put_idmap(sn, &p->index);
	snap_put_u64(sn, p->count);
	snap_put_u64(sn, p->lost_pushes);
	for (size_t i = 0; i < p->count; i++) {
		const struct thread *t = &p->threads[i];
		int64_t id[2] = { t->pid, t->tid };
		snap_put(sn, id, sizeof id);
		snap_put_u64(sn, t->n);
		for (size_t j = 0; j < t->n; j++) {
			unsigned char failed = t->recs[j].failed;
			snap_put(sn, &failed, 1);
			snap_put_event(sn, &t->recs[j].ev, t->strings.ptr ? t->strings.ptr + t->recs[j].msg_off : "");
		}
	}
}

void pairing_restore(struct pairing *p, struct sema_snap *sn)
{
	snap_get_idmap(sn, &p->index);
	p->count = p->cap = (size_t)snap_get_u64(sn);
	p->lost_pushes = (unsigned long)snap_get_u64(sn);
	p->threads = p->count ? xcalloc(p->count, sizeof(*p->threads)) : NULL;
	p->popped = NULL;
	p->last = 0;
	for (size_t i = 0; i < p->count; i++) {
		struct thread *t = &p->threads[i];
		int64_t id[2];
		snap_get(sn, id, sizeof id);
		t->pid = id[0], t->tid = id[1];
		t->n = t->cap = (size_t)snap_get_u64(sn);
		t->recs = t->n ? xcalloc(t->n, sizeof(*t->recs)) : NULL;
		for (size_t j = 0; j < t->n; j++) {
			struct push_rec *r = &t->recs[j];
			unsigned char failed;
			const char *msg;
			snap_get(sn, &failed, 1);
			r->failed = failed;
			snap_get_event(sn, &r->ev, &msg);
			r->msg_off = t->strings.len;
			if (r->ev.present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
				buf_add(&t->strings, msg, r->ev.message.len);
		}
	}
}
