/*
 * lsp_tokens.c - the language server's semantic tokens after edits
 * (src/lsp/lsp_tokens.c, src/lsp/lsp_index.c) against those of a fresh
 * document with the same text, after every one of many random edits.
 *
 * The server keeps, between versions of a document, the JSON array of its
 * last full answer (patched where the integers changed) and, when an edit
 * allows it, the index's items (lines after the edit moved, not read
 * again); every answer must still be the one of a document opened with the
 * text.  After each round of one to four edits (lines replaced, inserted,
 * deleted, cut across, a line break typed or removed, bytes typed; the
 * pool has definitions, which change the arguments of later lines, and
 * characters outside ASCII, which count two UTF-16 units or one): one of
 * semanticTokens/full, full/delta from the last answer (its edits applied
 * to the integers the client holds), full/delta from an unknown resultId,
 * semanticTokens/range of random lines, documentColor, foldingRange and
 * inlayHint of the whole document (these read the events, built after
 * the items), compared with the fresh document's answer, byte for byte
 * (jansson, sorted keys, resultIds left out).  In UTF-16 and in UTF-8.
 */
#define _GNU_SOURCE
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp_index.h"
#include "lsp_int.h"
#include "lsp_edits.h"
#include "tap.h"

static const char *const pool[] = {
	"@RangePush, Time, ThreadId, Message",
	"@RangePush, Time, Message, Color",
	"@RangePop, Time, ThreadId",
	"@Marker, Time, ThreadId, Message, Color",
	"@Marker, Time, Bogus",
	"@RangePsh, Time, ThreadId",
	"@Bogus, X",
	"ProcessId = 41237",
	"TimeBase = ClockMonotonicRaw",
	"TimeBase = Nope",
	"Color = Blue",
	"Color = 0xFF00FF00",
	"Color = NotAColor",
	"X = 5",
	"X = $Y",
	"Y = \"t\xc3\xa9xt\"",
	"RangePush, 100, 1, \"a\xf0\x9f\x98\x80 b\"",
	"RangePush, 200, 2, $Y, Red",
	"RangePop, 300, 1",
	"RangePop, 400, 2",
	"Marker, 120, 1, \"m\", 0x00FF00",
	"Marker, 120, 1, \"\xe2\x82\xac\", \"Green\"",
	"RangPop, 500, 1",
	"NameCategory, 1, \"one\"",
	"# a comment \xc3\xa9",
	"# nvtxtc-disable-next-line rename",
	"",
	"RangePush, 1, 2, \"unterminated",
	"Marker,, ,",
	"\xc3\xa9, 1",
	"= 5",
	"@",
};

static const char *const typed[] = { "1", ",", "\"", "$", "0", " ", "x", "Range", "\r", "\xc3\xa9", "#" };
static const struct edit_words words = { pool, sizeof pool / sizeof pool[0], typed, sizeof typed / sizeof typed[0] };

/* A request of a handler about uri, with params' other members from `more` (taken). */
static json_t *ask(struct lsp_server *s, json_t *(*fn)(struct lsp_server *, json_t *, struct lsp_error *),
		   const char *uri, json_t *more)
{
	json_t *params = json_pack("{s:{s:s}}", "textDocument", "uri", uri);
	struct lsp_error e = { 0 };
	json_t *r;

	if (more)
		json_object_update(params, more), json_decref(more);
	r = fn(s, params, &e);
	json_decref(params);
	return r;
}

/* An answer as text (sorted keys) without its resultId; taken. */
static char *text_of(json_t *r)
{
	char *out;

	if (json_is_object(r))
		json_object_del(r, "resultId");
	out = r ? json_dumps(r, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY) : strdup("(error)");
	json_decref(r);
	return out;
}

/* The integers a client holds: the last full answer's data with every delta's edits applied. */
struct held {
	uint32_t *v;
	size_t n;
	char id[32];
};

static void hold_full(struct held *h, json_t *r)
{
	json_t *data = json_object_get(r, "data");

	h->n = json_array_size(data);
	h->v = realloc(h->v, (h->n + 1) * sizeof(*h->v));
	for (size_t i = 0; i < h->n; i++)
		h->v[i] = (uint32_t)json_integer_value(json_array_get(data, i));
	snprintf(h->id, sizeof h->id, "%s", json_string_value(json_object_get(r, "resultId")));
}

/* A SemanticTokensDelta applied (LSP 3.17: edits in order, on the integers before any of them). */
static void hold_delta(struct held *h, json_t *r)
{
	json_t *edits = json_object_get(r, "edits");

	if (!edits) {
		hold_full(h, r);
		return;
	}
	for (size_t k = json_array_size(edits); k-- > 0;) {
		json_t *ed = json_array_get(edits, k), *data = json_object_get(ed, "data");
		size_t at = (size_t)json_integer_value(json_object_get(ed, "start"));
		size_t del = (size_t)json_integer_value(json_object_get(ed, "deleteCount"));
		size_t ins = json_array_size(data);
		uint32_t *v = malloc((h->n - del + ins + 1) * sizeof(*v));
		memcpy(v, h->v, at * sizeof(*v));
		for (size_t i = 0; i < ins; i++)
			v[at + i] = (uint32_t)json_integer_value(json_array_get(data, i));
		memcpy(v + at + ins, h->v + at + del, (h->n - at - del) * sizeof(*v));
		free(h->v);
		h->v = v;
		h->n = h->n - del + ins;
	}
	snprintf(h->id, sizeof h->id, "%s", json_string_value(json_object_get(r, "resultId")));
}

static char *held_text(const struct held *h)
{
	json_t *a = json_array();

	for (size_t i = 0; i < h->n; i++)
		json_array_append_new(a, json_integer(h->v[i]));
	return text_of(json_pack("{s:o}", "data", a));
}

static void open_doc(struct lsp_server *s, struct lsp_doc *d)
{
	void *p = s->docs;

	xgrow(&p, &s->docs_cap, s->ndocs + 1, sizeof(*s->docs));
	s->docs = p;
	s->docs[s->ndocs++] = d;
}

/* A range of lines of d: {start, end} from a random line to one at most 40 after it. */
static json_t *some_lines(const struct lsp_doc *d)
{
	size_t a = tap_rand() % d->nlines, z = a + tap_rand() % 40;

	return json_pack("{s:{s:{s:I,s:i},s:{s:I,s:i}}}", "range", "start", "line", (json_int_t)a, "character", 0,
			 "end", "line", (json_int_t)(z < d->nlines ? z : d->nlines - 1), "character", 1000);
}

/*
 * One request of kind `op` about the edited document (uri e) and the same
 * about a fresh one (uri f); their answers as text in *got and *want.
 */
static void one_request(struct lsp_server *s, struct lsp_doc *d, unsigned op, struct held *h, char **got,
			char **want)
{
	json_t *r, *range = op == 5 || op == 7 ? some_lines(d) : NULL;

	switch (op) {
	case 0: case 1: /* full */
		r = ask(s, lsp_semantic_tokens_full, "file:///e.nvtxt", NULL);
		hold_full(h, r);
		*got = text_of(r);
		break;
	case 2: case 3: case 4: /* full/delta from the last answer, or from an unknown one */
		r = ask(s, lsp_semantic_tokens_delta, "file:///e.nvtxt",
			json_pack("{s:s}", "previousResultId", op == 4 ? "no such id" : h->id));
		if (op == 4 && !json_object_get(r, "data"))
			tap_ok(0, "full/delta from an unknown resultId answers the full tokens");
		hold_delta(h, r);
		json_decref(r);
		*got = held_text(h);
		break;
	case 5: /* range */
		*got = text_of(ask(s, lsp_semantic_tokens_range, "file:///e.nvtxt", json_deep_copy(range)));
		*want = text_of(ask(s, lsp_semantic_tokens_range, "file:///f.nvtxt", range));
		return;
	case 6: /* colors and folds */
		*got = text_of(json_pack("[oo]", ask(s, lsp_document_color, "file:///e.nvtxt", NULL),
					 ask(s, lsp_folding_range, "file:///e.nvtxt", NULL)));
		*want = text_of(json_pack("[oo]", ask(s, lsp_document_color, "file:///f.nvtxt", NULL),
					  ask(s, lsp_folding_range, "file:///f.nvtxt", NULL)));
		return;
	default: /* inlay hints of some lines */
		*got = text_of(ask(s, lsp_inlay_hint, "file:///e.nvtxt", json_deep_copy(range)));
		*want = text_of(ask(s, lsp_inlay_hint, "file:///f.nvtxt", range));
		return;
	}
	*want = text_of(ask(s, lsp_semantic_tokens_full, "file:///f.nvtxt", NULL));
}

/* Edits the document `rounds` times; after each round, one request compared with a fresh document's. */
static void run_doc(struct lsp_server *s, const char *name, const struct text *t, const struct text *lines,
		    size_t nlines, int rounds)
{
	struct lsp_doc *d = lsp_doc_new("file:///e.nvtxt", t->p, t->n, 1);
	struct held h = { 0 };
	unsigned long moves = s->index_moves;
	json_t *r;
	int bad = 0;
	const char *scale = getenv("LSP_INCR_SCALE"); /* percent of the rounds: valgrind runs fewer */

	if (scale)
		rounds = rounds * atoi(scale) / 100 + 1;
	open_doc(s, d);
	r = ask(s, lsp_semantic_tokens_full, "file:///e.nvtxt", NULL);
	hold_full(&h, r);
	json_decref(r);
	for (int i = 0; i < rounds && !bad; i++) {
		int n = tap_rand() % 4 == 0 ? 1 + (int)(tap_rand() % 4) : 1;
		unsigned op = (unsigned)(tap_rand() % 8);
		struct lsp_doc *f;
		char *got, *want;

		/* a definition line that does not parse keeps an index from being moved: start again now and then */
		if (i % 40 == 39)
			lsp_doc_replace(d, 0, d->len, t->p, t->n);
		for (int k = 0; k < n; k++)
			random_edit(d, lines, nlines, &words);
		f = lsp_doc_new("file:///f.nvtxt", d->text, d->len, 1);
		open_doc(s, f);
		one_request(s, d, op, &h, &got, &want);
		if (strcmp(got, want) != 0) {
			size_t at = 0;
			bad = i + 1;
			while (got[at] && got[at] == want[at])
				at++;
			at = at > 200 ? at - 200 : 0;
			printf("# %s: round %d (request %u): edited and fresh differ\n#  got:  %.600s\n#  want: %.600s\n",
			       name, i, op, got + at, want + at);
		}
		free(got);
		free(want);
		s->ndocs--;
		lsp_doc_free(f);
	}
	tap_ok(!bad, "%s, %s: %d rounds of random edits, each answer that of a fresh document", name,
	       s->enc == LSP_ENC_UTF8 ? "UTF-8" : "UTF-16", rounds);
	/* otherwise the test would pass with an index built anew each time (the lint cases have such definitions) */
	tap_ok(s->index_moves - moves >= (unsigned long)rounds / (strstr(name, "lint") ? 100 : 4),
	       "and the index was moved to the edited text, not built anew, after %lu of them", s->index_moves - moves);
	s->ndocs--;
	lsp_doc_free(d);
	free(h.v);
}

/* The lint cases, one document; the corpus; a trace of bench/gen (GEN). */
static void read_documents(struct text *docs, const char **names, size_t *ndocs)
{
	static const char *const corpus[] = { "kernelabstractions-pushpop.nvtxt", "vse-example.nvtxt" };
	const char *gen = getenv("GEN");
	char path[512];
	FILE *ls = popen("ls tests/lint/*.nvtxt", "r");

	while (ls && fgets(path, sizeof path, ls)) {
		path[strcspn(path, "\n")] = '\0';
		slurp(path, &docs[0]);
	}
	if (ls)
		pclose(ls);
	names[0] = "tests/lint/*.nvtxt";
	*ndocs = 1;
	for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
		snprintf(path, sizeof path, "../shared/corpus/%s", corpus[i]);
		if (!slurp(path, &docs[*ndocs])) {
			snprintf(path, sizeof path, "/work/shared/corpus/%s", corpus[i]);
			slurp(path, &docs[*ndocs]);
		}
		if (tap_ok(docs[*ndocs].n > 0, "corpus file %s is read", corpus[i]))
			names[(*ndocs)++] = corpus[i];
	}
	if (tap_ok(gen != NULL, "GEN names bench/gen (make check sets it; by hand: GEN=build/bench/gen)")) {
		FILE *g;
		snprintf(path, sizeof path, "%s 100000", gen);
		g = popen(path, "r");
		while (g && fgets(path, sizeof path, g))
			add(&docs[*ndocs], path, strlen(path));
		if (g)
			pclose(g);
		names[(*ndocs)++] = "bench/gen 100000";
	}
}

int main(void)
{
	FILE *out = tmpfile();
	struct lsp_server *s = lsp_server_new(out);
	struct text docs[4] = { { 0 } }, *lines = NULL;
	const char *names[4];
	size_t ndocs = 0, nlines;

	read_documents(docs, names, &ndocs);
	tap_ok(docs[0].n > 10000, "the lint cases are read (%zu bytes)", docs[0].n);
	nlines = split(&docs[0], &lines);
	for (int enc = 0; enc < 2; enc++) {
		s->enc = enc ? LSP_ENC_UTF8 : LSP_ENC_UTF16;
		for (size_t i = 0; i < ndocs; i++)
			run_doc(s, names[i], &docs[i], lines, nlines, i == 0 ? 600 : i + 1 == ndocs ? 120 : 300);
	}
	for (size_t i = 0; i < ndocs; i++)
		free(docs[i].p);
	for (size_t i = 0; i < nlines; i++)
		free(lines[i].p);
	free(lines);
	lsp_server_free(s);
	fclose(out);
	printf("1..%d\n", tap_count);
	return tap_failed != 0;
}
