/*
 * suppress.h - suppression comments (nvtxt(5), "Suppression comments") as a
 * filter over the diagnostics record: the set of suppressions one file's
 * comments declare, and whether one covers a diagnostic.  It knows nothing
 * of the engine: what it has to say about a comment (a name that is no
 * warning, a misplaced or unused suppression) goes to the report callback
 * the engine gives (diag.c), which makes a diagnostic of it.
 */
#ifndef NVTXT_SUPPRESS_H
#define NVTXT_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvtxt/diag.h"
#include "util.h"

/* A warning silenced by a suppression comment (supp_comment). */
struct nvtxt_suppression {
	enum nvtxt_check_id check;
	uint32_t line;            /* the instruction it covers; 0: the whole file */
	struct nvtxt_loc loc;     /* the check's name in the comment */
	bool used;
};

/* One file's suppressions; zero-initialized before its first comment. */
struct supp_set {
	struct nvtxt_suppression *supp;  /* freed by supp_finish (util.h's temporaries) */
	size_t nsupp, supp_cap;
	size_t supp_pending;             /* supp[supp_pending..] wait for their instruction */
	bool seen_instruction;           /* an instruction came: too late for file-wide ones */
};

/*
 * A report about a suppression comment: check `check` at `loc`, the
 * message printf-style, fixit the replacement of loc's text or NULL.
 */
typedef void supp_report_fn(void *user, enum nvtxt_check_id check, const struct nvtxt_loc *loc,
			    const char *fixit, const char *fmt, ...) NVTXT_PRINTF(5, 6);

/* Reads a comment line (text from its '#', len bytes, at its place); see diag_comment. */
void supp_comment(struct supp_set *s, const char *text, size_t len, const struct nvtxt_loc *at,
		  supp_report_fn *report, void *user);
/* An instruction is on `line`: binds the pending next-line suppressions to it. */
void supp_instruction(struct supp_set *s, uint32_t line);
/*
 * True (and the suppression marked used) when a suppression covers a
 * diagnostic of `check` on `line` (0: about the input as a whole); never
 * for an error check.
 */
bool supp_covers(struct supp_set *s, enum nvtxt_check_id check, uint32_t line);
/*
 * The end of the input: reports the suppressions that silenced nothing
 * (unless level[check] is off), then empties the set.  The set is emptied
 * first, so these reports are not filtered by it.
 */
void supp_finish(struct supp_set *s, const unsigned char *level, supp_report_fn *report, void *user);

#endif
