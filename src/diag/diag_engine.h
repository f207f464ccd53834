/*
 * diag_engine.h - the structured diagnostic record, the per-file engine that
 * applies -W settings and --max-errors, and the GCC-format text printer.
 *
 * Every problem nvtxtc finds is one `struct nvtxt_diag`: a severity, the
 * check it comes from (checks.h), a location, a message, an optional fix-it (the
 * text that would replace the located token) and notes at related places.
 * Printers (text now; JSON or an LSP later) only see these records.
 */
#ifndef NVTXT_DIAG_H
#define NVTXT_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "nvtxt/diag.h"
#include "suppress.h"
#include "util.h"




/* The per-file engine: suppressions, counts, caps and forwards. */
struct nvtxt_diags {
	const struct nvtxt_diag_config *config;
	struct nvtxt_diag_sink sink;
	const char *file;
	const struct nvtxt_source *source;       /* may be NULL */
	unsigned long errors, warnings;          /* all, shown or not (not the suppressed) */
	unsigned long hidden_errors, hidden_warnings;
	struct supp_set supp;                    /* diag_comment's (suppress.h), emptied by diag_finish */
};

void nvtxt_diags_init(struct nvtxt_diags *e, const struct nvtxt_diag_config *cfg,
		      struct nvtxt_diag_sink sink, const char *file);

/*
 * Starts a diagnostic of check `check` at `loc` (NULL: about the input as
 * a whole), at the check's configured level.  Returns NULL when the check
 * is disabled; diag_note, diag_fixit and diag_end accept NULL and do
 * nothing.
 */
struct nvtxt_diag *diag_begin(struct nvtxt_diags *e, enum nvtxt_check_id check,
			      const struct nvtxt_loc *loc, const char *fmt, ...) NVTXT_PRINTF(4, 5);
void diag_note(struct nvtxt_diag *d, const struct nvtxt_loc *loc, const char *fmt, ...)
	NVTXT_PRINTF(3, 4);
void diag_fixit(struct nvtxt_diag *d, const char *text);
/* Counts the diagnostic, sends it to the sink unless over the cap, frees it. */
void diag_end(struct nvtxt_diags *e, struct nvtxt_diag *d);

/*
 * Suppression comments (nvtxt(5), "Suppression comments"; read and
 * matched by src/diag/suppress.c, reported here).
 * diag_comment reads a comment line (text from its '#', len bytes; `at`
 * its place): "# nvtxtc-disable-next-line NAME[,NAME]..." silences those
 * warnings on the next instruction, "# nvtxtc-disable NAME[,NAME]..."
 * before the first instruction on every line of the file; other comments
 * are ignored.  A name that is no check, an error check (errors cannot be
 * silenced) or a misplaced file-wide comment is reported at once.
 * diag_instruction tells that an instruction (an assignment, a definition
 * or a call) is on `line`; diag_finish, at the end of the input, reports
 * the suppressions that silenced nothing (unless their check is disabled)
 * and frees them.  diag_end drops a diagnostic of a warning check that a
 * suppression covers (by the line of its location), even one that -Werror
 * made an error, and does not count it; a diagnostic of an error check is
 * never dropped.
 */
void diag_comment(struct nvtxt_diags *e, const char *text, size_t len, const struct nvtxt_loc *at);
void diag_instruction(struct nvtxt_diags *e, uint32_t line);
void diag_finish(struct nvtxt_diags *e);

/*
 * Terminal columns of code point cp in an excerpt (display_width.c): 2
 * for East Asian Wide and Fullwidth characters, 0 for combining marks
 * and format characters, else 1 (tabs are the printer's business).
 */
unsigned display_width(uint32_t cp);

/* True when a diagnostic of severity `sev` would be shown (not over the cap). */
bool diag_would_show(const struct nvtxt_diags *e, enum nvtxt_severity sev);

/* A shorthand: a diagnostic of `check` with a message and nothing else. */
void diag_error(struct nvtxt_diags *e, enum nvtxt_check_id check, const struct nvtxt_loc *loc,
		const char *fmt, ...) NVTXT_PRINTF(4, 5);



/*
 * A diagnostic about no place in a file, from the driver: an I/O error
 * (a file that cannot be opened, read or written), a usage error, or a
 * remark about a whole file ("not formatted").  It is built as a
 * `struct nvtxt_diag` with no location (loc.line 0) and no notes, and
 * sent straight to `sink` (no engine: never capped by --max-errors, never
 * counted in a file's errors), so that every printer receives it.
 * `check` is the check it reports (NVTXT_CHECK_IO_ERROR, NVTXT_CHECK_USAGE,
 * NVTXT_CHECK_PAYLOAD_FORMAT, ...); for a note (sev NVTXT_SEV_NOTE) it is
 * the check the note is about, and the text printer shows no tag.
 * `file` is the file it is about, or NULL for the run as a whole (the text
 * printer then shows "nvtxtc").  The message is formatted like printf;
 * nothing is kept after the call.
 */
void nvtxt_diag_report_unlocated(const struct nvtxt_diag_sink *sink, enum nvtxt_check_id check,
				 enum nvtxt_severity sev, const char *file, const char *fmt, ...)
	NVTXT_PRINTF(5, 6);
void nvtxt_diag_vreport_unlocated(const struct nvtxt_diag_sink *sink, enum nvtxt_check_id check,
				  enum nvtxt_severity sev, const char *file, const char *fmt, va_list ap);

#endif
