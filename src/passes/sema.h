/*
 * sema.h - the semantic passes.
 *
 * Per instruction, in this order (nvtxt(5), DEFINITIONS AND STATIC
 * ARGUMENTS and SEMANTIC RULES):
 *   binding      assignments and $expansion (variables);
 *   definitions  @Command lines: known command, known and unrepeated arguments;
 *   calls        arity, static arguments, types and ranges -> struct nvtxt_event;
 *   ranges       RangeStartEnd with Start <= End;
 *   pairing      RangePush/RangePop per (ProcessId, ThreadId);
 *   category     the category tree and category names;
 *   naming       thread, process and file display names.
 * At end of file: pairing reports pushes never popped.
 *
 * A call that fails any pass reaches no back end.  Each pass keeps only
 * live state: variables, definitions, open pushes, categories and names.
 */
#ifndef NVTXT_SEMA_H
#define NVTXT_SEMA_H

#include "nvtxt/ast.h"
#include "nvtxt/backend.h"
#include "diag_engine.h"
#include "util.h"

/* A variable's current value and the assignment that gave it. */
struct nvtxt_binding {
	char *name;
	size_t name_len;
	struct nvtxt_value value;    /* text owned by the binding (store) */
	char *store;
	size_t store_cap;
	uint32_t reported;           /* NVTXT_BIT(arg): a bad static value already reported */
	bool expanded;               /* the assignment's value was a $Name */
};

struct sema;

/* The passes of one file.  `backend` may be NULL (lint). */
struct sema *sema_new(struct nvtxt_diags *diags, const struct nvtxt_backend *backend);
void sema_instruction(struct sema *s, const struct nvtxt_instr *in);
/* End of file: file-level checks, then the back end's finish. */
void sema_finish(struct sema *s);
/*
 * NVTXT_OK, or what a back end callback returned when it failed (enum
 * nvtxt_status: NVTXT_ERR_SYSTEM for any value it does not name), with
 * its errno in *io_errno (0 for a named error of the input).
 */
int sema_status(const struct sema *s, int *io_errno);
/*
 * The fast path of command calls, on by default after sema_new.  When on,
 * a call that is certainly valid (a known, good definition; the right
 * number of literal values, each of its argument's type and range; static
 * arguments that were valid when last assigned) is converted from a cached
 * per-command plan; any other call takes the full checks, which report.
 * Off: every call takes the full checks.  Both settings give the same
 * diagnostics and the same events for any input; tests switch it off to
 * compare the two.  Call it before the first instruction or between two.
 */
void sema_set_fast_path(struct sema *s, bool on);

struct fast_value;
struct line_rec;
/*
 * A call the front end's fast path parsed (src/frontend/reader.h): its
 * record `rec`, the line's bytes at `line` (the call at line `lineno`,
 * 1-based, starting at byte `line_offset` of the input) and its values
 * still in their compact records: when the fast path of calls is on and
 * takes the call, runs the passes on its event and returns true;
 * otherwise returns false having done nothing the caller can see, and the
 * caller hands the call on with its values made whole through
 * sema_instruction.  Saves making the values' texts and locations for the
 * calls that need none.
 */
bool sema_fast_call(struct sema *s, const struct line_rec *rec, const char *line,
		    const struct fast_value *values, uint32_t lineno, uint64_t line_offset);
/*
 * sema_fast_call for a run of n line records of one chunk (the lines at
 * bytes + recs[i].start, their values at values + recs[i].first_value),
 * the first at line `lineno` and byte `line_offset` of the input, each
 * next one on the next line: takes the calls one after the other while
 * the fast path of calls takes them, and returns how many it took, with
 * their bytes (line breaks included) in *taken_bytes.  It stops before
 * the first record that is not a call, or that the fast path of calls
 * does not take (that one is left to the caller, untouched).  One call
 * for the run, so that each line costs no more than its own work.
 */
size_t sema_fast_calls(struct sema *s, const struct line_rec *recs, size_t n, const char *bytes,
		       const struct fast_value *values, uint32_t lineno, uint64_t line_offset, uint64_t *taken_bytes);
/*
 * Calls whose own checks were done elsewhere (a payload file's records,
 * nvtxt-payload(5) VALIDATION, checks every value as a call's checks do),
 * the n at ev in order: runs the event passes (pairing, category, naming)
 * on each and hands it to the back end, as a call that passed its checks,
 * and stops after the first whose back end failed (sema_status tells).
 * ev[i].loc is where its diagnostics point; ev[i].ordinal and ev[i].push
 * are set by the passes.  One call for the run (a payload's chunk of
 * 1024), so that each costs no call of its own.
 */
void sema_events(struct sema *s, struct nvtxt_event *ev, size_t n);
void sema_free(struct sema *s);

/* --- pairing: RangePush/RangePop per (ProcessId, ThreadId) ------------------ */

struct pairing;
struct pairing *pairing_new(void);
/*
 * Checks a RangePush or RangePop.  For a push, records it (with a copy of
 * its message).  For a pop, finds the push it closes and sets ev->push;
 * the push stays recorded until pairing_commit.  Returns false after
 * reporting an error (no open push; pop earlier than its push; TimeBase
 * differs); a pop whose only errors are order or TimeBase still closes its
 * push, so one bad pop does not cascade.
 */
bool pairing_event(struct pairing *p, struct nvtxt_diags *d, struct nvtxt_event *ev);
/*
 * A RangePush or RangePop whose call had an error, so that it does not
 * cascade: a failed push still opens a (silent) range on its thread, and
 * a failed pop still closes one.  thread_known is false when ProcessId or
 * ThreadId was bad; then a later pop without an open push is forgiven.
 */
void pairing_failed(struct pairing *p, const struct nvtxt_event *ev, bool thread_known);
/* Releases the push that the last successful pop closed. */
void pairing_commit(struct pairing *p);
/*
 * End of file: warns [-Wunclosed-range] about every push still open, in
 * file order, and hands each to be->unclosed_push (when be and the
 * callback are set).  Returns what the back end returned when it failed
 * (enum nvtxt_status), else 0.
 */
int pairing_finish(struct pairing *p, struct nvtxt_diags *d, const struct nvtxt_backend *be);
void pairing_free(struct pairing *p);

/* --- category: AddChildCategory and NameCategory --------------------------- */

struct category;
struct category *category_new(void);
/*
 * Checks an AddChildCategory (not its own parent; at most one parent,
 * the same pair twice a warning; no cycle, named in the error) or a
 * NameCategory (a different second name is a warning).  Returns false
 * after an error.
 */
bool category_event(struct category *c, struct nvtxt_diags *d, const struct nvtxt_event *ev);
void category_free(struct category *c);

/* --- naming: NameOsThread, NameProcess, SetFileDisplayName ------------------ */

struct naming;
struct naming *naming_new(void);
/* Warns [-Wrename] when a thread, process or the file is given a second, different name. */
void naming_event(struct naming *n, struct nvtxt_diags *d, const struct nvtxt_event *ev);
void naming_free(struct naming *n);

/*
 * A name table shared by category and naming: (a, b) -> the first name
 * given and where.  name_table_set returns NULL when the key is new (the
 * name is stored), or the earlier entry when the key already had a name.
 */
struct name_entry {
	char *name;
	size_t len;
	struct nvtxt_loc loc;
};
struct name_table {
	struct idmap index;
	struct name_entry *entries;
	size_t count, cap;
};
const struct name_entry *name_table_set(struct name_table *t, uint64_t a, uint64_t b,
					struct nvtxt_str name, const struct nvtxt_loc *loc);
void name_table_free(struct name_table *t);

/* Appends `s` to b quoted as in the normal form ("..." or '...'), cut after 60 bytes. */
void describe_string(struct buf *b, const char *s, size_t len);

#endif
