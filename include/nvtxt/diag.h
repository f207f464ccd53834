/*
 * nvtxt/diag.h - diagnostics as the library delivers them: one structured
 * record per problem (check, severity, location, message, fix-it, notes),
 * the settings that decide which checks report and how, the sink that
 * receives the records, the source text behind their locations, and the
 * GCC-format text printer.
 *
 * Thread-safety: every function here may be called from several threads
 * at once on different objects; a sink is called by the thread that runs
 * the compilation, one record at a time.
 */
#ifndef NVTXT_PUBLIC_DIAG_H
#define NVTXT_PUBLIC_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "language.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whether a check is reported, and how (set per check by -W options; an
 * error check is always NVTXT_LEVEL_ERROR: errors cannot be disabled).
 */
enum { NVTXT_LEVEL_OFF, NVTXT_LEVEL_WARN, NVTXT_LEVEL_ERROR };

/*
 * One note of a diagnostic: a related place (loc.line 0: no place) and its
 * message (UTF-8, no newline).
 */
struct nvtxt_note {
	struct nvtxt_loc loc; /* line 0: a note about no place in the file */
	char *message;
};

/*
 * A diagnostic, as a sink receives it.  Every pointer in it (file,
 * message, fixit, notes and their messages) belongs to the library and is
 * valid only during the sink's call: copy what you keep.  file is the
 * display name given to nvtxt_compile; loc.col counts bytes (nvtxt_loc).
 */
struct nvtxt_diag {
	enum nvtxt_severity severity; /* as reported, after -Werror */
	enum nvtxt_check_id check;    /* the check that found it (checks.def) */
	bool promoted;                /* a warning turned into an error by -Werror */
	const char *file;             /* the name shown for the input; NULL: the run as a whole */
	struct nvtxt_loc loc;
	char *message;
	char *fixit;                  /* replacement for the located token, or NULL */
	struct nvtxt_note *notes;
	size_t nnotes;
};

/* What the command line decided: per check NVTXT_LEVEL_OFF, _WARN or _ERROR. */
struct nvtxt_diag_config {
	unsigned char level[NVTXT_CHECK_COUNT];
	unsigned long max_errors;     /* 0: no cap; else errors and warnings are each capped */
};
/*
 * Every check at its default severity (nvtxt_check_get(id)->severity:
 * NVTXT_LEVEL_WARN or NVTXT_LEVEL_ERROR); max_errors 50.  -W options map to
 * level[] (nvtxtc(1), OPTIONS).  Cannot fail.
 */
void nvtxt_diag_config_init(struct nvtxt_diag_config *cfg);

/*
 * The -W options of nvtxtc(1) (OPTIONS, "Warning options"; GCC's
 * spellings), for every program that takes them: the nvtxtc command line
 * and the language server's "warnings" setting both go through
 * nvtxt_warning_option.  A sequence of options is applied in order to one
 * nvtxt_diag_config with one nvtxt_warning_options, which keeps what a
 * later option depends on.  Zero it before the first option of a sequence;
 * a copy continues the sequence where the original stood (the language
 * server's settings continue its command line).
 */
struct nvtxt_warning_options {
	bool all_errors;               /* -Werror was given: a later -WNAME makes NAME an error */
	bool silenced;                 /* -w was given: a later -Wall or -Wextra does nothing */
	bool named[NVTXT_CHECK_COUNT]; /* set by an option of its own: -Wall and -Wextra leave it */
};

/* What nvtxt_warning_option made of one option. */
enum nvtxt_warning_status {
	NVTXT_WARNING_OK = 0,      /* applied */
	NVTXT_WARNING_UNKNOWN,     /* no check has that name, or the form is not a -W form */
	NVTXT_WARNING_ERROR_CHECK, /* it names an error check: errors cannot be disabled or changed */
};

/*
 * Applies one -W option, given without its "-W" (a NUL-terminated string):
 *   NAME           the warning NAME on (an error after -Werror)
 *   no-NAME        the warning NAME off
 *   error          every warning that is on becomes an error, and so does
 *                  each one a later option turns on
 *   error=NAME     the warning NAME on, as an error
 *   no-error=NAME  the warning NAME on, as a warning (even after -Werror)
 *   all, extra     every warning that no option of its own has set (before
 *                  or after) on, unless -w came before; an error after -Werror
 * NAME is the name of a warning check of checks.def (nvtxt_check_lookup:
 * exact, case-sensitive).  Returns NVTXT_WARNING_OK; or
 * NVTXT_WARNING_UNKNOWN or NVTXT_WARNING_ERROR_CHECK, with cfg and st
 * unchanged.  *name (name may be NULL) is set to the part of arg that was
 * looked up (after "no-", "error=" or "no-error="; arg itself for the other
 * forms), for a message or a suggestion.  Never allocates.
 */
enum nvtxt_warning_status nvtxt_warning_option(struct nvtxt_diag_config *cfg, struct nvtxt_warning_options *st,
					       const char *arg, const char **name);

/*
 * -w: every warning off; a later -Wall or -Wextra does nothing (as in GCC),
 * a later -WNAME turns NAME on again.  Cannot fail.
 */
void nvtxt_warnings_off(struct nvtxt_diag_config *cfg, struct nvtxt_warning_options *st);

/*
 * The source text behind locations, for the excerpt under a diagnostic:
 * returns the line that `loc` is on (without its line break), or a part
 * of it around loc->col, with its length in *len and the column of its
 * first byte in *first_col (1 for the whole line); NULL when the text is
 * no longer available.
 */
struct nvtxt_source {
	void *user;
	const char *(*line)(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col);
};

struct nvtxt_source;

/*
 * Where finished diagnostics go: report(user, d, src) once per diagnostic,
 * in the order found, with the source text that d's locations refer to
 * (src may be NULL; src and d are valid only during the call).  report
 * must not call nvtxt_compile on the same options' objects, and must not
 * leave by longjmp.
 */
struct nvtxt_diag_sink {
	void *user;
	void (*report)(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src);
};

/*
 * The GCC-format printer: FILE:LINE:COL: SEVERITY: MESSAGE [TAG], excerpt,
 * caret, fix-it, notes.  TAG names the check: -Wname for a warning,
 * -Werror=name for a warning made an error, name for an error.
 */
struct nvtxt_text_printer {
	FILE *out;
	bool color;
};
/* Prints d; excerpts come from src, which may be NULL (no excerpts). */
void nvtxt_print_diag(struct nvtxt_text_printer *p, const struct nvtxt_diag *d,
		      const struct nvtxt_source *src);
/*
 * A sink callback for nvtxt_diag_sink.report: user is a struct
 * nvtxt_text_printer.  Write errors are the stream's (ferror(out)).
 */
void nvtxt_text_printer_report(void *user, const struct nvtxt_diag *d,
			       const struct nvtxt_source *src);

#ifdef __cplusplus
}
#endif

#endif
