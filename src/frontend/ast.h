/*
 * ast.h - the AST: one node per NVTXT instruction (line), as the parser
 * builds it and the passes and the layout formatter read it.
 *
 * Nodes live only while their line is processed: the parser fills one
 * `struct nvtxt_instr` per line, hands it on and reuses the memory for the
 * next line, so memory never grows with the number of lines.
 */
#ifndef NVTXT_AST_H
#define NVTXT_AST_H

#include "language.h"

enum nvtxt_value_kind {
	NVTXT_V_ABSENT,    /* an empty value between commas */
	NVTXT_V_INTEGER,
	NVTXT_V_STRING,
	NVTXT_V_EXPANSION, /* $Name, before the passes resolve it */
	NVTXT_V_POISON     /* a value whose error was already reported */
};

struct nvtxt_binding;

/* A value as written: its kind, its meaning and its spelling. */
struct nvtxt_value {
	enum nvtxt_value_kind kind;
	char quote;               /* '"' or '\'' for a quoted string, '$' for an expansion, 0 for a bare word */
	int64_t integer;          /* NVTXT_V_INTEGER */
	struct nvtxt_str text;    /* a string's bytes without quotes, an integer's or a name's spelling */
	struct nvtxt_loc loc;     /* the whole token, quotes or '$' included */
	/*
	 * Set by the passes: the assignment that gave the value, for an
	 * expanded value ($Name) or a static argument; NULL for a literal.
	 */
	const struct nvtxt_binding *origin;
};

enum nvtxt_instr_kind {
	NVTXT_I_BLANK,
	NVTXT_I_COMMENT,
	NVTXT_I_ASSIGNMENT,
	NVTXT_I_DEFINITION,
	NVTXT_I_CALL
};

struct nvtxt_instr {
	enum nvtxt_instr_kind kind;
	struct nvtxt_loc loc;       /* the line (line, line_offset) */
	struct nvtxt_str name;      /* variable or command name; a comment's text from '#' */
	struct nvtxt_loc name_loc;
	/* NVTXT_I_ASSIGNMENT: one value; NVTXT_I_CALL: the call's values */
	struct nvtxt_value *values;
	size_t nvalues;
	/* NVTXT_I_DEFINITION: the argument names as written */
	struct nvtxt_str *args;
	struct nvtxt_loc *arg_locs;
	size_t nargs;
	struct nvtxt_loc end_loc;   /* the end of the line's last token */
	/*
	 * A definition line with a syntax error (only kind and name are set):
	 * the command's calls are skipped until its next definition.
	 */
	bool broken;
};

#endif
