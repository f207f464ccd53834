/*
 * sema_bind.c - variables: assignments bind a name to a value, and a
 * $Name value is replaced by the value bound to Name (nvtxt(5),
 * ASSIGNMENTS AND EXPANSION).  Open addressing on the name's hash; each
 * argument's namesake variable is also kept in sema.arg_var, which static
 * arguments read.
 */
#include <stdlib.h>
#include <string.h>

#include "sema_internal.h"

static struct nvtxt_binding **var_slot(const struct sema *s, const char *name, size_t len)
{
	size_t i = (size_t)hash_bytes(name, len) & (s->vars_cap - 1);
	for (;; i = (i + 1) & (s->vars_cap - 1)) {
		struct nvtxt_binding *b = s->vars[i];
		if (!b || (b->name_len == len && memcmp(b->name, name, len) == 0))
			return &s->vars[i];
	}
}

static struct nvtxt_binding *var_get(const struct sema *s, struct nvtxt_str name)
{
	return s->vars_cap ? *var_slot(s, name.ptr, name.len) : NULL;
}

static struct nvtxt_binding *var_set(struct sema *s, struct nvtxt_str name)
{
	struct nvtxt_binding **slot, *b;

	if ((s->vars_count + 1) * 2 > s->vars_cap) {
		struct nvtxt_binding **old = s->vars;
		size_t old_cap = s->vars_cap, cap = old_cap ? old_cap * 2 : 64;
		struct nvtxt_binding **vars = xcalloc(cap, sizeof(*s->vars));
		s->vars = vars;
		s->vars_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				*var_slot(s, old[i]->name, old[i]->name_len) = old[i];
		free(old);
	}
	slot = var_slot(s, name.ptr, name.len);
	if (*slot)
		return *slot;
	b = xcalloc(1, sizeof(*b));
	*slot = b; /* owned by s before the next allocation, which may fail (util.h) */
	s->vars_count++;
	b->name = xstrndup(name.ptr, name.len);
	b->name_len = name.len;
	{
		int arg = nvtxt_arg_lookup(name.ptr, name.len);
		if (arg >= 0)
			s->arg_var[arg] = b;
	}
	return b;
}

/* Suggests the defined variable closest to `name`, or NULL. */
static const char *var_suggest(const struct sema *s, struct nvtxt_str name, bool *unique)
{
	const char *best = NULL;
	unsigned best_d = ~0u, limit = 2 * (unsigned)(name.len / 3 > 1 ? name.len / 3 : 1);
	bool tie = false;

	for (size_t i = 0; i < s->vars_cap; i++) {
		const struct nvtxt_binding *b = s->vars[i];
		unsigned d;
		if (!b)
			continue;
		d = edit_distance2(name.ptr, name.len, b->name, b->name_len);
		if (d <= limit && d < best_d) {
			best = b->name;
			best_d = d;
			tie = false;
		} else if (d == best_d) {
			tie = true;
		}
	}
	*unique = best && !tie;
	return best;
}

/*
 * Replaces an expansion by the variable's current value; reports an
 * undefined variable and returns false.  The result keeps the location of
 * the $Name and points at the binding that gave the value.
 */
bool sema_expand(struct sema *s, struct nvtxt_value *v)
{
	const struct nvtxt_binding *b;
	struct nvtxt_loc loc = v->loc;

	if (v->kind != NVTXT_V_EXPANSION)
		return v->kind != NVTXT_V_POISON;
	b = var_get(s, v->text);
	if (!b) {
		bool unique = false;
		const char *near = diag_would_show(s->diags, NVTXT_SEV_ERROR) ? var_suggest(s, v->text, &unique) : NULL;
		struct nvtxt_diag *d = diag_begin(s->diags, NVTXT_CHECK_UNDEFINED_VARIABLE, &loc, "undefined variable '%.*s'%s%s%s",
						  (int)v->text.len, v->text.ptr,
						  near ? "; did you mean '" : ": no assignment to it comes before this line",
						  near ? near : "", near ? "'?" : "");
		if (near && unique) {
			struct buf fix = { 0 };
			buf_printf(&fix, "$%s", near);
			diag_fixit(d, fix.ptr);
			buf_free(&fix);
		}
		diag_end(s->diags, d);
		v->kind = NVTXT_V_POISON;
		return false;
	}
	*v = b->value;
	v->loc = loc;
	v->origin = b;
	return v->kind != NVTXT_V_POISON;
}

bool sema_assignment(struct sema *s, const struct nvtxt_instr *in)
{
	struct nvtxt_value v = in->values[0];
	struct nvtxt_binding *b;

	sema_expand(s, &v);
	b = var_set(s, in->name);
	if (v.text.len + 1 > b->store_cap) {
		b->store_cap = v.text.len + 1;
		b->store = xrealloc(b->store, b->store_cap);
	}
	if (v.text.len)
		memcpy(b->store, v.text.ptr, v.text.len);
	b->store[v.text.len] = '\0';
	b->value = v;
	b->value.text.ptr = b->store;
	/* a copy ($A = $B) keeps the value's type; its origin is this assignment */
	b->value.loc = in->values[0].loc;
	b->value.origin = NULL;
	b->reported = 0;
	b->expanded = in->values[0].kind == NVTXT_V_EXPANSION;
	/* a new value of a static argument? */
	for (int arg = 0; arg < NVTXT_ARG_COUNT; arg++)
		if (s->arg_var[arg] == b)
			return true;
	return false;
}

