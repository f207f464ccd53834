/*
 * lang_args.h - the argument table (args.def) and the one conversion of a
 * value to the type and range of its argument (nvtxt(5), ARGUMENTS, TIME
 * BASES, COLORS).  The full path of the passes (src/passes/sema_check.c,
 * which reports), their fast path (src/passes/sema_fast.c, which does
 * not) and the language server (src/lsp/, hover, colors) all convert
 * through conv_arg; nothing else decides what a value means.  Internal to
 * nvtxtc; static data, thread-safe.  The functions are static inline
 * (each caller gets its own copy of the dispatch); lang_arg_convert is
 * the same conversion out of line.
 */
#ifndef NVTXT_LANG_ARGS_H
#define NVTXT_LANG_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nvtxt/ast.h"
#include "nvtxt/checks.h"
#include "nvtxt/language.h"

#if defined(__GNUC__)
#define LANG_INLINE inline __attribute__((always_inline))
#else
#define LANG_INLINE inline
#endif

/*
 * nvtxt_command_lookup (language.h), inline: a switch on the length and
 * one memcmp of a constant size (lang.c says more), for the fast path of
 * calls, which looks up the command of every line.
 */
static LANG_INLINE int lang_command_lookup(const char *name, size_t len)
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

/* The time bases as the argument table names them (tests/unit/argtable.c checks them against lang.c). */
#define LANG_TIMEBASE_LIST "Qpc, Rdtsc, FileTime, Manual, Relative, ClockMonotonicRaw or CNTVCT"

/* An argument's type: how a value converts (args.def, CONV). */
enum lang_conv {
	LANG_CONV_INTEGER,
	LANG_CONV_TIMESTAMP,
	LANG_CONV_U32,
	LANG_CONV_STRING,
	LANG_CONV_TIMEBASE,
	LANG_CONV_COLOR
};

/* What the documentation says of an argument. */
struct lang_arg_doc {
	const char *type;     /* "Integer", "String", "Integer or String" */
	const char *range;    /* the values it takes */
	const char *meaning;  /* what it says about the event */
};

/* One row of args.def. */
struct lang_arg {
	const char *name;
	uint8_t conv;                  /* enum lang_conv */
	uint8_t offset;                /* offsetof(struct nvtxt_event, the field) */
	int64_t min, max;              /* an Integer's range (the least one when not Relative) */
	const char *expected;          /* the expectation of the diagnostic of a bad value */
	const char *expected_relative; /* the same under TimeBase Relative */
	const char *range_hint;        /* the hint for an Integer out of range, or NULL */
	struct lang_arg_doc doc;
};

extern const struct lang_arg lang_args[NVTXT_ARG_COUNT];

/*
 * The outcome of converting one value to the type and range of an
 * argument.  Only CONV_OK and CONV_NO_ALPHA store the result.  The full
 * path reports every outcome above CONV_SILENT (the check of
 * lang_conv_check); the fast path hands every outcome but CONV_OK to the
 * full path.
 */
enum conv {
	CONV_OK,
	CONV_SILENT,        /* neither Integer nor String where an Integer is wanted: no value, no report */
	CONV_NOT_INTEGER,   /* a String where an Integer is wanted */
	CONV_RANGE,         /* an Integer out of the argument's range */
	CONV_NOT_STRING,    /* not a String where a String is wanted */
	CONV_HEX_NOT_DIGIT, /* a Color "0x..." with a character that is not a hex digit */
	CONV_HEX_COUNT,     /* a Color "0x" and hex digits, but not exactly 8 of them */
	CONV_UNKNOWN_NAME,  /* a String that names no color or time base */
	/*
	 * A Color Integer written in hexadecimal with at most 6 digits: its
	 * alpha byte is 0, fully transparent.  Stored like CONV_OK; the full
	 * path warns (color-alpha) and keeps the call.
	 */
	CONV_NO_ALPHA
};

/*
 * The check that reports outcome r of argument arg (type-mismatch,
 * out-of-range, invalid-color, invalid-timebase, color-alpha), or
 * NVTXT_CHECK_COUNT for CONV_OK and CONV_SILENT, which report nothing.
 */
enum nvtxt_check_id lang_conv_check(enum nvtxt_arg arg, enum conv r);

/* The least Integer argument arg takes; `relative`: the call's TimeBase is Relative. */
static LANG_INLINE int64_t lang_arg_min(enum nvtxt_arg arg, bool relative)
{
	return relative && lang_args[arg].conv == LANG_CONV_TIMESTAMP ? INT64_MIN : lang_args[arg].min;
}

static inline bool is_hex(int ch)
{
	return (ch >= '0' && ch <= '9') || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
}

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

/* A String into *out, pointing at the value's bytes. */
static inline enum conv conv_string(const struct nvtxt_value *v, struct nvtxt_str *out)
{
	if (v->kind != NVTXT_V_STRING)
		return CONV_NOT_STRING;
	*out = v->text;
	return CONV_OK;
}

/*
 * A Color into *out, as ARGB: an Integer in 0..UINT32_MAX, or (any other
 * value, by its text) "0x" or "0X" and exactly 8 hex digits, or a color
 * name (nvtxt_color_lookup, any case).  An Integer whose text is 0x and 1
 * to 6 hex digits is stored and gives CONV_NO_ALPHA (nvtxt(5), COLORS:
 * 0xRRGGBB is transparent; eight digits spell the alpha on purpose).
 */
static inline enum conv conv_color(const struct nvtxt_value *v, uint32_t *out)
{
	const char *p = v->text.ptr;
	size_t len = v->text.len;

	if (v->kind == NVTXT_V_INTEGER) {
		if (v->integer < lang_args[NVTXT_ARG_COLOR].min || v->integer > lang_args[NVTXT_ARG_COLOR].max)
			return CONV_RANGE;
		*out = (uint32_t)v->integer;
		if (len > 2 && len <= 8 && p[0] == '0' && (p[1] | 0x20) == 'x')
			return CONV_NO_ALPHA;
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

/* A String naming a time base, exactly, into *out. */
static inline enum conv conv_timebase(const struct nvtxt_value *v, enum nvtxt_timebase *out)
{
	int tb;

	if (v->kind != NVTXT_V_STRING)
		return CONV_NOT_STRING;
	tb = nvtxt_timebase_lookup(v->text.ptr, v->text.len);
	if (tb < 0)
		return CONV_UNKNOWN_NAME;
	*out = (enum nvtxt_timebase)tb;
	return CONV_OK;
}

/*
 * Converts value v of argument `arg` into the argument's field of *ev
 * (Time into ev->time, Color into ev->color, ...: the row's FIELD) by the
 * row's type and range, and touches nothing else; `relative` is true when
 * the call's TimeBase is Relative, which allows negative timestamps.  No
 * side effects, no reports: the one conversion of the passes' two paths
 * and of the language server.
 */
static LANG_INLINE enum conv conv_arg(enum nvtxt_arg arg, const struct nvtxt_value *v, bool relative,
				      struct nvtxt_event *ev)
{
	const struct lang_arg *a = &lang_args[arg];
	char *field = (char *)ev + a->offset;
	enum conv r;

	switch ((enum lang_conv)a->conv) {
	case LANG_CONV_INTEGER:
	case LANG_CONV_TIMESTAMP:
		return conv_integer(v, lang_arg_min(arg, relative), a->max, (int64_t *)(void *)field);
	case LANG_CONV_U32: {
		int64_t x = 0;
		r = conv_integer(v, a->min, a->max, &x);
		if (r == CONV_OK)
			*(uint32_t *)(void *)field = (uint32_t)x;
		return r;
	}
	case LANG_CONV_STRING:
		return conv_string(v, (struct nvtxt_str *)(void *)field);
	case LANG_CONV_TIMEBASE:
		return conv_timebase(v, (enum nvtxt_timebase *)(void *)field);
	case LANG_CONV_COLOR:
		return conv_color(v, (uint32_t *)(void *)field);
	}
	return CONV_SILENT;
}

/* conv_arg out of line, for callers off the hot paths (the language server). */
enum conv lang_arg_convert(enum nvtxt_arg arg, const struct nvtxt_value *v, bool relative, struct nvtxt_event *ev);

#endif
