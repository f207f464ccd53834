/*
 * chrome_origin.c - the origin of a merged --emit=chrome FILE... (nvtxtc(1),
 * CHROME TRACE EVENTS, Several files): before any event is written, each
 * file's head (its first event with a time that converts to nanoseconds)
 * is read, and the earliest of them, rounded toward zero to a whole
 * second, is the document's origin, so that a later file whose events
 * come first on the clock does not get negative "ts".  A head costs a
 * look at the file's first bytes: a text file's first 64 KiB are compiled
 * in memory (16 times more, up to 16 MiB, while no timed event is found);
 * a payload file is read until its first event.  Standard input and other
 * files that cannot be read twice have no head.  Nothing is reported:
 * every diagnostic comes from the export itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "nvtxt/payload.h"
#include "util.h"

#define HEAD_FIRST (64u << 10)
#define HEAD_MOST (16u << 20)
#define NS_PER_S 1000000000

struct head {
	const struct nvtxt_tconv *tc;
	bool found;
	int64_t ns;
};

static int head_event(void *user, const struct nvtxt_event *ev)
{
	struct head *h = user;
	int64_t t, ns;

	switch (ev->command) {
	case NVTXT_CMD_MARKER:
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		t = ev->time;
		break;
	case NVTXT_CMD_RANGE_START_END:
		t = ev->start;
		break;
	default:
		return 0;
	}
	if (nvtxt_tconv_apply(h->tc, ev->timebase, t, &ns) != 0)
		return 0; /* not in nanoseconds: the export says so; the next event may be */
	h->found = true;
	h->ns = ns;
	errno = ECANCELED;
	return -1; /* found: no more events (a payload's reading stops here) */
}

static void quiet(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	(void)user;
	(void)d;
	(void)src;
}

/* A text file's head: its first bytes compiled, more of them while none is found. */
static void text_head(int fd, off_t size, struct nvtxt_compile_options *co, struct head *h)
{
	struct nvtxt_compile_result res;

	for (size_t want = HEAD_FIRST; !h->found; want *= 16) {
		char *text = xmalloc(want);
		size_t n = 0, len;
		ssize_t got = 1;
		while (n < want && (got = pread(fd, text + n, want - n, (off_t)n)) > 0)
			n += (size_t)got;
		len = n;
		if ((off_t)n < size) /* cut after the last whole line */
			while (len && text[len - 1] != '\n')
				len--;
		co->text = text;
		co->text_len = len;
		if (got >= 0 && len)
			nvtxt_compile(co, &res);
		free(text);
		if (got < 0 || (off_t)n >= size || want >= HEAD_MOST)
			break;
	}
}

/* The head of the file at path in *ns; false when it has none. */
static bool file_head(const struct options *opt, const char *path, int64_t *ns)
{
	struct head h = { .tc = &opt->tconv };
	struct nvtxt_backend be = { .user = &h, .event = head_event };
	struct nvtxt_compile_options co = { .display_name = path, .diag_config = &opt->diag,
					    .sink = { NULL, quiet }, .backend = &be };
	unsigned char magic[8];
	struct stat sb;
	int fd;

	if (strcmp(path, "-") == 0 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
		if (pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
		    nvtxt_payload_sniff(magic, sizeof magic)) {
			struct payload_file pf;
			struct nvtxt_compile_result res;
			char err[256];
			if (payload_load(fd, NULL, 0, path, &pf, &co.sink) == 0)
				nvtxt_payload_compile(pf.r, &co, &res, err, sizeof err);
			payload_free(&pf);
		} else {
			text_head(fd, sb.st_size, &co, &h);
		}
	}
	close(fd);
	*ns = h.ns;
	return h.found;
}

bool chrome_merged_origin(const struct options *opt, char **files, int n, int64_t *origin)
{
	bool any = false;
	int64_t ns, least = 0;

	for (int i = 0; i < n; i++) {
		if (file_head(opt, files[i], &ns) && (!any || ns < least)) {
			least = ns;
			any = true;
		}
	}
	*origin = least / NS_PER_S * NS_PER_S; /* toward zero, as one file's export rounds its first event */
	return any;
}
