/*
 * stats_print.h - what the printers of nvtxtc stats share (stats_print.c,
 * stats_html.c): headers with their units, exact numbers as text.
 */
#ifndef NVTXT_STATS_PRINT_H
#define NVTXT_STATS_PRINT_H

#include "stats.h"

/* The most columns a report has (nvtx_pushpop_trace's 14). */
#define STATS_MAX_COLS 16

/* Column col's header in buf: "Total Time (us)", "Time (%)", "Start (ticks)", "Range". */
void stats_header(const struct stats_report_view *v, const struct stats_table *t, int col, enum stats_unit unit,
		  char *buf, size_t size);

/*
 * n as decimal text in buf (64 bytes), its point moved `shift` places to
 * the left (a time in microseconds: 3), with ',' between thousands of the
 * integer part when seps.  Returns the length.
 */
size_t stats_num_text(struct stats_num n, int shift, bool seps, char *buf);

/*
 * Cell c of column col as text (*len bytes; not NUL-terminated for text
 * columns): a number in `unit`, with separators when seps (but for the
 * ID columns), written into buf (64 bytes); a text column's own bytes.
 */
const char *stats_cell_text(const struct stats_report_view *v, const struct stats_table *t, int col,
			    const struct stats_cell *c, enum stats_unit unit, bool seps, char *buf, size_t *len);

/* The display width of len bytes of UTF-8: their code points. */
size_t stats_width(const char *s, size_t len);

/* What a table of ticks says above itself. */
void stats_caption(const struct stats_table *t, char *buf, size_t size);

/* stats_html.c: the report as one self-contained HTML page; errors stay in out's error flag. */
void stats_print_html(const struct stats_report_view *v, enum stats_unit unit, FILE *out);

#endif
