/*
 * capture.h - a diagnostic sink for the unit tests that keeps a copy of
 * every diagnostic it receives (severity, warning, promotion, location,
 * message, fix-it and the notes), so a test can assert on them exactly.
 */
#ifndef CAPTURE_H
#define CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag_engine.h"

struct cap_note {
	struct nvtxt_loc loc;
	char *message;
};

struct cap_diag {
	enum nvtxt_severity severity;
	enum nvtxt_check_id check;
	int promoted;
	struct nvtxt_loc loc;
	char *file;
	char *message;
	char *fixit;
	char *excerpt;        /* the source line behind loc, when the sink had a source */
	struct cap_note *notes;
	size_t nnotes;
};

struct capture {
	struct cap_diag *d;
	size_t n, cap;
};

static char *cap_strdup(const char *s)
{
	size_t n;
	char *p;

	if (!s)
		return NULL;
	n = strlen(s);
	p = malloc(n + 1);
	if (!p)
		abort();
	memcpy(p, s, n + 1);
	return p;
}

static void cap_report(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src)
{
	struct capture *c = user;
	struct cap_diag *x;

	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->d = realloc(c->d, c->cap * sizeof(*c->d));
		if (!c->d)
			abort();
	}
	x = &c->d[c->n++];
	memset(x, 0, sizeof(*x));
	x->severity = d->severity;
	x->check = d->check;
	x->promoted = d->promoted;
	x->loc = d->loc;
	x->file = cap_strdup(d->file);
	x->message = cap_strdup(d->message);
	x->fixit = cap_strdup(d->fixit);
	if (src && src->line && d->loc.line) {
		size_t len = 0;
		uint32_t first_col = 1;
		const char *t = src->line(src->user, &d->loc, &len, &first_col);
		if (t) {
			x->excerpt = malloc(len + 1);
			if (!x->excerpt)
				abort();
			memcpy(x->excerpt, t, len);
			x->excerpt[len] = '\0';
		}
	}
	if (d->nnotes) {
		x->notes = calloc(d->nnotes, sizeof(*x->notes));
		if (!x->notes)
			abort();
		for (size_t i = 0; i < d->nnotes; i++) {
			x->notes[i].loc = d->notes[i].loc;
			x->notes[i].message = cap_strdup(d->notes[i].message);
		}
		x->nnotes = d->nnotes;
	}
}

static void cap_clear(struct capture *c)
{
	for (size_t i = 0; i < c->n; i++) {
		struct cap_diag *x = &c->d[i];
		free(x->file);
		free(x->message);
		free(x->fixit);
		free(x->excerpt);
		for (size_t j = 0; j < x->nnotes; j++)
			free(x->notes[j].message);
		free(x->notes);
	}
	c->n = 0;
}

static void cap_free(struct capture *c)
{
	cap_clear(c);
	free(c->d);
	c->d = NULL;
	c->cap = 0;
}

static struct nvtxt_diag_sink cap_sink(struct capture *c)
{
	struct nvtxt_diag_sink s = { c, cap_report };
	return s;
}

/* A diagnostics engine for `file` that captures everything into c (no --max-errors cap). */
static inline void cap_engine(struct nvtxt_diags *d, struct nvtxt_diag_config *cfg, struct capture *c,
		       const char *file)
{
	nvtxt_diag_config_init(cfg);
	cfg->max_errors = 0;
	nvtxt_diags_init(d, cfg, cap_sink(c), file);
}

/* The i-th captured diagnostic's message, or "(none)" when there are fewer. */
static const char *cap_msg(const struct capture *c, size_t i)
{
	return i < c->n ? c->d[i].message : "(none)";
}

/* The j-th note of the i-th diagnostic, or "(none)". */
static const char *cap_note_msg(const struct capture *c, size_t i, size_t j)
{
	return i < c->n && j < c->d[i].nnotes ? c->d[i].notes[j].message : "(none)";
}

static long cap_line(const struct capture *c, size_t i)
{
	return i < c->n ? (long)c->d[i].loc.line : -1;
}

static long cap_col(const struct capture *c, size_t i)
{
	return i < c->n ? (long)c->d[i].loc.col : -1;
}

static long cap_note_line(const struct capture *c, size_t i, size_t j)
{
	return i < c->n && j < c->d[i].nnotes ? (long)c->d[i].notes[j].loc.line : -1;
}

static long cap_sev(const struct capture *c, size_t i)
{
	return i < c->n ? (long)c->d[i].severity : -1;
}

static long cap_check(const struct capture *c, size_t i)
{
	return i < c->n ? (long)c->d[i].check : -100;
}

/* Marks the helpers used so that a test using only some of them builds with -Werror. */
static inline void cap_unused(void)
{
	(void)cap_msg;
	(void)cap_note_msg;
	(void)cap_line;
	(void)cap_col;
	(void)cap_note_line;
	(void)cap_sev;
	(void)cap_check;
	(void)cap_clear;
	(void)cap_free;
	(void)cap_sink;
}

#endif
