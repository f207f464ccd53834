/*
 * replay.h - `nvtxtc replay`: a payload file fed to the real NVTX API
 * (nvtx3/nvToolsExtPayload.h).  Built only when NVTXTC_HAVE_NVTX is
 * defined, i.e. when configure found the NVTX v3 headers.
 */
#ifndef NVTXT_REPLAY_H
#define NVTXT_REPLAY_H

#include <stddef.h>

struct nvtxt_payload_reader;

/*
 * Replays a payload file through NVTX as it reads it (one pass, memory
 * bounded by one batch), in this order:
 *  1. at the first batch: nvtxDomainCreateA, named after the file's first
 *     call when it is a SetFileDisplayName (that batch holds ordinal 0),
 *     or `fallback_name` (e.g. the file name) when it is not;
 *  2. before each batch, for the time domains and schemas read since the
 *     last one: nvtxTimeDomainRegister for each time domain (static ID
 *     requested), whose returned ID goes into the nvtxSemanticsTime_t of
 *     the timestamp entries (the NVTX_TIMESTAMP_TYPE_* when the tool
 *     returned 0); nvtxPayloadSchemaRegister for each schema (static ID
 *     requested), with attributes and entries built from the file's
 *     (offsets made pointers: the file's schema bodies cannot be handed
 *     over as they are);
 *  3. for a batch of NameCategory or NameOsThread records,
 *     nvtxDomainNameCategoryA, or nvtxNameOsThreadA when the ThreadId fits
 *     32 bits, for each record;
 *  4. nvtxEventBatchSubmit of the batch, with the schema ID the tool
 *     returned (the static ID when it returned 0), the events and flexData
 *     pointing into the buffer the batch was read into.
 * With no NVTX tool attached every call is a no-op, as NVTX promises.  A
 * RangePush and its RangePop are two records, of two RANGE_PUSHPOP schemas
 * (the RANGE_BEGIN and the RANGE_END timestamp); a tool pairs them per
 * thread as it pairs nvtxRangePush and nvtxRangePop.
 * Returns 0; NVTXT_PAYLOAD_EFORMAT with the reader's message in err when
 * the file breaks its format (the batches before the error were
 * submitted); NVTXT_PAYLOAD_EIO with a message on a big-endian host
 * ("replay needs a little-endian host": records are handed to NVTX as they
 * are on disk), a read error or when memory runs out.
 */
int nvtxt_replay(struct nvtxt_payload_reader *r, const char *fallback_name,
		 char *err, size_t errlen);

#endif
