/*
 * lsp_tokens.c - semantic tokens and colors (LSP 3.17,
 * "textDocument/semanticTokens" full, full/delta and range,
 * "textDocument/documentColor", "textDocument/colorPresentation"), read
 * from the document's index (lsp_index.h).  The integers of the last full
 * answer stay with the document (4 bytes each, 20 a token) for full/delta,
 * and so does their JSON array, patched for the next full answer.
 * Every answer is serialised by jansson: bench/README.md has the
 * measurement that keeps it so (31 ms for the tokens of 1 MB, target 50:
 * 2026-11-28).
 *
 * Token types (standard ones, so that any theme colours them): commands
 * and definitions "function" (a definition with "declaration"), the
 * argument names of a definition "parameter", variables "variable" (an
 * assignment with "declaration"), strings "string", integers "number",
 * time bases and color names "enumMember" with "defaultLibrary", comments
 * "comment".  A command, argument, time base or color name the language
 * does not have gets "deprecated".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_index.h"
#include "lsp_int.h"

/* The order of lsp_token_types and lsp_token_modifiers (lsp_hints.c). */
enum { T_FUNCTION, T_PARAMETER, T_VARIABLE, T_STRING, T_NUMBER, T_ENUM_MEMBER, T_COMMENT };
enum { M_DECLARATION = 1, M_DEPRECATED = 2, M_DEFAULT_LIBRARY = 4 };

/* The type of a token (-1: none) and its modifiers. */
static int token_type(const struct lsp_doc *d, const struct lsp_item *it, unsigned *mods)
{
	bool unknown = it->flags & (LSP_F_UNKNOWN | LSP_F_BROKEN);

	*mods = unknown ? M_DEPRECATED : 0;
	switch (it->role) {
	case LSP_R_COMMAND:
		*mods |= unknown ? 0 : M_DEFAULT_LIBRARY;
		return T_FUNCTION;
	case LSP_R_DEF_NAME:
		*mods |= M_DECLARATION;
		return T_FUNCTION;
	case LSP_R_DEF_ARG:
		return T_PARAMETER;
	case LSP_R_VAR_DECL:
		*mods |= M_DECLARATION;
		return T_VARIABLE;
	case LSP_R_COMMENT:
		return T_COMMENT;
	default:
		break;
	}
	switch (it->kind) {
	case NVTXT_V_EXPANSION:
		return T_VARIABLE;
	case NVTXT_V_INTEGER:
		return T_NUMBER;
	case NVTXT_V_STRING:
		if ((it->flags & LSP_F_TIMEBASE) ||
		    ((it->flags & LSP_F_COLOR) && d->text[it->start] != '"' && d->text[it->start] != '\'' &&
		     (it->end - it->start < 2 || d->text[it->start + 1] != 'x'))) {
			*mods |= M_DEFAULT_LIBRARY;
			return T_ENUM_MEMBER;
		}
		if (it->arg == NVTXT_ARG_TIMEBASE || (it->arg == NVTXT_ARG_COLOR && !(it->flags & LSP_F_COLOR))) {
			*mods |= M_DEPRECATED; /* a name that is no time base or color */
			return d->text[it->start] == '"' || d->text[it->start] == '\'' ? T_STRING : T_ENUM_MEMBER;
		}
		return T_STRING;
	default:
		return -1;
	}
}

/*
 * The width of bytes [a, b) in the negotiated encoding's units; `ascii`:
 * the bytes are known to be ASCII, one unit each in both encodings.
 */
static uint32_t units(const struct lsp_server *s, const struct lsp_doc *d, bool ascii, size_t a, size_t b)
{
	uint32_t n = 0;

	if (s->enc == LSP_ENC_UTF8 || ascii)
		return (uint32_t)(b - a);
	while (a < b) {
		size_t k;
		if ((unsigned char)d->text[a] < 0x80) {
			n++, a++;
			continue;
		}
		k = utf8_seq((const unsigned char *)d->text + a, b - a);
		n += k == 4 ? 2 : 1;
		a += k ? k : 1;
	}
	return n;
}

/* Whether the n bytes at p are all ASCII: a word at a time (a megabyte in 0.1 ms). */
static bool all_ascii(const char *p, size_t n)
{
	uint64_t any = 0, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		any |= w;
	}
	for (; i < n; i++)
		any |= (unsigned char)p[i];
	return !(any & 0x8080808080808080ull);
}

/* The integers of one SemanticTokens.data, five a token. */
struct lsp_tokens {
	uint64_t id;            /* the answer's resultId (lsp_server.token_results) */
	uint32_t *v;
	size_t n, cap;
	/*
	 * v[0 .. n) as a JSON array, or NULL: handed to the next full answer
	 * with only the integers that changed replaced (patch), as building
	 * the array anew costs a tenth of a full answer.  The answers hold a
	 * reference to it until they are sent, which is before the document
	 * can change; one still held elsewhere is never patched (refcount).
	 */
	json_t *data;
};

void lsp_tokens_free(struct lsp_tokens *t)
{
	if (!t)
		return;
	free(t->v);
	json_decref(t->data);
	free(t);
}

json_t *lsp_juint(struct lsp_server *s, uint32_t v)
{
	if (v >= LSP_SMALL_INTS)
		return json_integer((json_int_t)v);
	if (!s->small_ints[v])
		s->small_ints[v] = json_integer((json_int_t)v);
	return json_incref(s->small_ints[v]);
}

/* A JSON array of v[0 .. n). */
static json_t *int_array(struct lsp_server *s, const uint32_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, lsp_juint(s, v[i]));
	return a;
}

static void push_token(struct lsp_tokens *t, uint32_t dline, uint32_t dcol, uint32_t len, uint32_t type, uint32_t mods)
{
	void *p = t->v;

	if (t->n + 5 > t->cap) {
		xgrow(&p, &t->cap, t->n + 5, sizeof(*t->v));
		t->v = p;
	}
	t->v[t->n++] = dline;
	t->v[t->n++] = dcol;
	t->v[t->n++] = len;
	t->v[t->n++] = type;
	t->v[t->n++] = mods;
}

/*
 * SemanticTokens.data (LSP 3.17, "Semantic Tokens") of the tokens that
 * start in bytes [a, z): five integers per token, line and start relative
 * to the token before, appended to t.
 */
static void encode(const struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x, size_t a, size_t z,
		   struct lsp_tokens *t)
{
	size_t line = 0, prev_line = 0, line_end = 0, col_off = 0, first = lsp_index_item_at(x, a);
	uint32_t col = 0, prev_col = 0;
	bool ascii;
	void *p = t->v;

	line = lsp_doc_line_of(d, a);
	line_end = lsp_doc_line_end(d, line);
	col_off = d->lines[line];
	ascii = all_ascii(d->text + col_off, line_end - col_off);
	/* room for every item that starts before z (the ones before the first that ends at z, and it) */
	xgrow(&p, &t->cap, t->n + 5 * (lsp_index_item_at(x, z) - first + 1), sizeof(*t->v));
	t->v = p;
	for (size_t i = first; i < x->nitems && x->items[i].start < z; i++) {
		const struct lsp_item *it = &x->items[i];
		unsigned mods;
		int type = token_type(d, it, &mods);
		size_t end;
		if (type < 0 || it->end <= it->start || it->start < a)
			continue;
		if (it->start > line_end) {
			/* the items are in order: the line is found by stepping on */
			while (line + 1 < d->nlines && d->lines[line + 1] <= it->start)
				line++;
			line_end = lsp_doc_line_end(d, line);
			col_off = d->lines[line];
			col = 0;
			/* most lines are ASCII: their widths are their lengths */
			ascii = all_ascii(d->text + col_off, line_end - col_off);
		}
		/* the position, counted on from the token before on the same line */
		col += units(s, d, ascii, col_off, it->start);
		col_off = it->start;
		end = it->end > line_end ? line_end : it->end;
		push_token(t, (uint32_t)(line - prev_line), line == prev_line ? col - prev_col : col,
			   units(s, d, ascii, it->start, end), (uint32_t)type, mods);
		prev_line = line;
		prev_col = col;
	}
}

/* The resultId of t, as a string. */
static void result_id(const struct lsp_tokens *t, char *out, size_t n)
{
	snprintf(out, n, "%llu", (unsigned long long)t->id);
}

/*
 * Makes arr (the JSON array of old[0 .. on)) that of new[0 .. nn): the
 * integers between the common start and the common end replaced, and as
 * many inserted or removed as the lengths differ.  Each insertion or
 * removal moves the rest of the array, so more than a few of them, or an
 * array held elsewhere, gets a new array instead.
 */
static json_t *patch(struct lsp_server *s, json_t *arr, const uint32_t *old, size_t on, const uint32_t *new,
		     size_t nn)
{
	size_t p = 0, q = 0, m = on < nn ? on : nn, mo, mn;

	while (p < m && old[p] == new[p])
		p++;
	while (q < m - p && old[on - 1 - q] == new[nn - 1 - q])
		q++;
	mo = on - p - q, mn = nn - p - q;
	if (!arr || arr->refcount != 1 || json_array_size(arr) != on || (mo > mn ? mo - mn : mn - mo) > 64) {
		json_decref(arr);
		return int_array(s, new, nn);
	}
	for (size_t i = 0; i < mo && i < mn; i++)
		json_array_set_new(arr, p + i, lsp_juint(s, new[p + i]));
	for (size_t i = mo; i < mn; i++)
		json_array_insert_new(arr, p + i, lsp_juint(s, new[p + i]));
	for (size_t i = mn; i < mo; i++)
		json_array_remove(arr, p + mn);
	return arr;
}

/*
 * The whole document's tokens under a new resultId, kept with d in place
 * of the answer before, which is returned (NULL: none) for the caller to
 * free: its JSON array has become the new one's.
 */
static struct lsp_tokens *keep(struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x)
{
	struct lsp_tokens *t = xcalloc(1, sizeof(*t)), *old = d->tokens;

	encode(s, d, x, 0, d->len + 1, t);
	t->id = ++s->token_results;
	t->data = old ? patch(s, old->data, old->v, old->n, t->v, t->n) : int_array(s, t->v, t->n);
	if (old)
		old->data = NULL;
	d->tokens = t;
	return old;
}

/* SemanticTokens of the whole document, with its resultId; kept for full/delta. */
static json_t *full(struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x)
{
	char id[24];

	lsp_tokens_free(keep(s, d, x));
	result_id(d->tokens, id, sizeof id);
	return json_pack("{s:s,s:O}", "resultId", id, "data", d->tokens->data);
}

json_t *lsp_semantic_tokens_full(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;

	return lsp_target(s, params, LSP_T_ITEMS, &t, e) ? full(s, t.d, t.x) : NULL;
}

/*
 * The edits from old to new (LSP 3.17, SemanticTokensEdit): none when they
 * are equal, else one that replaces what lies between their common start
 * and their common end.
 */
static json_t *edits(struct lsp_server *s, const struct lsp_tokens *old, const struct lsp_tokens *new)
{
	size_t p = 0, q = 0, m = old->n < new->n ? old->n : new->n;
	json_t *edit;

	while (p < m && old->v[p] == new->v[p])
		p++;
	while (q < m - p && old->v[old->n - 1 - q] == new->v[new->n - 1 - q])
		q++;
	if (p == old->n && p == new->n)
		return json_array();
	edit = json_pack("{s:o,s:o}", "start", lsp_juint(s, (uint32_t)p), "deleteCount",
			 lsp_juint(s, (uint32_t)(old->n - p - q)));
	if (new->n - q > p)
		json_object_set_new(edit, "data", int_array(s, new->v + p, new->n - q - p));
	return json_pack("[o]", edit);
}

/* What a JSON value is, for a message: "none" when it is missing. */
static const char *json_kind(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: case JSON_REAL: return "a number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return v ? "null" : "none";
	}
}

/*
 * semanticTokens/full/delta: SemanticTokensDelta from the answer named by
 * params.previousResultId when it is the last one kept for the document;
 * otherwise (an older or unknown id) the full SemanticTokens, as LSP 3.17
 * allows.
 */
json_t *lsp_semantic_tokens_delta(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	const struct lsp_index *x;
	json_t *jprev = json_object_get(params, "previousResultId");
	const char *prev = json_string_value(jprev);
	struct lsp_tokens *old;
	char id[24];
	json_t *out;

	if (!lsp_target(s, params, LSP_T_ITEMS, &t, e))
		return NULL;
	d = t.d, x = t.x;
	if (!prev)
		return lsp_fail(e, LSP_INVALID_PARAMS,
				"expected params.previousResultId, the resultId of a semanticTokens/full answer (a string); found %s",
				json_kind(jprev));
	old = d->tokens;
	if (old)
		result_id(old, id, sizeof id);
	if (!old || strcmp(id, prev) != 0)
		return full(s, d, x);
	keep(s, d, x);
	result_id(d->tokens, id, sizeof id);
	out = json_pack("{s:s,s:o}", "resultId", id, "edits", edits(s, old, d->tokens));
	lsp_tokens_free(old);
	return out;
}

json_t *lsp_semantic_tokens_range(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_tokens t = { 0 };
	json_t *out;

	if (!lsp_target(s, params, LSP_T_RANGE | LSP_T_ITEMS, &tg, e))
		return NULL;
	encode(s, tg.d, tg.x, tg.a, tg.z, &t);
	out = json_pack("{s:o}", "data", int_array(s, t.v, t.n));
	free(t.v);
	return out;
}

/* --- colors -------------------------------------------------------------------- */

json_t *lsp_document_color(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	const struct lsp_index *x;
	json_t *out;

	if (!lsp_target(s, params, LSP_T_ITEMS, &t, e))
		return NULL;
	d = t.d, x = t.x;
	out = json_array();
	for (size_t i = 0; i < x->nitems; i++) {
		uint32_t c = x->items[i].aux;
		if (!(x->items[i].flags & LSP_F_COLOR))
			continue;
		json_array_append_new(out, json_pack("{s:o,s:{s:f,s:f,s:f,s:f}}", "range",
						     lsp_jrange(s, d, x->items[i].start, x->items[i].end), "color",
						     "red", ((c >> 16) & 255) / 255.0, "green", ((c >> 8) & 255) / 255.0,
						     "blue", (c & 255) / 255.0, "alpha", (c >> 24) / 255.0));
	}
	return out;
}

static bool channel(json_t *color, const char *key, uint32_t *out)
{
	json_t *v = json_object_get(color, key);
	double f = json_number_value(v);

	if (!json_is_number(v) || !(f >= 0.0 && f <= 1.0))
		return false;
	*out = (uint32_t)(f * 255.0 + 0.5);
	return true;
}

/* The color's spelling in the form the value at item it has: integer, "0x..." or a name. */
static void spell(struct buf *b, const struct lsp_doc *d, const struct lsp_item *it, uint32_t argb)
{
	const char *t = d->text + it->start;
	size_t n = it->end - it->start;
	char q = n && (t[0] == '"' || t[0] == '\'') ? t[0] : 0;
	const char *in = q ? t + 1 : t;
	bool hex = n >= (q ? 3u : 2u) && in[0] == '0' && (in[1] | 0x20) == 'x';
	bool lower = false;

	/* hexadecimal digits in the case the value has them (upper when it has no letter) */
	for (size_t i = hex ? 2 : n; i < n - (q ? 2 : 0); i++)
		lower |= in[i] >= 'a' && in[i] <= 'f';

	if (q)
		buf_addc(b, q);
	if (it->kind == NVTXT_V_INTEGER && !hex) {
		buf_printf(b, "%u", argb);
	} else if (hex) {
		/* eight digits, also for a value of six (0xRRGGBB): the alpha is the picker's */
		buf_printf(b, lower ? "0%c%08x" : "0%c%08X", in[1], argb);
	} else {
		const char *name = NULL;
		uint32_t c;
		for (size_t i = 0; !name && nvtxt_color_name(i); i++)
			if (nvtxt_color_lookup(nvtxt_color_name(i), strlen(nvtxt_color_name(i)), &c) && c == argb)
				name = nvtxt_color_name(i);
		if (name)
			buf_adds(b, name);
		else
			buf_printf(b, "0x%08X", argb);
	}
	if (q)
		buf_addc(b, q);
}

json_t *lsp_color_presentation(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	json_t *color = json_object_get(params, "color");
	const struct lsp_index *x;
	uint32_t r, g, bl, al, argb;
	size_t a, z, k;
	struct buf b = { 0 };
	json_t *out;

	if (!lsp_target(s, params, LSP_T_RANGE | LSP_T_ITEMS, &t, e))
		return NULL;
	d = t.d, x = t.x, a = t.a, z = t.z;
	if (!channel(color, "red", &r) || !channel(color, "green", &g) || !channel(color, "blue", &bl) ||
	    !channel(color, "alpha", &al))
		return lsp_fail(e, LSP_INVALID_PARAMS, "expected params.color, {red, green, blue, alpha} of numbers from 0 to 1");
	argb = al << 24 | r << 16 | g << 8 | bl;
	k = lsp_index_item_at(x, a);
	out = json_array();
	if (k < x->nitems && x->items[k].start == a && x->items[k].end == z && (x->items[k].flags & LSP_F_COLOR)) {
		spell(&b, d, &x->items[k], argb);
		json_array_append_new(out, json_pack("{s:o,s:o}", "label", lsp_jstr(b.ptr, b.len), "textEdit",
						     lsp_text_edit(s, d, a, z, b.ptr, b.len)));
	} else {
		buf_printf(&b, "0x%08X", argb);
		json_array_append_new(out, json_pack("{s:o}", "label", lsp_jstr(b.ptr, b.len)));
	}
	buf_free(&b);
	return out;
}
