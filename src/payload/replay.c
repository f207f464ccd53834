/*
 * replay.c - `nvtxtc replay`: a validated payload file fed to the real NVTX
 * API, following the proven recipe of nvtx-payload-notes.md, section 2
 * ("Submitting deferred events"), as the file is read.  Schemas are
 * registered from attributes and entries built from the file's, their
 * offsets made pointers; the records of a batch are the records NVTX
 * expects on a little-endian LP64 host, so each batch is submitted from
 * the buffer it was read into, without a copy; string entries are
 * OFFSET_FROM_BASE offsets into flexData, which stay valid wherever the
 * buffer lies.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First, so that this file gets the NVTX implementation (payload_layout.h
 * alone would include the headers as declarations only). */
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>
#include <nvtx3/nvToolsExtSemanticsTime.h>

#include "nvtxt/payload.h"
#include "payload_layout.h"
#include "replay.h"
#include "util.h"

_Static_assert(sizeof(nvtxEventBatch_t) == PL_BATCH_HEADER_SIZE, "nvtxEventBatch_t layout");
_Static_assert(sizeof(nvtxTimeDomainAttr_t) + 8 == PL_TIME_DOMAIN_SIZE, "nvtxTimeDomainAttr_t layout");

static int replay_fail(char *err, size_t errlen, const char *msg)
{
	if (errlen)
		snprintf(err, errlen, "%s", msg);
	return NVTXT_PAYLOAD_EIO;
}

struct replay {
	nvtxDomainHandle_t dom;
	nvtxSemanticsTime_t sem[PL_NO_TB];
	uint64_t *ids;           /* the ID NVTX gave each schema registered */
	size_t ntd, nschemas;    /* registered so far */
};

/* Registers the time domains and schemas read since the last call. */
static int replay_register(struct replay *rp, const struct nvtxt_payload_reader *r)
{
	const struct pr_time_domain *td;
	const struct pr_schema *s;

	for (; (td = pr_time_domain(r, rp->ntd)); rp->ntd++) {
		const unsigned char *p = td->rec;
		nvtxTimeDomainAttr_t a;
		nvtxSemanticsTime_t *sem = &rp->sem[td->tb];
		uint64_t id;

		a.scopeId = pl_get64(p + PL_TD_SCOPE);
		a.timestampTypeId = pl_get64(p + PL_TD_TIMESTAMP_TYPE);
		a.timeDomainId = pl_get64(p + PL_TD_ID);
		a.timerFlags = pl_get64(p + PL_TD_TIMER_FLAGS);
		a.timerResolution = (int64_t)pl_get64(p + PL_TD_RESOLUTION);
		a.timerStart = pl_get64(p + PL_TD_TIMER_START);
		id = nvtxTimeDomainRegister(rp->dom, &a);
		sem->header.structSize = sizeof *sem;
		sem->header.semanticId = NVTX_SEMANTIC_ID_TIME_V1;
		sem->header.version = NVTX_TIME_SEMANTIC_VERSION;
		sem->header.next = NULL;
		sem->timeDomainId = id ? id : a.timestampTypeId;
	}
	for (; (s = pr_schema_at(r, rp->nschemas)); rp->nschemas++) {
		nvtxPayloadSchemaEntry_t e[PL_MAX_ENTRIES];
		nvtxPayloadSchemaAttr_t a;
		void *p = try_realloc(rp->ids, (rp->nschemas + 1) * sizeof *rp->ids);

		if (!p)
			return -1;
		rp->ids = p;
		/* the file's entries with their offsets made pointers */
		memset(e, 0, sizeof e);
		for (size_t j = 0; j < s->l.n; j++) {
			const unsigned char *q = s->entries + j * PL_SCHEMA_ENTRY_SIZE;
			uint64_t desc = pl_get64(q + PL_ENT_DESCRIPTION);

			e[j].flags = pl_get64(q + PL_ENT_FLAGS);
			e[j].type = pl_get64(q + PL_ENT_TYPE);
			e[j].name = (const char *)s->body + pl_get64(q + PL_ENT_NAME);
			e[j].description = desc ? (const char *)s->body + desc : NULL;
			e[j].arrayOrUnionDetail = pl_get64(q + PL_ENT_DETAIL);
			e[j].offset = pl_get64(q + PL_ENT_OFFSET);
			if (pl_get64(q + PL_ENT_SEMANTICS) && s->tb < PL_NO_TB)
				e[j].semantics = &rp->sem[s->tb].header;
		}
		memset(&a, 0, sizeof a);
		a.fieldMask = pl_get64(s->body + PL_SCH_FIELD_MASK);
		a.name = s->name;
		a.type = pl_get64(s->body + PL_SCH_TYPE);
		a.flags = pl_get64(s->body + PL_SCH_FLAGS);
		a.entries = e;
		a.numEntries = s->l.n;
		a.payloadStaticSize = s->l.stride;
		a.packAlign = PL_PACK_ALIGN;
		a.schemaId = s->id;
		rp->ids[rp->nschemas] = nvtxPayloadSchemaRegister(rp->dom, &a);
		if (!rp->ids[rp->nschemas])
			rp->ids[rp->nschemas] = s->id;
	}
	return 0;
}

int nvtxt_replay(struct nvtxt_payload_reader *r, const char *fallback_name,
		 char *err, size_t errlen)
{
	const uint16_t one = 1;
	struct replay rp;
	struct pr_batch *b;
	enum pr_item it;
	int rc = 0;

	if (*(const unsigned char *)&one != 1)
		return replay_fail(err, errlen, "replay needs a little-endian host");
	memset(&rp, 0, sizeof rp);
	while ((it = pr_next(r, &b)) != PR_END) {
		const struct pr_schema *s;
		nvtxEventBatch_t eb;

		if (it == PR_ERROR) {
			rc = pr_result(r, err, errlen);
			break;
		}
		if (it != PR_BATCH)
			continue; /* registered with the first batch that needs them */
		s = b->s;
		if (!rp.dom) {
			/* the first batch holds ordinal 0: the file's first call */
			const char *name = s->l.kind == PL_K_SET_FILE_DISPLAY_NAME
				? (const char *)b->flex + pr_field(s, b->events, PL_R_NAME) : NULL;
			rp.dom = nvtxDomainCreateA(name ? name : fallback_name ? fallback_name : "nvtxtc");
		}
		if (replay_register(&rp, r)) {
			pr_batch_free(r, b);
			rc = replay_fail(err, errlen, "out of memory");
			break;
		}
		for (uint64_t k = 0; k < b->nev && (s->l.kind == PL_K_NAME_CATEGORY ||
						     s->l.kind == PL_K_NAME_OS_THREAD); k++) {
			const unsigned char *rec = b->events + k * s->l.stride;
			const char *nm = (const char *)b->flex + pr_field(s, rec, PL_R_NAME);

			if (s->l.kind == PL_K_NAME_CATEGORY)
				nvtxDomainNameCategoryA(rp.dom, (uint32_t)pr_field(s, rec, PL_R_CATEGORY), nm);
			else if (pr_field(s, rec, PL_R_TID) <= UINT32_MAX)
				nvtxNameOsThreadA((uint32_t)pr_field(s, rec, PL_R_TID), nm);
		}
		/* the records as they are in the file: 8-aligned (malloc), little-endian */
		memset(&eb, 0, sizeof eb);
		eb.eventSchemaId = rp.ids[s->id - PL_SCHEMA_ID_STATIC_START];
		eb.size = (size_t)(b->nev * s->l.stride);
		eb.events = b->events;
		eb.scope = b->scope;
		eb.flags = b->flags;
		eb.flexData = b->flex;
		eb.flexDataSize = (size_t)b->flex_size;
		eb.flexDataOffset = 0;
		nvtxEventBatchSubmit(rp.dom, &eb);
		pr_batch_free(r, b);
	}
	if (rp.dom)
		nvtxDomainDestroy(rp.dom);
	free(rp.ids);
	return rc;
}
