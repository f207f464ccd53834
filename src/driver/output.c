/*
 * output.c - atomic output files.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "util.h"

/* The temporary to remove if a signal ends the process (one at a time). */
static char *volatile pending_tmp;

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
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };

	pending_tmp = tmp;
	if (installed)
		return;
	installed = true;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;
		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int output_open(struct nvtxt_output *o, const char *path)
{
	const char *slash;
	size_t dirlen;
	struct buf tmp = { 0 };
	struct stat st;
	char *target = NULL;
	mode_t mode;
	int fd;

	memset(o, 0, sizeof(*o));
	/* a symbolic link to a file stays one: the file it points to is what gets replaced */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		target = realpath(path, NULL);
		if (!target)
			return -1;
		path = target;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			free(target);
			errno = EISDIR;
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device or a FIFO (/dev/null, /dev/stdout) is written to, not replaced */
			o->file = fopen(path, "w");
			if (!o->file) {
				free(target);
				return -1;
			}
			o->path = target ? target : xstrndup(path, strlen(path));
			return 0;
		}
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	slash = strrchr(path, '/');
	dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	buf_add(&tmp, path, dirlen);
	buf_printf(&tmp, ".%s.tmpXXXXXX", path + dirlen);
	fd = mkstemp(tmp.ptr);
	if (fd < 0) {
		free(target);
		buf_free(&tmp);
		return -1;
	}
	/* the name outlives the buffer (a temporary, util.h): the driver owns a copy */
	o->tmp = xstrndup(tmp.ptr, tmp.len);
	buf_free(&tmp);
	watch(o->tmp);
	if (fchmod(fd, mode) != 0 || !(o->file = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		pending_tmp = NULL;
		free(target);
		free(o->tmp);
		o->tmp = NULL;
		errno = e;
		return -1;
	}
	o->path = target ? target : xstrndup(path, strlen(path));
	return 0;
}

static void release(struct nvtxt_output *o)
{
	pending_tmp = NULL;
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
}

int output_commit(struct nvtxt_output *o)
{
	int e = 0;

	if (fflush(o->file) != 0 || ferror(o->file))
		e = errno ? errno : EIO;
	if (fclose(o->file) != 0 && !e)
		e = errno ? errno : EIO;
	if (o->tmp) {
		if (!e && rename(o->tmp, o->path) != 0)
			e = errno;
		if (e)
			unlink(o->tmp);
	}
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
