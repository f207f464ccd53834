/*
 * journal.c - the rollback journal of files written through, and the
 * leftovers of interrupted runs; see journal.h.
 */
#define _GNU_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "journal.h"
#include "output.h"
#include "util.h"

enum { CHUNK = 65536 };
#define FNV_START 0xcbf29ce484222325ULL

/* FNV-1a 64 of p[0..n) continued from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Writes the n bytes at p to fd at off; 0 or an errno value. */
static int pwrite_all(int fd, const void *p, size_t n, off_t off)
{
	while (n > 0) {
		ssize_t w = pwrite(fd, p, n, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p = (const char *)p + w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

/*
 * Copies n bytes of `from` at from_off to `to` at to_off (to < 0: only
 * reads), hashing them into *h when h is not NULL.  0 or an errno value
 * (EIO when `from` ends before n bytes).
 */
static int copy_range(int from, off_t from_off, int to, off_t to_off, off_t n, uint64_t *h)
{
	unsigned char *buf = xmalloc(CHUNK);
	int e = 0;

	while (!e && n > 0) {
		ssize_t r = pread(from, buf, n < CHUNK ? (size_t)n : CHUNK, from_off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : EIO;
			break;
		}
		if (h)
			*h = fnv1a(*h, buf, (size_t)r);
		if (to >= 0)
			e = pwrite_all(to, buf, (size_t)r, to_off);
		from_off += r;
		to_off += r;
		n -= r;
	}
	free(buf);
	return e;
}

struct header {
	unsigned long long dev, ino, size;
	uint64_t sum;
};

/* The header's text (journal.h) into out, NUL-padded to JOURNAL_HEADER bytes. */
static void header_text(char out[JOURNAL_HEADER], const struct header *h)
{
	int n;

	memset(out, 0, JOURNAL_HEADER);
	n = snprintf(out, JOURNAL_HEADER, "nvtxtc-journal 1\ndevice %llu\ninode %llu\nsize %llu\nfnv1a64 %016" PRIx64 "\n",
		     h->dev, h->ino, h->size, h->sum);
	snprintf(out + n, JOURNAL_HEADER - (size_t)n, "header %016" PRIx64 "\n", fnv1a(FNV_START, out, (size_t)n));
}

enum verdict { J_NONE, J_TORN, J_READY, J_DAMAGED, J_ERROR };

/*
 * Reads the header from the first len bytes of a journal (hdr, at most
 * JOURNAL_HEADER): J_READY with *h; J_TORN when it is incomplete and
 * followed by nothing but NUL bytes (never finished, journal.h); else
 * J_DAMAGED with the reason in *why.
 */
static enum verdict parse_header(const char *hdr, size_t len, struct header *h, const char **why)
{
	char text[JOURNAL_HEADER + 1], again[JOURNAL_HEADER];
	size_t n = strnlen(hdr, len), lines = 0;
	bool zeros = true;

	for (size_t i = n; i < len; i++)
		zeros = zeros && hdr[i] == '\0';
	memcpy(text, hdr, n);
	text[n] = '\0';
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	if (zeros && (lines < 6 || len < JOURNAL_HEADER) && strncmp(text, "nvtxtc-journal 1\n", n < 17 ? n : 17) == 0)
		return J_TORN;
	*why = "its header is not one that nvtxtc writes";
	if (len < JOURNAL_HEADER || !zeros ||
	    sscanf(text, "nvtxtc-journal 1 device %llu inode %llu size %llu fnv1a64 %16" SCNx64, &h->dev, &h->ino,
		   &h->size, &h->sum) != 4)
		return J_DAMAGED;
	header_text(again, h);
	if (memcmp(again, hdr, JOURNAL_HEADER) != 0) {
		*why = "its header does not match the header's checksum";
		return J_DAMAGED;
	}
	return J_READY;
}

int journal_write(struct journal *j, int dirfd, const char *base, int target_fd, const struct stat *st)
{
	struct header h = { (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
			    (unsigned long long)st->st_size, FNV_START };
	struct buf name = { 0 };
	char text[JOURNAL_HEADER];
	int e;

	j->dirfd = dirfd;
	j->size = st->st_size;
	buf_printf(&name, ".%s%s", base, JOURNAL_SUFFIX);
	j->name = xstrndup(name.ptr, name.len);
	buf_free(&name);
	j->fd = openat(dirfd, j->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0) {
		e = errno;
		free(j->name);
		j->name = NULL;
		return e;
	}
	/* the text, synced, before the header that makes the journal complete */
	e = copy_range(target_fd, 0, j->fd, JOURNAL_HEADER, st->st_size, &h.sum);
	if (!e && fsync(j->fd) != 0)
		e = errno;
	if (!e) {
		header_text(text, &h);
		e = pwrite_all(j->fd, text, sizeof text, 0);
	}
	if (!e && fsync(j->fd) != 0)
		e = errno;
	if (!e && fsync(dirfd) != 0 && errno != EINVAL)
		e = errno;
	if (e) {
		unlinkat(dirfd, j->name, 0);
		journal_close(j);
	}
	return e;
}

int journal_rollback(const struct journal *j, int target_fd)
{
	int e = copy_range(j->fd, JOURNAL_HEADER, target_fd, 0, j->size, NULL);

	if (!e && ftruncate(target_fd, j->size) != 0)
		e = errno;
	if (!e && fsync(target_fd) != 0)
		e = errno;
	return e;
}

int journal_remove(struct journal *j)
{
	int e = 0;

	if (unlinkat(j->dirfd, j->name, 0) != 0)
		e = errno;
	else if (fsync(j->dirfd) != 0 && errno != EINVAL)
		e = errno;
	journal_close(j);
	return e;
}

void journal_close(struct journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	free(j->name);
	j->fd = -1;
	j->name = NULL;
}

/* --- recovery ------------------------------------------------------------- */

/* Where the journal of a file is: the file (a symbolic link resolved), its directory, the journal's name. */
struct place {
	char *target;       /* the file written (owned) */
	struct buf shown;   /* the journal as messages show it: DIR/.BASE.nvtxtc-journal */
	int dirfd;
	const char *name;   /* the journal's name in dirfd (in shown) */
};

static int locate(const char *path, struct place *p)
{
	struct stat st;
	const char *slash;
	struct buf dir = { 0 };

	memset(p, 0, sizeof(*p));
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		p->target = realpath(path, NULL);
	if (!p->target)
		p->target = xstrndup(path, strlen(path));
	slash = strrchr(p->target, '/');
	if (slash) {
		buf_add(&dir, p->target, slash == p->target ? 1 : (size_t)(slash - p->target));
		buf_add(&p->shown, p->target, (size_t)(slash + 1 - p->target));
	} else {
		buf_adds(&dir, ".");
	}
	buf_printf(&p->shown, ".%s%s", slash ? slash + 1 : p->target, JOURNAL_SUFFIX);
	p->name = p->shown.ptr + (slash ? (size_t)(slash + 1 - p->target) : 0);
	p->dirfd = open(dir.ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	buf_free(&dir);
	return p->dirfd < 0 ? -1 : 0;
}

static void unlocate(struct place *p)
{
	if (p->dirfd >= 0)
		close(p->dirfd);
	free(p->target);
	buf_free(&p->shown);
}

/*
 * Opens and checks the journal of p: J_NONE (there is none), J_TORN,
 * J_READY (j open, its text matching its checksum, *h its header),
 * J_DAMAGED (*why) or J_ERROR (errno).
 */
static enum verdict inspect(struct place *p, struct journal *j, struct header *h, const char **why)
{
	char hdr[JOURNAL_HEADER];
	struct stat st;
	ssize_t n;
	uint64_t sum = FNV_START;
	enum verdict v;

	j->dirfd = p->dirfd;
	j->name = NULL;
	j->fd = openat(p->dirfd, p->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (j->fd < 0)
		return errno == ENOENT ? J_NONE : J_ERROR;
	if (fstat(j->fd, &st) != 0 || (n = pread(j->fd, hdr, sizeof hdr, 0)) < 0)
		return J_ERROR;
	if (!S_ISREG(st.st_mode)) {
		*why = "it is not a regular file";
		return J_DAMAGED;
	}
	v = parse_header(hdr, (size_t)n, h, why);
	if (v != J_READY)
		return v;
	if ((unsigned long long)st.st_size != JOURNAL_HEADER + h->size) {
		*why = "it is not as long as its header says (cut short or grown)";
		return J_DAMAGED;
	}
	j->size = (off_t)h->size;
	errno = copy_range(j->fd, JOURNAL_HEADER, -1, 0, j->size, &sum);
	if (errno)
		return J_ERROR;
	if (sum != h->sum) {
		*why = "its text does not match its checksum";
		return J_DAMAGED;
	}
	return J_READY;
}

/* Puts a ready journal's text back into p->target if it is the file the journal was written for; 0 or 2 (reported). */
static int apply(const struct nvtxt_diag_sink *sink, struct place *p, struct journal *j, const struct header *h,
		 const char *display)
{
	struct stat st;
	int fd = open(p->target, O_WRONLY | O_CLOEXEC), e;

	if (fd < 0 || fstat(fd, &st) != 0) {
		io_error(sink, display, "the journal '%s' of an interrupted write of this file cannot be applied: "
			 "%s; it is left as it is", p->shown.ptr, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 2;
	}
	if ((unsigned long long)st.st_dev != h->dev || (unsigned long long)st.st_ino != h->ino) {
		io_error(sink, display, "the journal '%s' was written for another file (device %llu, inode %llu), "
			 "not this one (device %llu, inode %llu): the file was replaced since that write was "
			 "interrupted, so the journal is not applied; remove it if the file holds what it should",
			 p->shown.ptr, h->dev, h->ino, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
		close(fd);
		return 2;
	}
	e = journal_rollback(j, fd);
	close(fd);
	if (e) {
		io_error(sink, display, "cannot put back the previous text from the journal '%s': %s; the journal "
			 "is kept", p->shown.ptr, strerror(e));
		return 2;
	}
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, display,
				    "an interrupted write had left this file half-written or unfinished: its previous "
				    "text (%llu bytes) was put back from the journal '%s'", h->size, p->shown.ptr);
	return 0;
}

int journal_recover(const struct nvtxt_diag_sink *sink, const char *path)
{
	struct place p;
	struct journal j;
	struct header h = { 0 };
	const char *why = "", *display = path;
	int status = 0;

	if (locate(path, &p) != 0) {
		unlocate(&p);
		return 0; /* no directory to hold a journal: the file's own open says why */
	}
	switch (inspect(&p, &j, &h, &why)) {
	case J_NONE:
		break;
	case J_TORN:
		if (unlinkat(p.dirfd, p.name, 0) != 0) {
			io_error(sink, display, "cannot remove the unfinished journal '%s': %s", p.shown.ptr, strerror(errno));
			status = 2;
			break;
		}
		fsync(p.dirfd);
		nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, display,
					    "removed the journal '%s', which an interrupted run left unfinished: it "
					    "stopped before it changed this file", p.shown.ptr);
		break;
	case J_READY:
		status = apply(sink, &p, &j, &h, display);
		if (status == 0 && unlinkat(p.dirfd, p.name, 0) == 0)
			fsync(p.dirfd);
		break;
	case J_DAMAGED:
		io_error(sink, display, "the journal '%s' of an interrupted write of this file is damaged (%s): it is "
			 "not applied, and the file may be half-written; check the file, then remove the journal",
			 p.shown.ptr, why);
		status = 2;
		break;
	case J_ERROR:
		io_error(sink, display, "cannot read the journal '%s': %s", p.shown.ptr, strerror(errno));
		status = 2;
		break;
	}
	if (j.fd >= 0)
		close(j.fd);
	unlocate(&p);
	return status;
}

/* --- leftovers ------------------------------------------------------------ */

/* Reports (or with `clean`, removes) the leftovers in dir, named DIR/NAME as `prefix` says ("" for "."). */
static void scan_dir(const struct nvtxt_diag_sink *sink, const char *dir, const char *prefix, bool clean)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	const size_t sl = strlen(JOURNAL_SUFFIX);

	if (!d)
		return; /* the files' own reads say why */
	while ((e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		size_t len = strlen(name), tlen;
		long pid;

		if (name[0] != '.' || !strstr(name, ".nvtxtc-"))
			continue;
		if (len > sl + 1 && strcmp(name + len - sl, JOURNAL_SUFFIX) == 0) {
			if (!clean)
				nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_WARNING, NULL,
					"'%s%s' is the journal of an interrupted write of '%s%.*s', which may be "
					"half-written: 'nvtxtc fmt --recover %s%.*s' puts its previous text back",
					prefix, name, prefix, (int)(len - sl - 1), name + 1, prefix, (int)(len - sl - 1),
					name + 1);
		} else if ((pid = output_stale_temporary(name, &tlen)) > 0) {
			if (clean && unlinkat(dirfd(d), name, 0) == 0)
				nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, NULL,
					"removed '%s%s', a temporary that nvtxtc process %ld left when it was killed "
					"while writing '%s%.*s'", prefix, name, pid, prefix, (int)tlen, name + 1);
			else if (!clean)
				nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_WARNING, NULL,
					"'%s%s' is a temporary that nvtxtc process %ld left when it was killed while "
					"writing '%s%.*s', which it did not change: remove it, or let the next "
					"'nvtxtc fmt -i' of this directory do it", prefix, name, pid, prefix, (int)tlen,
					name + 1);
		}
	}
	closedir(d);
}

void leftovers_report(const struct nvtxt_diag_sink *sink, char *const *files, int n, bool clean)
{
	struct namemap seen = { 0 };

	for (int i = 0; i < n; i++) {
		const char *slash = strrchr(files[i], '/');
		struct buf dir = { 0 }, prefix = { 0 };
		int inserted = 0;

		if (strcmp(files[i], "-") == 0)
			continue;
		if (slash) {
			buf_add(&dir, files[i], slash == files[i] ? 1 : (size_t)(slash - files[i]));
			buf_add(&prefix, files[i], (size_t)(slash + 1 - files[i]));
		} else {
			buf_adds(&dir, ".");
			buf_adds(&prefix, "");
		}
		namemap_put(&seen, dir.ptr, dir.len, 1, &inserted);
		if (inserted)
			scan_dir(sink, dir.ptr, prefix.ptr, clean);
		buf_free(&dir);
		buf_free(&prefix);
	}
	namemap_free(&seen);
}
