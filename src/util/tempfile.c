/*
 * tempfile.c - temp_fd (util.h): the unnamed temporary files of the
 * driver (fmt -i, fmt -d) and of the sort of stats' nvtx_pushpop_trace.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int temp_fd(const char **dir)
{
	const char *d = getenv("TMPDIR");
	char path[4096 + 32];
	int fd = -1;

	/* TMPDIR when it names a directory (as mkstemp users do), else /tmp */
	if (!d || d[0] != '/' || strlen(d) > 4096 || access(d, W_OK | X_OK) != 0)
		d = "/tmp";
	*dir = d;
#ifdef O_TMPFILE
	fd = open(d, O_TMPFILE | O_RDWR, 0600);
#endif
	if (fd < 0) {
		snprintf(path, sizeof path, "%s/nvtxtc-XXXXXX", d);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path); /* unnamed from now on: nothing is left behind */
	}
	return fd;
}
