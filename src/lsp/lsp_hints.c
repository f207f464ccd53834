/*
 * lsp_hints.c - inlay hints and signature help (LSP 3.17,
 * "textDocument/inlayHint", "textDocument/signatureHelp"), the settings of
 * the editor features, and their capabilities.
 *
 * Hints read the document's index (lsp_index.h): the argument each value
 * fills under the definition in force, the events' converted times and the
 * RangePush each RangePop closes.  A request costs the tokens of its range.
 */
#include <stdlib.h>
#include <string.h>

#include "lang_doc.h"
#include "lsp_index.h"
#include "lsp_int.h"

/* --- settings and capabilities ------------------------------------------------ */

void lsp_feature_defaults(struct lsp_server *s)
{
	s->feat.hint_names = true;
	s->feat.hint_times = false;
	s->feat.hint_pops = true;
	nvtxt_tconv_init(&s->feat.tconv);
	s->settings_gen++;
}

static void bool_setting(struct lsp_server *s, json_t *obj, const char *key, bool *out)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_boolean(v))
		*out = json_is_true(v);
	else if (v)
		lsp_log_message(s, 1, "nvtxtc: setting \"inlayHints.%s\" must be true or false", key);
}

/*
 * "inlayHints": {"parameterNames", "times", "rangePop"}, booleans;
 * "timeConversions": a list of --time-conversion rules (nvtxtc(1)).
 */
void lsp_feature_settings(struct lsp_server *s, json_t *settings)
{
	json_t *h = json_object_get(settings, "inlayHints"), *tc = json_object_get(settings, "timeConversions"), *v;
	size_t i;

	lsp_feature_defaults(s);
	if (h && !json_is_object(h))
		lsp_log_message(s, 1, "nvtxtc: setting \"inlayHints\" must be an object such as {\"times\": true}");
	bool_setting(s, h, "parameterNames", &s->feat.hint_names);
	bool_setting(s, h, "times", &s->feat.hint_times);
	bool_setting(s, h, "rangePop", &s->feat.hint_pops);
	if (tc && !json_is_array(tc))
		lsp_log_message(s, 1, "nvtxtc: setting \"timeConversions\" must be a list of strings such as \"Qpc:lin:0,0,10000000\"");
	json_array_foreach(tc, i, v) {
		char err[256];
		if (!json_is_string(v))
			lsp_log_message(s, 1, "nvtxtc: setting \"timeConversions\": item %zu is not a string", i);
		else if (nvtxt_tconv_parse(&s->feat.tconv, json_string_value(v), err, sizeof err) != 0)
			lsp_log_message(s, 1, "nvtxtc: setting \"timeConversions\": %s", err);
	}
}

/* The token types and modifiers of semanticTokens (lsp_tokens.c reads the same order). */
const char *const lsp_token_types[] = { "function", "parameter", "variable", "string", "number",
					"enumMember", "comment", NULL };
const char *const lsp_token_modifiers[] = { "declaration", "deprecated", "defaultLibrary", "readonly", NULL };

static json_t *string_list(const char *const *v)
{
	json_t *a = json_array();

	for (size_t i = 0; v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

void lsp_feature_capabilities(struct lsp_server *s, json_t *caps)
{
	(void)s;
	json_object_set_new(caps, "inlayHintProvider", json_pack("{s:b}", "resolveProvider", 0));
	json_object_set_new(caps, "signatureHelpProvider",
			    json_pack("{s:[s],s:[s]}", "triggerCharacters", ",", "retriggerCharacters", ","));
	json_object_set_new(caps, "foldingRangeProvider", json_true());
	json_object_set_new(caps, "documentHighlightProvider", json_true());
	json_object_set_new(caps, "colorProvider", json_true());
	json_object_set_new(caps, "referencesProvider", json_true());
	json_object_set_new(caps, "renameProvider", json_pack("{s:b}", "prepareProvider", 1));
	json_object_set_new(caps, "diagnosticProvider", json_pack("{s:s,s:b,s:b}", "identifier", "nvtxtc",
								  "interFileDependencies", 0, "workspaceDiagnostics", 1));
	json_object_set_new(caps, "semanticTokensProvider",
			    json_pack("{s:{s:o,s:o},s:b,s:{s:b}}", "legend", "tokenTypes", string_list(lsp_token_types),
				      "tokenModifiers", string_list(lsp_token_modifiers), "range", 1, "full", "delta", 1));
}

/* --- inlay hints -------------------------------------------------------------- */

/* "+1.250 ms": t - origin, in the largest unit under which it is at least 1. */
static void add_time(struct buf *b, int64_t ns, int64_t origin)
{
	static const struct { int64_t div; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	__int128 d = (__int128)ns - origin;
	unsigned __int128 m = d < 0 ? (unsigned __int128)-d : (unsigned __int128)d;

	buf_addc(b, d < 0 ? '-' : '+');
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (m >= (unsigned __int128)units[i].div) {
			unsigned __int128 q = m / (unsigned __int128)units[i].div;
			unsigned long long frac = (unsigned long long)(m % (unsigned __int128)units[i].div * 1000 /
								       (unsigned __int128)units[i].div);
			buf_printf(b, "%llu.%03llu %s", (unsigned long long)q, frac, units[i].unit);
			return;
		}
	buf_printf(b, "%llu ns", (unsigned long long)m);
}

static json_t *hint(struct lsp_server *s, struct lsp_doc *d, size_t at, const char *label, size_t n, int kind,
		    bool left)
{
	json_t *h = json_pack("{s:o,s:o}", "position", lsp_jpos(s, d, at), "label", lsp_jstr(label, n));

	if (kind)
		json_object_set_new(h, "kind", json_integer(kind));
	json_object_set_new(h, left ? "paddingLeft" : "paddingRight", json_true());
	return h;
}

/* The hints of one token; ev is the event of its line (NULL: none). */
static void item_hints(struct lsp_server *s, struct lsp_doc *d, const struct lsp_index *x,
		       const struct lsp_item *it, const struct lsp_event *ev, json_t *out)
{
	struct buf b = { 0 };

	if (it->role == LSP_R_VALUE && it->cmd >= 0 && it->arg >= 0 && s->feat.hint_names) {
		buf_printf(&b, "%s:", nvtxt_arg_name((enum nvtxt_arg)it->arg));
		json_array_append_new(out, hint(s, d, it->start, b.ptr, b.len, 2, false));
		b.len = 0;
	}
	if (it->role == LSP_R_VALUE && ev && ev->has_time && s->feat.hint_times &&
	    (it->arg == NVTXT_ARG_TIME || it->arg == NVTXT_ARG_START || it->arg == NVTXT_ARG_END)) {
		int64_t ns = ev->ns[it->arg == NVTXT_ARG_END];
		if (ns != INT64_MIN && x->origin_ns != INT64_MIN) {
			add_time(&b, ns, x->origin_ns);
			json_array_append_new(out, hint(s, d, it->end, b.ptr, b.len, 0, true));
			b.len = 0;
		}
	}
	if (it->role == LSP_R_COMMAND && ev && ev->cmd == NVTXT_CMD_RANGE_POP && ev->pair != UINT32_MAX &&
	    s->feat.hint_pops) {
		/* the range it closes, as rust-analyzer's closing-brace hints */
		size_t line = lsp_doc_line_of(d, it->start);
		size_t push_line = lsp_doc_line_of(d, ev->pair);
		buf_adds(&b, "closes ");
		if (ev->msg_len != UINT32_MAX) {
			buf_addc(&b, '"');
			buf_add_shown(&b, x->strings.ptr + ev->msg, ev->msg_len, 60);
			buf_adds(&b, "\" ");
		}
		buf_printf(&b, "(line %zu)", push_line + 1);
		json_array_append_new(out, hint(s, d, lsp_doc_line_end(d, line), b.ptr, b.len, 0, true));
	}
	buf_free(&b);
}

json_t *lsp_inlay_hint(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	const struct lsp_index *x;
	const struct lsp_event *ev = NULL;
	size_t a, z, i;
	json_t *out;

	if (!lsp_target(s, params, LSP_T_RANGE | LSP_T_INDEX, &tg, e))
		return NULL;
	d = tg.d, x = tg.x, a = tg.a, z = tg.z;
	out = json_array();
	/* from the start of the range's first line, so that the line's event is known */
	for (i = lsp_index_item_at(x, d->lines[lsp_doc_line_of(d, a)]); i < x->nitems; i++) {
		const struct lsp_item *it = &x->items[i];
		if (it->start > z)
			break;
		if (it->role == LSP_R_COMMAND)
			ev = lsp_index_event(x, it->start);
		else if (it->role != LSP_R_VALUE)
			ev = NULL;
		if (it->end >= a)
			item_hints(s, d, x, it, it->cmd >= 0 ? ev : NULL, out);
	}
	return out;
}

/* --- signature help ------------------------------------------------------------ */

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* The commas between p and end outside quoted strings (nvtxt(5), Values: '"' or '\'', backslash escapes). */
static size_t commas_before(const char *p, const char *end)
{
	size_t n = 0;
	char q = 0;

	for (; p < end; p++) {
		if (q && *p == '\\' && p + 1 < end)
			p++;
		else if (q && *p == q)
			q = 0;
		else if (!q && (*p == '"' || *p == '\''))
			q = *p;
		else if (!q && *p == ',')
			n++;
		else if (!q && *p == '#')
			break;
	}
	return n;
}

/* The documentation of a signature: the command, the definition in force, its static arguments. */
static json_t *signature_doc(struct lsp_doc *d, int cmd, const struct lsp_def *def, const enum nvtxt_arg *args,
			     size_t n)
{
	enum nvtxt_arg all[NVTXT_ARG_COUNT];
	size_t nall = nvtxt_command_default_args((enum nvtxt_command)cmd, all);
	struct buf b = { 0 };
	bool any = false;
	json_t *j;

	(void)d;
	buf_adds(&b, lang_command_meaning((enum nvtxt_command)cmd));
	if (def && def->broken)
		buf_printf(&b, "\n\nThe definition in force (line %u) has an error: calls are skipped.", def->line + 1);
	else if (def)
		buf_printf(&b, "\n\nDefinition in force: line %u.", def->line + 1);
	for (size_t i = 0; i < nall && !(def && def->broken); i++) {
		bool listed = false;
		for (size_t k = 0; k < n; k++)
			listed |= args[k] == all[i];
		if (listed)
			continue;
		buf_printf(&b, "%s%s", any ? ", " : "\n\nStatic (from the variable of the same name): ",
			   nvtxt_arg_name(all[i]));
		any = true;
	}
	j = json_pack("{s:s,s:o}", "kind", "markdown", "value", lsp_jstr(b.ptr, b.len));
	buf_free(&b);
	return j;
}

static json_t *signature(struct lsp_doc *d, int cmd, const struct lsp_def *def, size_t active)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = 0;
	struct buf label = { 0 };
	json_t *ps = json_array();

	if (!def)
		n = nvtxt_command_default_args((enum nvtxt_command)cmd, args);
	else
		for (size_t i = 0; !def->broken && i < def->nargs; i++)
			args[n++] = (enum nvtxt_arg)def->args[i];
	buf_adds(&label, nvtxt_command_name((enum nvtxt_command)cmd));
	for (size_t i = 0; i < n; i++) {
		const struct lang_arg_doc *ad = lang_arg_doc(args[i]);
		size_t at;
		struct buf doc = { 0 };
		buf_adds(&label, ", ");
		at = label.len;
		buf_adds(&label, nvtxt_arg_name(args[i]));
		buf_printf(&doc, "%s, %s (%s); %s.", ad->type, ad->range,
			   nvtxt_command_arg_optional((enum nvtxt_command)cmd, args[i]) ? "optional" : "required",
			   ad->meaning);
		json_array_append_new(ps, json_pack("{s:[I,I],s:{s:s,s:o}}", "label", (json_int_t)at,
						    (json_int_t)label.len, "documentation", "kind", "markdown",
						    "value", lsp_jstr(doc.ptr, doc.len)));
		buf_free(&doc);
	}
	{
		json_t *sig = json_pack("{s:o,s:o,s:o,s:I}", "label", lsp_jstr(label.ptr, label.len), "documentation",
					signature_doc(d, cmd, def, args, n), "parameters", ps, "activeParameter",
					(json_int_t)active);
		buf_free(&label);
		return sig;
	}
}

json_t *lsp_signature_help(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	const struct lsp_index *x;
	size_t at, ls, p, ne, commas;
	const char *t;
	int cmd;

	if (!lsp_target(s, params, LSP_T_POSITION, &tg, e))
		return NULL;
	d = tg.d, at = tg.at;
	t = d->text;
	ls = d->lines[lsp_doc_line_of(d, at)];
	p = ls;
	while (p < at && (t[p] == ' ' || t[p] == '\t'))
		p++;
	ne = p;
	while (ne < d->len && word_char(t[ne]))
		ne++;
	/* a call whose name is written and a comma typed after it */
	cmd = nvtxt_command_lookup(t + p, ne - p);
	if (cmd < 0 || ne >= at)
		return json_null();
	commas = commas_before(t + ne, t + at);
	if (commas == 0)
		return json_null();
	x = lsp_index_get(s, d);
	return json_pack("{s:[o],s:i,s:I}", "signatures", signature(d, cmd, lsp_index_def(x, cmd, ls), commas - 1),
			 "activeSignature", 0, "activeParameter", (json_int_t)(commas - 1));
}
