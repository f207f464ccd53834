/*
 * diag.c - unit test of the diagnostics engine and the GCC-format text
 * printer (src/diag/diag.c): warning levels (off, warning, -Werror), the
 * --max-errors caps and hidden counts, the warning names, and the exact
 * text printed for an error with an excerpt, a caret under the token, a
 * fix-it line and notes, read from an in-memory FILE.
 */
#include <stdio.h>

#include "diag_engine.h"
#include "capture.h"
#include "tap.h"

/* ---- a fake source: a fixed array of lines, line N at index N-1 ---- */

struct fake_src {
	const char *const *lines;
	size_t n;
	int calls;
};

static const char *fake_line(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col)
{
	struct fake_src *s = user;

	*first_col = 1;
	s->calls++;
	if (loc->line == 0 || loc->line > s->n || !s->lines[loc->line - 1])
		return NULL;
	*len = strlen(s->lines[loc->line - 1]);
	return s->lines[loc->line - 1];
}

/* Every line is "abc". */
static const char *any_line(void *user, const struct nvtxt_loc *loc, size_t *len, uint32_t *first_col)
{
	(void)user;
	*first_col = 1;
	(void)loc;
	*len = 3;
	return "abc";
}

/* ---- printing into memory ---- */

struct mem {
	char *buf;
	size_t size;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->size = 0;
	m->f = open_memstream(&m->buf, &m->size);
	if (!m->f)
		abort();
}

/* Closes the stream; m->buf holds everything printed (free it). */
static void mem_close(struct mem *m)
{
	fclose(m->f);
	m->f = NULL;
}

static struct nvtxt_loc at(uint32_t line, uint32_t col, uint32_t len)
{
	struct nvtxt_loc l = { line, col, len, 0 };
	return l;
}

static void test_names(void)
{
	struct nvtxt_diag_config cfg;

	memset(&cfg, 0xAB, sizeof(cfg));
	nvtxt_diag_config_init(&cfg);
	tap_ok(cfg.level[NVTXT_CHECK_UNCLOSED_RANGE] == NVTXT_LEVEL_WARN &&
	       cfg.level[NVTXT_CHECK_DUPLICATE_PARENT] == NVTXT_LEVEL_WARN &&
	       cfg.level[NVTXT_CHECK_RENAME] == NVTXT_LEVEL_WARN, "config: every warning on by default");
	tap_is_int(cfg.max_errors, 50, "config: --max-errors defaults to 50");

	for (int i = 0; i < NVTXT_CHECK_COUNT; i++) {
		const struct nvtxt_check *c = nvtxt_check_get((enum nvtxt_check_id)i);
		tap_ok(cfg.level[i] == (c->severity == NVTXT_SEV_ERROR ? NVTXT_LEVEL_ERROR : NVTXT_LEVEL_WARN),
		       "config: %s at its default severity", c->name);
	}
	tap_is_str(nvtxt_check_get(NVTXT_CHECK_UNCLOSED_RANGE)->name, "unclosed-range", "name: unclosed-range");
	tap_is_str(nvtxt_check_get(NVTXT_CHECK_DUPLICATE_PARENT)->name, "duplicate-parent", "name: duplicate-parent");
	tap_is_str(nvtxt_check_get(NVTXT_CHECK_RENAME)->name, "rename", "name: rename");
	tap_is_str(nvtxt_check_get(NVTXT_CHECK_UNDEFINED_VARIABLE)->name, "undefined-variable",
		   "name: undefined-variable");
	tap_ok(nvtxt_check_get(NVTXT_CHECK_COUNT) == NULL, "name: past the end has none");
	tap_ok(nvtxt_check_get((enum nvtxt_check_id)-1) == NULL, "name: before the start has none");
	tap_is_int(nvtxt_check_lookup("unclosed-range"), NVTXT_CHECK_UNCLOSED_RANGE, "lookup: unclosed-range");
	tap_is_int(nvtxt_check_lookup("duplicate-parent"), NVTXT_CHECK_DUPLICATE_PARENT, "lookup: duplicate-parent");
	tap_is_int(nvtxt_check_lookup("rename"), NVTXT_CHECK_RENAME, "lookup: rename");
	tap_is_int(nvtxt_check_lookup("arity"), NVTXT_CHECK_ARITY, "lookup: an error check");
	tap_is_int(nvtxt_check_lookup("Rename"), -1, "lookup: case-sensitive");
	tap_is_int(nvtxt_check_lookup("renam"), -1, "lookup: no prefix match");
	tap_is_int(nvtxt_check_lookup(""), -1, "lookup: empty");
	/* the registry's rows: names unique and kebab-case, every field given */
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++) {
		const struct nvtxt_check *c = nvtxt_check_get((enum nvtxt_check_id)i);
		bool kebab = c->name[0] >= 'a' && c->name[0] <= 'z';
		for (const char *p = c->name; *p; p++)
			kebab = kebab && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
					  (*p == '-' && p[1] && p[1] != '-'));
		tap_ok(kebab && nvtxt_check_lookup(c->name) == i, "registry: %s is kebab-case and unique", c->name);
		tap_ok(c->description[0] && c->section[0] &&
		       (c->severity == NVTXT_SEV_ERROR || c->severity == NVTXT_SEV_WARNING),
		       "registry: %s has a description, a section and a severity", c->name);
	}
}

static void test_levels(void)
{
	struct nvtxt_diag_config cfg;
	struct nvtxt_diags e;
	struct capture cap = { 0 };
	struct nvtxt_loc l = at(4, 2, 3);
	struct nvtxt_diag *d;

	nvtxt_diag_config_init(&cfg);
	nvtxt_diags_init(&e, &cfg, cap_sink(&cap), "lv.nvtxt");
	tap_ok(e.errors == 0 && e.warnings == 0 && e.hidden_errors == 0 && e.hidden_warnings == 0 &&
	       e.source == NULL, "init: counts zero, no source");

	/* off: nothing at all */
	cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_OFF;
	d = diag_begin(&e, NVTXT_CHECK_RENAME, &l, "renamed %d", 1);
	tap_ok(d == NULL, "off: diag_begin returns NULL");
	diag_note(d, &l, "ignored");
	diag_fixit(d, "ignored");
	diag_end(&e, d);
	tap_is_int(e.errors + e.warnings + e.hidden_errors + e.hidden_warnings, 0, "off: nothing counted");
	tap_is_int(cap.n, 0, "off: nothing sent");

	/* warning */
	cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_WARN;
	d = diag_begin(&e, NVTXT_CHECK_RENAME, &l, "renamed %d", 2);
	tap_ok(d != NULL, "warn: a diagnostic");
	if (d) {
		tap_is_int(d->severity, NVTXT_SEV_WARNING, "warn: severity warning");
		tap_ok(!d->promoted, "warn: not promoted");
		tap_is_str(d->file, "lv.nvtxt", "warn: file name");
	}
	diag_end(&e, d);
	tap_is_int(e.warnings, 1, "warn: counted as a warning");
	tap_is_int(e.errors, 0, "warn: not as an error");
	tap_is_str(cap_msg(&cap, 0), "renamed 2", "warn: message formatted");
	tap_ok(cap.n == 1 && cap.d[0].loc.line == 4 && cap.d[0].loc.col == 2 && cap.d[0].loc.len == 3,
	       "warn: location kept");
	tap_is_int(cap_check(&cap, 0), NVTXT_CHECK_RENAME, "warn: warning id");

	/* -Werror */
	cfg.level[NVTXT_CHECK_RENAME] = NVTXT_LEVEL_ERROR;
	d = diag_begin(&e, NVTXT_CHECK_RENAME, &l, "renamed %d", 3);
	diag_end(&e, d);
	tap_is_int(e.errors, 1, "-Werror: counted as an error");
	tap_is_int(e.warnings, 1, "-Werror: warnings unchanged");
	tap_is_int(cap_sev(&cap, 1), NVTXT_SEV_ERROR, "-Werror: severity error");
	tap_ok(cap.n == 2 && cap.d[1].promoted, "-Werror: promoted");
	tap_is_int(cap_check(&cap, 1), NVTXT_CHECK_RENAME, "-Werror: keeps its warning id");

	/* other warnings keep their own level */
	d = diag_begin(&e, NVTXT_CHECK_UNCLOSED_RANGE, NULL, "open");
	diag_end(&e, d);
	tap_is_int(cap_sev(&cap, 2), NVTXT_SEV_WARNING, "levels are per warning");
	tap_is_int(cap_line(&cap, 2), 0, "a NULL location is line 0");

	/* errors are never disabled, whatever the levels */
	for (int i = 0; i < NVTXT_CHECK_COUNT; i++)
		cfg.level[i] = NVTXT_LEVEL_OFF;
	diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "bad %s %d", "thing", 42);
	tap_is_int(e.errors, 2, "error: counted");
	tap_is_str(cap_msg(&cap, 3), "bad thing 42", "error: diag_error formats");
	tap_is_int(cap_sev(&cap, 3), NVTXT_SEV_ERROR, "error: severity error");
	tap_ok(cap.n == 4 && !cap.d[3].promoted && cap.d[3].check == NVTXT_CHECK_SYNTAX,
	       "error: not promoted, its check id");

	/* notes and fix-its reach the sink */
	d = diag_begin(&e, NVTXT_CHECK_SYNTAX, &l, "with extras");
	diag_fixit(d, "first");
	diag_fixit(d, "second");
	diag_note(d, NULL, "note %d", 1);
	diag_note(d, &l, "note %d", 2);
	diag_end(&e, d);
	tap_ok(cap.n == 5 && cap.d[4].fixit && strcmp(cap.d[4].fixit, "second") == 0,
	       "fix-it: the last one given");
	tap_ok(cap.n == 5 && cap.d[4].nnotes == 2, "notes: two");
	tap_is_str(cap_note_msg(&cap, 4, 0), "note 1", "notes: first");
	tap_is_int(cap_note_line(&cap, 4, 0), 0, "notes: first has no location");
	tap_is_str(cap_note_msg(&cap, 4, 1), "note 2", "notes: second");
	tap_is_int(cap_note_line(&cap, 4, 1), 4, "notes: second's line");

	/* a message with a percent sign passed through %s */
	diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "%s", "100% sure");
	tap_is_str(cap_msg(&cap, 5), "100% sure", "error: %% in an argument kept");
	/* a long message */
	{
		char big[5000];
		memset(big, 'y', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "%s!", big);
		tap_ok(cap.n == 7 && strlen(cap.d[6].message) == sizeof big && cap.d[6].message[4999] == '!',
		       "error: a 5000-byte message is whole");
	}
	cap_free(&cap);
}

static void test_caps(void)
{
	struct nvtxt_diag_config cfg;
	struct nvtxt_diags e;
	struct capture cap = { 0 };
	struct nvtxt_loc l = at(1, 1, 1);
	int order_ok = 1;

	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 3;
	nvtxt_diags_init(&e, &cfg, cap_sink(&cap), "cap.nvtxt");
	for (int i = 0; i < 5; i++) {
		l.line = (uint32_t)(i + 1);
		diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "error %d", i);
	}
	tap_ok(!diag_would_show(&e, NVTXT_SEV_ERROR), "cap: no more errors would show");
	tap_ok(diag_would_show(&e, NVTXT_SEV_WARNING), "cap: warnings still would");
	for (int i = 0; i < 4; i++) {
		struct nvtxt_diag *d;
		l.line = (uint32_t)(100 + i);
		d = diag_begin(&e, NVTXT_CHECK_UNCLOSED_RANGE, &l, "warning %d", i);
		diag_note(d, &l, "with a note");
		diag_end(&e, d);
	}
	tap_is_int(e.errors, 5, "cap: five errors counted");
	tap_is_int(e.hidden_errors, 2, "cap: two errors hidden");
	tap_is_int(e.warnings, 4, "cap: four warnings counted");
	tap_is_int(e.hidden_warnings, 1, "cap: one warning hidden");
	tap_is_int(cap.n, 6, "cap: six shown (3 + 3)");
	for (size_t i = 0; i < cap.n && i < 6; i++) {
		long want = i < 3 ? (long)i + 1 : 100 + (long)i - 3;
		if (cap.d[i].loc.line != (uint32_t)want)
			order_ok = 0;
	}
	tap_ok(order_ok, "cap: the first three of each kind, in order");
	tap_ok(!diag_would_show(&e, NVTXT_SEV_WARNING), "cap: no more warnings would show");
	cap_free(&cap);

	/* promoted warnings are capped as errors */
	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 1;
	cfg.level[NVTXT_CHECK_DUPLICATE_PARENT] = NVTXT_LEVEL_ERROR;
	nvtxt_diags_init(&e, &cfg, cap_sink(&cap), "cap.nvtxt");
	diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "plain error");
	diag_end(&e, diag_begin(&e, NVTXT_CHECK_DUPLICATE_PARENT, &l, "promoted"));
	diag_end(&e, diag_begin(&e, NVTXT_CHECK_RENAME, &l, "plain warning"));
	tap_is_int(e.errors, 2, "cap promoted: two errors");
	tap_is_int(e.hidden_errors, 1, "cap promoted: the promoted one hidden");
	tap_is_int(e.warnings, 1, "cap promoted: one warning");
	tap_is_int(e.hidden_warnings, 0, "cap promoted: warning shown");
	tap_is_int(cap.n, 2, "cap promoted: two shown");
	tap_is_str(cap_msg(&cap, 1), "plain warning", "cap promoted: the warning is the second shown");
	cap_free(&cap);

	/* 0: no cap */
	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 0;
	nvtxt_diags_init(&e, &cfg, cap_sink(&cap), "cap.nvtxt");
	for (int i = 0; i < 1000; i++)
		diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "e");
	tap_is_int(cap.n, 1000, "no cap: 1000 errors shown");
	tap_is_int(e.hidden_errors, 0, "no cap: none hidden");
	tap_ok(diag_would_show(&e, NVTXT_SEV_ERROR), "no cap: always shows");
	cap_free(&cap);

	/* the default cap of 50 */
	nvtxt_diag_config_init(&cfg);
	nvtxt_diags_init(&e, &cfg, cap_sink(&cap), "cap.nvtxt");
	for (int i = 0; i < 60; i++)
		diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "e");
	tap_is_int(cap.n, 50, "default cap: 50 shown");
	tap_is_int(e.hidden_errors, 10, "default cap: 10 hidden");
	cap_free(&cap);

	/* no sink: still counted */
	{
		struct nvtxt_diag_sink none = { NULL, NULL };
		nvtxt_diags_init(&e, &cfg, none, "x");
		diag_error(&e, NVTXT_CHECK_SYNTAX, &l, "e");
		diag_end(&e, diag_begin(&e, NVTXT_CHECK_RENAME, &l, "w"));
		tap_ok(e.errors == 1 && e.warnings == 1, "no sink: counted");
	}
}

/* ---- the text printer ---- */

static const char *const src_lines[] = {
	/* 1 */ "Marker, 100, Qpc, 1, 2,,,,",
	/* 2 */ "\tMarker,\t7",
	/* 3 */ "@Marker, Time, Colour",
	/* 4 */ "Message = \"\xc3\xa9t\xc3\xa9\", X",
	/* 5 */ "",
	/* 6 */ "a\x01" "b\x7f" "c",
	/* 7 */ NULL,
	/* 8 */ "abc",
	/* 9 */ "RangePush, 100, Qpc, 1, 2, 3, Blux, \"m\", 4",
	/* 10 */ "\xe6\xbc\xa2\xe5\xad\x97\t, X", /* two wide characters, a tab */
};

static char *print_one(const struct nvtxt_diag *d, const struct nvtxt_source *src, bool color)
{
	struct mem m;
	struct nvtxt_text_printer p;

	mem_open(&m);
	p.out = m.f;
	p.color = color;
	nvtxt_print_diag(&p, d, src);
	mem_close(&m);
	return m.buf;
}

/* d: the error "m" [invalid-color] in file "t", at no place yet. */
static void plain_error(struct nvtxt_diag *d)
{
	memset(d, 0, sizeof(*d));
	d->severity = NVTXT_SEV_ERROR;
	d->check = NVTXT_CHECK_INVALID_COLOR;
	d->file = "t";
	d->message = "m";
}

/* d printed (no color) at loc from src is want: the assertion named name. */
static void printed_at(struct nvtxt_diag *d, const struct nvtxt_source *src, struct nvtxt_loc loc, const char *want,
		       const char *name)
{
	char *out;

	d->loc = loc;
	out = print_one(d, src, false);
	tap_is_str(out, want, "%s", name);
	free(out);
}

/* The printer: an error with a caret, a fix-it and notes, with and without source; a warning; -Werror. */
static void test_printer(void)
{
	struct fake_src fs = { src_lines, sizeof src_lines / sizeof *src_lines, 0 };
	struct nvtxt_source src = { &fs, fake_line };
	struct nvtxt_note notes[2];
	struct nvtxt_diag d;
	char *out;

	/* an error with a caret, a fix-it and two notes (one at no place) */
	memset(&d, 0, sizeof(d));
	d.severity = NVTXT_SEV_ERROR;
	d.check = NVTXT_CHECK_INVALID_COLOR;
	d.file = "f.nvtxt";
	d.loc = at(9, 35, 4);
	d.message = "expected a Color, found string \"Blux\"; did you mean 'Blue'?";
	d.fixit = "Blue";
	notes[0].loc = at(3, 16, 6);
	notes[0].message = "defined here";
	notes[1].loc = at(0, 0, 0);
	notes[1].message = "a note about no place";
	d.notes = notes;
	d.nnotes = 2;
	out = print_one(&d, &src, false);
	tap_is_str(out,
		   "f.nvtxt:9:35: error: expected a Color, found string \"Blux\"; did you mean 'Blue'? [invalid-color]\n"
		   "    9 | RangePush, 100, Qpc, 1, 2, 3, Blux, \"m\", 4\n"
		   "      |                                   ^~~~\n"
		   "      |                                   Blue\n"
		   "f.nvtxt:3:16: note: defined here\n"
		   "    3 | @Marker, Time, Colour\n"
		   "      |                ^~~~~~\n"
		   "f.nvtxt: note: a note about no place\n",
		   "printer: error, caret, fix-it and notes");
	free(out);

	/* no source: no excerpts */
	out = print_one(&d, NULL, false);
	tap_is_str(out,
		   "f.nvtxt:9:35: error: expected a Color, found string \"Blux\"; did you mean 'Blue'? [invalid-color]\n"
		   "f.nvtxt:3:16: note: defined here\n"
		   "f.nvtxt: note: a note about no place\n",
		   "printer: no source, no excerpts");
	free(out);

	/* a warning, then the same warning under -Werror */
	memset(&d, 0, sizeof(d));
	d.severity = NVTXT_SEV_WARNING;
	d.check = NVTXT_CHECK_UNCLOSED_RANGE;
	d.file = "w.nvtxt";
	d.loc = at(1, 1, 6);
	d.message = "open";
	out = print_one(&d, &src, false);
	tap_is_str(out,
		   "w.nvtxt:1:1: warning: open [-Wunclosed-range]\n"
		   "    1 | Marker, 100, Qpc, 1, 2,,,,\n"
		   "      | ^~~~~~\n",
		   "printer: a warning names its option");
	free(out);
	d.severity = NVTXT_SEV_ERROR;
	d.promoted = true;
	out = print_one(&d, NULL, false);
	tap_is_str(out, "w.nvtxt:1:1: error: open [-Werror=unclosed-range]\n",
		   "printer: a promoted warning is an error [-Werror=name]");
	free(out);
}

/* The printer's columns: tabs, wide characters, UTF-8. */
static void test_printer_columns(void)
{
	struct fake_src fs = { src_lines, sizeof src_lines / sizeof *src_lines, 0 };
	struct nvtxt_source src = { &fs, fake_line };
	struct nvtxt_diag d;

	plain_error(&d);
	/* display columns: tabs become blanks to the next multiple of 8; a token of length 0 is a lone caret */
	printed_at(&d, &src, at(2, 10, 1),
		   "t:2:10: error: m [invalid-color]\n    2 |         Marker, 7\n      |                 ^\n",
		   "printer: tabs are blanks to the next multiple of 8, in both lines");
	printed_at(&d, &src, at(2, 2, 0),
		   "t:2:2: error: m [invalid-color]\n    2 |         Marker, 7\n      |         ^\n",
		   "printer: zero length is one caret");
	printed_at(&d, &src, at(10, 10, 1),
		   "t:10:10: error: m [invalid-color]\n   10 | \xe6\xbc\xa2\xe5\xad\x97    , X\n"
		   "      |           ^\n",
		   "printer: a wide character is two columns, and the tab after it runs to column 8");
	printed_at(&d, &src, at(10, 1, 6),
		   "t:10:1: error: m [invalid-color]\n   10 | \xe6\xbc\xa2\xe5\xad\x97    , X\n"
		   "      | ^~~~\n",
		   "printer: two wide characters are underlined over four columns");

	/* UTF-8: columns are bytes, the caret line has one blank per character */
	printed_at(&d, &src, at(4, 20, 1),
		   "t:4:20: error: m [invalid-color]\n    4 | Message = \"\xc3\xa9t\xc3\xa9\", X\n"
		   "      | " "                 " "^\n",
		   "printer: a UTF-8 character is one column wide under the caret");
	printed_at(&d, &src, at(4, 11, 7),
		   "t:4:11: error: m [invalid-color]\n    4 | Message = \"\xc3\xa9t\xc3\xa9\", X\n"
		   "      | " "          " "^~~~~\n",
		   "printer: a token with UTF-8 gets one ~ per character");
}

/* The printer's excerpt at the edges: control bytes, an empty line, past the end, no text, wide gutters. */
static void test_printer_edges(void)
{
	struct fake_src fs = { src_lines, sizeof src_lines / sizeof *src_lines, 0 };
	struct nvtxt_source src = { &fs, fake_line };
	struct nvtxt_diag d;
	struct fake_src fsw = { src_lines, sizeof src_lines / sizeof *src_lines, 0 };
	struct nvtxt_source sw = { &fsw, any_line };

	plain_error(&d);
	/* control bytes shown as '?'; an empty line; past the end of the line */
	printed_at(&d, &src, at(6, 2, 1),
		   "t:6:2: error: m [invalid-color]\n    6 | a?b?c\n      |  ^\n",
		   "printer: control bytes shown as ?");
	printed_at(&d, &src, at(5, 1, 0),
		   "t:5:1: error: m [invalid-color]\n    5 | \n      | ^\n",
		   "printer: an empty line");
	printed_at(&d, &src, at(8, 9, 5),
		   "t:8:9: error: m [invalid-color]\n    8 | abc\n      |    ^\n",
		   "printer: a column past the end puts the caret after the line");
	printed_at(&d, &src, at(8, 2, 50),
		   "t:8:2: error: m [invalid-color]\n    8 | abc\n      |  ^~\n",
		   "printer: a token longer than the line is cut at its end");
	/* the source has no text for the line: no excerpt */
	printed_at(&d, &src, at(7, 1, 1),
		   "t:7:1: error: m [invalid-color]\n",
		   "printer: a line the source lost has no excerpt");

	/* wide line numbers widen the gutter */
	printed_at(&d, &sw, at(123456, 2, 1),
		   "t:123456:2: error: m [invalid-color]\n 123456 | abc\n        |  ^\n",
		   "printer: a six-digit line number");
	printed_at(&d, &sw, at(1234, 1, 1),
		   "t:1234:1: error: m [invalid-color]\n 1234 | abc\n      | ^\n",
		   "printer: a four-digit line number");
}

/* The printer cuts a long line to a window around the caret. */
static void test_printer_long_line(void)
{
	char line[301];
	const char *const lines[] = { line };
	struct fake_src fsl = { lines, 1, 0 };
	struct nvtxt_source sl = { &fsl, fake_line };
	char want[1024], *out;
	struct nvtxt_diag d;
	int n;

	for (int i = 0; i < 300; i++)
		line[i] = (char)('a' + i % 26);
	line[300] = '\0';
	plain_error(&d);
	d.loc = at(1, 200, 3);
	out = print_one(&d, &sl, false);
	/* shows bytes 119..278 (160 of them) between "..." marks; caret 80 in */
	n = snprintf(want, sizeof want, "t:1:200: error: m [invalid-color]\n    1 | ...%.160s...\n      |    %80s^~~\n",
		     line + 119, "");
	tap_ok(n > 0 && (size_t)n < sizeof want, "printer: long line expectation built");
	tap_is_str(out, want, "printer: a 300-byte line shows a 160-byte window");
	free(out);
	d.loc = at(1, 5, 1);
	out = print_one(&d, &sl, false);
	n = snprintf(want, sizeof want, "t:1:5: error: m [invalid-color]\n    1 | %.160s...\n      |     ^\n", line);
	tap_is_str(out, want, "printer: a window at the start has no leading ...");
	free(out);
}

/* The printer's colors. */
static void test_printer_color(void)
{
	struct fake_src fs = { src_lines, sizeof src_lines / sizeof *src_lines, 0 };
	struct nvtxt_source src = { &fs, fake_line };
	struct nvtxt_diag d;
	char *out;

	memset(&d, 0, sizeof(d));
	d.severity = NVTXT_SEV_ERROR;
	d.check = NVTXT_CHECK_INVALID_COLOR;
	d.file = "c";
	d.loc = at(8, 1, 3);
	d.message = "m";
	d.fixit = "X";
	out = print_one(&d, &src, true);
	tap_is_str(out,
		   "\033[1mc:8:1:\033[0m \033[1;31merror:\033[0m m [invalid-color]\n"
		   "    8 | abc\n"
		   "      | \033[32m^~~\033[0m\n"
		   "      | \033[32mX\033[0m\n",
		   "printer: colors (bold place, red error, green caret and fix-it)");
	free(out);
	d.severity = NVTXT_SEV_WARNING;
	d.check = NVTXT_CHECK_RENAME;
	d.fixit = NULL;
	out = print_one(&d, NULL, true);
	tap_is_str(out, "\033[1mc:8:1:\033[0m \033[1;35mwarning:\033[0m m [-Wrename]\n",
		   "printer: a colored warning is magenta");
	free(out);
}

/* The engine, the text printer as its sink, and the engine's source. */
static void test_engine_to_printer(void)
{
	static const char *const lines[] = { "Markr, 1", "RangePop, 5, Qpc, 1, 1" };
	struct fake_src fs = { lines, 2, 0 };
	struct nvtxt_source src = { &fs, fake_line };
	struct nvtxt_diag_config cfg;
	struct nvtxt_diags e;
	struct nvtxt_text_printer p;
	struct nvtxt_diag_sink sink;
	struct nvtxt_loc l1 = at(1, 1, 5), l2 = at(2, 1, 8);
	struct nvtxt_diag *d;
	struct mem m;

	mem_open(&m);
	p.out = m.f;
	p.color = false;
	sink.user = &p;
	sink.report = nvtxt_text_printer_report;
	nvtxt_diag_config_init(&cfg);
	cfg.max_errors = 1;
	nvtxt_diags_init(&e, &cfg, sink, "in.nvtxt");
	e.source = &src;
	d = diag_begin(&e, NVTXT_CHECK_UNKNOWN_COMMAND, &l1, "unknown command '%s'; did you mean '%s'?", "Markr", "Marker");
	diag_fixit(d, "Marker");
	diag_end(&e, d);
	diag_error(&e, NVTXT_CHECK_SYNTAX, &l2, "hidden");
	mem_close(&m);
	tap_is_str(m.buf,
		   "in.nvtxt:1:1: error: unknown command 'Markr'; did you mean 'Marker'? [unknown-command]\n"
		   "    1 | Markr, 1\n"
		   "      | ^~~~~\n"
		   "      | Marker\n",
		   "engine + printer: the shown error; the second is over the cap");
	tap_is_int(e.hidden_errors, 1, "engine + printer: one hidden");
	free(m.buf);
}

int main(void)
{
	test_names();
	test_levels();
	test_caps();
	test_printer();
	test_printer_columns();
	test_printer_edges();
	test_printer_long_line();
	test_printer_color();
	test_engine_to_printer();
	return tap_done();
}
