/*
 * pass_category.c - unit test of the category pass (src/passes/pass_category.c)
 * fed with hand-built AddChildCategory and NameCategory events: own
 * parent, one parent (same pair twice a warning, another parent an
 * error), cycles of 2, 3 and 10000 named in the error, a long chain
 * without a cycle in both build orders, and renames.
 */
#include <time.h>

#include "sema.h"
#include "capture.h"
#include "tap.h"

struct fixture {
	struct nvtxt_diag_config cfg;
	struct capture cap;
	struct nvtxt_diags d;
	struct category *c;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	cap_engine(&f->d, &f->cfg, &f->cap, "c.nvtxt");
	f->c = category_new();
}

static void teardown(struct fixture *f)
{
	category_free(f->c);
	cap_free(&f->cap);
}

/* AddChildCategory, parent, child at `line`. */
static bool add(struct fixture *f, uint32_t parent, uint32_t child, uint32_t line)
{
	struct nvtxt_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.command = NVTXT_CMD_ADD_CHILD_CATEGORY;
	ev.present = NVTXT_BIT(NVTXT_ARG_PARENT_CATEGORY_ID) | NVTXT_BIT(NVTXT_ARG_CATEGORY_ID);
	ev.parent_category_id = parent;
	ev.category_id = child;
	ev.loc.line = line;
	ev.loc.col = 1;
	ev.loc.len = 16;
	return category_event(f->c, &f->d, &ev);
}

/* NameCategory, id, name at `line`. */
static bool name(struct fixture *f, uint32_t id, const char *nm, uint32_t line)
{
	struct nvtxt_event ev;
	char copy[128];

	/* the pass must keep its own copy: the caller's bytes are overwritten afterwards */
	snprintf(copy, sizeof copy, "%s", nm);
	memset(&ev, 0, sizeof(ev));
	ev.command = NVTXT_CMD_NAME_CATEGORY;
	ev.present = NVTXT_BIT(NVTXT_ARG_CATEGORY_ID) | NVTXT_BIT(NVTXT_ARG_NAME);
	ev.category_id = id;
	ev.name.ptr = copy;
	ev.name.len = strlen(copy);
	ev.loc.line = line;
	ev.loc.col = 1;
	ev.loc.len = 12;
	{
		bool ok = category_event(f->c, &f->d, &ev);
		memset(copy, 'X', sizeof copy);
		return ok;
	}
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void test_parents(void)
{
	struct fixture f;

	setup(&f);
	tap_ok(!add(&f, 5, 5, 1), "own parent: rejected");
	tap_is_int(f.d.errors, 1, "own parent: one error");
	tap_is_str(cap_msg(&f.cap, 0), "category 5 cannot be its own parent", "own parent: message");
	tap_is_int(cap_line(&f.cap, 0), 1, "own parent: line");
	tap_is_int(cap_sev(&f.cap, 0), NVTXT_SEV_ERROR, "own parent: an error");
	/* 5 is untouched: it can still get a parent */
	tap_ok(add(&f, 6, 5, 2), "own parent: 5 can then be a child of 6");
	tap_is_int(f.d.errors, 1, "own parent: no new error");
	teardown(&f);

	setup(&f);
	tap_ok(add(&f, 1, 2, 1), "pair: 2 child of 1 accepted");
	tap_is_int(f.cap.n, 0, "pair: nothing reported");
	tap_ok(add(&f, 1, 2, 2), "same pair twice: accepted (a warning)");
	tap_is_int(f.d.warnings, 1, "same pair twice: one warning");
	tap_is_int(f.d.errors, 0, "same pair twice: no error");
	tap_is_int(cap_sev(&f.cap, 0), NVTXT_SEV_WARNING, "same pair twice: severity warning");
	tap_is_int(cap_check(&f.cap, 0), NVTXT_CHECK_DUPLICATE_PARENT, "same pair twice: -Wduplicate-parent");
	tap_is_str(cap_msg(&f.cap, 0), "category 2 is already a child of category 1",
		   "same pair twice: message");
	tap_is_int(cap_line(&f.cap, 0), 2, "same pair twice: at the second");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "first made a child here", "same pair twice: note");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "same pair twice: note at the first");

	tap_ok(!add(&f, 3, 2, 3), "another parent: rejected");
	tap_is_int(f.d.errors, 1, "another parent: one error");
	tap_is_int(cap_sev(&f.cap, 1), NVTXT_SEV_ERROR, "another parent: an error");
	tap_is_int(cap_check(&f.cap, 1), NVTXT_CHECK_SECOND_PARENT, "another parent: second-parent");
	tap_is_str(cap_msg(&f.cap, 1), "category 2 already has parent 1; a category has at most one parent",
		   "another parent: message");
	tap_is_int(cap_line(&f.cap, 1), 3, "another parent: at the third");
	tap_is_str(cap_note_msg(&f.cap, 1, 0), "category 2 was made a child of 1 here",
		   "another parent: note text");
	tap_is_int(cap_note_line(&f.cap, 1, 0), 1, "another parent: note at the first");
	/* the rejected edge was not added: 3 -> 2 again is still "another parent", not a duplicate */
	tap_ok(!add(&f, 3, 2, 4), "another parent: still rejected the second time");
	tap_is_int(f.d.errors, 2, "another parent: two errors");
	tap_is_int(f.d.warnings, 1, "another parent: no duplicate-parent warning");
	/* a parent may have many children */
	tap_ok(add(&f, 1, 3, 5) && add(&f, 1, 4, 6) && add(&f, 1, 0, 7), "many children of 1");
	tap_ok(add(&f, 0, UINT32_MAX, 8), "IDs 0 and 4294967295");
	tap_is_int(f.d.errors, 2, "many children: no new error");
	teardown(&f);

	/* -Wno-duplicate-parent and -Werror=duplicate-parent */
	setup(&f);
	f.cfg.level[NVTXT_CHECK_DUPLICATE_PARENT] = NVTXT_LEVEL_OFF;
	add(&f, 1, 2, 1);
	tap_ok(add(&f, 1, 2, 2), "duplicate off: accepted");
	tap_is_int(f.cap.n + f.d.warnings + f.d.errors, 0, "duplicate off: nothing reported");
	teardown(&f);
	setup(&f);
	f.cfg.level[NVTXT_CHECK_DUPLICATE_PARENT] = NVTXT_LEVEL_ERROR;
	add(&f, 1, 2, 1);
	add(&f, 1, 2, 2);
	tap_is_int(f.d.errors, 1, "duplicate -Werror: an error");
	tap_ok(f.cap.n == 1 && f.cap.d[0].promoted && f.cap.d[0].check == NVTXT_CHECK_DUPLICATE_PARENT,
	       "duplicate -Werror: promoted, still named duplicate-parent");
	teardown(&f);
}

static void test_cycles(void)
{
	struct fixture f;
	double t0, secs;
	bool ok = true;

	/* length 2 */
	setup(&f);
	add(&f, 10, 11, 1);
	tap_ok(!add(&f, 11, 10, 2), "cycle 2: rejected");
	tap_is_int(f.d.errors, 1, "cycle 2: one error");
	tap_is_str(cap_msg(&f.cap, 0),
		   "making category 10 a child of 11 would close a cycle of 2 categories (parent -> child): 10 -> 11 -> 10",
		   "cycle 2: message names the cycle");
	tap_is_int(cap_line(&f.cap, 0), 2, "cycle 2: at the closing edge");
	tap_is_int(f.cap.n ? f.cap.d[0].nnotes : 0, 1, "cycle 2: one note (the other edge)");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "category 11 was made a child of 10 here", "cycle 2: note");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "cycle 2: note at the first edge");
	/* the rejected edge changed nothing: 10 is still a root and can get another parent */
	tap_ok(add(&f, 12, 10, 3), "cycle 2: 10 still has no parent");
	tap_is_int(f.d.errors, 1, "cycle 2: no new error");
	teardown(&f);

	/* length 3 */
	setup(&f);
	add(&f, 1, 2, 1);
	add(&f, 2, 3, 2);
	tap_ok(!add(&f, 3, 1, 3), "cycle 3: rejected");
	tap_is_str(cap_msg(&f.cap, 0),
		   "making category 1 a child of 3 would close a cycle of 3 categories (parent -> child): 1 -> 2 -> 3 -> 1",
		   "cycle 3: message names the cycle");
	tap_is_int(f.cap.n ? f.cap.d[0].nnotes : 0, 2, "cycle 3: two notes (the other edges)");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "category 2 was made a child of 1 here", "cycle 3: first note");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "cycle 3: first note at line 1");
	tap_is_str(cap_note_msg(&f.cap, 0, 1), "category 3 was made a child of 2 here", "cycle 3: second note");
	tap_is_int(cap_note_line(&f.cap, 0, 1), 2, "cycle 3: second note at line 2");
	/* joining two separate trees is no cycle */
	add(&f, 100, 101, 4);
	tap_ok(add(&f, 3, 100, 5), "two trees: joining them is fine");
	tap_ok(!add(&f, 101, 1, 6), "two trees: but the top below the bottom is a cycle");
	tap_is_str(cap_msg(&f.cap, 1),
		   "making category 1 a child of 101 would close a cycle of 5 categories (parent -> child): 1 -> 2 -> 3 -> 100 -> 101 -> 1",
		   "two trees: the joined cycle");
	tap_is_int(f.d.errors, 2, "cycle 3: two errors in all");
	teardown(&f);

	/* siblings and cousins are no cycle */
	setup(&f);
	add(&f, 1, 2, 1);
	add(&f, 1, 3, 2);
	add(&f, 2, 4, 3);
	add(&f, 3, 5, 4);
	add(&f, 7, 8, 5);
	tap_ok(add(&f, 8, 1, 6), "cousins: a new parent above the root");
	tap_is_int(f.d.errors, 0, "cousins: no error");
	tap_ok(!add(&f, 5, 7, 7), "cousins: the new root below a leaf is a cycle");
	tap_is_str(cap_msg(&f.cap, 0),
		   "making category 7 a child of 5 would close a cycle of 5 categories (parent -> child): 7 -> 8 -> 1 -> 3 -> 5 -> 7",
		   "cousins: message");
	teardown(&f);

	/* length 10000, built top-down: i is the parent of i + 1 */
	setup(&f);
	t0 = now();
	for (uint32_t i = 1; i < 10000; i++)
		ok &= add(&f, i, i + 1, i);
	tap_ok(ok, "cycle 10000: the chain is accepted");
	tap_ok(!add(&f, 10000, 1, 10000), "cycle 10000: closing edge rejected");
	secs = now() - t0;
	tap_is_int(f.d.errors, 1, "cycle 10000: one error");
	tap_is_str(cap_msg(&f.cap, 0),
		   "making category 1 a child of 10000 would close a cycle of 10000 categories (parent -> child): "
		   "1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> ... (9989 more) -> 9998 -> 9999 -> 10000 -> 1",
		   "cycle 10000: named, cut, and back to its start");
	tap_is_int(f.cap.n ? f.cap.d[0].nnotes : 0, 17, "cycle 10000: 16 notes at calls and one that counts the rest");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "category 2 was made a child of 1 here",
		   "cycle 10000: first note from the top");
	tap_is_int(cap_note_line(&f.cap, 0, 2), 3, "cycle 10000: third note at line 3");
	tap_ok(secs < 2.0, "cycle 10000: in %.3f s", secs);
	/* every other closing edge inside the chain is a cycle too */
	tap_ok(!add(&f, 5000, 1, 10001), "cycle 10000: a shorter closing edge");
	tap_ok(strstr(cap_msg(&f.cap, 1), "cycle of 5000 categories (parent -> child): 1 -> 2 -> 3 -> ") != NULL,
	       "cycle 10000: the shorter cycle has 5000 categories");
	tap_ok(!add(&f, 3, 2, 10002), "cycle 10000: 2 already has a parent");
	tap_is_str(cap_msg(&f.cap, 2), "category 2 already has parent 1; a category has at most one parent",
		   "cycle 10000: at most one parent is checked first");
	teardown(&f);

	/* the same cycle built bottom-up: i + 1 is the parent of i */
	setup(&f);
	ok = true;
	for (uint32_t i = 1; i < 10000; i++)
		ok &= add(&f, i + 1, i, i);
	tap_ok(ok, "cycle 10000 bottom-up: the chain is accepted");
	tap_ok(!add(&f, 1, 10000, 10000), "cycle 10000 bottom-up: closing edge rejected");
	tap_is_str(cap_msg(&f.cap, 0),
		   "making category 10000 a child of 1 would close a cycle of 10000 categories (parent -> child): "
		   "10000 -> 9999 -> 9998 -> 9997 -> 9996 -> 9995 -> 9994 -> 9993 -> ... (9989 more) -> 3 -> 2 -> 1 -> 10000",
		   "cycle 10000 bottom-up: message");
	teardown(&f);
}

/* A cycle of n categories 1..n (i the parent of i + 1, then n the parent of 1). */
static const char *cycle_of(struct fixture *f, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++)
		add(f, i, i + 1, i);
	add(f, n, 1, n);
	return f->cap.n == 1 ? f->cap.d[0].message : "(wrong number of diagnostics)";
}

static void test_cut(void)
{
	struct fixture f;

	setup(&f);
	tap_is_str(cycle_of(&f, 11),
		   "making category 1 a child of 11 would close a cycle of 11 categories (parent -> child): "
		   "1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> 9 -> 10 -> 11 -> 1",
		   "cut: a cycle of 11 is shown whole");
	teardown(&f);
	setup(&f);
	tap_is_str(cycle_of(&f, 12),
		   "making category 1 a child of 12 would close a cycle of 12 categories (parent -> child): "
		   "1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8 -> ... (1 more) -> 10 -> 11 -> 12 -> 1",
		   "cut: a cycle of 12 hides one");
	teardown(&f);
}

static void test_long_chain(void)
{
	enum { N = 100000 };
	struct fixture f;
	double t0, secs;
	bool ok = true;

	setup(&f);
	t0 = now();
	for (uint32_t i = 0; i < N; i++)
		ok &= add(&f, i, i + 1, i + 1);
	/* an unrelated tree joined below the chain's end, then more below it */
	for (uint32_t i = 0; i < N; i++)
		ok &= add(&f, 2 * N + 1 - i, 2 * N - i, N + i + 1);
	/* hangs the second chain's root (2N+1) below the first chain's end (N) */
	ok &= add(&f, N, 2 * N + 1, 3 * N);
	secs = now() - t0;
	tap_ok(ok, "long chain: %d top-down and %d bottom-up edges, no cycle", N, N);
	tap_is_int(f.d.errors + f.d.warnings, 0, "long chain: no diagnostics");
	tap_ok(secs < 3.0, "long chain: in %.3f s (< 3 s)", secs);
	/* and the cycle is still found across all 200002 categories */
	t0 = now();
	tap_ok(!add(&f, N + 1, 0, 3 * N + 1), "long chain: closing the whole chain is a cycle");
	secs = now() - t0;
	tap_ok(strstr(cap_msg(&f.cap, 0), "cycle of 200002 categories (parent -> child): "
		      "0 -> 1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> ... (199991 more) -> 100003 -> 100002 -> 100001 -> 0") != NULL,
	       "long chain: names a cycle of 200002 categories");
	tap_ok(secs < 1.0, "long chain: cycle found in %.3f s", secs);
	teardown(&f);
}

static void test_names(void)
{
	struct fixture f;

	setup(&f);
	tap_ok(name(&f, 1, "Compute", 1), "name: accepted");
	tap_ok(name(&f, 1, "Compute", 2), "same name again: accepted");
	tap_is_int(f.cap.n, 0, "same name again: silent");
	tap_ok(name(&f, 2, "Compute", 3), "same name, other category: accepted");
	tap_is_int(f.cap.n, 0, "same name, other category: silent");
	tap_ok(name(&f, 1, "Memory", 4), "rename: accepted (a warning)");
	tap_is_int(f.d.warnings, 1, "rename: one warning");
	tap_is_int(f.d.errors, 0, "rename: no error");
	tap_is_int(cap_check(&f.cap, 0), NVTXT_CHECK_RENAME, "rename: -Wrename");
	tap_is_int(cap_sev(&f.cap, 0), NVTXT_SEV_WARNING, "rename: severity warning");
	tap_is_str(cap_msg(&f.cap, 0), "category 1 is named \"Memory\" here but was named \"Compute\" before",
		   "rename: message");
	tap_is_int(cap_line(&f.cap, 0), 4, "rename: at the second name");
	tap_is_str(cap_note_msg(&f.cap, 0, 0), "first named here", "rename: note");
	tap_is_int(cap_note_line(&f.cap, 0, 0), 1, "rename: note at the first name");
	/* a prefix is a different name; a quote changes the quoting */
	tap_ok(name(&f, 2, "Comp", 5), "prefix: accepted");
	tap_is_str(cap_msg(&f.cap, 1), "category 2 is named \"Comp\" here but was named \"Compute\" before",
		   "prefix: a prefix is a rename");
	name(&f, 3, "say \"hi\"", 6);
	name(&f, 3, "", 7);
	tap_is_str(cap_msg(&f.cap, 2), "category 3 is named \"\" here but was named 'say \"hi\"' before",
		   "rename: empty name and a name with a double quote");
	tap_is_int(f.d.warnings, 3, "rename: three warnings");
	/* names and parents are separate: naming does not make a parent */
	tap_ok(add(&f, 1, 2, 8), "names: AddChildCategory after naming");
	tap_is_int(f.d.errors, 0, "names: no errors");
	teardown(&f);

	setup(&f);
	f.cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_OFF;
	name(&f, 9, "a", 1);
	name(&f, 9, "b", 2);
	tap_is_int(f.cap.n + f.d.warnings, 0, "rename off: nothing reported");
	teardown(&f);
}

int main(void)
{
	test_parents();
	test_cycles();
	test_cut();
	test_long_chain();
	test_names();
	return tap_done();
}
