/*
 * payload.h - the payload back end: NVTXT lowered to NVTX extended-payload
 * schemas and event batches (the file format is nvtxt-payload(5)), and the
 * reader that validates, dumps and decompiles such a file.
 *
 * Source: NVTX v3 nvtx3/nvToolsExtPayload.h (payload extension compat ID
 * 0x0104): nvtxPayloadSchemaAttr_t, nvtxPayloadSchemaEntry_t,
 * nvtxTimeDomainAttr_t, nvtxEventBatch_t; nvtx3/nvToolsExtSemanticsTime.h:
 * nvtxSemanticsTime_t.  Layout choices: ../shared/reference/
 * nvtx-payload-notes.md, section 3.
 */
#ifndef NVTXT_PAYLOAD_H
#define NVTXT_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "backend.h"

struct nvtxt_payload_writer;
struct nvtxt_payload_reader;

/*
 * A writer that lowers the event stream to a payload file on `out`, a
 * seekable stream opened for writing by the caller and positioned at
 * offset 0.  Writes the 64-byte header placeholder at once; batches are
 * flushed every 65536 events or 8 MiB of records and strings, so memory
 * stays bounded: the writer keeps the buffers of its largest set of
 * pending batches (blocks of 64 KiB) until it is freed, and allocates no
 * more once it has them.  `finish` writes the time domains and schemas and
 * patches the header.
 * Returns NULL with errno set (ENOMEM, or the write's error).  The writer
 * never closes `out`.
 */
struct nvtxt_payload_writer *nvtxt_payload_writer_new(FILE *out);
void nvtxt_payload_writer_free(struct nvtxt_payload_writer *w);

/*
 * The back end of a writer.  Its callbacks return -1 with errno set on a
 * write error (EIO when the stream's error flag is set without errno),
 * ENOMEM, or EINVAL when the event stream breaks the contract of backend.h
 * (an ordinal out of sequence, a RangePop without its push, a string with
 * a NUL byte); after an error the writer ignores further calls and its
 * output is garbage.
 */
struct nvtxt_backend nvtxt_payload_backend(struct nvtxt_payload_writer *w);

/* True when `data` starts with the payload magic (8 bytes "\x89NVTXT\r\n"). */
bool nvtxt_payload_sniff(const void *data, size_t size);

/*
 * Validates a payload image of `size` bytes at `data` (any alignment; the
 * caller keeps it alive and unchanged until nvtxt_payload_reader_free) and
 * builds the index of its calls.  Returns 0 and stores a reader in *r, or
 * returns -1, stores NULL and writes a one-line message without a trailing
 * newline into err (always NUL-terminated when errlen > 0), e.g.
 * "offset 1234: batch of schema 16777216: expected an event size that
 * divides 560, found 56 x 10.5".  Every size, offset, string and index is
 * checked before use, so any input is safe.  ENOMEM is reported as
 * "out of memory".
 */
int nvtxt_payload_open(struct nvtxt_payload_reader **r, const void *data, size_t size,
		       char *err, size_t errlen);
void nvtxt_payload_reader_free(struct nvtxt_payload_reader *r);

/*
 * Re-creates the original calls in file order and feeds them to `be`:
 * `event` for every call (a RangePush at its ordinal, then its RangePop
 * with ev->push set), then `unclosed_push` (if not NULL) for every push
 * that was never popped, in push order, then `finish`.  ev->loc is
 * {0, 0, 0, 0}; ev->ordinal is the original ordinal.  Returns 0, or -1
 * with the message "write error: ..." in err when a callback failed.
 */
int nvtxt_payload_decompile(const struct nvtxt_payload_reader *r,
			    const struct nvtxt_backend *be, char *err, size_t errlen);

/*
 * Prints the file for a person: the header, the time domains, every schema
 * with its entries, then every batch with each of its records decoded
 * entry by entry.  Returns 0, or -1 on a write error (errno set).
 */
int nvtxt_payload_dump(const struct nvtxt_payload_reader *r, FILE *out);

/*
 * The name of the last SetFileDisplayName call, or NULL when there is
 * none; points into the image (NUL-terminated, valid UTF-8).
 */
const char *nvtxt_payload_display_name(const struct nvtxt_payload_reader *r);

#endif
