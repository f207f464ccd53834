/*
 * payload_layout.c - the layout of each kind's event record, from the
 * entries of payload_records.def (PL_ROLES) and the roles each kind holds,
 * and the schema section that describes it (the writer writes it, the
 * reader compares what it reads with it).
 */
#include <stdio.h>

#include "nvtxt/language.h"
#include "payload_layout.h"

/* One entry of PL_ROLES. */
struct pl_role_def {
	enum pl_role role;
	uint32_t type, size, flags;
	const char *name, *description;
};

/* PL_ROLES in the order records hold them. */
static const struct pl_role_def pl_roles[] = {
#define PL_ROLE_DEF(r, type, size, flags, name, desc) { PL_R_##r, type, size, flags, name, desc },
	PL_ROLES(PL_ROLE_DEF)
#undef PL_ROLE_DEF
};

#define R(x) (1u << PL_R_##x)
/* The roles of each kind, as a bit set. */
static const uint32_t pl_kind_roles[PL_K_COUNT] = {
	[PL_K_MARKER] = R(TIME) | R(PID) | R(TID) | R(CATEGORY) | R(COLOR) |
		R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
	[PL_K_START_END] = R(START) | R(END) | R(PID) | R(TID) | R(CATEGORY) |
		R(COLOR) | R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
	[PL_K_PUSH] = R(TIME) | R(PID) | R(TID) | R(CATEGORY) | R(COLOR) |
		R(PAYLOAD) | R(MESSAGE) | R(ORDINAL) | R(PRESENT),
	[PL_K_POP] = R(TIME) | R(PID) | R(TID) | R(ORDINAL),
	[PL_K_NAME_CATEGORY] = R(ORDINAL) | R(CATEGORY) | R(NAME),
	[PL_K_ADD_CHILD_CATEGORY] = R(ORDINAL) | R(PARENT) | R(CATEGORY),
	[PL_K_NAME_OS_THREAD] = R(ORDINAL) | R(PID) | R(TID) | R(NAME),
	[PL_K_NAME_PROCESS] = R(ORDINAL) | R(PID) | R(NAME),
	[PL_K_SET_FILE_DISPLAY_NAME] = R(ORDINAL) | R(NAME),
};
#undef R

/* Appends the entry of d to l at the next offset of its alignment. */
static void pl_append(struct pl_layout *l, const struct pl_role_def *d, uint32_t *off)
{
	struct pl_entry *e = &l->e[l->n];

	e->role = d->role;
	e->type = d->type;
	e->size = d->size;
	e->flags = d->flags;
	e->name = d->name;
	e->description = d->description;
	switch (d->role) {
	case PL_R_TIME: /* Marker's unless RangePush's or RangePop's */
		e->flags |= l->kind == PL_K_PUSH ? PL_EF_RANGE_BEGIN
			: l->kind == PL_K_POP ? PL_EF_RANGE_END : PL_EF_MARK;
		e->description = l->kind == PL_K_PUSH ? "RangePush time"
			: l->kind == PL_K_POP ? "RangePop time" : d->description;
		break;
	case PL_R_PID:
		if (l->pid64)
			e->type = PL_T_PID_UINT64, e->size = 8;
		break;
	case PL_R_TID:
		if (l->tid64)
			e->type = PL_T_TID_UINT64, e->size = 8;
		break;
	default:
		break;
	}
	*off = (*off + e->size - 1) & ~(e->size - 1);
	e->offset = *off;
	*off += e->size;
	l->at[e->role] = (int)l->n++;
}

void pl_layout_init(struct pl_layout *l, enum pl_kind k, bool pid64, bool tid64)
{
	uint32_t off = 0;

	memset(l, 0, sizeof *l);
	l->kind = k;
	l->pid64 = pid64;
	l->tid64 = tid64;
	l->schema_flags = k == PL_K_MARKER ? PL_SF_MARK
		: k == PL_K_START_END ? PL_SF_RANGE_STARTEND
		: k == PL_K_PUSH || k == PL_K_POP ? PL_SF_RANGE_PUSHPOP : PL_SF_NONE;
	for (int r = 0; r < PL_R_COUNT; r++)
		l->at[r] = -1;
	for (size_t i = 0; i < sizeof pl_roles / sizeof pl_roles[0]; i++) {
		enum pl_role r = pl_roles[i].role;
		if (!(pl_kind_roles[k] & (1u << r)))
			continue;
		/* In events the ordinal follows the timestamps (sorting key first). */
		if (r == PL_R_ORDINAL && pl_kind_timed(k))
			continue;
		pl_append(l, &pl_roles[i], &off);
		if (pl_kind_timed(k) && (r == PL_R_TIME || r == PL_R_END))
			for (size_t j = 0; j < sizeof pl_roles / sizeof pl_roles[0]; j++)
				if (pl_roles[j].role == PL_R_ORDINAL)
					pl_append(l, &pl_roles[j], &off);
	}
	l->stride = (off + 7u) & ~7u;
}

size_t pl_schema_body(const struct pl_layout *l, unsigned tb, uint64_t id, unsigned char *body)
{
	size_t head = PL_SCHEMA_ATTR_SIZE + l->n * PL_SCHEMA_ENTRY_SIZE, len;
	int n;

	memset(body, 0, head);
	/* The schema name: "<kind>" or "<kind> <TimeBase>". */
	if (tb == PL_NO_TB)
		n = snprintf((char *)body + head, PL_SCHEMA_BODY_MAX - head, "%s", pl_kind_name(l->kind));
	else
		n = snprintf((char *)body + head, PL_SCHEMA_BODY_MAX - head, "%s %s",
			     pl_kind_name(l->kind), nvtxt_timebase_name((enum nvtxt_timebase)tb));
	len = head + (size_t)n + 1;
	pl_put64(body + PL_SCH_FIELD_MASK, PL_SCHEMA_FIELD_MASK);
	pl_put64(body + PL_SCH_NAME, head);
	pl_put64(body + PL_SCH_TYPE, PL_SCHEMA_TYPE_STATIC);
	pl_put64(body + PL_SCH_FLAGS, l->schema_flags);
	pl_put64(body + PL_SCH_ENTRIES, PL_SCHEMA_ATTR_SIZE);
	pl_put64(body + PL_SCH_NUM_ENTRIES, l->n);
	pl_put64(body + PL_SCH_STATIC_SIZE, l->stride);
	pl_put64(body + PL_SCH_PACK_ALIGN, PL_PACK_ALIGN);
	pl_put64(body + PL_SCH_SCHEMA_ID, id);
	for (size_t i = 0; i < l->n; i++) {
		const struct pl_entry *e = &l->e[i];
		unsigned char *p = body + PL_SCHEMA_ATTR_SIZE + i * PL_SCHEMA_ENTRY_SIZE;
		size_t nl = strlen(e->name) + 1, dl = strlen(e->description) + 1;

		pl_put64(p + PL_ENT_FLAGS, e->flags);
		pl_put64(p + PL_ENT_TYPE, e->type);
		pl_put64(p + PL_ENT_NAME, len);
		memcpy(body + len, e->name, nl);
		len += nl;
		pl_put64(p + PL_ENT_DESCRIPTION, len);
		memcpy(body + len, e->description, dl);
		len += dl;
		pl_put64(p + PL_ENT_OFFSET, e->offset);
		if (e->flags & PL_EF_TIMESTAMP)
			pl_put64(p + PL_ENT_SEMANTICS, PL_TIME_DOMAIN_ID_STATIC_START + tb);
	}
	return len;
}
