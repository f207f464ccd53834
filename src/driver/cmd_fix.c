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
 *
 * The text is never held in memory: a regular file is read where it is
 * (and not written when it changed meanwhile), standard input or a FIFO
 * is first copied to an unnamed temporary file in $TMPDIR (else /tmp),
 * and each pass that fixes something writes the fixed text to a
 * temporary of its own there, kept until the end for the report of what
 * was fixed; memory follows the number of fixes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/* A line with a fix-it is at most this long (reader.h: READER_LINE_MAX), its line break after it. */
enum { FIX_LINE_MAX = 131071 + 1 };

/* The text behind locations for the report of what was fixed: lines read back from a pass's temporary. */
struct file_text {
	int fd;
	char *line;    /* FIX_LINE_MAX bytes */
};

static const char *file_line(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col)
{
	struct file_text *t = user;
	ssize_t n;
	const char *nl;

	*first_col = 1;
	do
		n = pread(t->fd, t->line, FIX_LINE_MAX, (off_t)loc->line_offset);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return NULL;
	nl = memchr(t->line, '\n', (size_t)n);
	*len = nl ? (size_t)(nl - t->line) : (size_t)n;
	if (*len && t->line[*len - 1] == '\r')
		(*len)--;
	return t->line;
}

/* Copies the bytes [from, to) of fd to out; 0, or -1 with errno set. */
static int copy_range(int fd, off_t from, off_t to, FILE *out)
{
	char buf[65536];

	while (from < to) {
		size_t want = (size_t)(to - from) < sizeof buf ? (size_t)(to - from) : sizeof buf;
		ssize_t n = pread(fd, buf, want, from);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* the temporary is ours: it cannot shrink */
			return -1;
		}
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			return -1;
		from += n;
	}
	return 0;
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
	FILE *texts[FIX_PASSES]; /* the text before each pass that fixed something (temporaries) */
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

/* Tells what a fix changed, in the text it was made in: a line of text, or an entry of the document. */
static void report_fix(struct run *run, const char *display, const struct fixit *x, FILE *text, char *line)
{
	struct file_text ft = { fileno(text), line };
	struct nvtxt_source src = { &ft, file_line };

	if (run->report) {
		struct nvtxt_diag d = x->d;
		d.fixit = x->text;
		nvtxt_report_fixed(run->report, display, &d, &src);
	} else {
		struct buf was = { 0 }, now = { 0 };
		ssize_t n = pread(ft.fd, line, x->len < FIX_LINE_MAX ? x->len : FIX_LINE_MAX, (off_t)x->offset);
		buf_add_shown(&was, line, n > 0 ? (size_t)n : 0, 80);
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
	char *line = written && log->n ? xmalloc(FIX_LINE_MAX) : NULL;

	if (written && log->n)
		qsort(log->v, log->n, sizeof *log->v, by_line);
	for (size_t i = 0; i < log->n; i++) {
		if (written)
			report_fix(run, display, &log->v[i].x, log->texts[log->v[i].pass], line);
		free(log->v[i].x.text);
	}
	free(line);
	for (int i = 0; i < log->npass; i++)
		fclose(log->texts[i]);
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
 * Applies the fix-its found (sorted by offset; the first of overlapping
 * ones) to the text of fd into next, and into the log; returns how many
 * it applied, or -1 when next could not be written (errno set).
 */
static int apply(struct fixits *found, int fd, FILE *next, struct fix_log *log)
{
	struct stat st;
	off_t at = 0;
	int applied = 0, err = 0;

	if (fstat(fd, &st) != 0)
		err = errno;
	for (size_t i = 0; i < found->n; i++) {
		struct fixit *x = &found->v[i];
		if (err || (off_t)x->offset < at || (off_t)(x->offset + x->len) > st.st_size) {
			free(x->text); /* overlaps one applied before (or the same fix-it twice) */
			continue;
		}
		if (copy_range(fd, at, (off_t)x->offset, next) != 0 || fputs(x->text, next) == EOF) {
			err = errno;
			free(x->text);
			continue;
		}
		at = (off_t)(x->offset + x->len);
		log_fix(log, x); /* the log owns x->text */
		applied++;
	}
	if (!err && (copy_range(fd, at, st.st_size, next) != 0 || fflush(next) != 0))
		err = errno;
	errno = err;
	return err ? -1 : applied;
}

/*
 * One pass: checks the text of *text and applies its fix-its into a new
 * temporary, which becomes *text (the one before is kept in the log, for
 * the report).  Returns how many it applied; -1 when a temporary could
 * not be written (reported).
 */
static int fix_pass(struct run *run, const char *display, FILE **text, struct fix_log *log)
{
	struct nvtxt_diag_config cfg = run->opt->diag;
	struct fixits found = { 0 };
	struct nvtxt_compile_options co = { .display_name = display, .diag_config = &cfg,
					    .sink = { &found, collect } };
	struct nvtxt_compile_result res;
	const char *dir = "/tmp";
	FILE *next = NULL;
	int applied = 0;

	cfg.max_errors = 0; /* every fix-it, not only those shown */
	co.fd = fileno(*text);
	lseek(co.fd, 0, SEEK_SET);
	nvtxt_compile(&co, &res);
	if (found.n) {
		qsort(found.v, found.n, sizeof(*found.v), by_offset);
		next = temp_stream(&dir);
		applied = next ? apply(&found, co.fd, next, log) : -1;
		if (!next)
			for (size_t i = 0; i < found.n; i++)
				free(found.v[i].text);
	}
	free(found.v);
	if (applied < 0) {
		io_error(&run->sink, NULL, "cannot write the fixed text of '%s' to a temporary file (unnamed, in '%s'): %s",
			 display, dir, strerror(errno));
	} else if (applied) {
		log->texts[log->npass++] = *text; /* kept for the report */
		*text = next;
		return applied;
	}
	if (next)
		fclose(next);
	return applied;
}

/* FILE '-': the fixed text on standard output, then what is left; the exit status. */
static int fix_stdin(struct run *run, const char *path, const char *display, FILE *text, struct fix_log *log)
{
	if (copy_stream(text, stdout) != 0 || fflush(stdout) != 0) {
		write_error_stdout(&run->sink, errno);
		end_log(run, display, log, false);
		return 2;
	}
	end_log(run, display, log, true);
	lseek(fileno(text), 0, SEEK_SET);
	return compile_one(run->opt, &run->sink, &run->totals, path, fileno(text), display, NULL, NULL, NULL);
}

/* Not to be fixed: a payload file (a note), or not text (the lint after says so). */
static bool leave_alone(struct run *run, const char *display, int fd)
{
	unsigned char probe[TEXT_PROBE];
	ssize_t n = pread(fd, probe, sizeof probe, 0);

	if (n >= 8 && nvtxt_payload_sniff(probe, 8)) {
		nvtxt_diag_report_unlocated(&run->sink, NVTXT_CHECK_USAGE, NVTXT_SEV_NOTE, display,
					    "a payload file: --fix leaves it as it is");
		return true;
	}
	return n > 0 && binary_offset(probe, (size_t)n) >= 0;
}

/* True when the file on fd is no longer as *was says (another process wrote it). */
static bool changed(int fd, const struct stat *was)
{
	struct stat now;

	return fstat(fd, &now) != 0 || now.st_size != was->st_size || now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
	       now.st_mtim.tv_nsec != was->st_mtim.tv_nsec;
}

static int fix_one(struct run *run, const char *path)
{
	const struct options *opt = run->opt;
	const char *display = input_display(opt, path);
	struct nvtxt_report_file *entry = NULL;
	struct fix_log log = { 0 };
	struct stat st;
	FILE *text;
	bool is_stdin, is_file = true;
	int fd, input, status = 0;

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
	/* a regular file is read where it is; standard input or a FIFO, from a copy */
	if (!is_stdin && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		text = fdopen(fd, "r");
		if (!text)
			close(fd);
	} else {
		text = spool_stream(fd);
		if (!is_stdin)
			close(fd);
		is_file = false;
	}
	if (!text || fstat(fileno(text), &st) != 0) {
		io_error(&run->sink, NULL, "cannot read '%s': %s", is_stdin ? "standard input" : path, strerror(errno));
		if (text)
			fclose(text);
		return 2;
	}
	input = fileno(text); /* open until the end: the first pass's text, in the log */
	if (entry)
		entry->size = (long long)st.st_size;
	if (!leave_alone(run, display, fileno(text)))
		for (int pass = 0, applied = 1; pass < FIX_PASSES && applied > 0; pass++) {
			applied = fix_pass(run, display, &text, &log);
			if (applied < 0)
				status = 2;
		}
	if (status == 0 && is_stdin) {
		status = fix_stdin(run, path, display, text, &log); /* it ends the log */
		fclose(text);
		return status;
	}
	if (status == 0 && log.n && is_file && changed(input, &st)) {
		io_error(&run->sink, NULL, "'%s' changed while --fix read it: not written (run --fix again)", path);
		status = 2;
	}
	if (status == 0 && log.n)
		status = rewrite_file(&run->sink, path, text);
	end_log(run, display, &log, status == 0);
	fclose(text);
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
