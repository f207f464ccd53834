/*
 * sema.c - the per-instruction passes that turn AST nodes into checked
 * events: binding (variables, $expansion), definitions, calls (arity,
 * static arguments, types and ranges) and ranges (Start <= End); then the
 * event passes (pairing, category, naming) and the back end.
 *
 * Rules: nvtxt(5), ASSIGNMENTS AND EXPANSION, DEFINITIONS AND STATIC
 * ARGUMENTS, ARGUMENTS.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"

struct definition {
	bool custom;                  /* false: the default definition */
	bool poisoned;                /* the last definition was bad: skip calls */
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t nargs;
	struct nvtxt_loc loc;         /* the command name in the @ line */
};

struct sema {
	struct nvtxt_diags *diags;
	const struct nvtxt_backend *backend;
	int io_errno;
	uint64_t ordinal;

	/* binding: name -> variable, open addressing on the name's hash */
	struct nvtxt_binding **vars;
	size_t vars_cap, vars_count;
	/* the variable named like each argument, once assigned: what static arguments read */
	const struct nvtxt_binding *arg_var[NVTXT_ARG_COUNT];

	struct definition defs[NVTXT_CMD_COUNT];
	/* unknown command names whose definition was already reported: their calls are skipped quietly */
	struct idmap unknown_defined;
	struct pairing *pairing;
	struct category *category;
	struct naming *naming;
};

/* --- binding ------------------------------------------------------------- */

static struct nvtxt_binding **var_slot(const struct sema *s, const char *name, size_t len)
{
	size_t i = (size_t)hash_bytes(name, len) & (s->vars_cap - 1);
	for (;; i = (i + 1) & (s->vars_cap - 1)) {
		struct nvtxt_binding *b = s->vars[i];
		if (!b || (b->name_len == len && memcmp(b->name, name, len) == 0))
			return &s->vars[i];
	}
}

static struct nvtxt_binding *var_get(const struct sema *s, struct nvtxt_str name)
{
	return s->vars_cap ? *var_slot(s, name.ptr, name.len) : NULL;
}

static struct nvtxt_binding *var_set(struct sema *s, struct nvtxt_str name)
{
	struct nvtxt_binding **slot, *b;

	if ((s->vars_count + 1) * 2 > s->vars_cap) {
		struct nvtxt_binding **old = s->vars;
		size_t old_cap = s->vars_cap;
		s->vars_cap = old_cap ? old_cap * 2 : 64;
		s->vars = xcalloc(s->vars_cap, sizeof(*s->vars));
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				*var_slot(s, old[i]->name, old[i]->name_len) = old[i];
		free(old);
	}
	slot = var_slot(s, name.ptr, name.len);
	if (*slot)
		return *slot;
	b = xcalloc(1, sizeof(*b));
	b->name = xstrndup(name.ptr, name.len);
	b->name_len = name.len;
	*slot = b;
	s->vars_count++;
	{
		int arg = nvtxt_arg_lookup(name.ptr, name.len);
		if (arg >= 0)
			s->arg_var[arg] = b;
	}
	return b;
}

/* Suggests the defined variable closest to `name`, or NULL. */
static const char *var_suggest(const struct sema *s, struct nvtxt_str name)
{
	const char *best = NULL;
	unsigned best_d = ~0u, limit = 2 * (unsigned)(name.len / 3 > 1 ? name.len / 3 : 1);

	for (size_t i = 0; i < s->vars_cap; i++) {
		const struct nvtxt_binding *b = s->vars[i];
		unsigned d;
		if (!b)
			continue;
		d = edit_distance2(name.ptr, name.len, b->name, b->name_len);
		if (d <= limit && d < best_d) {
			best = b->name;
			best_d = d;
		}
	}
	return best;
}

/*
 * Replaces an expansion by the variable's current value; reports an
 * undefined variable and returns false.  The result keeps the location of
 * the $Name and points at the binding that gave the value.
 */
static bool expand(struct sema *s, struct nvtxt_value *v)
{
	const struct nvtxt_binding *b;
	struct nvtxt_loc loc = v->loc;

	if (v->kind != NVTXT_V_EXPANSION)
		return v->kind != NVTXT_V_POISON;
	b = var_get(s, v->text);
	if (!b) {
		const char *near = diag_would_show(s->diags, NVTXT_SEV_ERROR) ? var_suggest(s, v->text) : NULL;
		struct nvtxt_diag *d = diag_begin(s->diags, NVTXT_W_NONE, &loc, "undefined variable '%.*s'%s%s%s",
						  (int)v->text.len, v->text.ptr,
						  near ? "; did you mean '" : ": no assignment to it comes before this line",
						  near ? near : "", near ? "'?" : "");
		if (near) {
			struct buf fix = { 0 };
			buf_printf(&fix, "$%s", near);
			diag_fixit(d, fix.ptr);
			buf_free(&fix);
		}
		diag_end(s->diags, d);
		v->kind = NVTXT_V_POISON;
		return false;
	}
	*v = b->value;
	v->loc = loc;
	v->origin = b;
	return v->kind != NVTXT_V_POISON;
}

static void assignment(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_value v = in->values[0];
	struct nvtxt_binding *b;

	expand(s, &v);
	b = var_set(s, in->name);
	if (v.text.len + 1 > b->store_cap) {
		b->store_cap = v.text.len + 1;
		b->store = xrealloc(b->store, b->store_cap);
	}
	if (v.text.len)
		memcpy(b->store, v.text.ptr, v.text.len);
	b->store[v.text.len] = '\0';
	b->value = v;
	b->value.text.ptr = b->store;
	/* a copy ($A = $B) keeps the value's type; its origin is this assignment */
	b->value.loc = in->values[0].loc;
	b->value.origin = NULL;
	b->reported = 0;
	b->expanded = in->values[0].kind == NVTXT_V_EXPANSION;
}

/* --- definitions ---------------------------------------------------------- */

static void list_args(struct buf *b, enum nvtxt_command cmd)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(cmd, args);
	for (size_t i = 0; i < n; i++)
		buf_printf(b, "%s%s", i ? (i + 1 == n ? " and " : ", ") : "", nvtxt_arg_name(args[i]));
}

/*
 * Reports an unknown command name; returns the command or -1.  The calls
 * of an unknown command whose definition was reported are not reported
 * again.
 */
static int command(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	uint64_t key = hash_bytes(in->name.ptr, in->name.len);
	const char *near;
	struct nvtxt_diag *d;
	int inserted;

	if (cmd >= 0)
		return cmd;
	if (in->kind == NVTXT_I_CALL && idmap_get(&s->unknown_defined, key, in->name.len))
		return -1;
	if (in->kind == NVTXT_I_DEFINITION && s->unknown_defined.count < 1024)
		idmap_put(&s->unknown_defined, key, in->name.len, 0, &inserted);
	if (in->broken)
		return -1;
	{
		const char *names[NVTXT_CMD_COUNT];
		for (int i = 0; i < NVTXT_CMD_COUNT; i++)
			names[i] = nvtxt_command_name((enum nvtxt_command)i);
		near = suggest(in->name.ptr, in->name.len, names, NVTXT_CMD_COUNT);
	}
	if (near) {
		d = diag_begin(s->diags, NVTXT_W_NONE, &in->name_loc,
			       "unknown command '%.*s'; did you mean '%s'?", (int)in->name.len,
			       in->name.ptr, near);
		diag_fixit(d, near);
	} else {
		d = diag_begin(s->diags, NVTXT_W_NONE, &in->name_loc,
			       "unknown command '%.*s': expected one of Marker, RangePush, RangePop, RangeStartEnd, NameCategory, AddChildCategory, NameOsThread, NameProcess or SetFileDisplayName",
			       (int)in->name.len, in->name.ptr);
	}
	diag_end(s->diags, d);
	return -1;
}

static void definition(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = command(s, in);
	struct definition def = { .custom = true, .loc = in->name_loc };
	size_t where[NVTXT_ARG_COUNT];
	bool bad = false;

	if (cmd < 0)
		return;
	if (in->broken) {
		/* its syntax error is reported; its calls are skipped until the next definition */
		s->defs[cmd] = (struct definition){ .custom = true, .poisoned = true };
		return;
	}
	for (size_t i = 0; i < in->nargs; i++) {
		struct nvtxt_str a = in->args[i];
		int arg = nvtxt_arg_lookup(a.ptr, a.len);
		struct nvtxt_diag *d;

		if (arg < 0 || !nvtxt_command_has_arg((enum nvtxt_command)cmd, (enum nvtxt_arg)arg)) {
			const char *cands[NVTXT_ARG_COUNT];
			enum nvtxt_arg args[NVTXT_ARG_COUNT];
			size_t n = nvtxt_command_default_args((enum nvtxt_command)cmd, args);
			const char *near;
			struct buf list = { 0 };

			for (size_t j = 0; j < n; j++)
				cands[j] = nvtxt_arg_name(args[j]);
			near = suggest(a.ptr, a.len, cands, n);
			list_args(&list, (enum nvtxt_command)cmd);
			if (near) {
				d = diag_begin(s->diags, NVTXT_W_NONE, &in->arg_locs[i],
					       "'%.*s' is not an argument of %s; did you mean '%s'?",
					       (int)a.len, a.ptr, nvtxt_command_name((enum nvtxt_command)cmd), near);
				diag_fixit(d, near);
			} else {
				d = diag_begin(s->diags, NVTXT_W_NONE, &in->arg_locs[i],
					       "'%.*s' is not an argument of %s", (int)a.len, a.ptr,
					       nvtxt_command_name((enum nvtxt_command)cmd));
			}
			diag_note(d, NULL, "%s takes %s", nvtxt_command_name((enum nvtxt_command)cmd), list.ptr);
			diag_end(s->diags, d);
			buf_free(&list);
			bad = true;
			continue;
		}
		for (size_t j = 0; j < def.nargs; j++) {
			if (def.args[j] == (enum nvtxt_arg)arg) {
				d = diag_begin(s->diags, NVTXT_W_NONE, &in->arg_locs[i],
					       "argument '%s' is listed twice in the definition of %s",
					       nvtxt_arg_name((enum nvtxt_arg)arg),
					       nvtxt_command_name((enum nvtxt_command)cmd));
				diag_note(d, &in->arg_locs[where[j]], "first listed here");
				diag_end(s->diags, d);
				bad = true;
				goto next;
			}
		}
		where[def.nargs] = i;
		def.args[def.nargs++] = (enum nvtxt_arg)arg;
	next:;
	}
	def.poisoned = bad;
	s->defs[cmd] = def;
}

/* --- calls: arity, static arguments, types -------------------------------- */

/* One argument of a call while it is checked. */
struct arg_value {
	bool have;
	bool is_static;
	struct nvtxt_value v;
};

struct call {
	struct sema *s;
	const struct nvtxt_instr *in;
	enum nvtxt_command cmd;
	struct arg_value a[NVTXT_ARG_COUNT];
	bool bad;
};

void describe_string(struct buf *b, const char *p, size_t len)
{
	char q = memchr(p, '"', len) ? '\'' : '"';

	buf_addc(b, q);
	buf_add_shown(b, p, len, 60);
	buf_addc(b, q);
}

static void describe_value(struct buf *b, const struct nvtxt_value *v)
{
	if (v->kind == NVTXT_V_INTEGER) {
		buf_adds(b, "integer ");
		buf_add(b, v->text.ptr, v->text.len > 60 ? 60 : v->text.len);
		if (v->text.len > 2 && (v->text.ptr[1] | 0x20) == 'x')
			buf_printf(b, " (%lld)", (long long)v->integer);
	} else {
		buf_adds(b, "string ");
		describe_string(b, v->text.ptr, v->text.len);
	}
}

/*
 * Reports that argument `arg` has a bad value: "expected EXPECTED for Arg,
 * found VALUE[; HINT]".  A literal is reported where it is; an expanded
 * value at the $Name with a note at the assignment; a static value at the
 * assignment (once per assignment) with a note at the call.
 */
static void bad_value(struct call *c, enum nvtxt_arg arg, const char *expected, const char *hint,
		      const char *fixit)
{
	struct arg_value *av = &c->a[arg];
	const struct nvtxt_binding *b = av->v.origin;
	const char *argname = nvtxt_arg_name(arg);
	struct buf found = { 0 };
	struct nvtxt_diag *d;

	c->bad = true;
	if (av->is_static) {
		struct nvtxt_binding *mb = (struct nvtxt_binding *)b;
		if (mb->reported & NVTXT_BIT(arg))
			return;
		mb->reported |= NVTXT_BIT(arg);
	}
	describe_value(&found, &av->v);
	d = diag_begin(c->s->diags, NVTXT_W_NONE, &av->v.loc, "expected %s for %s, found %s%s%s", expected,
		       argname, found.ptr, hint ? "; " : "", hint ? hint : "");
	if (fixit && (!b || (av->is_static && !b->expanded)))
		diag_fixit(d, fixit);
	if (av->is_static)
		diag_note(d, &c->in->name_loc, "%s is a static argument of this %s call: its value comes from the variable '%s'",
			  argname, nvtxt_command_name(c->cmd), argname);
	else if (b)
		diag_note(d, &b->value.loc, "'%s' was assigned this value here", b->name);
	diag_end(c->s->diags, d);
	buf_free(&found);
}

static bool contains(const char *p, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(p + i, what, n) == 0)
			return true;
	return false;
}

static bool want_integer(struct call *c, enum nvtxt_arg arg, const char *expected)
{
	struct arg_value *av = &c->a[arg];
	if (av->v.kind == NVTXT_V_INTEGER)
		return true;
	if (av->v.kind == NVTXT_V_STRING) {
		const char *hint = NULL;
		if (contains(av->v.text.ptr, av->v.text.len, " #"))
			hint = "a comment must be on a line of its own";
		else if (av->v.quote)
			hint = "a quoted value is always a String";
		bad_value(c, arg, expected, hint, NULL);
	}
	return false;
}

static void check_timestamp(struct call *c, enum nvtxt_arg arg, int64_t *out, bool relative)
{
	struct arg_value *av = &c->a[arg];
	const char *expected = relative ? "an Integer timestamp" : "an Integer timestamp >= 0";
	if (!av->have || !want_integer(c, arg, expected))
		return;
	if (av->v.integer < 0 && !relative) {
		bad_value(c, arg, expected, "only TimeBase Relative allows negative timestamps", NULL);
		return;
	}
	*out = av->v.integer;
}

static void check_id(struct call *c, enum nvtxt_arg arg, int64_t *out)
{
	struct arg_value *av = &c->a[arg];
	if (!av->have || !want_integer(c, arg, "an Integer >= 0"))
		return;
	if (av->v.integer < 0) {
		bad_value(c, arg, "an Integer >= 0", NULL, NULL);
		return;
	}
	*out = av->v.integer;
}

static void check_u32(struct call *c, enum nvtxt_arg arg, uint32_t *out)
{
	struct arg_value *av = &c->a[arg];
	const char *expected = "an Integer in 0..4294967295";
	if (!av->have || !want_integer(c, arg, expected))
		return;
	if (av->v.integer < 0 || av->v.integer > (int64_t)UINT32_MAX) {
		bad_value(c, arg, expected, NULL, NULL);
		return;
	}
	*out = (uint32_t)av->v.integer;
}

static void check_string(struct call *c, enum nvtxt_arg arg, struct nvtxt_str *out)
{
	struct arg_value *av = &c->a[arg];
	if (!av->have)
		return;
	if (av->v.kind != NVTXT_V_STRING) {
		struct buf fix = { 0 };
		buf_addc(&fix, '"');
		buf_add(&fix, av->v.text.ptr, av->v.text.len);
		buf_addc(&fix, '"');
		bad_value(c, arg, "a String", "quote it to make it a String", fix.ptr);
		buf_free(&fix);
		return;
	}
	*out = av->v.text;
}

static bool is_hex(int ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

static void check_color(struct call *c, uint32_t *out)
{
	struct arg_value *av = &c->a[NVTXT_ARG_COLOR];
	const char *expected = "a Color (an ARGB Integer in 0..4294967295, a color name or \"0xAARRGGBB\")";
	const char *p = av->v.text.ptr;
	size_t len = av->v.text.len;

	if (!av->have)
		return;
	if (av->v.kind == NVTXT_V_INTEGER) {
		if (av->v.integer < 0 || av->v.integer > (int64_t)UINT32_MAX)
			bad_value(c, NVTXT_ARG_COLOR, expected, NULL, NULL);
		else
			*out = (uint32_t)av->v.integer;
		return;
	}
	if (len >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		uint32_t argb = 0;
		size_t digits = 0;
		while (2 + digits < len && is_hex((unsigned char)p[2 + digits]))
			digits++;
		if (2 + digits != len || digits != 8) {
			char hint[96];
			if (2 + digits != len)
				snprintf(hint, sizeof(hint), "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB)");
			else
				snprintf(hint, sizeof(hint), "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB), not %zu", digits);
			bad_value(c, NVTXT_ARG_COLOR, expected, hint, NULL);
			return;
		}
		for (size_t i = 2; i < len; i++) {
			unsigned ch = (unsigned char)p[i];
			argb = argb << 4 | (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
		}
		*out = argb;
		return;
	}
	if (!nvtxt_color_lookup(p, len, out)) {
		const char *cands[160];
		size_t n = 0;
		const char *near;
		while (n < 160 && (cands[n] = nvtxt_color_name(n)))
			n++;
		near = suggest(p, len, cands, n);
		if (near) {
			char hint[80];
			snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
			bad_value(c, NVTXT_ARG_COLOR, expected, hint, near);
		} else {
			bad_value(c, NVTXT_ARG_COLOR, expected, "not a color name of .NET's System.Drawing.Color", NULL);
		}
	}
}

static void check_timebase(struct call *c, enum nvtxt_timebase *out, bool *ok)
{
	struct arg_value *av = &c->a[NVTXT_ARG_TIMEBASE];
	const char *expected = "a TimeBase (Qpc, Rdtsc, FileTime, Manual, Relative, ClockMonotonicRaw or CNTVCT)";
	int tb;

	*ok = false;
	if (!av->have)
		return;
	if (av->v.kind == NVTXT_V_STRING) {
		tb = nvtxt_timebase_lookup(av->v.text.ptr, av->v.text.len);
		if (tb >= 0) {
			*out = (enum nvtxt_timebase)tb;
			*ok = true;
			return;
		} else {
			const char *cands[NVTXT_TB_COUNT];
			const char *near;
			char hint[96];
			for (int i = 0; i < NVTXT_TB_COUNT; i++)
				cands[i] = nvtxt_timebase_name((enum nvtxt_timebase)i);
			near = suggest(av->v.text.ptr, av->v.text.len, cands, NVTXT_TB_COUNT);
			if (near) {
				snprintf(hint, sizeof(hint), "did you mean '%s'? (time bases are spelt exactly)", near);
				bad_value(c, NVTXT_ARG_TIMEBASE, expected, hint, near);
				return;
			}
		}
	}
	bad_value(c, NVTXT_ARG_TIMEBASE, expected, NULL, NULL);
}

static void arity_error(struct call *c, const enum nvtxt_arg *listed, size_t nlisted)
{
	const struct definition *def = &c->s->defs[c->cmd];
	const struct nvtxt_instr *in = c->in;
	struct nvtxt_loc loc = in->name_loc;
	struct buf names = { 0 };
	struct nvtxt_diag *d;
	const char *cmd = nvtxt_command_name(c->cmd);

	for (size_t i = 0; i < nlisted; i++)
		buf_printf(&names, "%s%s", i ? ", " : "", nvtxt_arg_name(listed[i]));
	if (in->nvalues > nlisted)
		loc = in->values[nlisted].loc;
	d = diag_begin(c->s->diags, NVTXT_W_NONE, &loc,
		       "%s expects %zu value%s (%s), found %zu", cmd, nlisted, nlisted == 1 ? "" : "s",
		       nlisted ? names.ptr : "none", in->nvalues);
	if (def->custom)
		diag_note(d, &def->loc, "%s is defined here; arguments it does not list are static (read from variables)", cmd);
	else
		diag_note(d, NULL, "no '@%s' definition comes before this call, so its default definition applies", cmd);
	diag_end(c->s->diags, d);
	buf_free(&names);
}

/* Builds and checks the event of a call; returns false after an error. */
static bool call_event(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	struct call c = { .s = s, .in = in };
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT];
	const enum nvtxt_arg *listed;
	size_t nlisted, ndflt;
	const struct definition *def;
	int cmd = command(s, in);
	bool tb_ok = false;

	if (cmd < 0)
		return false;
	c.cmd = (enum nvtxt_command)cmd;
	ev->command = c.cmd;
	ev->process_id = ev->thread_id = -1;
	def = &s->defs[cmd];
	if (def->poisoned)
		return false;
	/* a value the scanner already reported makes the call unusable: say nothing more */
	for (size_t i = 0; i < in->nvalues; i++)
		if (in->values[i].kind == NVTXT_V_POISON)
			return false;
	ndflt = nvtxt_command_default_args(c.cmd, dflt);
	listed = def->custom ? def->args : dflt;
	nlisted = def->custom ? def->nargs : ndflt;
	if (in->nvalues != nlisted) {
		arity_error(&c, listed, nlisted);
		return false;
	}

	/* the values the call gives */
	for (size_t i = 0; i < nlisted; i++) {
		struct arg_value *av = &c.a[listed[i]];
		av->v = in->values[i];
		if (!expand(s, &av->v)) {
			c.bad = true;
			continue;
		}
		if (av->v.kind == NVTXT_V_ABSENT) {
			if (!nvtxt_arg_is_optional(listed[i])) {
				diag_error(s->diags, &av->v.loc, "missing value for %s, a required argument of %s",
					   nvtxt_arg_name(listed[i]), nvtxt_command_name(c.cmd));
				c.bad = true;
			}
			continue;
		}
		av->have = true;
	}

	/* the static ones: every other argument, from the variable of its name */
	enum nvtxt_arg missing[NVTXT_ARG_COUNT];
	size_t nmissing = 0;
	uint32_t listed_mask = 0;

	for (size_t j = 0; j < nlisted; j++)
		listed_mask |= NVTXT_BIT(listed[j]);
	for (size_t i = 0; i < ndflt; i++) {
		enum nvtxt_arg arg = dflt[i];
		const struct nvtxt_binding *b;

		if (listed_mask & NVTXT_BIT(arg))
			continue;
		b = s->arg_var[arg];
		if (!b) {
			if (!nvtxt_arg_is_optional(arg))
				missing[nmissing++] = arg;
			continue;
		}
		if (b->value.kind == NVTXT_V_POISON) {
			c.bad = true;
			continue;
		}
		c.a[arg].have = true;
		c.a[arg].is_static = true;
		c.a[arg].v = b->value;
		c.a[arg].v.origin = b;
	}

	if (nmissing) {
		struct buf names = { 0 };
		struct nvtxt_diag *d;
		for (size_t i = 0; i < nmissing; i++)
			buf_printf(&names, "%s%s", i ? (i + 1 == nmissing ? " and " : ", ") : "",
				   nvtxt_arg_name(missing[i]));
		if (nmissing == 1)
			d = diag_begin(s->diags, NVTXT_W_NONE, &in->name_loc,
				       "%s needs a value for %s: its definition does not list it, so it is static, and no variable '%s' is assigned before this call",
				       nvtxt_command_name(c.cmd), names.ptr, names.ptr);
		else
			d = diag_begin(s->diags, NVTXT_W_NONE, &in->name_loc,
				       "%s needs values for %s: its definition does not list them, so they are static, and no variables of those names are assigned before this call",
				       nvtxt_command_name(c.cmd), names.ptr);
		diag_note(d, &def->loc, "the definition of %s is here", nvtxt_command_name(c.cmd));
		diag_end(s->diags, d);
		buf_free(&names);
		c.bad = true;
	}

	memset(ev, 0, sizeof(*ev));
	ev->process_id = ev->thread_id = -1;
	ev->command = c.cmd;
	ev->loc = in->name_loc;
	for (int arg = 0; arg < NVTXT_ARG_COUNT; arg++)
		if (c.a[arg].have)
			ev->present |= NVTXT_BIT(arg);
	check_timebase(&c, &ev->timebase, &tb_ok);
	check_timestamp(&c, NVTXT_ARG_TIME, &ev->time, tb_ok && ev->timebase == NVTXT_TB_RELATIVE);
	check_timestamp(&c, NVTXT_ARG_START, &ev->start, tb_ok && ev->timebase == NVTXT_TB_RELATIVE);
	check_timestamp(&c, NVTXT_ARG_END, &ev->end, tb_ok && ev->timebase == NVTXT_TB_RELATIVE);
	check_id(&c, NVTXT_ARG_PROCESS_ID, &ev->process_id);
	check_id(&c, NVTXT_ARG_THREAD_ID, &ev->thread_id);
	check_u32(&c, NVTXT_ARG_CATEGORY_ID, &ev->category_id);
	check_u32(&c, NVTXT_ARG_PARENT_CATEGORY_ID, &ev->parent_category_id);
	check_color(&c, &ev->color);
	check_string(&c, NVTXT_ARG_MESSAGE, &ev->message);
	check_string(&c, NVTXT_ARG_NAME, &ev->name);
	if (c.a[NVTXT_ARG_PAYLOAD].have && want_integer(&c, NVTXT_ARG_PAYLOAD, "an Integer"))
		ev->payload = c.a[NVTXT_ARG_PAYLOAD].v.integer;
	if (c.bad)
		return false;

	/* ranges: a start/end range may be empty but not reversed */
	if (c.cmd == NVTXT_CMD_RANGE_START_END && ev->start > ev->end) {
		struct nvtxt_diag *d = diag_begin(s->diags, NVTXT_W_NONE, &c.a[NVTXT_ARG_END].v.loc,
			"RangeStartEnd ends before it starts: End %lld is less than Start %lld",
			(long long)ev->end, (long long)ev->start);
		diag_note(d, &c.a[NVTXT_ARG_START].v.loc, "Start is given here");
		diag_end(s->diags, d);
		return false;
	}
	return true;
}

static void deliver(struct sema *s, struct nvtxt_event *ev)
{
	if (s->io_errno || !s->backend || !s->backend->event)
		return;
	if (s->backend->event(s->backend->user, ev) != 0)
		s->io_errno = errno ? errno : EIO;
}

static void call(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_event ev = { .command = NVTXT_CMD_COUNT };
	bool ok;

	if (!call_event(s, in, &ev)) {
		if (ev.command == NVTXT_CMD_RANGE_PUSH || ev.command == NVTXT_CMD_RANGE_POP)
			pairing_failed(s->pairing, &ev, ev.process_id >= 0 && ev.thread_id >= 0);
		return;
	}
	switch (ev.command) {
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		ev.ordinal = s->ordinal;
		ok = pairing_event(s->pairing, s->diags, &ev);
		if (!ok)
			return;
		s->ordinal++;
		deliver(s, &ev);
		if (ev.command == NVTXT_CMD_RANGE_POP)
			pairing_commit(s->pairing);
		return;
	case NVTXT_CMD_NAME_CATEGORY:
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		if (!category_event(s->category, s->diags, &ev))
			return;
		break;
	case NVTXT_CMD_NAME_OS_THREAD:
	case NVTXT_CMD_NAME_PROCESS:
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		naming_event(s->naming, s->diags, &ev);
		break;
	default:
		break;
	}
	ev.ordinal = s->ordinal++;
	deliver(s, &ev);
}

/* --- the pipeline --------------------------------------------------------- */

struct sema *sema_new(struct nvtxt_diags *diags, const struct nvtxt_backend *backend)
{
	struct sema *s = xcalloc(1, sizeof(*s));
	s->diags = diags;
	s->backend = backend;
	s->pairing = pairing_new();
	s->category = category_new();
	s->naming = naming_new();
	return s;
}

void sema_instruction(struct sema *s, const struct nvtxt_instr *in)
{
	switch (in->kind) {
	case NVTXT_I_ASSIGNMENT:
		assignment(s, in);
		break;
	case NVTXT_I_DEFINITION:
		definition(s, in);
		break;
	case NVTXT_I_CALL:
		call(s, in);
		break;
	case NVTXT_I_BLANK:
	case NVTXT_I_COMMENT:
		break;
	}
}

void sema_finish(struct sema *s)
{
	if (pairing_finish(s->pairing, s->diags, s->io_errno ? NULL : s->backend) != 0 && !s->io_errno)
		s->io_errno = errno ? errno : EIO;
	if (!s->io_errno && s->backend && s->backend->finish &&
	    s->backend->finish(s->backend->user) != 0)
		s->io_errno = errno ? errno : EIO;
}

int sema_io_errno(const struct sema *s)
{
	return s->io_errno;
}

void sema_free(struct sema *s)
{
	for (size_t i = 0; i < s->vars_cap; i++) {
		if (s->vars[i]) {
			free(s->vars[i]->name);
			free(s->vars[i]->store);
			free(s->vars[i]);
		}
	}
	free(s->vars);
	idmap_free(&s->unknown_defined);
	pairing_free(s->pairing);
	category_free(s->category);
	naming_free(s->naming);
	free(s);
}
