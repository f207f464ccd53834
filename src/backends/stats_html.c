/*
 * stats_html.c - nvtxtc stats --format=html (nvtxtc(1), STATS): one
 * self-contained page (inline CSS and SVG, no script, nothing fetched)
 * with, for each table of the report, a chart and the table itself.  The
 * summaries' chart is the total time of each row as a horizontal bar (the
 * STATS_HTML_BARS largest); nvtx_pushpop_trace's is a flame graph: one lane
 * per file, process and thread, time across, nesting level down (the
 * STATS_HTML_FRAMES first ranges).  Elements carry their values in data-*
 * attributes, which tests/stats.t reads in Chromium.
 */
#include <stdlib.h>
#include <string.h>

#include "stats_print.h"
#include "util.h"

#define STATS_HTML_BARS 50
#define STATS_HTML_FRAMES 10000

#define CHART_W 960   /* the SVG's width */
#define LABEL_W 260   /* bar chart: the names' column */
#define BAR_W 560     /* bar chart: the longest bar */
#define BAR_H 22
#define FRAME_H 18

static void esc(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(s[i], out); break;
		}
	}
}

static void escs(FILE *out, const char *s)
{
	esc(out, s, strlen(s));
}

/* The first `max` code points of s (len bytes), "…" after them when cut. */
static void esc_cut(FILE *out, const char *s, size_t len, size_t max)
{
	size_t n = 0, i = 0;

	for (; i < len; i++) {
		if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == max)
			break;
	}
	esc(out, s, i);
	if (i < len)
		fputs("\xE2\x80\xA6", out);
}

/* A color of the name: a hue from its hash, the same name always the same. */
static unsigned hue(const char *s, size_t len)
{
	return (unsigned)(hash_bytes(s, len) % 360);
}

static const char style_css[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#1d1d1d;background:#fff}\n"
	"h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.1em;margin:1.2em 0 .4em}\n"
	"p.about{color:#555;margin:0 0 1em}\n"
	"table.stats{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;margin:.8em 0 2em}\n"
	"table.stats th,table.stats td{border:1px solid #d0d0d0;padding:2px 6px;white-space:pre}\n"
	"table.stats th{background:#eef1f5;font-weight:600}table.stats td.num{text-align:right}\n"
	"table.stats tbody tr:nth-child(even){background:#f8f9fb}\n"
	"svg.chart{display:block;max-width:100%;height:auto}svg.chart text{font:12px system-ui,sans-serif;fill:#1d1d1d}\n"
	"svg.chart text.value{fill:#444}svg.chart rect.frame{stroke:#fff;stroke-width:.5}\n"
	"svg.chart text.lane{font-weight:600}\n";

static void page_head(const struct stats_report_view *v, enum stats_unit unit, FILE *out)
{
	static const char *const unit_words[] = { "nanoseconds", "microseconds", "milliseconds", "seconds" };

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", out);
	fputs("<meta name=\"generator\" content=\"nvtxtc stats\">\n<title>", out);
	escs(out, stats_report_name(v->report));
	fprintf(out, " - nvtxtc stats</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style_css);
	escs(out, stats_report_name(v->report));
	fputs("</h1>\n<p class=\"about\">", out);
	fputs(v->nfiles == 1 ? "File: " : "Files: ", out);
	for (size_t i = 0; i < v->nfiles; i++) {
		fputs(i ? ", <code>" : "<code>", out);
		escs(out, v->files[i]);
		fputs("</code>", out);
	}
	fprintf(out, ". Times in %s. <span id=\"open-ranges\" data-count=\"%llu\">", unit_words[unit],
		(unsigned long long)v->open_ranges);
	if (v->open_ranges)
		fprintf(out, "%llu push range%s still open at the end of a file %s left out.",
			(unsigned long long)v->open_ranges, v->open_ranges == 1 ? "" : "s",
			v->open_ranges == 1 ? "is" : "are");
	else
		fputs("No push range was left open.", out);
	fputs("</span></p>\n", out);
}

/* The total as text in the table's unit: "3,481,709 ns", "12 ticks". */
static void total_text(const struct stats_table *t, unsigned __int128 total, enum stats_unit unit, char *buf)
{
	static const char *const suffix[] = { " ns", " us", " ms", " s" };
	struct stats_num n = { .mag = total };
	size_t len = stats_num_text(n, t->ticks ? 0 : 3 * (int)unit, true, buf);

	strcpy(buf + len, t->ticks ? " ticks" : suffix[unit]);
}

static void bar_chart(const struct stats_report_view *v, const struct stats_table *t, size_t k,
		      enum stats_unit unit, FILE *out)
{
	size_t n = t->nrows < STATS_HTML_BARS ? t->nrows : STATS_HTML_BARS;
	unsigned __int128 max = 0;
	struct stats_bar b;
	char val[96];

	for (size_t i = 0; i < n; i++) {
		stats_bar(v, t, i, &b);
		if (b.total > max)
			max = b.total;
	}
	fprintf(out, "<svg class=\"chart bars\" id=\"chart-%zu\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%zu\" viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\"total time per range\">\n", k,
		CHART_W, n * BAR_H + 8, CHART_W, n * BAR_H + 8);
	for (size_t i = 0; i < n; i++) {
		double w;
		stats_bar(v, t, i, &b);
		w = max ? (double)((long double)b.total * BAR_W / (long double)max) : 0;
		total_text(t, b.total, unit, val);
		fputs("<g class=\"bar\" data-range=\"", out);
		esc(out, b.name, b.len);
		fprintf(out, "\" data-style=\"%s\" data-total=\"", b.style);
		stats_num_text((struct stats_num){ .mag = b.total }, 0, false, val + 48);
		fprintf(out, "%s\"><title>", val + 48);
		esc(out, b.name, b.len);
		fprintf(out, " (%s): %s</title>\n", b.style, val);
		fprintf(out, "<text x=\"%d\" y=\"%zu\" text-anchor=\"end\">", LABEL_W - 8, i * BAR_H + 19);
		esc_cut(out, b.name, b.len, 36);
		fprintf(out, "</text><rect class=\"bar\" x=\"%d\" y=\"%zu\" width=\"%.3f\" height=\"%d\" "
			"fill=\"hsl(%u,55%%,55%%)\"/>", LABEL_W, i * BAR_H + 6, w, BAR_H - 4, hue(b.name, b.len));
		fprintf(out, "<text class=\"value\" x=\"%.3f\" y=\"%zu\">%s</text></g>\n", LABEL_W + w + 6,
			i * BAR_H + 19, val);
	}
	fputs("</svg>\n", out);
	if (t->nrows > n)
		fprintf(out, "<p class=\"about\">The chart shows the %d largest of %zu rows.</p>\n", STATS_HTML_BARS,
			t->nrows);
}

/*
 * The flame graph's lanes: one per (file, PID, TID), in order of first
 * appearance by start time, each on its own time scale (files and threads
 * may lie far apart on the clock).
 */
struct lane {
	uint32_t file;
	int64_t pid, tid;
	int64_t t0, t1;
	uint32_t depth; /* levels drawn: max level + 1 */
	size_t y;
};

static size_t lane_of(struct lane **lanes, size_t *n, size_t *cap, const struct stats_bar *b)
{
	for (size_t i = *n; i > 0; i--)
		if ((*lanes)[i - 1].pid == b->pid && (*lanes)[i - 1].tid == b->tid && (*lanes)[i - 1].file == b->file)
			return i - 1;
	xgrow((void **)lanes, cap, *n + 1, sizeof **lanes);
	(*lanes)[*n] = (struct lane){ .file = b->file, .pid = b->pid, .tid = b->tid, .t0 = b->start, .t1 = b->end };
	return (*n)++;
}

static void frame(FILE *out, const struct stats_bar *b, double x, double w, size_t y)
{
	long double dur = (long double)b->end - (long double)b->start;

	fputs("<g class=\"frame\"><title>", out);
	esc(out, b->name, b->len);
	fprintf(out, ": %.0Lf</title><rect class=\"frame\" data-name=\"", dur);
	esc(out, b->name, b->len);
	fprintf(out, "\" data-start=\"%lld\" data-end=\"%lld\" data-level=\"%u\" x=\"%.3f\" y=\"%zu\" "
		"width=\"%.3f\" height=\"%d\" fill=\"hsl(%u,55%%,60%%)\"/>", (long long)b->start, (long long)b->end,
		b->level, x, y, w, FRAME_H, hue(b->name, b->len));
	if (w >= 40) {
		fprintf(out, "<text x=\"%.3f\" y=\"%zu\">", x + 3, y + 13);
		esc_cut(out, b->name, b->len, (size_t)(w / 7.5) > 1 ? (size_t)(w / 7.5) - 1 : 1);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

/* The lanes of the first n rows, their time spans, depths and places; returns the SVG's height. */
static size_t layout_lanes(const struct stats_report_view *v, const struct stats_table *t, size_t n,
			   struct lane **lanes, size_t *nl)
{
	size_t cap = 0, h = 4;
	struct stats_bar b;

	for (size_t i = 0; i < n; i++) {
		struct lane *l;
		size_t li;
		stats_bar(v, t, i, &b);
		li = lane_of(lanes, nl, &cap, &b); /* may move *lanes */
		l = &(*lanes)[li];
		if (b.level + 1 > l->depth)
			l->depth = b.level + 1;
		if (b.start < l->t0)
			l->t0 = b.start;
		if (b.end > l->t1)
			l->t1 = b.end;
	}
	for (size_t l = 0; l < *nl; l++) {
		(*lanes)[l].y = h + 20;
		h += 20 + (*lanes)[l].depth * FRAME_H + 10;
	}
	return h;
}

static void flame_graph(const struct stats_report_view *v, const struct stats_table *t, size_t k, FILE *out)
{
	size_t n = t->nrows < STATS_HTML_FRAMES ? t->nrows : STATS_HTML_FRAMES, nl = 0, cap, h;
	struct lane *lanes = NULL;
	struct stats_bar b;

	h = layout_lanes(v, t, n, &lanes, &nl);
	cap = nl;
	fprintf(out, "<svg class=\"chart flame\" id=\"chart-%zu\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%zu\" viewBox=\"0 0 %d %zu\" role=\"img\" aria-label=\"nesting of the push/pop ranges\">\n",
		k, CHART_W, h, CHART_W, h);
	for (size_t l = 0; l < nl; l++) {
		long double span = lanes[l].t1 > lanes[l].t0 ? (long double)lanes[l].t1 - (long double)lanes[l].t0 : 1;

		fprintf(out, "<g class=\"lane\" data-t0=\"%lld\" data-t1=\"%lld\">\n<text class=\"lane\" x=\"0\" y=\"%zu\">",
			(long long)lanes[l].t0, (long long)lanes[l].t1, lanes[l].y - 6);
		if (v->nfiles > 1) {
			escs(out, v->files[lanes[l].file]);
			fputs(": ", out);
		}
		fprintf(out, "PID %lld, TID %lld</text>\n", (long long)lanes[l].pid, (long long)lanes[l].tid);
		for (size_t i = 0; i < n; i++) {
			double x, w;
			stats_bar(v, t, i, &b);
			if (lane_of(&lanes, &nl, &cap, &b) != l)
				continue;
			x = (double)(((long double)b.start - lanes[l].t0) * CHART_W / span);
			w = (double)(((long double)b.end - (long double)b.start) * CHART_W / span);
			frame(out, &b, x, w < 0.5 ? 0.5 : w, lanes[l].y + b.level * FRAME_H);
		}
		fputs("</g>\n", out);
	}
	fputs("</svg>\n", out);
	if (t->nrows > n)
		fprintf(out, "<p class=\"about\">The flame graph shows the first %d of %zu ranges.</p>\n",
			STATS_HTML_FRAMES, t->nrows);
	free(lanes);
}

static void html_table(const struct stats_report_view *v, const struct stats_table *t, enum stats_unit unit,
		       FILE *out)
{
	struct stats_cell cells[STATS_MAX_COLS];
	char buf[64];
	size_t len;

	fputs("<table class=\"stats\">\n<thead><tr>", out);
	for (int c = 0; c < v->ncols; c++) {
		stats_header(v, t, c, unit, buf, sizeof buf);
		fputs("<th>", out);
		escs(out, buf);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		stats_row(v, t, r, cells);
		fputs("<tr>", out);
		for (int c = 0; c < v->ncols; c++) {
			const char *s = stats_cell_text(v, t, c, &cells[c], unit, true, buf, &len);
			fputs(v->cols[c].kind == COL_TEXT ? "<td>" : "<td class=\"num\">", out);
			esc(out, s, len);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

void stats_print_html(const struct stats_report_view *v, enum stats_unit unit, FILE *out)
{
	char caption[160];

	page_head(v, unit, out);
	for (size_t k = 0; k < v->ntables; k++) {
		const struct stats_table *t = &v->tables[k];

		fprintf(out, "<section class=\"report\" data-unit=\"%s\" data-time-base=\"%s\">\n",
			t->ticks ? "ticks" : stats_unit_name(unit), t->ticks ? nvtxt_timebase_name(t->tb) : "");
		if (t->ticks) {
			stats_caption(t, caption, sizeof caption);
			fputs("<h2>", out);
			escs(out, caption);
			fputs("</h2>\n", out);
		}
		if (v->report == STATS_PUSHPOP_TRACE)
			flame_graph(v, t, k, out);
		else
			bar_chart(v, t, k, unit, out);
		html_table(v, t, unit, out);
		fputs("</section>\n", out);
	}
	fputs("</body>\n</html>\n", out);
}
