/*
 * progress.h - the progress line of a long command (nvtxtc(1), --progress):
 * after about a second on an input file, one line on standard error,
 * redrawn four times a second and erased at the end:
 *
 *     trace.nvtxt: 41.9 MB of 100.0 MB (41%), 210.3 MB/s, 0:00:01 left
 *
 * Shown when standard error is a terminal (or with --progress), never with
 * --progress off (--no-progress), with JSON or SARIF diagnostics or in the
 * language server, and only for a regular file (its size gives the
 * percentage; the position is the input's file offset, read by a thread of
 * its own, so the commands' loops do nothing for it).  No Debian package
 * offers a C progress line (apt-cache search progress bar library: Go,
 * Python, Ruby and Rust ones), hence this file.
 */
#ifndef NVTXT_PROGRESS_H
#define NVTXT_PROGRESS_H

#include "driver.h"

/*
 * Decides, once the options are parsed, whether this run shows progress;
 * when it does, run->sink becomes a sink that erases the line before each
 * diagnostic (and passes it on to the previous sink).
 */
void progress_setup(struct run *run);

/*
 * The run starts reading fd (name: as diagnostics show it); from about a
 * second on, its progress is shown until progress_end(fd).  Only one input
 * is shown at a time: a second one begun meanwhile is not shown.
 */
void progress_begin(int fd, const char *name);
void progress_end(int fd);

/* Around anything else written to standard error while an input may be shown. */
void progress_hold(void);
void progress_release(void);

#endif
