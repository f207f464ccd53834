/*
 * sema_internal.h - what the files of the per-instruction passes share:
 * the state of one file's semantic analysis and the functions each
 * concern gives the others.  Not part of the library's interface.
 *
 *   sema.c          the pipeline: instructions in, the choice of a call's
 *                   path (sema.fast), the plans' invalidation
 *   sema_events.c   checked events to the event passes (pairing,
 *                   category, naming) and the back end
 *   sema_bind.c     variables: assignments and $Name expansion
 *   sema_define.c   command names and @definitions
 *   sema_check.c    the full path of a call: arity, static arguments,
 *                   conversion of values and their reports
 *   sema_fast.c     the fast path of a call: call plans (sema_fast.h),
 *                   which calls nothing of the full path
 * Both paths convert values through conv_arg (src/lang/lang_args.h).
 *
 * Rules: nvtxt(5), ASSIGNMENTS AND EXPANSION, DEFINITIONS AND STATIC
 * ARGUMENTS, ARGUMENTS.
 */
#ifndef NVTXT_SEMA_INTERNAL_H
#define NVTXT_SEMA_INTERNAL_H

#include "sema.h"
#include "sema_fast.h"

struct definition {
	bool custom;                  /* false: the default definition */
	bool poisoned;                /* the last definition was bad: skip calls */
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t nargs;
	struct nvtxt_loc loc;         /* the command name in the @ line */
};

/* The back end returned rc (not NVTXT_OK): keeps its status (and errno), which stops the calls. */
void sema_backend_failed(struct sema *s, int rc);

struct sema {
	struct nvtxt_diags *diags;
	const struct nvtxt_backend *backend;
	int status;                       /* the back end's failure (enum nvtxt_status): no more calls */
	int io_errno;                     /* its errno, for NVTXT_ERR_SYSTEM */
	uint64_t ordinal;

	bool fast;                        /* the fast path of calls (sema_set_fast_path): sema.c's choice */
	struct sema_plans plans;          /* the fast path's, invalidated by sema.c (sema_instruction) */

	/* binding: name -> variable, open addressing on the name's hash */
	struct nvtxt_binding **vars;
	size_t vars_cap, vars_count;
	/* the variable named like each argument, once assigned: what static arguments read */
	const struct nvtxt_binding *arg_var[NVTXT_ARG_COUNT];

	struct definition defs[NVTXT_CMD_COUNT];
	/*
	 * Unknown command names whose definition was already reported: their
	 * calls are skipped quietly.  The value: 1 + the index of the name's
	 * recovered definition, or 0.
	 */
	struct namemap unknown_defined;
	/*
	 * Typo-correction recovery (sema.c, recover_call): the command that
	 * the unknown name of the last call stands for, or -1; set by
	 * sema_command.  quiet: a recovered call is being checked, nothing it
	 * finds is reported or remembered as reported.
	 */
	int recover_cmd;
	bool quiet;
	/*
	 * The definitions of misspelt RangePush and RangePop names (at most
	 * RECOVERED_MAX, the latest of each name), which their calls follow
	 * when they are recovered; recover_def: the one the last call follows,
	 * or NULL (the command's own), set by sema_command.
	 */
	struct recovered_def {
		enum nvtxt_command cmd;
		struct definition def;
	} recovered[8];
	size_t nrecovered;
	const struct definition *recover_def;
	struct pairing *pairing;
	struct category *category;
	struct naming *naming;
};

/* sema_bind.c */
/* Expands a $Name value in place; reports an undefined variable and returns false. */
bool sema_expand(struct sema *s, struct nvtxt_value *v);
/* An assignment; true when it gave a variable named like an argument (a static argument) a value. */
bool sema_assignment(struct sema *s, const struct nvtxt_instr *in);

/* sema_define.c */
/* The command of a call or definition, or -1 after reporting an unknown name. */
int sema_command(struct sema *s, const struct nvtxt_instr *in);
void sema_definition(struct sema *s, const struct nvtxt_instr *in);

/* sema_check.c: the full path; reports every error and returns false after one. */
bool sema_call_event(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev);

/* sema_events.c: the passes after a call's own checks (pairing, category, naming), and the back end. */
void sema_call_checked(struct sema *s, struct nvtxt_event *ev);

/*
 * The body of sema_call_checked, here so that the fast path's loop over a
 * run of calls (sema_fast_calls) has it without a call per line.
 */
static inline void sema_deliver(struct sema *s, struct nvtxt_event *ev)
{
	int rc;

	if (s->status || !s->backend || !s->backend->event)
		return;
	rc = s->backend->event(s->backend->user, ev);
	if (rc != NVTXT_OK)
		sema_backend_failed(s, rc);
}

static ALWAYS_INLINE void sema_call_checked_inline(struct sema *s, struct nvtxt_event *ev)
{
	switch (ev->command) {
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		ev->ordinal = s->ordinal;
		if (!pairing_event(s->pairing, s->diags, ev))
			return;
		s->ordinal++;
		sema_deliver(s, ev);
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
	sema_deliver(s, ev);
}

#endif
