/*
 * sema_fast.c - the fast path of calls: per command a call plan (the
 * listed arguments in conversion order and an event template with the
 * static arguments already converted), so that a call of literal values
 * is converted without lookups.  Anything unusual goes to the full path
 * (sema_check.c), which reports; this file never does.
 */
#include <stddef.h>
#include <string.h>

#include "reader.h"
#include "sema_convert.h"

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
static const struct call_plan *plan_build(struct sema *s, enum nvtxt_command cmd)
{
	struct call_plan *p = &s->plans[cmd];
	const struct definition *def = &s->defs[cmd];
	enum nvtxt_arg dflt[NVTXT_ARG_COUNT], statics[NVTXT_ARG_COUNT];
	size_t ndflt = nvtxt_command_default_args(cmd, dflt);
	const enum nvtxt_arg *listed = def->custom ? def->args : dflt;
	size_t nlisted = def->custom ? def->nargs : ndflt, nstatic = 0, k = 0;
	uint32_t listed_mask = 0;
	bool relative = false;

	memset(p, 0, sizeof(*p));
	p->gen = s->plan_gen;
	p->full = def->poisoned;
	p->tmpl.command = cmd;
	p->tmpl.process_id = p->tmpl.thread_id = -1;
	p->n = (uint8_t)nlisted;

	/* the listed arguments, a TimeBase first: the range of timestamps depends on it */
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
		struct direct_step *st = &p->step[j];
		enum nvtxt_arg arg = (enum nvtxt_arg)p->arg[j];

		p->direct_present |= NVTXT_BIT(arg);
		st->kind = NVTXT_V_INTEGER;
		st->min = 0;
		switch (arg) {
		case NVTXT_ARG_TIME:
			st->offset = offsetof(struct nvtxt_event, time);
			st->min = relative ? INT64_MIN : 0;
			break;
		case NVTXT_ARG_START:
			st->offset = offsetof(struct nvtxt_event, start);
			st->min = relative ? INT64_MIN : 0;
			break;
		case NVTXT_ARG_END:
			st->offset = offsetof(struct nvtxt_event, end);
			st->min = relative ? INT64_MIN : 0;
			break;
		case NVTXT_ARG_PROCESS_ID:
			st->offset = offsetof(struct nvtxt_event, process_id);
			break;
		case NVTXT_ARG_THREAD_ID:
			st->offset = offsetof(struct nvtxt_event, thread_id);
			break;
		case NVTXT_ARG_MESSAGE:
			st->kind = NVTXT_V_STRING;
			st->offset = offsetof(struct nvtxt_event, message);
			break;
		case NVTXT_ARG_NAME:
			st->kind = NVTXT_V_STRING;
			st->offset = offsetof(struct nvtxt_event, name);
			break;
		default:
			p->direct = false; /* a TimeBase, Color, CategoryId, Payload: conv_arg */
			break;
		}
	}
	return p;
}

/*
 * The fast path of a call: a known command, its plan, the right number of
 * values, each a literal Integer or String (or absent where optional)
 * that converts to its argument, and Start <= End.  Returns true with
 * *ev the event the full path would build (ordinal 0, push NULL); false
 * when the call needs the full path, having written nothing but *ev (and
 * the plan, when it was out of date).
 */
bool sema_plan_call(struct sema *s, const struct nvtxt_instr *in, struct nvtxt_event *ev)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	const struct call_plan *p;
	bool relative;

	if (cmd < 0)
		return false;
	p = &s->plans[cmd];
	if (p->gen != s->plan_gen)
		p = plan_build(s, (enum nvtxt_command)cmd);
	if (p->full || in->nvalues != p->n)
		return false;
	*ev = p->tmpl;
	ev->loc = in->name_loc;
	relative = p->relative;
	for (size_t k = 0; k < p->n; k++) {
		enum nvtxt_arg arg = (enum nvtxt_arg)p->arg[k];
		const struct nvtxt_value *v = &in->values[p->index[k]];

		if (v->kind != NVTXT_V_INTEGER && v->kind != NVTXT_V_STRING) {
			/* an absent optional value is no value; $Name, poison or a missing one: full path */
			if (v->kind == NVTXT_V_ABSENT && (p->optional & NVTXT_BIT(arg)))
				continue;
			return false;
		}
		if (conv_arg(arg, v, relative, ev) != CONV_OK)
			return false;
		if (arg == NVTXT_ARG_TIMEBASE)
			relative = ev->timebase == NVTXT_TB_RELATIVE;
		ev->present |= NVTXT_BIT(arg);
	}
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
 * compact records (tokens in `line`): the same decisions and the same
 * event.  The arguments of nearly every event call (timestamps, ids,
 * Message, Name) are converted from the records directly, with the
 * checks of their conv_arg case; the others get the parts of a struct
 * nvtxt_value that conv_arg reads (no location) and go through it.
 */
static bool plan_call_compact(struct sema *s, const struct line_rec *rec, const char *line,
			      const struct fast_value *values, uint32_t lineno, uint64_t line_offset,
			      struct nvtxt_event *ev)
{
	int cmd = nvtxt_command_lookup(line + rec->name_col, rec->name_len);
	const struct nvtxt_loc name_loc = { lineno, (uint32_t)rec->name_col + 1, rec->name_len, line_offset };
	const struct call_plan *p;
	bool relative;
	uint32_t present;

	if (cmd < 0)
		return false;
	p = &s->plans[cmd];
	if (p->gen != s->plan_gen)
		p = plan_build(s, (enum nvtxt_command)cmd);
	if (p->full || rec->nvalues != p->n)
		return false;
	*ev = p->tmpl;
	ev->loc = name_loc;
	if (p->direct) {
		/*
		 * conv_integer's range check and conv_string, as data: the
		 * values' kinds as the arguments need them (else the steps
		 * below decide), each stored in its field.
		 */
		const size_t n = p->n;
		size_t k;
		for (k = 0; k < n; k++) {
			const struct direct_step *st = &p->step[k];
			const struct fast_value *f = &values[p->index[k]];

			if (f->kind != st->kind)
				break;
			if (f->kind == NVTXT_V_INTEGER) {
				if (f->integer < st->min)
					return false;
				memcpy((char *)ev + st->offset, &f->integer, sizeof(f->integer));
			} else {
				struct nvtxt_str text = fast_text(f, line);
				memcpy((char *)ev + st->offset, &text, sizeof(text));
			}
		}
		if (k == n) {
			ev->present = p->direct_present;
			return cmd != NVTXT_CMD_RANGE_START_END || ev->start <= ev->end;
		}
		*ev = p->tmpl; /* an absent value, or one of another kind: from the start, step by step */
		ev->loc = name_loc;
	}
	relative = p->relative;
	present = p->tmpl.present;
	for (size_t k = 0; k < p->n; k++) {
		enum nvtxt_arg arg = (enum nvtxt_arg)p->arg[k];
		const struct fast_value *f = &values[p->index[k]];

		if (f->kind != NVTXT_V_INTEGER && f->kind != NVTXT_V_STRING) {
			/* an absent optional value is no value; $Name or a missing one: full path */
			if (f->kind == NVTXT_V_ABSENT && (p->optional & NVTXT_BIT(arg)))
				continue;
			return false;
		}
		switch (arg) {
		/* conv_integer(v, relative ? INT64_MIN : 0, INT64_MAX, ...) */
		case NVTXT_ARG_TIME:
			if (f->kind != NVTXT_V_INTEGER || (f->integer < 0 && !relative))
				return false;
			ev->time = f->integer;
			break;
		case NVTXT_ARG_START:
			if (f->kind != NVTXT_V_INTEGER || (f->integer < 0 && !relative))
				return false;
			ev->start = f->integer;
			break;
		case NVTXT_ARG_END:
			if (f->kind != NVTXT_V_INTEGER || (f->integer < 0 && !relative))
				return false;
			ev->end = f->integer;
			break;
		/* conv_integer(v, 0, INT64_MAX, ...) */
		case NVTXT_ARG_PROCESS_ID:
			if (f->kind != NVTXT_V_INTEGER || f->integer < 0)
				return false;
			ev->process_id = f->integer;
			break;
		case NVTXT_ARG_THREAD_ID:
			if (f->kind != NVTXT_V_INTEGER || f->integer < 0)
				return false;
			ev->thread_id = f->integer;
			break;
		/* conv_string */
		case NVTXT_ARG_MESSAGE:
			if (f->kind != NVTXT_V_STRING)
				return false;
			ev->message = fast_text(f, line);
			break;
		case NVTXT_ARG_NAME:
			if (f->kind != NVTXT_V_STRING)
				return false;
			ev->name = fast_text(f, line);
			break;
		default: {
			struct nvtxt_value made = {
				.kind = (enum nvtxt_value_kind)f->kind,
				.quote = (char)f->quote,
				.integer = f->integer,
				/* an Integer's text too: conv_color tells 0xRRGGBB from 0x00RRGGBB by it */
				.text = fast_text(f, line),
			};
			if (conv_arg(arg, &made, relative, ev) != CONV_OK)
				return false;
			if (arg == NVTXT_ARG_TIMEBASE)
				relative = ev->timebase == NVTXT_TB_RELATIVE;
			break;
		}
		}
		present |= NVTXT_BIT(arg);
	}
	ev->present = present;
	return cmd != NVTXT_CMD_RANGE_START_END || ev->start <= ev->end;
}

bool sema_fast_call(struct sema *s, const struct line_rec *rec, const char *line,
		    const struct fast_value *values, uint32_t lineno, uint64_t line_offset)
{
	struct nvtxt_event ev;

	if (!s->fast || !plan_call_compact(s, rec, line, values, lineno, line_offset, &ev))
		return false;
	sema_call_checked(s, &ev);
	return true;
}
