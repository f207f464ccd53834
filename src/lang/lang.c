/*
 * lang.c - the tables of the NVTXT language: commands, their default
 * definitions and time bases (the arguments: args.def).
 *
 * Source: "NVTXT File Extension", "Supported Commands" (each command's
 * argument list is its default definition) and "Supported Arguments";
 * Nsight Systems' ImportNvtxt for Manual, Relative, ClockMonotonicRaw and
 * CNTVCT.  Required and optional arguments: nvtxt(5), COMMANDS.
 */
#include <string.h>

#include "lang_args.h"
#include "nvtxt/language.h"

static const char *const command_names[NVTXT_CMD_COUNT] = {
	[NVTXT_CMD_MARKER] = "Marker",
	[NVTXT_CMD_RANGE_PUSH] = "RangePush",
	[NVTXT_CMD_RANGE_POP] = "RangePop",
	[NVTXT_CMD_RANGE_START_END] = "RangeStartEnd",
	[NVTXT_CMD_NAME_CATEGORY] = "NameCategory",
	[NVTXT_CMD_ADD_CHILD_CATEGORY] = "AddChildCategory",
	[NVTXT_CMD_NAME_OS_THREAD] = "NameOsThread",
	[NVTXT_CMD_NAME_PROCESS] = "NameProcess",
	[NVTXT_CMD_SET_FILE_DISPLAY_NAME] = "SetFileDisplayName",
};

static const char *const timebase_names[NVTXT_TB_COUNT] = {
	[NVTXT_TB_QPC] = "Qpc",
	[NVTXT_TB_RDTSC] = "Rdtsc",
	[NVTXT_TB_FILETIME] = "FileTime",
	[NVTXT_TB_MANUAL] = "Manual",
	[NVTXT_TB_RELATIVE] = "Relative",
	[NVTXT_TB_CLOCK_MONOTONIC_RAW] = "ClockMonotonicRaw",
	[NVTXT_TB_CNTVCT] = "CNTVCT",
};

#define END_OF_ARGS NVTXT_ARG_COUNT
#define EVENT_ARGS NVTXT_ARG_TIMEBASE, NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID, \
	NVTXT_ARG_CATEGORY_ID, NVTXT_ARG_COLOR, NVTXT_ARG_MESSAGE, NVTXT_ARG_PAYLOAD
/* The arguments an event command may leave absent (nvtxt(5), COMMANDS). */
#define EVENT_OPTIONAL (NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) | NVTXT_BIT(NVTXT_ARG_COLOR) | \
			NVTXT_BIT(NVTXT_ARG_MESSAGE) | NVTXT_BIT(NVTXT_ARG_PAYLOAD))

/*
 * Each command's default definition (its arguments in the reference's
 * order, ended by END_OF_ARGS) and the arguments it may leave absent:
 * CategoryId, Color, Message and Payload of Marker, RangePush and
 * RangeStartEnd; every other argument is required, CategoryId of
 * NameCategory and AddChildCategory included.
 */
static const struct {
	enum nvtxt_arg args[NVTXT_ARG_COUNT + 1];
	uint32_t optional;
} commands[NVTXT_CMD_COUNT] = {
	[NVTXT_CMD_MARKER] = { { NVTXT_ARG_TIME, EVENT_ARGS, END_OF_ARGS }, EVENT_OPTIONAL },
	[NVTXT_CMD_RANGE_PUSH] = { { NVTXT_ARG_TIME, EVENT_ARGS, END_OF_ARGS }, EVENT_OPTIONAL },
	[NVTXT_CMD_RANGE_POP] = { { NVTXT_ARG_TIME, NVTXT_ARG_TIMEBASE, NVTXT_ARG_PROCESS_ID,
				    NVTXT_ARG_THREAD_ID, END_OF_ARGS }, 0 },
	[NVTXT_CMD_RANGE_START_END] = { { NVTXT_ARG_START, NVTXT_ARG_END, EVENT_ARGS, END_OF_ARGS },
					EVENT_OPTIONAL },
	[NVTXT_CMD_NAME_CATEGORY] = { { NVTXT_ARG_CATEGORY_ID, NVTXT_ARG_NAME, END_OF_ARGS }, 0 },
	[NVTXT_CMD_ADD_CHILD_CATEGORY] = { { NVTXT_ARG_PARENT_CATEGORY_ID, NVTXT_ARG_CATEGORY_ID,
					     END_OF_ARGS }, 0 },
	[NVTXT_CMD_NAME_OS_THREAD] = { { NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID, NVTXT_ARG_NAME,
					 END_OF_ARGS }, 0 },
	[NVTXT_CMD_NAME_PROCESS] = { { NVTXT_ARG_PROCESS_ID, NVTXT_ARG_NAME, END_OF_ARGS }, 0 },
	[NVTXT_CMD_SET_FILE_DISPLAY_NAME] = { { NVTXT_ARG_NAME, END_OF_ARGS }, 0 },
};

const char *nvtxt_command_name(enum nvtxt_command cmd)
{
	return (unsigned)cmd < NVTXT_CMD_COUNT ? command_names[cmd] : NULL;
}

const char *nvtxt_arg_name(enum nvtxt_arg arg)
{
	return (unsigned)arg < NVTXT_ARG_COUNT ? lang_args[arg].name : NULL;
}

const char *nvtxt_timebase_name(enum nvtxt_timebase tb)
{
	return (unsigned)tb < NVTXT_TB_COUNT ? timebase_names[tb] : NULL;
}

size_t nvtxt_command_default_args(enum nvtxt_command cmd, enum nvtxt_arg *args)
{
	size_t n = 0;

	if ((unsigned)cmd >= NVTXT_CMD_COUNT)
		return 0;
	while (commands[cmd].args[n] != END_OF_ARGS) {
		args[n] = commands[cmd].args[n];
		n++;
	}
	return n;
}

bool nvtxt_command_has_arg(enum nvtxt_command cmd, enum nvtxt_arg arg)
{
	if ((unsigned)cmd >= NVTXT_CMD_COUNT)
		return false;
	for (size_t i = 0; commands[cmd].args[i] != END_OF_ARGS; i++)
		if (commands[cmd].args[i] == arg)
			return true;
	return false;
}

bool nvtxt_command_arg_optional(enum nvtxt_command cmd, enum nvtxt_arg arg)
{
	return (unsigned)cmd < NVTXT_CMD_COUNT && (unsigned)arg < NVTXT_ARG_COUNT &&
	       (commands[cmd].optional & NVTXT_BIT(arg));
}

/*
 * Commands and time bases are looked up once per line, so these two are a
 * switch on the length and one memcmp of a constant size, which the
 * compiler inlines (the command's in lang_args.h, where the fast path of
 * calls inlines it too); tests/unit/lang.c checks that they agree with the
 * name tables above for every name and every other length.
 */
int nvtxt_command_lookup(const char *name, size_t len)
{
	return lang_command_lookup(name, len);
}

int nvtxt_arg_lookup(const char *name, size_t len)
{
	for (int i = 0; i < NVTXT_ARG_COUNT; i++)
		if (strlen(lang_args[i].name) == len && memcmp(lang_args[i].name, name, len) == 0)
			return i;
	return -1;
}

int nvtxt_timebase_lookup(const char *name, size_t len)
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
