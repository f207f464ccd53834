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
 * flushed as one flush group every 16384 records or 2 MiB of records and
 * strings, each schema (and its time domain) right before its first batch,
 * so memory stays bounded: the writer keeps the buffers of its largest set
 * of pending batches (blocks of 64 KiB) until it is freed, and allocates
 * no more once it has them.  `finish` flushes the last group and patches
 * the header (the only seek).
 * Returns NULL with errno set (ENOMEM, or the write's error).  The writer
 * never closes `out`.
 */
struct nvtxt_payload_writer *nvtxt_payload_writer_new(FILE *out);
void nvtxt_payload_writer_free(struct nvtxt_payload_writer *w);

/*
 * The back end of a writer.  Its callbacks return -1 with errno set on a
 * write error (EIO when the stream's error flag is set without errno),
 * ENOMEM, or EINVAL when the event stream breaks the contract of backend.h
 * (an ordinal out of sequence, a TimeBase out of range, a string with a NUL
 * byte), or holds a string over 131071 bytes (longer than any NVTXT line:
 * nvtxt-payload(5), READING AS A STREAM); a RangePop needs no ev->push (its record is its own); after an error the writer ignores further calls and its
 * output is garbage.
 */
struct nvtxt_backend nvtxt_payload_backend(struct nvtxt_payload_writer *w);

/* True when `data` starts with the payload magic (8 bytes "\x89NVTXT\r\n"). */
bool nvtxt_payload_sniff(const void *data, size_t size);

/*
 * Where a reader gets its bytes: reads up to n bytes into buf and returns
 * how many (0 only at the end of the input), or -1 with errno set, as
 * read(2) does (-1 with EINTR is retried).
 */
typedef ptrdiff_t (*nvtxt_payload_read_fn)(void *user, void *buf, size_t n);

/* What the reading functions return besides 0. */
#define NVTXT_PAYLOAD_EFORMAT (-1) /* the file breaks nvtxt-payload(5) */
#define NVTXT_PAYLOAD_EIO (-2)     /* reading, writing or memory failed (errno) */

/*
 * A reader of the payload file that `read` gives (called with `user`),
 * read once, front to back, as a stream: a pipe is read like a file, and
 * the reader's memory does not grow with the file (nvtxt-payload(5),
 * READING AS A STREAM).  Reads and checks the 64-byte header now; the
 * sections are read and checked by the one function that consumes them,
 * nvtxt_payload_decompile or nvtxt_payload_dump, so a reader serves one
 * of them once.
 * Returns 0 and stores the reader in *r, or returns -1, stores NULL and
 * writes a one-line message without a trailing newline into err (always
 * NUL-terminated when errlen > 0): "offset N: expected ..., found ..." for
 * a bad header, "read error: ..." or "out of memory" otherwise
 * (nvtxt_payload_reader_errno is not available then: there is no reader).
 */
int nvtxt_payload_reader_new(struct nvtxt_payload_reader **r, nvtxt_payload_read_fn read,
			     void *user, char *err, size_t errlen);
/*
 * The same for an image of `size` bytes at `data` (any alignment; the
 * caller keeps it alive and unchanged until nvtxt_payload_reader_free).
 * The header's file size must be `size`.
 */
int nvtxt_payload_open(struct nvtxt_payload_reader **r, const void *data, size_t size,
		       char *err, size_t errlen);
void nvtxt_payload_reader_free(struct nvtxt_payload_reader *r);
/* After NVTXT_PAYLOAD_EIO: the errno of the failure (ENOMEM, a read or write error). */
int nvtxt_payload_reader_errno(const struct nvtxt_payload_reader *r);

/*
 * Reads the rest of the file, checking every section, and re-creates the
 * original calls in ordinal (file) order: `event` for every call, then
 * `finish`.  Every call is one record: a RangePop arrives with its own
 * Time, TimeBase, ProcessId and ThreadId and ev->push NULL (pairing it with
 * its push is the front end's job when the normal form is compiled), and
 * `unclosed_push` is never called.  ev->loc is {0, 0, 0, 0}; ev->ordinal
 * is the original ordinal; strings point into the reader's buffers and
 * are valid during the callback only.  The calls before a format error
 * have been handed on when it is found.
 * Returns 0; NVTXT_PAYLOAD_EFORMAT with "offset N: expected ..., found
 * ..." in err; NVTXT_PAYLOAD_EIO with "read error: ...", "out of memory"
 * or "write error: ..." (a callback failed) in err.
 */
int nvtxt_payload_decompile(struct nvtxt_payload_reader *r, const struct nvtxt_backend *be,
			    char *err, size_t errlen);

/*
 * Reads the rest of the file and prints it for a person, section by
 * section as they come: the header, then each time domain, schema (with
 * its entries) and batch (with each of its records decoded entry by
 * entry).  At a format error it stops, having printed the sections before.
 * Returns 0; NVTXT_PAYLOAD_EFORMAT or NVTXT_PAYLOAD_EIO with the message
 * in err as nvtxt_payload_decompile; a write error on `out` is
 * NVTXT_PAYLOAD_EIO with "write error: ..." (errno set).
 */
int nvtxt_payload_dump(struct nvtxt_payload_reader *r, FILE *out, char *err, size_t errlen);

struct nvtxt_compile_options;
struct nvtxt_compile_result;
/*
 * Checks the calls of the payload file that r reads as nvtxt_compile
 * checks the calls of an NVTXT file, and hands them to opt->backend (NULL:
 * lint): every record, in ordinal order, goes through the rules of
 * nvtxt(5) that span calls (push/pop pairing, the category tree, names);
 * those of a single call are nvtxt-payload(5)'s own.  Of opt, only
 * display_name, diag_config, sink, backend and read_ahead are used;
 * with read_ahead, a second thread reads and checks the sections and
 * decodes the calls ahead of the one that checks them and hands them on
 * (at most 4096 calls ahead: memory stays bounded), started and joined by
 * this call; the calls, diagnostics and errors are the same.  Diagnostics
 * point at line ordinal + 1, column 1: the call's line in the file's
 * normal form; they have no source excerpt.  Reads the rest of the file:
 * the calls before a format error have been checked and handed on when it
 * is found.
 * Returns nvtxt_compile's status (0; 1 with errors; 2 with res->io_errno
 * set: the back end failed, or ENOMEM) with *res filled, or
 * NVTXT_PAYLOAD_EFORMAT / NVTXT_PAYLOAD_EIO (a read error) with the
 * message in err, as nvtxt_payload_decompile.
 */
int nvtxt_payload_compile(struct nvtxt_payload_reader *r, const struct nvtxt_compile_options *opt,
			  struct nvtxt_compile_result *res, char *err, size_t errlen);

/*
 * The name of the last SetFileDisplayName call read so far (after
 * nvtxt_payload_decompile or nvtxt_payload_dump: the file's), or NULL
 * when there is none; owned by the reader, NUL-terminated, valid UTF-8.
 */
const char *nvtxt_payload_display_name(const struct nvtxt_payload_reader *r);

#endif
