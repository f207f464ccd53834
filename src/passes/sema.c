/*
 * sema.c - the per-instruction passes that turn AST nodes into checked
 * events: binding (sema_bind.c), definitions (sema_define.c), calls
 * (the fast path sema_fast.c when sema.fast is set, then the full path
 * sema_check.c when the fast path declines); then the event passes
 * (pairing, category, naming) and the back end (sema_events.c).  The
 * fast path reads the state of the others and calls none of them: this
 * file picks it by the flag sema.fast and alone invalidates its plans
 * (sema_instruction).
 *
 * Rules: nvtxt(5), ASSIGNMENTS AND EXPANSION, DEFINITIONS AND STATIC
 * ARGUMENTS, ARGUMENTS, SEMANTIC RULES.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sema_internal.h"

/*
 * Typo-correction recovery, as clang recovers from a misspelt name it can
 * correct: the call whose unknown command name was just reported with one
 * nearest command (the fix-it) is checked again as that command, and the
 * passes after it see what the corrected file gives, so that one slip is
 * one error.  Only RangePush and RangePop recover, the calls whose meaning
 * reaches other lines: a misspelt RangePop still closes its push (not
 * "never popped"), a misspelt RangePush is still there for its pop (not
 * "without an open RangePush"); the calls of a misspelt name's definition
 * follow that definition.  The call is treated as a call with an
 * error (pairing_failed): checked in silence (its own errors are the
 * corrected file's business; the reported error stands for the line), no
 * event reaches the back end.
 */
static void recover_call(struct sema *s, const struct nvtxt_instr *in, enum nvtxt_command cmd,
			 const struct definition *def)
{
	struct nvtxt_diags *loud = s->diags, quiet;
	struct nvtxt_instr fixed = *in;
	struct nvtxt_event ev = { .command = NVTXT_CMD_COUNT };
	const char *name = nvtxt_command_name(cmd);
	struct definition own = s->defs[cmd];

	nvtxt_diags_init(&quiet, loud->config, (struct nvtxt_diag_sink){ NULL, NULL }, loud->file);
	fixed.name = (struct nvtxt_str){ name, strlen(name) };
	s->diags = &quiet;
	s->quiet = true;
	if (def)
		s->defs[cmd] = *def; /* the misspelt name's own definition (sema_define.c) */
	sema_call_event(s, &fixed, &ev);
	s->defs[cmd] = own;
	s->diags = loud;
	s->quiet = false;
	if (ev.command == cmd)
		pairing_failed(s->pairing, &ev, ev.process_id >= 0 && ev.thread_id >= 0);
}

static void call(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_event ev;

	if (!s->fast || !sema_plan_call(s, in, &ev)) {
		/* the full path, from scratch: it reports */
		ev = (struct nvtxt_event){ .command = NVTXT_CMD_COUNT };
		s->recover_cmd = -1;
		if (!sema_call_event(s, in, &ev)) {
			if (ev.command == NVTXT_CMD_RANGE_PUSH || ev.command == NVTXT_CMD_RANGE_POP)
				pairing_failed(s->pairing, &ev, ev.process_id >= 0 && ev.thread_id >= 0);
			else if (s->recover_cmd == NVTXT_CMD_RANGE_PUSH || s->recover_cmd == NVTXT_CMD_RANGE_POP)
				recover_call(s, in, (enum nvtxt_command)s->recover_cmd, s->recover_def);
			return;
		}
	}
	sema_call_checked(s, &ev);
}
/* --- the pipeline --------------------------------------------------------- */

struct sema *sema_new(struct nvtxt_diags *diags, const struct nvtxt_backend *backend)
{
	struct sema *s = try_calloc(1, sizeof(*s));

	if (s) {
		s->pairing = pairing_new();
		s->category = category_new();
		s->naming = naming_new();
	}
	if (!s || !s->pairing || !s->category || !s->naming) {
		if (s)
			sema_free(s);
		nvtxt_fail(ENOMEM);
	}
	s->diags = diags;
	s->backend = backend;
	s->fast = true;
	s->plans.gen = 1;
	s->recover_cmd = -1;
	return s;
}

void sema_set_fast_path(struct sema *s, bool on)
{
	s->fast = on;
}

void sema_instruction(struct sema *s, const struct nvtxt_instr *in)
{
	switch (in->kind) {
	/* the plans' one invalidation: after what they read changed */
	case NVTXT_I_ASSIGNMENT:
		if (sema_assignment(s, in))
			sema_plans_invalidate(&s->plans);
		break;
	case NVTXT_I_DEFINITION:
		sema_definition(s, in);
		sema_plans_invalidate(&s->plans);
		break;
	case NVTXT_I_CALL:
		call(s, in);
		break;
	case NVTXT_I_BLANK:
	case NVTXT_I_COMMENT:
		break;
	}
}

void sema_finish(struct sema *s)
{
	int rc = pairing_finish(s->pairing, s->diags, s->status ? NULL : s->backend);

	if (rc != NVTXT_OK && !s->status)
		sema_backend_failed(s, rc);
	if (s->status || !s->backend || !s->backend->finish)
		return;
	rc = s->backend->finish(s->backend->user);
	if (rc != NVTXT_OK)
		sema_backend_failed(s, rc);
}

int sema_status(const struct sema *s, int *io_errno)
{
	*io_errno = s->io_errno;
	return s->status;
}

void sema_free(struct sema *s)
{
	for (size_t i = 0; i < s->vars_cap; i++) {
		if (s->vars[i]) {
			free(s->vars[i]->name);
			free(s->vars[i]->store);
			free(s->vars[i]);
		}
	}
	free(s->vars);
	namemap_free(&s->unknown_defined);
	pairing_free(s->pairing);
	category_free(s->category);
	naming_free(s->naming);
	free(s);
}
