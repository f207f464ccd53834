/*
 * pass_pairing.c - unit test of the RangePush/RangePop pairing pass
 * (src/passes/pass_pairing.c) fed with hand-built events: per-thread stacks,
 * nesting, interleaved threads, the three pop errors (no open push,
 * earlier than its push, other TimeBase) without cascades, ev->push and
 * its message, unclosed pushes at end of file and a deep stack.
 */
#include <time.h>

#include "sema.h"
#include "capture.h"
#include "tap.h"

#define BASE_BITS (NVTXT_BIT(NVTXT_ARG_TIME) | NVTXT_BIT(NVTXT_ARG_TIMEBASE) | \
		   NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID))

static uint64_t next_ordinal;

static struct nvtxt_event mk(enum nvtxt_command cmd, int64_t pid, int64_t tid, int64_t time,
			     enum nvtxt_timebase tb, const char *msg, uint32_t line)
{
	struct nvtxt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.command = cmd;
	ev.present = BASE_BITS;
	ev.time = time;
	ev.timebase = tb;
	ev.process_id = pid;
	ev.thread_id = tid;
	if (msg) {
		ev.present |= NVTXT_BIT(NVTXT_ARG_MESSAGE);
		ev.message.ptr = msg;
		ev.message.len = strlen(msg);
	}
	ev.ordinal = next_ordinal;
	ev.loc.line = line;
	ev.loc.col = 1;
	ev.loc.len = cmd == NVTXT_CMD_RANGE_PUSH ? 9 : 8;
	ev.loc.line_offset = (uint64_t)line * 100;
	return ev;
}

struct fixture {
	struct nvtxt_diag_config cfg;
	struct capture cap;
	struct nvtxt_diags d;
	struct pairing *p;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	cap_engine(&f->d, &f->cfg, &f->cap, "t.nvtxt");
	f->p = pairing_new();
	next_ordinal = 0;
}

static void teardown(struct fixture *f)
{
	pairing_free(f->p);
	cap_free(&f->cap);
}

/* A push, as the front end does it; the ordinal advances. */
static bool do_push(struct fixture *f, int64_t pid, int64_t tid, int64_t time,
		    enum nvtxt_timebase tb, const char *msg, uint32_t line)
{
	struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_PUSH, pid, tid, time, tb, msg, line);
	bool ok = pairing_event(f->p, &f->d, &ev);

	if (ok)
		next_ordinal++;
	return ok;
}

/* A pop; on success *out is a copy of the push it closed (message copied to msgbuf). */
static bool do_pop(struct fixture *f, int64_t pid, int64_t tid, int64_t time,
		   enum nvtxt_timebase tb, uint32_t line, struct nvtxt_event *out, char *msgbuf,
		   size_t msgcap, bool *push_null)
{
	struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_POP, pid, tid, time, tb, NULL, line);
	bool ok = pairing_event(f->p, &f->d, &ev);

	if (push_null)
		*push_null = ev.push == NULL;
	if (ok && ev.push && out) {
		*out = *ev.push;
		if (msgbuf) {
			size_t n = ev.push->message.len < msgcap - 1 ? ev.push->message.len : msgcap - 1;
			if (ev.push->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
				memcpy(msgbuf, ev.push->message.ptr, n);
			else
				n = 0;
			msgbuf[n] = '\0';
		}
	}
	if (ok) {
		next_ordinal++;
		pairing_commit(f->p);
	}
	return ok;
}

static void test_simple(void)
{
	struct fixture f;
	struct nvtxt_event got;
	char msg[64];
	bool null_push = false;

	setup(&f);
	tap_ok(do_push(&f, 1, 2, 100, NVTXT_TB_QPC, "hello", 1), "simple: push accepted");
	tap_is_int(f.cap.n, 0, "simple: a push reports nothing");
	memset(&got, 0, sizeof(got));
	tap_ok(do_pop(&f, 1, 2, 150, NVTXT_TB_QPC, 2, &got, msg, sizeof msg, &null_push),
	       "simple: pop accepted");
	tap_ok(!null_push, "simple: pop has ev->push");
	tap_is_int(got.command, NVTXT_CMD_RANGE_PUSH, "simple: ev->push is a RangePush");
	tap_is_int(got.time, 100, "simple: ev->push->time");
	tap_is_int(got.ordinal, 0, "simple: ev->push->ordinal");
	tap_is_int(got.loc.line, 1, "simple: ev->push->loc.line");
	tap_is_int(got.process_id, 1, "simple: ev->push->process_id");
	tap_is_int(got.thread_id, 2, "simple: ev->push->thread_id");
	tap_is_int(got.present, BASE_BITS | NVTXT_BIT(NVTXT_ARG_MESSAGE), "simple: ev->push->present");
	tap_is_int(got.message.len, 5, "simple: ev->push->message.len");
	tap_is_str(msg, "hello", "simple: ev->push->message");
	tap_ok(got.push == NULL, "simple: the push's own push pointer is NULL");
	tap_is_int(f.d.errors + f.d.warnings, 0, "simple: no diagnostics");

	/* the push is gone after the commit */
	tap_ok(!do_pop(&f, 1, 2, 200, NVTXT_TB_QPC, 3, NULL, NULL, 0, &null_push),
	       "simple: second pop rejected");
	tap_ok(null_push, "simple: the rejected pop has no ev->push");
	tap_is_int(f.d.errors, 1, "simple: one error");
	tap_is_int(f.cap.n, 1, "simple: one diagnostic");
	tap_is_str(cap_msg(&f.cap, 0), "RangePop without an open RangePush on thread 2 of process 1",
		   "simple: message of pop without push");
	tap_is_int(cap_sev(&f.cap, 0), NVTXT_SEV_ERROR, "simple: severity error");
	tap_is_int(cap_check(&f.cap, 0), NVTXT_CHECK_POP_WITHOUT_PUSH, "simple: a pop-without-push");
	tap_is_int(cap_line(&f.cap, 0), 3, "simple: at the pop's line");
	tap_is_int(cap_col(&f.cap, 0), 1, "simple: at column 1");
	tap_is_int(pairing_finish(f.p, &f.d, NULL), 0, "simple: finish returns 0");
	tap_is_int(f.d.warnings, 0, "simple: nothing open at end");
	teardown(&f);

	/* a pop at exactly the push's time is fine */
	setup(&f);
	do_push(&f, 0, 0, 7, NVTXT_TB_RDTSC, NULL, 1);
	tap_ok(do_pop(&f, 0, 0, 7, NVTXT_TB_RDTSC, 2, &got, msg, sizeof msg, NULL),
	       "equal times: pop at the push's time accepted");
	tap_is_int(got.present, BASE_BITS, "equal times: push without Message has no Message bit");
	tap_is_int(f.d.errors, 0, "equal times: no error");
	teardown(&f);

	/* negative times (TimeBase Relative) compare as signed */
	setup(&f);
	do_push(&f, 0, 0, -50, NVTXT_TB_RELATIVE, NULL, 1);
	tap_ok(do_pop(&f, 0, 0, -10, NVTXT_TB_RELATIVE, 2, &got, NULL, 0, NULL),
	       "relative: pop at -10 after push at -50 accepted");
	do_push(&f, 0, 0, -10, NVTXT_TB_RELATIVE, NULL, 3);
	tap_ok(!do_pop(&f, 0, 0, -20, NVTXT_TB_RELATIVE, 4, NULL, NULL, 0, NULL),
	       "relative: pop at -20 after push at -10 rejected");
	tap_is_str(cap_msg(&f.cap, 0),
		   "RangePop at time -20 is earlier than the RangePush it closes, at time -10",
		   "relative: message");
	teardown(&f);
}

static void test_nested_and_threads(void)
{
	struct fixture f;
	struct nvtxt_event got;
	char msg[64];

	setup(&f);
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "outer", 1);
	do_push(&f, 1, 1, 20, NVTXT_TB_QPC, "inner", 2);
	tap_ok(do_pop(&f, 1, 1, 30, NVTXT_TB_QPC, 3, &got, msg, sizeof msg, NULL), "nested: first pop");
	tap_is_str(msg, "inner", "nested: first pop closes the inner push");
	tap_is_int(got.ordinal, 1, "nested: inner ordinal");
	tap_ok(do_pop(&f, 1, 1, 40, NVTXT_TB_QPC, 4, &got, msg, sizeof msg, NULL), "nested: second pop");
	tap_is_str(msg, "outer", "nested: second pop closes the outer push");
	tap_is_int(got.ordinal, 0, "nested: outer ordinal");
	tap_is_int(f.d.errors, 0, "nested: no errors");
	teardown(&f);

	/* interleaved threads: each has its own stack */
	setup(&f);
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "t1-a", 1);
	do_push(&f, 1, 2, 11, NVTXT_TB_QPC, "t2-a", 2);
	do_push(&f, 1, 1, 12, NVTXT_TB_QPC, "t1-b", 3);
	do_push(&f, 2, 1, 5, NVTXT_TB_FILETIME, "p2t1", 4);
	tap_ok(do_pop(&f, 1, 2, 13, NVTXT_TB_QPC, 5, &got, msg, sizeof msg, NULL), "threads: pop t2");
	tap_is_str(msg, "t2-a", "threads: t2's pop closes t2's push");
	tap_ok(do_pop(&f, 1, 1, 14, NVTXT_TB_QPC, 6, &got, msg, sizeof msg, NULL), "threads: pop t1");
	tap_is_str(msg, "t1-b", "threads: t1's pop closes t1's top");
	tap_ok(do_pop(&f, 2, 1, 6, NVTXT_TB_FILETIME, 7, &got, msg, sizeof msg, NULL),
	       "threads: pop process 2 thread 1");
	tap_is_str(msg, "p2t1", "threads: same tid in another process is another thread");
	tap_ok(do_pop(&f, 1, 1, 15, NVTXT_TB_QPC, 8, &got, msg, sizeof msg, NULL), "threads: pop t1 again");
	tap_is_str(msg, "t1-a", "threads: t1's last");
	tap_is_int(f.d.errors, 0, "threads: no errors");
	/* thread 2 of process 1 is empty now, and (2, 2) never existed */
	tap_ok(!do_pop(&f, 1, 2, 20, NVTXT_TB_QPC, 9, NULL, NULL, 0, NULL), "threads: t2 is empty");
	tap_ok(!do_pop(&f, 2, 2, 20, NVTXT_TB_QPC, 10, NULL, NULL, 0, NULL), "threads: unknown thread");
	tap_is_int(f.d.errors, 2, "threads: two errors");
	tap_is_str(cap_msg(&f.cap, 1), "RangePop without an open RangePush on thread 2 of process 2",
		   "threads: message names thread and process");
	tap_is_int(cap_line(&f.cap, 1), 10, "threads: line of the second error");
	teardown(&f);

	/* a pop on a thread that only another process pushed on */
	setup(&f);
	do_push(&f, 1, 7, 10, NVTXT_TB_QPC, NULL, 1);
	tap_ok(!do_pop(&f, 2, 7, 11, NVTXT_TB_QPC, 2, NULL, NULL, 0, NULL),
	       "threads: pid is part of the key");
	tap_is_int(f.d.errors, 1, "threads: one error");
	tap_is_int(pairing_finish(f.p, &f.d, NULL), 0, "threads: finish");
	tap_is_int(f.d.warnings, 1, "threads: process 1's push still open at end");
	teardown(&f);

	/* large ids */
	setup(&f);
	do_push(&f, INT64_MAX, INT64_MAX, 1, NVTXT_TB_QPC, "big", 1);
	tap_ok(!do_pop(&f, INT64_MAX, 0, 2, NVTXT_TB_QPC, 2, NULL, NULL, 0, NULL),
	       "large ids: other thread rejected");
	tap_ok(do_pop(&f, INT64_MAX, INT64_MAX, 2, NVTXT_TB_QPC, 3, &got, msg, sizeof msg, NULL),
	       "large ids: INT64_MAX thread pops");
	tap_is_str(msg, "big", "large ids: message");
	teardown(&f);
}

static void test_errors_no_cascade(void)
{
	struct fixture f;
	struct nvtxt_event got;
	char msg[64];
	bool null_push;

	/* pop earlier than its push: error with a note, and it still closes the push */
	setup(&f);
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "outer", 1);
	do_push(&f, 1, 1, 100, NVTXT_TB_QPC, "inner", 2);
	tap_ok(!do_pop(&f, 1, 1, 50, NVTXT_TB_QPC, 3, NULL, NULL, 0, &null_push),
	       "early pop: rejected");
	tap_is_int(f.d.errors, 1, "early pop: one error");
	tap_is_str(cap_msg(&f.cap, 0),
		   "RangePop at time 50 is earlier than the RangePush it closes, at time 100",
		   "early pop: message");
	tap_is_int(cap_line(&f.cap, 0), 3, "early pop: at the pop");
	tap_is_int(f.cap.n ? f.cap.d[0].nnotes : 0, 1, "early pop: one note");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "the RangePush is here", "early pop: note text");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 2, "early pop: note at the inner push");
	tap_ok(do_pop(&f, 1, 1, 60, NVTXT_TB_QPC, 4, &got, msg, sizeof msg, NULL),
	       "early pop: next pop accepted (no cascade)");
	tap_is_str(msg, "outer", "early pop: next pop closes the outer push");
	tap_is_int(f.d.errors, 1, "early pop: still one error");
	tap_is_int(pairing_finish(f.p, &f.d, NULL), 0, "early pop: finish");
	tap_is_int(f.d.warnings, 0, "early pop: nothing left open");
	teardown(&f);

	/* TimeBase mismatch: error with a note; the push is closed */
	setup(&f);
	do_push(&f, 3, 4, 10, NVTXT_TB_QPC, "outer", 1);
	do_push(&f, 3, 4, 20, NVTXT_TB_QPC, "inner", 2);
	tap_ok(!do_pop(&f, 3, 4, 30, NVTXT_TB_RDTSC, 3, NULL, NULL, 0, NULL),
	       "timebase: mismatch rejected");
	tap_is_int(f.d.errors, 1, "timebase: one error");
	tap_is_str(cap_msg(&f.cap, 0), "RangePop uses TimeBase Rdtsc but the RangePush it closes uses Qpc",
		   "timebase: message");
	tap_is_int(cap_line(&f.cap, 0), 3, "timebase: at the pop");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "the RangePush is here", "timebase: note text");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 2, "timebase: note at the inner push");
	tap_ok(do_pop(&f, 3, 4, 40, NVTXT_TB_QPC, 4, &got, msg, sizeof msg, NULL),
	       "timebase: next pop accepted (no cascade)");
	tap_is_str(msg, "outer", "timebase: closes the outer push");
	tap_ok(!do_pop(&f, 3, 4, 50, NVTXT_TB_QPC, 5, NULL, NULL, 0, NULL),
	       "timebase: third pop has nothing to close");
	tap_is_int(f.d.errors, 2, "timebase: two errors in all");
	teardown(&f);

	/* a failed pop followed by a commit releases nothing else */
	setup(&f);
	do_push(&f, 0, 0, 10, NVTXT_TB_QPC, "a", 1);
	do_push(&f, 0, 0, 20, NVTXT_TB_QPC, "b", 2);
	{
		struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_POP, 0, 0, 5, NVTXT_TB_QPC, NULL, 3);
		tap_ok(!pairing_event(f.p, &f.d, &ev), "commit: pop rejected");
		pairing_commit(f.p);
		pairing_commit(f.p);
	}
	tap_ok(do_pop(&f, 0, 0, 30, NVTXT_TB_QPC, 4, &got, msg, sizeof msg, NULL),
	       "commit: extra commits after a failed pop drop nothing");
	tap_is_str(msg, "a", "commit: the outer push is still there");
	teardown(&f);

	/* the push stays recorded until the commit */
	setup(&f);
	do_push(&f, 0, 0, 10, NVTXT_TB_QPC, "x", 1);
	{
		struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_POP, 0, 0, 20, NVTXT_TB_QPC, NULL, 2);
		tap_ok(pairing_event(f.p, &f.d, &ev), "commit: pop accepted");
		tap_ok(ev.push && ev.push->message.len == 1 && ev.push->message.ptr[0] == 'x',
		       "commit: ev->push valid before the commit");
		pairing_commit(f.p);
	}
	tap_ok(!do_pop(&f, 0, 0, 30, NVTXT_TB_QPC, 3, NULL, NULL, 0, NULL), "commit: released after commit");
	teardown(&f);
}

static void test_messages_survive(void)
{
	struct fixture f;
	enum { N = 2000 };
	char buf[300];
	int ok_all = 1, bits_ok = 1;
	struct nvtxt_event got;
	char msg[300];

	setup(&f);
	/* the event's message is a copy: the caller's buffer is overwritten at once */
	strcpy(buf, "the outermost message");
	do_push(&f, 5, 5, 0, NVTXT_TB_QPC, buf, 1);
	memset(buf, 'Z', sizeof buf - 1);
	buf[sizeof buf - 1] = '\0';
	for (int i = 0; i < N; i++) {
		int len = i % 257;
		for (int j = 0; j < len; j++)
			buf[j] = (char)('a' + (i + j) % 26);
		buf[len] = '\0';
		/* every third push has no Message at all */
		do_push(&f, 5, 5, i + 1, NVTXT_TB_QPC, i % 3 == 2 ? NULL : buf, (uint32_t)(i + 2));
		memset(buf, '#', (size_t)len);
	}
	/* an empty but present message */
	do_push(&f, 5, 5, N + 1, NVTXT_TB_QPC, "", (uint32_t)(N + 2));
	tap_ok(do_pop(&f, 5, 5, N + 1, NVTXT_TB_QPC, (uint32_t)(N + 3), &got, msg, sizeof msg, NULL),
	       "messages: pop of the empty message");
	tap_is_int(got.present, BASE_BITS | NVTXT_BIT(NVTXT_ARG_MESSAGE),
		   "messages: empty message is present");
	tap_is_int(got.message.len, 0, "messages: empty message has length 0");
	for (int i = N - 1; i >= 0; i--) {
		int len = i % 257;
		char want[300];
		bool has = i % 3 != 2;

		for (int j = 0; j < len; j++)
			want[j] = (char)('a' + (i + j) % 26);
		want[len] = '\0';
		if (!do_pop(&f, 5, 5, N + 10, NVTXT_TB_QPC, (uint32_t)(N + 10 + i), &got, msg,
			    sizeof msg, NULL)) {
			ok_all = 0;
			break;
		}
		if (has && (got.message.len != (size_t)len || strcmp(msg, want) != 0)) {
			ok_all = 0;
			printf("# push %d: message '%s', want '%s'\n", i, msg, want);
			break;
		}
		if (got.time != i + 1 || got.ordinal != (uint64_t)i + 1) {
			ok_all = 0;
			printf("# push %d: time %lld ordinal %llu\n", i, (long long)got.time,
			       (unsigned long long)got.ordinal);
			break;
		}
		if ((got.present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) != (has ? NVTXT_BIT(NVTXT_ARG_MESSAGE) : 0u))
			bits_ok = 0;
	}
	tap_ok(ok_all, "messages: %d pushes pop back with their own messages, times and ordinals", N);
	tap_ok(bits_ok, "messages: the Message bit of each push is kept");
	tap_ok(do_pop(&f, 5, 5, N + 20, NVTXT_TB_QPC, 1, &got, msg, sizeof msg, NULL),
	       "messages: the outermost pop");
	tap_is_str(msg, "the outermost message", "messages: outermost message intact after many pushes");
	tap_is_int(f.d.errors, 0, "messages: no errors");
	teardown(&f);

	/* bytes that are not text: NUL and high bytes are kept as they are */
	setup(&f);
	{
		static const char raw[] = { 'a', '\0', 'b', (char)0xC3, (char)0xA9 };
		struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_PUSH, 0, 0, 1, NVTXT_TB_QPC, NULL, 1);
		ev.present |= NVTXT_BIT(NVTXT_ARG_MESSAGE);
		ev.message.ptr = raw;
		ev.message.len = sizeof raw;
		pairing_event(f.p, &f.d, &ev);
		ev = mk(NVTXT_CMD_RANGE_POP, 0, 0, 2, NVTXT_TB_QPC, NULL, 2);
		tap_ok(pairing_event(f.p, &f.d, &ev), "raw message: pop");
		tap_ok(ev.push && ev.push->message.len == sizeof raw &&
		       memcmp(ev.push->message.ptr, raw, sizeof raw) == 0,
		       "raw message: the bytes are kept, embedded NUL included");
		pairing_commit(f.p);
	}
	teardown(&f);
}

/* ---- end of file: unclosed pushes ---- */

struct rec_backend {
	uint64_t ordinals[64];
	char msgs[64][32];
	int64_t tids[64];
	size_t n;
	int fail_at;      /* 1-based call that fails, 0 for none */
};

static int rec_unclosed(void *user, const struct nvtxt_event *push)
{
	struct rec_backend *r = user;
	size_t n = 0;

	if (r->n < 64) {
		r->ordinals[r->n] = push->ordinal;
		r->tids[r->n] = push->thread_id;
		if (push->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) {
			n = push->message.len < 31 ? push->message.len : 31;
			memcpy(r->msgs[r->n], push->message.ptr, n);
		}
		r->msgs[r->n][n] = '\0';
	}
	r->n++;
	return r->fail_at && (int)r->n == r->fail_at ? -1 : 0;
}

static void test_finish(void)
{
	struct fixture f;
	struct rec_backend rb;
	struct nvtxt_backend be = { &rb, NULL, rec_unclosed, NULL };
	struct nvtxt_event got;
	char msg[32];

	/* file order across threads: t1 line 1, t2 line 2, t1 line 3, t3 line 4, t2 line 5 */
	setup(&f);
	memset(&rb, 0, sizeof(rb));
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "A", 1);
	do_push(&f, 1, 2, 10, NVTXT_TB_QPC, "B", 2);
	do_push(&f, 1, 1, 11, NVTXT_TB_QPC, "C", 3);
	do_push(&f, 1, 3, 10, NVTXT_TB_QPC, "D", 4);
	do_push(&f, 1, 2, 11, NVTXT_TB_QPC, "E", 5);
	do_push(&f, 1, 3, 12, NVTXT_TB_QPC, "F", 6);
	/* close F (thread 3's top) */
	tap_ok(do_pop(&f, 1, 3, 13, NVTXT_TB_QPC, 7, &got, msg, sizeof msg, NULL), "finish: pop F");
	tap_is_str(msg, "F", "finish: F closed");
	tap_is_int(pairing_finish(f.p, &f.d, &be), 0, "finish: returns 0");
	tap_is_int(f.d.warnings, 5, "finish: five unclosed pushes");
	tap_is_int(f.d.errors, 0, "finish: no errors");
	tap_is_int(f.cap.n, 5, "finish: five diagnostics");
	{
		int order_ok = f.cap.n == 5, kind_ok = 1;
		for (size_t i = 0; i < f.cap.n; i++) {
			if (f.cap.d[i].loc.line != i + 1)
				order_ok = 0;
			if (f.cap.d[i].severity != NVTXT_SEV_WARNING ||
			    f.cap.d[i].check != NVTXT_CHECK_UNCLOSED_RANGE || f.cap.d[i].promoted)
				kind_ok = 0;
		}
		tap_ok(order_ok, "finish: warnings in file order (lines 1..5)");
		tap_ok(kind_ok, "finish: each a warning [-Wunclosed-range]");
	}
	tap_is_str(cap_msg(&f.cap, 0),
		   "RangePush is never popped: thread 1 of process 1 ends with it open",
		   "finish: message of the first");
	tap_is_str(cap_msg(&f.cap, 3),
		   "RangePush is never popped: thread 3 of process 1 ends with it open",
		   "finish: message of the fourth");
	tap_is_int(rb.n, 5, "finish: the back end got five pushes");
	tap_ok(rb.ordinals[0] == 0 && rb.ordinals[1] == 1 && rb.ordinals[2] == 2 &&
	       rb.ordinals[3] == 3 && rb.ordinals[4] == 4, "finish: in ordinal order");
	tap_ok(strcmp(rb.msgs[0], "A") == 0 && strcmp(rb.msgs[1], "B") == 0 &&
	       strcmp(rb.msgs[2], "C") == 0 && strcmp(rb.msgs[3], "D") == 0 &&
	       strcmp(rb.msgs[4], "E") == 0, "finish: with their messages A B C D E");
	tap_ok(rb.tids[0] == 1 && rb.tids[1] == 2 && rb.tids[2] == 1 && rb.tids[3] == 3 &&
	       rb.tids[4] == 2, "finish: with their threads");
	teardown(&f);

	/* ordinals, not creation order of threads, decide the order */
	setup(&f);
	memset(&rb, 0, sizeof(rb));
	{
		static const int64_t tids[] = { 9, 8, 7, 9, 8, 7, 9 };
		for (int i = 0; i < 7; i++) {
			struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_PUSH, 0, tids[i], i, NVTXT_TB_QPC,
						   NULL, (uint32_t)(10 + i));
			ev.ordinal = (uint64_t)(100 + 3 * i);
			pairing_event(f.p, &f.d, &ev);
		}
	}
	tap_is_int(pairing_finish(f.p, &f.d, &be), 0, "finish: seven open");
	{
		int ok = rb.n == 7 && f.cap.n == 7;
		for (size_t i = 0; ok && i < 7; i++)
			ok = rb.ordinals[i] == 100 + 3 * i && f.cap.d[i].loc.line == 10 + i;
		tap_ok(ok, "finish: seven pushes on three threads reported in ordinal order");
	}
	teardown(&f);

	/* -Wno-unclosed-range: no warning, the back end still gets them */
	setup(&f);
	memset(&rb, 0, sizeof(rb));
	f.cfg.level[NVTXT_CHECK_UNCLOSED_RANGE] = NVTXT_LEVEL_OFF;
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "A", 1);
	tap_is_int(pairing_finish(f.p, &f.d, &be), 0, "finish off: returns 0");
	tap_is_int(f.cap.n + f.d.warnings + f.d.errors, 0, "finish off: nothing reported");
	tap_is_int(rb.n, 1, "finish off: back end still told");
	teardown(&f);

	/* -Werror=unclosed-range: an error */
	setup(&f);
	f.cfg.level[NVTXT_CHECK_UNCLOSED_RANGE] = NVTXT_LEVEL_ERROR;
	do_push(&f, 1, 1, 10, NVTXT_TB_QPC, "A", 1);
	pairing_finish(f.p, &f.d, NULL);
	tap_is_int(f.d.errors, 1, "finish -Werror: counted as an error");
	tap_is_int(f.d.warnings, 0, "finish -Werror: not as a warning");
	tap_ok(f.cap.n == 1 && f.cap.d[0].promoted && f.cap.d[0].severity == NVTXT_SEV_ERROR &&
	       f.cap.d[0].check == NVTXT_CHECK_UNCLOSED_RANGE, "finish -Werror: promoted error");
	teardown(&f);

	/* a back end that fails: -1, no more callbacks, every warning still given */
	setup(&f);
	memset(&rb, 0, sizeof(rb));
	rb.fail_at = 2;
	for (int i = 0; i < 4; i++)
		do_push(&f, 0, i, 1, NVTXT_TB_QPC, NULL, (uint32_t)(i + 1));
	tap_is_int(pairing_finish(f.p, &f.d, &be), -1, "finish failing: returns -1");
	tap_is_int(rb.n, 2, "finish failing: no callback after the failure");
	tap_is_int(f.d.warnings, 4, "finish failing: still four warnings");
	teardown(&f);

	/* a back end without the callback, and no back end */
	setup(&f);
	be.unclosed_push = NULL;
	do_push(&f, 0, 0, 1, NVTXT_TB_QPC, NULL, 1);
	tap_is_int(pairing_finish(f.p, &f.d, &be), 0, "finish: NULL callback is fine");
	tap_is_int(f.d.warnings, 1, "finish: NULL callback still warns");
	teardown(&f);

	setup(&f);
	tap_is_int(pairing_finish(f.p, &f.d, NULL), 0, "finish: empty pass");
	tap_is_int(f.cap.n, 0, "finish: empty pass reports nothing");
	teardown(&f);
}

static void test_deep(void)
{
	enum { N = 100000 };
	struct fixture f;
	struct timespec t0, t1;
	int ok = 1;
	char buf[32];
	double secs;

	setup(&f);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < N; i++) {
		snprintf(buf, sizeof buf, "m%d", i);
		if (!do_push(&f, 1, 1, i, NVTXT_TB_QPC, buf, (uint32_t)(i + 1)))
			ok = 0;
	}
	for (int i = N - 1; i >= 0; i--) {
		struct nvtxt_event ev = mk(NVTXT_CMD_RANGE_POP, 1, 1, N, NVTXT_TB_QPC, NULL,
					   (uint32_t)(2 * N - i));
		snprintf(buf, sizeof buf, "m%d", i);
		if (!pairing_event(f.p, &f.d, &ev) || !ev.push || ev.push->time != i ||
		    ev.push->message.len != strlen(buf) ||
		    memcmp(ev.push->message.ptr, buf, strlen(buf)) != 0) {
			ok = 0;
			printf("# pop %d failed\n", i);
			break;
		}
		pairing_commit(f.p);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_ok(ok, "deep: %d nested pushes then pops pair up with their messages", N);
	tap_is_int(f.d.errors + f.d.warnings, 0, "deep: no diagnostics");
	tap_is_int(pairing_finish(f.p, &f.d, NULL), 0, "deep: finish");
	tap_is_int(f.d.warnings, 0, "deep: nothing open at end");
	tap_ok(secs < 5.0, "deep: in %.3f s (< 5 s)", secs);
	teardown(&f);
}

int main(void)
{
	test_simple();
	test_nested_and_threads();
	test_errors_no_cascade();
	test_messages_survive();
	test_finish();
	test_deep();
	return tap_done();
}
