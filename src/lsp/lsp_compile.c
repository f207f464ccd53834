/*
 * lsp_compile.c - compiling a document held in memory.
 *
 * nvtxt_compile reads a file descriptor; until the library reads from
 * memory, the text goes into an anonymous memory file (memfd_create), which
 * is a regular, seekable file, so diagnostics behave as for a file on disk.
 * This is the one place to change when the library gains that entry point.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lsp_int.h"

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int lsp_compile_text(const char *text, size_t len, struct nvtxt_compile_options *co,
		     struct nvtxt_compile_result *res)
{
	int fd = memfd_create("nvtxtc-lsp", MFD_CLOEXEC);
	FILE *tmp = NULL;
	int status;

	if (fd < 0) {
		tmp = tmpfile();
		fd = tmp ? fileno(tmp) : -1;
	}
	if (fd < 0 || write_all(fd, text, len) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
		memset(res, 0, sizeof(*res));
		res->io_errno = errno ? errno : EIO;
		if (tmp)
			fclose(tmp);
		else if (fd >= 0)
			close(fd);
		return 2;
	}
	co->fd = fd;
	status = nvtxt_compile(co, res);
	if (tmp)
		fclose(tmp);
	else
		close(fd);
	return status;
}
