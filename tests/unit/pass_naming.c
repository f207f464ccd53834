/*
 * pass_naming.c - unit test of the naming pass (src/passes/pass_naming.c) fed
 * with hand-built NameOsThread, NameProcess and SetFileDisplayName events:
 * a second, different name warns [-Wrename] with a note at the first; the
 * same name again is silent; threads are keyed by (ProcessId, ThreadId).
 */
#include "sema.h"
#include "capture.h"
#include "tap.h"

struct fixture {
	struct nvtxt_diag_config cfg;
	struct capture cap;
	struct nvtxt_diags d;
	struct naming *n;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	cap_engine(&f->d, &f->cfg, &f->cap, "n.nvtxt");
	f->n = naming_new();
}

static void teardown(struct fixture *f)
{
	naming_free(f->n);
	cap_free(&f->cap);
}

static void send(struct fixture *f, enum nvtxt_command cmd, int64_t pid, int64_t tid,
		 const char *nm, size_t len, uint32_t line, uint32_t col)
{
	struct nvtxt_event ev;
	char copy[128];

	/* the pass must copy the name: the caller's bytes change right after */
	memcpy(copy, nm, len);
	memset(&ev, 0, sizeof(ev));
	ev.command = cmd;
	switch (cmd) {
	case NVTXT_CMD_NAME_OS_THREAD:
		ev.present = NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID);
		break;
	case NVTXT_CMD_NAME_PROCESS:
		ev.present = NVTXT_BIT(NVTXT_ARG_PROCESS_ID);
		break;
	default:
		break;
	}
	ev.present |= NVTXT_BIT(NVTXT_ARG_NAME);
	ev.process_id = pid;
	ev.thread_id = tid;
	ev.name.ptr = copy;
	ev.name.len = len;
	ev.loc.line = line;
	ev.loc.col = col;
	ev.loc.len = 5;
	naming_event(f->n, &f->d, &ev);
	memset(copy, '?', sizeof copy);
}

static void thread(struct fixture *f, int64_t pid, int64_t tid, const char *nm, uint32_t line)
{
	send(f, NVTXT_CMD_NAME_OS_THREAD, pid, tid, nm, strlen(nm), line, 1);
}

static void process(struct fixture *f, int64_t pid, const char *nm, uint32_t line)
{
	send(f, NVTXT_CMD_NAME_PROCESS, pid, 0, nm, strlen(nm), line, 1);
}

static void file(struct fixture *f, const char *nm, uint32_t line)
{
	send(f, NVTXT_CMD_SET_FILE_DISPLAY_NAME, 0, 0, nm, strlen(nm), line, 1);
}

static void test_threads(void)
{
	struct fixture f;

	setup(&f);
	thread(&f, 1, 2, "main", 1);
	thread(&f, 1, 2, "main", 2);
	tap_is_int(f.cap.n, 0, "thread: same name twice is silent");
	thread(&f, 1, 3, "worker", 3);
	thread(&f, 2, 2, "other", 4);
	tap_is_int(f.cap.n, 0, "thread: other threads and processes are other keys");
	thread(&f, 1, 2, "render", 5);
	tap_is_int(f.d.warnings, 1, "thread rename: one warning");
	tap_is_int(f.d.errors, 0, "thread rename: no error");
	tap_is_int(cap_sev(&f.cap, 0), NVTXT_SEV_WARNING, "thread rename: a warning");
	tap_is_int(cap_check(&f.cap, 0), NVTXT_CHECK_RENAME, "thread rename: -Wrename");
	tap_is_str(cap_msg(&f.cap, 0),
		   "thread 2 of process 1 is set to \"render\" here but was \"main\" before",
		   "thread rename: message");
	tap_is_int(cap_line(&f.cap, 0), 5, "thread rename: at the rename");
	tap_is_int(f.cap.n ? f.cap.d[0].nnotes : 0, 1, "thread rename: one note");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "first set here", "thread rename: note text");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "thread rename: note at the first name");
	/* (pid, tid) = (2, 1) differs from (1, 2) */
	thread(&f, 2, 1, "x", 6);
	thread(&f, 1, 2, "render", 7);
	tap_is_int(f.d.warnings, 2, "thread: the later same name as the rename still differs from the first");
	tap_is_str(cap_msg(&f.cap, 1),
		   "thread 2 of process 1 is set to \"render\" here but was \"main\" before",
		   "thread: compared with the first name");
	thread(&f, 1, 2, "main", 8);
	tap_is_int(f.d.warnings, 2, "thread: the first name again is silent");
	thread(&f, INT64_MAX, INT64_MAX, "a", 9);
	thread(&f, INT64_MAX, INT64_MAX, "b", 10);
	tap_is_str(cap_msg(&f.cap, 2),
		   "thread 9223372036854775807 of process 9223372036854775807 is set to \"b\" here but was \"a\" before",
		   "thread: the largest IDs");
	teardown(&f);
}

static void test_process_and_file(void)
{
	struct fixture f;

	setup(&f);
	process(&f, 7, "server", 1);
	process(&f, 7, "server", 2);
	process(&f, 8, "client", 3);
	tap_is_int(f.cap.n, 0, "process: same name twice and another process are silent");
	process(&f, 7, "Server", 4);
	tap_is_int(f.d.warnings, 1, "process rename: one warning (names are case-sensitive)");
	tap_is_str(cap_msg(&f.cap, 0), "process 7 is set to \"Server\" here but was \"server\" before",
		   "process rename: message");
	tap_is_int(cap_check(&f.cap, 0), NVTXT_CHECK_RENAME, "process rename: -Wrename");
	tap_is_int(cap_line(&f.cap, 0), 4, "process rename: line");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "process rename: note at the first");
	/* a process name and a thread name of the same IDs are separate */
	thread(&f, 7, 0, "t", 5);
	tap_is_int(f.d.warnings, 1, "process: a thread of it named differently is no rename");
	teardown(&f);

	setup(&f);
	file(&f, "KernelAbstractions", 1);
	file(&f, "KernelAbstractions", 2);
	tap_is_int(f.cap.n, 0, "file: same display name twice is silent");
	file(&f, "Kernel", 3);
	tap_is_int(f.d.warnings, 1, "file rename: one warning");
	tap_is_str(cap_msg(&f.cap, 0),
		   "the file's display name is set to \"Kernel\" here but was \"KernelAbstractions\" before",
		   "file rename: message");
	tap_is_int(cap_line(&f.cap, 0), 3, "file rename: line");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "first set here", "file rename: note");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "file rename: note line");
	/* the file is not a process or a thread */
	process(&f, 0, "p", 4);
	thread(&f, 0, 0, "t", 5);
	tap_is_int(f.d.warnings, 1, "file: process 0 and thread 0 are other keys");
	teardown(&f);
}

static void test_strings(void)
{
	struct fixture f;
	char longname[100];

	setup(&f);
	/* a NUL byte inside a name makes it different */
	send(&f, NVTXT_CMD_NAME_PROCESS, 1, 0, "ab", 2, 1, 1);
	send(&f, NVTXT_CMD_NAME_PROCESS, 1, 0, "ab\0", 3, 2, 1);
	tap_is_int(f.d.warnings, 1, "strings: a longer name with a NUL is a rename");
	tap_is_str(cap_msg(&f.cap, 0), "process 1 is set to \"ab\\x00\" here but was \"ab\" before",
		   "strings: control bytes are shown escaped");
	/* a name with a double quote is single-quoted */
	process(&f, 2, "say \"x\"", 3);
	process(&f, 2, "", 4);
	tap_is_str(cap_msg(&f.cap, 1), "process 2 is set to \"\" here but was 'say \"x\"' before",
		   "strings: quoting of \" and the empty name");
	/* long names are cut after 57 bytes */
	memset(longname, 'n', 80);
	longname[80] = '\0';
	process(&f, 3, longname, 5);
	process(&f, 3, "short", 6);
	tap_is_str(cap_msg(&f.cap, 2),
		   "process 3 is set to \"short\" here but was "
		   "\"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...\" before",
		   "strings: a long name is cut");
	/* the column of the diagnostic is the event's */
	send(&f, NVTXT_CMD_SET_FILE_DISPLAY_NAME, 0, 0, "a", 1, 7, 3);
	send(&f, NVTXT_CMD_SET_FILE_DISPLAY_NAME, 0, 0, "b", 1, 8, 4);
	tap_is_int(cap_col(&f.cap, 3), 4, "strings: column of the event");
	teardown(&f);

	/* -Wno-rename, -Werror=rename */
	setup(&f);
	f.cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_OFF;
	thread(&f, 1, 1, "a", 1);
	thread(&f, 1, 1, "b", 2);
	tap_is_int(f.cap.n + f.d.warnings + f.d.errors, 0, "rename off: nothing reported");
	teardown(&f);
	setup(&f);
	f.cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_ERROR;
	file(&f, "a", 1);
	file(&f, "b", 2);
	tap_is_int(f.d.errors, 1, "rename -Werror: one error");
	tap_is_int(f.d.warnings, 0, "rename -Werror: no warning");
	tap_ok(f.cap.n == 1 && f.cap.d[0].promoted && f.cap.d[0].severity == NVTXT_SEV_ERROR,
	       "rename -Werror: promoted");
	teardown(&f);

	/* other commands are ignored */
	setup(&f);
	send(&f, NVTXT_CMD_MARKER, 1, 1, "a", 1, 1, 1);
	send(&f, NVTXT_CMD_MARKER, 1, 1, "b", 1, 2, 1);
	tap_is_int(f.cap.n, 0, "other commands: ignored");
	teardown(&f);
}

static void test_many(void)
{
	struct fixture f;
	char nm[32];

	setup(&f);
	for (int i = 0; i < 20000; i++) {
		snprintf(nm, sizeof nm, "t%d", i);
		thread(&f, i % 7, i, nm, (uint32_t)(i + 1));
	}
	for (int i = 0; i < 20000; i++) {
		snprintf(nm, sizeof nm, "t%d", i);
		thread(&f, i % 7, i, nm, (uint32_t)(20001 + i));
	}
	tap_is_int(f.cap.n, 0, "many: 20000 threads named twice the same, silent");
	for (int i = 0; i < 20000; i += 1000) {
		snprintf(nm, sizeof nm, "u%d", i);
		thread(&f, i % 7, i, nm, (uint32_t)(40001 + i));
	}
	tap_is_int(f.d.warnings, 20, "many: 20 renames among them");
	tap_is_int(cap_note_line(&f.cap, 19, 0), 19001, "many: the last rename's note at its first name");
	teardown(&f);
}

int main(void)
{
	test_threads();
	test_process_and_file();
	test_strings();
	test_many();
	return tap_done();
}
