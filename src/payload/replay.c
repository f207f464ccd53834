/*
 * replay.c - `nvtxtc replay`: a validated payload file fed to the real NVTX
 * API, following the proven recipe of nvtx-payload-notes.md, section 2
 * ("Submitting deferred events").  The records on disk are the records
 * NVTX expects on a little-endian LP64 host, so batches are handed over
 * without copying; string entries are OFFSET_FROM_BASE offsets into
 * flexData, which stay valid wherever the image lies.
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

#include "payload.h"
#include "payload_layout.h"
#include "replay.h"

_Static_assert(sizeof(nvtxEventBatch_t) == PL_BATCH_HEADER_SIZE, "nvtxEventBatch_t layout");
_Static_assert(sizeof(nvtxTimeDomainAttr_t) + 8 == PL_TIME_DOMAIN_SIZE, "nvtxTimeDomainAttr_t layout");

static int replay_fail(char *err, size_t errlen, const char *msg)
{
	if (errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

int nvtxt_replay(const struct nvtxt_payload_reader *r, const char *fallback_name,
		 char *err, size_t errlen)
{
	const uint16_t one = 1;
	const unsigned char *copy = NULL;
	const char *name = nvtxt_payload_display_name(r);
	nvtxSemanticsTime_t sem[PR_NO_TB];
	uint64_t *ids;
	ptrdiff_t shift = 0;
	nvtxDomainHandle_t dom;

	if (*(const unsigned char *)&one != 1)
		return replay_fail(err, errlen, "replay needs a little-endian host");
	/* Records hold 8-byte fields: hand NVTX an aligned image. */
	if ((uintptr_t)r->data % 8) {
		unsigned char *p = aligned_alloc(8, (r->size + 7) & ~(size_t)7);
		if (!p)
			return replay_fail(err, errlen, "out of memory");
		memcpy(p, r->data, r->size);
		copy = p;
		shift = copy - r->data;
	}
	ids = calloc(r->nschemas + 1, sizeof *ids);
	if (!ids) {
		free((void *)copy);
		return replay_fail(err, errlen, "out of memory");
	}

	dom = nvtxDomainCreateA(name ? name : fallback_name ? fallback_name : "nvtxtc");

	memset(sem, 0, sizeof sem);
	for (size_t i = 0; i < r->ntd; i++) {
		const unsigned char *p = r->td[i].rec;
		nvtxTimeDomainAttr_t a;
		nvtxSemanticsTime_t *s = &sem[r->td[i].tb];
		uint64_t id;

		a.scopeId = pl_get64(p);
		a.timestampTypeId = pl_get64(p + 8);
		a.timeDomainId = pl_get64(p + 16);
		a.timerFlags = pl_get64(p + 24);
		a.timerResolution = (int64_t)pl_get64(p + 32);
		a.timerStart = pl_get64(p + 40);
		id = nvtxTimeDomainRegister(dom, &a);
		s->header.structSize = sizeof *s;
		s->header.semanticId = NVTX_SEMANTIC_ID_TIME_V1;
		s->header.version = NVTX_TIME_SEMANTIC_VERSION;
		s->header.next = NULL;
		s->timeDomainId = id ? id : a.timestampTypeId;
	}

	for (size_t i = 0; i < r->nschemas; i++) {
		const struct pr_schema *s = &r->schemas[i];
		nvtxPayloadSchemaEntry_t e[PL_MAX_ENTRIES];
		nvtxPayloadSchemaAttr_t a;

		memset(e, 0, sizeof e);
		for (size_t j = 0; j < s->l.n; j++) {
			const unsigned char *p = s->entries + j * PL_SCHEMA_ENTRY_SIZE;
			uint64_t desc = pl_get64(p + 24);

			e[j].flags = pl_get64(p);
			e[j].type = pl_get64(p + 8);
			e[j].name = (const char *)s->body + pl_get64(p + 16);
			e[j].description = desc ? (const char *)s->body + desc : NULL;
			e[j].arrayOrUnionDetail = pl_get64(p + 32);
			e[j].offset = pl_get64(p + 40);
			if (pl_get64(p + 48) && s->tb < PR_NO_TB)
				e[j].semantics = &sem[s->tb].header;
		}
		memset(&a, 0, sizeof a);
		a.fieldMask = pl_get64(s->body);
		a.name = s->name;
		a.type = pl_get64(s->body + 16);
		a.flags = pl_get64(s->body + 24);
		a.entries = e;
		a.numEntries = s->l.n;
		a.payloadStaticSize = s->l.stride;
		a.packAlign = PL_PACK_ALIGN;
		a.schemaId = s->id;
		ids[i] = nvtxPayloadSchemaRegister(dom, &a);
		if (!ids[i])
			ids[i] = s->id;
	}

	for (uint64_t k = 0; k < r->nevents; k++) {
		const struct pr_slot *slot = &r->slots[k];
		const struct pr_schema *s = slot->batch->s;
		const char *nm;

		if (s->l.kind != PL_K_NAME_CATEGORY && s->l.kind != PL_K_NAME_OS_THREAD)
			continue;
		nm = (const char *)slot->batch->flex + pr_field(s, slot->rec, PL_R_NAME);
		if (s->l.kind == PL_K_NAME_CATEGORY)
			nvtxDomainNameCategoryA(dom, (uint32_t)pr_field(s, slot->rec, PL_R_CATEGORY), nm);
		else if (pr_field(s, slot->rec, PL_R_TID) <= UINT32_MAX)
			nvtxNameOsThreadA((uint32_t)pr_field(s, slot->rec, PL_R_TID), nm);
	}

	for (size_t i = 0; i < r->nbatches; i++) {
		const struct pr_batch *b = &r->batches[i];
		nvtxEventBatch_t eb;

		memset(&eb, 0, sizeof eb);
		eb.eventSchemaId = ids[b->s - r->schemas];
		eb.size = (size_t)(b->nev * b->s->l.stride);
		eb.events = b->events + shift;
		eb.scope = b->scope;
		eb.flags = b->flags;
		eb.flexData = b->flex + shift;
		eb.flexDataSize = (size_t)b->flex_size;
		eb.flexDataOffset = 0;
		nvtxEventBatchSubmit(dom, &eb);
	}

	nvtxDomainDestroy(dom);
	free(ids);
	free((void *)copy);
	return 0;
}
