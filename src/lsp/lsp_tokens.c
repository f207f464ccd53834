/*
 * lsp_tokens.c - semantic tokens and colors (LSP 3.17,
 * "textDocument/semanticTokens" full and range, "textDocument/documentColor",
 * "textDocument/colorPresentation"), read from the document's index
 * (lsp_index.h).
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

/* The width of bytes [a, b) in the negotiated encoding's units. */
static uint32_t units(const struct lsp_server *s, const struct lsp_doc *d, size_t a, size_t b)
{
	uint32_t n = 0;

	if (s->enc == LSP_ENC_UTF8)
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

/* Writes ",v" at p (v alone when first); returns the end.  At most 11 bytes. */
static char *put_int(char *p, uint32_t v, bool first)
{
	char digits[10];
	size_t n = 0;

	do
		digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (!first)
		*p++ = ',';
	memcpy(p, digits + sizeof digits - n, n);
	return p + n;
}

/*
 * SemanticTokens.data (LSP 3.17, "Semantic Tokens"): five integers per
 * token, relative to the one before, written into s->data_ints for the
 * response (lsp_int.h); the result is {"data": []}, which they fill.
 */
static json_t *encode(struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x, size_t a, size_t z)
{
	struct buf *out = &s->data_ints;
	size_t line = 0, prev_line = 0, line_end = 0, col_off = 0;
	uint32_t col = 0, prev_col = 0;

	out->len = 0;
	line = lsp_doc_line_of(d, a);
	line_end = lsp_doc_line_end(d, line);
	col_off = d->lines[line];
	for (size_t i = lsp_index_item_at(x, a); i < x->nitems && x->items[i].start < z; i++) {
		const struct lsp_item *it = &x->items[i];
		unsigned mods;
		int type = token_type(d, it, &mods);
		size_t end;
		char *p;
		if (type < 0 || it->end <= it->start || it->start < a)
			continue;
		if (it->start > line_end) {
			line = lsp_doc_line_of(d, it->start);
			line_end = lsp_doc_line_end(d, line);
			col_off = d->lines[line];
			col = 0;
		}
		/* the position, counted on from the token before on the same line */
		col += units(s, d, col_off, it->start);
		col_off = it->start;
		end = it->end > line_end ? line_end : it->end;
		buf_reserve(out, 5 * 11);
		p = out->ptr + out->len;
		p = put_int(p, (uint32_t)(line - prev_line), out->len == 0);
		p = put_int(p, line == prev_line ? col - prev_col : col, false);
		p = put_int(p, units(s, d, it->start, end), false);
		p = put_int(p, (uint32_t)type, false);
		p = put_int(p, mods, false);
		out->len = (size_t)(p - out->ptr);
		out->ptr[out->len] = '\0';
		prev_line = line;
		prev_col = col;
	}
	s->data_pending = true;
	return json_pack("{s:[]}", "data");
}

json_t *lsp_semantic_tokens_full(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d;
	const struct lsp_index *x = lsp_param_index(s, params, NULL, &d, NULL, e);

	return x ? encode(s, d, x, 0, d->len + 1) : NULL;
}

json_t *lsp_semantic_tokens_range(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	size_t a, z;

	if (!d || !lsp_range_offsets(s, d, json_object_get(params, "range"), &a, &z, e))
		return NULL;
	return encode(s, d, lsp_index_get(s, d), a, z);
}

/* --- colors -------------------------------------------------------------------- */

json_t *lsp_document_color(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d;
	const struct lsp_index *x = lsp_param_index(s, params, NULL, &d, NULL, e);
	json_t *out;

	if (!x)
		return NULL;
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

	if (q)
		buf_addc(b, q);
	if (it->kind == NVTXT_V_INTEGER && !hex) {
		buf_printf(b, "%u", argb);
	} else if (hex) {
		buf_printf(b, "0%c%08X", in[1], argb);
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
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	json_t *color = json_object_get(params, "color");
	const struct lsp_index *x;
	uint32_t r, g, bl, al, argb;
	size_t a, z, k;
	struct buf b = { 0 };
	json_t *out;

	if (!d || !lsp_range_offsets(s, d, json_object_get(params, "range"), &a, &z, e))
		return NULL;
	if (!channel(color, "red", &r) || !channel(color, "green", &g) || !channel(color, "blue", &bl) ||
	    !channel(color, "alpha", &al))
		return lsp_fail(e, LSP_INVALID_PARAMS, "expected params.color, {red, green, blue, alpha} of numbers from 0 to 1");
	argb = al << 24 | r << 16 | g << 8 | bl;
	x = lsp_index_get(s, d);
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
