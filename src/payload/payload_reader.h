/*
 * payload_reader.h - the payload reader's state, shared by payload_read.c
 * (reading, the header, the order of sections, decompiling, the public
 * interface) and payload_sections.c (the bodies of time domains, schemas
 * and batches).  Private to src/payload.
 */
#ifndef NVTXT_PAYLOAD_READER_H
#define NVTXT_PAYLOAD_READER_H

#include <stdbool.h>
#include <stdint.h>

#include "nvtxt/language.h"
#include "nvtxt/payload.h"
#include "payload_layout.h"

#define PR_WINDOW PL_GROUP_EVENTS /* ordinals a batch may hold above `low` */
/*
 * Schemas: one per kind, TimeBase and widths of ProcessId and ThreadId at
 * most.  Allocated once, never moved: batches in use point at them.
 */
#define PR_MAX_SCHEMAS (PL_K_COUNT * (PL_NO_TB + 1) * 4)
#define PR_POOL_COUNT 16 /* used batches kept for their buffers (payload_ahead.c) */
#define PR_CHUNK_EVENTS 1024

/* Calls decoded in ordinal order, handed from pr_fill to the back end. */
struct pr_chunk {
	struct nvtxt_event ev[PR_CHUNK_EVENTS];
	size_t n;
	enum pr_item end;          /* PR_BATCH: more chunks follow; else PR_END or PR_ERROR after these */
	struct pr_batch *retired;  /* batches used up by these calls (their strings): freed with the chunk */
};

/*
 * PR_APART bytes before and after the reader's fields keep them off the
 * cache lines (and the 128-byte pairs that x86 fetches together) of the
 * allocations next to it: the read-ahead thread writes them for every
 * call (r->next, the window, the flush group), and a neighbour that the
 * other thread writes as often (the passes' struct sema was the next
 * allocation: its status and ordinal) sent the line to and fro on every
 * call (false sharing: a third of the wall time of lint and --emit=nvtxt
 * of a payload at 100 MB).
 */
#define PR_APART 128

struct nvtxt_payload_reader {
	unsigned char apart_head[PR_APART];
	nvtxt_payload_read_fn read;
	void *user;
	const unsigned char *mem;  /* nvtxt_payload_open: the image */
	size_t mem_size, mem_off;

	unsigned char h[PL_HEADER_SIZE];
	uint64_t file_size, nevents, nsections;
	uint64_t off;              /* bytes read */
	uint64_t nsec;             /* sections read */

	struct pr_time_domain td[NVTXT_TB_COUNT];
	size_t ntd;
	bool td_used[NVTXT_TB_COUNT]; /* a schema of the TimeBase was read */
	struct pr_schema *schemas;
	size_t nschemas;           /* at most PR_MAX_SCHEMAS: every layout once */
	int expect_tb;             /* after a time domain: its TimeBase, else -1 */
	const struct pr_schema *expect_batch; /* after a schema: it */

	/* ordinals: all below `low` are in batches read; bits[] marks those above */
	uint64_t low;
	uint64_t bits[PR_WINDOW / 64];

	/* the flush group being read */
	bool in_group;
	uint64_t group;            /* groups begun */
	uint64_t gn, gbytes;       /* records, and bytes as the writer counts them */
	uint64_t gmax, gmax_bytes; /* its highest ordinal, and that record's bytes */
	bool prev_full;            /* the group before reached a limit */
	uint64_t prev_end;         /* file offset of the end of the group before */

	uint64_t *dedup;           /* the batch's strings (generation, flexData offset), open addressing */
	size_t dedup_cap;
	uint32_t dedup_gen;        /* the generation of the batch being checked (payload_sections.c) */
	struct pr_batch *pool[PR_POOL_COUNT]; /* used batches whose buffers are kept */
	size_t npool;
	uint64_t pool_bytes;       /* their buffers' bytes */
	bool read_ahead;           /* decompile: read and check in a second thread */
	bool lines;                /* decompile: each call's loc at its line of the normal form (pr_calls) */
	struct pr_ahead *ahead;    /* that thread, while it runs */

	char *display_name;        /* the last SetFileDisplayName so far */

	bool ended, failed;
	int io_errno;
	char err[512];

	struct pr_batch *active;   /* decompile: batches not used up, in file order */
	struct pr_batch **holder;  /* decompile: the active batch of each ordinal, at ordinal % PR_WINDOW */
	struct pr_chunk *solo;     /* decompile without read-ahead: the one chunk */
	struct pr_chunk *in_use;   /* decompile: the chunk whose calls are being handed on */
	uint64_t next;             /* decompile: the next ordinal to hand on */
	unsigned char apart_tail[PR_APART];
};

/* Fails the file with "offset OFF: " and the message; returns -1.  Only the first failure is kept. */
int pr_fail(struct nvtxt_payload_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A failure that is not the file's: a read error or no memory (errno e); returns -1. */
int pr_fail_io(struct nvtxt_payload_reader *r, int e);

/* payload_sections.c: each checks a section's body of len bytes at file offset o; 0 or -1 (pr_fail). */
int pr_time_domains(struct nvtxt_payload_reader *r, const unsigned char *p, uint64_t o);
int pr_schema(struct nvtxt_payload_reader *r, struct pr_schema *s, uint64_t len, uint64_t o);
int pr_batch(struct nvtxt_payload_reader *r, struct pr_batch *b, uint64_t len, uint64_t o,
	     uint32_t secflags);

/*
 * payload_ahead.c.  A batch for a body of len bytes (at most
 * PL_BATCH_BODY_MAX and its padding), its buffer from the pool when one is
 * there; NULL with errno ENOMEM.  pr_batch_free (payload_layout.h) gives
 * it back to the pool; pr_pool_free frees the pool.
 */
struct pr_batch *pr_batch_alloc(struct nvtxt_payload_reader *r, uint64_t len);
void pr_pool_free(struct nvtxt_payload_reader *r);
/*
 * The read-ahead of nvtxt_payload_decompile: pr_ahead_start starts a
 * thread that reads, checks, orders and decodes the calls into chunks
 * ahead of the caller (0; -1: no thread, and pr_chunk_get fills each chunk
 * itself); pr_ahead_stop ends and joins the thread and frees what it read
 * ahead (no-op without one).
 */
int pr_ahead_start(struct nvtxt_payload_reader *r);
void pr_ahead_stop(struct nvtxt_payload_reader *r);
/*
 * The next chunk of calls (decoded by the thread, or now by pr_fill
 * without one); NULL only on ENOMEM without a thread.  pr_chunk_put gives
 * it back, with its retired batches, once its calls are handed on.
 */
struct pr_chunk *pr_chunk_get(struct nvtxt_payload_reader *r);
void pr_chunk_put(struct nvtxt_payload_reader *r, struct pr_chunk *c);
/* Stops the thread and frees the chunks and the batches they still hold. */
void pr_chunks_free(struct nvtxt_payload_reader *r);
/*
 * nvtxt_payload_decompile for a caller that takes each call as its own to
 * change (the chunk's: valid during the callback only).
 */
struct pr_calls {
	void *user;
	/* the next n calls (ours to change); 0, or -1 with errno set: no more calls after the one that failed */
	int (*events)(void *user, struct nvtxt_event *ev, size_t n);
	int (*finish)(void *user);
	bool lines;        /* each call's loc is line ordinal + 1, column 1 (else all 0) */
};
int pr_decompile(struct nvtxt_payload_reader *r, const struct pr_calls *c, char *err, size_t errlen);
/* payload_read.c: fills c with the next calls in ordinal order, up to the end or an error. */
void pr_fill(struct nvtxt_payload_reader *r, struct pr_chunk *c);

#endif
