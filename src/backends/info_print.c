/*
 * info_print.c - the text form of nvtxtc info (info.h; nvtxtc(1), INFO):
 * sections of aligned tables, printed from the JSON object of
 * nvtxt_info_json, so that both always say the same.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

/* room for "FILE:LINES" in the ranges' tables (a longer name is cut) */
#define PATH_MAX_SHOWN 512

/* --- text ------------------------------------------------------------------ */

/* A table: rows of cells, printed with each column as wide as its widest cell. */
struct table {
	int ncols;
	const char *const *head;
	const bool *right;        /* right-aligned columns (numbers) */
	char **cells;             /* rows * ncols */
	size_t nrows, cap;
};

static void table_row(struct table *t, ...)
{
	va_list ap;

	xgrow((void **)&t->cells, &t->cap, (t->nrows + 1) * (size_t)t->ncols, sizeof *t->cells);
	va_start(ap, t);
	for (int i = 0; i < t->ncols; i++) {
		const char *s = va_arg(ap, const char *);
		t->cells[t->nrows * (size_t)t->ncols + (size_t)i] = xstrndup(s ? s : "-", strlen(s ? s : "-"));
	}
	va_end(ap);
	t->nrows++;
}

/* Display width of a UTF-8 string: its code points (every one counted as one column). */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static void table_print(struct table *t, FILE *out, const char *indent)
{
	size_t w[16] = { 0 };

	for (int c = 0; c < t->ncols; c++) {
		w[c] = width(t->head[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t x = width(t->cells[r * (size_t)t->ncols + (size_t)c]);
			if (x > w[c])
				w[c] = x;
		}
	}
	for (size_t r = 0; r <= t->nrows; r++) {
		struct buf line = { 0 };

		buf_adds(&line, indent);
		for (int c = 0; c < t->ncols; c++) {
			const char *s = r == 0 ? t->head[c] : t->cells[(r - 1) * (size_t)t->ncols + (size_t)c];
			size_t pad = w[c] - width(s);

			if (c)
				buf_adds(&line, "  ");
			if (t->right[c])
				for (size_t i = 0; i < pad; i++)
					buf_addc(&line, ' ');
			buf_adds(&line, s);
			if (!t->right[c] && c + 1 < t->ncols)
				for (size_t i = 0; i < pad; i++)
					buf_addc(&line, ' ');
		}
		while (line.len && line.ptr[line.len - 1] == ' ')
			line.ptr[--line.len] = '\0';
		fprintf(out, "%s\n", line.ptr);
		buf_free(&line);
	}
	for (size_t i = 0; i < t->nrows * (size_t)t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
}

/* A JSON value as a cell: strings bare, integers in decimal, null "-". */
static const char *cell(const json_t *v, char *tmp, size_t n)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return tmp;
	}
	return "-";
}

/* A duration or span: "1234567 ns" or "1234 ticks (Qpc)". */
static const char *duration_cell(const json_t *o, const char *ns_key, const char *ticks_key, char *tmp,
				 size_t n)
{
	const json_t *v = json_object_get(o, ns_key);

	if (v) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT " ns", json_integer_value(v));
		return tmp;
	}
	v = json_object_get(o, ticks_key);
	if (v) {
		snprintf(tmp, n, "%" JSON_INTEGER_FORMAT " %s ticks", json_integer_value(v),
			 json_string_value(json_object_get(o, "time_base")));
		return tmp;
	}
	return "-";
}

/* A range's lines, after its file's name and a colon when the report has several files. */
static const char *where(const json_t *o, const json_t *range, const char *lines, char *buf, size_t n)
{
	const json_t *f = json_object_get(range, "file");

	/* a range is named by file and lines only in a report of several files */
	if (!json_is_string(f) || json_array_size(json_object_get(o, "files")) <= 1)
		return lines;
	snprintf(buf, n, "%s:%s", json_string_value(f), lines);
	return buf;
}

/* The first lines: the file and its display name, or the files and theirs. */
static void print_files(const json_t *o, const char *file, FILE *out)
{
	const json_t *files = json_object_get(o, "files"), *v;
	size_t i;

	if (json_array_size(files) <= 1) {
		v = json_array_get(files, 0);
		fprintf(out, "%s\n", json_is_string(json_object_get(v, "file")) ?
			json_string_value(json_object_get(v, "file")) : file);
		if (json_is_string(json_object_get(v, "display_name")))
			fprintf(out, "  display name: %s\n", json_string_value(json_object_get(v, "display_name")));
		return;
	}
	fprintf(out, "%zu files, one report\n", json_array_size(files));
	json_array_foreach(files, i, v) {
		fprintf(out, "  file: %s", json_string_value(json_object_get(v, "file")));
		if (json_is_string(json_object_get(v, "display_name")))
			fprintf(out, " (display name: %s)", json_string_value(json_object_get(v, "display_name")));
		fputc('\n', out);
	}
}

static void print_commands(json_t *o, FILE *out)
{
	static const char *const head[] = { "command", "events" };
	static const bool right[] = { false, true };
	struct table t = { 2, head, right, NULL, 0, 0 };
	const char *key;
	json_t *v;
	char a[64];

	json_object_foreach(json_object_get(o, "events_by_command"), key, v)
		if (json_integer_value(v))
			table_row(&t, key, cell(v, a, sizeof a));
	if (t.nrows)
		table_print(&t, out, "    ");
	else
		free(t.cells);
}

static void print_time_bases(json_t *o, FILE *out)
{
	static const char *const head[] = { "time base", "times", "first", "last", "first ns", "last ns" };
	static const bool right[] = { false, true, true, true, true, true };
	struct table t = { 6, head, right, NULL, 0, 0 };
	json_t *v;
	size_t i;
	char a[64], b[64], c[64], d[64], e[64], f[64];

	json_array_foreach(json_object_get(o, "time_bases"), i, v)
		table_row(&t, cell(json_object_get(v, "name"), a, sizeof a),
			  cell(json_object_get(v, "times"), b, sizeof b),
			  cell(json_object_get(v, "first"), c, sizeof c),
			  cell(json_object_get(v, "last"), d, sizeof d),
			  cell(json_object_get(v, "first_ns"), e, sizeof e),
			  cell(json_object_get(v, "last_ns"), f, sizeof f));
	table_print(&t, out, "    ");
}

static void print_threads(json_t *o, FILE *out)
{
	static const char *const head[] = { "process", "name", "thread", "name", "events", "span",
					    "max depth" };
	static const bool right[] = { true, false, true, false, true, true, true };
	struct table t = { 7, head, right, NULL, 0, 0 };
	json_t *v;
	size_t i;
	char a[64], b[64], c[64], d[64], e[64], g[64], h[64];

	json_array_foreach(json_object_get(o, "threads"), i, v)
		table_row(&t, cell(json_object_get(v, "process_id"), a, sizeof a),
			  cell(json_object_get(v, "process_name"), b, sizeof b),
			  cell(json_object_get(v, "thread_id"), c, sizeof c),
			  cell(json_object_get(v, "thread_name"), d, sizeof d),
			  cell(json_object_get(v, "events"), e, sizeof e),
			  duration_cell(v, "span_ns", "span_ticks", g, sizeof g),
			  cell(json_object_get(v, "max_push_depth"), h, sizeof h));
	table_print(&t, out, "    ");
}

static void print_categories(json_t *o, FILE *out)
{
	static const char *const head[] = { "id", "name", "parent" };
	static const bool right[] = { true, false, true };
	struct table t = { 3, head, right, NULL, 0, 0 };
	json_t *v;
	size_t i;
	char a[64], b[64], c[64];

	json_array_foreach(json_object_get(o, "categories"), i, v)
		table_row(&t, cell(json_object_get(v, "id"), a, sizeof a),
			  cell(json_object_get(v, "name"), b, sizeof b),
			  cell(json_object_get(v, "parent"), c, sizeof c));
	table_print(&t, out, "    ");
}

static void print_open_ranges(json_t *o, FILE *out)
{
	static const char *const head[] = { "line", "process", "thread", "message" };
	static const bool right[] = { true, true, true, false };
	struct table t = { 4, head, right, NULL, 0, 0 };
	json_t *v;
	size_t i;
	char b[64], c[64], d[64], e[64], place[PATH_MAX_SHOWN];

	json_array_foreach(json_object_get(o, "open_ranges_first"), i, v)
		table_row(&t, where(o, v, cell(json_object_get(v, "line"), e, sizeof e), place, sizeof place),
			  cell(json_object_get(v, "process_id"), b, sizeof b),
			  cell(json_object_get(v, "thread_id"), c, sizeof c),
			  cell(json_object_get(v, "message"), d, sizeof d));
	table_print(&t, out, "    ");
}

static void print_longest(json_t *o, FILE *out)
{
	static const char *const head[] = { "duration", "lines", "process", "thread", "message" };
	static const bool right[] = { true, false, true, true, false };
	struct table t = { 5, head, right, NULL, 0, 0 };
	json_t *v;
	size_t i;
	char a[64], b[64], c[64], d[64], lines[48], place[PATH_MAX_SHOWN];

	json_array_foreach(json_object_get(o, "longest_ranges"), i, v) {
		snprintf(lines, sizeof lines, "%" JSON_INTEGER_FORMAT "-%" JSON_INTEGER_FORMAT,
			 json_integer_value(json_object_get(v, "line")),
			 json_integer_value(json_object_get(v, "end_line")));
		table_row(&t, duration_cell(v, "duration_ns", "duration_ticks", a, sizeof a),
			  where(o, v, lines, place, sizeof place),
			  cell(json_object_get(v, "process_id"), b, sizeof b),
			  cell(json_object_get(v, "thread_id"), c, sizeof c),
			  cell(json_object_get(v, "message"), d, sizeof d));
	}
	table_print(&t, out, "    ");
}

int nvtxt_info_print(const struct nvtxt_info *info, const char *file, FILE *out)
{
	json_t *o = nvtxt_info_json(info, file);
	char a[64];

	errno = 0;
	print_files(o, file, out);
	fprintf(out, "  events: %s\n", cell(json_object_get(o, "events"), a, sizeof a));
	print_commands(o, out);
	fprintf(out, "\n  time bases:\n");
	print_time_bases(o, out);
	fprintf(out, "\n  threads:\n");
	print_threads(o, out);
	fprintf(out, "\n  categories:\n");
	print_categories(o, out);
	fprintf(out, "\n  open ranges: %s\n", cell(json_object_get(o, "open_ranges"), a, sizeof a));
	if (json_array_size(json_object_get(o, "open_ranges_first")))
		print_open_ranges(o, out);
	fprintf(out, "\n  longest ranges:\n");
	print_longest(o, out);
	fprintf(out, "\n  distinct messages: %s\n", cell(json_object_get(o, "distinct_messages"), a, sizeof a));
	json_decref(o);
	if (ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
