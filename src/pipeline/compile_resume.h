/*
 * compile_resume.h - a check-mode compilation that starts in the middle of
 * a text, from the passes' state saved before that line (sema_snap.h), and
 * that tells its caller at the line boundaries it asks for, where the
 * caller may save the state and stop.  The language server re-checks an
 * edited document this way (src/lsp/lsp_check.c); nvtxt_compile is the
 * same compilation from the top without stops.  Not part of the library's
 * interface.
 */
#ifndef NVTXT_COMPILE_RESUME_H
#define NVTXT_COMPILE_RESUME_H

#include "nvtxt/compile.h"
#include "diag_engine.h"
#include "sema.h"
#include "sema_snap.h"

struct compile_resume {
	/*
	 * Where reading starts: byte `offset` of the text, the start of line
	 * `line` (1-based); the passes' state before it is `state` (NULL with
	 * offset 0 and line 1: the beginning of the text, byte order mark and
	 * UTF-16 checks included).
	 */
	uint64_t offset;
	uint32_t line;
	struct sema_snap *state;
	/*
	 * Called at the first line boundary at or after line `watch` (0:
	 * never) with the line about to be read (its number and first byte),
	 * the passes and the engine; returns the next line to be called at,
	 * or 0 to stop the compilation there (then no end-of-file check runs).
	 */
	uint32_t watch;
	uint32_t (*at_line)(void *user, uint32_t line, uint64_t offset, const struct sema *s,
			    const struct nvtxt_diags *d);
	void *user;
	bool stopped;             /* out: at_line stopped it */
};

/*
 * nvtxt_compile (compile.h) of opt->text in check mode, from r's place
 * and state.  opt->text is the whole text: locations and excerpts are the
 * whole text's.  Returns as nvtxt_compile does.
 */
int compile_resumable(const struct nvtxt_compile_options *opt, struct compile_resume *r,
		      struct nvtxt_compile_result *res);

#endif
