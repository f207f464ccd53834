/*
 * journal.h - the rollback journal of a file written in place, and what
 * interrupted runs leave beside their targets (nvtxtc(1), FILES WRITTEN).
 *
 * A file written through (several hard links, or an owner or attribute a
 * new file could not get: output.h) is overwritten in place, which a crash
 * or SIGKILL could leave half-written.  Before its first byte changes, its
 * previous text is copied to a journal beside it, as SQLite's rollback
 * journal: .NAME.nvtxtc-journal in the same directory, a header of
 * JOURNAL_HEADER bytes, then the previous text.  The header is text:
 *
 *   nvtxtc-journal 1
 *   device D         st_dev of the file the journal was written for
 *   inode I          its st_ino
 *   size N           the previous text's length in bytes
 *   fnv1a64 X        FNV-1a 64 of those N bytes, 16 lowercase hex digits
 *   header X         FNV-1a 64 of the lines above it
 *
 * then NUL bytes to JOURNAL_HEADER.  The text is written first and
 * fsync'ed, the header after it and fsync'ed, then the directory: a
 * journal whose header is incomplete and followed by nothing but NUL
 * bytes ("torn": the run was killed while writing it) was never complete,
 * so its file was not touched yet and the journal is discarded.  Once the
 * new text is in place and fsync'ed the journal is removed (and the
 * directory fsync'ed again).  A journal still there means the write was
 * interrupted: putting its text back (journal_recover) gives the file its
 * previous text, whole, whatever was written over it.
 *
 * Not thread-safe for the same file; different files may be journaled
 * and recovered by different threads.
 */
#ifndef NVTXT_JOURNAL_H
#define NVTXT_JOURNAL_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct nvtxt_diag_sink;

enum { JOURNAL_HEADER = 512 };
#define JOURNAL_SUFFIX ".nvtxtc-journal"

/* A journal being written (by output.c around a write-through). */
struct journal {
	int fd;      /* the journal, open for reading and writing; -1: none */
	int dirfd;   /* its directory (borrowed from the caller) */
	char *name;  /* its name in dirfd, .BASE.nvtxtc-journal (owned) */
	off_t size;  /* the previous text's length */
};

/*
 * Copies the whole of target_fd (open for reading; st its fstat) to the
 * journal .BASE.nvtxtc-journal in dirfd, created (O_EXCL: a journal
 * already there is EEXIST), and makes it durable (fsync of the journal,
 * then of the directory).  Returns 0, or an errno value with nothing left
 * behind.
 */
int journal_write(struct journal *j, int dirfd, const char *base, int target_fd, const struct stat *st);
/*
 * Puts the journal's text back into target_fd (open for writing): the
 * bytes, then the length, then fsync.  Returns 0 or an errno value (the
 * journal kept, for journal_recover).
 */
int journal_rollback(const struct journal *j, int target_fd);
/* Removes the journal and fsyncs its directory; closes it.  0 or an errno value. */
int journal_remove(struct journal *j);
/* Closes the journal and forgets it; the file stays. */
void journal_close(struct journal *j);

/*
 * Looks for the journal beside `path` (a symbolic link resolved, as
 * output_open does) and deals with it; `display` names path in messages.
 * A torn journal is removed (note); a complete one for this very file
 * (device and inode) whose text matches its checksum is put back
 * (journal_rollback), then removed (note: the file had been left by an
 * interrupted write).  A journal for another file, or a damaged one, is
 * left alone and refused with an error that says why and what to do.
 * Returns 0 (no journal, or dealt with), or 2 (refused or an I/O error,
 * reported; the file untouched by this call).
 */
int journal_recover(const struct nvtxt_diag_sink *sink, const char *path);

/*
 * The leftovers of interrupted runs in the directories of files[0..n):
 * journals (.NAME.nvtxtc-journal) and the named temporaries of processes
 * of this host that no longer run (.NAME.nvtxtc-HOST-PID.XXXXXX, output.h).
 * Each directory is read once.  With `clean` (fmt -i, --fix), stale
 * temporaries are removed (a note each) and journals are left to the
 * files' own journal_recover; else each is reported as a warning that
 * names it, its file and the command that deals with it.
 */
void leftovers_report(const struct nvtxt_diag_sink *sink, char *const *files, int n, bool clean);

#endif
