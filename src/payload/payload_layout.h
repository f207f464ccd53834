/*
 * payload_layout.h - the on-disk layout of an nvtxtc payload file
 * (nvtxt-payload(5)) and the NVTX constants it uses.
 *
 * Every NVTX value below is copied from the NVTX v3 headers
 * (nvtx3/nvToolsExtPayload.h, payload extension compat ID 0x0104, and
 * nvtx3/nvToolsExtSemanticsTime.h); when NVTXTC_HAVE_NVTX is defined the
 * headers are included and each value is checked against them at compile
 * time.  Only fixed-width types are used on disk (nvtx-payload-notes 3.10).
 *
 * Shared by the writer, the reader, the dump and the replay; the injection
 * recorder under tests/inject deliberately does not include it.
 */
#ifndef NVTXT_PAYLOAD_LAYOUT_H
#define NVTXT_PAYLOAD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- NVTX constants (nvToolsExtPayload.h line numbers, CUDA 13.0) ---- */

/* Entry flags, :68-153.  Bits 4-6 and 12-14 are enumerations. */
#define PL_EF_OFFSET_FROM_BASE     (1u << 2)  /* :78 */
#define PL_EF_ARRAY_ZERO_TERMINATED (2u << 4) /* :93 */
#define PL_EF_HIDE                 (1u << 9)  /* :132 */
#define PL_EF_EVENT_MESSAGE        (1u << 10) /* :137 */
#define PL_EF_TIMESTAMP            (2u << 10) /* :145 */
#define PL_EF_RANGE_BEGIN          (1u << 12) /* :150 */
#define PL_EF_RANGE_END            (2u << 12) /* :151 */
#define PL_EF_MARK                 (3u << 12) /* :152 */

/* Entry types, :219-316. */
#define PL_T_UINT32       16u /* :219 */
#define PL_T_INT64        17u /* :220 */
#define PL_T_UINT64       18u /* :221 */
#define PL_T_CATEGORY     68u /* :280, uint32_t */
#define PL_T_COLOR_ARGB   69u /* :281, uint32_t */
#define PL_T_PID_UINT32   71u /* :291 */
#define PL_T_PID_UINT64   72u /* :292 */
#define PL_T_TID_UINT32   73u /* :297 */
#define PL_T_TID_UINT64   74u /* :298 */
#define PL_T_CSTRING_UTF8 76u /* :316 */

/* Schema IDs, types, flags and attribute field mask, :354-439. */
#define PL_SCHEMA_ID_STATIC_START  (UINT64_C(1) << 24) /* :354 */
#define PL_SCHEMA_ID_DYNAMIC_START (UINT64_C(1) << 32) /* :357 */
#define PL_SCHEMA_TYPE_STATIC      1u                  /* :375 */
#define PL_SF_NONE                 0u                  /* :391 */
#define PL_SF_RANGE_PUSHPOP        (2u << 3)           /* :417 */
#define PL_SF_RANGE_STARTEND       (3u << 3)           /* :418 */
#define PL_SF_MARK                 (4u << 3)           /* :419 */
#define PL_SA_NAME        (1u << 1) /* :431 */
#define PL_SA_TYPE        (1u << 2)
#define PL_SA_FLAGS       (1u << 3)
#define PL_SA_ENTRIES     (1u << 4)
#define PL_SA_NUM_ENTRIES (1u << 5)
#define PL_SA_STATIC_SIZE (1u << 6)
#define PL_SA_ALIGNMENT   (1u << 7)
#define PL_SA_SCHEMA_ID   (1u << 8) /* :438 */
/* The mask every schema of this format carries. */
#define PL_SCHEMA_FIELD_MASK                                             \
	(PL_SA_NAME | PL_SA_TYPE | PL_SA_FLAGS | PL_SA_ENTRIES |             \
	 PL_SA_NUM_ENTRIES | PL_SA_STATIC_SIZE | PL_SA_ALIGNMENT | PL_SA_SCHEMA_ID)

/* Scopes, :467-487. */
#define PL_SCOPE_NONE            0u  /* :467 */
#define PL_SCOPE_HW_MACHINE      2u  /* :471 */

/* Timestamp types, :507-526. */
#define PL_TS_NONE          0u  /* :507 */
#define PL_TS_CPU_TSC       10u /* :513, RDTSC on x86, CNTVCT on ARM */
#define PL_TS_MONOTONIC_RAW 15u /* :518 */
#define PL_TS_WIN_QPC       30u /* :524 */
#define PL_TS_WIN_GSTAFT    31u /* :525 */

/* Time domains and timers, :544-562. */
#define PL_TIME_DOMAIN_ID_STATIC_START  (UINT64_C(1) << 24) /* :547 */
#define PL_TIME_DOMAIN_ID_DYNAMIC_START (UINT64_C(1) << 32) /* :550 */
#define PL_TIMER_FLAG_NONE       0u        /* :553 */
#define PL_TIMER_FLAG_MONOTONIC  (1u << 1) /* :554 */
#define PL_TIMER_FLAG_STEADY     (1u << 2) /* :555 */
#define PL_TIMER_START_UNKNOWN     0u /* :558 */
#define PL_TIMER_START_SYSTEM_BOOT 1u /* :559 */
#define PL_TIMER_START_WIN_FILETIME 4u /* :562 */

/* Batch flags, :581-584 (an enumeration in bits 1-2). */
#define PL_BATCH_TIME_SORTED           0u
#define PL_BATCH_TIME_SORTED_PARTIALLY (1u << 1)
#define PL_BATCH_TIME_SORTED_PER_SCOPE (2u << 1)
#define PL_BATCH_UNSORTED              (3u << 1)

/* nvToolsExtSemanticsTime.h:35-38. */
#define PL_SEMANTIC_ID_TIME 2u
#define PL_TIME_SEMANTIC_VERSION 1u

#define PL_NVTX_PAYLOAD_COMPATID 0x0104u /* nvToolsExtPayload.h:44 */

#ifdef NVTXTC_HAVE_NVTX
#ifndef NVTX_VERSION /* nobody wants the implementation here: declarations only */
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsTime.h>
#define PL_CHECK(ours, theirs) \
	_Static_assert((uint64_t)(ours) == (uint64_t)(theirs), #ours " != " #theirs)
PL_CHECK(PL_EF_OFFSET_FROM_BASE, NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_BASE);
PL_CHECK(PL_EF_ARRAY_ZERO_TERMINATED, NVTX_PAYLOAD_ENTRY_FLAG_ARRAY_ZERO_TERMINATED);
PL_CHECK(PL_EF_HIDE, NVTX_PAYLOAD_ENTRY_FLAG_HIDE);
PL_CHECK(PL_EF_EVENT_MESSAGE, NVTX_PAYLOAD_ENTRY_FLAG_EVENT_MESSAGE);
PL_CHECK(PL_EF_TIMESTAMP, NVTX_PAYLOAD_ENTRY_FLAG_TIMESTAMP);
PL_CHECK(PL_EF_RANGE_BEGIN, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_BEGIN);
PL_CHECK(PL_EF_RANGE_END, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_END);
PL_CHECK(PL_EF_MARK, NVTX_PAYLOAD_ENTRY_FLAG_MARK);
PL_CHECK(PL_T_UINT32, NVTX_PAYLOAD_ENTRY_TYPE_UINT32);
PL_CHECK(PL_T_INT64, NVTX_PAYLOAD_ENTRY_TYPE_INT64);
PL_CHECK(PL_T_UINT64, NVTX_PAYLOAD_ENTRY_TYPE_UINT64);
PL_CHECK(PL_T_CATEGORY, NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY);
PL_CHECK(PL_T_COLOR_ARGB, NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB);
PL_CHECK(PL_T_PID_UINT32, NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32);
PL_CHECK(PL_T_PID_UINT64, NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64);
PL_CHECK(PL_T_TID_UINT32, NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32);
PL_CHECK(PL_T_TID_UINT64, NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64);
PL_CHECK(PL_T_CSTRING_UTF8, NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8);
PL_CHECK(PL_SCHEMA_ID_STATIC_START, NVTX_PAYLOAD_SCHEMA_ID_STATIC_START);
PL_CHECK(PL_SCHEMA_ID_DYNAMIC_START, NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START);
PL_CHECK(PL_SCHEMA_TYPE_STATIC, NVTX_PAYLOAD_SCHEMA_TYPE_STATIC);
PL_CHECK(PL_SF_NONE, NVTX_PAYLOAD_SCHEMA_FLAG_NONE);
PL_CHECK(PL_SF_RANGE_PUSHPOP, NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_PUSHPOP);
PL_CHECK(PL_SF_RANGE_STARTEND, NVTX_PAYLOAD_SCHEMA_FLAG_RANGE_STARTEND);
PL_CHECK(PL_SF_MARK, NVTX_PAYLOAD_SCHEMA_FLAG_MARK);
PL_CHECK(PL_SA_NAME, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME);
PL_CHECK(PL_SA_TYPE, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE);
PL_CHECK(PL_SA_FLAGS, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS);
PL_CHECK(PL_SA_ENTRIES, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES);
PL_CHECK(PL_SA_NUM_ENTRIES, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES);
PL_CHECK(PL_SA_STATIC_SIZE, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE);
PL_CHECK(PL_SA_ALIGNMENT, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ALIGNMENT);
PL_CHECK(PL_SA_SCHEMA_ID, NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID);
PL_CHECK(PL_SCOPE_NONE, NVTX_SCOPE_NONE);
PL_CHECK(PL_SCOPE_HW_MACHINE, NVTX_SCOPE_CURRENT_HW_MACHINE);
PL_CHECK(PL_TS_NONE, NVTX_TIMESTAMP_TYPE_NONE);
PL_CHECK(PL_TS_CPU_TSC, NVTX_TIMESTAMP_TYPE_CPU_TSC);
PL_CHECK(PL_TS_MONOTONIC_RAW, NVTX_TIMESTAMP_TYPE_CPU_CLOCK_GETTIME_MONOTONIC_RAW);
PL_CHECK(PL_TS_WIN_QPC, NVTX_TIMESTAMP_TYPE_WIN_QPC);
PL_CHECK(PL_TS_WIN_GSTAFT, NVTX_TIMESTAMP_TYPE_WIN_GSTAFT);
PL_CHECK(PL_TIME_DOMAIN_ID_STATIC_START, NVTX_TIME_DOMAIN_ID_STATIC_START);
PL_CHECK(PL_TIME_DOMAIN_ID_DYNAMIC_START, NVTX_TIME_DOMAIN_ID_DYNAMIC_START);
PL_CHECK(PL_TIMER_FLAG_NONE, NVTX_TIMER_FLAG_NONE);
PL_CHECK(PL_TIMER_FLAG_MONOTONIC, NVTX_TIMER_FLAG_CLOCK_MONOTONIC);
PL_CHECK(PL_TIMER_FLAG_STEADY, NVTX_TIMER_FLAG_CLOCK_STEADY);
PL_CHECK(PL_TIMER_START_UNKNOWN, NVTX_TIMER_START_UNKNOWN);
PL_CHECK(PL_TIMER_START_SYSTEM_BOOT, NVTX_TIMER_START_SYSTEM_BOOT);
PL_CHECK(PL_TIMER_START_WIN_FILETIME, NVTX_TIMER_START_WIN_FILETIME);
PL_CHECK(PL_BATCH_TIME_SORTED, NVTX_BATCH_FLAG_TIME_SORTED);
PL_CHECK(PL_BATCH_TIME_SORTED_PARTIALLY, NVTX_BATCH_FLAG_TIME_SORTED_PARTIALLY);
PL_CHECK(PL_BATCH_TIME_SORTED_PER_SCOPE, NVTX_BATCH_FLAG_TIME_SORTED_PER_SCOPE);
PL_CHECK(PL_BATCH_UNSORTED, NVTX_BATCH_FLAG_UNSORTED);
PL_CHECK(PL_SEMANTIC_ID_TIME, NVTX_SEMANTIC_ID_TIME_V1);
PL_CHECK(PL_TIME_SEMANTIC_VERSION, NVTX_TIME_SEMANTIC_VERSION);
PL_CHECK(PL_NVTX_PAYLOAD_COMPATID, NVTX_EXT_PAYLOAD_COMPATID);
#undef PL_CHECK
#endif

/* ---- the file ---- */

/*
 * The fixed records (header, section header, time domain, schema
 * attributes and entries, batch header) are described field by field in
 * payload_records.def; below, their sizes, then the named offsets made from
 * those lists and the compile-time checks that each list covers its record.
 */
#define PL_MAGIC "\x89NVTXT\r\n"
#define PL_MAGIC_LEN 8
#define PL_BOM 0x0A0B0C0Du
/* 2.0: push and pop records apart, sections in stream order, flush groups. */
#define PL_VERSION_MAJOR 2u
#define PL_VERSION_MINOR 0u
#define PL_HEADER_SIZE 64u

/* Section header (PL_SH_*): type, flags, body length.  The flags are 0
 * but on the last batch of a flush group (PL_SEC_GROUP_END). */
#define PL_SECTION_HEADER_SIZE 16u
#define PL_SEC_GROUP_END 1u

/*
 * Flush groups (nvtxt-payload(5), BATCHES): the writer writes its pending
 * batches as soon as PL_GROUP_EVENTS records or PL_GROUP_BYTES of records
 * and strings are pending, and at the end; a group holds at most
 * PL_GROUP_EVENTS records, so every ordinal of a batch lies within
 * PL_GROUP_EVENTS of the lowest ordinal no earlier batch holds.
 */
#define PL_GROUP_EVENTS 16384u
#define PL_GROUP_BYTES (2u << 20)
/*
 * The longest string a record holds, in bytes before its NUL: no NVTXT
 * line is longer (READER_LINE_MAX, src/frontend/reader.h), and the writer
 * refuses a longer one from elsewhere.  With it, the bound of a batch's
 * body: its header, the leading NUL of flexData, the records and strings
 * of its flush group short of PL_GROUP_BYTES, and the highest-ordinal
 * record that reached the limit (its entries, at most 8 bytes each, and
 * one string).  The reader refuses a longer batch before it allocates.
 */
#define PL_STRING_MAX 131071u
#define PL_STRIDE_MAX (8u * PL_MAX_ENTRIES)
#define PL_BATCH_BODY_MAX \
	(PL_BATCH_HEADER_SIZE + 1u + (PL_GROUP_BYTES - 1u) + PL_STRIDE_MAX + PL_STRING_MAX + 1u)
enum pl_section {
	PL_SEC_TIME_DOMAINS = 1, /* array of PL_TIME_DOMAIN_SIZE records */
	PL_SEC_SCHEMA = 2,       /* one schema */
	PL_SEC_BATCH = 3         /* one event batch */
};

/* Time-domain record (PL_TD_*): nvtxTimeDomainAttr_t and the NVTXT TimeBase. */
#define PL_TIME_DOMAIN_SIZE 56u

/* Schema section body: its attributes (PL_SCH_*), the entries (PL_ENT_*),
 * then the NUL-terminated strings. */
#define PL_SCHEMA_ATTR_SIZE 80u
#define PL_SCHEMA_ENTRY_SIZE 64u
#define PL_PACK_ALIGN 8u

/* Batch section body: its header (PL_BAT_*), the events (stride =
 * payloadStaticSize), then flexData. */
#define PL_BATCH_HEADER_SIZE 64u

#include "payload_records.def"

/* The named offsets: PL_HDR_BOM, PL_SH_LENGTH, PL_BAT_FLEX_SIZE, ... */
#define PL_FIELD_OFFSET(rec, field, off, size) PL_##rec##_##field = (off),
enum pl_field_offset {
	PL_HDR_FIELDS(PL_FIELD_OFFSET)
	PL_SH_FIELDS(PL_FIELD_OFFSET)
	PL_TD_FIELDS(PL_FIELD_OFFSET)
	PL_SCH_FIELDS(PL_FIELD_OFFSET)
	PL_ENT_FIELDS(PL_FIELD_OFFSET)
	PL_BAT_FIELDS(PL_FIELD_OFFSET)
};
#undef PL_FIELD_OFFSET

/*
 * Each record as a struct of byte arrays (no padding between them): its
 * size is the sum of its fields', and offsetof a field is where the fields
 * before it end, so the checks below fail on a gap, an overlap or a size
 * that does not add up.  Only for these checks: records are read and
 * written with pl_get and pl_put at the named offsets.
 */
#define PL_FIELD_BYTES(rec, field, off, size) unsigned char field[size];
#define PL_FIELD_CHECK(rec, field, off, size) \
	_Static_assert(offsetof(struct pl_rec_##rec, field) == (off), #rec "_" #field " is not where the fields before it end");
#define PL_RECORD_CHECK(rec, total) \
	struct pl_rec_##rec { PL_##rec##_FIELDS(PL_FIELD_BYTES) }; \
	PL_##rec##_FIELDS(PL_FIELD_CHECK) \
	_Static_assert(sizeof(struct pl_rec_##rec) == (total), #rec ": its fields do not add up to " #total " bytes");
PL_RECORD_CHECK(HDR, PL_HEADER_SIZE)
PL_RECORD_CHECK(SH, PL_SECTION_HEADER_SIZE)
PL_RECORD_CHECK(TD, PL_TIME_DOMAIN_SIZE)
PL_RECORD_CHECK(SCH, PL_SCHEMA_ATTR_SIZE)
PL_RECORD_CHECK(ENT, PL_SCHEMA_ENTRY_SIZE)
PL_RECORD_CHECK(BAT, PL_BATCH_HEADER_SIZE)
#undef PL_RECORD_CHECK
#undef PL_FIELD_CHECK
#undef PL_FIELD_BYTES
_Static_assert(sizeof PL_MAGIC - 1 == PL_MAGIC_LEN && PL_MAGIC_LEN == PL_HDR_BOM, "the magic fills its field");

/* The bits of the hidden "Present" entry: optional arguments given. */
#define PL_PRESENT_CATEGORY 1u
#define PL_PRESENT_COLOR    2u
#define PL_PRESENT_MESSAGE  4u
#define PL_PRESENT_PAYLOAD  8u
#define PL_PRESENT_ALL      15u

/* ---- the schemas of the format ---- */

/* What an event record is; each kind has its schema layout. */
enum pl_kind {
	PL_K_MARKER,
	PL_K_START_END,
	PL_K_PUSH,
	PL_K_POP,
	PL_K_NAME_CATEGORY,
	PL_K_ADD_CHILD_CATEGORY,
	PL_K_NAME_OS_THREAD,
	PL_K_NAME_PROCESS,
	PL_K_SET_FILE_DISPLAY_NAME,
	PL_K_COUNT
};

/* What an entry holds. */
enum pl_role {
	PL_R_TIME,      /* Marker, RangePush and RangePop Time */
	PL_R_START,     /* RangeStartEnd Start */
	PL_R_END,       /* RangeStartEnd End */
	PL_R_PID,
	PL_R_TID,
	PL_R_CATEGORY,
	PL_R_PARENT,
	PL_R_COLOR,
	PL_R_PAYLOAD,
	PL_R_MESSAGE,
	PL_R_NAME,
	PL_R_ORDINAL,   /* hidden: the call's ordinal */
	PL_R_PRESENT,   /* hidden: PL_PRESENT_* bits */
	PL_R_COUNT
};

#define PL_MAX_ENTRIES 11
_Static_assert(PL_BATCH_BODY_MAX == 2228376u, "nvtxt-payload(5) gives the bound of a batch");

struct pl_entry {
	enum pl_role role;
	uint32_t flags;
	uint32_t type;
	uint32_t size;          /* bytes in the record (= alignment) */
	uint32_t offset;
	const char *name;
	const char *description;
};

struct pl_layout {
	enum pl_kind kind;
	bool pid64, tid64;
	uint32_t schema_flags;
	uint32_t stride;         /* payloadStaticSize, a multiple of 8 */
	size_t n;
	struct pl_entry e[PL_MAX_ENTRIES];
	int at[PL_R_COUNT];      /* entry index of each role, or -1 */
};

/* The command name that starts a schema's name ("Marker Qpc"). */
static inline const char *pl_kind_name(enum pl_kind k)
{
	static const char *const names[PL_K_COUNT] = {
		"Marker", "RangeStartEnd", "RangePush", "RangePop", "NameCategory",
		"AddChildCategory", "NameOsThread", "NameProcess",
		"SetFileDisplayName"
	};
	return (unsigned)k < PL_K_COUNT ? names[k] : NULL;
}

/* Event kinds carry timestamps, hence a time domain. */
static inline bool pl_kind_timed(enum pl_kind k)
{
	return k <= PL_K_POP;
}

/*
 * Builds the layout of a kind from PL_ROLES (payload_records.def): entries
 * in a fixed order, each at its natural alignment (= size, at most 8),
 * stride rounded up to 8.  pid64 and tid64 choose PID_UINT64/TID_UINT64
 * over the 32-bit types.  Defined in payload_layout.c.
 */
void pl_layout_init(struct pl_layout *l, enum pl_kind k, bool pid64, bool tid64);

/*
 * Little-endian stores and loads at any alignment, independent of the
 * host's byte order.  The bytes are spelt out one by one, which GCC and
 * Clang turn into a single store or load at -O2 on a little-endian host
 * (a loop they leave as a loop).
 */
static inline void pl_put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void pl_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void pl_put64(unsigned char *p, uint64_t v)
{
	pl_put32(p, (uint32_t)v);
	pl_put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t pl_get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t pl_get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t pl_get64(const unsigned char *p)
{
	return (uint64_t)pl_get32(p) | (uint64_t)pl_get32(p + 4) << 32;
}

/* The time domain of an NVTXT TimeBase (see nvtxt-payload(5)). */
struct pl_time_domain {
	uint64_t scope, timestamp_type, flags, start;
	int64_t resolution;
};

static inline struct pl_time_domain pl_time_domain_of(unsigned tb)
{
	/* Order of enum nvtxt_timebase: Qpc Rdtsc FileTime Manual Relative
	 * ClockMonotonicRaw CNTVCT. */
	static const struct pl_time_domain t[7] = {
		{ PL_SCOPE_HW_MACHINE, PL_TS_WIN_QPC,
		  PL_TIMER_FLAG_MONOTONIC | PL_TIMER_FLAG_STEADY, PL_TIMER_START_SYSTEM_BOOT, 0 },
		{ PL_SCOPE_HW_MACHINE, PL_TS_CPU_TSC,
		  PL_TIMER_FLAG_MONOTONIC | PL_TIMER_FLAG_STEADY, PL_TIMER_START_SYSTEM_BOOT, 0 },
		{ PL_SCOPE_HW_MACHINE, PL_TS_WIN_GSTAFT,
		  PL_TIMER_FLAG_NONE, PL_TIMER_START_WIN_FILETIME, 10000000 },
		{ PL_SCOPE_NONE, PL_TS_NONE, PL_TIMER_FLAG_NONE, PL_TIMER_START_UNKNOWN, 0 },
		{ PL_SCOPE_NONE, PL_TS_NONE, PL_TIMER_FLAG_NONE, PL_TIMER_START_UNKNOWN, 0 },
		{ PL_SCOPE_HW_MACHINE, PL_TS_MONOTONIC_RAW,
		  PL_TIMER_FLAG_MONOTONIC | PL_TIMER_FLAG_STEADY, PL_TIMER_START_SYSTEM_BOOT, 1000000000 },
		{ PL_SCOPE_HW_MACHINE, PL_TS_CPU_TSC,
		  PL_TIMER_FLAG_MONOTONIC | PL_TIMER_FLAG_STEADY, PL_TIMER_START_SYSTEM_BOOT, 0 },
	};
	return t[tb < 7 ? tb : 3];
}

/* The time-domain record of a TimeBase, as the writer writes it. */
static inline void pl_time_domain_record(unsigned char *p, unsigned tb)
{
	struct pl_time_domain d = pl_time_domain_of(tb);

	pl_put64(p + PL_TD_SCOPE, d.scope);
	pl_put64(p + PL_TD_TIMESTAMP_TYPE, d.timestamp_type);
	pl_put64(p + PL_TD_ID, PL_TIME_DOMAIN_ID_STATIC_START + tb);
	pl_put64(p + PL_TD_TIMER_FLAGS, d.flags);
	pl_put64(p + PL_TD_RESOLUTION, (uint64_t)d.resolution);
	pl_put64(p + PL_TD_TIMER_START, d.start);
	pl_put64(p + PL_TD_TIMEBASE, tb);
}

#define PL_NO_TB 7u /* the TimeBase slot of naming schemas */
/* Room for the largest schema body: attributes, entries and strings. */
#define PL_SCHEMA_BODY_MAX 4096u

/*
 * The body of the schema section of layout l, TimeBase tb (PL_NO_TB for
 * naming kinds) and ID id, exactly as the writer writes it, into buf (at
 * least PL_SCHEMA_BODY_MAX bytes): the attributes, the entries, then the
 * strings (the name, then each entry's name and description).  Returns
 * its length.  Defined in payload_layout.c; the reader compares what it
 * reads with it.
 */
size_t pl_schema_body(const struct pl_layout *l, unsigned tb, uint64_t id, unsigned char *buf);

/* ---- the reader (payload_read.c), shared with dump and replay ---- */

struct pr_schema {
	uint64_t id;
	struct pl_layout l;        /* checked equal to the file's entries */
	unsigned tb;               /* enum nvtxt_timebase, or PL_NO_TB */
	const char *name;          /* NUL-terminated, in body */
	unsigned char *body;       /* the section body (owned) */
	uint64_t body_len;
	const unsigned char *entries;
	uint64_t off;              /* file offset of the body */
	uint64_t group;            /* 1 + the flush group of its last batch, 0: none yet */
	uint16_t roff[PL_R_COUNT]; /* each role's offset in a record */
	uint8_t rsize[PL_R_COUNT]; /* each role's size: 4, 8, or 0 when the schema has none */
	uint32_t pad_words;        /* bit k: bytes 4k..4k+3 of a record belong to no entry */
	/* what every call of the schema has: its command (enum nvtxt_command),
	 * the arguments it always has (NVTXT_BIT), its enum nvtxt_timebase */
	unsigned cmd, required, timebase;
};

/* A batch read and checked; its body is owned (pr_batch_free). */
struct pr_batch {
	const struct pr_schema *s;
	unsigned char *body;
	size_t cap;                /* bytes allocated at body */
	const unsigned char *events, *flex;
	uint64_t nev, flex_size, flags, scope;
	uint64_t off, events_off, flex_off; /* file offsets */
	bool group_end;            /* the last batch of its flush group */
	uint64_t cur;              /* decompile: the next record to hand on */
	struct pr_batch *next;     /* decompile: the batches not yet used up */
};

/* What pr_next gives. */
enum pr_item { PR_END, PR_TIME_DOMAIN, PR_SCHEMA, PR_BATCH, PR_ERROR };

struct pr_time_domain {
	uint64_t id, off;
	unsigned tb;
	unsigned char rec[PL_TIME_DOMAIN_SIZE];
};

/*
 * Reads and checks the next section.  PR_TIME_DOMAIN: r->td[r->ntd - 1]
 * is new; PR_SCHEMA: r->schemas[r->nschemas - 1] is new; PR_BATCH: *b is
 * a batch the caller frees with pr_batch_free; PR_END: the file ended as
 * its header says; PR_ERROR: the message is in r->err (r->io_errno set on
 * a read error or ENOMEM).
 */
struct nvtxt_payload_reader;
enum pr_item pr_next(struct nvtxt_payload_reader *r, struct pr_batch **b);
void pr_batch_free(struct nvtxt_payload_reader *r, struct pr_batch *b);
/* The header, the time domains and the schemas read so far. */
const unsigned char *pr_header(const struct nvtxt_payload_reader *r);
const struct pr_time_domain *pr_time_domain(const struct nvtxt_payload_reader *r, size_t i);
const struct pr_schema *pr_schema_at(const struct nvtxt_payload_reader *r, size_t i);
/* The value of a role's entry in a record (0 when the schema has none). */
static inline uint64_t pr_field(const struct pr_schema *s, const unsigned char *rec,
				enum pl_role role)
{
	return s->rsize[role] == 8 ? pl_get64(rec + s->roff[role])
	       : s->rsize[role] ? pl_get32(rec + s->roff[role]) : 0;
}
/* What every call of schema s has (pr_event reads it): set once s is checked. */
void pr_schema_calls(struct pr_schema *s);
/* A failure of pr_next, or of the back end, as the caller's message (copied
 * into err when errlen) and return value: NVTXT_PAYLOAD_EIO after a read
 * error, else NVTXT_PAYLOAD_EFORMAT. */
int pr_result(const struct nvtxt_payload_reader *r, char *err, size_t errlen);

#endif
