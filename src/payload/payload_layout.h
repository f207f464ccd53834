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
 * Header, 64 bytes at offset 0; every integer little-endian:
 *   0  magic "\x89NVTXT\r\n"      8  u32 byte-order mark 0x0A0B0C0D
 *  12  u16 major  14 u16 minor    16  u32 header size (64)  20 u32 flags (0)
 *  24  u64 file size             32  u64 ordinals (events + naming calls)
 *  40  u64 section count         48  u64 NVTX payload compat ID
 *  56  u64 reserved (0)
 */
#define PL_MAGIC "\x89NVTXT\r\n"
#define PL_MAGIC_LEN 8
#define PL_BOM 0x0A0B0C0Du
/* 2.0: push and pop records apart, sections in stream order, flush groups. */
#define PL_VERSION_MAJOR 2u
#define PL_VERSION_MINOR 0u
#define PL_HEADER_SIZE 64u

/*
 * Section header, 16 bytes: u32 type, u32 flags, u64 body length.  The
 * flags are 0 but on the last batch of a flush group (PL_SEC_GROUP_END).
 */
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
enum pl_section {
	PL_SEC_TIME_DOMAINS = 1, /* array of PL_TIME_DOMAIN_SIZE records */
	PL_SEC_SCHEMA = 2,       /* one schema */
	PL_SEC_BATCH = 3         /* one event batch */
};

/*
 * Time-domain record: nvtxTimeDomainAttr_t (48 bytes) + u64 NVTXT TimeBase.
 *   0 scopeId  8 timestampTypeId  16 timeDomainId  24 timerFlags
 *  32 timerResolution (i64)  40 timerStart  48 timeBase (enum nvtxt_timebase)
 */
#define PL_TIME_DOMAIN_SIZE 56u

/*
 * Schema section body: nvtxPayloadSchemaAttr_t with pointers as offsets
 * from the body's start (0 = NULL):
 *   0 fieldMask  8 name  16 type  24 flags  32 entries  40 numEntries
 *  48 payloadStaticSize  56 packAlign  64 schemaId  72 extension (0)
 * then the entries, each nvtxPayloadSchemaEntry_t with pointers as offsets:
 *   0 flags  8 type  16 name  24 description  32 arrayOrUnionDetail
 *  40 offset  48 semantics (time-domain ID of an nvtxSemanticsTime_t, 0 =
 *  none)  56 reserved (0)
 * then the NUL-terminated strings.
 */
#define PL_SCHEMA_ATTR_SIZE 80u
#define PL_SCHEMA_ENTRY_SIZE 64u
#define PL_PACK_ALIGN 8u

/*
 * Batch section body: nvtxEventBatch_t with pointers as offsets from the
 * body's start:
 *   0 eventSchemaId  8 size  16 events  24 scope  32 flags  40 flexData
 *  48 flexDataSize  56 flexDataOffset (0)
 * then the events (stride = payloadStaticSize), then flexData.
 */
#define PL_BATCH_HEADER_SIZE 64u

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
 * Builds the layout of a kind: entries in a fixed order, each at its
 * natural alignment (= size, at most 8), stride rounded up to 8.  pid64 and
 * tid64 choose PID_UINT64/TID_UINT64 over the 32-bit types.
 */
static inline void pl_layout_init(struct pl_layout *l, enum pl_kind k, bool pid64, bool tid64)
{
	static const struct {
		enum pl_role role;
		const char *name, *description;
	} all[] = {
		{ PL_R_ORDINAL, "Ordinal", "0-based position of the call in the NVTXT file" },
		{ PL_R_TIME, "Time", "Marker time" },
		{ PL_R_START, NULL, NULL },
		{ PL_R_END, NULL, NULL },
		{ PL_R_PID, "ProcessId", "process ID" },
		{ PL_R_TID, "ThreadId", "OS thread ID" },
		{ PL_R_PARENT, "ParentCategoryId", "parent category" },
		{ PL_R_CATEGORY, "CategoryId", "category" },
		{ PL_R_COLOR, "Color", "ARGB color" },
		{ PL_R_PAYLOAD, "Payload", "64-bit integer payload" },
		{ PL_R_MESSAGE, "Message", "message, UTF-8, offset into flexData" },
		{ PL_R_NAME, "Name", "name, UTF-8, offset into flexData" },
		{ PL_R_PRESENT, "Present", "optional arguments given: 1 CategoryId, 2 Color, 4 Message, 8 Payload" },
	};
	/* The roles of each kind, as a bit set. */
#define R(x) (1u << PL_R_##x)
	static const uint32_t roles[PL_K_COUNT] = {
		[PL_K_MARKER] = R(TIME) | R(PID) | R(TID) | R(CATEGORY) | R(COLOR) |
			R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
		[PL_K_START_END] = R(START) | R(END) | R(PID) | R(TID) | R(CATEGORY) |
			R(COLOR) | R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
		[PL_K_PUSH] = R(TIME) | R(PID) | R(TID) | R(CATEGORY) | R(COLOR) |
			R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
		[PL_K_POP] = R(TIME) | R(PID) | R(TID) | R(ORDINAL),
		[PL_K_NAME_CATEGORY] = R(ORDINAL) | R(CATEGORY) | R(NAME),
		[PL_K_ADD_CHILD_CATEGORY] = R(ORDINAL) | R(PARENT) | R(CATEGORY),
		[PL_K_NAME_OS_THREAD] = R(ORDINAL) | R(PID) | R(TID) | R(NAME),
		[PL_K_NAME_PROCESS] = R(ORDINAL) | R(PID) | R(NAME),
		[PL_K_SET_FILE_DISPLAY_NAME] = R(ORDINAL) | R(NAME),
	};
#undef R
	uint32_t off = 0;
	memset(l, 0, sizeof *l);
	l->kind = k;
	l->pid64 = pid64;
	l->tid64 = tid64;
	l->schema_flags = k == PL_K_MARKER ? PL_SF_MARK
		: k == PL_K_START_END ? PL_SF_RANGE_STARTEND
		: k == PL_K_PUSH || k == PL_K_POP ? PL_SF_RANGE_PUSHPOP : PL_SF_NONE;
	for (int r = 0; r < PL_R_COUNT; r++)
		l->at[r] = -1;
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		enum pl_role r = all[i].role;
		struct pl_entry *e;
		if (!(roles[k] & (1u << r)))
			continue;
		/* In events the ordinal follows the timestamps (sorting key first). */
		if (r == PL_R_ORDINAL && pl_kind_timed(k))
			continue;
		e = &l->e[l->n];
		e->role = r;
		e->name = all[i].name;
		e->description = all[i].description;
		e->size = 4;
		switch (r) {
		case PL_R_TIME:
			e->type = PL_T_INT64, e->size = 8;
			e->flags = PL_EF_TIMESTAMP | (k == PL_K_PUSH ? PL_EF_RANGE_BEGIN
				: k == PL_K_POP ? PL_EF_RANGE_END : PL_EF_MARK);
			e->description = k == PL_K_PUSH ? "RangePush time"
				: k == PL_K_POP ? "RangePop time" : "Marker time";
			break;
		case PL_R_START:
			e->type = PL_T_INT64, e->size = 8;
			e->flags = PL_EF_TIMESTAMP | PL_EF_RANGE_BEGIN;
			e->name = "Start";
			e->description = "range start";
			break;
		case PL_R_END:
			e->type = PL_T_INT64, e->size = 8;
			e->flags = PL_EF_TIMESTAMP | PL_EF_RANGE_END;
			e->name = "End";
			e->description = "range end";
			break;
		case PL_R_PID:
			e->type = pid64 ? PL_T_PID_UINT64 : PL_T_PID_UINT32;
			e->size = pid64 ? 8 : 4;
			break;
		case PL_R_TID:
			e->type = tid64 ? PL_T_TID_UINT64 : PL_T_TID_UINT32;
			e->size = tid64 ? 8 : 4;
			break;
		case PL_R_CATEGORY:
		case PL_R_PARENT:
			e->type = PL_T_CATEGORY;
			break;
		case PL_R_COLOR:
			e->type = PL_T_COLOR_ARGB;
			break;
		case PL_R_PAYLOAD:
			e->type = PL_T_INT64, e->size = 8;
			break;
		case PL_R_MESSAGE:
			e->type = PL_T_CSTRING_UTF8, e->size = 8;
			e->flags = PL_EF_EVENT_MESSAGE | PL_EF_OFFSET_FROM_BASE |
				PL_EF_ARRAY_ZERO_TERMINATED;
			break;
		case PL_R_NAME:
			e->type = PL_T_CSTRING_UTF8, e->size = 8;
			e->flags = PL_EF_OFFSET_FROM_BASE | PL_EF_ARRAY_ZERO_TERMINATED;
			break;
		case PL_R_ORDINAL:
			e->type = PL_T_UINT64, e->size = 8;
			e->flags = PL_EF_HIDE;
			break;
		case PL_R_PRESENT:
			e->type = PL_T_UINT32;
			e->flags = PL_EF_HIDE;
			break;
		case PL_R_COUNT:
			break;
		}
		off = (off + e->size - 1) & ~(e->size - 1);
		e->offset = off;
		off += e->size;
		l->at[r] = (int)l->n++;
		/* Events: the ordinal comes right after the timestamps. */
		if (pl_kind_timed(k) && (r == PL_R_TIME || r == PL_R_END)) {
			e = &l->e[l->n];
			e->role = PL_R_ORDINAL;
			e->name = "Ordinal";
			e->description = all[0].description;
			e->type = PL_T_UINT64, e->size = 8;
			e->flags = PL_EF_HIDE;
			e->offset = off;
			off += 8;
			l->at[PL_R_ORDINAL] = (int)l->n++;
		}
	}
	l->stride = (off + 7u) & ~7u;
}

/*
 * Little-endian stores and loads at any alignment, independent of the
 * host's byte order.  The bytes are spelt out one by one, which GCC and
 * Clang turn into a single store or load at -O2 on a little-endian host
 * (a loop they leave as a loop).
 */
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

	pl_put64(p, d.scope);
	pl_put64(p + 8, d.timestamp_type);
	pl_put64(p + 16, PL_TIME_DOMAIN_ID_STATIC_START + tb);
	pl_put64(p + 24, d.flags);
	pl_put64(p + 32, (uint64_t)d.resolution);
	pl_put64(p + 40, d.start);
	pl_put64(p + 48, tb);
}

#define PL_NO_TB 7u /* the TimeBase slot of naming schemas */
/* Room for the largest schema body: attributes, entries and strings. */
#define PL_SCHEMA_BODY_MAX 4096u

/*
 * The body of the schema section of layout l, TimeBase tb (PL_NO_TB for
 * naming kinds) and ID id, exactly as the writer writes it, into buf (at
 * least PL_SCHEMA_BODY_MAX bytes): the attributes, the entries, then the
 * strings (the name, then each entry's name and description).  Returns
 * its length.  Defined in payload_write.c; the reader compares what it
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
/* The call of a record. */
struct nvtxt_event;
void pr_event(const struct pr_batch *b, const unsigned char *rec, struct nvtxt_event *ev);
/* A failure of pr_next, or of the back end, as the caller's message (copied
 * into err when errlen) and return value: NVTXT_PAYLOAD_EIO after a read
 * error, else NVTXT_PAYLOAD_EFORMAT. */
int pr_result(const struct nvtxt_payload_reader *r, char *err, size_t errlen);

#endif
