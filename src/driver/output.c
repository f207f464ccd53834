/*
 * output.c - output files that lose nothing; see output.h.
 */
#define _GNU_SOURCE /* O_TMPFILE, realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "driver.h"
#include "journal.h"
#include "output.h"
#include "output_stream.h"
#include "util.h"

/* The named temporary to remove if a signal ends the process (one at a time). */
static char *volatile pending_tmp;
static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP };
enum { N_HELD = sizeof held_signals / sizeof held_signals[0] };

static void on_signal(int sig)
{
	char *tmp = pending_tmp;
	if (tmp)
		unlink(tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch(char *tmp)
{
	static bool installed;

	pending_tmp = tmp;
	if (installed)
		return;
	installed = true;
	for (size_t i = 0; i < N_HELD; i++) {
		struct sigaction sa, old;
		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(held_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(held_signals[i], &sa, NULL);
	}
}

/* Holds (block) or releases SIGINT, SIGTERM and SIGHUP around a step that must not be cut. */
static void hold_signals(bool hold, sigset_t *saved)
{
	sigset_t set;

	if (hold) {
		sigemptyset(&set);
		for (size_t i = 0; i < N_HELD; i++)
			sigaddset(&set, held_signals[i]);
		sigprocmask(SIG_BLOCK, &set, saved);
	} else {
		sigprocmask(SIG_SETMASK, saved, NULL);
	}
}

/* "host" for temporary names: the host name without '-', '.' or '/', at most 32 bytes. */
static void host_tag(char *buf, size_t size)
{
	if (gethostname(buf, size) != 0)
		snprintf(buf, size, "host");
	buf[size - 1] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '-' || *p == '.' || *p == '/')
			*p = '_';
}

long output_stale_temporary(const char *name, size_t *target_len)
{
	char host[33], mark[64];
	const char *at = NULL, *p;
	char *end;
	long pid;

	host_tag(host, sizeof host);
	snprintf(mark, sizeof mark, ".nvtxtc-%s-", host);
	if (name[0] != '.')
		return 0;
	/* the last mark: TARGET may hold one too */
	for (p = name + 1; (p = strstr(p, mark)) != NULL; p++)
		at = p;
	if (!at || at == name + 1)
		return 0;
	errno = 0;
	pid = strtol(at + strlen(mark), &end, 10);
	if (errno || pid <= 0 || *end != '.' || end == at + strlen(mark))
		return 0;
	if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	*target_len = (size_t)(at - name - 1);
	return pid;
}

/*
 * Removes the named temporaries of `base` in dirfd that a process of this
 * host left behind and that no longer runs: .BASE.nvtxtc-HOST-PID.XXXXXX.
 */
static void remove_stale(int dirfd, const char *base)
{
	DIR *d;
	struct dirent *e;
	size_t blen = strlen(base), tlen;
	int fd = dup(dirfd);

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (output_stale_temporary(e->d_name, &tlen) > 0 && tlen == blen &&
		    strncmp(e->d_name + 1, base, blen) == 0)
			unlinkat(dirfd, e->d_name, 0);
	closedir(d);
}

/*
 * Copies the extended attributes of the file at `path` (POSIX ACLs are
 * among them: system.posix_acl_access) to `fd`.  Returns true when every
 * one was copied (or there is none, or the file system has none).
 */
static bool keep_xattrs(const char *path, int fd)
{
	struct buf names = { 0 }, value = { 0 };
	ssize_t n;
	bool kept = true;

	n = listxattr(path, NULL, 0);
	if (n <= 0)
		return n == 0 || errno == ENOTSUP;
	buf_reserve(&names, (size_t)n);
	n = listxattr(path, names.ptr, (size_t)n);
	for (ssize_t at = 0; kept && n > 0 && at < n; at += (ssize_t)strlen(names.ptr + at) + 1) {
		const char *name = names.ptr + at;
		ssize_t len = getxattr(path, name, NULL, 0);
		if (len >= 0) {
			buf_reserve(&value, (size_t)len + 1);
			len = getxattr(path, name, value.ptr, (size_t)len);
		}
		kept = len >= 0 && fsetxattr(fd, name, value.ptr, (size_t)len, 0) == 0;
	}
	if (n < 0)
		kept = false; /* the list grew between the two calls */
	buf_free(&names);
	buf_free(&value);
	return kept;
}

/*
 * Gives the new file `fd` the previous file's owner, group, mode and
 * extended attributes (`st` and `path`; NULL for a new file: only `mode`).
 * Returns 0; 1 when something of the previous file cannot be reproduced
 * (another user's file, an attribute this process may not set), and the
 * caller writes through instead; -1 with errno when fchmod fails.
 */
static int keep_attributes(int fd, const char *path, const struct stat *st, mode_t mode)
{
	if (st && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
	    fchown(fd, st->st_uid, st->st_gid) != 0)
		return 1;
	if (fchmod(fd, mode) != 0)
		return -1;
	return st && !keep_xattrs(path, fd) ? 1 : 0;
}

/* Removes the named temporary, if any, and forgets it. */
static void drop_tmp(struct nvtxt_output *o)
{
	if (!o->tmp)
		return;
	unlink(o->tmp);
	pending_tmp = NULL;
	free(o->tmp);
	o->tmp = NULL;
}

/* The mode of the new file: the previous one's (st), or 0666 under the umask for a new one (st NULL). */
static mode_t new_mode(const struct stat *st)
{
	mode_t mask;

	if (st)
		return st->st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

/*
 * Opens the directory of `path` as o->dirfd; its name goes to *dir (the
 * caller frees it) and the file's name in it to *base.  0, or -1 with errno.
 */
static int open_dir(struct nvtxt_output *o, const char *path, struct buf *dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (slash)
		buf_add(dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		buf_adds(dir, ".");
	o->dirfd = open(dir->ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return o->dirfd < 0 ? -1 : 0;
}

/*
 * The temporary that will replace BASE in `dir`: an unnamed one
 * (O_TMPFILE), linked at commit through /proc/self/fd, only where /proc is
 * there; else .BASE.nvtxtc-HOST-PID.XXXXXX (o->tmp, removed if a signal
 * ends the process).  Its descriptor, or -1 with errno.
 */
static int open_temporary(struct nvtxt_output *o, const char *dir, const char *base)
{
	struct buf tmp = { 0 };
	char host[33];
	int fd = -1, e;

	remove_stale(o->dirfd, base);
#ifdef O_TMPFILE
	if (access("/proc/self/fd", X_OK) == 0)
		fd = openat(o->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
	if (fd >= 0)
		return fd;
	host_tag(host, sizeof host);
	buf_printf(&tmp, "%s/.%s.nvtxtc-%s-%ld.XXXXXX", dir, base, host, (long)getpid());
	fd = mkstemp(tmp.ptr);
	e = errno;
	if (fd >= 0) {
		/* the name outlives the buffer (a temporary, util.h): the driver owns a copy */
		o->tmp = xstrndup(tmp.ptr, tmp.len);
		watch(o->tmp);
	}
	buf_free(&tmp);
	errno = e;
	return fd;
}

/*
 * OUTPUT_REPLACE: a temporary beside the target with the previous file's
 * attributes (st; NULL for a new file).  0 when opened; 1 when what the
 * new file would lose the previous one keeps (the caller writes through
 * instead); -1 with errno.
 */
static int open_replace(struct nvtxt_output *o, const char *path, const char *dir, const char *base,
			const struct stat *st, bool write_behind)
{
	int fd = open_temporary(o, dir, base), e;

	if (fd < 0)
		return -1;
	switch (keep_attributes(fd, path, st, new_mode(st))) {
	case 0:
		o->file = output_stream_open(fd, write_behind, &o->stream);
		if (!o->file)
			break;
		o->fd = fd;
		o->kind = OUTPUT_REPLACE;
		return 0;
	case 1:
		close(fd);
		drop_tmp(o);
		return 1;
	}
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/*
 * OUTPUT_THROUGH: the target, written through at commit; the text waits
 * in an unnamed temporary until then.  0, or -1 with errno.
 */
static int open_through(struct nvtxt_output *o, const char *path)
{
	/* read too: its previous text goes to the journal first */
	o->target_fd = open(path, O_RDWR | O_CLOEXEC);
	if (o->target_fd < 0)
		return -1;
	o->file = temp_stream(&(const char *){ NULL });
	if (!o->file)
		return -1;
	o->kind = OUTPUT_THROUGH;
	return 0;
}

/* OUTPUT_DIRECT: a device or a FIFO (/dev/null, /dev/stdout) is written to, not replaced. */
static int open_direct(struct nvtxt_output *o, const char *path, char *target)
{
	o->file = fopen(path, "w");
	if (!o->file) {
		free(target);
		return -1;
	}
	o->kind = OUTPUT_DIRECT;
	o->path = target ? target : xstrndup(path, strlen(path));
	return 0;
}

int output_open(struct nvtxt_output *o, const char *path)
{
	return output_open_stream(o, path, false);
}

int output_open_stream(struct nvtxt_output *o, const char *path, bool write_behind)
{
	struct buf dir = { 0 };
	struct stat st;
	bool exists;
	const char *base;
	char *target = NULL;
	int rc, e;

	memset(o, 0, sizeof(*o));
	o->dirfd = o->target_fd = -1;
	/* a symbolic link to a file stays one: the file it points to is what gets replaced */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		target = realpath(path, NULL);
		if (!target)
			return -1;
		path = target;
	}
	exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		free(target);
		errno = EISDIR;
		return -1;
	}
	if (exists && !S_ISREG(st.st_mode))
		return open_direct(o, path, target);
	rc = open_dir(o, path, &dir, &base);
	/* a file with several links keeps its inode: written through */
	if (rc == 0)
		rc = exists && st.st_nlink > 1 ? 1 : open_replace(o, path, dir.ptr, base, exists ? &st : NULL, write_behind);
	if (rc == 1)
		rc = open_through(o, path);
	if (rc == 0) {
		o->path = target ? target : xstrndup(path, strlen(path));
		buf_free(&dir);
		return 0;
	}
	e = errno;
	drop_tmp(o);
	if (o->dirfd >= 0)
		close(o->dirfd);
	if (o->target_fd >= 0)
		close(o->target_fd);
	if (o->file)
		fclose(o->file);
	free(target);
	buf_free(&dir);
	memset(o, 0, sizeof(*o));
	errno = e;
	return -1;
}

static void release(struct nvtxt_output *o)
{
	char detail[sizeof o->detail];

	memcpy(detail, o->detail, sizeof detail);
	pending_tmp = NULL;
	if (o->dirfd >= 0)
		close(o->dirfd);
	if (o->target_fd >= 0)
		close(o->target_fd);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->dirfd = o->target_fd = -1;
	memcpy(o->detail, detail, sizeof detail);
}

/* The last component of o->path. */
static const char *base_of(const struct nvtxt_output *o)
{
	const char *slash = strrchr(o->path, '/');
	return slash ? slash + 1 : o->path;
}

/* Copies the n bytes of `in` over `out` from offset 0, then sets out's length and fsyncs it; 0 or an errno value. */
static int overwrite(int in, int out, off_t n)
{
	char buf[65536];
	off_t off = 0;

	while (off < n) {
		ssize_t r = pread(in, buf, sizeof buf, off), w;
		if (r <= 0)
			return r < 0 ? errno : EIO;
		w = pwrite(out, buf, (size_t)r, off);
		if (w != r)
			return w < 0 ? errno : EIO;
		off += r;
	}
	if (ftruncate(out, n) != 0 || fsync(out) != 0)
		return errno;
	return 0;
}

/*
 * OUTPUT_THROUGH: the text of the temporary over the target, its previous
 * text journaled first (journal.h), with signals held throughout; 0 or an
 * errno value (o->detail set when the journal is involved).
 */
static int write_through(struct nvtxt_output *o)
{
	int in = fileno(o->file), e, back;
	off_t size = lseek(in, 0, SEEK_END);
	struct journal j = { .fd = -1 };
	struct stat st;
	sigset_t saved;
	int dir_len = (int)(base_of(o) - o->path);

	if (size < 0 || fstat(o->target_fd, &st) != 0)
		return errno;
	hold_signals(true, &saved);
	e = journal_write(&j, o->dirfd, base_of(o), o->target_fd, &st);
	if (e == EEXIST)
		snprintf(o->detail, sizeof o->detail, "; its journal '%.*s.%s%s' is already there (an interrupted write, or "
			 "another nvtxtc writing it now): the file is untouched; 'nvtxtc fmt --recover %s' deals with it",
			 dir_len, o->path, base_of(o), JOURNAL_SUFFIX, o->path);
	else if (e)
		snprintf(o->detail, sizeof o->detail, "; its journal '%.*s.%s%s' could not be written, so the file is "
			 "untouched", dir_len, o->path, base_of(o), JOURNAL_SUFFIX);
	if (e) {
		hold_signals(false, &saved);
		return e;
	}
	if (size > 0)
		e = posix_fallocate(o->target_fd, 0, size);
	if (!e)
		e = overwrite(in, o->target_fd, size);
	back = e ? journal_rollback(&j, o->target_fd) : 0;
	if (back) {
		/* neither text is whole: the journal keeps the previous one */
		snprintf(o->detail, sizeof o->detail, "; it may be half-written, and putting its previous text back failed "
			 "too (%s): the journal '%.*s.%s%s' keeps that text, which 'nvtxtc fmt --recover %s' puts back",
			 strerror(back), dir_len, o->path, base_of(o), JOURNAL_SUFFIX, o->path);
		journal_close(&j);
	} else if ((back = journal_remove(&j)) != 0 && !e) {
		e = back;
		snprintf(o->detail, sizeof o->detail, "; its new text is in place, but its journal '%.*s.%s%s' could not "
			 "be removed: remove it (nvtxtc fmt --recover would put the previous text back)", dir_len,
			 o->path, base_of(o), JOURNAL_SUFFIX);
	}
	hold_signals(false, &saved);
	return e;
}

int output_commit(struct nvtxt_output *o)
{
	int e = 0;
	sigset_t saved;

	if (fflush(o->file) != 0 || ferror(o->file))
		e = errno ? errno : EIO;
	if (!e && o->kind == OUTPUT_REPLACE)
		e = output_stream_drain(o->stream);
	if (!e && o->kind == OUTPUT_REPLACE && fsync(o->fd) != 0)
		e = errno;
	if (!e && o->kind == OUTPUT_THROUGH)
		e = write_through(o);
	if (!e && o->kind == OUTPUT_REPLACE && !o->tmp) {
		/* an unnamed temporary: linked under a recognisable name, then renamed */
		char proc[64], host[33];
		struct buf name = { 0 };
		static unsigned serial;

		host_tag(host, sizeof host);
		buf_printf(&name, ".%s.nvtxtc-%s-%ld.%u", base_of(o), host, (long)getpid(), serial++);
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
		hold_signals(true, &saved);
		if (linkat(AT_FDCWD, proc, o->dirfd, name.ptr, AT_SYMLINK_FOLLOW) != 0) {
			e = errno;
		} else if (renameat(o->dirfd, name.ptr, o->dirfd, base_of(o)) != 0) {
			e = errno;
			unlinkat(o->dirfd, name.ptr, 0);
		}
		hold_signals(false, &saved);
		buf_free(&name);
	} else if (!e && o->kind == OUTPUT_REPLACE && rename(o->tmp, o->path) != 0) {
		e = errno;
	}
	if (fclose(o->file) != 0 && !e)
		e = errno ? errno : EIO;
	if (e && o->tmp)
		unlink(o->tmp);
	if (!e && o->kind == OUTPUT_REPLACE && fsync(o->dirfd) != 0 && errno != EINVAL)
		e = errno;
	release(o);
	errno = e;
	return e ? -1 : 0;
}

void output_abort(struct nvtxt_output *o)
{
	if (!o->file)
		return;
	fclose(o->file);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

int rewrite_file(const struct nvtxt_diag_sink *sink, const char *path, FILE *text)
{
	struct nvtxt_output out;

	if (output_open(&out, path) != 0 || copy_stream(text, out.file) != 0) {
		io_error(sink, NULL, "cannot write '%s': %s", path, strerror(errno));
		if (out.file)
			output_abort(&out);
		return 2;
	}
	return output_finish(sink, &out, path, 0);
}

int output_finish(const struct nvtxt_diag_sink *sink, struct nvtxt_output *o, const char *path, int status)
{
	if (status != 0) {
		output_abort(o);
		return status;
	}
	if (output_commit(o) != 0) {
		io_error(sink, NULL, "cannot write '%s': %s%s", path, strerror(errno), o->detail);
		return 2;
	}
	return 0;
}
