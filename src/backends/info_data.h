/*
 * info_data.h - the facts nvtxtc info collects (info.c) and reports
 * (info_report.c): private to those two files.
 */
#ifndef NVTXT_INFO_DATA_H
#define NVTXT_INFO_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "info.h"
#include "util.h"

typedef __int128 i128;

struct thread {
	int64_t pid, tid;
	uint64_t events;
	int64_t min[NVTXT_TB_COUNT], max[NVTXT_TB_COUNT];
	uint32_t depth, max_depth;
};

/*
 * Whether t has a time of time base tb: then its min or its max moved
 * (a time below INT64_MAX lowers the min, INT64_MAX raises the max).
 */
static inline bool thread_saw(const struct thread *t, int tb)
{
	return t->min[tb] != INT64_MAX || t->max[tb] != INT64_MIN;
}

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
	/*
	 * Messages seen lately, direct-mapped by their length and last 8
	 * bytes: a message met again is found with one comparison, without
	 * hashing it or probing the table.
	 */
	struct msg_hint {
		const char *text;       /* the table's copy; NULL: empty */
		size_t len;
		uint64_t tail;
	} msg_hint[1024];
};

#endif
