/*
 * emit_nvtxt.h - the canonical NVTXT back end (--emit=nvtxt): the normal
 * form of nvtxt(5), CANONICAL FORM.
 */
#ifndef NVTXT_EMIT_NVTXT_H
#define NVTXT_EMIT_NVTXT_H

#include <stdio.h>

#include "backend.h"

/*
 * A writer of the normal form on `out`: one line per event, the command's
 * default definition, every argument explicit (an absent optional one as
 * nothing between commas), strings double-quoted unless they contain '"',
 * colors as 0xAARRGGBB, integers in decimal.  Lines are stored in the
 * writer's own 64 KiB buffer and handed to fwrite(out) when it is full and
 * at `finish` (or nvtxt_emit_nvtxt_flush), which also fflushes out.
 * `out` must stay open until the writer is freed; the writer never closes
 * it.  A writer is used by one thread at a time; writers are independent.
 * Returns NULL with errno ENOMEM.
 */
struct nvtxt_emit_nvtxt;
struct nvtxt_emit_nvtxt *nvtxt_emit_nvtxt_new(FILE *out);
/* Frees the writer without writing what it holds (call finish or flush first). */
void nvtxt_emit_nvtxt_free(struct nvtxt_emit_nvtxt *w);

/*
 * The back end of a writer.  Its callbacks return -1 with errno set: the
 * write's error (EIO when the stream's error flag is set without errno;
 * after a write error every later call fails the same way), ENOMEM for a
 * line longer than the buffer that cannot be allocated, EINVAL for a
 * command or TimeBase out of range.
 */
struct nvtxt_backend nvtxt_emit_nvtxt_backend(struct nvtxt_emit_nvtxt *w);

/* Writes out what the writer holds and fflushes out; 0, or -1 with errno set. */
int nvtxt_emit_nvtxt_flush(struct nvtxt_emit_nvtxt *w);

/*
 * Prints one event's normal-form line (with its '\n') on out with one
 * fwrite, without a writer (slower: for a single line).  Returns 0, or -1
 * with errno set, as the back end's callbacks.
 */
int nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev);

#endif
