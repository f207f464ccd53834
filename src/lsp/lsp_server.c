/*
 * lsp_server.c - the language server: JSON-RPC dispatch, the lifecycle,
 * document synchronisation, settings, diagnostics and code actions (LSP
 * 3.17).  Framing and the stdio loop are in lsp_rpc.c, formatting in
 * lsp_format.c, hover, completion, definition and symbols in lsp_lang.c.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp_int.h"

#ifndef NVTXTC_VERSION
#define NVTXTC_VERSION "0.1"
#endif

/* Default delay between the last change of a document and its diagnostics. */
enum { LSP_DEBOUNCE_MS = 5 };

uint64_t lsp_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* --- helpers ------------------------------------------------------------- */

json_t *lsp_fail(struct lsp_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	return NULL;
}

json_t *lsp_jstr(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);
	struct buf b = { 0 };

	if (j)
		return j;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq((const unsigned char *)s + i, n - i);
		if (k == 0 && s[i] == '\0')
			k = 1, buf_addc(&b, '\0');
		else if (k == 0)
			k = 1, buf_add(&b, "\xEF\xBF\xBD", 3);
		else
			buf_add(&b, s + i, k);
		i += k;
	}
	j = json_stringn(b.ptr ? b.ptr : "", b.len);
	buf_free(&b);
	return j ? j : json_string("");
}

json_t *lsp_jpos(const struct lsp_server *s, const struct lsp_doc *d, size_t off)
{
	struct lsp_pos p = lsp_doc_pos(d, s->enc, off);
	return json_pack("{s:I,s:I}", "line", (json_int_t)p.line, "character", (json_int_t)p.character);
}

json_t *lsp_jrange(const struct lsp_server *s, const struct lsp_doc *d, size_t a, size_t b)
{
	return json_pack("{s:o,s:o}", "start", lsp_jpos(s, d, a), "end", lsp_jpos(s, d, b));
}

/* The open document that uri names, in any spelling of it (lsp_uri_key). */
static struct lsp_doc *find_doc(struct lsp_server *s, const char *uri, size_t *index)
{
	char *key = lsp_uri_key(uri);
	struct lsp_doc *d = NULL;

	for (size_t i = 0; i < s->ndocs && !d; i++)
		if (strcmp(s->docs[i]->key, key) == 0) {
			if (index)
				*index = i;
			d = s->docs[i];
		}
	free(key);
	return d;
}

struct lsp_doc *lsp_param_doc(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
	struct lsp_doc *d;

	if (!uri)
		return lsp_fail(e, LSP_INVALID_PARAMS, "expected params.textDocument.uri, a string"), NULL;
	d = find_doc(s, uri, NULL);
	if (!d)
		lsp_fail(e, LSP_INVALID_PARAMS, "the document %.200s is not open", uri);
	return d;
}

/* {line, character} with both in 0..2^31-1. */
static bool get_pos(json_t *j, struct lsp_pos *p)
{
	json_t *l = json_object_get(j, "line"), *c = json_object_get(j, "character");

	if (!json_is_integer(l) || !json_is_integer(c))
		return false;
	if (json_integer_value(l) < 0 || json_integer_value(l) > INT32_MAX ||
	    json_integer_value(c) < 0 || json_integer_value(c) > INT32_MAX)
		return false;
	p->line = (uint32_t)json_integer_value(l);
	p->character = (uint32_t)json_integer_value(c);
	return true;
}

static bool pos_offset(struct lsp_server *s, struct lsp_doc *d, json_t *j, const char *what,
		       size_t *off, struct lsp_error *e)
{
	struct lsp_pos p;

	if (!get_pos(j, &p)) {
		lsp_fail(e, LSP_INVALID_PARAMS, "expected %s, a position {line, character} of integers from 0",
			 what);
		return false;
	}
	if (!lsp_doc_offset(d, s->enc, p, off)) {
		lsp_fail(e, LSP_INVALID_PARAMS,
			 "%s is outside the document: line %u, and the document has %zu line%s (0 to %zu)",
			 what, p.line, d->nlines, d->nlines == 1 ? "" : "s", d->nlines - 1);
		return false;
	}
	return true;
}

bool lsp_param_offset(struct lsp_server *s, struct lsp_doc *d, json_t *params, const char *key,
		      size_t *off, struct lsp_error *e)
{
	return pos_offset(s, d, json_object_get(params, key), key, off, e);
}

bool lsp_range_offsets(struct lsp_server *s, struct lsp_doc *d, json_t *range, size_t *a, size_t *b,
		       struct lsp_error *e)
{
	if (!json_is_object(range)) {
		lsp_fail(e, LSP_INVALID_PARAMS, "expected a range {start, end}");
		return false;
	}
	if (!pos_offset(s, d, json_object_get(range, "start"), "range.start", a, e) ||
	    !pos_offset(s, d, json_object_get(range, "end"), "range.end", b, e))
		return false;
	if (*a > *b) {
		lsp_fail(e, LSP_INVALID_PARAMS, "range.end comes before range.start");
		return false;
	}
	return true;
}

/* --- configuration ------------------------------------------------------- */

static const char not_a_warning[] = "is not a -W setting of a warning (see nvtxtc --list-checks)";

/*
 * One entry of the "warnings" setting: a -W option without the -W, through
 * the driver's own parser (nvtxt_warning_option), continuing *st; "w" is -w
 * (every warning off).  NULL, or why it is refused.
 */
static const char *apply_warning(struct nvtxt_diag_config *c, struct nvtxt_warning_options *st, const char *arg)
{
	if (strcmp(arg, "w") == 0) {
		nvtxt_warnings_off(c, st);
		return NULL;
	}
	switch (nvtxt_warning_option(c, st, arg, NULL)) {
	case NVTXT_WARNING_OK:
		return NULL;
	case NVTXT_WARNING_ERROR_CHECK:
		return "names an error check, and errors cannot be disabled or changed (see nvtxtc --list-checks)";
	case NVTXT_WARNING_UNKNOWN:
		break;
	}
	return not_a_warning;
}

/*
 * Settings, from initializationOptions or workspace/didChangeConfiguration
 * (an object, or one under the key "nvtxtc"): "warnings", a list of -W
 * settings without "-W" (e.g. ["error", "no-rename"]); "maxErrors", the
 * --max-errors number; "debounceMs", the delay before diagnostics.
 * Unknown keys are ignored; a bad value is reported with logMessage and
 * leaves the rest in force.
 */
static void apply_settings(struct lsp_server *s, json_t *settings)
{
	json_t *w, *m, *db, *v;
	size_t i;
	struct nvtxt_warning_options warn = s->base_warn;

	if (json_is_object(json_object_get(settings, "nvtxtc")))
		settings = json_object_get(settings, "nvtxtc");
	if (!json_is_object(settings))
		return;
	s->config = s->base;
	lsp_feature_settings(s, settings);
	w = json_object_get(settings, "warnings");
	if (w && !json_is_array(w))
		lsp_log_message(s, 1, "nvtxtc: setting \"warnings\" must be a list of strings such as \"no-rename\"");
	json_array_foreach(w, i, v) {
		const char *why = json_is_string(v) ? apply_warning(&s->config, &warn, json_string_value(v))
						    : not_a_warning;
		if (why)
			lsp_log_message(s, 1, "nvtxtc: setting \"warnings\": %s %s",
				    json_is_string(v) ? json_string_value(v) : "(not a string)", why);
	}
	m = json_object_get(settings, "maxErrors");
	if (json_is_integer(m) && json_integer_value(m) >= 0)
		s->config.max_errors = (unsigned long)json_integer_value(m);
	else if (m)
		lsp_log_message(s, 1, "nvtxtc: setting \"maxErrors\" must be an integer >= 0 (0: no limit)");
	db = json_object_get(settings, "debounceMs");
	if (json_is_integer(db) && json_integer_value(db) >= 0 && json_integer_value(db) <= 10000)
		s->debounce_ms = (unsigned)json_integer_value(db);
	else if (db)
		lsp_log_message(s, 1, "nvtxtc: setting \"debounceMs\" must be an integer from 0 to 10000");
}

/* --- diagnostics (lsp_check.c checks) ------------------------------------ */

/* Checks d now and publishes its diagnostics. */
static void publish(struct lsp_server *s, struct lsp_doc *d)
{
	json_t *diags = lsp_check_doc(s, d);

	d->dirty = false;
	lsp_notify(s, "textDocument/publishDiagnostics",
	       json_pack("{s:s,s:I,s:o}", "uri", d->uri, "version", (json_int_t)d->version, "diagnostics", diags));
}

static void schedule(struct lsp_server *s, struct lsp_doc *d)
{
	d->dirty = true;
	d->due_ms = lsp_now_ms() + s->debounce_ms;
}

/* Requests that read fixes want the diagnostics of the current text. */
static void ensure_checked(struct lsp_server *s, struct lsp_doc *d)
{
	if (d->dirty)
		publish(s, d);
}

uint64_t lsp_server_tick(struct lsp_server *s, uint64_t now_ms, bool force)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < s->ndocs; i++) {
		struct lsp_doc *d = s->docs[i];
		if (!d->dirty)
			continue;
		if (force || d->due_ms <= now_ms)
			publish(s, d);
		else if (d->due_ms < next)
			next = d->due_ms;
	}
	return next;
}

/* --- lifecycle ----------------------------------------------------------- */

static bool offers(json_t *list, const char *what)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), what) == 0)
			return true;
	return false;
}

static json_t *initialize(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	json_t *caps = json_object_get(params, "capabilities");
	json_t *general = json_object_get(caps, "general");
	json_t *result;
	bool legacy_utf8 = false;

	if (s->initialized)
		return lsp_fail(e, LSP_INVALID_REQUEST, "initialize was already received");
	if (!json_is_object(params))
		return lsp_fail(e, LSP_INVALID_PARAMS, "initialize expects params, an object");
	s->enc = LSP_ENC_UTF16;
	if (offers(json_object_get(general, "positionEncodings"), "utf-8")) {
		s->enc = LSP_ENC_UTF8;
	} else if (!json_object_get(general, "positionEncodings") &&
		   offers(json_object_get(caps, "offsetEncoding"), "utf-8")) {
		/* the clangd extension that clients before LSP 3.17 (Neovim 0.7) offer */
		s->enc = LSP_ENC_UTF8;
		legacy_utf8 = true;
	}
	apply_settings(s, json_object_get(params, "initializationOptions"));
	s->initialized = true;
	result = json_pack(
		"{s:{s:s,s:{s:b,s:i,s:{s:b}},s:{s:[s,s]},s:b,s:b,s:b,s:{s:[s,s,s]},s:b,s:b},s:{s:s,s:s}}",
		"capabilities",
		"positionEncoding", s->enc == LSP_ENC_UTF8 ? "utf-8" : "utf-16",
		"textDocumentSync", "openClose", 1, "change", 2, "save", "includeText", 0,
		"codeActionProvider", "codeActionKinds", "quickfix", "source.fixAll",
		"documentFormattingProvider", 1,
		"documentRangeFormattingProvider", 1,
		"hoverProvider", 1,
		"completionProvider", "triggerCharacters", "$", ",", "@",
		"definitionProvider", 1,
		"documentSymbolProvider", 1,
		"serverInfo", "name", "nvtxtc", "version", NVTXTC_VERSION);
	lsp_feature_capabilities(s, json_object_get(result, "capabilities"));
	if (legacy_utf8)
		json_object_set_new(result, "offsetEncoding", json_string("utf-8"));
	return result;
}

static json_t *shutdown_request(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	(void)params;
	(void)e;
	s->shutdown = true;
	return json_null();
}

/* --- documents ----------------------------------------------------------- */

static void did_open(struct lsp_server *s, json_t *params)
{
	json_t *td = json_object_get(params, "textDocument");
	const char *uri = json_string_value(json_object_get(td, "uri"));
	json_t *text = json_object_get(td, "text");
	json_t *version = json_object_get(td, "version");
	struct lsp_doc *d;
	size_t index;
	void *p;

	if (!uri || !json_is_string(text)) {
		lsp_log_message(s, 1, "nvtxtc: didOpen without textDocument.uri and textDocument.text; ignored");
		return;
	}
	d = find_doc(s, uri, &index);
	if (d) {
		/* opened again: the new text replaces the old */
		lsp_doc_free(d);
		s->docs[index] = d = lsp_doc_new(uri, json_string_value(text), json_string_length(text),
						 json_integer_value(version));
	} else {
		d = lsp_doc_new(uri, json_string_value(text), json_string_length(text), json_integer_value(version));
		p = s->docs;
		xgrow(&p, &s->docs_cap, s->ndocs + 1, sizeof(*s->docs));
		s->docs = p;
		s->docs[s->ndocs++] = d;
	}
	/* a text's generation is never one an earlier text of the URI had (pull diagnostics' resultId) */
	d->gen = ++s->opens << 32;
	schedule(s, d);
}

static void did_change(struct lsp_server *s, json_t *params)
{
	struct lsp_error e = { 0 };
	struct lsp_doc *d = lsp_param_doc(s, params, &e);
	json_t *changes = json_object_get(params, "contentChanges"), *c;
	json_t *version = json_object_get(json_object_get(params, "textDocument"), "version");
	size_t i;

	if (!d) {
		lsp_log_message(s, 1, "nvtxtc: didChange: %s", e.message);
		return;
	}
	if (!json_is_array(changes)) {
		lsp_log_message(s, 1, "nvtxtc: didChange of %s without contentChanges; ignored", d->uri);
		return;
	}
	json_array_foreach(changes, i, c) {
		json_t *text = json_object_get(c, "text"), *range = json_object_get(c, "range");
		size_t a = 0, b = d->len;
		if (!json_is_string(text) || (range && !lsp_range_offsets(s, d, range, &a, &b, &e))) {
			/* the client's text and ours now differ: say so, and keep ours whole */
			lsp_log_message(s, 1, "nvtxtc: didChange of %s: change %zu is invalid (%s); the document may be out of sync: close and reopen it",
				    d->uri, i, json_is_string(text) ? e.message : "no text");
			break;
		}
		lsp_doc_replace(d, a, b, json_string_value(text), json_string_length(text));
	}
	if (json_is_integer(version))
		d->version = json_integer_value(version);
	schedule(s, d);
}

static void did_save(struct lsp_server *s, json_t *params)
{
	struct lsp_error e = { 0 };
	struct lsp_doc *d = lsp_param_doc(s, params, &e);

	if (d)
		schedule(s, d);
}

static void did_close(struct lsp_server *s, json_t *params)
{
	const char *uri = json_string_value(json_object_get(json_object_get(params, "textDocument"), "uri"));
	size_t index;
	struct lsp_doc *d = uri ? find_doc(s, uri, &index) : NULL;

	if (!d)
		return;
	/* its problems leave the editor's list with it */
	lsp_notify(s, "textDocument/publishDiagnostics", json_pack("{s:s,s:[]}", "uri", d->uri, "diagnostics"));
	lsp_doc_free(d);
	s->docs[index] = s->docs[--s->ndocs];
}

static void did_change_configuration(struct lsp_server *s, json_t *params)
{
	apply_settings(s, json_object_get(params, "settings"));
	for (size_t i = 0; i < s->ndocs; i++)
		schedule(s, s->docs[i]);
}

/* --- code actions -------------------------------------------------------- */

json_t *lsp_text_edit(struct lsp_server *s, struct lsp_doc *d, size_t a, size_t b, const char *text, size_t n)
{
	return json_pack("{s:o,s:o}", "range", lsp_jrange(s, d, a, b), "newText", lsp_jstr(text, n));
}

static json_t *fix_title(struct lsp_doc *d, const struct lsp_fix *f)
{
	struct buf b = { 0 };
	json_t *j;

	if (f->start == f->end) {
		buf_adds(&b, "Insert '");
		buf_add_shown(&b, f->text, strlen(f->text), 60);
	} else {
		buf_adds(&b, "Replace '");
		buf_add_shown(&b, d->text + f->start, f->end - f->start, 60);
		buf_adds(&b, "' with '");
		buf_add_shown(&b, f->text, strlen(f->text), 60);
	}
	buf_addc(&b, '\'');
	j = lsp_jstr(b.ptr, b.len);
	buf_free(&b);
	return j;
}

/* True when context.only is absent or lists `kind` or a prefix of it. */
static bool kind_wanted(json_t *only, const char *kind)
{
	size_t i;
	json_t *v;

	if (!json_is_array(only))
		return true;
	json_array_foreach(only, i, v) {
		const char *k = json_string_value(v);
		size_t n = k ? strlen(k) : 0;
		if (k && strncmp(kind, k, n) == 0 && (kind[n] == '\0' || kind[n] == '.'))
			return true;
	}
	return false;
}

static int fix_order(const void *x, const void *y)
{
	const struct lsp_fix *a = *(const struct lsp_fix *const *)x, *b = *(const struct lsp_fix *const *)y;
	return a->start < b->start ? -1 : a->start > b->start ? 1 : a->end < b->end ? -1 : a->end > b->end;
}

static json_t *code_action(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	json_t *only = json_object_get(json_object_get(params, "context"), "only");
	json_t *actions, *diags;
	size_t a, b, nall = 0, last_end = 0;
	const struct lsp_fix **order;
	json_t *all;

	if (!d)
		return NULL;
	if (!lsp_range_offsets(s, d, json_object_get(params, "range"), &a, &b, e))
		return NULL;
	ensure_checked(s, d);
	actions = json_array();
	all = json_array();
	/* fix-all: the fixable fixes in file order, each that does not overlap the one before */
	order = xcalloc(d->nfixes ? d->nfixes : 1, sizeof(*order));
	for (size_t i = 0; i < d->nfixes; i++)
		order[i] = &d->fixes[i];
	qsort(order, d->nfixes, sizeof(*order), fix_order);
	for (size_t i = 0; i < d->nfixes; i++) {
		const struct lsp_fix *f = order[i];
		if (f->fixable && (nall == 0 || f->start >= last_end)) {
			json_array_append_new(all, lsp_text_edit(s, d, f->start, f->end, f->text, strlen(f->text)));
			last_end = f->end;
			nall++;
		}
	}
	free(order);
	for (size_t i = 0; i < d->nfixes; i++) {
		const struct lsp_fix *f = &d->fixes[i];
		if (!kind_wanted(only, "quickfix") || f->end < a || f->start > b)
			continue;
		diags = json_array();
		json_array_append_new(
			diags, json_pack("{s:o,s:i,s:s,s:o}", "range", lsp_jrange(s, d, f->start, f->end), "severity",
					 f->severity, "source", "nvtxtc", "message", lsp_jstr(f->message, strlen(f->message))));
		if (f->code)
			json_object_set_new(json_array_get(diags, 0), "code", json_string(f->code));
		json_array_append_new(actions,
				      json_pack("{s:o,s:s,s:b,s:o,s:{s:{s:[o]}}}", "title", fix_title(d, f), "kind",
						"quickfix", "isPreferred", 1, "diagnostics", diags, "edit", "changes",
						d->uri, lsp_text_edit(s, d, f->start, f->end, f->text, strlen(f->text))));
	}
	if (nall && kind_wanted(only, "source.fixAll")) {
		json_t *changes = json_object();
		json_object_set_new(changes, d->uri, all);
		json_array_append_new(actions,
				      json_pack("{s:s,s:s,s:{s:o}}", "title", "Apply every nvtxtc fix in the file",
						"kind", "source.fixAll", "edit", "changes", changes));
	} else {
		json_decref(all);
	}
	return actions;
}

/* --- dispatch ------------------------------------------------------------ */

typedef json_t *request_fn(struct lsp_server *s, json_t *params, struct lsp_error *e);
typedef void notification_fn(struct lsp_server *s, json_t *params);

static const struct {
	const char *method;
	request_fn *fn;
} requests[] = {
	{ "initialize", initialize },
	{ "shutdown", shutdown_request },
	{ "textDocument/codeAction", code_action },
	{ "textDocument/formatting", lsp_formatting },
	{ "textDocument/rangeFormatting", lsp_range_formatting },
	{ "textDocument/hover", lsp_hover },
	{ "textDocument/completion", lsp_completion },
	{ "textDocument/definition", lsp_definition },
	{ "textDocument/documentSymbol", lsp_document_symbol },
	{ "textDocument/inlayHint", lsp_inlay_hint },
	{ "textDocument/signatureHelp", lsp_signature_help },
	{ "textDocument/foldingRange", lsp_folding_range },
	{ "textDocument/documentHighlight", lsp_document_highlight },
	{ "textDocument/semanticTokens/full", lsp_semantic_tokens_full },
	{ "textDocument/semanticTokens/full/delta", lsp_semantic_tokens_delta },
	{ "textDocument/semanticTokens/range", lsp_semantic_tokens_range },
	{ "textDocument/documentColor", lsp_document_color },
	{ "textDocument/colorPresentation", lsp_color_presentation },
	{ "textDocument/diagnostic", lsp_document_diagnostic },
	{ "workspace/diagnostic", lsp_workspace_diagnostic },
	{ "textDocument/references", lsp_references },
	{ "textDocument/prepareRename", lsp_prepare_rename },
	{ "textDocument/rename", lsp_rename },
};

static const struct {
	const char *method;
	notification_fn *fn;
} notifications[] = {
	{ "textDocument/didOpen", did_open },
	{ "textDocument/didChange", did_change },
	{ "textDocument/didSave", did_save },
	{ "textDocument/didClose", did_close },
	{ "workspace/didChangeConfiguration", did_change_configuration },
};

static bool id_cancelled(struct lsp_server *s, json_t *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(s->cancelled, i, v)
		if (json_equal(v, id)) {
			json_array_remove(s->cancelled, i);
			return true;
		}
	return false;
}

static void handle_request(struct lsp_server *s, const char *method, json_t *id, json_t *params)
{
	struct lsp_error e = { 0 };
	json_t *result;

	if (id_cancelled(s, id)) {
		lsp_respond_error(s, id, LSP_REQUEST_CANCELLED, "the request was cancelled");
		return;
	}
	if (!s->initialized && strcmp(method, "initialize") != 0) {
		lsp_respond_error(s, id, LSP_SERVER_NOT_INITIALIZED, "the server is not initialized: send initialize first");
		return;
	}
	if (s->shutdown) {
		lsp_respond_error(s, id, LSP_INVALID_REQUEST, "the server is shut down: only the exit notification is accepted");
		return;
	}
	for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
		if (strcmp(requests[i].method, method) != 0)
			continue;
		if (params && !json_is_object(params) && !json_is_array(params)) {
			lsp_respond_error(s, id, LSP_INVALID_PARAMS, "params must be an object or an array");
			return;
		}
		result = requests[i].fn(s, params, &e);
		if (result)
			lsp_respond(s, id, result);
		else
			lsp_respond_error(s, id, e.code ? e.code : LSP_INTERNAL_ERROR, e.message);
		return;
	}
	{
		struct buf b = { 0 };
		buf_adds(&b, "unknown method '");
		buf_add_shown(&b, method, strlen(method), 80);
		buf_adds(&b, "'");
		lsp_respond_error(s, id, LSP_METHOD_NOT_FOUND, b.ptr);
		buf_free(&b);
	}
}

static void handle_notification(struct lsp_server *s, const char *method, json_t *params)
{
	if (strcmp(method, "exit") == 0) {
		s->exited = true;
		return;
	}
	/* before initialize, notifications are dropped (LSP 3.17, "Initialize Request") */
	if (!s->initialized || s->shutdown)
		return;
	for (size_t i = 0; i < sizeof notifications / sizeof notifications[0]; i++)
		if (strcmp(notifications[i].method, method) == 0) {
			notifications[i].fn(s, params);
			return;
		}
	/* other notifications, "$/..." ones included, are ignored */
}

/* Handles one message body (n bytes); `later` holds the rest of the batch. */
static void handle_message(struct lsp_server *s, json_t *msg)
{
	json_t *id = json_object_get(msg, "id");
	json_t *method = json_object_get(msg, "method");
	json_t *params = json_object_get(msg, "params");
	const char *version = json_string_value(json_object_get(msg, "jsonrpc"));

	if (!json_is_object(msg) || !version || strcmp(version, "2.0") != 0) {
		lsp_respond_error(s, json_is_object(msg) && (json_is_string(id) || json_is_integer(id)) ? id : NULL,
			      LSP_INVALID_REQUEST, "expected a JSON-RPC 2.0 message: an object with \"jsonrpc\": \"2.0\"");
		return;
	}
	if (!method) {
		/* a response to a request of ours: the server sends none that wait for one */
		if (!json_object_get(msg, "result") && !json_object_get(msg, "error"))
			lsp_respond_error(s, NULL, LSP_INVALID_REQUEST, "expected \"method\" (a request or notification) or \"result\"/\"error\" (a response)");
		return;
	}
	if (!json_is_string(method) || (id && !json_is_string(id) && !json_is_integer(id))) {
		lsp_respond_error(s, json_is_string(id) || json_is_integer(id) ? id : NULL, LSP_INVALID_REQUEST,
			      "\"method\" must be a string and \"id\" an integer or a string");
		return;
	}
	/* "params": null is no params: jsonrpc.el, Zed and lsp4ij send it for void ones */
	if (json_is_null(params))
		params = NULL;
	if (id)
		handle_request(s, json_string_value(method), id, params);
	else
		handle_notification(s, json_string_value(method), params);
}

bool lsp_server_feed(struct lsp_server *s, const void *data, size_t n)
{
	json_t *batch, *msg;
	size_t i;

	if (s->exited)
		return false;
	/* bytes of a skipped body never enter the buffer */
	if (s->skip && s->in.len == s->in_start) {
		size_t k = n < s->skip ? n : (size_t)s->skip;
		s->skip -= k;
		data = (const char *)data + k;
		n -= k;
	}
	buf_add(&s->in, data, n);
	batch = json_array();
	lsp_rpc_extract(s, batch);
	/* a cancellation applies to a request of the same batch that is not answered yet */
	json_array_foreach(batch, i, msg) {
		const char *m = json_string_value(json_object_get(msg, "method"));
		json_t *id = json_object_get(json_object_get(msg, "params"), "id");
		if (m && strcmp(m, "$/cancelRequest") == 0 && (json_is_integer(id) || json_is_string(id)))
			json_array_append(s->cancelled, id);
	}
	json_array_foreach(batch, i, msg) {
		if (s->exited)
			break;
		handle_message(s, msg);
	}
	json_array_clear(s->cancelled);
	json_decref(batch);
	return !s->exited;
}

struct lsp_server *lsp_server_new(FILE *out)
{
	struct lsp_server *s = xcalloc(1, sizeof(*s));

	s->out = out;
	s->debounce_ms = LSP_DEBOUNCE_MS;
	s->cancelled = json_array();
	lsp_feature_defaults(s);
	nvtxt_diag_config_init(&s->config);
	s->base = s->config;
	return s;
}

void lsp_server_set_base_config(struct lsp_server *s, const struct nvtxt_diag_config *c,
				const struct nvtxt_warning_options *w)
{
	s->base = s->config = *c;
	if (w)
		s->base_warn = *w;
}

void lsp_server_free(struct lsp_server *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndocs; i++)
		lsp_doc_free(s->docs[i]);
	free(s->docs);
	buf_free(&s->in);
	for (size_t i = 0; i < LSP_SMALL_INTS; i++)
		json_decref(s->small_ints[i]);
	json_decref(s->cancelled);
	free(s);
}

int lsp_server_exit_status(const struct lsp_server *s)
{
	return s->shutdown ? 0 : 1;
}
