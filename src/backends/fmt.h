/*
 * fmt.h - the layout formatter (nvtxtc fmt): prints each line's AST node
 * back with normalised layout, keeping comments, variables, definitions,
 * expansions and every value's spelling, so it never changes what a file
 * means (nvtxtc(1), fmt).
 */
#ifndef NVTXT_FMT_H
#define NVTXT_FMT_H

#include <stdio.h>

#include "nvtxt/ast.h"

struct nvtxt_fmt {
	FILE *out;
	/*
	 * Keep the output in buf and write none of it (out is NULL); when
	 * it does not fit, ask spill (when set) for the stream to go on in
	 * (out becomes it, and hold false): nvtxtc fmt's spool, made only
	 * for a file whose text outgrows buf.  Without spill, or when it
	 * returns NULL, formatting stops and overflow is set.
	 */
	bool hold;
	bool overflow;
	FILE *(*spill)(void *user);
	void *spill_user;
	unsigned long pending_blank;  /* blank lines seen since the last printed line */
	bool printed;                 /* a line was printed */
	size_t n;                     /* bytes of buf not yet written to out */
	char buf[65536];
};

/*
 * The instruction callback for nvtxt_compile's syntax mode; user is a
 * struct nvtxt_fmt.  Layout: `Name = value`, `@Cmd, A, B`, `Cmd, v, v`
 * (an absent value as nothing between commas), comments from column 1
 * without trailing blanks, LF line endings, runs of blank lines collapsed
 * to one, none at the start or the end.  With f->out NULL (and hold
 * false) it prints nothing: the compile only checks the syntax.
 */
void nvtxt_fmt_instruction(void *user, const struct nvtxt_instr *in);

/*
 * The same for a call (assignment false) or an assignment (true, one
 * token) given as its name and its values' tokens as written, quotes and
 * '$' included ({NULL, 0}: an absent value): what nvtxt_fmt_instruction
 * writes for its node, without the node (compile.c, for the lines the
 * fast path parsed).
 */
void nvtxt_fmt_tokens(struct nvtxt_fmt *f, bool assignment, struct nvtxt_str name,
		      const struct nvtxt_str *tokens, size_t n);

/*
 * Writes what the formatter holds in its buffer to f->out (nothing when
 * out is NULL or hold is set); call it after nvtxt_compile.  Returns -1
 * when f->out has an error, else 0.
 */
int nvtxt_fmt_flush(struct nvtxt_fmt *f);

#endif
