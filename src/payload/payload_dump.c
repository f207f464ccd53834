/*
 * payload_dump.c - `nvtxtc dump`: a validated payload file printed for a
 * person, section by section, with every record decoded entry by entry.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "nvtxt/payload.h"
#include "payload_layout.h"
#include "util.h"

static const char *type_name(uint64_t t)
{
	switch (t) {
	case PL_T_UINT32: return "UINT32";
	case PL_T_INT64: return "INT64";
	case PL_T_UINT64: return "UINT64";
	case PL_T_CATEGORY: return "CATEGORY";
	case PL_T_COLOR_ARGB: return "COLOR_ARGB";
	case PL_T_PID_UINT32: return "PID_UINT32";
	case PL_T_PID_UINT64: return "PID_UINT64";
	case PL_T_TID_UINT32: return "TID_UINT32";
	case PL_T_TID_UINT64: return "TID_UINT64";
	case PL_T_CSTRING_UTF8: return "CSTRING_UTF8";
	default: return "?";
	}
}

static const char *ts_name(uint64_t t)
{
	switch (t) {
	case PL_TS_NONE: return "NONE";
	case PL_TS_CPU_TSC: return "CPU_TSC";
	case PL_TS_MONOTONIC_RAW: return "CPU_CLOCK_GETTIME_MONOTONIC_RAW";
	case PL_TS_WIN_QPC: return "WIN_QPC";
	case PL_TS_WIN_GSTAFT: return "WIN_GSTAFT";
	default: return "?";
	}
}

/* Entry flags as NVTX_PAYLOAD_ENTRY_FLAG_* names, decoding the fields. */
static void entry_flags(uint64_t f, char *buf, size_t n)
{
	static const char *const role[8] = { "", "RANGE_BEGIN", "RANGE_END", "MARK", "COUNTER" };
	static const char *const bits1011[4] = { "", "EVENT_MESSAGE", "TIMESTAMP", "?" };
	static const char *const arr[8] = { "", "ARRAY_FIXED_SIZE", "ARRAY_ZERO_TERMINATED",
		"ARRAY_LENGTH_INDEX", "ARRAY_LENGTH_PAYLOAD_INDEX", "?", "?", "?" };
	const char *parts[8];
	size_t np = 0, len = 0;

	if (f & PL_EF_OFFSET_FROM_BASE)
		parts[np++] = "OFFSET_FROM_BASE";
	if (arr[(f >> 4) & 7][0])
		parts[np++] = arr[(f >> 4) & 7];
	if (f & PL_EF_HIDE)
		parts[np++] = "HIDE";
	if (bits1011[(f >> 10) & 3][0])
		parts[np++] = bits1011[(f >> 10) & 3];
	if (((f >> 12) & 7) && role[(f >> 12) & 7])
		parts[np++] = role[(f >> 12) & 7];
	buf[0] = 0;
	for (size_t i = 0; i < np && len < n; i++) {
		int k = snprintf(buf + len, n - len, "%s%s", i ? "|" : "", parts[i]);
		if (k < 0)
			break;
		len += (size_t)k;
	}
}

/*
 * The records are most of what dump prints (about four bytes of text per
 * byte of payload), so they are formatted by hand into a buffer, not with
 * printf: the same text, several times faster.
 */
struct obuf {
	FILE *out;
	size_t n;
	char b[1 << 16];
};

static void ob_flush(struct obuf *o)
{
	if (o->n)
		fwrite(o->b, 1, o->n, o->out);
	o->n = 0;
}

static void ob_add(struct obuf *o, const char *s, size_t n)
{
	if (n > sizeof o->b - o->n) {
		ob_flush(o);
		if (n > sizeof o->b) {
			fwrite(s, 1, n, o->out);
			return;
		}
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

/*
 * The 8 hex digits of v, with leading zeros, as the bytes of a word in
 * ASCII, the first (most significant) digit in the least significant
 * byte: the nibbles spread into bytes in three steps (16, 8, then 4 bits
 * a lane), then '0' added to each, and 7 ('A' - '0' - 10) or 39 ('a' -
 * '0' - 10) more to those of 10 or more (a nibble + 6 carries into bit 4).
 */
static inline uint64_t ascii_8_hex(uint32_t v, bool upper)
{
	uint64_t x = (uint64_t)(v >> 16) | (uint64_t)(v & 0xFFFF) << 32, letters;

	x = (x & 0x0000FF000000FF00u) >> 8 | (x & 0x000000FF000000FFu) << 16;
	x = (x & 0x00F000F000F000F0u) >> 4 | (x & 0x000F000F000F000Fu) << 8;
	letters = ((x + 0x0606060606060606u) >> 4) & 0x0101010101010101u;
	return x + 0x3030303030303030u + letters * (upper ? 7 : 39);
}

/* Writes v as 0x and at least `digits` (1 to 8) hex digits at p; returns the end. */
static char *put_hex(char *p, uint64_t v, int digits, bool upper)
{
	unsigned n;

	*p++ = '0';
	*p++ = 'x';
	if (v >> 32) {
		const char *x = upper ? "0123456789ABCDEF" : "0123456789abcdef";
		char t[16];
		size_t i = sizeof t;

		do
			t[--i] = x[v & 15];
		while (v >>= 4);
		memcpy(p, t + i, sizeof t - i);
		return p + sizeof t - i;
	}
	n = (35 - (unsigned)__builtin_clz((uint32_t)v | 1)) / 4; /* the significant digits, at least 1 */
	if (n < (unsigned)digits)
		n = (unsigned)digits;
	store_le64(p, ascii_8_hex((uint32_t)v, upper) >> (8 * (8 - n)));
	return p + n;
}

/* Room for a record's text but its strings: 11 entries of at most 18 + 25 bytes, and more. */
#define DUMP_RECORD_ROOM 1024

/* How an entry's value is printed. */
enum dump_op { OP_DECIMAL, OP_SIGNED, OP_COLOR, OP_STRING, OP_PRESENT };

/*
 * Each entry of a schema ready to print: " Name=" (no blank for the first
 * entry), how its value is printed, where it is and its size (4 or 8).
 * Made once a batch, so that each entry of a record costs a copy of its
 * prefix, a load and a switch on one code, not a lookup of its role's
 * place and size (pr_field) and a switch on its type, then its role.
 */
struct prefixes {
	char text[PL_MAX_ENTRIES][24];
	uint8_t len[PL_MAX_ENTRIES];
	uint8_t op[PL_MAX_ENTRIES];
	uint8_t size[PL_MAX_ENTRIES];
	uint16_t off[PL_MAX_ENTRIES];
};

static void prefixes_of(const struct pr_schema *s, struct prefixes *px)
{
	for (size_t i = 0; i < s->l.n; i++) {
		const struct pl_entry *e = &s->l.e[i];
		int n = snprintf(px->text[i], sizeof px->text[i], "%s%s=", i ? " " : "", e->name);

		px->len[i] = (uint8_t)(n > 0 && (size_t)n < sizeof px->text[i] ? n : 0);
		px->op[i] = e->type == PL_T_INT64 ? OP_SIGNED : e->type == PL_T_COLOR_ARGB ? OP_COLOR
			    : e->type == PL_T_CSTRING_UTF8 ? OP_STRING : e->role == PL_R_PRESENT ? OP_PRESENT
			    : OP_DECIMAL;
		px->size[i] = s->rsize[e->role];
		px->off[i] = s->roff[e->role];
	}
}

static void dump_record(struct obuf *o, const struct pr_batch *b, const struct prefixes *px,
			uint64_t k, const unsigned char *rec)
{
	const size_t n = b->s->l.n;
	char *p;

	if (sizeof o->b - o->n < DUMP_RECORD_ROOM)
		ob_flush(o);
	p = o->b + o->n;
	memcpy(p, "  [", 3);
	p = put_u64(p + 3, k);
	memcpy(p, "] ", 2);
	p += 2;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = px->size[i] == 8 ? pl_get64(rec + px->off[i]) : pl_get32(rec + px->off[i]);
		const char *str;

		memcpy(p, px->text[i], sizeof px->text[i]);
		p += px->len[i];
		switch (px->op[i]) {
		case OP_SIGNED:
			p = put_i64(p, (int64_t)v);
			break;
		case OP_COLOR:
			p = put_hex(p, v, 8, true);
			break;
		case OP_STRING:
			str = (const char *)b->flex + v;
			*p++ = '@';
			p = put_u64(p, v);
			*p++ = '"';
			o->n = (size_t)(p - o->b);
			ob_add(o, str, strlen(str));
			if (sizeof o->b - o->n < DUMP_RECORD_ROOM)
				ob_flush(o);
			p = o->b + o->n;
			*p++ = '"';
			break;
		case OP_PRESENT:
			p = put_hex(p, v, 1, false);
			break;
		default:
			p = put_u64(p, v);
		}
	}
	*p++ = '\n';
	o->n = (size_t)(p - o->b);
}

static void dump_time_domain(FILE *out, const struct pr_time_domain *td)
{
	const unsigned char *p = td->rec;

	fprintf(out, "time domain %" PRIu64 " at %" PRIu64 ": TimeBase %s, "
		"timestampTypeId %" PRIu64 " (%s), scopeId %" PRIu64 ", timerFlags 0x%"
		PRIx64 ", timerResolution %" PRId64 ", timerStart %" PRIu64 "\n",
		td->id, td->off, nvtxt_timebase_name((enum nvtxt_timebase)td->tb), pl_get64(p + PL_TD_TIMESTAMP_TYPE),
		ts_name(pl_get64(p + PL_TD_TIMESTAMP_TYPE)), pl_get64(p + PL_TD_SCOPE),
		pl_get64(p + PL_TD_TIMER_FLAGS), (int64_t)pl_get64(p + PL_TD_RESOLUTION),
		pl_get64(p + PL_TD_TIMER_START));
}

static void dump_schema(FILE *out, const struct pr_schema *s)
{
	static const char *const kinds[8] = { "NONE", "COUNTER_GROUP", "RANGE_PUSHPOP",
		"RANGE_STARTEND", "MARK", "?", "?", "?" };
	char fl[128];

	fprintf(out, "schema %" PRIu64 " \"%s\" at %" PRIu64 ": fieldMask 0x%" PRIx64
		", type %" PRIu64 " (STATIC), flags 0x%x (%s), payloadStaticSize %u, "
		"packAlign %u, %zu entries\n", s->id, s->name, s->off, pl_get64(s->body + PL_SCH_FIELD_MASK),
		pl_get64(s->body + PL_SCH_TYPE), s->l.schema_flags, kinds[(s->l.schema_flags >> 3) & 7],
		s->l.stride, PL_PACK_ALIGN, s->l.n);
	for (size_t j = 0; j < s->l.n; j++) {
		const struct pl_entry *e = &s->l.e[j];
		const unsigned char *p = s->entries + j * PL_SCHEMA_ENTRY_SIZE;
		uint64_t td = pl_get64(p + PL_ENT_SEMANTICS), desc = pl_get64(p + PL_ENT_DESCRIPTION);

		entry_flags(e->flags, fl, sizeof fl);
		fprintf(out, "  @%-3u %-16s %-12s flags 0x%04x%s%s", e->offset, e->name,
			type_name(e->type), e->flags, fl[0] ? " " : "", fl);
		if (td)
			fprintf(out, ", time domain %" PRIu64, td);
		if (desc)
			fprintf(out, " -- %s", (const char *)s->body + desc);
		fputc('\n', out);
	}
}

static void dump_batch(FILE *out, struct obuf *o, const struct pr_batch *b)
{
	struct prefixes px;

	fprintf(out, "batch at %" PRIu64 ": schema %" PRIu64 " \"%s\", %" PRIu64
		" events of %u bytes, scope %" PRIu64 ", flags 0x%" PRIx64 " (%s), flexData %"
		PRIu64 " bytes%s\n", b->off, b->s->id, b->s->name, b->nev, b->s->l.stride,
		b->scope, b->flags, b->flags == PL_BATCH_TIME_SORTED ? "TIME_SORTED" : "UNSORTED",
		b->flex_size, b->group_end ? ", end of its flush group" : "");
	prefixes_of(b->s, &px);
	o->out = out;
	for (uint64_t k = 0; k < b->nev; k++)
		dump_record(o, b, &px, k, b->events + k * b->s->l.stride);
	ob_flush(o);
}

int nvtxt_payload_dump(struct nvtxt_payload_reader *r, FILE *out, char *err, size_t errlen)
{
	const unsigned char *h = pr_header(r);
	struct pr_batch *b;
	enum pr_item it;
	size_t ntd = 0, nschemas = 0;
	struct obuf *o = try_calloc(1, sizeof *o);

	if (errlen)
		err[0] = 0;
	fprintf(out, "header: nvtxt-payload %u.%u, little-endian, %" PRIu64 " bytes, %" PRIu64
		" sections, %" PRIu64 " ordinals, NVTX payload compat ID 0x%04" PRIx64 "\n",
		pl_get16(h + PL_HDR_MAJOR), pl_get16(h + PL_HDR_MINOR), pl_get64(h + PL_HDR_FILE_SIZE),
		pl_get64(h + PL_HDR_SECTIONS), pl_get64(h + PL_HDR_ORDINALS),
		pl_get64(h + PL_HDR_COMPAT_ID));
	if (!o) {
		if (errlen)
			snprintf(err, errlen, "out of memory");
		return NVTXT_PAYLOAD_EIO;
	}
	while ((it = pr_next(r, &b)) != PR_END) {
		if (it == PR_ERROR) {
			free(o);
			return pr_result(r, err, errlen);
		}
		if (it == PR_TIME_DOMAIN)
			dump_time_domain(out, pr_time_domain(r, ntd++));
		else if (it == PR_SCHEMA)
			dump_schema(out, pr_schema_at(r, nschemas++));
		else
			dump_batch(out, o, b);
		pr_batch_free(r, b);
		if (ferror(out))
			break;
	}
	free(o);
	if (it == PR_END && nvtxt_payload_display_name(r))
		fprintf(out, "display name: \"%s\"\n", nvtxt_payload_display_name(r));
	if (fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		if (errlen)
			snprintf(err, errlen, "write error: %s", strerror(errno));
		return NVTXT_PAYLOAD_EIO;
	}
	return 0;
}
