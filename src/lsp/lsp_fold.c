/*
 * lsp_fold.c - folding ranges and document highlights (LSP 3.17,
 * "textDocument/foldingRange", "textDocument/documentHighlight"), read
 * from the document's index (lsp_index.h).
 *
 * Folds: every RangePush with the RangePop that the pairing pass found for
 * it (the lines between them; kind "region"), every run of two or more
 * comment lines (kind "comment"), every run of two or more assignments.
 * Highlights: a RangePush and its RangePop; the Start and End of a
 * RangeStartEnd; a variable's assignments (Write) and its $expansions
 * (Read).
 */
#include <string.h>

#include "lsp_index.h"
#include "lsp_int.h"

static void add_fold(json_t *out, size_t a, size_t b, const char *kind)
{
	json_t *f;

	if (b <= a)
		return;
	f = json_pack("{s:I,s:I}", "startLine", (json_int_t)a, "endLine", (json_int_t)b);
	if (kind)
		json_object_set_new(f, "kind", json_string(kind));
	json_array_append_new(out, f);
}

/* Runs of lines whose first token has role `role`: one fold each. */
static void fold_runs(json_t *out, struct lsp_doc *d, const struct lsp_index *x, enum lsp_role role,
		      const char *kind)
{
	size_t first = SIZE_MAX, last = 0;

	for (size_t i = 0; i < x->nitems; i++) {
		const struct lsp_item *it = &x->items[i];
		size_t line;
		if (it->role != role && (it->role == LSP_R_VALUE || it->role == LSP_R_DEF_ARG))
			continue; /* not the first token of its line */
		if (it->role != role) {
			if (first != SIZE_MAX)
				add_fold(out, first, last, kind);
			first = SIZE_MAX;
			continue;
		}
		line = lsp_doc_line_of(d, it->start);
		if (first != SIZE_MAX && line == last + 1) {
			last = line;
			continue;
		}
		if (first != SIZE_MAX)
			add_fold(out, first, last, kind);
		first = last = line;
	}
	if (first != SIZE_MAX)
		add_fold(out, first, last, kind);
}

json_t *lsp_folding_range(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	const struct lsp_index *x;
	json_t *out;

	if (!lsp_target(s, params, LSP_T_INDEX, &t, e))
		return NULL;
	d = t.d, x = t.x;
	out = json_array();
	for (size_t i = 0; i < x->nevents; i++) {
		const struct lsp_event *ev = &x->events[i];
		if (ev->cmd == NVTXT_CMD_RANGE_PUSH && ev->pair != UINT32_MAX) {
			/* the push's line stays visible, and so does its pop's */
			size_t a = lsp_doc_line_of(d, ev->at), b = lsp_doc_line_of(d, ev->pair);
			if (b > a + 1)
				add_fold(out, a, b - 1, "region");
		}
	}
	fold_runs(out, d, x, LSP_R_COMMENT, "comment");
	fold_runs(out, d, x, LSP_R_VAR_DECL, NULL);
	return out;
}

/* --- document highlight -------------------------------------------------------- */

/* DocumentHighlightKind (LSP 3.17): Text 1, Read 2, Write 3. */
static void add_highlight(json_t *out, struct lsp_server *s, struct lsp_doc *d, size_t a, size_t b, int kind)
{
	json_array_append_new(out, json_pack("{s:o,s:i}", "range", lsp_jrange(s, d, a, b), "kind", kind));
}

static void highlight_variable(json_t *out, struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x,
			       const char *name, size_t len)
{
	for (size_t i = 0; i < x->nitems; i++) {
		const char *n;
		size_t l;
		if (lsp_index_var_name(d, &x->items[i], &n, &l) && l == len && memcmp(n, name, len) == 0)
			add_highlight(out, s, d, x->items[i].start, x->items[i].end,
				      x->items[i].role == LSP_R_VAR_DECL ? 3 : 2);
	}
}

/* The Start and End values of the RangeStartEnd line holding item k. */
static void highlight_start_end(json_t *out, struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x,
				size_t k)
{
	size_t i = k;

	while (i > 0 && x->items[i].role == LSP_R_VALUE)
		i--;
	for (i++; i < x->nitems && x->items[i].role == LSP_R_VALUE; i++)
		if (x->items[i].arg == NVTXT_ARG_START || x->items[i].arg == NVTXT_ARG_END)
			add_highlight(out, s, d, x->items[i].start, x->items[i].end, 1);
}

json_t *lsp_document_highlight(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	const struct lsp_index *x;
	size_t k, len;
	const struct lsp_item *it;
	const char *name;
	json_t *out;

	if (!lsp_target(s, params, LSP_T_POSITION | LSP_T_INDEX, &t, e))
		return NULL;
	d = t.d, x = t.x;
	k = lsp_index_item_at(x, t.at);
	if (k >= x->nitems || x->items[k].start > t.at)
		return json_null();
	it = &x->items[k];
	out = json_array();
	if (lsp_index_var_name(d, it, &name, &len)) {
		highlight_variable(out, s, d, x, name, len);
	} else if (it->role == LSP_R_COMMAND) {
		const struct lsp_event *ev = lsp_index_event(x, it->start);
		size_t p = ev && ev->pair != UINT32_MAX ? lsp_index_item_at(x, ev->pair) : x->nitems;
		if (p < x->nitems) {
			add_highlight(out, s, d, it->start, it->end, 1);
			add_highlight(out, s, d, x->items[p].start, x->items[p].end, 1);
		}
	} else if (it->role == LSP_R_VALUE && it->cmd == NVTXT_CMD_RANGE_START_END &&
		   (it->arg == NVTXT_ARG_START || it->arg == NVTXT_ARG_END)) {
		highlight_start_end(out, s, d, x, k);
	}
	if (json_array_size(out) == 0) {
		json_decref(out);
		return json_null();
	}
	return out;
}
