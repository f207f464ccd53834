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

/* top_floor while the longest ranges have room or end in ticks: below any duration (two int64 apart) */
#define INFO_NO_FLOOR (-((i128)1 << 100))

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

/*
 * A message's bytes 0-8, 8-16, 16-24 and last 8 as numbers (a word that
 * would run past the end is the last 8 bytes instead; below 8 bytes, w0
 * holds the bytes, packed as hash_bytes packs them): with the length,
 * they tell apart any two messages of up to 32 bytes, most of them.
 */
struct msg_key {
	uint64_t w0, w1, w2, w3;
};

static inline struct msg_key msg_words(const char *p, size_t n)
{
	struct msg_key k = { 0, 0, 0, 0 };
	uint32_t a, b;

	if (n >= 8) {
		memcpy(&k.w0, p, 8);
		memcpy(&k.w1, p + (n >= 16 ? 8 : n - 8), 8);
		memcpy(&k.w2, p + (n >= 24 ? 16 : n - 8), 8);
		memcpy(&k.w3, p + n - 8, 8);
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
 * Three words are folded by rotations (x ^ rotl(x, 21) ^ rotl(x, 42) is
 * one to one, so a message of 8 bytes, whose words are one, keeps all its
 * bits), the last word and, over 32 bytes, the bytes between the third
 * and the last word multiplied in word by word; the last multiplication
 * spreads every bit into the top bits, which are the slot.
 */
static inline uint64_t msg_hash(struct msg_key k, const char *p, size_t n)
{
	uint64_t h = (k.w0 ^ msg_rotl(k.w1, 21) ^ msg_rotl(k.w2, 42) ^ n) * 0xFF51AFD7ED558CCDu, x;

	for (size_t i = 24; i + 8 < n; i += 8) {
		memcpy(&x, p + i, 8);
		h = (msg_rotl(h, 31) ^ x) * 0xFF51AFD7ED558CCDu;
	}
	return (msg_rotl(h, 31) ^ k.w3) * 0x9E3779B97F4A7C15u;
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

	/*
	 * Distinct messages: open addressing on msg_hash, linear probing, at
	 * most half full.  A slot keeps its message's length and msg_words, so
	 * that a message met again (most are) is found in its first slot by
	 * five comparisons, and only one longer than 32 bytes is compared
	 * beyond them, in the bytes those words leave out.
	 */
	struct msg {
		uint64_t w0, w1, w2, w3; /* msg_words */
		uint64_t len1;          /* length + 1; 0: an empty slot */
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
	 * nanoseconds already, and the shortest of the longest ranges when it
	 * is in nanoseconds (see_range: most ranges are no longer than it).
	 */
	struct thread_hint {
		int64_t pid, tid;
		struct thread *t;       /* NULL: empty */
		size_t index;
	} hint[64];
	int64_t last_cat;           /* -1: none yet */
	bool ns_identity[NVTXT_TB_COUNT];
	i128 top_floor;            /* top[NVTXT_INFO_TOP - 1]'s duration, or INFO_NO_FLOOR */
};

#endif
