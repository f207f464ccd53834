/*
 * sema_define.c - command names and @definitions (nvtxt(5), COMMANDS and
 * DEFINITIONS AND STATIC ARGUMENTS): an unknown name is reported once
 * with the nearest command; a definition lists arguments of its command,
 * each once, and invalidates the command's call plan.
 */
#include <stdlib.h>
#include <string.h>

#include "sema_internal.h"

static void list_args(struct buf *b, enum nvtxt_command cmd)
{
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	const char *names[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(cmd, args);

	for (size_t i = 0; i < n; i++)
		names[i] = nvtxt_arg_name(args[i]);
	buf_add_list(b, names, n, "and");
}

/*
 * Reports an unknown command name; returns the command or -1.  The calls
 * of an unknown command whose definition was reported are not reported
 * again.
 */
int sema_command(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = nvtxt_command_lookup(in->name.ptr, in->name.len);
	const uint32_t *known;
	const char *near;
	struct nvtxt_diag *d;
	int inserted;
	bool unique;

	s->recover_cmd = -1;
	s->recover_def = NULL;
	if (cmd >= 0)
		return cmd;
	known = namemap_get(&s->unknown_defined, in->name.ptr, in->name.len);
	if (in->kind == NVTXT_I_CALL && known) {
		/* reported at its definition; a misspelt RangePush or RangePop recovers with it */
		if (*known) {
			s->recover_cmd = (int)s->recovered[*known - 1].cmd;
			s->recover_def = &s->recovered[*known - 1].def;
		}
		return -1;
	}
	if (in->kind == NVTXT_I_DEFINITION && s->unknown_defined.count < 1024)
		namemap_put(&s->unknown_defined, in->name.ptr, in->name.len, 0, &inserted);
	if (in->broken)
		return -1;
	const char *names[NVTXT_CMD_COUNT];
	for (int i = 0; i < NVTXT_CMD_COUNT; i++)
		names[i] = nvtxt_command_name((enum nvtxt_command)i);
	near = suggest_unique(in->name.ptr, in->name.len, names, NVTXT_CMD_COUNT, &unique);
	if (edit_distance2(in->name.ptr, in->name.len, "RangeEnd", 8) <= 4) {
		/* NVTX's C API ends ranges with nvtxRangeEnd (start/end) and nvtxRangePop (push/pop) */
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
			       "unknown command '%.*s'; did you mean 'RangePop'? (a RangePush is closed by "
			       "RangePop; a start/end range is one RangeStartEnd line)", (int)in->name.len, in->name.ptr);
		s->recover_cmd = NVTXT_CMD_RANGE_POP;
	} else if (near) {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
			       "unknown command '%.*s'; did you mean '%s'?", (int)in->name.len,
			       in->name.ptr, near);
		if (unique)
			diag_fixit(d, near);
		if (unique)
			s->recover_cmd = nvtxt_command_lookup(near, strlen(near));
	} else {
		struct buf list = { 0 };
		buf_add_list(&list, names, NVTXT_CMD_COUNT, "or");
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
			       "unknown command '%.*s': expected one of %s", (int)in->name.len, in->name.ptr,
			       list.ptr);
		buf_free(&list);
	}
	diag_end(s->diags, d);
	return -1;
}

/* Reports argument i of definition `in`, which is not an argument of cmd, with the nearest one it does not list. */
static void unknown_argument(struct sema *s, const struct nvtxt_instr *in, size_t i, enum nvtxt_command cmd)
{
	struct nvtxt_str a = in->args[i];
	const char *cands[NVTXT_ARG_COUNT];
	enum nvtxt_arg args[NVTXT_ARG_COUNT];
	size_t n = nvtxt_command_default_args(cmd, args), m = 0;
	const char *near;
	struct buf list = { 0 };
	struct nvtxt_diag *d;
	bool unique;

	/* an argument the definition already lists is no fix */
	for (size_t j = 0; j < n; j++) {
		bool listed = false;
		for (size_t k = 0; k < in->nargs && !listed; k++)
			listed = nvtxt_arg_lookup(in->args[k].ptr, in->args[k].len) == (int)args[j];
		if (!listed)
			cands[m++] = nvtxt_arg_name(args[j]);
	}
	near = suggest_unique(a.ptr, a.len, cands, m, &unique);
	list_args(&list, cmd);
	if (near) {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
			       "'%.*s' is not an argument of %s; did you mean '%s'?",
			       (int)a.len, a.ptr, nvtxt_command_name(cmd), near);
		if (unique)
			diag_fixit(d, near);
	} else {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
			       "'%.*s' is not an argument of %s", (int)a.len, a.ptr, nvtxt_command_name(cmd));
	}
	diag_note(d, NULL, "%s takes %s", nvtxt_command_name(cmd), list.ptr);
	diag_end(s->diags, d);
	buf_free(&list);
}

/*
 * The definition `in` gives command `cmd`, into *def; reports each argument
 * that is not one of the command's, or is listed twice, and returns false
 * after one.
 */
static bool build_definition(struct sema *s, const struct nvtxt_instr *in, int cmd, struct definition *def)
{
	size_t where[NVTXT_ARG_COUNT];
	bool bad = false;

	*def = (struct definition){ .custom = true, .loc = in->name_loc };
	for (size_t i = 0; i < in->nargs; i++) {
		struct nvtxt_str a = in->args[i];
		int arg = nvtxt_arg_lookup(a.ptr, a.len);
		struct nvtxt_diag *d;

		if (arg < 0 || !nvtxt_command_has_arg((enum nvtxt_command)cmd, (enum nvtxt_arg)arg)) {
			unknown_argument(s, in, i, (enum nvtxt_command)cmd);
			bad = true;
			continue;
		}
		for (size_t j = 0; j < def->nargs; j++) {
			if (def->args[j] == (enum nvtxt_arg)arg) {
				d = diag_begin(s->diags, NVTXT_CHECK_DUPLICATE_ARGUMENT, &in->arg_locs[i],
					       "argument '%s' is listed twice in the definition of %s",
					       nvtxt_arg_name((enum nvtxt_arg)arg),
					       nvtxt_command_name((enum nvtxt_command)cmd));
				diag_note(d, &in->arg_locs[where[j]], "first listed here");
				diag_end(s->diags, d);
				bad = true;
				goto next;
			}
		}
		where[def->nargs] = i;
		def->args[def->nargs++] = (enum nvtxt_arg)arg;
	next:;
	}
	def->poisoned = bad;
	return !bad;
}

/*
 * A definition of a misspelt RangePush or RangePop name (sema_command's
 * recover_cmd): kept, built in silence, for the recovery of its calls
 * (sema.c, recover_call), so that they close or open their ranges as in
 * the corrected file.
 */
static void remember_definition(struct sema *s, const struct nvtxt_instr *in, enum nvtxt_command cmd)
{
	/* sema_command put the name in unknown_defined, unless it was full */
	uint32_t *known = namemap_get(&s->unknown_defined, in->name.ptr, in->name.len);
	struct nvtxt_diags *loud = s->diags, quiet;
	size_t i = known && *known ? *known - 1 : s->nrecovered;

	if (!known || i == sizeof(s->recovered) / sizeof(s->recovered[0]))
		return;
	*known = (uint32_t)i + 1;
	if (i == s->nrecovered)
		s->nrecovered++;
	s->recovered[i].cmd = cmd;
	nvtxt_diags_init(&quiet, loud->config, (struct nvtxt_diag_sink){ NULL, NULL }, loud->file);
	s->diags = &quiet;
	build_definition(s, in, (int)cmd, &s->recovered[i].def);
	s->diags = loud;
}

void sema_definition(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = sema_command(s, in);
	struct definition def;

	if (cmd < 0) {
		if (!in->broken && (s->recover_cmd == NVTXT_CMD_RANGE_PUSH || s->recover_cmd == NVTXT_CMD_RANGE_POP))
			remember_definition(s, in, (enum nvtxt_command)s->recover_cmd);
		return;
	}
	if (in->broken) {
		/* its syntax error is reported; its calls are skipped until the next definition */
		s->defs[cmd] = (struct definition){ .custom = true, .poisoned = true };
		return;
	}
	build_definition(s, in, cmd, &def);
	s->defs[cmd] = def;
}
