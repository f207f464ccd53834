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
 * Replays a validated payload file through NVTX, in this order:
 *  1. nvtxDomainCreateA, named after the file's last SetFileDisplayName,
 *     or `fallback_name` (e.g. the file name) when it has none;
 *  2. nvtxTimeDomainRegister for each time domain (static ID requested);
 *     the returned ID goes into the nvtxSemanticsTime_t of the timestamp
 *     entries, or the NVTX_TIMESTAMP_TYPE_* when the tool returned 0;
 *  3. nvtxPayloadSchemaRegister for each schema (static ID requested);
 *  4. nvtxDomainNameCategoryA for every NameCategory and nvtxNameOsThreadA
 *     for every NameOsThread whose ThreadId fits 32 bits, in file order;
 *  5. nvtxEventBatchSubmit for every batch, in file order, with the schema
 *     ID the tool returned (the static ID when it returned 0), the events
 *     and flexData pointing straight into the image (copied once when the
 *     image is not 8-byte aligned).
 * With no NVTX tool attached every call is a no-op, as NVTX promises.
 * Returns 0, or -1 with a one-line message in err: on a big-endian host
 * ("replay needs a little-endian host": records are handed to NVTX as they
 * are on disk) or when memory runs out.
 */
int nvtxt_replay(const struct nvtxt_payload_reader *r, const char *fallback_name,
		 char *err, size_t errlen);

#endif
