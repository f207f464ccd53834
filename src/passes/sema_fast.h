/*
 * sema_fast.h - the fast path of calls (sema_fast.c): per command a call
 * plan, so that a call of literal values is converted without lookups.
 * It reads the state of the full path (definitions, the variables of
 * static arguments) and calls nothing of it: only the event passes after
 * a call (sema_events.c).  sema.c alone calls it for a call's node, when
 * sema.fast is set, and alone invalidates the plans; the front end's
 * compact calls come through sema_fast_call and, a run of lines at a
 * time, sema_fast_calls (sema.h), which read the same flag.  Not part of
 * the library's interface.
 */
#ifndef NVTXT_SEMA_FAST_H
#define NVTXT_SEMA_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "nvtxt/ast.h"

struct sema;

/*
 * The call plan of one command (nvtxt(5), DEFINITIONS AND STATIC
 * ARGUMENTS): the values a call gives, in the order they are converted,
 * and the event with the static arguments already converted.  It depends
 * on the command's definition and on the variables named like its static
 * arguments; it is rebuilt at the first call after either changes
 * (sema_plans_invalidate).
 */
struct call_plan {
	uint64_t gen;                     /* sema_plans.gen when built; 0: not built */
	bool full;                        /* every call takes the full path (a bad definition or static) */
	bool relative;                    /* a static TimeBase that is Relative */
	uint8_t n;                        /* how many values a call gives: the listed arguments */
	/* per listed argument, a TimeBase first: the index of its value in the call, and the argument */
	uint8_t index[NVTXT_ARG_COUNT];
	uint8_t arg[NVTXT_ARG_COUNT];
	uint32_t optional;                /* NVTXT_BIT(arg): a listed argument whose value may be absent */
	struct nvtxt_event tmpl;          /* command, ids -1, the statics converted with their present bits */
	/*
	 * direct: every listed argument is an Integer into an int64_t whose
	 * range ends at INT64_MAX, or a String (the argument table,
	 * src/lang/args.def), so a call whose values all have the kind their
	 * argument needs is converted by one comparison and one store per
	 * value (sema_fast.c, plan_call_compact): per listed argument, in the order of
	 * index[], that kind, its least value and its field in the event.
	 */
	bool direct;
	struct direct_step {
		int64_t min;              /* an Integer's least value (lang_arg_min) */
		uint8_t kind;             /* NVTXT_V_INTEGER (an int64_t field) or NVTXT_V_STRING (a struct nvtxt_str) */
		uint8_t offset;           /* offsetof(struct nvtxt_event, the field) */
	} step[NVTXT_ARG_COUNT];
	uint32_t direct_present;          /* tmpl.present and the listed arguments' bits */
	/*
	 * A direct plan's working event: tmpl with direct_present, its listed
	 * fields and loc those of the last call through the direct steps.
	 * Each such call stores all of them, so it is the event that call
	 * would build on a copy of tmpl, without the copy.
	 */
	struct nvtxt_event work;
};

/* The plans of one file's passes. */
struct sema_plans {
	uint64_t gen;                     /* bumped by sema_plans_invalidate; starts at 1 */
	struct call_plan plan[NVTXT_CMD_COUNT];
};

/*
 * Every plan is out of date: a definition, or an assignment to a variable
 * named like an argument, was just checked.  Called by sema.c only.
 */
static inline void sema_plans_invalidate(struct sema_plans *ps)
{
	ps->gen++;
}

/*
 * The fast path of a call's node: a known command, its plan, the right
 * number of values, each a literal Integer or String (or absent where
 * optional) that converts to its argument, and Start <= End.  Returns
 * true with *ev the event the full path would build (ordinal 0, push
 * NULL); false when the call needs the full path, having written nothing
 * but *ev (and the plan, when it was out of date).  Reports nothing.
 */
bool sema_plan_call(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev);

#endif
