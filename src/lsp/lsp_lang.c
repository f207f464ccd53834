/*
 * lsp_lang.c - hover, completion, definition and document symbols.
 *
 * Each request walks the document with nvtxt_compile's syntax mode (every
 * line's AST node, include/nvtxt/ast.h) and keeps what nvtxt(5) says is in
 * force at the line asked about: the variables assigned before it
 * (ASSIGNMENTS AND EXPANSION) and each command's current definition
 * (DEFINITIONS AND STATIC ARGUMENTS).  Memory is bounded by the document:
 * one record per distinct variable and the copy of one line.
 */
#include <stdlib.h>
#include <string.h>

#include "nvtxt/ast.h"
#include "nvtxt/checks.h"
#include "lang_args.h"
#include "lang_doc.h"
#include "lsp_int.h"

/* --- the walk ------------------------------------------------------------ */

/* A value as written, owned. */
struct owned_value {
	enum nvtxt_value_kind kind;
	char quote;
	int64_t integer;
	char *text;
	size_t text_len;
	size_t start, end;           /* offsets of the token in the document */
};

struct variable {
	char *name;
	size_t name_len;
	size_t start, end;           /* the name in the assignment that gave the value */
	struct owned_value value;    /* the value, after expansion */
	bool valid;                  /* false: its assignment expanded an undefined variable */
};

struct definition {
	bool present;                /* the file defines the command before here */
	bool broken;
	size_t start, end;           /* the definition line's text */
	size_t name_start, name_end;
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t nargs;
};

struct line_copy {
	enum nvtxt_instr_kind kind;
	char *name;
	size_t name_len;
	size_t name_start, name_end;
	size_t start, end;           /* the line's tokens */
	struct owned_value *values;
	size_t nvalues;
	char **args;
	size_t *arg_start, *arg_end;
	size_t nargs;
};

struct walk {
	struct lsp_server *s;
	struct lsp_doc *d;
	size_t lo, hi;               /* the target line's bytes; lo > d->len: no target */
	bool done;                   /* the target line was seen: later lines change nothing */
	bool found;
	struct line_copy line;
	struct variable *vars;
	size_t nvars, vars_cap;
	struct namemap index;        /* a name -> its index in vars */
	struct definition defs[NVTXT_CMD_COUNT];
	json_t *symbols;             /* documentSymbol: collected when not NULL */
};

static size_t loc_start(const struct walk *w, const struct nvtxt_loc *loc)
{
	uint64_t a = loc->line_offset + (loc->col ? loc->col - 1 : 0);
	return a > w->d->len ? w->d->len : (size_t)a;
}

static size_t loc_end(const struct walk *w, const struct nvtxt_loc *loc)
{
	uint64_t a = loc_start(w, loc) + (uint64_t)loc->len;
	return a > w->d->len ? w->d->len : (size_t)a;
}

static struct variable *find_var(struct walk *w, const char *name, size_t len)
{
	uint32_t *i = namemap_get(&w->index, name, len);

	return i ? &w->vars[*i] : NULL;
}

static void copy_value(const struct walk *w, struct owned_value *o, const struct nvtxt_value *v)
{
	o->kind = v->kind;
	o->quote = v->quote;
	o->integer = v->integer;
	o->text = xstrndup(v->text.ptr ? v->text.ptr : "", v->text.len);
	o->text_len = v->text.len;
	o->start = loc_start(w, &v->loc);
	o->end = loc_end(w, &v->loc);
}

static void assign(struct walk *w, const struct nvtxt_instr *in)
{
	struct variable *var = find_var(w, in->name.ptr, in->name.len);
	const struct nvtxt_value *v = &in->values[0];
	struct variable *from = NULL;

	if (in->nvalues != 1)
		return;
	if (v->kind == NVTXT_V_EXPANSION)
		from = find_var(w, v->text.ptr, v->text.len);
	if (!var) {
		void *p = w->vars;
		int inserted;
		xgrow(&p, &w->vars_cap, w->nvars + 1, sizeof(*w->vars));
		w->vars = p;
		var = &w->vars[w->nvars];
		memset(var, 0, sizeof(*var));
		var->name = xstrndup(in->name.ptr, in->name.len);
		var->name_len = in->name.len;
		namemap_put(&w->index, in->name.ptr, in->name.len, (uint32_t)w->nvars, &inserted);
		w->nvars++;
	} else {
		free(var->value.text);
	}
	var->start = loc_start(w, &in->name_loc);
	var->end = loc_end(w, &in->name_loc);
	if (v->kind == NVTXT_V_EXPANSION) {
		var->valid = from && from->valid;
		if (var->valid) {
			/* the value is copied at this point (nvtxt(5), Expansion) */
			var->value = from->value;
			var->value.text = xstrndup(from->value.text, from->value.text_len);
		} else {
			copy_value(w, &var->value, v);
		}
	} else {
		var->valid = v->kind != NVTXT_V_POISON;
		copy_value(w, &var->value, v);
	}
}

static void define(struct walk *w, const struct nvtxt_instr *in)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	struct definition *def;

	if (cmd < 0)
		return;
	def = &w->defs[cmd];
	memset(def, 0, sizeof(*def));
	def->present = true;
	def->broken = in->broken;
	if (in->broken)
		return;
	def->start = loc_start(w, &in->loc);
	def->end = loc_end(w, &in->end_loc);
	def->name_start = loc_start(w, &in->name_loc);
	def->name_end = loc_end(w, &in->name_loc);
	for (size_t i = 0; i < in->nargs && def->nargs < NVTXT_ARG_COUNT; i++) {
		int a = nvtxt_arg_lookup(in->args[i].ptr, in->args[i].len);
		if (a < 0 || !nvtxt_command_has_arg((enum nvtxt_command)cmd, (enum nvtxt_arg)a)) {
			def->broken = true; /* its calls are skipped (nvtxt(5), Definitions) */
			continue;
		}
		def->args[def->nargs++] = (enum nvtxt_arg)a;
	}
}

/* The arguments a call of cmd lists now: its definition's or the default ones. */
static size_t listed_args(const struct walk *w, enum nvtxt_command cmd, enum nvtxt_arg *args)
{
	if (w->defs[cmd].present) {
		memcpy(args, w->defs[cmd].args, w->defs[cmd].nargs * sizeof(*args));
		return w->defs[cmd].nargs;
	}
	return nvtxt_command_default_args(cmd, args);
}

static void copy_line(struct walk *w, const struct nvtxt_instr *in)
{
	struct line_copy *l = &w->line;

	l->kind = in->kind;
	l->name = xstrndup(in->name.ptr ? in->name.ptr : "", in->name.len);
	l->name_len = in->name.len;
	l->name_start = loc_start(w, &in->name_loc);
	l->name_end = loc_end(w, &in->name_loc);
	l->start = loc_start(w, &in->loc);
	l->end = loc_end(w, &in->end_loc);
	if (in->nvalues) {
		l->values = xcalloc(in->nvalues, sizeof(*l->values));
		for (size_t i = 0; i < in->nvalues; i++)
			copy_value(w, &l->values[i], &in->values[i]);
		l->nvalues = in->nvalues;
	}
	if (in->nargs) {
		l->args = xcalloc(in->nargs, sizeof(*l->args));
		l->arg_start = xcalloc(in->nargs, sizeof(*l->arg_start));
		l->arg_end = xcalloc(in->nargs, sizeof(*l->arg_end));
		for (size_t i = 0; i < in->nargs; i++) {
			l->args[i] = xstrndup(in->args[i].ptr, in->args[i].len);
			l->arg_start[i] = loc_start(w, &in->arg_locs[i]);
			l->arg_end[i] = loc_end(w, &in->arg_locs[i]);
		}
		l->nargs = in->nargs;
	}
}

static void add_symbol(struct walk *w, const char *name, size_t name_len, const char *detail, int kind,
		       size_t a, size_t b, size_t sa, size_t sb)
{
	json_t *sym;

	if (name_len == 0)
		name = "(empty)", name_len = 7;
	if (sa < a)
		sa = a;
	if (sb > b)
		b = sb;
	sym = json_pack("{s:o,s:i,s:o,s:o}", "name", lsp_jstr(name, name_len), "kind", kind, "range",
			lsp_jrange(w->s, w->d, a, b), "selectionRange", lsp_jrange(w->s, w->d, sa, sb));
	if (detail)
		json_object_set_new(sym, "detail", lsp_jstr(detail, strlen(detail)));
	json_array_append_new(w->symbols, sym);
}

/* SymbolKind (LSP 3.17): Namespace 3, Function 12, Variable 13. */
static void symbol(struct walk *w, const struct nvtxt_instr *in)
{
	size_t a = loc_start(w, &in->loc), b = loc_end(w, &in->end_loc);
	struct buf detail = { 0 };
	int cmd;

	if (in->kind == NVTXT_I_ASSIGNMENT && in->nvalues == 1) {
		const struct nvtxt_value *v = &in->values[0];
		if (v->quote == '"' || v->quote == '\'' || v->quote == '$')
			buf_addc(&detail, v->quote == '$' ? '$' : v->quote);
		buf_add(&detail, v->text.ptr, v->text.len);
		if (v->quote == '"' || v->quote == '\'')
			buf_addc(&detail, v->quote);
		add_symbol(w, in->name.ptr, in->name.len, detail.ptr ? detail.ptr : "", 13, a, b,
			   loc_start(w, &in->name_loc), loc_end(w, &in->name_loc));
	} else if (in->kind == NVTXT_I_DEFINITION && !in->broken) {
		buf_addc(&detail, '@');
		buf_add(&detail, in->name.ptr, in->name.len);
		for (size_t i = 0; i < in->nargs; i++) {
			buf_adds(&detail, ", ");
			buf_add(&detail, in->args[i].ptr, in->args[i].len);
		}
		add_symbol(w, detail.ptr, detail.len, in->nargs ? "definition" : "definition (every argument static)",
			   12, a, b, loc_start(w, &in->name_loc), loc_end(w, &in->name_loc));
	} else if (in->kind == NVTXT_I_CALL &&
		   (cmd = nvtxt_command_lookup(in->name.ptr, in->name.len)) >= NVTXT_CMD_NAME_CATEGORY) {
		/* a naming call: its symbol is the name it gives */
		enum nvtxt_arg args[NVTXT_ARG_COUNT];
		size_t n = listed_args(w, (enum nvtxt_command)cmd, args);
		const char *name = NULL;
		size_t name_len = 0;
		if (cmd == NVTXT_CMD_ADD_CHILD_CATEGORY) {
			buf_free(&detail);
			return;
		}
		for (size_t i = 0; i < n && i < in->nvalues; i++)
			if (args[i] == NVTXT_ARG_NAME) {
				const struct nvtxt_value *v = &in->values[i];
				struct variable *var = v->kind == NVTXT_V_EXPANSION ?
							       find_var(w, v->text.ptr, v->text.len) : NULL;
				if (var)
					name = var->value.text, name_len = var->value.text_len;
				else
					name = v->text.ptr, name_len = v->text.len;
			}
		if (!name) {
			struct variable *var = find_var(w, "Name", 4);
			if (var)
				name = var->value.text, name_len = var->value.text_len;
		}
		buf_add(&detail, in->name.ptr, in->name.len);
		for (size_t i = 0; i < n && i < in->nvalues; i++)
			if (args[i] != NVTXT_ARG_NAME) {
				buf_addc(&detail, ' ');
				if (in->values[i].quote)
					buf_addc(&detail, in->values[i].quote);
				buf_add(&detail, in->values[i].text.ptr, in->values[i].text.len);
				if (in->values[i].quote == '"' || in->values[i].quote == '\'')
					buf_addc(&detail, in->values[i].quote);
			}
		add_symbol(w, name ? name : in->name.ptr, name ? name_len : in->name.len, detail.ptr, 3, a, b,
			   loc_start(w, &in->name_loc), loc_end(w, &in->name_loc));
	}
	buf_free(&detail);
}

static void walk_instruction(void *user, const struct nvtxt_instr *in)
{
	struct walk *w = user;
	size_t at;

	if (w->done || in->kind == NVTXT_I_BLANK || in->kind == NVTXT_I_COMMENT)
		return;
	at = in->broken ? SIZE_MAX : loc_start(w, &in->loc);
	if (!in->broken && at >= w->lo && at <= w->hi) {
		/* the state before this line is what the line sees */
		copy_line(w, in);
		w->found = true;
		w->done = true;
		return;
	}
	if (w->symbols)
		symbol(w, in);
	if (in->kind == NVTXT_I_ASSIGNMENT)
		assign(w, in);
	else if (in->kind == NVTXT_I_DEFINITION)
		define(w, in);
}

/* Walks d up to the line holding offset `at` (SIZE_MAX: the whole document). */
static void walk_doc(struct lsp_server *s, struct lsp_doc *d, size_t at, struct walk *w, json_t *symbols)
{
	struct nvtxt_diag_config quiet;
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_compile_result res;

	memset(w, 0, sizeof(*w));
	w->s = s;
	w->d = d;
	w->symbols = symbols;
	if (at == SIZE_MAX) {
		w->lo = w->hi = SIZE_MAX;
	} else {
		size_t line = lsp_doc_line_of(d, at);
		w->lo = d->lines[line];
		w->hi = lsp_doc_line_end(d, line);
	}
	nvtxt_diag_config_init(&quiet);
	co.display_name = d->uri;
	co.diag_config = &quiet;
	co.instruction = walk_instruction;
	co.instruction_user = w;
	lsp_compile_text(d->text, d->len, &co, &res);
}

static void free_value(struct owned_value *v)
{
	free(v->text);
}

static void walk_free(struct walk *w)
{
	for (size_t i = 0; i < w->nvars; i++) {
		free(w->vars[i].name);
		free_value(&w->vars[i].value);
	}
	free(w->vars);
	namemap_free(&w->index);
	free(w->line.name);
	for (size_t i = 0; i < w->line.nvalues; i++)
		free_value(&w->line.values[i]);
	free(w->line.values);
	for (size_t i = 0; i < w->line.nargs; i++)
		free(w->line.args[i]);
	free(w->line.args);
	free(w->line.arg_start);
	free(w->line.arg_end);
}

/* --- describing values --------------------------------------------------- */

static void add_value(struct buf *b, const struct owned_value *v)
{
	switch (v->kind) {
	case NVTXT_V_INTEGER:
		buf_printf(b, "Integer %lld", (long long)v->integer);
		break;
	case NVTXT_V_STRING:
		buf_adds(b, "String \"");
		buf_add_shown(b, v->text, v->text_len, 80);
		buf_addc(b, '"');
		break;
	case NVTXT_V_ABSENT:
		buf_adds(b, "absent");
		break;
	default:
		buf_adds(b, "(invalid)");
		break;
	}
}

/* Line number (1-based, as nvtxtc lint counts) of offset off. */
static size_t line_no(const struct walk *w, size_t off)
{
	return lsp_doc_line_of(w->d, off) + 1;
}

/*
 * Converts value v (a literal, expanded) of argument arg as the passes do
 * (conv_arg, src/lang/lang_args.h) into *ev; `relative`: the call's
 * TimeBase is Relative.
 */
static enum conv convert(enum nvtxt_arg arg, const struct owned_value *v, bool relative, struct nvtxt_event *ev)
{
	const struct nvtxt_value value = {
		.kind = v->kind,
		.quote = v->quote,
		.integer = v->integer,
		.text = { v->text, v->text_len },
	};

	memset(ev, 0, sizeof(*ev));
	if (v->kind != NVTXT_V_INTEGER && v->kind != NVTXT_V_STRING)
		return CONV_SILENT;
	return lang_arg_convert(arg, &value, relative, ev);
}

/*
 * What a value means for argument arg, decided as lint decides: its
 * color or its time base; or, when lint rejects it, what was expected and
 * the check that reports it.
 */
static void add_meaning(struct buf *b, enum nvtxt_arg arg, const struct owned_value *v, bool relative)
{
	struct nvtxt_event ev;
	enum conv r = convert(arg, v, relative, &ev);
	enum nvtxt_check_id check = lang_conv_check(arg, r);
	uint32_t argb = ev.color;

	if (r != CONV_OK && r != CONV_NO_ALPHA) {
		if (check != NVTXT_CHECK_COUNT)
			buf_printf(b, "\n\nNot valid: expected %s for %s [%s].",
				   relative ? lang_args[arg].expected_relative : lang_args[arg].expected,
				   nvtxt_arg_name(arg), nvtxt_check_get(check)->name);
		return;
	}
	if (arg == NVTXT_ARG_COLOR)
		buf_printf(b, "\n\nColor: ARGB `0x%08X` (alpha %u, red %u, green %u, blue %u)", argb, argb >> 24,
			   (argb >> 16) & 255, (argb >> 8) & 255, argb & 255);
	if (r == CONV_NO_ALPHA)
		buf_printf(b, "; fully transparent: 0xAARRGGBB with the alpha byte 0 [%s]", nvtxt_check_get(check)->name);
	if (arg == NVTXT_ARG_TIMEBASE)
		buf_printf(b, "\n\nTime base `%s`: %s.", nvtxt_timebase_name(ev.timebase),
			   lang_timebase_meaning(ev.timebase));
}

static void add_arg_doc(struct buf *b, enum nvtxt_arg arg)
{
	buf_printf(b, "**%s**: %s, %s; %s.", nvtxt_arg_name(arg), lang_arg_doc(arg)->type, lang_arg_doc(arg)->range,
		   lang_arg_doc(arg)->meaning);
}

static void add_signature(struct buf *b, enum nvtxt_command cmd, const enum nvtxt_arg *args, size_t n)
{
	buf_printf(b, "@%s", nvtxt_command_name(cmd));
	for (size_t i = 0; i < n; i++)
		buf_printf(b, ", %s", nvtxt_arg_name(args[i]));
}

/* Hover text for a command: its meaning, the definition in force, the default one, static arguments. */
static void describe_command(struct walk *w, struct buf *b, enum nvtxt_command cmd, bool call)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT], def[NVTXT_ARG_COUNT];
	size_t n = listed_args(w, cmd, args), nd = nvtxt_command_default_args(cmd, def);
	bool any_static = false;

	buf_printf(b, "**%s**: %s\n\n", nvtxt_command_name(cmd), lang_command_meaning(cmd));
	if (w->defs[cmd].present && w->defs[cmd].broken) {
		buf_printf(b, "Definition in force: the one on line %zu, which has an error, so calls are skipped.\n\n",
			   line_no(w, w->defs[cmd].start));
	} else if (w->defs[cmd].present) {
		buf_adds(b, "Definition in force (line ");
		buf_printf(b, "%zu): `", line_no(w, w->defs[cmd].start));
		add_signature(b, cmd, args, n);
		buf_adds(b, "`\n\n");
	} else {
		buf_adds(b, "Definition in force: the default one.\n\n");
	}
	buf_adds(b, "Default definition: `");
	add_signature(b, cmd, def, nd);
	buf_adds(b, "`");
	if (!call || (w->defs[cmd].present && w->defs[cmd].broken))
		return;
	for (size_t i = 0; i < nd; i++) {
		bool listed = false;
		const char *name = nvtxt_arg_name(def[i]);
		struct variable *var;
		for (size_t k = 0; k < n; k++)
			listed |= args[k] == def[i];
		if (listed)
			continue;
		if (!any_static)
			buf_adds(b, "\n\nStatic arguments (from the variables of their names):");
		any_static = true;
		var = find_var(w, name, strlen(name));
		buf_printf(b, "\n- %s = ", name);
		if (var && var->valid) {
			add_value(b, &var->value);
			buf_printf(b, " (line %zu)", line_no(w, var->start));
		} else if (var) {
			buf_printf(b, "(invalid: its assignment on line %zu has an error)", line_no(w, var->start));
		} else {
			buf_adds(b, nvtxt_command_arg_optional(cmd, def[i]) ? "absent (not assigned)" :
								    "not assigned: an error, it is required");
		}
	}
}

/* --- hover --------------------------------------------------------------- */

/* The value v, expanded: NULL when its variable is undefined or invalid. */
static const struct owned_value *expanded(struct walk *w, const struct owned_value *v)
{
	struct variable *var;

	if (v->kind != NVTXT_V_EXPANSION)
		return v;
	var = find_var(w, v->text, v->text_len);
	return var && var->valid ? &var->value : NULL;
}

/*
 * Whether the TimeBase of the call on the line, whose definition in force
 * lists args[0..n), is Relative: its value, or else the variable
 * TimeBase's (a static argument), as the passes convert it.
 */
static bool call_relative(struct walk *w, const enum nvtxt_arg *args, size_t n)
{
	const struct owned_value *tb = NULL;
	struct variable *var = find_var(w, "TimeBase", 8);
	struct nvtxt_event ev;
	bool listed = false;

	for (size_t k = 0; k < n; k++)
		if (args[k] == NVTXT_ARG_TIMEBASE) {
			listed = true;
			tb = k < w->line.nvalues ? expanded(w, &w->line.values[k]) : NULL;
		}
	if (!listed)
		tb = var && var->valid ? &var->value : NULL;
	return tb && convert(NVTXT_ARG_TIMEBASE, tb, false, &ev) == CONV_OK && ev.timebase == NVTXT_TB_RELATIVE;
}

static bool on(size_t at, size_t a, size_t b)
{
	return at >= a && at <= b && b > a;
}

/* Hover over value i of the line (a call's or an assignment's). */
static void describe_value(struct walk *w, struct buf *b, size_t i)
{
	const struct line_copy *l = &w->line;
	const struct owned_value *v = &l->values[i];
	const struct owned_value *resolved = v;
	int cmd = -1, arg = -1;
	struct variable *var = NULL;
	/* an assignment's timestamp may serve a call whose TimeBase is Relative: lint decides at the call */
	bool relative = true;

	if (l->kind == NVTXT_I_CALL) {
		enum nvtxt_arg args[NVTXT_ARG_COUNT];
		size_t n;
		cmd = nvtxt_command_lookup(l->name, l->name_len);
		if (cmd >= 0) {
			n = listed_args(w, (enum nvtxt_command)cmd, args);
			relative = call_relative(w, args, n);
			if (i < n)
				arg = (int)args[i];
			else
				buf_printf(b, "A value too many: the definition of %s in force lists %zu argument%s.\n\n",
					   nvtxt_command_name((enum nvtxt_command)cmd), n, n == 1 ? "" : "s");
		}
		if (arg >= 0) {
			add_arg_doc(b, (enum nvtxt_arg)arg);
			buf_printf(b, "\n\nValue %zu of %s (%s).", i + 1, nvtxt_command_name((enum nvtxt_command)cmd),
				   nvtxt_command_arg_optional((enum nvtxt_command)cmd, (enum nvtxt_arg)arg) ? "optional" : "required");
		}
	} else {
		arg = nvtxt_arg_lookup(l->name, l->name_len);
		buf_adds(b, "Value of the variable `");
		buf_add_shown(b, l->name, l->name_len, 80);
		buf_adds(b, "`");
		if (arg >= 0)
			buf_printf(b, ", the static argument %s of calls whose definition does not list it",
				   nvtxt_arg_name((enum nvtxt_arg)arg));
		buf_adds(b, ".");
		if (arg >= 0) {
			buf_adds(b, "\n\n");
			add_arg_doc(b, (enum nvtxt_arg)arg);
		}
	}
	if (v->kind == NVTXT_V_EXPANSION) {
		var = find_var(w, v->text, v->text_len);
		buf_adds(b, "\n\n`$");
		buf_add_shown(b, v->text, v->text_len, 80);
		buf_adds(b, "` = ");
		if (var && var->valid) {
			add_value(b, &var->value);
			buf_printf(b, ", assigned on line %zu", line_no(w, var->start));
			resolved = &var->value;
		} else if (var) {
			buf_printf(b, "(invalid: its assignment on line %zu has an error)", line_no(w, var->start));
			resolved = NULL;
		} else {
			buf_adds(b, "undefined: no assignment to it comes before this line");
			resolved = NULL;
		}
	} else {
		buf_adds(b, "\n\n");
		add_value(b, v);
	}
	if (resolved && arg >= 0)
		add_meaning(b, (enum nvtxt_arg)arg, resolved, relative);
}

json_t *lsp_hover(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	struct walk w;
	struct buf b = { 0 };
	size_t at, a = 0, z = 0;
	json_t *result = json_null();
	int cmd;

	if (!lsp_target(s, params, LSP_T_POSITION, &t, e))
		return NULL;
	d = t.d, at = t.at;
	walk_doc(s, d, at, &w, NULL);
	if (w.found) {
		struct line_copy *l = &w.line;
		cmd = l->kind == NVTXT_I_ASSIGNMENT ? -1 : nvtxt_command_lookup(l->name, l->name_len);
		if (on(at, l->name_start, l->name_end)) {
			a = l->name_start, z = l->name_end;
			if (cmd >= 0) {
				describe_command(&w, &b, (enum nvtxt_command)cmd, l->kind == NVTXT_I_CALL);
			} else if (l->kind == NVTXT_I_ASSIGNMENT) {
				int arg = nvtxt_arg_lookup(l->name, l->name_len);
				buf_adds(&b, "Variable `");
				buf_add_shown(&b, l->name, l->name_len, 80);
				buf_adds(&b, "`");
				if (l->nvalues == 1 && l->values[0].kind != NVTXT_V_EXPANSION) {
					buf_adds(&b, " = ");
					add_value(&b, &l->values[0]);
				}
				if (arg >= 0) {
					buf_printf(&b, "\n\nAlso the static argument %s of every call whose definition does not list it.\n\n",
						   nvtxt_arg_name((enum nvtxt_arg)arg));
					add_arg_doc(&b, (enum nvtxt_arg)arg);
				}
			}
		}
		for (size_t i = 0; !b.len && i < l->nvalues; i++)
			if (on(at, l->values[i].start, l->values[i].end)) {
				a = l->values[i].start, z = l->values[i].end;
				describe_value(&w, &b, i);
			}
		for (size_t i = 0; !b.len && i < l->nargs; i++)
			if (on(at, l->arg_start[i], l->arg_end[i])) {
				int arg = nvtxt_arg_lookup(l->args[i], strlen(l->args[i]));
				a = l->arg_start[i], z = l->arg_end[i];
				if (arg >= 0)
					add_arg_doc(&b, (enum nvtxt_arg)arg);
			}
	}
	if (b.len)
		result = json_pack("{s:{s:s,s:o},s:o}", "contents", "kind", "markdown", "value",
				   lsp_jstr(b.ptr, b.len), "range", lsp_jrange(s, d, a, z));
	buf_free(&b);
	walk_free(&w);
	return result;
}

/* --- definition ---------------------------------------------------------- */

static json_t *location(struct walk *w, size_t a, size_t b)
{
	return json_pack("{s:s,s:o}", "uri", w->d->uri, "range", lsp_jrange(w->s, w->d, a, b));
}

json_t *lsp_definition(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target t;
	struct lsp_doc *d;
	struct walk w;
	size_t at;
	json_t *result;

	if (!lsp_target(s, params, LSP_T_POSITION, &t, e))
		return NULL;
	d = t.d, at = t.at;
	result = json_array();
	walk_doc(s, d, at, &w, NULL);
	if (w.found) {
		struct line_copy *l = &w.line;
		int cmd = l->kind == NVTXT_I_CALL ? nvtxt_command_lookup(l->name, l->name_len) : -1;
		for (size_t i = 0; i < l->nvalues; i++) {
			struct variable *var;
			if (!on(at, l->values[i].start, l->values[i].end) || l->values[i].kind != NVTXT_V_EXPANSION)
				continue;
			var = find_var(&w, l->values[i].text, l->values[i].text_len);
			if (var)
				json_array_append_new(result, location(&w, var->start, var->end));
		}
		if (cmd >= 0 && on(at, l->name_start, l->name_end)) {
			/* the definition in force, then the assignments of its static arguments */
			enum nvtxt_arg args[NVTXT_ARG_COUNT], def[NVTXT_ARG_COUNT];
			size_t n = listed_args(&w, (enum nvtxt_command)cmd, args);
			size_t nd = nvtxt_command_default_args((enum nvtxt_command)cmd, def);
			if (w.defs[cmd].present)
				json_array_append_new(result, location(&w, w.defs[cmd].name_start, w.defs[cmd].name_end));
			for (size_t i = 0; i < nd && !(w.defs[cmd].present && w.defs[cmd].broken); i++) {
				bool listed = false;
				struct variable *var;
				for (size_t k = 0; k < n; k++)
					listed |= args[k] == def[i];
				var = listed ? NULL : find_var(&w, nvtxt_arg_name(def[i]), strlen(nvtxt_arg_name(def[i])));
				if (var)
					json_array_append_new(result, location(&w, var->start, var->end));
			}
		}
	}
	walk_free(&w);
	if (json_array_size(result) == 0) {
		json_decref(result);
		return json_null();
	}
	return result;
}

/* --- document symbols ---------------------------------------------------- */

json_t *lsp_document_symbol(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_doc *d = lsp_param_doc(s, params, e);
	struct walk w;
	json_t *symbols;

	if (!d)
		return NULL;
	symbols = json_array();
	walk_doc(s, d, SIZE_MAX, &w, symbols);
	walk_free(&w);
	return symbols;
}

/* --- completion ---------------------------------------------------------- */

/* CompletionItemKind (LSP 3.17): Function 3, Field 5, Variable 6, Constant 21, EnumMember 20, Color 16. */
static void add_item(json_t *items, struct lsp_server *s, struct lsp_doc *d, size_t a, size_t b,
		     const char *label, int kind, const char *detail)
{
	json_t *item = json_pack("{s:s,s:i,s:{s:o,s:s}}", "label", label, "kind", kind, "textEdit", "range",
				 lsp_jrange(s, d, a, b), "newText", label);
	if (detail)
		json_object_set_new(item, "detail", lsp_jstr(detail, strlen(detail)));
	json_array_append_new(items, item);
}

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static void complete_values(json_t *items, struct lsp_server *s, struct lsp_doc *d, size_t a, size_t b,
			    int arg)
{
	if (arg == NVTXT_ARG_TIMEBASE)
		for (int i = 0; i < NVTXT_TB_COUNT; i++)
			add_item(items, s, d, a, b, nvtxt_timebase_name((enum nvtxt_timebase)i), 20,
				 lang_timebase_meaning((enum nvtxt_timebase)i));
	if (arg == NVTXT_ARG_COLOR)
		for (size_t i = 0; nvtxt_color_name(i); i++) {
			uint32_t argb = 0;
			char hex[16];
			nvtxt_color_lookup(nvtxt_color_name(i), strlen(nvtxt_color_name(i)), &argb);
			snprintf(hex, sizeof hex, "0x%08X", argb);
			add_item(items, s, d, a, b, nvtxt_color_name(i), 16, hex);
		}
}

/* After $: the variables assigned before this line, each with its value and line. */
static void complete_variables(json_t *items, struct lsp_server *s, struct lsp_doc *d, const struct walk *w,
			       size_t ws, size_t at)
{
	for (size_t i = 0; i < w->nvars; i++) {
		struct buf detail = { 0 };
		if (!w->vars[i].valid)
			continue;
		add_value(&detail, &w->vars[i].value);
		buf_printf(&detail, " (line %zu)", line_no(w, w->vars[i].start));
		add_item(items, s, d, ws, at, w->vars[i].name, 6, detail.ptr);
		buf_free(&detail);
	}
}

/*
 * In a definition of cmd (the names after it end at ne): the arguments of
 * the command that it does not list yet, [ne, ws) being what it lists.
 */
static void complete_definition(json_t *items, struct lsp_server *s, struct lsp_doc *d, enum nvtxt_command cmd,
				size_t ne, size_t ws, size_t at)
{
	const char *t = d->text;
	enum nvtxt_arg all[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(cmd, all);

	for (size_t i = 0; i < n; i++) {
		const char *name = nvtxt_arg_name(all[i]);
		size_t len = strlen(name);
		bool listed = false;
		for (const char *q = t + ne; q + len <= t + ws; q++)
			if (memcmp(q, name, len) == 0 && !word_char(q[len]) && (q == t || !word_char(q[-1])))
				listed = true;
		if (!listed)
			add_item(items, s, d, ws, at, name, 5, lang_arg_doc(all[i])->meaning);
	}
}

/*
 * The word [ws, at) of the line whose first non-blank byte is at p, not
 * after '$': a command name at the start of a line (or after @); in an
 * assignment, the values of the argument the variable is named after;
 * after a comma, a definition's missing argument names, or the values of
 * the argument at this position of a call.
 */
static void complete_word(json_t *items, struct lsp_server *s, struct lsp_doc *d, const struct walk *w,
			  size_t p, size_t ws, size_t at)
{
	const char *t = d->text, *eq = NULL;
	size_t commas = 0, ns = t[p] == '@' ? p + 1 : p, ne = ns;
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	int cmd;

	for (size_t k = p; k < ws; k++) {
		if (t[k] == ',')
			commas++;
		else if (t[k] == '=' && !commas && !eq)
			eq = t + k;
	}
	if (commas == 0 && !eq && ws >= p && (ws == p || (ws == p + 1 && t[p] == '@'))) {
		for (int i = 0; i < NVTXT_CMD_COUNT; i++)
			add_item(items, s, d, ws, at, nvtxt_command_name((enum nvtxt_command)i), 3,
				 lang_command_meaning((enum nvtxt_command)i));
	} else if (eq) {
		ne = (size_t)(eq - t);
		while (ne > p && (t[ne - 1] == ' ' || t[ne - 1] == '\t'))
			ne--;
		complete_values(items, s, d, ws, at, nvtxt_arg_lookup(t + p, ne - p));
	} else if (commas > 0) {
		while (ne < at && word_char(t[ne]))
			ne++;
		cmd = nvtxt_command_lookup(t + ns, ne - ns);
		if (cmd >= 0 && t[p] == '@')
			complete_definition(items, s, d, (enum nvtxt_command)cmd, ne, ws, at);
		else if (cmd >= 0 && commas - 1 < listed_args(w, (enum nvtxt_command)cmd, args))
			complete_values(items, s, d, ws, at, (int)args[commas - 1]);
	}
}

json_t *lsp_completion(struct lsp_server *s, json_t *params, struct lsp_error *e)
{
	struct lsp_target tg;
	struct lsp_doc *d;
	struct walk w;
	size_t at, line, ls, ws, p;
	json_t *items;
	const char *t;

	if (!lsp_target(s, params, LSP_T_POSITION, &tg, e))
		return NULL;
	d = tg.d, at = tg.at;
	line = lsp_doc_line_of(d, at);
	ls = d->lines[line];
	t = d->text;
	/* the word being typed: [ws, at) */
	ws = at;
	while (ws > ls && word_char(t[ws - 1]))
		ws--;
	p = ls;
	while (p < at && (t[p] == ' ' || t[p] == '\t'))
		p++;
	items = json_array();
	if (p < at && t[p] == '#')
		return items;
	/* the state before this line: walk to the line (a line that does not parse yet is not found) */
	walk_doc(s, d, at, &w, NULL);
	if (ws > ls && t[ws - 1] == '$')
		complete_variables(items, s, d, &w, ws, at);
	else
		complete_word(items, s, d, &w, p, ws, at);
	walk_free(&w);
	return items;
}
