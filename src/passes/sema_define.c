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
	uint64_t key;
	const char *near;
	struct nvtxt_diag *d;
	int inserted;
	bool unique;

	s->recover_cmd = -1;
	if (cmd >= 0)
		return cmd;
	key = hash_bytes(in->name.ptr, in->name.len);
	if (in->kind == NVTXT_I_CALL && idmap_get(&s->unknown_defined, key, in->name.len))
		return -1;
	if (in->kind == NVTXT_I_DEFINITION && s->unknown_defined.count < 1024)
		idmap_put(&s->unknown_defined, key, in->name.len, 0, &inserted);
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
		if (in->kind == NVTXT_I_CALL)
			s->recover_cmd = NVTXT_CMD_RANGE_POP;
	} else if (near) {
		d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_COMMAND, &in->name_loc,
			       "unknown command '%.*s'; did you mean '%s'?", (int)in->name.len,
			       in->name.ptr, near);
		if (unique)
			diag_fixit(d, near);
		if (unique && in->kind == NVTXT_I_CALL)
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

void sema_definition(struct sema *s, const struct nvtxt_instr *in)
{
	int cmd = sema_command(s, in);
	struct definition def = { .custom = true, .loc = in->name_loc };
	size_t where[NVTXT_ARG_COUNT];
	bool bad = false;

	if (cmd < 0)
		return;
	if (in->broken) {
		/* its syntax error is reported; its calls are skipped until the next definition */
		s->defs[cmd] = (struct definition){ .custom = true, .poisoned = true };
		s->plans[cmd].gen = 0;
		return;
	}
	for (size_t i = 0; i < in->nargs; i++) {
		struct nvtxt_str a = in->args[i];
		int arg = nvtxt_arg_lookup(a.ptr, a.len);
		struct nvtxt_diag *d;

		if (arg < 0 || !nvtxt_command_has_arg((enum nvtxt_command)cmd, (enum nvtxt_arg)arg)) {
			const char *cands[NVTXT_ARG_COUNT];
			enum nvtxt_arg args[NVTXT_ARG_COUNT];
			size_t n = nvtxt_command_default_args((enum nvtxt_command)cmd, args);
			const char *near;
			struct buf list = { 0 };
			size_t m = 0;
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
			list_args(&list, (enum nvtxt_command)cmd);
			if (near) {
				d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
					       "'%.*s' is not an argument of %s; did you mean '%s'?",
					       (int)a.len, a.ptr, nvtxt_command_name((enum nvtxt_command)cmd), near);
				if (unique)
					diag_fixit(d, near);
			} else {
				d = diag_begin(s->diags, NVTXT_CHECK_UNKNOWN_ARGUMENT, &in->arg_locs[i],
					       "'%.*s' is not an argument of %s", (int)a.len, a.ptr,
					       nvtxt_command_name((enum nvtxt_command)cmd));
			}
			diag_note(d, NULL, "%s takes %s", nvtxt_command_name((enum nvtxt_command)cmd), list.ptr);
			diag_end(s->diags, d);
			buf_free(&list);
			bad = true;
			continue;
		}
		for (size_t j = 0; j < def.nargs; j++) {
			if (def.args[j] == (enum nvtxt_arg)arg) {
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
		where[def.nargs] = i;
		def.args[def.nargs++] = (enum nvtxt_arg)arg;
	next:;
	}
	def.poisoned = bad;
	s->defs[cmd] = def;
	s->plans[cmd].gen = 0;
}

