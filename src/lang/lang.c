/*
 * lang.c - the tables of the NVTXT language: commands, their default
 * definitions, arguments and time bases.
 *
 * Source: "NVTXT File Extension", "Supported Commands" (each command's
 * argument list is its default definition) and "Supported Arguments";
 * Nsight Systems' ImportNvtxt for Manual, Relative, ClockMonotonicRaw and
 * CNTVCT.  Required and optional arguments: nvtxt(5), COMMANDS.
 */
#include <string.h>

#include "nvtxt.h"

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

static const char *const arg_names[NVTXT_ARG_COUNT] = {
	[NVTXT_ARG_TIME] = "Time",
	[NVTXT_ARG_START] = "Start",
	[NVTXT_ARG_END] = "End",
	[NVTXT_ARG_TIMEBASE] = "TimeBase",
	[NVTXT_ARG_PROCESS_ID] = "ProcessId",
	[NVTXT_ARG_THREAD_ID] = "ThreadId",
	[NVTXT_ARG_CATEGORY_ID] = "CategoryId",
	[NVTXT_ARG_COLOR] = "Color",
	[NVTXT_ARG_MESSAGE] = "Message",
	[NVTXT_ARG_PAYLOAD] = "Payload",
	[NVTXT_ARG_NAME] = "Name",
	[NVTXT_ARG_PARENT_CATEGORY_ID] = "ParentCategoryId",
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

/* Default definitions, each list ended by END_OF_ARGS. */
static const enum nvtxt_arg default_args[NVTXT_CMD_COUNT][NVTXT_ARG_COUNT + 1] = {
	[NVTXT_CMD_MARKER] = { NVTXT_ARG_TIME, EVENT_ARGS, END_OF_ARGS },
	[NVTXT_CMD_RANGE_PUSH] = { NVTXT_ARG_TIME, EVENT_ARGS, END_OF_ARGS },
	[NVTXT_CMD_RANGE_POP] = { NVTXT_ARG_TIME, NVTXT_ARG_TIMEBASE, NVTXT_ARG_PROCESS_ID,
				  NVTXT_ARG_THREAD_ID, END_OF_ARGS },
	[NVTXT_CMD_RANGE_START_END] = { NVTXT_ARG_START, NVTXT_ARG_END, EVENT_ARGS, END_OF_ARGS },
	[NVTXT_CMD_NAME_CATEGORY] = { NVTXT_ARG_CATEGORY_ID, NVTXT_ARG_NAME, END_OF_ARGS },
	[NVTXT_CMD_ADD_CHILD_CATEGORY] = { NVTXT_ARG_PARENT_CATEGORY_ID, NVTXT_ARG_CATEGORY_ID,
					   END_OF_ARGS },
	[NVTXT_CMD_NAME_OS_THREAD] = { NVTXT_ARG_PROCESS_ID, NVTXT_ARG_THREAD_ID, NVTXT_ARG_NAME,
				       END_OF_ARGS },
	[NVTXT_CMD_NAME_PROCESS] = { NVTXT_ARG_PROCESS_ID, NVTXT_ARG_NAME, END_OF_ARGS },
	[NVTXT_CMD_SET_FILE_DISPLAY_NAME] = { NVTXT_ARG_NAME, END_OF_ARGS },
};

const char *nvtxt_command_name(enum nvtxt_command cmd)
{
	return (unsigned)cmd < NVTXT_CMD_COUNT ? command_names[cmd] : NULL;
}

const char *nvtxt_arg_name(enum nvtxt_arg arg)
{
	return (unsigned)arg < NVTXT_ARG_COUNT ? arg_names[arg] : NULL;
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
	while (default_args[cmd][n] != END_OF_ARGS) {
		args[n] = default_args[cmd][n];
		n++;
	}
	return n;
}

bool nvtxt_command_has_arg(enum nvtxt_command cmd, enum nvtxt_arg arg)
{
	if ((unsigned)cmd >= NVTXT_CMD_COUNT)
		return false;
	for (size_t i = 0; default_args[cmd][i] != END_OF_ARGS; i++)
		if (default_args[cmd][i] == arg)
			return true;
	return false;
}

bool nvtxt_arg_is_optional(enum nvtxt_arg arg)
{
	return arg == NVTXT_ARG_CATEGORY_ID || arg == NVTXT_ARG_COLOR || arg == NVTXT_ARG_MESSAGE ||
	       arg == NVTXT_ARG_PAYLOAD;
}

static int lookup(const char *const *names, int count, const char *name, size_t len)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			return i;
	return -1;
}

int nvtxt_command_lookup(const char *name, size_t len)
{
	return lookup(command_names, NVTXT_CMD_COUNT, name, len);
}

int nvtxt_arg_lookup(const char *name, size_t len)
{
	return lookup(arg_names, NVTXT_ARG_COUNT, name, len);
}

int nvtxt_timebase_lookup(const char *name, size_t len)
{
	return lookup(timebase_names, NVTXT_TB_COUNT, name, len);
}
