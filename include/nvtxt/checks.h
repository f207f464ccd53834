/*
 * checks.h - the check registry: one row for every diagnostic the library
 * can report, errors included (the rows are in checks.def).
 *
 * Every diagnostic names its check.  The registry drives the -W options
 * (warnings only: errors cannot be disabled), `nvtxtc --list-checks`, the
 * DIAGNOSTICS section of nvtxtc(1) (tests/man.t checks that the page and
 * the table agree both ways) and the rule IDs of machine-readable output.
 */
#ifndef NVTXT_CHECKS_H
#define NVTXT_CHECKS_H

#include <stdbool.h>

/* Severities of diagnostics: a note only ever accompanies another diagnostic. */
enum nvtxt_severity { NVTXT_SEV_NOTE, NVTXT_SEV_WARNING, NVTXT_SEV_ERROR };

enum nvtxt_check_id {
#define CHECK(id, ...) NVTXT_CHECK_##id,
#include "checks.def"
#undef CHECK
	NVTXT_CHECK_COUNT
};

/* One row of the registry; static storage, valid for the life of the process. */
struct nvtxt_check {
	const char *name;              /* kebab-case, stable: "undefined-variable" */
	enum nvtxt_severity severity;  /* default: NVTXT_SEV_ERROR or NVTXT_SEV_WARNING */
	bool fixable;                  /* its fix-its are unambiguous: --fix may apply them */
	const char *section;           /* the rule it enforces: "COMMANDS" of nvtxt(5), ... */
	const char *description;       /* one line, no final period */
	const char *help;              /* what to do about it: sentences, `code` in backquotes */
};

/*
 * The row of check `id`, or NULL when id is not below NVTXT_CHECK_COUNT.
 * Thread-safe (the table is constant).
 */
const struct nvtxt_check *nvtxt_check_get(enum nvtxt_check_id id);

/*
 * The check called `name` (exact, case-sensitive), or -1 when there is
 * none.  Thread-safe.
 */
int nvtxt_check_lookup(const char *name);

#endif
