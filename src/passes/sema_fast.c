/*
 * sema_fast.c - the fast path of calls (sema_fast.h): per command a call
 * plan (the listed arguments in conversion order and an event template
 * with the static arguments already converted), so that a call of literal
 * values is converted without lookups.  Every value converts through
 * conv_arg (src/lang/lang_args.h) or, for the direct steps, through the
 * range of its row of the argument table.  Anything unusual goes to the
 * full path (sema_check.c), which reports; this file never does.
 */
#include <stddef.h>
#include <string.h>

#include "lang_args.h"
#include "reader.h"
#include "sema_internal.h"

/*
 * The direct step of argument `arg` into *st, from its row of the
 * argument table: an Integer into an int64_t field whose range ends at
 * INT64_MAX (a step checks the least value only), or a String.  False
 * when the argument has none (a TimeBase, a Color, a uint32_t id).
 */
static bool direct_step(struct direct_step *st, enum nvtxt_arg arg, bool relative)
{
	const struct lang_arg *a = &lang_args[arg];

	st->offset = a->offset;
	st->min = 0;
	switch ((enum lang_conv)a->conv) {
	case LANG_CONV_INTEGER:
	case LANG_CONV_TIMESTAMP:
		st->kind = NVTXT_V_INTEGER;
		st->min = lang_arg_min(arg, relative);
		return a->max == INT64_MAX;
	case LANG_CONV_STRING:
		st->kind = NVTXT_V_STRING;
		return true;
	default:
		return false;
	}
}

/* The listed arguments of plan p into p->index and p->arg, a TimeBase first: the range of timestamps depends on it. */
static uint32_t plan_listed(struct call_plan *p, enum nvtxt_command cmd, const enum nvtxt_arg *listed, size_t nlisted)
{
	uint32_t listed_mask = 0;
	size_t k = 0;

	for (size_t i = 0; i < nlisted; i++) {
		listed_mask |= NVTXT_BIT(listed[i]);
		if (nvtxt_command_arg_optional(cmd, listed[i]))
			p->optional |= NVTXT_BIT(listed[i]);
		if (listed[i] == NVTXT_ARG_TIMEBASE) {
			p->index[k] = (uint8_t)i;
			p->arg[k++] = (uint8_t)listed[i];
		}
	}
	for (size_t i = 0; i < nlisted; i++) {
		if (listed[i] != NVTXT_ARG_TIMEBASE) {
			p->index[k] = (uint8_t)i;
			p->arg[k++] = (uint8_t)listed[i];
		}
	}
	return listed_mask;
}

/*
 * Builds the call plan of `cmd` from its current definition and the
 * current values of the variables of its static arguments, and returns
 * it.  The plan sends every call to the full path (full) when the
 * definition is bad, or a required static argument has no variable, or a
 * static value is not a literal Integer or String (poisoned) or fails its
 * conversion, a negative static timestamp whose TimeBase is listed
 * included: the full path then reports exactly as without plans (once per
 * assignment, binding->reported).  No reports, no other side effects.
 */
static struct call_plan *plan_build(struct sema *s, enum nvtxt_command cmd)
{
	struct call_plan *p = &s->plans.plan[cmd];
	const struct definition *def = &s->defs[cmd];
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT], statics[NVTXT_ARG_COUNT];
	size_t ndflt = nvtxt_command_default_args(cmd, dflt);
	const enum nvtxt_arg *listed = def->custom ? def->args : dflt;
	size_t nlisted = def->custom ? def->nargs : ndflt, nstatic = 0;
	uint32_t listed_mask;
	bool relative = false;

	memset(p, 0, sizeof(*p));
	p->gen = s->plans.gen;
	p->full = def->poisoned;
	p->tmpl.command = cmd;
	p->tmpl.process_id = p->tmpl.thread_id = -1;
	p->n = (uint8_t)nlisted;
	listed_mask = plan_listed(p, cmd, listed, nlisted);

	/* the static arguments, a TimeBase first, from the variables of their names */
	if (!(listed_mask & NVTXT_BIT(NVTXT_ARG_TIMEBASE)) &&
	    nvtxt_command_has_arg(cmd, NVTXT_ARG_TIMEBASE))
		statics[nstatic++] = NVTXT_ARG_TIMEBASE;
	for (size_t i = 0; i < ndflt; i++)
		if (!(listed_mask & NVTXT_BIT(dflt[i])) && dflt[i] != NVTXT_ARG_TIMEBASE)
			statics[nstatic++] = dflt[i];
	for (size_t j = 0; j < nstatic; j++) {
		enum nvtxt_arg arg = statics[j];
		const struct nvtxt_binding *b = s->arg_var[arg];

		if (!b) {
			if (!nvtxt_command_arg_optional(cmd, arg))
				p->full = true;
			continue;
		}
		if ((b->value.kind != NVTXT_V_INTEGER && b->value.kind != NVTXT_V_STRING) ||
		    conv_arg(arg, &b->value, relative, &p->tmpl) != CONV_OK) {
			p->full = true;
			continue;
		}
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = p->tmpl.timebase == NVTXT_TB_RELATIVE;
		p->tmpl.present |= NVTXT_BIT(arg);
	}
	p->relative = relative;

	/* the direct steps, when every listed argument has one */
	p->direct = true;
	p->direct_present = p->tmpl.present;
	for (size_t j = 0; j < nlisted && p->direct; j++) {
		p->direct_present |= NVTXT_BIT(p->arg[j]);
		p->direct = direct_step(&p->step[j], (enum nvtxt_arg)p->arg[j], relative);
	}
	p->work = p->tmpl;
	p->work.present = p->direct_present;
	return p;
}

/*
 * Value v of argument `arg` of a call by plan p into *ev: an absent
 * optional value is no value; a literal Integer or String converts
 * (conv_arg, and a TimeBase sets *relative); anything else ($Name,
 * poison, a missing value) and a failed conversion give false.
 */
static ALWAYS_INLINE bool plan_value(const struct call_plan *p, enum nvtxt_arg arg, const struct nvtxt_value *v,
				     bool *relative, uint32_t *present, struct nvtxt_event *ev)
{
	if (v->kind != NVTXT_V_INTEGER && v->kind != NVTXT_V_STRING)
		return v->kind == NVTXT_V_ABSENT && (p->optional & NVTXT_BIT(arg));
	if (conv_arg(arg, v, *relative, ev) != CONV_OK)
		return false;
	if (arg == NVTXT_ARG_TIMEBASE)
		*relative = ev->timebase == NVTXT_TB_RELATIVE;
	*present |= NVTXT_BIT(arg);
	return true;
}

bool sema_plan_call(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	const struct call_plan *p;
	bool relative;
	uint32_t present;

	if (cmd < 0)
		return false;
	p = &s->plans.plan[cmd];
	if (p->gen != s->plans.gen) /* out of date: built again */
		p = plan_build(s, (enum nvtxt_command)cmd);
	if (p->full || in->nvalues != p->n)
		return false;
	*ev = p->tmpl;
	ev->loc = in->name_loc;
	relative = p->relative;
	present = p->tmpl.present;
	for (size_t k = 0; k < p->n; k++)
		if (!plan_value(p, (enum nvtxt_arg)p->arg[k], &in->values[p->index[k]], &relative, &present, ev))
			return false;
	ev->present = present;
	return cmd != NVTXT_CMD_RANGE_START_END || ev->start <= ev->end;
}

/* A String value's bytes from its compact record: without its quotes when quoted. */
static inline struct nvtxt_str fast_text(const struct fast_value *f, const char *line)
{
	unsigned quoted = f->quote != 0;
	return (struct nvtxt_str){ line + f->col + quoted, (size_t)f->len - 2 * quoted };
}

/*
 * sema_plan_call for a call whose values are still the front end's
 * compact records (src/frontend/reader.h): the record `rec`, the line's
 * bytes at `line` (line `lineno`, starting at byte `line_offset` of the
 * input).  The same decisions and the same event: NULL when the call needs
 * the full path, else the event, which is the plan's working event (a
 * direct plan: its listed fields and loc are all this call's) or *tmp.
 */
static ALWAYS_INLINE struct nvtxt_event *plan_call_compact(struct sema *s, const struct line_rec *rec,
							  const char *line, const struct fast_value *values,
							  uint32_t lineno, uint64_t line_offset,
							  struct nvtxt_event *tmp)
{
	int cmd = lang_command_lookup(line + rec->name_col, rec->name_len);
	const struct nvtxt_loc name_loc = { lineno, (uint32_t)rec->name_col + 1, rec->name_len, line_offset };
	struct call_plan *p;
	struct nvtxt_event *ev = tmp;
	bool relative;
	uint32_t present;

	if (cmd < 0)
		return NULL;
	p = &s->plans.plan[cmd];
	if (p->gen != s->plans.gen) /* out of date: built again */
		p = plan_build(s, (enum nvtxt_command)cmd);
	if (p->full || rec->nvalues != p->n)
		return NULL;
	if (p->direct) {
		/*
		 * The direct steps: each value of the kind its argument needs
		 * is checked against its least value and stored in its field
		 * of the plan's working event, whose other fields are the
		 * template's (the passes after set only ordinal and push).
		 */
		const size_t n = p->n;
		size_t k;
		ev = &p->work;
		for (k = 0; k < n; k++) {
			const struct direct_step *st = &p->step[k];
			const struct fast_value *f = &values[p->index[k]];

			if (f->kind != st->kind)
				break;
			if (f->kind == NVTXT_V_INTEGER) {
				if (f->integer < st->min)
					return NULL;
				memcpy((char *)ev + st->offset, &f->integer, sizeof(f->integer));
			} else {
				struct nvtxt_str text = fast_text(f, line);
				memcpy((char *)ev + st->offset, &text, sizeof(text));
			}
		}
		if (k == n) {
			ev->loc = name_loc;
			if (cmd == NVTXT_CMD_RANGE_START_END && ev->start > ev->end)
				return NULL;
			return ev;
		}
		ev = tmp; /* an absent value, or one of another kind: value by value */
	}
	*ev = p->tmpl;
	ev->loc = name_loc;
	relative = p->relative;
	present = p->tmpl.present;
	for (size_t k = 0; k < p->n; k++) {
		const struct fast_value *f = &values[p->index[k]];
		const struct nvtxt_value made = {
			.kind = (enum nvtxt_value_kind)f->kind,
			.quote = (char)f->quote,
			.integer = f->integer,
			/* an Integer's text too: conv_color tells 0xRRGGBB from 0x00RRGGBB by it */
			.text = fast_text(f, line),
		};
		if (!plan_value(p, (enum nvtxt_arg)p->arg[k], &made, &relative, &present, ev))
			return NULL;
	}
	ev->present = present;
	return cmd != NVTXT_CMD_RANGE_START_END || ev->start <= ev->end ? ev : NULL;
}

bool sema_fast_call(struct sema *s, const struct line_rec *rec, const char *line,
		    const struct fast_value *values, uint32_t lineno, uint64_t line_offset)
{
	struct nvtxt_event tmp, *ev;

	if (!s->fast || !(ev = plan_call_compact(s, rec, line, values, lineno, line_offset, &tmp)))
		return false;
	sema_call_checked(s, ev);
	return true;
}

size_t sema_fast_calls(struct sema *s, const struct line_rec *recs, size_t n, const char *bytes,
		       const struct fast_value *values, uint32_t lineno, uint64_t line_offset, uint64_t *taken_bytes)
{
	const uint64_t first_offset = line_offset;
	size_t i;

	for (i = 0; i < n && s->fast && recs[i].kind == LINE_CALL; i++) {
		const struct line_rec *rec = &recs[i];
		struct nvtxt_event tmp, *ev = plan_call_compact(s, rec, bytes + rec->start, values + rec->first_value,
								 lineno, line_offset, &tmp);
		if (!ev)
			break;
		sema_call_checked_inline(s, ev);
		lineno++;
		line_offset += rec->len;
	}
	*taken_bytes = line_offset - first_offset;
	return i;
}
