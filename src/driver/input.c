/*
 * input.c - the driver's inputs: opening a FILE operand, compiling one
 * file (NVTXT, or a payload through its normal form), reading payload
 * files, and the driver's own messages, which go through the diagnostics
 * sink like every other report.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/sendfile.h>
#endif
#include <unistd.h>

#include "driver.h"
#include "progress.h"
#include "nvtxt/emit_nvtxt.h"
#include "fmt.h"
#include "output.h"
#include "nvtxt/payload.h"

void io_error(const struct nvtxt_diag_sink *sink, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_ERROR, file, fmt, ap);
	va_end(ap);
}

const char *input_display(const struct options *opt, const char *path)
{
	if (strcmp(path, "-") != 0)
		return path;
	return opt->stdin_name ? opt->stdin_name : "<stdin>";
}

bool input_unnamed(const struct options *opt, const char *path)
{
	return strcmp(path, "-") == 0 && !opt->stdin_name;
}

void report_size(const struct nvtxt_diag_sink *sink, const char *display, int fd)
{
	struct stat st;

	if (is_report_sink(sink) && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		nvtxt_report_file(sink->user, display)->size = (long long)st.st_size;
}

int open_input(const char *path, bool *is_stdin, const struct nvtxt_diag_sink *sink)
{
	struct stat st;
	int fd;

	*is_stdin = strcmp(path, "-") == 0;
	if (*is_stdin)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		io_error(sink, NULL, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		io_error(sink, NULL, "cannot read '%s': it is a directory", path);
		close(fd);
		return -1;
	}
	return fd;
}

static void report_hidden(const struct nvtxt_diag_sink *sink, const struct nvtxt_compile_result *r,
			  const char *name, unsigned long max)
{
	char errs[64] = "", warns[64] = "";

	if (!r->hidden_errors && !r->hidden_warnings)
		return;
	if (r->hidden_errors)
		snprintf(errs, sizeof errs, "%lu more error%s%s", r->hidden_errors,
			 r->hidden_errors == 1 ? "" : "s", r->hidden_warnings ? " and " : "");
	if (r->hidden_warnings)
		snprintf(warns, sizeof warns, "%lu more warning%s", r->hidden_warnings,
			 r->hidden_warnings == 1 ? "" : "s");
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, name, "%s%s not shown (--max-errors=%lu)", errs, warns, max);
}

/*
 * A file that shrinks while it is read (another process truncates it):
 * the sink in front of the real one stops passing diagnostics on as soon
 * as the file is shorter than when it was opened, since they may be about
 * text that is gone (the cut last line), and the shrink is reported
 * instead.
 */
struct shrink_watch {
	const struct nvtxt_diag_sink *next;
	int fd;
	off_t size;  /* when the compile started */
	off_t now;   /* when it was found shorter */
	bool shrank;
};

static bool has_shrunk(struct shrink_watch *w)
{
	struct stat st;

	if (!w->shrank && fstat(w->fd, &st) == 0 && st.st_size < w->size) {
		w->shrank = true;
		w->now = st.st_size;
	}
	return w->shrank;
}

static void shrink_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct shrink_watch *w = user;

	if (!has_shrunk(w))
		w->next->report(w->next->user, d, src);
}

void count_input_error(const struct nvtxt_diag_sink *sink, struct totals *totals, const char *display)
{
	totals->errors++;
	if (is_report_sink(sink))
		nvtxt_report_file(sink->user, display)->errors++;
}

/* A named status of a back end (enum nvtxt_status) as an error of the input, in its words. */
static void report_status(const struct nvtxt_diag_sink *sink, struct totals *totals, const char *display,
			  int status)
{
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_TIME_CONVERSION, NVTXT_SEV_ERROR, display, "%s",
				    nvtxt_status_message(status));
	count_input_error(sink, totals, display);
}

/* What a compile found, added to the totals and reported; its I/O error or named status too. */
static void account(const struct options *opt, const struct nvtxt_diag_sink *sink,
		    struct totals *totals, const char *path, const char *display,
		    const struct output_ref *out, const struct nvtxt_compile_result *res)
{
	report_hidden(sink, res, display, opt->diag.max_errors);
	totals->errors += res->errors;
	totals->warnings += res->warnings;
	if (is_report_sink(sink)) {
		struct nvtxt_report_file *f = nvtxt_report_file(sink->user, display);
		f->errors += res->errors;
		f->warnings += res->warnings;
		f->hidden_errors += res->hidden_errors;
		f->hidden_warnings += res->hidden_warnings;
	}
	if (res->status == NVTXT_OK)
		return;
	if (res->status == NVTXT_ERR_SYSTEM && out && out->out && ferror(out->out))
		output_error(sink, out, res->io_errno);
	else if (res->status == NVTXT_ERR_SYSTEM)
		io_error(sink, NULL, "cannot read '%s': %s", path, strerror(res->io_errno));
	else if (!(out && out->tells_input_errors))
		/* a time the back end could not convert, which it did not tell itself: an error of the input */
		report_status(sink, totals, display, res->status);
}

void output_error(const struct nvtxt_diag_sink *sink, const struct output_ref *out, int err)
{
	if (out->name)
		io_error(sink, NULL, "cannot write '%s': %s", out->name, strerror(err ? err : EIO));
	else
		write_error_stdout(sink, err);
}

/*
 * The rule for a file that is not text (nvtxtc(1), DESCRIPTION; nvtxt(5),
 * Encoding and line ends): its first 8 KiB hold a NUL byte and another
 * control character (not tab, LF or CR), as an executable, an image or a
 * compressed file do (git and grep call a file with a NUL byte there
 * binary; a text file with a stray NUL keeps its located errors).  A file
 * that starts like UTF-16 is left to the compile's own error.  Returns
 * the offset of the first NUL, or -1 for text.
 */
long long binary_offset(const unsigned char *p, size_t n)
{
	const unsigned char *nul = memchr(p, 0, n);

	if (!nul)
		return -1;
	if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
		return -1;
	if (n >= 4 && ((p[0] == 0 && p[1] && p[2] == 0 && p[3]) || (p[0] && p[1] == 0 && p[2] && p[3] == 0)))
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') || p[i] == 0x7f)
			return (long long)(nul - p);
	return -1;
}

bool not_text(const struct nvtxt_diag_sink *sink, struct totals *totals, const char *display,
	      const unsigned char *p, size_t n)
{
	long long at = binary_offset(p, n);

	if (at < 0)
		return false;
	nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_ENCODING, NVTXT_SEV_ERROR, display,
				    "not a text file: NUL byte at offset %lld (with other control "
				    "characters in its first 8 KiB); not checked further", at);
	count_input_error(sink, totals, display);
	return true;
}

int compile_one(const struct options *opt, const struct nvtxt_diag_sink *sink,
		struct totals *totals, const char *path, int fd, const char *display,
		const struct nvtxt_backend *be, struct nvtxt_fmt *fmt, const struct output_ref *out)
{
	struct nvtxt_compile_options co = {
		.display_name = display,
		.fd = fd,
		.diag_config = &opt->diag,
		.sink = *sink,
		.backend = be,
		.read_ahead = opt->read_ahead,
	};
	struct nvtxt_compile_result res;
	struct shrink_watch watch = { .next = sink, .fd = fd };
	struct stat st;
	int status;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		unsigned char probe[TEXT_PROBE];
		off_t pos = lseek(fd, 0, SEEK_CUR);
		ssize_t n = pos >= 0 ? pread(fd, probe, sizeof probe, pos) : -1;
		if (n > 0 && not_text(sink, totals, display, probe, (size_t)n))
			return 1;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && sink->report) {
		watch.size = st.st_size;
		co.sink = (struct nvtxt_diag_sink){ &watch, shrink_report };
	}
	if (fmt) {
		co.instruction = nvtxt_fmt_instruction;
		co.instruction_user = fmt;
		co.syntax_check_only = fmt->out == NULL && !fmt->hold;
	}
	status = nvtxt_compile(&co, &res);
	if (co.sink.user == &watch && has_shrunk(&watch)) {
		io_error(sink, display, "the file shrank from %lld to %lld bytes while it was read "
			 "(another process truncated it): not checked to its end, and diagnostics "
			 "past the moment it shrank are not shown",
			 (long long)watch.size, (long long)watch.now);
		status = 2;
	}
	account(opt, sink, totals, path, display, out, &res);
	return status;
}

/*
 * Copies a regular file's bytes from offset *off to out_fd in the kernel
 * (sendfile(2): no copy through the process; to /dev/null, a pipe or a
 * file alike), advancing *off.  0 at the end; -1 when it cannot or fails
 * (errno set), *off then where the caller goes on by hand.
 */
static int send_file(int out_fd, int in_fd, off_t *off)
{
#ifdef __linux__
	for (;;) {
		ssize_t n = sendfile(out_fd, in_fd, off, 1 << 30);
		if (n == 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -1;
	}
#else
	(void)out_fd, (void)in_fd, (void)off;
	errno = ENOSYS;
	return -1;
#endif
}

int copy_stream(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;
	struct stat st;
	off_t off = 0;

	rewind(from);
	if (fflush(to) != 0)
		return -1;
	if (fileno(to) >= 0 && fstat(fileno(from), &st) == 0 && S_ISREG(st.st_mode)) {
		if (send_file(fileno(to), fileno(from), &off) == 0)
			return 0;
		if (errno != EINVAL && errno != ENOSYS)
			return -1; /* a write error (EPIPE, ENOSPC, EIO) */
		if (fseeko(from, off, SEEK_SET) != 0)
			return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) || fflush(to) != 0 ? -1 : 0;
}

bool same_contents(int fd, FILE *f)
{
	char a[65536], b[65536];
	ssize_t n;
	size_t m;
	off_t off = 0;

	rewind(f);
	for (;;) {
		n = pread(fd, a, sizeof(a), off);
		m = fread(b, 1, sizeof(b) < (size_t)(n > 0 ? n : 1) ? sizeof(b) : (size_t)(n > 0 ? n : 1), f);
		if (n < 0)
			return false;
		if (n == 0)
			return m == 0 && fgetc(f) == EOF;
		if ((size_t)n != m || memcmp(a, b, m) != 0)
			return false;
		off += n;
	}
}

FILE *temp_stream(const char **dir)
{
	/* inherited: diff reads it as /dev/fd/N (fmt -d) */
	int fd = temp_fd(dir);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;

	if (!f && fd >= 0)
		close(fd);
	return f;
}

FILE *spool_stream(int fd0)
{
	const char *dir;
	FILE *t = temp_stream(&dir);
	FILE *in = fdopen(dup(fd0), "r");
	int e;

	if (t && in && copy_stream(in, t) == 0) {
		fclose(in);
		rewind(t);
		return t;
	}
	e = errno;
	if (in)
		fclose(in);
	if (t)
		fclose(t);
	errno = e;
	return NULL;
}

int spool_fd(int fd0)
{
	FILE *t = spool_stream(fd0);
	int fd = t ? dup(fileno(t)) : -1;

	if (t)
		fclose(t);
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	return fd;
}

/* The reader's source: the prefix, then fd. */
static ptrdiff_t payload_read(void *user, void *buf, size_t n)
{
	struct payload_file *pf = user;

	if (pf->prefix_off < pf->nprefix) {
		size_t k = pf->nprefix - pf->prefix_off < n ? pf->nprefix - pf->prefix_off : n;
		memcpy(buf, pf->prefix + pf->prefix_off, k);
		pf->prefix_off += k;
		return (ptrdiff_t)k;
	}
	return read(pf->fd, buf, n);
}

int payload_load(int fd, const void *prefix, size_t nprefix, const char *display,
		 struct payload_file *pf, const struct nvtxt_diag_sink *sink)
{
	char err[512];

	memset(pf, 0, sizeof *pf);
	pf->fd = fd;
	pf->display = display;
	if (nprefix > sizeof pf->prefix)
		nprefix = sizeof pf->prefix;
	if (nprefix)
		memcpy(pf->prefix, prefix, nprefix);
	pf->nprefix = nprefix;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (nvtxt_payload_reader_new(&pf->r, payload_read, pf, err, sizeof err) != 0) {
		if (strncmp(err, "offset ", 7) == 0) {
			nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_PAYLOAD_FORMAT, NVTXT_SEV_ERROR,
						    display, "%s", err);
			return 1;
		}
		io_error(sink, NULL, "cannot read '%s': %s", display, err);
		return 2;
	}
	return 0;
}

int payload_report(const struct payload_file *pf, int rc, const char *err,
		   const struct nvtxt_diag_sink *sink)
{
	if (rc == NVTXT_PAYLOAD_EFORMAT) {
		nvtxt_diag_report_unlocated(sink, NVTXT_CHECK_PAYLOAD_FORMAT, NVTXT_SEV_ERROR,
					    pf->display, "%s", err);
		return 1;
	}
	io_error(sink, NULL, "cannot read '%s': %s", pf->display, err);
	return 2;
}

void payload_free(struct payload_file *pf)
{
	nvtxt_payload_reader_free(pf->r);
	pf->r = NULL;
}

/* Reads up to n bytes (fewer only at end of input); the count, or -1. */
static ssize_t read_full(int fd, unsigned char *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/*
 * A pipe or a FIFO whose first bytes were read to look for the payload
 * magic, and were not it: a thread hands those bytes and then the rest of
 * the input to the compile through a pipe of its own.
 */
struct relay {
	int from, to;
	unsigned char prefix[TEXT_PROBE];
	size_t n;
	pthread_t tid;
};

static bool write_all(int fd, const unsigned char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static void *relay_main(void *arg)
{
	struct relay *r = arg;
	unsigned char buf[65536];
	sigset_t set;
	ssize_t n;

	/* the compile may stop reading (an I/O error): then a write fails with EPIPE */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (write_all(r->to, r->prefix, r->n))
		while ((n = read(r->from, buf, sizeof buf)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 || !write_all(r->to, buf, (size_t)n))
				break;
		}
	close(r->to);
	return NULL;
}

/*
 * A payload file where NVTXT is expected.  It is read as a stream and its
 * calls go through the passes that span calls, as the calls of an NVTXT
 * file do (nvtxt_payload_compile), so a payload is held to every rule of
 * nvtxt(5); diagnostics point at lines of its normal form (nvtxtc
 * --emit=nvtxt FILE).  Its calls go to `be` (NULL: lint).
 */
static int decompile_one(const struct options *opt, const struct nvtxt_diag_sink *sink,
			 struct totals *totals, int fd, const void *prefix, size_t nprefix,
			 const char *display, const struct nvtxt_backend *be,
			 const struct output_ref *out)
{
	struct payload_file pf;
	struct nvtxt_compile_options co = {
		.display_name = display,
		.diag_config = &opt->diag,
		.sink = *sink,
		.backend = be,
		.read_ahead = opt->read_ahead,
	};
	struct nvtxt_compile_result res;
	char err[512];
	int status = payload_load(fd, prefix, nprefix, display, &pf, sink);

	if (status != 0) {
		payload_free(&pf);
		return status;
	}
	status = nvtxt_payload_compile(pf.r, &co, &res, err, sizeof err);
	account(opt, sink, totals, display, display, out, &res);
	if (status < 0)
		status = payload_report(&pf, status, err, sink);
	payload_free(&pf);
	return status;
}

/*
 * An input on a pipe (fd cannot seek) whose first n bytes (at most 8) are
 * `magic`, and no payload: what is there of its first 8 KiB is read (one
 * read, so that a live pipe still streams) to tell a file that is not
 * text (binary_offset), then a thread relays those bytes and the rest to
 * the compile through a pipe of its own.
 */
static int check_relayed(const struct options *opt, const struct nvtxt_diag_sink *sink,
			 struct totals *totals, const char *path, int fd, const unsigned char *magic, size_t n,
			 const char *display, const struct nvtxt_backend *be, const struct output_ref *out)
{
	struct relay r = { .from = fd, .n = n };
	ssize_t more = 0;
	int p[2], status;

	memcpy(r.prefix, magic, n);
	/* all 8 bytes of magic: the input goes on */
	while (n == 8 && (more = read(fd, r.prefix + n, sizeof r.prefix - n)) < 0 && errno == EINTR)
		;
	if (more > 0)
		r.n += (size_t)more;
	if (more < 0) {
		io_error(sink, NULL, "cannot read '%s': %s", display, strerror(errno));
		return 2;
	}
	if (not_text(sink, totals, display, r.prefix, r.n))
		return 1;
	if (pipe(p) != 0) {
		io_error(sink, NULL, "cannot read '%s': %s", display, strerror(errno));
		return 2;
	}
	r.to = p[1];
	if (pthread_create(&r.tid, NULL, relay_main, &r) != 0) {
		io_error(sink, NULL, "cannot read '%s': no thread to relay it", display);
		close(p[1]);
		close(p[0]);
		return 2;
	}
	status = compile_one(opt, sink, totals, path, p[0], display, be, NULL, out);
	close(p[0]);
	pthread_join(r.tid, NULL);
	return status;
}

/*
 * An open input, NVTXT or a payload (told by its first 8 bytes): a file,
 * standard input too, is looked at without reading it; a pipe is read.
 */
static int check_fd(const struct options *opt, const struct nvtxt_diag_sink *sink,
		    struct totals *totals, const char *path, int fd, const char *display,
		    const struct nvtxt_backend *be, const struct output_ref *out)
{
	unsigned char magic[8];
	off_t pos = lseek(fd, 0, SEEK_CUR);
	ssize_t n;

	if (pos >= 0) {
		if (pread(fd, magic, sizeof magic, pos) == (ssize_t)sizeof magic &&
		    nvtxt_payload_sniff(magic, sizeof magic))
			return decompile_one(opt, sink, totals, fd, NULL, 0, display, be, out);
		return compile_one(opt, sink, totals, path, fd, display, be, NULL, out);
	}
	n = read_full(fd, magic, sizeof magic);
	if (n < 0) {
		io_error(sink, NULL, "cannot read '%s': %s", display, strerror(errno));
		return 2;
	}
	if (n == (ssize_t)sizeof magic && nvtxt_payload_sniff(magic, sizeof magic))
		/* a payload file on a pipe or a FIFO */
		return decompile_one(opt, sink, totals, fd, magic, sizeof magic, display, be, out);
	return check_relayed(opt, sink, totals, path, fd, magic, (size_t)n, display, be, out);
}

/* check_file; `again`: the input's entry of the document exists (check_file_again). */
static int check_input(const struct options *opt, const struct nvtxt_diag_sink *sink,
		       struct totals *totals, const char *path, const struct nvtxt_backend *be,
		       const struct output_ref *out, bool again)
{
	bool is_stdin;
	const char *display = input_display(opt, path);
	int fd, status;

	/* a document lists every input, in command-line order, even one that cannot be read */
	if (is_report_sink(sink) && !again)
		nvtxt_report_input(sink->user, display, input_unnamed(opt, path));
	fd = open_input(path, &is_stdin, sink);
	if (fd < 0)
		return 2;
	if (is_stdin && is_report_sink(sink) && lseek(fd, 0, SEEK_CUR) < 0) {
		/* a regular file, so that every diagnostic's line can be read back for its snippet */
		fd = spool_fd(fd);
		if (fd < 0) {
			io_error(sink, NULL, "cannot read standard input: %s", strerror(errno));
			return 2;
		}
		is_stdin = false;
	}
	report_size(sink, display, fd);
	progress_begin(fd, display);
	status = check_fd(opt, sink, totals, path, fd, display, be, out);
	progress_end(fd);
	if (!is_stdin)
		close(fd);
	return status;
}

int check_file(const struct options *opt, const struct nvtxt_diag_sink *sink,
	       struct totals *totals, const char *path, const struct nvtxt_backend *be,
	       const struct output_ref *out)
{
	return check_input(opt, sink, totals, path, be, out, false);
}

int check_file_again(const struct options *opt, const struct nvtxt_diag_sink *sink,
		     struct totals *totals, const char *path)
{
	return check_input(opt, sink, totals, path, NULL, NULL, true);
}
