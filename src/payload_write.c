/*
 * payload_write.c - the payload back end: lowers the checked event stream
 * to NVTX extended-payload schemas and event batches (nvtxt-payload(5)).
 *
 * One STATIC schema per (kind, TimeBase, PID width, TID width) actually
 * used, created on first use.  Each schema has one pending batch; all of
 * them are flushed as soon as 65536 events or 8 MiB of records and strings
 * are pending, so memory is bounded whatever the input size.  A push/pop pair
 * becomes one RANGE_PUSHPOP record, written when the pop arrives (or at end
 * of file, for a push never popped).  The time domains and schemas are
 * written after the last batch, and the header is patched at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "payload_layout.h"

#define PW_FLUSH_EVENTS 65536u
#define PW_FLUSH_BYTES (8u << 20)
#define PW_KEEP_BYTES (64u << 10) /* larger buffers are freed at a flush */
#define PW_NO_TB 7u /* the "TimeBase" of naming kinds */

struct pw_schema {
	struct pl_layout l;
	unsigned tb;            /* enum nvtxt_timebase, or PW_NO_TB */
	uint64_t id;
	unsigned char *ev;      /* pending records */
	size_t nev, ev_cap;     /* records, bytes */
	unsigned char *flex;    /* pending flexData; byte 0 is always NUL */
	size_t flex_len, flex_cap;
	size_t *dedup;          /* open addressing: flexData offsets, 0 = empty */
	size_t dedup_cap, dedup_n;
	int64_t last_ts;
	bool unsorted;
	struct pw_schema *next; /* creation order */
};

struct nvtxt_payload_writer {
	FILE *out;
	uint64_t off;           /* bytes written so far */
	uint64_t nsections;
	uint64_t next_ordinal;
	bool failed;
	unsigned tb_used;       /* bit per TimeBase */
	size_t pending_events, pending_bytes;
	struct pw_schema *by_key[PL_K_COUNT][PW_NO_TB + 1][2][2];
	struct pw_schema *first, **last;
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

/* Writes a section: its header, the parts of its body, the zero padding. */
static int pw_section(struct nvtxt_payload_writer *w, enum pl_section type,
		      const void *a, size_t alen, const void *b, size_t blen,
		      const void *c, size_t clen)
{
	static const unsigned char zeros[8];
	unsigned char h[PL_SECTION_HEADER_SIZE];
	uint64_t len = (uint64_t)alen + blen + clen;

	pl_put32(h, type);
	pl_put32(h + 4, 0);
	pl_put64(h + 8, len);
	if (pw_write(w, h, sizeof h) || pw_write(w, a, alen) ||
	    pw_write(w, b, blen) || pw_write(w, c, clen) ||
	    pw_write(w, zeros, (size_t)(-len & 7)))
		return -1;
	w->nsections++;
	return 0;
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

void nvtxt_payload_writer_free(struct nvtxt_payload_writer *w)
{
	struct pw_schema *s, *next;

	if (!w)
		return;
	for (s = w->first; s; s = next) {
		next = s->next;
		free(s->ev);
		free(s->flex);
		free(s->dedup);
		free(s);
	}
	free(w);
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 256;
	unsigned char *p;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			errno = ENOMEM;
			return -1;
		}
		n *= 2;
	}
	p = realloc(*buf, n);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

static struct pw_schema *pw_schema_get(struct nvtxt_payload_writer *w, enum pl_kind k,
				       unsigned tb, bool pid64, bool tid64)
{
	struct pw_schema **slot = &w->by_key[k][tb][pid64][tid64];
	struct pw_schema *s = *slot;
	uint64_t n = 0;

	if (s)
		return s;
	for (s = w->first; s; s = s->next)
		n++;
	s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	pl_layout_init(&s->l, k, pid64, tid64);
	s->tb = tb;
	s->id = PL_SCHEMA_ID_STATIC_START + n;
	if (grow(&s->flex, &s->flex_cap, 1)) {
		free(s);
		return NULL;
	}
	s->flex[0] = 0;
	s->flex_len = 1;
	*w->last = s;
	w->last = &s->next;
	*slot = s;
	if (tb != PW_NO_TB)
		w->tb_used |= 1u << tb;
	return s;
}

static int pw_flush_one(struct nvtxt_payload_writer *w, struct pw_schema *s)
{
	unsigned char h[PL_BATCH_HEADER_SIZE];
	size_t size = s->nev * s->l.stride;

	if (!s->nev)
		return 0;
	pl_put64(h, s->id);
	pl_put64(h + 8, size);
	pl_put64(h + 16, PL_BATCH_HEADER_SIZE);
	pl_put64(h + 24, PL_SCOPE_NONE);
	pl_put64(h + 32, s->unsorted ? PL_BATCH_UNSORTED : PL_BATCH_TIME_SORTED);
	pl_put64(h + 40, PL_BATCH_HEADER_SIZE + (uint64_t)size);
	pl_put64(h + 48, s->flex_len);
	pl_put64(h + 56, 0);
	if (pw_section(w, PL_SEC_BATCH, h, sizeof h, s->ev, size, s->flex, s->flex_len))
		return -1;
	s->nev = 0;
	s->flex_len = 1;
	s->unsorted = false;
	s->dedup_n = 0;
	/* Big buffers go, so that memory stays bounded by one batch's worth. */
	if (s->ev_cap > PW_KEEP_BYTES) {
		free(s->ev);
		s->ev = NULL;
		s->ev_cap = 0;
	}
	if (s->flex_cap > PW_KEEP_BYTES) {
		unsigned char *p = realloc(s->flex, 1);
		if (p) {
			s->flex = p;
			s->flex_cap = 1;
		}
	}
	if (s->dedup_cap * sizeof *s->dedup > PW_KEEP_BYTES) {
		free(s->dedup);
		s->dedup = NULL;
		s->dedup_cap = 0;
	} else if (s->dedup_cap) {
		memset(s->dedup, 0, s->dedup_cap * sizeof *s->dedup);
	}
	return 0;
}

static int pw_flush(struct nvtxt_payload_writer *w)
{
	for (struct pw_schema *s = w->first; s; s = s->next)
		if (pw_flush_one(w, s))
			return -1;
	w->pending_events = 0;
	w->pending_bytes = 0;
	return 0;
}

/* A record being filled in. */
struct pw_rec {
	struct pw_schema *s;
	unsigned char *p;
};

static void put(struct pw_rec *r, enum pl_role role, uint64_t v)
{
	int i = r->s->l.at[role];

	if (i < 0)
		return;
	if (r->s->l.e[i].size == 8)
		pl_put64(r->p + r->s->l.e[i].offset, v);
	else
		pl_put32(r->p + r->s->l.e[i].offset, (uint32_t)v);
}

static size_t hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3u;
	return (size_t)h;
}

/*
 * The slot of a string in the batch's table of flexData strings: the slot
 * that holds it, or the empty slot where it goes.
 */
static size_t *dedup_slot(struct pw_schema *s, const char *p, size_t n)
{
	size_t mask = s->dedup_cap - 1, i = hash(p, n) & mask;

	while (s->dedup[i]) {
		const char *q = (const char *)s->flex + s->dedup[i];
		if (strlen(q) == n && !memcmp(q, p, n))
			break;
		i = (i + 1) & mask;
	}
	return &s->dedup[i];
}

/* Keeps the table at most half full. */
static int dedup_grow(struct pw_schema *s)
{
	size_t *old = s->dedup, cap = s->dedup_cap;

	if (2 * (s->dedup_n + 1) <= cap)
		return 0;
	s->dedup_cap = cap ? 2 * cap : 64;
	s->dedup = calloc(s->dedup_cap, sizeof *s->dedup);
	if (!s->dedup) {
		s->dedup = old;
		s->dedup_cap = cap;
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		if (old[i]) {
			const char *q = (const char *)s->flex + old[i];
			*dedup_slot(s, q, strlen(q)) = old[i];
		}
	free(old);
	return 0;
}

/*
 * Stores the offset of a string in flexData, appending a NUL-terminated
 * copy unless the batch already holds it.
 */
static int put_str(struct nvtxt_payload_writer *w, struct pw_rec *r, enum pl_role role,
		   struct nvtxt_str str)
{
	struct pw_schema *s = r->s;
	size_t off = s->flex_len, *slot;

	if (str.len == 0) {
		put(r, role, 0); /* the NUL at byte 0 */
		return 0;
	}
	if (memchr(str.ptr, 0, str.len)) {
		errno = EINVAL;
		return -1;
	}
	if (dedup_grow(s))
		return -1;
	slot = dedup_slot(s, str.ptr, str.len);
	if (*slot) {
		put(r, role, *slot);
		return 0;
	}
	if (str.len >= SIZE_MAX - off || grow(&s->flex, &s->flex_cap, off + str.len + 1))
		return -1;
	memcpy(s->flex + off, str.ptr, str.len);
	s->flex[off + str.len] = 0;
	s->flex_len += str.len + 1;
	w->pending_bytes += str.len + 1;
	*slot = off;
	s->dedup_n++;
	put(r, role, off);
	return 0;
}

/* Starts a record of `k`: finds the schema, reserves a zeroed slot. */
static int pw_begin(struct nvtxt_payload_writer *w, struct pw_rec *r, enum pl_kind k,
		    unsigned tb, int64_t pid, int64_t tid, uint64_t ordinal)
{
	struct pw_schema *s;

	s = pw_schema_get(w, k, tb, (uint64_t)pid > UINT32_MAX, (uint64_t)tid > UINT32_MAX);
	if (!s || grow(&s->ev, &s->ev_cap, (s->nev + 1) * s->l.stride))
		return -1;
	r->s = s;
	r->p = s->ev + s->nev * s->l.stride;
	memset(r->p, 0, s->l.stride);
	s->nev++;
	w->pending_events++;
	w->pending_bytes += s->l.stride;
	put(r, PL_R_ORDINAL, ordinal);
	put(r, PL_R_PID, (uint64_t)pid);
	put(r, PL_R_TID, (uint64_t)tid);
	return 0;
}

/* The timestamp that orders a batch: the record's first. */
static void pw_ts(struct pw_rec *r, int64_t ts)
{
	struct pw_schema *s = r->s;

	if (s->nev > 1 && ts < s->last_ts)
		s->unsorted = true;
	s->last_ts = ts;
}

/* The optional arguments of Marker, RangePush and RangeStartEnd. */
static int pw_optional(struct nvtxt_payload_writer *w, struct pw_rec *r,
		       const struct nvtxt_event *ev)
{
	uint32_t present = 0;

	if (ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) {
		present |= PL_PRESENT_CATEGORY;
		put(r, PL_R_CATEGORY, ev->category_id);
	}
	if (ev->present & NVTXT_BIT(NVTXT_ARG_COLOR)) {
		present |= PL_PRESENT_COLOR;
		put(r, PL_R_COLOR, ev->color);
	}
	if (ev->present & NVTXT_BIT(NVTXT_ARG_PAYLOAD)) {
		present |= PL_PRESENT_PAYLOAD;
		put(r, PL_R_PAYLOAD, (uint64_t)ev->payload);
	}
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) {
		present |= PL_PRESENT_MESSAGE;
		if (put_str(w, r, PL_R_MESSAGE, ev->message))
			return -1;
	}
	put(r, PL_R_PRESENT, present);
	return 0;
}

/* A push/pop range; pop == NULL for a push never popped. */
static int pw_range(struct nvtxt_payload_writer *w, const struct nvtxt_event *push,
		    const struct nvtxt_event *pop)
{
	struct pw_rec r;

	if (push->command != NVTXT_CMD_RANGE_PUSH || (unsigned)push->timebase >= NVTXT_TB_COUNT ||
	    (pop && (pop->timebase != push->timebase || pop->ordinal <= push->ordinal))) {
		errno = EINVAL;
		return -1;
	}
	if (pw_begin(w, &r, PL_K_PUSH_POP, push->timebase, push->process_id,
		     push->thread_id, push->ordinal))
		return -1;
	put(&r, PL_R_START, (uint64_t)push->time);
	put(&r, PL_R_END, (uint64_t)(pop ? pop->time : push->time));
	put(&r, PL_R_POP_ORDINAL, pop ? pop->ordinal : PL_NO_POP);
	pw_ts(&r, push->time);
	return pw_optional(w, &r, push);
}

static int pw_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_payload_writer *w = user;
	struct pw_rec r;
	int rc = 0;

	if (w->failed)
		return -1;
	if (ev->ordinal != w->next_ordinal ||
	    ((ev->command == NVTXT_CMD_MARKER || ev->command == NVTXT_CMD_RANGE_START_END) &&
	     (unsigned)ev->timebase >= NVTXT_TB_COUNT)) {
		errno = EINVAL;
		goto fail;
	}
	w->next_ordinal++;
	switch (ev->command) {
	case NVTXT_CMD_MARKER:
		rc = pw_begin(w, &r, PL_K_MARKER, ev->timebase, ev->process_id,
			      ev->thread_id, ev->ordinal);
		if (!rc) {
			put(&r, PL_R_TIME, (uint64_t)ev->time);
			pw_ts(&r, ev->time);
			rc = pw_optional(w, &r, ev);
		}
		break;
	case NVTXT_CMD_RANGE_START_END:
		rc = pw_begin(w, &r, PL_K_START_END, ev->timebase, ev->process_id,
			      ev->thread_id, ev->ordinal);
		if (!rc) {
			put(&r, PL_R_START, (uint64_t)ev->start);
			put(&r, PL_R_END, (uint64_t)ev->end);
			pw_ts(&r, ev->start);
			rc = pw_optional(w, &r, ev);
		}
		break;
	case NVTXT_CMD_RANGE_PUSH:
		break; /* written with its pop, or at end of file */
	case NVTXT_CMD_RANGE_POP:
		if (!ev->push) {
			errno = EINVAL;
			goto fail;
		}
		rc = pw_range(w, ev->push, ev);
		break;
	case NVTXT_CMD_NAME_CATEGORY:
		rc = pw_begin(w, &r, PL_K_NAME_CATEGORY, PW_NO_TB, 0, 0, ev->ordinal);
		if (!rc) {
			put(&r, PL_R_CATEGORY, ev->category_id);
			rc = put_str(w, &r, PL_R_NAME, ev->name);
		}
		break;
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		rc = pw_begin(w, &r, PL_K_ADD_CHILD_CATEGORY, PW_NO_TB, 0, 0, ev->ordinal);
		if (!rc) {
			put(&r, PL_R_PARENT, ev->parent_category_id);
			put(&r, PL_R_CATEGORY, ev->category_id);
		}
		break;
	case NVTXT_CMD_NAME_OS_THREAD:
		rc = pw_begin(w, &r, PL_K_NAME_OS_THREAD, PW_NO_TB, ev->process_id,
			      ev->thread_id, ev->ordinal);
		if (!rc)
			rc = put_str(w, &r, PL_R_NAME, ev->name);
		break;
	case NVTXT_CMD_NAME_PROCESS:
		rc = pw_begin(w, &r, PL_K_NAME_PROCESS, PW_NO_TB, ev->process_id, 0,
			      ev->ordinal);
		if (!rc)
			rc = put_str(w, &r, PL_R_NAME, ev->name);
		break;
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		rc = pw_begin(w, &r, PL_K_SET_FILE_DISPLAY_NAME, PW_NO_TB, 0, 0, ev->ordinal);
		if (!rc)
			rc = put_str(w, &r, PL_R_NAME, ev->name);
		break;
	default:
		errno = EINVAL;
		goto fail;
	}
	if (rc)
		goto fail;
	if ((w->pending_events >= PW_FLUSH_EVENTS || w->pending_bytes >= PW_FLUSH_BYTES) &&
	    pw_flush(w))
		goto fail;
	return 0;
fail:
	w->failed = true;
	return -1;
}

static int pw_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_payload_writer *w = user;

	if (w->failed || pw_range(w, push, NULL)) {
		w->failed = true;
		return -1;
	}
	return 0;
}

/* The time-domain record of a TimeBase. */
static void pw_time_domain(unsigned char *p, unsigned tb)
{
	struct pl_time_domain d = pl_time_domain_of(tb);

	pl_put64(p, d.scope);
	pl_put64(p + 8, d.timestamp_type);
	pl_put64(p + 16, PL_TIME_DOMAIN_ID_STATIC_START + tb);
	pl_put64(p + 24, d.flags);
	pl_put64(p + 32, (uint64_t)d.resolution);
	pl_put64(p + 40, d.start);
	pl_put64(p + 48, tb);
}

static int pw_schema_section(struct nvtxt_payload_writer *w, const struct pw_schema *s)
{
	const struct pl_layout *l = &s->l;
	unsigned char body[PL_SCHEMA_ATTR_SIZE + PL_MAX_ENTRIES * PL_SCHEMA_ENTRY_SIZE];
	char strings[2048];
	size_t head = PL_SCHEMA_ATTR_SIZE + l->n * PL_SCHEMA_ENTRY_SIZE, slen = 0;
	int n;

	memset(body, 0, sizeof body);
	/* The schema name: "<kind>" or "<kind> <TimeBase>". */
	if (s->tb == PW_NO_TB)
		n = snprintf(strings, sizeof strings, "%s", pl_kind_name(l->kind));
	else
		n = snprintf(strings, sizeof strings, "%s %s", pl_kind_name(l->kind),
			     nvtxt_timebase_name(s->tb));
	slen = (size_t)n + 1;
	pl_put64(body, PL_SCHEMA_FIELD_MASK);
	pl_put64(body + 8, head);
	pl_put64(body + 16, PL_SCHEMA_TYPE_STATIC);
	pl_put64(body + 24, l->schema_flags);
	pl_put64(body + 32, PL_SCHEMA_ATTR_SIZE);
	pl_put64(body + 40, l->n);
	pl_put64(body + 48, l->stride);
	pl_put64(body + 56, PL_PACK_ALIGN);
	pl_put64(body + 64, s->id);
	for (size_t i = 0; i < l->n; i++) {
		const struct pl_entry *e = &l->e[i];
		unsigned char *p = body + PL_SCHEMA_ATTR_SIZE + i * PL_SCHEMA_ENTRY_SIZE;
		size_t nl = strlen(e->name) + 1, dl = strlen(e->description) + 1;

		pl_put64(p, e->flags);
		pl_put64(p + 8, e->type);
		pl_put64(p + 16, head + slen);
		memcpy(strings + slen, e->name, nl);
		slen += nl;
		pl_put64(p + 24, head + slen);
		memcpy(strings + slen, e->description, dl);
		slen += dl;
		pl_put64(p + 40, e->offset);
		if (e->flags & PL_EF_TIMESTAMP)
			pl_put64(p + 48, PL_TIME_DOMAIN_ID_STATIC_START + s->tb);
	}
	return pw_section(w, PL_SEC_SCHEMA, body, head, strings, slen, NULL, 0);
}

static int pw_finish(void *user)
{
	struct nvtxt_payload_writer *w = user;
	unsigned char h[PL_HEADER_SIZE];
	unsigned char tds[PW_NO_TB * PL_TIME_DOMAIN_SIZE];
	size_t ntd = 0;

	if (w->failed || pw_flush(w))
		goto fail;
	for (unsigned tb = 0; tb < PW_NO_TB; tb++)
		if (w->tb_used & (1u << tb))
			pw_time_domain(tds + PL_TIME_DOMAIN_SIZE * ntd++, tb);
	if (ntd && pw_section(w, PL_SEC_TIME_DOMAINS, tds, ntd * PL_TIME_DOMAIN_SIZE,
			      NULL, 0, NULL, 0))
		goto fail;
	for (struct pw_schema *s = w->first; s; s = s->next)
		if (pw_schema_section(w, s))
			goto fail;
	memset(h, 0, sizeof h);
	memcpy(h, PL_MAGIC, PL_MAGIC_LEN);
	pl_put32(h + 8, PL_BOM);
	h[12] = PL_VERSION_MAJOR, h[13] = 0;
	h[14] = PL_VERSION_MINOR, h[15] = 0;
	pl_put32(h + 16, PL_HEADER_SIZE);
	pl_put64(h + 24, w->off);
	pl_put64(h + 32, w->next_ordinal);
	pl_put64(h + 40, w->nsections);
	pl_put64(h + 48, PL_NVTX_PAYLOAD_COMPATID);
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
	struct nvtxt_backend be = { w, pw_event, pw_unclosed, pw_finish };
	return be;
}
