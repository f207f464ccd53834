/*
 * cmd_fix.c - nvtxtc lint --fix: applies the fix-its of the checks that
 * the registry marks fixable (checks.def, FIXABLE: each of their fix-its
 * is the only reasonable correction), rewrites the file atomically like
 * fmt -i (FILE '-': prints the fixed text on standard output), says what
 * it changed, and then lints the result as usual, so what is left is
 * reported.
 *
 * A fix can uncover others (a call skipped behind a misspelt definition is
 * checked once the definition is fixed), so the file is checked and fixed
 * again until nothing is left to fix, at most FIX_PASSES times: a second
 * --fix then finds nothing to change.  A fix-it replaces the bytes of the
 * diagnostic's location (d->loc: line_offset + col - 1, len bytes) by
 * d->fixit, and nothing else.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "journal.h"
#include "progress.h"
#include "output.h"
#include "nvtxt/payload.h"
#include "util.h"

enum { FIX_PASSES = 8 };

/* A fix-it found in one pass over the text. */
struct fixit {
	size_t offset, len;          /* the bytes it replaces */
	char *text;                  /* what it puts there */
	struct nvtxt_diag d;         /* a copy of the diagnostic's check and location (no message) */
};

struct fixits {
	struct fixit *v;
	size_t n, cap;
};

static void collect(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct fixits *f = user;
	void *p = f->v;

	(void)src;
	if (!d->fixit || !d->loc.line || !d->loc.col || !nvtxt_check_get(d->check)->fixable)
		return;
	xgrow(&p, &f->cap, f->n + 1, sizeof(*f->v));
	f->v = p;
	f->v[f->n] = (struct fixit){ .offset = (size_t)d->loc.line_offset + d->loc.col - 1,
				     .len = d->loc.len,
				     .text = xstrndup(d->fixit, strlen(d->fixit)),
				     .d = { .check = d->check, .severity = d->severity, .loc = d->loc } };
	f->n++;
}

static int by_offset(const void *a, const void *b)
{
	const struct fixit *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The text behind locations for the report of what was fixed: lines of an in-memory text. */
struct mem_text {
	const char *ptr;
	size_t len;
};

static const char *mem_line(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col)
{
	const struct mem_text *t = user;
	const char *start, *nl;

	*first_col = 1;
	if (loc->line_offset > t->len)
		return NULL;
	start = t->ptr + loc->line_offset;
	nl = memchr(start, '\n', t->len - (size_t)loc->line_offset);
	*len = nl ? (size_t)(nl - start) : t->len - (size_t)loc->line_offset;
	if (*len && start[*len - 1] == '\r')
		(*len)--;
	return start;
}

/* Reads fd to its end into b; 0, or -1 with errno set. */
static int read_all(int fd, struct buf *b)
{
	for (;;) {
		ssize_t n;
		buf_reserve(b, 65536);
		n = read(fd, b->ptr + b->len, 65536);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		b->len += (size_t)n;
		b->ptr[b->len] = '\0';
	}
}

/* An unnamed temporary file holding text; its descriptor at offset 0, or -1. */
static int temp_with(const struct buf *text)
{
	FILE *t = tmpfile();
	int fd = -1;

	if (t && (text->len == 0 || fwrite(text->ptr, 1, text->len, t) == text->len) && fflush(t) == 0)
		fd = dup(fileno(t));
	if (t)
		fclose(t);
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	return fd;
}

/*
 * The fixes applied to one file, told only once the file is written (a
 * failed write fixed nothing), in line order: the text of each pass is
 * kept, as the fixes of a pass are located in the text it fixed.
 */
struct fixed {
	struct fixit x;
	int pass;
};
struct fix_log {
	struct fixed *v;
	size_t n, cap;
	struct buf texts[FIX_PASSES]; /* the text before each pass that fixed something */
	int npass;
};

static int by_line(const void *a, const void *b)
{
	const struct fixed *x = a, *y = b;

	if (x->x.d.loc.line != y->x.d.loc.line)
		return x->x.d.loc.line < y->x.d.loc.line ? -1 : 1;
	if (x->x.d.loc.col != y->x.d.loc.col)
		return x->x.d.loc.col < y->x.d.loc.col ? -1 : 1;
	return x->pass - y->pass;
}

/* Tells what a fix changed: a line of text, or an entry of the document. */
static void report_fix(struct run *run, const char *display, const struct fixit *x, const struct buf *text)
{
	struct mem_text mt = { text->ptr, text->len };
	struct nvtxt_source src = { &mt, mem_line };

	if (run->report) {
		struct nvtxt_diag d = x->d;
		d.fixit = x->text;
		nvtxt_report_fixed(run->report, display, &d, &src);
	} else {
		struct buf was = { 0 }, now = { 0 };
		buf_add_shown(&was, text->ptr + x->offset, x->len, 80);
		buf_add_shown(&now, x->text, strlen(x->text), 80);
		progress_hold();
		fprintf(run->printer.out, "%s:%u:%u: fixed: replaced '%s' with '%s' [%s]\n", display,
			(unsigned)x->d.loc.line, (unsigned)x->d.loc.col, was.ptr ? was.ptr : "",
			now.ptr ? now.ptr : "", nvtxt_check_get(x->d.check)->name);
		progress_release();
		buf_free(&was);
		buf_free(&now);
	}
}

/* Tells the fixes of the log (when `written`), in line order, and frees it. */
static void end_log(struct run *run, const char *display, struct fix_log *log, bool written)
{
	if (written && log->n)
		qsort(log->v, log->n, sizeof *log->v, by_line);
	for (size_t i = 0; i < log->n; i++) {
		if (written)
			report_fix(run, display, &log->v[i].x, &log->texts[log->v[i].pass]);
		free(log->v[i].x.text);
	}
	for (int i = 0; i < log->npass; i++)
		buf_free(&log->texts[i]);
	free(log->v);
	if (!written && log->n)
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, display,
					    "nothing was fixed: the fixed text could not be written");
	memset(log, 0, sizeof *log);
}

static void log_fix(struct fix_log *log, const struct fixit *x)
{
	void *p = log->v;

	xgrow(&p, &log->cap, log->n + 1, sizeof *log->v);
	log->v = p;
	log->v[log->n++] = (struct fixed){ *x, log->npass };
}

/*
 * One pass: checks text and applies its fix-its (the first of overlapping
 * ones) into the log; returns how many it applied.  The text is compiled
 * in memory, so a pass has no I/O to fail.
 */
static int fix_pass(struct run *run, const char *display, struct buf *text, struct fix_log *log)
{
	struct nvtxt_diag_config cfg = run->opt->diag;
	struct fixits found = { 0 };
	struct nvtxt_compile_options co = { .display_name = display, .diag_config = &cfg,
					    .sink = { &found, collect } };
	struct nvtxt_compile_result res;
	struct buf out = { 0 };
	size_t at = 0;
	int applied = 0;

	cfg.max_errors = 0; /* every fix-it, not only those shown */
	co.fd = -1;
	co.text = text->ptr; /* never NULL (fix_one); excerpts come from it */
	co.text_len = text->len;
	nvtxt_compile(&co, &res);
	if (found.n)
		qsort(found.v, found.n, sizeof(*found.v), by_offset);
	for (size_t i = 0; i < found.n; i++) {
		struct fixit *x = &found.v[i];
		if (x->offset < at || x->offset + x->len > text->len) {
			free(x->text); /* overlaps one applied before (or the same fix-it twice) */
			continue;
		}
		buf_add(&out, text->ptr + at, x->offset - at);
		buf_adds(&out, x->text);
		at = x->offset + x->len;
		log_fix(log, x); /* the log owns x->text */
		applied++;
	}
	free(found.v);
	if (applied) {
		buf_add(&out, text->ptr + at, text->len - at);
		log->texts[log->npass++] = *text; /* kept for the report */
		*text = out;
	} else {
		buf_free(&out);
	}
	return applied;
}

/* FILE '-': the fixed text on standard output, then what is left; the exit status. */
static int fix_stdin(struct run *run, const char *path, const char *display, struct buf *text,
		     struct fix_log *log)
{
	int fd, status = 0;

	if (text->len && (fwrite(text->ptr, 1, text->len, stdout) != text->len || fflush(stdout) != 0)) {
		write_error_stdout(&run->sink, errno);
		end_log(run, display, log, false);
		return 2;
	}
	end_log(run, display, log, true);
	fd = temp_with(text);
	if (fd < 0) {
		io_error(&run->sink, NULL, "cannot create a temporary file: %s", strerror(errno));
		return 2;
	}
	status = compile_one(run->opt, &run->sink, &run->totals, path, fd, display, NULL, NULL, NULL);
	close(fd);
	return status;
}

/* Writes the fixed text over path (atomically); 0, or 2 (reported). */
static int write_fixed(struct run *run, const char *path, const struct buf *text)
{
	struct nvtxt_output out;

	if (output_open(&out, path) != 0) {
		io_error(&run->sink, NULL, "cannot write '%s': %s", path, strerror(errno));
		return 2;
	}
	if (fwrite(text->ptr, 1, text->len, out.file) != text->len) {
		io_error(&run->sink, NULL, "cannot write '%s': %s", path, strerror(errno));
		output_abort(&out);
		return 2;
	}
	if (output_commit(&out) != 0) {
		io_error(&run->sink, NULL, "cannot write '%s': %s%s", path, strerror(errno), out.detail);
		return 2;
	}
	return 0;
}

static int fix_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const char *display = input_display(opt, path);
	struct nvtxt_report_file *entry = NULL;
	struct buf text = { 0 };
	struct fix_log log = { 0 };
	bool is_stdin;
	int fd, status = 0;

	if (run->report)
		entry = nvtxt_report_input(run->report, display, input_unnamed(opt, path));
	/* the journal of an interrupted write of it first: its previous text back */
	if (strcmp(path, "-") != 0 && journal_recover(&run->sink, path) != 0) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_IO_ERROR, NVTXT_SEV_NOTE, display, "not fixed");
		return 2;
	}
	fd = open_input(path, &is_stdin, &run->sink);
	if (fd < 0)
		return 2;
	if (read_all(fd, &text) != 0) {
		io_error(&run->sink, NULL, "cannot read '%s': %s", is_stdin ? "standard input" : path,
			 strerror(errno));
		if (!is_stdin)
			close(fd);
		buf_free(&text);
		return 2;
	}
	if (!is_stdin)
		close(fd);
	if (entry)
		entry->size = (long long)text.len;
	if (!text.ptr)
		buf_reserve(&text, 1);
	if (text.len >= 8 && nvtxt_payload_sniff((const unsigned char *)text.ptr, 8))
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, display,
					    "a payload file: --fix leaves it as it is");
	else if (binary_offset((const unsigned char *)text.ptr, text.len < TEXT_PROBE ? text.len : TEXT_PROBE) >= 0)
		; /* not a text file: left as it is, and the lint below says so */
	else
		for (int pass = 0; pass < FIX_PASSES && fix_pass(run, display, &text, &log) > 0; pass++)
			;
	if (is_stdin) {
		status = fix_stdin(run, path, display, &text, &log);
		buf_free(&text);
		return status;
	}
	if (log.n)
		status = write_fixed(run, path, &text);
	end_log(run, display, &log, status == 0);
	buf_free(&text);
	return status ? status : check_file_again(opt, &run->sink, &run->totals, path);
}

int run_fix(struct run *run, char **operands, int n)
{
	char **files;
	int nfiles, worst;

	run->opt->read_ahead = false;
	/* a directory: the *.nvtxt files under it, as lint checks them */
	worst = expand_operands(&run->sink, operands, n, &files, &nfiles);
	/* what killed runs left: temporaries removed; journals, by fix_one */
	leftovers_report(&run->sink, files, nfiles, true);
	for (int i = 0; i < nfiles; i++) {
		int status = fix_one(run, files[i]);
		if (status > worst)
			worst = status;
	}
	free_files(files, nfiles);
	return worst;
}
