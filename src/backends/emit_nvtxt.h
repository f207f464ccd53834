/*
 * emit_nvtxt.h - the canonical NVTXT back end (--emit=nvtxt): the normal
 * form of nvtxt(5), CANONICAL FORM.
 */
#ifndef NVTXT_EMIT_NVTXT_H
#define NVTXT_EMIT_NVTXT_H

#include <stdio.h>

#include "backend.h"

/*
 * A back end that prints every event on `out` in normal form: one line per
 * event, the command's default definition, every argument explicit (an
 * absent optional one as nothing between commas), strings double-quoted
 * unless they contain '"', colors as 0xAARRGGBB, integers in decimal.
 * Its callbacks return -1 with errno set when writing to `out` fails.
 * `out` must stay open while the back end is used, and no other thread may
 * use it while a callback runs: lines are stored into its buffer the way
 * putc_unlocked() stores bytes, without taking its lock.
 */
struct nvtxt_backend nvtxt_emit_nvtxt_backend(FILE *out);

/*
 * Prints one event's normal-form line (with its '\n') on out, under the
 * same rule as the back end.  Returns 0, or -1 with errno set: the write's
 * error (EIO when the stream's error flag is set without errno), ENOMEM
 * for a line too long for the stack, EINVAL for a command or TimeBase out
 * of range.
 */
int nvtxt_emit_nvtxt_event(FILE *out, const struct nvtxt_event *ev);

#endif
