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

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "backend.h"
#include "diag.h"

#ifdef __cplusplus
extern "C" {
#endif

struct nvtxt_compile_options {
	const char *display_name;                 /* the name diagnostics show (nvtxt_diag.file) */
	/*
	 * The input: text in memory when `text` is not NULL (text_len bytes,
	 * any bytes, kept alive and unchanged by the caller until nvtxt_compile
	 * returns; excerpts are taken from it, nothing is re-read), else the
	 * file descriptor `fd`, read from its current position to end of file
	 * (a regular file is read back with pread for excerpts; the library
	 * never closes it).
	 */
	int fd;
	const char *text;
	size_t text_len;
	const struct nvtxt_diag_config *diag_config;
	struct nvtxt_diag_sink sink;              /* where diagnostics go */
	/*
	 * Check mode (instruction == NULL): every pass runs and `backend`
	 * (NULL for lint) receives the checked events.  Syntax mode
	 * (instruction != NULL): only the scanner and parser run, and every
	 * line's AST node (ast.h), blank lines and comments included, is handed
	 * to `instruction` in file order (the layout formatter, an outline);
	 * a line with a syntax error gets its diagnostic instead.
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
	unsigned long hidden_errors, hidden_warnings;  /* over max_errors */
	unsigned long lines;                           /* lines read */
	int io_errno;        /* non-zero: reading the input or a back end failed, or ENOMEM */
	/*
	 * How it ended (backend.h): NVTXT_OK; NVTXT_ERR_SYSTEM, with io_errno;
	 * or the named error a back end callback returned (io_errno 0).
	 */
	int status;
};

/*
 * Compiles one input (nvtxt(5): the language; each call is one file:
 * nothing carries over between calls).  Diagnostics go to opt->sink as
 * they are found; checked events to opt->backend, in file order.
 *
 * Returns 0 when the input has no errors, 1 when it has errors (including
 * warnings promoted by -Werror), 2 when the compilation stopped
 * (res->status is not NVTXT_OK): reading the input failed, a back end
 * callback failed (res->status is what it returned, res->io_errno its
 * errno for NVTXT_ERR_SYSTEM), or memory ran out (NVTXT_ERR_SYSTEM with
 * res->io_errno ENOMEM; then everything the compilation allocated is
 * freed, and the back end's finish is not called).  *res is always filled.  Never exits, aborts or raises a signal,
 * whatever the input.
 *
 * Thread-safety: reentrant; any number of compilations may run at once in
 * different threads (no global mutable state), each with its own options'
 * objects (config may be shared: it is only read).  With read_ahead, the
 * compilation starts and joins one thread of its own.
 * Cost: about one pass over the input; memory bounded by three 128 KiB
 * chunks and the file's definitions, variables and open ranges, not by
 * the input's size.
 */
int nvtxt_compile(const struct nvtxt_compile_options *opt, struct nvtxt_compile_result *res);

#ifdef __cplusplus
}
#endif

#endif
