/*
 * lsp_format.c - textDocument/formatting and rangeFormatting (LSP 3.17):
 * the layout of nvtxtc fmt (src/backends/fmt.c), as edits of the open
 * document.  fmt ends every line with LF; the edits end lines as the
 * document's first line does (CRLF or LF), so a CRLF document stays CRLF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "lsp_int.h"

/* True when the document's first line ends with CRLF. */
static bool crlf_document(const struct lsp_doc *d)
{
	const char *nl = memchr(d->text, '\n', d->len);
	return nl && nl > d->text && nl[-1] == '\r';
}

/* Turns every LF of *out (*outlen bytes, malloc'd) into CRLF. */
static void to_crlf(char **out, size_t *outlen)
{
	size_t n = 0, k = 0;
	char *p;

	for (size_t i = 0; i < *outlen; i++)
		n += (*out)[i] == '\n';
	if (n == 0)
		return;
	p = xmalloc(*outlen + n + 1);
	for (size_t i = 0; i < *outlen; i++) {
		if ((*out)[i] == '\n')
			p[k++] = '\r';
		p[k++] = (*out)[i];
	}
	p[k] = '\0';
	free(*out);
	*out = p;
	*outlen = k;
}

/*
 * The document as nvtxtc fmt lays it out, in *out (*outlen bytes; the
 * caller frees it), its lines ended as the document's first line is.
 * Returns false, with *out NULL, when the document has syntax errors (its
 * layout is kept, as nvtxtc fmt does) or e is set.
 */
static bool format_doc(struct lsp_server *s, struct lsp_doc *d, char **out, size_t *outlen,
		       struct lsp_error *e)
{
	struct nvtxt_fmt *fmt;
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_compile_result res;
	struct nvtxt_diag_config quiet;
	int status;

	*out = NULL;
	*outlen = 0;
	fmt = xcalloc(1, sizeof(*fmt));
	fmt->out = open_memstream(out, outlen);
	if (!fmt->out) {
		free(fmt);
		lsp_fail(e, LSP_INTERNAL_ERROR, "cannot create a memory stream: %s", strerror(errno));
		return false;
	}
	nvtxt_diag_config_init(&quiet);
	co.display_name = d->uri;
	co.diag_config = &quiet;
	co.sink = (struct nvtxt_diag_sink){ NULL, NULL };
	co.instruction = nvtxt_fmt_instruction;
	co.instruction_user = fmt;
	status = lsp_compile_text(d->text, d->len, &co, &res);
	nvtxt_fmt_flush(fmt);
	fclose(fmt->out);
	free(fmt);
	if (status != 0) {
		free(*out);
		*out = NULL;
		lsp_log_message(s, 2, "nvtxtc: %s is not formatted: it has syntax errors", d->uri);
		return false;
	}
	if (crlf_document(d))
		to_crlf(out, outlen);
	return true;
}

json_t *lsp_formatting(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	char *out;
	size_t outlen, pre = 0, suf = 0;
	json_t *edits;

	if (!d)
		return NULL;
	if (!format_doc(s, d, &out, &outlen, e))
		return e->code ? NULL : json_array();
	/* one edit: the lines between the unchanged first and last lines */
	while (pre < d->len && pre < outlen && d->text[pre] == out[pre])
		pre++;
	while (pre > 0 && d->text[pre - 1] != '\n')
		pre--;
	while (suf < d->len - pre && suf < outlen - pre && d->text[d->len - 1 - suf] == out[outlen - 1 - suf])
		suf++;
	while (suf > 0 && d->text[d->len - suf] != '\n' && d->len - suf > pre)
		suf--;
	/* a suffix that starts inside a line break or a character would split it */
	while (suf > 0 && d->len - suf > pre && d->text[d->len - suf - 1] != '\n')
		suf--;
	edits = json_array();
	if (!(d->len == outlen && memcmp(d->text, out, outlen) == 0))
		json_array_append_new(edits, lsp_text_edit(s, d, pre, d->len - suf, out + pre, outlen - suf - pre));
	free(out);
	return edits;
}

/* A line that fmt turns into an empty line or drops: blanks, a CR, a byte order mark. */
static bool blank_line(const char *p, size_t n)
{
	if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
		p += 3;
		n -= 3;
	}
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

/* The offset just past the line break of the `k`-th (0-based) non-empty line of out, or its start. */
static size_t nonempty_line(const char *out, size_t outlen, size_t k, bool end)
{
	size_t at = 0;

	while (at < outlen) {
		const char *nl = memchr(out + at, '\n', outlen - at);
		size_t next = nl ? (size_t)(nl - out) + 1 : outlen;
		size_t content = next - at - (nl != NULL);
		if (content > 0 && out[at + content - 1] == '\r')
			content--; /* a CRLF line end */
		if (content > 0 && k-- == 0)
			return end ? next : at;
		at = next;
	}
	return outlen;
}

/*
 * textDocument/rangeFormatting (LSP 3.17): the lines from the first to the
 * last non-blank line that the range touches get nvtxtc fmt's layout; the
 * blank lines between them are collapsed as fmt does, the rest of the
 * document is left alone.  fmt keeps every non-blank line as one line, in
 * order, so the k-th non-blank line of the document is the k-th non-empty
 * line of fmt's output.
 */
json_t *lsp_range_formatting(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	size_t a, b, first, last, line, before = 0, inside = 0, from = 0, to = 0, out_from, out_to;
	bool seen = false;
	char *out;
	size_t outlen;
	json_t *edits;

	if (!lsp_target(s, params, LSP_T_RANGE, &t, e))
		return NULL;
	d = t.d, a = t.a, b = t.z;
	first = lsp_doc_line_of(d, a);
	last = lsp_doc_line_of(d, b);
	if (last > first && d->lines[last] == b)
		last--; /* a range that ends at a line's start does not touch that line */
	for (line = 0; line < d->nlines && line <= last; line++) {
		size_t start = d->lines[line], end = line + 1 < d->nlines ? d->lines[line + 1] : d->len;
		if (blank_line(d->text + start, end - start))
			continue;
		if (line < first) {
			before++;
		} else {
			if (!seen)
				from = start;
			seen = true;
			to = end;
			inside++;
		}
	}
	edits = json_array();
	if (!seen || !format_doc(s, d, &out, &outlen, e))
		return e->code ? (json_decref(edits), NULL) : edits;
	out_from = nonempty_line(out, outlen, before, false);
	out_to = nonempty_line(out, outlen, before + inside - 1, true);
	if (out_to - out_from != to - from || memcmp(out + out_from, d->text + from, to - from) != 0)
		json_array_append_new(edits, lsp_text_edit(s, d, from, to, out + out_from, out_to - out_from));
	free(out);
	return edits;
}
