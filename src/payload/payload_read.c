/*
 * payload_read.c - validates a payload file (nvtxt-payload(5)) and
 * re-creates its calls in file order.
 *
 * Nothing is trusted: every size, offset, count, string and ordinal is
 * checked before use, against the exact layouts of payload_layout.h, so a
 * truncated, corrupt or hostile image gets a one-line error naming the
 * offset, what was expected and what was found.  All loads go through
 * pl_get32/pl_get64, so the image may have any alignment and the host any
 * byte order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "payload_layout.h"
#include "util.h"

static int fail(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!errlen)
		return -1;
	n = snprintf(err, errlen, "offset %" PRIu64 ": ", off);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF). */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			need = 1, cp = c & 0x1F;
		else if (c >= 0xE0 && c <= 0xEF)
			need = 2, cp = c & 0x0F;
		else if (c >= 0xF0 && c <= 0xF4)
			need = 3, cp = c & 0x07;
		else
			return false;
		if (n - i <= need)
			return false;
		for (unsigned k = 1; k <= need; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3F);
		}
		if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
		    (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
			return false;
		i += need + 1;
	}
	return true;
}

/*
 * A string at `off` in a blob of `size` bytes at file offset `base`: it
 * must end with a NUL inside the blob and be valid UTF-8 that NVTXT can
 * write (no line break, not both kinds of quote).  Returns its length or
 * -1 (message in err).
 */
static int64_t pr_string(const unsigned char *blob, uint64_t size, uint64_t off,
			 uint64_t base, const char *what, char *err, size_t errlen)
{
	const unsigned char *s, *end;
	size_t n;

	if (off >= size)
		return fail(err, errlen, base, "%s: expected a string offset below %" PRIu64
			    ", found %" PRIu64, what, size, off);
	s = blob + off;
	end = memchr(s, 0, (size_t)(size - off));
	if (!end)
		return fail(err, errlen, base + off, "%s: expected a NUL-terminated string, "
			    "found none before the end of its blob", what);
	n = (size_t)(end - s);
	if (!utf8_valid(s, n))
		return fail(err, errlen, base + off, "%s: expected UTF-8, found an invalid "
			    "byte sequence", what);
	if (memchr(s, '\n', n) || memchr(s, '\r', n))
		return fail(err, errlen, base + off, "%s: expected a string without line "
			    "breaks, found one", what);
	if (memchr(s, '"', n) && memchr(s, '\'', n))
		return fail(err, errlen, base + off, "%s: expected a string without both "
			    "kinds of quote, found both", what);
	return (int64_t)n;
}

const struct pr_schema *pr_schema_find(const struct nvtxt_payload_reader *r, uint64_t id)
{
	for (size_t i = 0; i < r->nschemas; i++)
		if (r->schemas[i].id == id)
			return &r->schemas[i];
	return NULL;
}

uint64_t pr_field(const struct pr_schema *s, const unsigned char *rec, enum pl_role role)
{
	int i = s->l.at[role];

	if (i < 0)
		return 0;
	return s->l.e[i].size == 8 ? pl_get64(rec + s->l.e[i].offset)
				   : pl_get32(rec + s->l.e[i].offset);
}

static int pr_time_domains(struct nvtxt_payload_reader *r, const unsigned char *body,
			   uint64_t len, uint64_t off, char *err, size_t errlen)
{
	if (r->ntd || len % PL_TIME_DOMAIN_SIZE || len / PL_TIME_DOMAIN_SIZE > NVTXT_TB_COUNT)
		return fail(err, errlen, off, "time domains: expected one section of at most %d "
			    "records of %u bytes, found %s%" PRIu64 " bytes", NVTXT_TB_COUNT,
			    PL_TIME_DOMAIN_SIZE, r->ntd ? "another section of " : "", len);
	for (uint64_t i = 0; i < len / PL_TIME_DOMAIN_SIZE; i++) {
		const unsigned char *p = body + i * PL_TIME_DOMAIN_SIZE;
		uint64_t o = off + PL_SECTION_HEADER_SIZE + i * PL_TIME_DOMAIN_SIZE;
		uint64_t tb = pl_get64(p + 48), id = pl_get64(p + 16), type = pl_get64(p + 8);

		if (tb >= NVTXT_TB_COUNT)
			return fail(err, errlen, o + 48, "time domain %" PRIu64 ": expected a "
				    "TimeBase code 0..%d, found %" PRIu64, i, NVTXT_TB_COUNT - 1, tb);
		if (type != pl_time_domain_of((unsigned)tb).timestamp_type)
			return fail(err, errlen, o + 8, "time domain %" PRIu64 " (%s): expected "
				    "timestamp type %" PRIu64 ", found %" PRIu64, i,
				    nvtxt_timebase_name((enum nvtxt_timebase)tb),
				    pl_time_domain_of((unsigned)tb).timestamp_type, type);
		{
			/* the fields the page fixes for each TimeBase */
			struct pl_time_domain want = pl_time_domain_of((unsigned)tb);
			if (pl_get64(p) != want.scope || pl_get64(p + 24) != want.flags ||
			    (int64_t)pl_get64(p + 32) != want.resolution || pl_get64(p + 40) != want.start)
				return fail(err, errlen, o, "time domain %" PRIu64 " (%s): expected scope %"
					    PRIu64 ", timer flags %" PRIu64 ", resolution %" PRId64
					    " and timer start %" PRIu64 ", found %" PRIu64 ", %" PRIu64
					    ", %" PRId64 " and %" PRIu64, i,
					    nvtxt_timebase_name((enum nvtxt_timebase)tb), want.scope,
					    want.flags, want.resolution, want.start, pl_get64(p),
					    pl_get64(p + 24), (int64_t)pl_get64(p + 32), pl_get64(p + 40));
		}
		if (id != PL_TIME_DOMAIN_ID_STATIC_START + tb)
			return fail(err, errlen, o + 16, "time domain %" PRIu64 ": expected the ID "
				    "2^24 + TimeBase code = %" PRIu64 ", found %" PRIu64, i,
				    PL_TIME_DOMAIN_ID_STATIC_START + tb, id);
		for (size_t j = 0; j < r->ntd; j++)
			if (r->td[j].id == id || r->td[j].tb == tb)
				return fail(err, errlen, o, "time domain %" PRIu64 ": expected a "
					    "new ID and TimeBase, found those of time domain %zu",
					    i, j);
		r->td[r->ntd].id = id;
		r->td[r->ntd].tb = (unsigned)tb;
		r->td[r->ntd].rec = p;
		r->td[r->ntd].off = o;
		r->ntd++;
	}
	return 0;
}

static int pr_schema(struct nvtxt_payload_reader *r, const unsigned char *body,
		     uint64_t len, uint64_t off, char *err, size_t errlen)
{
	struct pr_schema *s = &r->schemas[r->nschemas];
	uint64_t o = off + PL_SECTION_HEADER_SIZE, v, nent, eoff;
	const char *name, *sp;
	size_t klen;
	enum pl_kind kind = PL_K_COUNT;
	int tb = PR_NO_TB;

	if (len < PL_SCHEMA_ATTR_SIZE)
		return fail(err, errlen, o, "schema: expected at least %u bytes, found %" PRIu64,
			    PL_SCHEMA_ATTR_SIZE, len);
	memset(s, 0, sizeof *s);
	s->body = body;
	s->body_len = len;
	s->off = o;
	if ((v = pl_get64(body)) != PL_SCHEMA_FIELD_MASK)
		return fail(err, errlen, o, "schema: expected field mask 0x%x, found 0x%" PRIx64,
			    PL_SCHEMA_FIELD_MASK, v);
	s->id = pl_get64(body + 64);
	if (s->id < PL_SCHEMA_ID_STATIC_START || s->id >= PL_SCHEMA_ID_DYNAMIC_START)
		return fail(err, errlen, o + 64, "schema: expected a static ID in [2^24, 2^32), "
			    "found %" PRIu64, s->id);
	if (pr_schema_find(r, s->id))
		return fail(err, errlen, o + 64, "schema %" PRIu64 ": expected a new ID, found "
			    "one already defined", s->id);
	if ((v = pl_get64(body + 16)) != PL_SCHEMA_TYPE_STATIC)
		return fail(err, errlen, o + 16, "schema %" PRIu64 ": expected type %u (STATIC), "
			    "found %" PRIu64, s->id, PL_SCHEMA_TYPE_STATIC, v);
	if (pr_string(body, len, pl_get64(body + 8), o, "schema name", err, errlen) < 0)
		return -1;
	name = (const char *)body + pl_get64(body + 8);
	sp = strchr(name, ' ');
	klen = sp ? (size_t)(sp - name) : strlen(name);
	for (enum pl_kind k = 0; k < PL_K_COUNT; k++)
		if (strlen(pl_kind_name(k)) == klen && !memcmp(name, pl_kind_name(k), klen))
			kind = k;
	if (kind < PL_K_COUNT && pl_kind_timed(kind) && sp)
		tb = nvtxt_timebase_lookup(sp + 1, strlen(sp + 1));
	if (kind == PL_K_COUNT || (pl_kind_timed(kind) ? tb < 0 : sp != NULL))
		return fail(err, errlen, o + pl_get64(body + 8), "schema %" PRIu64 ": expected "
			    "a name \"<command> <TimeBase>\" or \"<naming command>\", found \"%s\"",
			    s->id, name);
	pl_layout_init(&s->l, kind, false, false);
	s->tb = (unsigned)tb;
	if ((v = pl_get64(body + 24)) != s->l.schema_flags)
		return fail(err, errlen, o + 24, "schema %" PRIu64 " (%s): expected flags 0x%x, "
			    "found 0x%" PRIx64, s->id, name, s->l.schema_flags, v);
	eoff = pl_get64(body + 32);
	nent = pl_get64(body + 40);
	if (eoff < PL_SCHEMA_ATTR_SIZE || eoff % 8 || eoff > len ||
	    nent > (len - eoff) / PL_SCHEMA_ENTRY_SIZE)
		return fail(err, errlen, o + 32, "schema %" PRIu64 ": expected entries inside the "
			    "section (%" PRIu64 " bytes), found %" PRIu64 " entries at %" PRIu64,
			    s->id, len, nent, eoff);
	if (nent != s->l.n)
		return fail(err, errlen, o + 40, "schema %" PRIu64 " (%s): expected %zu entries, "
			    "found %" PRIu64, s->id, name, s->l.n, nent);
	s->entries = body + eoff;
	/* The widths of ProcessId and ThreadId are the schema's choice. */
	if (s->l.at[PL_R_PID] >= 0 &&
	    pl_get64(s->entries + (size_t)s->l.at[PL_R_PID] * PL_SCHEMA_ENTRY_SIZE + 8) ==
	    PL_T_PID_UINT64)
		s->l.pid64 = true;
	if (s->l.at[PL_R_TID] >= 0 &&
	    pl_get64(s->entries + (size_t)s->l.at[PL_R_TID] * PL_SCHEMA_ENTRY_SIZE + 8) ==
	    PL_T_TID_UINT64)
		s->l.tid64 = true;
	pl_layout_init(&s->l, kind, s->l.pid64, s->l.tid64);
	for (size_t i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		const unsigned char *p = s->entries + i * PL_SCHEMA_ENTRY_SIZE;
		uint64_t eo = o + eoff + i * PL_SCHEMA_ENTRY_SIZE, td = 0;
		const char *ename;

		if (pr_string(body, len, pl_get64(p + 16), o, "entry name", err, errlen) < 0 ||
		    (pl_get64(p + 24) &&
		     pr_string(body, len, pl_get64(p + 24), o, "entry description", err, errlen) < 0))
			return -1;
		ename = (const char *)body + pl_get64(p + 16);
		if (e->flags & PL_EF_TIMESTAMP) {
			for (size_t j = 0; j < r->ntd; j++)
				if (r->td[j].tb == (unsigned)tb)
					td = r->td[j].id;
			if (!td)
				return fail(err, errlen, eo + 48, "schema %" PRIu64 " (%s): expected "
					    "a time domain for %s, found none", s->id, name,
					    nvtxt_timebase_name((enum nvtxt_timebase)tb));
		}
		if (strcmp(ename, e->name) || pl_get64(p) != e->flags ||
		    pl_get64(p + 8) != e->type || pl_get64(p + 32) != 0 ||
		    pl_get64(p + 40) != e->offset || pl_get64(p + 48) != td ||
		    pl_get64(p + 56) != 0)
			return fail(err, errlen, eo, "schema %" PRIu64 " (%s) entry %zu: expected "
				    "%s: flags 0x%x, type %u, offset %u, time domain %" PRIu64
				    ", found %s: flags 0x%" PRIx64 ", type %" PRIu64 ", offset %"
				    PRIu64 ", time domain %" PRIu64 ", detail %" PRIu64
				    ", reserved %" PRIu64, s->id, name, i, e->name, e->flags,
				    e->type, e->offset, td, ename, pl_get64(p), pl_get64(p + 8),
				    pl_get64(p + 40), pl_get64(p + 48), pl_get64(p + 32),
				    pl_get64(p + 56));
	}
	if ((v = pl_get64(body + 48)) != s->l.stride)
		return fail(err, errlen, o + 48, "schema %" PRIu64 " (%s): expected static size "
			    "%u, found %" PRIu64, s->id, name, s->l.stride, v);
	if ((v = pl_get64(body + 56)) != PL_PACK_ALIGN || pl_get64(body + 72))
		return fail(err, errlen, o + 56, "schema %" PRIu64 " (%s): expected packAlign %u "
			    "and no extension, found %" PRIu64 " and 0x%" PRIx64, s->id, name,
			    PL_PACK_ALIGN, v, pl_get64(body + 72));
	for (size_t j = 0; j < r->nschemas; j++)
		if (r->schemas[j].l.kind == s->l.kind && r->schemas[j].tb == s->tb &&
		    r->schemas[j].l.pid64 == s->l.pid64 && r->schemas[j].l.tid64 == s->l.tid64)
			return fail(err, errlen, o, "schema %" PRIu64 " (%s): expected a new "
				    "layout, found the one of schema %" PRIu64, s->id, name,
				    r->schemas[j].id);
	s->name = name;
	r->nschemas++;
	return 0;
}

/* Claims an ordinal for a record. */
static int pr_claim(struct nvtxt_payload_reader *r, uint64_t ord, const struct pr_batch *b,
		    const unsigned char *rec, uint8_t role, uint64_t o, char *err, size_t errlen)
{
	if (ord >= r->nevents)
		return fail(err, errlen, o, "expected an ordinal below %" PRIu64 ", found %"
			    PRIu64, r->nevents, ord);
	if (r->slots[ord].rec)
		return fail(err, errlen, o, "expected ordinal %" PRIu64 " once, found it twice",
			    ord);
	r->slots[ord].rec = rec;
	r->slots[ord].batch = b;
	r->slots[ord].role = role;
	return 0;
}

static int pr_record(struct nvtxt_payload_reader *r, const struct pr_batch *b,
		     const unsigned char *rec, uint64_t o, char *err, size_t errlen)
{
	const struct pr_schema *s = b->s;
	const struct pl_layout *l = &s->l;
	uint64_t present = pr_field(s, rec, PL_R_PRESENT), pop;
	int64_t t0 = (int64_t)pr_field(s, rec, l->kind == PL_K_MARKER ? PL_R_TIME : PL_R_START);
	int64_t t1 = (int64_t)pr_field(s, rec, PL_R_END);

#define AT(role) (o + l->e[l->at[role]].offset)
	if (l->at[PL_R_PRESENT] >= 0) {
		static const struct { uint32_t bit; enum pl_role role; } opt[] = {
			{ PL_PRESENT_CATEGORY, PL_R_CATEGORY }, { PL_PRESENT_COLOR, PL_R_COLOR },
			{ PL_PRESENT_MESSAGE, PL_R_MESSAGE }, { PL_PRESENT_PAYLOAD, PL_R_PAYLOAD },
		};
		if (present & ~(uint64_t)PL_PRESENT_ALL)
			return fail(err, errlen, AT(PL_R_PRESENT), "expected presence bits within "
				    "0x%x, found 0x%" PRIx64, PL_PRESENT_ALL, present);
		for (size_t i = 0; i < 4; i++)
			if (!(present & opt[i].bit) && pr_field(s, rec, opt[i].role))
				return fail(err, errlen, AT(opt[i].role), "expected 0 in absent "
					    "%s, found %" PRIu64, l->e[l->at[opt[i].role]].name,
					    pr_field(s, rec, opt[i].role));
	}
	if (pl_kind_timed(l->kind) && s->tb != NVTXT_TB_RELATIVE && (t0 < 0 || t1 < 0))
		return fail(err, errlen, o, "expected timestamps >= 0 with TimeBase %s, found %"
			    PRId64, nvtxt_timebase_name(s->tb), t0 < 0 ? t0 : t1);
	if ((l->kind == PL_K_START_END || l->kind == PL_K_PUSH_POP) && t0 > t1)
		return fail(err, errlen, AT(PL_R_END), "expected a range end >= its start %" PRId64
			    ", found %" PRId64, t0, t1);
	if ((l->pid64 && pr_field(s, rec, PL_R_PID) > INT64_MAX) ||
	    (l->tid64 && pr_field(s, rec, PL_R_TID) > INT64_MAX))
		return fail(err, errlen, o, "expected process and thread IDs below 2^63, "
			    "found %" PRIu64 " and %" PRIu64, pr_field(s, rec, PL_R_PID),
			    pr_field(s, rec, PL_R_TID));
	if (l->at[PL_R_MESSAGE] >= 0 &&
	    pr_string(b->flex, b->flex_size, pr_field(s, rec, PL_R_MESSAGE), b->flex_off,
		      "message", err, errlen) < 0)
		return -1;
	if (l->at[PL_R_NAME] >= 0) {
		if (pr_string(b->flex, b->flex_size, pr_field(s, rec, PL_R_NAME), b->flex_off,
			      "name", err, errlen) < 0)
			return -1;
		if (l->kind == PL_K_SET_FILE_DISPLAY_NAME) {
			uint64_t ord = pr_field(s, rec, PL_R_ORDINAL);
			if (!r->display_name || ord >= r->display_ordinal) {
				r->display_name = (const char *)b->flex + pr_field(s, rec, PL_R_NAME);
				r->display_ordinal = ord;
			}
		}
	}
	if (pr_claim(r, pr_field(s, rec, PL_R_ORDINAL), b, rec, PR_WHOLE, AT(PL_R_ORDINAL),
		     err, errlen))
		return -1;
	if (l->kind == PL_K_PUSH_POP) {
		r->slots[pr_field(s, rec, PL_R_ORDINAL)].role = PR_PUSH;
		pop = pr_field(s, rec, PL_R_POP_ORDINAL);
		if (pop == PL_NO_POP) {
			if (t1 != t0)
				return fail(err, errlen, AT(PL_R_END), "expected PopTime = Time %"
					    PRId64 " for a push never popped, found %" PRId64, t0, t1);
		} else if (pop <= pr_field(s, rec, PL_R_ORDINAL)) {
			return fail(err, errlen, AT(PL_R_POP_ORDINAL), "expected a pop ordinal "
				    "after the push's %" PRIu64 ", found %" PRIu64,
				    pr_field(s, rec, PL_R_ORDINAL), pop);
		} else if (pr_claim(r, pop, b, rec, PR_POP, AT(PL_R_POP_ORDINAL), err, errlen)) {
			return -1;
		}
	}
#undef AT
	return 0;
}

static int pr_batch(struct nvtxt_payload_reader *r, const unsigned char *body,
		    uint64_t len, uint64_t off, char *err, size_t errlen)
{
	struct pr_batch *b = &r->batches[r->nbatches];
	uint64_t o = off + PL_SECTION_HEADER_SIZE, id, size, eoff, foff;

	if (len < PL_BATCH_HEADER_SIZE)
		return fail(err, errlen, o, "batch: expected at least %u bytes, found %" PRIu64,
			    PL_BATCH_HEADER_SIZE, len);
	id = pl_get64(body);
	b->s = pr_schema_find(r, id);
	if (!b->s)
		return fail(err, errlen, o, "batch: expected the ID of a schema of the file, "
			    "found %" PRIu64, id);
	size = pl_get64(body + 8);
	eoff = pl_get64(body + 16);
	if (eoff < PL_BATCH_HEADER_SIZE || eoff > len || size > len - eoff)
		return fail(err, errlen, o + 8, "batch of schema %" PRIu64 ": expected events "
			    "inside the section (%" PRIu64 " bytes) after the %u-byte batch header, "
			    "found %" PRIu64 " bytes at %" PRIu64, id, len, PL_BATCH_HEADER_SIZE,
			    size, eoff);
	if (eoff % 8)
		return fail(err, errlen, o + 16, "batch of schema %" PRIu64 ": expected an events "
			    "offset that is a multiple of 8, found %" PRIu64, id, eoff);
	if (size % b->s->l.stride)
		return fail(err, errlen, o + 8, "batch of schema %" PRIu64 ": expected a multiple "
			    "of the static size %u, found %" PRIu64 " bytes", id, b->s->l.stride,
			    size);
	foff = pl_get64(body + 40);
	b->flex_size = pl_get64(body + 48);
	if (foff < PL_BATCH_HEADER_SIZE || foff > len || b->flex_size > len - foff ||
	    pl_get64(body + 56) != 0)
		return fail(err, errlen, o + 40, "batch of schema %" PRIu64 ": expected flexData "
			    "inside the section (%" PRIu64 " bytes) after the %u-byte batch header, "
			    "with flexDataOffset 0, found %" PRIu64 " bytes at %" PRIu64
			    ", flexDataOffset %" PRIu64, id, len, PL_BATCH_HEADER_SIZE,
			    b->flex_size, foff, pl_get64(body + 56));
	b->flags = pl_get64(body + 32);
	if (b->flags & ~(uint64_t)PL_BATCH_UNSORTED)
		return fail(err, errlen, o + 32, "batch of schema %" PRIu64 ": expected batch "
			    "flags NVTX_BATCH_FLAG_*, found 0x%" PRIx64, id, b->flags);
	b->scope = pl_get64(body + 24);
	/* where the page puts the events and flexData, the scope it fixes */
	if (eoff != PL_BATCH_HEADER_SIZE || foff != eoff + size)
		return fail(err, errlen, o + 16, "batch of schema %" PRIu64 ": expected the events "
			    "at %u and flexData right after them at %" PRIu64 ", found %" PRIu64
			    " and %" PRIu64, id, PL_BATCH_HEADER_SIZE, PL_BATCH_HEADER_SIZE + size,
			    eoff, foff);
	if (b->scope != PL_SCOPE_NONE)
		return fail(err, errlen, o + 24, "batch of schema %" PRIu64 ": expected scope "
			    "NVTX_SCOPE_NONE = 0, found %" PRIu64, id, b->scope);
	if (b->flex_size == 0 || body[foff] != 0)
		return fail(err, errlen, o + foff, "batch of schema %" PRIu64 ": expected flexData "
			    "that starts with a NUL byte (the empty string), found %s", id,
			    b->flex_size ? "another byte" : "no flexData");
	b->events = body + eoff;
	b->events_off = o + eoff;
	b->nev = size / b->s->l.stride;
	b->flex = body + foff;
	b->flex_off = o + foff;
	b->off = o;
	r->nbatches++;
	for (uint64_t i = 0; i < b->nev; i++) {
		const unsigned char *rec = b->events + i * b->s->l.stride;
		int64_t ts = (int64_t)pr_field(b->s, rec, b->s->l.kind == PL_K_MARKER
					       ? PL_R_TIME : PL_R_START);

		if (pr_record(r, b, rec, b->events_off + i * b->s->l.stride, err, errlen))
			return -1;
		/* A batch that says it is sorted must be. */
		if (b->flags == PL_BATCH_TIME_SORTED && pl_kind_timed(b->s->l.kind) && i &&
		    ts < (int64_t)pr_field(b->s, rec - b->s->l.stride, b->s->l.kind ==
					   PL_K_MARKER ? PL_R_TIME : PL_R_START))
			return fail(err, errlen, b->events_off + i * b->s->l.stride, "batch of "
				    "schema %" PRIu64 ": expected events sorted by time (flag "
				    "TIME_SORTED), found %" PRId64 " after a later one", id, ts);
	}
	return 0;
}

/*
 * Push/pop pairing as nvtxt(5) defines it: on each (ProcessId, ThreadId),
 * in ordinal order, a pop closes the innermost push still open.  A file
 * whose PopOrdinals say otherwise (ranges that cross, or a pop that skips
 * a push still open inside its range) holds ranges no NVTXT file gives,
 * and is rejected at the PopOrdinal of the first wrong pop.
 */
static int pr_pairing(struct nvtxt_payload_reader *r, char *err, size_t errlen)
{
	const uint64_t none = UINT64_MAX;
	struct idmap threads = { 0 };
	uint64_t *below = malloc((r->nevents + 1) * sizeof(*below)), *tops = NULL;
	size_t ntops = 0, cap = 0;
	int rc = 0;

	if (!below)
		return fail(err, errlen, 0, "out of memory");
	for (uint64_t i = 0; i < r->nevents && rc == 0; i++) {
		const struct pr_slot *slot = &r->slots[i];
		const struct pr_schema *s;
		uint64_t pid, tid, push;
		uint32_t *t;
		int inserted;

		if (slot->role != PR_PUSH && slot->role != PR_POP)
			continue;
		s = slot->batch->s;
		pid = pr_field(s, slot->rec, PL_R_PID);
		tid = pr_field(s, slot->rec, PL_R_TID);
		t = idmap_put(&threads, pid, tid, (uint32_t)ntops, &inserted);
		if (inserted) {
			void *p = tops;
			xgrow(&p, &cap, ntops + 1, sizeof(*tops));
			tops = p;
			tops[ntops++] = none;
		}
		push = pr_field(s, slot->rec, PL_R_ORDINAL);
		if (slot->role == PR_PUSH) {
			below[i] = tops[*t];
			tops[*t] = i;
		} else if (tops[*t] != push) {
			uint64_t at = (uint64_t)(slot->rec - r->data) +
				      s->l.e[s->l.at[PL_R_POP_ORDINAL]].offset;
			rc = fail(err, errlen, at, "expected the pop at ordinal %" PRIu64 " to close "
				  "the innermost open push of thread %" PRIu64 " of process %" PRIu64
				  " (ordinal %" PRIu64 "), found it closing the push at ordinal %"
				  PRIu64 ": the ranges cross", i, tid, pid, tops[*t], push);
		} else {
			tops[*t] = below[push];
		}
	}
	idmap_free(&threads);
	free(tops);
	free(below);
	return rc;
}

int nvtxt_payload_open(struct nvtxt_payload_reader **rp, const void *data, size_t size,
		       char *err, size_t errlen)
{
	const unsigned char *d = data, *h = data;
	struct nvtxt_payload_reader *r;
	uint64_t off, n[4] = { 0 }, v, nsec = 0;

	*rp = NULL;
	if (errlen)
		err[0] = 0;
	if (!nvtxt_payload_sniff(data, size))
		return fail(err, errlen, 0, "expected the payload magic \\x89NVTXT\\r\\n, found %s",
			    size < PL_MAGIC_LEN ? "a shorter file" : "other bytes");
	if (size < PL_HEADER_SIZE)
		return fail(err, errlen, size, "expected a %u-byte header, found %zu bytes",
			    PL_HEADER_SIZE, size);
	if ((v = pl_get32(h + 8)) != PL_BOM)
		return fail(err, errlen, 8, "expected the little-endian byte-order mark "
			    "0x0A0B0C0D, found 0x%08" PRIX64 "%s", v,
			    v == 0x0D0C0B0Au ? " (a big-endian file: not supported)" : "");
	if ((v = pl_get64(h + 48)) != PL_NVTX_PAYLOAD_COMPATID)
		return fail(err, errlen, 48, "expected the payload extension compat ID 0x%04x, "
			    "found 0x%" PRIx64, PL_NVTX_PAYLOAD_COMPATID, v);
	if (h[12] + 256u * h[13] != PL_VERSION_MAJOR)
		return fail(err, errlen, 12, "expected format version %u.x, found %u.%u",
			    PL_VERSION_MAJOR, h[12] + 256u * h[13], h[14] + 256u * h[15]);
	if (pl_get32(h + 16) != PL_HEADER_SIZE || pl_get32(h + 20) || pl_get64(h + 56))
		return fail(err, errlen, 16, "expected header size %u, flags 0 and reserved 0, "
			    "found %" PRIu32 ", 0x%" PRIx32 " and 0x%" PRIx64, PL_HEADER_SIZE,
			    pl_get32(h + 16), pl_get32(h + 20), pl_get64(h + 56));
	if ((v = pl_get64(h + 24)) == 0)
		return fail(err, errlen, 24, "expected the file size in the header, found 0 "
			    "(the writer never finished)");
	if (v != size)
		return fail(err, errlen, 24, "expected a file of %" PRIu64 " bytes (the header's "
			    "size), found %zu bytes (%s)", v, size,
			    v > size ? "truncated" : "trailing data");
	/* Every ordinal takes at least 8 bytes of a record. */
	if ((v = pl_get64(h + 32)) > size / 8)
		return fail(err, errlen, 32, "expected at most %zu ordinals in %zu bytes, found %"
			    PRIu64, size / 8, size, v);
	/* Walk the sections once for their bounds and kinds. */
	for (off = PL_HEADER_SIZE; off < size; nsec++) {
		uint64_t len, type, pad;

		if (size - off < PL_SECTION_HEADER_SIZE)
			return fail(err, errlen, off, "expected a %u-byte section header, found %"
				    PRIu64 " bytes", PL_SECTION_HEADER_SIZE, size - off);
		type = pl_get32(d + off);
		len = pl_get64(d + off + 8);
		if (type < PL_SEC_TIME_DOMAINS || type > PL_SEC_BATCH || pl_get32(d + off + 4))
			return fail(err, errlen, off, "expected a section of type 1, 2 or 3 with "
				    "flags 0, found type %" PRIu64 ", flags 0x%" PRIx32, type,
				    pl_get32(d + off + 4));
		pad = -len & 7;
		if (len > size - off - PL_SECTION_HEADER_SIZE ||
		    pad > size - off - PL_SECTION_HEADER_SIZE - len)
			return fail(err, errlen, off + 8, "expected a section inside the file (%"
				    PRIu64 " bytes left), found %" PRIu64 " bytes", size - off -
				    PL_SECTION_HEADER_SIZE, len);
		for (uint64_t i = 0; i < pad; i++)
			if (d[off + PL_SECTION_HEADER_SIZE + len + i])
				return fail(err, errlen, off + PL_SECTION_HEADER_SIZE + len + i,
					    "expected zero padding, found 0x%02x",
					    d[off + PL_SECTION_HEADER_SIZE + len + i]);
		n[type]++;
		off += PL_SECTION_HEADER_SIZE + len + pad;
	}
	if (nsec != pl_get64(h + 40))
		return fail(err, errlen, 40, "expected %" PRIu64 " sections (the header's count), "
			    "found %" PRIu64, pl_get64(h + 40), nsec);
	r = calloc(1, sizeof *r);
	if (!r)
		return fail(err, errlen, 0, "out of memory");
	r->data = d;
	r->size = size;
	r->nevents = pl_get64(h + 32);
	r->nsections = nsec;
	r->schemas = calloc(n[PL_SEC_SCHEMA] + 1, sizeof *r->schemas);
	r->batches = calloc(n[PL_SEC_BATCH] + 1, sizeof *r->batches);
	r->slots = calloc(r->nevents + 1, sizeof *r->slots);
	if (!r->schemas || !r->batches || !r->slots) {
		nvtxt_payload_reader_free(r);
		return fail(err, errlen, 0, "out of memory");
	}
	/* Time domains, then schemas (which refer to them), then batches. */
	for (unsigned pass = PL_SEC_TIME_DOMAINS; pass <= PL_SEC_BATCH; pass++) {
		for (off = PL_HEADER_SIZE; off < size;) {
			uint64_t type = pl_get32(d + off), len = pl_get64(d + off + 8);
			const unsigned char *body = d + off + PL_SECTION_HEADER_SIZE;
			int rc = 0;

			if (type == pass && pass == PL_SEC_TIME_DOMAINS)
				rc = pr_time_domains(r, body, len, off, err, errlen);
			else if (type == pass && pass == PL_SEC_SCHEMA)
				rc = pr_schema(r, body, len, off, err, errlen);
			else if (type == pass)
				rc = pr_batch(r, body, len, off, err, errlen);
			if (rc) {
				nvtxt_payload_reader_free(r);
				return -1;
			}
			off += PL_SECTION_HEADER_SIZE + len + (-len & 7);
		}
	}
	for (uint64_t i = 0; i < r->nevents; i++)
		if (!r->slots[i].rec) {
			nvtxt_payload_reader_free(r);
			return fail(err, errlen, 32, "expected a record for every ordinal below %"
				    PRIu64 ", found none for %" PRIu64, pl_get64(h + 32), i);
		}
	if (pr_pairing(r, err, errlen)) {
		nvtxt_payload_reader_free(r);
		return -1;
	}
	*rp = r;
	return 0;
}

void nvtxt_payload_reader_free(struct nvtxt_payload_reader *r)
{
	if (!r)
		return;
	free(r->schemas);
	free(r->batches);
	free(r->slots);
	free(r);
}

bool nvtxt_payload_sniff(const void *data, size_t size)
{
	return size >= PL_MAGIC_LEN && !memcmp(data, PL_MAGIC, PL_MAGIC_LEN);
}

const char *nvtxt_payload_display_name(const struct nvtxt_payload_reader *r)
{
	return r->display_name;
}

static struct nvtxt_str pr_str(const struct pr_batch *b, uint64_t off)
{
	struct nvtxt_str s;

	s.ptr = (const char *)b->flex + off;
	s.len = strlen(s.ptr);
	return s;
}

void pr_event(const struct pr_slot *slot, struct nvtxt_event *ev)
{
	const struct pr_schema *s = slot->batch->s;
	const unsigned char *rec = slot->rec;
	uint64_t present = pr_field(s, rec, PL_R_PRESENT);
	static const enum nvtxt_command cmd[PL_K_COUNT] = {
		NVTXT_CMD_MARKER, NVTXT_CMD_RANGE_START_END, NVTXT_CMD_RANGE_PUSH,
		NVTXT_CMD_NAME_CATEGORY, NVTXT_CMD_ADD_CHILD_CATEGORY,
		NVTXT_CMD_NAME_OS_THREAD, NVTXT_CMD_NAME_PROCESS,
		NVTXT_CMD_SET_FILE_DISPLAY_NAME,
	};
	static const uint32_t required[PL_K_COUNT] = {
#define B(x) NVTXT_BIT(NVTXT_ARG_##x)
		B(TIME) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
		B(START) | B(END) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
		B(TIME) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
		B(CATEGORY_ID) | B(NAME),
		B(PARENT_CATEGORY_ID) | B(CATEGORY_ID),
		B(PROCESS_ID) | B(THREAD_ID) | B(NAME),
		B(PROCESS_ID) | B(NAME),
		B(NAME),
	};

	memset(ev, 0, sizeof *ev);
	ev->command = cmd[s->l.kind];
	ev->present = required[s->l.kind];
	if (present & PL_PRESENT_CATEGORY)
		ev->present |= B(CATEGORY_ID);
	if (present & PL_PRESENT_COLOR)
		ev->present |= B(COLOR);
	if (present & PL_PRESENT_MESSAGE)
		ev->present |= B(MESSAGE);
	if (present & PL_PRESENT_PAYLOAD)
		ev->present |= B(PAYLOAD);
#undef B
	ev->timebase = s->tb < NVTXT_TB_COUNT ? (enum nvtxt_timebase)s->tb : NVTXT_TB_QPC;
	ev->time = (int64_t)pr_field(s, rec, s->l.kind == PL_K_MARKER ? PL_R_TIME : PL_R_START);
	if (s->l.kind == PL_K_START_END) {
		ev->start = ev->time;
		ev->end = (int64_t)pr_field(s, rec, PL_R_END);
		ev->time = 0;
	}
	ev->process_id = (int64_t)pr_field(s, rec, PL_R_PID);
	ev->thread_id = (int64_t)pr_field(s, rec, PL_R_TID);
	ev->category_id = (uint32_t)pr_field(s, rec, PL_R_CATEGORY);
	ev->parent_category_id = (uint32_t)pr_field(s, rec, PL_R_PARENT);
	ev->color = (uint32_t)pr_field(s, rec, PL_R_COLOR);
	ev->payload = (int64_t)pr_field(s, rec, PL_R_PAYLOAD);
	if (s->l.at[PL_R_MESSAGE] >= 0)
		ev->message = pr_str(slot->batch, pr_field(s, rec, PL_R_MESSAGE));
	if (s->l.at[PL_R_NAME] >= 0)
		ev->name = pr_str(slot->batch, pr_field(s, rec, PL_R_NAME));
	ev->ordinal = pr_field(s, rec, PL_R_ORDINAL);
}

int nvtxt_payload_decompile(const struct nvtxt_payload_reader *r,
			    const struct nvtxt_backend *be, char *err, size_t errlen)
{
	struct nvtxt_event ev, push;

	for (uint64_t i = 0; i < r->nevents; i++) {
		const struct pr_slot *slot = &r->slots[i];

		pr_event(slot, &ev);
		if (slot->role == PR_POP) {
			push = ev;
			ev.command = NVTXT_CMD_RANGE_POP;
			ev.present = NVTXT_BIT(NVTXT_ARG_TIME) | NVTXT_BIT(NVTXT_ARG_TIMEBASE) |
				     NVTXT_BIT(NVTXT_ARG_PROCESS_ID) | NVTXT_BIT(NVTXT_ARG_THREAD_ID);
			ev.time = (int64_t)pr_field(slot->batch->s, slot->rec, PL_R_END);
			ev.category_id = 0;
			ev.color = 0;
			ev.payload = 0;
			ev.message.ptr = NULL;
			ev.message.len = 0;
			ev.ordinal = i;
			ev.push = &push;
		}
		if (be->event(be->user, &ev))
			goto io;
	}
	for (uint64_t i = 0; be->unclosed_push && i < r->nevents; i++) {
		const struct pr_slot *slot = &r->slots[i];

		if (slot->role != PR_PUSH ||
		    pr_field(slot->batch->s, slot->rec, PL_R_POP_ORDINAL) != PL_NO_POP)
			continue;
		pr_event(slot, &ev);
		if (be->unclosed_push(be->user, &ev))
			goto io;
	}
	if (be->finish(be->user))
		goto io;
	return 0;
io:
	if (errlen)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	return -1;
}
