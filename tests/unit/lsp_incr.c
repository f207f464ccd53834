/*
 * lsp_incr.c - the language server's incremental check (src/lsp/lsp_check.c)
 * against a check from the top, after every one of many random edits.
 *
 * Documents: the corpus (../shared/corpus, every file), the lint cases of
 * tests/lint joined into one document (every error, suppression comments,
 * definitions, recovery), and traces of bench/gen (GEN), one after a byte
 * order mark.  Edits, in the
 * LSP's terms (byte ranges replaced, lsp_doc_replace): a line replaced by
 * a line of a pool (definitions, assignments to variables and to static
 * arguments, pushes and pops, categories and names, suppressions, syntax
 * errors, lines of the documents), lines inserted and deleted, a byte
 * range cut across lines, a line break inserted or removed; sometimes
 * several before one check (the debounce), sometimes with a small
 * maxErrors.  After each: the Diagnostic[] of the incremental check
 * equals, byte for byte (jansson, sorted keys), the one of a fresh
 * document with the same text, and so do the code actions' fixes and the
 * document's line index.  Checkpoints every 16 lines, so that small
 * documents have many.  Also: the checks did start from a checkpoint and
 * did stop where the state met the old one (otherwise the test would
 * pass with a check from the top each time).
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_int.h"
#include "lsp_edits.h"
#include "tap.h"

static const char *const pool[] = {
	"@RangePush, Time, ThreadId, Message",
	"@RangePush, Time, Message",
	"@RangePop, Time, ThreadId",
	"@RangePop, Time",
	"@Marker, Time, ThreadId, Message",
	"@RangePsh, Time, ThreadId",
	"@RangePush, Time, Time",
	"@Bogus, X",
	"ProcessId = 41237",
	"ProcessId = 7",
	"ThreadId = 1",
	"TimeBase = ClockMonotonicRaw",
	"TimeBase = Qpc",
	"CategoryId = 2",
	"Color = Blue",
	"Color = NotAColor",
	"X = 5",
	"X = $Y",
	"Y = \"text\"",
	"RangePush, 100, 1, \"a\"",
	"RangePush, 200, 2, $Y",
	"RangePush, 50",
	"RangePop, 300, 1",
	"RangePop, 400, 2",
	"RangePop, 10, 1",
	"RangePush, $X, 1, \"x\"",
	"RangPop, 500, 1",
	"RangePsh, 90, 1, \"m\"",
	"Marker, 120, 1, \"m\"",
	"Marker, 120, 1, $Nope",
	"NameCategory, 1, \"one\"",
	"NameCategory, 1, \"uno\"",
	"AddChildCategory, 1, 2",
	"AddChildCategory, 2, 1",
	"AddChildCategory, 3, 3",
	"NameOsThread, 41237, 1, \"worker\"",
	"NameOsThread, 41237, 1, \"other\"",
	"NameProcess, 41237, \"p\"",
	"SetFileDisplayName, name",
	"SetFileDisplayName, other",
	"RangeStartEnd, 10, 5, 1, \"bad\"",
	"# nvtxtc-disable-next-line rename",
	"# nvtxtc-disable-next-line nosuch",
	"# nvtxtc-disable rename",
	"# a comment",
	"",
	"RangePush, 1, 2, \"unterminated",
	"Marker,, ,",
	"= 5",
	"@",
};

static const char *const typed[] = { "1", ",", "\"", "$", "0", " ", "x", "Range", "\r" };
static const struct edit_words words = { pool, sizeof pool / sizeof pool[0], typed, sizeof typed / sizeof typed[0] };

/* The Diagnostic[] of a check, and the fixes, as one string (malloc'd). */
static char *check_text(struct lsp_server *s, struct lsp_doc *d)
{
	json_t *j = lsp_check_doc(s, d);
	char *out = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	size_t n = strlen(out);

	for (size_t i = 0; i < d->nfixes; i++) {
		char buf[64];
		snprintf(buf, sizeof buf, "|%zu-%zu:", d->fixes[i].start, d->fixes[i].end);
		out = realloc(out, n + strlen(buf) + strlen(d->fixes[i].text) + 1);
		strcpy(out + n, buf);
		strcat(out, d->fixes[i].text);
		n = strlen(out);
	}
	json_decref(j);
	return out;
}

static int same_lines(const struct lsp_doc *d, const struct lsp_doc *f)
{
	return d->nlines == f->nlines && memcmp(d->lines, f->lines, d->nlines * sizeof(*d->lines)) == 0;
}

/* Edits the document `rounds` times; after each check, compares it with one from the top. */
static void run_doc(struct lsp_server *s, const char *name, const struct text *t, const struct text *lines,
		    size_t nlines, int rounds)
{
	struct lsp_doc *d = lsp_doc_new("file:///t.nvtxt", t->p, t->n, 1);
	int bad = 0, bad_lines = 0;
	const char *scale = getenv("LSP_INCR_SCALE"); /* percent of the rounds: valgrind runs fewer */

	if (scale)
		rounds = rounds * atoi(scale) / 100 + 1;
	char *first = NULL;

	free(check_text(s, d));
	for (int i = 0; i < rounds && !bad; i++) {
		int n = tap_rand() % 4 == 0 ? 1 + (int)(tap_rand() % 4) : 1;
		struct lsp_doc *f;
		char *got, *want;

		for (int k = 0; k < n; k++)
			random_edit(d, lines, nlines, &words);
		s->config.max_errors = tap_rand() % 8 == 0 ? 1 + tap_rand() % 3 : 50;
		got = check_text(s, d);
		f = lsp_doc_new("file:///t.nvtxt", d->text, d->len, 1);
		want = check_text(s, f);
		if (strcmp(got, want) != 0) {
			bad = i + 1;
			size_t at = 0;
			while (got[at] && got[at] == want[at])
				at++;
			at = at > 300 ? at - 300 : 0;
			printf("# %s: edit %d: incremental and from the top differ\n#  got:  %.900s\n#  want: %.900s\n",
			       name, i, got + at, want + at);
			FILE *o = fopen("build/lsp_incr-failed.nvtxt", "wb");
			if (o) {
				fwrite(d->text, 1, d->len, o);
				fclose(o);
			}
		}
		bad_lines += !same_lines(d, f);
		if (!first)
			first = strdup(got);
		free(got);
		free(want);
		lsp_doc_free(f);
	}
	tap_ok(!bad, "%s: %d random edits, the diagnostics and fixes of each check are those of a check from the top",
	       name, rounds);
	tap_ok(!bad_lines, "%s: the line index after each edit is the one of the text indexed afresh", name);
	free(first);
	lsp_doc_free(d);
}

/*
 * Edits that change nothing the next lines depend on (a Marker's message,
 * a line typed again as it was) end their check at the next checkpoint
 * after them, having checked few lines.
 */
static void converges(struct lsp_server *s, const struct text *t)
{
	struct lsp_doc *d = lsp_doc_new("file:///t.nvtxt", t->p, t->n, 1);
	unsigned long met = s->incr.met, lines = s->incr.lines;
	int edits = 0;

	free(check_text(s, d));
	lines = s->incr.lines;
	for (size_t k = d->nlines / 7; k < d->nlines && edits < 50; k++) {
		size_t a, b;
		const char *q;
		line_range(d, k, &a, &b);
		q = memchr(d->text + a, '"', b - a);
		if (!q || strncmp(d->text + a, "Marker", 6) != 0)
			continue;
		lsp_doc_replace(d, (size_t)(q - d->text) + 1, (size_t)(q - d->text) + 1, "x", 1);
		if (edits % 2)
			lsp_doc_replace(d, a, b, d->text + a, 0), lsp_doc_replace(d, a, a, "Marker, 1, 1, \"y\"\n", 19);
		free(check_text(s, d));
		edits++;
		k += d->nlines / 60;
	}
	tap_ok(edits >= 20 && s->incr.met - met == (unsigned long)edits,
	       "%d edits of a Marker's message (and half of them the line replaced by another Marker) each stopped where the state met the old one (%lu)",
	       edits, s->incr.met - met);
	tap_ok(s->incr.lines - lines < (unsigned long)edits * 2 * 256,
	       "and each checked fewer than two checkpoints' distance of lines: %lu lines for %d edits",
	       s->incr.lines - lines, edits);
	lsp_doc_free(d);
}

/*
 * A document of errors (more diagnostics than lsp_check.c keeps) is
 * checked from the top with the cap, keeping none; edited back to a few
 * errors, its checks keep them again.
 */
static void many(struct lsp_server *s, const struct text *t)
{
	struct text bad = { 0 };
	struct lsp_doc *d, *f;
	char *got, *want;
	int same = 0;

	for (int i = 0; i < 25000; i++)
		add(&bad, "Marker, x\n", 10);
	d = lsp_doc_new("file:///m.nvtxt", bad.p, bad.n, 1);
	got = check_text(s, d);
	f = lsp_doc_new("file:///m.nvtxt", bad.p, bad.n, 1);
	want = check_text(s, f);
	same += strcmp(got, want) == 0;
	tap_ok(d->many_diags && d->incr == NULL, "25,000 errors: none kept (the document is checked from the top)");
	free(got);
	free(want);
	lsp_doc_free(f);
	for (int k = 0; k < 3; k++) {
		/* most of it replaced by a trace, then a line of it edited */
		if (k == 0)
			lsp_doc_replace(d, 0, d->len - 100, t->p, t->n);
		else
			lsp_doc_replace(d, d->lines[d->nlines / 2], d->lines[d->nlines / 2], "Marker, y\n", 10);
		got = check_text(s, d);
		f = lsp_doc_new("file:///m.nvtxt", d->text, d->len, 1);
		want = check_text(s, f);
		same += strcmp(got, want) == 0;
		free(got);
		free(want);
		lsp_doc_free(f);
	}
	tap_ok(same == 4, "and its diagnostics, and after edits back to a few errors, are those of a check from the top");
	tap_ok(!d->many_diags && d->incr != NULL, "a few errors: they are kept again");
	lsp_doc_free(d);
	free(bad.p);
}

int main(void)
{
	FILE *out = tmpfile();
	struct lsp_server *s = lsp_server_new(out);
	const char *gen = getenv("GEN");
	static const char *const corpus[] = {
		"kernelabstractions-pushpop.nvtxt", "kernelabstractions-startend.nvtxt",
		"kernelabstractions-timeline-hex.nvtxt", "vse-example.nvtxt",
	};
	struct text lint = { 0 }, trace = { 0 }, *lines = NULL;
	size_t nlines = 0;
	char path[512];
	FILE *ls;

	tap_rng = 88172645463325252ull; /* this test's own stream */

	s->ckpt_lines = 16;
	/* the lint cases, one document */
	ls = popen("ls tests/lint/*.nvtxt", "r");
	while (ls && fgets(path, sizeof path, ls)) {
		path[strcspn(path, "\n")] = '\0';
		slurp(path, &lint);
	}
	if (ls)
		pclose(ls);
	tap_ok(lint.n > 10000, "the lint cases are read (%zu bytes)", lint.n);
	nlines = split(&lint, &lines);
	run_doc(s, "tests/lint/*.nvtxt", &lint, lines, nlines, 400);
	for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		struct text t = { 0 };
		snprintf(path, sizeof path, "../shared/corpus/%s", corpus[i]);
		if (!slurp(path, &t)) {
			snprintf(path, sizeof path, "/work/shared/corpus/%s", corpus[i]);
			slurp(path, &t);
		}
		if (!tap_ok(t.n > 0, "corpus file %s is read", corpus[i]))
			continue;
		run_doc(s, corpus[i], &t, lines, nlines, 200);
		free(t.p);
	}
	if (!tap_ok(gen != NULL, "GEN names bench/gen (make check sets it; by hand: GEN=build/bench/gen)")) {
		printf("1..%d\n", tap_count);
		return 1;
	}
	{
		char cmd[600];
		FILE *g;
		snprintf(cmd, sizeof cmd, "%s 200000", gen);
		g = popen(cmd, "r");
		while (g && fgets(path, sizeof path, g))
			add(&trace, path, strlen(path));
		if (g)
			pclose(g);
	}
	tap_ok(trace.n > 150000, "bench/gen made a trace of %zu bytes", trace.n);
	run_doc(s, "bench/gen 200000", &trace, lines, nlines, 300);
	{
		/* the trace after a UTF-8 byte order mark, with CRLF line ends in its first lines */
		struct text bom = { 0 };
		add(&bom, "\xEF\xBB\xBF# bom\r\n\r\n", 12);
		add(&bom, trace.p, trace.n);
		run_doc(s, "bench/gen 200000 after a byte order mark", &bom, lines, nlines, 150);
		free(bom.p);
	}
	/* the same trace with checkpoints at the server's own distance */
	s->ckpt_lines = 0;
	run_doc(s, "bench/gen 200000, default checkpoints", &trace, lines, nlines, 100);
	/*
	 * every edit's check starts from a checkpoint (the fresh documents'
	 * are from the top); a few go on from the top, when a kept message
	 * names a line that moved (an unused suppression's, a static Color's)
	 */
	tap_ok(s->incr.resumed > 1000 && s->incr.met > 0 && s->incr.fallback * 5 < s->incr.resumed,
	       "the checks started from a checkpoint (%lu), some stopped where the state met the old one (%lu), few started again from the top (%lu)",
	       s->incr.resumed, s->incr.met, s->incr.fallback);
	converges(s, &trace);
	s->config.max_errors = 50;
	many(s, &trace);
	for (size_t i = 0; i < nlines; i++)
		free(lines[i].p);
	free(lines);
	free(lint.p);
	free(trace.p);
	lsp_server_free(s);
	fclose(out);
	printf("1..%d\n", tap_count);
	return tap_failed != 0;
}
