/*
 * lsp_index.c - one document's tokens, definitions and events, built from
 * syntax mode and check mode of nvtxt_compile (lsp_index.h).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nvtxt/ast.h"
#include "lang_args.h"
#include "lsp_index.h"
#include "lsp_int.h"
#include "timeconv.h"

struct build {
	struct lsp_index *x;
	const struct lsp_doc *d;
	const struct nvtxt_tconv *tc;
	int cur[NVTXT_CMD_COUNT];   /* the definition in force of each command: index in x->defs, or -1 */
	uint32_t base;              /* the byte of the document where the text compiled starts */
	bool saw_def;               /* a definition line was read */
};

static uint32_t off_of(const struct build *b, const struct nvtxt_loc *loc)
{
	uint64_t a = b->base + loc->line_offset + (loc->col ? loc->col - 1 : 0);
	return (uint32_t)(a > b->d->len ? b->d->len : a);
}

static struct lsp_item *add_item(struct build *b, const struct nvtxt_loc *loc, size_t len, enum lsp_role role,
				 int cmd)
{
	struct lsp_index *x = b->x;
	struct lsp_item *it;
	void *p = x->items;
	uint32_t a = off_of(b, loc);

	xgrow(&p, &x->items_cap, x->nitems + 1, sizeof(*x->items));
	x->items = p;
	/* out of order (lsp_index.fixed): not moved to a new text, as lower_bound would miss it */
	if (x->nitems && a < x->items[x->nitems - 1].start)
		x->fixed = true;
	it = &x->items[x->nitems++];
	memset(it, 0, sizeof(*it));
	it->start = a;
	it->end = (uint32_t)(a + len > b->d->len ? b->d->len : a + len);
	it->role = (uint8_t)role;
	it->arg = -1;
	it->cmd = (int8_t)cmd;
	return it;
}

/* A value token filling argument arg (-1: none), with the conversions of the passes. */
static void add_value(struct build *b, const struct nvtxt_value *v, int arg, int cmd)
{
	struct lsp_item *it = add_item(b, &v->loc, v->loc.len, LSP_R_VALUE, cmd);
	struct nvtxt_event ev;
	enum conv r = CONV_SILENT;

	it->kind = (uint8_t)v->kind;
	it->arg = (int8_t)arg;
	if ((arg == NVTXT_ARG_COLOR || arg == NVTXT_ARG_TIMEBASE) &&
	    (v->kind == NVTXT_V_INTEGER || v->kind == NVTXT_V_STRING))
		r = lang_arg_convert((enum nvtxt_arg)arg, v, false, &ev);
	/* 0xRRGGBB too: lint warns (color-alpha) but takes it, with alpha 0 */
	if (arg == NVTXT_ARG_COLOR && (r == CONV_OK || r == CONV_NO_ALPHA)) {
		it->flags |= LSP_F_COLOR;
		it->aux = ev.color;
	}
	if (arg == NVTXT_ARG_TIMEBASE && r == CONV_OK)
		it->flags |= LSP_F_TIMEBASE;
}

static void add_definition(struct build *b, const struct nvtxt_instr *in)
{
	struct lsp_index *x = b->x;
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	/* an index, not a pointer: the arguments' items may move the array */
	size_t name = add_item(b, &in->name_loc, in->name.len, LSP_R_DEF_NAME, cmd) - x->items;
	struct lsp_def *def;
	void *p = x->defs;

	if (cmd < 0) {
		x->items[name].flags |= LSP_F_UNKNOWN;
		return;
	}
	xgrow(&p, &x->defs_cap, x->ndefs + 1, sizeof(*x->defs));
	x->defs = p;
	def = &x->defs[x->ndefs];
	memset(def, 0, sizeof(*def));
	def->at = off_of(b, &in->loc);
	def->line = in->loc.line ? in->loc.line - 1 : 0;
	def->cmd = (int8_t)cmd;
	def->broken = in->broken;
	for (size_t i = 0; !in->broken && i < in->nargs; i++) {
		int a = nvtxt_arg_lookup(in->args[i].ptr, in->args[i].len);
		struct lsp_item *it = add_item(b, &in->arg_locs[i], in->args[i].len, LSP_R_DEF_ARG, cmd);
		if (a < 0 || !nvtxt_command_has_arg((enum nvtxt_command)cmd, (enum nvtxt_arg)a)) {
			/* its calls are skipped (nvtxt(5), DEFINITIONS AND STATIC ARGUMENTS) */
			it->flags |= LSP_F_UNKNOWN;
			def->broken = true;
			continue;
		}
		it->arg = (int8_t)a;
		if (def->nargs < NVTXT_ARG_COUNT)
			def->args[def->nargs++] = (uint8_t)a;
	}
	if (def->broken)
		x->items[name].flags |= LSP_F_BROKEN;
	b->cur[cmd] = (int)x->ndefs++;
}

static void add_call(struct build *b, const struct nvtxt_instr *in)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	struct lsp_item *name = add_item(b, &in->name_loc, in->name.len, LSP_R_COMMAND, cmd);
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = 0;

	if (cmd < 0) {
		name->flags |= LSP_F_UNKNOWN;
	} else if (b->cur[cmd] >= 0) {
		const struct lsp_def *def = &b->x->defs[b->cur[cmd]];
		for (size_t i = 0; !def->broken && i < def->nargs; i++)
			args[n++] = (enum nvtxt_arg)def->args[i];
		if (def->broken)
			name->flags |= LSP_F_BROKEN;
	} else {
		n = nvtxt_command_default_args((enum nvtxt_command)cmd, args);
	}
	for (size_t i = 0; i < in->nvalues; i++)
		add_value(b, &in->values[i], i < n ? (int)args[i] : -1, cmd);
}

static void on_instruction(void *user, const struct nvtxt_instr *in)
{
	struct build *b = user;
	struct lsp_item *it;

	switch (in->kind) {
	case NVTXT_I_COMMENT:
		add_item(b, &in->name_loc, in->name.len, LSP_R_COMMENT, -1);
		break;
	case NVTXT_I_ASSIGNMENT: {
		int arg = nvtxt_arg_lookup(in->name.ptr, in->name.len);
		it = add_item(b, &in->name_loc, in->name.len, LSP_R_VAR_DECL, -1);
		if (arg >= 0)
			it->flags |= LSP_F_STATIC;
		it->arg = (int8_t)arg;
		for (size_t i = 0; i < in->nvalues; i++)
			add_value(b, &in->values[i], arg, -1);
		break;
	}
	case NVTXT_I_DEFINITION:
		/* one that does not parse has no place (frontend_drop_line): its item is at byte 0 */
		b->saw_def = true;
		if (!in->loc.line)
			b->x->fixed = true;
		add_definition(b, in);
		break;
	case NVTXT_I_CALL:
		add_call(b, in);
		break;
	case NVTXT_I_BLANK:
		break;
	}
}

/* --- check mode: the events ------------------------------------------------ */

/*
 * The first of n records of `size` bytes from base whose uint32_t at byte
 * `key` of the record is at least v (n when none): the records are sorted
 * by it.
 */
static size_t lower_bound(const void *base, size_t n, size_t size, size_t key, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t k;
		memcpy(&k, (const char *)base + mid * size + key, sizeof k);
		if (k < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static size_t event_index(const struct lsp_index *x, uint32_t at)
{
	return lower_bound(x->events, x->nevents, sizeof(*x->events), offsetof(struct lsp_event, at), at);
}

static int64_t to_ns(struct build *b, const struct nvtxt_event *ev, int64_t t)
{
	int64_t ns;

	if (nvtxt_tconv_apply(b->tc, ev->timebase, t, &ns) != 0)
		return INT64_MIN;
	if (b->x->origin_ns == INT64_MIN)
		b->x->origin_ns = ns;
	return ns;
}

static int on_event(void *user, const struct nvtxt_event *ev)
{
	struct build *b = user;
	struct lsp_index *x = b->x;
	struct lsp_event *e;
	void *p = x->events;

	xgrow(&p, &x->events_cap, x->nevents + 1, sizeof(*x->events));
	x->events = p;
	e = &x->events[x->nevents++];
	memset(e, 0, sizeof(*e));
	e->at = off_of(b, &ev->loc);
	e->pair = UINT32_MAX;
	e->msg_len = UINT32_MAX;
	e->cmd = (int8_t)ev->command;
	e->present = ev->present;
	e->pid = ev->process_id;
	e->tid = ev->thread_id;
	e->cat = ev->category_id;
	e->parent = ev->parent_category_id;
	e->ns[0] = e->ns[1] = INT64_MIN;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_TIME))
		e->has_time = true, e->ns[0] = to_ns(b, ev, ev->time);
	if (ev->present & NVTXT_BIT(NVTXT_ARG_START))
		e->has_time = true, e->ns[0] = to_ns(b, ev, ev->start);
	if (ev->present & NVTXT_BIT(NVTXT_ARG_END))
		e->ns[1] = to_ns(b, ev, ev->end);
	if (ev->push) {
		size_t k = event_index(x, off_of(b, &ev->push->loc));
		e->pair = off_of(b, &ev->push->loc);
		if (k < x->nevents - 1 && x->events[k].at == e->pair)
			x->events[k].pair = e->at;
		if (ev->push->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) {
			e->msg = (uint32_t)x->strings.len;
			e->msg_len = (uint32_t)ev->push->message.len;
			buf_add(&x->strings, ev->push->message.ptr, ev->push->message.len);
		}
	}
	return 0;
}

/* Syntax mode of the document's bytes [a, z), whole lines: every line's node to on_instruction. */
static void read_lines(struct build *b, size_t a, size_t z)
{
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_diag_config quiet;
	struct nvtxt_compile_result res;

	nvtxt_diag_config_init(&quiet);
	co.display_name = b->d->uri;
	co.diag_config = &quiet;
	co.instruction = on_instruction;
	co.instruction_user = b;
	b->base = (uint32_t)a;
	lsp_compile_text(b->d->text + a, z - a, &co, &res);
}

/* The tokens and definitions: syntax mode, every line's node (on_instruction). */
static struct lsp_index *build_items(struct lsp_server *s, struct lsp_doc *d)
{
	struct lsp_index *x = xcalloc(1, sizeof(*x));
	struct build b = { x, d, &s->feat.tconv, { 0 }, 0, false };

	for (int i = 0; i < NVTXT_CMD_COUNT; i++)
		b.cur[i] = -1;
	x->origin_ns = INT64_MIN;
	x->len = d->len;
	read_lines(&b, 0, d->len);
	return x;
}

/* The events: check mode, every pass (on_event). */
static void build_events(struct lsp_server *s, struct lsp_doc *d, struct lsp_index *x)
{
	struct build b = { x, d, &s->feat.tconv, { 0 }, 0, false };
	struct nvtxt_backend be = { &b, on_event, NULL, NULL };
	struct nvtxt_compile_options co = { 0 };
	struct nvtxt_compile_result res;

	co.display_name = d->uri;
	co.backend = &be;
	co.diag_config = &s->config;
	lsp_compile_text(d->text, d->len, &co, &res);
	x->has_events = true;
}

/* --- the index moved to a new text ----------------------------------------- */

/* Forgets the events: they are read again from the top when asked for. */
static void drop_events(struct lsp_index *x)
{
	x->nevents = 0;
	x->strings.len = 0;
	x->origin_ns = INT64_MIN;
	x->has_events = false;
}

/*
 * The lines edited since x was built, as bytes [*a, *z) of d's text
 * (whole lines, from the line of the last byte before the edits to the
 * end of the line of the first byte after them), and *zo, their end in
 * the old text.  false when they start at byte 0 or at bytes that a
 * reading from byte 0 takes apart (compile.c's skip_bom: a byte order
 * mark, UTF-16's FF FE, FE FF and NUL bytes in the first four).
 */
static bool edited_lines(const struct lsp_doc *d, const struct lsp_index *x, size_t *a, size_t *z, size_t *zo)
{
	size_t pre = d->ix_pre, tail = d->len - d->ix_suf, k;
	const unsigned char *p;
	const char *nl;

	if (pre == 0 || pre + d->ix_suf > d->len || pre + d->ix_suf > x->len)
		return false;
	for (k = pre - 1; k > 0 && d->text[k - 1] != '\n'; k--)
		;
	*a = k;
	nl = tail < d->len ? memchr(d->text + tail, '\n', d->len - tail) : NULL;
	*z = nl ? (size_t)(nl - d->text) + 1 : d->len;
	*zo = *z + x->len - d->len;
	p = (const unsigned char *)d->text + *a;
	if (*a == 0 || (*z > *a && (p[0] == 0xEF || p[0] == 0xFE || p[0] == 0xFF)))
		return false;
	return memchr(p, 0, *z - *a < 4 ? *z - *a : 4) == NULL;
}

/* x's items: [0, i0) kept, f's in place of [i0, i1), the rest moved by delta bytes. */
static void splice(struct lsp_index *x, const struct lsp_index *f, size_t i0, size_t i1, int64_t delta)
{
	size_t rest = x->nitems - i1, n = i0 + f->nitems + rest;
	void *p = x->items;

	xgrow(&p, &x->items_cap, n, sizeof(*x->items));
	x->items = p;
	memmove(x->items + i0 + f->nitems, x->items + i1, rest * sizeof(*x->items));
	if (f->nitems)
		memcpy(x->items + i0, f->items, f->nitems * sizeof(*x->items));
	for (size_t i = i0 + f->nitems; i < n; i++) {
		x->items[i].start = (uint32_t)((int64_t)x->items[i].start + delta);
		x->items[i].end = (uint32_t)((int64_t)x->items[i].end + delta);
	}
	x->nitems = n;
}

/*
 * Moves x, the index of the text before the edits since it was built
 * (lsp_doc.ix_pre, ix_suf, ix_nl), to d's text, as semantic tokens after
 * a one-line change would otherwise read the whole text again: the items
 * of the lines before the edited ones stay, those of the lines after them
 * move by the bytes inserted, and only the edited lines are read, in
 * syntax mode of their bytes alone (the parser reads each line afresh,
 * "error EOL", so a line reads alone as it does in the text).  That is
 * the index of the text read from the top as long as every line after
 * reads its arguments from the same definitions: false (x half-made, for
 * the caller to build anew) when a definition line was among the edited
 * ones, before or after the edits, or x is fixed.  The events are dropped.
 */
static bool update_items(struct lsp_server *s, struct lsp_doc *d, struct lsp_index *x)
{
	struct build b = { NULL, d, &s->feat.tconv, { 0 }, 0, false };
	struct lsp_index f = { 0 };
	size_t a, z, zo, i0, i1;

	drop_events(x);
	if (!d->ix_edited)
		return true;
	if (x->fixed || !edited_lines(d, x, &a, &z, &zo))
		return false;
	i0 = lower_bound(x->items, x->nitems, sizeof(*x->items), offsetof(struct lsp_item, start), a);
	/* to the end of the text: its last items may start at its end */
	i1 = z == d->len ? x->nitems
			 : lower_bound(x->items, x->nitems, sizeof(*x->items), offsetof(struct lsp_item, start), zo);
	for (size_t i = i0; i < i1; i++)
		if (x->items[i].role == LSP_R_DEF_NAME)
			return false;
	/* the definitions in force before the lines, lent to f: they are all before a or from zo on */
	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		b.cur[c] = -1;
	for (size_t k = 0; k < x->ndefs && x->defs[k].at < a; k++)
		b.cur[x->defs[k].cmd] = (int)k;
	f.defs = x->defs, f.ndefs = x->ndefs, f.defs_cap = x->defs_cap;
	b.x = &f;
	read_lines(&b, a, z);
	x->defs = f.defs, x->ndefs = f.ndefs, x->defs_cap = f.defs_cap;
	if (!b.saw_def && !f.fixed) {
		splice(x, &f, i0, i1, (int64_t)d->len - (int64_t)x->len);
		for (size_t k = 0; k < x->ndefs; k++)
			if (x->defs[k].at >= zo) {
				x->defs[k].at = (uint32_t)(x->defs[k].at + d->len - x->len);
				x->defs[k].line = (uint32_t)((int64_t)x->defs[k].line + d->ix_nl);
			}
		x->len = d->len;
	}
	free(f.items);
	return !b.saw_def && !f.fixed;
}

/*
 * The index of d's text, its events only when asked for: semantic tokens
 * and colors read the tokens alone, and the check-mode compile is half of
 * the index's cost.
 */
static struct lsp_index *index_get(struct lsp_server *s, struct lsp_doc *d, bool events)
{
	uint64_t gen = d->gen ^ (s->settings_gen << 40);

	if (!d->index || d->index->gen != gen) {
		if (d->index && update_items(s, d, d->index)) {
			s->index_moves++;
		} else {
			lsp_index_free(d->index);
			d->index = build_items(s, d);
		}
		d->index->gen = gen;
		d->ix_edited = false;
	}
	if (events && !d->index->has_events)
		build_events(s, d, d->index);
	return d->index;
}

const struct lsp_index *lsp_index_get(struct lsp_server *s, struct lsp_doc *d)
{
	return index_get(s, d, true);
}

const struct lsp_index *lsp_index_items(struct lsp_server *s, struct lsp_doc *d)
{
	return index_get(s, d, false);
}

void lsp_index_free(struct lsp_index *x)
{
	if (!x)
		return;
	free(x->items);
	free(x->defs);
	free(x->events);
	buf_free(&x->strings);
	free(x);
}

size_t lsp_index_item_at(const struct lsp_index *x, size_t off)
{
	return lower_bound(x->items, x->nitems, sizeof(*x->items), offsetof(struct lsp_item, end), off);
}

const struct lsp_event *lsp_index_event(const struct lsp_index *x, uint32_t at)
{
	size_t k = event_index(x, at);
	return k < x->nevents && x->events[k].at == at ? &x->events[k] : NULL;
}

const struct lsp_def *lsp_index_def(const struct lsp_index *x, int cmd, size_t at)
{
	size_t k = lower_bound(x->defs, x->ndefs, sizeof(*x->defs), offsetof(struct lsp_def, at), at);

	while (k-- > 0)
		if (x->defs[k].cmd == cmd)
			return &x->defs[k];
	return NULL;
}

bool lsp_index_var_name(const struct lsp_doc *d, const struct lsp_item *it, const char **name, size_t *len)
{
	if (it->role == LSP_R_VAR_DECL) {
		*name = d->text + it->start;
		*len = it->end - it->start;
		return true;
	}
	if (it->role == LSP_R_VALUE && it->kind == NVTXT_V_EXPANSION && it->end > it->start + 1) {
		*name = d->text + it->start + 1;
		*len = it->end - it->start - 1;
		return true;
	}
	return false;
}

bool lsp_target(struct lsp_server *s, json_t *params, unsigned what, struct lsp_target *t, struct lsp_error *e)
{
	memset(t, 0, sizeof(*t));
	t->d = lsp_param_doc(s, params, e);
	if (!t->d)
		return false;
	if ((what & LSP_T_POSITION) && !lsp_param_offset(s, t->d, params, "position", &t->at, e))
		return false;
	if ((what & LSP_T_RANGE) && !lsp_range_offsets(s, t->d, json_object_get(params, "range"), &t->a, &t->z, e))
		return false;
	if (what & (LSP_T_INDEX | LSP_T_ITEMS))
		t->x = index_get(s, t->d, what & LSP_T_INDEX);
	return true;
}
