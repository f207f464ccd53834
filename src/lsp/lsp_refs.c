/*
 * lsp_refs.c - references, rename and prepareRename (LSP 3.17,
 * "textDocument/references", "textDocument/rename",
 * "textDocument/prepareRename"), read from the document's index
 * (lsp_index.h).
 *
 * What has references:
 *   - a variable: its assignments and its $Name expansions (renamed
 *     together; a new name must be a name (nvtxt(5), ASSIGNMENTS: letters,
 *     digits and '_', not first a digit), no other variable's, and neither
 *     name may be an argument's, whose variable is a static argument);
 *   - a definition (@Command) and a call: the definition and the calls it
 *     governs, up to the command's next definition (a command's name is the
 *     language's: no rename);
 *   - a category ID: every CategoryId and ParentCategoryId written as that
 *     number, in calls and in static assignments (NameCategory,
 *     AddChildCategory and the events that use it);
 *   - a thread: every ThreadId written as that number on a line whose event
 *     is of the same process and thread (the check mode's events).
 * A number is renamed only when every event that uses it has it written on
 * its own line (not through $Name or a static assignment shared with other
 * ids); a new number must be in the argument's range and name no other
 * category or thread.  A refused rename is an error response that says
 * why (RequestFailed).
 */
#include <stdlib.h>
#include <string.h>

#include "lsp_index.h"
#include "lsp_int.h"

enum target_kind { TG_NONE, TG_VARIABLE, TG_DEFINITION, TG_CATEGORY, TG_THREAD };

struct target {
	enum target_kind kind;
	const struct lsp_item *at;     /* the token asked about */
	const char *name;              /* TG_VARIABLE */
	size_t len;
	int cmd;                       /* TG_DEFINITION */
	size_t from, to;               /* TG_DEFINITION: the bytes the definition governs */
	int64_t id, pid;               /* TG_CATEGORY, TG_THREAD */
};

/* The event of the line of item k (the call's command name before it), or NULL. */
static const struct lsp_event *line_event(const struct lsp_index *x, size_t k)
{
	while (k > 0 && x->items[k].role == LSP_R_VALUE)
		k--;
	return x->items[k].role == LSP_R_COMMAND ? lsp_index_event(x, x->items[k].start) : NULL;
}

static int64_t item_integer(const struct lsp_doc *d, const struct lsp_item *it)
{
	char buf[32];
	size_t n = it->end - it->start < sizeof buf - 1 ? it->end - it->start : sizeof buf - 1;

	memcpy(buf, d->text + it->start, n);
	buf[n] = '\0';
	return strtoll(buf, NULL, 0);
}

/* The governed span of the definition in force at item k (a call) or defined at k. */
static void definition_span(const struct lsp_index *x, const struct lsp_item *it, struct target *t)
{
	const struct lsp_def *def = it->role == LSP_R_DEF_NAME ? lsp_index_def(x, it->cmd, it->start + 1) :
								 lsp_index_def(x, it->cmd, it->start);
	const struct lsp_def *next = NULL;

	t->from = def ? def->at : 0;
	for (size_t i = def ? (size_t)(def - x->defs) + 1 : 0; i < x->ndefs && !next; i++)
		if (x->defs[i].cmd == it->cmd && x->defs[i].at > t->from)
			next = &x->defs[i];
	t->to = next ? next->at : SIZE_MAX;
}

static void find_target(struct lsp_doc *d, const struct lsp_index *x, size_t at, struct target *t)
{
	size_t k = lsp_index_item_at(x, at);
	const struct lsp_item *it;
	const struct lsp_event *ev;

	memset(t, 0, sizeof(*t));
	if (k >= x->nitems || x->items[k].start > at)
		return;
	it = t->at = &x->items[k];
	if (lsp_index_var_name(d, it, &t->name, &t->len)) {
		t->kind = TG_VARIABLE;
	} else if ((it->role == LSP_R_DEF_NAME || it->role == LSP_R_COMMAND) && it->cmd >= 0) {
		t->kind = TG_DEFINITION;
		t->cmd = it->cmd;
		definition_span(x, it, t);
	} else if (it->role == LSP_R_VALUE && it->kind == NVTXT_V_INTEGER &&
		   (it->arg == NVTXT_ARG_CATEGORY_ID || it->arg == NVTXT_ARG_PARENT_CATEGORY_ID)) {
		t->kind = TG_CATEGORY;
		t->id = item_integer(d, it);
	} else if (it->role == LSP_R_VALUE && it->kind == NVTXT_V_INTEGER && it->arg == NVTXT_ARG_THREAD_ID &&
		   (ev = line_event(x, k)) != NULL) {
		t->kind = TG_THREAD;
		t->id = ev->tid;
		t->pid = ev->pid;
	}
}

/* Whether item k is a reference of t. */
static bool is_ref(const struct lsp_doc *d, const struct lsp_index *x, size_t k, const struct target *t)
{
	const struct lsp_item *it = &x->items[k];
	const struct lsp_event *ev;
	const char *n;
	size_t len;

	switch (t->kind) {
	case TG_VARIABLE:
		return lsp_index_var_name(d, it, &n, &len) && len == t->len && memcmp(n, t->name, len) == 0;
	case TG_DEFINITION:
		return it->cmd == t->cmd && (it->role == LSP_R_COMMAND || it->role == LSP_R_DEF_NAME) &&
		       it->start >= t->from && it->start < t->to;
	case TG_CATEGORY:
		return it->role == LSP_R_VALUE && it->kind == NVTXT_V_INTEGER &&
		       (it->arg == NVTXT_ARG_CATEGORY_ID || it->arg == NVTXT_ARG_PARENT_CATEGORY_ID) &&
		       item_integer(d, it) == t->id;
	case TG_THREAD:
		return it->role == LSP_R_VALUE && it->kind == NVTXT_V_INTEGER && it->arg == NVTXT_ARG_THREAD_ID &&
		       it->cmd >= 0 && (ev = line_event(x, k)) != NULL && ev->tid == t->id && ev->pid == t->pid;
	case TG_NONE:
		break;
	}
	return false;
}

/* The bytes a rename of reference it replaces. */
static void edit_span(const struct target *t, const struct lsp_item *it, size_t *a, size_t *b)
{
	*a = it->start;
	*b = it->end;
	if (t->kind == TG_VARIABLE && it->role == LSP_R_VALUE)
		(*a)++; /* after the '$' */
}

/* The request's document and index (in tg), and the target at its position. */
static bool at_target(struct lsp_server *s, json_t *params, struct lsp_target *tg, struct target *t,
		      struct lsp_error *e)
{
	if (!lsp_target(s, params, LSP_T_POSITION | LSP_T_INDEX, tg, e))
		return false;
	find_target(tg->d, tg->x, tg->at, t);
	return true;
}

json_t *lsp_references(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	const struct lsp_index *x;
	struct target t;
	json_t *out;

	if (!at_target(s, params, &tg, &t, e))
		return NULL;
	d = tg.d, x = tg.x;
	if (t.kind == TG_NONE)
		return json_null();
	out = json_array();
	for (size_t k = 0; k < x->nitems; k++)
		if (is_ref(d, x, k, &t)) {
			size_t a, b;
			edit_span(&t, &x->items[k], &a, &b);
			json_array_append_new(out, json_pack("{s:s,s:o}", "uri", d->uri, "range", lsp_jrange(s, d, a, b)));
		}
	return out;
}

/* --- rename -------------------------------------------------------------------- */

static size_t line_no(const struct lsp_doc *d, size_t off)
{
	return lsp_doc_line_of(d, off) + 1;
}

/* Whether event ev uses the category or thread t. */
static bool event_uses(const struct lsp_event *ev, const struct target *t)
{
	if (t->kind == TG_THREAD)
		return (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) && ev->tid == t->id && ev->pid == t->pid;
	return ((ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) && ev->cat == t->id) ||
	       ((ev->present & NVTXT_BIT(NVTXT_ARG_PARENT_CATEGORY_ID)) && ev->parent == t->id);
}

/* Why t cannot be renamed at all, or NULL. */
static const char *refuse(struct lsp_doc *d, const struct lsp_index *x, const struct target *t, struct buf *why)
{
	switch (t->kind) {
	case TG_NONE:
		return "nothing to rename here: a variable, a category ID or a thread ID can be renamed";
	case TG_DEFINITION:
		return "a command's name is the language's and cannot be renamed";
	case TG_VARIABLE:
		if (nvtxt_arg_lookup(t->name, t->len) >= 0) {
			buf_printf(why, "%.*s is also the static argument %.*s of the calls whose definition does not list it: renaming it would change them",
				   (int)t->len, t->name, (int)t->len, t->name);
			return why->ptr;
		}
		return NULL;
	default:
		break;
	}
	/*
	 * every event that uses the number has it written on its own line, or
	 * (a category) takes it from the static CategoryId, whose assignment is
	 * renamed with the rest
	 */
	for (size_t i = 0; i < x->nevents; i++) {
		const struct lsp_event *ev = &x->events[i];
		bool written = false, listed = false;
		if (!event_uses(ev, t))
			continue;
		for (size_t k = lsp_index_item_at(x, ev->at) + 1; k < x->nitems && x->items[k].role == LSP_R_VALUE; k++) {
			int arg = x->items[k].arg;
			listed |= t->kind == TG_THREAD ? arg == NVTXT_ARG_THREAD_ID :
							 arg == NVTXT_ARG_CATEGORY_ID || arg == NVTXT_ARG_PARENT_CATEGORY_ID;
			written |= is_ref(d, x, k, t);
		}
		if (!written && (listed || t->kind == TG_THREAD)) {
			buf_printf(why, "the %s on line %zu is not written as a number on its line (a $Name or a static argument): change it there first",
				   t->kind == TG_THREAD ? "thread" : "category", line_no(d, ev->at));
			return why->ptr;
		}
	}
	return NULL;
}

/* Why new_name cannot be t's new name, or NULL. */
static const char *refuse_name(struct lsp_doc *d, const struct lsp_index *x, const struct target *t,
			       const char *nn, struct buf *why)
{
	size_t n = strlen(nn);
	char *end;
	long long v;

	if (t->kind == TG_VARIABLE) {
		bool ok = n > 0 && !(nn[0] >= '0' && nn[0] <= '9');
		for (size_t i = 0; i < n; i++)
			ok &= (nn[i] >= 'A' && nn[i] <= 'Z') || (nn[i] >= 'a' && nn[i] <= 'z') ||
			      (nn[i] >= '0' && nn[i] <= '9') || nn[i] == '_';
		if (!ok)
			return "a variable's name is letters, digits and '_', not first a digit";
		if (nvtxt_arg_lookup(nn, n) >= 0) {
			buf_printf(why, "%s is an argument's name: a variable of that name is the static argument %s", nn, nn);
			return why->ptr;
		}
		for (size_t k = 0; k < x->nitems; k++)
			if (x->items[k].role == LSP_R_VAR_DECL && x->items[k].end - x->items[k].start == n &&
			    memcmp(d->text + x->items[k].start, nn, n) == 0) {
				buf_printf(why, "a variable %s is already assigned on line %zu", nn, line_no(d, x->items[k].start));
				return why->ptr;
			}
		return NULL;
	}
	v = strtoll(nn, &end, 0);
	if (n == 0 || *end || v < 0 || (t->kind == TG_CATEGORY && v > (long long)UINT32_MAX))
		return t->kind == TG_CATEGORY ? "a category ID is an Integer from 0 to 4294967295" :
						"a thread ID is an Integer of at least 0";
	for (size_t i = 0; i < x->nevents; i++) {
		const struct lsp_event *ev = &x->events[i];
		bool taken = t->kind == TG_THREAD ? ev->tid == v && ev->pid == t->pid &&
							   (ev->present & NVTXT_BIT(NVTXT_ARG_THREAD_ID)) :
						   (ev->present & NVTXT_BIT(NVTXT_ARG_CATEGORY_ID)) && ev->cat == v;
		if (taken && v != t->id) {
			buf_printf(why, "%s %s is already used on line %zu", t->kind == TG_THREAD ? "thread" : "category", nn,
				   line_no(d, ev->at));
			return why->ptr;
		}
	}
	return NULL;
}

json_t *lsp_prepare_rename(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	size_t a, b;
	struct target t;
	struct buf why = { 0 };
	const char *no;
	json_t *r;

	if (!at_target(s, params, &tg, &t, e))
		return NULL;
	d = tg.d;
	if ((no = refuse(d, tg.x, &t, &why)) != NULL) {
		lsp_fail(e, LSP_REQUEST_FAILED, "cannot rename: %s", no);
		buf_free(&why);
		return NULL;
	}
	edit_span(&t, t.at, &a, &b);
	r = json_pack("{s:o,s:o}", "range", lsp_jrange(s, d, a, b), "placeholder", lsp_jstr(d->text + a, b - a));
	buf_free(&why);
	return r;
}

json_t *lsp_rename(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	const struct lsp_index *x;
	const char *nn = json_string_value(json_object_get(params, "newName"));
	struct target t;
	struct buf why = { 0 };
	const char *no;
	json_t *edits, *changes;

	if (!at_target(s, params, &tg, &t, e))
		return NULL;
	d = tg.d, x = tg.x;
	if (!nn)
		return lsp_fail(e, LSP_INVALID_PARAMS, "expected params.newName, a string");
	if ((no = refuse(d, x, &t, &why)) != NULL || (no = refuse_name(d, x, &t, nn, &why)) != NULL) {
		lsp_fail(e, LSP_REQUEST_FAILED, "cannot rename: %s", no);
		buf_free(&why);
		return NULL;
	}
	buf_free(&why);
	edits = json_array();
	for (size_t k = 0; k < x->nitems; k++)
		if (is_ref(d, x, k, &t)) {
			size_t a, b;
			edit_span(&t, &x->items[k], &a, &b);
			json_array_append_new(edits, lsp_text_edit(s, d, a, b, nn, strlen(nn)));
		}
	changes = json_object();
	json_object_set_new(changes, d->uri, edits);
	return json_pack("{s:o}", "changes", changes);
}
