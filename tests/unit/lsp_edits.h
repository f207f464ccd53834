/*
 * lsp_edits.h - what the language server's random-edit tests share
 * (lsp_incr.c, lsp_tokens.c): growable text, reading a file, the lines of
 * a text, and one random edit of a document (a line replaced, inserted or
 * deleted, a byte range cut across lines, a line break added or removed,
 * a few bytes typed), its random values from tap.h's tap_rand.
 */
#ifndef LSP_EDITS_H
#define LSP_EDITS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_doc.h"
#include "tap.h"

struct text {
	char *p;
	size_t n;
};

static inline void add(struct text *t, const char *s, size_t n)
{
	t->p = realloc(t->p, t->n + n + 1);
	memcpy(t->p + t->n, s, n);
	t->n += n;
	t->p[t->n] = '\0';
}

static inline bool slurp(const char *path, struct text *t)
{
	FILE *f = fopen(path, "rb");
	char b[65536];
	size_t n;

	if (!f)
		return false;
	while ((n = fread(b, 1, sizeof b, f)) > 0)
		add(t, b, n);
	fclose(f);
	return true;
}

/* The lines of t as a list, each cut to 200 bytes (for the pool of replacements). */
static inline size_t split(const struct text *t, struct text **out)
{
	size_t n = 0, cap = 0;
	const char *p = t->p, *end = t->p + t->n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			*out = realloc(*out, cap * sizeof(**out));
		}
		(*out)[n].p = strndup(p, len > 200 ? 200 : len);
		(*out)[n].n = len > 200 ? 200 : len;
		n++;
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* The byte range of line k (its line break included) of d. */
static inline void line_range(const struct lsp_doc *d, size_t k, size_t *a, size_t *b)
{
	*a = d->lines[k];
	*b = k + 1 < d->nlines ? d->lines[k + 1] : d->len;
}

/* The words a random edit may type, and the lines it may put in. */
struct edit_words {
	const char *const *pool; /* whole lines: definitions, assignments, broken lines */
	size_t npool;
	const char *const *typed; /* a few bytes typed into a line */
	size_t ntyped;
};

/* One random edit of d, with a line of the pool or of `lines` (nlines of them, may be 0). */
static inline void random_edit(struct lsp_doc *d, const struct text *lines, size_t nlines, const struct edit_words *w)
{
	size_t k = tap_rand() % d->nlines, a, b, e;
	const char *pick = tap_rand() % 3 && nlines ? lines[tap_rand() % nlines].p : w->pool[tap_rand() % w->npool];
	char buf[512];

	line_range(d, k, &a, &b);
	e = b > a && d->text[b - 1] == '\n' ? b - 1 : b;
	switch (tap_rand() % 9) {
	case 0: case 1: case 2: /* a line's content replaced */
		lsp_doc_replace(d, a, e, pick, strlen(pick));
		break;
	case 3: case 4: /* a line inserted */
		snprintf(buf, sizeof buf, "%s\n", pick);
		lsp_doc_replace(d, a, a, buf, strlen(buf));
		break;
	case 5: /* lines deleted */
		line_range(d, k + tap_rand() % 3 < d->nlines ? k + tap_rand() % 3 : k, &e, &b);
		lsp_doc_replace(d, a, b, "", 0);
		break;
	case 6: { /* a byte range cut, maybe across lines */
		size_t x = tap_rand() % (d->len + 1), y = x + tap_rand() % 80;
		lsp_doc_replace(d, x, y > d->len ? d->len : y, "", 0);
		break;
	}
	case 7: /* a line break inserted in a line, or one removed */
		if (tap_rand() % 2)
			lsp_doc_replace(d, a + (e > a ? tap_rand() % (e - a) : 0), a + (e > a ? tap_rand() % (e - a) : 0), "\n", 1);
		else if (e < d->len)
			lsp_doc_replace(d, e, e + 1, "", 0);
		break;
	default: { /* a few bytes typed in a line */
		size_t at = a + (e > a ? tap_rand() % (e - a + 1) : 0);
		const char *t = w->typed[tap_rand() % w->ntyped];
		lsp_doc_replace(d, at, at, t, strlen(t));
		break;
	}
	}
}

#endif
