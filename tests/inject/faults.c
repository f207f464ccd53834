/*
 * faults.c - a fault-injection library for the tests of nvtxtc's outputs
 * (tests/outputs.t), loaded with LD_PRELOAD.  It wraps a few calls of the
 * driver and, as the variable NVTXT_FAULTS asks, makes them fail or logs
 * them, so that the suite runs the commit-failure paths of atomic outputs
 * and a file that shrinks while it is read.
 *
 * NVTXT_FAULTS is a comma-separated list of:
 *   fsync=ERRNO       every fsync of a regular file fails with ERRNO (EIO, ...)
 *   fsync-dir=ERRNO   every fsync of a directory fails with ERRNO
 *   rename=ERRNO      rename, renameat and linkat fail with ERRNO
 *   fallocate=ERRNO   posix_fallocate fails with ERRNO
 *   tmpfile=ERRNO     open or openat with O_TMPFILE fails with ERRNO (EOPNOTSUPP: a
 *                     file system without unnamed temporaries)
 *   shrink=N          the first read() of a regular file (fd > 2) larger than
 *                     N bytes truncates it to N bytes once it has returned
 *                     its data: "another process truncated it" mid-read
 *   kill=N            the Nth step (1, 2, ...) raises SIGKILL: a step is a
 *                     call of pwrite, fsync, ftruncate, posix_fallocate,
 *                     unlink, unlinkat, rename, renameat or linkat; a
 *                     pwrite writes the first half of its bytes first (a
 *                     write cut short), any other step is not made.  The
 *                     process dies as a crash or `kill -9` would leave it,
 *                     at a point chosen by number: the kill loop of
 *                     tests/journal.t
 *   slow-read=MS      every read() of a regular file (fd > 2) first sleeps MS
 *                     milliseconds: a slow disk, for the progress line
 *   tmpwrite=ERRNO    every write() to an unnamed temporary file of nvtxtc
 *                     (O_TMPFILE, or TMPDIR/nvtxtc-XXXXXX unlinked at once:
 *                     the sort of stats --report=nvtx_pushpop_trace) fails
 *                     with ERRNO (ENOSPC: the disk of TMPDIR is full)
 * NVTXT_FAULT_LOG=FILE appends one line per wrapped call: "fsync file",
 * "fsync dir", "linkat", "rename", "renameat", "fallocate", "pwrite
 * journal" (to a file whose name ends in -journal), "pwrite", "ftruncate",
 * "unlink"; with kill=N, "killed" before the process dies.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fault(const char *name)
{
	const char *f = getenv("NVTXT_FAULTS");
	size_t n = strlen(name);
	static const struct { const char *name; int e; } errnos[] = {
		{ "EIO", EIO }, { "ENOSPC", ENOSPC }, { "EXDEV", EXDEV }, { "EPERM", EPERM },
		{ "EFBIG", EFBIG }, { "EROFS", EROFS }, { "EOPNOTSUPP", EOPNOTSUPP },
	};

	while (f && *f) {
		if (strncmp(f, name, n) == 0 && f[n] == '=') {
			for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
				if (strncmp(f + n + 1, errnos[i].name, strlen(errnos[i].name)) == 0)
					return errnos[i].e;
			return atoi(f + n + 1);
		}
		f = strchr(f, ',');
		if (f)
			f++;
	}
	return 0;
}

static void note(const char *what)
{
	const char *log = getenv("NVTXT_FAULT_LOG");
	int fd;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		(void)!write(fd, what, strlen(what));
		(void)!write(fd, "\n", 1);
		close(fd);
	}
}

/* Counts a step; at the Nth of kill=N, logs "killed" and returns true: the caller raises SIGKILL. */
static bool kill_now(void)
{
	static long steps;
	long n = fault("kill");

	if (n <= 0 || ++steps != n)
		return false;
	note("killed");
	return true;
}

static void die(void)
{
	raise(SIGKILL);
	_exit(137); /* not reached */
}

int fsync(int fd)
{
	static int (*real)(int);
	struct stat st;
	bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
	int e = fault(dir ? "fsync-dir" : "fsync");

	note(dir ? "fsync dir" : "fsync file");
	if (kill_now())
		die();
	if (e) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return real(fd);
}

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	int e = fault("rename");

	note("rename");
	if (kill_now())
		die();
	if (e) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	return real(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to)
{
	static int (*real)(int, const char *, int, const char *);
	int e = fault("rename");

	note("renameat");
	if (kill_now())
		die();
	if (e) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
	return real(fromfd, from, tofd, to);
}

int linkat(int fromfd, const char *from, int tofd, const char *to, int flags)
{
	static int (*real)(int, const char *, int, const char *, int);
	int e = fault("rename");

	note("linkat");
	if (kill_now())
		die();
	if (e) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (int (*)(int, const char *, int, const char *, int))dlsym(RTLD_NEXT, "linkat");
	return real(fromfd, from, tofd, to, flags);
}

int posix_fallocate(int fd, off_t off, off_t len)
{
	static int (*real)(int, off_t, off_t);
	int e = fault("fallocate");

	note("fallocate");
	if (kill_now())
		die();
	if (e)
		return e;
	if (!real)
		real = (int (*)(int, off_t, off_t))dlsym(RTLD_NEXT, "posix_fallocate");
	return real(fd, off, len);
}

ssize_t read(int fd, void *buf, size_t count)
{
	static ssize_t (*real)(int, void *, size_t);
	static int done;
	const char *f = getenv("NVTXT_FAULTS");
	const char *s = f ? strstr(f, "shrink=") : NULL;
	ssize_t n;
	struct stat st;

	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (f && (s = strstr(f, "slow-read=")) != NULL && fd > 2 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		usleep((useconds_t)atol(s + 10) * 1000);
	s = f ? strstr(f, "shrink=") : NULL;
	n = real(fd, buf, count);
	if (s && !done && fd > 2 && n > 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > atol(s + 7)) {
		done = 1;
		note("shrink");
		char path[64];
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd); /* fd is read-only */
		(void)!truncate(path, atol(s + 7));
	}
	return n;
}

/* True when fd is an unnamed temporary: O_TMPFILE's "/tmp/#123 (deleted)", or "/tmp/nvtxtc-AbC123 (deleted)" unlinked. */
static bool unnamed_temp(int fd)
{
	char link[64], path[4096];
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return false;
	path[n] = '\0';
	return (strstr(path, "/nvtxtc-") || strstr(path, "/#")) && strstr(path, " (deleted)");
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	int e = fd > 2 ? fault("tmpwrite") : 0;

	if (e && unnamed_temp(fd)) {
		errno = e;
		return -1;
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, count);
}

/* mode: the third argument of an open whose flags create a file, after flags (the last named one). */
#define MODE_ARG(flags, mode)                                        \
	do {                                                         \
		if ((flags) & (O_CREAT | O_TMPFILE)) {               \
			va_list ap;                                  \
			va_start(ap, flags);                         \
			mode = (mode_t)va_arg(ap, unsigned);         \
			va_end(ap);                                  \
		}                                                    \
	} while (0)

/* Under tmpfile=ERRNO, an open of flags with O_TMPFILE fails: logged, errno set, true. */
static bool tmpfile_refused(int flags)
{
	int e;

	if ((flags & O_TMPFILE) != O_TMPFILE || (e = fault("tmpfile")) == 0)
		return false;
	note("tmpfile refused");
	errno = e;
	return true;
}

int openat(int dirfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	if (tmpfile_refused(flags))
		return -1;
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	return real(dirfd, path, flags, mode);
}

/* open(2) is openat(2) from the working directory (util/tempfile.c's temp_fd opens O_TMPFILE so). */
int open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	return openat(AT_FDCWD, path, flags, mode);
}

/* "pwrite journal" for a file whose name ends in -journal, else "pwrite". */
static void note_write(int fd)
{
	char proc[64], path[4096];
	ssize_t n;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	n = readlink(proc, path, sizeof path - 1);
	path[n > 0 ? n : 0] = '\0';
	n = (ssize_t)strlen(path);
	note(n > 8 && strcmp(path + n - 8, "-journal") == 0 ? "pwrite journal" : "pwrite");
}

static ssize_t do_pwrite(const char *sym, int fd, const void *buf, size_t count, off_t off)
{
	ssize_t (*real)(int, const void *, size_t, off_t) =
		(ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, sym);

	note_write(fd);
	if (kill_now()) {
		if (count > 1)
			(void)!real(fd, buf, count / 2, off);
		die();
	}
	return real(fd, buf, count, off);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
	return do_pwrite("pwrite", fd, buf, count, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t off)
{
	return do_pwrite("pwrite64", fd, buf, count, off);
}

static int do_ftruncate(const char *sym, int fd, off_t len)
{
	int (*real)(int, off_t) = (int (*)(int, off_t))dlsym(RTLD_NEXT, sym);

	note("ftruncate");
	if (kill_now())
		die();
	return real(fd, len);
}

int ftruncate(int fd, off_t len)
{
	return do_ftruncate("ftruncate", fd, len);
}

int ftruncate64(int fd, off_t len)
{
	return do_ftruncate("ftruncate64", fd, len);
}

int unlink(const char *path)
{
	static int (*real)(const char *);

	note("unlink");
	if (kill_now())
		die();
	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	return real(path);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	static int (*real)(int, const char *, int);

	note("unlink");
	if (kill_now())
		die();
	if (!real)
		real = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");
	return real(dirfd, path, flags);
}
