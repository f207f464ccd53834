/*
 * payload_sections.c - the bodies of a payload file's sections
 * (nvtxt-payload(5)): time domains, schemas and batches, each checked
 * against the exact layouts of payload_layout.h before use, and the strings
 * they hold (NUL-terminated UTF-8 that NVTXT can write).  The order of the
 * sections, and what the reader does with them, is payload_read.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "payload_reader.h"
#include "util.h"

/*
 * The length of the UTF-8 sequence whose lead byte c >= 0x80 is at s, n
 * bytes left; 0 when it is not valid (an overlong, a surrogate, above
 * U+10FFFF, cut short).
 */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
	unsigned c = s[0], need;
	uint32_t cp;

	if (c >= 0xC2 && c <= 0xDF)
		need = 1, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		need = 2, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		need = 3, cp = c & 0x07;
	else
		return 0;
	if (n <= need)
		return 0;
	for (unsigned k = 1; k <= need; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3F);
	}
	if ((need == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return need + 1;
}

/* What NVTXT cannot write in a string, as pr_string checks it. */
enum { FLAW_UTF8 = 1, FLAW_BREAK = 2, FLAW_DQUOTE = 4, FLAW_SQUOTE = 8 };

static unsigned ascii_flaws(unsigned c)
{
	return c == '\n' || c == '\r' ? FLAW_BREAK : c == '"' ? FLAW_DQUOTE : c == '\'' ? FLAW_SQUOTE : 0;
}

#define BYTES_OF(c) (UINT64_C(0x0101010101010101) * (c))
/* Some byte of x is 0, when every byte of x is below 0x80: adding 0x7F sets bit 7 of each other byte. */
#define SOME_ZERO(x) ((((x) + BYTES_OF(0x7F)) & BYTES_OF(0x80)) != BYTES_OF(0x80))

/* The flaws of 8 ASCII bytes. */
static unsigned word_flaws(uint64_t w)
{
	return (unsigned)(SOME_ZERO(w ^ BYTES_OF('\n')) | SOME_ZERO(w ^ BYTES_OF('\r'))) * FLAW_BREAK |
	       (unsigned)SOME_ZERO(w ^ BYTES_OF('"')) * FLAW_DQUOTE |
	       (unsigned)SOME_ZERO(w ^ BYTES_OF('\'')) * FLAW_SQUOTE;
}

/*
 * The flaws of the n bytes at s, in one pass: eight ASCII bytes at a time
 * (most strings are ASCII; the last eight overlap those before them), a
 * byte at a time around the others, up to the first invalid UTF-8
 * sequence.  (Which byte of a word is which does not matter: the host's
 * byte order is not needed.)
 */
static unsigned string_flaws(const unsigned char *s, size_t n)
{
	unsigned f = 0;
	size_t i = 0, k, at;
	uint64_t w;

	while (i < n) {
		at = n - i >= 8 ? i : n >= 8 ? n - 8 : SIZE_MAX;
		if (at != SIZE_MAX && (memcpy(&w, s + at, 8), !(w & BYTES_OF(0x80)))) {
			f |= word_flaws(w);
			i = at + 8;
		} else if (s[i] < 0x80) {
			f |= ascii_flaws(s[i++]);
		} else if ((k = utf8_sequence(s + i, n - i)) != 0) {
			i += k;
		} else {
			return f | FLAW_UTF8;
		}
	}
	return f;
}
#undef SOME_ZERO
#undef BYTES_OF

/*
 * A string at `off` in a blob of `size` bytes at file offset `base`, the
 * offset stored at file offset `at`: it
 * must end with a NUL inside the blob and be valid UTF-8 that NVTXT can
 * write (no line break, not both kinds of quote).  Returns its length or
 * -1 (message in err).
 */
static int64_t pr_string(struct nvtxt_payload_reader *r, const unsigned char *blob, uint64_t size,
			 uint64_t off, uint64_t base, uint64_t at, const char *what)
{
	const unsigned char *s, *end;
	size_t n;
	unsigned flaws;

	if (off >= size)
		return pr_fail(r, at, "%s: expected a string offset below %" PRIu64
			       " (the size of its blob at %" PRIu64 "), found %" PRIu64, what, size, base, off);
	s = blob + off;
	end = memchr(s, 0, (size_t)(size - off));
	if (!end)
		return pr_fail(r, base + off, "%s: expected a NUL-terminated string, "
			       "found none before the end of its blob", what);
	n = (size_t)(end - s);
	flaws = string_flaws(s, n);
	if (flaws & FLAW_UTF8)
		return pr_fail(r, base + off, "%s: expected UTF-8, found an invalid "
			       "byte sequence", what);
	if (flaws & FLAW_BREAK)
		return pr_fail(r, base + off, "%s: expected a string without line "
			       "breaks, found one", what);
	if ((flaws & (FLAW_DQUOTE | FLAW_SQUOTE)) == (FLAW_DQUOTE | FLAW_SQUOTE))
		return pr_fail(r, base + off, "%s: expected a string without both "
			       "kinds of quote, found both", what);
	return (int64_t)n;
}


/* ---- time domains and schemas ---- */

/* Checks the time domain record (PL_TIME_DOMAIN_SIZE bytes, as pr_next checked, at
 * file offset o) in p. */
int pr_time_domains(struct nvtxt_payload_reader *r, const unsigned char *p, uint64_t o)
{
	uint64_t tb = pl_get64(p + PL_TD_TIMEBASE), id = pl_get64(p + PL_TD_ID), type = pl_get64(p + PL_TD_TIMESTAMP_TYPE);
	struct pl_time_domain want;

	if (tb >= NVTXT_TB_COUNT)
		return pr_fail(r, o + PL_TD_TIMEBASE, "time domain: expected a TimeBase code 0..%d, found %"
			       PRIu64, NVTXT_TB_COUNT - 1, tb);
	want = pl_time_domain_of((unsigned)tb);
	if (type != want.timestamp_type)
		return pr_fail(r, o + PL_TD_TIMESTAMP_TYPE, "time domain of %s: expected timestamp type %" PRIu64
			       ", found %" PRIu64, nvtxt_timebase_name((enum nvtxt_timebase)tb),
			       want.timestamp_type, type);
	if (pl_get64(p + PL_TD_SCOPE) != want.scope || pl_get64(p + PL_TD_TIMER_FLAGS) != want.flags ||
	    (int64_t)pl_get64(p + PL_TD_RESOLUTION) != want.resolution || pl_get64(p + PL_TD_TIMER_START) != want.start)
		return pr_fail(r, o, "time domain of %s: expected scope %" PRIu64 ", timer flags %"
			       PRIu64 ", resolution %" PRId64 " and timer start %" PRIu64 ", found %"
			       PRIu64 ", %" PRIu64 ", %" PRId64 " and %" PRIu64,
			       nvtxt_timebase_name((enum nvtxt_timebase)tb), want.scope, want.flags,
			       want.resolution, want.start, pl_get64(p + PL_TD_SCOPE), pl_get64(p + PL_TD_TIMER_FLAGS),
			       (int64_t)pl_get64(p + PL_TD_RESOLUTION), pl_get64(p + PL_TD_TIMER_START));
	if (id != PL_TIME_DOMAIN_ID_STATIC_START + tb)
		return pr_fail(r, o + PL_TD_ID, "time domain of %s: expected the ID 2^24 + TimeBase code "
			       "= %" PRIu64 ", found %" PRIu64,
			       nvtxt_timebase_name((enum nvtxt_timebase)tb),
			       PL_TIME_DOMAIN_ID_STATIC_START + tb, id);
	for (size_t j = 0; j < r->ntd; j++)
		if (r->td[j].tb == tb)
			return pr_fail(r, o + PL_TD_TIMEBASE, "time domain of %s: expected one per TimeBase, "
				       "found a second (the first at offset %" PRIu64 ")",
				       nvtxt_timebase_name((enum nvtxt_timebase)tb), r->td[j].off);
	r->td[r->ntd].id = id;
	r->td[r->ntd].tb = (unsigned)tb;
	r->td[r->ntd].off = o;
	memcpy(r->td[r->ntd].rec, p, PL_TIME_DOMAIN_SIZE);
	r->ntd++;
	r->expect_tb = (int)tb;
	return 0;
}

/* Checks the schema whose body (len bytes at file offset o) is in s->body. */
/* The schema's attributes up to its name, "<command> <TimeBase>" or "<naming command>": its kind and TimeBase. */
static int schema_name(struct nvtxt_payload_reader *r, struct pr_schema *s, uint64_t len, uint64_t o,
		       enum pl_kind *kindp, int *tbp, const char **namep)
{
	const unsigned char *body = s->body;
	uint64_t v, id_want = PL_SCHEMA_ID_STATIC_START + r->nschemas;
	const char *name, *sp;
	size_t klen;
	enum pl_kind kind = PL_K_COUNT;
	int tb = PL_NO_TB;

	if (len < PL_SCHEMA_ATTR_SIZE)
		return pr_fail(r, o, "schema: expected at least %u bytes, found %" PRIu64,
			       PL_SCHEMA_ATTR_SIZE, len);
	s->body_len = len;
	s->off = o;
	if ((v = pl_get64(body + PL_SCH_FIELD_MASK)) != PL_SCHEMA_FIELD_MASK)
		return pr_fail(r, o, "schema: expected field mask 0x%x, found 0x%" PRIx64,
			       PL_SCHEMA_FIELD_MASK, v);
	s->id = pl_get64(body + PL_SCH_SCHEMA_ID);
	if (s->id != id_want)
		return pr_fail(r, o + PL_SCH_SCHEMA_ID, "schema: expected the ID 2^24 + %zu = %" PRIu64 " (schemas "
			       "are numbered from 2^24 in the order they come), found %" PRIu64,
			       r->nschemas, id_want, s->id);
	if ((v = pl_get64(body + PL_SCH_TYPE)) != PL_SCHEMA_TYPE_STATIC)
		return pr_fail(r, o + PL_SCH_TYPE, "schema %" PRIu64 ": expected type %u (STATIC), "
			       "found %" PRIu64, s->id, PL_SCHEMA_TYPE_STATIC, v);
	if (pr_string(r, body, len, pl_get64(body + PL_SCH_NAME), o, o + PL_SCH_NAME, "schema name") < 0)
		return -1;
	name = (const char *)body + pl_get64(body + PL_SCH_NAME);
	sp = strchr(name, ' ');
	klen = sp ? (size_t)(sp - name) : strlen(name);
	for (enum pl_kind k = 0; k < PL_K_COUNT; k++)
		if (strlen(pl_kind_name(k)) == klen && !memcmp(name, pl_kind_name(k), klen))
			kind = k;
	if (kind < PL_K_COUNT && pl_kind_timed(kind) && sp)
		tb = nvtxt_timebase_lookup(sp + 1, strlen(sp + 1));
	if (kind == PL_K_COUNT || (pl_kind_timed(kind) ? tb < 0 : sp != NULL))
		return pr_fail(r, o + pl_get64(body + PL_SCH_NAME), "schema %" PRIu64 ": expected "
			       "a name \"<command> <TimeBase>\" or \"<naming command>\", found \"%s\"",
			       s->id, name);
	pl_layout_init(&s->l, kind, false, false);
	s->tb = (unsigned)tb;
	*kindp = kind;
	*tbp = tb;
	*namep = name;
	return 0;
}

/* A timed schema's time domain: defined before it, and right before the first schema that uses it. */
static int schema_time_domain(struct nvtxt_payload_reader *r, const struct pr_schema *s, uint64_t o,
			      enum pl_kind kind, int tb, const char *name)
{
	if (pl_kind_timed(kind)) {
		bool have = false;
		for (size_t j = 0; j < r->ntd; j++)
			have |= r->td[j].tb == (unsigned)tb;
		if (!have)
			return pr_fail(r, o, "schema %" PRIu64 " (%s): expected the time domain of %s "
				       "before it, found none", s->id, name,
				       nvtxt_timebase_name((enum nvtxt_timebase)tb));
		if (!r->td_used[tb] && r->expect_tb != tb)
			return pr_fail(r, o - PL_SECTION_HEADER_SIZE, "schema %" PRIu64 " (%s): expected "
				       "the time domain of %s right before the first schema that uses "
				       "it, found it earlier", s->id, name,
				       nvtxt_timebase_name((enum nvtxt_timebase)tb));
	}
	if (r->expect_tb >= 0 && r->expect_tb != tb)
		return pr_fail(r, o - PL_SECTION_HEADER_SIZE, "expected a schema of %s right after its "
			       "time domain, found schema %" PRIu64 " (%s)",
			       nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb), s->id, name);
	return 0;
}

/* Each entry of the schema (at eoff in its body): the layout's, field by field. */
static int schema_entries(struct nvtxt_payload_reader *r, const struct pr_schema *s, uint64_t len,
			  uint64_t o, uint64_t eoff, int tb, const char *name)
{
	const unsigned char *body = s->body;

	for (size_t i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		const unsigned char *p = s->entries + i * PL_SCHEMA_ENTRY_SIZE;
		uint64_t eo = o + eoff + i * PL_SCHEMA_ENTRY_SIZE;
		uint64_t td = e->flags & PL_EF_TIMESTAMP ? PL_TIME_DOMAIN_ID_STATIC_START + (unsigned)tb : 0;
		const char *ename;

		if (pr_string(r, body, len, pl_get64(p + PL_ENT_NAME), o, eo + PL_ENT_NAME, "entry name") < 0 ||
		    pr_string(r, body, len, pl_get64(p + PL_ENT_DESCRIPTION), o, eo + PL_ENT_DESCRIPTION, "entry description") < 0)
			return -1;
		ename = (const char *)body + pl_get64(p + PL_ENT_NAME);
		if (strcmp(ename, e->name) || pl_get64(p + PL_ENT_FLAGS) != e->flags ||
		    pl_get64(p + PL_ENT_TYPE) != e->type || pl_get64(p + PL_ENT_DETAIL) != 0 ||
		    pl_get64(p + PL_ENT_OFFSET) != e->offset || pl_get64(p + PL_ENT_SEMANTICS) != td ||
		    pl_get64(p + PL_ENT_RESERVED) != 0)
			return pr_fail(r, eo, "schema %" PRIu64 " (%s) entry %zu: expected "
				       "%s: flags 0x%x, type %u, offset %u, time domain %" PRIu64
				       ", detail 0, reserved 0, found %s: flags 0x%" PRIx64 ", type %"
				       PRIu64 ", offset %" PRIu64 ", time domain %" PRIu64 ", detail %"
				       PRIu64 ", reserved %" PRIu64, s->id, name, i, e->name, e->flags,
				       e->type, e->offset, td, ename, pl_get64(p + PL_ENT_FLAGS), pl_get64(p + PL_ENT_TYPE),
				       pl_get64(p + PL_ENT_OFFSET), pl_get64(p + PL_ENT_SEMANTICS), pl_get64(p + PL_ENT_DETAIL),
				       pl_get64(p + PL_ENT_RESERVED));
	}
	return 0;
}

/* The rest of the schema: its size, packing, a layout not seen before, and the bytes nvtxtc writes. */
static int schema_rest(struct nvtxt_payload_reader *r, const struct pr_schema *s, uint64_t len,
		       uint64_t o, const char *name)
{
	const unsigned char *body = s->body;
	unsigned char want[PL_SCHEMA_BODY_MAX];
	uint64_t v;
	size_t wlen;

	if ((v = pl_get64(body + PL_SCH_STATIC_SIZE)) != s->l.stride)
		return pr_fail(r, o + PL_SCH_STATIC_SIZE, "schema %" PRIu64 " (%s): expected static size "
			       "%u, found %" PRIu64, s->id, name, s->l.stride, v);
	if ((v = pl_get64(body + PL_SCH_PACK_ALIGN)) != PL_PACK_ALIGN || pl_get64(body + PL_SCH_EXTENSION))
		return pr_fail(r, o + PL_SCH_PACK_ALIGN, "schema %" PRIu64 " (%s): expected packAlign %u "
			       "and no extension, found %" PRIu64 " and 0x%" PRIx64, s->id, name,
			       PL_PACK_ALIGN, v, pl_get64(body + PL_SCH_EXTENSION));
	for (size_t j = 0; j < r->nschemas; j++)
		if (r->schemas[j].l.kind == s->l.kind && r->schemas[j].tb == s->tb &&
		    r->schemas[j].l.pid64 == s->l.pid64 && r->schemas[j].l.tid64 == s->l.tid64)
			return pr_fail(r, o, "schema %" PRIu64 " (%s): expected a new "
				       "layout, found the one of schema %" PRIu64, s->id, name,
				       r->schemas[j].id);
	/* What is left (descriptions, where the strings are): as nvtxtc writes it. */
	wlen = pl_schema_body(&s->l, s->tb, s->id, want);
	for (size_t i = 0; i < wlen || i < len; i++)
		if (i >= wlen || i >= len || body[i] != want[i])
			return pr_fail(r, o + i, "schema %" PRIu64 " (%s): expected the %zu-byte body "
				       "nvtxt-payload(5) gives it, found %s at byte %zu%s", s->id,
				       name, wlen, i >= wlen ? "more bytes" : i >= len ? "fewer bytes"
				       : "another byte", i,
				       i < wlen && i < len && i >= PL_SCHEMA_ATTR_SIZE + s->l.n *
				       PL_SCHEMA_ENTRY_SIZE ? " (its strings)" : "");
	return 0;
}

/* What the batches read from a checked schema: each role's offset and size, the padding words. */
static void schema_derive(struct pr_schema *s)
{
	for (size_t i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		s->roff[e->role] = (uint16_t)e->offset;
		s->rsize[e->role] = (uint8_t)e->size;
	}
	s->pad_words = 0;
	for (uint32_t k = 0; k < s->l.stride; k += 4) {
		bool covered = false;
		for (size_t i = 0; i < s->l.n; i++)
			covered |= k >= s->l.e[i].offset && k < s->l.e[i].offset + s->l.e[i].size;
		if (!covered)
			s->pad_words |= UINT32_C(1) << (k / 4);
	}
}

int pr_schema(struct nvtxt_payload_reader *r, struct pr_schema *s, uint64_t len, uint64_t o)
{
	const unsigned char *body = s->body;
	uint64_t v, nent, eoff;
	const char *name = NULL;
	enum pl_kind kind = PL_K_COUNT;
	int tb = PL_NO_TB;

	if (schema_name(r, s, len, o, &kind, &tb, &name))
		return -1;
	if ((v = pl_get64(body + PL_SCH_FLAGS)) != s->l.schema_flags)
		return pr_fail(r, o + PL_SCH_FLAGS, "schema %" PRIu64 " (%s): expected flags 0x%x, "
			       "found 0x%" PRIx64, s->id, name, s->l.schema_flags, v);
	eoff = pl_get64(body + PL_SCH_ENTRIES);
	nent = pl_get64(body + PL_SCH_NUM_ENTRIES);
	if (eoff != PL_SCHEMA_ATTR_SIZE)
		return pr_fail(r, o + PL_SCH_ENTRIES, "schema %" PRIu64 " (%s): expected the entries at %u, "
			       "found %" PRIu64, s->id, name, PL_SCHEMA_ATTR_SIZE, eoff);
	if (nent != s->l.n || nent > (len - eoff) / PL_SCHEMA_ENTRY_SIZE)
		return pr_fail(r, o + PL_SCH_NUM_ENTRIES, "schema %" PRIu64 " (%s): expected %zu entries inside "
			       "its %" PRIu64 " bytes, found %" PRIu64, s->id, name, s->l.n, len, nent);
	s->entries = body + eoff;
	/* The widths of ProcessId and ThreadId are the schema's choice. */
	if (s->l.at[PL_R_PID] >= 0 &&
	    pl_get64(s->entries + (size_t)s->l.at[PL_R_PID] * PL_SCHEMA_ENTRY_SIZE + PL_ENT_TYPE) ==
	    PL_T_PID_UINT64)
		s->l.pid64 = true;
	if (s->l.at[PL_R_TID] >= 0 &&
	    pl_get64(s->entries + (size_t)s->l.at[PL_R_TID] * PL_SCHEMA_ENTRY_SIZE + PL_ENT_TYPE) ==
	    PL_T_TID_UINT64)
		s->l.tid64 = true;
	pl_layout_init(&s->l, kind, s->l.pid64, s->l.tid64);
	if (schema_time_domain(r, s, o, kind, tb, name) || schema_entries(r, s, len, o, eoff, tb, name) ||
	    schema_rest(r, s, len, o, name))
		return -1;
	s->name = name;
	schema_derive(s);
	pr_schema_calls(s);
	if (pl_kind_timed(kind))
		r->td_used[tb] = true;
	r->expect_tb = -1;
	return 0;
}

/* ---- batches ---- */

/* The timestamp that orders a batch: a record's first. */
static int64_t pr_first_time(const struct pr_schema *s, const unsigned char *rec)
{
	return (int64_t)pr_field(s, rec, s->l.kind == PL_K_START_END ? PL_R_START : PL_R_TIME);
}

static bool bit_get(const struct nvtxt_payload_reader *r, uint64_t o)
{
	return r->bits[(o % PR_WINDOW) / 64] >> (o % 64) & 1;
}

static void bit_flip(struct nvtxt_payload_reader *r, uint64_t o)
{
	r->bits[(o % PR_WINDOW) / 64] ^= UINT64_C(1) << (o % 64);
}

/*
 * The batch's table of strings: each slot holds the batch's number (the
 * generation, r->dedup_gen) in its high 32 bits and the string's flexData
 * offset (below PL_BATCH_BODY_MAX) in its low ones; a slot of another
 * generation is empty.  So a new batch starts with an empty table by
 * counting, not by clearing the whole table (which cost more than its
 * lookups when most batches bring few new strings).
 */
static bool dedup_used(const struct nvtxt_payload_reader *r, uint64_t slot)
{
	return slot >> 32 == r->dedup_gen;
}

/* A string's slot in the batch's table of strings. */
static uint64_t *dedup_slot(struct nvtxt_payload_reader *r, const unsigned char *flex,
			    const unsigned char *str, size_t len)
{
	size_t mask = r->dedup_cap - 1, i = (size_t)hash_bytes(str, len) & mask;

	while (dedup_used(r, r->dedup[i]) &&
	       (strlen((const char *)flex + (uint32_t)r->dedup[i]) != len ||
		memcmp(flex + (uint32_t)r->dedup[i], str, len)))
		i = (i + 1) & mask;
	return &r->dedup[i];
}

/* A table of strings twice as large, with the batch's strings so far; 0 or -1 (ENOMEM). */
static int dedup_grow(struct nvtxt_payload_reader *r, const struct pr_batch *b)
{
	size_t cap = r->dedup_cap ? 2 * r->dedup_cap : 256;
	uint64_t *old = r->dedup, *t = try_calloc(cap, sizeof *t);
	size_t oldcap = r->dedup_cap;

	if (!t)
		return pr_fail_io(r, ENOMEM);
	r->dedup = t;
	r->dedup_cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (dedup_used(r, old[i])) {
			uint32_t off = (uint32_t)old[i];
			*dedup_slot(r, b->flex, b->flex + off, strlen((const char *)b->flex + off)) = old[i];
		}
	free(old);
	return 0;
}

/*
 * A string entry of a record: 0 is the empty string (byte 0 of flexData);
 * any other offset is a string of the batch that an earlier record
 * introduced, or the next string, right after the last one introduced
 * (*cursor), which must be new.  Adds the bytes of a new string to *bytes.
 */
static int pr_record_string(struct nvtxt_payload_reader *r, const struct pr_batch *b,
			    uint64_t off, uint64_t at, const char *what, uint64_t *cursor,
			    size_t *nstr, uint64_t *bytes)
{
	int64_t n;
	uint64_t *slot;

	if (off == 0)
		return 0;
	if (off < *cursor) {
		if (b->flex[off - 1] != 0)
			return pr_fail(r, at, "%s: expected the offset of a string of flexData, found %"
				       PRIu64 ", inside the string before it", what, off);
		return 0;
	}
	if (off != *cursor)
		return pr_fail(r, at, "%s: expected a string used before or the next one, at "
			       "flexData offset %" PRIu64 ", found %" PRIu64, what, *cursor, off);
	n = pr_string(r, b->flex, b->flex_size, off, b->flex_off, at, what);
	if (n < 0)
		return -1;
	if (n == 0)
		return pr_fail(r, b->flex_off + off, "%s: expected the empty string at flexData "
			       "offset 0, found a second one at %" PRIu64, what, off);
	if (2 * (*nstr + 1) > r->dedup_cap && dedup_grow(r, b))
		return -1;
	slot = dedup_slot(r, b->flex, b->flex + off, (size_t)n);
	if (dedup_used(r, *slot))
		return pr_fail(r, b->flex_off + off, "%s: expected each string once in a batch's "
			       "flexData, found \"%s\" again (first at offset %" PRIu64 ")", what,
			       (const char *)b->flex + off, (uint64_t)(uint32_t)*slot);
	*slot = (uint64_t)r->dedup_gen << 32 | off;
	(*nstr)++;
	*cursor += (uint64_t)n + 1;
	*bytes += (uint64_t)n + 1;
	return 0;
}

/* The checks of one record at file offset o, in batch b, whose first timestamp is t0.
 * *bytes: as the writer counts them. */
static int pr_record(struct nvtxt_payload_reader *r, const struct pr_batch *b,
		     const unsigned char *rec, uint64_t o, int64_t t0, uint64_t *cursor,
		     size_t *nstr, uint64_t *bytes)
{
	const struct pr_schema *s = b->s;
	const struct pl_layout *l = &s->l;
	uint64_t present = pr_field(s, rec, PL_R_PRESENT);
	int64_t t1 = (int64_t)pr_field(s, rec, PL_R_END);

#define AT(role) (o + s->roff[role])
	/* bytes that no entry holds: zero */
	for (uint32_t w = s->pad_words; w; w &= w - 1) {
		uint32_t k = 4 * (uint32_t)__builtin_ctz(w);
		if (pl_get32(rec + k))
			return pr_fail(r, o + k, "expected zero padding between or after the entries "
				       "of a %s record, found 0x%08" PRIx32, s->name, pl_get32(rec + k));
	}
	if (l->at[PL_R_PRESENT] >= 0) {
		static const struct { uint32_t bit; enum pl_role role; } opt[] = {
			{ PL_PRESENT_CATEGORY, PL_R_CATEGORY }, { PL_PRESENT_COLOR, PL_R_COLOR },
			{ PL_PRESENT_MESSAGE, PL_R_MESSAGE }, { PL_PRESENT_PAYLOAD, PL_R_PAYLOAD },
		};
		if (present & ~(uint64_t)PL_PRESENT_ALL)
			return pr_fail(r, AT(PL_R_PRESENT), "expected presence bits within "
				       "0x%x, found 0x%" PRIx64, PL_PRESENT_ALL, present);
		/* the optional entries of every schema with Present: 4, 4, 8 and 8 bytes */
		if (present != PL_PRESENT_ALL &&
		    ((!(present & PL_PRESENT_CATEGORY) && pl_get32(rec + s->roff[PL_R_CATEGORY])) ||
		     (!(present & PL_PRESENT_COLOR) && pl_get32(rec + s->roff[PL_R_COLOR])) ||
		     (!(present & PL_PRESENT_MESSAGE) && pl_get64(rec + s->roff[PL_R_MESSAGE])) ||
		     (!(present & PL_PRESENT_PAYLOAD) && pl_get64(rec + s->roff[PL_R_PAYLOAD]))))
			for (size_t i = 0; i < 4; i++)
				if (!(present & opt[i].bit) && pr_field(s, rec, opt[i].role))
					return pr_fail(r, AT(opt[i].role), "expected 0 in absent "
						       "%s (its Present bit %u is clear), found %" PRIu64,
						       l->e[l->at[opt[i].role]].name, opt[i].bit,
						       pr_field(s, rec, opt[i].role));
	}
	if (pl_kind_timed(l->kind) && s->tb != NVTXT_TB_RELATIVE && (t0 < 0 || t1 < 0))
		return pr_fail(r, t0 < 0 ? o + l->e[0].offset : AT(PL_R_END), "expected timestamps "
			       ">= 0 with TimeBase %s, found %" PRId64, nvtxt_timebase_name(s->tb),
			       t0 < 0 ? t0 : t1);
	if (l->kind == PL_K_START_END && t0 > t1)
		return pr_fail(r, AT(PL_R_END), "expected a range end >= its start %" PRId64
			       ", found %" PRId64, t0, t1);
	if (l->at[PL_R_PID] >= 0 && l->pid64 &&
	    (pr_field(s, rec, PL_R_PID) > INT64_MAX || pr_field(s, rec, PL_R_PID) <= UINT32_MAX))
		return pr_fail(r, AT(PL_R_PID), "expected a ProcessId above 2^32-1 and below 2^63 "
			       "in a schema of 64-bit ProcessIds (a smaller one has a PID_UINT32 "
			       "schema), found %" PRIu64, pr_field(s, rec, PL_R_PID));
	if (l->at[PL_R_TID] >= 0 && l->tid64 &&
	    (pr_field(s, rec, PL_R_TID) > INT64_MAX || pr_field(s, rec, PL_R_TID) <= UINT32_MAX))
		return pr_fail(r, AT(PL_R_TID), "expected a ThreadId above 2^32-1 and below 2^63 "
			       "in a schema of 64-bit ThreadIds (a smaller one has a TID_UINT32 "
			       "schema), found %" PRIu64, pr_field(s, rec, PL_R_TID));
	*bytes = l->stride;
	if (l->at[PL_R_MESSAGE] >= 0) {
		uint64_t off = pl_get64(rec + s->roff[PL_R_MESSAGE]);
		/* the empty string, or one an earlier record introduced: nothing to add */
		if (off && !(off < *cursor && b->flex[off - 1] == 0) &&
		    pr_record_string(r, b, off, AT(PL_R_MESSAGE), "message", cursor, nstr, bytes))
			return -1;
	}
	if (l->at[PL_R_NAME] >= 0 &&
	    pr_record_string(r, b, pr_field(s, rec, PL_R_NAME), AT(PL_R_NAME), "name",
			     cursor, nstr, bytes))
		return -1;
#undef AT
	return 0;
}

/* Checks the batch whose body (len bytes at file offset o, flags of its section) is in b->body. */
/* The batch header: its schema (defined before it, and the one a new schema expects) and its page. */
static int batch_header(struct nvtxt_payload_reader *r, struct pr_batch *b, uint64_t len, uint64_t o,
			uint32_t secflags, uint64_t *idp, struct pr_schema **sp)
{
	const unsigned char *body = b->body;
	struct pr_schema *s = NULL;
	uint64_t id, size, eoff, foff;

	if (r->expect_tb >= 0)
		return pr_fail(r, o - PL_SECTION_HEADER_SIZE, "expected a schema of %s right after "
			       "its time domain, found a batch",
			       nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb));
	if (len < PL_BATCH_HEADER_SIZE)
		return pr_fail(r, o, "batch: expected at least %u bytes, found %" PRIu64,
			       PL_BATCH_HEADER_SIZE, len);
	id = *idp = pl_get64(body + PL_BAT_SCHEMA_ID);
	if (id - PL_SCHEMA_ID_STATIC_START < r->nschemas)
		s = &r->schemas[id - PL_SCHEMA_ID_STATIC_START];
	if (!s)
		return pr_fail(r, o, "batch: expected the ID of a schema defined before it (%s), "
			       "found %" PRIu64, r->nschemas ? "2^24 and up" : "there is none", id);
	if (r->expect_batch && r->expect_batch != s)
		return pr_fail(r, o, "batch: expected one of schema %" PRIu64 " (%s) right after "
			       "that schema, found one of schema %" PRIu64, r->expect_batch->id,
			       r->expect_batch->name, id);
	r->expect_batch = NULL;
	b->s = *sp = s;
	size = pl_get64(body + PL_BAT_SIZE);
	eoff = pl_get64(body + PL_BAT_EVENTS);
	foff = pl_get64(body + PL_BAT_FLEX_DATA);
	b->flex_size = pl_get64(body + PL_BAT_FLEX_SIZE);
	/* where the page puts the events and flexData */
	if (eoff != PL_BATCH_HEADER_SIZE)
		return pr_fail(r, o + PL_BAT_EVENTS, "batch of schema %" PRIu64 ": expected the events at "
			       "offset %u, right after the batch header, found %" PRIu64, id,
			       PL_BATCH_HEADER_SIZE, eoff);
	if (size == 0 || size % s->l.stride || size > len - eoff)
		return pr_fail(r, o + PL_BAT_SIZE, "batch of schema %" PRIu64 ": expected a size of 1 or more "
			       "events of %u bytes that ends inside the section (%" PRIu64 " bytes), "
			       "found %" PRIu64 " bytes", id, s->l.stride, len, size);
	if (foff != eoff + size)
		return pr_fail(r, o + PL_BAT_FLEX_DATA, "batch of schema %" PRIu64 ": expected flexData right "
			       "after the events, at %" PRIu64 ", found %" PRIu64, id, eoff + size, foff);
	if (b->flex_size != len - foff || pl_get64(body + PL_BAT_FLEX_OFFSET) != 0)
		return pr_fail(r, o + PL_BAT_FLEX_SIZE, "batch of schema %" PRIu64 ": expected flexData to the "
			       "end of the section (%" PRIu64 " bytes) and flexDataOffset 0, found %"
			       PRIu64 " bytes and flexDataOffset %" PRIu64, id, len - foff,
			       b->flex_size, pl_get64(body + PL_BAT_FLEX_OFFSET));
	b->flags = pl_get64(body + PL_BAT_FLAGS);
	b->scope = pl_get64(body + PL_BAT_SCOPE);
	if (b->scope != PL_SCOPE_NONE)
		return pr_fail(r, o + PL_BAT_SCOPE, "batch of schema %" PRIu64 ": expected scope "
			       "NVTX_SCOPE_NONE = 0, found %" PRIu64, id, b->scope);
	if (b->flex_size == 0 || body[foff] != 0)
		return pr_fail(r, o + foff, "batch of schema %" PRIu64 ": expected flexData "
			       "that starts with a NUL byte (the empty string), found %s", id,
			       b->flex_size ? "another byte" : "no flexData");
	b->events = body + eoff;
	b->events_off = o + eoff;
	b->nev = size / s->l.stride;
	b->flex = body + foff;
	b->flex_off = o + foff;
	b->off = o;
	b->group_end = secflags & PL_SEC_GROUP_END;
	b->cur = 0;
	b->next = NULL;
	return 0;
}

/* The flush group the batch belongs to: a new one begins unless one is open; one batch per schema in it. */
static int batch_group(struct nvtxt_payload_reader *r, struct pr_schema *s, uint64_t o, uint64_t id)
{
	if (!r->in_group) {
		if (r->group && !r->prev_full)
			return pr_fail(r, r->prev_end, "expected the flush group that ends here to be "
				       "the last (it holds fewer than %u records and %u bytes, so the "
				       "writer had not flushed it), found another batch after it",
				       PL_GROUP_EVENTS, PL_GROUP_BYTES);
		r->in_group = true;
		r->group++;
		r->gn = r->gbytes = 0;
	}
	if (s->group == r->group)
		return pr_fail(r, o, "batch of schema %" PRIu64 ": expected one batch per schema in "
			       "a flush group, found a second one", id);
	s->group = r->group;
	return 0;
}

/* What the records of one batch add up to (pr_batch). */
struct batch_walk {
	uint64_t cursor;       /* flexData used so far */
	uint64_t prev;         /* the ordinal of the record before */
	int64_t prev_t0;       /* its first timestamp */
	uint64_t group_bytes;  /* bytes of the batch's records and strings */
	size_t nstr;
	bool unsorted;
};

/* Record i of batch b (schema id): its ordinal, its fields and strings, the group's counts. */
static int batch_record(struct nvtxt_payload_reader *r, const struct pr_batch *b, uint64_t i, uint64_t id,
			struct batch_walk *w)
{
	const struct pr_schema *s = b->s;
	const unsigned char *rec = b->events + i * s->l.stride;
	uint64_t ro = b->events_off + i * s->l.stride;
	uint64_t ord = pr_field(s, rec, PL_R_ORDINAL), oo = ro + s->roff[PL_R_ORDINAL];
	uint64_t bytes;
	int64_t t0;

	if (ord >= r->nevents)
		return pr_fail(r, oo, "expected an ordinal below %" PRIu64 " (the header's "
			       "count), found %" PRIu64, r->nevents, ord);
	if (i == 0 && ord != r->low)
		return pr_fail(r, oo, "batch of schema %" PRIu64 ": expected its first record "
			       "to have ordinal %" PRIu64 ", the lowest that no earlier batch "
			       "holds, found %" PRIu64, id, r->low, ord);
	if (i > 0 && ord <= w->prev)
		return pr_fail(r, oo, "expected ordinals that grow from record to record of "
			       "a batch, found %" PRIu64 " after %" PRIu64, ord, w->prev);
	if (ord < r->low || bit_get(r, ord))
		return pr_fail(r, oo, "expected ordinal %" PRIu64 " once, found it again", ord);
	if (ord - r->low >= PR_WINDOW)
		return pr_fail(r, oo, "expected an ordinal below %" PRIu64 " (within a flush "
			       "group of %u records of %" PRIu64 ", the lowest not in an "
			       "earlier batch), found %" PRIu64, r->low + PR_WINDOW,
			       PL_GROUP_EVENTS, r->low, ord);
	t0 = pr_first_time(s, rec);
	if (pr_record(r, b, rec, ro, t0, &w->cursor, &w->nstr, &bytes))
		return -1;
	if (i && pl_kind_timed(s->l.kind) && t0 < w->prev_t0)
		w->unsorted = true;
	w->prev_t0 = t0;
	bit_flip(r, ord);
	w->prev = ord;
	w->group_bytes += bytes;
	if (r->gn == 0 || ord > r->gmax) {
		r->gmax = ord;
		r->gmax_bytes = bytes;
	}
	r->gn++;
	if (s->l.kind == PL_K_SET_FILE_DISPLAY_NAME) {
		const char *nm = (const char *)b->flex + pr_field(s, rec, PL_R_NAME);
		size_t nmlen = strlen(nm) + 1;
		char *copy = try_malloc(nmlen);
		if (!copy)
			return pr_fail_io(r, ENOMEM);
		memcpy(copy, nm, nmlen);
		free(r->display_name);
		r->display_name = copy;
	}
	return 0;
}

/* A byte of the record that no entry holds is not 0. */
static inline bool record_pad(const struct pr_schema *s, const unsigned char *rec)
{
	for (uint32_t m = s->pad_words; m; m &= m - 1)
		if (pl_get32(rec + 4 * (uint32_t)__builtin_ctz(m)))
			return true;
	return false;
}

/*
 * The Present entry has a bit over PL_PRESENT_ALL, or an optional entry
 * whose bit is clear is not 0 (a schema with Present has the four);
 * *msg: the message's offset.
 */
static inline bool record_absent(const struct pr_schema *s, const unsigned char *rec, uint64_t *msg)
{
	uint32_t p = pl_get32(rec + s->roff[PL_R_PRESENT]);

	*msg = pl_get64(rec + s->roff[PL_R_MESSAGE]);
	return p > PL_PRESENT_ALL ||
	       (!(p & PL_PRESENT_CATEGORY) && pl_get32(rec + s->roff[PL_R_CATEGORY])) ||
	       (!(p & PL_PRESENT_COLOR) && pl_get32(rec + s->roff[PL_R_COLOR])) ||
	       (!(p & PL_PRESENT_MESSAGE) && *msg) ||
	       (!(p & PL_PRESENT_PAYLOAD) && pl_get64(rec + s->roff[PL_R_PAYLOAD]));
}

/*
 * Records 1 and up of a batch of an event schema with 32-bit IDs, where
 * nearly all of a file's records are.  The rules of batch_record and
 * pr_record are folded into one test that a record passes only when it
 * passes them all and its message is absent or a string an earlier
 * record introduced; such a record adds up what batch_record would (its
 * ordinal marked, its first timestamp, its stride of bytes).  A record
 * that passes it but for a new message string has the string checked and
 * counted as pr_record would, last.  Any other record goes through
 * batch_record, which checks it rule by rule and reports the first that
 * fails, so every error is the one batch_record alone gives.  The walk
 * is kept in locals (through wp, the compiler could not keep it in
 * registers across the stores to r->bits) and handed to batch_record
 * and back.
 */
static int batch_timed(struct nvtxt_payload_reader *r, const struct pr_batch *b, uint64_t id,
		       struct batch_walk *wp)
{
	const struct pr_schema *s = b->s;
	const bool se = s->l.kind == PL_K_START_END, optional = s->rsize[PL_R_PRESENT] != 0;
	const bool nonneg = s->tb != NVTXT_TB_RELATIVE;
	const uint32_t stride = s->l.stride;
	/* without End, the first timestamp again: t0 > t1 never holds */
	const unsigned o_ord = s->roff[PL_R_ORDINAL], o_t0 = s->roff[se ? PL_R_START : PL_R_TIME];
	const unsigned o_t1 = se ? s->roff[PL_R_END] : o_t0;
	const uint64_t low = r->low, nevents = r->nevents;
	struct batch_walk w = *wp;
	uint64_t gn = r->gn, gmax = r->gmax, bytes;

	for (uint64_t i = 1; i < b->nev; i++) {
		const unsigned char *rec = b->events + i * stride;
		uint64_t ord = pl_get64(rec + o_ord), msg = 0;
		int64_t t0 = (int64_t)pl_get64(rec + o_t0), t1 = (int64_t)pl_get64(rec + o_t1);
		/* w.prev >= low: record 0 has ordinal low */
		bool bad = ord <= w.prev || ord - low >= PR_WINDOW || ord >= nevents || bit_get(r, ord) ||
			   (nonneg && (t0 | t1) < 0) || t0 > t1 || record_pad(s, rec) ||
			   (optional && record_absent(s, rec, &msg));

		bytes = stride;
		if (!bad && msg && !(msg < w.cursor && b->flex[msg - 1] == 0) &&
		    pr_record_string(r, b, msg, b->events_off + i * stride + s->roff[PL_R_MESSAGE],
				     "message", &w.cursor, &w.nstr, &bytes))
			return -1;
		if (bad) {
			*wp = w;
			r->gn = gn;
			r->gmax = gmax;
			if (batch_record(r, b, i, id, wp))
				return -1;
			w = *wp;
			gn = r->gn;
			gmax = r->gmax;
			continue;
		}
		w.unsorted |= t0 < w.prev_t0;
		w.prev_t0 = t0;
		w.prev = ord;
		bit_flip(r, ord);
		w.group_bytes += bytes;
		if (ord > gmax) {
			gmax = ord;
			r->gmax_bytes = bytes;
		}
		gn++;
	}
	*wp = w;
	r->gn = gn;
	r->gmax = gmax;
	return 0;
}

/*
 * The lowest ordinal no batch read holds, past those now read: their
 * marks cleared a word of the window at a time (the run of set bits from
 * r->low, up to the header's count).
 */
static void low_advance(struct nvtxt_payload_reader *r)
{
	while (r->low < r->nevents) {
		uint64_t *word = &r->bits[(r->low % PR_WINDOW) / 64], set = *word >> (r->low % 64);
		unsigned n = ~set ? (unsigned)__builtin_ctzll(~set) : 64;
		uint64_t left = r->nevents - r->low;

		if (n == 0)
			break;
		if (n > left)
			n = (unsigned)left;
		*word &= ~((n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1) << (r->low % 64));
		r->low += n;
	}
}

/* After the records: flexData used up, the flags, the window, the group's limits and its end. */
static int batch_end(struct nvtxt_payload_reader *r, const struct pr_batch *b, uint64_t len, uint64_t o,
		     uint64_t id, const struct batch_walk *w)
{
	if (w->cursor != b->flex_size)
		return pr_fail(r, b->flex_off + w->cursor, "batch of schema %" PRIu64 ": expected "
			       "flexData to end after the last string a record uses, found %" PRIu64
			       " more bytes", id, b->flex_size - w->cursor);
	if (b->flags != (w->unsorted ? PL_BATCH_UNSORTED : PL_BATCH_TIME_SORTED))
		return pr_fail(r, o + PL_BAT_FLAGS, "batch of schema %" PRIu64 ": expected flags %s (its "
			       "events are %sin the order of their first timestamp), found 0x%" PRIx64,
			       id, w->unsorted ? "UNSORTED = 6" : "TIME_SORTED = 0", w->unsorted ? "not " : "",
			       b->flags);
	low_advance(r);
	r->gbytes += w->group_bytes;
	if (r->gn > PL_GROUP_EVENTS || r->gbytes - r->gmax_bytes >= PL_GROUP_BYTES)
		return pr_fail(r, o, "batch of schema %" PRIu64 ": expected its flush group (the "
			       "batches since the last group end) to hold at most %u records, and "
			       "fewer than %u bytes of records and strings besides its "
			       "highest-ordinal record (the writer flushes at either limit), found "
			       "%" PRIu64 " records and %" PRIu64 " such bytes up to this batch", id,
			       PL_GROUP_EVENTS, PL_GROUP_BYTES, r->gn, r->gbytes - r->gmax_bytes);
	if (b->group_end) {
		if (r->low != r->gmax + 1)
			return pr_fail(r, o - PL_SECTION_HEADER_SIZE + 4, "expected the flush group "
				       "that ends here to hold every ordinal up to its last, %" PRIu64
				       ", found none for %" PRIu64, r->gmax, r->low);
		r->in_group = false;
		r->prev_full = r->gn == PL_GROUP_EVENTS || r->gbytes >= PL_GROUP_BYTES;
		r->prev_end = o + len;
	}
	return 0;
}

int pr_batch(struct nvtxt_payload_reader *r, struct pr_batch *b, uint64_t len, uint64_t o,
	     uint32_t secflags)
{
	struct batch_walk w = { .cursor = 1 };
	struct pr_schema *s = NULL;
	uint64_t id = 0;

	if (batch_header(r, b, len, o, secflags, &id, &s) || batch_group(r, s, o, id))
		return -1;
	if (++r->dedup_gen == 0) { /* after 2^32 - 1 batches: the slots of generation 0 are cleared */
		if (r->dedup_cap)
			memset(r->dedup, 0, r->dedup_cap * sizeof *r->dedup);
		r->dedup_gen = 1;
	}
	/* the first record by the rules one at a time: its ordinal is the lowest not read */
	if (batch_record(r, b, 0, id, &w))
		return -1;
	if (pl_kind_timed(s->l.kind) && !s->l.pid64 && !s->l.tid64) {
		if (batch_timed(r, b, id, &w))
			return -1;
	} else {
		for (uint64_t i = 1; i < b->nev; i++)
			if (batch_record(r, b, i, id, &w))
				return -1;
	}
	return batch_end(r, b, len, o, id, &w);
}
