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
 * have any byte order.  This file reads and orders the sections; their
 * bodies (time domains, schemas, batches) are checked in payload_sections.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "payload_reader.h"
#include "util.h"

int pr_fail(struct nvtxt_payload_reader *r, uint64_t off, const char *fmt, ...)
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
int pr_fail_io(struct nvtxt_payload_reader *r, int e)
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
		return pr_fail_io(r, errno);
	if ((size_t)got < n)
		return pr_fail(r, PL_HDR_FILE_SIZE, "expected a file of %" PRIu64 " bytes (the header's size), "
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
		return pr_fail_io(r, errno);
	r->off = (uint64_t)got;
	if (!nvtxt_payload_sniff(h, (size_t)got))
		return pr_fail(r, PL_HDR_MAGIC, "expected the payload magic \\x89NVTXT\\r\\n, found %s",
			       got < PL_MAGIC_LEN ? "a shorter file" : "other bytes");
	if (got < PL_HEADER_SIZE)
		return pr_fail(r, (uint64_t)got, "expected a %u-byte header, found %td bytes",
			       PL_HEADER_SIZE, got);
	if ((v = pl_get32(h + PL_HDR_BOM)) != PL_BOM)
		return pr_fail(r, PL_HDR_BOM, "expected the little-endian byte-order mark "
			       "0x0A0B0C0D, found 0x%08" PRIX64 "%s", v,
			       v == 0x0D0C0B0Au ? " (a big-endian file: not supported)" : "");
	if ((v = pl_get64(h + PL_HDR_COMPAT_ID)) != PL_NVTX_PAYLOAD_COMPATID)
		return pr_fail(r, PL_HDR_COMPAT_ID, "expected the payload extension compat ID 0x%04x, "
			       "found 0x%" PRIx64, PL_NVTX_PAYLOAD_COMPATID, v);
	major = pl_get16(h + PL_HDR_MAJOR);
	minor = pl_get16(h + PL_HDR_MINOR);
	if (major != PL_VERSION_MAJOR || minor > PL_VERSION_MINOR)
		return pr_fail(r, PL_HDR_MAJOR, "expected format version %u.0%s%.0u%s%.0u, found %u.%u%s",
			       PL_VERSION_MAJOR, PL_VERSION_MINOR ? " to " : "",
			       PL_VERSION_MINOR ? PL_VERSION_MAJOR : 0, PL_VERSION_MINOR ? "." : "",
			       PL_VERSION_MINOR, major, minor,
			       major < PL_VERSION_MAJOR ? " (an older format: write the file again with "
			       "nvtxtc --emit=payload)" : " (a newer format than this nvtxtc reads)");
	if (pl_get32(h + PL_HDR_HEADER_SIZE) != PL_HEADER_SIZE || pl_get32(h + PL_HDR_FLAGS) ||
	    pl_get64(h + PL_HDR_RESERVED))
		return pr_fail(r, PL_HDR_HEADER_SIZE, "expected header size %u, flags 0 and reserved 0, "
			       "found %" PRIu32 ", 0x%" PRIx32 " and 0x%" PRIx64, PL_HEADER_SIZE,
			       pl_get32(h + PL_HDR_HEADER_SIZE), pl_get32(h + PL_HDR_FLAGS),
			       pl_get64(h + PL_HDR_RESERVED));
	if ((r->file_size = pl_get64(h + PL_HDR_FILE_SIZE)) == 0)
		return pr_fail(r, PL_HDR_FILE_SIZE, "expected the file size in the header, found 0 "
			       "(the writer never finished)");
	if (r->file_size < PL_HEADER_SIZE)
		return pr_fail(r, PL_HDR_FILE_SIZE, "expected a file size of at least %u bytes, found %" PRIu64,
			       PL_HEADER_SIZE, r->file_size);
	if (r->mem && r->file_size != r->mem_size)
		return pr_fail(r, PL_HDR_FILE_SIZE, "expected a file of %" PRIu64 " bytes (the header's size), "
			       "found %zu bytes (%s)", r->file_size, r->mem_size,
			       r->file_size > r->mem_size ? "truncated" : "trailing data");
	/* Every ordinal takes at least 8 bytes of a record. */
	if ((r->nevents = pl_get64(h + PL_HDR_ORDINALS)) > r->file_size / 8)
		return pr_fail(r, PL_HDR_ORDINALS, "expected at most %" PRIu64 " ordinals in %" PRIu64 " bytes, "
			       "found %" PRIu64, r->file_size / 8, r->file_size, r->nevents);
	r->nsections = pl_get64(h + PL_HDR_SECTIONS);
	return 0;
}

/* ---- sections ---- */

/* The end of the file: what the header promised, and nothing after it. */
static enum pr_item pr_end(struct nvtxt_payload_reader *r)
{
	unsigned char extra;
	ptrdiff_t got;

	if (r->expect_tb >= 0)
		return pr_fail(r, r->off, "expected a schema of %s after its time domain, found the "
			       "end of the file", nvtxt_timebase_name((enum nvtxt_timebase)r->expect_tb)),
		       PR_ERROR;
	if (r->expect_batch)
		return pr_fail(r, r->off, "expected a batch of schema %" PRIu64 " (%s) after it, "
			       "found the end of the file", r->expect_batch->id,
			       r->expect_batch->name), PR_ERROR;
	if (r->in_group)
		return pr_fail(r, r->off, "expected the last batch to end its flush group (section "
			       "flag 1), found the end of the file"), PR_ERROR;
	if (r->nsec != r->nsections)
		return pr_fail(r, PL_HDR_SECTIONS, "expected %" PRIu64 " sections (the header's count), found %"
			       PRIu64, r->nsections, r->nsec), PR_ERROR;
	if (r->low != r->nevents)
		return pr_fail(r, PL_HDR_ORDINALS, "expected a record for every ordinal below %" PRIu64
			       " (the header's count), found none for %" PRIu64, r->nevents, r->low),
		       PR_ERROR;
	got = pr_read(r, &extra, 1);
	if (got < 0)
		return pr_fail_io(r, errno), PR_ERROR;
	if (got > 0)
		return pr_fail(r, PL_HDR_FILE_SIZE, "expected a file of %" PRIu64 " bytes (the header's size), "
			       "found more (trailing data)", r->file_size), PR_ERROR;
	r->ended = true;
	return PR_END;
}

/* The next section's header: a known type and flags, inside the file, one more than counted. */
static int section_header(struct nvtxt_payload_reader *r, uint64_t *typep, uint32_t *flagsp, uint64_t *lenp,
			  uint64_t *padp, uint64_t *op)
{
	unsigned char sh[PL_SECTION_HEADER_SIZE];
	uint64_t type, len, pad, left, o;
	uint32_t flags;

	o = *op = r->off;
	left = r->file_size - o;
	if (left < PL_SECTION_HEADER_SIZE)
		return pr_fail(r, o, "expected a %u-byte section header, found %" PRIu64 " bytes "
			       "before the end of the file (the header's size)",
			       PL_SECTION_HEADER_SIZE, left);
	if (pr_read_exact(r, sh, sizeof sh))
		return -1;
	type = *typep = pl_get32(sh + PL_SH_TYPE);
	flags = *flagsp = pl_get32(sh + PL_SH_FLAGS);
	len = *lenp = pl_get64(sh + PL_SH_LENGTH);
	if (type < PL_SEC_TIME_DOMAINS || type > PL_SEC_BATCH ||
	    (flags & ~(type == PL_SEC_BATCH ? PL_SEC_GROUP_END : 0u)))
		return pr_fail(r, o, "expected a section of type 1, 2 or 3 with flags 0 (1 or 0 for "
			       "a batch), found type %" PRIu64 ", flags 0x%" PRIx32, type, flags);
	pad = *padp = -len & 7;
	left -= PL_SECTION_HEADER_SIZE;
	if (len > left || pad > left - len)
		return pr_fail(r, o + PL_SH_LENGTH, "expected a section inside the file (%" PRIu64 " bytes "
			       "left), found %" PRIu64 " bytes and %" PRIu64 " of padding", left, len,
			       pad);
	if (type == PL_SEC_SCHEMA && len > PL_SCHEMA_BODY_MAX)
		return pr_fail(r, o + PL_SH_LENGTH, "schema: expected at most %u bytes, found %" PRIu64,
			       PL_SCHEMA_BODY_MAX, len);
	if (type == PL_SEC_BATCH && len > PL_BATCH_BODY_MAX)
		return pr_fail(r, o + PL_SH_LENGTH, "batch: expected at most %u bytes (a flush group's "
			       "records and strings, and one string of at most %u bytes), found %" PRIu64,
			       PL_BATCH_BODY_MAX, PL_STRING_MAX, len);
	if (++r->nsec > r->nsections)
		return pr_fail(r, o, "expected %" PRIu64 " sections (the header's count), found "
			       "another", r->nsections);
	return 0;
}

/* Where the section's body goes: a batch, the next schema, or the time domain buffer td. */
static unsigned char *section_buffer(struct nvtxt_payload_reader *r, uint64_t type, uint64_t len, uint64_t pad,
				     uint64_t o, unsigned char *tdbuf, struct pr_batch **bp, struct pr_schema **sp)
{
	struct pr_batch *b;
	struct pr_schema *s;

	if (type == PL_SEC_BATCH) {
		b = pr_batch_alloc(r, len + pad);
		if (!b)
			return pr_fail_io(r, ENOMEM), NULL;
		*bp = b;
		return b->body;
	}
	if (type == PL_SEC_SCHEMA) {
		if (r->nschemas == PR_MAX_SCHEMAS)
			return pr_fail(r, o, "expected at most %d schemas (one per command, TimeBase "
				       "and widths), found another", PR_MAX_SCHEMAS), NULL;
		if (!r->schemas && !(r->schemas = try_calloc(PR_MAX_SCHEMAS, sizeof *r->schemas)))
			return pr_fail_io(r, ENOMEM), NULL;
		s = &r->schemas[r->nschemas];
		memset(s, 0, sizeof *s);
		s->body = try_malloc(len + pad + 1);
		if (!s->body)
			return pr_fail_io(r, ENOMEM), NULL;
		*sp = s;
		return s->body;
	}
	if (len != PL_TIME_DOMAIN_SIZE)
		return pr_fail(r, o + PL_SH_LENGTH, "time domains: expected one record of %u bytes, found %"
			       PRIu64 " bytes", PL_TIME_DOMAIN_SIZE, len), NULL;
	return tdbuf; /* len is a multiple of 8: no padding */
}

enum pr_item pr_next(struct nvtxt_payload_reader *r, struct pr_batch **bp)
{
	unsigned char tdbuf[PL_TIME_DOMAIN_SIZE];
	uint64_t type = 0, len = 0, pad = 0, o = 0;
	uint32_t flags = 0;
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
	if (section_header(r, &type, &flags, &len, &pad, &o))
		return PR_ERROR;
	body = section_buffer(r, type, len, pad, o, tdbuf, &b, &s);
	if (!body)
		return PR_ERROR;
	if (pr_read_exact(r, body, (size_t)(len + pad)))
		goto bad;
	for (uint64_t i = 0; i < pad; i++)
		if (body[len + i]) {
			pr_fail(r, o + PL_SECTION_HEADER_SIZE + len + i, "expected zero padding, found "
			        "0x%02x", body[len + i]);
			goto bad;
		}
	if (type != PL_SEC_BATCH && r->expect_batch) {
		pr_fail(r, o, "expected a batch of schema %" PRIu64 " (%s) right after that schema, "
		        "found a section of type %" PRIu64, r->expect_batch->id, r->expect_batch->name,
		        type);
		goto bad;
	}
	if (type == PL_SEC_TIME_DOMAINS) {
		if (r->expect_tb >= 0) {
			pr_fail(r, o, "expected a schema of %s right after its time domain, found "
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
	pr_chunks_free(r);
	for (size_t i = 0; i < r->nschemas; i++)
		free(r->schemas[i].body);
	free(r->schemas);
	while (r->active) {
		struct pr_batch *b = r->active;
		r->active = b->next;
		pr_batch_free(NULL, b);
	}
	pr_pool_free(r);
	free(r->dedup);
	free(r->holder);
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

void pr_schema_calls(struct pr_schema *s)
{
	static const enum nvtxt_command cmd[PL_K_COUNT] = {
		NVTXT_CMD_MARKER, NVTXT_CMD_RANGE_START_END, NVTXT_CMD_RANGE_PUSH,
		NVTXT_CMD_RANGE_POP, NVTXT_CMD_NAME_CATEGORY, NVTXT_CMD_ADD_CHILD_CATEGORY,
		NVTXT_CMD_NAME_OS_THREAD, NVTXT_CMD_NAME_PROCESS,
		NVTXT_CMD_SET_FILE_DISPLAY_NAME,
	};
#define B(x) NVTXT_BIT(NVTXT_ARG_##x)
	static const uint32_t required[PL_K_COUNT] = {
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
#undef B
	s->cmd = cmd[s->l.kind];
	s->required = required[s->l.kind];
	s->timebase = s->tb < NVTXT_TB_COUNT ? s->tb : NVTXT_TB_QPC;
}

/* The arguments of each combination of Present bits (PL_PRESENT_*). */
#define PB(x) NVTXT_BIT(NVTXT_ARG_##x)
#define PR_PRESENT(p) ((p & PL_PRESENT_CATEGORY ? PB(CATEGORY_ID) : 0) | \
		       (p & PL_PRESENT_COLOR ? PB(COLOR) : 0) | \
		       (p & PL_PRESENT_MESSAGE ? PB(MESSAGE) : 0) | \
		       (p & PL_PRESENT_PAYLOAD ? PB(PAYLOAD) : 0))
static const uint32_t pr_present[PL_PRESENT_ALL + 1] = {
	PR_PRESENT(0), PR_PRESENT(1), PR_PRESENT(2), PR_PRESENT(3), PR_PRESENT(4),
	PR_PRESENT(5), PR_PRESENT(6), PR_PRESENT(7), PR_PRESENT(8), PR_PRESENT(9),
	PR_PRESENT(10), PR_PRESENT(11), PR_PRESENT(12), PR_PRESENT(13), PR_PRESENT(14),
	PR_PRESENT(15),
};
#undef PR_PRESENT
#undef PB

/* A ProcessId or ThreadId: 4 or 8 bytes as the schema says. */
static inline int64_t pr_id(const struct pr_schema *s, const unsigned char *rec, enum pl_role role)
{
	return s->rsize[role] == 8 ? (int64_t)pl_get64(rec + s->roff[role])
	       : (int64_t)pl_get32(rec + s->roff[role]);
}

/*
 * The arguments of an event record (Marker, RangeStartEnd, RangePush,
 * RangePop) into ev, every field written once: the records are where a
 * file's bytes are, and a memset of the event first and the fields after
 * it cost as much again as the fields.  What a schema fixes was set once
 * per schema (pr_schema_calls); what the checks left is taken as it is:
 * absent values are 0, Present has no other bit.
 */
static void pr_timed_event(const struct pr_batch *b, const unsigned char *rec, struct nvtxt_event *ev)
{
	const struct pr_schema *s = b->s;
	uint64_t msg;

	ev->time = ev->start = ev->end = 0;
	if (s->l.kind == PL_K_START_END) {
		ev->start = (int64_t)pl_get64(rec + s->roff[PL_R_START]);
		ev->end = (int64_t)pl_get64(rec + s->roff[PL_R_END]);
	} else {
		ev->time = (int64_t)pl_get64(rec + s->roff[PL_R_TIME]);
	}
	ev->process_id = pr_id(s, rec, PL_R_PID);
	ev->thread_id = pr_id(s, rec, PL_R_TID);
	ev->parent_category_id = 0;
	ev->name = (struct nvtxt_str){ NULL, 0 };
	if (s->l.kind == PL_K_POP) {
		ev->present = s->required;
		ev->category_id = ev->color = 0;
		ev->payload = 0;
		ev->message = (struct nvtxt_str){ NULL, 0 };
		return;
	}
	ev->present = s->required | pr_present[pl_get32(rec + s->roff[PL_R_PRESENT]) & PL_PRESENT_ALL];
	ev->category_id = pl_get32(rec + s->roff[PL_R_CATEGORY]);
	ev->color = pl_get32(rec + s->roff[PL_R_COLOR]);
	ev->payload = (int64_t)pl_get64(rec + s->roff[PL_R_PAYLOAD]);
	msg = pl_get64(rec + s->roff[PL_R_MESSAGE]);
	ev->message = pr_str(b, msg);
}

/* The call of a record (pr_fill's, where it is inlined). */
static void pr_event(const struct pr_batch *b, const unsigned char *rec, struct nvtxt_event *ev, bool lines)
{
	const struct pr_schema *s = b->s;
	uint64_t ord = pl_get64(rec + s->roff[PL_R_ORDINAL]);
	uint32_t line = ord < UINT32_MAX ? (uint32_t)ord + 1 : UINT32_MAX;

	ev->command = (enum nvtxt_command)s->cmd;
	ev->timebase = (enum nvtxt_timebase)s->timebase;
	ev->ordinal = ord;
	ev->push = NULL;
	ev->loc = (struct nvtxt_loc){ lines ? line : 0, lines, 0, 0 };
	if (pl_kind_timed(s->l.kind)) {
		pr_timed_event(b, rec, ev);
		return;
	}
	/* the naming calls */
	memset(ev, 0, offsetof(struct nvtxt_event, push));
	ev->command = (enum nvtxt_command)s->cmd;
	ev->present = s->required;
	ev->timebase = (enum nvtxt_timebase)s->timebase;
	ev->category_id = (uint32_t)pr_field(s, rec, PL_R_CATEGORY);
	ev->parent_category_id = (uint32_t)pr_field(s, rec, PL_R_PARENT);
	if (s->rsize[PL_R_NAME])
		ev->name = pr_str(b, pr_field(s, rec, PL_R_NAME));
	if (s->rsize[PL_R_PID])
		ev->process_id = pr_id(s, rec, PL_R_PID);
	if (s->rsize[PL_R_TID])
		ev->thread_id = pr_id(s, rec, PL_R_TID);
}

int pr_result(const struct nvtxt_payload_reader *r, char *err, size_t errlen)
{
	if (errlen)
		snprintf(err, errlen, "%s", r->err);
	return r->io_errno ? NVTXT_PAYLOAD_EIO : NVTXT_PAYLOAD_EFORMAT;
}

/* The next batch, the end or an error, as pr_next gives them (time domains and schemas skipped). */
static enum pr_item pr_next_batch(struct nvtxt_payload_reader *r, struct pr_batch **bp)
{
	enum pr_item it;

	while ((it = pr_next(r, bp)) == PR_TIME_DOMAIN || it == PR_SCHEMA)
		;
	return it;
}

/*
 * The next batch read, at the end of the active ones, each of its
 * records entered in r->holder at its ordinal: PR_BATCH, or PR_END /
 * PR_ERROR from reading.  No two ordinals read and not handed on share
 * an entry: a batch is read when r->next is the lowest ordinal not read,
 * and holds none PR_WINDOW or more above it (the checks), so they all
 * lie within PR_WINDOW of r->next.
 */
static enum pr_item pr_take_batch(struct nvtxt_payload_reader *r)
{
	struct pr_batch *b, **link;
	enum pr_item it = pr_next_batch(r, &b);
	const unsigned char *rec;
	uint32_t stride;
	unsigned o_ord;

	if (it != PR_BATCH)
		return it;
	for (link = &r->active; *link; link = &(*link)->next)
		;
	*link = b;
	stride = b->s->l.stride;
	o_ord = b->s->roff[PL_R_ORDINAL];
	rec = b->events;
	for (uint64_t i = 0; i < b->nev; i++, rec += stride)
		r->holder[pl_get64(rec + o_ord) % PR_WINDOW] = b;
	return PR_BATCH;
}

/* After the last ordinal: the rest of the file, which holds no record (pr_end checks it). */
static enum pr_item pr_rest(struct nvtxt_payload_reader *r, struct pr_chunk *c)
{
	struct pr_batch *b;
	enum pr_item it;

	while ((it = pr_next_batch(r, &b)) == PR_BATCH) {
		b->next = c->retired; /* cannot happen: pr_batch rejects ordinals past the count */
		c->retired = b;
	}
	return it;
}

/*
 * The calls in ordinal order: the batch that holds ordinal r->next is
 * r->holder's entry for it (its next record has it: the batch's ordinals
 * grow, and those below r->next are handed on), or, when there is none,
 * the next batch read, which the checks hold to start with the lowest
 * ordinal not read, that is r->next.
 */
void pr_fill(struct nvtxt_payload_reader *r, struct pr_chunk *c)
{
	struct pr_batch *b, **link;
	enum pr_item it;

	c->n = 0;
	c->end = PR_BATCH;
	c->retired = NULL;
	if (!r->holder && !(r->holder = try_calloc(PR_WINDOW, sizeof *r->holder))) {
		pr_fail_io(r, ENOMEM);
		c->end = PR_ERROR;
		return;
	}
	while (c->n < PR_CHUNK_EVENTS) {
		struct pr_batch **slot = &r->holder[r->next % PR_WINDOW];

		if (r->next == r->nevents) {
			c->end = pr_rest(r, c);
			return;
		}
		while (!(b = *slot))
			if ((it = pr_take_batch(r)) != PR_BATCH) { /* PR_END cannot happen: pr_end checks every ordinal was read */
				c->end = it;
				return;
			}
		*slot = NULL;
		pr_event(b, b->events + b->cur * b->s->l.stride, &c->ev[c->n++], r->lines);
		r->next++;
		if (++b->cur == b->nev) { /* used up: freed once the chunk's calls are handed on */
			for (link = &r->active; *link != b; link = &(*link)->next)
				;
			*link = b->next;
			b->next = c->retired;
			c->retired = b;
		}
	}
}

/* Every call in ordinal order to c; 0, or the failure as nvtxt_payload_decompile's. */
static int pr_records(struct nvtxt_payload_reader *r, const struct pr_calls *be)
{
	for (;;) {
		struct pr_chunk *c = pr_chunk_get(r);
		enum pr_item end;

		if (!c)
			return pr_fail_io(r, ENOMEM), NVTXT_PAYLOAD_EFORMAT;
		if (c->n && be->events(be->user, c->ev, c->n)) {
			pr_chunk_put(r, c);
			return NVTXT_PAYLOAD_EIO;
		}
		end = c->end;
		pr_chunk_put(r, c);
		if (end == PR_ERROR)
			return NVTXT_PAYLOAD_EFORMAT;
		if (end == PR_END)
			break;
	}
	return be->finish(be->user) ? NVTXT_PAYLOAD_EIO : 0;
}

/* A back end as pr_calls: its event callback, which takes the call as const, for each call. */
static int pr_to_backend(void *user, struct nvtxt_event *ev, size_t n)
{
	const struct nvtxt_backend *be = user;

	for (size_t i = 0; i < n; i++)
		if (be->event(be->user, &ev[i]))
			return -1;
	return 0;
}

static int pr_finish_backend(void *user)
{
	const struct nvtxt_backend *be = user;

	return be->finish(be->user);
}

int nvtxt_payload_decompile(struct nvtxt_payload_reader *r, const struct nvtxt_backend *be,
			    char *err, size_t errlen)
{
	struct pr_calls c = { (void *)be, pr_to_backend, pr_finish_backend, false };

	return pr_decompile(r, &c, err, errlen);
}

int pr_decompile(struct nvtxt_payload_reader *r, const struct pr_calls *be, char *err, size_t errlen)
{
	int rc, e;

	if (errlen)
		err[0] = 0;
	r->next = 0;
	r->lines = be->lines;
	if (r->read_ahead && !r->ahead && !r->failed && !r->ended)
		pr_ahead_start(r); /* -1: this thread reads */
	rc = pr_records(r, be);
	e = errno; /* of a failed callback */
	pr_ahead_stop(r);
	if (rc == NVTXT_PAYLOAD_EFORMAT)
		return pr_result(r, err, errlen);
	if (rc == NVTXT_PAYLOAD_EIO) {
		if (errlen)
			snprintf(err, errlen, "write error: %s", strerror(e));
		r->io_errno = e ? e : EIO;
	}
	return rc;
}
