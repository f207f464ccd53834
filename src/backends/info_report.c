/*
 * info_report.c - the report of nvtxtc info (info.h; nvtxtc(1), INFO) as
 * JSON and as text, both from the collected facts (info_data.h) through
 * one description per section: its rows and its columns, each column
 * with its JSON key, its text heading and the value both are made from,
 * so that both forms always say the same.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "info_data.h"
#include "nvtxt/language.h"

/* room for "FILE:LINES" in the ranges' tables (a longer name is cut) */
#define PATH_MAX_SHOWN 512

/* --- values ----------------------------------------------------------------- */

/* A value of the report: left out of the JSON, null ("-" in text), an integer or a string. */
enum vkind { V_ABSENT, V_NULL, V_INT, V_STR };
struct val {
	enum vkind kind;
	int64_t i;
	const char *s;
};

static struct val v_int(int64_t i)
{
	return (struct val){ V_INT, i, NULL };
}

/* An integer of the report, clamped to int64 (a JSON integer). */
static struct val v_wide(i128 w)
{
	return v_int(w > INT64_MAX ? INT64_MAX : w < INT64_MIN ? INT64_MIN : (int64_t)w);
}

static struct val v_str(const char *s)
{
	return (struct val){ s ? V_STR : V_NULL, 0, s };
}

static const struct val v_absent = { V_ABSENT, 0, NULL };

/* A string as the JSON form has it (str_or_null), so that the text says the same: invalid UTF-8 is U+FFFD. */
static const char *shown(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0, k; i < n; i += k)
		if (!(k = utf8_seq((const unsigned char *)s + i, n - i)))
			return "\xEF\xBF\xBD";
	return s;
}

/* The context of one report: the facts, and the name of an input that nvtxt_info_file did not name. */
struct rctx {
	const struct nvtxt_info *info;
	const char *file;
	char cell[PATH_MAX_SHOWN];   /* a text cell made by a column's text function */
};

/* A thread's time span: in ns when every time base of it converts, else in ticks of its one base. */
struct span {
	enum { SPAN_NONE, SPAN_NS, SPAN_TICKS } kind;
	int tb;
	int64_t first;
	i128 len;
};

static struct span span_of(const struct nvtxt_info *info, const struct thread *t)
{
	bool all_ns = true, first = true;
	int64_t lo = 0, hi = 0, a, b;
	int only = -1, bases = 0;

	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
		if (!thread_saw(t, tb))
			continue;
		bases++;
		only = tb;
		if (nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, t->min[tb], &a) != 0 ||
		    nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, t->max[tb], &b) != 0) {
			all_ns = false;
			continue;
		}
		if (first || a < lo)
			lo = a;
		if (first || b > hi)
			hi = b;
		first = false;
	}
	if (bases && all_ns)
		return (struct span){ SPAN_NS, -1, lo, (i128)hi - lo };
	if (bases == 1)
		return (struct span){ SPAN_TICKS, only, t->min[only], (i128)t->max[only] - t->min[only] };
	return (struct span){ SPAN_NONE, -1, 0, 0 };
}

/* "1234567 ns", "1234 Qpc ticks" or "-" */
static const char *duration_text(struct rctx *c, bool ns, bool ticks, i128 len, int tb)
{
	struct val v = v_wide(len);

	if (ns)
		snprintf(c->cell, sizeof c->cell, "%" PRId64 " ns", v.i);
	else if (ticks)
		snprintf(c->cell, sizeof c->cell, "%" PRId64 " %s ticks", v.i,
			 nvtxt_timebase_name((enum nvtxt_timebase)tb));
	else
		return "-";
	return c->cell;
}

/* --- the sections --------------------------------------------------------------- */

/*
 * A column: its key in the JSON objects of the rows (NULL: text only),
 * its heading in the text table (NULL: JSON only) and its alignment
 * there; get makes the value of both, text (when set) the text cell
 * instead.  The columns are in the JSON objects' order; `place` orders
 * them in the text table.
 */
struct col {
	const char *key;
	const char *head;
	int place;
	bool right;
	struct val (*get)(struct rctx *c, const void *row);
	const char *(*text)(struct rctx *c, const void *row);
};

struct section {
	const char *key;          /* the JSON array of its rows */
	const struct col *cols;
	int ncols;
};

/* time bases: a row of the facts of one time base */
struct tb_row {
	int tb;
	uint64_t times;
	int64_t first, last, first_ns, last_ns;
	bool ns;
};

#define ROW(type) const type *r = row; (void)c
static struct val tb_name(struct rctx *c, const void *row) { ROW(struct tb_row); return v_str(nvtxt_timebase_name((enum nvtxt_timebase)r->tb)); }
static struct val tb_times(struct rctx *c, const void *row) { ROW(struct tb_row); return v_int((int64_t)r->times); }
static struct val tb_first(struct rctx *c, const void *row) { ROW(struct tb_row); return v_int(r->first); }
static struct val tb_last(struct rctx *c, const void *row) { ROW(struct tb_row); return v_int(r->last); }
/* no rule for this time base (nvtxtc(1), TIME CONVERSION): null, not left out */
static struct val tb_first_ns(struct rctx *c, const void *row) { ROW(struct tb_row); return r->ns ? v_int(r->first_ns) : v_str(NULL); }
static struct val tb_last_ns(struct rctx *c, const void *row) { ROW(struct tb_row); return r->ns ? v_int(r->last_ns) : v_str(NULL); }

static const struct col tb_cols[] = {
	{ "name", "time base", 1, false, tb_name, NULL },
	{ "times", "times", 2, true, tb_times, NULL },
	{ "first", "first", 3, true, tb_first, NULL },
	{ "last", "last", 4, true, tb_last, NULL },
	{ "first_ns", "first ns", 5, true, tb_first_ns, NULL },
	{ "last_ns", "last ns", 6, true, tb_last_ns, NULL },
};

/* threads: a struct thread */
static const char *name_of(const struct named *v, const struct idmap *index, int64_t id, int64_t id2)
{
	const uint32_t *slot = idmap_get(index, (uint64_t)id, (uint64_t)id2);

	return slot ? v[*slot].name : NULL;
}

static struct val th_pid(struct rctx *c, const void *row) { ROW(struct thread); return v_int(r->pid); }
static struct val th_pname(struct rctx *c, const void *row) { ROW(struct thread); return v_str(name_of(c->info->procs, &c->info->proc_index, r->pid, 0)); }
static struct val th_tid(struct rctx *c, const void *row) { ROW(struct thread); return v_int(r->tid); }
static struct val th_tname(struct rctx *c, const void *row) { ROW(struct thread); return v_str(name_of(c->info->tnames, &c->info->tname_index, r->pid, r->tid)); }
static struct val th_events(struct rctx *c, const void *row) { ROW(struct thread); return v_int((int64_t)thread_events(r)); }
static struct val th_depth(struct rctx *c, const void *row) { ROW(struct thread); return v_int(r->max_depth); }

static struct val th_span_part(struct rctx *c, const struct thread *t, int kind, int part)
{
	struct span s = span_of(c->info, t);

	if ((int)s.kind != kind)
		return v_absent;
	if (part == 0)
		return kind == SPAN_TICKS ? v_str(nvtxt_timebase_name((enum nvtxt_timebase)s.tb)) : v_int(s.first);
	return part == 1 ? v_int(s.first) : v_wide(s.len);
}

static struct val th_first_ns(struct rctx *c, const void *row) { return th_span_part(c, row, SPAN_NS, 1); }
static struct val th_span_ns(struct rctx *c, const void *row) { return th_span_part(c, row, SPAN_NS, 2); }
static struct val th_tb(struct rctx *c, const void *row) { return th_span_part(c, row, SPAN_TICKS, 0); }
static struct val th_first(struct rctx *c, const void *row) { return th_span_part(c, row, SPAN_TICKS, 1); }
static struct val th_span_ticks(struct rctx *c, const void *row) { return th_span_part(c, row, SPAN_TICKS, 2); }

static const char *th_span_text(struct rctx *c, const void *row)
{
	struct span s = span_of(c->info, row);

	return duration_text(c, s.kind == SPAN_NS, s.kind == SPAN_TICKS, s.len, s.tb);
}

static const struct col thread_cols[] = {
	{ "process_id", "process", 1, true, th_pid, NULL },
	{ "process_name", "name", 2, false, th_pname, NULL },
	{ "thread_id", "thread", 3, true, th_tid, NULL },
	{ "thread_name", "name", 4, false, th_tname, NULL },
	{ "events", "events", 5, true, th_events, NULL },
	{ "first_ns", NULL, 0, false, th_first_ns, NULL },
	{ "span_ns", NULL, 0, false, th_span_ns, NULL },
	{ "time_base", NULL, 0, false, th_tb, NULL },
	{ "first", NULL, 0, false, th_first, NULL },
	{ "span_ticks", NULL, 0, false, th_span_ticks, NULL },
	{ NULL, "span", 6, true, NULL, th_span_text },
	{ "max_push_depth", "max depth", 7, true, th_depth, NULL },
};

/* categories: a struct named */
static struct val cat_id(struct rctx *c, const void *row) { ROW(struct named); return v_int(r->id); }
static struct val cat_name(struct rctx *c, const void *row) { ROW(struct named); return v_str(r->name); }
static struct val cat_parent(struct rctx *c, const void *row) { ROW(struct named); return r->has_parent ? v_int(r->parent) : v_str(NULL); }

static const struct col category_cols[] = {
	{ "id", "id", 1, true, cat_id, NULL },
	{ "name", "name", 2, false, cat_name, NULL },
	{ "parent", "parent", 3, true, cat_parent, NULL },
};

/* ranges, open or among the longest: a struct range */
static const char *file_of(const struct rctx *c, const struct range *r)
{
	return c->info->nfiles ? c->info->files[r->file] : c->file;
}

static struct val rg_file(struct rctx *c, const void *row) { ROW(struct range); return v_str(file_of(c, r)); }
static struct val rg_message(struct rctx *c, const void *row) { ROW(struct range); return v_str(r->message); }
static struct val rg_line(struct rctx *c, const void *row) { ROW(struct range); return v_int(r->line); }
static struct val rg_end_line(struct rctx *c, const void *row) { ROW(struct range); return v_int(r->end_line); }
static struct val rg_kind(struct rctx *c, const void *row) { ROW(struct range); return v_str(r->start_end ? "RangeStartEnd" : "RangePush/RangePop"); }
static struct val rg_pid(struct rctx *c, const void *row) { ROW(struct range); return v_int(r->pid); }
static struct val rg_tid(struct rctx *c, const void *row) { ROW(struct range); return v_int(r->tid); }
static struct val rg_tb(struct rctx *c, const void *row) { ROW(struct range); return v_str(nvtxt_timebase_name(r->tb)); }
static struct val rg_ns(struct rctx *c, const void *row) { ROW(struct range); return r->ns ? v_wide(r->duration) : v_absent; }
static struct val rg_ticks(struct rctx *c, const void *row) { ROW(struct range); return r->ns ? v_absent : v_wide(r->duration); }

static const char *rg_duration_text(struct rctx *c, const void *row)
{
	const struct range *r = row;

	return duration_text(c, r->ns, !r->ns, r->duration, r->tb);
}

/* A range's lines, after its file's name and a colon when the report has several files. */
static const char *place(struct rctx *c, const struct range *r, const char *lines)
{
	const char *f = file_of(c, r);

	if (c->info->nfiles <= 1 || !f)
		snprintf(c->cell, sizeof c->cell, "%s", lines);
	else
		snprintf(c->cell, sizeof c->cell, "%s:%s", shown(f), lines);
	return c->cell;
}

static const char *rg_line_text(struct rctx *c, const void *row)
{
	const struct range *r = row;
	char lines[24];

	snprintf(lines, sizeof lines, "%" PRIu32, r->line);
	return place(c, r, lines);
}

static const char *rg_lines_text(struct rctx *c, const void *row)
{
	const struct range *r = row;
	char lines[48];

	snprintf(lines, sizeof lines, "%" PRIu32 "-%" PRIu32, r->line, r->end_line);
	return place(c, r, lines);
}

static const struct col open_cols[] = {
	{ "file", NULL, 0, false, rg_file, NULL },
	{ "message", "message", 4, false, rg_message, NULL },
	{ "line", "line", 1, true, rg_line, rg_line_text },
	{ "process_id", "process", 2, true, rg_pid, NULL },
	{ "thread_id", "thread", 3, true, rg_tid, NULL },
	{ "time_base", NULL, 0, false, rg_tb, NULL },
};

static const struct col longest_cols[] = {
	{ "file", NULL, 0, false, rg_file, NULL },
	{ "message", "message", 5, false, rg_message, NULL },
	{ "line", NULL, 0, false, rg_line, NULL },
	{ NULL, "lines", 2, false, NULL, rg_lines_text },
	{ "end_line", NULL, 0, false, rg_end_line, NULL },
	{ "kind", NULL, 0, false, rg_kind, NULL },
	{ "process_id", "process", 3, true, rg_pid, NULL },
	{ "thread_id", "thread", 4, true, rg_tid, NULL },
	{ "time_base", NULL, 0, false, rg_tb, NULL },
	{ "duration_ns", NULL, 0, false, rg_ns, NULL },
	{ "duration_ticks", NULL, 0, false, rg_ticks, NULL },
	{ NULL, "duration", 1, true, NULL, rg_duration_text },
};

/* commands: a struct cmd_row, the ones with events (text only: the JSON has an object of every command) */
struct cmd_row {
	const char *name;
	uint64_t events;
};

static struct val cmd_name(struct rctx *c, const void *row) { ROW(struct cmd_row); return v_str(r->name); }
static struct val cmd_events(struct rctx *c, const void *row) { ROW(struct cmd_row); return v_int((int64_t)r->events); }

static const struct col command_cols[] = {
	{ NULL, "command", 1, false, cmd_name, NULL },
	{ NULL, "events", 2, true, cmd_events, NULL },
};

#define SECTION(key, cols) { key, cols, (int)(sizeof cols / sizeof cols[0]) }
static const struct section TIME_BASES = SECTION("time_bases", tb_cols);
static const struct section THREADS = SECTION("threads", thread_cols);
static const struct section CATEGORIES = SECTION("categories", category_cols);
static const struct section OPEN_RANGES = SECTION("open_ranges_first", open_cols);
static const struct section LONGEST = SECTION("longest_ranges", longest_cols);
static const struct section COMMANDS = SECTION(NULL, command_cols);

/* The rows of a section: n of them, size bytes each, from `first`. */
struct rows {
	const void *first;
	size_t n, size;
	void *owned;
};

static const void *row_at(const struct rows *r, size_t i)
{
	return (const char *)r->first + i * r->size;
}

/* --- the rows, from the facts ------------------------------------------------------ */

static struct rows time_base_rows(const struct nvtxt_info *info)
{
	struct tb_row *v = xcalloc(NVTXT_TB_COUNT, sizeof *v);
	size_t n = 0;

	for (int tb = 0; tb < NVTXT_TB_COUNT; tb++) {
		struct tb_row *r = &v[n];

		if (!info_tb_times(info, tb))
			continue;
		*r = (struct tb_row){ .tb = tb, .times = info_tb_times(info, tb), .first = INT64_MAX, .last = INT64_MIN };
		/* the time base's first and last are its threads' */
		for (size_t i = 0; i < info->nthreads; i++) {
			const struct thread *th = &info->threads[i];
			if (thread_saw(th, tb) && th->min[tb] < r->first)
				r->first = th->min[tb];
			if (thread_saw(th, tb) && th->max[tb] > r->last)
				r->last = th->max[tb];
		}
		r->ns = nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, r->first, &r->first_ns) == 0 &&
			nvtxt_tconv_apply(&info->tc, (enum nvtxt_timebase)tb, r->last, &r->last_ns) == 0;
		n++;
	}
	return (struct rows){ v, n, sizeof *v, v };
}

static int cmp_thread(const void *a, const void *b)
{
	const struct thread *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* A sorted copy of n elements of size bytes. */
static struct rows sorted(const void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	void *copy = xmalloc((n ? n : 1) * size);

	if (n) {
		memcpy(copy, v, n * size);
		qsort(copy, n, size, cmp);
	}
	return (struct rows){ copy, n, size, copy };
}

static struct rows command_rows(const struct nvtxt_info *info)
{
	struct cmd_row *v = xcalloc(NVTXT_CMD_COUNT, sizeof *v);
	size_t n = 0;

	for (int c = 0; c < NVTXT_CMD_COUNT; c++)
		if (info_by_command(info, c))
			v[n++] = (struct cmd_row){ nvtxt_command_name((enum nvtxt_command)c), info_by_command(info, c) };
	return (struct rows){ v, n, sizeof *v, v };
}

static struct rows section_rows(const struct nvtxt_info *info, const struct section *s)
{
	if (s == &TIME_BASES)
		return time_base_rows(info);
	if (s == &THREADS)
		return sorted(info->threads, info->nthreads, sizeof *info->threads, cmp_thread);
	if (s == &CATEGORIES)
		return sorted(info->cats, info->ncats, sizeof *info->cats, cmp_named);
	if (s == &OPEN_RANGES)
		return (struct rows){ info->open, info->nopen, sizeof *info->open, NULL };
	if (s == &LONGEST)
		return (struct rows){ info->top, info->ntop, sizeof *info->top, NULL };
	return command_rows(info);
}

/* --- JSON ------------------------------------------------------------------------- */

static json_t *must(json_t *j)
{
	if (!j)
		nvtxt_fail(ENOMEM); /* returns from nvtxt_compile, or the driver's guard (util.h) */
	return j;
}

static void put(json_t *obj, const char *key, json_t *v)
{
	if (json_object_set_new(obj, key, must(v)) != 0)
		nvtxt_fail(ENOMEM);
}

static void push(json_t *arr, json_t *v)
{
	if (json_array_append_new(arr, must(v)) != 0)
		nvtxt_fail(ENOMEM);
}

static json_t *str_or_null(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string("\xEF\xBF\xBD");
}

static json_t *val_json(struct val v)
{
	return v.kind == V_INT ? json_integer(v.i) : str_or_null(v.kind == V_STR ? v.s : NULL);
}

/* A section's rows as a JSON array of objects, its columns with a key in their order. */
static json_t *section_json(struct rctx *c, const struct section *s)
{
	struct rows rows = section_rows(c->info, s);
	json_t *arr = must(json_array());

	for (size_t i = 0; i < rows.n; i++) {
		json_t *o = must(json_object());
		for (int k = 0; k < s->ncols; k++) {
			struct val v;
			if (!s->cols[k].key)
				continue;
			v = s->cols[k].get(c, row_at(&rows, i));
			if (v.kind != V_ABSENT)
				put(o, s->cols[k].key, val_json(v));
		}
		push(arr, o);
	}
	free(rows.owned);
	return arr;
}

/* "files": each input's "file" and "display_name", one shape whatever their number */
static json_t *files_json(const struct nvtxt_info *info, const char *file)
{
	json_t *arr = must(json_array());

	for (size_t i = 0; i < (info->nfiles ? info->nfiles : 1); i++) {
		json_t *f = must(json_object());
		put(f, "file", str_or_null(info->nfiles ? info->files[i] : file));
		put(f, "display_name", str_or_null(info->nfiles ? info->displays[i] : NULL));
		push(arr, f);
	}
	return arr;
}

json_t *nvtxt_info_json(const struct nvtxt_info *info, const char *file)
{
	struct rctx c = { .info = info, .file = file };
	json_t *o = must(json_object()), *by = must(json_object());

	put(o, "files", files_json(info, file));
	put(o, "events", json_integer((json_int_t)info_total(info)));
	for (int k = 0; k < NVTXT_CMD_COUNT; k++)
		put(by, nvtxt_command_name((enum nvtxt_command)k), json_integer((json_int_t)info_by_command(info, k)));
	put(o, "events_by_command", by);
	put(o, "time_bases", section_json(&c, &TIME_BASES));
	put(o, "threads", section_json(&c, &THREADS));
	put(o, "categories", section_json(&c, &CATEGORIES));
	put(o, "open_ranges", json_integer((json_int_t)info->open_count));
	put(o, "open_ranges_first", section_json(&c, &OPEN_RANGES));
	put(o, "longest_ranges", section_json(&c, &LONGEST));
	put(o, "distinct_messages", json_integer((json_int_t)info->nmsgs));
	put(o, "events_without_message", json_integer((json_int_t)info->no_message));
	return o;
}

/* --- text ------------------------------------------------------------------------- */

/* Display width of a UTF-8 string: its code points (every one counted as one column). */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* A value as a text cell: strings bare, integers in decimal, null "-". */
static char *val_text(struct val v)
{
	char tmp[24];

	if (v.kind == V_STR) {
		const char *s = shown(v.s);
		return xstrndup(s, strlen(s));
	}
	if (v.kind != V_INT)
		return xstrndup("-", 1);
	snprintf(tmp, sizeof tmp, "%" PRId64, v.i);
	return xstrndup(tmp, strlen(tmp));
}

/* The text columns of s in their order: col[i] for i < return value (at most 16). */
static int text_cols(const struct section *s, const struct col **col)
{
	int n = 0;

	for (int k = 0; k < s->ncols; k++)
		if (s->cols[k].head)
			col[s->cols[k].place - 1] = &s->cols[k], n++;
	return n;
}

/* One line of the table: cells padded to the widths w, right-aligned where the column says. */
static void print_line(FILE *out, const struct col **col, int ncols, char *const *cells, const size_t *w)
{
	struct buf line = { 0 };

	buf_adds(&line, "    ");
	for (int k = 0; k < ncols; k++) {
		size_t pad = w[k] - width(cells[k]);
		if (k)
			buf_adds(&line, "  ");
		if (col[k]->right)
			for (size_t i = 0; i < pad; i++)
				buf_addc(&line, ' ');
		buf_adds(&line, cells[k]);
		if (!col[k]->right && k + 1 < ncols)
			for (size_t i = 0; i < pad; i++)
				buf_addc(&line, ' ');
	}
	while (line.len && line.ptr[line.len - 1] == ' ')
		line.ptr[--line.len] = '\0';
	fprintf(out, "%s\n", line.ptr);
	buf_free(&line);
}

/* A section as a table: its heading line, then a line per row, each column as wide as its widest cell. */
static void section_print(struct rctx *c, const struct section *s, FILE *out)
{
	const struct col *col[16];
	int ncols = text_cols(s, col);
	struct rows rows = section_rows(c->info, s);
	char **cells = xcalloc((rows.n + 1) * (size_t)ncols, sizeof *cells);
	size_t w[16] = { 0 };

	for (int k = 0; k < ncols; k++)
		cells[k] = xstrndup(col[k]->head, strlen(col[k]->head));
	for (size_t i = 0; i < rows.n; i++)
		for (int k = 0; k < ncols; k++) {
			const void *row = row_at(&rows, i);
			const char *t = col[k]->text ? col[k]->text(c, row) : NULL;
			cells[(i + 1) * (size_t)ncols + (size_t)k] = t ? xstrndup(t, strlen(t)) : val_text(col[k]->get(c, row));
		}
	for (size_t i = 0; i < (rows.n + 1) * (size_t)ncols; i++)
		if (width(cells[i]) > w[i % (size_t)ncols])
			w[i % (size_t)ncols] = width(cells[i]);
	for (size_t i = 0; i <= rows.n; i++)
		print_line(out, col, ncols, cells + i * (size_t)ncols, w);
	for (size_t i = 0; i < (rows.n + 1) * (size_t)ncols; i++)
		free(cells[i]);
	free(cells);
	free(rows.owned);
}

/* The first lines: the file and its display name, or the files and theirs. */
static void print_files(const struct nvtxt_info *info, const char *file, FILE *out)
{
	if (info->nfiles <= 1) {
		const char *name = info->nfiles && info->files[0] ? shown(info->files[0]) : file;
		fprintf(out, "%s\n", name);
		if (info->nfiles && info->displays[0])
			fprintf(out, "  display name: %s\n", shown(info->displays[0]));
		return;
	}
	fprintf(out, "%zu files, one report\n", info->nfiles);
	for (size_t i = 0; i < info->nfiles; i++) {
		fprintf(out, "  file: %s", info->files[i] ? shown(info->files[i]) : "(null)");
		if (info->displays[i])
			fprintf(out, " (display name: %s)", shown(info->displays[i]));
		fputc('\n', out);
	}
}

int nvtxt_info_print(const struct nvtxt_info *info, const char *file, FILE *out)
{
	struct rctx c = { .info = info, .file = file };

	errno = 0;
	print_files(info, file, out);
	fprintf(out, "  events: %" PRIu64 "\n", info_total(info));
	if (info_total(info)) /* the commands that have events */
		section_print(&c, &COMMANDS, out);
	fprintf(out, "\n  time bases:\n");
	section_print(&c, &TIME_BASES, out);
	fprintf(out, "\n  threads:\n");
	section_print(&c, &THREADS, out);
	fprintf(out, "\n  categories:\n");
	section_print(&c, &CATEGORIES, out);
	fprintf(out, "\n  open ranges: %" PRIu64 "\n", info->open_count);
	if (info->nopen)
		section_print(&c, &OPEN_RANGES, out);
	fprintf(out, "\n  longest ranges:\n");
	section_print(&c, &LONGEST, out);
	fprintf(out, "\n  distinct messages: %zu\n", info->nmsgs);
	if (ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
