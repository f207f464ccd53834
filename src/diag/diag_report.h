/*
 * diag_report.h - diagnostics kept for a machine-readable document: the
 * JSON of nvtxtc(1) "JSON DIAGNOSTICS" and SARIF 2.1.0 (OASIS, "Static
 * Analysis Results Interchange Format Version 2.1.0", 27 March 2020).
 *
 * A text diagnostic is printed as it comes; a document is written once, at
 * the end of the run, so that it is always whole and valid.  A `struct
 * nvtxt_report` is a sink (nvtxt_report_sink) that copies every diagnostic
 * it receives, with its positions in bytes and in UTF-16 code units and
 * the source text under it, while that text is still at hand; the driver
 * adds each input's counts (nvtxt_report_file) and the fixes --fix
 * applied (nvtxt_report_fixed), then writes the whole run with
 * nvtxt_report_write_json or nvtxt_report_write_sarif.
 *
 * Not thread-safe: one report per thread (lint -j gives each file its own
 * and moves them into the run's in command-line order, nvtxt_report_move).
 */
#ifndef NVTXT_DIAG_REPORT_H
#define NVTXT_DIAG_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag_engine.h"

/*
 * A place in a file: one line, a span of bytes on it.  Columns are
 * 1-based; the end columns are exclusive (the column just after the last
 * character), as in SARIF 2.1.0 3.30.5-3.30.8.  col16 and end_col16 count
 * UTF-16 code units (a character above U+FFFF counts 2); 0 when the line's
 * text was not available (column 1 and an empty span need no text: col16
 * is then 1, end_col16 col16).  line 0: no place in the file (then nothing
 * else is set).
 */
struct nvtxt_report_loc {
	uint32_t line;
	uint32_t col, end_col;       /* bytes */
	uint32_t col16, end_col16;   /* UTF-16 code units; 0: unknown */
	char *snippet;               /* the bytes col..end_col, or NULL when unknown */
	char *line_text;             /* the whole line without its line break, or NULL */
};

struct nvtxt_report_note {
	struct nvtxt_report_loc loc;
	char *message;
};

/* One diagnostic, a copy of a struct nvtxt_diag with its text. */
struct nvtxt_report_diag {
	enum nvtxt_check_id check;
	enum nvtxt_severity severity;  /* as reported (after -Werror) */
	bool promoted;                 /* a warning made an error by -Werror */
	struct nvtxt_report_loc loc;
	char *message;
	char *fixit;                   /* replaces loc's bytes; NULL: none */
	struct nvtxt_report_note *notes;
	size_t nnotes;
};

/* A fix-it that --fix applied: `original` (loc's bytes before) became `replacement`. */
struct nvtxt_report_fix {
	enum nvtxt_check_id check;
	struct nvtxt_report_loc loc;   /* where it was, in the file before the fix */
	char *original;
	char *replacement;
};

/*
 * One input of the run, in command-line order; an input named twice has
 * two entries.
 */
struct nvtxt_report_file {
	char *name;                    /* as diagnostics show it (the path, or --stdin-name) */
	bool unnamed;                  /* standard input without --stdin-name: no path at all */
	long long size;                /* bytes, when known (a regular file, spooled stdin); else -1 */
	struct nvtxt_report_diag *diags;
	size_t ndiags, diags_cap;
	struct nvtxt_report_fix *fixes;
	size_t nfixes;
	unsigned long errors, warnings;            /* all, shown or not */
	unsigned long hidden_errors, hidden_warnings;
};

struct nvtxt_report {
	struct nvtxt_report_file *files;
	size_t nfiles;
	/* diagnostics about no file (file NULL): usage errors and the like */
	struct nvtxt_report_diag *run_diags;
	size_t nrun_diags;
};

/* Where the run was and how it ended, for the document's header. */
struct nvtxt_report_run {
	const char *tool_version;      /* "0.1" */
	int exit_status;               /* nvtxtc(1) EXIT STATUS */
	int argc;                      /* the command line, for SARIF invocations[].arguments */
	char **argv;
};

/* An empty report (zeroed memory is one too). */
void nvtxt_report_init(struct nvtxt_report *r);
void nvtxt_report_free(struct nvtxt_report *r);

/*
 * A struct nvtxt_diag_sink.report callback; `user` is the struct
 * nvtxt_report.  Copies d (a diagnostic of file d->file, or of the run
 * when d->file is NULL) and reads the text under its locations from src
 * (may be NULL: then the snippets and UTF-16 columns are unknown).
 */
void nvtxt_report_sink(void *user, const struct nvtxt_diag *d, const struct nvtxt_source *src);

/*
 * Starts the entry of the next input of the command line, `name` as
 * diagnostics show it (`unnamed`: standard input without --stdin-name),
 * even when an entry of that name exists (the same file named twice).
 * Never NULL; valid until the report changes.
 */
struct nvtxt_report_file *nvtxt_report_input(struct nvtxt_report *r, const char *name, bool unnamed);

/*
 * The latest entry of input `name` (the one being read), created (empty,
 * at the end of the list) when there is none yet.  Never NULL; valid until
 * the report changes.
 */
struct nvtxt_report_file *nvtxt_report_file(struct nvtxt_report *r, const char *name);

/* Records that --fix replaced what d located in file `name` by d->fixit (src as for the sink). */
void nvtxt_report_fixed(struct nvtxt_report *r, const char *name, const struct nvtxt_diag *d,
			const struct nvtxt_source *src);

/* Moves everything of `from` to the end of `to`, entry by entry (none merged); `from` is left empty. */
void nvtxt_report_move(struct nvtxt_report *to, struct nvtxt_report *from);

/*
 * Writes the run as one JSON document (nvtxtc(1), JSON DIAGNOSTICS;
 * "schema_version" 1) or one SARIF 2.1.0 log, followed by a line break.
 * Strings that are not valid UTF-8 have each bad byte replaced by U+FFFD.
 * Returns 0, or -1 when writing failed (errno set) or memory ran out.
 */
int nvtxt_report_write_json(const struct nvtxt_report *r, const struct nvtxt_report_run *run, FILE *out);
int nvtxt_report_write_sarif(const struct nvtxt_report *r, const struct nvtxt_report_run *run, FILE *out);

#endif
