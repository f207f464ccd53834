/*
 * frontend.c - the front end's own state: the line arena, the parser's
 * actions (grammar/nvtxt.y) that fill one line's AST and hand the finished
 * line to fe->consume, and flex's input and fatal error.  Reading and the
 * hand-off to the passes are the pipeline's (src/pipeline/compile.c),
 * which puts each line for flex in fe->slow_ptr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"

/* --- the line arena ------------------------------------------------------ */

enum { ARENA_CHUNK = 64 * 1024 };

void *arena_alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->head;

	size = (size + 15) & ~(size_t)15;
	if (!c || c->size - c->used < size) {
		size_t n = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		c = xmalloc(sizeof(*c) + n);
		c->size = n;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += size;
	return c->data + c->used - size;
}

/* Keeps one standard chunk, so a steady stream of short lines never allocates. */
void arena_reset(struct arena *a)
{
	struct arena_chunk *keep = NULL, *c = a->head, *next;

	for (; c; c = next) {
		next = c->next;
		if (!keep && c->size == ARENA_CHUNK) {
			keep = c;
			keep->next = NULL;
			keep->used = 0;
		} else {
			free(c);
		}
	}
	a->head = keep;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head, *next;
	for (; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}

/* --- flex's input and fatal error ------------------------------------ */

/* The line that the pipeline put in fe->slow_ptr (compile.c, take_slow), handed to flex. */
size_t frontend_read(struct nvtxt_frontend *fe, char *buf, size_t max)
{
	size_t k = fe->slow_len < max ? fe->slow_len : max;

	if (k == 0) /* nothing held: slow_ptr may be NULL, which memcpy may not take */
		return 0;
	memcpy(buf, fe->slow_ptr, k);
	fe->slow_ptr += k;
	fe->slow_len -= k;
	return k;
}

void frontend_scanner_fatal(const char *msg)
{
	nvtxt_fail(strstr(msg, "memory") ? ENOMEM : ENOTRECOVERABLE);
}

/* --- parser actions ------------------------------------------------------ */

void frontend_add_value(struct nvtxt_frontend *fe, const struct nvtxt_value *v)
{
	void *p = fe->values;

	if (fe->nvalues >= FRONTEND_MAX_VALUES) {
		/* no command takes so many: say so once, keep memory bounded */
		if (fe->nvalues == FRONTEND_MAX_VALUES && !fe->line_reported) {
			diag_error(fe->diags, NVTXT_CHECK_TOO_MANY_VALUES, &v->loc,
				   "too many values on one line: a command takes at most 9, and this line has more than %d",
				   FRONTEND_MAX_VALUES);
			fe->line_reported = true;
		}
		fe->line_syntax_error = true;
		return;
	}
	xgrow(&p, &fe->values_cap, fe->nvalues + 1, sizeof(*fe->values));
	fe->values = p;
	fe->values[fe->nvalues++] = *v;
}

void frontend_add_absent(struct nvtxt_frontend *fe, const struct nvtxt_loc *loc)
{
	struct nvtxt_value v = { .kind = NVTXT_V_ABSENT, .loc = *loc };
	frontend_add_value(fe, &v);
}

void frontend_add_arg(struct nvtxt_frontend *fe, struct nvtxt_str name, const struct nvtxt_loc *loc)
{
	if (fe->nargs >= FRONTEND_MAX_VALUES) {
		if (!fe->line_reported)
			diag_error(fe->diags, NVTXT_CHECK_TOO_MANY_VALUES, loc,
				   "too many argument names in one definition: a command has at most 9, and this line has more than %d",
				   FRONTEND_MAX_VALUES);
		fe->line_reported = fe->line_syntax_error = true;
		return;
	}
	if (fe->nargs + 1 > fe->args_cap) {
		size_t cap = fe->args_cap;
		void *p = fe->args;
		xgrow(&p, &cap, fe->nargs + 1, sizeof(*fe->args));
		fe->args = p;
		fe->arg_locs = xrealloc(fe->arg_locs, cap * sizeof(*fe->arg_locs));
		fe->args_cap = cap;
	}
	fe->args[fe->nargs] = name;
	fe->arg_locs[fe->nargs++] = *loc;
}

static void reset_line(struct nvtxt_frontend *fe)
{
	fe->nvalues = 0;
	fe->nargs = 0;
	fe->line_syntax_error = false;
	fe->line_reported = false;
	fe->line_is_def = false;
	fe->def_name = (struct nvtxt_str){ NULL, 0 };
	fe->last_value = NULL;
	fe->prev_value = NULL;
	fe->last_token = (struct nvtxt_str){ "", 0 };
	arena_reset(&fe->arena);
	fe->lines++;
}

void frontend_finish_line(struct nvtxt_frontend *fe)
{
	struct nvtxt_instr *in = &fe->instr;

	in->values = fe->values;
	in->nvalues = fe->nvalues;
	in->args = fe->args;
	in->arg_locs = fe->arg_locs;
	in->nargs = fe->nargs;
	if (!fe->line_syntax_error && !fe->stop)
		fe->consume(fe->consume_user, in);
	reset_line(fe);
}

void frontend_drop_line(struct nvtxt_frontend *fe)
{
	/* a definition that does not parse still replaces the previous one, as a broken one */
	if (fe->line_is_def && fe->def_name.ptr && !fe->stop) {
		struct nvtxt_instr in = { .kind = NVTXT_I_DEFINITION, .broken = true, .name = fe->def_name };
		fe->consume(fe->consume_user, &in);
	}
	reset_line(fe);
}
