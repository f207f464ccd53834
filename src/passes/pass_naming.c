/*
 * pass_naming.c - names of OS threads, processes and the file
 * (NameOsThread, NameProcess, SetFileDisplayName).
 *
 * Rule (nvtxt(5), SEMANTIC RULES): giving the same thread, process or file
 * a second, different name is a warning [-Wrename]; the later name is the
 * one a back end sees last.
 */
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "sema_snap.h"

struct naming {
	struct name_table threads;   /* (pid, tid) */
	struct name_table processes; /* (pid, 0) */
	struct name_table file;      /* (0, 0) */
};

struct naming *naming_new(void)
{
	return try_calloc(1, sizeof(struct naming));
}

void naming_event(struct naming *n, struct nvtxt_diags *d, const struct nvtxt_event *ev)
{
	const struct name_entry *old;
	struct buf what = { 0 }, a = { 0 }, b = { 0 };
	struct nvtxt_diag *dg;

	switch (ev->command) {
	case NVTXT_CMD_NAME_OS_THREAD:
		old = name_table_set(&n->threads, (uint64_t)ev->process_id, (uint64_t)ev->thread_id, ev->name, &ev->loc);
		buf_printf(&what, "thread %lld of process %lld", (long long)ev->thread_id, (long long)ev->process_id);
		break;
	case NVTXT_CMD_NAME_PROCESS:
		old = name_table_set(&n->processes, (uint64_t)ev->process_id, 0, ev->name, &ev->loc);
		buf_printf(&what, "process %lld", (long long)ev->process_id);
		break;
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		old = name_table_set(&n->file, 0, 0, ev->name, &ev->loc);
		buf_printf(&what, "the file's display name");
		break;
	default:
		return;
	}
	if (old && (old->len != ev->name.len || memcmp(old->name, ev->name.ptr, old->len) != 0)) {
		describe_string(&a, ev->name.ptr, ev->name.len);
		describe_string(&b, old->name, old->len);
		dg = diag_begin(d, NVTXT_CHECK_RENAME, &ev->loc, "%s is set to %s here but was %s before",
				what.ptr, a.ptr, b.ptr);
		diag_note(dg, &old->loc, "first set here");
		diag_end(d, dg);
	}
	buf_free(&what);
	buf_free(&a);
	buf_free(&b);
}

void naming_free(struct naming *n)
{
	if (!n)
		return;
	name_table_free(&n->threads);
	name_table_free(&n->processes);
	name_table_free(&n->file);
	free(n);
}

/* Snapshots (sema_snap.h): the three name tables. */
void naming_save(const struct naming *n, struct sema_snap *sn)
{
	snap_put_names(sn, &n->threads);
	snap_put_names(sn, &n->processes);
	snap_put_names(sn, &n->file);
}

void naming_restore(struct naming *n, struct sema_snap *sn)
{
	snap_get_names(sn, &n->threads);
	snap_get_names(sn, &n->processes);
	snap_get_names(sn, &n->file);
}
