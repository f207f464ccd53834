/*
 * nvtxt/language.h - the NVTXT language as the library sees it: source
 * locations, the commands and their arguments, time bases, and the checked
 * event that the front end hands to every back end.
 *
 * Source: NVIDIA, "NVTXT File Extension" (Nsight VSE docs rev. 1.0.220830),
 * sections "Supported Commands" and "Supported Arguments"; Nsight Systems
 * user guide, ImportNvtxt (the extra TimeBase values).  Choices where that
 * page is silent are documented in nvtxt(5).
 */
#ifndef NVTXT_LANGUAGE_H
#define NVTXT_LANGUAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A place in a source file.  line and col are 1-based; col counts bytes
 * from the start of the line (a tab or a UTF-8 sequence is as wide as its
 * bytes).  len is the length of the token in bytes (0 for a point between
 * tokens).  offset is the byte offset of the line's first byte from the
 * start of the file, after a skipped BOM counted as part of the file.
 * line == 0 means "no location" (a note about the language itself).
 */
struct nvtxt_loc {
	uint32_t line;
	uint32_t col;
	uint32_t len;
	uint64_t line_offset;
};

/* The commands of "Supported Commands", in the reference's order. */
enum nvtxt_command {
	NVTXT_CMD_MARKER,
	NVTXT_CMD_RANGE_PUSH,
	NVTXT_CMD_RANGE_POP,
	NVTXT_CMD_RANGE_START_END,
	NVTXT_CMD_NAME_CATEGORY,
	NVTXT_CMD_ADD_CHILD_CATEGORY,
	NVTXT_CMD_NAME_OS_THREAD,
	NVTXT_CMD_NAME_PROCESS,
	NVTXT_CMD_SET_FILE_DISPLAY_NAME,
	NVTXT_CMD_COUNT
};

/* The arguments of "Supported Arguments" (plus ParentCategoryId). */
enum nvtxt_arg {
	NVTXT_ARG_TIME,
	NVTXT_ARG_START,
	NVTXT_ARG_END,
	NVTXT_ARG_TIMEBASE,
	NVTXT_ARG_PROCESS_ID,
	NVTXT_ARG_THREAD_ID,
	NVTXT_ARG_CATEGORY_ID,
	NVTXT_ARG_COLOR,
	NVTXT_ARG_MESSAGE,
	NVTXT_ARG_PAYLOAD,
	NVTXT_ARG_NAME,
	NVTXT_ARG_PARENT_CATEGORY_ID,
	NVTXT_ARG_COUNT
};

/* Bit of an argument in nvtxt_event.present and in argument masks. */
#define NVTXT_BIT(arg) (1u << (arg))

/*
 * TimeBase values, exactly as spelt in a file.  The first three are Nsight
 * Visual Studio Edition's, the last four Nsight Systems' ImportNvtxt's.
 */
enum nvtxt_timebase {
	NVTXT_TB_QPC,                 /* QueryPerformanceCounter ticks */
	NVTXT_TB_RDTSC,               /* x86 time-stamp counter cycles */
	NVTXT_TB_FILETIME,            /* 100 ns intervals since 1601-01-01 UTC */
	NVTXT_TB_MANUAL,              /* absolute values, unit given at import */
	NVTXT_TB_RELATIVE,            /* relative to the report merged with; may be < 0 */
	NVTXT_TB_CLOCK_MONOTONIC_RAW, /* clock_gettime(CLOCK_MONOTONIC_RAW), ns */
	NVTXT_TB_CNTVCT,              /* ARM virtual counter ticks */
	NVTXT_TB_COUNT
};

/* A byte string, not NUL-terminated; valid UTF-8 when it comes from a file. */
struct nvtxt_str {
	const char *ptr;
	size_t len;
};

/*
 * One checked event or naming call: a command call after its definition,
 * its static arguments and its types were resolved.  Only the fields of
 * the arguments whose bit is set in `present` are meaningful; optional
 * arguments (CategoryId, Color, Message, Payload) may be absent.
 *
 * Timestamps are ticks of `timebase`.  Strings point into the front end's
 * memory and are valid only during the callback that receives the event.
 */
struct nvtxt_event {
	enum nvtxt_command command;
	uint32_t present;            /* NVTXT_BIT(arg) for each argument given */
	int64_t time;                /* Marker, RangePush, RangePop */
	int64_t start, end;          /* RangeStartEnd */
	enum nvtxt_timebase timebase;
	int64_t process_id;          /* >= 0 */
	int64_t thread_id;           /* >= 0 */
	uint32_t category_id;
	uint32_t parent_category_id; /* AddChildCategory */
	uint32_t color;              /* ARGB */
	int64_t payload;
	struct nvtxt_str message;
	struct nvtxt_str name;       /* the naming commands */
	/*
	 * For a RangePop: the RangePush it closes (its own present bits, time,
	 * message, ...), valid during the callback; NULL for every other
	 * command, and for a RangePop that had no open push (an error, so such
	 * an event never reaches a back end).
	 */
	const struct nvtxt_event *push;
	uint64_t ordinal;            /* 0-based index of the event in the file */
	struct nvtxt_loc loc;        /* the command name of the call */
};

/*
 * Names as spelt in NVTXT (the reference's "Supported Commands",
 * "Command Arguments" and "TimeBase" tables; nvtxt(5), COMMANDS,
 * ARGUMENTS, TIME BASES), or NULL when out of range.  Static storage;
 * thread-safe.
 */
const char *nvtxt_command_name(enum nvtxt_command cmd);
const char *nvtxt_arg_name(enum nvtxt_arg arg);
const char *nvtxt_timebase_name(enum nvtxt_timebase tb);

/*
 * The default definition of a command: its arguments in the reference's
 * order.  Returns their number (0..NVTXT_ARG_COUNT) and stores them in
 * args[], which must hold NVTXT_ARG_COUNT entries.
 */
size_t nvtxt_command_default_args(enum nvtxt_command cmd, enum nvtxt_arg *args);

/*
 * True when `arg` belongs to `cmd`'s default definition; and when `cmd`
 * may leave `arg` absent (nvtxt(5), COMMANDS: CategoryId, Color, Message
 * and Payload of Marker, RangePush and RangeStartEnd; every other argument
 * of every command is required).
 */
bool nvtxt_command_has_arg(enum nvtxt_command cmd, enum nvtxt_arg arg);
bool nvtxt_command_arg_optional(enum nvtxt_command cmd, enum nvtxt_arg arg);

/*
 * Exact, case-sensitive lookups of `len` bytes of `name` (not
 * NUL-terminated) among the names above: the enum value, or -1 when the
 * name is unknown.  Thread-safe.
 */
int nvtxt_command_lookup(const char *name, size_t len);
int nvtxt_arg_lookup(const char *name, size_t len);
int nvtxt_timebase_lookup(const char *name, size_t len);

/*
 * Color names: the named colors of .NET's System.Drawing.Color, matched
 * without regard to case (nvtxt(5), COLORS: the reference's "Color"
 * argument).  Returns true and stores the ARGB value (0xAARRGGBB: alpha
 * 0xFF, except Transparent, 0x00FFFFFF) in *argb when the `len` bytes of
 * `name` are one of them; false, *argb untouched, otherwise.  Thread-safe.
 */
bool nvtxt_color_lookup(const char *name, size_t len, uint32_t *argb);
/* The i-th color name in its .NET spelling (static storage), or NULL past the end. */
const char *nvtxt_color_name(size_t i);

#ifdef __cplusplus
}
#endif

#endif
