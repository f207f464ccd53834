/*
 * input.c - the driver's inputs: opening a FILE operand, compiling one
 * file (NVTXT, or a payload through its normal form), reading payload
 * files, and the driver's own messages, which go through the diagnostics
 * sink like every other report.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "emit_nvtxt.h"
#include "fmt.h"
#include "payload.h"

void io_error(const struct nvtxt_diag_sink *sink, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_ERROR, file, fmt, ap);
	va_end(ap);
}

void driver_report(const struct nvtxt_diag_sink *sink, enum nvtxt_check_id check,
		   enum nvtxt_severity sev, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, check, sev, file, fmt, ap);
	va_end(ap);
}

const char *input_display(const struct options *opt, const char *path)
{
	if (strcmp(path, "-") != 0)
		return path;
	return opt->stdin_name ? opt->stdin_name : "<stdin>";
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
	driver_report(sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, name, "%s%s not shown (--max-errors=%lu)", errs, warns, max);
}

int compile_one(const struct options *opt, const struct nvtxt_diag_sink *sink,
		struct totals *totals, const char *path, int fd, const char *display,
		const struct nvtxt_backend *be, struct nvtxt_fmt *fmt)
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
	int status;

	if (fmt) {
		co.instruction = nvtxt_fmt_instruction;
		co.instruction_user = fmt;
		co.syntax_check_only = fmt->out == NULL && !fmt->hold;
	}
	status = nvtxt_compile(&co, &res);
	report_hidden(sink, &res, display, opt->diag.max_errors);
	totals->errors += res.errors;
	totals->warnings += res.warnings;
	/* EDOM, ERANGE: a time the back end could not convert, which it reports (struct emitter) */
	if (res.io_errno && res.io_errno != EDOM && res.io_errno != ERANGE)
		io_error(sink, NULL, "%s: %s", path, strerror(res.io_errno));
	return status;
}

int copy_stream(FILE *from, FILE *to)
{
	char buf[65536];
	size_t n;

	rewind(from);
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

int spool_stdin(void)
{
	FILE *t = tmpfile();
	FILE *in = fdopen(dup(0), "r");
	int fd = -1;

	if (t && in && copy_stream(in, t) == 0)
		fd = dup(fileno(t));
	if (in)
		fclose(in);
	if (t)
		fclose(t);
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	return fd;
}

int payload_load(int fd, const char *display, struct payload_file *pf,
		 const struct nvtxt_diag_sink *sink)
{
	size_t cap = 65536;
	ssize_t n;
	char err[512];

	memset(pf, 0, sizeof *pf);
	pf->data = malloc(cap);
	if (!pf->data)
		goto io;
	while ((n = pread(fd, pf->data + pf->size, cap - pf->size, (off_t)pf->size)) != 0) {
		if (n < 0)
			goto io;
		pf->size += (size_t)n;
		if (pf->size == cap) {
			unsigned char *p = realloc(pf->data, cap * 2);
			if (!p)
				goto io;
			pf->data = p;
			cap *= 2;
		}
	}
	if (nvtxt_payload_open(&pf->r, pf->data, pf->size, err, sizeof err) != 0) {
		driver_report(sink, NVTXT_CHECK_PAYLOAD_FORMAT, NVTXT_SEV_ERROR, display, "%s", err);
		return 1;
	}
	return 0;
io:
	io_error(sink, NULL, "cannot read '%s': %s", display, strerror(errno));
	return 2;
}

void payload_free(struct payload_file *pf)
{
	nvtxt_payload_reader_free(pf->r);
	free(pf->data);
}

/* True when fd (not standard input) holds a payload file, by its magic. */
static bool is_payload(int fd)
{
	unsigned char magic[8];

	return pread(fd, magic, sizeof magic, 0) == (ssize_t)sizeof magic &&
	       nvtxt_payload_sniff(magic, sizeof magic);
}

/*
 * A payload file where NVTXT is expected.  It is decompiled to its normal
 * form, which then goes through the whole front end like any NVTXT file,
 * so a payload is held to every rule of nvtxt(5); diagnostics point at
 * lines of that normal form (nvtxtc --emit=nvtxt FILE).  Its calls go to
 * `be` (NULL: lint).
 */
static int decompile_one(const struct options *opt, const struct nvtxt_diag_sink *sink,
			 struct totals *totals, int fd, const char *display,
			 const struct nvtxt_backend *be)
{
	struct payload_file pf;
	struct nvtxt_backend text;
	struct nvtxt_emit_nvtxt *nw;
	char err[512];
	FILE *nf;
	int status = payload_load(fd, display, &pf, sink);

	if (status != 0) {
		payload_free(&pf);
		return status;
	}
	nf = tmpfile();
	if (!nf) {
		io_error(sink, NULL, "cannot create a temporary file: %s", strerror(errno));
		payload_free(&pf);
		return 2;
	}
	nw = nvtxt_emit_nvtxt_new(nf);
	if (!nw) {
		io_error(sink, NULL, "%s", strerror(errno));
		fclose(nf);
		payload_free(&pf);
		return 2;
	}
	text = nvtxt_emit_nvtxt_backend(nw);
	if (nvtxt_payload_decompile(pf.r, &text, err, sizeof err) != 0) {
		driver_report(sink, NVTXT_CHECK_PAYLOAD_FORMAT, NVTXT_SEV_ERROR, display, "%s", err);
		status = 1;
	} else if (fflush(nf) != 0 || lseek(fileno(nf), 0, SEEK_SET) != 0) {
		io_error(sink, NULL, "writing a temporary file: %s", strerror(errno));
		status = 2;
	} else {
		status = compile_one(opt, sink, totals, display, fileno(nf), display, be, NULL);
	}
	nvtxt_emit_nvtxt_free(nw);
	fclose(nf);
	payload_free(&pf);
	return status;
}

int check_file(const struct options *opt, const struct nvtxt_diag_sink *sink,
	       struct totals *totals, const char *path, const struct nvtxt_backend *be)
{
	bool is_stdin;
	int fd = open_input(path, &is_stdin, sink);
	const char *display;
	int status;

	if (fd < 0)
		return 2;
	display = input_display(opt, path);
	if (!is_stdin && is_payload(fd))
		status = decompile_one(opt, sink, totals, fd, display, be);
	else
		status = compile_one(opt, sink, totals, path, fd, display, be, NULL);
	if (!is_stdin)
		close(fd);
	return status;
}
