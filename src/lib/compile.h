/*
 * compile.h - the library's entry point: read one NVTXT input, check it and
 * hand it to a back end, or only parse it for the layout formatter.
 *
 * Each call is one independent file: variables, definitions, open ranges
 * and category IDs never carry over between calls (NVTXT reference, "NVTXT
 * Report Files": each input file is handled separately).
 */
#ifndef NVTXT_COMPILE_H
#define NVTXT_COMPILE_H

#include "ast.h"
#include "backend.h"
#include "diag.h"

struct nvtxt_compile_options {
	const char *display_name;                 /* the name diagnostics show */
	int fd;                                   /* input, read from its current position to EOF */
	const char *text;                         /* or, when not NULL, this text of text_len bytes */
	size_t text_len;
	const struct nvtxt_diag_config *diag_config;
	struct nvtxt_diag_sink sink;              /* where diagnostics go */
	/*
	 * Check mode (instruction == NULL): every pass runs and `backend`
	 * (NULL for lint) receives the checked events.  Syntax mode
	 * (instruction != NULL): only the scanner and parser run, and every
	 * line's AST node is handed to `instruction` (the layout formatter).
	 */
	const struct nvtxt_backend *backend;
	void (*instruction)(void *user, const struct nvtxt_instr *in);
	void *instruction_user;
	/*
	 * Only check the syntax: the diagnostics of syntax mode, but no node
	 * is handed on (instruction and backend are ignored), which spares
	 * making them.  For a first pass that decides whether to format.
	 */
	bool syntax_check_only;
	/*
	 * Tests and fuzzing: true sends every line through flex and bison and
	 * every call through the full checks, the reference that the fast
	 * paths (the line scanner of fast_line.c, the call plans of sema.c)
	 * must match in every diagnostic and event.
	 */
	bool no_fast_paths;
	/*
	 * Read and parse ahead in a second thread while this one runs the
	 * passes (src/frontend/reader.c); the output is the same.  For a caller with a
	 * processor to spare (nvtxtc uses it unless -j 1 or as many files as
	 * jobs run at once).
	 */
	bool read_ahead;
};

struct nvtxt_compile_result {
	unsigned long errors, warnings;                /* including those not shown */
	unsigned long hidden_errors, hidden_warnings;  /* over --max-errors */
	unsigned long lines;
	int io_errno;        /* non-zero: reading the input or a back end failed */
};

/*
 * Compiles one input.  Returns 0 when it has no errors, 1 when it has
 * errors (including warnings promoted by -Werror), 2 on an I/O error
 * reading the input or writing through the back end (res->io_errno says
 * which).  Never exits or aborts on bad input.
 */
int nvtxt_compile(const struct nvtxt_compile_options *opt, struct nvtxt_compile_result *res);

#endif
