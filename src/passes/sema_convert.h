/*
 * sema_convert.h - the conversion of one value to the type and range of
 * its argument (nvtxt(5), ARGUMENTS, TIME BASES, COLORS): one function per
 * type, shared by the full path (sema_check.c, which reports) and the fast
 * path (sema_fast.c, which does not).  Static inline: each path gets its
 * own copy of the dispatch.
 */
#ifndef NVTXT_SEMA_CONVERT_H
#define NVTXT_SEMA_CONVERT_H

#include <string.h>

#include "sema_internal.h"

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
	CONV_UNKNOWN_NAME,  /* a String that names no color or time base */
	/*
	 * A Color Integer written in hexadecimal with at most 6 digits: its
	 * alpha byte is 0, fully transparent.  Stored like CONV_OK; the full
	 * path warns (color-alpha) and keeps the call.
	 */
	CONV_NO_ALPHA
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
 * name (nvtxt_color_lookup, any case).  An Integer whose text is 0x and 1
 * to 6 hex digits is stored and gives CONV_NO_ALPHA (nvtxt(5), COLORS:
 * 0xRRGGBB is transparent; eight digits spell the alpha on purpose).
 */
static enum conv conv_color(const struct nvtxt_value *v, uint32_t *out)
{
	const char *p = v->text.ptr;
	size_t len = v->text.len;

	if (v->kind == NVTXT_V_INTEGER) {
		if (v->integer < 0 || v->integer > (int64_t)UINT32_MAX)
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


/* A String naming a time base into *out. */
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

#endif
