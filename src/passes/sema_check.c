/*
 * sema_check.c - the full path of a call: the values it gives against
 * its definition (arity), the static arguments from their variables, the
 * conversion of every value and, for each that fails, a diagnostic that
 * says where the value came from (a literal, a $Name, a static variable).
 * The reference for the fast path (sema_fast.c).
 */
#include <stdlib.h>
#include <string.h>

#include "lang_args.h"
#include "sema_internal.h"

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
 * Reports message `msg` about the value of argument `arg`: a literal where
 * it is; an expanded value at the $Name with a note at the assignment; a
 * static value at the assignment (once per assignment) with a note at the
 * call.  The fix-it goes where the literal is written (not at a $Name).
 */
static void value_diag(struct call *c, enum nvtxt_check_id check, enum nvtxt_arg arg, const char *msg,
		       const char *fixit)
{
	struct arg_value *av = &c->a[arg];
	const struct nvtxt_binding *b = av->v.origin;
	const char *argname = nvtxt_arg_name(arg);
	struct nvtxt_diag *d;

	if (c->s->quiet)
		return; /* a recovered call (sema.c): the assignment is not marked as reported */
	if (av->is_static) {
		struct nvtxt_binding *mb = (struct nvtxt_binding *)b;
		if (mb->reported & NVTXT_BIT(arg))
			return;
		mb->reported |= NVTXT_BIT(arg);
	}
	d = diag_begin(c->s->diags, check, &av->v.loc, "%s", msg);
	if (fixit && (!b || (av->is_static && !b->expanded)))
		diag_fixit(d, fixit);
	if (av->is_static)
		diag_note(d, &c->in->name_loc, "%s is a static argument of this %s call: its value comes from the variable '%s'",
			  argname, nvtxt_command_name(c->cmd), argname);
	else if (b)
		diag_note(d, &b->value.loc, "'%s' was assigned this value here", b->name);
	diag_end(c->s->diags, d);
}

/* Reports that argument `arg` has a bad value: "expected EXPECTED for Arg, found VALUE[; HINT]". */
static void bad_value(struct call *c, enum nvtxt_check_id check, enum nvtxt_arg arg, const char *expected,
		      const char *hint, const char *fixit)
{
	struct buf found = { 0 }, msg = { 0 };

	c->bad = true;
	describe_value(&found, &c->a[arg].v);
	buf_printf(&msg, "expected %s for %s, found %s%s%s", expected, nvtxt_arg_name(arg), found.ptr,
		   hint ? "; " : "", hint ? hint : "");
	value_diag(c, check, arg, msg.ptr, fixit);
	buf_free(&found);
	buf_free(&msg);
}

static bool contains(const char *p, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(p + i, what, n) == 0)
			return true;
	return false;
}

/* --- the reports of the full path ----------------------------------------- */

/*
 * A bare word that is a signed hexadecimal literal ("-0x10"): stores its
 * value in *out and returns true when it fits in an int64.  NVTXT's
 * Integers take a sign only in decimal (nvtxt(5), Integers).
 */
static bool signed_hex(const struct nvtxt_value *v, int64_t *out)
{
	const char *p = v->text.ptr;
	size_t len = v->text.len;
	uint64_t u = 0;

	if (v->quote || len < 4 || (p[0] != '-' && p[0] != '+') || p[1] != '0' || (p[2] | 0x20) != 'x' ||
	    len - 3 > 16)
		return false;
	for (size_t i = 3; i < len; i++) {
		int d = p[i] <= '9' ? p[i] - '0' : (p[i] | 0x20) - 'a' + 10;
		if (p[i] < '0' || (p[i] > '9' && ((p[i] | 0x20) < 'a' || (p[i] | 0x20) > 'f')))
			return false;
		u = u << 4 | (uint64_t)d;
	}
	if (p[0] == '-' ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX)
		return false;
	*out = p[0] == '-' ? (int64_t)(0 - u) : (int64_t)u;
	return true;
}

/*
 * Reports a String where an Integer is wanted, with a hint when it looks
 * like one; `relative` as given to conv_arg.  A signed hexadecimal literal
 * gets its decimal spelling as the fix-it, when that is in range.
 */
static void report_not_integer(struct call *c, enum nvtxt_arg arg, const char *expected, bool relative)
{
	const struct nvtxt_value *v = &c->a[arg].v;
	const char *hint = NULL;
	char decimal[24], signed_hint[160];
	const char *fixit = NULL;
	int64_t n;

	if (contains(v->text.ptr, v->text.len, " #")) {
		hint = "a comment must be on a line of its own";
	} else if (v->quote) {
		hint = "a quoted value is always a String";
	} else if (signed_hex(v, &n)) {
		struct nvtxt_value as_int = { .kind = NVTXT_V_INTEGER, .integer = n };
		struct nvtxt_event scratch;

		/* the decimal spelling only where it would be accepted (a negative Time only under Relative) */
		snprintf(decimal, sizeof(decimal), "%lld", (long long)n);
		hint = "a hexadecimal Integer has no sign, so this is a String";
		if (conv_arg(arg, &as_int, relative, &scratch) == CONV_OK) {
			snprintf(signed_hint, sizeof(signed_hint), "%s (a signed Integer is decimal: %s)", hint, decimal);
			hint = signed_hint;
			fixit = decimal;
		}
	}
	bad_value(c, lang_conv_check(arg, CONV_NOT_INTEGER), arg, expected, hint, fixit);
}

/*
 * The opaque spelling of a color written as 6 hex digits of RGB (after
 * `skip` bytes of prefix: "0x" or "#"), or of 3 (CSS's #RGB, each digit
 * doubled; only when `short_ok`), into out: 0xFFRRGGBB, in the case of the
 * digits written.  False when the text is not that.
 */
static bool opaque_spelling(const struct nvtxt_str *t, size_t skip, bool short_ok, char *out, size_t size)
{
	size_t n = t->len - skip;
	bool lower = false;
	char rgb[7];

	if (t->len < skip || (n != 6 && !(short_ok && n == 3)))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)t->ptr[skip + i];
		if (!is_hex(ch))
			return false;
		lower |= ch >= 'a';
	}
	for (size_t i = 0; i < 6; i++)
		rgb[i] = t->ptr[skip + (n == 6 ? i : i / 2)];
	rgb[6] = '\0';
	snprintf(out, size, "0x%s%s", lower ? "ff" : "FF", rgb);
	return true;
}

/*
 * Warns about a Color written 0xRRGGBB (conv_color's CONV_NO_ALPHA): its
 * alpha byte is 0.  The fix-it makes it opaque; 0x00RRGGBB keeps it
 * transparent on purpose and is not warned about.
 */
static void warn_no_alpha(struct call *c)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_COLOR].v;
	char opaque[16], zero[16], msg[256];
	unsigned long rgb = (unsigned long)v->integer;
	bool lower = false;

	for (size_t i = 2; i < v->text.len; i++)
		lower |= (unsigned char)v->text.ptr[i] >= 'a';
	/* in the spelling of the value: its '0x' or '0X', its case of digits */
	snprintf(opaque, sizeof(opaque), lower ? "0%c%.2s%06lx" : "0%c%.2s%06lX", v->text.ptr[1], lower ? "ff" : "FF", rgb);
	snprintf(zero, sizeof(zero), lower ? "0%c00%06lx" : "0%c00%06lX", v->text.ptr[1], rgb);
	snprintf(msg, sizeof(msg),
		 "Color %.*s is fully transparent: a hexadecimal Color is 0xAARRGGBB, and with at most 6 digits "
		 "its alpha byte is 0; write %s for an opaque color (or %s to keep it transparent)",
		 (int)v->text.len, v->text.ptr, opaque, zero);
	value_diag(c, lang_conv_check(NVTXT_ARG_COLOR, CONV_NO_ALPHA), NVTXT_ARG_COLOR, msg, opaque);
}

/* A hexadecimal Color with a byte that is no hex digit: that byte, and its column where it is shown. */
static void color_not_digit(struct call *c, enum nvtxt_check_id check, const char *expected)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_COLOR].v;
	const struct nvtxt_binding *b = v->origin;
	const struct nvtxt_loc *at = b ? (b->expanded ? NULL : &b->value.loc) : &v->loc;
	size_t i = 2, n;
	char col[64] = "", hint[160];
	struct buf shown = { 0 };

	while (i < v->text.len && is_hex((unsigned char)v->text.ptr[i]))
		i++;
	if (i >= v->text.len) {
		/* not reached while conv_color agrees; never name a byte past the value */
		bad_value(c, check, NVTXT_ARG_COLOR, expected,
			  "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB)", NULL);
		return;
	}
	n = utf8_seq((const unsigned char *)v->text.ptr + i, v->text.len - i);
	if (!n)
		n = 1;
	if (at == &v->loc)
		snprintf(col, sizeof(col), " at column %u", (unsigned)(at->col + (v->quote ? 1 : 0) + i));
	else if (at)
		snprintf(col, sizeof(col), " at line %u, column %u", (unsigned)at->line,
			 (unsigned)(at->col + (v->quote ? 1 : 0) + i));
	buf_addc(&shown, '\'');
	buf_add_shown(&shown, v->text.ptr + i, n, 8);
	snprintf(hint, sizeof(hint),
		 "%s'%s is not a hexadecimal digit: a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB)",
		 shown.ptr, col);
	buf_free(&shown);
	bad_value(c, check, NVTXT_ARG_COLOR, expected, hint, NULL);
}

/* A hexadecimal Color without 8 digits: with 6, its opaque spelling as the fix. */
static void color_count(struct call *c, enum nvtxt_check_id check, const char *expected)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_COLOR].v;
	char opaque[16], hint[160];

	if (opaque_spelling(&v->text, 2, false, opaque, sizeof(opaque))) {
		snprintf(hint, sizeof(hint), "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB), "
			 "not 6: did you mean %s (opaque)?", opaque);
		bad_value(c, check, NVTXT_ARG_COLOR, expected, hint, opaque);
		return;
	}
	snprintf(hint, sizeof(hint), "a hexadecimal color is 0x and exactly 8 hex digits (0xAARRGGBB), not %zu",
		 v->text.len - 2);
	bad_value(c, check, NVTXT_ARG_COLOR, expected, hint, NULL);
}

/* A Color that is no color name: CSS's #RRGGBB spelt as NVTXT's, or the nearest name. */
static void color_name(struct call *c, enum nvtxt_check_id check, const char *expected)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_COLOR].v;
	const char *cands[160], *near;
	char opaque[16], hint[160];
	size_t n = 0;
	bool unique;

	while (n < 160 && (cands[n] = nvtxt_color_name(n)))
		n++;
	near = suggest_unique(v->text.ptr, v->text.len, cands, n, &unique);
	if (v->text.len && v->text.ptr[0] == '#') {
		/* CSS's #RRGGBB or #RGB: the same color, opaque, in NVTXT's spelling */
		if (opaque_spelling(&v->text, 1, true, opaque, sizeof(opaque))) {
			snprintf(hint, sizeof(hint), "a hexadecimal color is written 0xAARRGGBB, not #RRGGBB: "
				 "did you mean %s (opaque)?", opaque);
			bad_value(c, check, NVTXT_ARG_COLOR, expected, hint, opaque);
		} else {
			bad_value(c, check, NVTXT_ARG_COLOR, expected,
				  "a hexadecimal color is written 0xAARRGGBB (alpha first), not with '#'", NULL);
		}
		return;
	}
	if (near) {
		snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
		bad_value(c, check, NVTXT_ARG_COLOR, expected, hint, unique ? near : NULL);
	} else {
		bad_value(c, check, NVTXT_ARG_COLOR, expected, "not a color name of .NET's System.Drawing.Color", NULL);
	}
}

static void report_color(struct call *c, enum conv r, const char *expected)
{
	const enum nvtxt_check_id check = lang_conv_check(NVTXT_ARG_COLOR, r);

	switch (r) {
	case CONV_HEX_NOT_DIGIT:
		color_not_digit(c, check, expected);
		return;
	case CONV_HEX_COUNT:
		color_count(c, check, expected);
		return;
	case CONV_UNKNOWN_NAME:
		color_name(c, check, expected);
		return;
	default:
		bad_value(c, check, NVTXT_ARG_COLOR, expected, NULL, NULL);
		return;
	}
}

static void report_timebase(struct call *c, enum conv r, const char *expected)
{
	const struct nvtxt_value *v = &c->a[NVTXT_ARG_TIMEBASE].v;
	const enum nvtxt_check_id check = lang_conv_check(NVTXT_ARG_TIMEBASE, r);
	const char *names[NVTXT_TB_COUNT];
	const char *near = NULL;
	char hint[96];
	bool unique = false;

	for (int i = 0; i < NVTXT_TB_COUNT; i++)
		names[i] = nvtxt_timebase_name((enum nvtxt_timebase)i);
	if (r == CONV_UNKNOWN_NAME)
		near = suggest_unique(v->text.ptr, v->text.len, names, NVTXT_TB_COUNT, &unique);
	if (near) {
		snprintf(hint, sizeof(hint), "did you mean '%s'? (time bases are spelt exactly)", near);
		bad_value(c, check, NVTXT_ARG_TIMEBASE, expected, hint, unique ? near : NULL);
	} else {
		bad_value(c, check, NVTXT_ARG_TIMEBASE, expected, NULL, NULL);
	}
}

static void report_not_string(struct call *c, enum nvtxt_arg arg, const char *expected)
{
	const struct nvtxt_value *v = &c->a[arg].v;
	struct buf fix = { 0 };

	buf_addc(&fix, '"');
	buf_add(&fix, v->text.ptr, v->text.len);
	buf_addc(&fix, '"');
	bad_value(c, lang_conv_check(arg, CONV_NOT_STRING), arg, expected, "quote it to make it a String", fix.ptr);
	buf_free(&fix);
}

/*
 * Reports conversion outcome r (above CONV_SILENT) of argument `arg`, as
 * "expected EXPECTED for Arg, found VALUE[; HINT]": the expectation, the
 * range hint and the check of the argument's row in src/lang/args.def;
 * `relative` as given to conv_arg.
 */
static void report_conv(struct call *c, enum nvtxt_arg arg, enum conv r, bool relative)
{
	const struct lang_arg *a = &lang_args[arg];
	const char *expected = relative ? a->expected_relative : a->expected;

	switch ((enum lang_conv)a->conv) {
	case LANG_CONV_COLOR:
		report_color(c, r, expected);
		return;
	case LANG_CONV_TIMEBASE:
		report_timebase(c, r, expected);
		return;
	case LANG_CONV_STRING:
		report_not_string(c, arg, expected);
		return;
	case LANG_CONV_INTEGER:
	case LANG_CONV_TIMESTAMP:
	case LANG_CONV_U32:
		break;
	}
	if (r == CONV_NOT_INTEGER)
		report_not_integer(c, arg, expected, relative);
	else
		bad_value(c, lang_conv_check(arg, r), arg, expected, a->range_hint, NULL);
}

/* The note of an arity diagnostic: where the definition is, or that the default applies. */
static void arity_note(struct call *c, struct nvtxt_diag *d)
{
	const struct definition *def = &c->s->defs[c->cmd];
	const char *cmd = nvtxt_command_name(c->cmd);

	if (def->custom)
		diag_note(d, &def->loc, "%s is defined here; arguments it does not list are static (read from variables)", cmd);
	else
		diag_note(d, NULL, "no '@%s' definition comes before this call, so its default definition applies", cmd);
}

/* True when p[0..len) is an Integer literal (nvtxt(5), Integers; the range is not checked). */
static bool integer_literal(const char *p, size_t len)
{
	size_t i = len && (p[0] == '-' || p[0] == '+') ? 1 : 0;

	if (len > 2 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		for (i = 2; i < len && is_hex((unsigned char)p[i]); i++)
			;
		return i == len;
	}
	if (i == len)
		return false;
	for (; i < len && p[i] >= '0' && p[i] <= '9'; i++)
		;
	return i == len;
}

/*
 * How many blank-separated Integer literals the bare word v is ("1100 7":
 * 2), or 1 when it is anything else.  Gaps, when not NULL, get the byte
 * offset and length in v->text of each run of blanks between them.
 */
static size_t integer_words(const struct nvtxt_value *v, size_t *gap_at, size_t *gap_len, size_t max)
{
	const char *p = v->text.ptr;
	size_t len = v->text.len, n = 0, i = 0;

	if (v->kind != NVTXT_V_STRING || v->quote)
		return 1;
	while (i < len) {
		size_t start = i, blanks;
		while (i < len && p[i] != ' ' && p[i] != '\t')
			i++;
		if (!integer_literal(p + start, i - start))
			return 1;
		for (blanks = i; i < len && (p[i] == ' ' || p[i] == '\t'); i++)
			;
		if (i < len && gap_at && n < max) {
			gap_at[n] = blanks;
			gap_len[n] = i - blanks;
		}
		n++;
	}
	return n ? n : 1;
}

/*
 * Too few values, where some bare words are Integers separated by blanks
 * ("RangePush, 1100 7, \"x\"") and splitting them at the blanks gives
 * exactly the values the definition lists, each Integer at an argument
 * that takes one: one error at each gap, with the fix-it ", ".  Returns
 * false (nothing reported) when that is not so.
 */
static bool arity_missing_commas(struct call *c, const enum nvtxt_arg *listed, const char *expects, size_t nlisted)
{
	const struct nvtxt_instr *in = c->in;
	size_t extra = 0, pos = 0;

	for (size_t i = 0; i < in->nvalues; i++)
		extra += integer_words(&in->values[i], NULL, NULL, 0) - 1;
	if (!extra || in->nvalues + extra != nlisted)
		return false;
	/* split, every Integer must land on an argument that takes one */
	for (size_t i = 0; i < in->nvalues; i++) {
		size_t n = integer_words(&in->values[i], NULL, NULL, 0);
		for (size_t k = 0; n > 1 && k < n; k++) {
			enum nvtxt_arg a = listed[pos + k];
			if (a == NVTXT_ARG_MESSAGE || a == NVTXT_ARG_NAME || a == NVTXT_ARG_TIMEBASE)
				return false;
		}
		pos += n;
	}
	for (size_t i = 0; i < in->nvalues; i++) {
		const struct nvtxt_value *v = &in->values[i];
		size_t at[NVTXT_ARG_COUNT], len[NVTXT_ARG_COUNT];
		size_t n = integer_words(v, at, len, NVTXT_ARG_COUNT);

		for (size_t k = 0; k + 1 < n; k++) {
			struct nvtxt_loc loc = v->loc;
			struct nvtxt_diag *d;
			struct buf word = { 0 };

			loc.col += (uint32_t)at[k];
			loc.len = (uint32_t)len[k];
			describe_string(&word, v->text.ptr, v->text.len);
			d = diag_begin(c->s->diags, NVTXT_CHECK_ARITY, &loc,
				       "expected ',' between values: %s, found %zu (a bare word may hold blanks, "
				       "so %s is one String)", expects, in->nvalues, word.ptr);
			buf_free(&word);
			diag_fixit(d, ", ");
			arity_note(c, d);
			diag_end(c->s->diags, d);
		}
	}
	return true;
}

/*
 * Too many values, where the surplus continues a String argument written
 * as bare words ("Marker, 100,, hello, world" for Message "hello, world"):
 * when exactly one String argument (Message or Name) can take them (bare
 * words from it on, the first and the last not Integers), one
 * error over those words with the fix-it that quotes them, from the
 * line's text.  Returns false (nothing reported) when that is not so.
 */
static bool arity_quote_it(struct call *c, const enum nvtxt_arg *listed, const char *expects, size_t nlisted)
{
	const struct nvtxt_instr *in = c->in;
	const struct nvtxt_source *src = c->s->diags->source;
	size_t surplus = in->nvalues - nlisted, at = nlisted, len;
	uint32_t first_col = 1;
	const char *line;
	struct nvtxt_loc loc;
	struct buf fix = { 0 };
	struct nvtxt_diag *d;

	for (size_t j = 0; j < nlisted; j++) {
		/* bare words, the first and the last of them Strings (a text, not a number given too many) */
		bool words = (listed[j] == NVTXT_ARG_MESSAGE || listed[j] == NVTXT_ARG_NAME) &&
			     in->values[j].kind == NVTXT_V_STRING && in->values[j + surplus].kind == NVTXT_V_STRING;
		for (size_t k = j; words && k <= j + surplus; k++)
			words = !in->values[k].quote && (in->values[k].kind == NVTXT_V_STRING ||
							  in->values[k].kind == NVTXT_V_INTEGER);
		if (!words)
			continue;
		if (at != nlisted)
			return false; /* two String arguments could take them: no fix-it is the fix */
		at = j;
	}
	if (at == nlisted || !src)
		return false;
	loc = in->values[at].loc;
	line = src->line(src->user, &loc, &len, &first_col);
	if (!line || first_col != 1 || in->values[at + surplus].loc.line != loc.line)
		return false;
	loc.len = in->values[at + surplus].loc.col + in->values[at + surplus].loc.len - loc.col;
	if (loc.col - 1 + loc.len > len || memchr(line + loc.col - 1, '"', loc.len))
		return false;
	buf_addc(&fix, '"');
	buf_add(&fix, line + loc.col - 1, loc.len);
	buf_addc(&fix, '"');
	d = diag_begin(c->s->diags, NVTXT_CHECK_ARITY, &loc,
		       "%s, found %zu: a bare word ends at ',', so this %s is %zu values; quote it to make it one String",
		       expects, in->nvalues, nvtxt_arg_name(listed[at]), surplus + 1);
	diag_fixit(d, fix.ptr);
	arity_note(c, d);
	diag_end(c->s->diags, d);
	buf_free(&fix);
	return true;
}

static void arity_error(struct call *c, const enum nvtxt_arg *listed, size_t nlisted)
{
	const struct nvtxt_instr *in = c->in;
	struct nvtxt_loc loc = in->name_loc;
	struct buf names = { 0 }, expects = { 0 };
	struct nvtxt_diag *d;
	const char *cmd = nvtxt_command_name(c->cmd);

	for (size_t i = 0; i < nlisted; i++)
		buf_printf(&names, "%s%s", i ? ", " : "", nvtxt_arg_name(listed[i]));
	buf_printf(&expects, "%s expects %zu value%s (%s)", cmd, nlisted, nlisted == 1 ? "" : "s",
		   nlisted ? names.ptr : "none");
	if (in->nvalues < nlisted ? !arity_missing_commas(c, listed, expects.ptr, nlisted)
				  : !arity_quote_it(c, listed, expects.ptr, nlisted)) {
		if (in->nvalues > nlisted)
			loc = in->values[nlisted].loc;
		d = diag_begin(c->s->diags, NVTXT_CHECK_ARITY, &loc, "%s, found %zu", expects.ptr, in->nvalues);
		arity_note(c, d);
		diag_end(c->s->diags, d);
	}
	buf_free(&names);
	buf_free(&expects);
}

/* The order in which the full path checks (and reports) the arguments of a call. */
static const enum nvtxt_arg check_order[NVTXT_ARG_COUNT] = {
	NVTXT_ARG_TIMEBASE, NVTXT_ARG_TIME, NVTXT_ARG_START, NVTXT_ARG_END,
	NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID, NVTXT_ARG_CATEGORY_ID,
	NVTXT_ARG_PARENT_CATEGORY_ID, NVTXT_ARG_COLOR, NVTXT_ARG_MESSAGE, NVTXT_ARG_NAME,
	NVTXT_ARG_PAYLOAD,
};

/* The values the call gives, expanded; an absent one must be optional. */
static void given_values(struct call *c, const enum nvtxt_arg *listed, size_t nlisted)
{
	for (size_t i = 0; i < nlisted; i++) {
		struct arg_value *av = &c->a[listed[i]];
		av->v = c->in->values[i];
		if (!sema_expand(c->s, &av->v)) {
			c->bad = true;
			continue;
		}
		if (av->v.kind == NVTXT_V_ABSENT) {
			if (!nvtxt_command_arg_optional(c->cmd, listed[i])) {
				diag_error(c->s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &av->v.loc,
					   "missing value for %s, a required argument of %s",
					   nvtxt_arg_name(listed[i]), nvtxt_command_name(c->cmd));
				c->bad = true;
			}
			continue;
		}
		av->have = true;
	}
}

/*
 * The static arguments: every argument of the default definition that
 * `listed` leaves out takes the value of the variable of its name; a
 * required one without such a variable is reported, with a note at the
 * definition.
 */
static void static_values(struct call *c, const enum nvtxt_arg *listed, size_t nlisted)
{
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT];
	const char *missing[NVTXT_ARG_COUNT];
	size_t ndflt = nvtxt_command_default_args(c->cmd, dflt), nmissing = 0;
	uint32_t listed_mask = 0;

	for (size_t j = 0; j < nlisted; j++)
		listed_mask |= NVTXT_BIT(listed[j]);
	for (size_t i = 0; i < ndflt; i++) {
		enum nvtxt_arg arg = dflt[i];
		const struct nvtxt_binding *b;

		if (listed_mask & NVTXT_BIT(arg))
			continue;
		b = c->s->arg_var[arg];
		if (!b) {
			if (!nvtxt_command_arg_optional(c->cmd, arg))
				missing[nmissing++] = nvtxt_arg_name(arg);
			continue;
		}
		if (b->value.kind == NVTXT_V_POISON) {
			c->bad = true;
			continue;
		}
		c->a[arg].have = true;
		c->a[arg].is_static = true;
		c->a[arg].v = b->value;
		c->a[arg].v.origin = b;
	}
	if (nmissing) {
		struct buf names = { 0 };
		struct nvtxt_diag *d;
		const char *cmd = nvtxt_command_name(c->cmd);

		buf_add_list(&names, missing, nmissing, "and");
		if (nmissing == 1)
			d = diag_begin(c->s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &c->in->name_loc,
				       "missing value for %s, a required argument of %s: the definition of %s does not list it, so it is static, and no variable '%s' is assigned before this call",
				       names.ptr, cmd, cmd, names.ptr);
		else
			d = diag_begin(c->s->diags, NVTXT_CHECK_MISSING_ARGUMENT, &c->in->name_loc,
				       "missing values for %s, required arguments of %s: the definition of %s does not list them, so they are static, and no variables of those names are assigned before this call",
				       names.ptr, cmd, cmd);
		diag_note(d, &c->s->defs[c->cmd].loc, "the definition of %s is here", cmd);
		diag_end(c->s->diags, d);
		buf_free(&names);
		c->bad = true;
	}
}

/* Converts every value the call has into *ev, TimeBase first (a Relative one allows negative timestamps). */
static void convert_values(struct call *c, struct nvtxt_event *ev)
{
	bool relative = false;

	memset(ev, 0, sizeof(*ev));
	ev->process_id = ev->thread_id = -1;
	ev->command = c->cmd;
	ev->loc = c->in->name_loc;
	for (int arg = 0; arg < NVTXT_ARG_COUNT; arg++)
		if (c->a[arg].have)
			ev->present |= NVTXT_BIT(arg);
	for (size_t k = 0; k < NVTXT_ARG_COUNT; k++) {
		enum nvtxt_arg arg = check_order[k];
		enum conv r;

		if (!c->a[arg].have)
			continue;
		r = conv_arg(arg, &c->a[arg].v, relative, ev);
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = r == CONV_OK && ev->timebase == NVTXT_TB_RELATIVE;
		if (r == CONV_NO_ALPHA)
			warn_no_alpha(c); /* a warning: the value is stored, the call stands */
		else if (r > CONV_SILENT)
			report_conv(c, arg, r, relative);
	}
}

/*
 * The full path: builds and checks the event of a call, reporting every
 * error; returns false after one.  The reference for the fast path.
 */
bool sema_call_event(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	struct call c = { .s = s, .in = in };
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT];
	const enum nvtxt_arg *listed;
	size_t nlisted;
	const struct definition *def;
	int cmd = sema_command(s, in);

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
	listed = def->custom ? def->args : dflt;
	nlisted = def->custom ? def->nargs : nvtxt_command_default_args(c.cmd, dflt);
	if (in->nvalues != nlisted) {
		arity_error(&c, listed, nlisted);
		return false;
	}
	given_values(&c, listed, nlisted);
	static_values(&c, listed, nlisted);
	convert_values(&c, ev);
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
