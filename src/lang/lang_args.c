/*
 * lang_args.c - the argument table, from args.def, and what depends on
 * it alone: the check of each conversion outcome.
 */
#include <stddef.h>

#include "lang_args.h"

/* The documented type of each conversion (nvtxt(5), ARGUMENTS). */
#define LANG_TYPE_INTEGER "Integer"
#define LANG_TYPE_TIMESTAMP "Integer"
#define LANG_TYPE_U32 "Integer"
#define LANG_TYPE_STRING "String"
#define LANG_TYPE_TIMEBASE "String"
#define LANG_TYPE_COLOR "Integer or String"

const struct lang_arg lang_args[NVTXT_ARG_COUNT] = {
#define ARG(id, name, conv, min, max, field, expected, expected_relative, range_hint, range, meaning) \
	[NVTXT_ARG_##id] = { name, LANG_CONV_##conv, offsetof(struct nvtxt_event, field), min, max,     \
			     expected, expected_relative, range_hint,                                      \
			     { LANG_TYPE_##conv, range, meaning } },
#include "args.def"
#undef ARG
};

enum nvtxt_check_id lang_conv_check(enum nvtxt_arg arg, enum conv r)
{
	if (r == CONV_OK || r == CONV_SILENT || (unsigned)arg >= NVTXT_ARG_COUNT)
		return NVTXT_CHECK_COUNT;
	if (r == CONV_NO_ALPHA)
		return NVTXT_CHECK_COLOR_ALPHA;
	switch ((enum lang_conv)lang_args[arg].conv) {
	case LANG_CONV_COLOR:
		return NVTXT_CHECK_INVALID_COLOR;
	case LANG_CONV_TIMEBASE:
		return NVTXT_CHECK_INVALID_TIMEBASE;
	default:
		return r == CONV_RANGE ? NVTXT_CHECK_OUT_OF_RANGE : NVTXT_CHECK_TYPE_MISMATCH;
	}
}

enum conv lang_arg_convert(enum nvtxt_arg arg, const struct nvtxt_value *v, bool relative, struct nvtxt_event *ev)
{
	return conv_arg(arg, v, relative, ev);
}
