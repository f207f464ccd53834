/*
 * lsp_check.c - the diagnostics of a document, checked again after an
 * edit from the line before it instead of from the top.
 *
 * A check keeps the diagnostics the passes reported, in the order found,
 * and checkpoints: every CKPT_LINES lines or more, the passes' state
 * before that line (sema_snap.h) and how many diagnostics came before it.
 * After edits (lsp_doc.edited: the text's first and last bytes that did not
 * change), the check starts again from the last checkpoint before the
 * first edited line (compile_resume.h), keeps the diagnostics found before
 * it, and at each old checkpoint past the last edited line compares the
 * state with the one saved there, moved by the edit (snap_map: lines and
 * bytes).  Where they are equal, what follows would be reported as before,
 * moved: it stops, and keeps the old diagnostics and checkpoints from
 * there on, moved.  Otherwise it goes on to the end of the text.  The
 * result is the diagnostics of a check from the top (tests/unit/lsp_incr.c
 * compares the two after random edits).
 *
 * The passes run with max_errors 0 (the state then holds no counts) and
 * the cap of the settings is applied here, to the list, as the engine
 * would: the first max_errors errors and warnings are shown.
 *
 * Memory: the diagnostics, and the checkpoints' states, at most half the
 * text plus 256 KiB: the distance between checkpoints grows with the
 * states' size so that those of the whole text fit (bench/gen's traces:
 * about 4 KiB a state, every 256 lines).
 */
#include <stdlib.h>
#include <string.h>

#include "compile_resume.h"
#include "lsp_int.h"

/* Lines between two checkpoints, at least (more when the states are large). */
enum { CKPT_LINES = 256 };

/*
 * The most diagnostics kept: a document with more (a file of errors) is
 * checked from the top each time, with the cap, keeping none, until it has
 * fewer than half as many.
 */
enum { KEEP_MAX = 20000 };

struct ckpt {
	uint64_t off;               /* the first byte of line `line` */
	uint32_t line;
	size_t ndiags;              /* diagnostics found before it */
	struct sema_snap *snap;     /* the passes' state before it; NULL: the start of the text */
};

struct lsp_incr {
	struct nvtxt_diag *diags;   /* as found; texts malloc'd, file NULL */
	size_t ndiags, diags_cap;
	struct ckpt *ck;            /* by offset; ck[0] is the start */
	size_t nck, ck_cap;
	size_t text_len;            /* of the text checked */
	struct nvtxt_diag_config cfg;  /* the settings it was checked under */
	size_t snap_bytes;          /* of the checkpoints' states */
	uint32_t interval;          /* lines between checkpoints */
};

/* --- Diagnostic objects ---------------------------------------------------- */

struct check_run {
	struct lsp_server *s;
	struct lsp_doc *d;
	json_t *diags;
};

/* The byte offsets in the document of a location's token. */
static void loc_offsets(const struct lsp_doc *d, const struct nvtxt_loc *loc, size_t *a, size_t *b)
{
	uint64_t start = loc->line_offset + (loc->col ? loc->col - 1 : 0);

	if (start > d->len)
		start = d->len;
	*a = (size_t)start;
	*b = start + loc->len > d->len ? d->len : (size_t)(start + loc->len);
}

/* The name of the check that found it (checks.def), the diagnostic's code. */
static const char *diag_code(const struct nvtxt_diag *dg)
{
	const struct nvtxt_check *c = nvtxt_check_get(dg->check);
	return c ? c->name : NULL;
}

/* The Diagnostic (LSP 3.17) of dg, appended to run->diags; its fix-it kept in d->fixes. */
static void add_json(struct check_run *run, const struct nvtxt_diag *dg)
{
	struct lsp_server *s = run->s;
	struct lsp_doc *d = run->d;
	const char *code = diag_code(dg);
	struct buf msg = { 0 };
	json_t *j, *related = json_array();
	size_t a, b;

	buf_adds(&msg, dg->message);
	loc_offsets(d, &dg->loc, &a, &b);
	for (size_t i = 0; i < dg->nnotes; i++) {
		size_t na, nb;
		if (dg->notes[i].loc.line == 0) {
			/* a note about no place in the file goes with the message */
			buf_printf(&msg, "\nnote: %s", dg->notes[i].message);
			continue;
		}
		loc_offsets(d, &dg->notes[i].loc, &na, &nb);
		json_array_append_new(related,
				      json_pack("{s:{s:s,s:o},s:o}", "location", "uri", d->uri, "range",
						lsp_jrange(s, d, na, nb), "message",
						lsp_jstr(dg->notes[i].message, strlen(dg->notes[i].message))));
	}
	j = json_pack("{s:o,s:i,s:s,s:o}", "range", lsp_jrange(s, d, a, b), "severity",
		      dg->severity == NVTXT_SEV_ERROR ? 1 : dg->severity == NVTXT_SEV_WARNING ? 2 : 3,
		      "source", "nvtxtc", "message", lsp_jstr(msg.ptr, msg.len));
	buf_free(&msg);
	if (code) {
		struct buf href = { 0 };
		buf_printf(&href, "man:nvtxtc(1)#%s", code);
		json_object_set_new(j, "code", json_string(code));
		json_object_set_new(j, "codeDescription", json_pack("{s:s}", "href", href.ptr));
		buf_free(&href);
	}
	if (json_array_size(related))
		json_object_set_new(j, "relatedInformation", related);
	else
		json_decref(related);
	if (dg->fixit) {
		void *p = d->fixes;
		struct lsp_fix *f;
		xgrow(&p, &d->fixes_cap, d->nfixes + 1, sizeof(*d->fixes));
		d->fixes = p;
		f = &d->fixes[d->nfixes++];
		f->start = a;
		f->end = b;
		f->text = xstrndup(dg->fixit, strlen(dg->fixit));
		f->message = xstrndup(dg->message, strlen(dg->message));
		f->code = code ? xstrndup(code, strlen(code)) : NULL;
		f->fixable = nvtxt_check_get(dg->check) && nvtxt_check_get(dg->check)->fixable;
		f->severity = dg->severity == NVTXT_SEV_ERROR ? 1 : 2;
		f->diag_index = json_array_size(run->diags);
		json_object_set_new(j, "data", json_pack("{s:i}", "fix", (int)(d->nfixes - 1)));
	}
	json_array_append_new(run->diags, j);
}


/* --- the kept diagnostics ---------------------------------------------------- */

static char *dup_str(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

static void free_diag(struct nvtxt_diag *dg)
{
	for (size_t i = 0; i < dg->nnotes; i++)
		free(dg->notes[i].message);
	free(dg->notes);
	free(dg->message);
	free(dg->fixit);
}

/*
 * Moves dg's places by m; false when one was on an edited line, or when
 * its message names a line number that lines inserted or deleted would
 * change: the unused suppression of "the next instruction (line N)"
 * (suppress.c) and a static Color's " at line N, column" (sema_check.c).
 */
static bool move_diag(struct nvtxt_diag *dg, const struct snap_map *m)
{
	bool ok = true;

	if (m->dline && (strstr(dg->message, "instruction (line ") || strstr(dg->message, " at line ")))
		return false;

	for (size_t i = 0; i <= dg->nnotes; i++) {
		struct nvtxt_loc *loc = i < dg->nnotes ? &dg->notes[i].loc : &dg->loc;
		struct snap_place p = { loc->line_offset, loc->line };
		if (loc->line == 0)
			continue;
		ok &= snap_map_place(m, &p);
		loc->line_offset = p.off;
		loc->line = p.line;
	}
	return ok;
}

static void free_ckpts(struct ckpt *ck, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sema_snap_free(ck[i].snap);
}

void lsp_incr_free(struct lsp_incr *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->ndiags; i++)
		free_diag(&in->diags[i]);
	free(in->diags);
	free_ckpts(in->ck, in->nck);
	free(in->ck);
	free(in);
}

/* --- one run of the passes ----------------------------------------------------- */

/* A check from checkpoint `from` of the last one (or from the top), and what it found. */
struct rerun {
	struct lsp_incr *in;
	bool edit;                  /* map and new_end hold: compare with the old checkpoints */
	struct snap_map map;
	uint64_t new_end;           /* the first byte after the edited lines, in the new text */
	size_t from;                /* the checkpoint it starts from */
	size_t next_old;            /* the next old checkpoint it may meet */
	size_t met;                 /* the old checkpoint whose state it met; SIZE_MAX: none */
	struct ckpt *ck;            /* its own checkpoints */
	size_t nck, ck_cap;
	struct nvtxt_diag *diags;   /* its own diagnostics */
	size_t ndiags, diags_cap;
	size_t budget, bytes;
	uint32_t interval;
	size_t lines;               /* of the text */
	bool many;                  /* it stopped: more than KEEP_MAX diagnostics */
};

static void collect(void *user, const struct nvtxt_diag *dg, const struct nvtxt_source *src)
{
	struct rerun *r = user;
	struct nvtxt_diag *k;
	void *p = r->diags;

	(void)src;
	xgrow(&p, &r->diags_cap, r->ndiags + 1, sizeof(*r->diags));
	r->diags = p;
	k = &r->diags[r->ndiags++];
	memset(k, 0, sizeof(*k));
	k->severity = dg->severity;
	k->check = dg->check;
	k->promoted = dg->promoted;
	k->loc = dg->loc;
	k->message = dup_str(dg->message);
	k->fixit = dup_str(dg->fixit);
	if (dg->nnotes)
		k->notes = xcalloc(dg->nnotes, sizeof(*k->notes));
	for (; k->nnotes < dg->nnotes; k->nnotes++) {
		k->notes[k->nnotes].loc = dg->notes[k->nnotes].loc;
		k->notes[k->nnotes].message = dup_str(dg->notes[k->nnotes].message);
	}
}

static void add_ckpt(struct rerun *r, uint64_t off, uint32_t line, struct sema_snap *sn)
{
	void *p = r->ck;

	xgrow(&p, &r->ck_cap, r->nck + 1, sizeof(*r->ck));
	r->ck = p;
	r->ck[r->nck++] = (struct ckpt){ off, line, r->in->ck[r->from].ndiags + r->ndiags, sn };
	r->bytes += sema_snap_size(sn);
}

/* The old checkpoint j's line in the new text (j past the edit). */
static uint32_t old_line(const struct rerun *r, size_t j)
{
	return (uint32_t)((int64_t)r->in->ck[j].line + r->map.dline);
}

/* The next line to stop at after `line`: an old checkpoint when one is near, else a new one. */
static uint32_t next_stop(struct rerun *r, uint32_t line)
{
	uint32_t next = line + r->interval;

	while (r->edit && r->next_old < r->in->nck && old_line(r, r->next_old) <= line)
		r->next_old++;
	if (r->edit && r->next_old < r->in->nck && old_line(r, r->next_old) <= line + 2 * r->interval)
		next = old_line(r, r->next_old);
	return next;
}

/* compile_resume.at_line: saves the state, and stops where it is the old one, moved. */
static uint32_t at_line(void *user, uint32_t line, uint64_t off, const struct sema *s, const struct nvtxt_diags *dg)
{
	struct rerun *r = user;
	struct sema_snap *sn;
	size_t j;

	if (r->in->ck[r->from].ndiags + r->ndiags > KEEP_MAX) {
		r->many = true;
		return 0;
	}
	sn = sema_snap_save(s, &dg->supp);

	while (r->edit && r->next_old < r->in->nck && old_line(r, r->next_old) < line)
		r->next_old++;
	j = r->next_old;
	if (r->edit && off >= r->new_end && j < r->in->nck && old_line(r, j) == line &&
	    r->in->ck[j].off + (uint64_t)r->map.doff == off && sema_snap_equal(sn, r->in->ck[j].snap, &r->map)) {
		add_ckpt(r, off, line, sn);
		r->met = j;
		return 0;
	}
	{
		/* as far apart as states of this size need to fill half the budget over the whole text */
		uint64_t apart = (uint64_t)sema_snap_size(sn) * r->lines / (r->budget / 2) + 1;
		if (apart > r->interval)
			r->interval = apart > UINT32_MAX / 4 ? UINT32_MAX / 4 : (uint32_t)apart;
	}
	if (r->bytes + sema_snap_size(sn) > r->budget)
		sema_snap_free(sn);
	else
		add_ckpt(r, off, line, sn);
	return next_stop(r, line);
}

/* The map of the edits since the last check (lsp_doc.edited), and where to start again. */
static void edit_map(const struct lsp_doc *d, struct rerun *r)
{
	const struct lsp_incr *in = r->in;
	const char *t = d->text;
	size_t b_new = d->len - d->edit_suf, first = d->edit_pre, end;
	const struct ckpt *c;
	const char *nl;

	while (first > 0 && t[first - 1] != '\n')
		first--;
	/* the old line after the edit starts where the unchanged end does, if a line starts there in both */
	if (d->edit_tail_nl && (b_new == 0 || t[b_new - 1] == '\n'))
		end = b_new;
	else
		end = (nl = memchr(t + b_new, '\n', d->len - b_new)) != NULL ? (size_t)(nl + 1 - t) : SIZE_MAX;
	r->from = 0;
	while (r->from + 1 < in->nck && in->ck[r->from + 1].off <= first)
		r->from++;
	c = &in->ck[r->from];
	r->map.doff = (int64_t)d->len - (int64_t)in->text_len;
	r->map.dline = d->edit_nl;
	r->map.first_off = first;
	r->map.first_line = c->line + (uint32_t)lsp_count_lf(t + c->off, first - c->off);
	r->new_end = end == SIZE_MAX ? UINT64_MAX : end;
	r->map.end_off = end == SIZE_MAX ? UINT64_MAX : (uint64_t)((int64_t)end - r->map.doff);
	r->map.end_line = end == SIZE_MAX ? UINT32_MAX
					: (uint32_t)((int64_t)r->map.first_line + (int64_t)lsp_count_lf(t + first, end - first) -
						     r->map.dline);
	r->edit = true;
	r->next_old = r->from + 1;
	while (r->next_old < in->nck && in->ck[r->next_old].off < r->map.end_off)
		r->next_old++;
}

/* Runs the passes from r->from to where they meet the old state or to the end; false on failure. */
static bool run(struct lsp_server *s, struct lsp_doc *d, struct rerun *r)
{
	struct nvtxt_diag_config cfg = s->config;
	struct nvtxt_compile_options co = {
		.display_name = d->uri, .fd = -1, .text = d->text, .text_len = d->len,
		.diag_config = &cfg, .sink = { r, collect },
	};
	const struct ckpt *c = &r->in->ck[r->from];
	struct compile_resume rs = { c->off, c->line, c->snap, 0, at_line, r, false };
	struct nvtxt_compile_result res;

	cfg.max_errors = 0; /* the cap is applied to the whole list (lsp_check_doc) */
	r->met = SIZE_MAX;
	rs.watch = next_stop(r, c->line);
	compile_resumable(&co, &rs, &res);
	if (r->edit)
		s->incr.resumed++;
	else
		s->incr.full++;
	s->incr.met += r->met != SIZE_MAX;
	s->incr.lines += res.lines;
	if (r->many)
		return false;
	if (res.io_errno)
		lsp_log_message(s, 1, "nvtxtc: cannot check %s: %s", d->uri, strerror(res.io_errno));
	return res.io_errno == 0;
}

/*
 * Makes r's run the check of the text: the old diagnostics and
 * checkpoints before r->from, r's own, and the old ones after the state it
 * met, moved.  False (nothing lost, in->diags may be moved in part) when
 * an old one to keep has a place on an edited line: a bug, for a state
 * that met the old one holds none; the caller checks from the top.
 */
static bool splice(struct lsp_incr *in, struct rerun *r)
{
	bool met = r->met != SIZE_MAX;
	size_t keep_d = in->ck[r->from].ndiags, tail_d = met ? in->ck[r->met].ndiags : in->ndiags;
	size_t tail_c = met ? r->met + 1 : in->nck;
	size_t nd = keep_d + r->ndiags + (in->ndiags - tail_d), nc = r->from + 1 + r->nck + (in->nck - tail_c);
	struct nvtxt_diag *diags;
	struct ckpt *ck;
	bool ok = true;

	for (size_t i = tail_d; i < in->ndiags; i++)
		ok &= move_diag(&in->diags[i], &r->map);
	for (size_t i = tail_c; i < in->nck; i++)
		ok &= sema_snap_move(in->ck[i].snap, &r->map);
	if (!ok)
		return false;
	diags = xmalloc((nd ? nd : 1) * sizeof(*diags));
	ck = xmalloc(nc * sizeof(*ck));
	for (size_t i = keep_d; i < tail_d; i++)
		free_diag(&in->diags[i]);
	if (keep_d)
		memcpy(diags, in->diags, keep_d * sizeof(*diags));
	if (r->ndiags)
		memcpy(diags + keep_d, r->diags, r->ndiags * sizeof(*diags));
	if (in->ndiags > tail_d)
		memcpy(diags + keep_d + r->ndiags, in->diags + tail_d, (in->ndiags - tail_d) * sizeof(*diags));
	free_ckpts(in->ck + r->from + 1, tail_c - (r->from + 1));
	memcpy(ck, in->ck, (r->from + 1) * sizeof(*ck));
	if (r->nck)
		memcpy(ck + r->from + 1, r->ck, r->nck * sizeof(*ck));
	for (size_t i = tail_c, k = r->from + 1 + r->nck; i < in->nck; i++, k++) {
		ck[k] = in->ck[i];
		ck[k].off = (uint64_t)((int64_t)ck[k].off + r->map.doff);
		ck[k].line = (uint32_t)((int64_t)ck[k].line + r->map.dline);
		ck[k].ndiags = ck[k].ndiags - tail_d + keep_d + r->ndiags;
	}
	free(in->diags);
	free(in->ck);
	in->diags = diags;
	in->ndiags = in->diags_cap = nd;
	in->ck = ck;
	in->nck = in->ck_cap = nc;
	in->snap_bytes = 0;
	for (size_t i = 1; i < nc; i++)
		in->snap_bytes += sema_snap_size(ck[i].snap);
	in->interval = r->interval;
	free(r->diags);
	free(r->ck);
	r->diags = NULL;
	r->ck = NULL;
	r->ndiags = r->nck = 0;
	return true;
}

static void drop_run(struct rerun *r)
{
	for (size_t i = 0; i < r->ndiags; i++)
		free_diag(&r->diags[i]);
	free(r->diags);
	free_ckpts(r->ck, r->nck);
	free(r->ck);
}

static struct lsp_incr *incr_new(const struct lsp_server *s)
{
	struct lsp_incr *in = xcalloc(1, sizeof(*in));

	in->ck = xcalloc(1, sizeof(*in->ck));
	in->ck[0] = (struct ckpt){ 0, 1, 0, NULL };
	in->nck = in->ck_cap = 1;
	in->cfg = s->config;
	in->interval = s->ckpt_lines ? s->ckpt_lines : CKPT_LINES;
	return in;
}

/*
 * Brings d->incr to d's text: again from the last checkpoint before the
 * edits when it holds the check of an earlier text under these settings,
 * else from the top.
 */
static void update(struct lsp_server *s, struct lsp_doc *d)
{
	struct lsp_incr *in = d->incr;
	struct rerun r;
	bool same = in && memcmp(in->cfg.level, s->config.level, sizeof in->cfg.level) == 0;

	if (same && !d->edited)
		return;
	for (int again = same; again >= 0; again--) {
		if (!again) {
			s->incr.fallback += same;
			lsp_incr_free(d->incr);
			d->incr = in = incr_new(s);
		}
		memset(&r, 0, sizeof r);
		r.in = in;
		r.interval = in->interval;
		r.budget = d->len / 2 + (256u << 10);
		r.lines = d->nlines;
		r.bytes = in->snap_bytes;
		if (again)
			edit_map(d, &r);
		if (run(s, d, &r) && splice(in, &r))
			break;
		drop_run(&r);
		if (!again || r.many) {
			/* out of memory, or too many to keep: the next check starts from the top */
			lsp_incr_free(d->incr);
			d->incr = NULL;
			d->many_diags = r.many;
			break;
		}
	}
	if (d->incr && d->incr->ndiags > KEEP_MAX) {
		lsp_incr_free(d->incr);
		d->incr = NULL;
		d->many_diags = true;
	}
	if (d->incr) {
		d->incr->text_len = d->len;
		d->incr->cfg = s->config;
	}
	d->edited = false;
}

static void collect_json(void *user, const struct nvtxt_diag *dg, const struct nvtxt_source *src)
{
	(void)src;
	add_json(user, dg);
}

/* A check from the top with the cap, keeping nothing (lsp_doc.many_diags). */
static json_t *check_plain(struct lsp_server *s, struct lsp_doc *d)
{
	struct check_run run = { s, d, json_array() };
	struct nvtxt_compile_options co = {
		.display_name = d->uri, .diag_config = &s->config, .sink = { &run, collect_json },
	};
	struct nvtxt_compile_result res;

	lsp_doc_clear_fixes(d);
	lsp_compile_text(d->text, d->len, &co, &res);
	if (res.io_errno)
		lsp_log_message(s, 1, "nvtxtc: cannot check %s: %s", d->uri, strerror(res.io_errno));
	if (res.hidden_errors || res.hidden_warnings)
		lsp_log_message(s, 3, "nvtxtc: %s: %lu more error(s) and %lu more warning(s) not shown (maxErrors %lu)",
				d->uri, res.hidden_errors, res.hidden_warnings, s->config.max_errors);
	/* few enough again: the next check keeps them */
	d->many_diags = res.io_errno || res.errors + res.warnings > KEEP_MAX / 2;
	d->edited = false;
	return run.diags;
}

json_t *lsp_check_doc(struct lsp_server *s, struct lsp_doc *d)
{
	struct check_run run = { s, d, NULL };
	unsigned long count[2] = { 0, 0 }, hidden[2] = { 0, 0 }, max = s->config.max_errors;
	const struct lsp_incr *in;

	if (d->many_diags)
		return check_plain(s, d);
	update(s, d);
	if (d->many_diags)
		return check_plain(s, d);
	run.diags = json_array();
	lsp_doc_clear_fixes(d);
	in = d->incr;
	for (size_t i = 0; in && i < in->ndiags; i++) {
		/* the engine's cap (diag.c, diag_end): errors and warnings counted apart */
		int k = in->diags[i].severity == NVTXT_SEV_ERROR ? 0 : 1;
		if (max && count[k] >= max)
			hidden[k]++;
		else
			add_json(&run, &in->diags[i]);
		count[k]++;
	}
	if (hidden[0] || hidden[1])
		lsp_log_message(s, 3, "nvtxtc: %s: %lu more error(s) and %lu more warning(s) not shown (maxErrors %lu)",
				d->uri, hidden[0], hidden[1], max);
	return run.diags;
}
