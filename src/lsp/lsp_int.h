/*
 * lsp_int.h - what the parts of the language server share: the server's
 * state, JSON-RPC error codes, and helpers between JSON and documents.
 */
#ifndef NVTXT_LSP_INT_H
#define NVTXT_LSP_INT_H

#include <jansson.h>

#include "nvtxt/compile.h"
#include "lsp.h"
#include "lsp_doc.h"
#include "timeconv.h"
#include "util.h"

/* JSON-RPC 2.0 and LSP 3.17 ("Response Message", ErrorCodes and LSPErrorCodes). */
enum {
	LSP_PARSE_ERROR = -32700,
	LSP_INVALID_REQUEST = -32600,
	LSP_METHOD_NOT_FOUND = -32601,
	LSP_INVALID_PARAMS = -32602,
	LSP_INTERNAL_ERROR = -32603,
	LSP_SERVER_NOT_INITIALIZED = -32002,
	LSP_REQUEST_FAILED = -32803,
	LSP_REQUEST_CANCELLED = -32800
};

/* The largest message body accepted; a larger one is skipped and answered with an error. */
#define LSP_MAX_MESSAGE (64u << 20)
/* The longest header block (all header lines) accepted. */
#define LSP_MAX_HEADER 8192

/* How many small integers lsp_server.small_ints keeps. */
#define LSP_SMALL_INTS 1024

struct lsp_error {
	int code;
	char message[256];
};

/* The settings of the editor features (lsp_feature_settings). */
struct lsp_features {
	bool hint_names;            /* inlayHints.parameterNames: "Time:" before each value */
	bool hint_times;            /* inlayHints.times: "+1.250 ms" after each converted timestamp */
	bool hint_pops;             /* inlayHints.rangePop: the message of the push a RangePop closes */
	struct nvtxt_tconv tconv;   /* timeConversions: --time-conversion rules */
};

struct lsp_server {
	FILE *out;
	struct buf in;              /* bytes not yet consumed */
	size_t in_start;            /* consumed bytes at the start of `in` */
	uint64_t skip;              /* bytes of a too-large body still to drop */
	bool initialized;           /* initialize was answered */
	bool shutdown;              /* shutdown was answered */
	bool exited;
	enum lsp_encoding enc;
	struct nvtxt_diag_config config;
	struct nvtxt_diag_config base;     /* the command line's: settings start from it */
	struct nvtxt_warning_options base_warn; /* and its -W options so far, which settings continue */
	unsigned debounce_ms;
	struct lsp_doc **docs;
	size_t ndocs, docs_cap;
	json_t *cancelled;          /* ids cancelled by $/cancelRequest in the current batch */
	struct lsp_features feat;
	uint64_t settings_gen;      /* counts the changes of settings: indexes depend on them */
	/*
	 * The JSON integers 0 .. LSP_SMALL_INTS-1, made when first needed and
	 * shared by every array that holds one (lsp_juint): a semantic
	 * tokens answer is mostly small integers, five a token.
	 */
	json_t *small_ints[LSP_SMALL_INTS];
	uint64_t token_results;     /* semanticTokens/full answers so far: their resultIds */
	uint64_t opens;             /* didOpen notifications so far: the high bits of a document's gen */
	/* the incremental check (lsp_check.c): lines between checkpoints (0: its default), and what it did */
	unsigned ckpt_lines;
	struct {
		/* checks from the top, from a checkpoint; met an old state; from the top after one from a checkpoint could not be kept; lines checked */
		unsigned long full, resumed, met, fallback, lines;
	} incr;
	unsigned long index_moves;  /* indexes moved to a new text rather than built anew (lsp_index.c) */
};

/* Sets e and returns NULL: for handlers. */
json_t *lsp_fail(struct lsp_error *e, int code, const char *fmt, ...) NVTXT_PRINTF(3, 4);

/* A JSON string of n bytes; bytes that are not UTF-8 become U+FFFD. */
json_t *lsp_jstr(const char *s, size_t n);

/* The document named by params.textDocument.uri, or NULL (e is set). */
struct lsp_doc *lsp_param_doc(struct lsp_server *s, json_t *params, struct lsp_error *e);
/* params.position as a byte offset in d; false when missing or outside the document (e is set). */
bool lsp_param_offset(struct lsp_server *s, struct lsp_doc *d, json_t *params, const char *key,
		      size_t *off, struct lsp_error *e);
/* range {start, end} as byte offsets [*a, *b) of d; false when malformed or outside d (e is set). */
bool lsp_range_offsets(struct lsp_server *s, struct lsp_doc *d, json_t *range, size_t *a, size_t *b,
		       struct lsp_error *e);
/* The JSON integer v: a new reference, shared when v < LSP_SMALL_INTS (lsp_tokens.c). */
json_t *lsp_juint(struct lsp_server *s, uint32_t v);

/* {line, character} of byte offset off, and {start, end} of [a, b). */
json_t *lsp_jpos(const struct lsp_server *s, const struct lsp_doc *d, size_t off);
json_t *lsp_jrange(const struct lsp_server *s, const struct lsp_doc *d, size_t a, size_t b);

/*
 * What a request is about, for the handlers that read a position, a range
 * or the index (the others take lsp_param_doc alone): the document of
 * params.textDocument.uri; with LSP_T_POSITION, params.position as a byte
 * offset (at); with LSP_T_RANGE, params.range as bytes [a, z); with
 * LSP_T_INDEX, the document's index (lsp_index.h, built when missing;
 * LSP_T_ITEMS: its items and definitions only, lsp_index_items).
 * false with e set when the document is not open or the position or range
 * is missing, malformed or outside it.
 */
enum { LSP_T_POSITION = 1, LSP_T_RANGE = 2, LSP_T_INDEX = 4, LSP_T_ITEMS = 8 };
struct lsp_index;
struct lsp_target {
	struct lsp_doc *d;
	const struct lsp_index *x;
	size_t at;
	size_t a, z;
};
bool lsp_target(struct lsp_server *s, json_t *params, unsigned what, struct lsp_target *t, struct lsp_error *e);

/* A TextEdit (LSP 3.17) replacing bytes [a, b) of d with text (n bytes). */
json_t *lsp_text_edit(struct lsp_server *s, struct lsp_doc *d, size_t a, size_t b, const char *text, size_t n);

/*
 * The transport (lsp_rpc.c).  lsp_respond and lsp_notify take the
 * reference to result and params; id is borrowed (NULL: null).  The
 * message of an error is made valid UTF-8.  lsp_log_message sends
 * window/logMessage: type 1 error, 2 warning, 3 info.
 */
void lsp_respond(struct lsp_server *s, json_t *id, json_t *result);
void lsp_respond_error(struct lsp_server *s, json_t *id, int code, const char *message);
void lsp_notify(struct lsp_server *s, const char *method, json_t *params);
void lsp_log_message(struct lsp_server *s, int type, const char *fmt, ...) NVTXT_PRINTF(3, 4);
/*
 * Takes the complete messages out of the input buffer into batch, parsed;
 * answers framing errors (a bad header, malformed JSON, a Content-Length
 * over LSP_MAX_MESSAGE, whose body is then skipped as it comes).
 */
void lsp_rpc_extract(struct lsp_server *s, json_t *batch);

/* Compiles `text` (len bytes, kept alive by the caller; co->fd and co->text are set here): lsp_compile.c. */
int lsp_compile_text(const char *text, size_t len, struct nvtxt_compile_options *co,
		     struct nvtxt_compile_result *res);

/* The language features of lsp_lang.c: each returns the result or NULL with e set. */
json_t *lsp_hover(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_completion(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_definition(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_document_symbol(struct lsp_server *s, json_t *params, struct lsp_error *e);
/*
 * The editor features (lsp_hints.c, lsp_fold.c, lsp_tokens.c), read from
 * the document's index (lsp_index.h): each returns the result or NULL with
 * e set.
 */
json_t *lsp_inlay_hint(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_signature_help(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_folding_range(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_document_highlight(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_semantic_tokens_full(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_semantic_tokens_delta(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_semantic_tokens_range(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_document_color(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_color_presentation(struct lsp_server *s, json_t *params, struct lsp_error *e);
/* References and rename (lsp_refs.c). */
json_t *lsp_references(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_prepare_rename(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_rename(struct lsp_server *s, json_t *params, struct lsp_error *e);
/* Pull diagnostics (lsp_pull.c, LSP 3.17 "Pull Diagnostics"). */
json_t *lsp_document_diagnostic(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_workspace_diagnostic(struct lsp_server *s, json_t *params, struct lsp_error *e);
/*
 * Checks d now: its Diagnostic[] (LSP 3.17) under the settings in force,
 * and its fixes kept for code actions (lsp_server.c).
 */
json_t *lsp_check_doc(struct lsp_server *s, struct lsp_doc *d);
/* Their defaults; their settings (inlayHints, timeConversions) from a settings object (lsp_hints.c). */
void lsp_feature_defaults(struct lsp_server *s);
void lsp_feature_settings(struct lsp_server *s, json_t *settings);
/* Adds their ServerCapabilities to caps. */
void lsp_feature_capabilities(struct lsp_server *s, json_t *caps);
/* Formatting (lsp_format.c): the edits, or NULL with e set. */
json_t *lsp_formatting(struct lsp_server *s, json_t *params, struct lsp_error *e);
json_t *lsp_range_formatting(struct lsp_server *s, json_t *params, struct lsp_error *e);

#endif
