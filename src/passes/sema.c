/*
 * sema.c - the per-instruction passes that turn AST nodes into checked
 * events: binding (sema_bind.c), definitions (sema_define.c), calls
 * (sema_fast.c, then sema_check.c when the fast path declines); then the
 * event passes (pairing, category, naming) and the back end.
 *
 * Rules: nvtxt(5), ASSIGNMENTS AND EXPANSION, DEFINITIONS AND STATIC
 * ARGUMENTS, ARGUMENTS, SEMANTIC RULES.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sema_internal.h"

static inline void deliver(struct sema *s, struct nvtxt_event *ev)
{
	if (s->io_errno || !s->backend || !s->backend->event)
		return;
	if (s->backend->event(s->backend->user, ev) != 0)
		s->io_errno = errno ? errno : EIO;
}

static void call(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_event ev;

	if (!s->fast || !sema_plan_call(s, in, &ev)) {
		/* the full path, from scratch: it reports */
		ev = (struct nvtxt_event){ .command = NVTXT_CMD_COUNT };
		if (!sema_call_event(s, in, &ev)) {
			if (ev.command == NVTXT_CMD_RANGE_PUSH || ev.command == NVTXT_CMD_RANGE_POP)
				pairing_failed(s->pairing, &ev, ev.process_id >= 0 && ev.thread_id >= 0);
			return;
		}
	}
	sema_call_checked(s, &ev);
}


/* The passes after a call's own checks, and the back end. */
void sema_call_checked(struct sema *s, struct nvtxt_event *ev)
{
	switch (ev->command) {
	case NVTXT_CMD_RANGE_PUSH:
	case NVTXT_CMD_RANGE_POP:
		ev->ordinal = s->ordinal;
		if (!pairing_event(s->pairing, s->diags, ev))
			return;
		s->ordinal++;
		deliver(s, ev);
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
	deliver(s, ev);
}

void sema_event(struct sema *s, struct nvtxt_event *ev)
{
	ev->push = NULL;
	sema_call_checked(s, ev);
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
	s->plan_gen = 1;
	return s;
}

void sema_set_fast_path(struct sema *s, bool on)
{
	s->fast = on;
}

void sema_instruction(struct sema *s, const struct nvtxt_instr *in)
{
	switch (in->kind) {
	case NVTXT_I_ASSIGNMENT:
		sema_assignment(s, in);
		break;
	case NVTXT_I_DEFINITION:
		sema_definition(s, in);
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
	if (pairing_finish(s->pairing, s->diags, s->io_errno ? NULL : s->backend) != 0 && !s->io_errno)
		s->io_errno = errno ? errno : EIO;
	if (!s->io_errno && s->backend && s->backend->finish &&
	    s->backend->finish(s->backend->user) != 0)
		s->io_errno = errno ? errno : EIO;
}

int sema_io_errno(const struct sema *s)
{
	return s->io_errno;
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
	idmap_free(&s->unknown_defined);
	pairing_free(s->pairing);
	category_free(s->category);
	naming_free(s->naming);
	free(s);
}
