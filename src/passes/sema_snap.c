/*
 * sema_snap.c - saving, restoring and comparing the passes' state between
 * two lines (sema_snap.h): the flat writer and reader, the variables,
 * definitions and recovered names of sema.c's files, the suppressions;
 * the event passes save their own (pass_pairing.c, pass_category.c,
 * pass_naming.c).
 */
#include <stdlib.h>
#include <string.h>

#include "sema_internal.h"
#include "sema_snap.h"

/* --- the writer and the reader ---------------------------------------------- */

void snap_put(struct sema_snap *sn, const void *p, size_t n)
{
	if (sn->len + n > sn->cap) {
		void *d = sn->data;
		xgrow(&d, &sn->cap, sn->len + n, 1);
		sn->data = d;
	}
	if (n)
		memcpy(sn->data + sn->len, p, n);
	sn->len += n;
}

void snap_get(struct sema_snap *sn, void *p, size_t n)
{
	if (n)
		memcpy(p, sn->data + sn->rd, n);
	sn->rd += n;
}

void snap_put_u64(struct sema_snap *sn, uint64_t v)
{
	snap_put(sn, &v, sizeof v);
}

uint64_t snap_get_u64(struct sema_snap *sn)
{
	uint64_t v;
	snap_get(sn, &v, sizeof v);
	return v;
}

static void put_line(struct sema_snap *sn, uint32_t line)
{
	void *p = sn->lines;
	xgrow(&p, &sn->lines_cap, sn->nlines + 1, sizeof(*sn->lines));
	sn->lines = p;
	sn->lines[sn->nlines++] = line;
}

static void put_ord(struct sema_snap *sn, uint64_t ord)
{
	void *p = sn->ords;
	xgrow(&p, &sn->ords_cap, sn->nords + 1, sizeof(*sn->ords));
	sn->ords = p;
	sn->ords[sn->nords++] = ord;
}

void snap_put_loc(struct sema_snap *sn, const struct nvtxt_loc *loc)
{
	void *p = sn->places;
	uint32_t cl[2] = { loc->col, loc->len };

	snap_put(sn, cl, sizeof cl);
	xgrow(&p, &sn->places_cap, sn->nplaces + 1, sizeof(*sn->places));
	sn->places = p;
	sn->places[sn->nplaces++] = (struct snap_place){ loc->line_offset, loc->line };
}

void snap_get_loc(struct sema_snap *sn, struct nvtxt_loc *loc)
{
	uint32_t cl[2];
	const struct snap_place *pl = &sn->places[sn->rplace++];

	snap_get(sn, cl, sizeof cl);
	*loc = (struct nvtxt_loc){ pl->line, cl[0], cl[1], pl->off };
}

/* An idmap as it is laid out (its used slots where they are): lookups and growth go on alike. */
void snap_put_idmap(struct sema_snap *sn, const struct idmap *m)
{
	snap_put_u64(sn, m->cap);
	snap_put_u64(sn, m->count);
	for (size_t i = 0; i < m->cap; i++) {
		const struct idmap_slot *s = &m->slots[i];
		uint64_t v[4] = { i, s->a, s->b, s->value };
		if (s->used)
			snap_put(sn, v, sizeof v);
	}
}

void snap_get_idmap(struct sema_snap *sn, struct idmap *m)
{
	idmap_free(m);
	m->cap = (size_t)snap_get_u64(sn);
	m->count = (size_t)snap_get_u64(sn);
	m->slots = m->cap ? xcalloc(m->cap, sizeof(*m->slots)) : NULL;
	for (size_t k = 0; k < m->count; k++) {
		uint64_t v[4];
		snap_get(sn, v, sizeof v);
		m->slots[v[0]] = (struct idmap_slot){ v[1], v[2], (uint32_t)v[3], 1 };
	}
}

/* A namemap: its index as laid out, its entries in order. */
static void put_namemap(struct sema_snap *sn, const struct namemap *m)
{
	snap_put_idmap(sn, &m->index);
	snap_put_u64(sn, m->count);
	for (size_t i = 0; i < m->count; i++) {
		const struct namemap_entry *e = &m->entries[i];
		uint64_t v[3] = { e->len, e->value, e->next };
		snap_put(sn, v, sizeof v);
		snap_put(sn, e->name, e->len);
	}
}

static void get_namemap(struct sema_snap *sn, struct namemap *m)
{
	namemap_free(m);
	snap_get_idmap(sn, &m->index);
	m->count = m->cap = (size_t)snap_get_u64(sn);
	m->entries = m->count ? xcalloc(m->count, sizeof(*m->entries)) : NULL;
	for (size_t i = 0; i < m->count; i++) {
		struct namemap_entry *e = &m->entries[i];
		uint64_t v[3];
		snap_get(sn, v, sizeof v);
		e->len = (size_t)v[0];
		e->value = (uint32_t)v[1];
		e->next = (uint32_t)v[2];
		e->name = xstrndup((const char *)sn->data + sn->rd, e->len);
		sn->rd += e->len;
	}
}

void snap_put_event(struct sema_snap *sn, const struct nvtxt_event *ev, const char *msg)
{
	int64_t v[8] = { ev->time, ev->start, ev->end, ev->process_id, ev->thread_id, ev->payload,
			 (int64_t)ev->message.len, 0 };
	uint32_t w[6] = { (uint32_t)ev->command, ev->present, (uint32_t)ev->timebase, ev->category_id,
			  ev->parent_category_id, ev->color };

	snap_put(sn, v, sizeof v);
	snap_put(sn, w, sizeof w);
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		snap_put(sn, msg, ev->message.len);
	snap_put_loc(sn, &ev->loc);
	put_ord(sn, ev->ordinal);
}

void snap_get_event(struct sema_snap *sn, struct nvtxt_event *ev, const char **msg)
{
	int64_t v[8];
	uint32_t w[6];

	snap_get(sn, v, sizeof v);
	snap_get(sn, w, sizeof w);
	memset(ev, 0, sizeof(*ev));
	ev->time = v[0], ev->start = v[1], ev->end = v[2];
	ev->process_id = v[3], ev->thread_id = v[4], ev->payload = v[5];
	ev->message.len = (size_t)v[6];
	ev->command = (enum nvtxt_command)w[0];
	ev->present = w[1];
	ev->timebase = (enum nvtxt_timebase)w[2];
	ev->category_id = w[3], ev->parent_category_id = w[4], ev->color = w[5];
	*msg = (const char *)sn->data + sn->rd;
	if (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE))
		sn->rd += ev->message.len;
	snap_get_loc(sn, &ev->loc);
	ev->ordinal = sn->ords[sn->rord++];
}

void snap_put_names(struct sema_snap *sn, const struct name_table *t)
{
	snap_put_idmap(sn, &t->index);
	snap_put_u64(sn, t->count);
	for (size_t i = 0; i < t->count; i++) {
		snap_put_u64(sn, t->entries[i].len);
		snap_put(sn, t->entries[i].name, t->entries[i].len);
		snap_put_loc(sn, &t->entries[i].loc);
	}
}

void snap_get_names(struct sema_snap *sn, struct name_table *t)
{
	name_table_free(t);
	snap_get_idmap(sn, &t->index);
	t->count = t->cap = (size_t)snap_get_u64(sn);
	t->entries = t->count ? xcalloc(t->count, sizeof(*t->entries)) : NULL;
	for (size_t i = 0; i < t->count; i++) {
		struct name_entry *e = &t->entries[i];
		e->len = (size_t)snap_get_u64(sn);
		e->name = xstrndup((const char *)sn->data + sn->rd, e->len);
		sn->rd += e->len;
		snap_get_loc(sn, &e->loc);
	}
}

/* --- sema.c's state: variables, definitions, command names ------------------- */

static void put_def(struct sema_snap *sn, const struct definition *d)
{
	unsigned char f[2] = { d->custom, d->poisoned };
	unsigned char args[NVTXT_ARG_COUNT] = { 0 };

	for (size_t i = 0; i < d->nargs; i++)
		args[i] = (unsigned char)d->args[i];
	snap_put(sn, f, sizeof f);
	snap_put_u64(sn, d->nargs);
	snap_put(sn, args, sizeof args);
	snap_put_loc(sn, &d->loc);
}

static void get_def(struct sema_snap *sn, struct definition *d)
{
	unsigned char f[2], args[NVTXT_ARG_COUNT];

	snap_get(sn, f, sizeof f);
	d->custom = f[0], d->poisoned = f[1];
	d->nargs = (size_t)snap_get_u64(sn);
	snap_get(sn, args, sizeof args);
	for (size_t i = 0; i < NVTXT_ARG_COUNT; i++)
		d->args[i] = (enum nvtxt_arg)args[i];
	snap_get_loc(sn, &d->loc);
}

static void put_binding(struct sema_snap *sn, const struct nvtxt_binding *b)
{
	const struct nvtxt_value *v = &b->value;
	unsigned char f[3] = { (unsigned char)v->kind, (unsigned char)v->quote, b->expanded };
	uint64_t n[4] = { b->name_len, v->text.len, (uint64_t)v->integer, b->reported };

	snap_put(sn, f, sizeof f);
	snap_put(sn, n, sizeof n);
	snap_put(sn, b->name, b->name_len);
	snap_put(sn, v->text.ptr, v->text.len);
	snap_put_loc(sn, &v->loc);
}

static struct nvtxt_binding *get_binding(struct sema_snap *sn)
{
	struct nvtxt_binding *b = xcalloc(1, sizeof(*b));
	struct nvtxt_value *v = &b->value;
	unsigned char f[3];
	uint64_t n[4];

	snap_get(sn, f, sizeof f);
	snap_get(sn, n, sizeof n);
	v->kind = (enum nvtxt_value_kind)f[0];
	v->quote = (char)f[1];
	b->expanded = f[2];
	b->name_len = (size_t)n[0];
	v->integer = (int64_t)n[2];
	b->reported = (uint32_t)n[3];
	b->name = xstrndup((const char *)sn->data + sn->rd, b->name_len);
	sn->rd += b->name_len;
	b->store_cap = (size_t)n[1] + 1;
	b->store = xstrndup((const char *)sn->data + sn->rd, (size_t)n[1]);
	sn->rd += (size_t)n[1];
	v->text = (struct nvtxt_str){ b->store, (size_t)n[1] };
	snap_get_loc(sn, &v->loc);
	return b;
}

static void put_vars(const struct sema *s, struct sema_snap *sn)
{
	uint32_t arg_slot[NVTXT_ARG_COUNT];

	snap_put_u64(sn, s->vars_cap);
	snap_put_u64(sn, s->vars_count);
	for (int a = 0; a < NVTXT_ARG_COUNT; a++)
		arg_slot[a] = UINT32_MAX;
	for (size_t i = 0; i < s->vars_cap; i++) {
		unsigned char present = s->vars[i] != NULL;
		snap_put(sn, &present, 1);
		if (!present)
			continue;
		put_binding(sn, s->vars[i]);
		for (int a = 0; a < NVTXT_ARG_COUNT; a++)
			if (s->arg_var[a] == s->vars[i])
				arg_slot[a] = (uint32_t)i;
	}
	snap_put(sn, arg_slot, sizeof arg_slot);
}

static void get_vars(struct sema *s, struct sema_snap *sn)
{
	uint32_t arg_slot[NVTXT_ARG_COUNT];

	s->vars_cap = (size_t)snap_get_u64(sn);
	s->vars_count = (size_t)snap_get_u64(sn);
	s->vars = s->vars_cap ? xcalloc(s->vars_cap, sizeof(*s->vars)) : NULL;
	for (size_t i = 0; i < s->vars_cap; i++) {
		unsigned char present;
		snap_get(sn, &present, 1);
		if (present)
			s->vars[i] = get_binding(sn);
	}
	snap_get(sn, arg_slot, sizeof arg_slot);
	for (int a = 0; a < NVTXT_ARG_COUNT; a++)
		s->arg_var[a] = arg_slot[a] == UINT32_MAX ? NULL : s->vars[arg_slot[a]];
}

static void put_supp(const struct supp_set *e, struct sema_snap *sn)
{
	unsigned char seen = e->seen_instruction;

	snap_put_u64(sn, e->nsupp);
	snap_put_u64(sn, e->supp_pending);
	snap_put(sn, &seen, 1);
	for (size_t i = 0; i < e->nsupp; i++) {
		uint32_t cu[2] = { (uint32_t)e->supp[i].check, e->supp[i].used };
		snap_put(sn, cu, sizeof cu);
		put_line(sn, e->supp[i].line);
		snap_put_loc(sn, &e->supp[i].loc);
	}
}

static void get_supp(struct supp_set *e, struct sema_snap *sn)
{
	unsigned char seen;

	e->nsupp = e->supp_cap = (size_t)snap_get_u64(sn);
	e->supp_pending = (size_t)snap_get_u64(sn);
	snap_get(sn, &seen, 1);
	e->seen_instruction = seen;
	/* a temporary, as supp_comment's list is (suppress.c) */
	e->supp = e->nsupp ? tmp_realloc(NULL, e->nsupp * sizeof(*e->supp)) : NULL;
	for (size_t i = 0; i < e->nsupp; i++) {
		uint32_t cu[2];
		snap_get(sn, cu, sizeof cu);
		e->supp[i].check = (enum nvtxt_check_id)cu[0];
		e->supp[i].used = cu[1];
		e->supp[i].line = sn->lines[sn->rline++];
		snap_get_loc(sn, &e->supp[i].loc);
	}
}

struct sema_snap *sema_snap_save(const struct sema *s, const struct supp_set *supp)
{
	struct sema_snap *sn = xcalloc(1, sizeof(*sn));

	put_ord(sn, s->ordinal);
	put_vars(s, sn);
	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		put_def(sn, &s->defs[c]);
	put_namemap(sn, &s->unknown_defined);
	snap_put_u64(sn, s->nrecovered);
	for (size_t i = 0; i < s->nrecovered; i++) {
		snap_put_u64(sn, (uint64_t)s->recovered[i].cmd);
		put_def(sn, &s->recovered[i].def);
	}
	pairing_save(s->pairing, sn);
	category_save(s->category, sn);
	naming_save(s->naming, sn);
	put_supp(supp, sn);
	/* kept for long: no room to grow */
	sn->data = xrealloc(sn->data, sn->len ? sn->len : 1);
	sn->cap = sn->len;
	if (sn->nplaces) {
		sn->places = xrealloc(sn->places, sn->nplaces * sizeof(*sn->places));
		sn->places_cap = sn->nplaces;
	}
	if (sn->nlines) {
		sn->lines = xrealloc(sn->lines, sn->nlines * sizeof(*sn->lines));
		sn->lines_cap = sn->nlines;
	}
	sn->ords = xrealloc(sn->ords, sn->nords * sizeof(*sn->ords));
	sn->ords_cap = sn->nords;
	return sn;
}

void sema_snap_restore(struct sema *s, struct supp_set *supp, struct sema_snap *sn)
{
	sn->rd = sn->rplace = sn->rline = sn->rord = 0;
	s->ordinal = sn->ords[sn->rord++];
	get_vars(s, sn);
	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		get_def(sn, &s->defs[c]);
	get_namemap(sn, &s->unknown_defined);
	s->nrecovered = (size_t)snap_get_u64(sn);
	for (size_t i = 0; i < s->nrecovered; i++) {
		s->recovered[i].cmd = (enum nvtxt_command)snap_get_u64(sn);
		get_def(sn, &s->recovered[i].def);
	}
	pairing_restore(s->pairing, sn);
	category_restore(s->category, sn);
	naming_restore(s->naming, sn);
	get_supp(supp, sn);
	/* what the plans read is new */
	sema_plans_invalidate(&s->plans);
}

/* --- comparing and moving ---------------------------------------------------- */

bool snap_map_place(const struct snap_map *m, struct snap_place *p)
{
	if (p->off < m->first_off)
		return true;
	if (p->off < m->end_off)
		return false;
	p->off = (uint64_t)((int64_t)p->off + m->doff);
	p->line = (uint32_t)((int64_t)p->line + m->dline);
	return true;
}

bool snap_map_line(const struct snap_map *m, uint32_t *line)
{
	if (*line == 0 || *line == UINT32_MAX || *line < m->first_line)
		return true;
	if (*line < m->end_line)
		return false;
	*line = (uint32_t)((int64_t)*line + m->dline);
	return true;
}

bool sema_snap_equal(const struct sema_snap *now, const struct sema_snap *old, const struct snap_map *m)
{
	if (now->len != old->len || now->nplaces != old->nplaces || now->nlines != old->nlines ||
	    memcmp(now->data, old->data, now->len) != 0)
		return false;
	for (size_t i = 0; i < old->nplaces; i++) {
		struct snap_place p = old->places[i];
		if ((m && !snap_map_place(m, &p)) || p.off != now->places[i].off || p.line != now->places[i].line)
			return false;
	}
	for (size_t i = 0; i < old->nlines; i++) {
		uint32_t l = old->lines[i];
		if ((m && !snap_map_line(m, &l)) || l != now->lines[i])
			return false;
	}
	return true;
}

bool sema_snap_move(struct sema_snap *sn, const struct snap_map *m)
{
	bool ok = true;

	for (size_t i = 0; i < sn->nplaces; i++)
		ok &= snap_map_place(m, &sn->places[i]);
	for (size_t i = 0; i < sn->nlines; i++)
		ok &= snap_map_line(m, &sn->lines[i]);
	return ok;
}

size_t sema_snap_size(const struct sema_snap *sn)
{
	return sizeof(*sn) + sn->cap + sn->places_cap * sizeof(*sn->places) +
	       sn->lines_cap * sizeof(*sn->lines) + sn->ords_cap * sizeof(*sn->ords);
}

void sema_snap_free(struct sema_snap *sn)
{
	if (!sn)
		return;
	free(sn->data);
	free(sn->places);
	free(sn->lines);
	free(sn->ords);
	free(sn);
}
