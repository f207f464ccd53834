/*
 * payload_write.c - the payload back end: lowers the checked event stream
 * to NVTX extended-payload schemas and event batches (nvtxt-payload(5)).
 *
 * One STATIC schema per (kind, TimeBase, PID width, TID width) actually
 * used, created on first use.  Every call is one record, a RangePush and
 * a RangePop too.  Each schema has one pending batch; all of them are
 * flushed, as one flush group, as soon as PL_GROUP_EVENTS records or
 * PL_GROUP_BYTES of records and strings are pending, and at the end, so
 * memory is bounded whatever the input size.  A group's batches go out in
 * the order of their first ordinal, each schema's section (after its time
 * domain's, for the first schema of a TimeBase) right before its first
 * batch, so a reader can stream the file and hand the calls on in ordinal
 * order (nvtxt-payload(5)).  The header is patched at the end.
 *
 * This runs once per event, so it is written for speed (bench/README.md
 * has the instruction counts).  A batch's records and strings are kept in
 * chains of blocks from a pool (payload_pool.h), so after the first
 * batches no memory is allocated.  An event record is filled in place by
 * a store of every entry, without zeroing it first (pw_fill), at offsets
 * that are constants for the common layouts (32-bit ProcessId and
 * ThreadId) and looked up once per schema for the others.  Most messages
 * are found in the strings' cache (payload_strings.h).  The common path
 * of an event (pw_timed) makes no call that returns to it; everything
 * else is out of line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/payload.h"
#include "payload_layout.h"
#include "payload_pool.h"
#include "payload_strings.h"

/* Keeps a rarely taken path out of line, so that the per-event code stays small. */
#if defined(__GNUC__)
#define PW_COLD __attribute__((cold, noinline))
#define PW_NOINLINE __attribute__((noinline))
#else
#define PW_COLD
#define PW_NOINLINE
#endif

#define PW_NO_TB PL_NO_TB /* the "TimeBase" of naming kinds */
/*
 * Room for the largest record, RangeStartEnd with 64-bit ProcessId and
 * ThreadId (72 bytes; nvtxt-payload(5), RECORDS), and the 4 bytes past a
 * record's last entry that pw_fill may store zeros into: the blocks of
 * records keep this much room after their last record.  A naming record
 * is zeroed with this many bytes, a fixed-size memset that compilers
 * inline.
 */
#define PW_MAX_STRIDE 80u

struct pw_schema {
	/* First: its address is the schema's, one register fewer per event. */
	struct pw_strings str;  /* its pending flexData */
	unsigned char *rec_at;  /* where the next record goes, in ev's last block */
	unsigned char *rec_last; /* the last place there with PW_MAX_STRIDE bytes after it */
	int64_t last_ts;        /* INT64_MIN before a batch's first record */
	bool unsorted;
	struct pw_chain ev;     /* pending records; a block has at least one */
	struct pl_layout l;
	unsigned tb;            /* enum nvtxt_timebase, or PW_NO_TB */
	uint64_t id;
	uint16_t off[PL_R_COUNT]; /* byte offset of each role's entry in a record */
	bool written;           /* its section is in the file */
	uint64_t first_ordinal; /* of its pending batch, set by pw_flush */
	struct pw_schema *next; /* creation order */
};

struct nvtxt_payload_writer {
	FILE *out;
	uint64_t off;           /* bytes written so far */
	uint64_t nsections;
	uint64_t next_ordinal;
	/* The group is flushed at this ordinal: every call is one record, so
	   PL_GROUP_EVENTS records are pending then (unless PL_GROUP_BYTES first). */
	uint64_t flush_ordinal;
	bool failed;
	unsigned tb_written;    /* bit per TimeBase: its time domain is in the file */
	struct pw_shared sh;    /* the pool, the string cache, the pending bytes */
	struct pw_schema *by_key[PL_K_COUNT][PW_NO_TB + 1][2][2];
	struct pw_schema *first, **last;
	uint64_t nschemas;
};

static int pw_write(struct nvtxt_payload_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->out) != n) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	w->off += n;
	return 0;
}

/* Writes the header of a section whose body is len bytes long. */
static int pw_section_begin(struct nvtxt_payload_writer *w, enum pl_section type, uint32_t flags,
			    uint64_t len)
{
	unsigned char h[PL_SECTION_HEADER_SIZE];

	pl_put32(h + PL_SH_TYPE, type);
	pl_put32(h + PL_SH_FLAGS, flags);
	pl_put64(h + PL_SH_LENGTH, len);
	return pw_write(w, h, sizeof h);
}

/* Writes the zero padding after a body of len bytes and counts the section. */
static int pw_section_end(struct nvtxt_payload_writer *w, uint64_t len)
{
	static const unsigned char zeros[8];

	if (pw_write(w, zeros, (size_t)(-len & 7)))
		return -1;
	w->nsections++;
	return 0;
}

/* Writes a section whose body is a, then b. */
static int pw_section(struct nvtxt_payload_writer *w, enum pl_section type,
		      const void *a, size_t alen, const void *b, size_t blen)
{
	uint64_t len = (uint64_t)alen + blen;

	return pw_section_begin(w, type, 0, len) || pw_write(w, a, alen) ||
	       pw_write(w, b, blen) || pw_section_end(w, len) ? -1 : 0;
}

struct nvtxt_payload_writer *nvtxt_payload_writer_new(FILE *out)
{
	static const unsigned char zeros[PL_HEADER_SIZE];
	struct nvtxt_payload_writer *w = calloc(1, sizeof *w);

	if (!w)
		return NULL;
	w->out = out;
	w->last = &w->first;
	w->flush_ordinal = PL_GROUP_EVENTS;
	if (pw_shared_init(&w->sh) || pw_write(w, zeros, sizeof zeros)) {
		int e = errno;
		pw_shared_free(&w->sh);
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

void nvtxt_payload_writer_free(struct nvtxt_payload_writer *w)
{
	struct pw_schema *s, *next;

	if (!w)
		return;
	for (s = w->first; s; s = next) {
		next = s->next;
		pw_blocks_free(s->ev.head);
		pw_strings_free(&s->str);
		free(s);
	}
	pw_shared_free(&w->sh);
	free(w);
}

static int pw_chain_write(struct nvtxt_payload_writer *w, const struct pw_chain *c)
{
	for (const struct pw_block *b = c->head; b; b = b->next)
		if (pw_write(w, b->data, b->len))
			return -1;
	return 0;
}

/* ---- schemas and records ---- */

/*
 * The entries of the timed kinds' records, in the order of their offsets,
 * which is the order pw_fill stores them in; PL_R_COUNT ends a list.
 */
static const uint8_t pw_fill_order[PL_K_POP + 1][11] = {
	[PL_K_MARKER] = { PL_R_TIME, PL_R_ORDINAL, PL_R_PID, PL_R_TID, PL_R_CATEGORY, PL_R_COLOR,
			  PL_R_PAYLOAD, PL_R_MESSAGE, PL_R_PRESENT, PL_R_COUNT },
	[PL_K_START_END] = { PL_R_START, PL_R_END, PL_R_ORDINAL, PL_R_PID, PL_R_TID, PL_R_CATEGORY,
			     PL_R_COLOR, PL_R_PAYLOAD, PL_R_MESSAGE, PL_R_PRESENT, PL_R_COUNT },
	[PL_K_PUSH] = { PL_R_TIME, PL_R_ORDINAL, PL_R_PID, PL_R_TID, PL_R_CATEGORY, PL_R_COLOR,
			PL_R_PAYLOAD, PL_R_MESSAGE, PL_R_PRESENT, PL_R_COUNT },
	[PL_K_POP] = { PL_R_TIME, PL_R_ORDINAL, PL_R_PID, PL_R_TID, PL_R_COUNT },
};

/*
 * The offsets and strides of the timed kinds' records when ProcessId and
 * ThreadId are 32-bit (pl_layout_init's, which pw_fill_check holds them
 * to): constants, so that most events store at fixed offsets.
 */
#define PW_NARROW_MARK { [PL_R_TIME] = 0, [PL_R_ORDINAL] = 8, [PL_R_PID] = 16, [PL_R_TID] = 20, \
	[PL_R_CATEGORY] = 24, [PL_R_COLOR] = 28, [PL_R_PAYLOAD] = 32, [PL_R_MESSAGE] = 40, \
	[PL_R_PRESENT] = 48 }
static const uint16_t pw_narrow_off[PL_K_POP + 1][PL_R_COUNT] = {
	[PL_K_MARKER] = PW_NARROW_MARK,
	[PL_K_START_END] = { [PL_R_START] = 0, [PL_R_END] = 8, [PL_R_ORDINAL] = 16, [PL_R_PID] = 24,
			     [PL_R_TID] = 28, [PL_R_CATEGORY] = 32, [PL_R_COLOR] = 36,
			     [PL_R_PAYLOAD] = 40, [PL_R_MESSAGE] = 48, [PL_R_PRESENT] = 56 },
	[PL_K_PUSH] = PW_NARROW_MARK,
	[PL_K_POP] = { [PL_R_TIME] = 0, [PL_R_ORDINAL] = 8, [PL_R_PID] = 16, [PL_R_TID] = 20 },
};
static const uint8_t pw_narrow_stride[PL_K_POP + 1] = { 56, 64, 56, 24 };

/*
 * Whether pw_fill fills a record of timed schema s whole, without zeroing
 * it first: its entries are those of pw_fill_order, in that order, each
 * 4-byte entry (stored as 8 bytes, its value below 2^32 and so its other
 * 4 bytes zeros, which the next store overwrites) followed by the next
 * entry, by 4 bytes of padding or by the end of the record, so that the
 * stores cover every byte of the stride and at most 4 bytes past it;
 * and, narrow (32-bit ids), the offsets and stride of pw_narrow_off.
 * Cannot fail unless payload_records.def changes and this file does not.
 */
static bool pw_fill_check(const struct pw_schema *s, bool narrow)
{
	enum pl_kind k = s->l.kind;
	uint32_t covered = 0;
	size_t i;

	for (i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		if (e->role != pw_fill_order[k][i] || e->offset > covered ||
		    (narrow && e->offset != pw_narrow_off[k][e->role]))
			return false;
		covered = e->offset + 8;
	}
	return pw_fill_order[k][i] == PL_R_COUNT && covered >= s->l.stride &&
	       covered <= PW_MAX_STRIDE && (!narrow || s->l.stride == pw_narrow_stride[k]);
}

/*
 * No block for s's records: rec_at past rec_last, both in one object as
 * C's comparison of pointers wants (it is never written).
 */
static const unsigned char pw_no_room[2];

static void pw_rec_none(struct pw_schema *s)
{
	s->rec_last = (unsigned char *)pw_no_room;
	s->rec_at = (unsigned char *)pw_no_room + 1;
}

/* Creates the schema of a key that has none yet.  NULL with errno set on failure. */
PW_COLD
static struct pw_schema *pw_schema_new(struct nvtxt_payload_writer *w, enum pl_kind k,
				       unsigned tb, bool pid64, bool tid64)
{
	struct pw_schema **slot = &w->by_key[k][tb][pid64][tid64];
	struct pw_schema *s = calloc(1, sizeof *s);

	if (!s)
		return NULL;
	pl_layout_init(&s->l, k, pid64, tid64);
	if (s->l.stride > PW_MAX_STRIDE ||
	    (pl_kind_timed(k) && !pw_fill_check(s, !pid64 && !tid64))) {
		free(s); /* cannot happen: see PW_MAX_STRIDE and pw_fill_check */
		errno = EINVAL;
		return NULL;
	}
	s->str.flex_len = 1;
	if ((s->l.at[PL_R_MESSAGE] >= 0 || s->l.at[PL_R_NAME] >= 0) && pw_strings_init(&s->str)) {
		free(s);
		return NULL;
	}
	for (int r = 0; r < PL_R_COUNT; r++)
		if (s->l.at[r] >= 0)
			s->off[r] = (uint16_t)s->l.e[s->l.at[r]].offset;
	s->tb = tb;
	s->id = PL_SCHEMA_ID_STATIC_START + w->nschemas++;
	s->last_ts = INT64_MIN;
	pw_rec_none(s);
	*w->last = s;
	w->last = &s->next;
	*slot = s;
	return s;
}

/* Ends the last block of s's records where its records end. */
static void pw_rec_sync(struct pw_schema *s)
{
	if (s->ev.tail)
		s->ev.tail->len = (size_t)(s->rec_at - s->ev.tail->data);
}

/* Gives s's records a new block.  Returns 0, or -1 (ENOMEM). */
PW_COLD
static int pw_rec_block(struct nvtxt_payload_writer *w, struct pw_schema *s)
{
	struct pw_block *b;

	pw_rec_sync(s);
	b = pw_block_add(&w->sh.pool, &s->ev, PW_MAX_STRIDE);
	if (!b)
		return -1;
	s->rec_at = b->data;
	s->rec_last = b->data + b->cap - PW_MAX_STRIDE;
	return 0;
}

static int pw_schema_section(struct nvtxt_payload_writer *w, const struct pw_schema *s)
{
	unsigned char body[PL_SCHEMA_BODY_MAX];
	size_t len = pl_schema_body(&s->l, s->tb, s->id, body);

	return pw_section(w, PL_SEC_SCHEMA, body, len, NULL, 0);
}

/*
 * Writes the pending batch of s, after the time domain and the schema
 * when they are not in the file yet; `last` marks the last batch of the
 * flush group.
 */
static int pw_flush_one(struct nvtxt_payload_writer *w, struct pw_schema *s, bool last)
{
	static const unsigned char nul;
	unsigned char h[PL_BATCH_HEADER_SIZE];
	uint64_t size = 0, len;

	pw_rec_sync(s);
	for (const struct pw_block *b = s->ev.head; b; b = b->next)
		size += b->len; /* the records, counted by the bytes they take */
	len = PL_BATCH_HEADER_SIZE + size + s->str.flex_len;
	if (!s->written) {
		if (s->tb != PW_NO_TB && !(w->tb_written & (1u << s->tb))) {
			unsigned char td[PL_TIME_DOMAIN_SIZE];
			pl_time_domain_record(td, s->tb);
			if (pw_section(w, PL_SEC_TIME_DOMAINS, td, sizeof td, NULL, 0))
				return -1;
			w->tb_written |= 1u << s->tb;
		}
		if (pw_schema_section(w, s))
			return -1;
		s->written = true;
	}
	pl_put64(h + PL_BAT_SCHEMA_ID, s->id);
	pl_put64(h + PL_BAT_SIZE, size);
	pl_put64(h + PL_BAT_EVENTS, PL_BATCH_HEADER_SIZE);
	pl_put64(h + PL_BAT_SCOPE, PL_SCOPE_NONE);
	pl_put64(h + PL_BAT_FLAGS, s->unsorted ? PL_BATCH_UNSORTED : PL_BATCH_TIME_SORTED);
	pl_put64(h + PL_BAT_FLEX_DATA, PL_BATCH_HEADER_SIZE + size);
	pl_put64(h + PL_BAT_FLEX_SIZE, s->str.flex_len);
	pl_put64(h + PL_BAT_FLEX_OFFSET, 0);
	if (pw_section_begin(w, PL_SEC_BATCH, last ? PL_SEC_GROUP_END : 0, len) ||
	    pw_write(w, h, sizeof h) ||
	    pw_chain_write(w, &s->ev) || pw_write(w, &nul, 1) ||
	    pw_chain_write(w, &s->str.flex) || pw_section_end(w, len))
		return -1;
	pw_chain_release(&w->sh.pool, &s->ev);
	pw_rec_none(s);
	s->unsorted = false;
	s->last_ts = INT64_MIN;
	return pw_strings_reset(&w->sh, &s->str);
}

/* Writes the pending batches as one flush group, in the order of their first ordinal. */
PW_COLD
static int pw_flush(struct nvtxt_payload_writer *w)
{
	struct pw_schema *order[PL_K_COUNT * (PW_NO_TB + 1) * 4];
	size_t n = 0;

	for (struct pw_schema *s = w->first; s; s = s->next) {
		size_t i = n;
		if (!s->ev.head)
			continue;
		n++;
		/* Read here, not kept per record: the batch's first record's. */
		s->first_ordinal = pl_get64(s->ev.head->data + s->off[PL_R_ORDINAL]);
		for (; i > 0 && order[i - 1]->first_ordinal > s->first_ordinal; i--)
			order[i] = order[i - 1];
		order[i] = s;
	}
	for (size_t i = 0; i < n; i++)
		if (pw_flush_one(w, order[i], i + 1 == n))
			return -1;
	w->flush_ordinal = w->next_ordinal + PL_GROUP_EVENTS;
	pw_shared_flushed(&w->sh);
	return 0;
}

/* ---- one event ---- */

/*
 * The schema of an event: of kind k, TimeBase tb, and the widths that
 * ProcessId pid and ThreadId tid need.  NULL with errno set on failure.
 */
static struct pw_schema *pw_schema_for(struct nvtxt_payload_writer *w, enum pl_kind k,
				       unsigned tb, int64_t pid, int64_t tid)
{
	bool pid64 = (uint64_t)pid > UINT32_MAX, tid64 = (uint64_t)tid > UINT32_MAX;
	struct pw_schema *s = w->by_key[k][tb][pid64][tid64];

	return s ? s : pw_schema_new(w, k, tb, pid64, tid64);
}

/*
 * Reserves a record of `stride` bytes after s's pending records and
 * counts it: its block keeps PW_MAX_STRIDE bytes free after it, which the
 * caller made sure of with pw_room.
 */
static PW_INLINE unsigned char *pw_record(struct nvtxt_payload_writer *w, struct pw_schema *s,
					  uint32_t stride)
{
	unsigned char *p = s->rec_at;

	s->rec_at = p + stride;
	w->sh.pending_bytes += stride;
	return p;
}

/* Makes room for a record of s.  Returns 0, or -1 (ENOMEM). */
static PW_INLINE int pw_room(struct nvtxt_payload_writer *w, struct pw_schema *s)
{
	return s->rec_at > s->rec_last ? pw_rec_block(w, s) : 0;
}

/*
 * pl_put64 as one store on a little-endian host, whose compiler says so:
 * the bytes one by one defeat GCC's merging of neighbouring stores.
 */
static PW_INLINE void pw_put64(unsigned char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, sizeof v);
#else
	pl_put64(p, v);
#endif
}

/* Present's bits are those of the optional arguments in nvtxt_event.present, shifted. */
#define PW_PRESENT_SHIFT NVTXT_ARG_CATEGORY_ID
_Static_assert(PL_PRESENT_CATEGORY << PW_PRESENT_SHIFT == NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) &&
	       PL_PRESENT_COLOR << PW_PRESENT_SHIFT == NVTXT_BIT(NVTXT_ARG_COLOR) &&
	       PL_PRESENT_MESSAGE << PW_PRESENT_SHIFT == NVTXT_BIT(NVTXT_ARG_MESSAGE) &&
	       PL_PRESENT_PAYLOAD << PW_PRESENT_SHIFT == NVTXT_BIT(NVTXT_ARG_PAYLOAD) &&
	       PL_PRESENT_ALL == 15, "Present's bits follow the arguments' order");

/*
 * The record of an event of timed kind k (a constant where inlined) in
 * schema s, whose entries are at offsets o (pw_narrow_off[k] or s->off)
 * and whose stride is `stride`, with the flexData offset msg of its
 * message: every entry stored in the order of the offsets, 4-byte ones as
 * 8 bytes, an absent argument as 0, so the record needs no zeroing first
 * (pw_fill_check).  The first timestamp orders the batch.  s has room
 * (pw_room).
 */
static PW_INLINE void pw_fill(struct nvtxt_payload_writer *w, struct pw_schema *s, enum pl_kind k,
			      const struct nvtxt_event *ev, const uint16_t *o, uint32_t stride,
			      uint64_t msg)
{
	uint32_t bits = ev->present;
	unsigned char *p = pw_record(w, s, stride);
	int64_t ts;

	if (k == PL_K_START_END) {
		pw_put64(p + o[PL_R_START], (uint64_t)ev->start);
		pw_put64(p + o[PL_R_END], (uint64_t)ev->end);
	} else {
		pw_put64(p + o[PL_R_TIME], (uint64_t)ev->time);
	}
	pw_put64(p + o[PL_R_ORDINAL], ev->ordinal);
	pw_put64(p + o[PL_R_PID], (uint64_t)ev->process_id);
	pw_put64(p + o[PL_R_TID], (uint64_t)ev->thread_id);
	if (k != PL_K_POP) {
		pw_put64(p + o[PL_R_CATEGORY],
			 bits & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) ? ev->category_id : 0);
		pw_put64(p + o[PL_R_COLOR], bits & NVTXT_BIT(NVTXT_ARG_COLOR) ? ev->color : 0);
		pw_put64(p + o[PL_R_PAYLOAD],
			 bits & NVTXT_BIT(NVTXT_ARG_PAYLOAD) ? (uint64_t)ev->payload : 0);
		pw_put64(p + o[PL_R_MESSAGE], msg);
		pw_put64(p + o[PL_R_PRESENT], (bits >> PW_PRESENT_SHIFT) & PL_PRESENT_ALL);
	}
	ts = k == PL_K_START_END ? ev->start : ev->time;
	if (ts < s->last_ts)
		s->unsorted = true;
	s->last_ts = ts;
}

/* The end of a call that failed: no more calls are taken.  Returns -1. */
PW_COLD
static int pw_fail(struct nvtxt_payload_writer *w, int err)
{
	if (err)
		errno = err;
	w->failed = true;
	return -1;
}

/* Writes the pending flush group (pw_end).  Returns 0, or -1. */
PW_NOINLINE
static int pw_flush_call(struct nvtxt_payload_writer *w)
{
	return pw_flush(w) ? pw_fail(w, 0) : 0;
}

/* The end of a call that succeeded: flushes the group when it is full. */
static PW_INLINE int pw_end(struct nvtxt_payload_writer *w)
{
	if (w->next_ordinal >= w->flush_ordinal ||
	    w->sh.pending_bytes >= PL_GROUP_BYTES)
		return pw_flush_call(w);
	return 0;
}

/*
 * A call of timed kind k that pw_timed does not take: a TimeBase out of
 * range, wide ids, a new schema, a block full.  Returns as pw_event does.
 */
PW_NOINLINE
static int pw_timed_slow(struct nvtxt_payload_writer *w, enum pl_kind k,
			 const struct nvtxt_event *ev)
{
	struct pw_schema *s;
	int64_t msg = 0;

	if ((unsigned)ev->timebase >= NVTXT_TB_COUNT)
		return pw_fail(w, EINVAL);
	s = pw_schema_for(w, k, ev->timebase, ev->process_id, ev->thread_id);
	if (!s || (k != PL_K_POP && (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) &&
		   (msg = pw_str(&w->sh, &s->str, ev->message)) < 0) || pw_room(w, s))
		return pw_fail(w, 0);
	pw_fill(w, s, k, ev, s->off, s->l.stride, (uint64_t)msg);
	return pw_end(w);
}

/*
 * pw_timed's call whose message the cache does not hold, in the narrow
 * schema s of kind k (a constant): the same record, with a lookup of the
 * message in the table.
 */
static PW_INLINE int pw_timed_miss_k(struct nvtxt_payload_writer *w, enum pl_kind k,
				     const struct nvtxt_event *ev)
{
	struct pw_schema *s = w->by_key[k][ev->timebase][0][0];
	int64_t msg = pw_str(&w->sh, &s->str, ev->message);

	if (msg < 0 || pw_room(w, s))
		return pw_fail(w, 0);
	pw_fill(w, s, k, ev, pw_narrow_off[k], pw_narrow_stride[k], (uint64_t)msg);
	return pw_end(w);
}

PW_NOINLINE
static int pw_timed_miss(struct nvtxt_payload_writer *w, enum pl_kind k,
			 const struct nvtxt_event *ev)
{
	switch (k) {
	case PL_K_MARKER:
		return pw_timed_miss_k(w, PL_K_MARKER, ev);
	case PL_K_PUSH:
		return pw_timed_miss_k(w, PL_K_PUSH, ev);
	default:
		return pw_timed_miss_k(w, PL_K_START_END, ev);
	}
}

/*
 * A call of timed kind k (Marker, RangePush, RangePop, RangeStartEnd; a
 * RangePop's push has a record of its own).  Most calls have 32-bit ids
 * (one test finds their schema, whose offsets are constants), room in
 * their block and a message in the cache; every other call, and anything
 * that can fail, goes to pw_timed_slow or pw_timed_miss before a byte
 * changes.  So this path, inlined into pw_event, makes no call that
 * returns to it, and the registers a call would need kept are not saved
 * and restored for every event.
 */
static PW_INLINE int pw_timed(struct nvtxt_payload_writer *w, enum pl_kind k,
			      const struct nvtxt_event *ev)
{
	struct pw_schema *s;
	int64_t msg = 0;

	if ((unsigned)ev->timebase >= NVTXT_TB_COUNT ||
	    (((uint64_t)ev->process_id | (uint64_t)ev->thread_id) >> 32) != 0 ||
	    !(s = w->by_key[k][ev->timebase][0][0]))
		return pw_timed_slow(w, k, ev);
	if (k != PL_K_POP && (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) &&
	    (msg = pw_str_cached(&w->sh, &s->str, ev->message)) < 0)
		return pw_timed_miss(w, k, ev);
	if (s->rec_at > s->rec_last)
		return pw_timed_slow(w, k, ev);
	pw_fill(w, s, k, ev, pw_narrow_off[k], pw_narrow_stride[k], (uint64_t)msg);
	return pw_end(w);
}

/*
 * A naming call: a record of kind k with ProcessId pid and ThreadId tid
 * (stored when k has them), and the Name when k has one.  Zeroed first,
 * then stored entry by entry; pid and tid as 8 bytes whatever their
 * width, as pw_fill does (ThreadId, and Name, come after ProcessId).
 */
PW_NOINLINE
static int pw_naming(struct nvtxt_payload_writer *w, enum pl_kind k, const struct nvtxt_event *ev,
		     int64_t pid, int64_t tid)
{
	struct pw_schema *s = pw_schema_for(w, k, PW_NO_TB, pid, tid);
	int64_t name = 0;
	unsigned char *p;

	if (!s || (s->l.at[PL_R_NAME] >= 0 && (name = pw_str(&w->sh, &s->str, ev->name)) < 0) ||
	    pw_room(w, s))
		return pw_fail(w, 0);
	p = pw_record(w, s, s->l.stride);
	memset(p, 0, PW_MAX_STRIDE);
	pl_put64(p + s->off[PL_R_ORDINAL], ev->ordinal);
	if (s->l.at[PL_R_PID] >= 0)
		pl_put64(p + s->off[PL_R_PID], (uint64_t)pid);
	if (s->l.at[PL_R_TID] >= 0)
		pl_put64(p + s->off[PL_R_TID], (uint64_t)tid);
	if (s->l.at[PL_R_PARENT] >= 0)
		pl_put32(p + s->off[PL_R_PARENT], ev->parent_category_id);
	if (s->l.at[PL_R_CATEGORY] >= 0)
		pl_put32(p + s->off[PL_R_CATEGORY], ev->category_id);
	if (s->l.at[PL_R_NAME] >= 0)
		pl_put64(p + s->off[PL_R_NAME], (uint64_t)name);
	return pw_end(w);
}

/* Every path returns through a tail call or without a call (pw_timed). */
static int pw_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_payload_writer *w = user;

	if (w->failed)
		return -1;
	if (ev->ordinal != w->next_ordinal)
		return pw_fail(w, EINVAL);
	w->next_ordinal++;
	switch (ev->command) {
	case NVTXT_CMD_MARKER:
		return pw_timed(w, PL_K_MARKER, ev);
	case NVTXT_CMD_RANGE_PUSH:
		return pw_timed(w, PL_K_PUSH, ev);
	case NVTXT_CMD_RANGE_POP:
		return pw_timed(w, PL_K_POP, ev);
	case NVTXT_CMD_RANGE_START_END:
		return pw_timed(w, PL_K_START_END, ev);
	case NVTXT_CMD_NAME_CATEGORY:
		return pw_naming(w, PL_K_NAME_CATEGORY, ev, 0, 0);
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		return pw_naming(w, PL_K_ADD_CHILD_CATEGORY, ev, 0, 0);
	case NVTXT_CMD_NAME_OS_THREAD:
		return pw_naming(w, PL_K_NAME_OS_THREAD, ev, ev->process_id, ev->thread_id);
	case NVTXT_CMD_NAME_PROCESS:
		return pw_naming(w, PL_K_NAME_PROCESS, ev, ev->process_id, 0);
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		return pw_naming(w, PL_K_SET_FILE_DISPLAY_NAME, ev, 0, 0);
	default:
		return pw_fail(w, EINVAL);
	}
}

/* A push never popped: its record was written with the push. */
static int pw_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_payload_writer *w = user;

	(void)push;
	return w->failed ? -1 : 0;
}

static int pw_finish(void *user)
{
	struct nvtxt_payload_writer *w = user;
	unsigned char h[PL_HEADER_SIZE];

	if (w->failed || pw_flush(w))
		goto fail;
	memset(h, 0, sizeof h);
	memcpy(h + PL_HDR_MAGIC, PL_MAGIC, PL_MAGIC_LEN);
	pl_put32(h + PL_HDR_BOM, PL_BOM);
	pl_put16(h + PL_HDR_MAJOR, PL_VERSION_MAJOR);
	pl_put16(h + PL_HDR_MINOR, PL_VERSION_MINOR);
	pl_put32(h + PL_HDR_HEADER_SIZE, PL_HEADER_SIZE);
	pl_put64(h + PL_HDR_FILE_SIZE, w->off);
	pl_put64(h + PL_HDR_ORDINALS, w->next_ordinal);
	pl_put64(h + PL_HDR_SECTIONS, w->nsections);
	pl_put64(h + PL_HDR_COMPAT_ID, PL_NVTX_PAYLOAD_COMPATID);
	if (fflush(w->out) || fseek(w->out, 0, SEEK_SET) ||
	    fwrite(h, 1, sizeof h, w->out) != sizeof h || fseek(w->out, 0, SEEK_END) ||
	    fflush(w->out))
		goto fail;
	return 0;
fail:
	if (!errno)
		errno = EIO;
	w->failed = true;
	return -1;
}

struct nvtxt_backend nvtxt_payload_backend(struct nvtxt_payload_writer *w)
{
	return (struct nvtxt_backend){ w, pw_event, pw_unclosed, pw_finish };
}
