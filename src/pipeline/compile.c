/*
 * compile.c - the pipeline for one input (nvtxt_compile): reading (BOM,
 * UTF-16 detection), the fast path or flex and bison for each line, the
 * source text behind diagnostics, and the hand-off of each line to the
 * passes or to the layout formatter.  The per-line AST storage the parser
 * fills is the front end's (src/frontend/frontend.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nvtxt/compile.h"
#include "compile_resume.h"
#include "fmt.h"
#include "frontend.h"
#include "reader.h"
#include "sema.h"
#include "nvtxt.tab.h"
#define YYSTYPE NVTXT_YYSTYPE
#define YYLTYPE NVTXT_YYLTYPE
#include "nvtxt.lex.h"

/* --- reading ------------------------------------------------------------- */

/* Checks the first bytes: skips a UTF-8 BOM, rejects UTF-16; returns the bytes to skip. */
static size_t start_input(struct nvtxt_frontend *fe)
{
	struct nvtxt_loc at = { 1, 1, 0, 0 };
	size_t n = 0;
	const unsigned char *p = reader_peek(fe->reader, &n);

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		fe->offset = fe->line_offset = 3;
		return 3;
	}
	if (n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
		at.len = 2;
		diag_error(fe->diags, NVTXT_CHECK_ENCODING, &at,
			   "the file is UTF-16 (it starts with a UTF-16 byte order mark %s); NVTXT files are UTF-8: convert it, e.g. with iconv -f UTF-16 -t UTF-8",
			   p[0] == 0xFF ? "FF FE" : "FE FF");
		fe->stop = true;
		return 0;
	}
	if (n >= 4 && ((p[0] == 0 && p[1] && p[2] == 0 && p[3]) || (p[0] && p[1] == 0 && p[2] && p[3] == 0))) {
		at.len = 1;
		diag_error(fe->diags, NVTXT_CHECK_ENCODING, &at,
			   "the file looks like UTF-16 without a byte order mark (it has NUL bytes between its characters); NVTXT files are UTF-8");
		fe->stop = true;
	}
	return 0;
}

/*
 * Moves on to the next chunk (handing back the current one); false at
 * the end of input.  A read error stops the input there.
 */
static bool next_chunk(struct nvtxt_frontend *fe)
{
	bool last = false;

	if (fe->chunk) {
		last = fe->chunk->last;
		reader_release(fe->reader, fe->chunk);
		fe->chunk = NULL;
	}
	if (last || fe->stop || !(fe->chunk = reader_next(fe->reader)))
		return false;
	fe->next_rec = 0;
	if (fe->chunk->io_errno) {
		fe->io_errno = fe->chunk->io_errno;
		fe->stop = true;
	}
	return true;
}

/* Makes a slow record (a whole line: see reader.h) the bytes that frontend_read (frontend.c) hands to flex. */
static void take_slow(struct nvtxt_frontend *fe, const struct line_rec *rec)
{
	fe->slow_ptr = fe->chunk->bytes + rec->start;
	fe->slow_len = rec->len;
}

/* --- the source behind diagnostics --------------------------------------- */

static const char *source_line(void *user, const struct nvtxt_loc *loc, size_t *len,
			       uint32_t *first_col)
{
	struct nvtxt_frontend *fe = user;
	bool current = fe->line_done ? loc->line + 1 == fe->line : loc->line == fe->line;
	uint64_t skip = 0;
	const char *text;
	ssize_t n;

	*first_col = 1;
	/*
	 * Text in memory and a regular file are read back, so the excerpt is
	 * the line (or, for a long line, a window around the column) even when
	 * the scanner is still inside it; other inputs only have the start of
	 * the current line.
	 */
	if (!fe->text && !fe->seekable) {
		if (!current)
			return NULL;
		*len = fe->line_text.len;
		return fe->line_text.ptr ? fe->line_text.ptr : "";
	}
	if (loc->col > FRONTEND_LINE_KEEP / 2)
		skip = loc->col - 1 - FRONTEND_LINE_KEEP / 2;
	if (fe->text) {
		uint64_t at = loc->line_offset + skip;
		if (at > fe->text_len)
			return NULL;
		text = fe->text + at;
		n = (ssize_t)(fe->text_len - at < FRONTEND_LINE_KEEP ? fe->text_len - at : FRONTEND_LINE_KEEP);
	} else {
		/* the buffer was reserved by run(): no allocation here */
		if (fe->excerpt.cap < FRONTEND_LINE_KEEP)
			return NULL;
		do
			n = pread(fe->fd, fe->excerpt.ptr, FRONTEND_LINE_KEEP,
				  (off_t)(fe->base + loc->line_offset + skip));
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return NULL;
		text = fe->excerpt.ptr;
	}
	{
		const char *nl = memchr(text, '\n', (size_t)n);
		size_t l = nl ? (size_t)(nl - text) : (size_t)n;
		if (l && text[l - 1] == '\r')
			l--;
		*len = l;
	}
	*first_col = (uint32_t)(skip + 1);
	return text;
}

/* --- one input ----------------------------------------------------------- */

/* Check mode: the passes, and the suppression comments for the diagnostics engine. */
struct checked {
	struct sema *sema;
	struct nvtxt_diags *diags;
};

static void consume_checked(void *user, const struct nvtxt_instr *in)
{
	struct checked *c = user;

	if (in->kind == NVTXT_I_COMMENT)
		diag_comment(c->diags, in->name.ptr, in->name.len, &in->name_loc);
	else if (in->kind != NVTXT_I_BLANK)
		diag_instruction(c->diags, in->loc.line);
	sema_instruction(c->sema, in);
}

static void consume_nothing(void *user, const struct nvtxt_instr *in)
{
	(void)user;
	(void)in;
}

/*
 * Hands the slow line's tokens from flex to the push parser up to its
 * line break (or, at the end of input, up to the end of file).  Returns
 * false when the parser has stopped: it accepted the input, or its stack
 * is full.
 */
static bool push_tokens(struct nvtxt_frontend *fe, yyscan_t scanner, nvtxt_yypstate *ps, bool to_end)
{
	NVTXT_YYSTYPE lval;
	NVTXT_YYLTYPE lloc = { 0 };
	int tok, status;

	do {
		tok = nvtxt_yylex(&lval, &lloc, scanner);
		status = nvtxt_yypush_parse(ps, tok, &lval, &lloc, fe);
	} while (status == YYPUSH_MORE && tok != TOK_END && (to_end || tok != TOK_EOL));
	if (tok == TOK_EOL)
		frontend_scanner_line_done(scanner);
	return status == YYPUSH_MORE;
}

/*
 * Makes fe->instr of a fast line: its node, and its values made whole from
 * their compact records (text and location follow from the token).
 */
static void make_instr(struct nvtxt_frontend *fe, const struct line_rec *rec, const char *line,
		       const struct fast_value *fv, uint32_t lineno, uint64_t line_offset)
{
	struct nvtxt_value *values = fe->fast_values;
	const uint32_t name_col = (uint32_t)rec->name_col + 1;

	for (size_t i = 0; i < rec->nvalues; i++) {
		struct nvtxt_value *v = &values[i];
		unsigned skip = fv[i].quote != 0; /* an opening quote or '$' */
		unsigned trim = skip + (fv[i].quote == '"' || fv[i].quote == '\''); /* and the closing quote */

		v->kind = (enum nvtxt_value_kind)fv[i].kind;
		v->quote = (char)fv[i].quote;
		v->integer = fv[i].integer;
		v->text = fv[i].kind == NVTXT_V_ABSENT
				  ? (struct nvtxt_str){ NULL, 0 }
				  : (struct nvtxt_str){ line + fv[i].col + skip, (size_t)fv[i].len - trim };
		v->loc = (struct nvtxt_loc){ lineno, (uint32_t)fv[i].col + 1, fv[i].len, line_offset };
		v->origin = NULL;
	}
	fe->instr = (struct nvtxt_instr){
		.kind = rec->kind == LINE_ASSIGNMENT ? NVTXT_I_ASSIGNMENT : NVTXT_I_CALL,
		.loc = { lineno, name_col, (uint32_t)rec->end_col - rec->name_col, line_offset },
		.name = { line + rec->name_col, rec->name_len },
		.name_loc = { lineno, name_col, rec->name_len, line_offset },
		.values = values,
		.nvalues = rec->nvalues,
	};
	fe->instr.end_loc = rec->kind == LINE_ASSIGNMENT ? values[0].loc : fe->instr.loc;
}

/*
 * Hands on a line the fast path parsed, as the scanner's end_line() and
 * the parser's actions would.  In check mode a call goes to the passes
 * first with its values as they are (sema_fast_call), and gets its node
 * made only when they need it.
 */
static ALWAYS_INLINE void take_fast(struct nvtxt_frontend *fe, const struct line_rec *rec, const char *bytes,
			     const struct fast_value *chunk_values)
{
	const char *line = bytes + rec->start;
	const struct fast_value *fv = chunk_values + rec->first_value;
	const uint32_t lineno = fe->line;
	const uint64_t line_offset = fe->offset;

	if (fe->keep_line_text) {
		buf_reset(&fe->line_text);
		buf_add(&fe->line_text, line, rec->text_len);
	}
	/* the scanner's end_line(): diagnostics come after it */
	fe->offset += rec->len;
	fe->line++;
	fe->col = 1;
	fe->line_offset = fe->offset;
	fe->line_done = true;
	fe->lines++; /* the rest of reset_line: a fast line uses none of the parser's state */
	if (fe->stop || fe->mode == FRONTEND_SYNTAX)
		return;
	if (fe->mode == FRONTEND_CHECK) {
		/* consume_checked, with the values made only when needed */
		struct checked *c = fe->consume_user;

		diag_instruction(c->diags, lineno);
		if (rec->kind == LINE_CALL && sema_fast_call(c->sema, rec, line, fv, lineno, line_offset))
			return;
		make_instr(fe, rec, line, fv, lineno, line_offset);
		sema_instruction(c->sema, &fe->instr);
		return;
	}
	if (fe->mode == FRONTEND_FMT) {
		/* the formatter writes a call's or an assignment's tokens as they are: no node needed */
		struct nvtxt_str *tokens = fe->fast_tokens;
		for (size_t i = 0; i < rec->nvalues; i++)
			tokens[i] = fv[i].kind == NVTXT_V_ABSENT ? (struct nvtxt_str){ NULL, 0 }
							    : (struct nvtxt_str){ line + fv[i].col, fv[i].len };
		nvtxt_fmt_tokens(fe->consume_user, rec->kind == LINE_ASSIGNMENT,
				 (struct nvtxt_str){ line + rec->name_col, rec->name_len }, tokens, rec->nvalues);
		return;
	}
	make_instr(fe, rec, line, fv, lineno, line_offset);
	fe->consume(fe->consume_user, &fe->instr);
}

/*
 * Check mode, input that is read back for excerpts: the calls of a run of
 * fast lines from rec on go to the passes in one call (sema_fast_calls),
 * as take_fast would hand them on one by one (the suppression comments
 * before the run bound to its first line, which is all diag_instruction
 * does for the others: a run has no comment).  Returns how many it took;
 * it stops before the first line that take_fast must take.
 */
static size_t take_calls(struct nvtxt_frontend *fe, const struct line_rec *rec, const struct line_rec *end,
			 const struct chunk *c)
{
	struct checked *ck = fe->consume_user;
	uint64_t bytes;
	size_t n;

	diag_instruction(ck->diags, fe->line);
	n = sema_fast_calls(ck->sema, rec, (size_t)(end - rec), c->bytes, c->values, fe->line, fe->offset, &bytes);
	if (n) {
		/* take_fast's end_line() for each of them */
		fe->offset += bytes;
		fe->line += (uint32_t)n;
		fe->lines += n;
		fe->col = 1;
		fe->line_offset = fe->offset;
		fe->line_done = true;
	}
	return n;
}

/*
 * A line over READER_LINE_MAX bytes (reader.h): its head is kept for the
 * excerpt; at its end, one error, and the line is skipped as a whole
 * (none of its bytes reach flex, so memory stays bounded).
 */
static void take_long(struct nvtxt_frontend *fe, const struct line_rec *rec)
{
	const char *bytes = fe->chunk->bytes + rec->start;
	const uint32_t lineno = fe->line;
	struct nvtxt_loc at = { lineno, 1, 0, fe->line_offset };
	uint64_t len;

	if (rec->kind == LINE_LONG_HEAD) {
		if (fe->keep_line_text) {
			buf_reset(&fe->line_text);
			buf_add(&fe->line_text, bytes, rec->len < FRONTEND_LINE_KEEP ? rec->len : FRONTEND_LINE_KEEP);
		}
		return;
	}
	len = fe->chunk->long_line_len;
	fe->offset += len + (rec->len && bytes[rec->len - 1] == '\n');
	fe->line++;
	fe->col = 1;
	fe->line_offset = fe->offset;
	fe->line_done = true;
	fe->lines++;
	if (!fe->stop)
		diag_error(fe->diags, NVTXT_CHECK_LINE_TOO_LONG, &at,
			   "line too long: a line may have at most %d bytes before its line break, and this one has %" PRIu64 "; it is skipped",
			   READER_LINE_MAX, len);
}

/* The chunk's records to take now: all, or (a fast record is one line) up to the watched line. */
static size_t records_to(const struct nvtxt_frontend *fe, size_t n)
{
	const struct compile_resume *rs = fe->resume;

	if (rs && rs->watch > fe->line && n - fe->next_rec > rs->watch - fe->line)
		return fe->next_rec + (rs->watch - fe->line);
	return n;
}

/* A resumable compilation's line boundary: the caller's hook; false when it stops there. */
static bool at_line(struct nvtxt_frontend *fe, struct compile_resume *rs)
{
	const struct checked *c = fe->consume_user;

	rs->watch = rs->at_line(rs->user, fe->line, fe->offset, c->sema, c->diags);
	if (rs->watch) {
		if (rs->watch <= fe->line)
			rs->watch = fe->line + 1;
		return true;
	}
	rs->stopped = true;
	fe->stop = true;
	return false;
}

/*
 * Works through the input's chunks: a line the fast path parsed is handed
 * on at once; any other line goes through flex and bison.
 */
static ALWAYS_INLINE void parse_input(struct nvtxt_frontend *fe, yyscan_t scanner, nvtxt_yypstate *ps,
				      const bool resumable)
{
	size_t skip = resumable && fe->resume->offset ? 0 : start_input(fe);

	if (!fe->stop)
		reader_start(fe->reader, skip);
	while (!fe->stop) {
		const struct line_rec *rec;

		if (!fe->chunk || fe->next_rec == fe->chunk->nlines) {
			if (!next_chunk(fe))
				break;
			continue;
		}
		if (resumable && fe->resume->watch && fe->line >= fe->resume->watch && !at_line(fe, fe->resume))
			return;
		{
			/*
			 * The fast lines in a row, the chunk's fields read once;
			 * in check mode the calls by runs (take_calls) when no
			 * line's text needs keeping for excerpts.
			 */
			const struct chunk *c = fe->chunk;
			const struct line_rec *lines = c->lines;
			const struct line_rec *end = lines + (resumable ? records_to(fe, c->nlines) : c->nlines);
			const bool runs = fe->mode == FRONTEND_CHECK && !fe->keep_line_text;

			rec = lines + fe->next_rec;
			while (rec < end && rec->kind <= LINE_ASSIGNMENT && !fe->stop) {
				if (runs && rec->kind == LINE_CALL) {
					rec += take_calls(fe, rec, end, c);
					if (rec == end || rec->kind > LINE_ASSIGNMENT)
						break;
				}
				take_fast(fe, rec++, c->bytes, c->values);
			}
			fe->next_rec = (size_t)(rec - lines);
			if (rec == end || fe->stop)
				continue;
		}
		fe->next_rec++;
		if (rec->kind != LINE_SLOW) {
			take_long(fe, rec);
			continue;
		}
		take_slow(fe, rec);
		if (!push_tokens(fe, scanner, ps, false))
			return;
	}
	fe->slow_len = 0;
	push_tokens(fe, scanner, ps, true);
}

/*
 * The two copies of the loop: the plain one keeps nothing of the other's,
 * and neither shares its registers with run's code (lint -j 1 costs one
 * instruction a line more when they do).
 */
static NOINLINE void parse_plain(struct nvtxt_frontend *fe, yyscan_t scanner, nvtxt_yypstate *ps)
{
	parse_input(fe, scanner, ps, false);
}

static NOINLINE void parse_resumable(struct nvtxt_frontend *fe, yyscan_t scanner, nvtxt_yypstate *ps)
{
	parse_input(fe, scanner, ps, true);
}

/*
 * One compilation's state, in the frame of nvtxt_compile (not in the
 * frame that calls setjmp, so that nothing it holds is indeterminate
 * after the longjmp of a failure).
 */
struct compile_run {
	const struct nvtxt_compile_options *opt;
	struct nvtxt_frontend fe;
	struct nvtxt_diags diags;
	struct sema *sema;
	struct checked checked;
	yyscan_t scanner;
	nvtxt_yypstate *ps;
	struct guard guard;
	struct compile_resume *resume;  /* compile_resumable's, or NULL */
};

/* The work of nvtxt_compile; any allocation in it may jump to run_guarded. */
static void run(struct compile_run *c)
{
	const struct nvtxt_compile_options *opt = c->opt;
	struct nvtxt_frontend *fe = &c->fe;

	if (opt->syntax_check_only) {
		fe->mode = FRONTEND_SYNTAX;
		fe->consume = consume_nothing;
	} else if (opt->instruction) {
		/* the library's formatter takes a fast line's tokens as they are */
		fe->mode = opt->instruction == nvtxt_fmt_instruction ? FRONTEND_FMT : FRONTEND_NODES;
		fe->consume = opt->instruction;
		fe->consume_user = opt->instruction_user;
	} else {
		c->sema = sema_new(&c->diags, opt->backend);
		sema_set_fast_path(c->sema, !opt->no_fast_paths);
		c->checked = (struct checked){ c->sema, &c->diags };
		fe->mode = FRONTEND_CHECK;
		fe->consume = consume_checked;
		fe->consume_user = &c->checked;
		if (c->resume && c->resume->state)
			sema_snap_restore(c->sema, &c->diags.supp, c->resume->state);
	}
	/* excerpts are read back into this buffer: allocated now, never in a printer's callback */
	if (fe->seekable)
		buf_reserve(&fe->excerpt, FRONTEND_LINE_KEEP);
	if (fe->text) {
		/* a resumed compilation reads from its line on (fe->offset) */
		size_t from = c->resume ? fe->offset : 0;
		fe->reader = reader_new_text(fe->text + from, fe->text_len - from, !opt->no_fast_paths, opt->read_ahead);
	}
	else
		fe->reader = reader_new(opt->fd, !opt->no_fast_paths, opt->read_ahead);
	if (!fe->reader)
		nvtxt_fail(ENOMEM);
	/* from the middle (no byte order mark to look for), the caller may stop after a few lines */
	if (c->resume && c->resume->offset && c->resume->watch)
		reader_ramp(fe->reader, 8192);
	fe->fast_values = xmalloc(FRONTEND_MAX_VALUES * sizeof(*fe->fast_values));
	if (fe->mode == FRONTEND_FMT)
		fe->fast_tokens = xmalloc(FRONTEND_MAX_VALUES * sizeof(*fe->fast_tokens));
	c->ps = nvtxt_yypstate_new();
	if (!c->ps)
		nvtxt_fail(ENOMEM);
	if (nvtxt_yylex_init_extra(fe, &c->scanner) != 0)
		nvtxt_fail(ENOMEM);
	fe->resume = c->resume;
	if (c->resume)
		parse_resumable(fe, c->scanner, c->ps);
	else
		parse_plain(fe, c->scanner, c->ps);
	if (c->sema && !fe->io_errno && !(c->resume && c->resume->stopped)) {
		sema_finish(c->sema);
		diag_finish(&c->diags);
	}
}

/* Runs `run` under a guard; returns 0, or the error of a failure (ENOMEM). */
static int run_guarded(struct compile_run *c)
{
	if (setjmp(c->guard.env))
		return c->guard.error;
	guard_push(&c->guard);
	run(c);
	return 0;
}

static int compile(const struct nvtxt_compile_options *opt, struct compile_resume *rs,
		   struct nvtxt_compile_result *res);

int nvtxt_compile(const struct nvtxt_compile_options *opt, struct nvtxt_compile_result *res)
{
	return compile(opt, NULL, res);
}

int compile_resumable(const struct nvtxt_compile_options *opt, struct compile_resume *rs,
		      struct nvtxt_compile_result *res)
{
	struct nvtxt_compile_options o = *opt;

	/* check mode, from text in memory */
	o.instruction = NULL;
	o.syntax_check_only = false;
	rs->stopped = false;
	return compile(&o, rs, res);
}

static int compile(const struct nvtxt_compile_options *opt, struct compile_resume *rs,
		   struct nvtxt_compile_result *res)
{
	struct compile_run c;
	struct nvtxt_frontend *fe = &c.fe;
	struct stat st;
	int failure, status;

	memset(&c, 0, sizeof(c));
	memset(res, 0, sizeof(*res));
	c.opt = opt;
	nvtxt_diags_init(&c.diags, opt->diag_config, opt->sink, opt->display_name);
	if (opt->text) {
		fe->text = opt->text;
		fe->text_len = opt->text_len;
	} else {
		fe->fd = opt->fd;
		fe->seekable = fstat(opt->fd, &st) == 0 && S_ISREG(st.st_mode);
		fe->keep_line_text = !fe->seekable;
		if (fe->seekable) {
			off_t at = lseek(opt->fd, 0, SEEK_CUR);
			fe->base = at > 0 ? (uint64_t)at : 0;
		}
	}
	fe->line = 1;
	fe->col = 1;
	c.resume = rs;
	if (rs && opt->text && rs->offset <= opt->text_len) {
		fe->line = rs->line;
		fe->offset = fe->line_offset = rs->offset;
	}
	fe->diags = &c.diags;
	fe->source = (struct nvtxt_source){ fe, source_line };
	c.diags.source = &fe->source;

	failure = run_guarded(&c);

	/* the same teardown after a failure: every owner frees what it holds */
	if (c.scanner)
		nvtxt_yylex_destroy(c.scanner);
	if (c.ps)
		nvtxt_yypstate_delete(c.ps);
	reader_free(fe->reader);
	if (c.sema) {
		res->status = sema_status(c.sema, &res->io_errno);
		sema_free(c.sema);
	}
	tmp_free(c.diags.supp.supp);
	arena_free(&fe->arena);
	free(fe->fast_values);
	free(fe->fast_tokens);
	free(fe->values);
	free(fe->args);
	free(fe->arg_locs);
	buf_free(&fe->line_text);
	buf_free(&fe->excerpt);
	if (failure)
		guard_release(&c.guard); /* the temporaries nobody owned: messages being built */
	else
		guard_pop(&c.guard);

	if (fe->io_errno)
		res->io_errno = fe->io_errno;
	if (failure)
		res->io_errno = failure;
	if (fe->io_errno || failure)
		res->status = NVTXT_ERR_SYSTEM;
	res->errors = c.diags.errors;
	res->warnings = c.diags.warnings;
	res->hidden_errors = c.diags.hidden_errors;
	res->hidden_warnings = c.diags.hidden_warnings;
	res->lines = fe->lines;
	status = res->status != NVTXT_OK ? 2 : c.diags.errors ? 1 : 0;
	return status;
}
