/*
 * recorder.c - an NVTX injection library that records what a replay sends
 * and prints it as NVTXT normal form (nvtxt(5), CANONICAL FORM).
 *
 * It decodes every event batch with nothing but the schemas registered
 * through nvtxPayloadSchemaRegister and the rules of the payload extension
 * (nvtx3/nvToolsExtPayload.h): entry offsets (explicit, or natural
 * alignment when 0 past entry 0), entry types and their widths, string
 * entries as OFFSET_FROM_BASE offsets or POINTERs into flexData, the
 * timestamp role fields, and the time semantics that tie timestamps to
 * registered time domains.  It shares no code with nvtxtc.  The NVTXT
 * meaning comes from the schema (nvtxt-payload(5)): schema flag MARK,
 * RANGE_STARTEND or RANGE_PUSHPOP, or a naming schema named after its
 * command; the TimeBase is the second word of the schema's name; entries are
 * found by name (ProcessId, ThreadId, CategoryId, ...) and timestamps by
 * role (a RANGE_PUSHPOP schema with a RANGE_BEGIN timestamp holds pushes,
 * one with a RANGE_END timestamp pops); the hidden entries Ordinal and
 * Present give the original order and the optional arguments given.
 *
 * Environment: NVTXT_RECORDER_OUT names the file that receives the normal
 * form at process exit (lines sorted by ordinal); NVTXT_RECORDER_LOG, if
 * set, names a file that receives one line per NVTX call received.
 * Problems are reported on that log and as "# error: ..." lines in the
 * output, so a comparison fails.
 *
 * Build: cc -std=c11 -fPIC -shared -I/usr/local/cuda/include recorder.c
 * Run:   NVTX_INJECTION64_PATH=/abs/path/recorder.so NVTXT_RECORDER_OUT=f app
 */
#define _GNU_SOURCE
#define NVTX_NO_IMPL
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsTime.h>

#define EXPORT __attribute__((visibility("default")))

struct domain {
	char *name;
};

struct tdom {
	nvtxDomainHandle_t dom;
	uint64_t id, type;
};

struct entry {
	uint64_t flags, type, detail, offset, time_domain;
	char *name;
};

struct schema {
	nvtxDomainHandle_t dom;
	uint64_t id, flags, size;
	char *name;
	size_t n;
	struct entry *e;
};

struct line {
	uint64_t ordinal;
	char *text;
};

static struct tdom *tdoms;
static size_t ntdoms;
static struct schema *schemas;
static size_t nschemas;
static uint64_t next_schema_id = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START;
static uint64_t next_tdom_id = NVTX_TIME_DOMAIN_ID_DYNAMIC_START;
static struct line *lines;
static size_t nlines, caplines;
static FILE *logf;
static int setup_done;

static void setup(void)
{
	const char *p;

	if (setup_done)
		return;
	setup_done = 1;
	p = getenv("NVTXT_RECORDER_LOG");
	if (p && *p)
		logf = fopen(p, "w");
}

static void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logmsg(const char *fmt, ...)
{
	va_list ap;

	setup();
	if (!logf)
		return;
	va_start(ap, fmt);
	vfprintf(logf, fmt, ap);
	va_end(ap);
	fputc('\n', logf);
	fflush(logf);
}

static void add_line(uint64_t ordinal, const char *text)
{
	if (nlines == caplines) {
		caplines = caplines ? 2 * caplines : 1024;
		lines = realloc(lines, caplines * sizeof *lines);
		if (!lines)
			abort();
	}
	lines[nlines].ordinal = ordinal;
	lines[nlines].text = strdup(text);
	nlines++;
}

static void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void problem(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n = snprintf(buf, sizeof buf, "# error: ");

	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	va_end(ap);
	logmsg("%s", buf);
	add_line(UINT64_MAX, buf);
}

/* ---- core callbacks ---- */

static nvtxDomainHandle_t NVTX_API on_domain_create(const char *name)
{
	struct domain *d = calloc(1, sizeof *d);

	d->name = strdup(name ? name : "");
	logmsg("nvtxDomainCreateA \"%s\"", d->name);
	return (nvtxDomainHandle_t)d;
}

static void NVTX_API on_domain_destroy(nvtxDomainHandle_t dom)
{
	logmsg("nvtxDomainDestroy \"%s\"", dom ? ((struct domain *)dom)->name : "");
}

static void NVTX_API on_domain_name_category(nvtxDomainHandle_t dom, uint32_t id, const char *name)
{
	logmsg("nvtxDomainNameCategoryA \"%s\" %" PRIu32 " \"%s\"",
	       dom ? ((struct domain *)dom)->name : "", id, name);
}

static void NVTX_API on_name_category(uint32_t id, const char *name)
{
	logmsg("nvtxNameCategoryA %" PRIu32 " \"%s\"", id, name);
}

static void NVTX_API on_name_os_thread(uint32_t tid, const char *name)
{
	logmsg("nvtxNameOsThreadA %" PRIu32 " \"%s\"", tid, name);
}

EXPORT int NVTX_API InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	const NvtxExportTableCallbacks *cb = get(NVTX_ETID_CALLBACKS);
	NvtxFunctionTable t;
	unsigned int n;

	if (!cb)
		return 0;
	if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n) && n > 14) {
		*t[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)on_domain_create;
		*t[NVTX_CBID_CORE2_DomainDestroy] = (NvtxFunctionPointer)on_domain_destroy;
		*t[NVTX_CBID_CORE2_DomainNameCategoryA] = (NvtxFunctionPointer)on_domain_name_category;
	}
	if (cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n) && n > 14) {
		*t[NVTX_CBID_CORE_NameCategoryA] = (NvtxFunctionPointer)on_name_category;
		*t[NVTX_CBID_CORE_NameOsThreadA] = (NvtxFunctionPointer)on_name_os_thread;
	}
	return 1;
}

/* ---- payload callbacks ---- */

static uint64_t NVTX_API on_time_domain(nvtxDomainHandle_t dom, const nvtxTimeDomainAttr_t *a)
{
	uint64_t id = a->timeDomainId;

	for (size_t i = 0; i < ntdoms; i++)
		if (tdoms[i].dom == dom && tdoms[i].id == id)
			id = 0;
	if (id < NVTX_TIME_DOMAIN_ID_STATIC_START || id >= NVTX_TIME_DOMAIN_ID_DYNAMIC_START)
		id = next_tdom_id++;
	tdoms = realloc(tdoms, (ntdoms + 1) * sizeof *tdoms);
	tdoms[ntdoms].dom = dom;
	tdoms[ntdoms].id = id;
	tdoms[ntdoms].type = a->timestampTypeId;
	ntdoms++;
	logmsg("nvtxTimeDomainRegister type %" PRIu64 " -> %" PRIu64, a->timestampTypeId, id);
	return id;
}

static uint64_t NVTX_API on_schema(nvtxDomainHandle_t dom, const nvtxPayloadSchemaAttr_t *a)
{
	const uint64_t need = NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_TYPE |
			      NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_ENTRIES |
			      NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NUM_ENTRIES;
	struct schema s = { 0 };
	uint64_t id = 0;

	if ((a->fieldMask & need) != need) {
		problem("schema without TYPE|ENTRIES|NUM_ENTRIES");
		return 0;
	}
	s.dom = dom;
	s.name = strdup((a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_NAME) && a->name ? a->name : "");
	s.flags = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_FLAGS ? a->flags : 0;
	s.size = a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_STATIC_SIZE ? a->payloadStaticSize : 0;
	if (a->fieldMask & NVTX_PAYLOAD_SCHEMA_ATTR_FIELD_SCHEMA_ID)
		id = a->schemaId;
	for (size_t i = 0; i < nschemas; i++)
		if (schemas[i].dom == dom && schemas[i].id == id)
			id = 0;
	if (id < NVTX_PAYLOAD_SCHEMA_ID_STATIC_START || id >= NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START)
		id = next_schema_id++;
	s.id = id;
	s.n = a->numEntries;
	s.e = calloc(s.n ? s.n : 1, sizeof *s.e);
	for (size_t i = 0; i < s.n; i++) {
		const nvtxPayloadSchemaEntry_t *e = &a->entries[i];
		s.e[i].flags = e->flags;
		s.e[i].type = e->type;
		s.e[i].detail = e->arrayOrUnionDetail;
		s.e[i].offset = e->offset;
		s.e[i].name = strdup(e->name ? e->name : "");
		for (const nvtxSemanticsHeader_t *h = e->semantics; h; h = h->next)
			if (h->semanticId == NVTX_SEMANTIC_ID_TIME_V1)
				s.e[i].time_domain = ((const nvtxSemanticsTime_t *)h)->timeDomainId;
	}
	if (a->type != NVTX_PAYLOAD_SCHEMA_TYPE_STATIC || !s.size)
		problem("schema \"%s\": expected a STATIC schema with a static size", s.name);
	schemas = realloc(schemas, (nschemas + 1) * sizeof *schemas);
	schemas[nschemas++] = s;
	logmsg("nvtxPayloadSchemaRegister \"%s\" flags 0x%" PRIx64 " size %" PRIu64
	       " entries %zu -> %" PRIu64, s.name, s.flags, s.size, s.n, id);
	return id;
}

/* Size and alignment of an entry's slot in a record, or 0 if unsupported. */
static uint64_t entry_size(const struct entry *e)
{
	if (e->flags & (NVTX_PAYLOAD_ENTRY_FLAG_POINTER | NVTX_PAYLOAD_ENTRY_FLAG_OFFSET_FROM_BASE))
		return 8; /* an address, or an offset stored as uint64 */
	switch (e->type) {
	case NVTX_PAYLOAD_ENTRY_TYPE_UINT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_INT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_CATEGORY:
	case NVTX_PAYLOAD_ENTRY_TYPE_COLOR_ARGB:
	case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT32:
	case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT32:
		return 4;
	case NVTX_PAYLOAD_ENTRY_TYPE_INT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_PID_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_TID_UINT64:
	case NVTX_PAYLOAD_ENTRY_TYPE_SCOPE_ID:
		return 8;
	default:
		return 0;
	}
}

/* A decoded value: an integer, or a string. */
struct value {
	int set;
	uint64_t u;
	const char *s;
};

/* The value of every entry, or -1 when a record cannot be decoded. */
static int decode(const struct schema *s, const nvtxEventBatch_t *b, const unsigned char *rec,
		  struct value *v)
{
	const unsigned char *flex = b->flexData;
	uint64_t cursor = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct entry *e = &s->e[i];
		uint64_t size = entry_size(e), off;

		if (!size) {
			problem("schema \"%s\" entry \"%s\": type %" PRIu64 " not supported",
				s->name, e->name, e->type);
			return -1;
		}
		off = (e->offset || i == 0) ? e->offset : (cursor + size - 1) / size * size;
		if (off + size > s->size) {
			problem("schema \"%s\" entry \"%s\": beyond the static size", s->name, e->name);
			return -1;
		}
		cursor = off + size;
		memset(&v[i], 0, sizeof v[i]);
		v[i].set = 1;
		if (size == 4) {
			uint32_t x;
			memcpy(&x, rec + off, 4);
			v[i].u = x;
		} else {
			memcpy(&v[i].u, rec + off, 8);
		}
		if (e->type == NVTX_PAYLOAD_ENTRY_TYPE_CSTRING_UTF8) {
			const unsigned char *p;
			uint64_t lo = b->flexDataOffset, hi = b->flexDataOffset + b->flexDataSize;

			if (e->flags & NVTX_PAYLOAD_ENTRY_FLAG_POINTER)
				p = (const unsigned char *)(uintptr_t)v[i].u;
			else
				p = flex + v[i].u;
			if (!flex || p < flex + lo || p >= flex + hi ||
			    !memchr(p, 0, (size_t)(flex + hi - p))) {
				problem("schema \"%s\" entry \"%s\": string outside flexData",
					s->name, e->name);
				return -1;
			}
			v[i].s = (const char *)p;
		}
	}
	return 0;
}

static const struct value *by_name(const struct schema *s, const struct value *v, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].name, name))
			return &v[i];
	return NULL;
}

/* The timestamp entry with event role `role` (bits 12-14). */
static const struct value *by_role(const struct schema *s, const struct value *v, uint64_t role)
{
	for (size_t i = 0; i < s->n; i++)
		if ((s->e[i].flags & (3u << 10)) == NVTX_PAYLOAD_ENTRY_FLAG_TIMESTAMP &&
		    (s->e[i].flags & (7u << 12)) == role)
			return &v[i];
	return NULL;
}

struct out {
	char buf[8192];
	size_t len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len >= sizeof o->buf)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, sizeof o->buf - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* ", value" or "," for an absent value. */
static void put_int(struct out *o, const struct value *v, int is_signed)
{
	if (!v) {
		put(o, ",");
		return;
	}
	if (is_signed)
		put(o, ", %" PRId64, (int64_t)v->u);
	else
		put(o, ", %" PRIu64, v->u);
}

static void put_str(struct out *o, const char *s)
{
	char q = strchr(s, '"') ? '\'' : '"';
	put(o, ", %c%s%c", q, s, q);
}

/* The optional arguments: CategoryId, Color, Message, Payload. */
static void put_optional(struct out *o, const struct schema *s, const struct value *v,
			 uint64_t present)
{
	const struct value *cat = by_name(s, v, "CategoryId"), *color = by_name(s, v, "Color");
	const struct value *msg = by_name(s, v, "Message"), *pay = by_name(s, v, "Payload");

	put_int(o, present & 1 ? cat : NULL, 0);
	if (present & 2 && color)
		put(o, ", 0x%08" PRIX32, (uint32_t)color->u);
	else
		put(o, ",");
	if (present & 4 && msg && msg->s)
		put_str(o, msg->s);
	else
		put(o, ",");
	put_int(o, present & 8 ? pay : NULL, 1);
}

static void record(const struct schema *s, const struct value *v)
{
	const char *sp = strchr(s->name, ' ');
	char tb[64] = "", cmd[64];
	size_t klen = sp ? (size_t)(sp - s->name) : strlen(s->name);
	const struct value *pid = by_name(s, v, "ProcessId"), *tid = by_name(s, v, "ThreadId");
	const struct value *ord = by_name(s, v, "Ordinal"), *present = by_name(s, v, "Present");
	uint64_t kind = (s->flags >> 3) & 7, pres = present ? present->u : 0;
	struct out o = { .len = 0 };

	snprintf(cmd, sizeof cmd, "%.*s", (int)(klen < 63 ? klen : 63), s->name);
	if (sp)
		snprintf(tb, sizeof tb, "%s", sp + 1);
	if (kind == 4) { /* MARK */
		const struct value *t = by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_MARK);
		put(&o, "Marker");
		put_int(&o, t, 1);
		put_str(&o, tb);
		put_int(&o, pid, 0);
		put_int(&o, tid, 0);
		put_optional(&o, s, v, pres);
	} else if (kind == 3) { /* RANGE_STARTEND */
		put(&o, "RangeStartEnd");
		put_int(&o, by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_BEGIN), 1);
		put_int(&o, by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_END), 1);
		put_str(&o, tb);
		put_int(&o, pid, 0);
		put_int(&o, tid, 0);
		put_optional(&o, s, v, pres);
	} else if (kind == 2 && by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_BEGIN)) {
		/* RANGE_PUSHPOP with the RANGE_BEGIN timestamp: a push */
		put(&o, "RangePush");
		put_int(&o, by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_BEGIN), 1);
		put_str(&o, tb);
		put_int(&o, pid, 0);
		put_int(&o, tid, 0);
		put_optional(&o, s, v, pres);
	} else if (kind == 2) { /* RANGE_PUSHPOP with the RANGE_END timestamp: a pop */
		put(&o, "RangePop");
		put_int(&o, by_role(s, v, NVTX_PAYLOAD_ENTRY_FLAG_RANGE_END), 1);
		put_str(&o, tb);
		put_int(&o, pid, 0);
		put_int(&o, tid, 0);
	} else if (!strcmp(cmd, "NameCategory")) {
		put(&o, "NameCategory");
		put_int(&o, by_name(s, v, "CategoryId"), 0);
		put_str(&o, by_name(s, v, "Name") ? by_name(s, v, "Name")->s : "");
	} else if (!strcmp(cmd, "AddChildCategory")) {
		put(&o, "AddChildCategory");
		put_int(&o, by_name(s, v, "ParentCategoryId"), 0);
		put_int(&o, by_name(s, v, "CategoryId"), 0);
	} else if (!strcmp(cmd, "NameOsThread")) {
		put(&o, "NameOsThread");
		put_int(&o, pid, 0);
		put_int(&o, tid, 0);
		put_str(&o, by_name(s, v, "Name") ? by_name(s, v, "Name")->s : "");
	} else if (!strcmp(cmd, "NameProcess")) {
		put(&o, "NameProcess");
		put_int(&o, pid, 0);
		put_str(&o, by_name(s, v, "Name") ? by_name(s, v, "Name")->s : "");
	} else if (!strcmp(cmd, "SetFileDisplayName")) {
		put(&o, "SetFileDisplayName");
		put_str(&o, by_name(s, v, "Name") ? by_name(s, v, "Name")->s : "");
	} else {
		problem("schema \"%s\": not an NVTXT schema", s->name);
		return;
	}
	if (!ord) {
		problem("schema \"%s\": no ordinal entry", s->name);
		return;
	}
	add_line(ord->u, o.buf);
}

static void NVTX_API on_batch(nvtxDomainHandle_t dom, const nvtxEventBatch_t *b)
{
	const struct schema *s = NULL;
	struct value *v;
	size_t n;

	for (size_t i = 0; i < nschemas; i++)
		if (schemas[i].dom == dom && schemas[i].id == b->eventSchemaId)
			s = &schemas[i];
	if (!s) {
		problem("batch of unregistered schema %" PRIu64, b->eventSchemaId);
		return;
	}
	if (!s->size || b->size % s->size) {
		problem("batch of schema \"%s\": size %zu is not a multiple of %" PRIu64,
			s->name, b->size, s->size);
		return;
	}
	n = b->size / s->size;
	logmsg("nvtxEventBatchSubmit \"%s\" %zu events, flags 0x%" PRIx64 ", flexData %zu bytes",
	       s->name, n, b->flags, b->flexDataSize);
	for (size_t i = 0; i < s->n; i++) {
		uint64_t td = s->e[i].time_domain;
		int known = td < NVTX_TIME_DOMAIN_ID_STATIC_START;
		for (size_t k = 0; k < ntdoms; k++)
			known |= tdoms[k].dom == dom && tdoms[k].id == td;
		if ((s->e[i].flags & (3u << 10)) == NVTX_PAYLOAD_ENTRY_FLAG_TIMESTAMP && !known)
			problem("schema \"%s\": timestamps of unknown time domain %" PRIu64, s->name, td);
	}
	v = calloc(s->n ? s->n : 1, sizeof *v);
	for (size_t k = 0; k < n; k++)
		if (!decode(s, b, (const unsigned char *)b->events + k * s->size, v))
			record(s, v);
	free(v);
}

static int NVTX_API on_domain_is_enabled(nvtxDomainHandle_t dom)
{
	(void)dom;
	return 1;
}

EXPORT int NVTX_API InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *mi)
{
	intptr_t *slot;
	size_t n;

	if (!mi || mi->moduleId != NVTX_EXT_PAYLOAD_MODULEID || !mi->segmentsCount)
		return 1;
	slot = mi->segments[0].functionSlots;
	n = mi->segments[0].slotCount;
	if (n > NVTX3EXT_CBID_nvtxEventBatchSubmit) {
		slot[NVTX3EXT_CBID_nvtxPayloadSchemaRegister] = (intptr_t)on_schema;
		slot[NVTX3EXT_CBID_nvtxDomainIsEnabled] = (intptr_t)on_domain_is_enabled;
		slot[NVTX3EXT_CBID_nvtxTimeDomainRegister] = (intptr_t)on_time_domain;
		slot[NVTX3EXT_CBID_nvtxEventBatchSubmit] = (intptr_t)on_batch;
	}
	return 1;
}

static int by_ordinal(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

__attribute__((destructor)) static void write_out(void)
{
	const char *path = getenv("NVTXT_RECORDER_OUT");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	qsort(lines, nlines, sizeof *lines, by_ordinal);
	for (size_t i = 0; i < nlines; i++) {
		if (i && lines[i].ordinal == lines[i - 1].ordinal && lines[i].ordinal != UINT64_MAX)
			fprintf(f, "# error: ordinal %" PRIu64 " twice\n", lines[i].ordinal);
		fprintf(f, "%s\n", lines[i].text);
	}
	fclose(f);
}
