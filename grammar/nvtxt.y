/*
 * nvtxt.y - the NVTXT grammar (pure bison parser with locations).
 *
 * One line is one instruction (nvtxt(5), LEXICAL STRUCTURE): blank, a
 * comment, an assignment, a definition or a call.  Each finished line is
 * handed on at once (frontend_finish_line), so the parse streams.  A syntax
 * error discards the rest of its line only: "error EOL" resumes at the
 * next line, so one bad line never hides the errors of the next.
 */
%require "3.6"
%define api.pure full
/* compile.c pushes the tokens of the lines its fast path does not take (frontend.h) */
%define api.push-pull push
%define api.prefix {nvtxt_yy}
%define api.token.prefix {TOK_}
%define api.location.type {struct nvtxt_loc}
%define parse.error custom
/* no reduction on a guess: an error is found before the line's action runs, and lists what was expected */
%define lr.default-reduction consistent
%locations
%expect 0

%code requires {
#include "frontend.h"
typedef void *yyscan_t;
}

%code provides {
#define YY_DECL int nvtxt_yylex(NVTXT_YYSTYPE *yylval_param, NVTXT_YYLTYPE *yylloc_param, yyscan_t yyscanner)
YY_DECL;
}

%code {
#include <stdlib.h>
#include <string.h>
/* the parser's stack through the library's allocator: out of memory returns from nvtxt_compile */
#define YYMALLOC xmalloc
#define YYFREE free
/* A rule's location: from its first symbol to the end of its last; an empty rule sits right after the previous symbol. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                                  \
	do {                                                                         \
		if (N) {                                                             \
			(Cur) = YYRHSLOC(Rhs, 1);                                    \
			if (YYRHSLOC(Rhs, N).line == (Cur).line)                     \
				(Cur).len = YYRHSLOC(Rhs, N).col + YYRHSLOC(Rhs, N).len - (Cur).col; \
		} else {                                                             \
			(Cur) = YYRHSLOC(Rhs, 0);                                    \
			(Cur).col += (Cur).len;                                      \
			(Cur).len = 0;                                               \
		}                                                                    \
	} while (0)
#define YYLOCATION_PRINT(File, Loc) ((void)0)
static void nvtxt_yyerror(const struct nvtxt_loc *loc, struct nvtxt_frontend *fe, const char *msg);
}

%parse-param {struct nvtxt_frontend *fe}

%union {
	struct nvtxt_str str;
	struct nvtxt_value *val;
}

%token END 0 "end of file"
%token EOL "end of line"
%token COMMA "','"
%token EQUALS "'='"
%token AT "'@'"
%token <str> IDENT "name"
%token <str> COMMENT "comment"
%token <str> BAD "character"
%token <val> VALUE "value"

%%

file:
	%empty
|	file line
;

line:
	instr EOL
		{ if (fe->instr.kind == NVTXT_I_BLANK) {
			/* a blank line is where its line break is */
			fe->instr.loc = @2;
			fe->instr.loc.len = 0;
		  }
		  frontend_finish_line(fe); }
|	error EOL       { yyerrok; frontend_drop_line(fe); }
;

instr:
	%empty
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_BLANK }; }
|	COMMENT
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_COMMENT, .loc = @$, .name = $1, .name_loc = @1, .end_loc = @1 }; }
|	IDENT EQUALS VALUE
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_ASSIGNMENT, .loc = @$, .name = $1, .name_loc = @1, .end_loc = @3 };
		  frontend_add_value(fe, $3); }
|	IDENT EQUALS
		{ struct nvtxt_loc at = @2;
		  at.col += at.len; at.len = 0;
		  if (!fe->line_reported)
			diag_error(fe->diags, NVTXT_CHECK_SYNTAX, &at, "expected a value after '=' in the assignment to '%s', found end of line", $1.ptr);
		  fe->line_reported = fe->line_syntax_error = true; }
|	AT IDENT deflist
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_DEFINITION, .loc = @$, .name = $2, .name_loc = @2, .end_loc = @$ }; }
|	IDENT
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_CALL, .loc = @$, .name = $1, .name_loc = @1, .end_loc = @1 }; }
|	IDENT COMMA args
		{ fe->instr = (struct nvtxt_instr){ .kind = NVTXT_I_CALL, .loc = @$, .name = $1, .name_loc = @1, .end_loc = @$ }; }
;

deflist:
	%empty
|	deflist COMMA IDENT     { frontend_add_arg(fe, $3, &@3); }
;

args:
	arg
|	args COMMA arg
;

arg:
	%empty                  { frontend_add_absent(fe, &@$); }
|	VALUE                   { frontend_add_value(fe, $1); }
;

%%


static void describe_token(struct nvtxt_frontend *fe, yysymbol_kind_t token, struct buf *out)
{
	const struct nvtxt_value *v = fe->last_value;

	switch (token) {
	case YYSYMBOL_EOL:
		buf_adds(out, "end of line");
		break;
	case YYSYMBOL_YYEOF:
		buf_adds(out, "end of file");
		break;
	case YYSYMBOL_COMMA:
		buf_adds(out, "','");
		break;
	case YYSYMBOL_EQUALS:
		buf_adds(out, "'='");
		break;
	case YYSYMBOL_AT:
		buf_adds(out, "'@'");
		break;
	case YYSYMBOL_IDENT:
		buf_adds(out, "name '");
		buf_add_shown(out, fe->last_token.ptr, fe->last_token.len, 40);
		buf_adds(out, "'");
		break;
	case YYSYMBOL_COMMENT:
		buf_adds(out, "a comment");
		break;
	case YYSYMBOL_VALUE:
		if (!v) {
			buf_adds(out, "a value");
		} else if (v->quote == '$') {
			buf_adds(out, "expansion '$");
			buf_add_shown(out, v->text.ptr, v->text.len, 40);
			buf_adds(out, "'");
		} else if (v->kind == NVTXT_V_INTEGER) {
			buf_adds(out, "integer ");
			buf_add_shown(out, v->text.ptr, v->text.len, 40);
		} else if (v->quote) {
			buf_printf(out, "string %c", v->quote);
			buf_add_shown(out, v->text.ptr, v->text.len, 40);
			buf_printf(out, "%c", v->quote);
		} else if (v->text.len >= 3 && memcmp(v->text.ptr, "\xEF\xBB\xBF", 3) == 0) {
			buf_adds(out, "a byte order mark (U+FEFF), which may only start the file");
		} else {
			buf_adds(out, "'");
			buf_add_shown(out, v->text.ptr, v->text.len, 40);
			buf_adds(out, "'");
		}
		break;
	case YYSYMBOL_BAD:
		if (fe->last_token.len == 1 && fe->last_token.ptr[0] == '\r')
			buf_adds(out, "a carriage return not followed by a line feed");
		else if (fe->last_token.len == 1 && fe->last_token.ptr[0] == '\0')
			buf_adds(out, "a NUL byte");
		else {
			buf_adds(out, "'");
			buf_add_shown(out, fe->last_token.ptr, fe->last_token.len, 40);
			buf_adds(out, "'");
		}
		break;
	default:
		buf_adds(out, "something else");
		break;
	}
}

static bool has_dollar(const struct nvtxt_value *v)
{
	return v && (v->quote == '$' || memchr(v->text.ptr, '$', v->text.len));
}

/*
 * A string the user meant to hold double quotes, written with backslash
 * escapes ("say \"hi\"", which NVTXT reads as "say \" and more): writes its
 * meant text in single quotes into out ('say "hi"') and returns 1, from the line's text
 * after the opening quote at *at up to the first double quote with no
 * backslash before it, each \" taken as ".  Returns 0 when the whole
 * line is not at hand (a pipe keeps only what was scanned) or no such
 * quote ends it, -1 when the text also holds a single quote (no string
 * can hold both kinds).
 */
static int unescaped_suggestion(struct nvtxt_frontend *fe, const struct nvtxt_loc *at, struct buf *out)
{
	size_t len, end;
	uint32_t first_col = 1;
	const char *line;

	if (fe->keep_line_text || !fe->source.line)
		return 0;
	line = fe->source.line(fe->source.user, at, &len, &first_col);
	if (!line || first_col != 1 || at->col < 1 || at->col > len)
		return 0;
	for (end = at->col; end < len && (line[end] != '"' || line[end - 1] == '\\'); end++)
		;
	if (end >= len)
		return 0;
	if (memchr(line + at->col, '\'', end - at->col))
		return -1;
	buf_addc(out, '\'');
	for (size_t i = at->col; i < end; i++)
		if (!(line[i] == '\\' && line[i + 1] == '"'))
			buf_addc(out, line[i]);
	buf_addc(out, '\'');
	return 1;
}

/*
 * Explains a value that follows another with no ',' between them (`prev`
 * the first, `found` the second, at *loc): a backslash "escape" that ended
 * a string early; blanks where a ',' was meant (the caret moves to the
 * gap); or an attempt at concatenation.  `call`: the line is a call (else
 * an assignment, which takes one value).  Writes the message into msg.
 */
static void explain_second_value(struct nvtxt_frontend *fe, const struct nvtxt_value *prev, const struct nvtxt_value *found,
				 bool call, const char *what, struct nvtxt_loc *loc, struct buf *msg)
{
	uint32_t prev_end = prev ? prev->loc.col + prev->loc.len : 0;
	const char *no_concat = "NVTXT has no concatenation: a value is one quoted string, one integer or one $Name expansion";
	const char *dollar = has_dollar(prev) || has_dollar(found) ? ", and '$' inside quotes is literal" : "";

	if (prev && prev->quote == '"' && prev->text.len && prev->text.ptr[prev->text.len - 1] == '\\' &&
	    prev->loc.line == found->loc.line && prev_end == found->loc.col) {
		struct buf fix = { 0 };
		*loc = prev->loc;
		buf_adds(msg, "NVTXT strings have no escape sequences: the '\"' after the backslash ends this string; "
			      "a string that holds double quotes is written in single quotes");
		switch (unescaped_suggestion(fe, &prev->loc, &fix)) {
		case 1:
			buf_printf(msg, ": %s", fix.ptr);
			break;
		case -1:
			buf_adds(msg, ", and this one also holds a single quote: no string holds both kinds");
			break;
		default:
			buf_adds(msg, " ('...')");
			break;
		}
		buf_free(&fix);
		return;
	}
	if (call && prev && prev->loc.line == found->loc.line && prev_end < found->loc.col) {
		/* blanks only between them (a ',' would have separated them): the ',' belongs in the gap */
		loc->col = prev_end;
		loc->len = found->loc.col - prev_end;
		buf_printf(msg, "expected ',' between values, found %s after blanks (%s%s)", what, no_concat, dollar);
		return;
	}
	if (call)
		buf_printf(msg, "expected end of line or ',', found %s (values are separated by ','; %s%s)", what,
			   no_concat, dollar);
	else
		buf_printf(msg, "expected end of line after the value, found %s (an assignment takes exactly one value; %s%s)",
			   what, no_concat, dollar);
}

/*
 * Syntax errors say what was expected and what was found, in the words of
 * nvtxt(5); the few positions where a generic token list would be unclear
 * get a sentence of their own.
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct nvtxt_frontend *fe)
{
	yysymbol_kind_t expected[8];
	int n = yypcontext_expected_tokens(ctx, expected, 8);
	yysymbol_kind_t found = yypcontext_token(ctx);
	struct nvtxt_loc loc = *yypcontext_location(ctx);
	struct buf what = { 0 }, msg = { 0 };
	bool line_start = false, after_name = false, after_value = false;

	fe->line_syntax_error = true;
	if (fe->line_reported)
		return 0;
	fe->line_reported = true;
	for (int i = 0; i < n; i++) {
		if (expected[i] == YYSYMBOL_AT)
			line_start = true;
		if (expected[i] == YYSYMBOL_EQUALS)
			after_name = true;
	}
	if (n == 1 && expected[0] == YYSYMBOL_EOL)
		after_value = true;
	describe_token(fe, found, &what);
	if (found == YYSYMBOL_EOL)
		loc.len = 0;
	if (fe->line_is_def && !fe->def_name.ptr) {
		buf_printf(&msg, "expected a command name after '@', found %s", what.ptr);
	} else if (fe->line_is_def && n == 1 && expected[0] == YYSYMBOL_IDENT) {
		buf_printf(&msg, "expected an argument name of %.*s, found %s", (int)fe->def_name.len, fe->def_name.ptr, what.ptr);
	} else if (fe->line_is_def) {
		buf_printf(&msg, "expected ',' and an argument name, or end of line, found %s", what.ptr);
	} else if (line_start) {
		buf_printf(&msg, "expected a command call, an assignment, a definition ('@') or a comment ('#') at the start of a line, found %s", what.ptr);
	} else if (after_name) {
		buf_printf(&msg, "expected '=' (an assignment) or ',' (a command call) after the name, found %s", what.ptr);
	} else if (after_value && found == YYSYMBOL_VALUE && fe->last_value) {
		explain_second_value(fe, fe->prev_value, fe->last_value, false, what.ptr, &loc, &msg);
	} else if (after_value) {
		buf_printf(&msg, "expected end of line after the value, found %s", what.ptr);
		if (found == YYSYMBOL_COMMA)
			buf_adds(&msg, " (an assignment takes exactly one value)");
	} else if (found == YYSYMBOL_VALUE && fe->last_value && fe->prev_value) {
		explain_second_value(fe, fe->prev_value, fe->last_value, true, what.ptr, &loc, &msg);
	} else {
		buf_adds(&msg, "expected ");
		for (int i = 0; i < n; i++) {
			const char *name;
			switch (expected[i]) {
			case YYSYMBOL_IDENT: name = "an argument name"; break;
			case YYSYMBOL_VALUE: name = "a value"; break;
			default: name = yysymbol_name(expected[i]); break;
			}
			if (i)
				buf_adds(&msg, i + 1 == n ? " or " : ", ");
			buf_adds(&msg, name);
		}
		buf_printf(&msg, ", found %s", what.ptr);
	}
	diag_error(fe->diags, NVTXT_CHECK_SYNTAX, &loc, "%s", msg.ptr);
	buf_free(&what);
	buf_free(&msg);
	return 0;
}

/* Only "memory exhausted" reaches here: syntax errors go through yyreport_syntax_error. */
static void nvtxt_yyerror(const struct nvtxt_loc *loc, struct nvtxt_frontend *fe, const char *msg)
{
	diag_error(fe->diags, NVTXT_CHECK_SYNTAX, loc, "%s (the parser's stack is full)", msg);
}
