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

#include "reader.h"
#include "sema.h"

struct definition {
	bool custom;                  /* false: the default definition */
	bool poisoned;                /* the last definition was bad: skip calls */
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t nargs;
	struct nvtxt_loc loc;         /* the command name in the @ line */
};

/*
 * The call plan of one command for the fast path (nvtxt(5), DEFINITIONS
 * AND STATIC ARGUMENTS): the values a call gives, in the order they are
 * converted, and the event with the static arguments already converted.
 * It depends on the command's definition and on the variables named like
 * its static arguments; it is rebuilt at the first call after either
 * changes (sema.plan_gen, definition()).
 */
struct call_plan {
	uint64_t gen;                     /* sema.plan_gen when built; 0: not built */
	bool full;                        /* every call takes the full path (a bad definition or static) */
	bool relative;                    /* a static TimeBase that is Relative */
	uint8_t n;                        /* how many values a call gives: the listed arguments */
	/* per listed argument, a TimeBase first: the index of its value in the call, and the argument */
	uint8_t index[NVTXT_ARG_COUNT];
	uint8_t arg[NVTXT_ARG_COUNT];
	uint32_t optional;                /* NVTXT_BIT(arg): a listed argument whose value may be absent */
	struct nvtxt_event tmpl;          /* command, ids -1, the statics converted with their present bits */
};

struct sema {
	struct nvtxt_diags *diags;
	const struct nvtxt_backend *backend;
	int io_errno;
	uint64_t ordinal;

	bool fast;                        /* the fast path of calls (sema_set_fast_path) */
	uint64_t plan_gen;                /* bumped by an assignment to a variable named like an argument */
	struct call_plan plans[NVTXT_CMD_COUNT];

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
static const char *var_suggest(const struct sema *s, struct nvtxt_str name, bool *unique)
{
	const char *best = NULL;
	unsigned best_d = ~0u, limit = 2 * (unsigned)(name.len / 3 > 1 ? name.len / 3 : 1);
	bool tie = false;

	for (size_t i = 0; i < s->vars_cap; i++) {
		const struct nvtxt_binding *b = s->vars[i];
		unsigned d;
		if (!b)
			continue;
		d = edit_distance2(name.ptr, name.len, b->name, b->name_len);
		if (d <= limit && d < best_d) {
			best = b->name;
			best_d = d;
			tie = false;
		} else if (d == best_d) {
			tie = true;
		}
	}
	*unique = best && !tie;
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
		bool unique = false;
		const char *near = diag_would_show(s->diags, NVTXT_SEV_ERROR) ? var_suggest(s, v->text, &unique) : NULL;
		struct nvtxt_diag *d = diag_begin(s->diags, NVTXT_CHECK_UNDEFINED_VARIABLE, &loc, "undefined variable '%.*s'%s%s%s",
						  (int)v->text.len, v->text.ptr,
						  near ? "; did you mean '" : ": no assignment to it comes before this line",
						  near ? near : "", near ? "'?" : "");
		if (near && unique) {
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
	/* a new value of a static argument: every call plan must read it again */
	for (int arg = 0; arg < NVTXT_ARG_COUNT; arg++) {
		if (s->arg_var[arg] == b) {
			s->plan_gen++;
			break;
		}
	}
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
 * The command named `name` (len bytes, exact case), or -1: the same as
 * nvtxt_command_lookup, without a strlen per name.  A switch on the length
 * and one memcmp of a constant size, which the compiler inlines.
 */
static int command_lookup(const char *name, size_t len)
{
	switch (len) {
	case 6:
		return memcmp(name, "Marker", 6) == 0 ? NVTXT_CMD_MARKER : -1;
	case 8:
		return memcmp(name, "RangePop", 8) == 0 ? NVTXT_CMD_RANGE_POP : -1;
	case 9:
		return memcmp(name, "RangePush", 9) == 0 ? NVTXT_CMD_RANGE_PUSH : -1;
	case 11:
		return memcmp(name, "NameProcess", 11) == 0 ? NVTXT_CMD_NAME_PROCESS : -1;
	case 12:
		if (memcmp(name, "NameCategory", 12) == 0)
			return NVTXT_CMD_NAME_CATEGORY;
		return memcmp(name, "NameOsThread", 12) == 0 ? NVTXT_CMD_NAME_OS_THREAD : -1;
	case 13:
		return memcmp(name, "RangeStartEnd", 13) == 0 ? NVTXT_CMD_RANGE_START_END : -1;
	case 16:
		return memcmp(name, "AddChildCategory", 16) == 0 ? NVTXT_CMD_ADD_CHILD_CATEGORY : -1;
	case 18:
		return memcmp(name, "SetFileDisplayName", 18) == 0 ? NVTXT_CMD_SET_FILE_DISPLAY_NAME : -1;
	default:
		return -1;
	}
}

/*
 * Reports an unknown command name; returns the command or -1.  The calls
 * of an unknown command whose definition was reported are not reported
 * again.
 */
static int command(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = command_lookup(in->name.ptr, in->name.len);
	uint64_t key;
	const char *near;
	struct nvtxt_diag *d;
	int inserted;
	bool unique;

	if (cmd >= 0)
		return cmd;
	key = hash_bytes(in->name.ptr, in->name.len);
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
		near = suggest_unique(in->name.ptr, in->name.len, names, NVTXT_CMD_COUNT, &unique);
	}
	if (near) {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
			       "unknown command '%.*s'; did you mean '%s'?", (int)in->name.len,
			       in->name.ptr, near);
		if (unique)
			diag_fixit(d, near);
	} else {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
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
		s->plans[cmd].gen = 0;
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
			size_t m = 0;
			bool unique;

			/* an argument the definition already lists is no fix */
			for (size_t j = 0; j < n; j++) {
				bool listed = false;
				for (size_t k = 0; k < in->nargs && !listed; k++)
					listed = nvtxt_arg_lookup(in->args[k].ptr, in->args[k].len) == (int)args[j];
				if (!listed)
					cands[m++] = nvtxt_arg_name(args[j]);
			}
			near = suggest_unique(a.ptr, a.len, cands, m, &unique);
			list_args(&list, (enum nvtxt_command)cmd);
			if (near) {
				d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
					       "'%.*s' is not an argument of %s; did you mean '%s'?",
					       (int)a.len, a.ptr, nvtxt_command_name((enum nvtxt_command)cmd), near);
				if (unique)
					diag_fixit(d, near);
			} else {
				d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
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
				d = diag_begin(s->diags, NVTXT_CHECK_DUPLICATE_ARGUMENT, &in->arg_locs[i],
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
	s->plans[cmd].gen = 0;
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
static void bad_value(struct call *c, enum nvtxt_check_id check, enum nvtxt_arg arg, const char *expected,
		      const char *hint, const char *fixit)
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
	d = diag_begin(c->s->diags, check, &av->v.loc, "expected %s for %s, found %s%s%s", expected,
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

/* --- conversions: one per type, shared by the full path and the fast path -- */

/* Inlined into each caller: the fast path's loop gets its own copy of the dispatch. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/*
 * The outcome of converting one value to the type and range of an
 * argument.  Only CONV_OK stores the result.  The full path reports every
 * outcome above CONV_SILENT (report_conv); the fast path hands every
 * outcome but CONV_OK to the full path.
 */
enum conv {
	CONV_OK,
	CONV_SILENT,        /* neither Integer nor String where an Integer is wanted: no value, no report */
	CONV_NOT_INTEGER,   /* a String where an Integer is wanted */
	CONV_RANGE,         /* an Integer out of the argument's range */
	CONV_NOT_STRING,    /* not a String where a String is wanted */
	CONV_HEX_NOT_DIGIT, /* a Color "0x..." with a character that is not a hex digit */
	CONV_HEX_COUNT,     /* a Color "0x" and hex digits, but not exactly 8 of them */
	CONV_UNKNOWN_NAME   /* a String that names no color or time base */
};

/* An Integer in min..max (inclusive) into *out. */
static inline enum conv conv_integer(const struct nvtxt_value *v, int64_t min, int64_t max, int64_t *out)
{
	if (v->kind != NVTXT_V_INTEGER)
		return v->kind == NVTXT_V_STRING ? CONV_NOT_INTEGER : CONV_SILENT;
	if (v->integer < min || v->integer > max)
		return CONV_RANGE;
	*out = v->integer;
	return CONV_OK;
}

/* An Integer in 0..UINT32_MAX into *out (CategoryId, ParentCategoryId). */
static inline enum conv conv_u32(const struct nvtxt_value *v, uint32_t *out)
{
	int64_t x = 0;
	enum conv r = conv_integer(v, 0, (int64_t)UINT32_MAX, &x);

	if (r == CONV_OK)
		*out = (uint32_t)x;
	return r;
}

/* A String into *out, pointing at the value's bytes (Message, Name). */
static inline enum conv conv_string(const struct nvtxt_value *v, struct nvtxt_str *out)
{
	if (v->kind != NVTXT_V_STRING)
		return CONV_NOT_STRING;
	*out = v->text;
	return CONV_OK;
}

static bool is_hex(int ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

/*
 * A Color into *out, as ARGB: an Integer in 0..UINT32_MAX, or (any other
 * value, by its text) "0x" or "0X" and exactly 8 hex digits, or a color
 * name (nvtxt_color_lookup, any case).
 */
static enum conv conv_color(const struct nvtxt_value *v, uint32_t *out)
{
	const char *p = v->text.ptr;
	size_t len = v->text.len;

	if (v->kind == NVTXT_V_INTEGER) {
		if (v->integer < 0 || v->integer > (int64_t)UINT32_MAX)
			return CONV_RANGE;
		*out = (uint32_t)v->integer;
		return CONV_OK;
	}
	if (len >= 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		uint32_t argb = 0;
		size_t digits = 0;
		while (2 + digits < len && is_hex((unsigned char)p[2 + digits]))
			digits++;
		if (2 + digits != len)
			return CONV_HEX_NOT_DIGIT;
		if (digits != 8)
			return CONV_HEX_COUNT;
		for (size_t i = 2; i < len; i++) {
			unsigned ch = (unsigned char)p[i];
			argb = argb << 4 | (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
		}
		*out = argb;
		return CONV_OK;
	}
	return nvtxt_color_lookup(p, len, out) ? CONV_OK : CONV_UNKNOWN_NAME;
}

/*
 * The time base named `name` (len bytes, exact case), or -1: the same as
 * nvtxt_timebase_lookup, with a switch on the length instead of a strlen
 * per name.
 */
static int timebase_lookup(const char *name, size_t len)
{
	switch (len) {
	case 3:
		return memcmp(name, "Qpc", 3) == 0 ? NVTXT_TB_QPC : -1;
	case 5:
		return memcmp(name, "Rdtsc", 5) == 0 ? NVTXT_TB_RDTSC : -1;
	case 6:
		if (memcmp(name, "Manual", 6) == 0)
			return NVTXT_TB_MANUAL;
		return memcmp(name, "CNTVCT", 6) == 0 ? NVTXT_TB_CNTVCT : -1;
	case 8:
		if (memcmp(name, "FileTime", 8) == 0)
			return NVTXT_TB_FILETIME;
		return memcmp(name, "Relative", 8) == 0 ? NVTXT_TB_RELATIVE : -1;
	case 17:
		return memcmp(name, "ClockMonotonicRaw", 17) == 0 ? NVTXT_TB_CLOCK_MONOTONIC_RAW : -1;
	default:
		return -1;
	}
}

/* A String naming a time base into *out. */
static inline enum conv conv_timebase(const struct nvtxt_value *v, enum nvtxt_timebase *out)
{
	int tb;

	if (v->kind != NVTXT_V_STRING)
		return CONV_NOT_STRING;
	tb = timebase_lookup(v->text.ptr, v->text.len);
	if (tb < 0)
		return CONV_UNKNOWN_NAME;
	*out = (enum nvtxt_timebase)tb;
	return CONV_OK;
}

/*
 * Converts value v of argument `arg` into the argument's field of *ev
 * (Time into ev->time, Color into ev->color, ...) and touches nothing
 * else; `relative` is true when the call's TimeBase is Relative, which
 * allows negative timestamps.  Timestamps and ids are int64 >= 0 (any
 * timestamp when relative), CategoryId and ParentCategoryId uint32,
 * Payload any int64.  No side effects, no reports: the one conversion of
 * both paths.
 */
static ALWAYS_INLINE enum conv conv_arg(enum nvtxt_arg arg, const struct nvtxt_value *v, bool relative,
					struct nvtxt_event *ev)
{
	int64_t tmin = relative ? INT64_MIN : 0;

	switch (arg) {
	case NVTXT_ARG_TIME:
		return conv_integer(v, tmin, INT64_MAX, &ev->time);
	case NVTXT_ARG_START:
		return conv_integer(v, tmin, INT64_MAX, &ev->start);
	case NVTXT_ARG_END:
		return conv_integer(v, tmin, INT64_MAX, &ev->end);
	case NVTXT_ARG_TIMEBASE:
		return conv_timebase(v, &ev->timebase);
	case NVTXT_ARG_PROCESS_ID:
		return conv_integer(v, 0, INT64_MAX, &ev->process_id);
	case NVTXT_ARG_THREAD_ID:
		return conv_integer(v, 0, INT64_MAX, &ev->thread_id);
	case NVTXT_ARG_CATEGORY_ID:
		return conv_u32(v, &ev->category_id);
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		return conv_u32(v, &ev->parent_category_id);
	case NVTXT_ARG_COLOR:
		return conv_color(v, &ev->color);
	case NVTXT_ARG_MESSAGE:
		return conv_string(v, &ev->message);
	case NVTXT_ARG_NAME:
		return conv_string(v, &ev->name);
	case NVTXT_ARG_PAYLOAD:
		return conv_integer(v, INT64_MIN, INT64_MAX, &ev->payload);
	case NVTXT_ARG_COUNT:
		break;
	}
	return CONV_SILENT;
}

/* --- the reports of the full path ----------------------------------------- */

/* Reports a String where an Integer is wanted, with a hint when it looks like one. */
static void report_not_integer(struct call *c, enum nvtxt_arg arg, const char *expected)
{
	const struct nvtxt_value *v = &c->a[arg].v;
	const char *hint = NULL;

	if (contains(v->text.ptr, v->text.len, " #"))
		hint = "a comment must be on a line of its own";
	else if (v->quote)
		hint = "a quoted value is always a String";
	bad_value(c, NVTXT_CHECK_TYPE_MISMATCH, arg, expected, hint, NULL);
}

static void report_color(struct call *c, enum conv r)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_COLOR].v;
	const char *expected = "a Color (an ARGB Integer in 0..4294967295, a color name or \"0xAARRGGBB\")";
	char hint[96];

	switch (r) {
	case CONV_HEX_NOT_DIGIT:
		bad_value(c, NVTXT_CHECK_INVALID_COLOR, NVTXT_ARG_COLOR, expected,
			  "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB)", NULL);
		return;
	case CONV_HEX_COUNT:
		snprintf(hint, sizeof(hint), "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB), not %zu",
			 v->text.len - 2);
		bad_value(c, NVTXT_CHECK_INVALID_COLOR, NVTXT_ARG_COLOR, expected, hint, NULL);
		return;
	case CONV_UNKNOWN_NAME: {
		const char *cands[160];
		size_t n = 0;
		const char *near;
		bool unique;
		while (n < 160 && (cands[n] = nvtxt_color_name(n)))
			n++;
		near = suggest_unique(v->text.ptr, v->text.len, cands, n, &unique);
		if (near) {
			snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
			bad_value(c, NVTXT_CHECK_INVALID_COLOR, NVTXT_ARG_COLOR, expected, hint, unique ? near : NULL);
		} else {
			bad_value(c, NVTXT_CHECK_INVALID_COLOR, NVTXT_ARG_COLOR, expected, "not a color name of .NET's System.Drawing.Color", NULL);
		}
		return;
	}
	default:
		bad_value(c, NVTXT_CHECK_INVALID_COLOR, NVTXT_ARG_COLOR, expected, NULL, NULL);
		return;
	}
}

static void report_timebase(struct call *c, enum conv r)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_TIMEBASE].v;
	const char *expected = "a TimeBase (Qpc, Rdtsc, FileTime, Manual, Relative, ClockMonotonicRaw or CNTVCT)";

	if (r == CONV_UNKNOWN_NAME) {
		const char *cands[NVTXT_TB_COUNT];
		const char *near;
		char hint[96];
		bool unique;
		for (int i = 0; i < NVTXT_TB_COUNT; i++)
			cands[i] = nvtxt_timebase_name((enum nvtxt_timebase)i);
		near = suggest_unique(v->text.ptr, v->text.len, cands, NVTXT_TB_COUNT, &unique);
		if (near) {
			snprintf(hint, sizeof(hint), "did you mean '%s'? (time bases are spelt exactly)", near);
			bad_value(c, NVTXT_CHECK_INVALID_TIMEBASE, NVTXT_ARG_TIMEBASE, expected, hint, unique ? near : NULL);
			return;
		}
	}
	bad_value(c, NVTXT_CHECK_INVALID_TIMEBASE, NVTXT_ARG_TIMEBASE, expected, NULL, NULL);
}

static void report_not_string(struct call *c, enum nvtxt_arg arg)
{
	const struct nvtxt_value *v = &c->a[arg].v;
	struct buf fix = { 0 };

	buf_addc(&fix, '"');
	buf_add(&fix, v->text.ptr, v->text.len);
	buf_addc(&fix, '"');
	bad_value(c, NVTXT_CHECK_TYPE_MISMATCH, arg, "a String", "quote it to make it a String", fix.ptr);
	buf_free(&fix);
}

/*
 * Reports conversion outcome r (above CONV_SILENT) of argument `arg`, as
 * "expected TYPE for Arg, found VALUE[; HINT]"; `relative` as given to
 * conv_arg.
 */
static void report_conv(struct call *c, enum nvtxt_arg arg, enum conv r, bool relative)
{
	const char *expected;

	switch (arg) {
	case NVTXT_ARG_TIME:
	case NVTXT_ARG_START:
	case NVTXT_ARG_END:
		expected = relative ? "an Integer timestamp" : "an Integer timestamp >= 0";
		if (r == CONV_NOT_INTEGER)
			report_not_integer(c, arg, expected);
		else
			bad_value(c, NVTXT_CHECK_OUT_OF_RANGE, arg, expected, "only TimeBase Relative allows negative timestamps", NULL);
		return;
	case NVTXT_ARG_PROCESS_ID:
	case NVTXT_ARG_THREAD_ID:
		expected = "an Integer >= 0";
		break;
	case NVTXT_ARG_CATEGORY_ID:
	case NVTXT_ARG_PARENT_CATEGORY_ID:
		expected = "an Integer in 0..4294967295";
		break;
	case NVTXT_ARG_PAYLOAD:
		expected = "an Integer";
		break;
	case NVTXT_ARG_MESSAGE:
	case NVTXT_ARG_NAME:
		report_not_string(c, arg);
		return;
	case NVTXT_ARG_COLOR:
		report_color(c, r);
		return;
	case NVTXT_ARG_TIMEBASE:
		report_timebase(c, r);
		return;
	default:
		return;
	}
	if (r == CONV_NOT_INTEGER)
		report_not_integer(c, arg, expected);
	else
		bad_value(c, NVTXT_CHECK_OUT_OF_RANGE, arg, expected, NULL, NULL);
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
	d = diag_begin(c->s->diags, NVTXT_CHECK_ARITY, &loc,
		       "%s expects %zu value%s (%s), found %zu", cmd, nlisted, nlisted == 1 ? "" : "s",
		       nlisted ? names.ptr : "none", in->nvalues);
	if (def->custom)
		diag_note(d, &def->loc, "%s is defined here; arguments it does not list are static (read from variables)", cmd);
	else
		diag_note(d, NULL, "no '@%s' definition comes before this call, so its default definition applies", cmd);
	diag_end(c->s->diags, d);
	buf_free(&names);
}

/* The order in which the full path checks (and reports) the arguments of a call. */
static const enum nvtxt_arg check_order[NVTXT_ARG_COUNT] = {
	NVTXT_ARG_TIMEBASE, NVTXT_ARG_TIME, NVTXT_ARG_START, NVTXT_ARG_END,
	NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID, NVTXT_ARG_CATEGORY_ID,
	NVTXT_ARG_PARENT_CATEGORY_ID, NVTXT_ARG_COLOR, NVTXT_ARG_MESSAGE, NVTXT_ARG_NAME,
	NVTXT_ARG_PAYLOAD,
};

/*
 * The full path: builds and checks the event of a call, reporting every
 * error; returns false after one.  The reference for the fast path.
 */
static bool call_event(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	struct call c = { .s = s, .in = in };
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT];
	const enum nvtxt_arg *listed;
	size_t nlisted, ndflt;
	const struct definition *def;
	int cmd = command(s, in);
	bool relative = false;

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
				diag_error(s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &av->v.loc, "missing value for %s, a required argument of %s",
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
			d = diag_begin(s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &in->name_loc,
				       "%s needs a value for %s: its definition does not list it, so it is static, and no variable '%s' is assigned before this call",
				       nvtxt_command_name(c.cmd), names.ptr, names.ptr);
		else
			d = diag_begin(s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &in->name_loc,
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
	/* types and ranges, TimeBase first: a Relative one allows negative timestamps */
	for (size_t k = 0; k < NVTXT_ARG_COUNT; k++) {
		enum nvtxt_arg arg = check_order[k];
		enum conv r;

		if (!c.a[arg].have)
			continue;
		r = conv_arg(arg, &c.a[arg].v, relative, ev);
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = r == CONV_OK && ev->timebase == NVTXT_TB_RELATIVE;
		if (r > CONV_SILENT)
			report_conv(&c, arg, r, relative);
	}
	if (c.bad)
		return false;

	/* ranges: a start/end range may be empty but not reversed */
	if (c.cmd == NVTXT_CMD_RANGE_START_END && ev->start > ev->end) {
		struct nvtxt_diag *d = diag_begin(s->diags, NVTXT_CHECK_END_BEFORE_START, &c.a[NVTXT_ARG_END].v.loc,
			"RangeStartEnd ends before it starts: End %lld is less than Start %lld",
			(long long)ev->end, (long long)ev->start);
		diag_note(d, &c.a[NVTXT_ARG_START].v.loc, "Start is given here");
		diag_end(s->diags, d);
		return false;
	}
	return true;
}

/* --- the fast path ---------------------------------------------------------- */

/*
 * Builds the call plan of `cmd` from its current definition and the
 * current values of the variables of its static arguments, and returns
 * it.  The plan sends every call to the full path (full) when the
 * definition is bad, or a required static argument has no variable, or a
 * static value is not a literal Integer or String (poisoned) or fails its
 * conversion, a negative static timestamp whose TimeBase is listed
 * included: the full path then reports exactly as without plans (once per
 * assignment, binding->reported).  No reports, no other side effects.
 */
static const struct call_plan *plan_build(struct sema *s, enum nvtxt_command cmd)
{
	struct call_plan *p = &s->plans[cmd];
	const struct definition *def = &s->defs[cmd];
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT], statics[NVTXT_ARG_COUNT];
	size_t ndflt = nvtxt_command_default_args(cmd, dflt);
	const enum nvtxt_arg *listed = def->custom ? def->args : dflt;
	size_t nlisted = def->custom ? def->nargs : ndflt, nstatic = 0, k = 0;
	uint32_t listed_mask = 0;
	bool relative = false;

	memset(p, 0, sizeof(*p));
	p->gen = s->plan_gen;
	p->full = def->poisoned;
	p->tmpl.command = cmd;
	p->tmpl.process_id = p->tmpl.thread_id = -1;
	p->n = (uint8_t)nlisted;

	/* the listed arguments, a TimeBase first: the range of timestamps depends on it */
	for (size_t i = 0; i < nlisted; i++) {
		listed_mask |= NVTXT_BIT(listed[i]);
		if (nvtxt_arg_is_optional(listed[i]))
			p->optional |= NVTXT_BIT(listed[i]);
		if (listed[i] == NVTXT_ARG_TIMEBASE) {
			p->index[k] = (uint8_t)i;
			p->arg[k++] = (uint8_t)listed[i];
		}
	}
	for (size_t i = 0; i < nlisted; i++) {
		if (listed[i] != NVTXT_ARG_TIMEBASE) {
			p->index[k] = (uint8_t)i;
			p->arg[k++] = (uint8_t)listed[i];
		}
	}

	/* the static arguments, a TimeBase first, from the variables of their names */
	if (!(listed_mask & NVTXT_BIT(NVTXT_ARG_TIMEBASE)) &&
	    nvtxt_command_has_arg(cmd, NVTXT_ARG_TIMEBASE))
		statics[nstatic++] = NVTXT_ARG_TIMEBASE;
	for (size_t i = 0; i < ndflt; i++)
		if (!(listed_mask & NVTXT_BIT(dflt[i])) && dflt[i] != NVTXT_ARG_TIMEBASE)
			statics[nstatic++] = dflt[i];
	for (size_t j = 0; j < nstatic; j++) {
		enum nvtxt_arg arg = statics[j];
		const struct nvtxt_binding *b = s->arg_var[arg];

		if (!b) {
			if (!nvtxt_arg_is_optional(arg))
				p->full = true;
			continue;
		}
		if ((b->value.kind != NVTXT_V_INTEGER && b->value.kind != NVTXT_V_STRING) ||
		    conv_arg(arg, &b->value, relative, &p->tmpl) != CONV_OK) {
			p->full = true;
			continue;
		}
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = p->tmpl.timebase == NVTXT_TB_RELATIVE;
		p->tmpl.present |= NVTXT_BIT(arg);
	}
	p->relative = relative;
	return p;
}

/*
 * The fast path of a call: a known command, its plan, the right number of
 * values, each a literal Integer or String (or absent where optional)
 * that converts to its argument, and Start <= End.  Returns true with
 * *ev the event the full path would build (ordinal 0, push NULL); false
 * when the call needs the full path, having written nothing but *ev (and
 * the plan, when it was out of date).
 */
static ALWAYS_INLINE bool fast_call_with(struct sema *s, struct nvtxt_str name, size_t nvalues,
					  const struct nvtxt_loc *name_loc,
					  const struct nvtxt_value *values,
					  const struct fast_value *compact, const char *line,
					  struct nvtxt_event *ev)
{
	int cmd = command_lookup(name.ptr, name.len);
	const struct call_plan *p;
	bool relative;

	if (cmd < 0)
		return false;
	p = &s->plans[cmd];
	if (p->gen != s->plan_gen)
		p = plan_build(s, (enum nvtxt_command)cmd);
	if (p->full || nvalues != p->n)
		return false;
	*ev = p->tmpl;
	ev->loc = *name_loc;
	relative = p->relative;
	for (size_t k = 0; k < p->n; k++) {
		enum nvtxt_arg arg = (enum nvtxt_arg)p->arg[k];
		struct nvtxt_value made;
		const struct nvtxt_value *v;

		if (compact) {
			/* the parts of the value conv_arg reads: no location */
			const struct fast_value *f = &compact[p->index[k]];
			made.kind = (enum nvtxt_value_kind)f->kind;
			made.quote = (char)f->quote;
			made.integer = f->integer;
			if (f->kind == NVTXT_V_STRING) {
				/* quoted (two bytes more) or bare */
				unsigned quoted = f->quote != 0;
				made.text = (struct nvtxt_str){ line + f->col + quoted, (size_t)f->len - 2 * quoted };
			} else {
				made.text = (struct nvtxt_str){ NULL, 0 };
			}
			v = &made;
		} else {
			v = &values[p->index[k]];
		}
		if (v->kind != NVTXT_V_INTEGER && v->kind != NVTXT_V_STRING) {
			/* an absent optional value is no value; $Name, poison or a missing one: full path */
			if (v->kind == NVTXT_V_ABSENT && (p->optional & NVTXT_BIT(arg)))
				continue;
			return false;
		}
		if (conv_arg(arg, v, relative, ev) != CONV_OK)
			return false;
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = ev->timebase == NVTXT_TB_RELATIVE;
		ev->present |= NVTXT_BIT(arg);
	}
	return cmd != NVTXT_CMD_RANGE_START_END || ev->start <= ev->end;
}

static bool fast_call(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	return fast_call_with(s, in->name, in->nvalues, &in->name_loc, in->values, NULL, NULL, ev);
}

static void deliver(struct sema *s, struct nvtxt_event *ev)
{
	if (s->io_errno || !s->backend || !s->backend->event)
		return;
	if (s->backend->event(s->backend->user, ev) != 0)
		s->io_errno = errno ? errno : EIO;
}

static void call_checked(struct sema *s, struct nvtxt_event *ev);

static void call(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_event ev;

	if (!s->fast || !fast_call(s, in, &ev)) {
		/* the full path, from scratch: it reports */
		ev = (struct nvtxt_event){ .command = NVTXT_CMD_COUNT };
		if (!call_event(s, in, &ev)) {
			if (ev.command == NVTXT_CMD_RANGE_PUSH || ev.command == NVTXT_CMD_RANGE_POP)
				pairing_failed(s->pairing, &ev, ev.process_id >= 0 && ev.thread_id >= 0);
			return;
		}
	}
	call_checked(s, &ev);
}

bool sema_fast_call(struct sema *s, struct nvtxt_str name, const struct nvtxt_loc *name_loc,
		    const struct fast_value *values, size_t nvalues, const char *line)
{
	struct nvtxt_event ev;

	if (!s->fast || !fast_call_with(s, name, nvalues, name_loc, NULL, values, line, &ev))
		return false;
	call_checked(s, &ev);
	return true;
}

/* The passes after a call's own checks, and the back end. */
static void call_checked(struct sema *s, struct nvtxt_event *ev)
{
	switch (ev->command) {
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		ev->ordinal = s->ordinal;
		if (!pairing_event(s->pairing, s->diags, ev))
			return;
		s->ordinal++;
		deliver(s, ev);
		if (ev->command == NVTXT_CMD_RANGE_POP)
			pairing_commit(s->pairing);
		return;
	case NVTXT_CMD_NAME_CATEGORY:
	case NVTXT_CMD_ADD_CHILD_CATEGORY:
		if (!category_event(s->category, s->diags, ev))
			return;
		break;
	case NVTXT_CMD_NAME_OS_THREAD:
	case NVTXT_CMD_NAME_PROCESS:
	case NVTXT_CMD_SET_FILE_DISPLAY_NAME:
		naming_event(s->naming, s->diags, ev);
		break;
	default:
		break;
	}
	ev->ordinal = s->ordinal++;
	deliver(s, ev);
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
	s->fast = true;
	s->plan_gen = 1;
	return s;
}

void sema_set_fast_path(struct sema *s, bool on)
{
	s->fast = on;
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
