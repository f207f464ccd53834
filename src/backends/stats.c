/*
 * stats.c - the computation of nvtxtc stats (stats.h; nvtxtc(1), STATS):
 * ranges collected event by event, grouped by (time unit, style, name),
 * their durations kept for the exact median (stats_median.c, in bounded
 * memory); at the end the sums, medians, means and standard deviations
 * (stats_median.c), sorted into one table per time unit.  The printers
 * are in stats_print.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "stats_data.h"
#include "stats_median.h"
#include "stats_sort.h"
#include "util.h"

/* An open push range of the trace. */
struct frame {
	uint64_t id, ordinal, child_dur;
	uint32_t nchild;
	uint8_t unit;
};

struct thread {
	int64_t pid, tid;
	struct frame *stack;
	size_t depth, cap;
};

/*
 * nvtx_pushpop_trace's rows are sorted in bounded memory (stats_sort.h):
 * a block of STATS_TRACE_BLOCK bytes, runs on disk merged
 * STATS_TRACE_FANIN at a time (nvtxtc(1), STATS, Memory).
 */
#define STATS_TRACE_BLOCK (4u << 20)
#define STATS_TRACE_FANIN 32

/*
 * One closed push/pop range of nvtx_pushpop_trace, as read back from the
 * sort.  Its bytes there (after the key: unit, start, duration, id) are
 * varints: DurChild, PID and TID (zigzag), level, NumChild, file, the
 * name's length and bytes, then the ids of its `level` enclosing ranges,
 * outermost first (the last is ParentId).
 */
struct trace_row {
	struct stats_sort_key key;
	uint64_t dur_child;
	int64_t pid, tid;
	uint32_t level, nchild, file;
	const char *name;
	size_t len;
};

struct nvtxt_stats {
	struct stats_report_view view; /* first: the printers' view is the collector */
	struct nvtxt_tconv tc;
	struct group *groups;
	size_t ngroups, groups_cap;
	uint32_t *slots; /* open addressing: group index + 1, 0 empty */
	size_t slots_cap;
	struct stats_durs *durs; /* the groups' durations (summaries) */

	struct thread *threads; /* of the current file (trace only) */
	size_t nthreads, threads_cap;
	struct idmap thread_index;
	struct stats_sort *sort; /* the trace's rows */
	unsigned char *enc;      /* one row's bytes being made */
	size_t enc_cap;
	uint64_t nids;           /* push ranges seen: the last range id */
	uint64_t unit_rows[1 + NVTXT_TB_COUNT];
	uint64_t next_row;       /* the row that stats_sort_next gives next (0: rewound) */
	bool read_failed;
	struct trace_row cur;    /* row next_row - 1 */

	char **files;
	size_t nfiles, files_cap;
	uint64_t open_file, open_total;
	unsigned tick_bases;
	char error[256];
	struct nvtxt_loc error_loc;

	struct group **order; /* summaries: the groups, table by table */
	uint64_t *chain;      /* stats_row's RangeStack */
	size_t chain_cap;
	struct stats_table tables[1 + NVTXT_TB_COUNT];
	struct buf text; /* stats_row's RangeStack and NameTree */
	struct buf text2;
};

static const char *const report_names[] = { "nvtx_sum", "nvtx_pushpop_sum", "nvtx_startend_sum",
					    "nvtx_pushpop_trace" };
static const char *const format_names[] = { "column", "table", "csv", "tsv", "json", "html" };
static const char *const unit_names[] = { "nsec", "usec", "msec", "sec" };

static int lookup(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

const char *stats_report_name(enum stats_report r)
{
	return (unsigned)r < STATS_REPORT_COUNT ? report_names[r] : NULL;
}

const char *stats_format_name(enum stats_format f)
{
	return (unsigned)f < STATS_FORMAT_COUNT ? format_names[f] : NULL;
}

const char *stats_unit_name(enum stats_unit u)
{
	return (unsigned)u < STATS_UNIT_COUNT ? unit_names[u] : NULL;
}

int stats_report_lookup(const char *name)
{
	return lookup(report_names, STATS_REPORT_COUNT, name);
}

int stats_format_lookup(const char *name)
{
	return lookup(format_names, STATS_FORMAT_COUNT, name);
}

int stats_unit_lookup(const char *name)
{
	return lookup(unit_names, STATS_UNIT_COUNT, name);
}

/* The columns of the reports: nsys's names (stats.h). */
static const struct stats_col sum_cols[] = {
	{ "Time", COL_PERCENT }, { "Total Time", COL_TIME }, { "Instances", COL_COUNT },
	{ "Avg", COL_TIME },     { "Med", COL_TIME },        { "Min", COL_TIME },
	{ "Max", COL_TIME },     { "StdDev", COL_TIME },     { "Style", COL_TEXT },
	{ "Range", COL_TEXT },
};
static const struct stats_col one_style_cols[] = {
	{ "Time", COL_PERCENT }, { "Total Time", COL_TIME }, { "Instances", COL_COUNT },
	{ "Avg", COL_TIME },     { "Med", COL_TIME },        { "Min", COL_TIME },
	{ "Max", COL_TIME },     { "StdDev", COL_TIME },     { "Range", COL_TEXT },
};
static const struct stats_col trace_cols[] = {
	{ "Start", COL_TIME },    { "End", COL_TIME },      { "Duration", COL_TIME },
	{ "DurChild", COL_TIME }, { "DurNonChild", COL_TIME }, { "Name", COL_TEXT },
	{ "PID", COL_ID },        { "TID", COL_ID },        { "Lvl", COL_ID },
	{ "NumChild", COL_COUNT }, { "RangeId", COL_ID },   { "ParentId", COL_ID },
	{ "RangeStack", COL_TEXT }, { "NameTree", COL_TEXT },
};

struct nvtxt_stats *nvtxt_stats_new(const struct nvtxt_tconv *tc, enum stats_report report)
{
	struct nvtxt_stats *st = xcalloc(1, sizeof *st);

	st->tc = *tc;
	st->view.report = report;
	if (report == STATS_SUM) {
		st->view.cols = sum_cols;
		st->view.ncols = (int)(sizeof sum_cols / sizeof sum_cols[0]);
	} else if (report == STATS_PUSHPOP_TRACE) {
		st->sort = stats_sort_new(STATS_TRACE_BLOCK, STATS_TRACE_FANIN);
		st->view.cols = trace_cols;
		st->view.ncols = (int)(sizeof trace_cols / sizeof trace_cols[0]);
	} else {
		st->view.cols = one_style_cols;
		st->view.ncols = (int)(sizeof one_style_cols / sizeof one_style_cols[0]);
	}
	if (report != STATS_PUSHPOP_TRACE)
		st->durs = stats_durs_new(STATS_DURS_BUDGET);
	return st;
}

void nvtxt_stats_set_memory(struct nvtxt_stats *st, size_t bytes)
{
	if (st->durs && !st->ngroups) {
		stats_durs_free(st->durs);
		st->durs = stats_durs_new(bytes);
	}
}

size_t nvtxt_stats_spills(const struct nvtxt_stats *st)
{
	return st->durs ? stats_durs_runs(st->durs) : 0;
}

static void free_threads(struct nvtxt_stats *st)
{
	for (size_t i = 0; i < st->nthreads; i++)
		free(st->threads[i].stack);
	st->nthreads = 0;
	idmap_free(&st->thread_index);
	memset(&st->thread_index, 0, sizeof st->thread_index);
}

void nvtxt_stats_free(struct nvtxt_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->ngroups; i++) {
		free(st->groups[i].name);
		free(st->groups[i].d);
	}
	free(st->groups);
	free(st->slots);
	stats_durs_free(st->durs);
	free_threads(st);
	free(st->threads);
	stats_sort_free(st->sort);
	free(st->enc);
	for (size_t i = 0; i < st->nfiles; i++)
		free(st->files[i]);
	free(st->files);
	free(st->order);
	free(st->chain);
	buf_free(&st->text);
	buf_free(&st->text2);
	free(st);
}

/* --- collecting ------------------------------------------------------------ */

static bool group_is(const struct group *g, uint64_t h, uint8_t style, uint8_t unit, const char *p, size_t len)
{
	return g->hash == h && g->style == style && g->unit == unit && g->len == len &&
	       (len == 0 || memcmp(g->name, p, len) == 0);
}

static void rehash(struct nvtxt_stats *st)
{
	size_t cap = st->slots_cap ? 2 * st->slots_cap : 64;

	free(st->slots);
	st->slots = xcalloc(cap, sizeof *st->slots);
	st->slots_cap = cap;
	for (size_t g = 0; g < st->ngroups; g++) {
		size_t i = st->groups[g].hash & (cap - 1);
		while (st->slots[i])
			i = (i + 1) & (cap - 1);
		st->slots[i] = (uint32_t)g + 1;
	}
}

/* The group of (unit, style, the event's Message), added when new; its index. */
static uint32_t group_of(struct nvtxt_stats *st, const struct nvtxt_event *ev, uint8_t style, uint8_t unit)
{
	bool has = (ev->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) && ev->message.ptr;
	const char *p = has ? ev->message.ptr : "";
	size_t len = has ? ev->message.len : 0;
	uint64_t h = hash_bytes(p, len) ^ ((uint64_t)style << 56) ^ ((uint64_t)unit << 48);
	size_t i;

	if (2 * (st->ngroups + 1) > st->slots_cap)
		rehash(st);
	for (i = h & (st->slots_cap - 1); st->slots[i]; i = (i + 1) & (st->slots_cap - 1))
		if (group_is(&st->groups[st->slots[i] - 1], h, style, unit, p, len))
			return st->slots[i] - 1;
	xgrow((void **)&st->groups, &st->groups_cap, st->ngroups + 1, sizeof *st->groups);
	st->groups[st->ngroups] = (struct group){ .hash = h, .name = xstrndup(p, len), .len = len,
						  .style = style, .unit = unit };
	st->slots[i] = (uint32_t)st->ngroups + 1;
	return (uint32_t)st->ngroups++;
}

/* Appends d to the durations of group gi (an index: group_of may move the groups). */
static void add_duration(struct nvtxt_stats *st, uint32_t gi, uint64_t d)
{
	struct group *g = &st->groups[gi];

	if (g->n == g->cap || (!g->wide && d > UINT32_MAX))
		stats_durs_room(st->durs, st->groups, st->ngroups, g, d); /* may spill every group */
	if (g->wide)
		((uint64_t *)g->d)[g->n++] = d;
	else
		((uint32_t *)g->d)[g->n++] = (uint32_t)d;
}

/*
 * The times a and b of time base tb: in nanoseconds (*unit UNIT_NS) where
 * tb converts, else ticks (*unit 1 + tb).  Returns NVTXT_OK, or
 * NVTXT_ERR_TIME_RANGE with the message in st->error.
 */
static int convert(struct nvtxt_stats *st, const struct nvtxt_event *ev, int64_t *a, int64_t *b, uint8_t *unit)
{
	enum nvtxt_timebase tb = ev->timebase;
	int64_t bad;
	int status;

	*unit = UNIT_NS;
	if (st->tc.rule[tb].kind == NVTXT_TCONV_IDENTITY)
		return 0;
	if (st->tc.rule[tb].kind == NVTXT_TCONV_NONE) {
		*unit = (uint8_t)(1 + tb);
		st->tick_bases |= 1u << tb;
		return 0;
	}
	bad = *a;
	status = nvtxt_tconv_apply(&st->tc, tb, *a, a);
	if (status == NVTXT_OK) {
		bad = *b;
		status = nvtxt_tconv_apply(&st->tc, tb, *b, b);
		if (status == NVTXT_OK)
			return NVTXT_OK;
	}
	if (!st->error[0]) {
		nvtxt_tconv_error(&st->tc, tb, bad, status, st->error, sizeof st->error);
		st->error_loc = ev->loc;
	}
	return status;
}

static struct thread *thread_of(struct nvtxt_stats *st, const struct nvtxt_event *ev)
{
	int inserted;
	uint32_t *slot = idmap_put(&st->thread_index, (uint64_t)ev->process_id, (uint64_t)ev->thread_id,
				   (uint32_t)st->nthreads, &inserted);

	if (inserted) {
		xgrow((void **)&st->threads, &st->threads_cap, st->nthreads + 1, sizeof *st->threads);
		st->threads[st->nthreads++] = (struct thread){ .pid = ev->process_id, .tid = ev->thread_id };
	}
	return &st->threads[*slot];
}

static void trace_push(struct nvtxt_stats *st, const struct nvtxt_event *ev)
{
	struct thread *t = thread_of(st, ev);

	xgrow((void **)&t->stack, &t->cap, t->depth + 1, sizeof *t->stack);
	t->stack[t->depth++] = (struct frame){
		.id = ++st->nids, .ordinal = ev->ordinal,
		.unit = st->tc.rule[ev->timebase].kind == NVTXT_TCONV_NONE ? (uint8_t)(1 + ev->timebase) : UNIT_NS,
	};
}

/* Appends v to the row being made at *n (room for it made here). */
static void enc_uv(struct nvtxt_stats *st, size_t *n, uint64_t v)
{
	xgrow((void **)&st->enc, &st->enc_cap, *n + 10, 1);
	*n += stats_sort_put_uv(st->enc + *n, v);
}

/* The bytes of the row of frame f, closed by ev at level `level` (its ancestors below it on t's stack). */
static size_t encode_row(struct nvtxt_stats *st, const struct thread *t, const struct frame *f, size_t level,
			 const struct nvtxt_event *ev)
{
	const struct nvtxt_event *push = ev->push;
	bool has = (push->present & NVTXT_BIT(NVTXT_ARG_MESSAGE)) && push->message.ptr;
	size_t n = 0, len = has ? push->message.len : 0;

	enc_uv(st, &n, f->child_dur);
	enc_uv(st, &n, stats_sort_zz(ev->process_id));
	enc_uv(st, &n, stats_sort_zz(ev->thread_id));
	enc_uv(st, &n, level);
	enc_uv(st, &n, f->nchild);
	enc_uv(st, &n, st->nfiles - 1);
	enc_uv(st, &n, len);
	xgrow((void **)&st->enc, &st->enc_cap, n + len, 1);
	if (len)
		memcpy(st->enc + n, push->message.ptr, len);
	n += len;
	for (size_t i = 0; i < level; i++)
		enc_uv(st, &n, t->stack[i].id);
	return n;
}

/*
 * The RangePop ev closes the frame of its push: a row of the trace, into
 * the sort.  A sort that fails (its temporary file) keeps its error for
 * nvtxt_stats_sort_error and takes no more rows; the file is still read.
 */
static int trace_pop(struct nvtxt_stats *st, const struct nvtxt_event *ev, int64_t a, int64_t b, uint8_t unit)
{
	struct thread *t = thread_of(st, ev);
	size_t k = t->depth, n;
	struct frame f;
	struct stats_sort_key key;

	while (k > 0 && t->stack[k - 1].ordinal != ev->push->ordinal)
		k--;
	if (k == 0) /* not on the stack (cannot happen: the front end pairs them alike) */
		return 0;
	f = t->stack[k - 1];
	t->depth = k - 1;
	if (t->depth) {
		struct frame *p = &t->stack[t->depth - 1];
		p->nchild++;
		if (p->unit == unit) /* DurChild adds the children of the parent's own time unit */
			p->child_dur += (uint64_t)b - (uint64_t)a;
	}
	if (stats_sort_error(st->sort))
		return 0;
	n = encode_row(st, t, &f, k - 1, ev);
	key = (struct stats_sort_key){ .unit = unit, .start = a, .dur = (uint64_t)b - (uint64_t)a, .id = f.id };
	if (stats_sort_add(st->sort, &key, st->enc, n) == 0)
		st->unit_rows[unit]++;
	return 0;
}

static int stats_event(void *user, const struct nvtxt_event *ev)
{
	struct nvtxt_stats *st = user;
	enum stats_report rep = st->view.report;
	int64_t a, b;
	uint8_t unit;
	int status;

	switch (ev->command) {
	case NVTXT_CMD_RANGE_START_END:
		if (rep != STATS_SUM && rep != STATS_STARTEND_SUM)
			return 0;
		a = ev->start;
		b = ev->end;
		if ((status = convert(st, ev, &a, &b, &unit)) != NVTXT_OK)
			return status;
		add_duration(st, group_of(st, ev, STYLE_STARTEND, unit), (uint64_t)b - (uint64_t)a);
		return 0;
	case NVTXT_CMD_RANGE_PUSH:
		if (rep == STATS_PUSHPOP_TRACE)
			trace_push(st, ev);
		return 0;
	case NVTXT_CMD_RANGE_POP:
		if (rep == STATS_STARTEND_SUM || !ev->push)
			return 0;
		a = ev->push->time;
		b = ev->time;
		if ((status = convert(st, ev, &a, &b, &unit)) != NVTXT_OK)
			return status;
		if (rep == STATS_PUSHPOP_TRACE)
			return trace_pop(st, ev, a, b, unit);
		add_duration(st, group_of(st, ev->push, STYLE_PUSHPOP, unit), (uint64_t)b - (uint64_t)a);
		return 0;
	default:
		return 0;
	}
}

static int stats_unclosed(void *user, const struct nvtxt_event *push)
{
	struct nvtxt_stats *st = user;

	(void)push;
	st->open_file++;
	st->open_total++;
	return 0;
}

struct nvtxt_backend nvtxt_stats_file(struct nvtxt_stats *st, const char *name)
{
	free_threads(st);
	xgrow((void **)&st->files, &st->files_cap, st->nfiles + 1, sizeof *st->files);
	st->files[st->nfiles++] = xstrndup(name, strlen(name));
	st->open_file = 0;
	st->error[0] = '\0';
	return (struct nvtxt_backend){ .user = st, .event = stats_event, .unclosed_push = stats_unclosed };
}

const char *nvtxt_stats_error(struct nvtxt_stats *st, struct nvtxt_loc *loc)
{
	if (!st->error[0])
		return NULL;
	*loc = st->error_loc;
	return st->error;
}

uint64_t nvtxt_stats_open_in_file(const struct nvtxt_stats *st)
{
	return st->open_file;
}

uint64_t nvtxt_stats_open_total(const struct nvtxt_stats *st)
{
	return st->open_total;
}

unsigned nvtxt_stats_tick_bases(const struct nvtxt_stats *st)
{
	return st->tick_bases;
}

const char *nvtxt_stats_sort_error(const struct nvtxt_stats *st)
{
	const char *e = st->sort ? stats_sort_error(st->sort) : stats_durs_error(st->durs);

	if (!e && st->read_failed)
		e = "the rows of nvtx_pushpop_trace read back from their temporary file are not those written";
	return e;
}

/* --- the report ---------------------------------------------------------- */

static struct nvtxt_stats *collector(const struct stats_report_view *v)
{
	return (struct nvtxt_stats *)v; /* the view is the collector's first member */
}

const char *stats_view_error(const struct stats_report_view *v)
{
	return nvtxt_stats_sort_error(collector(v));
}

/* Total time, largest first; then the name (bytes), then PushPop before StartEnd. */
static int cmp_group(const void *a, const void *b)
{
	const struct group *x = *(struct group *const *)a, *y = *(struct group *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c;

	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	c = n ? memcmp(x->name, y->name, n) : 0;
	if (c || x->len != y->len)
		return c ? c : (x->len < y->len ? -1 : 1);
	return (x->style > y->style) - (x->style < y->style);
}

/* A new table of `unit` (rows counted by the caller). */
static struct stats_table *table_for(struct nvtxt_stats *st, uint8_t unit, void *first)
{
	struct stats_table *t = &st->tables[st->view.ntables++];

	*t = (struct stats_table){ .ticks = unit != UNIT_NS, .tb = unit ? (enum nvtxt_timebase)(unit - 1) : 0,
				   .priv = first };
	return t;
}

/*
 * The trace's rows sorted (nsys: ORDER BY start, duration; then the
 * range's number), one table per time unit, nanoseconds first: each
 * table's priv is the number of rows before it.
 */
static void finish_trace(struct nvtxt_stats *st)
{
	uint64_t first = 0;

	if (stats_sort_finish(st->sort) != 0)
		st->read_failed = true;
	st->next_row = 0;
	for (int unit = 0; unit <= NVTXT_TB_COUNT; unit++) {
		struct stats_table *t;
		if (!st->unit_rows[unit] || st->read_failed)
			continue;
		t = table_for(st, (uint8_t)unit, (void *)(uintptr_t)first);
		t->nrows = st->unit_rows[unit];
		first += st->unit_rows[unit];
	}
}

static void finish_sums(struct nvtxt_stats *st)
{
	enum stats_report rep = st->view.report;
	const bool want[2] = { [STYLE_PUSHPOP] = rep != STATS_STARTEND_SUM, [STYLE_STARTEND] = rep != STATS_PUSHPOP_SUM };
	struct stats_table *t = NULL;
	size_t n = 0;
	int unit = -1;

	stats_durs_finish(st->durs, st->groups, st->ngroups, want); /* a failure: nvtxt_stats_sort_error */
	st->order = xmalloc((st->ngroups ? st->ngroups : 1) * sizeof *st->order);
	for (size_t g = 0; g < st->ngroups; g++)
		if (want[st->groups[g].style])
			st->order[n++] = &st->groups[g];
	qsort(st->order, n, sizeof *st->order, cmp_group);
	for (size_t i = 0; i < n; i++) {
		struct group *g = st->order[i];
		if (g->unit != unit) {
			unit = g->unit;
			t = table_for(st, (uint8_t)unit, &st->order[i]);
		}
		t->nrows++;
	}
	/* Time (%): the share of the table's sum of total times */
	for (size_t k = 0; k < st->view.ntables; k++) {
		struct group **row = st->tables[k].priv;
		u128 all = 0;
		for (size_t i = 0; i < st->tables[k].nrows; i++)
			all += row[i]->total;
		for (size_t i = 0; i < st->tables[k].nrows; i++)
			row[i]->pct10 = div_round(row[i]->total * 1000, all);
	}
}

const struct stats_report_view *nvtxt_stats_finish(struct nvtxt_stats *st)
{
	st->view.ntables = 0;
	if (st->view.report == STATS_PUSHPOP_TRACE)
		finish_trace(st);
	else
		finish_sums(st);
	if (st->view.ntables == 0) /* no range: an empty table of nanoseconds */
		table_for(st, UNIT_NS, NULL);
	st->view.tables = st->tables;
	st->view.files = (const char *const *)st->files;
	st->view.nfiles = st->nfiles;
	st->view.open_ranges = st->open_total;
	return &st->view;
}

/* --- rows ------------------------------------------------------------------- */

static struct stats_num num_u(u128 v, uint8_t decimals)
{
	return (struct stats_num){ .mag = v, .decimals = decimals };
}

static struct stats_num num_i(int64_t v)
{
	return (struct stats_num){ .mag = v < 0 ? -(u128)v : (u128)v, .neg = v < 0 };
}

static void text_cell(struct stats_cell *c, const char *p, size_t len)
{
	c->text = p;
	c->len = len;
}

static void sum_row(const struct nvtxt_stats *st, const struct group *g, struct stats_cell *c)
{
	int i = 0;

	c[i++].num = num_u(g->pct10, 1);
	c[i++].num = num_u(g->total, 0);
	c[i++].num = num_u(g->count, 0);
	c[i++].num = num_u(g->avg10, 1);
	c[i++].num = num_u(g->med10, 1);
	c[i++].num = num_u(g->min, 0);
	c[i++].num = num_u(g->max, 0);
	c[i++].num = num_u(g->std10, 1);
	if (st->view.report == STATS_SUM) {
		const char *s = g->style == STYLE_PUSHPOP ? "PushPop" : "StartEnd";
		text_cell(&c[i++], s, strlen(s));
	}
	text_cell(&c[i], g->name, g->len);
}

/* Row bytes b (len) decoded into st->cur, its ancestors into st->chain; -1 when malformed. */
static int decode_row(struct nvtxt_stats *st, const unsigned char *b, size_t len)
{
	const unsigned char *p = b, *end = b + len;
	uint64_t v[7];
	struct trace_row *r = &st->cur;

	for (int i = 0; i < 7; i++)
		if (stats_sort_get_uv(&p, end, &v[i]) != 0)
			return -1;
	if (v[3] > UINT32_MAX || v[4] > UINT32_MAX || v[5] > UINT32_MAX || v[6] > (uint64_t)(end - p))
		return -1;
	r->dur_child = v[0];
	r->pid = stats_sort_unzz(v[1]);
	r->tid = stats_sort_unzz(v[2]);
	r->level = (uint32_t)v[3];
	r->nchild = (uint32_t)v[4];
	r->file = (uint32_t)v[5];
	r->name = (const char *)p;
	r->len = (size_t)v[6];
	p += r->len;
	xgrow((void **)&st->chain, &st->chain_cap, r->level + 1, sizeof *st->chain);
	for (uint32_t i = 0; i < r->level; i++)
		if (stats_sort_get_uv(&p, end, &st->chain[i]) != 0)
			return -1;
	return p == end ? 0 : -1;
}

/*
 * Row `row` of table t of the trace, read from the sort: the next one is
 * read on, an earlier one rewinds (the printers read each table in order,
 * some twice).  After a read error (nvtxt_stats_print then fails) an
 * empty row.
 */
static const struct trace_row *trace_at(struct nvtxt_stats *st, const struct stats_table *t, size_t row)
{
	uint64_t want = (uint64_t)(uintptr_t)t->priv + row;
	const unsigned char *b;
	size_t len;

	if (st->read_failed)
		goto failed;
	if (st->next_row > want + 1) {
		if (stats_sort_rewind(st->sort) != 0)
			goto failed;
		st->next_row = 0;
	}
	while (st->next_row <= want) {
		if (stats_sort_next(st->sort, &st->cur.key, &b, &len) != 1 || decode_row(st, b, len) != 0)
			goto failed;
		st->next_row++;
	}
	return &st->cur;
failed:
	st->read_failed = true;
	memset(&st->cur, 0, sizeof st->cur);
	st->cur.name = "";
	return &st->cur;
}

/* ":1:4:9": the ids of the range's stack, outermost first. */
static void range_stack(struct nvtxt_stats *st, const struct trace_row *r)
{
	buf_reset(&st->text);
	for (uint32_t i = 0; i < r->level && !st->read_failed; i++)
		buf_printf(&st->text, ":%" PRIu64, st->chain[i]);
	buf_printf(&st->text, ":%" PRIu64, r->key.id);
}

static void trace_row(struct nvtxt_stats *st, const struct trace_row *r, struct stats_cell *c)
{
	u128 dur = r->key.dur;
	uint64_t parent = r->level && !st->read_failed ? st->chain[r->level - 1] : 0;

	c[0].num = num_i(r->key.start);
	c[1].num = num_i((int64_t)((uint64_t)r->key.start + r->key.dur));
	c[2].num = num_u(dur, 0);
	c[3].num = num_u(r->dur_child, 0);
	c[4].num = num_u(dur >= r->dur_child ? dur - r->dur_child : 0, 0);
	text_cell(&c[5], r->name, r->len);
	c[6].num = num_i(r->pid);
	c[7].num = num_i(r->tid);
	c[8].num = num_u(r->level, 0);
	c[9].num = num_u(r->nchild, 0);
	c[10].num = num_u(r->key.id, 0);
	c[11].num = num_u(parent, 0);
	c[11].empty = parent == 0;
	range_stack(st, r);
	text_cell(&c[12], st->text.ptr, st->text.len);
	buf_reset(&st->text2);
	for (uint32_t i = 0; i < r->level; i++)
		buf_adds(&st->text2, "--");
	buf_add(&st->text2, r->name, r->len);
	text_cell(&c[13], st->text2.ptr ? st->text2.ptr : "", st->text2.len);
}

void stats_row(const struct stats_report_view *v, const struct stats_table *t, size_t row, struct stats_cell *cells)
{
	struct nvtxt_stats *st = collector(v);

	memset(cells, 0, (size_t)v->ncols * sizeof *cells);
	if (v->report == STATS_PUSHPOP_TRACE)
		trace_row(st, trace_at(st, t, row), cells);
	else
		sum_row(st, ((struct group *const *)t->priv)[row], cells);
}

void stats_bar(const struct stats_report_view *v, const struct stats_table *t, size_t row, struct stats_bar *bar)
{
	struct nvtxt_stats *st = collector(v);

	memset(bar, 0, sizeof *bar);
	if (v->report == STATS_PUSHPOP_TRACE) {
		const struct trace_row *r = trace_at(st, t, row);
		bar->name = r->name;
		bar->len = r->len;
		bar->start = r->key.start;
		bar->end = (int64_t)((uint64_t)r->key.start + r->key.dur);
		bar->level = r->level;
		bar->pid = r->pid;
		bar->tid = r->tid;
		bar->file = r->file;
	} else {
		const struct group *g = ((struct group *const *)t->priv)[row];
		bar->name = g->name;
		bar->len = g->len;
		bar->style = g->style == STYLE_PUSHPOP ? "PushPop" : "StartEnd";
		bar->total = g->total;
	}
}
