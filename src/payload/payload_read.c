/*
 * payload_read.c - reads a payload file (nvtxt-payload(5)) as a stream,
 * checks it, and re-creates its calls in ordinal order.
 *
 * Nothing is trusted: every size, offset, count, string and ordinal is
 * checked before use, against the exact layouts of payload_layout.h and
 * the order rules of the format, so a truncated, corrupt or hostile file
 * gets a one-line error naming the offset, what was expected and what was
 * found.  Only what nvtxtc itself writes for some NVTXT file passes: a
 * file that passes re-encodes to the same bytes (tests/fuzz/fuzz_payload.c).
 *
 * The file is read once, front to back, section by section, from any
 * source (a file, a pipe, memory): the reader holds the schemas and, while
 * decompiling, the batches of one flush group, so its memory does not grow
 * with the file.  All loads go through pl_get32/pl_get64, so the host may
 * have any byte order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "payload.h"
#include "payload_layout.h"
#include "util.h"

#define PR_WINDOW PL_GROUP_EVENTS /* ordinals a batch may hold above `low` */
/*
 * Schemas: one per kind, TimeBase and widths of ProcessId and ThreadId at
 * most.  Allocated once, never moved: batches in use point at them.
 */
#define PR_MAX_SCHEMAS (PL_K_COUNT * (PL_NO_TB + 1) * 4)

struct nvtxt_payload_reader {
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

	uint64_t *dedup;           /* the batch's strings (flexData offsets), open addressing */
	size_t dedup_cap;
	struct pr_batch *spare;    /* a used batch whose buffer is kept */

	char *display_name;        /* the last SetFileDisplayName so far */

	bool ended, failed;
	int io_errno;
	char err[512];

	struct pr_batch *active;   /* decompile: batches not used up, in file order */
	uint64_t next;             /* decompile: the next ordinal to hand on */
};

static int fail(struct nvtxt_payload_reader *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct nvtxt_payload_reader *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (r->failed)
		return -1;
	r->failed = true;
	n = snprintf(r->err, sizeof r->err, "offset %" PRIu64 ": ", off);
	if (n >= 0 && (size_t)n < sizeof r->err) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A failure that is not the file's: a read error or no memory (errno). */
static int fail_io(struct nvtxt_payload_reader *r, int e)
{
	if (r->failed)
		return -1;
	r->failed = true;
	r->io_errno = e ? e : EIO;
	if (r->io_errno == ENOMEM)
		snprintf(r->err, sizeof r->err, "out of memory");
	else
		snprintf(r->err, sizeof r->err, "read error: %s", strerror(r->io_errno));
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

	if (off >= size)
		return fail(r, at, "%s: expected a string offset below %" PRIu64
			    " (the size of its blob at %" PRIu64 "), found %" PRIu64, what, size, base, off);
	s = blob + off;
	end = memchr(s, 0, (size_t)(size - off));
	if (!end)
		return fail(r, base + off, "%s: expected a NUL-terminated string, "
			    "found none before the end of its blob", what);
	n = (size_t)(end - s);
	if (!utf8_valid(s, n))
		return fail(r, base + off, "%s: expected UTF-8, found an invalid "
			    "byte sequence", what);
	if (memchr(s, '\n', n) || memchr(s, '\r', n))
		return fail(r, base + off, "%s: expected a string without line "
			    "breaks, found one", what);
	if (memchr(s, '"', n) && memchr(s, '\'', n))
		return fail(r, base + off, "%s: expected a string without both "
			    "kinds of quote, found both", what);
	return (int64_t)n;
}


/* ---- reading ---- */

/* Reads n bytes; fewer only at the end of the input.  The count, or -1 (errno). */
static ptrdiff_t pr_read(struct nvtxt_payload_reader *r, void *buf, size_t n)
{
	size_t got = 0;

	if (r->mem) {
		got = r->mem_size - r->mem_off < n ? r->mem_size - r->mem_off : n;
		memcpy(buf, r->mem + r->mem_off, got);
		r->mem_off += got;
		return (ptrdiff_t)got;
	}
	while (got < n) {
		ptrdiff_t k = r->read(r->user, (unsigned char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ptrdiff_t)got;
}

/* Reads exactly n bytes at r->off, which the header says the file has. */
static int pr_read_exact(struct nvtxt_payload_reader *r, void *buf, size_t n)
{
	ptrdiff_t got = pr_read(r, buf, n);

	if (got < 0)
		return fail_io(r, errno);
	if ((size_t)got < n)
		return fail(r, 24, "expected a file of %" PRIu64 " bytes (the header's size), "
			    "found %" PRIu64 " bytes (truncated)", r->file_size, r->off + (uint64_t)got);
	r->off += n;
	return 0;
}

const unsigned char *pr_header(const struct nvtxt_payload_reader *r)
{
	return r->h;
}

const struct pr_time_domain *pr_time_domain(const struct nvtxt_payload_reader *r, size_t i)
{
	return i < r->ntd ? &r->td[i] : NULL;
}

const struct pr_schema *pr_schema_at(const struct nvtxt_payload_reader *r, size_t i)
{
	return i < r->nschemas ? &r->schemas[i] : NULL;
}

/* ---- the header ---- */

static int pr_header_check(struct nvtxt_payload_reader *r)
{
	const unsigned char *h = r->h;
	ptrdiff_t got = pr_read(r, r->h, PL_HEADER_SIZE);
	uint64_t v;
	unsigned major, minor;

	if (got < 0)
		return fail_io(r, errno);
	r->off = (uint64_t)got;
	if (!nvtxt_payload_sniff(h, (size_t)got))
		return fail(r, 0, "expected the payload magic \\x89NVTXT\\r\\n, found %s",
			    got < PL_MAGIC_LEN ? "a shorter file" : "other bytes");
	if (got < PL_HEADER_SIZE)
		return fail(r, (uint64_t)got, "expected a %u-byte header, found %td bytes",
			    PL_HEADER_SIZE, got);
	if ((v = pl_get32(h + 8)) != PL_BOM)
		return fail(r, 8, "expected the little-endian byte-order mark "
			    "0x0A0B0C0D, found 0x%08" PRIX64 "%s", v,
			    v == 0x0D0C0B0Au ? " (a big-endian file: not supported)" : "");
	if ((v = pl_get64(h + 48)) != PL_NVTX_PAYLOAD_COMPATID)
		return fail(r, 48, "expected the payload extension compat ID 0x%04x, "
			    "found 0x%" PRIx64, PL_NVTX_PAYLOAD_COMPATID, v);
	major = h[12] + 256u * h[13];
	minor = h[14] + 256u * h[15];
	if (major != PL_VERSION_MAJOR || minor > PL_VERSION_MINOR)
		return fail(r, 12, "expected format version %u.0%s%.0u%s%.0u, found %u.%u%s",
			    PL_VERSION_MAJOR, PL_VERSION_MINOR ? " to " : "",
			    PL_VERSION_MINOR ? PL_VERSION_MAJOR : 0, PL_VERSION_MINOR ? "." : "",
			    PL_VERSION_MINOR, major, minor,
			    major < PL_VERSION_MAJOR ? " (an older format: write the file again with "
			    "nvtxtc --emit=payload)" : " (a newer format than this nvtxtc reads)");
	if (pl_get32(h + 16) != PL_HEADER_SIZE || pl_get32(h + 20) || pl_get64(h + 56))
		return fail(r, 16, "expected header size %u, flags 0 and reserved 0, "
			    "found %" PRIu32 ", 0x%" PRIx32 " and 0x%" PRIx64, PL_HEADER_SIZE,
			    pl_get32(h + 16), pl_get32(h + 20), pl_get64(h + 56));
	if ((r->file_size = pl_get64(h + 24)) == 0)
		return fail(r, 24, "expected the file size in the header, found 0 "
			    "(the writer never finished)");
	if (r->file_size < PL_HEADER_SIZE)
		return fail(r, 24, "expected a file size of at least %u bytes, found %" PRIu64,
			    PL_HEADER_SIZE, r->file_size);
	if (r->mem && r->file_size != r->mem_size)
		return fail(r, 24, "expected a file of %" PRIu64 " bytes (the header's size), "
			    "found %zu bytes (%s)", r->file_size, r->mem_size,
			    r->file_size > r->mem_size ? "truncated" : "trailing data");
	/* Every ordinal takes at least 8 bytes of a record. */
	if ((r->nevents = pl_get64(h + 32)) > r->file_size / 8)
		return fail(r, 32, "expected at most %" PRIu64 " ordinals in %" PRIu64 " bytes, "
			    "found %" PRIu64, r->file_size / 8, r->file_size, r->nevents);
	r->nsections = pl_get64(h + 40);
	return 0;
}

/* ---- time domains and schemas ---- */

/* Checks the time domain record (PL_TIME_DOMAIN_SIZE bytes, as pr_next checked, at
 * file offset o) in p. */
static int pr_time_domains(struct nvtxt_payload_reader *r, const unsigned char *p, uint64_t o)
{
	uint64_t tb = pl_get64(p + 48), id = pl_get64(p + 16), type = pl_get64(p + 8);
	struct pl_time_domain want;

	if (tb >= NVTXT_TB_COUNT)
		return fail(r, o + 48, "time domain: expected a TimeBase code 0..%d, found %"
			    PRIu64, NVTXT_TB_COUNT - 1, tb);
	want = pl_time_domain_of((unsigned)tb);
	if (type != want.timestamp_type)
		return fail(r, o + 8, "time domain of %s: expected timestamp type %" PRIu64
			    ", found %" PRIu64, nvtxt_timebase_name((enum nvtxt_timebase)tb),
			    want.timestamp_type, type);
	if (pl_get64(p) != want.scope || pl_get64(p + 24) != want.flags ||
	    (int64_t)pl_get64(p + 32) != want.resolution || pl_get64(p + 40) != want.start)
		return fail(r, o, "time domain of %s: expected scope %" PRIu64 ", timer flags %"
			    PRIu64 ", resolution %" PRId64 " and timer start %" PRIu64 ", found %"
			    PRIu64 ", %" PRIu64 ", %" PRId64 " and %" PRIu64,
			    nvtxt_timebase_name((enum nvtxt_timebase)tb), want.scope, want.flags,
			    want.resolution, want.start, pl_get64(p), pl_get64(p + 24),
			    (int64_t)pl_get64(p + 32), pl_get64(p + 40));
	if (id != PL_TIME_DOMAIN_ID_STATIC_START + tb)
		return fail(r, o + 16, "time domain of %s: expected the ID 2^24 + TimeBase code "
			    "= %" PRIu64 ", found %" PRIu64,
			    nvtxt_timebase_name((enum nvtxt_timebase)tb),
			    PL_TIME_DOMAIN_ID_STATIC_START + tb, id);
	for (size_t j = 0; j < r->ntd; j++)
		if (r->td[j].tb == tb)
			return fail(r, o + 48, "time domain of %s: expected one per TimeBase, "
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
static int pr_schema(struct nvtxt_payload_reader *r, struct pr_schema *s, uint64_t len, uint64_t o)
{
	const unsigned char *body = s->body;
	unsigned char want[PL_SCHEMA_BODY_MAX];
	uint64_t v, nent, eoff, id_want = PL_SCHEMA_ID_STATIC_START + r->nschemas;
	const char *name, *sp;
	size_t klen, wlen;
	enum pl_kind kind = PL_K_COUNT;
	int tb = PL_NO_TB;

	if (len < PL_SCHEMA_ATTR_SIZE)
		return fail(r, o, "schema: expected at least %u bytes, found %" PRIu64,
			    PL_SCHEMA_ATTR_SIZE, len);
	s->body_len = len;
	s->off = o;
	if ((v = pl_get64(body)) != PL_SCHEMA_FIELD_MASK)
		return fail(r, o, "schema: expected field mask 0x%x, found 0x%" PRIx64,
			    PL_SCHEMA_FIELD_MASK, v);
	s->id = pl_get64(body + 64);
	if (s->id != id_want)
		return fail(r, o + 64, "schema: expected the ID 2^24 + %zu = %" PRIu64 " (schemas "
			    "are numbered from 2^24 in the order they come), found %" PRIu64,
			    r->nschemas, id_want, s->id);
	if ((v = pl_get64(body + 16)) != PL_SCHEMA_TYPE_STATIC)
		return fail(r, o + 16, "schema %" PRIu64 ": expected type %u (STATIC), "
			    "found %" PRIu64, s->id, PL_SCHEMA_TYPE_STATIC, v);
	if (pr_string(r, body, len, pl_get64(body + 8), o, o + 8, "schema name") < 0)
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
		return fail(r, o + pl_get64(body + 8), "schema %" PRIu64 ": expected "
			    "a name \"<command> <TimeBase>\" or \"<naming command>\", found \"%s\"",
			    s->id, name);
	pl_layout_init(&s->l, kind, false, false);
	s->tb = (unsigned)tb;
	if ((v = pl_get64(body + 24)) != s->l.schema_flags)
		return fail(r, o + 24, "schema %" PRIu64 " (%s): expected flags 0x%x, "
			    "found 0x%" PRIx64, s->id, name, s->l.schema_flags, v);
	eoff = pl_get64(body + 32);
	nent = pl_get64(body + 40);
	if (eoff != PL_SCHEMA_ATTR_SIZE)
		return fail(r, o + 32, "schema %" PRIu64 " (%s): expected the entries at %u, "
			    "found %" PRIu64, s->id, name, PL_SCHEMA_ATTR_SIZE, eoff);
	if (nent != s->l.n || nent > (len - eoff) / PL_SCHEMA_ENTRY_SIZE)
		return fail(r, o + 40, "schema %" PRIu64 " (%s): expected %zu entries inside "
			    "its %" PRIu64 " bytes, found %" PRIu64, s->id, name, s->l.n, len, nent);
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
	if (pl_kind_timed(kind)) {
		bool have = false;
		for (size_t j = 0; j < r->ntd; j++)
			have |= r->td[j].tb == (unsigned)tb;
		if (!have)
			return fail(r, o, "schema %" PRIu64 " (%s): expected the time domain of %s "
				    "before it, found none", s->id, name,
				    nvtxt_timebase_name((enum nvtxt_timebase)tb));
		if (!r->td_used[tb] && r->expect_tb != tb)
			return fail(r, o - PL_SECTION_HEADER_SIZE, "schema %" PRIu64 " (%s): expected "
				    "the time domain of %s right before the first schema that uses "
				    "it, found it earlier", s->id, name,
				    nvtxt_timebase_name((enum nvtxt_timebase)tb));
	}
	if (r->expect_tb >= 0 && r->expect_tb != tb)
		return fail(r, o - PL_SECTION_HEADER_SIZE, "expected a schema of %s right after its "
			    "time domain, found schema %" PRIu64 " (%s)",
			    nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb), s->id, name);
	for (size_t i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		const unsigned char *p = s->entries + i * PL_SCHEMA_ENTRY_SIZE;
		uint64_t eo = o + eoff + i * PL_SCHEMA_ENTRY_SIZE;
		uint64_t td = e->flags & PL_EF_TIMESTAMP ? PL_TIME_DOMAIN_ID_STATIC_START + (unsigned)tb : 0;
		const char *ename;

		if (pr_string(r, body, len, pl_get64(p + 16), o, eo + 16, "entry name") < 0 ||
		    pr_string(r, body, len, pl_get64(p + 24), o, eo + 24, "entry description") < 0)
			return -1;
		ename = (const char *)body + pl_get64(p + 16);
		if (strcmp(ename, e->name) || pl_get64(p) != e->flags ||
		    pl_get64(p + 8) != e->type || pl_get64(p + 32) != 0 ||
		    pl_get64(p + 40) != e->offset || pl_get64(p + 48) != td ||
		    pl_get64(p + 56) != 0)
			return fail(r, eo, "schema %" PRIu64 " (%s) entry %zu: expected "
				    "%s: flags 0x%x, type %u, offset %u, time domain %" PRIu64
				    ", detail 0, reserved 0, found %s: flags 0x%" PRIx64 ", type %"
				    PRIu64 ", offset %" PRIu64 ", time domain %" PRIu64 ", detail %"
				    PRIu64 ", reserved %" PRIu64, s->id, name, i, e->name, e->flags,
				    e->type, e->offset, td, ename, pl_get64(p), pl_get64(p + 8),
				    pl_get64(p + 40), pl_get64(p + 48), pl_get64(p + 32),
				    pl_get64(p + 56));
	}
	if ((v = pl_get64(body + 48)) != s->l.stride)
		return fail(r, o + 48, "schema %" PRIu64 " (%s): expected static size "
			    "%u, found %" PRIu64, s->id, name, s->l.stride, v);
	if ((v = pl_get64(body + 56)) != PL_PACK_ALIGN || pl_get64(body + 72))
		return fail(r, o + 56, "schema %" PRIu64 " (%s): expected packAlign %u "
			    "and no extension, found %" PRIu64 " and 0x%" PRIx64, s->id, name,
			    PL_PACK_ALIGN, v, pl_get64(body + 72));
	for (size_t j = 0; j < r->nschemas; j++)
		if (r->schemas[j].l.kind == s->l.kind && r->schemas[j].tb == s->tb &&
		    r->schemas[j].l.pid64 == s->l.pid64 && r->schemas[j].l.tid64 == s->l.tid64)
			return fail(r, o, "schema %" PRIu64 " (%s): expected a new "
				    "layout, found the one of schema %" PRIu64, s->id, name,
				    r->schemas[j].id);
	/* What is left (descriptions, where the strings are): as nvtxtc writes it. */
	wlen = pl_schema_body(&s->l, s->tb, s->id, want);
	for (size_t i = 0; i < wlen || i < len; i++)
		if (i >= wlen || i >= len || body[i] != want[i])
			return fail(r, o + i, "schema %" PRIu64 " (%s): expected the %zu-byte body "
				    "nvtxt-payload(5) gives it, found %s at byte %zu%s", s->id,
				    name, wlen, i >= wlen ? "more bytes" : i >= len ? "fewer bytes"
				    : "another byte", i,
				    i < wlen && i < len && i >= PL_SCHEMA_ATTR_SIZE + s->l.n *
				    PL_SCHEMA_ENTRY_SIZE ? " (its strings)" : "");
	s->name = name;
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

/* A string's slot in the batch's table of strings. */
static uint64_t *dedup_slot(struct nvtxt_payload_reader *r, const unsigned char *flex,
			    const unsigned char *str, size_t len)
{
	size_t mask = r->dedup_cap - 1, i = (size_t)hash_bytes(str, len) & mask;

	while (r->dedup[i] && (strlen((const char *)flex + r->dedup[i]) != len ||
			       memcmp(flex + r->dedup[i], str, len)))
		i = (i + 1) & mask;
	return &r->dedup[i];
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
			return fail(r, at, "%s: expected the offset of a string of flexData, found %"
				    PRIu64 ", inside the string before it", what, off);
		return 0;
	}
	if (off != *cursor)
		return fail(r, at, "%s: expected a string used before or the next one, at "
			    "flexData offset %" PRIu64 ", found %" PRIu64, what, *cursor, off);
	n = pr_string(r, b->flex, b->flex_size, off, b->flex_off, at, what);
	if (n < 0)
		return -1;
	if (n == 0)
		return fail(r, b->flex_off + off, "%s: expected the empty string at flexData "
			    "offset 0, found a second one at %" PRIu64, what, off);
	if (2 * (*nstr + 1) > r->dedup_cap) {
		size_t cap = r->dedup_cap ? 2 * r->dedup_cap : 256;
		uint64_t *old = r->dedup, *t = try_calloc(cap, sizeof *t);
		size_t oldcap = r->dedup_cap;
		if (!t)
			return fail_io(r, ENOMEM);
		r->dedup = t;
		r->dedup_cap = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				*dedup_slot(r, b->flex, b->flex + old[i],
					    strlen((const char *)b->flex + old[i])) = old[i];
		free(old);
	}
	slot = dedup_slot(r, b->flex, b->flex + off, (size_t)n);
	if (*slot)
		return fail(r, b->flex_off + off, "%s: expected each string once in a batch's "
			    "flexData, found \"%s\" again (first at offset %" PRIu64 ")", what,
			    (const char *)b->flex + off, *slot);
	*slot = off;
	(*nstr)++;
	*cursor += (uint64_t)n + 1;
	*bytes += (uint64_t)n + 1;
	return 0;
}

/* The checks of one record at file offset o, in batch b.  *bytes: as the writer counts them. */
static int pr_record(struct nvtxt_payload_reader *r, const struct pr_batch *b,
		     const unsigned char *rec, uint64_t o, uint64_t *cursor, size_t *nstr,
		     uint64_t *bytes)
{
	const struct pr_schema *s = b->s;
	const struct pl_layout *l = &s->l;
	uint64_t present = pr_field(s, rec, PL_R_PRESENT);
	int64_t t0 = pr_first_time(s, rec);
	int64_t t1 = (int64_t)pr_field(s, rec, PL_R_END);

#define AT(role) (o + s->roff[role])
	/* bytes that no entry holds: zero */
	for (uint32_t w = s->pad_words; w; w &= w - 1) {
		uint32_t k = 4 * (uint32_t)__builtin_ctz(w);
		if (pl_get32(rec + k))
			return fail(r, o + k, "expected zero padding between or after the entries "
				    "of a %s record, found 0x%08" PRIx32, s->name, pl_get32(rec + k));
	}
	if (l->at[PL_R_PRESENT] >= 0) {
		static const struct { uint32_t bit; enum pl_role role; } opt[] = {
			{ PL_PRESENT_CATEGORY, PL_R_CATEGORY }, { PL_PRESENT_COLOR, PL_R_COLOR },
			{ PL_PRESENT_MESSAGE, PL_R_MESSAGE }, { PL_PRESENT_PAYLOAD, PL_R_PAYLOAD },
		};
		if (present & ~(uint64_t)PL_PRESENT_ALL)
			return fail(r, AT(PL_R_PRESENT), "expected presence bits within "
				    "0x%x, found 0x%" PRIx64, PL_PRESENT_ALL, present);
		for (size_t i = 0; i < 4; i++)
			if (!(present & opt[i].bit) && pr_field(s, rec, opt[i].role))
				return fail(r, AT(opt[i].role), "expected 0 in absent "
					    "%s (its Present bit %u is clear), found %" PRIu64,
					    l->e[l->at[opt[i].role]].name, opt[i].bit,
					    pr_field(s, rec, opt[i].role));
	}
	if (pl_kind_timed(l->kind) && s->tb != NVTXT_TB_RELATIVE && (t0 < 0 || t1 < 0))
		return fail(r, t0 < 0 ? o + l->e[0].offset : AT(PL_R_END), "expected timestamps "
			    ">= 0 with TimeBase %s, found %" PRId64, nvtxt_timebase_name(s->tb),
			    t0 < 0 ? t0 : t1);
	if (l->kind == PL_K_START_END && t0 > t1)
		return fail(r, AT(PL_R_END), "expected a range end >= its start %" PRId64
			    ", found %" PRId64, t0, t1);
	if (l->at[PL_R_PID] >= 0 && l->pid64 &&
	    (pr_field(s, rec, PL_R_PID) > INT64_MAX || pr_field(s, rec, PL_R_PID) <= UINT32_MAX))
		return fail(r, AT(PL_R_PID), "expected a ProcessId above 2^32-1 and below 2^63 "
			    "in a schema of 64-bit ProcessIds (a smaller one has a PID_UINT32 "
			    "schema), found %" PRIu64, pr_field(s, rec, PL_R_PID));
	if (l->at[PL_R_TID] >= 0 && l->tid64 &&
	    (pr_field(s, rec, PL_R_TID) > INT64_MAX || pr_field(s, rec, PL_R_TID) <= UINT32_MAX))
		return fail(r, AT(PL_R_TID), "expected a ThreadId above 2^32-1 and below 2^63 "
			    "in a schema of 64-bit ThreadIds (a smaller one has a TID_UINT32 "
			    "schema), found %" PRIu64, pr_field(s, rec, PL_R_TID));
	*bytes = l->stride;
	if (l->at[PL_R_MESSAGE] >= 0 &&
	    pr_record_string(r, b, pr_field(s, rec, PL_R_MESSAGE), AT(PL_R_MESSAGE), "message",
			     cursor, nstr, bytes))
		return -1;
	if (l->at[PL_R_NAME] >= 0 &&
	    pr_record_string(r, b, pr_field(s, rec, PL_R_NAME), AT(PL_R_NAME), "name",
			     cursor, nstr, bytes))
		return -1;
#undef AT
	return 0;
}

static struct pr_batch *pr_batch_alloc(struct nvtxt_payload_reader *r, uint64_t len)
{
	struct pr_batch *b = r->spare;

	if (len > SIZE_MAX - 8) {
		errno = ENOMEM;
		return NULL;
	}
	if (b && b->cap >= len) {
		r->spare = NULL;
	} else {
		b = try_calloc(1, sizeof *b);
		if (!b)
			return NULL;
		b->cap = (size_t)len > 4096 ? (size_t)len : 4096;
		b->body = try_malloc(b->cap);
		if (!b->body) {
			free(b);
			return NULL;
		}
	}
	return b;
}

void pr_batch_free(struct nvtxt_payload_reader *r, struct pr_batch *b)
{
	if (!b)
		return;
	if (r && (!r->spare || r->spare->cap < b->cap)) {
		struct pr_batch *old = r->spare;
		r->spare = b;
		b = old;
		if (!b)
			return;
	}
	free(b->body);
	free(b);
}

/* Checks the batch whose body (len bytes at file offset o, flags of its section) is in b->body. */
static int pr_batch(struct nvtxt_payload_reader *r, struct pr_batch *b, uint64_t len, uint64_t o,
		    uint32_t secflags)
{
	const unsigned char *body = b->body;
	struct pr_schema *s = NULL;
	uint64_t id, size, eoff, foff, cursor = 1, prev = 0, group_bytes = 0;
	size_t nstr = 0;
	bool unsorted = false;

	if (r->expect_tb >= 0)
		return fail(r, o - PL_SECTION_HEADER_SIZE, "expected a schema of %s right after "
			    "its time domain, found a batch",
			    nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb));
	if (len < PL_BATCH_HEADER_SIZE)
		return fail(r, o, "batch: expected at least %u bytes, found %" PRIu64,
			    PL_BATCH_HEADER_SIZE, len);
	id = pl_get64(body);
	if (id - PL_SCHEMA_ID_STATIC_START < r->nschemas)
		s = &r->schemas[id - PL_SCHEMA_ID_STATIC_START];
	if (!s)
		return fail(r, o, "batch: expected the ID of a schema defined before it (%s), "
			    "found %" PRIu64, r->nschemas ? "2^24 and up" : "there is none", id);
	if (r->expect_batch && r->expect_batch != s)
		return fail(r, o, "batch: expected one of schema %" PRIu64 " (%s) right after "
			    "that schema, found one of schema %" PRIu64, r->expect_batch->id,
			    r->expect_batch->name, id);
	r->expect_batch = NULL;
	b->s = s;
	size = pl_get64(body + 8);
	eoff = pl_get64(body + 16);
	foff = pl_get64(body + 40);
	b->flex_size = pl_get64(body + 48);
	/* where the page puts the events and flexData */
	if (eoff != PL_BATCH_HEADER_SIZE)
		return fail(r, o + 16, "batch of schema %" PRIu64 ": expected the events at "
			    "offset %u, right after the batch header, found %" PRIu64, id,
			    PL_BATCH_HEADER_SIZE, eoff);
	if (size == 0 || size % s->l.stride || size > len - eoff)
		return fail(r, o + 8, "batch of schema %" PRIu64 ": expected a size of 1 or more "
			    "events of %u bytes that ends inside the section (%" PRIu64 " bytes), "
			    "found %" PRIu64 " bytes", id, s->l.stride, len, size);
	if (foff != eoff + size)
		return fail(r, o + 40, "batch of schema %" PRIu64 ": expected flexData right "
			    "after the events, at %" PRIu64 ", found %" PRIu64, id, eoff + size, foff);
	if (b->flex_size != len - foff || pl_get64(body + 56) != 0)
		return fail(r, o + 48, "batch of schema %" PRIu64 ": expected flexData to the "
			    "end of the section (%" PRIu64 " bytes) and flexDataOffset 0, found %"
			    PRIu64 " bytes and flexDataOffset %" PRIu64, id, len - foff,
			    b->flex_size, pl_get64(body + 56));
	b->flags = pl_get64(body + 32);
	b->scope = pl_get64(body + 24);
	if (b->scope != PL_SCOPE_NONE)
		return fail(r, o + 24, "batch of schema %" PRIu64 ": expected scope "
			    "NVTX_SCOPE_NONE = 0, found %" PRIu64, id, b->scope);
	if (b->flex_size == 0 || body[foff] != 0)
		return fail(r, o + foff, "batch of schema %" PRIu64 ": expected flexData "
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
	/* the flush group */
	if (!r->in_group) {
		if (r->group && !r->prev_full)
			return fail(r, r->prev_end, "expected the flush group that ends here to be "
				    "the last (it holds fewer than %u records and %u bytes, so the "
				    "writer had not flushed it), found another batch after it",
				    PL_GROUP_EVENTS, PL_GROUP_BYTES);
		r->in_group = true;
		r->group++;
		r->gn = r->gbytes = 0;
	}
	if (s->group == r->group)
		return fail(r, o, "batch of schema %" PRIu64 ": expected one batch per schema in "
			    "a flush group, found a second one", id);
	s->group = r->group;
	if (r->dedup_cap)
		memset(r->dedup, 0, r->dedup_cap * sizeof *r->dedup);
	for (uint64_t i = 0; i < b->nev; i++) {
		const unsigned char *rec = b->events + i * s->l.stride;
		uint64_t ro = b->events_off + i * s->l.stride;
		uint64_t ord = pr_field(s, rec, PL_R_ORDINAL), oo = ro + s->roff[PL_R_ORDINAL];
		uint64_t bytes;

		if (ord >= r->nevents)
			return fail(r, oo, "expected an ordinal below %" PRIu64 " (the header's "
				    "count), found %" PRIu64, r->nevents, ord);
		if (i == 0 && ord != r->low)
			return fail(r, oo, "batch of schema %" PRIu64 ": expected its first record "
				    "to have ordinal %" PRIu64 ", the lowest that no earlier batch "
				    "holds, found %" PRIu64, id, r->low, ord);
		if (i > 0 && ord <= prev)
			return fail(r, oo, "expected ordinals that grow from record to record of "
				    "a batch, found %" PRIu64 " after %" PRIu64, ord, prev);
		if (ord < r->low || bit_get(r, ord))
			return fail(r, oo, "expected ordinal %" PRIu64 " once, found it again", ord);
		if (ord - r->low >= PR_WINDOW)
			return fail(r, oo, "expected an ordinal below %" PRIu64 " (within a flush "
				    "group of %u records of %" PRIu64 ", the lowest not in an "
				    "earlier batch), found %" PRIu64, r->low + PR_WINDOW,
				    PL_GROUP_EVENTS, r->low, ord);
		if (pr_record(r, b, rec, ro, &cursor, &nstr, &bytes))
			return -1;
		if (i && pl_kind_timed(s->l.kind) &&
		    pr_first_time(s, rec) < pr_first_time(s, rec - s->l.stride))
			unsorted = true;
		bit_flip(r, ord);
		prev = ord;
		group_bytes += bytes;
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
				return fail_io(r, ENOMEM);
			memcpy(copy, nm, nmlen);
			free(r->display_name);
			r->display_name = copy;
		}
	}
	if (cursor != b->flex_size)
		return fail(r, b->flex_off + cursor, "batch of schema %" PRIu64 ": expected "
			    "flexData to end after the last string a record uses, found %" PRIu64
			    " more bytes", id, b->flex_size - cursor);
	if (b->flags != (unsorted ? PL_BATCH_UNSORTED : PL_BATCH_TIME_SORTED))
		return fail(r, o + 32, "batch of schema %" PRIu64 ": expected flags %s (its "
			    "events are %sin the order of their first timestamp), found 0x%" PRIx64,
			    id, unsorted ? "UNSORTED = 6" : "TIME_SORTED = 0", unsorted ? "not " : "",
			    b->flags);
	while (r->low < r->nevents && bit_get(r, r->low)) {
		bit_flip(r, r->low);
		r->low++;
	}
	r->gbytes += group_bytes;
	if (r->gn > PL_GROUP_EVENTS || r->gbytes - r->gmax_bytes >= PL_GROUP_BYTES)
		return fail(r, o, "batch of schema %" PRIu64 ": expected its flush group (the "
			    "batches since the last group end) to hold at most %u records, and "
			    "fewer than %u bytes of records and strings besides its "
			    "highest-ordinal record (the writer flushes at either limit), found "
			    "%" PRIu64 " records and %" PRIu64 " such bytes up to this batch", id,
			    PL_GROUP_EVENTS, PL_GROUP_BYTES, r->gn, r->gbytes - r->gmax_bytes);
	if (b->group_end) {
		if (r->low != r->gmax + 1)
			return fail(r, o - PL_SECTION_HEADER_SIZE + 4, "expected the flush group "
				    "that ends here to hold every ordinal up to its last, %" PRIu64
				    ", found none for %" PRIu64, r->gmax, r->low);
		r->in_group = false;
		r->prev_full = r->gn == PL_GROUP_EVENTS || r->gbytes >= PL_GROUP_BYTES;
		r->prev_end = o + len;
	}
	return 0;
}

/* ---- sections ---- */

/* The end of the file: what the header promised, and nothing after it. */
static enum pr_item pr_end(struct nvtxt_payload_reader *r)
{
	unsigned char extra;
	ptrdiff_t got;

	if (r->expect_tb >= 0)
		return fail(r, r->off, "expected a schema of %s after its time domain, found the "
			    "end of the file", nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb)),
		       PR_ERROR;
	if (r->expect_batch)
		return fail(r, r->off, "expected a batch of schema %" PRIu64 " (%s) after it, "
			    "found the end of the file", r->expect_batch->id,
			    r->expect_batch->name), PR_ERROR;
	if (r->in_group)
		return fail(r, r->off, "expected the last batch to end its flush group (section "
			    "flag 1), found the end of the file"), PR_ERROR;
	if (r->nsec != r->nsections)
		return fail(r, 40, "expected %" PRIu64 " sections (the header's count), found %"
			    PRIu64, r->nsections, r->nsec), PR_ERROR;
	if (r->low != r->nevents)
		return fail(r, 32, "expected a record for every ordinal below %" PRIu64
			    " (the header's count), found none for %" PRIu64, r->nevents, r->low),
		       PR_ERROR;
	got = pr_read(r, &extra, 1);
	if (got < 0)
		return fail_io(r, errno), PR_ERROR;
	if (got > 0)
		return fail(r, 24, "expected a file of %" PRIu64 " bytes (the header's size), "
			    "found more (trailing data)", r->file_size), PR_ERROR;
	r->ended = true;
	return PR_END;
}

enum pr_item pr_next(struct nvtxt_payload_reader *r, struct pr_batch **bp)
{
	unsigned char sh[PL_SECTION_HEADER_SIZE], tdbuf[PL_TIME_DOMAIN_SIZE];
	uint64_t type, len, pad, left, o;
	uint32_t flags;
	unsigned char *body;
	struct pr_batch *b = NULL;
	struct pr_schema *s = NULL;

	*bp = NULL;
	if (r->failed)
		return PR_ERROR;
	if (r->ended)
		return PR_END;
	if (r->off == r->file_size)
		return pr_end(r);
	o = r->off;
	left = r->file_size - o;
	if (left < PL_SECTION_HEADER_SIZE)
		return fail(r, o, "expected a %u-byte section header, found %" PRIu64 " bytes "
			    "before the end of the file (the header's size)",
			    PL_SECTION_HEADER_SIZE, left), PR_ERROR;
	if (pr_read_exact(r, sh, sizeof sh))
		return PR_ERROR;
	type = pl_get32(sh);
	flags = pl_get32(sh + 4);
	len = pl_get64(sh + 8);
	if (type < PL_SEC_TIME_DOMAINS || type > PL_SEC_BATCH ||
	    (flags & ~(type == PL_SEC_BATCH ? PL_SEC_GROUP_END : 0u)))
		return fail(r, o, "expected a section of type 1, 2 or 3 with flags 0 (1 or 0 for "
			    "a batch), found type %" PRIu64 ", flags 0x%" PRIx32, type, flags),
		       PR_ERROR;
	pad = -len & 7;
	left -= PL_SECTION_HEADER_SIZE;
	if (len > left || pad > left - len)
		return fail(r, o + 8, "expected a section inside the file (%" PRIu64 " bytes "
			    "left), found %" PRIu64 " bytes and %" PRIu64 " of padding", left, len,
			    pad), PR_ERROR;
	if (type == PL_SEC_SCHEMA && len > PL_SCHEMA_BODY_MAX)
		return fail(r, o + 8, "schema: expected at most %u bytes, found %" PRIu64,
			    PL_SCHEMA_BODY_MAX, len), PR_ERROR;
	if (++r->nsec > r->nsections)
		return fail(r, o, "expected %" PRIu64 " sections (the header's count), found "
			    "another", r->nsections), PR_ERROR;
	if (type == PL_SEC_BATCH) {
		b = pr_batch_alloc(r, len + pad);
		if (!b)
			return fail_io(r, ENOMEM), PR_ERROR;
		body = b->body;
	} else if (type == PL_SEC_SCHEMA) {
		if (r->nschemas == PR_MAX_SCHEMAS)
			return fail(r, o, "expected at most %d schemas (one per command, TimeBase "
				    "and widths), found another", PR_MAX_SCHEMAS), PR_ERROR;
		if (!r->schemas && !(r->schemas = try_calloc(PR_MAX_SCHEMAS, sizeof *r->schemas)))
			return fail_io(r, ENOMEM), PR_ERROR;
		s = &r->schemas[r->nschemas];
		memset(s, 0, sizeof *s);
		s->body = try_malloc(len + pad + 1);
		if (!s->body)
			return fail_io(r, ENOMEM), PR_ERROR;
		body = s->body;
	} else {
		if (len != PL_TIME_DOMAIN_SIZE)
			return fail(r, o + 8, "time domains: expected one record of %u bytes, found %"
				    PRIu64 " bytes", PL_TIME_DOMAIN_SIZE, len), PR_ERROR;
		body = tdbuf; /* len is a multiple of 8: no padding */
	}
	if (pr_read_exact(r, body, (size_t)(len + pad)))
		goto bad;
	for (uint64_t i = 0; i < pad; i++)
		if (body[len + i]) {
			fail(r, o + PL_SECTION_HEADER_SIZE + len + i, "expected zero padding, found "
			     "0x%02x", body[len + i]);
			goto bad;
		}
	if (type != PL_SEC_BATCH && r->expect_batch) {
		fail(r, o, "expected a batch of schema %" PRIu64 " (%s) right after that schema, "
		     "found a section of type %" PRIu64, r->expect_batch->id, r->expect_batch->name,
		     type);
		goto bad;
	}
	if (type == PL_SEC_TIME_DOMAINS) {
		if (r->expect_tb >= 0) {
			fail(r, o, "expected a schema of %s right after its time domain, found "
			     "another time domain",
			     nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb));
			goto bad;
		}
		if (pr_time_domains(r, body, o + PL_SECTION_HEADER_SIZE))
			goto bad;
		return PR_TIME_DOMAIN;
	}
	if (type == PL_SEC_SCHEMA) {
		if (pr_schema(r, s, len, o + PL_SECTION_HEADER_SIZE))
			goto bad;
		r->nschemas++;
		r->expect_batch = s;
		return PR_SCHEMA;
	}
	if (pr_batch(r, b, len, o + PL_SECTION_HEADER_SIZE, flags))
		goto bad;
	*bp = b;
	return PR_BATCH;
bad:
	if (s)
		free(s->body);
	pr_batch_free(r, b);
	return PR_ERROR;
}

/* ---- the public interface ---- */

static struct nvtxt_payload_reader *pr_new(void)
{
	struct nvtxt_payload_reader *r = try_calloc(1, sizeof *r);

	if (r)
		r->expect_tb = -1;
	return r;
}

static int pr_opened(struct nvtxt_payload_reader **rp, struct nvtxt_payload_reader *r,
		     char *err, size_t errlen)
{
	if (errlen)
		err[0] = 0;
	if (pr_header_check(r) == 0) {
		*rp = r;
		return 0;
	}
	if (errlen)
		snprintf(err, errlen, "%s", r->err);
	nvtxt_payload_reader_free(r);
	return -1;
}

int nvtxt_payload_reader_new(struct nvtxt_payload_reader **rp, nvtxt_payload_read_fn read,
			     void *user, char *err, size_t errlen)
{
	struct nvtxt_payload_reader *r = pr_new();

	*rp = NULL;
	if (!r) {
		if (errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->read = read;
	r->user = user;
	return pr_opened(rp, r, err, errlen);
}

int nvtxt_payload_open(struct nvtxt_payload_reader **rp, const void *data, size_t size,
		       char *err, size_t errlen)
{
	struct nvtxt_payload_reader *r = pr_new();

	*rp = NULL;
	if (!r) {
		if (errlen)
			snprintf(err, errlen, "out of memory");
		return -1;
	}
	r->mem = data;
	r->mem_size = size;
	return pr_opened(rp, r, err, errlen);
}

void nvtxt_payload_reader_free(struct nvtxt_payload_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nschemas; i++)
		free(r->schemas[i].body);
	free(r->schemas);
	while (r->active) {
		struct pr_batch *b = r->active;
		r->active = b->next;
		pr_batch_free(NULL, b);
	}
	pr_batch_free(NULL, r->spare);
	free(r->dedup);
	free(r->display_name);
	free(r);
}

int nvtxt_payload_reader_errno(const struct nvtxt_payload_reader *r)
{
	return r->io_errno;
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

void pr_event(const struct pr_batch *b, const unsigned char *rec, struct nvtxt_event *ev)
{
	const struct pr_schema *s = b->s;
	uint64_t present = pr_field(s, rec, PL_R_PRESENT);
	static const enum nvtxt_command cmd[PL_K_COUNT] = {
		NVTXT_CMD_MARKER, NVTXT_CMD_RANGE_START_END, NVTXT_CMD_RANGE_PUSH,
		NVTXT_CMD_RANGE_POP, NVTXT_CMD_NAME_CATEGORY, NVTXT_CMD_ADD_CHILD_CATEGORY,
		NVTXT_CMD_NAME_OS_THREAD, NVTXT_CMD_NAME_PROCESS,
		NVTXT_CMD_SET_FILE_DISPLAY_NAME,
	};
	static const uint32_t required[PL_K_COUNT] = {
#define B(x) NVTXT_BIT(NVTXT_ARG_##x)
		B(TIME) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
		B(START) | B(END) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
		B(TIME) | B(TIMEBASE) | B(PROCESS_ID) | B(THREAD_ID),
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
	if (s->l.kind == PL_K_START_END) {
		ev->start = (int64_t)pr_field(s, rec, PL_R_START);
		ev->end = (int64_t)pr_field(s, rec, PL_R_END);
	} else {
		ev->time = (int64_t)pr_field(s, rec, PL_R_TIME);
	}
	ev->process_id = (int64_t)pr_field(s, rec, PL_R_PID);
	ev->thread_id = (int64_t)pr_field(s, rec, PL_R_TID);
	ev->category_id = (uint32_t)pr_field(s, rec, PL_R_CATEGORY);
	ev->parent_category_id = (uint32_t)pr_field(s, rec, PL_R_PARENT);
	ev->color = (uint32_t)pr_field(s, rec, PL_R_COLOR);
	ev->payload = (int64_t)pr_field(s, rec, PL_R_PAYLOAD);
	if (s->l.at[PL_R_MESSAGE] >= 0)
		ev->message = pr_str(b, pr_field(s, rec, PL_R_MESSAGE));
	if (s->l.at[PL_R_NAME] >= 0)
		ev->name = pr_str(b, pr_field(s, rec, PL_R_NAME));
	ev->ordinal = pr_field(s, rec, PL_R_ORDINAL);
}

int pr_result(const struct nvtxt_payload_reader *r, char *err, size_t errlen)
{
	if (errlen)
		snprintf(err, errlen, "%s", r->err);
	return r->io_errno ? NVTXT_PAYLOAD_EIO : NVTXT_PAYLOAD_EFORMAT;
}

int nvtxt_payload_decompile(struct nvtxt_payload_reader *r, const struct nvtxt_backend *be,
			    char *err, size_t errlen)
{
	struct nvtxt_event ev;
	struct pr_batch *last = NULL, **tail;
	enum pr_item it;

	if (errlen)
		err[0] = 0;
	for (r->next = 0; r->next < r->nevents;) {
		struct pr_batch *b = NULL, **link = &r->active;
		const unsigned char *rec;

		/* the batch of the last record first: calls of a kind come in runs */
		if (last && last->cur < last->nev &&
		    pr_field(last->s, last->events + last->cur * last->s->l.stride, PL_R_ORDINAL) ==
		    r->next) {
			b = last;
		} else {
			for (; *link; link = &(*link)->next)
				if (pr_field((*link)->s, (*link)->events + (*link)->cur *
					     (*link)->s->l.stride, PL_R_ORDINAL) == r->next)
					break;
			b = *link;
		}
		if (!b) {
			/* the next batch holds it: it starts with the lowest ordinal not read */
			while ((it = pr_next(r, &b)) == PR_TIME_DOMAIN || it == PR_SCHEMA)
				;
			if (it == PR_ERROR)
				return pr_result(r, err, errlen);
			if (it == PR_END) /* cannot happen: pr_end checks every ordinal was read */
				break;
			for (tail = &r->active; *tail; tail = &(*tail)->next)
				;
			*tail = b;
		}
		rec = b->events + b->cur * b->s->l.stride;
		pr_event(b, rec, &ev);
		if (be->event(be->user, &ev))
			goto io;
		r->next++;
		last = b;
		if (++b->cur == b->nev) {
			for (link = &r->active; *link != b; link = &(*link)->next)
				;
			*link = b->next;
			pr_batch_free(r, b);
			last = NULL;
		}
	}
	while ((it = pr_next(r, &last)) != PR_END) {
		if (it == PR_ERROR)
			return pr_result(r, err, errlen);
		pr_batch_free(r, last); /* cannot happen: pr_batch rejects ordinals past the count */
	}
	if (be->finish(be->user))
		goto io;
	return 0;
io:
	if (errlen)
		snprintf(err, errlen, "write error: %s", strerror(errno));
	r->io_errno = errno ? errno : EIO;
	return NVTXT_PAYLOAD_EIO;
}
