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
	char *tmp;      /* the temporary, beside it */
	FILE *file;     /* open on tmp */
};

/*
 * Creates the temporary for `path` (mode of the existing file if any, else
 * 0666 & ~umask).  Returns 0, or -1 with errno set (directory not
 * writable, ...).  While it is open, SIGINT, SIGTERM and SIGHUP remove the
 * temporary before the process dies.
 */
int output_open(struct nvtxt_output *o, const char *path);
/* Flushes, closes and renames over the target.  Returns 0, or -1 with errno set (the temporary is removed). */
int output_commit(struct nvtxt_output *o);
/* Closes and removes the temporary; the target is untouched. */
void output_abort(struct nvtxt_output *o);

#endif
