/*
 * sema_internal.h - what the files of the per-instruction passes share:
 * the state of one file's semantic analysis and the functions each
 * concern gives the others.  Not part of the library's interface.
 *
 *   sema.c          the pipeline: instructions in, checked events to the
 *                   event passes (pairing, category, naming) and the back end
 *   sema_bind.c     variables: assignments and $Name expansion
 *   sema_define.c   command names and @definitions
 *   sema_check.c    the full path of a call: arity, static arguments,
 *                   conversion of values and their reports
 *   sema_fast.c     the fast path of a call: call plans
 *   sema_convert.h  the conversions both paths share
 *
 * Rules: nvtxt(5), ASSIGNMENTS AND EXPANSION, DEFINITIONS AND STATIC
 * ARGUMENTS, ARGUMENTS.
 */
#ifndef NVTXT_SEMA_INTERNAL_H
#define NVTXT_SEMA_INTERNAL_H

#include "sema.h"

struct definition {
	bool custom;                  /* false: the default definition */
	bool poisoned;                /* the last definition was bad: skip calls */
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t nargs;
	struct nvtxt_loc loc;         /* the command name in the @ line */
};

/*
 * The call plan of one command for the fast path (nvtxt(5), DEFINITIONS
 * AND STATIC ARGUMENTS): the values a call gives, in the order they are
 * converted, and the event with the static arguments already converted.
 * It depends on the command's definition and on the variables named like
 * its static arguments; it is rebuilt at the first call after either
 * changes (sema.plan_gen, definition()).
 */
struct call_plan {
	uint64_t gen;                     /* sema.plan_gen when built; 0: not built */
	bool full;                        /* every call takes the full path (a bad definition or static) */
	bool relative;                    /* a static TimeBase that is Relative */
	uint8_t n;                        /* how many values a call gives: the listed arguments */
	/* per listed argument, a TimeBase first: the index of its value in the call, and the argument */
	uint8_t index[NVTXT_ARG_COUNT];
	uint8_t arg[NVTXT_ARG_COUNT];
	uint32_t optional;                /* NVTXT_BIT(arg): a listed argument whose value may be absent */
	struct nvtxt_event tmpl;          /* command, ids -1, the statics converted with their present bits */
	/*
	 * direct: every listed argument is a timestamp, an id, Message or
	 * Name, so a call whose values all have the kind their argument
	 * needs is converted by one comparison and one store per value
	 * (sema_fast.c, plan_call_compact): per listed argument, in the
	 * order of index[], that kind and the argument's field in the event.
	 */
	bool direct;
	struct direct_step {
		int64_t min;              /* an Integer's least value: 0, or INT64_MIN for a Relative timestamp */
		uint8_t kind;             /* NVTXT_V_INTEGER (an int64_t field) or NVTXT_V_STRING (a struct nvtxt_str) */
		uint8_t offset;           /* offsetof(struct nvtxt_event, the field) */
	} step[NVTXT_ARG_COUNT];
	uint32_t direct_present;          /* tmpl.present and the listed arguments' bits */
};

struct sema {
	struct nvtxt_diags *diags;
	const struct nvtxt_backend *backend;
	int io_errno;
	uint64_t ordinal;

	bool fast;                        /* the fast path of calls (sema_set_fast_path) */
	uint64_t plan_gen;                /* bumped by an assignment to a variable named like an argument */
	struct call_plan plans[NVTXT_CMD_COUNT];

	/* binding: name -> variable, open addressing on the name's hash */
	struct nvtxt_binding **vars;
	size_t vars_cap, vars_count;
	/* the variable named like each argument, once assigned: what static arguments read */
	const struct nvtxt_binding *arg_var[NVTXT_ARG_COUNT];

	struct definition defs[NVTXT_CMD_COUNT];
	/* unknown command names whose definition was already reported: their calls are skipped quietly */
	struct idmap unknown_defined;
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
		uint64_t key;
		size_t len;
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
void sema_assignment(struct sema *s, const struct nvtxt_instr *in);

/* sema_define.c */
/* The command of a call or definition, or -1 after reporting an unknown name. */
int sema_command(struct sema *s, const struct nvtxt_instr *in);
void sema_definition(struct sema *s, const struct nvtxt_instr *in);

/* sema_check.c: the full path; reports every error and returns false after one. */
bool sema_call_event(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev);

/* sema_fast.c: the fast path of a call's node; false when it needs the full path (nothing reported). */
bool sema_plan_call(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev);

/* sema.c: the passes after a call's own checks (pairing, category, naming), and the back end. */
void sema_call_checked(struct sema *s, struct nvtxt_event *ev);

#endif
