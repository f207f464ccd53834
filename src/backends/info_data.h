/*
 * info_data.h - the facts nvtxtc info collects (info.c) and reports
 * (info_report.c): private to those two files.
 */
#ifndef NVTXT_INFO_DATA_H
#define NVTXT_INFO_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "info.h"
#include "util.h"

typedef __int128 i128;

/* The commands with times (Marker, RangePush, RangePop, RangeStartEnd): the first ones of enum nvtxt_command. */
#define INFO_TIMED (NVTXT_CMD_RANGE_START_END + 1)

struct thread {
	int64_t pid, tid;
	int64_t min[NVTXT_TB_COUNT], max[NVTXT_TB_COUNT];
	uint32_t depth, max_depth;
	/*
	 * Its events by command and time base: one count on each event's
	 * path, which the report adds up (thread_events, info_by_command,
	 * info_tb_times).
	 */
	uint64_t counts[INFO_TIMED][NVTXT_TB_COUNT];
};

static inline uint64_t thread_events(const struct thread *t)
{
	uint64_t n = 0;

	for (int c = 0; c < INFO_TIMED; c++)
		for (int tb = 0; tb < NVTXT_TB_COUNT; tb++)
			n += t->counts[c][tb];
	return n;
}

/*
 * Whether t has a time of time base tb: then its min or its max moved
 * (a time below INT64_MAX lowers the min, INT64_MAX raises the max).
 */
static inline bool thread_saw(const struct thread *t, int tb)
{
	return t->min[tb] != INT64_MAX || t->max[tb] != INT64_MIN;
}

/*
 * A message's first 16 bytes and last 16 bytes as four numbers (below 16
 * bytes: its first and last 8, the last standing for the middle two too;
 * below 8, w0 holds the bytes, packed as hash_bytes packs them).  With
 * the length they tell apart any two messages of up to 32 bytes, most of
 * them; of a longer one, they leave out bytes 16 to n - 16.
 */
struct msg_key {
	uint64_t w0, w1, w2, w3;
};

static inline struct msg_key msg_words(const char *p, size_t n)
{
	struct msg_key k = { 0, 0, 0, 0 };
	uint32_t a, b;

	if (n >= 16) {
		memcpy(&k.w0, p, 8);
		memcpy(&k.w1, p + 8, 8);
		memcpy(&k.w2, p + n - 16, 8);
		memcpy(&k.w3, p + n - 8, 8);
	} else if (n >= 8) {
		memcpy(&k.w0, p, 8);
		memcpy(&k.w3, p + n - 8, 8);
		k.w1 = k.w2 = k.w3;
	} else if (n >= 4) {
		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		k.w0 = (uint64_t)a << 32 | b;
	} else if (n) {
		k.w0 = (uint64_t)(unsigned char)p[0] << 16 | (uint64_t)(unsigned char)p[n / 2] << 8 |
		       (unsigned char)p[n - 1];
	}
	return k;
}

static inline uint64_t msg_rotl(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

/*
 * The hash of the message p[0..n) whose words are k: every byte counts.
 * The words are added up, each times its own odd number (three lea
 * instructions: a change in one word changes the sum, and a word that
 * stands for three is not lost), with the bytes a message over 32 bytes
 * has between them multiplied in word by word; one multiplication then
 * spreads every bit of the sum into the top bits, which are the slot.
 */
static inline uint64_t msg_hash(struct msg_key k, const char *p, size_t n)
{
	uint64_t h = k.w0 + 3 * k.w1 + 5 * k.w2 + 9 * k.w3 + n, x;

	for (size_t i = 16; i + 16 < n; i += 8) {
		memcpy(&x, p + i, 8);
		h = (msg_rotl(h, 31) ^ x) * 0xFF51AFD7ED558CCDu;
	}
	return h * 0x9E3779B97F4A7C15u;
}

/*
 * A slot's tag: 0 when it is empty, else its message's length n, as ~n
 * when the words tell the message whole (n <= 32), so that comparing the
 * tag with ~n also says that nothing is left to compare.
 */
static inline uint64_t msg_tag(size_t n)
{
	return n <= 32 ? ~(uint64_t)n : (uint64_t)n;
}

static inline size_t msg_len(uint64_t tag)
{
	return (size_t)(tag >> 63 ? ~tag : tag);
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
	/* the naming calls, and events of no time base; the threads count the others (info_by_command) */
	uint64_t by_command[NVTXT_CMD_COUNT];

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

	/*
	 * Distinct messages: open addressing on msg_hash, linear probing, at
	 * most half full.  A slot keeps its message's msg_words and tag, so
	 * that a message of up to 32 bytes met again (most are) is found in
	 * its first slot by five comparisons; only one longer is compared
	 * beyond them, in the bytes those words leave out (find_message).
	 */
	struct msg {
		uint64_t w0, w1, w2, w3; /* msg_words */
		uint64_t tag;           /* msg_tag of the length; 0: an empty slot */
	} *msgs;
	char **msg_text;            /* each slot's copy of its message, NUL-terminated */
	size_t msgs_cap, nmsgs;
	unsigned msgs_shift;        /* 64 - log2(msgs_cap): a hash's top bits are its slot */
	uint64_t no_message;        /* events without a Message */

	/*
	 * Shortcuts of the per-event path (the bench's 2 million events per
	 * 100 MB): recently seen threads by (pid, tid), direct-mapped, so that
	 * most events skip the index (a thread's address, reset when threads[]
	 * moves); the last category ID registered; which time bases are
	 * nanoseconds already, and the shortest of the longest ranges once it
	 * is in nanoseconds and not negative (may_rank: most ranges are no
	 * longer than it).
	 */
	struct thread_hint {
		int64_t pid, tid;
		struct thread *t;       /* NULL: empty */
		size_t index;
	} hint[64];
	int64_t last_cat;           /* -1: none yet */
	bool ns_identity[NVTXT_TB_COUNT];
	bool rank_fast[NVTXT_TB_COUNT]; /* ns_identity, once the ten are in nanoseconds and >= 0 */
	uint64_t top_floor;         /* then top[NVTXT_INFO_TOP - 1]'s duration */
};

/* The events of command c. */
static inline uint64_t info_by_command(const struct nvtxt_info *info, int c)
{
	uint64_t n = info->by_command[c];

	for (size_t i = 0; c < INFO_TIMED && i < info->nthreads; i++)
		for (int tb = 0; tb < NVTXT_TB_COUNT; tb++)
			n += info->threads[i].counts[c][tb];
	return n;
}

/* The events counted, of every command. */
static inline uint64_t info_total(const struct nvtxt_info *info)
{
	uint64_t n = 0;

	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		n += info_by_command(info, c);
	return n;
}

/* The times of time base tb seen: one an event, two a RangeStartEnd (its first and last are the threads'). */
static inline uint64_t info_tb_times(const struct nvtxt_info *info, int tb)
{
	uint64_t n = 0;

	for (size_t i = 0; i < info->nthreads; i++)
		for (int c = 0; c < INFO_TIMED; c++)
			n += info->threads[i].counts[c][tb] * (c == NVTXT_CMD_RANGE_START_END ? 2 : 1);
	return n;
}

#endif
