/*
 * sema_fast.c - unit test of the fast path of command calls in
 * src/passes/sema.c (sema_set_fast_path): the same instructions go, line by
 * line, to three sema instances, one with the fast path off (every call
 * takes the full checks), one with it on, and one that switches it at
 * every line, and each instance's diagnostics and back-end events are
 * logged in the order they happen.  The three logs must be equal, byte
 * for byte, for tricky sequences (a static variable reassigned to a bad
 * value between calls, a definition changed between calls, negative
 * timestamps with TimeBase Relative listed or static, Color by name, hex
 * and Integer, absent optional values, a bad static reported once,
 * unknown commands, expansions, pairing after failed calls), for every
 * NVTXT input of the repository (tests/lint, examples, the fuzz seeds)
 * and for pseudo-random files that mix valid and invalid lines.
 *
 * The instructions come from nvtxt_compile in syntax mode, so the test
 * sees exactly the AST nodes the parser gives the passes.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "sema.h"
#include "tap.h"

/* ---- one sema instance and its log ---- */

enum mode { MODE_OFF, MODE_ON, MODE_TOGGLE, MODE_COUNT };
static const char *const mode_name[MODE_COUNT] = { "off", "on", "toggled" };

struct side {
	enum mode mode;
	struct nvtxt_diag_config cfg;
	struct nvtxt_diags diags;
	struct nvtxt_backend be;
	struct sema *s;
	struct buf log;               /* diagnostics and events, in order */
	unsigned long events, diags_n;
	unsigned long lines;
};

/* Appends a byte string with its length, NULL distinguished from empty. */
static void put_str(struct buf *b, const char *label, struct nvtxt_str s)
{
	buf_printf(b, " %s=", label);
	if (!s.ptr) {
		buf_printf(b, "(null)/%zu", s.len);
		return;
	}
	buf_printf(b, "%zu:", s.len);
	buf_addc(b, '[');
	buf_add(b, s.ptr, s.len);
	buf_addc(b, ']');
}

static void put_loc(struct buf *b, const char *label, const struct nvtxt_loc *l)
{
	buf_printf(b, " %s=%u:%u+%u@%llu", label, l->line, l->col, l->len, (unsigned long long)l->line_offset);
}

/* Every field of an event, present or not. */
static void put_event(struct buf *b, const char *what, const struct nvtxt_event *ev)
{
	buf_printf(b, "%s cmd=%d present=%#x time=%lld start=%lld end=%lld tb=%d pid=%lld tid=%lld cat=%u parent=%u color=%#x payload=%lld ordinal=%llu",
		   what, (int)ev->command, ev->present, (long long)ev->time, (long long)ev->start,
		   (long long)ev->end, (int)ev->timebase, (long long)ev->process_id,
		   (long long)ev->thread_id, ev->category_id, ev->parent_category_id, ev->color,
		   (long long)ev->payload, (unsigned long long)ev->ordinal);
	put_loc(b, "loc", &ev->loc);
	put_str(b, "message", ev->message);
	put_str(b, "name", ev->name);
	if (ev->push) {
		const struct nvtxt_event *p = ev->push;
		buf_printf(b, " push{cmd=%d present=%#x time=%lld tb=%d pid=%lld tid=%lld cat=%u color=%#x payload=%lld ordinal=%llu",
			   (int)p->command, p->present, (long long)p->time, (int)p->timebase,
			   (long long)p->process_id, (long long)p->thread_id, p->category_id, p->color,
			   (long long)p->payload, (unsigned long long)p->ordinal);
		put_loc(b, "loc", &p->loc);
		put_str(b, "message", p->message);
		buf_addc(b, '}');
	}
	buf_addc(b, '\n');
}

static int side_event(void *user, const struct nvtxt_event *ev)
{
	struct side *sd = user;
	sd->events++;
	put_event(&sd->log, "event", ev);
	return 0;
}

static int side_unclosed(void *user, const struct nvtxt_event *ev)
{
	struct side *sd = user;
	put_event(&sd->log, "unclosed", ev);
	return 0;
}

static int side_finish(void *user)
{
	struct side *sd = user;
	buf_adds(&sd->log, "finish\n");
	return 0;
}

static void side_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct side *sd = user;
	struct buf *b = &sd->log;

	(void)src;
	sd->diags_n++;
	buf_printf(b, "diag sev=%d w=%d promoted=%d file=%s", (int)d->severity, (int)d->check,
		   (int)d->promoted, d->file ? d->file : "(null)");
	put_loc(b, "loc", &d->loc);
	buf_printf(b, " msg=[%s] fixit=[%s]\n", d->message, d->fixit ? d->fixit : "(none)");
	for (size_t i = 0; i < d->nnotes; i++) {
		buf_adds(b, "  note");
		put_loc(b, "loc", &d->notes[i].loc);
		buf_printf(b, " msg=[%s]\n", d->notes[i].message);
	}
}

static void side_init(struct side *sd, enum mode mode, unsigned long max_errors)
{
	memset(sd, 0, sizeof(*sd));
	sd->mode = mode;
	nvtxt_diag_config_init(&sd->cfg);
	sd->cfg.max_errors = max_errors;
	nvtxt_diags_init(&sd->diags, &sd->cfg, (struct nvtxt_diag_sink){ sd, side_report }, "t.nvtxt");
	sd->be = (struct nvtxt_backend){ sd, side_event, side_unclosed, side_finish };
	sd->s = sema_new(&sd->diags, &sd->be);
	sema_set_fast_path(sd->s, mode != MODE_OFF);
}

static void side_free(struct side *sd)
{
	sema_free(sd->s);
	buf_free(&sd->log);
}

/* ---- feeding the same instructions to every side ---- */

struct feed {
	struct side side[MODE_COUNT];
};

static void feed_instruction(void *user, const struct nvtxt_instr *in)
{
	struct feed *f = user;

	for (int m = 0; m < MODE_COUNT; m++) {
		struct side *sd = &f->side[m];
		if (sd->mode == MODE_TOGGLE)
			sema_set_fast_path(sd->s, sd->lines % 2 == 0);
		sd->lines++;
		sema_instruction(sd->s, in);
	}
}

static void ignore_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user;
	(void)d;
	(void)src;
}

/* Parses the input on fd and hands every instruction to the three sides, then finishes them. */
static void feed_fd(struct feed *f, int fd, unsigned long max_errors)
{
	struct nvtxt_diag_config cfg;
	struct nvtxt_compile_options opt;
	struct nvtxt_compile_result res;

	for (int m = 0; m < MODE_COUNT; m++)
		side_init(&f->side[m], (enum mode)m, max_errors);
	nvtxt_diag_config_init(&cfg);
	memset(&opt, 0, sizeof(opt));
	opt.display_name = "t.nvtxt";
	opt.fd = fd;
	opt.diag_config = &cfg;
	opt.sink = (struct nvtxt_diag_sink){ NULL, ignore_report };
	opt.instruction = feed_instruction;
	opt.instruction_user = f;
	nvtxt_compile(&opt, &res);
	for (int m = 0; m < MODE_COUNT; m++)
		sema_finish(f->side[m].s);
}

static int text_fd(const char *text, size_t len)
{
	char path[] = "/tmp/nvtxt-sema-fast-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("mkstemp");
		exit(2);
	}
	unlink(path);
	if (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) != 0) {
		perror("write");
		exit(2);
	}
	return fd;
}

/* Shows the first line where two logs differ. */
static void show_difference(const char *a, const char *b)
{
	size_t line = 1, i = 0, start = 0;

	while (a[i] && a[i] == b[i]) {
		if (a[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	printf("#   first difference in log line %zu:\n#   off: %.300s\n#   fast: %.300s\n", line,
	       a + start, b + start);
}

/* True when the fast (and toggled) logs equal the full path's; says which differ. */
static bool same_logs(const struct feed *f, const char *what, bool quiet)
{
	const char *off = f->side[MODE_OFF].log.ptr ? f->side[MODE_OFF].log.ptr : "";
	bool ok = true;

	for (int m = MODE_ON; m < MODE_COUNT; m++) {
		const char *other = f->side[m].log.ptr ? f->side[m].log.ptr : "";
		if (strcmp(off, other) != 0) {
			ok = false;
			printf("# %s: the log with the fast path %s differs from the full path's\n", what, mode_name[m]);
			show_difference(off, other);
		}
	}
	if (!quiet || !ok)
		tap_ok(ok, "%s: fast path on, off and toggled give the same diagnostics and events", what);
	return ok;
}

static void feed_free(struct feed *f)
{
	for (int m = 0; m < MODE_COUNT; m++)
		side_free(&f->side[m]);
}

/* Counts the lines of the full path's log that start with `prefix`. */
static unsigned long count_lines(const struct feed *f, const char *prefix)
{
	const char *p = f->side[MODE_OFF].log.ptr;
	size_t n = strlen(prefix);
	unsigned long count = 0;

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (strncmp(p, prefix, n) == 0)
			count++;
	return count;
}

static bool log_has(const struct feed *f, const char *text)
{
	const char *p = f->side[MODE_OFF].log.ptr;
	return p && strstr(p, text);
}

/* ---- the tricky sequences ---- */

struct scenario {
	const char *name;
	const char *text;
	unsigned long events;       /* "event" lines of the log */
	unsigned long diags;        /* "diag" lines */
	const char *must_have[8];   /* texts the full path's log must contain */
};

static const struct scenario scenarios[] = {
	{ "a static ProcessId reassigned to a bad value between calls",
	  "TimeBase = Qpc\n"
	  "ProcessId = 1\n"
	  "ThreadId = 2\n"
	  "@Marker, Time, Message\n"
	  "Marker, 10, \"a\"\n"
	  "ProcessId = -5\n"
	  "Marker, 11, \"b\"\n"
	  "Marker, 12, \"c\"\n"
	  "ProcessId = 3\n"
	  "Marker, 13, \"d\"\n"
	  "ProcessId = \"7\"\n"
	  "Marker, 14, \"e\"\n"
	  "Marker, 15, \"f\"\n"
	  "ProcessId = 4\n"
	  "Marker, 16, \"g\"\n",
	  3, 2,
	  { "msg=[expected an Integer >= 0 for ProcessId, found integer -5]",
	    "pid=3 tid=2", "pid=4 tid=2 cat=0 parent=0 color=0 payload=0 ordinal=2", NULL } },
	{ "a definition changed between calls",
	  "TimeBase = Qpc\n"
	  "ProcessId = 1\n"
	  "ThreadId = 2\n"
	  "Marker, 10, Qpc, 1, 2, , , \"a\",\n"
	  "@Marker, Time, Message\n"
	  "Marker, 11, \"b\"\n"
	  "Marker, 12, Qpc, 1, 2, , , \"c\",\n"
	  "@Marker, Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload\n"
	  "Marker, 13, Qpc, 1, 2, , , \"d\",\n"
	  "@Marker, Time, Bogus\n"
	  "Marker, 14\n"
	  "@Marker, Time\n"
	  "Marker, 15\n"
	  "@Marker, Time, Time\n"
	  "Marker, 16\n"
	  "@Marker, Message, Time\n"
	  "Marker, \"h\", 17\n"
	  "@Marker, Time, ThreadId\n"
	  "ThreadId = 9\n"
	  "Marker, 18, 3\n",
	  6, 3,
	  { "msg=[Marker expects 2 values (Time, Message), found 8]",
	    "'Bogus' is not an argument of Marker",
	    "msg=[argument 'Time' is listed twice in the definition of Marker]",
	    "time=18 start=0 end=0 tb=0 pid=1 tid=3" } },
	{ "negative timestamps with TimeBase Relative listed or static",
	  "ProcessId = 1\n"
	  "ThreadId = 1\n"
	  "Marker, -5, Relative, 1, 1,,,,\n"
	  "Marker, -5, Qpc, 1, 1,,,,\n"
	  "@Marker, Time, Message\n"
	  "TimeBase = Relative\n"
	  "Marker, -7, \"x\"\n"
	  "TimeBase = Qpc\n"
	  "Marker, -7, \"y\"\n"
	  "@Marker, TimeBase, Message\n"
	  "Time = -3\n"
	  "Marker, Relative, \"z\"\n"
	  "Marker, Qpc, \"w\"\n"
	  "Marker, Qpc, \"w2\"\n"
	  "Marker, Relative, \"z2\"\n"
	  "Time = 4\n"
	  "Marker, Qpc, \"v\"\n"
	  "RangeStartEnd, 5, 3, Qpc, 1, 1,,,,\n"
	  "RangeStartEnd, -5, -3, Relative, 1, 1,,,,\n"
	  "RangeStartEnd, -3, -5, Relative, 1, 1,,,,\n"
	  "RangeStartEnd, -3, 5, Qpc, 1, 1,,,,\n"
	  "RangeStartEnd, 3, 3, Qpc, 1, 1,,,,\n"
	  "TimeBase = Relative\n"
	  "@RangeStartEnd, Start, End\n"
	  "RangeStartEnd, -9, -8\n"
	  "RangeStartEnd, -8, -9\n",
	  8, 7,
	  { "msg=[expected an Integer timestamp >= 0 for Time, found integer -5; only TimeBase Relative allows negative timestamps]",
	    "msg=[RangeStartEnd ends before it starts: End 3 is less than Start 5]",
	    "time=-3 start=0 end=0 tb=4", "start=-9 end=-8 tb=4" } },
	{ "Color by name, hex and Integer, listed and static",
	  "Marker, 1, Qpc, 1, 1, , Blue, \"a\",\n"
	  "Marker, 2, Qpc, 1, 1, , blue, \"b\",\n"
	  "Marker, 3, Qpc, 1, 1, , \"0xFF00FF00\", \"c\",\n"
	  "Marker, 4, Qpc, 1, 1, , 0xFF00FF01, \"d\",\n"
	  "Marker, 5, Qpc, 1, 1, , 4294967295, \"e\",\n"
	  "Marker, 6, Qpc, 1, 1, , 4294967296, \"f\",\n"
	  "Marker, 7, Qpc, 1, 1, , \"0xFF00FF0\", \"g\",\n"
	  "Marker, 8, Qpc, 1, 1, , \"0xFF00FF0G\", \"h\",\n"
	  "Marker, 9, Qpc, 1, 1, , Bleu, \"i\",\n"
	  "Marker, 10, Qpc, 1, 1, , -1, \"j\",\n"
	  "Marker, 11, Qpc, 1, 1, , 'Transparent', \"k\",\n"
	  "Marker, 12, Qpc, 1, 1, , \"0x\", \"l\",\n"
	  "Marker, 13, Qpc, 1, 1, , Xyzzyplugh, \"m\",\n"
	  "Color = Red\n"
	  "@Marker, Time, TimeBase, ProcessId, ThreadId\n"
	  "Marker, 14, Qpc, 1, 1\n"
	  "Color = Bleu\n"
	  "Marker, 15, Qpc, 1, 1\n"
	  "Marker, 16, Qpc, 1, 1\n"
	  "Color = 0x1234\n"
	  "Marker, 17, Qpc, 1, 1\n"
	  "Color = \"0x12345678\"\n"
	  "Marker, 18, Qpc, 1, 1\n",
	  9, 9,
	  { "color=0xff0000ff", "color=0xffff0000",
	    "found string \"Bleu\"; did you mean 'Blue'?] fixit=[Blue]", "color=0x12345678",
	    "msg=[Color 0x1234 is fully transparent", "fixit=[0xFF001234]", "time=17 start=0 end=0 tb=0 pid=1 tid=1 cat=0 parent=0 color=0x1234 " } },
	{ "absent optional values, listed and static",
	  "Marker, 1, Qpc, 1, 1,,,,\n"
	  "Marker, 2, Qpc, 1, 1, 5,,,\n"
	  "Marker, 3, , 1, 1,,,,\n"
	  "Marker, , Qpc, 1, 1,,,,\n"
	  "Marker, 4, Qpc, , 1,,,,\n"
	  "CategoryId = 7\n"
	  "Marker, 5, Qpc, 1, 1,,,,\n"
	  "@Marker, Time, TimeBase, ProcessId, ThreadId, Message\n"
	  "Marker, 6, Qpc, 1, 1,\n"
	  "Message = \"static\"\n"
	  "Payload = 42\n"
	  "@Marker, Time, TimeBase, ProcessId, ThreadId\n"
	  "Marker, 7, Qpc, 1, 1\n"
	  "Payload = \"x\"\n"
	  "Marker, 8, Qpc, 1, 1\n"
	  "Marker, 9, Qpc, 1, 1\n"
	  "Payload = -3\n"
	  "Marker, 10, Qpc, 1, 1\n",
	  6, 4,
	  { "missing value for TimeBase, a required argument of Marker",
	    "cat=7 parent=0 color=0 payload=0 ordinal=3",
	    "payload=42 ordinal=4", "message=6:[static]" } },
	{ "a poisoned static, reported once, and required statics missing",
	  "ProcessId = $Undefined\n"
	  "@Marker, Time, TimeBase, ThreadId\n"
	  "Marker, 1, Qpc, 1\n"
	  "Marker, 2, Qpc, 1\n"
	  "ProcessId = 3\n"
	  "Marker, 3, Qpc, 1\n"
	  "@RangePush, Time, TimeBase, ProcessId\n"
	  "RangePush, 4, Qpc, 1\n"
	  "ThreadId = \"x\"\n"
	  "RangePush, 5, Qpc, 1\n"
	  "RangePush, 6, Qpc, 1\n"
	  "RangePop, 7, Qpc, 1, 1\n"
	  "RangePop, 8, Qpc, 1, 1\n"
	  "RangePop, 9, Qpc, 1, 1\n"
	  "@NameOsThread, Name\n"
	  "NameOsThread, \"t\"\n"
	  "ThreadId = 4\n"
	  "NameOsThread, \"t4\"\n",
	  2, 3,
	  { "msg=[undefined variable 'Undefined': no assignment to it comes before this line]",
	    "missing value for ThreadId, a required argument of RangePush",
	    "msg=[expected an Integer >= 0 for ThreadId, found string \"x\"",
	    "name=2:[t4]" } },
	{ "a definition that does not parse, between calls",
	  "TimeBase = Qpc\n"
	  "ProcessId = 1\n"
	  "ThreadId = 1\n"
	  "Marker, 1, Qpc, 1, 1,,,,\n"
	  "@Marker, Time,\n"
	  "Marker, 2, Qpc, 1, 1,,,,\n"
	  "Marker, 3\n"
	  "@Marker, Time\n"
	  "Marker, 4\n"
	  "@Marker, Time, 5\n"
	  "Marker, 5\n"
	  "RangePush, 6\n"
	  "@RangePush, Time, 5\n"
	  "RangePush, 7\n"
	  "RangePop, 8\n"
	  "@RangePush, Time\n"
	  "RangePush, 9\n"
	  "Marker, 10\n",
	  3, 3,
	  { "time=1 start=0", "time=4 start=0", "time=9 start=0",
	    "msg=[RangePush expects 8 values (Time, TimeBase, ProcessId, ThreadId, CategoryId, Color, Message, Payload), found 1]" } },
	{ "an expansion whose name is a color or a time base",
	  "Red = 5\n"
	  "Marker, 1, Qpc, 1, 1, , $Blue, \"a\",\n"
	  "Marker, 2, Qpc, 1, 1, , $Red, \"b\",\n"
	  "Marker, 3, $Qpc, 1, 1, , , \"c\",\n"
	  "Marker, 4, Qpc, 1, 1, , , $Red,\n"
	  "Marker, $Red, Qpc, 1, 1, , , ,\n"
	  "Color = $Green\n"
	  "@Marker, Time, TimeBase, ProcessId, ThreadId\n"
	  "Marker, 6, Qpc, 1, 1\n"
	  "Marker, 7, Qpc, 1, 1\n"
	  "Color = $Red\n"
	  "Marker, 8, Qpc, 1, 1\n",
	  3, 4,
	  { "undefined variable 'Blue'", "undefined variable 'Green'", "time=5 start=0", "time=8 start=0 end=0 tb=0 pid=1 tid=1 cat=0 parent=0 color=0x5 " } },
	{ "unknown commands, before and after a definition",
	  "Markr, 1, Qpc, 1, 1,,,,\n"
	  "@Foo, Time\n"
	  "Foo, 1\n"
	  "Foo, 2\n"
	  "Bar, 1\n"
	  "Marker, 1, Qpc, 1, 1,,,,\n"
	  "marker, 1, Qpc, 1, 1,,,,\n"
	  "RangePushh, 1, Qpc, 1, 1,,,,\n"
	  "NameCategoryy, 1, \"x\"\n"
	  "NameOsThreaX, 1, 1, \"x\"\n"
	  "Marker, 2, Qpc, 1, 1,,,,\n",
	  2, 7,
	  { "msg=[unknown command 'Markr'; did you mean 'Marker'?]", "unknown command 'Foo'",
	    "unknown command 'Bar'", NULL } },
	{ "expansions in calls and in assignments of statics",
	  "T = 5\n"
	  "Q = Qpc\n"
	  "Marker, $T, $Q, 1, 1,,,,\n"
	  "Marker, $Nope, Qpc, 1, 1,,,,\n"
	  "Marker, $Q, Qpc, 1, 1,,,,\n"
	  "Neg = -4\n"
	  "ProcessId = $Neg\n"
	  "ThreadId = $T\n"
	  "TimeBase = $Q\n"
	  "@Marker, Time\n"
	  "Marker, 6\n"
	  "Marker, 7\n"
	  "ProcessId = $T\n"
	  "Marker, $T\n",
	  2, 3,
	  { "undefined variable 'Nope'", "ProcessId is a static argument of this Marker call", "pid=5 tid=5", NULL } },
	{ "pairing after fast and failed calls",
	  "RangePush, 1, Qpc, 1, 1,,,\"a\",\n"
	  "RangePush, 2, Qpc, 1, -1,,,\"b\",\n"
	  "RangePop, 3, Qpc, 1, 1\n"
	  "RangePop, 4, Qpc, 1, 1\n"
	  "RangePop, 5, Qpc, 1, 1\n"
	  "RangePush, 6, Qpc, 1, 2,,,\"c\",\n"
	  "RangePop, 5, Qpc, 1, 2\n"
	  "RangePush, 7, Rdtsc, 1, 3,,,\"d\",\n"
	  "RangePop, 8, Qpc, 1, 3\n"
	  "RangePush, 9, Qpc, 1, 4,,,\"e\",\n"
	  "RangePush, 10, Qpc, 1, 4, 3, Green, 7, 8\n"
	  "RangePop, 11, Qpc, 1, 4\n"
	  "RangePush, 12, Qpc, 1, 5, , , \"f\", x\n"
	  "RangePop, 13, Qpc, 1, 5\n"
	  "Marker, 14, Qpc, 1, 1,,,\"after\",\n",
	  6, 7,
	  { "RangePop without an open RangePush on thread 1 of process 1",
	    "RangePop at time 5 is earlier than the RangePush it closes, at time 6",
	    "RangePop uses TimeBase Qpc but the RangePush it closes uses Rdtsc",
	    "RangePush is never popped" } },
	{ "categories, names and bad Strings",
	  "NameCategory, 1, \"A\"\n"
	  "NameCategory, 1, \"B\"\n"
	  "AddChildCategory, 1, 2\n"
	  "AddChildCategory, 2, 1\n"
	  "AddChildCategory, 4294967296, 1\n"
	  "AddChildCategory, 3, -1\n"
	  "NameOsThread, 1, 1, \"t\"\n"
	  "NameOsThread, 1, 1, 5\n"
	  "NameProcess, 1, \"p\"\n"
	  "NameProcess, 1, \"q\"\n"
	  "SetFileDisplayName, \"f\"\n"
	  "SetFileDisplayName, f\n"
	  "@NameOsThread, Name\n"
	  "ProcessId = 1\n"
	  "ThreadId = 9\n"
	  "NameOsThread, \"t9\"\n"
	  "Name = 5\n"
	  "@SetFileDisplayName\n"
	  "SetFileDisplayName\n"
	  "Name = \"g\"\n"
	  "SetFileDisplayName\n"
	  "@NameCategory, Name\n"
	  "CategoryId = 4294967295\n"
	  "NameCategory, \"max\"\n",
	  11, 8,
	  { "name=2:[t9]", "msg=[expected a String for Name, found integer 5; quote it to make it a String]",
	    "cat=4294967295", "expected an Integer in 0..4294967295 for ParentCategoryId" } },
	{ "types: quoted Integers, Payload, TimeBase names, ids",
	  "Marker, \"5\", Qpc, 1, 1,,,,\n"
	  "Marker, 5 # c, Qpc, 1, 1,,,,\n"
	  "Marker, 5, qpc, 1, 1,,,,\n"
	  "Marker, 5, Relatve, 1, 1,,,,\n"
	  "Marker, 5, 7, 1, 1,,,,\n"
	  "Marker, 5, \"Qpc\", 1, 1,,,,\n"
	  "Marker, 5, Qpc, 1, 1,,,, \"x\"\n"
	  "Marker, 5, Qpc, 1, 1,,,, -9223372036854775808\n"
	  "Marker, 5, Qpc, 9223372036854775807, 0,,,,\n"
	  "Marker, 5, Qpc, 1, 1, -1,,,\n"
	  "Marker, 5, Qpc, 1, 1,, ,5,\n"
	  "Marker, 5, FileTime, 1, 1,,,,\n"
	  "Marker, 5, Rdtsc, 1, 1,,,,\n"
	  "Marker, 5, Manual, 1, 1,,,,\n"
	  "Marker, 5, ClockMonotonicRaw, 1, 1,,,,\n"
	  "Marker, 5, CNTVCT, 1, 1,,,,\n"
	  "Marker, 0x10, Qpc, 0x1, 0x2,,,,\n"
	  "TimeBase = Relatve\n"
	  "@Marker, Time, ProcessId, ThreadId\n"
	  "Marker, 1, 1, 1\n"
	  "Marker, 2, 1, 1\n",
	  9, 9,
	  { "found string \"5\"; a quoted value is always a String", "did you mean 'Qpc'? (time bases are spelt exactly)",
	    "payload=-9223372036854775808", "tb=6" } },
};

static void test_scenarios(void)
{
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *sc = &scenarios[i];
		struct feed f;
		int fd = text_fd(sc->text, strlen(sc->text));
		unsigned long events, diags;

		feed_fd(&f, fd, 0);
		close(fd);
		same_logs(&f, sc->name, false);
		events = count_lines(&f, "event ");
		diags = count_lines(&f, "diag ");
		if (!tap_ok(events == sc->events && diags == sc->diags,
			    "%s: %lu events and %lu diagnostics", sc->name, sc->events, sc->diags))
			printf("#   got %lu events and %lu diagnostics; the log:\n%s", events, diags,
			       f.side[MODE_OFF].log.ptr ? f.side[MODE_OFF].log.ptr : "");
		for (size_t j = 0; j < sizeof sc->must_have / sizeof *sc->must_have && sc->must_have[j]; j++) {
			if (!tap_ok(log_has(&f, sc->must_have[j]), "%s: the log has %s", sc->name, sc->must_have[j]))
				printf("# the log:\n%s", f.side[MODE_OFF].log.ptr ? f.side[MODE_OFF].log.ptr : "");
		}
		feed_free(&f);
	}
}

/* ---- every NVTXT input of the repository ---- */

static bool wanted(const char *dir, const char *name)
{
	size_t n = strlen(name);

	if (name[0] == '.')
		return false;
	/* tests/lint and examples: the .nvtxt files; the fuzz seed directories: every file */
	if (strstr(dir, "fuzz"))
		return true;
	return n > 6 && strcmp(name + n - 6, ".nvtxt") == 0;
}

static void test_directory(const char *dir, unsigned long *files, unsigned long *bad)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4096];
		int fd;

		if (!wanted(dir, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		for (int cap = 0; cap < 2; cap++) {
			struct feed f;
			if (lseek(fd, 0, SEEK_SET) != 0)
				break;
			/* without a cap, and with --max-errors=2 (which changes what is worth suggesting) */
			feed_fd(&f, fd, cap ? 2 : 0);
			if (!same_logs(&f, path, true))
				(*bad)++;
			feed_free(&f);
		}
		(*files)++;
		close(fd);
	}
	closedir(d);
}

static void test_repository_inputs(void)
{
	static const char *const dirs[] = { "tests/lint", "examples", "tests/fuzz/corpus/frontend",
					    "tests/fuzz/corpus/fmt", "tests/fuzz/crashes-found/frontend" };
	unsigned long files = 0, bad = 0;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		test_directory(dirs[i], &files, &bad);
	if (files == 0) {
		printf("ok %d # SKIP no repository inputs (run from the top of the tree)\n", ++tap_count);
		return;
	}
	tap_ok(bad == 0, "the %lu NVTXT inputs of the repository: fast path on, off and toggled agree (%lu differ)",
	       files, bad);
}

/* ---- pseudo-random files: valid calls mixed with every kind of error ---- */

static uint64_t rng;

static uint64_t next(void)
{
	uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static unsigned pick(unsigned n)
{
	return (unsigned)(next() % n);
}

static const char *const any_values[] = {
	"0", "1", "5", "-1", "-5", "4294967295", "4294967296", "9223372036854775807",
	"-9223372036854775808", "0x10", "0xFFFFFFFF", "\"a\"", "'b'", "Qpc", "Relative", "Rdtsc",
	"qpc", "Blue", "blue", "Bleu", "\"0xFF00FF00\"", "\"0xFF00FF0\"", "\"0xFF00FF0G\"", "\"5\"",
	"5 # x", "abc", "", "$X", "$T", "$Nope", "$ProcessId", "$Time", "Transparent", "\"\"",
	"$Blue", "$Red", "$Qpc", "$Relative",
};

/* A value for argument `arg`: usually a good one, sometimes anything. */
static void good_value(struct buf *b, enum nvtxt_arg arg, unsigned *clock)
{
	if (pick(10) == 0) {
		buf_adds(b, any_values[pick(sizeof(any_values) / sizeof(any_values[0]))]);
		return;
	}
	switch (arg) {
	case NVTXT_ARG_TIME:
	case NVTXT_ARG_START:
	case NVTXT_ARG_END:
		*clock += pick(5);
		buf_printf(b, "%s%u", pick(20) ? "" : "-", *clock);
		break;
	case NVTXT_ARG_TIMEBASE:
		buf_adds(b, pick(4) ? "Qpc" : pick(2) ? "Relative" : "Rdtsc");
		break;
	case NVTXT_ARG_PROCESS_ID:
	case NVTXT_ARG_THREAD_ID:
		buf_printf(b, "%u", 1 + pick(3));
		break;
	case NVTXT_ARG_CATEGORY_ID:
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		if (pick(4))
			buf_printf(b, "%u", 1 + pick(4));
		break;
	case NVTXT_ARG_COLOR: {
		static const char *const colors[] = { "Blue", "0xFF00FF00", "\"0xff00ff00\"", "4278190335", "", "red" };
		buf_adds(b, colors[pick(6)]);
		break;
	}
	case NVTXT_ARG_MESSAGE:
		if (pick(4))
			buf_printf(b, "\"m%u\"", pick(5));
		break;
	case NVTXT_ARG_PAYLOAD:
		if (pick(2))
			buf_printf(b, "%d", (int)pick(100) - 50);
		break;
	case NVTXT_ARG_NAME:
		buf_printf(b, "\"n%u\"", pick(3));
		break;
	default:
		break;
	}
}

static void random_file(struct buf *b, unsigned lines)
{
	static const char *const extra_commands[] = { "Markr", "Foo", "rangepush" };
	enum nvtxt_arg listed[NVTXT_CMD_COUNT][NVTXT_ARG_COUNT];
	size_t nlisted[NVTXT_CMD_COUNT];
	unsigned clock = 100;

	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		nlisted[c] = nvtxt_command_default_args((enum nvtxt_command)c, listed[c]);
	buf_reset(b);
	for (unsigned i = 0; i < lines; i++) {
		unsigned what = pick(100);
		enum nvtxt_command cmd = (enum nvtxt_command)pick(NVTXT_CMD_COUNT);

		if (what < 12) {
			/* an assignment, mostly to a variable named like an argument */
			unsigned arg = pick(NVTXT_ARG_COUNT + 2);
			const char *name = arg < NVTXT_ARG_COUNT ? nvtxt_arg_name((enum nvtxt_arg)arg) : arg == NVTXT_ARG_COUNT ? "X" : "T";
			buf_printf(b, "%s = ", name);
			if (arg < NVTXT_ARG_COUNT)
				good_value(b, (enum nvtxt_arg)arg, &clock);
			else
				buf_adds(b, any_values[pick(sizeof(any_values) / sizeof(any_values[0]))]);
			if (b->ptr[b->len - 1] == ' ')
				buf_adds(b, "1");
			buf_addc(b, '\n');
		} else if (what < 18) {
			/* a definition: a random subset of the command's arguments, rarely a bad one */
			enum nvtxt_arg dflt[NVTXT_ARG_COUNT];
			size_t n = nvtxt_command_default_args(cmd, dflt), k = 0;
			buf_printf(b, "@%s", nvtxt_command_name(cmd));
			for (size_t j = 0; j < n; j++) {
				if (pick(3) == 0)
					continue;
				buf_printf(b, ", %s", nvtxt_arg_name(dflt[j]));
				listed[cmd][k++] = dflt[j];
			}
			if (pick(15) == 0)
				buf_adds(b, pick(2) ? ", Bogus" : k ? ", Time, Time" : ", Color");
			else if (pick(15) == 0)
				buf_adds(b, pick(2) ? ", 5" : ",");
			nlisted[cmd] = k;
			buf_addc(b, '\n');
		} else if (what < 20) {
			buf_adds(b, pick(2) ? "# comment\n" : "\n");
		} else {
			/* a call, by the generator's idea of the current definition */
			size_t n = nlisted[cmd];
			if (pick(40) == 0)
				buf_adds(b, extra_commands[pick(3)]);
			else
				buf_adds(b, nvtxt_command_name(cmd));
			if (pick(30) == 0)
				n = n ? n - 1 : 1;
			for (size_t j = 0; j < n; j++) {
				buf_adds(b, ", ");
				good_value(b, j < nlisted[cmd] ? listed[cmd][j] : NVTXT_ARG_TIME, &clock);
			}
			buf_addc(b, '\n');
		}
	}
}

static void test_random_files(void)
{
	struct buf text = { 0 };
	unsigned long bad = 0, events = 0, diags = 0;
	const unsigned files = 300;

	for (unsigned seed = 1; seed <= files; seed++) {
		struct feed f;
		int fd;
		char what[64];

		rng = seed;
		random_file(&text, 150);
		fd = text_fd(text.ptr, text.len);
		feed_fd(&f, fd, seed % 7 == 0 ? 3 : 0);
		close(fd);
		snprintf(what, sizeof(what), "random file %u", seed);
		if (!same_logs(&f, what, true)) {
			bad++;
			if (bad == 1)
				printf("# the input:\n%s", text.ptr);
		}
		events += count_lines(&f, "event ");
		diags += count_lines(&f, "diag ");
		feed_free(&f);
	}
	tap_ok(bad == 0, "%u pseudo-random files: fast path on, off and toggled agree (%lu differ)", files, bad);
	/* the files are worth it: they have both accepted calls and errors */
	if (!tap_ok(events > 10000 && diags > 5000, "the random files give many events and many diagnostics"))
		printf("#   %lu events, %lu diagnostics\n", events, diags);
	buf_free(&text);
}

int main(void)
{
	test_scenarios();
	test_repository_inputs();
	test_random_files();
	return tap_done();
}
