/*
 * sema_events.c - what follows a call's own checks on either path (the
 * full path of sema.c and sema_check.c, the fast path of sema_fast.c) and
 * a payload record's: the event passes (pairing, category, naming) and
 * the back end.
 *
 * Rules: nvtxt(5), SEMANTIC RULES.
 */
#include <errno.h>

#include "sema_internal.h"

static inline void deliver(struct sema *s, struct nvtxt_event *ev)
{
	if (s->io_errno || !s->backend || !s->backend->event)
		return;
	if (s->backend->event(s->backend->user, ev) != 0)
		s->io_errno = errno ? errno : EIO;
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
