/*
 * output.h - output files that lose nothing (nvtxtc(1), FILES WRITTEN).
 *
 * A regular file is written to a temporary in the same directory: an
 * unnamed one (O_TMPFILE) where the file system allows, else one named
 * .NAME.nvtxtc-HOST-PID.XXXXXX.  At commit the temporary is flushed and
 * fsync'ed, renamed over the target, and the directory is fsync'ed; an
 * error or an interruption before that leaves the previous file untouched.
 * The new file keeps the previous one's mode, owner, group and extended
 * attributes (POSIX ACLs among them; those the process can list).  A named temporary left by a process that no
 * longer runs (SIGKILL, a crash) is removed by the next output to the same
 * target.
 *
 * A file with several hard links is written through instead (its inode
 * kept, so every name sees the new text), and so is a file whose owner,
 * group or an extended attribute the process cannot give to a new file
 * (another user's file, writable through its group): the text is first written to an
 * unnamed temporary; at commit the space is reserved (posix_fallocate), so
 * that a full disk or a file-size limit leaves the file untouched, then it
 * is overwritten and truncated with SIGINT, SIGTERM and SIGHUP held.
 *
 * A device or a FIFO (/dev/null, /dev/stdout, a named pipe) is written
 * directly, as it cannot be replaced.
 *
 * These functions are the driver's: they install the signal handlers
 * that remove a named temporary when SIGINT, SIGTERM or SIGHUP ends the
 * process (unless the caller ignores them); not thread-safe (one output
 * open at a time).
 */
#ifndef NVTXT_OUTPUT_H
#define NVTXT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

enum output_kind {
	OUTPUT_REPLACE, /* a temporary renamed over the target */
	OUTPUT_THROUGH, /* a file with several links, overwritten in place at commit */
	OUTPUT_DIRECT,  /* a device or a FIFO, written directly */
};

struct nvtxt_output {
	char *path;            /* the target (a symbolic link resolved) */
	char *tmp;             /* the named temporary, or NULL */
	FILE *file;            /* where to write */
	int dirfd;             /* the target's directory (-1 for OUTPUT_DIRECT) */
	int target_fd;         /* OUTPUT_THROUGH: the target, open for writing; else -1 */
	enum output_kind kind;
};

/*
 * Opens the output for `path`.  Returns 0, or -1 with errno set (a
 * directory, a directory that is not writable, ...).
 */
int output_open(struct nvtxt_output *o, const char *path);
/*
 * Flushes, fsyncs and puts the new file in place (see above).  Returns 0,
 * or -1 with errno set, the previous file untouched and no temporary
 * left, except when only the fsync of the directory failed (the new file
 * is in place, but maybe not durably).
 */
int output_commit(struct nvtxt_output *o);
/* Closes and removes the temporary; the target is untouched. */
void output_abort(struct nvtxt_output *o);

#endif
