/*
 * diag.c - diagnostics: the engine (levels, counting, --max-errors) and the
 * GCC-format text printer with source excerpts and carets.
 */
#include <stdlib.h>
#include <string.h>

#include "diag_engine.h"

void nvtxt_diag_config_init(struct nvtxt_diag_config *cfg)
{
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		cfg->level[i] = nvtxt_check_get((enum nvtxt_check_id)i)->severity == NVTXT_SEV_ERROR
					? NVTXT_LEVEL_ERROR : NVTXT_LEVEL_WARN;
	cfg->max_errors = 50;
}

void nvtxt_diags_init(struct nvtxt_diags *e, const struct nvtxt_diag_config *cfg,
		      struct nvtxt_diag_sink sink, const char *file)
{
	memset(e, 0, sizeof(*e));
	e->config = cfg;
	e->sink = sink;
	e->file = file;
}

static char *vformat(const char *fmt, va_list ap)
{
	struct buf b = { 0 };
	buf_vprintf(&b, fmt, ap);
	if (!b.ptr)
		return tmp_strndup("", 0);
	return b.ptr;
}

static struct nvtxt_diag *vbegin(struct nvtxt_diags *e, enum nvtxt_check_id check,
				 const struct nvtxt_loc *loc, const char *fmt, va_list ap)
{
	struct nvtxt_diag *d;
	bool error_check = nvtxt_check_get(check)->severity == NVTXT_SEV_ERROR;

	if (!error_check && e->config->level[check] == NVTXT_LEVEL_OFF)
		return NULL;
	d = tmp_alloc(sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->check = check;
	if (error_check) {
		d->severity = NVTXT_SEV_ERROR;
	} else if (e->config->level[check] == NVTXT_LEVEL_ERROR) {
		d->severity = NVTXT_SEV_ERROR;
		d->promoted = true;
	} else {
		d->severity = NVTXT_SEV_WARNING;
	}
	d->file = e->file;
	if (loc)
		d->loc = *loc;
	d->message = vformat(fmt, ap);
	return d;
}

struct nvtxt_diag *diag_begin(struct nvtxt_diags *e, enum nvtxt_check_id check,
			      const struct nvtxt_loc *loc, const char *fmt, ...)
{
	struct nvtxt_diag *d;
	va_list ap;

	va_start(ap, fmt);
	d = vbegin(e, check, loc, fmt, ap);
	va_end(ap);
	return d;
}

void diag_note(struct nvtxt_diag *d, const struct nvtxt_loc *loc, const char *fmt, ...)
{
	va_list ap;
	struct nvtxt_note *n;

	if (!d)
		return;
	d->notes = tmp_realloc(d->notes, (d->nnotes + 1) * sizeof(*d->notes));
	n = &d->notes[d->nnotes++];
	memset(n, 0, sizeof(*n));
	if (loc)
		n->loc = *loc;
	va_start(ap, fmt);
	n->message = vformat(fmt, ap);
	va_end(ap);
}

void diag_fixit(struct nvtxt_diag *d, const char *text)
{
	if (!d)
		return;
	tmp_free(d->fixit);
	d->fixit = NULL;
	d->fixit = tmp_strndup(text, strlen(text));
}

static void diag_free(struct nvtxt_diag *d)
{
	for (size_t i = 0; i < d->nnotes; i++)
		tmp_free(d->notes[i].message);
	tmp_free(d->notes);
	tmp_free(d->message);
	tmp_free(d->fixit);
	tmp_free(d);
}

void diag_end(struct nvtxt_diags *e, struct nvtxt_diag *d)
{
	unsigned long *count, *hidden;

	if (!d)
		return;
	if (supp_covers(&e->supp, d->check, d->loc.line)) {
		diag_free(d);
		return;
	}
	if (d->severity == NVTXT_SEV_ERROR) {
		count = &e->errors;
		hidden = &e->hidden_errors;
	} else {
		count = &e->warnings;
		hidden = &e->hidden_warnings;
	}
	if (e->config->max_errors && *count >= e->config->max_errors)
		(*hidden)++;
	else if (e->sink.report)
		e->sink.report(e->sink.user, d, e->source);
	(*count)++;
	diag_free(d);
}

/* --- suppression comments (suppress.c): its reports become diagnostics -- */

static void supp_report(void *user, enum nvtxt_check_id check, const struct nvtxt_loc *loc,
			const char *fixit, const char *fmt, ...)
{
	struct nvtxt_diags *e = user;
	struct nvtxt_diag *d;
	va_list ap;

	va_start(ap, fmt);
	d = vbegin(e, check, loc, fmt, ap);
	va_end(ap);
	if (fixit)
		diag_fixit(d, fixit);
	diag_end(e, d);
}

void diag_comment(struct nvtxt_diags *e, const char *text, size_t len, const struct nvtxt_loc *at)
{
	supp_comment(&e->supp, text, len, at, supp_report, e);
}

void diag_instruction(struct nvtxt_diags *e, uint32_t line)
{
	supp_instruction(&e->supp, line);
}

void diag_finish(struct nvtxt_diags *e)
{
	supp_finish(&e->supp, e->config->level, supp_report, e);
}

bool diag_would_show(const struct nvtxt_diags *e, enum nvtxt_severity sev)
{
	unsigned long n = sev == NVTXT_SEV_ERROR ? e->errors : e->warnings;
	return !e->config->max_errors || n < e->config->max_errors;
}

void diag_error(struct nvtxt_diags *e, enum nvtxt_check_id check, const struct nvtxt_loc *loc,
		const char *fmt, ...)
{
	struct nvtxt_diag *d;
	va_list ap;

	d = diag_begin(e, check, loc, "%s", "");
	if (!d)
		return;
	va_start(ap, fmt);
	tmp_free(d->message);
	d->message = NULL;
	d->message = vformat(fmt, ap);
	va_end(ap);
	diag_end(e, d);
}

void nvtxt_diag_vreport_unlocated(const struct nvtxt_diag_sink *sink, enum nvtxt_check_id check,
				  enum nvtxt_severity sev, const char *file, const char *fmt, va_list ap)
{
	struct nvtxt_diag d = { .severity = sev, .check = check, .file = file };

	d.message = vformat(fmt, ap);
	if (sink->report)
		sink->report(sink->user, &d, NULL);
	tmp_free(d.message);
}

void nvtxt_diag_report_unlocated(const struct nvtxt_diag_sink *sink, enum nvtxt_check_id check,
				 enum nvtxt_severity sev, const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nvtxt_diag_vreport_unlocated(sink, check, sev, file, fmt, ap);
	va_end(ap);
}

/* --- the text printer ---------------------------------------------------- */

#define SGR_BOLD "\033[1m"
#define SGR_RED "\033[1;31m"
#define SGR_MAGENTA "\033[1;35m"
#define SGR_CYAN "\033[1;36m"
#define SGR_GREEN "\033[32m"
#define SGR_RESET "\033[0m"

/* Longest excerpt shown; longer lines are cut to a window around the caret. */
enum { EXCERPT_MAX = 160 };

static void put_sgr(struct nvtxt_text_printer *p, const char *sgr)
{
	if (p->color)
		fputs(sgr, p->out);
}

enum { TAB_STOP = 8 };

/* The code point of the well-formed UTF-8 sequence p[0..n) (utf8_seq). */
static uint32_t utf8_decode(const unsigned char *p, size_t n)
{
	uint32_t cp = n == 2 ? p[0] & 0x1f : n == 3 ? p[0] & 0x0f : p[0] & 0x07;

	for (size_t k = 1; k < n; k++)
		cp = cp << 6 | (p[k] & 0x3f);
	return cp;
}

/*
 * One character of an excerpt (text[i..], shown up to `to`) as printed at
 * display column col: its bytes in *n and its columns, the return value.
 * A tab runs to the next multiple of TAB_STOP (and is printed as blanks),
 * a character counts display_width() columns, a byte that cannot be shown
 * (a control character, invalid UTF-8, a character cut by `to`) is one
 * '?'.  GCC's -fdiagnostics-column-unit=display, -ftabstop=8.
 */
static unsigned excerpt_char(const char *text, size_t len, size_t i, size_t to, unsigned col, size_t *n)
{
	const unsigned char *p = (const unsigned char *)text + i;
	size_t k = utf8_seq(p, len - i);

	*n = 1;
	if (p[0] == '\t')
		return TAB_STOP - col % TAB_STOP;
	if (k > 1 && i + k <= to) {
		*n = k;
		return display_width(utf8_decode(p, k));
	}
	return 1;
}

/* Prints text[from..to) as the excerpt shows it: tabs as blanks, unshowable bytes as '?'. */
static void put_excerpt(FILE *out, const char *text, size_t len, size_t from, size_t to)
{
	unsigned col = 0;

	for (size_t i = from, n; i < to; i += n) {
		unsigned w = excerpt_char(text, len, i, to, col, &n);
		unsigned char c = (unsigned char)text[i];
		if (c == '\t')
			fprintf(out, "%*s", (int)w, "");
		else if (n > 1)
			fwrite(text + i, 1, n, out);
		else
			putc(c >= 0x20 && c < 0x7f ? c : '?', out);
		col += w;
	}
}

/* The display column (from 0 at `from`) where text[at] is shown. */
static unsigned display_col(const char *text, size_t len, size_t from, size_t to, size_t at)
{
	unsigned col = 0;

	for (size_t i = from, n; i < at && i < to; i += n)
		col += excerpt_char(text, len, i, to, col, &n);
	return col;
}

static void print_excerpt(struct nvtxt_text_printer *p, const struct nvtxt_source *src,
			  const struct nvtxt_loc *loc, const char *fixit)
{
	const char *text;
	size_t len, from, to, caret, span;
	uint32_t first_col = 1;
	bool before, after;
	char num[16];
	int width;
	unsigned col, end;

	if (!src || !loc->line)
		return;
	text = src->line(src->user, loc, &len, &first_col);
	if (!text || loc->col < first_col)
		return;
	caret = loc->col ? loc->col - first_col : 0;
	if (caret > len)
		caret = len;
	span = loc->len;
	if (caret + span > len)
		span = len - caret;
	from = 0;
	to = len;
	if (len > EXCERPT_MAX) {
		from = caret > EXCERPT_MAX / 2 ? caret - EXCERPT_MAX / 2 : 0;
		to = from + EXCERPT_MAX < len ? from + EXCERPT_MAX : len;
		if (span > to - caret)
			span = to - caret;
	}
	/* "..." where the shown part of the line does not reach its start or its end */
	before = from > 0 || first_col > 1;
	after = to < len;
	snprintf(num, sizeof(num), "%u", (unsigned)loc->line);
	width = strlen(num) > 4 ? (int)strlen(num) : 4;
	fprintf(p->out, " %*s | ", width, num);
	if (before)
		fputs("...", p->out);
	put_excerpt(p->out, text, len, from, to);
	if (after)
		fputs("...", p->out);
	fputc('\n', p->out);

	/* the caret and the underline by display columns: '^' over the first column, '~' over the others */
	col = display_col(text, len, from, to, caret);
	end = display_col(text, len, from, to, caret + span);
	fprintf(p->out, " %*s | %s%*s", width, "", before ? "   " : "", (int)col, "");
	put_sgr(p, SGR_GREEN);
	putc('^', p->out);
	for (unsigned k = col + 1; k < end; k++)
		putc('~', p->out);
	put_sgr(p, SGR_RESET);
	fputc('\n', p->out);

	if (fixit) {
		fprintf(p->out, " %*s | %s%*s", width, "", before ? "   " : "", (int)col, "");
		put_sgr(p, SGR_GREEN);
		fputs(fixit, p->out);
		put_sgr(p, SGR_RESET);
		fputc('\n', p->out);
	}
}

static void print_head(struct nvtxt_text_printer *p, const char *file,
		       const struct nvtxt_loc *loc, const char *sgr, const char *what,
		       const char *message)
{
	put_sgr(p, SGR_BOLD);
	if (!file)
		fputs("nvtxtc:", p->out);
	else if (loc->line)
		fprintf(p->out, "%s:%u:%u:", file, (unsigned)loc->line, (unsigned)loc->col);
	else
		fprintf(p->out, "%s:", file);
	put_sgr(p, SGR_RESET);
	putc(' ', p->out);
	put_sgr(p, sgr);
	fprintf(p->out, "%s:", what);
	put_sgr(p, SGR_RESET);
	fprintf(p->out, " %s", message);
}

void nvtxt_print_diag(struct nvtxt_text_printer *p, const struct nvtxt_diag *d,
		      const struct nvtxt_source *src)
{
	bool error = d->severity == NVTXT_SEV_ERROR;

	print_head(p, d->file, &d->loc,
		   error ? SGR_RED : d->severity == NVTXT_SEV_NOTE ? SGR_CYAN : SGR_MAGENTA,
		   error ? "error" : d->severity == NVTXT_SEV_NOTE ? "note" : "warning", d->message);
	if (d->severity == NVTXT_SEV_NOTE)
		; /* a note of the driver (not formatted, not shown) names no check */
	else if (nvtxt_check_get(d->check)->severity == NVTXT_SEV_ERROR)
		fprintf(p->out, " [%s]", nvtxt_check_get(d->check)->name);
	else
		fprintf(p->out, " [-W%s%s]", d->promoted ? "error=" : "", nvtxt_check_get(d->check)->name);
	fputc('\n', p->out);
	print_excerpt(p, src, &d->loc, d->fixit);
	for (size_t i = 0; i < d->nnotes; i++) {
		print_head(p, d->file, &d->notes[i].loc, SGR_CYAN, "note", d->notes[i].message);
		fputc('\n', p->out);
		print_excerpt(p, src, &d->notes[i].loc, NULL);
	}
}

void nvtxt_text_printer_report(void *user, const struct nvtxt_diag *d,
			       const struct nvtxt_source *src)
{
	nvtxt_print_diag(user, d, src);
}
