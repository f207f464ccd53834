/*
 * output.h - output files written atomically: to a temporary file in the
 * same directory, renamed over the target only on success, so that an
 * error or an interruption leaves the previous file untouched and no
 * temporary behind.
 */
#ifndef NVTXT_OUTPUT_H
#define NVTXT_OUTPUT_H

#include <stdio.h>

struct nvtxt_output {
	char *path;     /* the target */
	char *tmp;      /* the temporary, beside it; NULL when writing a device or FIFO directly */
	FILE *file;     /* open on tmp */
};

/*
 * Creates the temporary for `path` (mode of the existing file if any, else
 * 0666 & ~umask).  A symbolic link is kept: the file it points to is
 * replaced.  A path that is a device or a FIFO (/dev/null, /dev/stdout)
 * is opened and written directly, as it cannot be replaced (tmp is NULL).
 * Returns 0, or -1 with errno set (a directory, a directory that is not
 * writable, ...).  While it is open, SIGINT, SIGTERM and SIGHUP remove the
 * temporary before the process dies, unless the caller ignores them.
 */
int output_open(struct nvtxt_output *o, const char *path);
/* Flushes, closes and renames over the target.  Returns 0, or -1 with errno set (the temporary is removed). */
int output_commit(struct nvtxt_output *o);
/* Closes and removes the temporary; the target is untouched. */
void output_abort(struct nvtxt_output *o);

#endif
