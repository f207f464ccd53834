/*
 * lsp_doc.c - document text, line index and position conversion.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp_doc.h"
#include "util.h"

static void add_line(struct lsp_doc *d, size_t *n, size_t start)
{
	if (*n + 1 > d->lines_cap) {
		void *v = d->lines;
		xgrow(&v, &d->lines_cap, *n + 1, sizeof(*d->lines));
		d->lines = v;
	}
	d->lines[(*n)++] = (uint32_t)start;
}

static void index_lines(struct lsp_doc *d)
{
	const char *t = d->text;
	size_t n = 0;

	add_line(d, &n, 0);
	if (!memchr(t, '\r', d->len)) {
		/* the common case: LF only */
		const char *p = t, *end = t + d->len, *nl;
		while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
			p = nl + 1;
			add_line(d, &n, (size_t)(p - t));
		}
	} else {
		for (size_t i = 0; i < d->len; i++) {
			if (t[i] == '\r' && i + 1 < d->len && t[i + 1] == '\n')
				i++;
			else if (t[i] != '\n' && t[i] != '\r')
				continue;
			add_line(d, &n, i + 1);
		}
	}
	d->nlines = n;
	/* keep memory proportional to the text after a large edit shrank it */
	if (d->lines_cap > 1024 && d->lines_cap > 4 * n) {
		d->lines_cap = n;
		d->lines = xrealloc(d->lines, n * sizeof(*d->lines));
	}
}

struct lsp_doc *lsp_doc_new(const char *uri, const char *text, size_t len, int64_t version)
{
	struct lsp_doc *d = xcalloc(1, sizeof(*d));

	d->uri = xstrndup(uri, strlen(uri));
	d->key = lsp_uri_key(uri);
	d->cap = len + 1;
	d->text = xmalloc(d->cap);
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	d->len = len;
	d->version = version;
	index_lines(d);
	return d;
}

void lsp_doc_clear_fixes(struct lsp_doc *d)
{
	for (size_t i = 0; i < d->nfixes; i++) {
		free(d->fixes[i].text);
		free(d->fixes[i].message);
		free(d->fixes[i].code);
	}
	free(d->fixes);
	d->fixes = NULL;
	d->nfixes = d->fixes_cap = 0;
}

void lsp_doc_free(struct lsp_doc *d)
{
	if (!d)
		return;
	lsp_doc_clear_fixes(d);
	lsp_index_free(d->index);
	lsp_tokens_free(d->tokens);
	lsp_incr_free(d->incr);
	free(d->uri);
	free(d->key);
	free(d->text);
	free(d->lines);
	free(d);
}

size_t lsp_doc_line_end(const struct lsp_doc *d, size_t line)
{
	size_t end;

	if (line + 1 >= d->nlines)
		return d->len;
	end = d->lines[line + 1];
	if (end > d->lines[line] && d->text[end - 1] == '\n')
		end--;
	if (end > d->lines[line] && d->text[end - 1] == '\r')
		end--;
	return end;
}

size_t lsp_doc_line_of(const struct lsp_doc *d, size_t off)
{
	size_t lo = 0, hi = d->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Bytes and units of the character at p (n bytes left): a malformed byte is one of each. */
static size_t char_at(const char *p, size_t n, enum lsp_encoding enc, uint32_t *units)
{
	size_t k = utf8_seq((const unsigned char *)p, n);

	if (k == 0)
		k = 1;
	*units = enc == LSP_ENC_UTF8 ? (uint32_t)k : k == 4 ? 2 : 1;
	return k;
}

bool lsp_doc_offset(const struct lsp_doc *d, enum lsp_encoding enc, struct lsp_pos p, size_t *off)
{
	size_t at, end;
	uint32_t col = 0, u;

	if (p.line >= d->nlines)
		return false;
	at = d->lines[p.line];
	end = lsp_doc_line_end(d, p.line);
	while (at < end && col < p.character) {
		size_t k = char_at(d->text + at, end - at, enc, &u);
		/* a position inside a character (half a surrogate pair) is taken as its end */
		col += u;
		at += k;
	}
	*off = at;
	return true;
}

struct lsp_pos lsp_doc_pos(const struct lsp_doc *d, enum lsp_encoding enc, size_t off)
{
	struct lsp_pos p;
	size_t at, line;
	uint32_t u;

	if (off > d->len)
		off = d->len;
	line = lsp_doc_line_of(d, off);
	p.line = (uint32_t)line;
	p.character = 0;
	at = d->lines[line];
	if (enc == LSP_ENC_UTF8) {
		p.character = (uint32_t)(off - at);
		return p;
	}
	while (at < off) {
		at += char_at(d->text + at, d->len - at, enc, &u);
		p.character += u;
	}
	return p;
}

size_t lsp_count_lf(const char *p, size_t n)
{
	size_t k = 0;
	const char *end = p + n;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL)
		p++, k++;
	return k;
}

/* Widens what changed since the index (lsp_doc.ix_edited and the rest) by an edit. */
static void note_index_edit(struct lsp_doc *d, size_t start, size_t end, int64_t nl)
{
	if (!d->ix_edited) {
		d->ix_edited = true;
		d->ix_pre = start;
		d->ix_suf = d->len;
		d->ix_nl = 0;
	}
	if (start < d->ix_pre)
		d->ix_pre = start;
	if (d->len - end < d->ix_suf)
		d->ix_suf = d->len - end;
	d->ix_nl += nl;
}

/* Notes what an edit changed since the last check (lsp_doc.edited and the rest) and since the index. */
static void note_edit(struct lsp_doc *d, size_t start, size_t end, const char *text, size_t n)
{
	size_t suf = d->len - end;
	int64_t nl = (int64_t)lsp_count_lf(text, n) - (int64_t)lsp_count_lf(d->text + start, end - start);

	if (!d->edited) {
		d->edited = true;
		d->edit_pre = start;
		d->edit_suf = d->len;
		d->edit_nl = 0;
		d->edit_tail_nl = true; /* the unchanged end starts at byte 0 */
	}
	if (start < d->edit_pre)
		d->edit_pre = start;
	if (suf < d->edit_suf) {
		/* the byte before the end of the unchanged part is still the old text's */
		d->edit_suf = suf;
		d->edit_tail_nl = end == 0 || d->text[end - 1] == '\n';
	}
	d->edit_nl += nl;
	note_index_edit(d, start, end, nl);
}

/*
 * Re-indexes the lines after bytes [start, end) became n bytes: the
 * lines before the edit stay, those well after it move by the bytes'
 * difference, and only the lines between are found again (a '\r\n' that
 * an edit splits or joins included).
 */
static void reindex_lines(struct lsp_doc *d, size_t start, size_t end, size_t n)
{
	size_t la = lsp_doc_line_of(d, start), k = la + 1, from, e, nt, add = 0, cap = 0;
	int64_t delta = (int64_t)n - (int64_t)(end - start);
	uint32_t *mid = NULL;
	const char *t = d->text;

	while (k < d->nlines && d->lines[k] <= end + 1)
		k++;
	from = d->lines[la];
	e = k < d->nlines ? (size_t)((int64_t)d->lines[k] + delta) : d->len + 1;
	for (size_t i = from; i < e && i < d->len; i++) {
		if (t[i] == '\r' && i + 1 < d->len && t[i + 1] == '\n')
			i++;
		else if (t[i] != '\n' && t[i] != '\r')
			continue;
		if (i + 1 < e) {
			void *p = mid;
			xgrow(&p, &cap, add + 1, sizeof(*mid));
			mid = p;
			mid[add++] = (uint32_t)(i + 1);
		}
	}
	nt = d->nlines - k;
	if (la + 1 + add + nt > d->lines_cap) {
		void *p = d->lines;
		xgrow(&p, &d->lines_cap, la + 1 + add + nt, sizeof(*d->lines));
		d->lines = p;
	}
	memmove(d->lines + la + 1 + add, d->lines + k, nt * sizeof(*d->lines));
	if (add)
		memcpy(d->lines + la + 1, mid, add * sizeof(*mid));
	for (size_t i = la + 1 + add; i < la + 1 + add + nt; i++)
		d->lines[i] = (uint32_t)((int64_t)d->lines[i] + delta);
	d->nlines = la + 1 + add + nt;
	free(mid);
}

void lsp_doc_replace(struct lsp_doc *d, size_t start, size_t end, const char *text, size_t n)
{
	size_t newlen = d->len - (end - start) + n;
	bool big = end - start > 65536 || n > 65536;

	note_edit(d, start, end, text, n);
	if (newlen + 1 > d->cap) {
		size_t cap = d->cap * 2 > newlen + 1 ? d->cap * 2 : newlen + 1;
		d->text = xrealloc(d->text, cap);
		d->cap = cap;
	}
	if (start + n != end)
		memmove(d->text + start + n, d->text + end, d->len - end);
	memcpy(d->text + start, text, n);
	d->len = newlen;
	d->text[newlen] = '\0';
	d->gen++;
	/* bounded by the text: give back what a large deletion freed */
	if (d->cap > 65536 && d->cap > 2 * (newlen + 1)) {
		d->cap = newlen + 1;
		d->text = xrealloc(d->text, d->cap);
	}
	/* a small edit moves the lines after it; a large one indexes them again */
	if (big)
		index_lines(d);
	else
		reindex_lines(d, start, end, n);
}
