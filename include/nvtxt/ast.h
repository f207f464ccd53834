/*
 * nvtxt/ast.h - the AST: one node per NVTXT instruction (line), as the
 * parser builds it; the passes, the layout formatter (nvtxtc fmt), the
 * language server's outline and a library caller in syntax mode
 * (nvtxt_compile_options.instruction, compile.h) read it.
 *
 * The grammar is nvtxt(5), SYNTAX (after the NVTXT reference, "NVTXT
 * File Format"): a line is blank, a comment, an assignment `Name = value`,
 * a definition `@Command, Arg, ...` or a call `Command, value, ...`.
 *
 * Lifetime: nodes live only while their line is handled.  The parser
 * fills one `struct nvtxt_instr` per line, hands it on and reuses the
 * memory for the next line, so memory never grows with the number of
 * lines; a callback that keeps anything copies it.  Every string points
 * into the input (or a copy of its current chunk) and is valid during the
 * callback only.
 *
 * The layout is the library's own and may change with its soname.
 */
#ifndef NVTXT_AST_H
#define NVTXT_AST_H

#include "language.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nvtxt_value_kind {
	NVTXT_V_ABSENT,    /* an empty value between commas */
	NVTXT_V_INTEGER,   /* a decimal or 0x integer that fits int64_t (nvtxt(5), Values) */
	NVTXT_V_STRING,    /* a quoted string or a bare word */
	NVTXT_V_EXPANSION, /* $Name, before the passes resolve it */
	NVTXT_V_POISON     /* a value whose error was already reported (an integer out of range, ...) */
};

/* An assignment as the passes keep it; private to the library. */
struct nvtxt_binding;

/* A value as written: its kind, its meaning and its spelling. */
struct nvtxt_value {
	enum nvtxt_value_kind kind;
	char quote;               /* '"' or '\'' for a quoted string, '$' for an expansion, 0 for a bare word */
	int64_t integer;          /* NVTXT_V_INTEGER: the value */
	struct nvtxt_str text;    /* a string's bytes without quotes, an integer's or a name's spelling */
	struct nvtxt_loc loc;     /* the whole token, quotes or '$' included */
	/*
	 * Set by the passes: the assignment that gave the value, for an
	 * expanded value ($Name) or a static argument; NULL for a literal,
	 * and always NULL in syntax mode (no pass runs).
	 */
	const struct nvtxt_binding *origin;
};

enum nvtxt_instr_kind {
	NVTXT_I_BLANK,      /* nothing but blanks */
	NVTXT_I_COMMENT,    /* '#' first: name holds the text from '#' */
	NVTXT_I_ASSIGNMENT, /* Name = value: name, one value */
	NVTXT_I_DEFINITION, /* @Command, Arg, ...: name (without '@'), args */
	NVTXT_I_CALL        /* Command, value, ...: name, values */
};

/* One line of the input. */
struct nvtxt_instr {
	enum nvtxt_instr_kind kind;
	struct nvtxt_loc loc;       /* the line (line, line_offset) */
	struct nvtxt_str name;      /* variable or command name; a comment's text from '#' */
	struct nvtxt_loc name_loc;
	/* NVTXT_I_ASSIGNMENT: one value; NVTXT_I_CALL: the call's values, as many as written */
	struct nvtxt_value *values;
	size_t nvalues;
	/* NVTXT_I_DEFINITION: the argument names as written, and where */
	struct nvtxt_str *args;
	struct nvtxt_loc *arg_locs;
	size_t nargs;
	struct nvtxt_loc end_loc;   /* the end of the line's last token */
	/*
	 * A definition line with a syntax error (only kind and name are set):
	 * the command's calls are skipped until its next definition.  A line
	 * of any other kind with a syntax error is not handed on at all.
	 */
	bool broken;
};

#ifdef __cplusplus
}
#endif

#endif
