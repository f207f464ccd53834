/*
 * sema_events.c - what follows a call's own checks on either path (the
 * full path of sema.c and sema_check.c, the fast path of sema_fast.c) and
 * a payload record's: the event passes (pairing, category, naming) and
 * the back end.  The body is sema_call_checked_inline (sema_internal.h),
 * which the fast path's loop over a run of calls and sema_events (a
 * payload's chunk of calls) inline.
 *
 * Rules: nvtxt(5), SEMANTIC RULES.
 */
#include <errno.h>

#include "sema_internal.h"

void sema_backend_failed(struct sema *s, int rc)
{
	if (rc == NVTXT_ERR_TIME_NO_RATE || rc == NVTXT_ERR_TIME_RANGE) {
		s->status = rc;
		return;
	}
	s->status = NVTXT_ERR_SYSTEM;
	s->io_errno = errno ? errno : EIO;
}

/* The passes after a call's own checks, and the back end. */
void sema_call_checked(struct sema *s, struct nvtxt_event *ev)
{
	sema_call_checked_inline(s, ev);
}

void sema_events(struct sema *s, struct nvtxt_event *ev, size_t n)
{
	for (size_t i = 0; i < n && s->status == NVTXT_OK; i++) {
		ev[i].push = NULL;
		sema_call_checked_inline(s, &ev[i]);
	}
}
