/*
 * lsp_pull.c - pull diagnostics (LSP 3.17, "Pull Diagnostics":
 * textDocument/diagnostic and workspace/diagnostic), beside the pushed
 * publishDiagnostics.
 *
 * A report's resultId names the text's generation (lsp_doc.gen: a new one
 * at every didOpen and change) and the settings' (lsp_server.settings_gen),
 * so a client that sends the resultId of the text and settings in force
 * gets "unchanged" without a check.  The workspace's documents are the
 * open ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_int.h"

static void result_id(const struct lsp_server *s, const struct lsp_doc *d, char *out, size_t n)
{
	snprintf(out, n, "%llx.%llx", (unsigned long long)d->gen, (unsigned long long)s->settings_gen);
}

/* A DocumentDiagnosticReport: unchanged when previous is the current resultId, else full. */
static json_t *report(struct lsp_server *s, struct lsp_doc *d, const char *previous)
{
	char id[64];

	result_id(s, d, id, sizeof id);
	if (previous && strcmp(previous, id) == 0)
		return json_pack("{s:s,s:s}", "kind", "unchanged", "resultId", id);
	return json_pack("{s:s,s:s,s:o}", "kind", "full", "resultId", id, "items", lsp_check_doc(s, d));
}

json_t *lsp_document_diagnostic(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	json_t *prev = json_object_get(params, "previousResultId");

	if (!d)
		return NULL;
	if (prev && !json_is_string(prev))
		return lsp_fail(e, LSP_INVALID_PARAMS, "params.previousResultId must be a string");
	return report(s, d, json_string_value(prev));
}

/* The resultId that previousResultIds gives for d, or NULL. */
static const char *previous_for(struct lsp_doc *d, json_t *list)
{
	size_t i;
	json_t *v;

	json_array_foreach(list, i, v) {
		const char *uri = json_string_value(json_object_get(v, "uri"));
		char *key;
		bool same;
		if (!uri || !json_is_string(json_object_get(v, "value")))
			continue;
		key = lsp_uri_key(uri);
		same = strcmp(key, d->key) == 0;
		free(key);
		if (same)
			return json_string_value(json_object_get(v, "value"));
	}
	return NULL;
}

json_t *lsp_workspace_diagnostic(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	json_t *prev = json_object_get(params, "previousResultIds");
	json_t *items;

	if (prev && !json_is_array(prev))
		return lsp_fail(e, LSP_INVALID_PARAMS, "params.previousResultIds must be a list of {uri, value}");
	items = json_array();
	for (size_t i = 0; i < s->ndocs; i++) {
		struct lsp_doc *d = s->docs[i];
		json_t *r = report(s, d, previous_for(d, prev));
		json_object_set_new(r, "uri", json_string(d->uri));
		json_object_set_new(r, "version", json_integer((json_int_t)d->version));
		json_array_append_new(items, r);
	}
	return json_pack("{s:o}", "items", items);
}
