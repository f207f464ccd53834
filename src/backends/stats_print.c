/*
 * stats_print.c - the formats of nvtxtc stats (stats.h; nvtxtc(1),
 * STATS): column (nsys's default: aligned, thousands separators), table,
 * csv, tsv and json (through jansson); html is in stats_html.c.  Every
 * number is exact: a stats_num is printed from its integer digits, the
 * decimal point moved by --timeunit, never through a double (json's
 * numbers are the doubles nearest to those digits).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "stats_print.h"
#include "util.h"

static const char *const unit_suffix[] = { "ns", "us", "ms", "s" };

void stats_header(const struct stats_report_view *v, const struct stats_table *t, int col, enum stats_unit unit,
		  char *buf, size_t size)
{
	const struct stats_col *c = &v->cols[col];

	if (c->kind == COL_PERCENT)
		snprintf(buf, size, "%s (%%)", c->name);
	else if (c->kind == COL_TIME)
		snprintf(buf, size, "%s (%s)", c->name, t->ticks ? "ticks" : unit_suffix[unit]);
	else
		snprintf(buf, size, "%s", c->name);
}

size_t stats_num_text(struct stats_num n, int shift, bool seps, char *buf)
{
	char digits[48];
	size_t nd = 0, len = 0, dec = (size_t)n.decimals + (size_t)shift, intlen;
	unsigned __int128 m = n.mag;

	do {
		digits[nd++] = (char)('0' + (int)(m % 10));
		m /= 10;
	} while (m);
	while (nd <= dec) /* at least one digit before the point */
		digits[nd++] = '0';
	if (n.neg && n.mag)
		buf[len++] = '-';
	intlen = nd - dec;
	for (size_t i = 0; i < intlen; i++) {
		if (seps && i && (intlen - i) % 3 == 0)
			buf[len++] = ',';
		buf[len++] = digits[nd - 1 - i];
	}
	if (dec) {
		buf[len++] = '.';
		for (size_t i = intlen; i < nd; i++)
			buf[len++] = digits[nd - 1 - i];
	}
	buf[len] = '\0';
	return len;
}

const char *stats_cell_text(const struct stats_report_view *v, const struct stats_table *t, int col,
			    const struct stats_cell *c, enum stats_unit unit, bool seps, char *buf, size_t *len)
{
	enum stats_col_kind k = v->cols[col].kind;

	if (k == COL_TEXT) {
		*len = c->len;
		return c->text ? c->text : "";
	}
	if (c->empty) {
		*len = 0;
		return "";
	}
	*len = stats_num_text(c->num, k == COL_TIME && !t->ticks ? 3 * (int)unit : 0,
			      seps && k != COL_ID, buf);
	return buf;
}

size_t stats_width(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xC0) != 0x80;
	return n;
}

void stats_caption(const struct stats_table *t, char *buf, size_t size)
{
	const char *tb = nvtxt_timebase_name(t->tb);

	snprintf(buf, size, "Ranges of time base %s, in its ticks (no --time-conversion=%s:... was given)",
		 tb ? tb : "?", tb ? tb : "?");
}

/* --- column and table --------------------------------------------------------- */

struct grid {
	const struct stats_report_view *v;
	const struct stats_table *t;
	enum stats_unit unit;
	bool boxed; /* table: | and + borders */
	FILE *out;
	size_t w[STATS_MAX_COLS];
	char head[STATS_MAX_COLS][48];
	struct stats_cell cells[STATS_MAX_COLS];
	char num[STATS_MAX_COLS][64];
	struct buf line;
};

static void grid_widths(struct grid *g)
{
	const struct stats_report_view *v = g->v;
	size_t len;

	for (int c = 0; c < v->ncols; c++) {
		stats_header(v, g->t, c, g->unit, g->head[c], sizeof g->head[c]);
		g->w[c] = strlen(g->head[c]);
	}
	for (size_t r = 0; r < g->t->nrows; r++) {
		stats_row(v, g->t, r, g->cells);
		for (int c = 0; c < v->ncols; c++) {
			const char *s = stats_cell_text(v, g->t, c, &g->cells[c], g->unit, true, g->num[c], &len);
			size_t x = stats_width(s, len);
			if (x > g->w[c])
				g->w[c] = x;
		}
	}
}

/* A cell of the line: right-aligned, left-aligned, or centered (the header, as Python's str.center, which nsys uses). */
static void grid_cell(struct grid *g, int c, const char *s, size_t len, int align)
{
	size_t room = g->w[c] - stats_width(s, len), before = align > 0 ? room : 0;

	if (align == 0)
		before = room / 2 + (room & g->w[c] & 1);
	buf_adds(&g->line, g->boxed ? (c ? " | " : "| ") : (c ? "  " : " "));
	for (size_t i = 0; i < before; i++)
		buf_addc(&g->line, ' ');
	buf_add(&g->line, s, len);
	for (size_t i = before; i < room; i++)
		buf_addc(&g->line, ' ');
}

static void grid_end_line(struct grid *g, bool border)
{
	if (border)
		buf_adds(&g->line, " |");
	while (g->line.len && g->line.ptr[g->line.len - 1] == ' ')
		g->line.len--;
	buf_addc(&g->line, '\n');
	fwrite(g->line.ptr, 1, g->line.len, g->out);
	buf_reset(&g->line);
}

/* column: " --------  ----"; table: "+----------+------+" */
static void grid_rule(struct grid *g)
{
	for (int c = 0; c < g->v->ncols; c++) {
		buf_adds(&g->line, g->boxed ? (c ? "-+-" : "+-") : (c ? "  " : " "));
		for (size_t i = 0; i < g->w[c]; i++)
			buf_addc(&g->line, '-');
	}
	if (g->boxed)
		buf_adds(&g->line, "-+");
	grid_end_line(g, false);
}

static void print_grid(const struct stats_report_view *v, const struct stats_table *t, enum stats_unit unit,
		       bool boxed, FILE *out)
{
	struct grid *g = xcalloc(1, sizeof *g);
	size_t len;

	*g = (struct grid){ .v = v, .t = t, .unit = unit, .boxed = boxed, .out = out };
	grid_widths(g);
	if (boxed)
		grid_rule(g);
	for (int c = 0; c < v->ncols; c++)
		grid_cell(g, c, g->head[c], strlen(g->head[c]), 0);
	grid_end_line(g, g->boxed);
	grid_rule(g);
	for (size_t r = 0; r < t->nrows; r++) {
		stats_row(v, t, r, g->cells);
		for (int c = 0; c < v->ncols; c++) {
			const char *s = stats_cell_text(v, t, c, &g->cells[c], unit, true, g->num[c], &len);
			grid_cell(g, c, s, len, v->cols[c].kind == COL_TEXT ? -1 : 1);
		}
		grid_end_line(g, g->boxed);
	}
	if (boxed && t->nrows)
		grid_rule(g);
	buf_free(&g->line);
	free(g);
}

/* --- csv and tsv ------------------------------------------------------------------ */

/* RFC 4180: quoted when it holds a comma, a quote, CR or LF; quotes doubled. */
static void csv_field(FILE *out, const char *s, size_t len)
{
	if (!memchr(s, ',', len) && !memchr(s, '"', len) && !memchr(s, '\n', len) && !memchr(s, '\r', len)) {
		fwrite(s, 1, len, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

/* TSV: tab, LF, CR and backslash written \t, \n, \r and \\ (the text format of PostgreSQL's COPY). */
static void tsv_field(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '\t': fputs("\\t", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\\': fputs("\\\\", out); break;
		default: fputc(s[i], out); break;
		}
	}
}

static void print_delimited(const struct stats_report_view *v, const struct stats_table *t, enum stats_unit unit,
			    bool tsv, FILE *out)
{
	struct stats_cell cells[STATS_MAX_COLS];
	char buf[64];
	size_t len;

	for (int c = 0; c < v->ncols; c++) {
		stats_header(v, t, c, unit, buf, sizeof buf);
		if (c)
			fputc(tsv ? '\t' : ',', out);
		(tsv ? tsv_field : csv_field)(out, buf, strlen(buf));
	}
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++) {
		stats_row(v, t, r, cells);
		for (int c = 0; c < v->ncols; c++) {
			const char *s = stats_cell_text(v, t, c, &cells[c], unit, false, buf, &len);
			if (c)
				fputc(tsv ? '\t' : ',', out);
			(tsv ? tsv_field : csv_field)(out, s, len);
		}
		fputc('\n', out);
	}
}

/* --- json ---------------------------------------------------------------------------- */

static json_t *must(json_t *j)
{
	if (!j)
		nvtxt_fail(ENOMEM);
	return j;
}

static void put(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, must(v)) != 0)
		nvtxt_fail(ENOMEM);
}

static void push(json_t *a, json_t *v)
{
	if (json_array_append_new(a, must(v)) != 0)
		nvtxt_fail(ENOMEM);
}

static json_t *text_json(const char *s, size_t len)
{
	json_t *j = json_stringn(s, len);

	return j ? j : json_string("\xEF\xBF\xBD"); /* not UTF-8: U+FFFD */
}

/*
 * A number: an integer when it has no decimals and fits, else the double
 * nearest to its decimal text; *prec grows to the significant digits
 * (15 to 17) that print that double back as the same double.
 */
static json_t *num_json(const char *text, bool integral, int *prec)
{
	char back[64];
	double d;

	if (integral) {
		errno = 0;
		long long x = strtoll(text, NULL, 10);
		if (!errno)
			return json_integer(x);
	}
	d = strtod(text, NULL);
	for (int p = *prec; p <= 17; p++) {
		snprintf(back, sizeof back, "%.*g", p, d);
		if (strtod(back, NULL) == d) {
			*prec = p;
			break;
		}
	}
	return json_real(d);
}

/*
 * The dump of j (jansson, indented by 2, keys in order, reals with prec
 * digits) less its last `cut` bytes, every line after the first indented
 * `indent` more: a piece of the one document print_json streams.  A
 * newline in a dump is always jansson's (strings escape theirs).
 */
static void dump_piece(json_t *j, int prec, int indent, size_t cut, FILE *out)
{
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(prec));
	size_t n;

	if (!text)
		nvtxt_fail(ENOMEM);
	n = strlen(text);
	n = n > cut ? n - cut : 0;
	for (size_t i = 0; i < n; i++) {
		fputc(text[i], out);
		if (text[i] == '\n')
			fprintf(out, "%*s", indent, "");
	}
	free(text);
	json_decref(j);
}

/* One row of table t as an object, keyed by the headers. */
static json_t *row_json(const struct stats_report_view *v, const struct stats_table *t, size_t r,
			enum stats_unit unit, char head[][48], int *prec)
{
	json_t *row = must(json_object());
	struct stats_cell cells[STATS_MAX_COLS];
	char buf[64];
	size_t len;

	stats_row(v, t, r, cells);
	for (int c = 0; c < v->ncols; c++) {
		const char *s = stats_cell_text(v, t, c, &cells[c], unit, false, buf, &len);
		if (v->cols[c].kind == COL_TEXT)
			put(row, head[c], text_json(s, len));
		else if (cells[c].empty)
			put(row, head[c], json_null());
		else
			put(row, head[c], num_json(s, !strchr(s, '.'), prec));
	}
	return row;
}

/*
 * Table t, its rows streamed one object at a time (a trace has a row per
 * range: the document is never held whole), as the member of "tables"
 * that json_dumpf would write at that depth.
 */
static void table_json(const struct stats_report_view *v, const struct stats_table *t, enum stats_unit unit,
		       FILE *out)
{
	json_t *o = must(json_object()), *cols = must(json_array());
	char head[STATS_MAX_COLS][48];

	put(o, "unit", json_string(t->ticks ? "ticks" : stats_unit_name(unit)));
	put(o, "time_base", t->ticks ? json_string(nvtxt_timebase_name(t->tb)) : json_null());
	for (int c = 0; c < v->ncols; c++) {
		stats_header(v, t, c, unit, head[c], sizeof head[c]);
		push(cols, json_string(head[c]));
	}
	put(o, "columns", cols);
	dump_piece(o, 15, 4, 2, out); /* without its closing "\n}" */
	fputs(",\n      \"rows\": [", out);
	for (size_t r = 0; r < t->nrows; r++) {
		int prec = 15;
		json_t *row = row_json(v, t, r, unit, head, &prec);
		fputs(r ? ",\n        " : "\n        ", out);
		dump_piece(row, prec, 8, 0, out);
	}
	fputs(t->nrows ? "\n      ]\n    }" : "]\n    }", out);
}

/*
 * The report as one JSON document, written piece by piece through
 * jansson: the bytes json_dumpf(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER)
 * would write, each row's reals with the fewest digits (15 to 17) that
 * read back as the same doubles.
 */
static int print_json(const struct stats_report_view *v, enum stats_unit unit, FILE *out)
{
	json_t *doc = must(json_object()), *files = must(json_array());

	put(doc, "report", json_string(stats_report_name(v->report)));
	put(doc, "time_unit", json_string(stats_unit_name(unit)));
	for (size_t i = 0; i < v->nfiles; i++)
		push(files, text_json(v->files[i], strlen(v->files[i])));
	put(doc, "files", files);
	put(doc, "open_ranges", json_integer((json_int_t)v->open_ranges));
	dump_piece(doc, 15, 0, 2, out);
	fputs(",\n  \"tables\": [", out);
	for (size_t i = 0; i < v->ntables; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		table_json(v, &v->tables[i], unit, out);
	}
	fputs(v->ntables ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -1 : 0;
}

/* --- all formats ---------------------------------------------------------------------- */

int nvtxt_stats_print(const struct stats_report_view *v, enum stats_format format, enum stats_unit unit, FILE *out)
{
	char caption[160];

	errno = 0;
	if (format == STATS_JSON) {
		if (print_json(v, unit, out) != 0 && !errno)
			errno = EIO;
	} else if (format == STATS_HTML) {
		stats_print_html(v, unit, out);
	} else {
		for (size_t i = 0; i < v->ntables; i++) {
			const struct stats_table *t = &v->tables[i];
			if (i)
				fputc('\n', out);
			if (t->ticks && format <= STATS_TABLE) {
				stats_caption(t, caption, sizeof caption);
				fprintf(out, " %s:\n\n", caption);
			}
			if (format == STATS_COLUMN || format == STATS_TABLE)
				print_grid(v, t, unit, format == STATS_TABLE, out);
			else
				print_delimited(v, t, unit, format == STATS_TSV, out);
		}
	}
	if (fflush(out) != 0 || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	if (stats_view_error(v)) {
		errno = EIO;
		return -1;
	}
	return 0;
}
