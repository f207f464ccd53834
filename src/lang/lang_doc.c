/*
 * lang_doc.c - what nvtxt(5) says each command and time base means, in
 * one sentence or phrase each, and each argument (its row of args.def):
 * the language server's hover and completion documentation.  Sources:
 * nvtxt(5), ARGUMENTS, COMMANDS and TIME BASES.
 */
#include "lang_doc.h"

static const char *const command_meaning[NVTXT_CMD_COUNT] = {
	[NVTXT_CMD_MARKER] = "An instantaneous event at Time on the thread ThreadId of the process ProcessId.",
	[NVTXT_CMD_RANGE_PUSH] = "Opens a nested range at Time on the thread ThreadId of the process ProcessId; a later RangePop on the same thread closes it.",
	[NVTXT_CMD_RANGE_POP] = "Closes, at Time, the innermost range still open on the thread ThreadId of the process ProcessId.",
	[NVTXT_CMD_RANGE_START_END] = "A range from Start to End on the thread ThreadId of the process ProcessId, independent of push/pop ranges.",
	[NVTXT_CMD_NAME_CATEGORY] = "Gives the category CategoryId the name Name.",
	[NVTXT_CMD_ADD_CHILD_CATEGORY] = "Makes the category CategoryId a child of the category ParentCategoryId.",
	[NVTXT_CMD_NAME_OS_THREAD] = "Gives the thread ThreadId of the process ProcessId the name Name.",
	[NVTXT_CMD_NAME_PROCESS] = "Gives the process ProcessId the name Name.",
	[NVTXT_CMD_SET_FILE_DISPLAY_NAME] = "Sets the name under which the file's annotations are shown.",
};

static const char *const timebase_meaning[NVTXT_TB_COUNT] = {
	[NVTXT_TB_QPC] = "ticks of the Windows high-resolution performance counter (QueryPerformanceCounter)",
	[NVTXT_TB_RDTSC] = "the processor's time-stamp counter: cycles since reset, as read by RDTSC",
	[NVTXT_TB_FILETIME] = "100-nanosecond intervals since 1601-01-01 00:00 UTC (Windows FILETIME)",
	[NVTXT_TB_MANUAL] = "absolute times on a clock of the writer's choice, mapped by ImportNvtxt as its user selects",
	[NVTXT_TB_RELATIVE] = "times relative to the report the file is merged with; may be negative",
	[NVTXT_TB_CLOCK_MONOTONIC_RAW] = "nanoseconds of CLOCK_MONOTONIC_RAW (clock_gettime) on the capturing machine",
	[NVTXT_TB_CNTVCT] = "ticks of the ARM virtual counter (CNTVCT) on the capturing machine",
};

const struct lang_arg_doc *lang_arg_doc(enum nvtxt_arg arg)
{
	return (unsigned)arg < NVTXT_ARG_COUNT ? &lang_args[arg].doc : NULL;
}

const char *lang_command_meaning(enum nvtxt_command cmd)
{
	return (unsigned)cmd < NVTXT_CMD_COUNT ? command_meaning[cmd] : NULL;
}

const char *lang_timebase_meaning(enum nvtxt_timebase tb)
{
	return (unsigned)tb < NVTXT_TB_COUNT ? timebase_meaning[tb] : NULL;
}
