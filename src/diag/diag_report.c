/*
 * diag_report.c - the diagnostics of a run kept for a machine-readable
 * document (diag_report.h): copies of the records, their positions in
 * bytes and UTF-16 code units, and the text under them.
 */
#include <stdlib.h>
#include <string.h>

#include "diag_report.h"
#include "report_json.h"

void nvtxt_report_init(struct nvtxt_report *r)
{
	memset(r, 0, sizeof(*r));
}

static void loc_free(struct nvtxt_report_loc *l)
{
	free(l->snippet);
	free(l->line_text);
}

static void diag_free(struct nvtxt_report_diag *d)
{
	loc_free(&d->loc);
	free(d->message);
	free(d->fixit);
	for (size_t i = 0; i < d->nnotes; i++) {
		loc_free(&d->notes[i].loc);
		free(d->notes[i].message);
	}
	free(d->notes);
}

static void file_free(struct nvtxt_report_file *f)
{
	for (size_t i = 0; i < f->ndiags; i++)
		diag_free(&f->diags[i]);
	free(f->diags);
	for (size_t i = 0; i < f->nfixes; i++) {
		loc_free(&f->fixes[i].loc);
		free(f->fixes[i].original);
		free(f->fixes[i].replacement);
	}
	free(f->fixes);
	free(f->name);
}

void nvtxt_report_free(struct nvtxt_report *r)
{
	for (size_t i = 0; i < r->nfiles; i++)
		file_free(&r->files[i]);
	free(r->files);
	for (size_t i = 0; i < r->nrun_diags; i++)
		diag_free(&r->run_diags[i]);
	free(r->run_diags);
	memset(r, 0, sizeof(*r));
}

struct nvtxt_report_file *nvtxt_report_input(struct nvtxt_report *r, const char *name, bool unnamed)
{
	struct nvtxt_report_file *f;

	r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
	f = &r->files[r->nfiles++];
	memset(f, 0, sizeof(*f));
	f->name = xstrndup(name, strlen(name));
	f->unnamed = unnamed;
	f->size = -1;
	return f;
}

struct nvtxt_report_file *nvtxt_report_file(struct nvtxt_report *r, const char *name)
{
	for (size_t i = r->nfiles; i-- > 0;)
		if (strcmp(r->files[i].name, name) == 0)
			return &r->files[i];
	return nvtxt_report_input(r, name, false);
}

/* UTF-16 code units in text[0..n): a malformed byte counts as one U+FFFD. */
static uint32_t utf16_units(const char *text, size_t n)
{
	uint32_t units = 0;

	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq((const unsigned char *)text + i, n - i);
		units += k == 4 ? 2 : 1;
		i += k ? k : 1;
	}
	return units;
}

/*
 * Counts the UTF-16 code units of bytes [0, upto) of loc's line, read
 * through src in the windows it gives (a long line is read a window at a
 * time); false when the line is not available or shorter.
 */
static bool units_before(const struct nvtxt_source *src, const struct nvtxt_loc *loc, size_t upto,
			 uint32_t *units)
{
	size_t at = 0;
	uint32_t u = 0;

	while (at < upto) {
		struct nvtxt_loc w = *loc;
		const char *text;
		size_t len = 0, off, i, limit;
		uint32_t first_col = 0;

		w.col = (uint32_t)(at + 1);
		w.len = 0;
		text = src->line(src->user, &w, &len, &first_col);
		if (!text || first_col < 1 || first_col > at + 1 || (off = at + 1 - first_col) >= len)
			return false;
		limit = len - off < upto - at ? len : off + (upto - at);
		for (i = off; i < limit;) {
			size_t k = utf8_seq((const unsigned char *)text + i, len - i);
			if (!k && len - i < 4 && i > off)
				break; /* maybe a character cut by the window: read on from it */
			u += k == 4 ? 2 : 1;
			i += k ? k : 1;
		}
		at += i - off;
	}
	*units = u;
	return true;
}

/*
 * Fills `out` from `loc`: columns in UTF-16 code units and the text of
 * the span and of its line, as far as the source gives them.
 */
static void copy_loc(struct nvtxt_report_loc *out, const struct nvtxt_loc *loc,
		     const struct nvtxt_source *src)
{
	struct nvtxt_loc at;
	const char *text;
	size_t len = 0, from;
	uint32_t first_col = 0, before;

	memset(out, 0, sizeof(*out));
	if (!loc->line)
		return;
	out->line = loc->line;
	out->col = loc->col ? loc->col : 1;
	out->end_col = out->col + loc->len;
	/* nothing comes before column 1, and an empty span ends where it starts: no text needed */
	if (out->col == 1)
		before = 0;
	else if (!src || !units_before(src, loc, out->col - 1, &before))
		return;
	out->col16 = before + 1;
	if (loc->len == 0)
		out->end_col16 = out->col16;
	if (!src)
		return;
	/* the span, from a window that starts at or before it */
	at = *loc;
	at.col = out->col;
	text = src->line(src->user, &at, &len, &first_col);
	if (!text || first_col < 1 || first_col > out->col)
		return;
	from = out->col - first_col;
	if (from + loc->len > len)
		return;
	out->end_col16 = out->col16 + utf16_units(text + from, loc->len);
	out->snippet = xstrndup(text + from, loc->len);
	/* the whole line, when the source has it whole */
	at.col = 1;
	text = src->line(src->user, &at, &len, &first_col);
	if (text && first_col == 1 && len < 4096) /* a longer one may be cut (FRONTEND_LINE_KEEP) */
		out->line_text = xstrndup(text, len);
}

static void copy_diag(struct nvtxt_report_diag *out, const struct nvtxt_diag *d,
		      const struct nvtxt_source *src)
{
	memset(out, 0, sizeof(*out));
	out->check = d->check;
	out->severity = d->severity;
	out->promoted = d->promoted;
	copy_loc(&out->loc, &d->loc, src);
	out->message = xstrndup(d->message, strlen(d->message));
	if (d->fixit)
		out->fixit = xstrndup(d->fixit, strlen(d->fixit));
	if (d->nnotes) {
		out->notes = xcalloc(d->nnotes, sizeof(*out->notes));
		out->nnotes = d->nnotes;
		for (size_t i = 0; i < d->nnotes; i++) {
			copy_loc(&out->notes[i].loc, &d->notes[i].loc, src);
			out->notes[i].message = xstrndup(d->notes[i].message, strlen(d->notes[i].message));
		}
	}
}

void nvtxt_report_sink(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct nvtxt_report *r = user;

	if (!d->file) {
		r->run_diags = xrealloc(r->run_diags, (r->nrun_diags + 1) * sizeof(*r->run_diags));
		copy_diag(&r->run_diags[r->nrun_diags++], d, src);
	} else {
		struct nvtxt_report_file *f = nvtxt_report_file(r, d->file);
		void *p = f->diags;
		xgrow(&p, &f->diags_cap, f->ndiags + 1, sizeof(*f->diags));
		f->diags = p;
		copy_diag(&f->diags[f->ndiags++], d, src);
	}
}

void nvtxt_report_fixed(struct nvtxt_report *r, const char *name, const struct nvtxt_diag *d,
			const struct nvtxt_source *src)
{
	struct nvtxt_report_file *f = nvtxt_report_file(r, name);
	struct nvtxt_report_fix *x;

	f->fixes = xrealloc(f->fixes, (f->nfixes + 1) * sizeof(*f->fixes));
	x = &f->fixes[f->nfixes++];
	memset(x, 0, sizeof(*x));
	x->check = d->check;
	copy_loc(&x->loc, &d->loc, src);
	x->original = x->loc.snippet ? xstrndup(x->loc.snippet, strlen(x->loc.snippet)) : NULL;
	x->replacement = xstrndup(d->fixit ? d->fixit : "", d->fixit ? strlen(d->fixit) : 0);
}

void nvtxt_report_move(struct nvtxt_report *to, struct nvtxt_report *from)
{
	/* each entry is an input of the command line: appended as it is, never merged */
	to->files = xrealloc(to->files, (to->nfiles + from->nfiles + 1) * sizeof(*to->files));
	for (size_t i = 0; i < from->nfiles; i++)
		to->files[to->nfiles++] = from->files[i];
	free(from->files);
	from->files = NULL;
	from->nfiles = 0;
	to->run_diags = xrealloc(to->run_diags, (to->nrun_diags + from->nrun_diags + 1) * sizeof(*to->run_diags));
	for (size_t i = 0; i < from->nrun_diags; i++)
		to->run_diags[to->nrun_diags++] = from->run_diags[i];
	free(from->run_diags);
	from->run_diags = NULL;
	from->nrun_diags = 0;
}

/* --- shared by the JSON and SARIF writers ------------------------------- */

json_t *report_json_string(const char *s)
{
	struct buf b = { 0 };
	size_t n = strlen(s);
	json_t *j;

	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k) {
			buf_add(&b, s + i, k);
			i += k;
		} else {
			buf_adds(&b, "\xEF\xBF\xBD"); /* U+FFFD */
			i++;
		}
	}
	j = json_stringn(b.ptr ? b.ptr : "", b.len);
	buf_free(&b);
	return j;
}

int report_json_dump(json_t *doc, FILE *out)
{
	int rc;

	if (!doc)
		return -1;
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc != 0 || fputc('\n', out) == EOF || fflush(out) != 0 || ferror(out))
		return -1;
	return 0;
}

const char *report_severity_name(enum nvtxt_severity sev)
{
	switch (sev) {
	case NVTXT_SEV_ERROR:
		return "error";
	case NVTXT_SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}
