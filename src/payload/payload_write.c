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
 * This runs once per event, so it is written for speed.  A batch's records
 * and strings are kept in chains of fixed-size blocks taken from a pool
 * that the writer keeps for its whole life: a flush returns them to the
 * pool, so after the first batches no memory is allocated, zeroed by the
 * kernel or copied by realloc, and the peak memory is that of the largest
 * set of pending batches.  A record is filled in place, at offsets looked
 * up once per schema; a string is hashed a word at a time, in the same
 * pass that checks it for NUL bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/payload.h"
#include "payload_layout.h"
#include "util.h"

/* Keeps a rarely taken path out of line, so that the per-event code stays small. */
#if defined(__GNUC__)
#define PW_COLD __attribute__((cold, noinline))
#else
#define PW_COLD
#endif

#define PW_KEEP_BYTES (64u << 10) /* larger string tables are freed at a flush */
#define PW_BLOCK_SIZE (64u << 10) /* the blocks of the pool, header included */
#define PW_NO_TB PL_NO_TB /* the "TimeBase" of naming kinds */
/*
 * Room for the largest record, RangeStartEnd with 64-bit ProcessId and ThreadId
 * (72 bytes)
 * (nvtxt-payload(5), RECORDS).  Each record is zeroed with this many
 * bytes, a fixed-size memset that compilers inline; the blocks of records
 * keep room for it.
 */
#define PW_MAX_STRIDE 80u

/* A block of pending records or strings. */
struct pw_block {
	struct pw_block *next;
	size_t len, cap;        /* bytes used, bytes of data */
	unsigned char data[];
};

/* The blocks of one batch's records or strings, in order. */
struct pw_chain {
	struct pw_block *head, *tail;
};

/* A string of a pending batch: where its copy is, and its flexData offset. */
struct pw_dedup_slot {
	const unsigned char *str; /* NULL: an empty slot */
	size_t len;
	uint64_t off;
};

struct pw_schema {
	struct pl_layout l;
	unsigned tb;            /* enum nvtxt_timebase, or PW_NO_TB */
	uint64_t id;
	uint16_t off[PL_R_COUNT]; /* byte offset of each role's entry in a record */
	struct pw_chain ev;     /* pending records, nev of them */
	size_t nev;
	struct pw_chain flex;   /* pending flexData after its first byte, the NUL */
	size_t flex_len;        /* bytes of flexData, that NUL included */
	struct pw_dedup_slot *dedup; /* open addressing, at most half full */
	size_t dedup_cap, dedup_n;
	int64_t last_ts;
	bool unsorted;
	bool written;           /* its section is in the file */
	uint64_t first_ordinal; /* of its pending batch */
	struct pw_schema *next; /* creation order */
};

struct nvtxt_payload_writer {
	FILE *out;
	uint64_t off;           /* bytes written so far */
	uint64_t nsections;
	uint64_t next_ordinal;
	bool failed;
	unsigned tb_written;    /* bit per TimeBase: its time domain is in the file */
	size_t pending_events, pending_bytes;
	struct pw_schema *by_key[PL_K_COUNT][PW_NO_TB + 1][2][2];
	struct pw_schema *first, **last;
	uint64_t nschemas;
	struct pw_block *spare; /* the pool: blocks of PW_BLOCK_SIZE not in use */
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
	if (pw_write(w, zeros, sizeof zeros)) {
		int e = errno;
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

static void pw_blocks_free(struct pw_block *b)
{
	while (b) {
		struct pw_block *next = b->next;
		free(b);
		b = next;
	}
}

void nvtxt_payload_writer_free(struct nvtxt_payload_writer *w)
{
	struct pw_schema *s, *next;

	if (!w)
		return;
	for (s = w->first; s; s = next) {
		next = s->next;
		pw_blocks_free(s->ev.head);
		pw_blocks_free(s->flex.head);
		free(s->dedup);
		free(s);
	}
	pw_blocks_free(w->spare);
	free(w);
}

/*
 * Appends to chain c a block with at least `need` free bytes: one of the
 * pool, or a new one (larger than PW_BLOCK_SIZE when need asks for it).
 * Returns it, or NULL (ENOMEM).
 */
PW_COLD
static struct pw_block *pw_block_add(struct nvtxt_payload_writer *w, struct pw_chain *c,
				     size_t need)
{
	const size_t std_cap = PW_BLOCK_SIZE - offsetof(struct pw_block, data);
	struct pw_block *b = w->spare;

	if (need <= std_cap && b) {
		w->spare = b->next;
	} else {
		size_t cap = need <= std_cap ? std_cap : need;
		if (cap > SIZE_MAX - offsetof(struct pw_block, data)) {
			errno = ENOMEM;
			return NULL;
		}
		b = malloc(offsetof(struct pw_block, data) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
	}
	b->next = NULL;
	b->len = 0;
	if (c->tail)
		c->tail->next = b;
	else
		c->head = b;
	c->tail = b;
	return b;
}

/* Empties chain c: blocks of the standard size go back to the pool. */
static void pw_chain_release(struct nvtxt_payload_writer *w, struct pw_chain *c)
{
	const size_t std_cap = PW_BLOCK_SIZE - offsetof(struct pw_block, data);
	struct pw_block *b = c->head, *next;

	for (; b; b = next) {
		next = b->next;
		if (b->cap == std_cap) {
			b->next = w->spare;
			w->spare = b;
		} else {
			free(b);
		}
	}
	c->head = c->tail = NULL;
}

static int pw_chain_write(struct nvtxt_payload_writer *w, const struct pw_chain *c)
{
	for (const struct pw_block *b = c->head; b; b = b->next)
		if (pw_write(w, b->data, b->len))
			return -1;
	return 0;
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
	if (s->l.stride > PW_MAX_STRIDE) {
		free(s); /* cannot happen: see PW_MAX_STRIDE */
		errno = EINVAL;
		return NULL;
	}
	for (int r = 0; r < PL_R_COUNT; r++)
		if (s->l.at[r] >= 0)
			s->off[r] = (uint16_t)s->l.e[s->l.at[r]].offset;
	s->tb = tb;
	s->id = PL_SCHEMA_ID_STATIC_START + w->nschemas++;
	s->flex_len = 1;
	*w->last = s;
	w->last = &s->next;
	*slot = s;
	return s;
}

static int pw_schema_section(struct nvtxt_payload_writer *w, const struct pw_schema *s);

/*
 * Writes the pending batch of s, after the time domain and the schema
 * when they are not in the file yet; `last` marks the last batch of the
 * flush group.
 */
static int pw_flush_one(struct nvtxt_payload_writer *w, struct pw_schema *s, bool last)
{
	static const unsigned char nul;
	unsigned char h[PL_BATCH_HEADER_SIZE];
	uint64_t size = (uint64_t)s->nev * s->l.stride;
	uint64_t len = PL_BATCH_HEADER_SIZE + size + s->flex_len;

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
	pl_put64(h + PL_BAT_FLEX_SIZE, s->flex_len);
	pl_put64(h + PL_BAT_FLEX_OFFSET, 0);
	if (pw_section_begin(w, PL_SEC_BATCH, last ? PL_SEC_GROUP_END : 0, len) ||
	    pw_write(w, h, sizeof h) ||
	    pw_chain_write(w, &s->ev) || pw_write(w, &nul, 1) ||
	    pw_chain_write(w, &s->flex) || pw_section_end(w, len))
		return -1;
	pw_chain_release(w, &s->ev);
	pw_chain_release(w, &s->flex);
	s->nev = 0;
	s->flex_len = 1;
	s->unsorted = false;
	s->dedup_n = 0;
	if (s->dedup_cap * sizeof *s->dedup > PW_KEEP_BYTES) {
		free(s->dedup);
		s->dedup = NULL;
		s->dedup_cap = 0;
	} else if (s->dedup_cap) {
		memset(s->dedup, 0, s->dedup_cap * sizeof *s->dedup);
	}
	return 0;
}

/* Writes the pending batches as one flush group, in the order of their first ordinal. */
PW_COLD
static int pw_flush(struct nvtxt_payload_writer *w)
{
	struct pw_schema *order[PL_K_COUNT * (PW_NO_TB + 1) * 4];
	size_t n = 0;

	for (struct pw_schema *s = w->first; s; s = s->next) {
		size_t i = n;
		if (!s->nev)
			continue;
		n++;
		for (; i > 0 && order[i - 1]->first_ordinal > s->first_ordinal; i--)
			order[i] = order[i - 1];
		order[i] = s;
	}
	for (size_t i = 0; i < n; i++)
		if (pw_flush_one(w, order[i], i + 1 == n))
			return -1;
	w->pending_events = 0;
	w->pending_bytes = 0;
	return 0;
}

/*
 * The schema of an event: of kind k, TimeBase tb, and the widths that
 * ProcessId pid and ThreadId tid need.  NULL on ENOMEM.
 */
static inline struct pw_schema *pw_schema_for(struct nvtxt_payload_writer *w, enum pl_kind k,
					      unsigned tb, int64_t pid, int64_t tid)
{
	bool pid64 = (uint64_t)pid > UINT32_MAX, tid64 = (uint64_t)tid > UINT32_MAX;
	struct pw_schema *s = w->by_key[k][tb][pid64][tid64];

	return s ? s : pw_schema_new(w, k, tb, pid64, tid64);
}

/*
 * Starts a record of schema s: reserves a zeroed slot after its pending
 * records and stores the ordinal, ProcessId and ThreadId (when s has
 * them).  Returns the slot, or NULL (ENOMEM).
 */
static inline unsigned char *pw_record(struct nvtxt_payload_writer *w, struct pw_schema *s,
				       uint64_t ordinal, int64_t pid, int64_t tid)
{
	struct pw_block *b = s->ev.tail;
	unsigned char *p;

	if (!b || b->cap - b->len < PW_MAX_STRIDE) {
		b = pw_block_add(w, &s->ev, PW_MAX_STRIDE);
		if (!b)
			return NULL;
	}
	p = b->data + b->len;
	memset(p, 0, PW_MAX_STRIDE);
	b->len += s->l.stride;
	if (!s->nev++)
		s->first_ordinal = ordinal;
	w->pending_events++;
	w->pending_bytes += s->l.stride;
	pl_put64(p + s->off[PL_R_ORDINAL], ordinal);
	if (s->l.at[PL_R_PID] >= 0) {
		if (s->l.pid64)
			pl_put64(p + s->off[PL_R_PID], (uint64_t)pid);
		else
			pl_put32(p + s->off[PL_R_PID], (uint32_t)pid);
	}
	if (s->l.at[PL_R_TID] >= 0) {
		if (s->l.tid64)
			pl_put64(p + s->off[PL_R_TID], (uint64_t)tid);
		else
			pl_put32(p + s->off[PL_R_TID], (uint32_t)tid);
	}
	return p;
}

/*
 * A hash of the n bytes at p, read a word at a time; sets *nul when one of
 * them is 0.  (The hash only places strings in the table: any function
 * would give the same file.)
 */
static inline uint64_t pw_hash(const unsigned char *p, size_t n, bool *nul)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t h = n, x = 0, zero = 0;

	if (n >= 8) {
		const unsigned char *last = p + n - 8;
		for (; p < last; p += 8) {
			memcpy(&x, p, 8);
			zero |= (x - ones) & ~x & highs;
			h = (h ^ x) * 0x9E3779B97F4A7C15u;
		}
		memcpy(&x, last, 8); /* overlaps the word before */
		zero |= (x - ones) & ~x & highs;
	} else {
		for (; n--; p++) {
			zero |= *p == 0;
			x = x << 8 | *p;
		}
	}
	*nul = zero != 0;
	return hash_u64((h ^ x) * 0x9E3779B97F4A7C15u);
}

/* The table slot of a string: the slot that holds it, or the empty slot where it goes. */
static struct pw_dedup_slot *dedup_slot(struct pw_schema *s, const unsigned char *p, size_t n,
					uint64_t h)
{
	size_t mask = s->dedup_cap - 1, i = (size_t)h & mask;

	while (s->dedup[i].str &&
	       (s->dedup[i].len != n || memcmp(s->dedup[i].str, p, n) != 0))
		i = (i + 1) & mask;
	return &s->dedup[i];
}

/* Doubles the table, which pw_str keeps at most half full.  Returns 0, or -1 (ENOMEM). */
PW_COLD
static int dedup_grow(struct pw_schema *s)
{
	struct pw_dedup_slot *old = s->dedup;
	size_t cap = s->dedup_cap;
	bool nul;

	s->dedup_cap = cap ? 2 * cap : 64;
	s->dedup = calloc(s->dedup_cap, sizeof *s->dedup);
	if (!s->dedup) {
		s->dedup = old;
		s->dedup_cap = cap;
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		if (old[i].str)
			*dedup_slot(s, old[i].str, old[i].len,
				    pw_hash(old[i].str, old[i].len, &nul)) = old[i];
	free(old);
	return 0;
}

/*
 * The flexData offset of string `str` in s's pending batch, stored at p
 * (a u64): 0 for the empty string (the NUL at byte 0), else the offset of
 * its NUL-terminated copy, appended unless the batch already holds it.
 * Returns 0, or -1 with errno EINVAL (a NUL byte in str) or ENOMEM.
 */
static int pw_str(struct nvtxt_payload_writer *w, struct pw_schema *s, unsigned char *p,
		  struct nvtxt_str str)
{
	const unsigned char *src = (const unsigned char *)str.ptr;
	struct pw_dedup_slot *slot;
	struct pw_block *b;
	uint64_t h;
	bool nul;

	if (str.len == 0)
		return 0; /* the record is zeroed */
	if (str.len > PL_STRING_MAX) { /* no NVTXT line holds one: the reader's bound */
		errno = EINVAL;
		return -1;
	}
	h = pw_hash(src, str.len, &nul);
	if (nul) {
		errno = EINVAL;
		return -1;
	}
	if (2 * (s->dedup_n + 1) > s->dedup_cap && dedup_grow(s))
		return -1;
	slot = dedup_slot(s, src, str.len, h);
	if (!slot->str) {
		b = s->flex.tail;
		if (str.len >= SIZE_MAX - PW_BLOCK_SIZE) {
			errno = ENOMEM;
			return -1;
		}
		if (!b || b->cap - b->len < str.len + 1) {
			b = pw_block_add(w, &s->flex, str.len + 1);
			if (!b)
				return -1;
		}
		memcpy(b->data + b->len, src, str.len);
		b->data[b->len + str.len] = 0;
		slot->str = b->data + b->len;
		slot->len = str.len;
		slot->off = s->flex_len;
		b->len += str.len + 1;
		s->flex_len += str.len + 1;
		w->pending_bytes += str.len + 1;
		s->dedup_n++;
	}
	pl_put64(p, slot->off);
	return 0;
}

/* The timestamp that orders a batch: the record's first. */
static void pw_ts(struct pw_schema *s, int64_t ts)
{
	if (s->nev > 1 && ts < s->last_ts)
		s->unsorted = true;
	s->last_ts = ts;
}

/* The optional arguments of Marker, RangePush and RangeStartEnd, and Present. */
static int pw_optional(struct nvtxt_payload_writer *w, struct pw_schema *s, unsigned char *p,
		       const struct nvtxt_event *ev)
{
	uint32_t present = 0;

	if (ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) {
		present |= PL_PRESENT_CATEGORY;
		pl_put32(p + s->off[PL_R_CATEGORY], ev->category_id);
	}
	if (ev->present & NVTXT_BIT(NVTXT_ARG_COLOR)) {
		present |= PL_PRESENT_COLOR;
		pl_put32(p + s->off[PL_R_COLOR], ev->color);
	}
	if (ev->present & NVTXT_BIT(NVTXT_ARG_PAYLOAD)) {
		present |= PL_PRESENT_PAYLOAD;
		pl_put64(p + s->off[PL_R_PAYLOAD], (uint64_t)ev->payload);
	}
	pl_put32(p + s->off[PL_R_PRESENT],
		 present | (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE) ? PL_PRESENT_MESSAGE : 0));
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		return pw_str(w, s, p + s->off[PL_R_MESSAGE], ev->message);
	return 0;
}

/* A RangePop: its time, ProcessId and ThreadId (its push has its own record). */
static int pw_pop(struct nvtxt_payload_writer *w, const struct nvtxt_event *ev)
{
	struct pw_schema *s = pw_schema_for(w, PL_K_POP, ev->timebase, ev->process_id, ev->thread_id);
	unsigned char *p = s ? pw_record(w, s, ev->ordinal, ev->process_id, ev->thread_id) : NULL;

	if (!p)
		return -1;
	pl_put64(p + s->off[PL_R_TIME], (uint64_t)ev->time);
	pw_ts(s, ev->time);
	return 0;
}

/*
 * A naming call: a record of kind k with ProcessId pid and ThreadId tid
 * (stored when k has them), and the Name when k has one.
 */
static int pw_naming(struct nvtxt_payload_writer *w, enum pl_kind k, const struct nvtxt_event *ev,
		     int64_t pid, int64_t tid)
{
	struct pw_schema *s = pw_schema_for(w, k, PW_NO_TB, pid, tid);
	unsigned char *p = s ? pw_record(w, s, ev->ordinal, pid, tid) : NULL;

	if (!p)
		return -1;
	if (s->l.at[PL_R_PARENT] >= 0)
		pl_put32(p + s->off[PL_R_PARENT], ev->parent_category_id);
	if (s->l.at[PL_R_CATEGORY] >= 0)
		pl_put32(p + s->off[PL_R_CATEGORY], ev->category_id);
	if (s->l.at[PL_R_NAME] >= 0)
		return pw_str(w, s, p + s->off[PL_R_NAME], ev->name);
	return 0;
}

static int pw_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_payload_writer *w = user;
	struct pw_schema *s;
	unsigned char *p;
	int rc = 0;

	if (w->failed)
		return -1;
	if (ev->ordinal != w->next_ordinal ||
	    ((ev->command == NVTXT_CMD_MARKER || ev->command == NVTXT_CMD_RANGE_START_END ||
	      ev->command == NVTXT_CMD_RANGE_PUSH || ev->command == NVTXT_CMD_RANGE_POP) &&
	     (unsigned)ev->timebase >= NVTXT_TB_COUNT)) {
		errno = EINVAL;
		goto fail;
	}
	w->next_ordinal++;
	switch (ev->command) {
	case NVTXT_CMD_MARKER:
	case NVTXT_CMD_RANGE_PUSH:
		s = pw_schema_for(w, ev->command == NVTXT_CMD_MARKER ? PL_K_MARKER : PL_K_PUSH,
				  ev->timebase, ev->process_id, ev->thread_id);
		p = s ? pw_record(w, s, ev->ordinal, ev->process_id, ev->thread_id) : NULL;
		if (!p)
			goto fail;
		pl_put64(p + s->off[PL_R_TIME], (uint64_t)ev->time);
		pw_ts(s, ev->time);
		rc = pw_optional(w, s, p, ev);
		break;
	case NVTXT_CMD_RANGE_START_END:
		s = pw_schema_for(w, PL_K_START_END, ev->timebase, ev->process_id, ev->thread_id);
		p = s ? pw_record(w, s, ev->ordinal, ev->process_id, ev->thread_id) : NULL;
		if (!p)
			goto fail;
		pl_put64(p + s->off[PL_R_START], (uint64_t)ev->start);
		pl_put64(p + s->off[PL_R_END], (uint64_t)ev->end);
		pw_ts(s, ev->start);
		rc = pw_optional(w, s, p, ev);
		break;
	case NVTXT_CMD_RANGE_POP:
		rc = pw_pop(w, ev);
		break;
	case NVTXT_CMD_NAME_CATEGORY:
		rc = pw_naming(w, PL_K_NAME_CATEGORY, ev, 0, 0);
		break;
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		rc = pw_naming(w, PL_K_ADD_CHILD_CATEGORY, ev, 0, 0);
		break;
	case NVTXT_CMD_NAME_OS_THREAD:
		rc = pw_naming(w, PL_K_NAME_OS_THREAD, ev, ev->process_id, ev->thread_id);
		break;
	case NVTXT_CMD_NAME_PROCESS:
		rc = pw_naming(w, PL_K_NAME_PROCESS, ev, ev->process_id, 0);
		break;
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		rc = pw_naming(w, PL_K_SET_FILE_DISPLAY_NAME, ev, 0, 0);
		break;
	default:
		errno = EINVAL;
		goto fail;
	}
	if (rc)
		goto fail;
	if ((w->pending_events >= PL_GROUP_EVENTS || w->pending_bytes >= PL_GROUP_BYTES) &&
	    pw_flush(w))
		goto fail;
	return 0;
fail:
	w->failed = true;
	return -1;
}

/* A push never popped: its record was written with the push. */
static int pw_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_payload_writer *w = user;

	(void)push;
	return w->failed ? -1 : 0;
}

size_t pl_schema_body(const struct pl_layout *l, unsigned tb, uint64_t id, unsigned char *body)
{
	size_t head = PL_SCHEMA_ATTR_SIZE + l->n * PL_SCHEMA_ENTRY_SIZE, len;
	int n;

	memset(body, 0, head);
	/* The schema name: "<kind>" or "<kind> <TimeBase>". */
	if (tb == PW_NO_TB)
		n = snprintf((char *)body + head, PL_SCHEMA_BODY_MAX - head, "%s", pl_kind_name(l->kind));
	else
		n = snprintf((char *)body + head, PL_SCHEMA_BODY_MAX - head, "%s %s",
			     pl_kind_name(l->kind), nvtxt_timebase_name((enum nvtxt_timebase)tb));
	len = head + (size_t)n + 1;
	pl_put64(body + PL_SCH_FIELD_MASK, PL_SCHEMA_FIELD_MASK);
	pl_put64(body + PL_SCH_NAME, head);
	pl_put64(body + PL_SCH_TYPE, PL_SCHEMA_TYPE_STATIC);
	pl_put64(body + PL_SCH_FLAGS, l->schema_flags);
	pl_put64(body + PL_SCH_ENTRIES, PL_SCHEMA_ATTR_SIZE);
	pl_put64(body + PL_SCH_NUM_ENTRIES, l->n);
	pl_put64(body + PL_SCH_STATIC_SIZE, l->stride);
	pl_put64(body + PL_SCH_PACK_ALIGN, PL_PACK_ALIGN);
	pl_put64(body + PL_SCH_SCHEMA_ID, id);
	for (size_t i = 0; i < l->n; i++) {
		const struct pl_entry *e = &l->e[i];
		unsigned char *p = body + PL_SCHEMA_ATTR_SIZE + i * PL_SCHEMA_ENTRY_SIZE;
		size_t nl = strlen(e->name) + 1, dl = strlen(e->description) + 1;

		pl_put64(p + PL_ENT_FLAGS, e->flags);
		pl_put64(p + PL_ENT_TYPE, e->type);
		pl_put64(p + PL_ENT_NAME, len);
		memcpy(body + len, e->name, nl);
		len += nl;
		pl_put64(p + PL_ENT_DESCRIPTION, len);
		memcpy(body + len, e->description, dl);
		len += dl;
		pl_put64(p + PL_ENT_OFFSET, e->offset);
		if (e->flags & PL_EF_TIMESTAMP)
			pl_put64(p + PL_ENT_SEMANTICS, PL_TIME_DOMAIN_ID_STATIC_START + tb);
	}
	return len;
}

static int pw_schema_section(struct nvtxt_payload_writer *w, const struct pw_schema *s)
{
	unsigned char body[PL_SCHEMA_BODY_MAX];
	size_t len = pl_schema_body(&s->l, s->tb, s->id, body);

	return pw_section(w, PL_SEC_SCHEMA, body, len, NULL, 0);
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
