/*
 * output.h - output files that lose nothing (nvtxtc(1), FILES WRITTEN).
 *
 * A regular file is written to a temporary in the same directory: an
 * unnamed one (O_TMPFILE) where the file system allows, else one named
 * .NAME.nvtxtc-HOST-PID.XXXXXX, written in aligned pieces of 256 KiB,
 * maybe by a second thread (output_stream.h).  While it is written, the
 * kernel is asked every 8 MiB to start writing it back.  At commit the temporary is flushed and
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
 * (another user's file, writable through its group): the text is first
 * written to an unnamed temporary; at commit the previous text is copied
 * to a rollback journal beside the file (journal.h) and synced, then the
 * space is reserved (posix_fallocate), the file overwritten, truncated and
 * fsync'ed, and the journal removed, with SIGINT, SIGTERM and SIGHUP held
 * throughout.  A failure after the journal is complete puts the previous
 * text back from it; a crash or SIGKILL leaves the journal, which
 * journal_recover applies.
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
	int fd;                /* OUTPUT_REPLACE: the temporary's descriptor (file's; closed with it) */
	struct output_stream *stream; /* OUTPUT_REPLACE: file's state (output_stream.h) */
	int dirfd;             /* the target's directory (-1 for OUTPUT_DIRECT) */
	int target_fd;         /* OUTPUT_THROUGH: the target, open for reading and writing; else -1 */
	enum output_kind kind;
	/*
	 * After a failed output_commit: "" when the target is as it was (or,
	 * when only the directory's fsync failed, new), else what happened
	 * and what to do, a clause for after the error's reason ("; ...").
	 */
	char detail[4096 + 512];
};

/*
 * Opens the output for `path`.  Returns 0, or -1 with errno set (a
 * directory, a directory that is not writable, ...).
 */
int output_open(struct nvtxt_output *o, const char *path);
/*
 * output_open, with write_behind: a second thread may write the
 * temporary while the caller goes on (output_stream.h), for a caller
 * with a processor to spare.  Returns as output_open.
 */
int output_open_stream(struct nvtxt_output *o, const char *path, bool write_behind);
/*
 * Flushes, fsyncs and puts the new file in place (see above).  Returns 0,
 * or -1 with errno set, the previous file untouched (or put back from its
 * journal) and no temporary left, except when only the fsync of the
 * directory failed (the new file is in place, but maybe not durably) and
 * when, writing through, neither the new text nor the previous one could
 * be written whole (o->detail says so: the journal is kept).
 */
int output_commit(struct nvtxt_output *o);
/* Closes and removes the temporary; the target is untouched. */
void output_abort(struct nvtxt_output *o);
/*
 * When `name` (a directory entry) is a named temporary of this host,
 * .TARGET.nvtxtc-HOST-PID.XXXXXX, whose process no longer runs: that PID,
 * with TARGET's length in *target_len (TARGET starts at name + 1).  Else 0.
 */
long output_stale_temporary(const char *name, size_t *target_len);

struct nvtxt_diag_sink;
/*
 * Replaces the text of the file at path by that of `text` (from its
 * start) through output_open and output_commit, as fmt -i and lint --fix
 * rewrite a file.  Returns 0, or 2 with the error reported to sink
 * ("cannot write 'PATH': REASON", and what output_commit's detail says).
 */
int rewrite_file(const struct nvtxt_diag_sink *sink, const char *path, FILE *text);
/*
 * Ends a command's output opened at path: when status is not 0, removes
 * the temporary and returns status; else commits it and returns 0, or 2
 * with the error reported to sink ("cannot write 'PATH': REASON" and what
 * output_commit's detail says).
 */
int output_finish(const struct nvtxt_diag_sink *sink, struct nvtxt_output *o, const char *path, int status);

#endif
