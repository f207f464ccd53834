/*
 * lsp_doc.h - an open document of the language server: its text, the
 * start of each of its lines, and the conversion between byte offsets and
 * LSP positions in the negotiated encoding.
 *
 * Lines are split as LSP 3.17 says ("Text Documents": \n, \r\n and \r end
 * a line).  A position's character counts UTF-16 code units (the default)
 * or bytes (UTF-8, when the client offered it); a byte that is not part of
 * well-formed UTF-8 counts as one unit in both.  Memory: the text plus four
 * bytes per line.
 */
#ifndef NVTXT_LSP_DOC_H
#define NVTXT_LSP_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lsp_encoding { LSP_ENC_UTF16, LSP_ENC_UTF8 };

struct lsp_pos {
	uint32_t line, character;
};

/* A fix-it of the last check: replace bytes [start, end) with text. */
struct lsp_fix {
	size_t start, end;
	char *text;
	char *message;          /* the diagnostic's message */
	char *code;             /* its check name */
	bool fixable;           /* may be applied by "fix all" */
	int severity;           /* the diagnostic's, as LSP counts (1 error, 2 warning) */
	size_t diag_index;      /* the diagnostic's index in the published list */
};

struct lsp_doc {
	char *uri;              /* as the client opened it: answers use it */
	char *key;              /* lsp_uri_key(uri): requests find the document by it */
	char *text;             /* len bytes, NUL-terminated */
	size_t len, cap;
	uint32_t *lines;        /* byte offset of each line's start */
	size_t nlines;          /* at least 1 */
	size_t lines_cap;
	int64_t version;
	bool dirty;             /* changed since its diagnostics were published */
	uint64_t due_ms;        /* when they are to be published */
	struct lsp_fix *fixes;  /* of the last check */
	size_t nfixes, fixes_cap;
	uint64_t gen;           /* counts the changes of the text */
	struct lsp_index *index; /* of the text of generation index->gen, or NULL (lsp_index.h) */
	struct lsp_tokens *tokens; /* the last semanticTokens/full answer, or NULL (lsp_tokens.c) */
	/*
	 * The last check (lsp_check.c), and what changed since: the text's
	 * first edit_pre bytes and last edit_suf bytes are as they were then,
	 * it has edit_nl more line feeds, and edit_tail_nl says whether the
	 * byte before the old text's unchanged end was a line feed (or there
	 * was none).  edited false: nothing changed.  many_diags: the last check
	 * found more diagnostics than lsp_check.c keeps.
	 */
	struct lsp_incr *incr;
	bool many_diags;        /* too many diagnostics to keep: checked from the top each time */
	bool edited;
	bool edit_tail_nl;
	size_t edit_pre, edit_suf;
	int64_t edit_nl;
	/* the same since the index was built or moved to the text (lsp_index.c) */
	bool ix_edited;
	size_t ix_pre, ix_suf;
	int64_t ix_nl;
};

struct lsp_index;
void lsp_index_free(struct lsp_index *x);
struct lsp_tokens;
void lsp_tokens_free(struct lsp_tokens *t);
struct lsp_incr;
void lsp_incr_free(struct lsp_incr *in);

struct lsp_doc *lsp_doc_new(const char *uri, const char *text, size_t len, int64_t version);
void lsp_doc_free(struct lsp_doc *d);

/*
 * The key of a URI (malloc'd): equal for two spellings of one URI
 * (lsp_uri.c has the rules: RFC 3986 section 6.2.2 normalisation, dot
 * segments, file://localhost, drive letters).  A string that is not a URI
 * is its own key.
 */
char *lsp_uri_key(const char *uri);
void lsp_doc_clear_fixes(struct lsp_doc *d);

/* The end of line `line`'s content (before its line break). */
size_t lsp_doc_line_end(const struct lsp_doc *d, size_t line);
/* The line that holds byte offset `off` (off <= len). */
size_t lsp_doc_line_of(const struct lsp_doc *d, size_t off);

/*
 * The byte offset of position p.  A character past the end of its line
 * means the end of the line (LSP 3.17, "Position").  Returns false when
 * p.line is past the last line.
 */
bool lsp_doc_offset(const struct lsp_doc *d, enum lsp_encoding enc, struct lsp_pos p, size_t *off);
/* The position of byte offset `off` (clamped to the text). */
struct lsp_pos lsp_doc_pos(const struct lsp_doc *d, enum lsp_encoding enc, size_t off);

/* The line feeds among n bytes at p. */
size_t lsp_count_lf(const char *p, size_t n);

/*
 * Replaces bytes [start, end) with `text` (n bytes) and re-indexes the
 * lines.  start <= end <= d->len.  Notes the edit for the next check
 * (lsp_doc.edited).
 */
void lsp_doc_replace(struct lsp_doc *d, size_t start, size_t end, const char *text, size_t n);

#endif
