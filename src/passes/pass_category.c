/*
 * pass_category.c - the category tree (AddChildCategory) and category
 * names (NameCategory).
 *
 * Rules (nvtxt(5), SEMANTIC RULES): a category is not its own parent; it
 * has at most one parent (the same pair again is a warning, another parent
 * an error); the tree has no cycle.  A cycle is found when its last edge
 * is added, in near-constant time: a union-find over the tree's connected
 * components says whether the new parent already lies below the child (a
 * child without a parent is the root of its component).  Only then is the
 * parent chain walked, to name the cycle in the error.
 */
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "sema_snap.h"

struct node {
	uint32_t id;
	uint32_t parent;         /* index of the parent node, or self when none */
	uint32_t set;            /* union-find link */
	struct nvtxt_loc loc;    /* where the parent was given */
};

struct category {
	struct idmap index;      /* category ID -> node index */
	struct node *nodes;
	size_t count, cap;
	struct name_table names;
};

struct category *category_new(void)
{
	return try_calloc(1, sizeof(struct category));
}

static uint32_t node_of(struct category *c, uint32_t id)
{
	int inserted;
	uint32_t *idx = idmap_put(&c->index, id, 0, (uint32_t)c->count, &inserted);

	if (inserted) {
		void *p = c->nodes;
		xgrow(&p, &c->cap, c->count + 1, sizeof(*c->nodes));
		c->nodes = p;
		c->nodes[c->count] = (struct node){ id, (uint32_t)c->count, (uint32_t)c->count, { 0, 0, 0, 0 } };
		c->count++;
	}
	return *idx;
}

static uint32_t find(struct category *c, uint32_t x)
{
	uint32_t root = x;
	while (c->nodes[root].set != root)
		root = c->nodes[root].set;
	while (c->nodes[x].set != root) {
		uint32_t next = c->nodes[x].set;
		c->nodes[x].set = root;
		x = next;
	}
	return root;
}

static bool has_parent(const struct category *c, uint32_t n)
{
	return c->nodes[n].parent != n;
}

/*
 * Names the cycle that making `child` a child of `parent` would close, from
 * parent to child: child -> ... -> parent -> child (each arrow reads "is
 * the parent of"), cut in the middle when long.  Returns the number of
 * categories in it; *path receives them in that order (caller frees).
 */
static size_t describe_cycle(struct category *c, uint32_t child, uint32_t parent, struct buf *out,
			     uint32_t **path)
{
	size_t n = 0, cap = 0;
	uint32_t *up = NULL;

	/* walk up from the parent to the child, then read the walk backwards */
	for (uint32_t x = parent;; x = c->nodes[x].parent) {
		if (n == cap) {
			/* a temporary (util.h): freed by the guard if memory runs out */
			cap = cap ? cap * 2 : 8;
			up = tmp_realloc(up, cap * sizeof(*up));
		}
		up[n++] = x;
		if (x == child)
			break;
	}
	for (size_t i = n; i-- > 0;) {
		size_t k = n - 1 - i;
		if (k < 8 || i < 3)
			buf_printf(out, "%u -> ", (unsigned)c->nodes[up[i]].id);
		else if (k == 8)
			buf_printf(out, "... (%zu more) -> ", n - 11);
	}
	buf_printf(out, "%u", (unsigned)c->nodes[child].id);
	*path = up;
	return n;
}

/* The notes a cycle's diagnostic shows at most, one for each other call of the cycle. */
enum { CYCLE_NOTES = 16 };

static bool add_child(struct category *c, struct nvtxt_diags *d, const struct nvtxt_event *ev)
{
	uint32_t pid = ev->parent_category_id, cid = ev->category_id;
	uint32_t parent, child;
	struct nvtxt_diag *dg;

	if (pid == cid) {
		diag_error(d, NVTXT_CHECK_SELF_PARENT, &ev->loc, "category %u cannot be its own parent", (unsigned)cid);
		return false;
	}
	parent = node_of(c, pid);
	child = node_of(c, cid);
	if (has_parent(c, child)) {
		uint32_t old = c->nodes[child].parent;
		if (old == parent) {
			dg = diag_begin(d, NVTXT_CHECK_DUPLICATE_PARENT, &ev->loc,
					"category %u is already a child of category %u", (unsigned)cid,
					(unsigned)pid);
			diag_note(dg, &c->nodes[child].loc, "first made a child here");
			diag_end(d, dg);
			return true;
		}
		dg = diag_begin(d, NVTXT_CHECK_SECOND_PARENT, &ev->loc,
				"category %u already has parent %u; a category has at most one parent",
				(unsigned)cid, (unsigned)c->nodes[old].id);
		diag_note(dg, &c->nodes[child].loc, "category %u was made a child of %u here",
			  (unsigned)cid, (unsigned)c->nodes[old].id);
		diag_end(d, dg);
		return false;
	}
	if (find(c, parent) == find(c, child)) {
		struct buf cycle = { 0 };
		uint32_t *path;
		size_t length = describe_cycle(c, child, parent, &cycle, &path);
		dg = diag_begin(d, NVTXT_CHECK_CATEGORY_CYCLE, &ev->loc,
				"making category %u a child of %u would close a cycle of %zu categories (parent -> child): %s",
				(unsigned)cid, (unsigned)pid, length, cycle.ptr);
		/*
		 * a note at each other call of the cycle, from the top; a long
		 * cycle shows the first CYCLE_NOTES and says how many it leaves out
		 */
		for (size_t i = length - 1, shown = 0; i-- > 0; shown++) {
			uint32_t x = path[i];
			if (shown == CYCLE_NOTES && i > 0) {
				diag_note(dg, NULL, "and %zu more calls of the cycle, not shown", i + 1);
				break;
			}
			diag_note(dg, &c->nodes[x].loc, "category %u was made a child of %u here",
				  (unsigned)c->nodes[x].id, (unsigned)c->nodes[c->nodes[x].parent].id);
		}
		diag_end(d, dg);
		buf_free(&cycle);
		tmp_free(path);
		return false;
	}
	c->nodes[child].parent = parent;
	c->nodes[child].loc = ev->loc;
	c->nodes[find(c, child)].set = find(c, parent);
	return true;
}

bool category_event(struct category *c, struct nvtxt_diags *d, const struct nvtxt_event *ev)
{
	const struct name_entry *old;
	struct nvtxt_diag *dg;

	if (ev->command == NVTXT_CMD_ADD_CHILD_CATEGORY)
		return add_child(c, d, ev);
	old = name_table_set(&c->names, ev->category_id, 0, ev->name, &ev->loc);
	if (old && (old->len != ev->name.len || memcmp(old->name, ev->name.ptr, old->len) != 0)) {
		struct buf a = { 0 }, b = { 0 };
		describe_string(&a, ev->name.ptr, ev->name.len);
		describe_string(&b, old->name, old->len);
		dg = diag_begin(d, NVTXT_CHECK_RENAME, &ev->loc, "category %u is named %s here but was named %s before",
				(unsigned)ev->category_id, a.ptr, b.ptr);
		diag_note(dg, &old->loc, "first named here");
		diag_end(d, dg);
		buf_free(&a);
		buf_free(&b);
	}
	return true;
}

void category_free(struct category *c)
{
	if (!c)
		return;
	free(c->nodes);
	idmap_free(&c->index);
	name_table_free(&c->names);
	free(c);
}

const struct name_entry *name_table_set(struct name_table *t, uint64_t a, uint64_t b,
					struct nvtxt_str name, const struct nvtxt_loc *loc)
{
	int inserted;
	uint32_t *idx = idmap_put(&t->index, a, b, (uint32_t)t->count, &inserted);
	void *p = t->entries;

	if (!inserted)
		return &t->entries[*idx];
	xgrow(&p, &t->cap, t->count + 1, sizeof(*t->entries));
	t->entries = p;
	t->entries[t->count].name = xstrndup(name.ptr, name.len);
	t->entries[t->count].len = name.len;
	t->entries[t->count].loc = *loc;
	t->count++;
	return NULL;
}

void name_table_free(struct name_table *t)
{
	for (size_t i = 0; i < t->count; i++)
		free(t->entries[i].name);
	free(t->entries);
	idmap_free(&t->index);
	memset(t, 0, sizeof(*t));
}

/* --- snapshots (sema_snap.h): the tree, its union-find and the names --------- */

void category_save(const struct category *c, struct sema_snap *sn)
{
	snap_put_idmap(sn, &c->index);
	snap_put_u64(sn, c->count);
	for (size_t i = 0; i < c->count; i++) {
		uint32_t v[3] = { c->nodes[i].id, c->nodes[i].parent, c->nodes[i].set };
		snap_put(sn, v, sizeof v);
		snap_put_loc(sn, &c->nodes[i].loc);
	}
	snap_put_names(sn, &c->names);
}

void category_restore(struct category *c, struct sema_snap *sn)
{
	snap_get_idmap(sn, &c->index);
	c->count = c->cap = (size_t)snap_get_u64(sn);
	c->nodes = c->count ? xcalloc(c->count, sizeof(*c->nodes)) : NULL;
	for (size_t i = 0; i < c->count; i++) {
		uint32_t v[3];
		snap_get(sn, v, sizeof v);
		c->nodes[i].id = v[0], c->nodes[i].parent = v[1], c->nodes[i].set = v[2];
		snap_get_loc(sn, &c->nodes[i].loc);
	}
	snap_get_names(sn, &c->names);
}
